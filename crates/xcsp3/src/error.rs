//! What can be wrong with an XCSP3 file: it is not XML, it is not XCSP3, it
//! uses something csp-xcsp does not lower exactly, or the engine refuses
//! what it describes. Every error says where, as a line and a column.

use std::fmt;

/// A place in the file: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What kind of problem an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The file is not well-formed XML.
    Xml,
    /// The file is XML but not valid XCSP3 (an unknown name, a malformed
    /// domain, a tuple of the wrong length, ...).
    Invalid,
    /// A feature csp-xcsp does not lower (yet): named, never approximated.
    Unsupported,
    /// The engine refused the model (a value beyond `±2^62`, say).
    Model,
}

/// An XCSP3 file csp-xcsp cannot turn into a csp `Model`: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{position}: {message}")]
pub struct Error {
    /// Where the problem is (the element, or the character, at fault).
    pub position: Position,
    /// What kind of problem it is.
    pub kind: ErrorKind,
    /// What is wrong, starting lowercase and naming the offending thing.
    pub message: String,
}

impl Error {
    /// Not valid XCSP3.
    pub(crate) fn invalid(position: Position, message: impl Into<String>) -> Error {
        Error { position, kind: ErrorKind::Invalid, message: message.into() }
    }

    /// A feature csp-xcsp does not support; `what` names it.
    pub(crate) fn unsupported(position: Position, what: impl fmt::Display) -> Error {
        Error { position, kind: ErrorKind::Unsupported, message: format!("{what} is not supported by csp-xcsp") }
    }

    /// The engine refused what the file describes.
    pub(crate) fn model(position: Position, error: &csp::ModelError) -> Error {
        Error { position, kind: ErrorKind::Model, message: error.to_string() }
    }

    /// Whether this is a feature csp-xcsp lacks (the competition's `s
    /// UNSUPPORTED`) rather than a mistake in the file.
    pub fn is_unsupported(&self) -> bool {
        self.kind == ErrorKind::Unsupported
    }
}
