//! Extensional constraints by their forbidden tuples (a negative table), with
//! generalized arc consistency by counting (the idea of STR-N; Lecoutre 2011).
//!
//! The forbidden rows still inside the domains are kept at the front of a list
//! whose length is trailed, as the positive table's simple tabular reduction
//! does. A value `v` of variable `k` has a support unless every tuple of the
//! current domains with `v` at `k` is forbidden, that is unless the number of
//! live forbidden rows with `v` at `k` equals the product of the other domains'
//! sizes: a count per value, made only for the variables whose product is
//! small enough to be reached. The rows are distinct (the constructor removes
//! repeats), which the counting needs.
//!
//! An interval domain (a range wider than the bitset limit, kept as its
//! bounds) has no holes, so its size is exact and the counting holds; its
//! cells are tested by value, and a value without support is removed only
//! when it is a bound (the interval keeps its inner values: bounds
//! consistent there). With every variable fixed, the one tuple left is
//! forbidden exactly when its row is live: the check.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Cost, PropagationResult, ReversibleInt};

/// The scope takes any values but the forbidden rows; generalized arc
/// consistent when the variables are distinct.
#[derive(Clone, Debug)]
pub struct NegativeTable {
    vars: Vec<VarId>,
    /// The forbidden rows, one after the other, sorted and without repeats.
    rows: Vec<i64>,
}

impl NegativeTable {
    /// The constraint over `vars`, with the forbidden rows laid out one after
    /// the other (`vars.len()` values each). Prefer
    /// [`Model::negative_table`](crate::Model::negative_table), which checks
    /// the arity.
    pub fn new(vars: Vec<VarId>, rows: Vec<i64>) -> NegativeTable {
        let arity = vars.len().max(1);
        let mut sorted: Vec<&[i64]> = rows.chunks_exact(arity).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let rows = sorted.concat();
        NegativeTable { vars, rows }
    }

    fn is_forbidden(&self, values: &[i64]) -> bool {
        let arity = self.vars.len().max(1);
        let count = self.rows.len() / arity;
        let row = |r: usize| &self.rows[r * arity..(r + 1) * arity];
        // The rows are sorted: binary search.
        let (mut lo, mut hi) = (0, count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if row(mid) < values { lo = mid + 1 } else { hi = mid }
        }
        lo < count && row(lo) == values
    }
}

impl Constraint for NegativeTable {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        !self.is_forbidden(values)
    }

    fn kind(&self) -> &str {
        "negative_table"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Counting {
            table: self,
            positions: Vec::new(),
            order: Vec::new(),
            live: None,
            column: Vec::new(),
            values: Vec::new(),
            before: Vec::new(),
            intervals: false,
        }))
    }
}

/// A cell of a row whose value is outside its variable's initial domain.
const OUTSIDE: u32 = u32::MAX;

/// A cell of an interval variable, whose values have no positions: it is
/// read by value.
const BY_VALUE: u32 = u32::MAX - 1;

/// The forbidden rows inside the domains, and the counts of their values.
struct Counting<'c> {
    table: &'c NegativeTable,
    /// Rows as domain positions ([`OUTSIDE`] for a value outside the initial
    /// domain, [`BY_VALUE`] for a cell of an interval variable).
    positions: Vec<u32>,
    /// The rows, the live ones (all values still in the domains) first.
    order: Vec<u32>,
    live: Option<ReversibleInt>,
    /// Scratch: one column of the live rows, as positions or (for an
    /// interval variable) as values.
    column: Vec<u32>,
    values: Vec<i64>,
    /// Scratch: the products of the domain sizes before each position.
    before: Vec<u128>,
    /// Whether a scope variable is an interval: its values have no
    /// positions, so the rows with them are not counted, and a fixed tuple
    /// is checked instead.
    intervals: bool,
}

impl Propagator for Counting<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        let vars = &self.table.vars;
        let arity = vars.len();
        let cell = |var: VarId, value: i64| {
            if ctx.is_interval(var) {
                if ctx.contains(var, value) { BY_VALUE } else { OUTSIDE }
            } else {
                ctx.state().position(var.index, value).unwrap_or(OUTSIDE)
            }
        };
        self.positions = self
            .table
            .rows
            .chunks_exact(arity.max(1))
            .flat_map(|row| row.iter().zip(vars).map(|(&value, &var)| cell(var, value)))
            .collect();
        // A row with a value outside the initial domains forbids nothing.
        let rows = self.table.rows.len() / arity.max(1);
        self.order = (0..rows as u32)
            .filter(|&r| self.positions[r as usize * arity..(r as usize + 1) * arity].iter().all(|&p| p != OUTSIDE))
            .collect();
        self.live = Some(ctx.new_reversible_int(self.order.len() as i64));
        self.intervals = vars.iter().any(|var| ctx.is_interval(*var));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let vars = &self.table.vars;
        let arity = vars.len();
        if self.intervals && vars.iter().all(|&var| ctx.is_fixed(var)) {
            let values: smallvec::SmallVec<[i64; 8]> = vars.iter().map(|&var| ctx.min(var)).collect();
            if self.table.is_forbidden(&values) {
                return Err(Conflict);
            }
        }
        let live_cell = self.live.expect("initialised");
        let mut live = ctx.get(live_cell) as usize;
        let rows = &self.table.rows;
        let mut i = 0;
        while i < live {
            let row = self.order[i] as usize;
            let cells = &self.positions[row * arity..(row + 1) * arity];
            let values = &rows[row * arity..(row + 1) * arity];
            let inside = |k: usize| match cells[k] {
                BY_VALUE => ctx.contains(vars[k], values[k]),
                p => ctx.state().contains_pos(vars[k].index, p),
            };
            if (0..arity).all(inside) {
                i += 1;
            } else {
                live -= 1;
                self.order.swap(i, live);
            }
        }
        ctx.count_checks(i as u64);
        ctx.set(live_cell, live as i64);
        // The number of tuples of the domains but position k's, for each k:
        // products of the sizes before and after k, saturated.
        let size = |k: usize| ctx.size(vars[k]) as u128;
        let before = &mut self.before;
        before.clear();
        before.push(1);
        for k in 0..arity {
            before.push(before[k].saturating_mul(size(k)));
        }
        if before[arity] <= live as u128 {
            return Err(Conflict); // every tuple of the domains is forbidden
        }
        // Sizes read as they are before this loop's removals: stale sizes only
        // overestimate the tuples, which keeps every removal sound.
        let sizes: smallvec::SmallVec<[u128; 8]> = (0..arity).map(size).collect();
        let mut after = 1u128;
        for k in (0..arity).rev() {
            let others = self.before[k].saturating_mul(after);
            after = after.saturating_mul(sizes[k]);
            if others > live as u128 {
                continue; // no value of k can have all its tuples forbidden
            }
            // Values of k on `others` live rows have no allowed tuple left.
            let var = vars[k];
            if ctx.is_interval(var) {
                self.values.clear();
                self.values.extend(self.order[..live].iter().map(|&r| rows[r as usize * arity + k]));
                self.values.sort_unstable();
                // Only a bound can go: the low values in increasing order, then
                // the high ones in decreasing order, so that each is a bound
                // when its turn comes.
                let runs = self.values.chunk_by(|a, b| a == b);
                for run in runs.clone().chain(runs.rev()) {
                    if run.len() as u128 >= others {
                        ctx.remove(var, run[0])?;
                    }
                }
                continue;
            }
            self.column.clear();
            self.column.extend(self.order[..live].iter().map(|&r| self.positions[r as usize * arity + k]));
            self.column.sort_unstable();
            for run in self.column.chunk_by(|a, b| a == b) {
                if run.len() as u128 >= others {
                    ctx.remove_pos(var.index, run[0])?;
                }
            }
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        Cost::Expensive
    }
}
