//! Failed-literal probing under learning (`mac+learn+probe`, `+sac`;
//! [`Probing`](crate::Probing)), as SAT solvers probe (CaDiCaL's `probe`,
//! lookahead): at a node whose propagation reached its fixpoint, each
//! value `v` of a probed variable `x` is assumed as a temporary decision
//! `x = v` at a new level (a frame of its own) and propagated. A probe that
//! holds is undone. A probe that fails is an ordinary conflict: the caller
//! analyses it to a nogood (first unique implication point), which is
//! implied by the model and the nogoods like any learnt one, is kept like
//! one (across restarts), and asserts its open literal (typically
//! `x ≠ v`) after the jump back to its second highest level. When that
//! level is the node's the node's probing goes on where it stopped; when it
//! is lower the node is gone and the search goes on from there.
//!
//! Where probing runs: at every node, or under
//! [`SolveConfig::root_probes`](crate::SolveConfig::root_probes) only at
//! the root (at the start and after each restart or jump back to it, as SAT
//! solvers probe between restarts). A node's sweeps go round the variables
//! from the one whose probe failed last, and end once every probed value
//! holds (so a node is probed until no probe fails). Under
//! [`SolveConfig::cheap_probes`](crate::SolveConfig::cheap_probes) a probe
//! propagates cheaply (still sound, so its conflicts are explained as any);
//! under [`SolveConfig::touched_probes`](crate::SolveConfig::touched_probes)
//! a sweep probes only the variables near a change since the last sweep the
//! domains descend from (the sibling module `probe` of the search finds
//! them), so that a sweep a failed probe cut short is not finished where
//! nothing near it changed: weaker, never unsound.
//! Probes make no nodes: they are counted in
//! [`Stats::probes`](crate::Stats::probes), and the failed ones in
//! [`Stats::probe_removals`](crate::Stats::probe_removals).

use super::super::Solver;
use super::super::config::Probing;
use super::super::dfs::{Frame, FrameKind};
use super::super::propagate::Failure;
use crate::kernel::Mark;
use crate::observer::SearchEvent;

impl Solver<'_> {
    /// Whether the search that learns probes at the current level.
    pub(super) fn probes_here(&self) -> bool {
        let config = &self.program.config;
        config.probing.is_on() && (!config.root_probes || self.tree.frames.is_empty())
    }

    /// Probes the node (see the module docs): `Ok` once a whole sweep's
    /// probes hold (or the time limit expired: the caller sees the clock);
    /// `Err` with the conflict of a probe that failed, its level still on,
    /// for the caller to analyse.
    pub(super) fn probe_learning(&mut self) -> Result<(), Failure> {
        let n = self.state.num_vars() as u32;
        let probing = self.program.config.probing;
        let first = self.learning.as_ref().expect("learning").probe_next.min(n.saturating_sub(1));
        let filtered = self.start_sweep();
        for step in 0..n {
            let x = (first + step) % n;
            let size = self.state.size(x);
            if size <= 1 || self.state.is_interval(x) || (probing == Probing::Bivalue && size != 2) {
                continue;
            }
            if filtered && !self.sweeps.is_near(x) {
                continue;
            }
            let mut next = Some(self.state.min_pos(x));
            while let Some(pos) = next {
                if self.run.clock.expired() {
                    return Ok(());
                }
                if let Err(failure) = self.probe_level(x, pos) {
                    self.learning.as_mut().expect("learning").probe_next = x;
                    self.run.stats.probe_removals += 1;
                    return Err(failure);
                }
                // A probe that holds is undone: `x` is as it was.
                next = self.state.next_pos(x, pos + 1);
            }
        }
        Ok(())
    }

    /// Assumes `x` = the value at `pos` as a decision at a new level and
    /// propagates it. When it holds, the level is undone; when it fails,
    /// the level stays for the analysis.
    fn probe_level(&mut self, x: u32, pos: u32) -> Result<(), Failure> {
        self.run.stats.probes += 1;
        let mark = self.state.mark();
        let orders = self.tree.orders.len() as u32;
        let order = self.program.config.value_order;
        let frame = Frame {
            kind: FrameKind::Binary,
            var: x,
            mark,
            cursor: orders,
            start: orders,
            end: orders,
            assigned: true,
            value: pos,
            order,
        };
        self.tree.frames.push(frame);
        let level = self.open_level();
        if self.observer.is_some() {
            let value = self.state.value(x, pos);
            self.emit(SearchEvent::Decision { var: self.var_id(x), value, depth: level });
        }
        self.cheap = self.program.config.cheap_probes;
        let result = self.decide(x, pos);
        self.cheap = false;
        if result.is_ok() {
            self.undo_probe(mark);
        }
        result
    }

    /// Undoes a probe's level that held: back to the node, nothing saved
    /// (no phase, no backtrack counted).
    fn undo_probe(&mut self, mark: Mark) {
        self.state.undo_to(mark);
        let frame = self.tree.frames.pop().expect("the probe's frame");
        self.tree.decided[frame.var as usize] = false;
        self.tree.level_of[frame.var as usize] = 0;
        let level = self.tree.frames.len() as u32;
        self.state.set_level(level);
        self.learning.as_mut().expect("learning").level_start.truncate(level as usize + 1);
        self.queue.clear();
        if self.observer.is_some() {
            self.emit(SearchEvent::Backtrack { var: self.var_id(frame.var), depth: level + 1 });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Model;
    use crate::search::{SolveConfig, Solver};

    /// Three pigeons, two holes: arc consistency sees nothing at the root,
    /// a probe fails there, and the analysis of its conflict asserts the
    /// probe's negation at the root, which fails: unsatisfiable without a
    /// node, as probing without learning proves it.
    #[test]
    fn a_failed_probe_at_the_root_is_learnt_and_asserted_there() {
        let mut model = Model::new();
        let x = model.new_vars(3, 0..=1).unwrap();
        for i in 0..3 {
            for j in i + 1..3 {
                model.not_equal(x[i], x[j]).unwrap();
            }
        }
        for spelling in ["mac+learn+probe", "mac+learn+sac+atroot", "mac+learn+probe+cheap"] {
            let config: SolveConfig = spelling.parse().unwrap();
            let mut solver = Solver::new(&model, config).unwrap();
            assert!(solver.solve().into_solution().is_none(), "{spelling}");
            let stats = solver.stats();
            assert_eq!(stats.nodes, 0, "{spelling}");
            assert!(stats.probes > 0 && stats.probe_removals > 0 && stats.learnt > 0, "{spelling}: {stats}");
        }
    }

    /// Queens: probing at every node or at the root alone, and beside LRB
    /// and CHB, counts the 92 solutions of 8 queens (the property tests
    /// check each nogood); at every node it makes fewer nodes than without
    /// probing, and without the word nothing is probed.
    #[test]
    fn probing_under_learning_counts_every_solution_with_fewer_nodes() {
        let mut model = Model::new();
        let q = model.new_vars(8, 0..=7).unwrap();
        for i in 0..8 {
            for j in i + 1..8 {
                let d = (j - i) as i64;
                model.not_equal(q[i], q[j]).unwrap();
                model.not_equal_offset(q[i], q[j], d).unwrap();
                model.not_equal_offset(q[i], q[j], -d).unwrap();
            }
        }
        let mut nodes = Vec::new();
        for spelling in ["mac+learn+domwdeg", "mac+learn+domwdeg+sac", "mac+learn+domwdeg+sac+atroot+luby"] {
            let config: SolveConfig = spelling.parse().unwrap();
            let mut solver = Solver::new(&model, config).unwrap();
            assert_eq!(solver.count(None).solutions, 92, "{spelling}");
            assert_eq!(solver.stats().probes > 0, spelling.contains("sac"), "{spelling}");
            nodes.push(solver.stats().nodes);
        }
        assert!(nodes[1] < nodes[0], "{nodes:?}");
        // LRB and CHB read the probes' narrowings from the history (LRB's
        // check under test: what it holds assigned is what the history says).
        for spelling in ["mac+learn+lrb+phase+probe+touched+luby", "mac+learn+chb+phase+sac+cheap+luby"] {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            assert_eq!(solver.count(None).solutions, 92, "{spelling}");
        }
    }
}
