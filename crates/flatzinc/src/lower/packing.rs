//! The packing globals, as the mznlib declares them:
//! `csp_bin_packing_load(load, bin, w, base)` (the mznlib passes the first
//! index of MiniZinc's load array, which FlatZinc's 1-based arrays lose; it
//! also lowers `bin_packing` and `bin_packing_capa` onto it): the engine's
//! bin packing (Shaw's rules). No load and no item holds; items without loads
//! never reach here (the mznlib makes them false).

use crate::error::LowerError;

use super::arguments::Call;
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
