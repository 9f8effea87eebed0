//! The graph globals, as the mznlib declares them: `csp_circuit(x, base)`
//! and `csp_subcircuit(x, base)` (the mznlib passes the index base of
//! MiniZinc's array, which FlatZinc's 1-based arrays lose), and
//! `csp_inverse(f, f_base, invf, invf_base)`: the engine's circuit (chains
//! and strongly connected components, with a matching all-different) and
//! inverse (channeling, with a matching all-different). Empty arrays are
//! decided here: no node holds, and an `inverse` of an empty and a non-empty
//! array does not (the other array's values have nothing to name).

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, model_error};

/// `x` is a Hamiltonian circuit (`sub`: a circuit over some nodes, the others
/// their own successors), its nodes numbered from `base`.
fn circuit(lowering: &mut Lowering, call: Call<'_>, sub: bool) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    let base = call.int(lowering, 1)?;
    if values.is_empty() {
        return Ok(());
    }
    let xs = lowering.vars(&values, line)?;
    let posted = if sub { lowering.model.subcircuit(&xs, base) } else { lowering.model.circuit(&xs, base) };
    posted.map(drop).map_err(|e| model_error(e, line))
}

pub(super) fn hamiltonian(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    circuit(lowering, call, false)
}

pub(super) fn subcircuit(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    circuit(lowering, call, true)
}

/// `f[i] = j <-> invf[j] = i`, over the index bases of the two arrays.
pub(super) fn inverse(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let (f, f_base) = (call.values(lowering, 0)?, call.int(lowering, 1)?);
    let (invf, invf_base) = (call.values(lowering, 2)?, call.int(lowering, 3)?);
    // In MiniZinc, arrays of different lengths are no error but have no
    // bijection between them: the model is unsatisfiable (the engine's
    // `Model::inverse` refuses them, so the front end decides it here).
    if f.len() != invf.len() {
        lowering.fail(|| format!("line {line}: inverse of arrays of lengths {} and {}", f.len(), invf.len()));
        return Ok(());
    }
    if f.is_empty() {
        return Ok(());
    }
    let (f, invf) = (lowering.vars(&f, line)?, lowering.vars(&invf, line)?);
    lowering.model.inverse(&f, f_base, &invf, invf_base).map(drop).map_err(|e| model_error(e, line))
}
