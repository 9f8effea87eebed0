//! Every variable's current domain as a bitset, and the operations that narrow it.
//!
//! A domain is a bitset over *positions*: position `p` of variable `x` stands for
//! the `p`-th smallest value of `x`'s initial domain. For a range domain the value
//! is `base + p`; for an explicit list it is `values[p]`. All domains live in one
//! flat vector of words, so widening a model into bitsets is a single allocation
//! and nothing is allocated per node.
//!
//! Word `k` of variable `x` lives at `first_word[x] + k * stride`. When every
//! domain needs the same number of words (N-queens, sudoku, most models) the
//! layout is *word-major*: `first_word[x] = x` and `stride` is the number of
//! variables, so the same word of consecutive variables is adjacent in memory.
//! Propagators that remove one value (or a slowly shifting value) from many
//! variables, as all-different does after each decision, then walk memory
//! sequentially instead of taking a cache miss per variable. Otherwise the layout
//! is variable-major (`stride` 1).
//!
//! A range wider than the solver's bitset limit (see [`State::new`]) is not a
//! bitset but an *interval*: only its bounds are kept (the sibling module
//! `interval`), so that a variable over `0..=2^62` costs as little as one
//! over `0..=9`. Its positions 0 and 1 name its smallest and largest value,
//! so that reading the bounds works the same for both representations.
//!
//! Every change is trailed (see the sibling module `trail`), so that undoing
//! to a mark restores exactly the earlier domains.

use std::sync::Arc;

use super::interval::saturated_width;
use crate::domain::Domain;

/// What a domain change did, from the point of view of the propagators that
/// watch the variable. The order matters: an event wakes every watcher whose
/// interest is at least as broad (see [`Event::wakes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Event {
    /// The domain became a single value.
    Fixed = 0,
    /// The smallest or largest value was removed (and more than one value is left).
    Bounds = 1,
    /// Some inner value was removed.
    Domain = 2,
}

impl Event {
    /// Whether this event should wake a propagator that asked for `interest`:
    /// a propagator watching [`Event::Domain`] wakes on every change, one
    /// watching [`Event::Bounds`] on bound changes and fixings, one watching
    /// [`Event::Fixed`] only when the variable becomes fixed.
    #[inline]
    pub fn wakes(self, interest: Event) -> bool {
        self <= interest
    }
}

/// The result of one domain operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// The domain was not changed.
    None,
    /// The domain changed and is not empty.
    Changed(Event),
    /// The domain is empty (or an assignment asked for a value it does not have).
    Wipeout,
}

/// How a variable's positions map to values.
#[derive(Clone, Debug)]
pub(super) enum ValueMap {
    Dense {
        base: i64,
    },
    Sparse(Arc<[i64]>),
    /// An interval domain, its bounds at this index of [`State::intervals`]:
    /// position 0 is its smallest value, position 1 its largest.
    Interval(u32),
}

/// The largest number of domain bits (summed over all variables) a solver will
/// allocate: 2^34 bits is 2 GiB.
pub(crate) const MAX_TOTAL_BITS: u64 = 1 << 34;

#[derive(Debug)]
pub(crate) struct State {
    pub(super) words: Vec<u64>,
    /// The number of words of every bitset in the word-major layout (1 for
    /// sudoku and N-queens up to 64), 0 in the variable-major layout.
    pub(super) row_words: u32,
    /// Per variable: where its words start, its size and bounds (together, so
    /// that a removal touches one cache line of bookkeeping).
    pub(super) slots: Vec<Slot>,
    /// The distance between consecutive words of a variable.
    pub(super) stride: u32,
    /// The number of words of each variable.
    pub(super) num_words: Vec<u32>,
    /// Variable-major layout only: the variable each word belongs to.
    pub(super) owner: Vec<u32>,
    pub(super) len: Vec<u32>,
    pub(super) maps: Vec<ValueMap>,
    pub(super) trail: Vec<u32>,
    pub(super) ints: Vec<i64>,
    pub(super) int_trail: Vec<(u32, i64)>,
    /// The bounds of the interval domains, and the trail of their changes
    /// (the variable and its old bounds).
    pub(super) intervals: Vec<Interval>,
    pub(super) interval_trail: Vec<(u32, Interval)>,
    /// Per interval, the place of its latest record on the interval trail
    /// (`usize::MAX` before any), and the interval trail's length at the
    /// latest mark or undo: without a history an interval is trailed once
    /// between marks (Gecode's timestamps), so a cycle of propagators that
    /// moves its bounds by one per call does not grow the trail.
    pub(super) interval_trailed: Vec<usize>,
    pub(super) interval_floor: std::cell::Cell<usize>,
    /// What made each change, when the solver learns or an observer asks
    /// for explanations (the sibling module `history`); `None` otherwise.
    pub(super) history: Option<Box<super::history::History>>,
    /// How many times the domains came back from a snapshot (which empties
    /// the trail): what tells a [`TrailPoint`](super::trail::TrailPoint) of
    /// an earlier run.
    pub(super) restores: u32,
    /// The word and interval trails' smallest lengths since the latest
    /// [`ChangePoint`](super::trail::ChangePoint) was taken.
    pub(super) low_water: (usize, usize),
    /// Interval narrowings counted, and traced once a fixpoint has made
    /// many: what the search reads to find a slow-convergence cycle.
    pub(crate) pushes: super::interval::Pushes,
}

/// The bounds of an interval domain (empty when `min > max`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Interval {
    pub(crate) min: i64,
    pub(crate) max: i64,
}

/// A variable's bookkeeping: the address of its word 0, its number of values
/// and its smallest and largest positions (meaningless when the size is 0).
/// For an interval domain the size saturates at `u32::MAX` (so that the
/// orderings read it in O(1) as they do a bitset's) and the positions are 0
/// and 1, its two bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slot {
    pub(super) first_word: u32,
    pub(super) size: u32,
    pub(super) min: u32,
    pub(super) max: u32,
}

/// Why a model's domains cannot be widened into bitsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TooLarge {
    pub var: usize,
    pub size: u64,
}

impl State {
    /// Widens the model's domains with every value present: a range of more
    /// than `bitset_limit` values becomes an interval, every other domain a
    /// bitset over its positions.
    pub(crate) fn new(domains: &[Domain], bitset_limit: u64) -> Result<State, TooLarge> {
        let n = domains.len();
        let mut num_words = Vec::with_capacity(n);
        let mut len = Vec::with_capacity(n);
        let mut maps = Vec::with_capacity(n);
        let mut intervals = Vec::new();
        let mut total_words: u64 = 0;
        for (var, domain) in domains.iter().enumerate() {
            let size = domain.size();
            let map = match domain.sparse_values() {
                Some(values) => ValueMap::Sparse(Arc::clone(values)),
                None if size > bitset_limit => {
                    let (min, max) = (domain.min().unwrap_or(0), domain.max().unwrap_or(0));
                    intervals.push(Interval { min, max });
                    ValueMap::Interval(intervals.len() as u32 - 1)
                }
                None => ValueMap::Dense { base: domain.min().unwrap_or(0) },
            };
            let bits = if matches!(map, ValueMap::Interval(_)) { 0 } else { size };
            if bits > u64::from(u32::MAX) || total_words * 64 + bits > MAX_TOTAL_BITS {
                return Err(TooLarge { var, size });
            }
            len.push(bits as u32);
            num_words.push(bits.div_ceil(64) as u32);
            total_words += bits.div_ceil(64);
            maps.push(map);
        }
        // Word-major when every bitset has as many words, and the interval
        // domains' unused slots in that grid waste no more than the bitsets use.
        let mut counts = num_words.iter().zip(&maps).filter(|(_, m)| !matches!(m, ValueMap::Interval(_)));
        let count = counts.next().map_or(0, |(&c, _)| c);
        let uniform = counts.all(|(&c, _)| c == count)
            && intervals.len() as u64 * u64::from(count) <= total_words.max(u64::from(count));
        let (first_word, stride, owner) = if uniform {
            total_words = n as u64 * u64::from(count);
            ((0..n as u32).collect(), n as u32, Vec::new())
        } else {
            let mut first_word = Vec::with_capacity(n);
            let mut owner = Vec::with_capacity(total_words as usize);
            let mut at = 0u32;
            for (var, &count) in num_words.iter().enumerate() {
                first_word.push(at);
                at += count;
                owner.extend(std::iter::repeat_n(var as u32, count as usize));
            }
            (first_word, 1, owner)
        };
        let slots = first_word
            .iter()
            .zip(&len)
            .zip(&maps)
            .map(|((&first_word, &size), map)| match map {
                ValueMap::Interval(i) => {
                    let Interval { min, max } = intervals[*i as usize];
                    Slot { first_word, size: saturated_width(min, max), min: 0, max: 1 }
                }
                _ => Slot { first_word, size, min: 0, max: size.saturating_sub(1) },
            })
            .collect();
        let mut state = State {
            words: vec![u64::MAX; total_words as usize],
            row_words: if uniform { count } else { 0 },
            slots,
            stride,
            num_words,
            owner,
            len,
            maps,
            trail: Vec::new(),
            ints: Vec::new(),
            int_trail: Vec::new(),
            interval_trailed: vec![usize::MAX; intervals.len()],
            intervals,
            interval_trail: Vec::new(),
            interval_floor: std::cell::Cell::new(0),
            history: None,
            restores: 0,
            low_water: (0, 0),
            pushes: super::interval::Pushes::default(),
        };
        for var in 0..n as u32 {
            if state.num_words[var as usize] == 0 {
                // An interval's slots in the word-major grid are never read.
                for k in 0..state.row_words {
                    let address = state.address(var, k);
                    state.words[address] = 0;
                }
                continue;
            }
            let bits = state.len[var as usize] % 64;
            if bits != 0 {
                let last = state.address(var, state.num_words[var as usize] - 1);
                state.words[last] = (1u64 << bits) - 1;
            }
        }
        Ok(state)
    }

    /// Where word `k` of `var` lives.
    #[inline(always)]
    pub(super) fn address(&self, var: u32, k: u32) -> usize {
        self.slots[var as usize].first_word as usize + k as usize * self.stride as usize
    }

    #[inline]
    pub(crate) fn num_vars(&self) -> usize {
        self.slots.len()
    }

    // ---- values and positions ----

    /// The position of `value` in `var`'s initial domain, if it has one.
    /// An interval domain has no positions for its values: `None`.
    #[inline]
    pub(crate) fn position(&self, var: u32, value: i64) -> Option<u32> {
        match &self.maps[var as usize] {
            ValueMap::Dense { base } => {
                let p = value.checked_sub(*base)?;
                (0..i64::from(self.len[var as usize])).contains(&p).then_some(p as u32)
            }
            ValueMap::Sparse(values) => values.binary_search(&value).ok().map(|p| p as u32),
            ValueMap::Interval(_) => None,
        }
    }

    /// The value at position `pos` of `var`'s initial domain; for an interval
    /// domain, its current smallest (0) or largest (1) value.
    #[inline]
    pub(crate) fn value(&self, var: u32, pos: u32) -> i64 {
        match &self.maps[var as usize] {
            ValueMap::Dense { base } => base + i64::from(pos),
            ValueMap::Sparse(values) => values[pos as usize],
            ValueMap::Interval(i) => {
                let bounds = self.intervals[*i as usize];
                if pos == 0 { bounds.min } else { bounds.max }
            }
        }
    }

    /// The value of position 0 when `var`'s positions are consecutive values
    /// of a bitset.
    #[inline]
    pub(crate) fn dense_base(&self, var: u32) -> Option<i64> {
        match &self.maps[var as usize] {
            ValueMap::Dense { base } => Some(*base),
            ValueMap::Sparse(_) | ValueMap::Interval(_) => None,
        }
    }

    // ---- queries ----

    #[inline]
    pub(crate) fn size(&self, var: u32) -> u32 {
        self.slots[var as usize].size
    }

    #[inline]
    pub(crate) fn min_pos(&self, var: u32) -> u32 {
        self.slots[var as usize].min
    }

    #[inline]
    pub(crate) fn max_pos(&self, var: u32) -> u32 {
        self.slots[var as usize].max
    }

    #[inline(always)]
    pub(crate) fn contains_pos(&self, var: u32, pos: u32) -> bool {
        self.words[self.address(var, pos / 64)] & (1u64 << (pos % 64)) != 0
    }

    /// The number of words of `var`'s bitset.
    #[inline]
    pub(crate) fn num_words(&self, var: u32) -> u32 {
        self.num_words[var as usize]
    }

    /// Word `k` of `var`'s bitset (positions `64k..64k+64`).
    #[inline]
    pub(crate) fn word(&self, var: u32, k: u32) -> u64 {
        self.words[self.address(var, k)]
    }

    /// In the word-major layout, word `k` of every variable, indexed by variable.
    #[inline]
    pub(crate) fn row(&self, k: u32) -> Option<&[u64]> {
        if k >= self.row_words {
            return None;
        }
        let n = self.stride as usize;
        Some(&self.words[k as usize * n..(k as usize + 1) * n])
    }

    /// The next position at or after `from` that is in the domain.
    pub(crate) fn next_pos(&self, var: u32, from: u32) -> Option<u32> {
        if from > self.slots[var as usize].max || self.slots[var as usize].size == 0 {
            return None;
        }
        let count = self.num_words[var as usize];
        let mut k = from / 64;
        let mut bits = self.word(var, k) & (u64::MAX << (from % 64));
        if count == 1 {
            return (bits != 0).then(|| bits.trailing_zeros());
        }
        loop {
            if bits != 0 {
                return Some(k * 64 + bits.trailing_zeros());
            }
            k += 1;
            if k >= count {
                return None;
            }
            bits = self.word(var, k);
        }
    }

    /// The previous position at or before `from` that is in the domain.
    pub(crate) fn prev_pos(&self, var: u32, from: u32) -> Option<u32> {
        if from < self.slots[var as usize].min || self.slots[var as usize].size == 0 {
            return None;
        }
        let mut k = from / 64;
        let mut bits = self.word(var, k) & (u64::MAX >> (63 - from % 64));
        loop {
            if bits != 0 {
                return Some(k * 64 + 63 - bits.leading_zeros());
            }
            if k == 0 {
                return None;
            }
            k -= 1;
            bits = self.word(var, k);
        }
    }

    /// The smallest position of a bitset domain whose value is at least
    /// `bound`, for `bound` within the domain's current bounds (the position
    /// may be a hole).
    pub(crate) fn first_position_at_least(&self, x: u32, bound: i64) -> u32 {
        match self.dense_base(x) {
            Some(base) => (bound - base) as u32,
            None => self.partition_position(x, |value| value < bound),
        }
    }

    /// The largest position of a bitset domain whose value is at most
    /// `bound`, for `bound` within the domain's current bounds.
    pub(crate) fn last_position_at_most(&self, x: u32, bound: i64) -> u32 {
        match self.dense_base(x) {
            Some(base) => (bound - base) as u32,
            // The domain's smallest value is at most `bound`: the partition
            // point is past the smallest position.
            None => self.partition_position(x, |value| value <= bound) - 1,
        }
    }

    /// The binary search of the two above: the first position between the
    /// domain's smallest and largest (holes included) whose value does not
    /// satisfy `before`, or one past the largest if all do. Values grow with
    /// positions, so `before` holds on a prefix of them.
    #[inline]
    fn partition_position(&self, x: u32, before: impl Fn(i64) -> bool) -> u32 {
        let (mut lo, mut hi) = (self.min_pos(x), self.max_pos(x) + 1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if before(self.value(x, mid)) { lo = mid + 1 } else { hi = mid }
        }
        lo
    }

    /// Iterates over the positions in the domain, in increasing order.
    #[inline]
    pub(crate) fn positions(&self, var: u32) -> Positions<'_> {
        let count = self.num_words[var as usize];
        Positions { state: self, var, k: 0, count, bits: if count > 0 { self.word(var, 0) } else { 0 } }
    }
}

/// The positions of a domain in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct Positions<'a> {
    state: &'a State,
    var: u32,
    k: u32,
    count: u32,
    bits: u64,
}

impl Iterator for Positions<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        while self.bits == 0 {
            self.k += 1;
            if self.k >= self.count {
                return None;
            }
            self.bits = self.state.word(self.var, self.k);
        }
        let bit = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(self.k * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(domains: &[Domain]) -> State {
        State::new(domains, u64::MAX).unwrap()
    }

    #[test]
    fn positions_map_values_both_ways() {
        let domains = [Domain::range(10, 20), Domain::values([-7, 1, 1000])];
        let s = state(&domains);
        assert_eq!(s.position(0, 10), Some(0));
        assert_eq!(s.position(0, 21), None);
        assert_eq!(s.position(0, i64::MIN), None);
        assert_eq!(s.position(1, 1000), Some(2));
        assert_eq!(s.position(1, 2), None);
        assert_eq!(s.value(1, 1), 1);
    }

    #[test]
    fn next_and_prev_positions_cross_words() {
        let domains = [Domain::range(0, 199)];
        let mut s = state(&domains);
        for p in 1..150 {
            s.remove_pos(0, p);
        }
        assert_eq!(s.next_pos(0, 1), Some(150));
        assert_eq!(s.prev_pos(0, 149), Some(0));
        assert_eq!(s.positions(0).count(), 51);
    }

    #[test]
    fn the_bound_searches_agree_with_a_scan_on_sparse_domains() {
        let big = 1i64 << 62;
        let values = [-big, -big + 1, -5, 0, 3, 4, 9, big - 1, big];
        let domains = [Domain::values(values)];
        let mut s = state(&domains);
        // Whole, with a hole, then without its smallest and largest values.
        for remove in [None, Some(3), Some(0), Some(8)] {
            if let Some(p) = remove {
                s.remove_pos(0, p);
            }
            let (lo, hi) = (s.min_pos(0), s.max_pos(0));
            let (min, max) = (s.value(0, lo), s.value(0, hi));
            for bound in values.iter().flat_map(|&v| [v - 1, v, v + 1]).filter(|b| (min..=max).contains(b)) {
                let first = (lo..=hi).find(|&p| s.value(0, p) >= bound).unwrap();
                let last = (lo..=hi).rev().find(|&p| s.value(0, p) <= bound).unwrap();
                assert_eq!(s.first_position_at_least(0, bound), first, "at least {bound}, {remove:?}");
                assert_eq!(s.last_position_at_most(0, bound), last, "at most {bound}, {remove:?}");
            }
        }
    }
}
