//! The objective of a model: a variable or a linear expression to minimise
//! or maximise (an expression gets a variable equal to it). The model only
//! stores it; [`Solver::optimize`](crate::Solver::optimize) and
//! [`Solver::improvements`](crate::Solver::improvements) search for the best
//! solution by branch and bound.

use crate::constraints::{Linear, Relation};
use crate::ids::VarId;

use super::expr::LinearExpr;

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
    /// Makes `objective` (a variable, or any linear expression of variables,
    /// literals and constants) the objective, to minimise, and returns the
    /// variable that holds its value in every solution. A model has at most
    /// one objective: this replaces any earlier one.
    ///
    /// A variable is its own objective; another expression gets a new
    /// variable equal to it, whose domain is the range the expression can
    /// take (checked to lie within `-MAX_VALUE..=MAX_VALUE`:
    /// [`ModelError::ObjectiveOutOfRange`] otherwise).
    ///
    /// The objective concerns [`Solver::optimize`](crate::Solver::optimize) and
    /// [`Solver::improvements`](crate::Solver::improvements) only:
    /// [`solve`](crate::Solver::solve), [`solutions`](crate::Solver::solutions)
    /// and [`count`](crate::Solver::count) answer the satisfaction question
    /// and ignore it.
    ///
    /// ```
    /// use csp::{Model, OptimizationOutcome, SolveConfig, Solver};
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(0..=10).unwrap();
    /// let y = model.new_var(0..=10).unwrap();
    /// model.add((x + y).ge(7)).unwrap();
    /// let cost = model.minimize(3 * x + 2 * y).unwrap();
    /// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    /// let OptimizationOutcome::Optimal { solution, objective } = solver.optimize() else { panic!() };
    /// assert_eq!((objective, solution[cost], solution[x], solution[y]), (14, 14, 0, 7));
    /// ```
    pub fn minimize(&mut self, objective: impl Into<LinearExpr>) -> Result<VarId, ModelError> {
        self.set_objective(objective.into(), Sense::Minimize)
    }

    /// Makes `objective` the objective, to maximise, and returns the variable
    /// that holds its value (see [`Model::minimize`]).
    pub fn maximize(&mut self, objective: impl Into<LinearExpr>) -> Result<VarId, ModelError> {
        self.set_objective(objective.into(), Sense::Maximize)
    }

    /// The objective, if one was set.
    pub fn objective(&self) -> Option<Objective> {
        self.objective
    }

    /// Removes the objective: the model is a satisfaction problem again.
    pub fn clear_objective(&mut self) {
        self.objective = None;
    }

    fn set_objective(&mut self, objective: LinearExpr, sense: Sense) -> Result<VarId, ModelError> {
        let var = self.objective_var(objective)?;
        self.objective = Some(Objective { var, sense });
        Ok(var)
    }

    /// The variable whose value is the expression: the expression's variable
    /// when it is one (with coefficient 1 and no constant), or a new variable
    /// equal to it, over the range it can take.
    fn objective_var(&mut self, objective: LinearExpr) -> Result<VarId, ModelError> {
        let (terms, constant) = objective.into_parts()?;
        // sum(terms) + constant = v, posted as sum(terms) - v = -constant.
        let rhs = constant.checked_neg().ok_or(ModelError::LinearOverflow { terms: terms.len() })?;
        for (position, &(_, var)) in terms.iter().enumerate() {
            self.check_var("objective", position, var)?;
        }
        let (terms, rhs) = self.normalize_linear(terms, rhs)?;
        let terms: Vec<(i64, VarId)> = terms.into_iter().filter(|&(c, _)| c != 0).collect();
        if let ([(1, var)], 0) = (terms.as_slice(), rhs) {
            return Ok(*var);
        }
        let (mut lo, mut hi) = (-rhs, -rhs);
        for &(coefficient, var) in &terms {
            let domain = &self.domains[var.index()];
            let (min, max) = (domain.min().unwrap_or(0), domain.max().unwrap_or(0));
            let (a, b) = (i128::from(coefficient) * i128::from(min), i128::from(coefficient) * i128::from(max));
            lo += a.min(b);
            hi += a.max(b);
        }
        if lo.unsigned_abs() > MAX_VALUE.unsigned_abs().into() || hi.unsigned_abs() > MAX_VALUE.unsigned_abs().into() {
            return Err(ModelError::ObjectiveOutOfRange { min: lo, max: hi });
        }
        let var = self.new_var(lo as i64..=hi as i64)?;
        let mut equation = terms;
        equation.push((-1, var));
        // The terms are the model's own, checked and merged above.
        self.post_linear(Linear::new(equation, Relation::Eq, rhs))?;
        Ok(var)
    }
}
