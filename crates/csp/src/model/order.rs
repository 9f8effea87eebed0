//! The constructors of the order constraints on vectors: `lex_less`,
//! `lex_lesseq`, `increasing`, `decreasing` and their strict forms.

use super::{Model, ModelError};
use crate::constraints::{Increasing, Lex};
use crate::ids::{ConstraintId, VarId};

impl Model {
    /// `x` is lexicographically smaller than `y` (MiniZinc's `lex_less`, for
    /// integers and for booleans as 0/1 variables). The vectors may differ in
    /// length: a proper prefix is smaller. Domain consistent; see
    /// [`Lex`](crate::constraints::Lex).
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    ///
    /// let mut model = Model::new();
    /// let x = model.new_vars(2, 0..=1).unwrap();
    /// let y = model.new_vars(2, 0..=1).unwrap();
    /// model.lex_less(&x, &y).unwrap();
    /// // Of the 16 pairs of 2-bit vectors, 6 are strictly ordered.
    /// let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
    /// assert_eq!(count.solutions, 6);
    /// ```
    pub fn lex_less(&mut self, x: &[VarId], y: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Lex::new(x, y, true))
    }

    /// `x` is lexicographically smaller than or equal to `y` (MiniZinc's
    /// `lex_lesseq`); as [`lex_less`](Model::lex_less) otherwise.
    pub fn lex_lesseq(&mut self, x: &[VarId], y: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Lex::new(x, y, false))
    }

    /// `vars[0] <= vars[1] <= ...` (MiniZinc's `increasing`). Domain
    /// consistent; see [`Increasing`](crate::constraints::Increasing).
    pub fn increasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Increasing::new(vars.to_vec(), false))
    }

    /// `vars[0] < vars[1] < ...` (MiniZinc's `strictly_increasing`).
    pub fn strictly_increasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Increasing::new(vars.to_vec(), true))
    }

    /// `vars[0] >= vars[1] >= ...` (MiniZinc's `decreasing`): the variables
    /// reversed are increasing, and the constraint's scope is in that order.
    pub fn decreasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Increasing::new(vars.iter().rev().copied().collect(), false))
    }

    /// `vars[0] > vars[1] > ...` (MiniZinc's `strictly_decreasing`), as
    /// [`decreasing`](Model::decreasing).
    pub fn strictly_decreasing(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(Increasing::new(vars.iter().rev().copied().collect(), true))
    }
}
