//! Conflict analysis to the first unique implication point (Marques-Silva &
//! Sakallah 1996, "GRASP"; Zhang et al. 2001), over the history's entries.
//!
//! A conflict starts as a conjunction of facts that held and that the
//! model forbids. Each fact is traced to the entries of the history that
//! made it true (`History::locate_removed`, `History::locate_bound`), and
//! each such entry is marked with the part of its change the conjunction
//! needs (some of the positions it removed, or a bound). Facts of the root
//! are dropped: they hold in every state the search can reach, so tracing
//! stops at the root's last entry. A position is removed once along a
//! branch, so each removed position is traced once per conflict (later
//! facts on it would mark the same entry again). Then, while
//! more than one entry of the conflict's decision level is marked, the
//! latest one is replaced by its explanation: what its propagator (or
//! nogood) says made the needed part true, facts that held before it, traced
//! to earlier entries the same way. What is left is a nogood with exactly
//! one entry at the conflict's level, the first unique implication point:
//! after jumping back to the second highest level among its facts, the
//! nogood forbids that entry's part, which is new there.
//!
//! The decision of a level is never explained: every entry it made stands
//! for the decision itself, `x = v` (or the half of a split), which is the
//! level's last resort as its implication point.
//!
//! The facts left are merged per variable (the positions of one word into
//! one fact), and the learnt clause is their negation, its first literal
//! the implication point's.

use crate::kernel::{Cause, Entry, History, INTERVAL, Literal, NONE, Request, State};

/// What a conflict's nogood needs of an entry of the history: positions it
/// removed (a bitset's word), or bounds it set (an interval).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Need {
    pub(super) mask: u64,
    pub(super) at_least: i64,
    pub(super) at_most: i64,
}

impl Need {
    pub(super) const EMPTY: Need = Need { mask: 0, at_least: i64::MIN, at_most: i64::MAX };

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        *self == Need::EMPTY
    }

    /// Whether this part holds all of `other` (of the same entry).
    #[inline]
    pub(super) fn covers(&self, other: Need) -> bool {
        other.mask & !self.mask == 0 && self.at_least >= other.at_least && self.at_most <= other.at_most
    }

    /// Both parts together.
    #[inline]
    pub(super) fn join(&mut self, other: Need) {
        self.mask |= other.mask;
        self.at_least = self.at_least.max(other.at_least);
        self.at_most = self.at_most.min(other.at_most);
    }
}

/// The next step of an analysis (see [`Analysis::next`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Explain what is needed of this entry.
    Explain(u32, Need),
    /// The implication point is reached.
    Stop,
    /// Nothing is left at the conflict's level: settle on the highest left.
    Settle,
}

/// A learnt nogood, as a clause.
#[derive(Clone, Debug, Default)]
pub(crate) struct Learnt {
    /// The clause: the implication point's literal first, then the literal
    /// of the highest level among the others.
    pub(crate) literals: Vec<Literal>,
    /// The level to jump back to: the second highest among the facts (0
    /// for a unit nogood).
    pub(crate) backjump: u32,
    /// The number of distinct decision levels among its facts.
    pub(crate) lbd: u32,
}

/// The scratch of conflict analysis, kept from conflict to conflict.
#[derive(Debug, Default)]
pub(crate) struct Analysis {
    /// Per entry of the history, what the nogood needs of it.
    need: Vec<Need>,
    /// The entries marked, to unmark them after.
    touched: Vec<u32>,
    /// How many marked entries are at the conflict's level.
    open: usize,
    /// The conflict's level.
    level: u32,
    /// Facts waiting to be traced, each with the time it held at.
    pub(super) facts: Vec<Literal>,
    /// The merged facts of the nogood, each with its level and whether it
    /// is the implication point's.
    merged: Vec<(Literal, u32, bool)>,
    /// Where the search for the next entry to explain goes on from (down).
    scan: u32,
    /// The history's first entry after the root's: tracing walks no
    /// further back (the root's facts are dropped).
    floor: u32,
    /// Per word address of the bitsets, the positions whose removal this
    /// analysis has traced (a position is removed once along a branch, so
    /// its entry is marked already), and the addresses to clear.
    traced: Vec<u64>,
    traced_at: Vec<u32>,
    /// Per word address, the index in `merged` of the fact on its
    /// positions ([`NONE`] when there is none).
    merged_at: Vec<u32>,
    /// Scratch of `learnt`'s sort: per key, a count, then an index.
    slots: Vec<u32>,
    /// The variables met (for VSIDS) and the nogoods used (their activity).
    pub(super) vars: Vec<u32>,
    pub(super) clauses: Vec<u32>,
    /// With `literals_on`, the literals met (for literal VSIDS): positions
    /// whose removal was traced (variable, word, positions), and the
    /// levels whose decision was.
    literals_on: bool,
    pub(super) removals: Vec<(u32, u32, u64)>,
    pub(super) decisions: Vec<u32>,
}

impl Analysis {
    /// Unmarks every entry.
    fn clear(&mut self) {
        for &e in &self.touched {
            self.need[e as usize] = Need::EMPTY;
        }
        self.touched.clear();
        for &a in &self.traced_at {
            self.traced[a as usize] = 0;
        }
        self.traced_at.clear();
        self.open = 0;
        self.vars.clear();
        self.clauses.clear();
        self.removals.clear();
        self.decisions.clear();
    }

    /// Prepares for a conflict over a history of `len` entries whose root
    /// ends at entry `floor`, on the domains of `state`; with `literals`,
    /// noting the literals met.
    pub(super) fn start(&mut self, state: &State, len: usize, floor: u32, literals: bool) {
        self.clear();
        self.literals_on = literals;
        self.scan = len as u32;
        self.floor = floor;
        if self.need.len() < len {
            self.need.resize(len, Need::EMPTY);
        }
        if self.traced.len() < state.num_addresses() {
            self.traced.resize(state.num_addresses(), 0);
            self.merged_at.resize(state.num_addresses(), NONE);
        }
    }

    /// Marks `part` of entry `e` as needed (decisions: the level's first
    /// entry stands for them all; root facts are dropped). Always inlined:
    /// out of line, each of the million calls a few thousand conflicts make
    /// (through `History::locate_removed`'s closure) passed `part` through
    /// memory and cost `--learn` about 3% more instructions (callgrind).
    #[inline(always)]
    fn mark(&mut self, history: &History, level_start: &[u32], e: u32, part: Need) {
        let entry = history.entries[e as usize];
        if entry.level == 0 {
            return;
        }
        if self.literals_on && part.mask != 0 {
            self.removals.push((entry.var, entry.word, part.mask));
        }
        let e = if entry.cause == Cause::Decision { level_start[entry.level as usize] } else { e };
        let need = &mut self.need[e as usize];
        if need.is_empty() {
            self.touched.push(e);
            self.vars.push(entry.var);
            if entry.level == self.level {
                self.open += 1;
            }
            if self.literals_on && entry.cause == Cause::Decision {
                self.decisions.push(entry.level);
            }
        }
        need.join(part);
    }

    /// What the nogood needs of entry `e` (empty when it is not among its
    /// facts; a decision's level stands at its first entry).
    #[inline]
    pub(super) fn need(&self, e: u32) -> Need {
        self.need[e as usize]
    }

    /// The entries of the nogood: those something is needed of.
    pub(super) fn marked(&self) -> impl Iterator<Item = u32> + '_ {
        self.touched.iter().copied().filter(|&e| !self.need[e as usize].is_empty())
    }

    /// Takes entry `e`'s facts out of the nogood (minimisation found them
    /// implied by the others).
    pub(super) fn drop_entry(&mut self, e: u32) {
        self.need[e as usize] = Need::EMPTY;
    }

    /// The conflict's level, and the first entry after the root's.
    pub(super) fn level(&self) -> u32 {
        self.level
    }

    pub(super) fn floor(&self) -> u32 {
        self.floor
    }

    /// Traces the waiting facts, which held before entry `time`, to the
    /// entries that made them true, and marks those.
    pub(super) fn trace(&mut self, state: &State, history: &History, level_start: &[u32], time: u32) {
        let facts = std::mem::take(&mut self.facts);
        for &fact in &facts {
            self.trace_one(state, history, level_start, fact, time);
        }
        self.facts = facts;
        self.facts.clear();
    }

    fn trace_one(&mut self, state: &State, history: &History, level_start: &[u32], fact: Literal, time: u32) {
        // The commonest fact, positions of one word removed, is its own
        // only part: traced without `each_part`'s closure.
        if let Literal::Outside { .. } = fact {
            self.trace_part(state, history, level_start, fact, time);
        } else {
            each_part(state, fact, |part| self.trace_part(state, history, level_start, part, time));
        }
    }

    /// [`trace_one`](Analysis::trace_one) of one of [`each_part`]'s facts.
    #[inline(always)]
    fn trace_part(&mut self, state: &State, history: &History, level_start: &[u32], part: Literal, time: u32) {
        let floor = self.floor;
        if let Literal::Outside { var, word, mask } = part {
            // A position is removed once along a branch: one already
            // traced has its entry marked.
            let address = state.address_of(var, word);
            let traced = self.traced[address];
            if mask & !traced == 0 {
                return;
            }
            if traced == 0 {
                self.traced_at.push(address as u32);
            }
            self.traced[address] = traced | mask;
            // (As `locate` does, inline.)
            history.locate_removed(var, word, mask & !traced, time, floor, |e, mask| {
                self.mark(history, level_start, e, Need { mask, ..Need::EMPTY })
            });
        } else {
            locate(state, history, part, time, floor, |e, need| self.mark(history, level_start, e, need));
        }
    }

    /// The highest level among the marked entries (0 if none), which
    /// becomes the conflict's level, and the count of open entries there.
    pub(super) fn settle_level(&mut self, history: &History) -> u32 {
        let need = &self.need;
        let marked = || self.touched.iter().filter(|&&e| !need[e as usize].is_empty());
        let level = marked().map(|&e| history.entries[e as usize].level).max().unwrap_or(0);
        self.open = marked().filter(|&&e| history.entries[e as usize].level == level).count();
        self.level = level;
        level
    }

    /// What to do next: explain an entry (taking what is needed of it), or
    /// stop at the implication point, or (when the explanations left
    /// nothing at the conflict's level) settle on a lower level.
    pub(super) fn next(&mut self, history: &History) -> Next {
        if self.open == 0 {
            return Next::Settle;
        }
        // Explanations only mark earlier entries: the scan only goes down.
        let e = (0..self.scan)
            .rev()
            .find(|&e| history.entries[e as usize].level == self.level && !self.need[e as usize].is_empty())
            .expect("an open entry at the conflict's level");
        let entry = &history.entries[e as usize];
        let need = self.need[e as usize];
        // The implication point must be one fact: an interval's entry that
        // set both bounds is explained further.
        let one_fact = entry.cause == Cause::Decision
            || entry.word != INTERVAL
            || need.at_least == i64::MIN
            || need.at_most == i64::MAX;
        if self.open == 1 && one_fact {
            return Next::Stop;
        }
        self.scan = e;
        self.need[e as usize] = Need::EMPTY;
        self.open -= 1;
        Next::Explain(e, need)
    }

    /// The requests that explain `need` of entry `entry`.
    pub(super) fn requests(entry: &Entry, need: Need) -> smallvec::SmallVec<[Request; 2]> {
        let mut requests = smallvec::SmallVec::new();
        if entry.word != INTERVAL {
            requests.push(Request::Removed { var: entry.var, word: entry.word, mask: need.mask });
        } else {
            if need.at_least != i64::MIN {
                requests.push(Request::AtLeast { var: entry.var, value: need.at_least });
            }
            if need.at_most != i64::MAX {
                requests.push(Request::AtMost { var: entry.var, value: need.at_most });
            }
        }
        requests
    }

    /// The nogood left: merges the marked entries' facts per variable and
    /// returns the clause. `decision(level)` is the decision literal of a
    /// level (a fact: `x = v`, or the half of a split).
    pub(super) fn learnt(
        &mut self,
        state: &State,
        history: &History,
        mut decision: impl FnMut(u32) -> Literal,
    ) -> Learnt {
        let merged = &mut self.merged;
        merged.clear();
        for &e in &self.touched {
            let need = self.need[e as usize];
            if need.is_empty() {
                continue;
            }
            let entry = &history.entries[e as usize];
            let level = entry.level;
            let mut facts: smallvec::SmallVec<[Literal; 2]> = smallvec::SmallVec::new();
            if entry.cause == Cause::Decision {
                facts.push(decision(level));
            } else if entry.word != INTERVAL {
                facts.push(Literal::Outside { var: entry.var, word: entry.word, mask: need.mask });
            } else {
                if need.at_least != i64::MIN {
                    facts.push(Literal::AtLeast { var: entry.var, value: need.at_least });
                }
                if need.at_most != i64::MAX {
                    facts.push(Literal::AtMost { var: entry.var, value: need.at_most });
                }
            }
            for fact in facts {
                merge(merged, &mut self.merged_at, state, fact, level, level == self.level);
            }
        }
        for &(fact, _, _) in merged.iter() {
            if let Literal::Outside { var, word, .. } = fact {
                self.merged_at[state.address_of(var, word)] = NONE;
            }
        }
        // A decision `x = v` implies every position of `x` but `v` removed.
        let fixed: smallvec::SmallVec<[u32; 8]> = merged
            .iter()
            .filter_map(|&(fact, _, _)| match fact {
                Literal::Within { var, mask, .. } if mask.count_ones() == 1 => Some(var),
                _ => None,
            })
            .collect();
        merged
            .retain(|&(fact, _, uip)| uip || !matches!(fact, Literal::Outside { .. }) || !fixed.contains(&fact.var()));
        debug_assert_eq!(merged.iter().filter(|m| m.2).count(), 1, "one implication point: {merged:?}");
        // The implication point's literal first, then the others by level,
        // highest first, each level's in their order here: a stable
        // counting sort on the key `level` (the implication point's above
        // every level). Its counts give the distinct levels too.
        let top = merged.iter().map(|&(_, level, _)| level as usize).max().unwrap_or(0);
        let key = |&(_, level, uip): &(Literal, u32, bool)| if uip { top + 1 } else { level as usize };
        let slots = &mut self.slots;
        slots.clear();
        slots.resize(top + 2, 0);
        for m in merged.iter() {
            slots[key(m)] += 1;
        }
        let uip_level = merged.iter().find(|m| m.2).map_or(0, |m| m.1 as usize);
        let lbd = slots[..=top].iter().filter(|&&n| n != 0).count() + usize::from(slots[uip_level] == 0);
        // Each key's first index, from the highest key down.
        let mut next = 0;
        for n in slots.iter_mut().rev() {
            (*n, next) = (next, next + *n);
        }
        let mut literals: Vec<Literal> = merged.iter().map(|m| m.0).collect();
        let mut backjump = 0;
        for m in merged.iter() {
            let at = &mut slots[key(m)];
            literals[*at as usize] = m.0.negation();
            if *at == 1 {
                backjump = m.1;
            }
            *at += 1;
        }
        Learnt { literals, backjump, lbd: lbd as u32 }
    }
}

/// Adds `fact` (of level `level`, the implication point's when `uip`) to
/// `merged`, joining a fact on the same word's positions (found through
/// `merged_at`, by word address) or the same bound side of the same variable.
fn merge(
    merged: &mut Vec<(Literal, u32, bool)>,
    merged_at: &mut [u32],
    state: &State,
    fact: Literal,
    level: u32,
    uip: bool,
) {
    if let Literal::Outside { var, word, mask } = fact {
        let at = &mut merged_at[state.address_of(var, word)];
        if *at == NONE {
            *at = merged.len() as u32;
            merged.push((fact, level, uip));
        } else {
            let (old, old_level, old_uip) = &mut merged[*at as usize];
            if let Literal::Outside { mask: old_mask, .. } = old {
                *old_mask |= mask;
            }
            *old_level = (*old_level).max(level);
            *old_uip |= uip;
        }
        return;
    }
    for (old, old_level, old_uip) in merged.iter_mut() {
        let joined = match (*old, fact) {
            (Literal::AtLeast { var, value }, Literal::AtLeast { var: v, value: b }) if var == v => {
                Some(Literal::AtLeast { var, value: value.max(b) })
            }
            (Literal::AtMost { var, value }, Literal::AtMost { var: v, value: b }) if var == v => {
                Some(Literal::AtMost { var, value: value.min(b) })
            }
            _ => None,
        };
        if let Some(joined) = joined {
            *old = joined;
            *old_level = (*old_level).max(level);
            *old_uip |= uip;
            return;
        }
    }
    merged.push((fact, level, uip));
}

/// `fact` as the facts the history's entries make true one by one: the
/// positions of one word removed, or one bound of an interval, each
/// `part(fact)` (a bitset's `Within` and bounds become the removal of the
/// positions they rule out).
pub(super) fn each_part(state: &State, fact: Literal, mut part: impl FnMut(Literal)) {
    match fact {
        Literal::Outside { .. } => part(fact),
        Literal::Within { var, word, mask } => {
            // Every other position of the variable is removed.
            for k in 0..state.num_words(var) {
                let others = state.word_positions(var, k) & if k == word { !mask } else { u64::MAX };
                if others != 0 {
                    part(Literal::Outside { var, word: k, mask: others });
                }
            }
        }
        Literal::AtLeast { var, .. } | Literal::AtMost { var, .. } if state.is_interval(var) => part(fact),
        Literal::AtLeast { var, value } => {
            let below = state.positions_below(var, value);
            state.position_range_masks(var, 0, below, |word, mask| part(Literal::Outside { var, word, mask }));
        }
        Literal::AtMost { var, value } => {
            let upto = state.positions_below(var, value.saturating_add(1));
            let len = state.num_positions(var);
            state.position_range_masks(var, upto, len, |word, mask| part(Literal::Outside { var, word, mask }));
        }
    }
}

/// The entries (from `floor`, before `time`) that made `part` true (one of
/// [`each_part`]'s facts), each with what it did of it: `found(entry, need)`.
/// None when it held since the start of the run or was made before `floor`.
pub(super) fn locate(
    state: &State,
    history: &History,
    part: Literal,
    time: u32,
    floor: u32,
    mut found: impl FnMut(u32, Need),
) {
    match part {
        Literal::Outside { var, word, mask } => {
            history.locate_removed(var, word, mask, time, floor, |e, mask| found(e, Need { mask, ..Need::EMPTY }));
        }
        Literal::AtLeast { var, value } if state.is_interval(var) => {
            let e = history.locate_bound(var, value, false, time);
            if e != NONE {
                found(e, Need { at_least: value, ..Need::EMPTY });
            }
        }
        Literal::AtMost { var, value } if state.is_interval(var) => {
            let e = history.locate_bound(var, value, true, time);
            if e != NONE {
                found(e, Need { at_most: value, ..Need::EMPTY });
            }
        }
        _ => unreachable!("each_part gives removals of bitsets and bounds of intervals: {part:?}"),
    }
}
