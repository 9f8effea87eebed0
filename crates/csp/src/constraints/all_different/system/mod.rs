//! Several `all_different`s over one small value space, propagated together.
//!
//! A sudoku has 27 all-differents over 81 cells, each cell in three. Run one
//! propagator per constraint and every value a box removes wakes the cell's
//! row and column, each of which reads its nine domains, narrows some, and
//! wakes others in turn: most of the work is the cascade (reading, trailing,
//! queueing), not the reasoning. The solver instead hands all such
//! constraints to one [`System`] propagator. It copies the domains into
//! local bit masks, works on those, and writes each changed domain back once.
//! The work comes in tiers, each run only when the ones before it have
//! nothing left to do:
//!
//! 1. **Singles**: a variable with one value left loses it from the other
//!    variables of its constraints.
//! 2. **Hidden singles**: when a constraint has exactly as many values left
//!    as variables, every value must be taken, and a value only one variable
//!    can take goes to it. A constraint fails when fewer values than
//!    variables remain. For this the system keeps, per constraint and value,
//!    the set of the constraint's variables that can take the value (its
//!    "places"), updated with every removal; a place set that shrinks to one
//!    variable is a candidate. A constraint whose variables changed between
//!    calls is checked whole, as [`super::bitset`]'s cheap pass does.
//! 3. **Matching** (once tier 1 is done: no fixed variable's value is left
//!    in a peer's domain, which debug builds assert): for each constraint
//!    that changed since its last look and may hold a Hall set ([`hall_set_possible`]), Régin's matching
//!    pass, which leaves it domain consistent (and, when it removes
//!    nothing, says so early: [`Core::matching`]; when tier 1 has left it
//!    no value elimination to do, it skips that:
//!    [`Core::matching_after_elimination`]). With
//!    [`SolveConfig::all_different_intersections`](crate::SolveConfig::all_different_intersections), before that, each
//!    constraint whose places shrank looks at where it crosses others (two
//!    or more shared variables, a sudoku box and a line): a value whose
//!    places lie in the shared part leaves the rest of the other constraint
//!    ([`Board::cross`]). That prunes more than the constraints do one at a
//!    time; it is the same as redundant box-line constraints would.
//!
//! Without intersections the pruning is the same as separate propagators':
//! every constraint ends domain consistent, and the
//! common fixpoint of the constraints' propagators does not depend on the
//! order they run in, so the search makes the same decisions and finds the
//! same solutions (the tests check it against separate propagators). Values
//! removed and failures are attributed to the constraint whose reasoning
//! caused them.
//!
//! With an observer or a history, each step's changes are noted as soon as
//! it has made them, under the constraint that acted, and written at the
//! end of the call as if each had been written then
//! ([`Context::narrow_in_steps`]: the history's entries one per step, in
//! their order, each variable trailed once), so that every removal is
//! reported (and recorded) with the constraint that made it; each
//! constraint marks the variables whose masks changed ([`Unit::changed`]),
//! so that a step's note looks at those only. Otherwise each changed domain
//! is written once, at the end of the call (the same marks say which).
//!
//! A cheap call ([`Context::is_cheap`], a probe's propagation) runs tiers 1
//! and 2 and the intersections, not the matching, and keeps no fixpoint
//! (its masks are not the matching's fixpoint; a probe is undone, most often
//! after this one call): it ends as a failed call does, and the next call
//! reads from the node's fixpoint, incrementally.
//!
//! Between calls the system keeps the masks its successful calls on the
//! current branch left, common fixpoints, and starts from the newest one
//! the domains descend from (after a backtrack or a backjump, one at the
//! level the search came back to: [`Fixpoints`]): a constraint none of whose
//! variables changed since is still at its own, so only the others are
//! checked and looked at, and only the fixed variables that are new go
//! through tier 1 again. The place sets follow the masks of the last call,
//! failed ones included; each fixpoint keeps its places with its masks, so
//! that after a failure the places of the fixpoint the search came back to
//! can be updated with the few changes since instead of the failed call's
//! being undone. When the newest fixpoint is the one the last call ended
//! against, only the positions changed since are read: those the kernel's
//! trail holds changes of since that call, and those where the last call's
//! masks differ from the fixpoint's. After a backtrack to the newest
//! fixpoint (most often after a failure), the board starts from that
//! fixpoint's masks and places and reads only the positions the trail holds
//! changes of since the fixpoint's own call ended (a trail point is kept
//! with each fixpoint), without the last call's masks.

use crate::constraint::Propagator;
use crate::ids::VarId;
use crate::kernel::{
    Conflict, Context, Cost, Event, Explanation, Fixpoints, PropagationResult, State, Step, TrailPoint,
};

mod board;
mod explain;
mod hall;
mod intersections;
mod sync;
mod topology;

use super::bitset::Core;
use board::{Board, Unit, count_places};
use hall::Matching;
use topology::{Crossings, Topology, pop_first};

/// What a step of [`System::fixpoint`] changed.
#[derive(Clone, Copy, Debug)]
pub(super) enum Acted {
    /// The variables of constraint `u`, its own work.
    Unit(usize),
    /// The peers of fixed position `p`, the work of each of its constraints.
    Peers(usize),
    /// The variables of the constraints crossing `u`, its work.
    Crossings(usize),
}

/// One propagator for several `all_different`s (see the module docs).
#[derive(Debug)]
pub(crate) struct System {
    /// The merged constraints, in posting order; the first one runs the system.
    constraints: Vec<u32>,
    /// Per constraint id, its rank among `constraints` (`u32::MAX` for
    /// the solver's other constraints); per variable, its position
    /// (`u32::MAX` outside the system): what an explanation looks up.
    rank_of: Vec<u32>,
    position_of: Vec<u32>,
    /// Per position: the variable, the shift from its bit 0 to the local
    /// value id, and where its domain word lives.
    vars: Vec<u32>,
    shift: Vec<u8>,
    address: Vec<usize>,
    /// Per member of a constraint (`Topology::members`' order), its
    /// position's `address` and `shift`: what an explanation scans.
    member_address: Vec<usize>,
    member_shift: Vec<u8>,
    /// Whether some shift is not 0 (the domains do not all start at one value).
    shifted: bool,
    /// Per position, the positions of its domain's word (those of its
    /// initial domain): what a fact of an explanation may rule out.
    positions: Vec<u64>,
    topology: Topology,
    board: Board,
    /// Scratch of the write-back: the positions written in the call, as a bitset.
    written: Vec<u64>,
    /// With a history or an observer, the steps' changes noted during the
    /// call ([`System::write`]), written at its end; per position, the
    /// positions of its domain they removed, and the positions noted.
    steps: Vec<Step>,
    pending: Vec<u64>,
    pending_at: Vec<u32>,
    /// The masks when the solver was built (every later mask is a subset),
    /// and their places ([`Board::save_places`]): a new run from the root
    /// restores these and removes what is gone since, rather than undo the
    /// last run's work.
    initial: Vec<u64>,
    template: Vec<u64>,
    /// The masks as the last call left them, which the places describe, and
    /// whether that call succeeded (then every constraint none of whose
    /// variables changed since is still at its fixpoint). `None` before the
    /// first call.
    last: Option<Vec<u64>>,
    /// The masks of the last successful calls on the current branch, each
    /// followed by its places ([`Board::save_places`]): after a failure, the
    /// places are those of the fixpoint the search came back to, updated
    /// with the few changes since, rather than the failed call's undone.
    fixpoints: Fixpoints<u64>,
    /// Scratch of `load`: the positions changed since `last` and since `good`.
    since_last: Vec<u32>,
    since_good: Vec<u32>,
    /// Where the domains stood when the last call ended (`note_reference`):
    /// the newest fixpoint's id and the trail then, and the positions where
    /// `last` differs from that fixpoint's masks; `None` when unknown. With
    /// it, `load` reads only the positions changed since.
    reference: Option<(i64, TrailPoint)>,
    /// Per fixpoint kept (`fixpoints`' order), the trail when its call
    /// ended (`None` until known): after a backtrack to it, `load` reads
    /// only the positions the trail holds changes of since.
    points: Vec<Option<TrailPoint>>,
    touched: Vec<u32>,
    /// Whether the positions where `last` differs from the reference's
    /// fixpoint are left for `load` to find by comparing the two, rather
    /// than listed in `touched` (see `System::note_reference`).
    touched_unknown: bool,
    /// Scratch of `load`: the positions to read, as a bitset.
    candidates: Vec<u64>,
    /// Per constraint, where it crosses others (empty without
    /// [`SolveConfig::all_different_intersections`]).
    crossings: Crossings,
    /// Per constraint, its matching, kept between calls.
    matchings: Vec<Matching>,
    core: Box<Core>,
}

/// The propagator of a constraint merged into a [`System`]: the system does
/// its work, so it never runs.
#[derive(Debug)]
pub(crate) struct Merged;

impl Propagator for Merged {
    fn propagate(&mut self, _ctx: &mut Context<'_>) -> PropagationResult {
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

impl System {
    /// The system of the all-differents `constraints` (their ids, in posting
    /// order) over `scopes` (each of distinct variables, at most 64), when
    /// their domains allow one: each variable a dense one-word domain, all of
    /// them within one span of 64 values. `None` otherwise (each constraint
    /// then gets its own propagator). Which constraints to merge is the
    /// solver's choice; with `intersections` the system also reasons where two
    /// of them cross ([`SolveConfig::all_different_intersections`](crate::SolveConfig::all_different_intersections)).
    pub(crate) fn new(
        constraints: Vec<u32>,
        scopes: &[&[VarId]],
        num_vars: usize,
        state: &State,
        intersections: bool,
    ) -> Option<System> {
        debug_assert_eq!(constraints.len(), scopes.len());
        // The value space: from the smallest bit 0 to the largest value.
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for scope in scopes {
            for var in *scope {
                let x = var.index;
                let base = state.dense_base(x)?;
                let word = state.word(x, 0);
                if state.num_words(x) != 1 || word == 0 {
                    return None;
                }
                lo = lo.min(base);
                hi = hi.max(base + i64::from(63 - word.leading_zeros()));
            }
        }
        // Values lie within -2^62..=2^62: the span may not fit an i64.
        if i128::from(hi) - i128::from(lo) >= 64 {
            return None;
        }
        // Positions in order of first appearance.
        let mut position = vec![u32::MAX; num_vars];
        let mut vars = Vec::new();
        let mut positions = Vec::with_capacity(constraints.len());
        for scope in scopes {
            let mut scope_positions = Vec::new();
            for var in *scope {
                let x = var.index as usize;
                if position[x] == u32::MAX {
                    position[x] = vars.len() as u32;
                    vars.push(var.index);
                }
                scope_positions.push(position[x]);
            }
            positions.push(scope_positions);
        }
        let (n, k) = (vars.len(), constraints.len());
        let shift: Vec<u8> = vars.iter().map(|&x| (state.dense_base(x).unwrap_or(lo) - lo) as u8).collect();
        let initial: Vec<u64> = vars.iter().zip(&shift).map(|(&x, &shift)| state.word(x, 0) << shift).collect();
        let topology = Topology::new(&positions, n);
        let member_address = topology.members.iter().map(|&p| state.word_address(vars[p as usize])).collect();
        let member_shift = topology.members.iter().map(|&p| shift[p as usize]).collect();
        let shifted = shift.iter().any(|&s| s != 0);
        let span = (hi - lo + 1) as usize;
        let mut template = Vec::with_capacity(k * (span + 1));
        for u in 0..k {
            let (places, live) = count_places(topology.members(u), &initial);
            template.extend_from_slice(&places[..span]);
            template.push(u64::from(live));
        }
        let crossings = if intersections { Crossings::new(&topology, k) } else { Crossings::default() };
        let mut rank_of = vec![u32::MAX; constraints.iter().map(|&c| c as usize + 1).max().unwrap_or(0)];
        for (u, &c) in constraints.iter().enumerate() {
            rank_of[c as usize] = u as u32;
        }
        Some(System {
            rank_of,
            position_of: position,
            crossings,
            shift,
            address: vars.iter().map(|&x| state.word_address(x)).collect(),
            member_address,
            member_shift,
            shifted,
            positions: vars.iter().map(|&x| state.word_positions(x, 0)).collect(),
            vars,
            board: Board {
                masks: vec![0; n],
                units: positions
                    .iter()
                    .map(|scope| Unit {
                        places: [0; 64],
                        live: 0,
                        size: scope.len() as u8,
                        pruned: 0,
                        dirty: 0,
                        changed: 0,
                    })
                    .collect(),
                singles: vec![0; n],
                num_singles: 0,
                hidden: vec![0; k * 64],
                num_hidden: 0,
                to_check: vec![0; k.div_ceil(64)],
                to_look: vec![0; k.div_ceil(64)],
                to_cross: vec![0; k.div_ceil(64)],
                crossing: intersections,
                span,
            },
            topology,
            written: vec![0; n.div_ceil(64)],
            steps: Vec::new(),
            pending: vec![0; n],
            pending_at: Vec::new(),
            initial,
            template,
            last: None,
            fixpoints: Fixpoints::new(n + k * (span + 1)),
            since_last: Vec::with_capacity(n),
            since_good: Vec::with_capacity(n),
            reference: None,
            points: Vec::new(),
            touched: Vec::with_capacity(n),
            touched_unknown: false,
            candidates: vec![0; n.div_ceil(64)],
            matchings: vec![([u8::MAX; 64], [u8::MAX; 64]); k],
            core: Box::new(Core::new(0)),
            constraints,
        })
    }

    /// The merged constraints; the first one runs the system.
    pub(crate) fn constraints(&self) -> &[u32] {
        &self.constraints
    }

    /// Runs the tiers until none has anything left to do (a cheap call,
    /// [`Context::is_cheap`], all but the matching). `Err(u)` when
    /// constraint `u` fails.
    pub(super) fn fixpoint(&mut self, eager: bool, ctx: &mut Context<'_>) -> Result<(), u32> {
        loop {
            let (topology, board) = (&self.topology, &mut self.board);
            // Who acted, for `write`, and whether it failed.
            let (acted, result) = if board.num_singles > 0 {
                board.num_singles -= 1;
                let p = board.singles[board.num_singles] as usize;
                (Acted::Peers(p), board.eliminate(topology, p))
            } else if board.num_hidden > 0 {
                board.num_hidden -= 1;
                let entry = board.hidden[board.num_hidden] as usize;
                (Acted::Unit(entry / 64), board.hidden_single(topology, entry))
            } else if let Some(u) = pop_first(&mut board.to_check) {
                ctx.count_checks(topology.members(u).len() as u64);
                (Acted::Unit(u), board.check(topology, u))
            } else if let Some(u) = pop_first(&mut board.to_cross) {
                match board.cross(topology, u, &self.crossings) {
                    Ok(false) => continue,
                    result => (Acted::Crossings(u), result.map(drop)),
                }
            } else if !ctx.is_cheap()
                && let Some(u) = pop_first(&mut board.to_look)
            {
                let result = board.match_unit(topology, u, &mut self.core, &mut self.matchings[u]);
                ctx.count_checks(*result.as_ref().unwrap_or(&0) as u64);
                (Acted::Unit(u), result.map(drop))
            } else {
                return Ok(());
            };
            // A failed step's changes are written too when the history is on:
            // the failure is explained by the domains they leave.
            if eager && (result.is_ok() || ctx.state().has_history()) {
                let state = ctx.state();
                match acted {
                    Acted::Unit(u) => self.write(u, u, state),
                    Acted::Peers(p) => {
                        for i in 0..self.topology.slots(p).len() {
                            let u = self.topology.slots(p)[i].unit as usize;
                            self.write(u, u, state);
                        }
                    }
                    Acted::Crossings(u) => {
                        for i in 0..self.crossings.of(u).len() {
                            self.write(u, self.crossings.of(u)[i].other as usize, state);
                        }
                    }
                }
            }
            result?;
        }
    }
}

impl Propagator for System {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // With a history, each step's changes are recorded as its own, so
        // that they can be explained (see the sibling module `explain`).
        let eager = ctx.observer.is_some() || ctx.state().has_history();
        self.fixpoints.forget_undone(ctx);
        self.points.truncate(self.fixpoints.kept());
        debug_assert_eq!(self.points.len(), self.fixpoints.kept());
        self.load(ctx);
        if self.board.crossing {
            self.mark_crossings();
        }
        let result = self.fixpoint(eager, ctx);
        if eager {
            self.write_steps(ctx);
        }
        // The places describe the masks as they are now, even after a failure.
        let mut last = self.last.take().unwrap_or_else(|| vec![0; self.vars.len()]);
        last.copy_from_slice(&self.board.masks);
        self.last = Some(last);
        let mut kept = false;
        if result.is_ok() && !ctx.is_cheap() {
            // (Nothing to keep when nothing changed since the newest fixpoint.)
            let unchanged = self.fixpoints.current().is_some()
                && self.since_good.is_empty()
                && self.board.units.iter().all(|unit| unit.pruned == 0);
            if !unchanged {
                let before = self.fixpoints.current_id();
                let board = &self.board;
                self.fixpoints.keep_with(ctx, |kept| {
                    kept.extend_from_slice(&board.masks);
                    board.save_places(kept);
                });
                kept = self.fixpoints.current_id() != before;
                if kept {
                    self.points.push(None);
                }
            }
        }
        if let Err(u) = result {
            self.note_reference(false, false, ctx);
            ctx.constraint = self.constraints[u as usize];
            return Err(Conflict);
        }
        // (The per-unit counts of removed values are reset by the next load.)
        if !eager && let Err(conflict) = self.write_back(ctx) {
            // (Cannot happen: the masks are never empty.)
            self.reference = None;
            return Err(conflict);
        }
        self.note_reference(kept, !eager, ctx);
        ctx.constraint = self.constraints[0];
        Ok(())
    }

    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.fixpoints.initialise(ctx);
    }

    fn interest(&self) -> Event {
        Event::Domain
    }

    fn cost(&self) -> Cost {
        Cost::Expensive
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        self.answer(why)
    }
}
