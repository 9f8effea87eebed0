//! Vivification of the learnt nogoods (Luo, Li, Xiao, Manyà & Lü 2017, "An
//! effective learnt clause minimization approach for CDCL SAT solvers";
//! CaDiCaL's and Kissat's `vivify`), with
//! [`SolveConfig::vivify_nogoods`](crate::SolveConfig::vivify_nogoods).
//!
//! At a restart, at the root, a round takes the learnt clauses not yet
//! vivified, best first (the lowest literal block distance), and for each
//! clause `c1 ∨ ... ∨ ck` (the negation of the nogood: its facts cannot all
//! hold) switches the clause off, opens a scratch level and makes `¬c1`,
//! `¬c2`, ... true one at a time, propagating after each. Going through the
//! literals in order, with `¬c1 ... ¬ci` assumed:
//!
//! - a conflict: `c1 ∨ ... ∨ ci` is implied (the model, the other nogoods
//!   and the root facts refute the assumptions); the rest is dropped;
//! - `cj` already true: `c1 ∨ ... ∨ ci ∨ cj` is implied; the rest is dropped;
//! - `cj` already false: `¬c1 ... ¬ci` imply `¬cj`, so the clause holds
//!   without `cj` (where the others are false, `cj` is too, and the clause
//!   needs one literal true); `cj` is dropped.
//!
//! (The last literal is kept without being assumed: with the others false
//! it is the clause's own consequence.) The level is undone after each
//! clause; a clause that got shorter is watched anew, and one of a single
//! literal is a unit made true at the root (a conflict there ends the run).
//! Literals false at the root are dropped first (root facts hold for the
//! whole run), and a clause true at the root is left as it is.
//!
//! The scratch level's assumptions are recorded as the work of the clause
//! switched off: no analysis reads them, the level being undone before the
//! search goes on. A round vivifies one clause, and more while it has spent
//! less than a [`SHARE`]th of the
//! constraint checks made since the last round ended (the work of the
//! propagators, which a sudoku's few propagator calls do not measure;
//! deterministic, as the count is); the clause under way finishes.
//!
//! Each shortened clause is a consequence of what the learnt ones are (the
//! model, the run's assumptions, the solutions found, the bound): the
//! debug nogood checker (the sibling module `check`) checks it as it checks
//! a learnt one.

use super::super::Solver;
use super::super::propagate::{Failure, Origin};
use crate::kernel::{Literal, NONE};

/// A round of vivification spends at most one in this many of the
/// constraint checks made since the last round.
pub(super) const SHARE: u64 = 10;

impl Solver<'_> {
    /// A round of vivification at the root (see the module docs). `Err`
    /// when a shortened clause fails at the root: no solution is left.
    pub(super) fn vivify_round(&mut self) -> Result<(), Failure> {
        debug_assert!(self.tree.frames.is_empty(), "vivification runs at the root");
        let learning = self.learning.as_mut().expect("learning");
        let start = self.run.stats.checks;
        let budget = start.saturating_sub(learning.vivify_since) / SHARE;
        let candidates = learning.nogoods.unvivified();
        let mut result = Ok(());
        // One clause at least, then while the budget lasts.
        for id in candidates {
            result = self.vivify(id);
            if result.is_err() || self.run.stats.checks - start >= budget || self.run.clock.expired() {
                break;
            }
        }
        let learning = self.learning.as_mut().expect("learning");
        learning.vivify_since = self.run.stats.checks;
        result
    }

    /// Vivifies learnt clause `id` at the root (see the module docs).
    pub(super) fn vivify(&mut self, id: u32) -> Result<(), Failure> {
        let learning = self.learning.as_mut().expect("learning");
        let literals = learning.nogoods.clause(id).literals.clone();
        if literals.iter().any(|&l| self.state.truth(l) == Some(true)) {
            learning.nogoods.shorten(id, literals);
            return Ok(());
        }
        let open: Vec<Literal> = literals.iter().copied().filter(|&l| self.state.truth(l).is_none()).collect();
        if open.is_empty() {
            // False at the root (a fixpoint the time limit cut short).
            return Err(Failure { constraint: NONE, wiped: None, origin: Origin::Nogood(id) });
        }
        let kept = self.vivified(id, &open);
        let stats = &mut self.run.stats;
        let removed = u32::try_from(literals.len() - kept.len()).unwrap_or(u32::MAX);
        stats.vivify_removed = stats.vivify_removed.saturating_add(removed);
        let learning = self.learning.as_mut().expect("learning");
        #[cfg(feature = "testing")]
        if let Some(check) = &mut learning.check {
            let best = self.run.optimizing.and_then(|bb| bb.best());
            check.check(&kept, &self.state, self.program.model, best, None);
        }
        let unit = (kept.len() == 1).then(|| kept[0]);
        learning.nogoods.shorten(id, kept);
        match unit {
            Some(literal) => {
                self.make_true(literal, id)?;
                self.propagate_queue(None)
            }
            None => Ok(()),
        }
    }

    /// The literals of clause `id` to keep, of `open` (its literals open
    /// at the root, in order): assumes their negations one at a time on a
    /// scratch level, the clause switched off, and undoes it all.
    fn vivified(&mut self, id: u32, open: &[Literal]) -> Vec<Literal> {
        let mark = self.state.mark();
        let observer = self.observer.take();
        let reasons = std::mem::replace(&mut self.reasons, false);
        let learning = self.learning.as_mut().expect("learning");
        learning.nogoods.switch_off(Some(id));
        learning.level_start.push(self.state.history().expect("the history is on").len());
        self.state.set_level(1);
        let mut kept = Vec::with_capacity(open.len());
        for (j, &literal) in open.iter().enumerate() {
            match self.state.truth(literal) {
                Some(true) => {
                    kept.push(literal);
                    break;
                }
                Some(false) => {}
                None => {
                    kept.push(literal);
                    if j + 1 == open.len() {
                        break;
                    }
                    let refuted =
                        self.make_true(literal.negation(), id).is_err() || self.propagate_queue(None).is_err();
                    if refuted {
                        break;
                    }
                }
            }
        }
        self.state.undo_to(mark);
        self.state.set_level(0);
        self.queue.clear();
        let learning = self.learning.as_mut().expect("learning");
        learning.level_start.truncate(1);
        learning.nogoods.switch_off(None);
        self.observer = observer;
        self.reasons = reasons;
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::super::nogoods::Kind;
    use super::*;
    use crate::model::Model;

    /// `x` = 1 and `x` = 0, for a variable over {0, 1}.
    fn one(var: u32) -> Literal {
        Literal::Within { var, word: 0, mask: 0b10 }
    }
    fn zero(var: u32) -> Literal {
        Literal::Within { var, word: 0, mask: 0b01 }
    }

    /// Eight variables over {0, 1}: `x0 = 1` makes `x4 = 0`, and `x1 = 1`
    /// fails (it makes `x2 = 1` and `x3 = 1`, which cannot both hold),
    /// though arc consistency at the root leaves `x1` open.
    fn model() -> Model {
        let mut model = Model::new();
        let x = model.new_vars(8, 0..=1).unwrap();
        model.negative_table(&[x[0], x[4]], &[vec![1, 1]]).unwrap();
        model.negative_table(&[x[1], x[2]], &[vec![1, 0]]).unwrap();
        model.negative_table(&[x[1], x[3]], &[vec![1, 0]]).unwrap();
        model.negative_table(&[x[2], x[3]], &[vec![1, 1]]).unwrap();
        model
    }

    /// Adds `clause` as a learnt clause at the root of a solver that
    /// learns on [`model`] and vivifies it: the literals it keeps, the
    /// solver for more.
    fn vivify<'m>(model: &'m Model, clause: &[Literal]) -> (Vec<Literal>, Solver<'m>) {
        let mut solver = Solver::new(model, "mac+learn+vivify".parse().unwrap()).unwrap();
        solver.start_run();
        solver.propagate_root().unwrap();
        assert!((0..8).all(|x| solver.state.size(x) == 2), "every variable open at the root");
        let learning = solver.learning.as_mut().unwrap();
        let id = learning.nogoods.add(clause.to_vec(), Kind::Learnt, 3);
        solver.vivify(id).unwrap();
        let clause = solver.learning.as_ref().unwrap().nogoods.clause(id);
        assert!(clause.vivified);
        (clause.literals.clone(), solver)
    }

    #[test]
    fn a_conflict_ends_the_clause_at_the_literal_assumed_last() {
        let model = model();
        let (kept, solver) = vivify(&model, &[zero(5), zero(1), zero(6), zero(7)]);
        assert_eq!(kept, [zero(5), zero(1)]);
        assert_eq!(solver.run.stats.vivify_removed, 2);
    }

    #[test]
    fn a_literal_the_assumptions_make_true_ends_the_clause_there() {
        let model = model();
        let (kept, _) = vivify(&model, &[zero(0), zero(4), zero(5), zero(6)]);
        assert_eq!(kept, [zero(0), zero(4)]);
    }

    #[test]
    fn a_literal_the_assumptions_make_false_is_dropped_and_the_shorter_clause_propagates() {
        let model = model();
        let (kept, mut solver) = vivify(&model, &[zero(0), one(4), zero(5), zero(6)]);
        assert_eq!(kept, [zero(0), zero(5), zero(6)]);
        // Watched anew: with x5 = 1 and x6 = 1 the clause makes x0 = 0.
        let mark = solver.state.mark();
        solver.state.set_level(1);
        for x in [5, 6] {
            solver.make_true(one(x), NONE).unwrap();
            solver.propagate_queue(None).unwrap();
        }
        assert_eq!(solver.state.truth(zero(0)), Some(true));
        solver.state.undo_to(mark);
    }

    #[test]
    fn nothing_to_shorten_leaves_the_clause_as_it_was() {
        let model = model();
        let clause = [zero(0), zero(5), zero(6), zero(7)];
        let (kept, solver) = vivify(&model, &clause);
        assert_eq!(kept, clause);
        assert_eq!(solver.run.stats.vivify_removed, 0);
    }

    #[test]
    fn a_unit_is_made_true_at_the_root_and_kept_for_good() {
        let model = model();
        let (kept, solver) = vivify(&model, &[zero(1), zero(5)]);
        assert_eq!(kept, [zero(1)]);
        assert_eq!(solver.state.truth(zero(1)), Some(true), "x1 = 0 at the root");
        // x1 = 0 propagates nothing else; the unit is permanent.
        let learning = solver.learning.as_ref().unwrap();
        assert!(learning.nogoods.unvivified().is_empty());
        assert!(solver.state.size(5) == 2);
    }
}
