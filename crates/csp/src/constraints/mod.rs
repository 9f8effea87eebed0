//! The built-in constraints.
//!
//! Each is a relation type with a propagator of known strength:
//!
//! | constraint | propagator | strength |
//! | --- | --- | --- |
//! | [`Equal`] `x == y` | intersect the domains | domain consistent |
//! | [`NotEqual`] `x != y + c` | remove a fixed side's value | domain consistent |
//! | [`Less`] `x < y`, `x <= y` | move the bounds | domain consistent |
//! | [`AllDifferent`] | pairwise value elimination, Hall intervals (López-Ortiz et al. 2003), or Régin's matching | value / bounds / domain consistent (bounds over interval domains) |
//! | [`Linear`] `sum(a*x) (=, <=, >=) k` | bounds reasoning | bounds consistent for `<=`, `>=` |
//! | [`Table`] | simple tabular reduction (Ullmann 2007) | generalized arc consistent |
//! | [`Predicate`] | generic support checking | arc consistent while the tuples to try stay few |
//!
//! Over interval domains (ranges wider than the solver's bitset limit, kept
//! as their bounds) every propagator is sound and checks fixed variables; the
//! strengths above then hold for the bounds: `equal`, `less` and `table` are
//! bounds consistent, and removing an inner value does nothing.
//!
//! Build them with the [`Model`](crate::Model) methods of the same names, which
//! check their arguments. (A linear sum's [`crate::Relation`] and
//! generic support checking's [`crate::ArcConsistency`] are
//! at the crate's root, with the other options.)
//!
//! Inside the engine this module also holds generic support checking (the
//! propagator of a constraint without one) and the all-different system.

mod all_different;
mod binary;
pub(crate) mod generic;
pub(crate) mod linear;
mod predicate;
mod table;

pub use all_different::AllDifferent;
pub(crate) use all_different::system;
pub use binary::{Equal, Less, NotEqual};
pub(crate) use generic::ArcConsistency;
pub use linear::Linear;
pub(crate) use linear::Relation;
pub use predicate::Predicate;
pub use table::Table;
