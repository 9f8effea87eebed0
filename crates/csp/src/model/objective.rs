//! The objective of a model: a variable to minimise or maximise. The model
//! only stores it; [`Solver::optimize`](crate::Solver::optimize) and
//! [`Solver::improvements`](crate::Solver::improvements) search for the best
//! solution by branch and bound.

use crate::constraints::Relation;
use crate::ids::VarId;

use super::{MAX_VALUE, Model, ModelError};

/// Whether the objective is to be made as small or as large as possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sense {
    /// The smaller the better.
    Minimize,
    /// The larger the better.
    Maximize,
}

/// What a model optimises: a variable and a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Objective {
    /// The variable whose value is the objective.
    pub var: VarId,
    /// Whether smaller or larger is better.
    pub sense: Sense,
}

impl Objective {
    /// Whether `candidate` is strictly better than `incumbent`.
    pub fn improves(&self, candidate: i64, incumbent: i64) -> bool {
        match self.sense {
            Sense::Minimize => candidate < incumbent,
            Sense::Maximize => candidate > incumbent,
        }
    }
}

impl Model {
    /// Makes `var` the objective, to minimise. A model has at most one
    /// objective: this replaces any earlier one.
    ///
    /// The objective concerns [`Solver::optimize`](crate::Solver::optimize) and
    /// [`Solver::improvements`](crate::Solver::improvements) only:
    /// [`solve`](crate::Solver::solve), [`solutions`](crate::Solver::solutions)
    /// and [`count`](crate::Solver::count) answer the satisfaction question
    /// and ignore it.
    ///
    /// ```
    /// use csp::{Model, OptimizationOutcome, Relation, SolveConfig, Solver};
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=10).unwrap();
    /// let y = model.new_var(0..=10).unwrap();
    /// model.linear(&[(1, x), (1, y)], Relation::Ge, 7).unwrap();
    /// let cost = model.minimize_linear(&[(3, x), (2, y)]).unwrap();
    /// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    /// let OptimizationOutcome::Optimal { solution, objective } = solver.optimize() else { panic!() };
    /// assert_eq!((objective, solution[cost], solution[x], solution[y]), (14, 14, 0, 7));
    /// ```
    pub fn minimize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.set_objective(var, Sense::Minimize)
    }

    /// Makes `var` the objective, to maximise (see [`Model::minimize`]).
    pub fn maximize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.set_objective(var, Sense::Maximize)
    }

    /// Minimises `sum(coefficient * variable)`: creates a variable equal to the
    /// sum (its domain the range the sum can take, checked to lie within
    /// `-MAX_VALUE..=MAX_VALUE`), makes it the objective and returns it, so
    /// that a solution's cost can be read from it.
    pub fn minimize_linear(&mut self, terms: &[(i64, VarId)]) -> Result<VarId, ModelError> {
        let var = self.sum_var(terms)?;
        self.minimize(var)?;
        Ok(var)
    }

    /// Maximises `sum(coefficient * variable)` (see [`Model::minimize_linear`]).
    pub fn maximize_linear(&mut self, terms: &[(i64, VarId)]) -> Result<VarId, ModelError> {
        let var = self.sum_var(terms)?;
        self.maximize(var)?;
        Ok(var)
    }

    /// The objective, if one was set.
    pub fn objective(&self) -> Option<Objective> {
        self.objective
    }

    /// Removes the objective: the model is a satisfaction problem again.
    pub fn clear_objective(&mut self) {
        self.objective = None;
    }

    fn set_objective(&mut self, var: VarId, sense: Sense) -> Result<(), ModelError> {
        self.check_var("objective", 0, var)?;
        self.objective = Some(Objective { var, sense });
        Ok(())
    }

    /// A new variable equal to the sum, over the range the sum can take.
    fn sum_var(&mut self, terms: &[(i64, VarId)]) -> Result<VarId, ModelError> {
        let vars: Vec<VarId> = terms.iter().map(|&(_, v)| v).collect();
        self.check_scope("objective", &vars)?;
        let (mut lo, mut hi) = (0i128, 0i128);
        for &(coefficient, var) in terms {
            let domain = self.domain(var).expect("check_scope accepted the variable");
            let (min, max) = (domain.min().unwrap_or(0), domain.max().unwrap_or(0));
            let (a, b) = (i128::from(coefficient) * i128::from(min), i128::from(coefficient) * i128::from(max));
            lo = lo.saturating_add(a.min(b));
            hi = hi.saturating_add(a.max(b));
        }
        for bound in [lo, hi] {
            if bound.unsigned_abs() > MAX_VALUE.unsigned_abs() as u128 {
                return Err(ModelError::ObjectiveOutOfRange { min: lo, max: hi });
            }
        }
        let var = self.new_var(lo as i64..=hi as i64)?;
        let mut equation = terms.to_vec();
        equation.push((-1, var));
        self.linear(&equation, Relation::Eq, 0)?;
        Ok(var)
    }
}
