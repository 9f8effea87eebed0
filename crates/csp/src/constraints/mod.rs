//! The built-in constraints.
//!
//! Each is a relation type with a propagator of known strength:
//!
//! | constraint | propagator | strength |
//! | --- | --- | --- |
//! | [`Equal`] `x == y` | intersect the domains | domain consistent |
//! | [`NotEqual`] `x != y + c` | remove a fixed side's value | domain consistent |
//! | [`Less`] `x < y`, `x <= y` | move the bounds | domain consistent |
//! | [`AllDifferent`] | pairwise value elimination, or Régin's matching | value / domain consistent |
//! | [`Linear`] `sum(a*x) (=, <=, >=) k` | bounds reasoning | bounds consistent for `<=`, `>=` |
//! | [`Table`] | simple tabular reduction (Ullmann 2007) | generalized arc consistent |
//! | [`Predicate`] | generic support checking | arc consistent while the tuples to try stay few |
//! | [`Circuit`] circuit, subcircuit | chains of fixed successors (Caseau & Laburthe 1997), strongly connected components; with an all-different (matching) | sound; no sub-tour once fixed |
//! | [`Inverse`] `f[i] = j <=> invf[j] = i` | channeling both ways; with an all-different (matching) | domain consistent |
//! | [`Lex`] `x <lex y`, `x <=lex y` | two pointers (Frisch et al. 2002) | domain consistent |
//! | [`Increasing`] `x[0] <= x[1] <= ...`, strict or not | a forward and a backward pass | domain consistent |
//! | [`Cumulative`] | time-table on compulsory parts (Beldiceanu & Carlsson 2002) | time-table consistent on start bounds |
//! | [`Disjunctive`], strict or not | time-table, edge-finding and detectable precedences with the Θ-Λ-tree (Vilím 2004, 2008) | time-table, edge-finding and detectable-precedence consistent on start bounds |
//!
//! Build them with the [`Model`](crate::Model) methods of the same names, which
//! check their arguments. (A linear sum's [`crate::Relation`] and
//! generic support checking's [`crate::ArcConsistency`] are
//! at the crate's root, with the other options.) [`Lex`] is posted by
//! `lex_less` and `lex_lesseq`, [`Increasing`] by `increasing`,
//! `decreasing` and their strict forms, [`Circuit`] by `circuit` and
//! `subcircuit`, [`Disjunctive`] by `disjunctive` and `disjunctive_strict`;
//! the scheduling constraints take durations, uses and capacities as
//! [`crate::Operand`]s, variables or constants.
//!
//! Inside the engine this module also holds generic support checking (the
//! propagator of a constraint without one) and the all-different system.

mod all_different;
mod binary;
mod circuit;
pub(crate) mod generic;
pub(crate) mod graph;
mod increasing;
mod inverse;
mod lex;
pub(crate) mod linear;
pub(crate) mod operand;
mod predicate;
mod scheduling;
mod table;

pub use all_different::AllDifferent;
pub(crate) use all_different::system;
pub use binary::{Equal, Less, NotEqual};
pub(crate) use generic::ArcConsistency;
pub use linear::Linear;
pub(crate) use linear::Relation;
pub use predicate::Predicate;
pub use table::Table;

pub use circuit::Circuit;
pub use increasing::Increasing;
pub use inverse::Inverse;
pub use lex::Lex;
pub use scheduling::{Cumulative, Disjunctive};
