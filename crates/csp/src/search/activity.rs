//! The orderings that follow the conflicts: VSIDS activities (Moskewicz et
//! al. 2001, "Chaff") and saved phases (Pipatsrisawat & Darwiche 2007).
//!
//! A variable's activity grows by an increment each time it takes part in a
//! conflict, and the increment grows by 1/0.95 at each conflict, which is
//! the same as every activity decaying by 0.95: recent conflicts weigh most.
//! When the numbers get large they are all scaled down together. Under
//! search that learns, the analysis bumps the variables it meets; otherwise
//! each failure bumps the failing constraint's variables.
//!
//! A saved phase is the position a variable last held: with learning, when
//! a backjump undoes it; otherwise when the search decides it.
//!
//! Literal activities are the SAT solvers' (and Chuffed's, whose `[x = v]`
//! are booleans): one activity per variable and value, for the variables
//! of at most [`LITERAL_LIMIT`] values (a bitset of one word), dense per
//! variable and position. The analysis bumps the positions whose removal
//! (`x != v`) it meets and the values of the decisions (`x = v`) it meets,
//! with the variables' increment and decay; without learning, a failure
//! bumps the values left to the failing constraint's variables.
//! [`VarOrder::LiteralVsids`](super::config::VarOrder::LiteralVsids) and
//! [`ValueOrder::Active`](super::config::ValueOrder::Active) read them;
//! a wider domain (or an interval) has none and stands by its variable's
//! activity and saved phase.
//!
//! Target and best phases (Biere & Fleury 2020, "Chasing target phases";
//! CaDiCaL): at each conflict of a search that learns, the assignment of
//! the conflict-free state before it (the variables fixed before the last
//! decision or assertion) becomes the target if it fixes more variables
//! than any since the last restart or rephase, and the best if more than
//! any since the last rephase to the best. Rephasing resets the saved
//! phases to one of [`Rephase`]'s kinds.

use super::Solver;
use super::config::SolveConfig;
use crate::ids::VarId;
use crate::kernel::State;

/// No saved phase; no literal activities.
const NONE: u32 = u32::MAX;

/// The largest domain (in positions) with an activity per value.
pub(super) const LITERAL_LIMIT: u32 = 64;

/// How much the increment grows per conflict (the inverse of the decay).
const GROWTH: f64 = 1.0 / 0.95;

/// The growth in the stable mode of
/// [`SolveConfig::stable_modes`](super::config::SolveConfig::stable_modes):
/// a slower decay, 0.975, so that activities remember more conflicts.
const STABLE_GROWTH: f64 = 1.0 / 0.975;

/// What a rephase resets the saved phases to (CaDiCaL's rephasing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rephase {
    /// The best phases, where there are (the others keep theirs).
    Best,
    /// No saved phase: the smallest value first, the value order's own.
    Original,
    /// The largest value.
    Inverted,
    /// A value drawn from the run's random numbers.
    Random,
}

impl Rephase {
    /// CaDiCaL's cycle "B O B I B W", a random value taking the turn of the
    /// random walk (which this engine does not have).
    const CYCLE: [Rephase; 6] =
        [Rephase::Best, Rephase::Original, Rephase::Best, Rephase::Inverted, Rephase::Best, Rephase::Random];

    /// The kind of rephase number `k` (from 1).
    pub(super) fn nth(k: u64) -> Rephase {
        Rephase::CYCLE[(k.saturating_sub(1) % Rephase::CYCLE.len() as u64) as usize]
    }
}

/// Activities and phases, per variable, and activities per literal.
#[derive(Clone, Debug)]
pub(super) struct Activity {
    score: Vec<f64>,
    increment: f64,
    phase: Vec<u32>,
    /// Per variable, where its positions' activities start in `literal`
    /// ([`NONE`] for a variable without literal activities).
    literal_at: Vec<u32>,
    literal: Vec<f64>,
    /// Per variable with literal activities, the highest of them, values
    /// left or not: a bound that lets the choice skip most variables.
    literal_max: Vec<f64>,
    /// The increment's growth per conflict (the inverse of the decay).
    growth: f64,
    /// Per variable, its value (a position) in the target assignment, or [`NONE`].
    target: Vec<u32>,
    /// How many variables the target fixes.
    target_assigned: u32,
    /// Per variable, its value in the best assignment, or [`NONE`].
    best: Vec<u32>,
    /// How many variables the best assignment fixes.
    best_assigned: u32,
}

impl Activity {
    /// Activities for the variables of `state`; with `literals`, one per
    /// value too for the domains that have at most [`LITERAL_LIMIT`].
    pub(super) fn new(state: &State, literals: bool) -> Activity {
        let num_vars = state.num_vars();
        let mut literal_at = vec![NONE; num_vars];
        let mut len = 0;
        if literals {
            for (x, at) in literal_at.iter_mut().enumerate() {
                let positions = state.num_positions(x as u32);
                if !state.is_interval(x as u32) && positions <= LITERAL_LIMIT {
                    *at = len;
                    len += positions;
                }
            }
        }
        Activity {
            score: vec![0.0; num_vars],
            increment: 1.0,
            phase: vec![NONE; num_vars],
            literal_at,
            literal: vec![0.0; len as usize],
            literal_max: vec![0.0; if literals { num_vars } else { 0 }],
            growth: GROWTH,
            target: Vec::new(),
            target_assigned: 0,
            best: Vec::new(),
            best_assigned: 0,
        }
    }

    /// Keeps target and best phases when `config` reads them (a search
    /// that learns with target phases, rephasing or stable modes; left
    /// empty otherwise).
    pub(super) fn with_targets(mut self, config: &SolveConfig) -> Activity {
        let reads = config.target_phases || config.rephase.is_some() || config.stable_modes.is_some();
        if config.learning() && reads {
            self.target = vec![NONE; self.phase.len()];
            self.best = vec![NONE; self.phase.len()];
        }
        self
    }

    /// Whether target and best phases are kept.
    #[inline]
    pub(super) fn keeps_targets(&self) -> bool {
        !self.target.is_empty()
    }

    /// Forgets everything, for a new run.
    pub(super) fn reset(&mut self) {
        self.score.iter_mut().for_each(|s| *s = 0.0);
        self.phase.iter_mut().for_each(|p| *p = NONE);
        self.literal.iter_mut().for_each(|s| *s = 0.0);
        self.literal_max.iter_mut().for_each(|s| *s = 0.0);
        self.increment = 1.0;
        self.growth = GROWTH;
        self.target.iter_mut().chain(&mut self.best).for_each(|p| *p = NONE);
        (self.target_assigned, self.best_assigned) = (0, 0);
    }

    /// The stable mode's slower decay (`true`), or the focused mode's.
    pub(super) fn set_stable(&mut self, stable: bool) {
        self.growth = if stable { STABLE_GROWTH } else { GROWTH };
    }

    /// Whether literals have activities (some ordering reads them).
    #[inline]
    pub(super) fn has_literals(&self) -> bool {
        !self.literal_max.is_empty()
    }

    #[inline]
    pub(super) fn score(&self, var: u32) -> f64 {
        self.score[var as usize]
    }

    /// `var` took part in the current conflict.
    #[inline]
    pub(super) fn bump(&mut self, var: u32) {
        let score = &mut self.score[var as usize];
        *score += self.increment;
        if *score > 1e100 {
            self.rescale();
        }
    }

    /// The positions of `mask` in word `word` of `var` took part in the
    /// current conflict (nothing for a variable without literal activities).
    /// Always inlined: its loop is on every learnt nogood's path, and
    /// LLVM's own choice flips with unrelated changes elsewhere in the crate
    /// (out of line, 61 M instructions on the outside puzzle 9004 against
    /// 37 M inlined, callgrind).
    #[inline(always)]
    pub(super) fn bump_literals(&mut self, var: u32, word: u32, mut mask: u64) {
        let at = self.literal_at[var as usize];
        if at == NONE || word != 0 {
            return;
        }
        let mut max = self.literal_max[var as usize];
        while mask != 0 {
            let score = &mut self.literal[(at + mask.trailing_zeros()) as usize];
            *score += self.increment;
            max = max.max(*score);
            mask &= mask - 1;
        }
        self.literal_max[var as usize] = max;
        if max > 1e100 {
            self.rescale();
        }
    }

    /// Scales every activity and the increment down together.
    fn rescale(&mut self) {
        let all = self.score.iter_mut().chain(&mut self.literal).chain(&mut self.literal_max);
        all.for_each(|s| *s *= 1e-100);
        self.increment *= 1e-100;
    }

    /// The conflict is over: later conflicts weigh more.
    #[inline]
    pub(super) fn decay(&mut self) {
        self.increment *= self.growth;
    }

    /// A failure of the constraint on `scope` (search without learning):
    /// its variables, and their values left.
    pub(super) fn bump_scope(&mut self, state: &State, scope: &[VarId]) {
        for var in scope {
            self.bump(var.index);
            if self.has_literals() && state.num_words(var.index) == 1 {
                self.bump_literals(var.index, 0, state.word(var.index, 0));
            }
        }
        self.decay();
    }

    /// The most active value left to `var` (a position) and its activity:
    /// ties to the saved phase, then to the smallest. For a variable
    /// without literal activities, the saved phase (or the smallest) and
    /// the variable's activity.
    pub(super) fn best_literal(&self, state: &State, var: u32) -> (u32, f64) {
        let phase = self.phase(var).filter(|&p| state.contains_pos(var, p));
        let at = self.literal_at.get(var as usize).copied().unwrap_or(NONE);
        if at == NONE {
            return (phase.unwrap_or_else(|| state.min_pos(var)), self.score(var));
        }
        let scores = &self.literal[at as usize..];
        let mut left = state.word(var, 0);
        let mut best = (NONE, f64::NEG_INFINITY);
        while left != 0 {
            let pos = left.trailing_zeros();
            if scores[pos as usize] > best.1 {
                best = (pos, scores[pos as usize]);
            }
            left &= left - 1;
        }
        match phase {
            Some(p) if scores[p as usize] == best.1 => (p, best.1),
            _ => best,
        }
    }

    /// Remembers that `var` held the value at `pos`.
    #[inline]
    pub(super) fn save_phase(&mut self, var: u32, pos: u32) {
        self.phase[var as usize] = pos;
    }

    /// The position `var` last held, if one was saved.
    #[inline]
    pub(super) fn phase(&self, var: u32) -> Option<u32> {
        let pos = self.phase[var as usize];
        (pos != NONE).then_some(pos)
    }

    /// The position of `var` in the target assignment, if it has one.
    #[inline]
    pub(super) fn target(&self, var: u32) -> Option<u32> {
        let pos = self.target.get(var as usize).copied().unwrap_or(NONE);
        (pos != NONE).then_some(pos)
    }

    /// A conflict-free state fixed the variables `fixed` (the state's
    /// fixed variables, intervals aside): it becomes the target if it fixes
    /// more than the target, and the best if more than the best.
    pub(super) fn offer(&mut self, state: &State, fixed: &[u32]) {
        let assigned = fixed.len() as u32;
        let copy = |into: &mut Vec<u32>| {
            into.iter_mut().for_each(|p| *p = NONE);
            for &x in fixed {
                // Domains only narrow: a variable fixed then is fixed to the
                // same value now, unless the conflict emptied it.
                if state.size(x) == 1 && !state.is_interval(x) {
                    into[x as usize] = state.min_pos(x);
                }
            }
        };
        if assigned > self.target_assigned {
            copy(&mut self.target);
            self.target_assigned = assigned;
        }
        if assigned > self.best_assigned {
            copy(&mut self.best);
            self.best_assigned = assigned;
        }
    }

    /// A restart: the next target is the largest state from now on.
    pub(super) fn forget_target(&mut self) {
        self.target.iter_mut().for_each(|p| *p = NONE);
        self.target_assigned = 0;
    }

    /// Resets the saved phases to `kind`, and forgets the target (and,
    /// after a rephase to the best, the best). `random` draws the values of
    /// [`Rephase::Random`].
    pub(super) fn rephase(&mut self, kind: Rephase, state: &State, random: &mut crate::rng::Rng) {
        for (x, phase) in self.phase.iter_mut().enumerate() {
            let x = x as u32;
            if state.is_interval(x) {
                continue;
            }
            match kind {
                Rephase::Best => {
                    if let Some(&best) = self.best.get(x as usize).filter(|&&b| b != NONE) {
                        *phase = best;
                    }
                }
                Rephase::Original => *phase = NONE,
                Rephase::Inverted => *phase = state.num_positions(x) - 1,
                Rephase::Random => *phase = random.below(u64::from(state.num_positions(x))) as u32,
            }
        }
        self.forget_target();
        if kind == Rephase::Best {
            self.best.iter_mut().for_each(|p| *p = NONE);
            self.best_assigned = 0;
        }
    }
}

impl Solver<'_> {
    /// The free variable with the highest activity; ties to the smallest
    /// domain, then to the smallest index.
    pub(super) fn most_active(&self, free: &[u32]) -> Option<u32> {
        self.highest(free, |x, _| Some(self.activity.score(x)))
    }

    /// The free variable with the most active literal among its values
    /// left (see [`Activity::best_literal`]); ties to the smallest domain,
    /// then to the smallest index.
    pub(super) fn most_active_literal(&self, free: &[u32]) -> Option<u32> {
        let activity = &self.activity;
        self.highest(free, |x, best| {
            // A variable whose every literal is below the best so far loses.
            let bound = activity.literal_max.get(x as usize).copied().unwrap_or(f64::INFINITY);
            let loses = best.is_some_and(|s| bound < s) && activity.literal_at[x as usize] != NONE;
            (!loses).then(|| activity.best_literal(&self.state, x).1)
        })
    }

    /// The variable of `free` with the highest `score(x, best so far)`
    /// (`None`: it cannot win); ties to the smallest domain, then to the
    /// smallest index.
    #[inline(always)]
    pub(super) fn highest(&self, free: &[u32], mut score: impl FnMut(u32, Option<f64>) -> Option<f64>) -> Option<u32> {
        let mut best: Option<(u32, f64, u32)> = None;
        for &x in free {
            let Some(score) = score(x, best.map(|b| b.1)) else { continue };
            let size = self.state.size(x);
            let better = match best {
                None => true,
                Some((y, s, z)) => score > s || (score == s && (size < z || (size == z && x < y))),
            };
            if better {
                best = Some((x, score, size));
            }
        }
        best.map(|(x, _, _)| x)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Solver;
    use super::Rephase;
    use crate::model::Model;

    /// The literal the search would decide next, as (variable, position).
    fn decision(solver: &mut Solver<'_>) -> (u32, u32) {
        let var = solver.select_var().expect("a free variable");
        solver.push_frame(var);
        let pos = solver.next_value().expect("a value");
        let frame = solver.tree.frames.pop().expect("the frame");
        solver.tree.orders.truncate(frame.start as usize);
        (var, pos)
    }

    /// Three variables over 0..=4, no constraint. The tests run without
    /// learning: they narrow domains directly, which the history of a
    /// search that learns would want recorded.
    fn three_variables() -> Model {
        let mut model = Model::new();
        model.new_vars(3, 0..=4).unwrap();
        model
    }

    #[test]
    fn the_decision_is_the_most_active_literal_left() {
        let model = three_variables();
        let mut solver = Solver::new(&model, "mac+lvsids+active".parse().unwrap()).unwrap();
        // Nothing active: the smallest domain, then the first variable;
        // its saved phase, then its smallest value.
        solver.state.remove_pos(2, 0);
        assert_eq!(decision(&mut solver), (2, 1));
        solver.activity.save_phase(2, 3);
        assert_eq!(decision(&mut solver), (2, 3));
        // x1 = 3 once, then (later, so more) x2 = 1 once and x2 = 4 twice.
        solver.activity.bump_literals(1, 0, 1 << 3);
        solver.activity.decay();
        solver.activity.bump_literals(2, 0, 1 << 1 | 1 << 4);
        solver.activity.bump_literals(2, 0, 1 << 4);
        solver.activity.decay();
        assert_eq!(decision(&mut solver), (2, 4));
        // Only the values left count.
        solver.state.remove_pos(2, 4);
        assert_eq!(decision(&mut solver), (2, 1));
        solver.state.remove_pos(2, 1);
        assert_eq!(decision(&mut solver), (1, 3));
        // Equal activities: the smaller domain.
        solver.activity.bump_literals(0, 0, 1 << 2);
        solver.activity.bump_literals(1, 0, 1 << 0);
        solver.state.remove_pos(0, 4);
        assert_eq!(decision(&mut solver), (0, 2));
    }

    #[test]
    fn the_target_is_the_largest_conflict_free_state_and_decides_first() {
        let model = three_variables();
        let solver_of = |spelling: &str| Solver::new(&model, spelling.parse().unwrap()).unwrap();
        let rng = &mut crate::rng::Rng::new(1);
        // A state where x0 = 2 and x1 = 4: offered, it becomes the target
        // and the best.
        let mut fixed = solver_of("mac+learn+mrv+phase+target");
        assert!(fixed.activity.keeps_targets());
        fixed.state.fix_pos(0, 2);
        fixed.state.fix_pos(1, 4);
        fixed.activity.offer(&fixed.state, &[0, 1]);
        // A smaller state does not replace it.
        fixed.state.fix_pos(2, 3);
        fixed.activity.offer(&fixed.state, &[2]);
        let activity = fixed.activity.clone();
        assert_eq!((0..3).map(|x| activity.target(x)).collect::<Vec<_>>(), [Some(2), Some(4), None]);
        // With the domains free again, x0 decides its target before its
        // saved phase; without `target` (and outside the stable mode), its
        // saved phase.
        let mut target = solver_of("mac+learn+mrv+phase+target");
        target.activity = activity.clone();
        target.activity.save_phase(0, 1);
        assert_eq!(decision(&mut target), (0, 2));
        let mut saved = solver_of("mac+learn+mrv+phase+rephase");
        saved.activity = activity.clone();
        saved.activity.save_phase(0, 1);
        assert_eq!(decision(&mut saved), (0, 1));
        // A restart forgets the target, not the best.
        target.activity.forget_target();
        assert_eq!(target.activity.target(0), None);
        assert_eq!(decision(&mut target), (0, 1));
        // A rephase to the best saves x0 = 2 and x1 = 4, then forgets the best.
        let activity = &mut target.activity;
        activity.rephase(Rephase::Best, &target.state, rng);
        assert_eq!((activity.phase(0), activity.phase(1), activity.phase(2)), (Some(2), Some(4), None));
        activity.save_phase(0, 3);
        activity.rephase(Rephase::Best, &target.state, rng);
        assert_eq!(activity.phase(0), Some(3), "the best was forgotten");
        // Original: no phase; inverted: the largest value; random: a value.
        activity.rephase(Rephase::Original, &target.state, rng);
        assert_eq!((0..3).map(|x| activity.phase(x)).collect::<Vec<_>>(), [None; 3]);
        activity.rephase(Rephase::Inverted, &target.state, rng);
        assert_eq!((0..3).map(|x| activity.phase(x)).collect::<Vec<_>>(), [Some(4); 3]);
        activity.rephase(Rephase::Random, &target.state, rng);
        assert!((0..3).all(|x| activity.phase(x).is_some_and(|p| p <= 4)));
        // Without the words, no target is kept.
        assert!(!solver_of("mac+learn+mrv+phase").activity.keeps_targets());
    }

    #[test]
    fn the_alternating_order_decides_by_dom_wdeg_then_by_the_most_active_literal() {
        let model = three_variables();
        let mut solver = Solver::new(&model, "mac+alternate+desc+luby".parse().unwrap()).unwrap();
        // x1 = 1 is the most active literal; x0 has the smallest domain,
        // which dom/wdeg chooses (no constraint: each weighs 1).
        solver.state.remove_pos(0, 0);
        solver.activity.bump_literals(1, 0, 1 << 1);
        solver.activity.decay();
        // The first run, and every other one: dom/wdeg, the configuration's
        // value order (descending).
        assert_eq!(decision(&mut solver), (0, 4));
        // The runs between: the most active literal, whatever the value order.
        solver.run.stats.restarts = 1;
        assert_eq!(decision(&mut solver), (1, 1));
        solver.run.stats.restarts = 2;
        assert_eq!(decision(&mut solver), (0, 4));
        solver.run.stats.restarts = 3;
        assert_eq!(decision(&mut solver), (1, 1));
    }

    #[test]
    fn the_rotating_order_visits_dom_wdeg_the_most_active_literal_and_the_densest_pair_in_turn() {
        // x0 in 0..=1, alone: dom/wdeg's choice (size 2, weighted degree 1;
        // x2 ties it and comes later). x1 in 0..=2, x2 + 2 in 2..=3 and x3
        // in 0..=3 all different: the densest pair is x2 = 1 (see the
        // integration test of counting-based search), where ascending
        // values try 0. x3 = 3 is the most active literal.
        let mut model = Model::new();
        model.new_var(0..=1).unwrap();
        let x1 = model.new_var(0..=2).unwrap();
        let x2 = model.new_var(0..=1).unwrap();
        let x3 = model.new_var(0..=3).unwrap();
        model.all_different_offset(&[x1, x2, x3], &[0, 2, 0]).unwrap();
        // The first decision of each of `runs` restart runs under `spelling`.
        let decisions = |spelling: &str, runs: u64| {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            solver.activity.bump_literals(3, 0, 1 << 3);
            solver.activity.decay();
            (0..runs)
                .map(|restarts| {
                    solver.run.stats.restarts = restarts;
                    decision(&mut solver)
                })
                .collect::<Vec<_>>()
        };
        let runs = decisions("mac+rotate+asc+luby", 6);
        assert_eq!(runs, [(0, 0), (3, 3), (2, 1), (0, 0), (3, 3), (2, 1)]);
        // The alternating order takes the first two in turn.
        let runs = decisions("mac+alternate+asc+luby", 4);
        assert_eq!(runs, [(0, 0), (3, 3), (0, 0), (3, 3)]);
    }
}
