//! The identifiers a model hands out: variables, constraints, and literals
//! (a boolean variable or its negation).
//!
//! A leaf module: everything else, the kernel included, names variables by
//! these ids.

use std::fmt;

/// A variable of a [`Model`](crate::Model).
///
/// Only the model hands out `VarId`s. Besides the variable's index it carries the
/// identity of its model, so that using a variable with the wrong model is a
/// [`ModelError`](crate::ModelError) instead of a silent mix-up.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId {
    pub(crate) index: u32,
    pub(crate) model: u32,
}

impl VarId {
    /// The variable's position in its model, counting from 0 in creation order.
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.index)
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.index)
    }
}

/// A constraint posted to a [`Model`](crate::Model), numbered from 0 in posting order.
///
/// Like a [`VarId`], it carries the identity of its model, so that a model
/// asked about another model's constraint answers that it has no such
/// constraint instead of describing one of its own.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstraintId {
    pub(crate) index: u32,
    pub(crate) model: u32,
}

impl ConstraintId {
    /// The constraint's position in its model, counting from 0 in posting order.
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl fmt::Debug for ConstraintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.index)
    }
}

impl fmt::Display for ConstraintId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.index)
    }
}

/// A literal: a boolean variable (domain `{0, 1}`) or its negation.
///
/// A boolean is an ordinary [`VarId`] whose values are 0 (false) and 1 (true),
/// usable wherever an integer variable is (linear sums, tables, all-different:
/// `bool2int` costs nothing). A literal names such a variable together with a
/// sign, so that `!b` (or `b.not()`) is the negation of `b` without a new
/// variable. In a linear expression a literal is its 0/1 value: `b` is `b`,
/// `!b` is `1 - b`.
///
/// [`Model::new_bool`](crate::Model::new_bool) hands out positive literals;
/// [`Lit::from`] makes one of any variable, and the model checks, when a
/// constraint over literals is posted, that the variable's domain lies within
/// `{0, 1}`.
///
/// ```
/// use csp::{Lit, Model, SolveConfig, Solver};
///
/// let mut model = Model::new();
/// let rain = model.new_bool();
/// let umbrella = model.new_bool();
/// model.implies(rain, umbrella).unwrap(); // rain -> umbrella
/// model.or(&[rain, !umbrella]).unwrap(); // umbrella -> rain
/// assert_eq!(!!rain, rain);
/// assert_eq!(Lit::from(rain.var()), rain);
/// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
/// assert_eq!(solver.count(None).solutions, 2); // both or neither
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    var: VarId,
    negated: bool,
}

impl Lit {
    /// The literal that is true when `var` is 1 (the same as `Lit::from(var)`).
    #[inline]
    pub fn positive(var: VarId) -> Lit {
        Lit { var, negated: false }
    }

    /// The literal that is true when `var` is 0.
    #[inline]
    pub fn negative(var: VarId) -> Lit {
        Lit { var, negated: true }
    }

    /// The variable.
    #[inline]
    pub fn var(self) -> VarId {
        self.var
    }

    /// Whether the literal is the negation of its variable (true when it is 0).
    #[inline]
    pub fn is_negated(self) -> bool {
        self.negated
    }

    /// The negation: true exactly when `self` is false. The same as `!self`.
    #[expect(clippy::should_implement_trait, reason = "`Not` is implemented too; this reads without importing it")]
    #[inline]
    pub fn not(self) -> Lit {
        Lit { var: self.var, negated: !self.negated }
    }

    /// Whether the literal is true when its variable takes `value` (0 or 1).
    #[inline]
    pub fn is_true_at(self, value: i64) -> bool {
        (value != 0) != self.negated
    }

    /// The value its variable takes when the literal is `truth`.
    #[inline]
    pub fn value_for(self, truth: bool) -> i64 {
        i64::from(truth != self.negated)
    }
}

impl From<VarId> for Lit {
    fn from(var: VarId) -> Lit {
        Lit::positive(var)
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;

    #[inline]
    fn not(self) -> Lit {
        Lit { var: self.var, negated: !self.negated }
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `x3`, or `!x3` for a negation.
impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.negated {
            f.write_str("!")?;
        }
        write!(f, "{}", self.var)
    }
}

/// An atomic fact about one variable's domain: `x = v`, `x ≠ v`, `x ≥ v` or
/// `x ≤ v` (a boolean's literal is `b = 1` or `b = 0`).
///
/// Explanations are conjunctions of atoms: a propagator that removed `x ≠ 3`
/// says which earlier atoms made it ([`Propagator::explain`](crate::Propagator::explain)),
/// and a learnt nogood is a conjunction of atoms that no solution satisfies
/// (the "atomic constraints" of lazy clause generation: Ohrimenko, Stuckey
/// & Codish 2009; Feydy & Stuckey 2009).
///
/// ```
/// use csp::{Atom, Model};
/// let mut model = Model::new();
/// let x = model.new_var(1..=9).unwrap();
/// let atom = Atom::AtMost(x, 5);
/// assert!(atom.holds_at(5) && !atom.holds_at(6));
/// assert_eq!(atom.negation(), Atom::AtLeast(x, 6));
/// assert_eq!(Atom::NotEqual(x, 3).to_string(), "x0 ≠ 3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Atom {
    /// `x = v`.
    Equal(VarId, i64),
    /// `x ≠ v`.
    NotEqual(VarId, i64),
    /// `x ≥ v`.
    AtLeast(VarId, i64),
    /// `x ≤ v`.
    AtMost(VarId, i64),
}

impl Atom {
    /// The variable the atom is about.
    #[inline]
    pub fn var(self) -> VarId {
        match self {
            Atom::Equal(x, _) | Atom::NotEqual(x, _) | Atom::AtLeast(x, _) | Atom::AtMost(x, _) => x,
        }
    }

    /// The value the atom compares its variable with.
    #[inline]
    pub fn value(self) -> i64 {
        match self {
            Atom::Equal(_, v) | Atom::NotEqual(_, v) | Atom::AtLeast(_, v) | Atom::AtMost(_, v) => v,
        }
    }

    /// The atom that holds exactly when this one does not (`x ≥ v + 1` for
    /// `x ≤ v`; a bound at the end of `i64` saturates).
    pub fn negation(self) -> Atom {
        match self {
            Atom::Equal(x, v) => Atom::NotEqual(x, v),
            Atom::NotEqual(x, v) => Atom::Equal(x, v),
            Atom::AtLeast(x, v) => Atom::AtMost(x, v.saturating_sub(1)),
            Atom::AtMost(x, v) => Atom::AtLeast(x, v.saturating_add(1)),
        }
    }

    /// Whether the atom holds when its variable takes `value`.
    #[inline]
    pub fn holds_at(self, value: i64) -> bool {
        match self {
            Atom::Equal(_, v) => value == v,
            Atom::NotEqual(_, v) => value != v,
            Atom::AtLeast(_, v) => value >= v,
            Atom::AtMost(_, v) => value <= v,
        }
    }
}

/// `x3 = 7`, `x3 ≠ 7`, `x3 ≥ 7`, `x3 ≤ 7`.
impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, relation, v) = match *self {
            Atom::Equal(x, v) => (x, "=", v),
            Atom::NotEqual(x, v) => (x, "≠", v),
            Atom::AtLeast(x, v) => (x, "≥", v),
            Atom::AtMost(x, v) => (x, "≤", v),
        };
        write!(f, "{x} {relation} {v}")
    }
}
