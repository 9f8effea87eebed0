//! An argument that is a variable or a constant, as the scheduling
//! constraints take their durations, resources and capacity (MiniZinc's
//! `array of var int`, whose entries may be literals).

use std::collections::HashMap;

use crate::ids::VarId;
use crate::kernel::{Conflict, Context};

/// A variable or a constant: what a constraint argument may be where both
/// make sense, such as a task's duration. `From` conversions make either
/// side convenient: `Operand::from(3)` or `Operand::from(x)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A variable of the model.
    Var(VarId),
    /// A fixed value.
    Const(i64),
}

impl From<VarId> for Operand {
    fn from(var: VarId) -> Operand {
        Operand::Var(var)
    }
}

impl From<i64> for Operand {
    fn from(value: i64) -> Operand {
        Operand::Const(value)
    }
}

/// Integer literals default to `i32`: this lets `&[2, 3, 1]` be durations.
impl From<i32> for Operand {
    fn from(value: i32) -> Operand {
        Operand::Const(i64::from(value))
    }
}

impl Operand {
    /// The variable, if it is one.
    pub fn var(self) -> Option<VarId> {
        match self {
            Operand::Var(var) => Some(var),
            Operand::Const(_) => None,
        }
    }

    /// The smallest value it can take.
    pub(crate) fn min(self, ctx: &Context<'_>) -> i64 {
        match self {
            Operand::Var(var) => ctx.min(var),
            Operand::Const(value) => value,
        }
    }

    /// The largest value it can take.
    pub(crate) fn max(self, ctx: &Context<'_>) -> i64 {
        match self {
            Operand::Var(var) => ctx.max(var),
            Operand::Const(value) => value,
        }
    }

    /// Removes the values below `bound`; a constant below it is a conflict.
    pub(crate) fn set_min(self, ctx: &mut Context<'_>, bound: i64) -> Result<bool, Conflict> {
        match self {
            Operand::Var(var) => ctx.set_min(var, bound),
            Operand::Const(value) if value < bound => Err(Conflict),
            Operand::Const(_) => Ok(false),
        }
    }

    /// Removes the values above `bound`; a constant above it is a conflict.
    pub(crate) fn set_max(self, ctx: &mut Context<'_>, bound: i64) -> Result<bool, Conflict> {
        match self {
            Operand::Var(var) => ctx.set_max(var, bound),
            Operand::Const(value) if value > bound => Err(Conflict),
            Operand::Const(_) => Ok(false),
        }
    }
}

/// The scope of a constraint with [`Operand`] arguments: each variable once,
/// in order of first appearance, and where each argument's value is found
/// in a tuple of the scope's values.
#[derive(Clone, Debug, Default)]
pub(crate) struct OperandScope {
    pub(crate) vars: Vec<VarId>,
    /// The position of each variable in `vars` (only looked up, never iterated).
    positions: HashMap<VarId, usize>,
}

/// Where an argument's value is: fixed, or at a position of the scope.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Slot {
    Fixed(i64),
    At(usize),
}

impl OperandScope {
    /// The slot of `operand`, adding its variable to the scope if it is new.
    pub(crate) fn slot(&mut self, operand: Operand) -> Slot {
        match operand {
            Operand::Const(value) => Slot::Fixed(value),
            Operand::Var(var) => {
                let next = self.vars.len();
                let at = *self.positions.entry(var).or_insert(next);
                if at == next {
                    self.vars.push(var);
                }
                Slot::At(at)
            }
        }
    }
}

impl Slot {
    /// The argument's value in `values` (one per scope variable).
    pub(crate) fn value(self, values: &[i64]) -> i64 {
        match self {
            Slot::Fixed(value) => value,
            Slot::At(at) => values[at],
        }
    }
}
