//! `all_different`: the relation, and the choice of its propagator's strength.
//!
//! Three strengths (Gecode's value, bounds and domain consistency): pairwise
//! value elimination ([`pairwise`]), bounds consistency (López-Ortiz et al.
//! 2003, [`bounds`]) and domain consistency by bipartite matching (Régin
//! 1994, [`matching`]), on bitsets when the values span at most 64
//! ([`bitset`]); and a fourth between value and domain consistency, unit
//! propagation on the exact-cover SAT encoding ([`cover`]: pairwise, and
//! hidden singles when the constraint is a permutation). The matching strength follows the domains' width: over
//! interval domains (ranges too wide for bitsets) a matching would walk
//! millions of values, and bounds consistency is the hull of domain
//! consistency there anyway, so it propagates bounds. Several all-differents
//! over one small span can be propagated together, as one [`system`]. Every
//! strength implements plain backtracking's pair-by-pair check, so that the
//! propagation level never changes which propagator a constraint gets.
//!
//! A value and its offset may each be as large as `±2^62`, so a shifted value
//! `x_i + o_i` may not fit `i64`: the propagators take it in `i128`, or prove
//! at their start that every shifted value of the initial domains fits a
//! narrower type (the dense path of [`pairwise`], the bitsets of [`bitset`]).

use crate::constraint::{AllDifferentStrength, Constraint, Propagator, PropagatorOptions};
use crate::ids::VarId;

mod bitset;
mod bounds;
mod cover;
mod explain;
mod matching;
mod pairwise;
pub(crate) mod system;
mod values;

use bounds::BoundsConsistency;
use cover::Cover;
use matching::Matching;
use pairwise::Pairwise;

/// No position or value.
const NONE: u32 = u32::MAX;

/// The values `vars[i] + offsets[i]` are pairwise different (offsets default to 0).
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i64>,
    strength: Option<AllDifferentStrength>,
}

impl AllDifferent {
    /// The constraint; `offsets` (one per variable) default to 0, and `strength`
    /// to the solver's configuration. Prefer [`Model::all_different`](crate::Model::all_different),
    /// which checks the arguments.
    pub fn new(vars: Vec<VarId>, offsets: Option<Vec<i64>>, strength: Option<AllDifferentStrength>) -> AllDifferent {
        let offsets = offsets.unwrap_or_else(|| vec![0; vars.len()]);
        AllDifferent { vars, offsets, strength }
    }

    /// The offsets, one per variable.
    pub fn offsets(&self) -> &[i64] {
        &self.offsets
    }

    /// The strength of this constraint's propagator: its own, if it was
    /// posted with one, else the options' default. The one place where the
    /// strength is decided: the solver asks it too, to know which
    /// all-differents it may propagate as one system.
    pub(crate) fn strength(&self, options: &PropagatorOptions) -> AllDifferentStrength {
        self.strength.unwrap_or(options.all_different)
    }

    /// Whether every offset is 0 (the all-different system takes only those).
    pub(crate) fn is_plain(&self) -> bool {
        self.offsets.iter().all(|&o| o == 0)
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        // Inline storage: plain backtracking calls this at every full scope.
        // Value and offset may each be ±2^62: their sum is taken in i128.
        let mut shifted: smallvec::SmallVec<[i128; 64]> =
            values.iter().zip(&self.offsets).map(|(&v, &o)| i128::from(v) + i128::from(o)).collect();
        shifted.sort_unstable();
        shifted.windows(2).all(|w| w[0] != w[1])
    }

    fn kind(&self) -> &str {
        "all_different"
    }

    fn propagator(&self, options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(match self.strength(options) {
            AllDifferentStrength::Pairwise => Box::new(Pairwise::new(&self.vars, &self.offsets)),
            AllDifferentStrength::Bounds => Box::new(BoundsConsistency::new(&self.vars, &self.offsets)),
            AllDifferentStrength::Matching => Box::new(Matching::new(&self.vars, &self.offsets)),
            AllDifferentStrength::Cover => Box::new(Cover::new(&self.vars, &self.offsets)),
        })
    }
}
