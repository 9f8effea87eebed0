//! Narrowing a bitset domain: removing one position, a word's worth, or
//! everything below or above a position, and fixing a position. Each keeps the
//! cached size and bounds of the variable's slot, and trails what it changes.

use super::domains::{Change, Event, Slot, State};

impl State {
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

    /// The address of word `k` of `var` (below [`State::num_addresses`]),
    /// for a caller that keeps something per word of every bitset.
    #[inline]
    pub(crate) fn address_of(&self, var: u32, k: u32) -> usize {
        self.address(var, k)
    }

    /// The number of word addresses.
    #[inline]
    pub(crate) fn num_addresses(&self) -> usize {
        self.words.len()
    }

    /// The word at an address from [`State::word_address`].
    #[inline(always)]
    pub(crate) fn word_at(&self, address: usize) -> u64 {
        self.words[address]
    }

    /// Narrows a one-word domain to `new` (a subset of it): one trail entry,
    /// and the size and bounds read off the new word.
    #[inline(always)]
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

    /// The event of a one-word domain's change from `before` to `after` (not
    /// empty), as [`narrow_single_word`](State::narrow_single_word) reports it
    /// (a one-word domain's smallest and largest positions are its word's).
    #[inline]
    pub(super) fn word_event(before: u64, after: u64) -> Event {
        debug_assert!(after != 0 && after & !before == 0 && after != before);
        if after & (after - 1) == 0 {
            Event::Fixed
        } else if before.trailing_zeros() != after.trailing_zeros() || before.leading_zeros() != after.leading_zeros() {
            Event::Bounds
        } else {
            Event::Domain
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
        // One word: its new bounds are its lowest and highest bits, without
        // a search for the next value (`remove_pos` below).
        if self.num_words[v] == 1 {
            return self.narrow_single_word(var, old & !removed);
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

    /// Narrows `var` to its values in `lo..=hi`, whatever its representation:
    /// the event of the narrower change, or a wipe-out (the domain is then
    /// left as it is when no value is in range).
    pub(crate) fn narrow_bounds(&mut self, var: u32, lo: i64, hi: i64) -> Change {
        if self.is_interval(var) {
            return self.narrow_interval(var, lo, hi);
        }
        let (min, max) = (self.value(var, self.min_pos(var)), self.value(var, self.max_pos(var)));
        if self.size(var) == 0 || lo > max || hi < min || lo > hi {
            return Change::Wipeout;
        }
        let below = if lo > min { self.remove_below(var, self.first_position_at_least(var, lo)) } else { Change::None };
        let min = self.value(var, self.min_pos(var));
        if hi < min {
            return Change::Wipeout;
        }
        let above = if hi < max { self.remove_above(var, self.last_position_at_most(var, hi)) } else { Change::None };
        match (below, above) {
            (Change::Wipeout, _) | (_, Change::Wipeout) => Change::Wipeout,
            (Change::Changed(a), Change::Changed(b)) => Change::Changed(a.min(b)),
            (Change::Changed(event), Change::None) | (Change::None, Change::Changed(event)) => Change::Changed(event),
            (Change::None, Change::None) => Change::None,
        }
    }
}
