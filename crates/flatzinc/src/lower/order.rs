//! The order globals, as the mznlib declares them: `fzn_lex_less_int`,
//! `fzn_lex_lesseq_int` and their boolean twins (Frisch et al.'s two
//! pointers, domain consistent when the variables are distinct), and
//! `fzn_increasing_int`, `fzn_decreasing_int` (and boolean), with the strict
//! `fzn_strictly_increasing_int` and `fzn_strictly_decreasing_int` (bounds
//! consistent: a forward and a backward pass). Arrays too short for the
//! engine are decided here: `lex_less([], y)` holds exactly when `y` is not
//! empty, `lex_lesseq([], y)` always, and an ordering of fewer than two
//! values always.

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, model_error};

/// `x <lex y` (`strict`) or `x <=lex y`, where a proper prefix is smaller.
fn lex(lowering: &mut Lowering, call: Call<'_>, strict: bool) -> Result<(), LowerError> {
    let line = call.line();
    let (x, y) = (call.values(lowering, 0)?, call.values(lowering, 1)?);
    if x.is_empty() || y.is_empty() {
        let holds = x.is_empty() && (!strict || !y.is_empty());
        if !holds {
            lowering.fail(|| format!("line {line}: {} is false on an empty array", call.item.name));
        }
        return Ok(());
    }
    let (x, y) = (lowering.vars(&x, line)?, lowering.vars(&y, line)?);
    let posted = if strict { lowering.model.lex_less(&x, &y) } else { lowering.model.lex_lesseq(&x, &y) };
    posted.map(drop).map_err(|e| model_error(e, line))
}

pub(super) fn lex_less(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    lex(lowering, call, true)
}

pub(super) fn lex_lesseq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    lex(lowering, call, false)
}

/// Which way an array is ordered.
#[derive(Clone, Copy)]
enum Direction {
    Increasing { strict: bool },
    Decreasing { strict: bool },
}

fn ordered(lowering: &mut Lowering, call: Call<'_>, direction: Direction) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    if values.len() < 2 {
        return Ok(());
    }
    let xs = lowering.vars(&values, line)?;
    let model = &mut lowering.model;
    let posted = match direction {
        Direction::Increasing { strict: false } => model.increasing(&xs),
        Direction::Increasing { strict: true } => model.strictly_increasing(&xs),
        Direction::Decreasing { strict: false } => model.decreasing(&xs),
        Direction::Decreasing { strict: true } => model.strictly_decreasing(&xs),
    };
    posted.map(drop).map_err(|e| model_error(e, line))
}

pub(super) fn increasing(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    ordered(lowering, call, Direction::Increasing { strict: false })
}

pub(super) fn strictly_increasing(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    ordered(lowering, call, Direction::Increasing { strict: true })
}

pub(super) fn decreasing(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    ordered(lowering, call, Direction::Decreasing { strict: false })
}

pub(super) fn strictly_decreasing(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    ordered(lowering, call, Direction::Decreasing { strict: true })
}
