//! The search state: every variable's current domain as a bitset, and the trail
//! that undoes changes on backtrack.
//!
//! A domain is a bitset over *positions*: position `p` of variable `x` stands for
//! the `p`-th smallest value of `x`'s initial domain. For a range domain the value
//! is `base + p`; for an explicit list it is `values[p]`. All domains live in one
//! flat vector of words, so widening a model into bitsets is a single allocation
//! and nothing is allocated per node.
//!
//! Every change of a word is recorded on the trail as `(variable, word, old
//! word)`; undoing to a mark restores the words in reverse order and adjusts the
//! cached sizes and bounds. Reversible integers, which propagators use for their
//! own incremental state, are trailed the same way.

use std::sync::Arc;

use crate::var::Domain;

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

#[derive(Clone, Copy, Debug)]
struct SavedWord {
    var: u32,
    word: u32,
    old: u64,
}

/// A point to undo to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mark {
    words: usize,
    ints: usize,
}

/// A handle to a reversible integer, allocated by a propagator when the solver
/// is built and restored automatically on backtrack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReversibleInt(pub(crate) u32);

/// The largest number of domain bits (summed over all variables) a solver will
/// allocate: 2^34 bits is 2 GiB.
pub(crate) const MAX_TOTAL_BITS: u64 = 1 << 34;

#[derive(Debug)]
pub(crate) struct State {
    words: Vec<u64>,
    first_word: Vec<u32>,
    len: Vec<u32>,
    size: Vec<u32>,
    min: Vec<u32>,
    max: Vec<u32>,
    maps: Vec<ValueMap>,
    trail: Vec<SavedWord>,
    ints: Vec<i64>,
    int_trail: Vec<(u32, i64)>,
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
        let mut first_word = Vec::with_capacity(n + 1);
        let mut len = Vec::with_capacity(n);
        let mut maps = Vec::with_capacity(n);
        let mut total_words: u64 = 0;
        for (var, domain) in domains.iter().enumerate() {
            let size = domain.size();
            if size > u64::from(u32::MAX) || total_words * 64 + size > MAX_TOTAL_BITS {
                return Err(TooLarge { var, size });
            }
            first_word.push(total_words as u32);
            len.push(size as u32);
            total_words += size.div_ceil(64);
            maps.push(match domain.sparse_values() {
                Some(values) => ValueMap::Sparse(Arc::clone(values)),
                None => ValueMap::Dense { base: domain.min().unwrap_or(0) },
            });
        }
        if total_words > u64::from(u32::MAX) {
            return Err(TooLarge { var: n.saturating_sub(1), size: total_words * 64 });
        }
        first_word.push(total_words as u32);
        let mut words = vec![u64::MAX; total_words as usize];
        for var in 0..n {
            let bits = len[var] % 64;
            if bits != 0 {
                let last = first_word[var + 1] as usize - 1;
                words[last] = (1u64 << bits) - 1;
            }
        }
        let size = len.clone();
        let max = len.iter().map(|&l| l.saturating_sub(1)).collect();
        Ok(State {
            words,
            first_word,
            min: vec![0; n],
            max,
            len,
            size,
            maps,
            trail: Vec::new(),
            ints: Vec::new(),
            int_trail: Vec::new(),
        })
    }

    #[inline]
    pub(crate) fn num_vars(&self) -> usize {
        self.size.len()
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
        self.size[var as usize]
    }

    #[inline]
    pub(crate) fn min_pos(&self, var: u32) -> u32 {
        self.min[var as usize]
    }

    #[inline]
    pub(crate) fn max_pos(&self, var: u32) -> u32 {
        self.max[var as usize]
    }

    #[inline]
    pub(crate) fn contains_pos(&self, var: u32, pos: u32) -> bool {
        let w = self.first_word[var as usize] as usize + (pos / 64) as usize;
        self.words[w] & (1u64 << (pos % 64)) != 0
    }

    /// The words of `var`'s bitset.
    #[inline]
    pub(crate) fn words(&self, var: u32) -> &[u64] {
        let start = self.first_word[var as usize] as usize;
        let end = self.first_word[var as usize + 1] as usize;
        &self.words[start..end]
    }

    /// The next position at or after `from` that is in the domain.
    pub(crate) fn next_pos(&self, var: u32, from: u32) -> Option<u32> {
        if from > self.max[var as usize] || self.size[var as usize] == 0 {
            return None;
        }
        let words = self.words(var);
        let mut w = (from / 64) as usize;
        let mut bits = words[w] & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some(w as u32 * 64 + bits.trailing_zeros());
            }
            w += 1;
            if w >= words.len() {
                return None;
            }
            bits = words[w];
        }
    }

    /// The previous position at or before `from` that is in the domain.
    pub(crate) fn prev_pos(&self, var: u32, from: u32) -> Option<u32> {
        if from < self.min[var as usize] || self.size[var as usize] == 0 {
            return None;
        }
        let words = self.words(var);
        let mut w = (from / 64) as usize;
        let shift = 63 - from % 64;
        let mut bits = words[w] & (u64::MAX >> shift);
        loop {
            if bits != 0 {
                return Some(w as u32 * 64 + 63 - bits.leading_zeros());
            }
            if w == 0 {
                return None;
            }
            w -= 1;
            bits = words[w];
        }
    }

    /// Iterates over the positions in the domain, in increasing order.
    #[inline]
    pub(crate) fn positions(&self, var: u32) -> Positions<'_> {
        let words = self.words(var);
        Positions { words, index: 0, bits: words.first().copied().unwrap_or(0) }
    }

    // ---- changes ----

    #[inline]
    fn save(&mut self, var: u32, word: usize) {
        self.trail.push(SavedWord { var, word: word as u32, old: self.words[word] });
    }

    /// Removes position `pos` from `var`.
    #[inline]
    pub(crate) fn remove_pos(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        let w = self.first_word[v] as usize + (pos / 64) as usize;
        let bit = 1u64 << (pos % 64);
        if self.words[w] & bit == 0 {
            return Change::None;
        }
        self.save(var, w);
        self.words[w] &= !bit;
        self.size[v] -= 1;
        match self.size[v] {
            0 => Change::Wipeout,
            1 => {
                // The one value left is whichever bound was not removed.
                if pos == self.min[v] {
                    self.min[v] = self.max[v];
                } else if pos == self.max[v] {
                    self.max[v] = self.min[v];
                } else {
                    let p = self.next_pos(var, self.min[v]).unwrap_or(self.min[v]);
                    self.min[v] = p;
                    self.max[v] = p;
                }
                Change::Changed(Event::Fixed)
            }
            _ => {
                if pos == self.min[v] {
                    self.min[v] = self.next_pos(var, pos).unwrap_or(pos);
                    Change::Changed(Event::Bounds)
                } else if pos == self.max[v] {
                    self.max[v] = self.prev_pos(var, pos).unwrap_or(pos);
                    Change::Changed(Event::Bounds)
                } else {
                    Change::Changed(Event::Domain)
                }
            }
        }
    }

    /// Reduces `var` to position `pos`.
    pub(crate) fn fix_pos(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        if !self.contains_pos(var, pos) {
            return Change::Wipeout;
        }
        if self.size[v] == 1 {
            return Change::None;
        }
        let keep = self.first_word[v] as usize + (pos / 64) as usize;
        let bit = 1u64 << (pos % 64);
        // Only the words between the current bounds can hold other values.
        let lo = self.first_word[v] as usize + (self.min[v] / 64) as usize;
        let hi = self.first_word[v] as usize + (self.max[v] / 64) as usize;
        for w in lo..=hi {
            let new = if w == keep { bit } else { 0 };
            if self.words[w] != new {
                self.save(var, w);
                self.words[w] = new;
            }
        }
        self.size[v] = 1;
        self.min[v] = pos;
        self.max[v] = pos;
        Change::Changed(Event::Fixed)
    }

    /// Removes every position below `pos`.
    pub(crate) fn remove_below(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        if pos <= self.min[v] || self.size[v] == 0 {
            return Change::None;
        }
        if pos > self.max[v] {
            return self.clear(var);
        }
        let base = self.first_word[v] as usize;
        let lo = base + (self.min[v] / 64) as usize;
        let last = base + (pos / 64) as usize;
        let mut removed = 0;
        for w in lo..=last {
            let new = if w == last { self.words[w] & (u64::MAX << (pos % 64)) } else { 0 };
            if self.words[w] != new {
                removed += (self.words[w] & !new).count_ones();
                self.save(var, w);
                self.words[w] = new;
            }
        }
        self.size[v] -= removed;
        self.min[v] = self.next_pos(var, pos).unwrap_or(pos);
        self.bounds_event(v, removed)
    }

    /// Removes every position above `pos`.
    pub(crate) fn remove_above(&mut self, var: u32, pos: u32) -> Change {
        let v = var as usize;
        if pos >= self.max[v] || self.size[v] == 0 {
            return Change::None;
        }
        if pos < self.min[v] {
            return self.clear(var);
        }
        let base = self.first_word[v] as usize;
        let first = base + (pos / 64) as usize;
        let hi = base + (self.max[v] / 64) as usize;
        let mut removed = 0;
        for w in first..=hi {
            let new = if w == first {
                let keep_bits = pos % 64 + 1;
                if keep_bits == 64 { self.words[w] } else { self.words[w] & ((1u64 << keep_bits) - 1) }
            } else {
                0
            };
            if self.words[w] != new {
                removed += (self.words[w] & !new).count_ones();
                self.save(var, w);
                self.words[w] = new;
            }
        }
        self.size[v] -= removed;
        self.max[v] = self.prev_pos(var, pos).unwrap_or(pos);
        self.bounds_event(v, removed)
    }

    fn bounds_event(&self, v: usize, removed: u32) -> Change {
        match self.size[v] {
            _ if removed == 0 => Change::None,
            0 => Change::Wipeout,
            1 => Change::Changed(Event::Fixed),
            _ => Change::Changed(Event::Bounds),
        }
    }

    /// Removes the positions in `mask` from word `word` of `var`'s bitset.
    #[inline]
    pub(crate) fn remove_mask(&mut self, var: u32, word: u32, mask: u64) -> Change {
        let v = var as usize;
        let w = self.first_word[v] as usize + word as usize;
        let removed = self.words[w] & mask;
        if removed == 0 {
            return Change::None;
        }
        self.save(var, w);
        self.words[w] &= !removed;
        self.size[v] -= removed.count_ones();
        let (min, max) = (self.min[v], self.max[v]);
        match self.size[v] {
            0 => Change::Wipeout,
            _ => {
                let min_gone = self.contains_pos_unchecked_removed(min, word, removed);
                let max_gone = self.contains_pos_unchecked_removed(max, word, removed);
                if min_gone {
                    self.min[v] = self.next_pos(var, min).unwrap_or(min);
                }
                if max_gone {
                    self.max[v] = self.prev_pos(var, max).unwrap_or(max);
                }
                if self.size[v] == 1 {
                    Change::Changed(Event::Fixed)
                } else if min_gone || max_gone {
                    Change::Changed(Event::Bounds)
                } else {
                    Change::Changed(Event::Domain)
                }
            }
        }
    }

    #[inline]
    fn contains_pos_unchecked_removed(&self, pos: u32, word: u32, removed: u64) -> bool {
        pos / 64 == word && removed & (1u64 << (pos % 64)) != 0
    }

    fn clear(&mut self, var: u32) -> Change {
        let v = var as usize;
        let base = self.first_word[v] as usize;
        let lo = base + (self.min[v] / 64) as usize;
        let hi = base + (self.max[v] / 64) as usize;
        for w in lo..=hi {
            if self.words[w] != 0 {
                self.save(var, w);
                self.words[w] = 0;
            }
        }
        self.size[v] = 0;
        Change::Wipeout
    }

    // ---- reversible integers ----

    pub(crate) fn new_int(&mut self, initial: i64) -> ReversibleInt {
        self.ints.push(initial);
        ReversibleInt(self.ints.len() as u32 - 1)
    }

    #[inline]
    pub(crate) fn int(&self, cell: ReversibleInt) -> i64 {
        self.ints[cell.0 as usize]
    }

    #[inline]
    pub(crate) fn set_int(&mut self, cell: ReversibleInt, value: i64) {
        let slot = &mut self.ints[cell.0 as usize];
        if *slot != value {
            self.int_trail.push((cell.0, *slot));
            *slot = value;
        }
    }

    // ---- trail ----

    #[inline]
    pub(crate) fn mark(&self) -> Mark {
        Mark { words: self.trail.len(), ints: self.int_trail.len() }
    }

    /// Restores every domain and reversible integer to what it was at `mark`.
    pub(crate) fn undo_to(&mut self, mark: Mark) {
        while self.trail.len() > mark.words {
            let saved = self.trail.pop().expect("trail is longer than the mark");
            let v = saved.var as usize;
            let w = saved.word as usize;
            let current = self.words[w];
            self.size[v] += saved.old.count_ones() - current.count_ones();
            self.words[w] = saved.old;
            let word_base = (w as u32 - self.first_word[v]) * 64;
            let added = saved.old & !current;
            if added != 0 {
                let lo = word_base + added.trailing_zeros();
                let hi = word_base + 63 - added.leading_zeros();
                if self.size[v] == added.count_ones() {
                    // The domain was empty: the restored bits are all there is.
                    self.min[v] = lo;
                    self.max[v] = hi;
                } else {
                    self.min[v] = self.min[v].min(lo);
                    self.max[v] = self.max[v].max(hi);
                }
            }
        }
        while self.int_trail.len() > mark.ints {
            let (cell, old) = self.int_trail.pop().expect("trail is longer than the mark");
            self.ints[cell as usize] = old;
        }
    }
}

/// The positions of a domain in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct Positions<'a> {
    words: &'a [u64],
    index: usize,
    bits: u64,
}

impl Iterator for Positions<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        while self.bits == 0 {
            self.index += 1;
            self.bits = *self.words.get(self.index)?;
        }
        let bit = self.bits.trailing_zeros();
        self.bits &= self.bits - 1;
        Some(self.index as u32 * 64 + bit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(domains: &[Domain]) -> State {
        State::new(domains).unwrap()
    }

    fn values(s: &State, var: u32) -> Vec<i64> {
        s.positions(var).map(|p| s.value(var, p)).collect()
    }

    #[test]
    fn removals_are_undone_with_sizes_and_bounds() {
        let domains = [Domain::range(-5, 200), Domain::values([-3, 0, 2, 7])];
        let mut s = state(&domains);
        let mark = s.mark();
        assert_eq!(s.remove_pos(0, 0), Change::Changed(Event::Bounds));
        assert_eq!(s.remove_pos(0, 100), Change::Changed(Event::Domain));
        assert_eq!(s.remove_above(0, 70), Change::Changed(Event::Bounds));
        assert_eq!(s.size(0), 70);
        assert_eq!((s.min_pos(0), s.max_pos(0)), (1, 70));
        assert_eq!(s.remove_pos(1, 1), Change::Changed(Event::Domain));
        assert_eq!(values(&s, 1), vec![-3, 2, 7]);
        s.undo_to(mark);
        assert_eq!(s.size(0), 206);
        assert_eq!((s.min_pos(0), s.max_pos(0)), (0, 205));
        assert_eq!(values(&s, 1), vec![-3, 0, 2, 7]);
    }

    #[test]
    fn wipeout_then_undo_restores_bounds() {
        let domains = [Domain::range(0, 130)];
        let mut s = state(&domains);
        let mark = s.mark();
        assert_eq!(s.fix_pos(0, 129), Change::Changed(Event::Fixed));
        assert_eq!(s.value(0, s.min_pos(0)), 129);
        assert_eq!(s.remove_pos(0, 129), Change::Wipeout);
        s.undo_to(mark);
        assert_eq!(s.size(0), 131);
        assert_eq!((s.min_pos(0), s.max_pos(0)), (0, 130));
        assert_eq!(s.remove_below(0, 131), Change::Wipeout);
        s.undo_to(mark);
        assert_eq!(s.size(0), 131);
        assert_eq!((s.min_pos(0), s.max_pos(0)), (0, 130));
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
    fn reversible_ints_are_restored() {
        let mut s = state(&[]);
        let cell = s.new_int(3);
        let mark = s.mark();
        s.set_int(cell, 5);
        s.set_int(cell, 8);
        assert_eq!(s.int(cell), 8);
        s.undo_to(mark);
        assert_eq!(s.int(cell), 3);
    }
}
