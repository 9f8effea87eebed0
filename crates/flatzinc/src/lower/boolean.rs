//! The boolean builtins over 0/1 variables, as the engine's logic: a clause
//! (`bool_clause`) is a clause with two watched literals; `r <-> and(as)`
//! and `r <-> or(as)` (`array_bool_and`, `array_bool_or`, `bool_and`,
//! `bool_or`, `bool_clause_reif`) are reified sums of literals, whose bounds
//! reasoning is unit propagation; parities (`bool_xor`, `array_bool_xor`)
//! are the engine's xor. Each has its half-reified `_imp` form. (The
//! comparisons `bool_eq`, `bool_le`, `bool_lt`, `bool_not`, `bool2int` and
//! the linear `bool_lin_*` are the integer ones, in `integer.rs`.)

use crate::error::LowerError;

use super::Lowering;
use super::arguments::Call;
use super::condition::{Enforcement, Relation, post};

/// `r <-> a ∧ b` (`bool_and(a, b, r)`).
pub(super) fn and(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = [call.value(lowering, 0)?, call.value(lowering, 1)?];
    let result = call.result(lowering, 2)?;
    post(lowering, call, result, Relation::and(&values))
}

/// `r <-> a ∨ b` (`bool_or(a, b, r)`).
pub(super) fn or(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = [call.value(lowering, 0)?, call.value(lowering, 1)?];
    let result = call.result(lowering, 2)?;
    post(lowering, call, result, Relation::clause(&values, &[]))
}

/// `bool_xor(a, b)` is `a != b`; `bool_xor(a, b, r)` is `r <-> a != b`.
pub(super) fn xor(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = [call.value(lowering, 0)?, call.value(lowering, 1)?];
    let enforcement = if call.item.arguments.len() == 2 { Enforcement::Always } else { call.result(lowering, 2)? };
    post(lowering, call, enforcement, Relation::parity(&values, true))
}

/// `bool_clause(as, bs)`: one of `as` is true or one of `bs` false (and its
/// reified and half-reified forms).
pub(super) fn clause(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let positive = call.values(lowering, 0)?;
    let negative = call.values(lowering, 1)?;
    let enforcement = call.enforcement(lowering, 2)?;
    post(lowering, call, enforcement, Relation::clause(&positive, &negative))
}

/// `r <-> or(as)` (`array_bool_or(as, r)`).
pub(super) fn array_or(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = call.values(lowering, 0)?;
    let result = call.result(lowering, 1)?;
    post(lowering, call, result, Relation::clause(&values, &[]))
}

/// `r <-> and(as)` (`array_bool_and(as, r)`).
pub(super) fn array_and(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = call.values(lowering, 0)?;
    let result = call.result(lowering, 1)?;
    post(lowering, call, result, Relation::and(&values))
}

/// An odd number of `as` are true (`array_bool_xor(as)`).
pub(super) fn array_xor(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = call.values(lowering, 0)?;
    post(lowering, call, Enforcement::Always, Relation::parity(&values, true))
}
