//! The scheduling globals, as the mznlib declares them: `fzn_cumulative`
//! (time-tabling), `fzn_disjunctive` and `fzn_disjunctive_strict` (Vilím's
//! Θ-tree: edge-finding and detectable precedences). Durations, uses and the
//! capacity may be variables or constants; no task at all holds.

use csp::Operand;

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, Value, model_error};

/// The values as the engine's operands (the packing globals share it).
pub(super) fn operands(values: &[Value]) -> Vec<Operand> {
    values
        .iter()
        .map(|&value| match value {
            Value::Var(var) => Operand::Var(var),
            Value::Const(constant) => Operand::Const(constant),
        })
        .collect()
}

/// `fzn_cumulative(s, d, r, b)`: at no time do the running tasks use more
/// than `b` (durations and uses at least 0, and `b >= 0` when there is a task).
pub(super) fn cumulative(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let starts = call.values(lowering, 0)?;
    let durations = operands(&call.values(lowering, 1)?);
    let resources = operands(&call.values(lowering, 2)?);
    let capacity = operands(&[call.value(lowering, 3)?])[0];
    if starts.is_empty() && durations.is_empty() && resources.is_empty() {
        return Ok(());
    }
    let starts = lowering.vars(&starts, line)?;
    lowering.model.cumulative(&starts, &durations, &resources, capacity).map(drop).map_err(|e| model_error(e, line))
}

/// `fzn_disjunctive(s, d)` (`strict`: `fzn_disjunctive_strict`): no two tasks
/// overlap (a task of no duration may, unless strict; durations at least 0).
fn disjunctive(lowering: &mut Lowering, call: Call<'_>, strict: bool) -> Result<(), LowerError> {
    let line = call.line();
    let starts = call.values(lowering, 0)?;
    let durations = operands(&call.values(lowering, 1)?);
    if starts.is_empty() && durations.is_empty() {
        return Ok(());
    }
    let starts = lowering.vars(&starts, line)?;
    let model = &mut lowering.model;
    let posted =
        if strict { model.disjunctive_strict(&starts, &durations) } else { model.disjunctive(&starts, &durations) };
    posted.map(drop).map_err(|e| model_error(e, line))
}

pub(super) fn disjunctive_plain(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    disjunctive(lowering, call, false)
}

pub(super) fn disjunctive_strict(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    disjunctive(lowering, call, true)
}
