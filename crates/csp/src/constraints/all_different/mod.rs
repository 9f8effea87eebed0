//! `all_different`: the relation, and the choice of its propagator's strength.
//!
//! Two strengths (Gecode's value versus domain consistency): pairwise value
//! elimination ([`pairwise`]) and domain consistency by bipartite matching
//! (Régin 1994, [`matching`]), on bitsets when the values span at most 64
//! ([`bitset`]). Several all-differents over one small span can be propagated
//! together, as one [`system`]. Every strength implements plain backtracking's
//! pair-by-pair check, so that the propagation level never changes which
//! propagator a constraint gets.

use crate::constraint::{AllDifferentStrength, Constraint, Propagator, PropagatorOptions};
use crate::ids::VarId;

mod bitset;
mod matching;
mod pairwise;
pub(crate) mod system;

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
        let mut shifted: smallvec::SmallVec<[i64; 64]> = values.iter().zip(&self.offsets).map(|(v, o)| v + o).collect();
        shifted.sort_unstable();
        shifted.windows(2).all(|w| w[0] != w[1])
    }

    fn kind(&self) -> &str {
        "all_different"
    }

    fn violation_counter(&self) -> Option<Box<dyn crate::local_search::ViolationCounter + '_>> {
        Some(Box::new(AllDifferentCounter::new(&self.vars, &self.offsets)))
    }

    fn propagator(&self, options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(match self.strength(options) {
            AllDifferentStrength::Pairwise => Box::new(Pairwise::new(&self.vars, &self.offsets)),
            AllDifferentStrength::Matching => Box::new(Matching::new(&self.vars, &self.offsets)),
        })
    }

    /// The number of pairs of variables with the same (shifted) value.
    fn violation(&self, values: &[i64]) -> u64 {
        let mut shifted: Vec<i64> = values.iter().zip(&self.offsets).map(|(v, o)| v + o).collect();
        shifted.sort_unstable();
        let mut pairs = 0u64;
        let mut run = 1u64;
        for w in shifted.windows(2) {
            if w[0] == w[1] {
                pairs += run;
                run += 1;
            } else {
                run = 1;
            }
        }
        pairs
    }
}

/// The violation counter of [`AllDifferent`] for min-conflicts local search
/// ([`crate::local_search`]): for each shifted value `x_i + o_i`, how many
/// positions take it, and the exclusive or of those positions, which names the
/// position when it is alone (so that a move onto it can report it as newly in
/// conflict). When the variables nearly fill the values (N-queens columns), it
/// also keeps the list of empty buckets, the values free for any position. The
/// violation is the number of equal pairs, the sum of
/// `count * (count - 1) / 2`; moving a position from bucket `a` to bucket `b`
/// changes it by `count[b] - (count[a] - 1)`, so a range of candidate values is
/// scored by one pass over a slice of counts.
pub(crate) struct AllDifferentCounter<'c> {
    offsets: &'c [i64],
    vars: &'c [VarId],
    counts: Counts,
    violation: u64,
}

/// The counts, in an array over the range of shifted values when it is at most
/// a few times the scope's length (N-queens: `2N - 1` diagonals), else in a map.
enum Counts {
    Dense { base: i128, counts: Vec<u32>, members: Vec<u32>, empty: Option<EmptyBuckets> },
    Sparse(std::collections::HashMap<i128, (u32, u32)>),
}

/// The empty buckets of dense counts, as a sparse set: `list` holds them, and
/// `index[b]` is where bucket `b` sits in `list` (`NONE` when it is not empty).
struct EmptyBuckets {
    list: Vec<u32>,
    index: Vec<u32>,
}

impl EmptyBuckets {
    fn all(width: usize) -> Self {
        EmptyBuckets { list: (0..width as u32).collect(), index: (0..width as u32).collect() }
    }

    fn insert(&mut self, bucket: usize) {
        if self.index[bucket] == NONE {
            self.index[bucket] = self.list.len() as u32;
            self.list.push(bucket as u32);
        }
    }

    fn remove(&mut self, bucket: usize) {
        let at = self.index[bucket];
        if at != NONE {
            let last = *self.list.last().expect("the bucket is listed");
            self.list.swap_remove(at as usize);
            if last as usize != bucket {
                self.index[last as usize] = at;
            }
            self.index[bucket] = NONE;
        }
    }
}

impl Counts {
    fn get(&self, shifted: i128) -> u32 {
        match self {
            Counts::Dense { base, counts, .. } => {
                usize::try_from(shifted - base).ok().and_then(|i| counts.get(i)).copied().unwrap_or(0)
            }
            Counts::Sparse(map) => map.get(&shifted).map_or(0, |e| e.0),
        }
    }

    /// Adds `position` to the bucket of `shifted`; returns the count before.
    fn enter(&mut self, shifted: i128, position: usize) -> (u32, u32) {
        let (count, members, bucket) = self.slot(shifted);
        let before = (*count, *members);
        *count += 1;
        *members ^= position as u32;
        if let (0, Some(bucket), Counts::Dense { empty: Some(empty), .. }) = (before.0, bucket, &mut *self) {
            empty.remove(bucket);
        }
        before
    }

    /// Takes `position` out of the bucket of `shifted`; returns the count after.
    fn leave(&mut self, shifted: i128, position: usize) -> u32 {
        let (count, members, bucket) = self.slot(shifted);
        *count -= 1;
        *members ^= position as u32;
        let after = *count;
        if let (0, Some(bucket), Counts::Dense { empty: Some(empty), .. }) = (after, bucket, &mut *self) {
            empty.insert(bucket);
        }
        after
    }

    /// The count and the exclusive or of the positions of a bucket, and its
    /// index when the counts are dense.
    fn slot(&mut self, shifted: i128) -> (&mut u32, &mut u32, Option<usize>) {
        if let Counts::Dense { base, counts, members, .. } = self {
            if usize::try_from(shifted - *base).map_or(true, |i| i >= counts.len()) {
                // A value outside the domains (local search makes none): go sparse.
                let map =
                    (0..counts.len()).filter(|&i| counts[i] > 0).map(|i| (*base + i as i128, (counts[i], members[i])));
                *self = Counts::Sparse(map.collect());
            }
        }
        match self {
            Counts::Dense { base, counts, members, .. } => {
                let i = (shifted - *base) as usize;
                (&mut counts[i], &mut members[i], Some(i))
            }
            Counts::Sparse(map) => {
                let (count, members) = map.entry(shifted).or_insert((0, 0));
                (count, members, None)
            }
        }
    }
}

impl<'c> AllDifferentCounter<'c> {
    pub(crate) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        AllDifferentCounter { offsets, vars, counts: Counts::Sparse(Default::default()), violation: 0 }
    }

    fn shifted(&self, position: usize, value: i64) -> i128 {
        i128::from(value) + i128::from(self.offsets[position])
    }

    /// How many others share `from`'s bucket (0 when there is no `from`): the
    /// violation a move away from it removes.
    fn leaving(&self, position: usize, from: Option<i64>) -> i64 {
        from.map_or(0, |from| i64::from(self.counts.get(self.shifted(position, from))) - 1)
    }
}

impl crate::local_search::ViolationCounter for AllDifferentCounter<'_> {
    fn clear(&mut self, model: &crate::Model) {
        let mut low = i128::MAX;
        let mut high = i128::MIN;
        for (p, &var) in self.vars.iter().enumerate() {
            let domain = model.domain(var);
            let (Some(min), Some(max)) = (domain.min(), domain.max()) else { continue };
            low = low.min(self.shifted(p, min));
            high = high.max(self.shifted(p, max));
        }
        let width = (high - low + 1).max(0) as u128;
        let dense_limit = (8 * self.vars.len() as u128).max(1 << 16);
        self.counts = if width <= dense_limit {
            let (mut counts, mut members) =
                match std::mem::replace(&mut self.counts, Counts::Sparse(Default::default())) {
                    Counts::Dense { counts, members, .. } => (counts, members),
                    Counts::Sparse(_) => (Vec::new(), Vec::new()),
                };
            counts.clear();
            counts.resize(width as usize, 0);
            members.clear();
            members.resize(width as usize, 0);
            // Free values are worth listing when few will be left: at most a
            // quarter more values than variables.
            let tight = width <= self.vars.len() as u128 + self.vars.len() as u128 / 4 && width < u128::from(NONE);
            let empty = tight.then(|| EmptyBuckets::all(width as usize));
            Counts::Dense { base: low, counts, members, empty }
        } else {
            Counts::Sparse(Default::default())
        };
        self.violation = 0;
    }

    fn violation(&self) -> u64 {
        self.violation
    }

    fn conflicts(&self, position: usize, value: i64) -> u64 {
        u64::from(self.counts.get(self.shifted(position, value)).saturating_sub(1))
    }

    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64 {
        if from == Some(to) {
            return 0;
        }
        i64::from(self.counts.get(self.shifted(position, to))) - self.leaving(position, from)
    }

    fn add_deltas(&mut self, position: usize, from: Option<i64>, first: i64, scores: &mut [i64]) {
        let Counts::Dense { base, counts, .. } = &self.counts else {
            for (k, score) in scores.iter_mut().enumerate() {
                *score += self.delta(position, from, first + k as i64);
            }
            return;
        };
        let leave = self.leaving(position, from);
        // scores[k] is for bucket index `start + k`; buckets outside the array are empty.
        let start = self.shifted(position, first) - base;
        let len = scores.len() as i128;
        let low = start.max(0);
        let high = (start + len).min(counts.len() as i128);
        if low < high {
            let (a, b) = ((low - start) as usize, (high - start) as usize);
            for score in &mut scores[..a] {
                *score -= leave;
            }
            for (score, &count) in scores[a..b].iter_mut().zip(&counts[low as usize..high as usize]) {
                *score += i64::from(count) - leave;
            }
            for score in &mut scores[b..] {
                *score -= leave;
            }
        } else {
            for score in scores.iter_mut() {
                *score -= leave;
            }
        }
        // Staying put changes nothing: undo the `count[from] - leave = 1` added there.
        if let Some(from) = from {
            let k = i128::from(from) - i128::from(first);
            if (0..len).contains(&k) {
                scores[k as usize] -= 1;
            }
        }
    }

    fn free_values(&self, position: usize) -> Option<crate::local_search::ValueList<'_>> {
        let Counts::Dense { base, empty: Some(empty), .. } = &self.counts else { return None };
        let base = i64::try_from(*base - i128::from(self.offsets[position])).ok()?;
        Some(crate::local_search::ValueList { base, offsets: &empty.list })
    }

    fn apply(&mut self, position: usize, from: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>) {
        if from == Some(to) {
            return;
        }
        if let Some(from) = from {
            let after = self.counts.leave(self.shifted(position, from), position);
            self.violation -= u64::from(after);
        }
        let (before, members) = self.counts.enter(self.shifted(position, to), position);
        if before == 1 {
            // The position alone there gets company.
            newly_conflicted.push(members as usize);
        }
        self.violation += u64::from(before);
    }
}
