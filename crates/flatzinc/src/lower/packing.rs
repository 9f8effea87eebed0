//! The packing globals, as the mznlib declares them:
//! `csp_bin_packing_load(load, bin, w, base)` (the mznlib passes the first
//! index of MiniZinc's load array, which FlatZinc's 1-based arrays lose; it
//! also lowers `bin_packing` and `bin_packing_capa` onto it): the engine's
//! bin packing (Shaw's rules). No load and no item holds; items without loads
//! never reach here (the mznlib makes them false). `fzn_diffn(x, y, dx, dy)`
//! and `fzn_diffn_nonstrict`: the engine's diffn (each pair's disjunction on
//! the bounds); no rectangle holds.

use crate::error::LowerError;

use super::arguments::Call;
use super::scheduling::operands;
use super::{Lowering, model_error};

/// `load[b]` is the sum of `w[i]` over the items with `bin[i] = base + b`.
pub(super) fn bin_packing_load(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let loads = call.values(lowering, 0)?;
    let bins = call.values(lowering, 1)?;
    let sizes = call.ints(lowering, 2)?;
    let base = call.int(lowering, 3)?;
    if loads.is_empty() && bins.is_empty() && sizes.is_empty() {
        return Ok(());
    }
    // Constant loads as fixed variables: the scope is never empty.
    let loads = lowering.vars(&loads, line)?;
    let bins = lowering.vars(&bins, line)?;
    lowering.model.bin_packing_load(&loads, &bins, &sizes, base).map(drop).map_err(|e| model_error(e, line))
}

/// No two rectangles `(x[i], y[i], dx[i], dy[i])` overlap (`nonstrict`: a
/// rectangle of no width or height may be anywhere).
fn rectangles(lowering: &mut Lowering, call: Call<'_>, nonstrict: bool) -> Result<(), LowerError> {
    let line = call.line();
    let x = call.values(lowering, 0)?;
    let y = call.values(lowering, 1)?;
    let dx = operands(&call.values(lowering, 2)?);
    let dy = operands(&call.values(lowering, 3)?);
    if x.is_empty() && y.is_empty() && dx.is_empty() && dy.is_empty() {
        return Ok(());
    }
    let (x, y) = (lowering.vars(&x, line)?, lowering.vars(&y, line)?);
    let model = &mut lowering.model;
    let posted = if nonstrict { model.diffn_nonstrict(&x, &y, &dx, &dy) } else { model.diffn(&x, &y, &dx, &dy) };
    posted.map(drop).map_err(|e| model_error(e, line))
}

pub(super) fn diffn(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    rectangles(lowering, call, false)
}

pub(super) fn diffn_nonstrict(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    rectangles(lowering, call, true)
}
