//! The violation counter of `all_different`, and its measure of violation.

use super::counter::{ValueList, ViolationCounter};
use crate::ids::VarId;
use crate::model::Model;

/// No position or bucket.
const NONE: u32 = u32::MAX;

/// The violation of an all-different with these offsets: the number of pairs
/// of variables with the same (shifted) value.
pub(super) fn equal_pairs(offsets: &[i64], values: &[i64]) -> u64 {
    // In i128: a value and an offset may each be 2^62.
    let mut shifted: Vec<i128> = values.iter().zip(offsets).map(|(&v, &o)| i128::from(v) + i128::from(o)).collect();
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

/// The violation counter of [`AllDifferent`](crate::constraints::AllDifferent) for min-conflicts local search
/// ([`LocalSearch`](crate::LocalSearch)): for each shifted value `x_i + o_i`, how many
/// positions take it, and the exclusive or of those positions, which names the
/// position when it is alone (so that a move onto it can report it as newly in
/// conflict). When the variables nearly fill the values (N-queens columns), it
/// also keeps the list of empty buckets, the values free for any position. The
/// violation is the number of equal pairs, the sum of
/// `count * (count - 1) / 2`; moving a position from bucket `a` to bucket `b`
/// changes it by `count[b] - (count[a] - 1)`, so a range of candidate values is
/// scored by one pass over a slice of counts.
pub(super) struct AllDifferentCounter<'c> {
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
    pub(super) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
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

impl ViolationCounter for AllDifferentCounter<'_> {
    fn clear(&mut self, model: &Model) {
        let mut low = i128::MAX;
        let mut high = i128::MIN;
        for (p, &var) in self.vars.iter().enumerate() {
            let domain = &model.domains()[var.index()];
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

    fn free_values(&self, position: usize) -> Option<ValueList<'_>> {
        let Counts::Dense { base, empty: Some(empty), .. } = &self.counts else { return None };
        let base = i64::try_from(*base - i128::from(self.offsets[position])).ok()?;
        Some(ValueList { base, offsets: &empty.list })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local_search::counter::{self, Measure};
    use crate::rng::Rng;

    #[test]
    fn the_all_different_counter_agrees_with_recounting() {
        // Random moves on a model with offsets; after each, every counter's
        // violation equals the constraint's violation of the current values, and
        // every delta predicted the change.
        let mut model = Model::new();
        let n = 40;
        let x = model.new_vars(n, 0..=15).unwrap();
        let offsets: Vec<i64> = (0..n as i64).map(|i| (i * 7) % 5 - 2).collect();
        model.all_different_offset(&x, &offsets).unwrap();
        model.all_different(&x[..10]).unwrap();
        let mut rng = Rng::new(3);
        let mut values: Vec<i64> = (0..n).map(|_| rng.below(16) as i64).collect();
        let mut counters: Vec<_> = model.constraints().map(|(_, c)| counter::builtin(c)).collect();
        // Assign the positions one by one from "no value": each insertion's delta
        // is the change, and the partial count is the number of equal pairs so far.
        for ((_, constraint), counter) in model.constraints().zip(&mut counters) {
            counter.clear(&model);
            let mut placed: Vec<i64> = Vec::new();
            for (p, var) in constraint.scope().iter().enumerate() {
                let shifted = values[var.index()] + if constraint.scope().len() == n { offsets[p] } else { 0 };
                let expected = placed.iter().filter(|&&w| w == shifted).count() as i64;
                let mut window = vec![0i64; 20];
                counter.add_deltas(p, None, -2, &mut window);
                assert_eq!(window[(values[var.index()] + 2) as usize], expected);
                assert_eq!(counter.delta(p, None, values[var.index()]), expected);
                let before = counter.violation() as i64;
                counter.apply(p, None, values[var.index()], &mut Vec::new());
                assert_eq!(counter.violation() as i64 - before, expected);
                placed.push(shifted);
            }
        }
        for _ in 0..2_000 {
            let var = rng.below(n as u64) as usize;
            let to = rng.below(16) as i64;
            for ((_, constraint), counter) in model.constraints().zip(&mut counters) {
                let Some(p) = constraint.scope().iter().position(|v| v.index() == var) else { continue };
                let before = counter.violation();
                let predicted = counter.delta(p, Some(values[var]), to);
                let mut window = vec![0i64; 20];
                counter.add_deltas(p, Some(values[var]), -2, &mut window);
                assert_eq!(window[(to + 2) as usize], predicted);
                let mut newly = Vec::new();
                let alone: Vec<bool> = (0..constraint.scope().len())
                    .map(|q| counter.conflicts(q, values[constraint.scope()[q].index()]) == 0)
                    .collect();
                counter.apply(p, Some(values[var]), to, &mut newly);
                let mut after = values.clone();
                after[var] = to;
                for (q, was_alone) in alone.iter().enumerate() {
                    let now = counter.conflicts(q, after[constraint.scope()[q].index()]) > 0;
                    if q != p && *was_alone && now {
                        assert!(newly.contains(&q), "position {q} became conflicted unannounced");
                    }
                }
                assert_eq!(counter.violation() as i64 - before as i64, predicted);
            }
            values[var] = to;
            for ((_, constraint), counter) in model.constraints().zip(&counters) {
                let tuple: Vec<i64> = constraint.scope().iter().map(|v| values[v.index()]).collect();
                assert_eq!(counter.violation(), Measure::of(constraint).violation(&tuple));
                for (p, &value) in tuple.iter().enumerate() {
                    let shared = tuple.iter().enumerate().filter(|&(q, &w)| {
                        let o = |k: usize| if constraint.scope().len() == n { offsets[k] } else { 0 };
                        q != p && w + o(q) == value + o(p)
                    });
                    assert_eq!(counter.conflicts(p, value), shared.count() as u64);
                }
            }
        }
    }

    #[test]
    fn a_tight_all_different_lists_its_free_values() {
        // Twelve variables over 0..=13 (tight enough to keep the list), offsets 3.
        let mut model = Model::new();
        let x = model.new_vars(12, 0..=13).unwrap();
        model.all_different_offset(&x, &[3; 12]).unwrap();
        let (_, constraint) = model.constraints().next().unwrap();
        let mut counter = counter::builtin(constraint);
        counter.clear(&model);
        let mut rng = Rng::new(9);
        let mut values: Vec<Option<i64>> = vec![None; 12];
        for _ in 0..500 {
            let p = rng.below(12) as usize;
            let to = rng.below(14) as i64;
            counter.apply(p, values[p], to, &mut Vec::new());
            values[p] = Some(to);
            let list = counter.free_values(p).expect("a tight all_different keeps its free values");
            let mut free: Vec<i64> = (0..list.len()).map(|k| list.get(k)).collect();
            free.sort_unstable();
            let expected: Vec<i64> = (0..=13).filter(|v| !values.contains(&Some(*v))).collect();
            assert_eq!(free, expected);
        }
        // A loose one keeps none.
        let mut model = Model::new();
        let x = model.new_vars(4, 0..=13).unwrap();
        model.all_different(&x).unwrap();
        let (_, constraint) = model.constraints().next().unwrap();
        let mut counter = counter::builtin(constraint);
        counter.clear(&model);
        assert!(counter.free_values(0).is_none());
    }
}
