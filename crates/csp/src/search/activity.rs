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

use super::Solver;
use crate::ids::VarId;

/// No saved phase.
const NONE: u32 = u32::MAX;

/// How much the increment grows per conflict (the inverse of the decay).
const GROWTH: f64 = 1.0 / 0.95;

/// Activities and phases, per variable.
#[derive(Clone, Debug)]
pub(super) struct Activity {
    score: Vec<f64>,
    increment: f64,
    phase: Vec<u32>,
}

impl Activity {
    pub(super) fn new(num_vars: usize) -> Activity {
        Activity { score: vec![0.0; num_vars], increment: 1.0, phase: vec![NONE; num_vars] }
    }

    /// Forgets everything, for a new run.
    pub(super) fn reset(&mut self) {
        self.score.iter_mut().for_each(|s| *s = 0.0);
        self.phase.iter_mut().for_each(|p| *p = NONE);
        self.increment = 1.0;
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
            self.score.iter_mut().for_each(|s| *s *= 1e-100);
            self.increment *= 1e-100;
        }
    }

    /// The conflict is over: later conflicts weigh more.
    #[inline]
    pub(super) fn decay(&mut self) {
        self.increment *= GROWTH;
    }

    /// A failure of the constraint on `scope` (search without learning).
    pub(super) fn bump_scope(&mut self, scope: &[VarId]) {
        for var in scope {
            self.bump(var.index);
        }
        self.decay();
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
}

impl Solver<'_> {
    /// The free variable with the highest activity; ties to the smallest
    /// domain, then to the smallest index.
    pub(super) fn most_active(&self, free: &[u32]) -> Option<u32> {
        let mut best: Option<(u32, f64, u32)> = None;
        for &x in free {
            let (score, size) = (self.activity.score(x), self.state.size(x));
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
