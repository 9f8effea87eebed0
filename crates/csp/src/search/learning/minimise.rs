//! Learnt clause minimisation: MiniSat's recursive minimisation (Sörensson
//! & Biere 2009, "Minimizing learned clauses"), over the history's entries.
//!
//! After the analysis (the sibling module `analysis`), the nogood is a
//! conjunction of facts, each the part some entry of the history did (some
//! positions of one word removed, or a bound set), or a level's decision.
//! A fact may be dropped when the others imply it: when the explanation of
//! its entry's part (facts that held before the entry) comes down, entry by
//! entry, to parts the nogood holds, root facts, or parts whose own
//! explanations do, recursively. Every step goes to earlier entries, so the
//! facts dropped are implied by those kept, and the nogood stays implied by
//! the model. A position of a variable the nogood fixes by a decision
//! (`x = v`) is implied by that decision, whoever removed it.
//!
//! The implication point's fact and decisions are never dropped; a
//! decision outside the nogood, an entry at a level none of its facts is
//! at (the test of abstract levels, by `level % 64`), or a check deeper
//! than [`DEPTH`] explanations ends a check with "not implied". What each
//! entry's check found is kept for the nogood's other facts, those shown
//! implied and a part shown not to be: a fact of several entries (the
//! positions of one word that several entries removed) goes only when
//! each entry's part does.

use crate::kernel::{Cause, History, INTERVAL, Literal, State};

use super::analysis::{Analysis, Need, each_part, locate};
use super::{Learning, Solver};

/// The most explanations one check goes down through.
const DEPTH: u32 = 64;

/// The scratch of minimisation, kept from conflict to conflict.
#[derive(Debug, Default)]
pub(super) struct Minimise {
    /// Per entry of the history, the part its checks showed implied and
    /// the last part they showed not to be; the entries to clear.
    known: Vec<(Need, Need)>,
    known_at: Vec<u32>,
    /// Per variable, whether the nogood fixes it by a decision; those to clear.
    fixed: Vec<bool>,
    fixed_at: Vec<u32>,
    /// The nogood's levels, as bits `level % 64`.
    levels: u64,
    /// The stacks of the checks: the facts of their explanations, and the
    /// parts of entries those come down to that the nogood does not hold.
    facts: Vec<Literal>,
    open: Vec<(u32, Need)>,
    /// The nogood's entries to try (latest first), and those found implied.
    candidates: Vec<u32>,
    dropped: Vec<u32>,
    /// Per literal of the nogood (a bitset's word address, or past those
    /// an interval variable), whether one of its entries stays; those set.
    kept: Vec<bool>,
    kept_at: Vec<u32>,
}

impl Minimise {
    /// Prepares for the nogood `analysis` holds over `history`.
    /// `decision(level)` is the decision literal of a level.
    fn start(
        &mut self,
        state: &State,
        history: &History,
        analysis: &Analysis,
        mut decision: impl FnMut(u32) -> Literal,
    ) {
        for &e in &self.known_at {
            self.known[e as usize] = (Need::EMPTY, Need::EMPTY);
        }
        self.known_at.clear();
        for &x in &self.fixed_at {
            self.fixed[x as usize] = false;
        }
        self.fixed_at.clear();
        for &l in &self.kept_at {
            self.kept[l as usize] = false;
        }
        self.kept_at.clear();
        if self.kept.len() < state.num_addresses() + state.num_vars() {
            self.kept.resize(state.num_addresses() + state.num_vars(), false);
        }
        if self.known.len() < history.entries.len() {
            self.known.resize(history.entries.len(), (Need::EMPTY, Need::EMPTY));
        }
        if self.fixed.len() < state.num_vars() {
            self.fixed.resize(state.num_vars(), false);
        }
        self.levels = 0;
        self.candidates.clear();
        self.dropped.clear();
        for e in analysis.marked() {
            let entry = &history.entries[e as usize];
            self.levels |= 1 << (entry.level % 64);
            if entry.cause == Cause::Decision {
                if let Literal::Within { var, mask, .. } = decision(entry.level)
                    && mask.count_ones() == 1
                {
                    self.fixed[var as usize] = true;
                    self.fixed_at.push(var);
                }
            } else if entry.level != analysis.level() {
                self.candidates.push(e);
            }
        }
        // Latest first: the explanations read the domains as they were
        // by going back in time (`Rewound`), and the checks go down.
        self.candidates.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// The index in `kept` of the literal of variable `var`'s word `word`.
    fn literal(&self, state: &State, var: u32, word: u32) -> usize {
        if word == INTERVAL { state.num_addresses() + var as usize } else { state.address_of(var, word) }
    }

    /// What an earlier check found of `part` of entry `e`, if it decides.
    fn known(&self, e: u32, part: Need) -> Option<bool> {
        let (implied, not) = self.known[e as usize];
        if implied.covers(part) {
            Some(true)
        } else if !not.is_empty() && part.covers(not) {
            Some(false)
        } else {
            None
        }
    }

    fn remember(&mut self, e: u32, part: Need, implied: bool) {
        let known = &mut self.known[e as usize];
        if known.0.is_empty() && known.1.is_empty() {
            self.known_at.push(e);
        }
        if implied {
            known.0.join(part);
        } else {
            known.1 = part;
        }
    }

    /// Brings the facts from `from` on (an explanation of what happened at
    /// `time`) down to entries: pushes onto `open` the parts of entries the
    /// nogood does not hold, and says `false` as soon as one of them cannot
    /// be implied (a decision outside the nogood, a level outside it).
    fn open_parts(
        &mut self,
        state: &State,
        history: &History,
        analysis: &Analysis,
        level_start: &[u32],
        from: usize,
        time: u32,
    ) -> bool {
        let mut implied = true;
        for i in from..self.facts.len() {
            let fact = self.facts[i];
            if self.fixed[fact.var() as usize] {
                continue;
            }
            each_part(state, fact, |part| {
                if !implied {
                    return;
                }
                locate(state, history, part, time, analysis.floor(), |e, need| {
                    let entry = &history.entries[e as usize];
                    if !implied || entry.level == 0 {
                        return;
                    }
                    if entry.cause == Cause::Decision {
                        implied = !analysis.need(level_start[entry.level as usize]).is_empty();
                    } else if analysis.need(e).covers(need) {
                    } else if self.levels & 1 << (entry.level % 64) == 0 {
                        implied = false;
                    } else {
                        self.open.push((e, need));
                    }
                });
            });
            if !implied {
                return false;
            }
        }
        true
    }
}

impl Solver<'_> {
    /// Drops from the analysis's nogood the facts its other facts imply
    /// (see the module docs).
    pub(super) fn minimise(&mut self, learning: &mut Learning) {
        let mut m = std::mem::take(&mut learning.minimise);
        let history = self.state.history().expect("the history is on");
        m.start(&self.state, history, &learning.analysis, |level| self.decision_literal(level));
        // A literal of the clause goes only if each of its entries does:
        // after one stays, its literal's other entries are not tried.
        for i in 0..m.candidates.len() {
            let e = m.candidates[i];
            let entry = self.state.history().expect("the history is on").entries[e as usize];
            let literal = m.literal(&self.state, entry.var, entry.word);
            if m.kept[literal] {
                continue;
            }
            let need = learning.analysis.need(e);
            if m.fixed[entry.var as usize] || self.implied(learning, &mut m, e, need, 0) {
                m.dropped.push(e);
            } else {
                m.kept[literal] = true;
                m.kept_at.push(literal as u32);
            }
        }
        // Dropped only now: a fact found implied may serve the next ones'
        // checks (it is implied by earlier facts, which stay or are implied).
        for &e in &m.dropped {
            learning.analysis.drop_entry(e);
        }
        learning.minimise = m;
    }

    /// Whether the nogood's facts imply `part` of entry `e` (not a
    /// decision), checking at most `DEPTH - depth` explanations down.
    fn implied(&mut self, learning: &mut Learning, m: &mut Minimise, e: u32, part: Need, depth: u32) -> bool {
        if let Some(known) = m.known(e, part) {
            return known;
        }
        if depth == DEPTH {
            return false;
        }
        let entry = self.state.history().expect("the history is on").entries[e as usize];
        let from = m.facts.len();
        for request in Analysis::requests(&entry, part) {
            self.explain(learning, entry.cause, request, e, &mut m.facts);
        }
        let history = self.state.history().expect("the history is on");
        let open = m.open.len();
        let mut implied = m.open_parts(&self.state, history, &learning.analysis, &learning.level_start, from, e);
        m.facts.truncate(from);
        // The checks below push onto `open` and take off what they push.
        let mut i = open;
        while implied && i < m.open.len() {
            let (earlier, need) = m.open[i];
            implied = self.implied(learning, m, earlier, need, depth + 1);
            i += 1;
        }
        m.open.truncate(open);
        m.remember(e, part, implied);
        implied
    }
}
