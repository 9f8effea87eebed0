//! The errors of building a model: what is wrong, and where.

use crate::domain::Domain;
use crate::ids::{ConstraintId, VarId};

/// A mistake in building a model: it says what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A variable was given a domain without values.
    #[error("variable {var} has an empty domain")]
    EmptyDomain {
        /// The variable's name, or what its name would have been.
        var: String,
    },
    /// A value, offset or coefficient is outside `-MAX_VALUE..=MAX_VALUE`.
    #[error("{context}: {value} is outside the supported range -2^62..=2^62")]
    ValueOutOfRange {
        /// The variable or constraint the value belongs to.
        context: String,
        /// The value.
        value: i64,
    },
    /// Two variables were given the same name.
    #[error("a variable named '{name}' already exists")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A name that no variable has was looked up.
    #[error("no variable is named '{name}'")]
    UnknownName {
        /// The name.
        name: String,
    },
    /// A constraint uses a variable that was created by another model.
    #[error("{constraint}: the variable at position {position} ({var:?}) belongs to another model")]
    ForeignVariable {
        /// The constraint's kind.
        constraint: String,
        /// The variable's position in the constraint's scope.
        position: usize,
        /// The variable.
        var: VarId,
    },
    /// A variable index beyond the model's variables.
    #[error("{constraint}: the variable at position {position} ({var:?}) does not exist in this model")]
    UnknownVariable {
        /// The constraint's kind.
        constraint: String,
        /// The variable's position in the constraint's scope.
        position: usize,
        /// The variable.
        var: VarId,
    },
    /// A constraint that needs distinct variables got one twice.
    #[error("{constraint}: variable {var} appears twice, at positions {first} and {second}")]
    DuplicateVariable {
        /// The constraint's kind.
        constraint: String,
        /// The variable's name.
        var: String,
        /// Its first position in the scope.
        first: usize,
        /// Its second position in the scope.
        second: usize,
    },
    /// A table row does not have one value per variable.
    #[error("table: row {row} has {found} values, expected {expected} (one per variable)")]
    TableArity {
        /// The row, counting from 0.
        row: usize,
        /// The number of variables.
        expected: usize,
        /// The number of values in the row.
        found: usize,
    },
    /// Two lists that must be as long as each other are not.
    #[error("{constraint}: {what} has {found} entries, expected {expected} (one per {per})")]
    LengthMismatch {
        /// The constraint's kind.
        constraint: String,
        /// Which list.
        what: &'static str,
        /// What the list has one entry per: "variable", "task", "entry of f", ...
        per: &'static str,
        /// The length of the list it must match.
        expected: usize,
        /// The list's length.
        found: usize,
    },
    /// A constraint without variables.
    #[error("{constraint}: the scope is empty")]
    EmptyScope {
        /// The constraint's kind.
        constraint: String,
    },
    /// A linear constraint whose sums could overflow 128-bit arithmetic.
    #[error("linear: the terms are too large to sum safely ({terms} terms)")]
    LinearOverflow {
        /// The number of terms.
        terms: usize,
    },
    /// A literal whose variable is not a boolean (its domain is not within `{0, 1}`).
    #[error(
        "{constraint}: the literal at position {position} is over {var}, whose domain {domain} is not within {{0, 1}}"
    )]
    NotBoolean {
        /// The constraint's kind.
        constraint: String,
        /// The literal's position.
        position: usize,
        /// The variable's name.
        var: String,
        /// Its domain.
        domain: Domain,
    },
    /// A constraint id that this model did not hand out.
    #[error("constraint {id} does not exist in this model")]
    UnknownConstraint {
        /// The id.
        id: ConstraintId,
    },
    /// A constraint's argument breaks a rule of the constraint (an automaton's
    /// transition to a state that does not exist, a value listed twice in a
    /// cardinality's cover, ...).
    #[error("{constraint}: {message}")]
    InvalidArgument {
        /// The constraint's kind.
        constraint: String,
        /// What is wrong, naming the offending argument.
        message: String,
    },
    /// An objective sum that can leave the supported value range, so that no
    /// variable can hold it.
    #[error("objective: the sum ranges over {min}..={max}, outside the supported range -2^62..=2^62")]
    ObjectiveOutOfRange {
        /// The smallest value the sum can take.
        min: i128,
        /// The largest.
        max: i128,
    },
}
