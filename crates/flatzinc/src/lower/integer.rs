//! The integer builtins: comparisons (`int_eq`, `int_ne`, `int_le`,
//! `int_lt`, and their boolean twins `bool_eq`, `bool_le`, `bool_lt`,
//! `bool_not`, `bool2int`), linear sums (`int_lin_eq`, `int_lin_le`,
//! `int_lin_ne`, `bool_lin_eq`, `bool_lin_le`), and membership in a constant
//! set (`set_in`), each also reified (`_reif`) and half-reified (`_imp`)
//! where FlatZinc has that form. Each is one [`Relation`], posted by the
//! sibling module `condition`: constants folded, then the engine's most
//! specific constraint (`x <= y` a binary constraint, `2*x <= 7` a set
//! membership, a longer sum a linear constraint).

use csp::Relation as Comparison;

use crate::error::LowerError;

use super::arguments::Call;
use super::condition::{Enforcement, Relation, post};
use super::{Lowering, Value, domain_of};

fn compare(lowering: &mut Lowering, call: Call<'_>, comparison: Comparison) -> Result<(), LowerError> {
    let (x, y) = (call.value(lowering, 0)?, call.value(lowering, 1)?);
    let enforcement = call.enforcement(lowering, 2)?;
    let relation = Relation::compare(lowering, call, x, comparison, y)?;
    post(lowering, call, enforcement, relation)
}

/// `x = y`, posted plainly for `call` (an element with a constant index).
pub(super) fn equal(lowering: &mut Lowering, call: Call<'_>, x: Value, y: Value) -> Result<(), LowerError> {
    let relation = Relation::compare(lowering, call, x, Comparison::Eq, y)?;
    post(lowering, call, Enforcement::Always, relation)
}

/// `int_eq`, `bool_eq`, `bool2int` and their reified forms.
pub(super) fn eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Eq)
}

/// `int_ne` and `bool_not` (`a != b` over booleans).
pub(super) fn ne(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Ne)
}

pub(super) fn le(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Le)
}

pub(super) fn lt(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Lt)
}

/// `sum(a[i] * x[i]) comparison c` for `int_lin_*` and `bool_lin_le`.
fn linear(lowering: &mut Lowering, call: Call<'_>, comparison: Comparison) -> Result<(), LowerError> {
    let terms = linear_terms(lowering, call)?;
    let rhs = call.int(lowering, 2)?;
    let enforcement = call.enforcement(lowering, 3)?;
    let relation = Relation::linear(lowering, call, &terms, comparison, rhs)?;
    post(lowering, call, enforcement, relation)
}

pub(super) fn lin_eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    linear(lowering, call, Comparison::Eq)
}

pub(super) fn lin_le(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    linear(lowering, call, Comparison::Le)
}

pub(super) fn lin_ne(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    linear(lowering, call, Comparison::Ne)
}

/// `bool_lin_eq(a, b, c)`: `sum(a[i] * b[i]) = c`, where `c` may be a variable.
pub(super) fn bool_lin_eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let mut terms = linear_terms(lowering, call)?;
    terms.push((-1, call.value(lowering, 2)?));
    let enforcement = call.enforcement(lowering, 3)?;
    let relation = Relation::linear(lowering, call, &terms, Comparison::Eq, 0)?;
    post(lowering, call, enforcement, relation)
}

/// `int_plus(a, b, c)`: `a + b = c`.
pub(super) fn plus(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let terms = [(1, call.value(lowering, 0)?), (1, call.value(lowering, 1)?), (-1, call.value(lowering, 2)?)];
    let relation = Relation::linear(lowering, call, &terms, Comparison::Eq, 0)?;
    post(lowering, call, Enforcement::Always, relation)
}

/// The `(coefficient, value)` pairs of a linear builtin's first two arguments.
fn linear_terms(lowering: &Lowering, call: Call<'_>) -> Result<Vec<(i64, Value)>, LowerError> {
    let coefficients = call.ints(lowering, 0)?;
    let values = call.values(lowering, 1)?;
    if coefficients.len() != values.len() {
        return Err(call.invalid(format!("{} coefficients for {} values", coefficients.len(), values.len())));
    }
    Ok(coefficients.into_iter().zip(values).collect())
}

/// `x ∈ S` for a constant set `S` (`set_in`, and reified).
pub(super) fn set_in(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let x = call.value(lowering, 0)?;
    let set = domain_of(&call.set(lowering, 1)?);
    let enforcement = call.enforcement(lowering, 2)?;
    post(lowering, call, enforcement, Relation::in_set(x, set))
}
