//! What can be wrong with a FlatZinc file: it does not parse
//! ([`ParseError`]), or it uses something fzn-csp cannot lower exactly
//! ([`LowerError`]). Both say where.

use crate::ast::Position;

/// The file is not FlatZinc: where, and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{position}: {message}")]
pub struct ParseError {
    /// Where the problem is.
    pub position: Position,
    /// What is wrong.
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(position: Position, message: impl Into<String>) -> ParseError {
        ParseError { position, message: message.into() }
    }
}

/// A FlatZinc model that fzn-csp cannot turn into a csp `Model`, exactly.
///
/// [`LowerError::is_unsupported`] tells the features fzn-csp lacks (a
/// builtin, float or set variables) from mistakes in the
/// file (an unknown name, an argument of the wrong type).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LowerError {
    /// A builtin that fzn-csp does not lower (yet), or not in this form.
    #[error("line {line}: constraint {name} is not supported by fzn-csp yet{}", detail_suffix(.detail))]
    UnsupportedConstraint {
        /// The builtin's name.
        name: String,
        /// The constraint item's line.
        line: u32,
        /// Which form of it, when only some forms are supported.
        detail: Option<String>,
    },
    /// A variable of a type the engine has no variables for.
    #[error("line {line}: this model uses {kind} variables ({name}), which fzn-csp does not support")]
    UnsupportedVariable {
        /// `float` or `set`.
        kind: &'static str,
        /// The first such variable.
        name: String,
        /// Its line.
        line: u32,
    },
    /// A float value where an integer or boolean one is needed: fzn-csp has
    /// no float values (a float argument of an integer constraint, say).
    #[error("{position}: the float {value} is not supported: fzn-csp has integer and boolean values only")]
    UnsupportedFloat {
        /// The value as written back (`1.5`, `1.0..2.5`).
        value: String,
        /// Where it is.
        position: Position,
    },
    /// The objective is of a kind fzn-csp cannot optimise.
    #[error("line {line}: {what}")]
    UnsupportedGoal {
        /// What is not supported.
        what: String,
        /// The solve item's line.
        line: u32,
    },
    /// A name that no declaration gives.
    #[error("{position}: '{name}' is not declared")]
    UnknownName {
        /// The name.
        name: String,
        /// Where it is used.
        position: Position,
    },
    /// A declaration or an argument of the wrong shape or type.
    #[error("line {line}: {message}")]
    Invalid {
        /// What is wrong.
        message: String,
        /// The item's line.
        line: u32,
    },
    /// The engine refused the model (a value beyond its range, say).
    #[error("line {line}: {message}")]
    Model {
        /// The engine's message.
        message: String,
        /// The item's line.
        line: u32,
    },
}

fn detail_suffix(detail: &Option<String>) -> String {
    match detail {
        Some(detail) => format!(" ({detail})"),
        None => String::new(),
    }
}

impl LowerError {
    /// Whether this is a feature fzn-csp lacks rather than a mistake in the file.
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            LowerError::UnsupportedConstraint { .. }
                | LowerError::UnsupportedVariable { .. }
                | LowerError::UnsupportedFloat { .. }
                | LowerError::UnsupportedGoal { .. }
        )
    }

    /// The line of the item at fault in the FlatZinc file.
    pub fn line(&self) -> u32 {
        match self {
            LowerError::UnsupportedConstraint { line, .. }
            | LowerError::UnsupportedVariable { line, .. }
            | LowerError::UnsupportedGoal { line, .. }
            | LowerError::Invalid { line, .. }
            | LowerError::Model { line, .. } => *line,
            LowerError::UnknownName { position, .. } | LowerError::UnsupportedFloat { position, .. } => position.line,
        }
    }

    /// Whether the model needs float or set variables (which the engine will
    /// not have in this phase), as opposed to a missing builtin.
    pub fn is_unsupported_type(&self) -> bool {
        matches!(self, LowerError::UnsupportedVariable { .. })
    }
}
