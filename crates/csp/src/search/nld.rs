//! Nogoods recorded from restarts (Lecoutre, Sais, Tabary & Vidal 2007,
//! "Recording and minimizing nogoods from restarts"), for the search that
//! does not learn ([`SolveConfig::restart_nogoods`], spelled `nld`).
//!
//! A branch is a sequence of positive decisions `x = v` (the frames) and
//! negative ones `x ≠ v`: with binary branching the refutations, made in
//! the parent's state once the subtree of `x = v` is exhausted; with d-way
//! branching the values a frame tried before its current one. Each negative
//! decision closed a subtree explored to the end without a solution, so the
//! positive and negative decisions before it together with `x = v` are a
//! nogood. Reduced (the paper's Proposition 4): only the positive decisions
//! before it are kept, because each earlier negative decision is implied by
//! the positive ones before it through its own nogood, by induction from
//! the first. At each restart the branch's reduced nld-nogoods go into the
//! engine's nogood store (the one search that learns uses, its clauses of
//! literals `x ≠ v`, whose watches are read only when `x` is fixed to `v`),
//! and are propagated at every fixpoint of the run after the propagators:
//! the search never enters an explored subtree again.
//!
//! Where the decisions come from: the search tells this module of each
//! frame it pushes and each negative decision, with its depth (the number
//! of frames above it); a frame pushed at depth `d` drops the negative
//! decisions deeper than `d - 1`, which belonged to a frame now gone. An
//! interval's split is a decision this module cannot say as a literal: the
//! negative decisions below the first split of the branch are not recorded.
//!
//! What changed since the nogoods last looked comes from the trail (the
//! history is off without learning): the variables of the word changes since
//! the fixpoint started, or since just before the decision, refutation or
//! probe that started it.
//!
//! Soundness: every nogood is implied by the model and the run's
//! assumptions (nothing is recorded once the run has a solution, so neither
//! a solution nor the bound of branch and bound enters one); with
//! `Solver::check_nogoods` (feature `testing`) each is checked against the
//! brute-force solutions of small models.

use super::Solver;
use super::config::{Propagation, Search, SolveConfig};
use super::dfs::FrameKind;
use super::learning::nogoods::{Kind, Nogoods};
use super::propagate::Failure;
use super::restart::Restarts;
use crate::kernel::{Literal, TrailPoint};

/// Whether `config` can record nogoods from restarts: `Err` with what is
/// not supported and what is, when it cannot.
pub(super) fn supports(config: &SolveConfig) -> Result<(), (&'static str, &'static str)> {
    if !config.restart_nogoods {
        return Ok(());
    }
    match config.search {
        Search::Learning => Err((
            "nogoods from restarts with learning",
            "search that learns keeps its own nogoods across restarts: mac+learn+luby; nld is for the search that \
             does not learn: mac+domwdeg+luby+nld",
        )),
        Search::Backjumping(_) => Err((
            "nogoods from restarts with backjumping",
            "they are recorded from a chronological branch: mac+domwdeg+luby+nld",
        )),
        Search::Chronological { propagation, .. } if propagation != Propagation::Mac => Err((
            "nogoods from restarts without maintained arc consistency",
            "they are propagated at each fixpoint: mac+domwdeg+luby+nld",
        )),
        _ if !matches!(config.restarts, Restarts::Luby { .. } | Restarts::Geometric { .. }) => Err((
            "nogoods from restarts without restarts",
            "they are recorded at each restart: mac+domwdeg+luby+nld or mac+domwdeg+geometric+nld",
        )),
        _ => Ok(()),
    }
}

/// A negative decision of the current branch.
#[derive(Clone, Copy, Debug)]
struct Negative {
    /// The frames above it (its positive decisions are theirs).
    depth: u32,
    var: u32,
    pos: u32,
}

/// The nogoods recorded from restarts and the branch they come from.
#[derive(Debug)]
pub(super) struct Nld {
    nogoods: Nogoods,
    /// The negative decisions of the current branch, by depth.
    branch: Vec<Negative>,
    /// Where the current fixpoint's changes start on the trail.
    from: Option<TrailPoint>,
    /// Where the next fixpoint's changes start: before the decision,
    /// refutation or probe's change that it follows.
    pending: Option<TrailPoint>,
    /// Scratch: the fixed variables to look at, and a stamp per variable.
    changed: Vec<u32>,
    seen: Vec<u32>,
    stamp: u32,
    /// The nogoods of the last restart, to be brought in at the root.
    recorded: Vec<Vec<Literal>>,
    /// The root failed on them: the run has no solution.
    pub(super) failed: bool,
    /// The debug check of every recorded nogood (feature `testing`).
    #[cfg(feature = "testing")]
    pub(super) check: Option<Box<super::learning::check::Check>>,
}

impl Nld {
    pub(super) fn new(num_vars: usize) -> Nld {
        Nld {
            nogoods: Nogoods::new(num_vars),
            branch: Vec::new(),
            from: None,
            pending: None,
            changed: Vec::new(),
            seen: vec![0; num_vars],
            stamp: 0,
            recorded: Vec::new(),
            failed: false,
            #[cfg(feature = "testing")]
            check: None,
        }
    }

    /// Forgets every nogood, for a new run.
    pub(super) fn reset(&mut self) {
        self.nogoods.clear();
        self.branch.clear();
        self.from = None;
        self.pending = None;
        self.recorded.clear();
        self.failed = false;
        #[cfg(feature = "testing")]
        if let Some(check) = &mut self.check {
            check.reset();
        }
    }

    /// A frame was pushed at `depth` (counting it): the negative decisions
    /// below the frame it replaces are gone.
    #[inline]
    pub(super) fn entered(&mut self, depth: u32) {
        self.truncate(depth.saturating_sub(1));
    }

    /// A negative decision `var ≠ pos` under `depth` frames.
    pub(super) fn negative(&mut self, depth: u32, var: u32, pos: u32) {
        self.truncate(depth);
        self.branch.push(Negative { depth, var, pos });
    }

    /// Drops the negative decisions deeper than `depth`.
    fn truncate(&mut self, depth: u32) {
        while self.branch.last().is_some_and(|n| n.depth > depth) {
            self.branch.pop();
        }
    }
}

/// The literal `var ≠ pos` of a clause.
fn outside(var: u32, pos: u32) -> Literal {
    Literal::Outside { var, word: pos / 64, mask: 1u64 << (pos % 64) }
}

impl Solver<'_> {
    /// Where the trail is before a decision, a refutation or a probe's
    /// change, when the nogoods from restarts need to know.
    #[inline]
    pub(super) fn nld_point(&self) -> Option<TrailPoint> {
        self.nld.as_ref().map(|_| self.state.trail_point())
    }

    /// The next fixpoint follows a change made after `point` (from
    /// [`Solver::nld_point`]): it is to read that change too.
    #[inline]
    pub(super) fn nld_changed(&mut self, point: Option<TrailPoint>) {
        if let (Some(nld), Some(point)) = (&mut self.nld, point) {
            nld.pending = Some(point);
        }
    }

    /// A fixpoint starts (see `propagate_queue`): its changes are read
    /// from here, or from before the change it follows.
    #[inline]
    pub(super) fn nld_fixpoint_starts(&mut self) {
        if let Some(nld) = &mut self.nld {
            nld.from = Some(nld.pending.take().unwrap_or_else(|| self.state.trail_point()));
        }
    }

    /// The propagators are at a fixpoint: the nogoods look at the variables
    /// fixed since the last look. `Ok(true)` when they changed a domain
    /// (the propagators watching it are queued).
    pub(super) fn propagate_restart_nogoods(&mut self) -> Result<bool, Failure> {
        let Some(mut nld) = self.nld.take() else { return Ok(false) };
        let result = self.run_nld(&mut nld);
        self.nld = Some(nld);
        result
    }

    fn run_nld(&mut self, nld: &mut Nld) -> Result<bool, Failure> {
        let Some(from) = nld.from else { return Ok(false) };
        nld.stamp = nld.stamp.wrapping_add(1);
        if nld.stamp == 0 {
            nld.seen.iter_mut().for_each(|s| *s = 0);
            nld.stamp = 1;
        }
        nld.changed.clear();
        let state = &self.state;
        let (seen, stamp, changed) = (&mut nld.seen, nld.stamp, &mut nld.changed);
        let mut note = |var: usize| {
            if seen[var] != stamp {
                seen[var] = stamp;
                if state.size(var as u32) == 1 && !state.is_interval(var as u32) {
                    changed.push(var as u32);
                }
            }
        };
        // The point is taken at the fixpoint's start, and nothing undoes
        // the trail during one.
        let read = state.changed_since(from, &mut note);
        debug_assert!(read, "the trail went back below a fixpoint's start");
        nld.from = Some(state.trail_point());
        let before = nld.from;
        for i in 0..nld.changed.len() {
            let var = nld.changed[i];
            let fixed_at = self.state.min_pos(var);
            if let [_, Some(list)] = nld.nogoods.lists(var, Some(fixed_at)) {
                self.visit_watches(&mut nld.nogoods, list)?;
            }
        }
        Ok(self.state.trail_point() != before.expect("set above"))
    }

    /// At a restart, before the decisions are dropped: records the reduced
    /// nld-nogood of each negative decision of the branch (none once the
    /// run has a solution).
    pub(super) fn nld_record(&mut self) {
        let Some(nld) = &mut self.nld else { return };
        let branch = std::mem::take(&mut nld.branch);
        if self.run.stats.solutions > 0 {
            return;
        }
        // The positive decisions that a literal says, up to the first split.
        let frames = &self.tree.frames;
        let usable = frames.iter().position(|f| !f.assigned || matches!(f.kind, FrameKind::Split { .. }));
        let usable = usable.unwrap_or(frames.len()) as u32;
        for negative in &branch {
            if negative.depth == 0 || negative.depth > usable {
                // At the root it is a fact the restart keeps; below a split
                // it cannot be said.
                continue;
            }
            let mut literals = Vec::with_capacity(negative.depth as usize + 1);
            literals.push(outside(negative.var, negative.pos));
            literals.extend(frames[..negative.depth as usize].iter().rev().map(|f| outside(f.var, f.value)));
            self.run.stats.learnt += 1;
            self.run.stats.learnt_literals += literals.len() as u64;
            nld.recorded.push(literals);
        }
        nld.branch = branch;
        nld.branch.clear();
    }

    /// After a restart, at the root: the recorded nogoods join the store,
    /// without their literals false at the root, those satisfied there
    /// dropped; a nogood with one literal left makes it true, and those
    /// removals are propagated. `Err` when the root fails: no solution.
    pub(super) fn nld_at_root(&mut self) -> Result<(), Failure> {
        let Some(mut nld) = self.nld.take() else { return Ok(()) };
        let point = self.state.trail_point();
        let mut units = Vec::new();
        let mut result = Ok(());
        for mut literals in nld.recorded.drain(..) {
            #[cfg(feature = "testing")]
            if let Some(check) = &mut nld.check {
                check.check(&literals, &self.state, self.program.model, None, None);
            }
            if literals.iter().any(|&l| self.state.truth(l) == Some(true)) {
                continue;
            }
            literals.retain(|&l| self.state.truth(l) != Some(false));
            let Some(&first) = literals.first() else {
                result = Err(Failure {
                    constraint: crate::kernel::NONE,
                    wiped: None,
                    origin: super::propagate::Origin::Check,
                });
                break;
            };
            let unit = literals.len() == 1;
            let id = nld.nogoods.add(literals, Kind::Permanent, 0);
            if unit {
                units.push((first, id));
            }
        }
        for &(literal, id) in &units {
            if result.is_ok() && self.state.truth(literal) != Some(true) {
                result = self.make_true(literal, id);
            }
        }
        let changed = self.state.trail_point() != point;
        if changed {
            nld.pending = Some(point);
        }
        self.nld = Some(nld);
        result?;
        if changed {
            self.propagate_queue(None)?;
        }
        Ok(())
    }

    /// A restart dropped the decisions: the recorded nogoods are brought in
    /// at the root; when the root fails on them the run is over (the search
    /// sees `Nld::failed` when it descends from the root).
    pub(super) fn nld_restarted(&mut self) {
        if self.nld.is_none() {
            return;
        }
        if let Err(failure) = self.nld_at_root() {
            self.record_failure(failure);
            self.nld.as_mut().expect("checked above").failed = true;
        }
    }
}
