//! Which variable to decide next: input order, MRV (Haralick & Elliott
//! 1980), MRV with degree ties (Brélaz 1979), dom/deg with the static degree
//! (Bessière & Régin 1996), dom/ddeg with the future degree, dom/wdeg
//! (Boussemart, Hemery, Lecoutre & Sais 2004) and VSIDS per variable or per
//! literal (the sibling module `activity`), over the free list (the future
//! and weighted degrees counted by the sibling module `wdeg`); and the
//! scratch buffers the search reuses from node to node.

use std::cmp::Reverse;

use super::Solver;
use super::choice_queue::ChoiceQueue;
use super::config::{Propagation, VarOrder};

/// Buffers reused from node to node, so that no node allocates.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    /// Marks constraints already visited in a pass over a variable's watchers.
    pub(super) seen: Stamps,
    /// For ordering values, and the attribution LCV probes must not change.
    pub(super) scores: Vec<(u64, u32)>,
    /// Plain backtracking's checks of a decision, in the order to make them.
    pub(super) checks: Vec<(u32, u32)>,
    pub(super) saved_attribution: Vec<u64>,
    /// A search phase's unassigned variables.
    candidates: Vec<u32>,
    /// The candidates of a counting-based choice.
    pub(super) members: super::density::Members,
}

impl Scratch {
    pub(super) fn new(constraints: usize) -> Scratch {
        Scratch { seen: Stamps::new(constraints), ..Scratch::default() }
    }

    /// Sizes counting-based search's per-variable marks, for a search that
    /// reads densities (left empty otherwise: nothing else uses them).
    pub(super) fn with_density_members(mut self, num_vars: usize) -> Scratch {
        self.members = super::density::Members::new(num_vars);
        self
    }
}

impl Solver<'_> {
    /// Whether `x` is still to be decided: at `mac`, while it has two values
    /// or more; at the other levels, until the search decides it.
    #[inline]
    pub(super) fn is_unassigned(&self, x: u32) -> bool {
        match self.program.propagation {
            Propagation::Mac => self.state.size(x) > 1,
            _ => !self.tree.decided[x as usize],
        }
    }

    /// The number of constraints on `x` with another unassigned variable, and
    /// the sum of their dom/wdeg weights (one plus the failures each
    /// caused), for an unassigned `x`: counted from choice to choice (the
    /// sibling module `wdeg`).
    #[inline]
    pub(super) fn future_degree(&self, x: u32) -> (u64, u64) {
        self.future_degrees().of(x)
    }

    /// The future degrees and weights of every free variable.
    #[inline]
    fn future_degrees(&self) -> &super::wdeg::FutureDegrees {
        self.future.as_deref().expect("the future degrees are counted where an ordering reads them")
    }

    /// Drops the variables that became assigned from the free list, which is
    /// a sparse set: `free[..count]` are the candidates and only `count` is
    /// trailed, so a backtrack brings the dropped ones back.
    fn compact_free(&mut self) -> usize {
        let mut count = self.state.int(self.tree.free_count) as usize;
        let mut i = 0;
        while i < count {
            let x = self.tree.free[i];
            if self.is_unassigned(x) {
                i += 1;
            } else {
                count -= 1;
                self.tree.free.swap(i, count);
            }
        }
        self.state.set_int(self.tree.free_count, count as i64);
        count
    }

    /// The next variable to decide, or `None` when all are assigned: from
    /// the first phase of the search plan with an unassigned variable, else
    /// (under branch and bound, the objective when it is wide and a solution
    /// is known: see `Solver::wide_objective`), else
    /// from the free list by the configuration's ordering. Ties go to the
    /// smallest index, whatever the free list's order.
    pub(super) fn select_var(&mut self) -> Option<u32> {
        let before = self.state.int(self.tree.free_count) as usize;
        if let Some(future) = &mut self.future {
            future.restore(&self.tree.free[..before], &self.run.failed_by);
        }
        let count = match &mut self.choices {
            Some(choices) => {
                let future = self.future.as_deref().expect("a queue of choices reads the future degrees");
                let count = choices.compact(&self.state, &mut self.tree.free, before, |x| future.of(x));
                self.state.set_int(self.tree.free_count, count as i64);
                count
            }
            None => self.compact_free(),
        };
        if let Some(future) = &mut self.future {
            future.drop_all(&self.tree.free[count..before], &self.run.failed_by);
            #[cfg(any(debug_assertions, feature = "checks"))]
            self.check_future_degrees(&self.tree.free[..count]);
        }
        if let (Some(choices), Some(future)) = (&mut self.choices, &mut self.future) {
            choices.settle(&mut self.state, |f| future.take_raised(f));
        }
        if let Some(densities) = &self.program.all_differents {
            densities.chosen.set(None);
        }
        let chosen = if self.program.phases.is_empty() { None } else { self.select_in_phases() };
        let chosen = chosen.or_else(|| self.wide_objective().filter(|&x| self.is_unassigned(x)));
        if chosen.is_some() {
            return chosen;
        }
        if let (Some(choices), Some(future)) = (&mut self.choices, &self.future) {
            let best = choices.best(&self.state, |x| future.of(x));
            #[cfg(any(debug_assertions, feature = "checks"))]
            self.check_choice(best, count);
            return best;
        }
        let free = &self.tree.free[..count];
        self.select_among(free, self.program.config.var_order, false)
    }

    /// Checks a queue's choice against the pass over the free list, and
    /// that the free list holds every unassigned variable.
    #[cfg(any(debug_assertions, feature = "checks"))]
    fn check_choice(&self, chosen: Option<u32>, count: usize) {
        let free = &self.tree.free[..count];
        assert_eq!(chosen, self.select_among(free, self.program.config.var_order, false), "the queue's choice");
        for &x in &self.tree.free[count..] {
            assert!(!self.is_unassigned(x), "variable {x} is unassigned but out of the free list");
        }
    }

    /// The choice of the first phase with an unassigned variable, if any.
    fn select_in_phases(&mut self) -> Option<u32> {
        let mut candidates = std::mem::take(&mut self.scratch.candidates);
        let mut chosen = None;
        for (vars, order) in &self.program.phases {
            candidates.clear();
            candidates.extend(vars.iter().copied().filter(|&x| self.is_unassigned(x)));
            if let Some(&first) = candidates.first() {
                // A phase's input order is its list's.
                chosen =
                    if *order == VarOrder::Input { Some(first) } else { self.select_among(&candidates, *order, true) };
                break;
            }
        }
        self.scratch.candidates = candidates;
        chosen
    }

    /// The variable of `free` (unassigned variables) that `order` chooses.
    /// Ties go to the variable created first, or with `by_rank` (a search
    /// phase's variables) to the one first in its phase's list.
    pub(super) fn select_among(&self, free: &[u32], order: VarOrder, by_rank: bool) -> Option<u32> {
        let order = self.in_this_run(order);
        let tie = |x: u32| if by_rank { self.program.phase_rank[x as usize] } else { x };
        let min_value = |x: u32| self.state.value(x, self.state.min_pos(x));
        let max_value = |x: u32| self.state.value(x, self.state.max_pos(x));
        match order {
            VarOrder::Input => free.iter().copied().min_by_key(|&x| tie(x)),
            VarOrder::Vsids => self.most_active(free),
            VarOrder::LiteralVsids => self.most_active_literal(free),
            VarOrder::Chb => self.highest_chb(free),
            VarOrder::Lrb => self.highest_lrb(free),
            VarOrder::Alternate
            | VarOrder::Rotate
            | VarOrder::AlternatePlaces
            | VarOrder::AlternateChb
            | VarOrder::ChbLiteral
            | VarOrder::AlternateLrb => {
                unreachable!("a rotating order is one of its own in each run")
            }
            // The size and the tie in one word: a minimum without a branch on
            // the tie (both fit 32 bits).
            VarOrder::Mrv => {
                free.iter().copied().min_by_key(|&x| u64::from(self.state.size(x)) << 32 | u64::from(tie(x)))
            }
            VarOrder::AntiFirstFail => free.iter().copied().min_by_key(|&x| (Reverse(self.state.size(x)), tie(x))),
            VarOrder::Smallest => free.iter().copied().min_by_key(|&x| (min_value(x), tie(x))),
            VarOrder::Largest => free.iter().copied().min_by_key(|&x| (Reverse(max_value(x)), tie(x))),
            VarOrder::Occurrence => {
                free.iter().copied().min_by_key(|&x| (Reverse(self.program.degrees[x as usize]), tie(x)))
            }
            VarOrder::MaxRegret => free.iter().copied().min_by_key(|&x| (Reverse(self.regret(x)), tie(x))),
            VarOrder::MrvDegree => {
                let min_size = free.iter().map(|&x| self.state.size(x)).min()?;
                free.iter()
                    .copied()
                    .filter(|&x| self.state.size(x) == min_size)
                    .min_by_key(|&x| (Reverse(self.future_degree(x).0), tie(x)))
            }
            VarOrder::MaxSd | VarOrder::MaxRelSd => {
                self.densest_pair(free, order, tie).or_else(|| self.select_among(free, VarOrder::DomWdeg, by_rank))
            }
            VarOrder::Places => {
                self.fewest_places(free, false, by_rank).or_else(|| self.select_among(free, VarOrder::Mrv, by_rank))
            }
            VarOrder::WeightedPlaces => {
                self.fewest_places(free, true, by_rank).or_else(|| self.select_among(free, VarOrder::DomWdeg, by_rank))
            }
            VarOrder::DomDeg | VarOrder::DomDdeg | VarOrder::DomWdeg => self.smallest_ratio(free, order, by_rank),
        }
    }

    /// The ordering `order` follows in the current restart run: itself, or
    /// for a rotating order ([`VarOrder::rotation`]) the one whose turn it
    /// is: run number `r` (the first is 0) takes the `r mod k`-th of its `k`
    /// (under stable modes, mode number `r`: see `Solver::rotation_turn`).
    #[inline]
    fn in_this_run(&self, order: VarOrder) -> VarOrder {
        let rotation = order.rotation();
        if rotation.is_empty() {
            return order;
        }
        rotation[(self.rotation_turn() % rotation.len() as u64) as usize]
    }

    /// Whether the configuration's rotating order decides the most active
    /// literal in the current restart run (its turn of
    /// [`VarOrder::LiteralVsids`]).
    #[inline]
    pub(super) fn literal_run(&self) -> bool {
        let order = self.program.config.var_order;
        !order.rotation().is_empty() && self.in_this_run(order) == VarOrder::LiteralVsids
    }

    /// The variable of `free` with the smallest size / degree (dom/deg,
    /// dom/ddeg or dom/wdeg by `order`), compared exactly by cross-multiplying.
    fn smallest_ratio(&self, free: &[u32], order: VarOrder, by_rank: bool) -> Option<u32> {
        // One loop per degree, so that the loop asks nothing but the degree.
        match order {
            VarOrder::DomDeg => self.smallest_over(free, by_rank, |x| u64::from(self.program.degrees[x as usize])),
            VarOrder::DomDdeg => {
                let future = self.future_degrees();
                self.smallest_over(free, by_rank, |x| future.of(x).0)
            }
            _ => {
                let future = self.future_degrees();
                self.smallest_over(free, by_rank, |x| future.of(x).1)
            }
        }
    }

    /// The variable of `free` with the smallest size / `degree` (at least
    /// one); ties to the first by `by_rank`'s order.
    #[inline(always)]
    fn smallest_over(&self, free: &[u32], by_rank: bool, degree: impl Fn(u32) -> u64) -> Option<u32> {
        let tie = |x: u32| if by_rank { self.program.phase_rank[x as usize] } else { x };
        let (&first, rest) = free.split_first()?;
        let (mut best, mut s, mut d) = (first, u64::from(self.state.size(first)), degree(first).max(1));
        for &x in rest {
            let size = u64::from(self.state.size(x));
            let denominator = degree(x).max(1);
            let (left, right) = (u128::from(size) * u128::from(d), u128::from(s) * u128::from(denominator));
            if left < right || (left == right && tie(x) < tie(best)) {
                (best, s, d) = (x, size, denominator);
            }
        }
        Some(best)
    }

    /// The difference between the two smallest values of `x` (0 when it
    /// has one; 1 for an interval, whose second value is the next integer).
    fn regret(&self, x: u32) -> u64 {
        if self.state.is_interval(x) {
            return u64::from(self.state.size(x) > 1);
        }
        let first = self.state.min_pos(x);
        match self.state.next_pos(x, first + 1) {
            Some(second) => self.state.value(x, second).abs_diff(self.state.value(x, first)),
            None => 0,
        }
    }
}

/// The smallest model whose dom/wdeg or dom/ddeg choices a heap makes in
/// release builds (debug builds and the `checks` feature make them so on every model,
/// checked against the pass).
const QUEUE_MIN_VARS: usize = 4096;

/// A heap for the choices of `program`, where it keeps them: maintained
/// arc consistency, no search phases, dom/wdeg or dom/ddeg, and a model of
/// [`QUEUE_MIN_VARS`] variables or more (any model in debug builds and
/// under `checks`).
pub(super) fn choice_queue(program: &super::program::Program<'_>, num_vars: usize) -> Option<Box<ChoiceQueue>> {
    let order = program.config.var_order;
    let large = num_vars >= QUEUE_MIN_VARS || cfg!(any(debug_assertions, feature = "checks"));
    (program.propagation == Propagation::Mac
        && program.phases.is_empty()
        && program.future_degrees
        && matches!(order, VarOrder::DomWdeg | VarOrder::DomDdeg)
        && large)
        .then(|| Box::new(ChoiceQueue::new(num_vars, order == VarOrder::DomWdeg)))
}

/// Each variable's degree in the model's constraint graph: the constraints
/// on it with at least one other variable (dom/deg's static degree).
pub(super) fn static_degrees(num_vars: usize, scopes: &[&[crate::ids::VarId]]) -> Vec<u32> {
    let mut degrees = vec![0u32; num_vars];
    // The constraint that last counted each variable, to count it once
    // where it appears several times in a scope.
    let mut counted_by = vec![usize::MAX; num_vars];
    for (c, scope) in scopes.iter().enumerate() {
        let Some(first) = scope.first() else { continue };
        if scope.iter().all(|var| var == first) {
            continue;
        }
        for var in *scope {
            if std::mem::replace(&mut counted_by[var.index()], c) != c {
                degrees[var.index()] += 1;
            }
        }
    }
    degrees
}

/// Marks on the indices `0..n`, all cleared at once by moving to a new stamp.
#[derive(Debug, Default)]
pub(super) struct Stamps {
    stamp: u32,
    marks: Vec<u32>,
}

impl Stamps {
    pub(super) fn new(n: usize) -> Stamps {
        Stamps { stamp: 1, marks: vec![0; n] }
    }

    /// Unmarks every index.
    pub(super) fn clear(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
    }

    /// Marks `i`; true when it was not marked.
    #[inline]
    pub(super) fn insert(&mut self, i: usize) -> bool {
        let fresh = self.marks[i] != self.stamp;
        self.marks[i] = self.stamp;
        fresh
    }
}
