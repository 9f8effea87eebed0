//! The model: variables with their domains, and the constraints posted on them.
//!
//! A model is plain data. It does not change while it is solved, so one model can
//! be solved many times, under many configurations, even from several threads.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

use indexmap::IndexMap;

use crate::constraint::AllDifferentStrength;
use crate::constraint::Constraint;
use crate::constraints::{AllDifferent, Equal, Less, Linear, NotEqual, Predicate, Relation, Table};
use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};

mod arithmetic;
mod counting;
mod derived;
mod element;
mod error;
mod expr;
mod extensional;
mod graph;
mod logic;
mod objective;
mod order;
mod scheduling;
mod solution;

pub use error::ModelError;
pub use expr::{Condition, LinearExpr};
pub use objective::{Objective, Sense};
pub use solution::Solution;

/// The largest magnitude of a value, an offset or a coefficient: `2^62`. Keeping
/// values in `-2^62..=2^62` lets the propagators add an offset to a value
/// without overflow.
pub const MAX_VALUE: i64 = 1 << 62;

/// The largest magnitude of a linear coefficient after repeated variables are
/// merged: `2^68`, 64 times [`MAX_VALUE`]. A merged coefficient beyond
/// `MAX_VALUE` (two in-range coefficients of one variable can sum past it)
/// is kept as several in-range terms over the variable, so the sum is exact.
pub const MAX_COEFFICIENT: i128 = 64 * MAX_VALUE as i128;

const NO_NAME: u32 = u32::MAX;

static NEXT_MODEL_ID: AtomicU32 = AtomicU32::new(1);

/// Variables, their domains, and constraints over them.
///
/// ```
/// use csp::{Model, Relation};
///
/// let mut model = Model::new();
/// let x = model.new_named_var("x", 0..=9).unwrap();
/// let y = model.new_named_var("y", vec![-3, 0, 2, 7]).unwrap();
/// model.linear(&[(2, x), (1, y)], Relation::Eq, 11).unwrap();
/// model.not_equal(x, y).unwrap();
/// let solution = model.solve().unwrap().expect("satisfiable");
/// assert_eq!(2 * solution["x"] + solution["y"], 11);
/// assert_eq!(model.var("z").unwrap_err().to_string(), "no variable is named 'z'");
/// ```
pub struct Model {
    id: u32,
    domains: Vec<Domain>,
    name_of: Vec<u32>,
    names: IndexMap<Box<str>, u32>,
    constraints: Vec<Box<dyn Constraint>>,
    labels: Vec<Option<Box<str>>>,
    objective: Option<Objective>,
    /// The linear constraints over wide domains, for the equations they
    /// imply (allocated with the first).
    derived: Option<Box<derived::Derived>>,
}

impl Default for Model {
    fn default() -> Self {
        Model::new()
    }
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("variables", &self.domains.len())
            .field("constraints", &self.constraints.len())
            .finish()
    }
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model {
            id: NEXT_MODEL_ID.fetch_add(1, Ordering::Relaxed),
            domains: Vec::new(),
            name_of: Vec::new(),
            names: IndexMap::new(),
            constraints: Vec::new(),
            labels: Vec::new(),
            objective: None,
            derived: None,
        }
    }

    // ---- variables ----

    /// A new variable with the given domain (a range such as `1..=9`, or values
    /// such as `vec![-3, 0, 2, 7]`).
    pub fn new_var(&mut self, domain: impl Into<Domain>) -> Result<VarId, ModelError> {
        let index = self.domains.len();
        self.add_var(domain.into(), NO_NAME, || format!("x{index}"))
    }

    /// A new variable with a name, which solutions print and [`Model::var`] finds.
    pub fn new_named_var(&mut self, name: impl Into<String>, domain: impl Into<Domain>) -> Result<VarId, ModelError> {
        let name: String = name.into();
        if self.names.contains_key(name.as_str()) {
            return Err(ModelError::DuplicateName { name });
        }
        let domain = domain.into();
        let label = name.clone();
        Self::check_domain(&domain, || label.clone())?;
        let (slot, _) = self.names.insert_full(name.into_boxed_str(), self.domains.len() as u32);
        self.add_var(domain, slot as u32, || label)
    }

    /// `count` new variables with the same domain.
    pub fn new_vars(&mut self, count: usize, domain: impl Into<Domain>) -> Result<Vec<VarId>, ModelError> {
        let domain = domain.into();
        (0..count).map(|_| self.new_var(domain.clone())).collect()
    }

    fn check_domain(domain: &Domain, name: impl FnOnce() -> String) -> Result<(), ModelError> {
        match (domain.min(), domain.max()) {
            (Some(min), _) if min < -MAX_VALUE => {
                Err(ModelError::ValueOutOfRange { context: format!("variable {}", name()), value: min })
            }
            (_, Some(max)) if max > MAX_VALUE => {
                Err(ModelError::ValueOutOfRange { context: format!("variable {}", name()), value: max })
            }
            (None, _) => Err(ModelError::EmptyDomain { var: name() }),
            _ => Ok(()),
        }
    }

    fn add_var(&mut self, domain: Domain, name: u32, label: impl FnOnce() -> String) -> Result<VarId, ModelError> {
        Self::check_domain(&domain, label)?;
        let index = u32::try_from(self.domains.len()).expect("fewer than 2^32 variables");
        self.domains.push(domain);
        self.name_of.push(name);
        Ok(VarId { index, model: self.id })
    }

    /// The variable with this name.
    pub fn var(&self, name: &str) -> Result<VarId, ModelError> {
        match self.names.get(name) {
            Some(&index) => Ok(VarId { index, model: self.id }),
            None => Err(ModelError::UnknownName { name: name.to_string() }),
        }
    }

    /// Whether `var` is a variable of this model (not of another one).
    pub fn contains_var(&self, var: VarId) -> bool {
        var.model == self.id && var.index() < self.domains.len()
    }

    /// The variable's name, if it was given one (`None` too for a variable of
    /// another model).
    pub fn name(&self, var: VarId) -> Option<&str> {
        if !self.contains_var(var) {
            return None;
        }
        let slot = self.name_of[var.index()];
        if slot == NO_NAME {
            return None;
        }
        self.names.get_index(slot as usize).map(|(name, _)| &**name)
    }

    /// The variable's name, or `x` and its index when it has none.
    pub fn display_name(&self, var: VarId) -> Cow<'_, str> {
        match self.name(var) {
            Some(name) => Cow::Borrowed(name),
            None => Cow::Owned(format!("x{}", var.index)),
        }
    }

    /// The variable's initial domain, or `None` for a variable of another model.
    pub fn domain(&self, var: VarId) -> Option<&Domain> {
        if !self.contains_var(var) {
            return None;
        }
        Some(&self.domains[var.index()])
    }

    /// All initial domains, indexed by variable.
    pub(crate) fn domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.domains.len()
    }

    /// The variables in creation order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        let model = self.id;
        (0..self.domains.len() as u32).map(move |index| VarId { index, model })
    }

    /// The `index`-th variable (in creation order), if there is one.
    pub fn var_at(&self, index: usize) -> Option<VarId> {
        (index < self.domains.len()).then_some(VarId { index: index as u32, model: self.id })
    }

    // ---- constraints ----

    /// Posts a constraint of your own (or a built-in one built by hand).
    pub fn post(&mut self, constraint: impl Constraint + 'static) -> Result<ConstraintId, ModelError> {
        self.post_boxed(Box::new(constraint))
    }

    /// Posts a boxed constraint.
    pub fn post_boxed(&mut self, constraint: Box<dyn Constraint>) -> Result<ConstraintId, ModelError> {
        self.check_scope(constraint.kind(), constraint.scope())?;
        let index = u32::try_from(self.constraints.len()).expect("fewer than 2^32 constraints");
        let id = ConstraintId { index, model: self.id };
        self.constraints.push(constraint);
        self.labels.push(None);
        Ok(id)
    }

    fn check_scope(&self, kind: &str, scope: &[VarId]) -> Result<(), ModelError> {
        if scope.is_empty() {
            return Err(ModelError::EmptyScope { constraint: kind.to_string() });
        }
        for (position, &var) in scope.iter().enumerate() {
            self.check_var(kind, position, var)?;
        }
        Ok(())
    }

    fn check_var(&self, kind: &str, position: usize, var: VarId) -> Result<(), ModelError> {
        if var.model != self.id {
            return Err(ModelError::ForeignVariable { constraint: kind.to_string(), position, var });
        }
        if var.index() >= self.domains.len() {
            return Err(ModelError::UnknownVariable { constraint: kind.to_string(), position, var });
        }
        Ok(())
    }

    fn check_value(context: impl FnOnce() -> String, value: i64) -> Result<(), ModelError> {
        if (-MAX_VALUE..=MAX_VALUE).contains(&value) {
            Ok(())
        } else {
            Err(ModelError::ValueOutOfRange { context: context(), value })
        }
    }

    /// The position of a constraint of this model (`None` for another model's).
    fn constraint_index(&self, constraint: ConstraintId) -> Option<usize> {
        (constraint.model == self.id && constraint.index() < self.constraints.len()).then_some(constraint.index())
    }

    /// Gives a constraint a label that traces and statistics show (for example
    /// `"row 3"`).
    pub fn set_label(&mut self, constraint: ConstraintId, label: impl Into<String>) -> Result<(), ModelError> {
        match self.constraint_index(constraint) {
            Some(index) => {
                self.labels[index] = Some(label.into().into_boxed_str());
                Ok(())
            }
            None => Err(ModelError::UnknownConstraint { id: constraint }),
        }
    }

    /// A constraint's label, if it was given one.
    pub fn label(&self, constraint: ConstraintId) -> Option<&str> {
        self.labels[self.constraint_index(constraint)?].as_deref()
    }

    /// The label of a constraint, or its kind and number when it has none.
    pub fn describe(&self, constraint: ConstraintId) -> Cow<'_, str> {
        match self.label(constraint) {
            Some(label) => Cow::Borrowed(label),
            None => match self.constraint(constraint) {
                Some(c) => Cow::Owned(format!("{} #{}", c.kind(), constraint.index)),
                None => Cow::Owned(format!("#{}", constraint.index)),
            },
        }
    }

    /// The constraint with this id, or `None` for another model's.
    pub fn constraint(&self, constraint: ConstraintId) -> Option<&dyn Constraint> {
        self.constraint_index(constraint).map(|index| &*self.constraints[index])
    }

    /// The `index`-th constraint (in posting order), if there is one.
    pub fn constraint_at(&self, index: usize) -> Option<ConstraintId> {
        (index < self.constraints.len()).then_some(ConstraintId { index: index as u32, model: self.id })
    }

    /// The constraints in posting order.
    pub fn constraints(&self) -> impl ExactSizeIterator<Item = (ConstraintId, &dyn Constraint)> + '_ {
        let model = self.id;
        self.constraints.iter().enumerate().map(move |(i, c)| (ConstraintId { index: i as u32, model }, &**c))
    }

    /// The number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// The constraints that a complete assignment (one value per variable, in
    /// creation order) violates, checked with [`Constraint::is_satisfied`] alone,
    /// independently of any propagator. Empty for a solution.
    pub fn violated(&self, values: &[i64]) -> Vec<ConstraintId> {
        let mut tuple = Vec::new();
        self.constraints()
            .filter(|(_, c)| {
                tuple.clear();
                tuple.extend(c.scope().iter().map(|v| values[v.index()]));
                !c.is_satisfied(&tuple)
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// Whether a complete assignment is in every domain and satisfies every constraint.
    pub fn is_solution(&self, values: &[i64]) -> bool {
        values.len() == self.domains.len()
            && values.iter().zip(&self.domains).all(|(v, d)| d.contains(*v))
            && self.violated(values).is_empty()
    }

    // ---- built-in constraints ----

    /// `x == y`, domain consistent.
    pub fn equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Equal::new(x, y))
    }

    /// `x != y`, domain consistent.
    pub fn not_equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post(NotEqual::new(x, y, 0))
    }

    /// `x != y + offset` (N-queens diagonals are `q[i] != q[j] + (j - i)`), domain consistent.
    pub fn not_equal_offset(&mut self, x: VarId, y: VarId, offset: i64) -> Result<ConstraintId, ModelError> {
        Self::check_value(|| "not_equal offset".to_string(), offset)?;
        self.post(NotEqual::new(x, y, offset))
    }

    /// `x < y`, domain consistent.
    pub fn less_than(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Less::new(x, y, true))
    }

    /// `x <= y`, domain consistent.
    pub fn less_or_equal(&mut self, x: VarId, y: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Less::new(x, y, false))
    }

    /// The variables take pairwise different values; the propagator's strength is
    /// [`SolveConfig::all_different`](crate::SolveConfig::all_different).
    pub fn all_different(&mut self, vars: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.all_different_impl(vars, None, None)
    }

    /// The variables take pairwise different values, with a propagator of the
    /// given strength whatever the solver's configuration says.
    pub fn all_different_with(
        &mut self,
        vars: &[VarId],
        strength: AllDifferentStrength,
    ) -> Result<ConstraintId, ModelError> {
        self.all_different_impl(vars, None, Some(strength))
    }

    /// The values `vars[i] + offsets[i]` are pairwise different (the diagonals of
    /// N-queens are `all_different_offset(q, [0, 1, 2, ...])` and `[0, -1, -2, ...]`).
    pub fn all_different_offset(&mut self, vars: &[VarId], offsets: &[i64]) -> Result<ConstraintId, ModelError> {
        self.all_different_impl(vars, Some(offsets), None)
    }

    /// [`all_different_offset`](Model::all_different_offset) with a fixed strength.
    pub fn all_different_offset_with(
        &mut self,
        vars: &[VarId],
        offsets: &[i64],
        strength: AllDifferentStrength,
    ) -> Result<ConstraintId, ModelError> {
        self.all_different_impl(vars, Some(offsets), Some(strength))
    }

    fn all_different_impl(
        &mut self,
        vars: &[VarId],
        offsets: Option<&[i64]>,
        strength: Option<AllDifferentStrength>,
    ) -> Result<ConstraintId, ModelError> {
        const KIND: &str = "all_different";
        self.check_scope(KIND, vars)?;
        self.check_distinct(KIND, vars)?;
        if let Some(offsets) = offsets {
            Self::check_length(KIND, ("offsets", offsets.len()), ("variable", vars.len()))?;
            for &offset in offsets {
                Self::check_value(|| "all_different offset".to_string(), offset)?;
            }
        }
        self.post(AllDifferent::new(vars.to_vec(), offsets.map(<[i64]>::to_vec), strength))
    }

    /// Checks that a list `(what, found)` has one entry per `(per, expected)`.
    fn check_length(
        kind: &str,
        (what, found): (&'static str, usize),
        (per, expected): (&'static str, usize),
    ) -> Result<(), ModelError> {
        if found == expected {
            return Ok(());
        }
        Err(ModelError::LengthMismatch { constraint: kind.to_string(), what, per, expected, found })
    }

    fn check_distinct(&self, kind: &str, vars: &[VarId]) -> Result<(), ModelError> {
        if vars.len() <= 64 {
            for (j, &v) in vars.iter().enumerate() {
                if let Some(i) = vars[..j].iter().position(|&u| u == v) {
                    return Err(self.duplicate(kind, v, i, j));
                }
            }
            return Ok(());
        }
        let mut first = vec![u32::MAX; self.domains.len()];
        for (j, &v) in vars.iter().enumerate() {
            let slot = &mut first[v.index()];
            if *slot != u32::MAX {
                return Err(self.duplicate(kind, v, *slot as usize, j));
            }
            *slot = j as u32;
        }
        Ok(())
    }

    fn duplicate(&self, kind: &str, var: VarId, first: usize, second: usize) -> ModelError {
        ModelError::DuplicateVariable {
            constraint: kind.to_string(),
            var: self.display_name(var).into_owned(),
            first,
            second,
        }
    }

    /// `sum(coefficient * variable) relation rhs`, propagated on bounds (see
    /// [`Linear`](crate::constraints::Linear) for the strength of each
    /// relation). A variable given twice has its coefficients added. The same
    /// with operators: `model.add((2 * x + y).le(7))`, which also picks a
    /// more specific constraint for one or two variables. The right-hand side
    /// may be any `i64` (beyond `±2^62` sums of several values reach it);
    /// one no assignment can meet leaves the model unsatisfiable.
    pub fn linear(&mut self, terms: &[(i64, VarId)], relation: Relation, rhs: i64) -> Result<ConstraintId, ModelError> {
        const KIND: &str = "linear";
        let vars: Vec<VarId> = terms.iter().map(|&(_, v)| v).collect();
        self.check_scope(KIND, &vars)?;
        for &(coefficient, _) in terms {
            Self::check_value(|| "linear coefficient".to_string(), coefficient)?;
        }
        let (terms, rhs) = self.normalize_linear(terms.iter().map(|&(c, v)| (i128::from(c), v)), i128::from(rhs))?;
        self.post_linear(Linear::new(terms, relation, rhs))
    }

    /// The variables take the values of one of the rows (allowed tuples), with
    /// generalized arc consistency.
    pub fn table(&mut self, vars: &[VarId], rows: &[Vec<i64>]) -> Result<ConstraintId, ModelError> {
        self.check_scope("table", vars)?;
        let flat = extensional::flat_rows(vars, rows)?;
        self.post(Table::new(vars.to_vec(), flat))
    }

    /// A constraint of any arity defined by a closure over the scope's values (in
    /// scope order). It is propagated by generic support checking.
    pub fn predicate<F>(&mut self, vars: &[VarId], check: F) -> Result<ConstraintId, ModelError>
    where
        F: Fn(&[i64]) -> bool + Send + Sync + 'static,
    {
        self.post(Predicate::new(vars.to_vec(), check))
    }

    pub(crate) fn id(&self) -> u32 {
        self.id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_arguments_are_typed_errors() {
        let mut model = Model::new();
        let mut other = Model::new();
        let x = model.new_named_var("x", 1..=3).unwrap();
        let y = model.new_var(1..=3).unwrap();
        let z = other.new_var(1..=3).unwrap();
        assert_eq!(model.new_var(Domain::range(3, 1)), Err(ModelError::EmptyDomain { var: "x2".into() }));
        assert_eq!(model.new_named_var("x", 1..=2), Err(ModelError::DuplicateName { name: "x".into() }));
        assert!(matches!(model.not_equal(x, z), Err(ModelError::ForeignVariable { position: 1, .. })));
        assert_eq!(
            model.all_different(&[x, y, x]).unwrap_err().to_string(),
            "all_different: variable x appears twice, at positions 0 and 2"
        );
        assert_eq!(
            model.table(&[x, y], &[vec![1, 2], vec![1]]).unwrap_err(),
            ModelError::TableArity { row: 1, expected: 2, found: 1 }
        );
        assert!(matches!(model.all_different_offset(&[x, y], &[1]), Err(ModelError::LengthMismatch { .. })));
        assert!(matches!(model.var("nobody"), Err(ModelError::UnknownName { .. })));
        assert!(matches!(model.all_different(&[]), Err(ModelError::EmptyScope { .. })));
        assert!(matches!(model.new_var(0..=i64::MAX), Err(ModelError::ValueOutOfRange { .. })));
        assert!(matches!(
            model.set_label(ConstraintId { index: 99, model: model.id }, "nothing"),
            Err(ModelError::UnknownConstraint { .. })
        ));
    }

    #[test]
    fn duplicates_are_found_in_long_scopes() {
        let mut model = Model::new();
        let mut vars = model.new_vars(100, 0..=200).unwrap();
        vars.push(vars[17]);
        assert!(matches!(
            model.all_different(&vars),
            Err(ModelError::DuplicateVariable { first: 17, second: 100, .. })
        ));
    }

    #[test]
    fn a_million_range_variables_stay_small() {
        let mut model = Model::new();
        let vars = model.new_vars(1_000_000, 1..=1_000_000).unwrap();
        assert_eq!(vars.len(), 1_000_000);
        // Domain is 24 bytes and the name slot 4: far below 200 MB.
        assert!(std::mem::size_of::<Domain>() <= 24);
    }

    #[test]
    fn names_are_found_and_displayed() {
        let mut model = Model::new();
        let a = model.new_named_var("a", 0..=1).unwrap();
        let b = model.new_var(0..=1).unwrap();
        assert_eq!(model.var("a"), Ok(a));
        assert_eq!(model.display_name(a), "a");
        assert_eq!(model.display_name(b), "x1");
    }
}
