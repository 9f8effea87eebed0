//! The arithmetic builtins, each one native constraint of the engine:
//! `int_times`, `int_div`, `int_mod`, `int_pow` (and `int_pow_fixed`, the
//! power by a constant exponent), `int_abs`, `int_min`, `int_max`,
//! `array_int_minimum` and `array_int_maximum`. Their strength is the
//! engine's (domain consistent on small domains, bounds consistent beyond;
//! see `csp::constraints::arithmetic`), computed in 128-bit arithmetic, so
//! no product or power overflows. A constant argument is a fixed variable.

use csp::VarId;

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, Value, model_error};

/// The variables of the first `count` arguments (a constant is a fixed variable).
fn vars<const N: usize>(lowering: &mut Lowering, call: Call<'_>) -> Result<[VarId; N], LowerError> {
    let mut vars = [None; N];
    for (i, slot) in vars.iter_mut().enumerate() {
        let value = call.value(lowering, i)?;
        *slot = Some(lowering.var(value, call.line())?);
    }
    Ok(vars.map(|v| v.expect("every argument was read")))
}

/// `x * y = z` (`int_times(x, y, z)`).
pub(super) fn times(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let [x, y, z] = vars(lowering, call)?;
    lowering.model.times(x, y, z).map(drop).map_err(|e| model_error(e, call.line()))
}

/// `x div y = z`, truncated toward zero, `y != 0` (`int_div(x, y, z)`).
pub(super) fn div(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let [x, y, z] = vars(lowering, call)?;
    lowering.model.div(x, y, z).map(drop).map_err(|e| model_error(e, call.line()))
}

/// `x mod y = z`, the remainder with the sign of `x`, `y != 0` (`int_mod(x, y, z)`).
pub(super) fn modulo(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let [x, y, z] = vars(lowering, call)?;
    lowering.model.modulo(x, y, z).map(drop).map_err(|e| model_error(e, call.line()))
}

/// `x ^ y = z` (`int_pow(x, y, z)`, and `int_pow_fixed` with a constant `y`):
/// a constant exponent is the engine's `pow_constant`.
pub(super) fn pow(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let x = call.value(lowering, 0)?;
    let x = lowering.var(x, line)?;
    let z = call.value(lowering, 2)?;
    let z = lowering.var(z, line)?;
    let posted = match call.value(lowering, 1)? {
        Value::Const(exponent) => lowering.model.pow_constant(x, exponent, z),
        Value::Var(y) => lowering.model.pow(x, y, z),
    };
    posted.map(drop).map_err(|e| model_error(e, line))
}

/// `|x| = z` (`int_abs(x, z)`).
pub(super) fn abs(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let [x, z] = vars(lowering, call)?;
    lowering.model.abs(x, z).map(drop).map_err(|e| model_error(e, call.line()))
}

/// `min(x, y) = z` (`int_min(x, y, z)`).
pub(super) fn min(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let [x, y, z] = vars(lowering, call)?;
    lowering.model.minimum(z, &[x, y]).map(drop).map_err(|e| model_error(e, call.line()))
}

/// `max(x, y) = z` (`int_max(x, y, z)`).
pub(super) fn max(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let [x, y, z] = vars(lowering, call)?;
    lowering.model.maximum(z, &[x, y]).map(drop).map_err(|e| model_error(e, call.line()))
}

/// `m = min(xs)` (`array_int_minimum(m, xs)`); false for an empty array,
/// which has no smallest element.
pub(super) fn array_minimum(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    extremum(lowering, call, false)
}

/// `m = max(xs)` (`array_int_maximum(m, xs)`).
pub(super) fn array_maximum(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    extremum(lowering, call, true)
}

fn extremum(lowering: &mut Lowering, call: Call<'_>, maximum: bool) -> Result<(), LowerError> {
    let line = call.line();
    let m = call.value(lowering, 0)?;
    let m = lowering.var(m, line)?;
    let values = call.values(lowering, 1)?;
    if values.is_empty() {
        lowering.fail(|| format!("line {line}: {} of an empty array", call.item.name));
        return Ok(());
    }
    let xs = lowering.vars(&values, line)?;
    let posted = if maximum { lowering.model.maximum(m, &xs) } else { lowering.model.minimum(m, &xs) };
    posted.map(drop).map_err(|e| model_error(e, line))
}
