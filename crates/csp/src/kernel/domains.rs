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
//! Every change is trailed (see the sibling module `trail`), so that undoing
//! to a mark restores exactly the earlier domains.

use std::sync::Arc;

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
enum ValueMap {
    Dense { base: i64 },
    Sparse(Arc<[i64]>),
}

/// The largest number of domain bits (summed over all variables) a solver will
/// allocate: 2^34 bits is 2 GiB.
pub(crate) const MAX_TOTAL_BITS: u64 = 1 << 34;

#[derive(Debug)]
pub(crate) struct State {
    pub(super) words: Vec<u64>,
    /// Per variable: where its words start, its size and bounds (together, so
    /// that a removal touches one cache line of bookkeeping).
    pub(super) slots: Vec<Slot>,
    /// The distance between consecutive words of a variable.
    pub(super) stride: u32,
    /// The number of words of each variable.
    pub(super) num_words: Vec<u32>,
    /// Variable-major layout only: the variable each word belongs to.
    pub(super) owner: Vec<u32>,
    len: Vec<u32>,
    maps: Vec<ValueMap>,
    pub(super) trail: Vec<u32>,
    pub(super) ints: Vec<i64>,
    pub(super) int_trail: Vec<(u32, i64)>,
}

/// A variable's bookkeeping: the address of its word 0, its number of values
/// and its smallest and largest positions (meaningless when the size is 0).
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
    /// Widens the model's domains into bitsets with every value present.
    pub(crate) fn new(domains: &[Domain]) -> Result<State, TooLarge> {
        let n = domains.len();
        let mut num_words = Vec::with_capacity(n);
        let mut len = Vec::with_capacity(n);
        let mut maps = Vec::with_capacity(n);
        let mut total_words: u64 = 0;
        for (var, domain) in domains.iter().enumerate() {
            let size = domain.size();
            if size > u64::from(u32::MAX) || total_words * 64 + size > MAX_TOTAL_BITS {
                return Err(TooLarge { var, size });
            }
            len.push(size as u32);
            num_words.push(size.div_ceil(64) as u32);
            total_words += size.div_ceil(64);
            maps.push(match domain.sparse_values() {
                Some(values) => ValueMap::Sparse(Arc::clone(values)),
                None => ValueMap::Dense { base: domain.min().unwrap_or(0) },
            });
        }
        let uniform = num_words.windows(2).all(|w| w[0] == w[1]);
        let (first_word, stride, owner) = if uniform {
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
            .map(|(&first_word, &size)| Slot { first_word, size, min: 0, max: size.saturating_sub(1) })
            .collect();
        let mut state = State {
            words: vec![u64::MAX; total_words as usize],
            slots,
            stride,
            num_words,
            owner,
            len,
            maps,
            trail: Vec::new(),
            ints: Vec::new(),
            int_trail: Vec::new(),
        };
        for var in 0..n as u32 {
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
    #[inline]
    pub(crate) fn position(&self, var: u32, value: i64) -> Option<u32> {
        match &self.maps[var as usize] {
            ValueMap::Dense { base } => {
                let p = value.checked_sub(*base)?;
                (0..i64::from(self.len[var as usize])).contains(&p).then_some(p as u32)
            }
            ValueMap::Sparse(values) => values.binary_search(&value).ok().map(|p| p as u32),
        }
    }

    /// The value at position `pos` of `var`'s initial domain.
    #[inline]
    pub(crate) fn value(&self, var: u32, pos: u32) -> i64 {
        match &self.maps[var as usize] {
            ValueMap::Dense { base } => base + i64::from(pos),
            ValueMap::Sparse(values) => values[pos as usize],
        }
    }

    /// The value of position 0 when `var`'s positions are consecutive values.
    #[inline]
    pub(crate) fn dense_base(&self, var: u32) -> Option<i64> {
        match &self.maps[var as usize] {
            ValueMap::Dense { base } => Some(*base),
            ValueMap::Sparse(_) => None,
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
        if !self.owner.is_empty() || self.num_words.first().is_none_or(|&count| k >= count) {
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

    /// Iterates over the positions in the domain, in increasing order.
    #[inline]
    pub(crate) fn positions(&self, var: u32) -> Positions<'_> {
        let count = self.num_words[var as usize];
        Positions { state: self, var, k: 0, count, bits: if count > 0 { self.word(var, 0) } else { 0 } }
    }

    // ---- changes ----

    /// Removes position `pos` from `var`.
    #[inline(always)]
    pub(crate) fn remove_pos(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        let w = self.address(var, pos / 64);
        let bit = 1u64 << (pos % 64);
        if self.words[w] & bit == 0 {
            return Change::None;
        }
        self.save_bit(w, pos % 64);
        self.words[w] &= !bit;
        self.slots[v].size -= 1;
        match self.slots[v].size {
            0 => Change::Wipeout,
            1 => {
                // Two values were left, the bounds: the one not removed stays.
                if pos == self.slots[v].min {
                    self.slots[v].min = self.slots[v].max;
                } else {
                    self.slots[v].max = self.slots[v].min;
                }
                Change::Changed(Event::Fixed)
            }
            _ => {
                if pos == self.slots[v].min {
                    self.slots[v].min = self.next_pos(var, pos).unwrap_or(pos);
                    Change::Changed(Event::Bounds)
                } else if pos == self.slots[v].max {
                    self.slots[v].max = self.prev_pos(var, pos).unwrap_or(pos);
                    Change::Changed(Event::Bounds)
                } else {
                    Change::Changed(Event::Domain)
                }
            }
        }
    }

    /// Sets word `k` of `var` to `new` (a subset of it), trailing the old word.
    #[inline]
    pub(super) fn narrow_word(&mut self, var: u32, k: u32, new: u64) -> u32 {
        let w = self.address(var, k);
        let old = self.words[w];
        if old == new {
            return 0;
        }
        self.save(w);
        self.words[w] = new;
        (old & !new).count_ones()
    }

    /// Reduces `var` to position `pos`.
    pub(crate) fn fix_pos(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        if !self.contains_pos(var, pos) {
            return Change::Wipeout;
        }
        if self.slots[v].size == 1 {
            return Change::None;
        }
        if self.num_words[v] == 1 {
            // The common case, every decision on a small domain: one word.
            let w = self.address(var, 0);
            self.save(w);
            self.words[w] = 1u64 << pos;
            self.slots[v] = Slot { first_word: self.slots[v].first_word, size: 1, min: pos, max: pos };
            return Change::Changed(Event::Fixed);
        }
        // Only the words between the current bounds can hold other values.
        for k in self.slots[v].min / 64..=self.slots[v].max / 64 {
            let new = if k == pos / 64 { 1u64 << (pos % 64) } else { 0 };
            self.narrow_word(var, k, new);
        }
        self.slots[v].size = 1;
        self.slots[v].min = pos;
        self.slots[v].max = pos;
        Change::Changed(Event::Fixed)
    }

    /// Removes every position below `pos`.
    pub(crate) fn remove_below(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        if pos <= self.slots[v].min || self.slots[v].size == 0 {
            return Change::None;
        }
        if pos > self.slots[v].max {
            return self.clear(var);
        }
        let mut removed = 0;
        for k in self.slots[v].min / 64..=pos / 64 {
            let new = if k == pos / 64 { self.word(var, k) & (u64::MAX << (pos % 64)) } else { 0 };
            removed += self.narrow_word(var, k, new);
        }
        self.slots[v].size -= removed;
        self.slots[v].min = self.next_pos(var, pos).unwrap_or(pos);
        self.bounds_event(v, removed)
    }

    /// Removes every position above `pos`.
    pub(crate) fn remove_above(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        if pos >= self.slots[v].max || self.slots[v].size == 0 {
            return Change::None;
        }
        if pos < self.slots[v].min {
            return self.clear(var);
        }
        let mut removed = 0;
        for k in pos / 64..=self.slots[v].max / 64 {
            let new = if k == pos / 64 { self.word(var, k) & (u64::MAX >> (63 - pos % 64)) } else { 0 };
            removed += self.narrow_word(var, k, new);
        }
        self.slots[v].size -= removed;
        self.slots[v].max = self.prev_pos(var, pos).unwrap_or(pos);
        self.bounds_event(v, removed)
    }

    fn bounds_event(&self, v: usize, removed: u32) -> Change {
        match self.slots[v].size {
            _ if removed == 0 => Change::None,
            0 => Change::Wipeout,
            1 => Change::Changed(Event::Fixed),
            _ => Change::Changed(Event::Bounds),
        }
    }

    /// The address of word 0 of `var`, for propagators that read one-word
    /// domains directly (see [`State::word_at`]).
    #[inline]
    pub(crate) fn word_address(&self, var: u32) -> usize {
        self.address(var, 0)
    }

    /// The word at an address from [`State::word_address`].
    #[inline(always)]
    pub(crate) fn word_at(&self, address: usize) -> u64 {
        self.words[address]
    }

    /// Narrows a one-word domain to `new` (a subset of it): one trail entry,
    /// and the size and bounds read off the new word.
    #[inline]
    pub(crate) fn narrow_single_word(&mut self, var: u32, new: u64) -> Change {
        let v = var as usize;
        debug_assert_eq!(self.num_words[v], 1);
        let w = self.address(var, 0);
        let old = self.words[w];
        debug_assert_eq!(new & !old, 0, "narrowing only removes values");
        if old == new {
            return Change::None;
        }
        if (old & !new).count_ones() == 1 {
            self.save_bit(w, (old & !new).trailing_zeros());
        } else {
            self.save(w);
        }
        self.words[w] = new;
        self.slots[v].size = new.count_ones();
        if new == 0 {
            return Change::Wipeout;
        }
        let (min, max) = (new.trailing_zeros(), 63 - new.leading_zeros());
        let bounds = min != self.slots[v].min || max != self.slots[v].max;
        self.slots[v].min = min;
        self.slots[v].max = max;
        if self.slots[v].size == 1 {
            Change::Changed(Event::Fixed)
        } else if bounds {
            Change::Changed(Event::Bounds)
        } else {
            Change::Changed(Event::Domain)
        }
    }

    /// Removes the positions `64k + bit` for every bit set in `mask`.
    #[inline]
    pub(crate) fn remove_mask(&mut self, var: u32, k: u32, mask: u64) -> Change {
        let v = var as usize;
        let old = self.word(var, k);
        let removed = old & mask;
        if removed == 0 {
            return Change::None;
        }
        if removed.count_ones() == 1 {
            return self.remove_pos(var, k * 64 + removed.trailing_zeros());
        }
        self.narrow_word(var, k, old & !removed);
        self.slots[v].size -= removed.count_ones();
        if self.slots[v].size == 0 {
            return Change::Wipeout;
        }
        let (min, max) = (self.slots[v].min, self.slots[v].max);
        let gone = |pos: u32| pos / 64 == k && removed & (1u64 << (pos % 64)) != 0;
        let (min_gone, max_gone) = (gone(min), gone(max));
        if min_gone {
            self.slots[v].min = self.next_pos(var, min).unwrap_or(min);
        }
        if max_gone {
            self.slots[v].max = self.prev_pos(var, max).unwrap_or(max);
        }
        if self.slots[v].size == 1 {
            Change::Changed(Event::Fixed)
        } else if min_gone || max_gone {
            Change::Changed(Event::Bounds)
        } else {
            Change::Changed(Event::Domain)
        }
    }

    fn clear(&mut self, var: u32) -> Change {
        let v = var as usize;
        for k in self.slots[v].min / 64..=self.slots[v].max / 64 {
            self.narrow_word(var, k, 0);
        }
        self.slots[v].size = 0;
        Change::Wipeout
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
        State::new(domains).unwrap()
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
}
