//! The constructors of the graph constraints: `circuit`, `subcircuit` and
//! `inverse`.

use super::{Model, ModelError};
use crate::constraint::AllDifferentStrength;
use crate::constraints::{Circuit, Inverse};
use crate::ids::{ConstraintId, VarId};

impl Model {
    /// The successors form one circuit through every node (MiniZinc's
    /// `circuit`): `successors[i]` is the node that follows node `base + i`,
    /// so the nodes are `base, base + 1, ...` (MiniZinc's arrays start at 1).
    /// No node follows itself; a single node has no circuit.
    ///
    /// Posts an `all_different` of matching strength on the successors too
    /// (when they are distinct variables), which with the circuit's own
    /// propagator (chains, strongly connected components) makes the model's
    /// reasoning; see [`Circuit`](crate::constraints::Circuit). Returns the
    /// circuit's id.
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    ///
    /// // The directed Hamiltonian cycles of a complete graph on 4 nodes: 3! = 6.
    /// let mut model = Model::new();
    /// let next = model.new_vars(4, 0..=3).unwrap();
    /// model.circuit(&next, 0).unwrap();
    /// let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
    /// assert_eq!(count.solutions, 6);
    /// ```
    pub fn circuit(&mut self, successors: &[VarId], base: i64) -> Result<ConstraintId, ModelError> {
        self.circuit_impl(successors, base, false)
    }

    /// The nodes that do not follow themselves form one circuit, or there are
    /// none (MiniZinc's `subcircuit`): `successors[i] = base + i` takes node
    /// `base + i` out of the circuit. Like [`circuit`](Model::circuit), with
    /// an `all_different` of matching strength on the successors.
    pub fn subcircuit(&mut self, successors: &[VarId], base: i64) -> Result<ConstraintId, ModelError> {
        self.circuit_impl(successors, base, true)
    }

    fn circuit_impl(&mut self, successors: &[VarId], base: i64, sub: bool) -> Result<ConstraintId, ModelError> {
        let kind = if sub { "subcircuit" } else { "circuit" };
        self.check_scope(kind, successors)?;
        self.check_positions(kind, base, successors.len())?;
        let id = self.post(Circuit::new(successors.to_vec(), base, sub))?;
        if self.check_distinct(kind, successors).is_ok() {
            self.all_different_with(successors, AllDifferentStrength::Matching)?;
        }
        Ok(id)
    }

    /// `f` and `invf` are inverse functions (MiniZinc's `inverse`): `f[i] =
    /// invf_base + j` exactly when `invf[j] = f_base + i`. `f_base` and
    /// `invf_base` number the positions of each array (1 for MiniZinc's
    /// arrays), which are the values the other array takes.
    ///
    /// Posts an `all_different` of matching strength on `f` too (when its
    /// variables are distinct): with it the model's reasoning is domain
    /// consistent on `inverse`; see [`Inverse`](crate::constraints::Inverse).
    /// Returns the channeling constraint's id.
    ///
    /// `f` and `invf` must be as long as each other (a bijection between
    /// positions needs as many of each): [`ModelError::LengthMismatch`]
    /// otherwise, naming both lengths.
    pub fn inverse(
        &mut self,
        f: &[VarId],
        f_base: i64,
        invf: &[VarId],
        invf_base: i64,
    ) -> Result<ConstraintId, ModelError> {
        const KIND: &str = "inverse";
        Self::check_length(KIND, ("invf", invf.len()), ("entry of f", f.len()))?;
        self.check_scope(KIND, f)?;
        self.check_scope(KIND, invf)?;
        self.check_positions(KIND, f_base, f.len())?;
        self.check_positions(KIND, invf_base, invf.len())?;
        let id = self.post(Inverse::new(f, f_base, invf, invf_base))?;
        if self.check_distinct(KIND, f).is_ok() {
            self.all_different_with(f, AllDifferentStrength::Matching)?;
        }
        Ok(id)
    }

    /// Checks that the positions `base..base + len` are values in range.
    fn check_positions(&self, kind: &str, base: i64, len: usize) -> Result<(), ModelError> {
        Self::check_value(|| format!("{kind} index base"), base)?;
        let last = i128::from(base) + len as i128 - 1;
        let last = i64::try_from(last).unwrap_or(i64::MAX);
        Self::check_value(|| format!("{kind} last index"), last)
    }
}
