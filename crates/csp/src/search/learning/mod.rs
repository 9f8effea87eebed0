//! Search that learns from its failures: lazy clause generation (Ohrimenko,
//! Stuckey & Codish 2009; Feydy & Stuckey 2009) adapted to this kernel, as
//! Chuffed and Pumpkin do it, for [`Search::Learning`](crate::Search::Learning).
//!
//! # The pieces
//!
//! - **Literals** are facts about one variable's domain
//!   ([`Literal`]): positions of a bitset's word removed (`x ≠ 3`, or
//!   several at once) or the only ones left (`x = 3`), and bounds (`x ≥ 5`)
//!   for intervals. The public [`Atom`](crate::Atom) is their user-facing
//!   form.
//! - **The history** (`kernel::History`) records every domain change with
//!   its cause (a decision, a propagator acting for a constraint, a nogood,
//!   a fact of the root) and its decision level, one entry per changed
//!   word or interval. It can show any domain as it was at any earlier
//!   point, and find the entry that made a fact true.
//! - **Explanations** are lazy: only when an analysis needs to know why an
//!   entry happened does it ask the entry's propagator
//!   ([`Propagator::explain`](crate::Propagator::explain)), which reads the
//!   domains as they were then. A propagator without an answer of its own
//!   gets the generic one, its scope's domains as they were, which is right
//!   for every sound propagator that reads only its scope: custom
//!   constraints need nothing to work with learning.
//! - **Analysis** (the sibling module `analysis`) goes back from a
//!   conflict to the first unique implication point and yields a nogood
//!   with one fact at the conflict's level; the search jumps back to the
//!   second highest level among its facts, where the nogood, now a clause
//!   with one literal left, asserts something new.
//! - **Minimisation** (the sibling module `minimise`) then drops each fact
//!   of the nogood that its other facts imply, through the explanations of
//!   the entries that made it true (with `+minimize`).
//! - **Nogoods** (the sibling module `nogoods`) are clauses over literals
//!   with two watched literals, propagated before any propagator each time
//!   the queue runs, reduced by literal block distance.
//! - **Vivification** (the sibling module `vivify`, with `+vivify`)
//!   shortens learnt nogoods at restarts: their facts assumed one at a
//!   time and propagated, with the nogood itself switched off.
//! - **Search** (the sibling module `descent`): binary decisions, conflicts
//!   analysed and learnt from, backjumps, restarts that keep the nogoods,
//!   solutions excluded by the nogood of their decisions, branch and bound.
//!
//! # Why the nogoods are right
//!
//! Every learnt nogood is implied by the model, the run's assumptions, the
//! solutions already found (when enumerating) and the bound of branch and
//! bound: explanations are implied by their constraints (so minimisation,
//! which drops only facts the kept ones imply through explanations, keeps
//! it implied), the root facts
//! (assumptions, the bound) hold in every state the run can reach, and a
//! solution's nogood only excludes that solution. Branch and bound only
//! tightens its bound, so a nogood learnt under one bound stays valid under
//! every later one; restarts keep the nogoods for the same reason. The
//! nogoods live for one run (one `solve`, `count`, `solutions` or
//! `optimize`): the next run may have other assumptions. With
//! `Solver::check_nogoods` (feature `testing`) every learnt nogood is
//! checked against the brute-force solutions of small models, each
//! propagation of the nogoods that ends without a failure checks that no
//! nogood is false, or unit with its last literal not true (no watch was
//! missed), and the property tests run it on random models under every
//! configuration that learns.

use crate::ids::VarId;
use crate::kernel::{Cause, Entry, Literal, NONE, Request, Rewound};

use super::Solver;
use super::dfs::FrameKind;
use super::propagate::{Failure, Origin};

mod analysis;
#[cfg(feature = "testing")]
pub(super) mod check;
mod descent;
mod minimise;
pub(super) mod nogoods;
mod probe;
mod vivify;

use analysis::{Analysis, Learnt, Next};
use minimise::Minimise;
use nogoods::{Found, Kind, Nogoods};

/// What a solver that learns keeps besides the history.
#[derive(Debug)]
pub(super) struct Learning {
    nogoods: Nogoods,
    analysis: Analysis,
    minimise: Minimise,
    /// The domains as they were, for the explanations of an analysis.
    rewound: Rewound,
    /// Per decision level (from 1; 0 is the root's), the first entry of the
    /// history it recorded.
    level_start: Vec<u32>,
    /// Conflicts before the next reduction of the nogoods, and the interval.
    until_reduction: u64,
    reduction_interval: u64,
    /// The first interval and the growth of each later one
    /// ([`FIRST_REDUCTION`] and [`REDUCTION_GROWTH`]; a test may shorten
    /// both, see `Solver::reduce_nogoods_after`).
    pub(super) first_reduction: u64,
    pub(super) reduction_growth: u64,
    /// Per decision level, the last recount of a nogood's distance that
    /// met it (see `Solver::recount_lbd`), and that recount's stamp.
    level_seen: Vec<u32>,
    recount: u32,
    /// The constraint checks made when the last round of vivification ended
    /// (see the sibling module `vivify`).
    vivify_since: u64,
    /// Where probing's next sweep starts: the variable whose probe failed
    /// last (see the sibling module `probe`).
    probe_next: u32,
    /// Under `chrono`, the decisions a long backjump skipped, to be made
    /// again before any other, the next one last (see the sibling module
    /// `descent`).
    replay: Vec<(u32, u32)>,
    /// The debug check of every learnt nogood (feature `testing`).
    #[cfg(feature = "testing")]
    check: Option<Box<check::Check>>,
}

/// Conflicts before the first reduction of the nogoods; each later interval
/// is longer by [`REDUCTION_GROWTH`] (Glucose's schedule).
const FIRST_REDUCTION: u64 = 2000;
const REDUCTION_GROWTH: u64 = 300;

impl Learning {
    pub(super) fn new(num_vars: usize) -> Learning {
        Learning {
            nogoods: Nogoods::new(num_vars),
            analysis: Analysis::default(),
            minimise: Minimise::default(),
            rewound: Rewound::default(),
            level_start: vec![0],
            until_reduction: FIRST_REDUCTION,
            reduction_interval: FIRST_REDUCTION,
            first_reduction: FIRST_REDUCTION,
            reduction_growth: REDUCTION_GROWTH,
            level_seen: Vec::new(),
            recount: 0,
            vivify_since: 0,
            probe_next: 0,
            replay: Vec::new(),
            #[cfg(feature = "testing")]
            check: None,
        }
    }

    /// Forgets every nogood, for a new run.
    pub(super) fn reset(&mut self) {
        self.nogoods.clear();
        self.level_start.clear();
        self.level_start.push(0);
        self.until_reduction = self.first_reduction;
        self.reduction_interval = self.first_reduction;
        self.vivify_since = 0;
        self.probe_next = 0;
        self.replay.clear();
        #[cfg(feature = "testing")]
        if let Some(check) = &mut self.check {
            check.reset();
        }
    }
}

impl Solver<'_> {
    /// Propagates the nogoods over the changes since they last looked.
    pub(super) fn propagate_nogoods(&mut self) -> Result<(), Failure> {
        let Some(mut learning) = self.learning.take() else { return Ok(()) };
        let result = self.run_nogoods(&mut learning.nogoods);
        // The debug check of `Solver::check_nogoods`: once the nogoods have
        // read the whole history, none is false or unit unnoticed.
        #[cfg(feature = "testing")]
        if let (Ok(()), Some(_)) = (&result, &learning.check) {
            if let Some(id) = learning.nogoods.unnoticed(&self.state) {
                panic!("nogood {id} is false or unit unnoticed: {:?}", learning.nogoods.clause(id).literals);
            }
        }
        self.learning = Some(learning);
        result
    }

    fn run_nogoods(&mut self, nogoods: &mut Nogoods) -> Result<(), Failure> {
        nogoods.begin_pass();
        while let Some(e) = self.state.read_next() {
            let history = self.state.history().expect("the history is on");
            let Entry { var, cause, .. } = history.entries[e as usize];
            // A look at the variable's watches earlier in this pass, when
            // this entry was already made, handled what the entry made false
            // (see `Nogoods::first_look`); but a folded entry may have
            // changed since it was made (`State::fold_slow`).
            if cause != Cause::Folded && !nogoods.first_look(var, e, history.len()) {
                continue;
            }
            let fixed_at = (self.state.size(var) == 1 && !self.state.is_interval(var)).then(|| self.state.min_pos(var));
            for list in nogoods.lists(var, fixed_at).into_iter().flatten() {
                if let Err(failure) = self.visit_watches(nogoods, list) {
                    // This entry's other watches are looked at again if it
                    // survives the backjump.
                    self.state.unread_from(e);
                    return Err(failure);
                }
            }
        }
        Ok(())
    }

    /// Goes through watch list `list` of `nogoods` after a change of its
    /// literals' variable: each watch that became false, of a clause its
    /// blocker does not satisfy, has its clause read (moved to another
    /// literal, or the clause found unit, its literal made true, or false).
    /// Shared by search that learns and the nogoods recorded from restarts
    /// (the sibling module `nld`).
    pub(in crate::search) fn visit_watches(&mut self, nogoods: &mut Nogoods, list: usize) -> Result<(), Failure> {
        let mut i = 0;
        loop {
            // Only a watch the change made false, of a clause its
            // blocker does not satisfy, needs its clause read.
            let state = &self.state;
            let Some(skip) = nogoods.watches[list][i..].iter().position(|watch| {
                state.truth(watch.literal) == Some(false) && state.truth(watch.blocker) != Some(true)
            }) else {
                return Ok(());
            };
            i += skip;
            let watch = nogoods.watches[list][i];
            let (kept, found) = nogoods.visit(&self.state, watch);
            if let Some(blocker) = kept {
                nogoods.watches[list][i].blocker = blocker;
                i += 1;
            } else {
                nogoods.watches[list].swap_remove(i);
            }
            match found {
                Found::Nothing => {}
                Found::Conflict => {
                    return Err(Failure { constraint: NONE, wiped: None, origin: Origin::Nogood(watch.id) });
                }
                Found::Unit(literal) => self.make_true(literal, watch.id)?,
            }
        }
    }

    /// Makes `literal` true, the work of nogood `id`.
    pub(super) fn make_true(&mut self, literal: Literal, id: u32) -> Result<(), Failure> {
        let slot = self.program.propagators.len() as u32;
        let model = self.program.model.id();
        let mut ctx = self.waking_context(slot, NONE, false);
        ctx.nogood = Some(id);
        let result = match literal {
            Literal::Outside { var, word, mask } => ctx.remove_mask(var, word, mask).map(drop),
            Literal::Within { var, word, mask } => (0..ctx.state().num_words(var))
                .try_for_each(|k| ctx.remove_mask(var, k, !if k == word { mask } else { 0 }).map(drop)),
            Literal::AtLeast { var, value } => ctx.set_min(VarId { index: var, model }, value).map(drop),
            Literal::AtMost { var, value } => ctx.set_max(VarId { index: var, model }, value).map(drop),
        };
        let wiped = ctx.wiped;
        result.map_err(|_| Failure { constraint: NONE, wiped, origin: Origin::Nogood(id) })
    }

    /// Adds `literals`, a clause another worker of a portfolio learnt (of
    /// distance `lbd`), at the root (see the module `portfolio::share`): it
    /// is dropped when a literal is true at the root (`Ok(false)`); the
    /// literals false at the root are left out (they stay false for the
    /// run); with one literal left, that literal is made true; with none,
    /// the root fails (`Err`). Otherwise it joins the learnt nogoods with
    /// the distance `lbd` (at most its length), in the tier that gives.
    pub(in crate::search) fn add_root_nogood(&mut self, literals: &[Literal], lbd: u32) -> Result<bool, Failure> {
        debug_assert!(self.tree.frames.is_empty(), "shared nogoods are added at the root");
        let mut open = Vec::with_capacity(literals.len());
        for &literal in literals {
            match self.state.truth(literal) {
                Some(true) => return Ok(false),
                Some(false) => {}
                None => open.push(literal),
            }
        }
        let learning = self.learning.as_mut().expect("learning");
        #[cfg(feature = "testing")]
        if let Some(check) = &mut learning.check {
            // The clause as added: what the root leaves of it must hold too.
            let history = self.state.history().expect("the history is on");
            let root_end = learning.level_start.get(1).copied().unwrap_or(history.len());
            let best = self.run.optimizing.and_then(|bb| bb.best());
            check.check(&open, &self.state, self.program.model, best, Some(root_end));
        }
        match open.len() {
            0 => {
                // False at the root: no solution better than the bound (see
                // the module `portfolio::share` for why).
                let id = learning.nogoods.add(literals.to_vec(), Kind::Permanent, 0);
                Err(Failure { constraint: NONE, wiped: None, origin: Origin::Nogood(id) })
            }
            1 => {
                let id = learning.nogoods.add(open.clone(), Kind::Permanent, 1);
                self.make_true(open[0], id).map(|()| true)
            }
            length => {
                let lbd = lbd.clamp(1, length as u32);
                learning.nogoods.add(open, Kind::Learnt, lbd);
                Ok(true)
            }
        }
    }

    /// Appends to `out` why entry `time` (caused by `cause`) did what
    /// `request` asks (`time` the history's length for a failure).
    fn explain(&mut self, learning: &mut Learning, cause: Cause, request: Request, time: u32, out: &mut Vec<Literal>) {
        self.run.explanations += 1;
        match cause {
            Cause::Propagator { propagator, constraint } => {
                let start = out.len();
                let rewound = learning.rewound.back_to(&self.state, time);
                let own = self.explain_by_propagator(propagator, constraint, request, time, rewound, out);
                #[cfg(feature = "testing")]
                if let (true, Some(check)) = (own, &mut learning.check) {
                    let history = self.state.history().expect("a solver that learns keeps the history");
                    let root_end = learning.level_start.get(1).copied().unwrap_or(history.len());
                    check.explanation(
                        &out[start..],
                        request,
                        &self.state,
                        self.program.model,
                        Some(root_end),
                        constraint,
                    );
                }
                #[cfg(not(feature = "testing"))]
                let _ = (own, start);
            }
            Cause::Nogood(id) => {
                // The literal it made true is first; the others were false.
                out.extend(learning.nogoods.clause(id).literals[1..].iter().map(|l| l.negation()));
            }
            Cause::Folded => {
                // What the search decided down to the entry's level implies
                // every change made there.
                let level = self.state.history().expect("the history is on").entries[time as usize].level;
                out.extend((1..=level).map(|l| self.decision_literal(l)));
            }
            Cause::Decision | Cause::Root => unreachable!("decisions and root facts are not explained"),
        }
    }

    /// The facts a conflict starts from (they hold now), into `out`.
    fn conflict_facts(&mut self, learning: &mut Learning, failure: Failure, out: &mut Vec<Literal>) {
        let now = self.state.history().expect("the history is on").len();
        match failure.origin {
            Origin::Nogood(id) => out.extend(learning.nogoods.clause(id).literals.iter().map(|l| l.negation())),
            Origin::Bound(literal) => out.push(literal),
            Origin::Cycle => out.extend_from_slice(&self.cycles.facts),
            Origin::Propagator { propagator, bounds } => {
                let cause = Cause::Propagator { propagator, constraint: failure.constraint };
                let Some(x) = failure.wiped else {
                    return self.explain(learning, cause, Request::Failure, now, out);
                };
                if !self.state.is_interval(x) {
                    // The propagator removed (or would have) every value
                    // left: what was gone before, and why the rest went.
                    for k in 0..self.state.num_words(x) {
                        let (word, all) = (self.state.word(x, k), self.state.word_positions(x, k));
                        if all & !word != 0 {
                            out.push(Literal::Outside { var: x, word: k, mask: all & !word });
                        }
                        if word != 0 {
                            self.explain(learning, cause, Request::Removed { var: x, word: k, mask: word }, now, out);
                        }
                    }
                    return;
                }
                let bounds_now = self.state.interval(x);
                let (lo, hi) = bounds.unwrap_or((i64::MIN, i64::MAX));
                if lo > bounds_now.max {
                    out.push(Literal::AtMost { var: x, value: bounds_now.max });
                    let request = Request::AtLeast { var: x, value: bounds_now.max + 1 };
                    self.explain(learning, cause, request, now, out);
                } else if hi < bounds_now.min {
                    out.push(Literal::AtLeast { var: x, value: bounds_now.min });
                    let request = Request::AtMost { var: x, value: bounds_now.min - 1 };
                    self.explain(learning, cause, request, now, out);
                } else {
                    self.explain(learning, cause, Request::AtLeast { var: x, value: lo }, now, out);
                    self.explain(learning, cause, Request::AtMost { var: x, value: hi }, now, out);
                }
            }
            Origin::Check => unreachable!("search that learns propagates to a fixpoint"),
        }
    }

    /// The fact a decision level's decision made true: `x = v`, or the half
    /// of a split.
    fn decision_literal(&self, level: u32) -> Literal {
        let frame = &self.tree.frames[level as usize - 1];
        match frame.kind {
            FrameKind::Split { at, .. } if frame.value == 1 => Literal::AtLeast { var: frame.var, value: at + 1 },
            FrameKind::Split { at, .. } => Literal::AtMost { var: frame.var, value: at },
            _ => Literal::Within { var: frame.var, word: frame.value / 64, mask: 1u64 << (frame.value % 64) },
        }
    }

    /// Analyses a conflict to a nogood (see the sibling module `analysis`),
    /// bumping the activities of what it meets. `None` when the conflict
    /// holds at the root: the search is over.
    fn analyse(&mut self, learning: &mut Learning, failure: Failure) -> Option<Learnt> {
        let len = self.state.history().expect("the history is on").len();
        let floor = learning.level_start.get(1).copied().unwrap_or(len);
        learning.analysis.start(&self.state, len as usize, floor, self.activity.has_literals());
        learning.rewound.start(&self.state);
        let mut facts = std::mem::take(&mut learning.analysis.facts);
        self.conflict_facts(learning, failure, &mut facts);
        learning.analysis.facts = facts;
        if let Origin::Nogood(id) = failure.origin {
            learning.analysis.clauses.push(id);
        }
        let history = self.state.history().expect("the history is on");
        learning.analysis.trace(&self.state, history, &learning.level_start, len);
        if learning.analysis.settle_level(history) == 0 {
            return None;
        }
        loop {
            // One analysis can explain for seconds (a long sum traced bound
            // by bound): the time limit is read here too. `None` then, and
            // the caller sees the expired clock.
            if self.run.clock.tick(self.run.work()) {
                return None;
            }
            let history = self.state.history().expect("the history is on");
            match learning.analysis.next(history) {
                Next::Stop => break,
                Next::Settle => {
                    if learning.analysis.settle_level(history) == 0 {
                        return None;
                    }
                }
                Next::Explain(e, need) => {
                    let entry = history.entries[e as usize];
                    let mut facts = std::mem::take(&mut learning.analysis.facts);
                    for request in Analysis::requests(&entry, need) {
                        self.explain(learning, entry.cause, request, e, &mut facts);
                    }
                    if let Cause::Nogood(id) = entry.cause {
                        learning.analysis.clauses.push(id);
                    }
                    learning.analysis.facts = facts;
                    let history = self.state.history().expect("the history is on");
                    learning.analysis.trace(&self.state, history, &learning.level_start, e);
                }
            }
        }
        if self.program.config.minimize_nogoods {
            self.minimise(learning);
        }
        let history = self.state.history().expect("the history is on");
        let learnt = learning.analysis.learnt(&self.state, history, |level| self.decision_literal(level));
        for &var in &learning.analysis.vars {
            self.activity.bump(var);
        }
        for &(var, word, mask) in &learning.analysis.removals {
            self.activity.bump_literals(var, word, mask);
        }
        for &level in &learning.analysis.decisions {
            if let Literal::Within { var, word, mask } = self.decision_literal(level) {
                self.activity.bump_literals(var, word, mask);
            }
        }
        self.activity.decay();
        if self.chb.is_on() {
            self.chb.conflict(learning.analysis.vars.iter().copied());
        }
        if self.lrb.is_on() {
            // The propagation that failed assigned some of the variables met.
            self.lrb_catch_up();
            self.lrb.conflict(learning.analysis.vars.iter().copied());
        }
        for &id in &learning.analysis.clauses {
            learning.nogoods.bump(id);
        }
        learning.nogoods.decay();
        if self.program.config.dynamic_lbd {
            let clauses = std::mem::take(&mut learning.analysis.clauses);
            for &id in &clauses {
                self.recount_lbd(learning, id, len, floor);
            }
            learning.analysis.clauses = clauses;
        }
        Some(learnt)
    }

    /// Glucose's dynamic LBD: lowers the literal block distance of learnt
    /// nogood `id`, used by the analysis of a conflict at history length
    /// `len`, to the number of decision levels its false literals became
    /// false at now, when that is smaller. (Root facts count no level, as
    /// in the distance of a nogood learnt; a literal the nogood made true
    /// became true at the highest level of the others.)
    fn recount_lbd(&mut self, learning: &mut Learning, id: u32, len: u32, floor: u32) {
        let clause = learning.nogoods.clause(id);
        if clause.kind != nogoods::Kind::Learnt || clause.lbd <= 2 {
            return;
        }
        let history = self.state.history().expect("the history is on");
        let depth = self.tree.frames.len() + 1;
        if learning.level_seen.len() < depth {
            learning.level_seen.resize(depth, 0);
        }
        learning.recount = learning.recount.wrapping_add(1);
        if learning.recount == 0 {
            learning.level_seen.iter_mut().for_each(|s| *s = 0);
            learning.recount = 1;
        }
        let (stamp, seen) = (learning.recount, &mut learning.level_seen);
        let mut lbd = 0;
        for &literal in &clause.literals {
            if self.state.truth(literal) != Some(false) {
                continue;
            }
            let mut level = 0;
            analysis::each_part(&self.state, literal.negation(), |part| {
                analysis::locate(&self.state, history, part, len, floor, |e, _| {
                    level = level.max(history.entries[e as usize].level);
                });
            });
            if level > 0 && seen[level as usize] != stamp {
                seen[level as usize] = stamp;
                lbd += 1;
            }
        }
        // Under `noglue` a recount makes no glue: glue is kept for good.
        let lbd = if self.program.config.learnt_glue_only { lbd.max(3) } else { lbd };
        if learning.nogoods.lower_lbd(id, lbd, self.program.config.lbd_protection) {
            self.run.stats.lbd_lowered += 1;
        }
    }
}
