//! In which order a frame tries its variable's values: ascending and
//! descending walk the domain, random, least-constraining-value, phase
//! saving, the most active literal, solution-guided and median buffer an
//! order in [`Tree::orders`](super::dfs::Tree::orders) when the frame is
//! pushed. Domain splitting, and any order on an interval, splits the
//! domain in two halves instead: ascending, least constraining, phase
//! saving, the most active literal, median and split try the lower half
//! first, descending and reverse split the upper, random draws. The order
//! is the configuration's, or that of the variable's search phase. Under
//! branch and bound a split of the objective tries the half toward its best
//! bound first (the upper half when maximising), whatever the
//! configuration's order, unless a search phase gives the objective its own
//! (see `Solver::objective_split`).

use super::Solver;
use super::config::{Branching, Propagation, ValueOrder};
use super::dfs::{Frame, FrameKind};

impl Solver<'_> {
    /// Opens a frame for deciding `var`: the trail mark, and the value order.
    pub(super) fn push_frame(&mut self, var: u32) {
        let phase_order = matches!(self.program.phase_value_order.get(var as usize), Some(Some(_)));
        // An ordering decided a pair (counting-based search, the places of
        // a value): its value first (unless the variable's search phase
        // orders its values).
        if let (false, Some((_, pos))) = (phase_order, self.chosen_pair_of(var)) {
            self.push_pair_first(var, pos);
            return;
        }
        let config = &self.program.config;
        let order = match self.program.phase_value_order.get(var as usize) {
            Some(&Some(order)) => order,
            // A rotating order's literal runs decide the most active literal.
            _ if self.literal_run() => ValueOrder::Active,
            _ => config.value_order,
        };
        if self.state.is_interval(var) || matches!(order, ValueOrder::Split | ValueOrder::ReverseSplit) {
            self.push_split(var, order);
            return;
        }
        let mark = self.state.mark();
        let start = self.tree.orders.len() as u32;
        let cursor = match order {
            ValueOrder::Split | ValueOrder::ReverseSplit => unreachable!("a split has no value order"),
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
                // The target first (target phases, or the stable mode), then the saved phase.
                let targets = self.program.config.target_phases || self.in_stable_mode();
                let target = self.activity.target(var).filter(|&p| targets && self.state.contains_pos(var, p));
                self.order_preferring(var, target.or(self.activity.phase(var)));
                start
            }
            ValueOrder::Active => {
                self.order_preferring(var, Some(self.activity.best_literal(&self.state, var).0));
                start
            }
            ValueOrder::SolutionGuided => {
                let guide = self.run.last_solution.get(var as usize).and_then(|&v| self.state.position(var, v));
                self.order_preferring(var, guide);
                start
            }
            ValueOrder::Median => {
                self.order_from_median(var);
                start
            }
        };
        let end = self.tree.orders.len() as u32;
        let kind = match self.program.branching {
            Branching::Enumerate => FrameKind::Enumerate,
            Branching::Binary => FrameKind::Binary,
        };
        self.tree.frames.push(Frame { kind, var, mark, cursor, start, end, assigned: false, value: 0, order });
    }

    /// The pair an ordering chose for `var` at this choice, if it did.
    fn chosen_pair_of(&self, var: u32) -> Option<(u32, u32)> {
        self.program.all_differents.as_ref()?.chosen.get().filter(|&(x, _)| x == var)
    }

    /// Opens a frame for `var` that tries the position `pos` first, then the
    /// others in increasing order (a buffered order, as phase saving's).
    pub(super) fn push_pair_first(&mut self, var: u32, pos: u32) {
        let mark = self.state.mark();
        let start = self.tree.orders.len() as u32;
        self.order_preferring(var, Some(pos));
        let end = self.tree.orders.len() as u32;
        let kind = match self.program.branching {
            Branching::Enumerate => FrameKind::Enumerate,
            Branching::Binary => FrameKind::Binary,
        };
        let order = ValueOrder::Phase;
        self.tree.frames.push(Frame { kind, var, mark, cursor: start, start, end, assigned: false, value: 0, order });
    }

    /// Buffers `var`'s values: `preferred` first, when the domain still has
    /// it; then the others in increasing order (phase saving, and the
    /// solution-guided order).
    fn order_preferring(&mut self, var: u32, preferred: Option<u32>) {
        let preferred = preferred.filter(|&p| self.state.contains_pos(var, p));
        let state = &self.state;
        self.tree.orders.extend(preferred);
        self.tree.orders.extend(state.positions(var).filter(|&p| Some(p) != preferred));
    }

    /// Buffers `var`'s values from the median outwards: the (lower) median,
    /// then the median of the values left, and so on. Each time the median
    /// removed leaves a centred gap, so the next is its neighbour below or
    /// above: the order in which `x = median`, `x != median` visits them.
    fn order_from_median(&mut self, var: u32) {
        let begin = self.tree.orders.len();
        let state = &self.state;
        self.tree.orders.extend(state.positions(var));
        let sorted: smallvec::SmallVec<[u32; 64]> = self.tree.orders[begin..].iter().copied().collect();
        let n = sorted.len();
        let median = (n - 1) / 2;
        // Below the gap: sorted[..=low] (`low + 1` values); above: sorted[high..].
        let (mut low, mut high) = (median as isize - 1, median + 1);
        self.tree.orders[begin] = sorted[median];
        for (left, slot) in (1..n).rev().zip(begin + 1..) {
            let rank = (left - 1) / 2;
            if (rank as isize) < low + 1 {
                self.tree.orders[slot] = sorted[low as usize];
                low -= 1;
            } else {
                self.tree.orders[slot] = sorted[high];
                high += 1;
            }
        }
    }

    /// Opens a frame splitting the interval of `var` at its middle (rounded
    /// down): two halves, or one when the interval is a single value (which
    /// the search then decides, at the levels that wait for decisions).
    fn push_split(&mut self, var: u32, order: ValueOrder) {
        let (min, max) =
            (self.state.value(var, self.state.min_pos(var)), self.state.value(var, self.state.max_pos(var)));
        // Bounds lie within -2^62..=2^62, so the middle does, but their sum
        // (2^63 for an interval fixed at 2^62) may not fit an i64.
        let at = (i128::from(min) + i128::from(max)).div_euclid(2) as i64;
        let halves = if min == max { 1 } else { 2 };
        let toward_best = self.objective_split(var);
        let upper_first = halves == 2
            && toward_best.unwrap_or_else(|| match order {
                ValueOrder::Ascending
                | ValueOrder::LeastConstraining
                | ValueOrder::Phase
                | ValueOrder::Active
                | ValueOrder::Median
                | ValueOrder::Split => false,
                ValueOrder::Descending | ValueOrder::ReverseSplit => true,
                ValueOrder::Random => self.run.rng.below(2) == 1,
                // The half that holds the last solution's value.
                ValueOrder::SolutionGuided => self.run.last_solution.get(var as usize).is_some_and(|&v| v > at),
            });
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
            order,
        });
    }

    /// The top frame's next value to try (a position), or `None` when it has
    /// tried them all.
    pub(super) fn next_value(&mut self) -> Option<u32> {
        let frame = self.tree.frames.last_mut().expect("a frame");
        match frame.order {
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
            ValueOrder::Random
            | ValueOrder::LeastConstraining
            | ValueOrder::Phase
            | ValueOrder::Active
            | ValueOrder::Median
            | ValueOrder::SolutionGuided => {
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
            ValueOrder::Split | ValueOrder::ReverseSplit => unreachable!("a split frame has halves, not values"),
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
