//! In which order a frame tries its variable's values: ascending and
//! descending walk the domain, random, least-constraining-value and phase
//! saving buffer an order in [`Tree::orders`](super::dfs::Tree::orders) when
//! the frame is pushed. An interval is split in two halves instead:
//! ascending, least constraining and phase saving try the lower half first,
//! descending the upper, random draws.

use super::Solver;
use super::config::{Branching, Propagation, ValueOrder};
use super::dfs::{Frame, FrameKind};

impl Solver<'_> {
    /// Opens a frame for deciding `var`: the trail mark, and the value order.
    pub(super) fn push_frame(&mut self, var: u32) {
        if self.state.is_interval(var) {
            self.push_split(var);
            return;
        }
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
            ValueOrder::Phase => {
                // The saved phase first, when the domain still has it; then
                // the others in increasing order.
                let phase = self.activity.phase(var).filter(|&p| self.state.contains_pos(var, p));
                let state = &self.state;
                self.tree.orders.extend(phase);
                self.tree.orders.extend(state.positions(var).filter(|&p| Some(p) != phase));
                start
            }
        };
        let end = self.tree.orders.len() as u32;
        let kind = match self.program.branching {
            Branching::Enumerate => FrameKind::Enumerate,
            Branching::Binary => FrameKind::Binary,
        };
        self.tree.frames.push(Frame { kind, var, mark, cursor, start, end, assigned: false, value: 0 });
    }

    /// Opens a frame splitting the interval of `var` at its middle (rounded
    /// down): two halves, or one when the interval is a single value (which
    /// the search then decides, at the levels that wait for decisions).
    fn push_split(&mut self, var: u32) {
        let bounds = self.state.interval(var);
        // Bounds lie within -2^62..=2^62, so the middle does, but their sum
        // (2^63 for an interval fixed at 2^62) may not fit an i64.
        let at = (i128::from(bounds.min) + i128::from(bounds.max)).div_euclid(2) as i64;
        let halves = if bounds.min == bounds.max { 1 } else { 2 };
        let upper_first = halves == 2
            && match self.program.config.value_order {
                ValueOrder::Ascending | ValueOrder::LeastConstraining | ValueOrder::Phase => false,
                ValueOrder::Descending => true,
                ValueOrder::Random => self.run.rng.below(2) == 1,
            };
        let start = self.tree.orders.len() as u32;
        self.tree.frames.push(Frame {
            kind: FrameKind::Split { at, upper_first },
            var,
            mark: self.state.mark(),
            cursor: 0,
            start,
            end: halves,
            assigned: false,
            value: 0,
        });
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
            ValueOrder::Random | ValueOrder::LeastConstraining | ValueOrder::Phase => {
                // Branch and bound may have removed values since the order
                // was buffered (see `Solver::impose_bound`): skip them.
                while frame.cursor < frame.end {
                    let pos = self.tree.orders[frame.cursor as usize];
                    frame.cursor += 1;
                    if self.state.contains_pos(frame.var, pos) {
                        return Some(pos);
                    }
                }
                None
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
            self.state.record(crate::kernel::Cause::Decision);
            let result = match self.program.propagation {
                Propagation::Mac => {
                    self.wake_watchers(var);
                    self.propagate_queue(None)
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
