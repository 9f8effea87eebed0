//! The built-in constraints.
//!
//! Each is a relation type with a propagator of known strength:
//!
//! | constraint | propagator | strength |
//! | --- | --- | --- |
//! | [`Equal`] `x == y + c` | intersect the domains | domain consistent |
//! | [`NotEqual`] `x != y + c` | remove a fixed side's value | domain consistent |
//! | [`Less`] `x < y`, `x <= y`, `x + c <= y` | move the bounds | domain consistent |
//! | [`AllDifferent`] | pairwise value elimination, Hall intervals (López-Ortiz et al. 2003), or Régin's matching | value / bounds / domain consistent (bounds over interval domains) |
//! | [`Linear`] `sum(a*x) (<, <=, >, >=) k` | bounds reasoning to a fixpoint | domain consistent |
//! | [`Linear`] `sum(a*x) = k` | bounds reasoning to a fixpoint | bounds consistent |
//! | [`Linear`] `sum(a*x) != k` | the last open variable loses one value | domain consistent |
//! | [`Table`] | simple tabular reduction (Ullmann 2007) | generalized arc consistent |
//! | [`Predicate`] | generic support checking | arc consistent while the tuples to try stay few |
//! | [`InSet`] `x ∈ S`, `x ∉ S` | remove the values outside (inside) `S` | domain consistent (bounds over interval domains) |
//! | [`Clause`] `l1 ∨ ... ∨ ln` over literals | unit propagation, two watched literals | domain consistent |
//! | [`Xor`] odd (even) parity of literals | the last open literal makes up the parity | domain consistent |
//! | [`Reified`] `b <-> C`, `b -> C` | `C` or its negation once `b` is fixed; `b` once `C` is decided | domain consistent for `C` in `x = y + c`, `x != y + c`, `x + c <= y`, `x ∈ S`, `x ∉ S`, linear `< <= > >=`, parity, sums of booleans with unit coefficients (and `b -> sum != k`); bounds for other linear `=` and `!=` |
//! | [`Arithmetic`] `z = x * y`, `x div y`, `x mod y`, `x ^ y`, `x ^ k`, `\|x\|` | support enumeration on small domains, interval reasoning in `i128` beyond | domain consistent up to 4096 pairs of operand values (`abs` and `x ^ k`: values), bounds beyond ([`crate::ArithmeticStrength`]) |
//! | [`Extremum`] `m = min(xs)`, `m = max(xs)` | one scan of the candidates of `m` | domain consistent (bounds over interval domains) |
//! | [`Element`] `array[i - first] = z` | one pass over the index | domain consistent (bounds over interval domains) |
//! | [`ElementVar`] `xs[i - first] = z` | index by intersection, `z` by union, equality once `i` is fixed | domain consistent (bounds over interval domains) |
//! | [`Count`] `c = #{xs = y}` | among per value of `y` | domain consistent (sound over interval domains) |
//! | [`Among`] `#{xs in S}` is `c` or in `low..=high` (`at_least`, `at_most`, `exactly`) | lower and upper counts (Bessière et al. 2005) | domain consistent (bounds over interval domains) |
//! | [`GlobalCardinality`] (closed, low/up) | an `among` per cover value, the sum of the counts | counting (not domain consistent) |
//! | [`NValue`] `n = #distinct(xs)` | interval hitting set and union size | bounds on `n` |
//! | [`NegativeTable`] | forbidden rows counted against the domains' products (STR-N) | generalized arc consistent (bounds over interval domains) |
//! | [`Regular`] (a [`crate::Dfa`]) | Pesant's layered graph (Pesant 2004) | domain consistent (bounds over interval domains) |
//! | [`Circuit`] circuit, subcircuit | chains of fixed successors (Caseau & Laburthe 1997), strongly connected components; with an all-different (matching) | sound; no sub-tour once fixed |
//! | [`Inverse`] `f[i] = j <=> invf[j] = i` | channeling both ways; with an all-different (matching) | domain consistent (sound over interval domains) |
//! | [`Lex`] `x <lex y`, `x <=lex y` | two pointers (Frisch et al. 2002) | domain consistent (bounds over interval domains) |
//! | [`Increasing`] `x[0] <= x[1] <= ...`, strict or not | a forward and a backward pass | domain consistent (bounds over interval domains) |
//! | [`Cumulative`] | time-table on compulsory parts (Beldiceanu & Carlsson 2002) | time-table consistent on start bounds |
//! | [`BinPacking`] `load[b] = sum(size[i] : bin[i] = b)` | each load between its sure and possible items, the loads' sum, items out of (into) bins that cannot take (do without) them (Shaw 2004) | Shaw's basic rules on the loads' bounds (sound over interval domains) |
//! | [`Diffn`] `diffn`, `diffn_nonstrict`: rectangles apart | each pair's disjunction on the bounds (one left is enforced) | pairwise, on the bounds |
//! | [`Disjunctive`], strict or not | time-table, edge-finding and detectable precedences with the Θ-Λ-tree (Vilím 2004, 2008) | time-table, edge-finding and detectable-precedence consistent on start bounds |
//!
//! The strengths of the globals hold when their variables are distinct; a
//! variable that appears twice makes their reasoning a sound relaxation, and
//! the constraint is checked once its variables are fixed.
//!
//! Over interval domains (ranges wider than the solver's bitset limit, kept
//! as their bounds) every propagator is sound and checks fixed variables; the
//! strengths above then hold for the bounds: `equal`, `less` and `table` are
//! bounds consistent, and removing an inner value does nothing.
//!
//! Build them with the [`Model`](crate::Model) methods of the same names, which
//! check their arguments: the literal ones with [`Model::or`](crate::Model::or),
//! [`Model::clause`](crate::Model::clause), [`Model::xor`](crate::Model::xor)
//! and friends; linear comparisons, set membership and reification with
//! [`Model::add`](crate::Model::add), [`Model::reify`](crate::Model::reify)
//! and [`Model::implies`](crate::Model::implies), which choose the most
//! specific constraint for a [`Condition`](crate::Condition) (`x - y <= 3` is
//! a [`Less`], `2x <= 7` an [`InSet`]). `and`, `at_most_one` and
//! `exactly_one` over literals are linear sums of 0/1 values, which bounds
//! reasoning propagates to domain consistency. (A linear sum's
//! [`crate::Relation`] and generic support checking's
//! [`crate::ArcConsistency`] are at the crate's root, with the other options.)
//! [`Lex`] is posted by `lex_less` and `lex_lesseq`, [`Increasing`] by
//! `increasing`, `decreasing` and their strict forms, [`Circuit`] by `circuit`
//! and `subcircuit`, [`Disjunctive`] by `disjunctive` and `disjunctive_strict`,
//! [`BinPacking`] by `bin_packing_load`, [`Diffn`] by `diffn` and `diffn_nonstrict`;
//! the scheduling constraints take durations, uses and capacities as
//! [`crate::Operand`]s, variables or constants.
//!
//! Inside the engine this module also holds generic support checking (the
//! propagator of a constraint without one) and the all-different system.

mod all_different;
pub(crate) mod arithmetic;
mod binary;
mod circuit;
mod counting;
mod element;
mod extremum;
pub(crate) mod generic;
pub(crate) mod graph;
mod in_set;
mod increasing;
mod inverse;
mod lex;
pub(crate) mod linear;
mod logic;
mod negative_table;
pub(crate) mod operand;
mod packing;
mod predicate;
pub(crate) mod regular;
pub(crate) mod reified;
pub(crate) mod relaxed;
mod scheduling;
mod table;

pub use all_different::AllDifferent;
pub(crate) use all_different::system;
pub use arithmetic::Arithmetic;
pub use binary::{Equal, Less, NotEqual};
pub use counting::{Among, Count, GlobalCardinality, NValue};
pub use element::{Element, ElementVar};
pub use extremum::Extremum;
pub(crate) use generic::ArcConsistency;
pub use in_set::InSet;
pub use linear::Linear;
pub(crate) use linear::Relation;
pub use logic::{Clause, Xor};
pub use negative_table::NegativeTable;
pub use predicate::Predicate;
pub(crate) use regular::Dfa;
pub use regular::Regular;
pub(crate) use reified::ReifiableRelation;
pub use reified::Reified;
pub use table::Table;

pub use circuit::Circuit;
pub use increasing::Increasing;
pub use inverse::Inverse;
pub use lex::Lex;
pub use packing::{BinPacking, Diffn};
pub use scheduling::{Cumulative, Disjunctive};
