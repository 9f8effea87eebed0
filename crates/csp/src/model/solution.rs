//! A solution: one value per variable of a model.

use std::fmt;
use std::ops::Index;

use crate::ids::{Lit, VarId};
use crate::model::Model;

/// One value per variable of a model, satisfying every constraint.
#[derive(Clone)]
pub struct Solution<'m> {
    model: &'m Model,
    values: Vec<i64>,
}

impl<'m> Solution<'m> {
    pub(crate) fn new(model: &'m Model, values: Vec<i64>) -> Self {
        Solution { model, values }
    }

    /// The value of `var`.
    ///
    /// # Panics
    ///
    /// If `var` is a variable of another model (ask with
    /// [`get_value`](Solution::get_value) instead).
    pub fn value(&self, var: VarId) -> i64 {
        *self.slot(var)
    }

    /// Whether the literal is true (its variable is 1, or 0 for a negation).
    ///
    /// # Panics
    ///
    /// If its variable belongs to another model.
    pub fn is_true(&self, literal: Lit) -> bool {
        literal.is_true_at(*self.slot(literal.var()))
    }

    /// The value of `var`, or `None` if it is a variable of another model.
    pub fn get_value(&self, var: VarId) -> Option<i64> {
        self.model.contains_var(var).then(|| self.values[var.index()])
    }

    /// The value of `var`, or a panic that says it is not of this model.
    fn slot(&self, var: VarId) -> &i64 {
        if !self.model.contains_var(var) {
            panic!("variable {var:?} belongs to another model than this solution's");
        }
        &self.values[var.index()]
    }

    /// The value of the variable with this name, if there is one.
    pub fn get(&self, name: &str) -> Option<i64> {
        self.model.var(name).ok().map(|var| self.value(var))
    }

    /// All values, indexed by variable (creation order).
    pub fn values(&self) -> &[i64] {
        &self.values
    }

    /// The values, taking them out of the solution.
    pub fn into_values(self) -> Vec<i64> {
        self.values
    }

    /// The model this solves.
    pub fn model(&self) -> &'m Model {
        self.model
    }

    /// `(name, value)` pairs in creation order; unnamed variables are called `x`
    /// and their index.
    pub fn named_values(&self) -> impl Iterator<Item = (std::borrow::Cow<'m, str>, i64)> + '_ {
        self.model.vars().map(move |var| (self.model.display_name(var), self.value(var)))
    }
}

/// Two solutions are equal when they are of the same model and have the same values.
impl PartialEq for Solution<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.model, other.model) && self.values == other.values
    }
}

impl Eq for Solution<'_> {}

/// Looks a value up by variable; panics if the variable belongs to another
/// model (use [`Solution::get_value`] to ask instead).
impl Index<VarId> for Solution<'_> {
    type Output = i64;

    fn index(&self, var: VarId) -> &i64 {
        self.slot(var)
    }
}

/// Looks a value up by variable name; panics if no variable has the name (use
/// [`Solution::get`] to ask instead).
impl Index<&str> for Solution<'_> {
    type Output = i64;

    fn index(&self, name: &str) -> &i64 {
        match self.model.var(name) {
            Ok(var) => &self.values[var.index()],
            Err(err) => panic!("{err}"),
        }
    }
}

impl fmt::Debug for Solution<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.named_values()).finish()
    }
}

/// `name = value`, one per line.
impl fmt::Display for Solution<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, value)) in self.named_values().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{name} = {value}")?;
        }
        Ok(())
    }
}
