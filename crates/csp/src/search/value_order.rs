//! In which order a frame tries its variable's values: ascending and
//! descending walk the domain, random and least-constraining-value buffer an
//! order in [`Tree::orders`](super::dfs::Tree::orders) when the frame is pushed.

use super::Solver;
use super::config::{Propagation, ValueOrder};
use super::dfs::Frame;

impl Solver<'_> {
    /// Opens a frame for deciding `var`: the trail mark, and the value order.
    pub(super) fn push_frame(&mut self, var: u32) {
        let mark = self.state.mark();
        let start = self.tree.orders.len() as u32;
        let cursor = match self.program.config.value_order {
            ValueOrder::Ascending => 0,
            ValueOrder::Descending => self.state.max_pos(var) + 1,
            ValueOrder::Random => {
                let begin = self.tree.orders.len();
                let state = &self.state;
                self.tree.orders.extend(state.positions(var));
                self.run.rng.shuffle(&mut self.tree.orders[begin..]);
                start
            }
            ValueOrder::LeastConstraining => {
                self.order_least_constraining(var);
                start
            }
        };
        let end = self.tree.orders.len() as u32;
        let kind = self.program.branching;
        self.tree.frames.push(Frame { kind, var, mark, cursor, start, end, assigned: false, value: 0 });
    }

    /// The top frame's next value to try (a position), or `None` when it has
    /// tried them all.
    pub(super) fn next_value(&mut self) -> Option<u32> {
        let frame = self.tree.frames.last_mut().expect("a frame");
        match self.program.config.value_order {
            ValueOrder::Ascending => {
                let pos = self.state.next_pos(frame.var, frame.cursor)?;
                frame.cursor = pos + 1;
                Some(pos)
            }
            ValueOrder::Descending => {
                let pos = self.state.prev_pos(frame.var, frame.cursor.checked_sub(1)?)?;
                frame.cursor = pos;
                Some(pos)
            }
            ValueOrder::Random | ValueOrder::LeastConstraining => {
                let orders = &self.tree.orders;
                let pos = *orders.get(frame.cursor as usize).filter(|_| frame.cursor < frame.end)?;
                frame.cursor += 1;
                Some(pos)
            }
        }
    }

    /// Orders `var`'s values by how many values of other variables each one
    /// prunes when tried (fewest first, ties by value; failing values last).
    fn order_least_constraining(&mut self, var: u32) {
        let mut scores = std::mem::take(&mut self.scratch.scores);
        scores.clear();
        // Probes are not part of the search: no events, and the prunings they make
        // are not counted (the checks and propagator calls they cost are).
        let observer = self.observer.take();
        let mut attribution = std::mem::take(&mut self.scratch.saved_attribution);
        attribution.clear();
        attribution.extend_from_slice(&self.run.pruned_by);
        let positions: smallvec::SmallVec<[u32; 32]> = self.state.positions(var).collect();
        for pos in positions {
            let mark = self.state.mark();
            let pruned = self.run.stats.pruned;
            self.tree.decided[var as usize] = true;
            self.state.fix_pos(var, pos);
            let result = match self.program.propagation {
                Propagation::Mac => {
                    self.wake_watchers(var);
                    self.propagate_queue()
                }
                _ => self.forward_check(var, false),
            };
            let score = if result.is_ok() { self.run.stats.pruned - pruned } else { u64::MAX };
            self.run.stats.pruned = pruned;
            self.state.undo_to(mark);
            self.tree.decided[var as usize] = false;
            scores.push((score, pos));
        }
        self.observer = observer;
        self.run.pruned_by.copy_from_slice(&attribution);
        self.scratch.saved_attribution = attribution;
        scores.sort_unstable();
        self.tree.orders.extend(scores.iter().map(|&(_, pos)| pos));
        self.scratch.scores = scores;
    }
}
