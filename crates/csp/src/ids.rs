//! The identifiers a model hands out: variables and constraints.
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
