//! The boolean builtins over 0/1 variables, each in an exact native form:
//! a function of two booleans (`bool_and`, `bool_or`, `bool_xor`, and the
//! reified comparisons) is its four-row truth table, domain consistent; a
//! clause and the array conjunctions and disjunctions are linear
//! inequalities over 0/1 variables, where bounds consistency is unit
//! propagation. (The plain comparisons `bool_eq`, `bool_le`, `bool_lt`,
//! `bool_not` and `bool2int` are the integer ones, in `integer.rs`.)

use csp::Relation;

use crate::error::LowerError;

use super::arguments::Call;
use super::globals::post_table;
use super::integer::post_linear;
use super::{Lowering, Value};

/// `r <-> f(a, b)` for the first three arguments, as the table of `f`.
fn truth_table(lowering: &mut Lowering, call: Call<'_>, f: fn(bool, bool) -> bool) -> Result<(), LowerError> {
    let values = vec![call.value(lowering, 0)?, call.value(lowering, 1)?, call.value(lowering, 2)?];
    let rows: Vec<Vec<i64>> = [(false, false), (false, true), (true, false), (true, true)]
        .into_iter()
        .map(|(a, b)| vec![i64::from(a), i64::from(b), i64::from(f(a, b))])
        .collect();
    post_table(lowering, call, &values, rows)
}

pub(super) fn and(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    truth_table(lowering, call, |a, b| a && b)
}

pub(super) fn or(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    truth_table(lowering, call, |a, b| a || b)
}

/// `bool_xor(a, b)` is `a != b`; `bool_xor(a, b, r)` is `r <-> a != b`.
pub(super) fn xor(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    if call.item.arguments.len() == 2 {
        return super::integer::ne(lowering, call);
    }
    truth_table(lowering, call, |a, b| a != b)
}

pub(super) fn eq_reif(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    truth_table(lowering, call, |a, b| a == b)
}

pub(super) fn le_reif(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    truth_table(lowering, call, |a, b| a <= b)
}

pub(super) fn lt_reif(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    truth_table(lowering, call, |a, b| !a & b)
}

/// `or(positive) \/ or(not negative)`: `sum(positive) - sum(negative) >= 1 - |negative|`.
fn post_clause(
    lowering: &mut Lowering,
    call: Call<'_>,
    positive: &[Value],
    negative: &[Value],
    extra: Option<(i64, Value)>,
) -> Result<(), LowerError> {
    let mut terms: Vec<(i64, Value)> =
        positive.iter().map(|&v| (1, v)).chain(negative.iter().map(|&v| (-1, v))).collect();
    let mut negatives = negative.len() as i64;
    if let Some((sign, value)) = extra {
        terms.push((sign, value));
        negatives += i64::from(sign < 0);
    }
    post_linear(lowering, call, &terms, Relation::Ge, 1 - negatives)
}

pub(super) fn clause(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let positive = call.values(lowering, 0)?;
    let negative = call.values(lowering, 1)?;
    post_clause(lowering, call, &positive, &negative, None)
}

/// `r <-> clause(positive, negative)`: `r -> clause`, and each literal of the
/// clause implies `r`.
pub(super) fn clause_reif(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let positive = call.values(lowering, 0)?;
    let negative = call.values(lowering, 1)?;
    let r = call.value(lowering, 2)?;
    post_clause(lowering, call, &positive, &negative, Some((-1, r)))?;
    for &a in &positive {
        post_clause(lowering, call, &[r], &[a], None)?;
    }
    for &b in &negative {
        post_clause(lowering, call, &[r, b], &[], None)?;
    }
    Ok(())
}

/// `r <-> or(as)`: `r -> or(as)`, and each `a -> r`.
pub(super) fn array_or(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = call.values(lowering, 0)?;
    let r = call.value(lowering, 1)?;
    post_clause(lowering, call, &values, &[r], None)?;
    for &a in &values {
        post_clause(lowering, call, &[r], &[a], None)?;
    }
    Ok(())
}

/// `r <-> and(as)`: each `r -> a`, and `and(as) -> r`.
pub(super) fn array_and(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = call.values(lowering, 0)?;
    let r = call.value(lowering, 1)?;
    for &a in &values {
        post_clause(lowering, call, &[a], &[r], None)?;
    }
    post_clause(lowering, call, &[r], &values, None)
}

/// `sum(a[i] * b[i]) = c` for a variable `c`.
pub(super) fn lin_eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let coefficients = call.ints(lowering, 0)?;
    let values = call.values(lowering, 1)?;
    if coefficients.len() != values.len() {
        return Err(call.invalid(format!("{} coefficients for {} values", coefficients.len(), values.len())));
    }
    let c = call.value(lowering, 2)?;
    let mut terms: Vec<(i64, Value)> = coefficients.into_iter().zip(values).collect();
    terms.push((-1, c));
    post_linear(lowering, call, &terms, Relation::Eq, 0)
}
