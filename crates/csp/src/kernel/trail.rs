//! The trail: what undoes the changes of the domains and of the reversible
//! integers on backtrack.
//!
//! Every change is recorded on the trail: the removal of a single value as one
//! 4-byte entry (the word and the bit), any larger change of a word as the old
//! word, a change of an interval domain as its old bounds (on a trail of
//! their own). Undoing to a mark replays the entries in reverse order and adjusts the
//! cached sizes and bounds. Single removals dominate, and a long N-queens branch
//! keeps tens of millions of them on the trail, so the small entry matters.
//! Reversible integers, which propagators use for their own incremental state,
//! have a trail of their own.

use std::ops::Range;

use super::domains::{Interval, Slot, State};

/// A trail entry with this bit set is a word address, with the old word in the
/// two entries below it (low half first); without it, `address << 6 | bit`
/// records the removal of one bit.
const WHOLE_WORD: u32 = 1 << 31;
/// Word addresses below this fit a single-bit entry.
const BIT_ENTRY_LIMIT: usize = 1 << 25;

/// A point to undo to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    words: usize,
    ints: usize,
    intervals: usize,
    /// The length of the history (0 when it is off).
    entries: usize,
}

impl Mark {
    /// The mark of these trail and history lengths.
    pub(super) fn of(words: usize, ints: usize, intervals: usize, entries: usize) -> Mark {
        Mark { words, ints, intervals, entries }
    }

    /// The length of the history at this mark.
    #[inline]
    pub(crate) fn entries(self) -> usize {
        self.entries
    }
}

/// A point of the word trail, to ask later which variables changed since
/// ([`State::changed_since`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TrailPoint {
    restores: u32,
    words: usize,
}

/// The word and interval trails' lengths at a moment, to ask later, while
/// the trails were not undone below them, which variables changed since
/// ([`State::changed_after`]): unlike a [`TrailPoint`], it sees interval
/// domains too, and it tells whether an undo went below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChangePoint {
    restores: u32,
    words: usize,
    intervals: usize,
}

/// What a trail record says of a word's value before the change.
#[derive(Clone, Copy, Debug)]
pub(super) enum OldWord {
    /// The whole old word.
    Whole(u64),
    /// The old word had this bit too (and was otherwise as after the change).
    Bit(u32),
}

/// A handle to a reversible integer, allocated by a propagator when the solver
/// is built and restored automatically on backtrack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReversibleInt(pub(crate) u32);

/// The domains and reversible integers at one moment (see [`State::snapshot`]).
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    words: Vec<u64>,
    slots: Vec<Slot>,
    ints: Vec<i64>,
    intervals: Vec<Interval>,
}

impl State {
    #[inline]
    pub(super) fn locate(&self, address: usize) -> (usize, u32) {
        if self.owner.is_empty() {
            if self.row_words == 1 {
                // One word per variable: the address is the variable.
                return (address, 0);
            }
            let n = self.stride as usize;
            (address % n, (address / n) as u32)
        } else {
            let var = self.owner[address] as usize;
            (var, address as u32 - self.slots[var].first_word)
        }
    }

    /// The trail record that ends at `end` (exclusive), read backwards: the
    /// word's address, what it says of the word's old value, and the number
    /// of `u32`s the record takes.
    #[inline]
    pub(super) fn trail_record(&self, end: usize) -> (usize, OldWord, usize) {
        let entry = self.trail[end - 1];
        if entry & WHOLE_WORD != 0 {
            let old = u64::from(self.trail[end - 2]) << 32 | u64::from(self.trail[end - 3]);
            ((entry & !WHOLE_WORD) as usize, OldWord::Whole(old), 3)
        } else {
            ((entry >> 6) as usize, OldWord::Bit(entry & 63), 1)
        }
    }

    /// The length of the word trail (for [`State::record_removed`]).
    #[inline]
    pub(super) fn trail_len(&self) -> usize {
        self.trail.len()
    }

    /// Records the current value of a word that is about to change in more than one bit.
    #[inline]
    pub(super) fn save(&mut self, address: usize) {
        let old = self.words[address];
        self.trail.extend_from_slice(&[old as u32, (old >> 32) as u32, WHOLE_WORD | address as u32]);
    }

    /// Records that bit `bit` of the word at `address` is about to be cleared.
    #[inline]
    pub(super) fn save_bit(&mut self, address: usize, bit: u32) {
        if address < BIT_ENTRY_LIMIT {
            self.trail.push((address as u32) << 6 | bit);
        } else {
            self.save(address);
        }
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

    // ---- snapshots ----

    /// A copy of the domains and reversible integers, to come back to in one go.
    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            words: self.words.clone(),
            slots: self.slots.clone(),
            ints: self.ints.clone(),
            intervals: self.intervals.clone(),
        }
    }

    /// Comes back to a snapshot: a few block copies, however long the trail
    /// since. The trail is emptied.
    pub(crate) fn restore(&mut self, snapshot: &Snapshot) {
        self.words.copy_from_slice(&snapshot.words);
        self.slots.copy_from_slice(&snapshot.slots);
        self.ints.copy_from_slice(&snapshot.ints);
        self.intervals.copy_from_slice(&snapshot.intervals);
        self.trail.clear();
        self.restores = self.restores.wrapping_add(1);
        self.int_trail.clear();
        self.interval_trail.clear();
        self.interval_floor.set(0);
        self.clear_history();
    }

    // ---- trail ----

    /// The point the word trail is at now.
    #[inline]
    pub(crate) fn trail_point(&self) -> TrailPoint {
        TrailPoint { restores: self.restores, words: self.trail.len() }
    }

    /// Calls `f` with the variable of every word change on the trail since
    /// `point`, newest first (a variable once per change), and returns
    /// `true`; the domains are then those at `point` less these changes.
    /// The caller knows that the trail was not undone below `point` since (a
    /// reversible integer set before it still holds its value). `false`,
    /// without a call, when the domains came back from a snapshot since, or
    /// the trail is shorter than at `point`.
    pub(crate) fn changed_since(&self, point: TrailPoint, mut f: impl FnMut(usize)) -> bool {
        if point.restores != self.restores || point.words > self.trail.len() {
            return false;
        }
        let mut end = self.trail.len();
        while end > point.words {
            let (address, _, used) = self.trail_record(end);
            end -= used;
            f(self.locate(address).0);
        }
        true
    }

    /// [`State::changed_since`] for the variables of indices `vars` only,
    /// when the trail since `point` is at most `most` entries long: calls
    /// `f` with the variable of every word change since `point` among
    /// `vars`, newest first, and returns `true`. `false`, without a call,
    /// when `changed_since` would return `false` or the trail since `point`
    /// is longer (the caller then reads its variables instead: a propagator
    /// woken rarely in a big model would otherwise pass over every change
    /// of the model since its last call, most of them not its variables').
    /// Where the words of `vars` are one block (a variable's words
    /// together, or one word a variable), an entry outside the block is
    /// passed over without finding its variable.
    pub(crate) fn changed_among(
        &self,
        point: TrailPoint,
        vars: Range<usize>,
        most: usize,
        mut f: impl FnMut(usize),
    ) -> bool {
        if point.restores != self.restores || point.words > self.trail.len() {
            return false;
        }
        if self.trail.len() - point.words > most {
            return false;
        }
        let block = if !self.owner.is_empty() {
            // Variable-major: the words of consecutive variables follow each other.
            let first = vars.clone().next().map_or(0, |x| self.slots[x].first_word as usize);
            let last =
                vars.clone().next_back().map_or(0, |x| self.slots[x].first_word as usize + self.num_words[x] as usize);
            Some(first..last)
        } else {
            // Word-major with one word a variable: the address is the variable.
            (self.row_words == 1).then(|| vars.clone())
        };
        let mut end = self.trail.len();
        while end > point.words {
            let (address, _, used) = self.trail_record(end);
            end -= used;
            if block.as_ref().is_none_or(|block| block.contains(&address)) {
                let var = self.locate(address).0;
                if vars.contains(&var) {
                    f(var);
                }
            }
        }
        true
    }

    /// The point the trails are at now. From now on until the next call,
    /// [`State::undone_below`] tells of the undos, and an interval changed
    /// after it is recorded after it (its floor is raised to here).
    pub(crate) fn change_point(&mut self) -> ChangePoint {
        let (words, intervals) = (self.trail.len(), self.interval_trail.len());
        self.interval_floor.set(self.interval_floor.get().max(intervals));
        self.low_water = (words, intervals);
        ChangePoint { restores: self.restores, words, intervals }
    }

    /// Whether, since the latest [`State::change_point`] (taken at `point`
    /// or after it), the trails were undone below `point`, or the domains
    /// came back from a snapshot: then [`State::changed_after`] cannot tell
    /// what changed since `point`.
    #[inline]
    pub(crate) fn undone_below(&self, point: ChangePoint) -> bool {
        point.restores != self.restores || self.low_water.0 < point.words || self.low_water.1 < point.intervals
    }

    /// Calls `f` with the variable of every change recorded since `point`
    /// (a variable once per record, or more), for a `point` not
    /// [undone below](State::undone_below): every variable whose domain
    /// differs from the one at `point` is among them.
    pub(crate) fn changed_after(&self, point: ChangePoint, mut f: impl FnMut(u32)) {
        let mut end = self.trail.len();
        while end > point.words {
            let (address, _, used) = self.trail_record(end);
            end -= used;
            f(self.locate(address).0 as u32);
        }
        for &(var, _) in &self.interval_trail[point.intervals..] {
            f(var);
        }
    }

    #[inline]
    pub(crate) fn mark(&self) -> Mark {
        debug_assert!(self.history_is_complete(), "a mark between a change and its record");
        self.interval_floor.set(self.interval_trail.len());
        if let Some(history) = self.history() {
            history.floor.set(history.len());
        }
        Mark {
            words: self.trail.len(),
            ints: self.int_trail.len(),
            intervals: self.interval_trail.len(),
            entries: self.history().map_or(0, |h| h.entries.len()),
        }
    }

    /// Restores every domain and reversible integer to what it was at `mark`.
    pub(crate) fn undo_to(&mut self, mark: Mark) {
        while self.trail.len() > mark.words {
            let entry = self.trail.pop().expect("trail is longer than the mark");
            let (w, old) = if entry & WHOLE_WORD != 0 {
                let high = self.trail.pop().expect("a saved word follows its address");
                let low = self.trail.pop().expect("a saved word follows its address");
                ((entry & !WHOLE_WORD) as usize, u64::from(high) << 32 | u64::from(low))
            } else {
                let w = (entry >> 6) as usize;
                (w, self.words[w] | 1u64 << (entry & 63))
            };
            let (v, k) = self.locate(w);
            let current = self.words[w];
            self.words[w] = old;
            let added = old & !current;
            self.slots[v].size += added.count_ones();
            let lo = k * 64 + added.trailing_zeros();
            let hi = k * 64 + 63 - added.leading_zeros();
            if self.slots[v].size == added.count_ones() {
                // The domain was empty: the restored bits are all there is.
                self.slots[v].min = lo;
                self.slots[v].max = hi;
            } else {
                self.slots[v].min = self.slots[v].min.min(lo);
                self.slots[v].max = self.slots[v].max.max(hi);
            }
        }
        while self.int_trail.len() > mark.ints {
            let (cell, old) = self.int_trail.pop().expect("trail is longer than the mark");
            self.ints[cell as usize] = old;
        }
        if self.interval_trail.len() > mark.intervals {
            self.undo_intervals(mark.intervals);
        }
        self.interval_floor.set(mark.intervals);
        self.low_water = (self.low_water.0.min(mark.words), self.low_water.1.min(mark.intervals));
        if self.history.is_some() {
            self.undo_history(mark.words, mark.intervals, mark.entries);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::kernel::domains::{Change, Event};

    fn state(domains: &[Domain]) -> State {
        State::new(domains, u64::MAX).unwrap()
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

    /// `changed_among` lists what `changed_since` lists among its
    /// variables, in both layouts (word-major, one or more words a
    /// variable; variable-major, with intervals among the bitsets), and
    /// refuses a trail longer than its most.
    #[test]
    fn changed_among_lists_the_changes_of_its_variables() {
        let layouts = [
            vec![Domain::range(0, 9); 6],
            vec![Domain::range(0, 99); 6],
            vec![
                Domain::range(0, 9),
                Domain::range(0, 200),
                Domain::range(0, 1 << 40),
                Domain::values([-5, 7, 100]),
                Domain::range(-70, 70),
                Domain::range(0, 3),
            ],
        ];
        for domains in &layouts {
            let mut s = State::new(domains, 1 << 12).unwrap();
            let point = s.trail_point();
            for (var, pos) in [(4, 1), (1, 130), (0, 0), (3, 2), (5, 3), (1, 0), (4, 0)] {
                if !s.is_interval(var) {
                    s.remove_pos(var, pos.min(s.max_pos(var)));
                }
            }
            s.remove_above(1, 60);
            for vars in [0..6, 1..2, 1..5, 3..6, 5..6] {
                let (mut all, mut among) = (Vec::new(), Vec::new());
                assert!(s.changed_since(point, |x| all.push(x)));
                all.retain(|x| vars.contains(x));
                assert!(s.changed_among(point, vars.clone(), usize::MAX, |x| among.push(x)));
                assert_eq!(among, all, "{vars:?} of {domains:?}");
                let length = s.trail_len() - point.words;
                assert!(s.changed_among(point, vars.clone(), length, |_| {}));
                assert!(!s.changed_among(point, vars.clone(), length - 1, |_| panic!("read past the most")));
            }
        }
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
