//! The history of the domains: for every change, what made it (a decision,
//! a propagator acting for a constraint, a nogood, a fact of the root), when
//! (its place in the history) and at which decision level. Explanations and
//! conflict analysis read it; nothing else does.
//!
//! The history is off unless the solver learns or an observer asks for
//! explanations (`State::enable_history`). When it is on, every narrowing
//! made through a [`Context`](super::Context) is recorded as it happens
//! (`State::record`, called by the context after each operation), and the
//! search records its own changes (decisions, the bound of branch and
//! bound, assumptions) the same way. Recording reads the kernel's trail: the
//! records a narrowing left there say which bits of which words it cleared,
//! so the narrowing operations themselves are unchanged and cost nothing
//! more when the history is off. The commonest, a one-word domain narrowed
//! (`Context::narrow_single_word`), knows what it removed and records that
//! directly (`State::record_removed`) when nothing else is unrecorded. A
//! propagator that works on its own copy of the domains in steps (the
//! all-different system) writes them at the end of its call, each variable
//! once, and its steps are recorded one entry each, in order, as if each
//! had been written when made (`Context::narrow_in_steps`,
//! `State::record_steps`).
//!
//! One entry per changed word of a bitset (the positions it removed, as a
//! mask) and per change of an interval (its bounds before and after), so an
//! entry is always about one variable. The entries of a variable are linked
//! from the latest back (`previous`), which answers the two questions
//! explanations ask: what a domain was at an earlier point of the history
//! (the current domain with the later entries' removals put back), and which
//! entry made a fact true (walking back until the fact's positions are all
//! found). The history is undone with the trail: a [`Mark`](super::Mark)
//! holds its length.

use super::context::Step;
use super::domains::{Interval, State};
use super::trail::OldWord;

/// No entry.
pub(crate) const NONE: u32 = u32::MAX;

/// The `word` of an interval's entries.
pub(crate) const INTERVAL: u32 = u32::MAX;

/// The `previous_in_word` of an entry of a variable whose words are not
/// chained apart (an interval, or a bitset of one word: its variable's
/// chain is its word's).
const UNCHAINED: u32 = u32::MAX - 1;

/// What made a domain change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cause {
    /// A decision of the search (a value, or half of a split).
    Decision,
    /// A fact of the root, whatever the level it was recorded at: an
    /// assumption, or the bound branch and bound imposes after a solution.
    Root,
    /// A propagator's work for a constraint (both are indices in the solver).
    Propagator {
        /// The propagator that ran.
        propagator: u32,
        /// The constraint it acted for (`Context::constraint`).
        constraint: u32,
    },
    /// A nogood: a learnt clause or a solution's blocking clause.
    Nogood(u32),
    /// The decisions of the entry's level and those below: an interval's
    /// entry into which its later changes at the same level were folded (a
    /// cycle of propagators moving its bounds step by step, see
    /// [`SLOW`]), whatever made them.
    Folded,
}

/// An interval with this many entries at the current level has its further
/// changes there folded into its latest entry, explained by the decisions
/// ([`Cause::Folded`]): a cycle of propagators that pushes bounds by one
/// per call (`x >= y + 1`, `y >= x + 1` over wide domains) then grows
/// neither the history nor the trail, and conflict analysis does not walk
/// the cycle's steps one by one.
/// Enough for any propagation that converges in reasonable time (the
/// cycles of ATSP 2021 take about 6,000 steps at one level, and their
/// propagators' explanations make better nogoods than the decisions), and
/// a bound on the memory one variable takes per level (about 1.5 MB).
pub(crate) const SLOW: usize = 1 << 14;

/// One change of one variable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) var: u32,
    /// The word of a bitset domain that changed, or [`INTERVAL`].
    pub(crate) word: u32,
    /// A bitset: the positions removed, as bits of `word`. An interval: the
    /// index of its bounds before and after in [`History::bounds`].
    pub(crate) removed: u64,
    /// The variable's previous entry, or [`NONE`].
    pub(crate) previous: u32,
    /// The variable's previous entry of the same word, or [`NONE`]; for a
    /// variable whose words are not chained apart, [`UNCHAINED`].
    previous_in_word: u32,
    /// The decision level (0 for [`Cause::Root`], whatever the level then).
    pub(crate) level: u32,
    pub(crate) cause: Cause,
}

impl Entry {
    #[inline]
    pub(crate) fn is_interval(&self) -> bool {
        self.word == INTERVAL
    }
}

/// The entries, the decision level, and how much of the trail is recorded.
#[derive(Clone, Debug, Default)]
pub(crate) struct History {
    pub(crate) entries: Vec<Entry>,
    /// The bounds of interval entries: before and after.
    pub(crate) bounds: Vec<(Interval, Interval)>,
    /// Per variable, its latest entry, or [`NONE`].
    last: Vec<u32>,
    /// Per word of every bitset of more than one word, its latest entry, or
    /// [`NONE`]: a variable's words from `first_word[var]` on, one after
    /// the other (the history's own numbering, not the state's addresses).
    /// Finding which entry removed a position, or what a word was, walks
    /// the entries of its word only, not those of the variable's every word.
    last_in_word: Vec<u32>,
    /// Per variable, where its words start in `last_in_word`; [`NONE`] for
    /// an interval or a bitset of one word, whose variable's chain serves.
    first_word: Vec<u32>,
    /// Per interval variable, its entries in order: the bounds at a time
    /// and the entry that made a bound true are found by binary search, not
    /// by a walk over the chain (a cycle of propagators that moves a bound
    /// by one per call leaves thousands of entries on one variable).
    steps: Vec<Vec<u32>>,
    /// The current decision level (the search sets it).
    pub(crate) level: u32,
    /// How far a reader of the history (the learnt nogoods) has read: the
    /// entries before are seen. Undoing entries pulls it back with them.
    pub(crate) read: u32,
    /// How far CHB's rewards have read (the sibling of `read`; undoing
    /// entries pulls it back with them).
    rewarded: u32,
    /// How far LRB's assignments have read (the sibling of `read`; undoing
    /// entries pulls it back with them).
    lrb_read: u32,
    /// The length at the latest mark (or undo): an entry from there on is
    /// undone before any mark still alive is restored, so it may be folded
    /// into.
    pub(super) floor: std::cell::Cell<u32>,
    /// [`SLOW`], or less in tests that reach the folding on small domains.
    pub(crate) slow: usize,
    /// The lengths of the word trail and of the interval trail recorded so far.
    recorded_words: usize,
    recorded_intervals: usize,
    /// Scratch of `record`: `(address, value after, removed)` of the words
    /// a batch of trail records changed.
    words: Vec<(usize, u64, u64)>,
}

impl History {
    /// The history of variables with `words[var]` bitset words each
    /// (0 for an interval).
    fn new(words: impl Iterator<Item = u32>) -> History {
        let mut first_word = Vec::new();
        let mut total = 0u32;
        for n in words {
            first_word.push(if n > 1 { total } else { NONE });
            total += if n > 1 { n } else { 0 };
        }
        let num_vars = first_word.len();
        History {
            last: vec![NONE; num_vars],
            last_in_word: vec![NONE; total as usize],
            first_word,
            steps: vec![Vec::new(); num_vars],
            slow: SLOW,
            ..History::default()
        }
    }

    /// Where word `k` of bitset `var`'s chain starts: its latest entry
    /// by the word's chain (`true`), or, for a variable whose words are not
    /// chained apart, by the variable's (`false`, to be filtered by word).
    #[inline]
    fn word_chain(&self, var: u32, k: u32) -> (u32, bool) {
        match self.first_word[var as usize] {
            NONE => (self.last(var), false),
            first => (self.last_in_word[(first + k) as usize], true),
        }
    }

    /// The entry before `entry` in a chain of one word (`BY_WORD`) or of
    /// the variable (see [`word_chain`](History::word_chain)).
    #[inline(always)]
    fn next_in<const BY_WORD: bool>(entry: &Entry) -> u32 {
        if BY_WORD { entry.previous_in_word } else { entry.previous }
    }

    /// The number of entries, the history's current time.
    #[inline]
    pub(crate) fn len(&self) -> u32 {
        self.entries.len() as u32
    }

    /// The latest entry of `var`, or [`NONE`].
    #[inline]
    pub(crate) fn last(&self, var: u32) -> u32 {
        self.last[var as usize]
    }

    /// Drops the entries from `len` on.
    fn truncate(&mut self, len: usize) {
        self.read = self.read.min(len as u32);
        self.rewarded = self.rewarded.min(len as u32);
        self.lrb_read = self.lrb_read.min(len as u32);
        while self.entries.len() > len {
            let entry = self.entries.pop().expect("longer than len");
            self.last[entry.var as usize] = entry.previous;
            if entry.is_interval() {
                self.bounds.pop();
                self.steps[entry.var as usize].pop();
            } else if entry.previous_in_word != UNCHAINED {
                let slot = self.first_word[entry.var as usize] + entry.word;
                self.last_in_word[slot as usize] = entry.previous_in_word;
            }
        }
    }

    /// Forgets everything, for a new run.
    fn clear(&mut self) {
        self.entries.clear();
        self.bounds.clear();
        self.last.iter_mut().for_each(|l| *l = NONE);
        self.last_in_word.iter_mut().for_each(|l| *l = NONE);
        self.steps.iter_mut().for_each(Vec::clear);
        self.level = 0;
        self.read = 0;
        self.rewarded = 0;
        self.lrb_read = 0;
        self.floor.set(0);
        self.recorded_words = 0;
        self.recorded_intervals = 0;
    }

    /// Records bitset `var`'s removal of the positions `removed` of word
    /// `word`, or (`word` [`INTERVAL`]) interval `var`'s change whose bounds
    /// are at `removed` in `bounds`.
    #[inline]
    fn push(&mut self, var: u32, word: u32, removed: u64, cause: Cause) {
        let (first, e) = (self.first_word[var as usize], self.len());
        let previous_in_word = match first {
            NONE => UNCHAINED,
            _ => std::mem::replace(&mut self.last_in_word[(first + word) as usize], e),
        };
        self.push_chained(var, word, removed, cause, previous_in_word);
    }

    /// [`push`](History::push) of an entry of a one-word bitset (not
    /// chained apart by word).
    #[inline]
    fn push_one_word(&mut self, var: u32, removed: u64, cause: Cause) {
        debug_assert_eq!(self.first_word[var as usize], NONE, "x{var} has more than one word");
        self.push_chained(var, 0, removed, cause, UNCHAINED);
    }

    #[inline]
    fn push_chained(&mut self, var: u32, word: u32, removed: u64, cause: Cause, previous_in_word: u32) {
        let level = if cause == Cause::Root { 0 } else { self.level };
        let e = self.entries.len() as u32;
        let previous = std::mem::replace(&mut self.last[var as usize], e);
        self.entries.push(Entry { var, word, removed, previous, previous_in_word, level, cause });
    }

    /// Records interval `var`'s change from bounds `old` to `new`.
    fn push_interval(&mut self, var: u32, old: Interval, new: Interval, cause: Cause) {
        self.bounds.push((old, new));
        let e = self.len();
        self.steps[var as usize].push(e);
        self.push(var, INTERVAL, self.bounds.len() as u64 - 1, cause);
    }

    /// Interval `var`'s entries before entry `time`, in order.
    fn steps_before(&self, var: u32, time: u32) -> &[u32] {
        let steps = &self.steps[var as usize];
        &steps[..steps.partition_point(|&e| e < time)]
    }
}

impl State {
    /// Turns the history on (for a solver that learns, or whose observer
    /// asks for explanations), empty.
    pub(crate) fn enable_history(&mut self) {
        if self.history.is_none() {
            let words = (0..self.num_vars() as u32).map(|x| if self.is_interval(x) { 0 } else { self.num_words(x) });
            let mut history = History::new(words);
            history.recorded_words = self.trail.len();
            history.recorded_intervals = self.interval_trail.len();
            self.history = Some(Box::new(history));
        }
    }

    /// The history, when it is on.
    #[inline]
    pub(crate) fn history(&self) -> Option<&History> {
        self.history.as_deref()
    }

    /// The next entry the reader of the history has not seen, if any (and
    /// marks it seen).
    #[inline]
    pub(crate) fn read_next(&mut self) -> Option<u32> {
        let history = self.history.as_deref_mut()?;
        (history.read < history.len()).then(|| {
            history.read += 1;
            history.read - 1
        })
    }

    /// Marks entry `e` and those after it unseen (a reader stopped there).
    #[inline]
    pub(crate) fn unread_from(&mut self, e: u32) {
        if let Some(history) = self.history.as_deref_mut() {
            history.read = history.read.min(e);
        }
    }

    /// The entries CHB has not rewarded yet (none without the history),
    /// which count as rewarded from now on.
    pub(crate) fn take_unrewarded(&mut self) -> &[Entry] {
        let Some(history) = self.history.as_deref_mut() else { return &[] };
        let from = history.rewarded as usize;
        history.rewarded = history.len();
        &history.entries[from..]
    }

    /// LRB's read point (pulled back by any undoing since the last call)
    /// and the history, when it is on; everything counts as read by LRB
    /// from now on.
    pub(crate) fn take_unread_by_lrb(&mut self) -> Option<(u32, &History)> {
        let history = self.history.as_deref_mut()?;
        let from = history.lrb_read;
        history.lrb_read = history.len();
        Some((from, history))
    }

    /// The history, when it is on, to change how it records.
    #[cfg(feature = "testing")]
    pub(crate) fn history_mut(&mut self) -> Option<&mut History> {
        self.history.as_deref_mut()
    }

    /// Whether the history is on.
    #[inline]
    pub(crate) fn has_history(&self) -> bool {
        self.history.is_some()
    }

    /// Sets the decision level the next entries are recorded at.
    pub(crate) fn set_level(&mut self, level: u32) {
        if let Some(history) = &mut self.history {
            history.level = level;
        }
    }

    /// Records the changes the trail holds since the last record, all of
    /// them of one variable, as made by `cause`. Nothing when the history is
    /// off.
    #[inline]
    pub(crate) fn record(&mut self, cause: Cause) {
        let Some(history) = self.history.as_deref() else { return };
        // The common batch, one trail record of one word (a propagator
        // narrowing one domain), inline and without the general walk's scratch.
        let end = self.trail.len();
        if end > history.recorded_words && self.interval_trail.len() == history.recorded_intervals {
            let (address, old, used) = self.trail_record(end);
            if end - used == history.recorded_words {
                let after = self.words[address];
                let old = match old {
                    OldWord::Whole(old) => old,
                    OldWord::Bit(bit) => after | 1u64 << bit,
                };
                let (var, k) = self.locate(address);
                let Some(history) = self.history.as_deref_mut() else { return };
                history.recorded_words = end;
                if old & !after != 0 {
                    history.push(var as u32, k, old & !after, cause);
                }
                return;
            }
        }
        self.record_batch(cause);
    }

    /// Records the change just made, which removed the positions `removed`
    /// of word `k` of `var` (the trail was `before` long before it), as made
    /// by `cause`: directly when it is all the trail holds since the last
    /// record, else as [`record`](State::record) does. Nothing when the
    /// history is off.
    #[inline]
    pub(crate) fn record_removed(&mut self, var: u32, k: u32, removed: u64, before: usize, cause: Cause) {
        let end = self.trail.len();
        let intervals = self.interval_trail.len();
        let Some(history) = self.history.as_deref_mut() else { return };
        if history.recorded_words == before && history.recorded_intervals == intervals {
            history.recorded_words = end;
            history.push(var, k, removed, cause);
            return;
        }
        self.record(cause);
    }

    /// Records each of `steps` (one-word domains' changes, see
    /// [`Context::narrow_in_steps`](super::Context::narrow_in_steps)) as the
    /// work of `propagator` for the step's constraint, in their order; the
    /// trail, which holds their narrowings, is all recorded then. Nothing
    /// when the history is off.
    pub(crate) fn record_steps(&mut self, propagator: u32, steps: &[Step]) {
        let end = self.trail.len();
        let Some(history) = self.history.as_deref_mut() else { return };
        history.recorded_words = end;
        history.entries.reserve(steps.len());
        for step in steps {
            history.push_one_word(
                step.var,
                step.before & !step.after,
                Cause::Propagator { propagator, constraint: step.constraint },
            );
        }
    }

    /// [`record`](State::record) of any batch: the trail since the last
    /// record, word by word.
    #[inline(never)]
    fn record_batch(&mut self, cause: Cause) {
        let Some(mut history) = self.history.take() else { return };
        self.record_into(&mut history, cause);
        self.history = Some(history);
    }

    fn record_into(&mut self, history: &mut History, cause: Cause) {
        // The word trail, read backwards (a whole-word record is only
        // recognisable from its end): each changed word once, with the bits
        // the batch removed from it.
        let mut words = std::mem::take(&mut history.words);
        words.clear();
        let mut end = self.trail.len();
        while end > history.recorded_words {
            let (address, old, used) = self.trail_record(end);
            end -= used;
            // The word after this record: as a later record of the batch
            // found it before its own change, or as it is now.
            let at = words.iter().position(|(a, _, _)| *a == address);
            let after = at.map_or(self.words[address], |i| words[i].1);
            let old = match old {
                OldWord::Whole(old) => old,
                OldWord::Bit(bit) => after | 1u64 << bit,
            };
            match at {
                Some(i) => {
                    words[i].1 = old;
                    words[i].2 |= old & !after;
                }
                None => words.push((address, old, old & !after)),
            }
        }
        history.recorded_words = self.trail.len();
        for &(address, _, removed) in words.iter().rev() {
            if removed != 0 {
                let (var, k) = self.locate(address);
                history.push(var as u32, k, removed, cause);
            }
        }
        history.words = words;
        // The interval trail: one entry per variable, from its first old
        // bounds in the batch to its bounds now.
        for i in history.recorded_intervals..self.interval_trail.len() {
            let (var, old) = self.interval_trail[i];
            let earlier = self.interval_trail[history.recorded_intervals..i].iter().any(|&(v, _)| v == var);
            if !earlier {
                history.push_interval(var, old, self.interval(var), cause);
            }
        }
        history.recorded_intervals = self.interval_trail.len();
    }

    /// Folds interval `var`'s change to `new` into its latest entry when it
    /// has [`SLOW`] entries at the current level already (see
    /// [`Cause::Folded`]); the change is then neither trailed nor recorded
    /// (the entry's record restores the bounds before it). `false` when
    /// the history is off, or the change is to be trailed and recorded.
    pub(super) fn fold_slow(&mut self, var: u32, new: Interval) -> bool {
        let unrecorded = self.interval_trail.len();
        let Some(history) = self.history.as_deref_mut() else { return false };
        let steps = &history.steps[var as usize];
        let Some(first) = steps.len().checked_sub(history.slow).map(|k| steps[k]) else { return false };
        let last = *steps.last().expect("SLOW entries");
        let entry = history.entries[last as usize];
        let foldable = history.recorded_intervals == unrecorded
            && last >= history.floor.get()
            && entry.level == history.level
            && history.entries[first as usize].level == history.level
            && matches!(entry.cause, Cause::Propagator { .. } | Cause::Nogood(_) | Cause::Folded);
        if !foldable {
            return false;
        }
        history.bounds[entry.removed as usize].1 = new;
        history.entries[last as usize].cause = Cause::Folded;
        // The nogoods read the entry again (and look at its variable's
        // watches even if they did after the entry was made).
        history.read = history.read.min(last);
        true
    }

    /// Undoes the changes made since the last record (a narrowing that
    /// failed half-way), so that the domains are as the history says.
    pub(crate) fn discard_unrecorded(&mut self) {
        let Some(history) = &self.history else { return };
        let (words, intervals) = (history.recorded_words, history.recorded_intervals);
        let mark = super::Mark::of(words, self.int_trail.len(), intervals, history.entries.len());
        self.undo_to(mark);
    }

    /// Keeps the history in step with an undo to trail lengths `words` and
    /// `intervals` and history length `entries`.
    pub(super) fn undo_history(&mut self, words: usize, intervals: usize, entries: usize) {
        if let Some(history) = &mut self.history {
            history.truncate(entries);
            history.floor.set(entries as u32);
            history.recorded_words = history.recorded_words.min(words);
            history.recorded_intervals = history.recorded_intervals.min(intervals);
        }
    }

    /// Empties the history (a new run starts from the snapshot).
    pub(super) fn clear_history(&mut self) {
        if let Some(history) = &mut self.history {
            history.clear();
        }
    }

    /// Whether every change on the trail is recorded.
    pub(crate) fn history_is_complete(&self) -> bool {
        self.history
            .as_ref()
            .is_none_or(|h| h.recorded_words == self.trail.len() && h.recorded_intervals == self.interval_trail.len())
    }

    // ---- the domains as they were ----

    /// Word `k` of bitset `var` before entry `time`: the current word with
    /// the positions removed since put back.
    pub(crate) fn word_before(&self, history: &History, var: u32, k: u32, time: u32) -> u64 {
        let word = self.word(var, k);
        match history.word_chain(var, k) {
            (e, true) => history.put_back::<true>(e, k, time, word),
            (e, false) => history.put_back::<false>(e, k, time, word),
        }
    }

    /// Every word of bitset `var` before entry `time`, into `out` (cleared
    /// first): [`word_before`](State::word_before) of each, with one walk
    /// of the variable's entries for all of them.
    pub(crate) fn words_before(&self, history: &History, var: u32, time: u32, out: &mut Vec<u64>) {
        out.clear();
        out.extend((0..self.num_words(var)).map(|k| self.word(var, k)));
        let mut e = history.last(var);
        while e != NONE && e >= time {
            let entry = &history.entries[e as usize];
            if !entry.is_interval() {
                out[entry.word as usize] |= entry.removed;
            }
            e = entry.previous;
        }
    }

    /// The bounds of interval `var` before entry `time`: those its first
    /// entry from `time` on started from, or its bounds now.
    pub(crate) fn interval_before(&self, history: &History, var: u32, time: u32) -> Interval {
        let steps = &history.steps[var as usize];
        match steps.get(history.steps_before(var, time).len()) {
            Some(&e) => history.bounds[history.entries[e as usize].removed as usize].0,
            None => self.interval(var),
        }
    }
}

/// Every bitset word as it was at an earlier time of the history, kept for
/// a reader that goes back in time step by step (conflict analysis, whose
/// explanations come in decreasing order): moving back puts back what the
/// entries in between removed, once, instead of walking each variable's
/// chain of entries for every word an explanation reads
/// ([`State::word_before`]). Only for states of at most [`Rewound::LIMIT`]
/// words, copied at each start.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rewound {
    words: Vec<u64>,
    /// The time the words are as before; `None` when not in use.
    time: Option<u32>,
}

impl Rewound {
    /// The most words copied at a start.
    const LIMIT: usize = 4096;

    /// Starts from the domains as they are (the history's current time).
    pub(crate) fn start(&mut self, state: &State) {
        let Some(history) = state.history() else { return };
        if state.words.len() > Self::LIMIT {
            self.time = None;
            return;
        }
        self.words.clear();
        self.words.extend_from_slice(&state.words);
        self.time = Some(history.len());
    }

    /// Goes back to just before entry `time`, if it is not later than
    /// where the words are; the words as they were then, else `None`.
    pub(crate) fn back_to(&mut self, state: &State, time: u32) -> Option<&[u64]> {
        let now = self.time.filter(|&now| time <= now)?;
        let history = state.history()?;
        for entry in history.entries[time as usize..now as usize].iter().rev() {
            if !entry.is_interval() {
                self.words[state.address(entry.var, entry.word)] |= entry.removed;
            }
        }
        self.time = Some(time);
        Some(&self.words)
    }
}

impl History {
    /// The entries (from `floor`, before `time`) that removed the positions
    /// `mask` of word `k` of `var`, each with the part it removed:
    /// `found(entry, part)`. Every position must have been removed before
    /// `time`; those not found were removed before `floor` (a caller that
    /// drops the root's facts passes the root's end and walks no further).
    pub(crate) fn locate_removed(
        &self,
        var: u32,
        k: u32,
        mask: u64,
        time: u32,
        floor: u32,
        mut found: impl FnMut(u32, u64),
    ) {
        let left = match self.word_chain(var, k) {
            (e, true) => self.locate_in::<true>(e, k, mask, time, floor, &mut found),
            (e, false) => self.locate_in::<false>(e, k, mask, time, floor, &mut found),
        };
        debug_assert_eq!(left, 0, "x{var}: positions {left:#x} of word {k} were not removed before entry {time}");
    }

    /// [`locate_removed`](History::locate_removed) along a chain from entry
    /// `e` (see [`word_chain`](History::word_chain)); returns the positions
    /// not found (none when the walk stopped at `floor`, before which the
    /// rest were removed).
    #[inline(always)]
    fn locate_in<const BY_WORD: bool>(
        &self,
        mut e: u32,
        k: u32,
        mut mask: u64,
        time: u32,
        floor: u32,
        found: &mut impl FnMut(u32, u64),
    ) -> u64 {
        while e != NONE && mask != 0 {
            if e < floor {
                return 0;
            }
            let entry = &self.entries[e as usize];
            if e < time && (BY_WORD || entry.word == k) && entry.removed & mask != 0 {
                found(e, entry.removed & mask);
                mask &= !entry.removed;
            }
            e = Self::next_in::<BY_WORD>(entry);
        }
        mask
    }

    /// `word` (word `k` of a bitset now) with what the entries from `e` on
    /// a chain (see [`word_chain`](History::word_chain)) removed from it at
    /// `time` or later put back.
    #[inline(always)]
    fn put_back<const BY_WORD: bool>(&self, mut e: u32, k: u32, time: u32, mut word: u64) -> u64 {
        while e != NONE && e >= time {
            let entry = &self.entries[e as usize];
            if BY_WORD || entry.word == k {
                word |= entry.removed;
            }
            e = Self::next_in::<BY_WORD>(entry);
        }
        word
    }

    /// The entry (before `time`) from which interval `var` had a smallest
    /// value of at least `bound` (`upper`: a largest value of at most
    /// `bound`); [`NONE`] when it always had, since the start of the run.
    pub(crate) fn locate_bound(&self, var: u32, bound: i64, upper: bool, time: u32) -> u32 {
        let holds = |bounds: Interval| if upper { bounds.max <= bound } else { bounds.min >= bound };
        let bounds = |e: u32| self.bounds[self.entries[e as usize].removed as usize];
        // Bounds only narrow along a branch: the fact holds from the first
        // entry whose new bounds make it true on.
        let steps = self.steps_before(var, time);
        let at = steps.partition_point(|&e| !holds(bounds(e).1));
        debug_assert!(
            at < steps.len() || steps.is_empty(),
            "x{var}: the bound {bound} did not hold before entry {time}"
        );
        match steps.get(at) {
            // It held before the first entry of the run: a root fact.
            Some(&e) if !holds(bounds(e).0) => e,
            _ => NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;

    /// The bounds of `var` before `time` and the entry that made a bound
    /// true, by walking the variable's chain of entries (what the binary
    /// searches replace).
    fn walked(s: &State, h: &History, var: u32, time: u32) -> Interval {
        let mut bounds = s.interval(var);
        let mut e = h.last(var);
        while e != NONE && e >= time {
            bounds = h.bounds[h.entries[e as usize].removed as usize].0;
            e = h.entries[e as usize].previous;
        }
        bounds
    }

    fn walked_locate(h: &History, var: u32, bound: i64, upper: bool, time: u32) -> u32 {
        let holds = |b: Interval| if upper { b.max <= bound } else { b.min >= bound };
        let mut e = h.last(var);
        while e != NONE {
            let entry = &h.entries[e as usize];
            if e < time && !holds(h.bounds[entry.removed as usize].0) {
                return e;
            }
            e = entry.previous;
        }
        NONE
    }

    #[test]
    fn bounds_at_a_time_and_the_entries_that_made_them_are_found_by_search() {
        // Two intervals pushed up and down in small alternating steps (a
        // cycle of propagators), a bitset between them, over three levels,
        // one of them undone.
        let domains = [Domain::range(0, 1 << 40), Domain::range(-(1 << 40), 0), Domain::range(0, 9)];
        let mut s = State::new(&domains, 1 << 16).unwrap();
        s.enable_history();
        let cause = Cause::Propagator { propagator: 0, constraint: 0 };
        let mut mark = None;
        for level in 1..=3u32 {
            s.set_level(level);
            if level == 3 {
                mark = Some(s.mark());
            }
            for step in 0..40i64 {
                let k = i64::from(level) * 100 + step;
                s.narrow_interval(0, k, if step % 3 == 0 { (1 << 40) - k } else { 1 << 40 });
                s.record(cause);
                s.narrow_interval(1, -(1 << 40), -k);
                s.record(cause);
                if step % 7 == 0 {
                    s.remove_pos(2, (k % 10) as u32);
                    s.record(cause);
                }
            }
            if level == 3 {
                s.undo_to(mark.take().unwrap());
            }
        }
        let h = s.history().unwrap();
        assert_eq!(h.steps[0].len() + h.steps[1].len(), 160);
        for time in 0..=h.len() {
            for var in [0, 1] {
                let before = s.interval_before(h, var, time);
                assert_eq!(before, walked(&s, h, var, time), "x{var} before {time}");
                for bound in [before.min - 1, before.min, before.min + 1, 0, 150, 240] {
                    if bound <= before.min {
                        let found = h.locate_bound(var, bound, false, time);
                        assert_eq!(found, walked_locate(h, var, bound, false, time), "x{var} >= {bound} at {time}");
                    }
                }
                for bound in [before.max, before.max + 1, -150, 0, (1 << 40) - 100] {
                    if bound >= before.max {
                        let found = h.locate_bound(var, bound, true, time);
                        assert_eq!(found, walked_locate(h, var, bound, true, time), "x{var} <= {bound} at {time}");
                    }
                }
            }
        }
    }
}
