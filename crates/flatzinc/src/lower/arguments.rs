//! A constraint item's arguments, read as the types its builtin expects.

use crate::ast::{ConstraintItem, Expr, SetLiteral};
use crate::error::LowerError;

use super::condition::Enforcement;
use super::{Binding, Lowering, Value};

/// Which form of a builtin a constraint item is, by its name's suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// `int_le`: the relation holds.
    Plain,
    /// `int_le_reif`: its last argument is true exactly when the relation holds.
    Reified,
    /// `int_le_imp`: the relation holds when its last argument is true.
    Implied,
}

impl Form {
    /// The form of the builtin `name`.
    pub(crate) fn of(name: &str) -> Form {
        if name.ends_with("_reif") {
            Form::Reified
        } else if name.ends_with("_imp") {
            Form::Implied
        } else {
            Form::Plain
        }
    }
}

/// One constraint item being lowered: typed access to its arguments, and
/// errors that name the builtin and its line.
#[derive(Clone, Copy)]
pub(crate) struct Call<'a> {
    pub(crate) item: &'a ConstraintItem,
    pub(crate) form: Form,
}

impl Call<'_> {
    /// How the relation of this item is posted: plainly, or tied to the
    /// boolean argument `index` (which a plain item does not have).
    pub(crate) fn enforcement(&self, lowering: &Lowering, index: usize) -> Result<Enforcement, LowerError> {
        Ok(match self.form {
            Form::Plain => Enforcement::Always,
            Form::Reified => Enforcement::Reified(self.value(lowering, index)?),
            Form::Implied => Enforcement::Implied(self.value(lowering, index)?),
        })
    }

    /// The boolean a function of booleans defines (`r` of `bool_and(a, b,
    /// r)`): reified, or implied by the `_imp` form.
    pub(crate) fn result(&self, lowering: &Lowering, index: usize) -> Result<Enforcement, LowerError> {
        let value = self.value(lowering, index)?;
        Ok(match self.form {
            Form::Implied => Enforcement::Implied(value),
            Form::Plain | Form::Reified => Enforcement::Reified(value),
        })
    }

    pub(crate) fn line(&self) -> u32 {
        self.item.position.line
    }

    fn argument(&self, index: usize) -> Result<&Expr, LowerError> {
        self.item.arguments.get(index).ok_or_else(|| self.invalid(format!("argument {} is missing", index + 1)))
    }

    /// A scalar: a constant or a variable.
    pub(crate) fn value(&self, lowering: &Lowering, index: usize) -> Result<Value, LowerError> {
        lowering.value(self.argument(index)?, self.line())
    }

    /// An array of scalars: a literal `[...]` or an array's name.
    pub(crate) fn values(&self, lowering: &Lowering, index: usize) -> Result<Vec<Value>, LowerError> {
        match self.argument(index)? {
            Expr::Array(items) => items.iter().map(|item| lowering.value(item, self.line())).collect(),
            Expr::Identifier(name, position) => match lowering.binding(name) {
                Some(Binding::Array(values)) => Ok(values.clone()),
                Some(_) => Err(self.invalid(format!("argument {}: {name} is not an array of int or bool", index + 1))),
                None => Err(LowerError::UnknownName { name: name.clone(), position: *position }),
            },
            _ => Err(self.invalid(format!("argument {} must be an array", index + 1))),
        }
    }

    /// An integer (or boolean) constant.
    pub(crate) fn int(&self, lowering: &Lowering, index: usize) -> Result<i64, LowerError> {
        match self.value(lowering, index)? {
            Value::Const(value) => Ok(value),
            Value::Var(_) => Err(self.invalid(format!("argument {} must be a constant", index + 1))),
        }
    }

    /// An array of integer constants.
    pub(crate) fn ints(&self, lowering: &Lowering, index: usize) -> Result<Vec<i64>, LowerError> {
        self.values(lowering, index)?
            .into_iter()
            .map(|value| match value {
                Value::Const(value) => Ok(value),
                Value::Var(_) => Err(self.invalid(format!("argument {} must hold constants", index + 1))),
            })
            .collect()
    }

    /// A constant set: a literal or a set parameter's name.
    pub(crate) fn set(&self, lowering: &Lowering, index: usize) -> Result<SetLiteral, LowerError> {
        match self.argument(index)? {
            Expr::Set(set) => Ok(set.clone()),
            Expr::Identifier(name, position) => match lowering.binding(name) {
                Some(Binding::Set(set)) => Ok(set.clone()),
                Some(_) => Err(self.invalid(format!("argument {}: {name} is not a constant set", index + 1))),
                None => Err(LowerError::UnknownName { name: name.clone(), position: *position }),
            },
            Expr::Element(name, element, _) => match lowering.binding(name) {
                Some(Binding::SetArray(sets)) => usize::try_from(*element - 1)
                    .ok()
                    .and_then(|i| sets.get(i).cloned())
                    .ok_or_else(|| self.invalid(format!("{name}[{element}] is out of bounds"))),
                _ => Err(self.invalid(format!("argument {}: {name} is not an array of sets", index + 1))),
            },
            _ => Err(self.invalid(format!("argument {} must be a constant set", index + 1))),
        }
    }

    /// This builtin, in the form it has here, is not lowered (yet).
    pub(crate) fn unsupported(&self, detail: impl Into<String>) -> LowerError {
        LowerError::UnsupportedConstraint {
            name: self.item.name.clone(),
            line: self.line(),
            detail: Some(detail.into()),
        }
    }

    /// The arguments do not fit the builtin.
    pub(crate) fn invalid(&self, message: impl Into<String>) -> LowerError {
        LowerError::Invalid { message: format!("constraint {}: {}", self.item.name, message.into()), line: self.line() }
    }
}
