//! Exact cover's choice ([`VarOrder::Places`], [`VarOrder::WeightedPlaces`]):
//! branching on the places of a value as well as on the values of a
//! variable, as Knuth's Dancing Links chooses a column (Knuth, "Dancing
//! Links", 2000) and most fast sudoku solvers do.
//!
//! Sudoku as an exact cover has four kinds of columns: a cell needs a
//! digit, and a row, a column or a box needs each digit in one of its
//! cells. An ordering over variables sees only the first kind. Here, for
//! every all-different `C` over one word of values (those counting-based
//! search reads, `density.rs`) and every value `v` that `C` must take and
//! has not taken, `places(C, v)` is the set of `C`'s unassigned variables
//! whose domain holds `v`: a column of its own. `C` must take every value
//! of its variables' domains when they hold as many values in all as it
//! has variables (a permutation); a plain all-different with values to
//! spare need not take any one of them, and then none of its place sets is
//! a column (a single place is not forced, a small set is no bottleneck).
//! Taken values, and values no unassigned variable holds any more, are no
//! columns either (an empty place set is a failure the propagation finds).
//!
//! The cost is one pass over each constraint's domains per choice: the
//! union of all, the values taken (fixed variables, outside `free`), and a
//! count per value over the unassigned ones.

use std::cmp::Ordering;

use smallvec::SmallVec;

use super::Solver;
use super::config::VarOrder;

/// The best place set of one choice: its size and weight, the failures of
/// its constraint (the tie-break between sets), and the set itself (its
/// constraint among the estimated ones, and the value's bit).
#[derive(Clone, Copy, Debug)]
struct Column {
    size: u64,
    weight: u64,
    failures: u64,
    estimated: usize,
    value: u32,
}

/// How two columns compare: the smaller `size / weight` is the better,
/// compared exactly.
fn compare(size: u64, weight: u64, other_size: u64, other_weight: u64) -> Ordering {
    (u128::from(size) * u128::from(other_weight)).cmp(&(u128::from(other_size) * u128::from(weight)))
}

impl Solver<'_> {
    /// The variable that [`VarOrder::Places`] (or, `weighted`,
    /// [`VarOrder::WeightedPlaces`]) chooses among `free` (unassigned), with
    /// the pair in [`WordAllDifferents::chosen`](super::density::WordAllDifferents)
    /// when a place set wins; `None` when no all-different is read (the
    /// caller falls back to MRV or dom/wdeg) or `free` is empty.
    pub(super) fn fewest_places(&self, free: &[u32], weighted: bool, by_rank: bool) -> Option<u32> {
        let all_differents = self.program.all_differents.as_ref()?;
        // The variables' column: MRV's choice, or dom/wdeg's with its size
        // over the mean weight of its live constraints.
        let fallback = if weighted { VarOrder::DomWdeg } else { VarOrder::Mrv };
        let variable = self.select_among(free, fallback, by_rank)?;
        let (size, weight) = if weighted {
            let (degree, weight) = self.future_degree(variable);
            // size / (weight / degree), as (size * degree) / weight.
            (u64::from(self.state.size(variable)) * degree.max(1), weight.max(1))
        } else {
            (u64::from(self.state.size(variable)), 1)
        };
        let members = &self.scratch.members;
        members.mark(free);
        let mut best: Option<Column> = None;
        let mut counts = [0u8; 64];
        for (index, e) in all_differents.estimated.iter().enumerate() {
            let mut all = 0u64;
            let mut taken = 0u64;
            let mut open = 0u64;
            counts.fill(0);
            for (&x, layout) in e.vars.iter().zip(&e.layouts) {
                let values = layout.values(self.state.word(x, 0));
                all |= values;
                if members.contains(x) {
                    open |= values;
                    let mut bits = values;
                    while bits != 0 {
                        counts[bits.trailing_zeros() as usize] += 1;
                        bits &= bits - 1;
                    }
                } else {
                    taken |= values;
                }
            }
            // Only a permutation must take each of its values.
            if all.count_ones() as usize != e.vars.len() {
                continue;
            }
            let failures = self.run.failed_by[e.constraint as usize];
            let weight = if weighted { failures + 1 } else { 1 };
            let mut bits = open & !taken;
            while bits != 0 {
                let v = bits.trailing_zeros();
                bits &= bits - 1;
                let size = u64::from(counts[v as usize]);
                // Ties go to the set whose constraint failed most, then to the first.
                let better = best.is_none_or(|b| {
                    compare(size, weight, b.size, b.weight).then(b.failures.cmp(&failures)) == Ordering::Less
                });
                if better {
                    best = Some(Column { size, weight, failures, estimated: index, value: v });
                }
            }
        }
        // A place set wins ties with the variables' column: in a sudoku
        // under the all-different system the smallest domains and place
        // sets hold two most of the time, and the place set is the choice
        // MRV cannot make.
        let Some(column) = best.filter(|c| compare(c.size, c.weight, size, weight) != Ordering::Greater) else {
            return Some(variable);
        };
        let e = &all_differents.estimated[column.estimated];
        let places: SmallVec<[u32; 64]> = e
            .vars
            .iter()
            .zip(&e.layouts)
            .filter(|&(&x, layout)| {
                members.contains(x) && layout.values(self.state.word(x, 0)) >> column.value & 1 == 1
            })
            .map(|(&x, _)| x)
            .collect();
        let x = self.select_among(&places, fallback, by_rank)?;
        let layout = e.vars.iter().position(|&y| y == x).map(|i| &e.layouts[i])?;
        all_differents.chosen.set(Some((x, layout.position(column.value))));
        Some(x)
    }
}
