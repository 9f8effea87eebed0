//! Extensional constraints: the allowed tuples, with generalized arc consistency.

use crate::constraint::PropagatorOptions;
use crate::constraint::{Constraint, Propagator};
use crate::ids::{Atom, VarId};
use crate::kernel::Context;
use crate::kernel::ReversibleInt;
use crate::kernel::{Conflict, Cost, Explained, Explanation, PropagationResult};

/// The scope takes the values of one of the allowed rows.
#[derive(Clone, Debug)]
pub struct Table {
    vars: Vec<VarId>,
    /// The rows, one after the other (`vars.len()` values each).
    rows: Vec<i64>,
}

impl Table {
    /// The constraint over `vars`, with the rows laid out one after the other.
    /// Prefer [`Model::table`](crate::Model::table), which checks the arity.
    pub fn new(vars: Vec<VarId>, rows: Vec<i64>) -> Table {
        Table { vars, rows }
    }

    fn rows(&self) -> impl Iterator<Item = &[i64]> {
        self.rows.chunks_exact(self.vars.len())
    }
}

impl Constraint for Table {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        self.rows().any(|row| row == values)
    }

    fn kind(&self) -> &str {
        "table"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Str::new(self)))
    }
}

/// Simple tabular reduction (Ullmann 2007; Lecoutre 2011): the rows still valid
/// are kept at the front of `order`, and only their count is trailed. Each call
/// drops the rows that lost a value and keeps the values that some valid row
/// supports, which is generalized arc consistency. A column whose variable has
/// an interval domain is read by value: a row is valid while its value lies
/// within the bounds, and the bounds move to the smallest and largest value
/// of the valid rows (the hull of what generalized arc consistency keeps).
struct Str<'c> {
    table: &'c Table,
    /// The usable rows, as their cells' domain positions (unused in an
    /// interval column), in the order of `order`: row `order[i]` at
    /// `i * arity`, moved with it, so that a call reads them in sequence.
    positions: Vec<u32>,
    order: Vec<u32>,
    /// Where each usable row is in `order` (the inverse permutation).
    slot: Vec<u32>,
    live: Option<ReversibleInt>,
    /// For each column, its domain's size when `live` was last set (-1
    /// before the first call): every live row is valid in a column whose
    /// size has not changed since (domains only narrow, and both come
    /// back together on backtrack), so only the others are read (STR2,
    /// Lecoutre 2011).
    sizes: Vec<ReversibleInt>,
    /// Whether a variable appears in two columns (then a removal in one
    /// can invalidate rows through the other: not idempotent).
    repeated: bool,
    /// The columns to read, and those whose values are not all supported
    /// yet, in one call.
    changed: Vec<usize>,
    unsupported: Vec<usize>,
    /// For each column, how many of its values no valid row supports yet.
    left: Vec<u64>,
    /// For each scope variable, the positions some valid row supports (bitset words).
    supported: Vec<Vec<u64>>,
    /// For each scope variable with an interval domain, the smallest and
    /// largest value of the valid rows (`None` for a bitset column).
    hull: Vec<Option<(i64, i64)>>,
    /// What `explain` reuses from one call to the next.
    scratch: Scratch,
    /// The usable rows by the position of their cell in each bitset column
    /// (empty for an interval column), built by the first explanation of a
    /// removal.
    index: Option<Index>,
}

/// The usable rows of a table by column and position, in compressed rows:
/// those with position `p` in column `k` are
/// `rows[k][starts[k][p]..starts[k][p + 1]]`.
struct Index {
    starts: Vec<Vec<u32>>,
    rows: Vec<Vec<u32>>,
}

impl Index {
    /// The index of the rows `order`, whose cells are `positions` in that
    /// order (`arity` a row), with `widths[k]` positions in column `k` (zero
    /// for an interval column).
    fn new(positions: &[u32], arity: usize, order: &[u32], widths: &[usize]) -> Index {
        let mut starts: Vec<Vec<u32>> = widths.iter().map(|&w| vec![0; w + 1]).collect();
        let mut rows: Vec<Vec<u32>> =
            widths.iter().map(|&w| if w == 0 { Vec::new() } else { vec![0; order.len()] }).collect();
        for (k, starts) in starts.iter_mut().enumerate().filter(|(k, _)| widths[*k] > 0) {
            for i in 0..order.len() {
                starts[positions[i * arity + k] as usize + 1] += 1;
            }
            for p in 1..starts.len() {
                starts[p] += starts[p - 1];
            }
            let mut next = starts.clone();
            for (i, &row) in order.iter().enumerate() {
                let p = positions[i * arity + k] as usize;
                rows[k][next[p] as usize] = row;
                next[p] += 1;
            }
        }
        Index { starts, rows }
    }

    /// The rows with position `p` in column `k`.
    fn at(&self, k: usize, p: u32) -> &[u32] {
        let starts = &self.starts[k];
        &self.rows[k][starts[p as usize] as usize..starts[p as usize + 1] as usize]
    }
}

/// The scratch of [`Str::explain`], per column: the domain as it was (a
/// bitset's words, empty for an interval), an interval's bounds as they
/// were, and the values killed so far (a bitset's by position as words, an
/// interval's as a list).
#[derive(Default)]
struct Scratch {
    was: Vec<Vec<u64>>,
    bounds: Vec<(i64, i64)>,
    killed_positions: Vec<Vec<u64>>,
    killed_values: Vec<Vec<i64>>,
    /// The rows to read, found by the index.
    hits: Vec<u32>,
}

/// The rows an explanation kills: all (a failure), those whose explained
/// cell is at one of the removed positions (`word`, `mask`), or those whose
/// explained value lies in `lo..=hi` (a bound moved past them).
#[derive(Clone, Copy)]
enum Wanted {
    All,
    Positions(u32, u64),
    Values(i64, i64),
}

/// Whether position `p` is set in `words`.
#[inline]
fn bit(words: &[u64], p: u32) -> bool {
    words[(p / 64) as usize] & 1u64 << (p % 64) != 0
}

/// The size of `var`'s domain as STR2's `sizes` keep it (an interval's
/// width saturated).
fn column_size(ctx: &Context<'_>, var: VarId) -> i64 {
    ctx.state().size_u64(var.index).min(i64::MAX as u64) as i64
}

impl<'c> Str<'c> {
    fn new(table: &'c Table) -> Self {
        Str {
            table,
            positions: Vec::new(),
            order: Vec::new(),
            slot: Vec::new(),
            live: None,
            sizes: Vec::new(),
            repeated: (1..table.vars.len()).any(|j| table.vars[..j].contains(&table.vars[j])),
            changed: Vec::new(),
            unsupported: Vec::new(),
            left: Vec::new(),
            supported: Vec::new(),
            hull: Vec::new(),
            scratch: Scratch::default(),
            index: None,
        }
    }

    /// Keeps each column's size now, the live rows' sizes when next read.
    fn record_sizes(&self, ctx: &mut Context<'_>) {
        for (k, &var) in self.table.vars.iter().enumerate() {
            let size = column_size(ctx, var);
            ctx.set(self.sizes[k], size);
        }
    }
}

impl Propagator for Str<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        let arity = self.table.vars.len();
        self.hull = self.table.vars.iter().map(|&var| ctx.is_interval(var).then_some((0, 0))).collect();
        let state = ctx.state();
        let positions: Vec<u32> = self
            .table
            .rows
            .chunks_exact(arity)
            .flat_map(|row| {
                row.iter()
                    .zip(&self.table.vars)
                    .map(|(&value, var)| state.position(var.index, value).unwrap_or(u32::MAX))
            })
            .collect();
        let rows = self.table.rows.len() / arity.max(1);
        // Rows with a value outside the initial domains can never be used.
        let usable = |r: usize| {
            let cells = r * arity..(r + 1) * arity;
            positions[cells.clone()].iter().zip(&self.table.rows[cells]).zip(&self.table.vars).zip(&self.hull).all(
                |(((&p, &value), &var), hull)| match hull {
                    Some(_) => ctx.contains(var, value),
                    None => p != u32::MAX,
                },
            )
        };
        self.order = (0..rows as u32).filter(|&r| usable(r as usize)).collect();
        self.positions = self
            .order
            .iter()
            .flat_map(|&r| &positions[r as usize * arity..(r as usize + 1) * arity])
            .copied()
            .collect();
        self.slot = vec![u32::MAX; rows];
        for (i, &row) in self.order.iter().enumerate() {
            self.slot[row as usize] = i as u32;
        }
        self.supported = self.table.vars.iter().map(|v| vec![0; state.num_words(v.index) as usize]).collect();
        self.live = Some(ctx.new_reversible_int(self.order.len() as i64));
        self.sizes = self.table.vars.iter().map(|_| ctx.new_reversible_int(-1)).collect();
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let live_cell = self.live.expect("initialised");
        let mut live = ctx.get(live_cell) as usize;
        let arity = self.table.vars.len();
        self.changed.clear();
        self.unsupported.clear();
        self.left.clear();
        for (k, &var) in self.table.vars.iter().enumerate() {
            let now = column_size(ctx, var);
            // (An interval's width is saturated: its columns are always read.)
            if self.hull[k].is_some() || ctx.get(self.sizes[k]) != now {
                self.changed.push(k);
            }
            self.unsupported.push(k);
            self.left.push(now as u64);
        }
        for words in &mut self.supported {
            words.iter_mut().for_each(|w| *w = 0);
        }
        for hull in self.hull.iter_mut().flatten() {
            *hull = (i64::MAX, i64::MIN);
        }
        let mut i = 0;
        let mut checks = 0u64;
        while i < live {
            let row = self.order[i] as usize;
            let cells = &self.positions[i * arity..(i + 1) * arity];
            let values = &self.table.rows[row * arity..(row + 1) * arity];
            checks += 1;
            let valid = self.changed.iter().all(|&k| {
                let var = self.table.vars[k];
                match self.hull[k] {
                    Some(_) => ctx.contains(var, values[k]),
                    None => ctx.state().contains_pos(var.index, cells[k]),
                }
            });
            if valid {
                let mut j = 0;
                while j < self.unsupported.len() {
                    let k = self.unsupported[j];
                    let (p, value) = (cells[k], values[k]);
                    match &mut self.hull[k] {
                        Some((lo, hi)) => (*lo, *hi) = ((*lo).min(value), (*hi).max(value)),
                        None => {
                            let word = &mut self.supported[k][(p / 64) as usize];
                            let bit = 1u64 << (p % 64);
                            if *word & bit == 0 {
                                *word |= bit;
                                self.left[k] -= 1;
                                if self.left[k] == 0 {
                                    // Every value of the column is supported.
                                    self.unsupported.swap_remove(j);
                                    continue;
                                }
                            }
                        }
                    }
                    j += 1;
                }
                i += 1;
            } else {
                live -= 1;
                self.order.swap(i, live);
                for k in 0..arity {
                    self.positions.swap(i * arity + k, live * arity + k);
                }
                self.slot[self.order[i] as usize] = i as u32;
                self.slot[row] = live as u32;
            }
        }
        ctx.count_checks(checks);
        ctx.set(live_cell, live as i64);
        if live == 0 {
            return Err(Conflict);
        }
        // With a repeated variable, a removal can invalidate live rows in
        // another column: the sizes are those the rows were read against.
        if self.repeated {
            self.record_sizes(ctx);
        }
        for (k, &var) in self.table.vars.iter().enumerate() {
            if let Some((lo, hi)) = self.hull[k] {
                ctx.set_min(var, lo)?;
                ctx.set_max(var, hi)?;
                continue;
            }
            if self.left[k] == 0 {
                continue;
            }
            for w in 0..self.supported[k].len() {
                let unsupported = !self.supported[k][w];
                ctx.remove_mask(var.index, w as u32, unsupported)?;
            }
        }
        if !self.repeated {
            self.record_sizes(ctx);
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        Cost::Expensive
    }

    /// A value removed (or a bound moved past it) because every row with it
    /// had lost one of its other values; a failure because every row had
    /// lost a value: one lost value per row, shared between rows where one
    /// does for several ("the supports' killed values"). Each row is read
    /// by its cells' positions against the domains as they were, copied
    /// once per explanation, and the killed values are marked per column.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let vars = &self.table.vars;
        // A repeated variable: which column removed a value is not known.
        if (1..vars.len()).any(|j| vars[..j].contains(&vars[j])) {
            return false;
        }
        let arity = vars.len();
        // The explained column, and which of its cells the rows to kill hold.
        let (column, wanted) = match why.explained() {
            Explained::Failure => (None, Wanted::All),
            Explained::Removed(var) => {
                let (word, mask) = why.removed_positions();
                (vars.iter().position(|&v| v == var), Wanted::Positions(word, mask))
            }
            // The rows below the new bound, but those the old bound had
            // already excluded (the old bound is part of the answer).
            Explained::AtLeast(var, bound) => {
                let min = why.min(var);
                why.because_lower_bound(var);
                (vars.iter().position(|&v| v == var), Wanted::Values(min, bound - 1))
            }
            Explained::AtMost(var, bound) => {
                let max = why.max(var);
                why.because_upper_bound(var);
                (vars.iter().position(|&v| v == var), Wanted::Values(bound + 1, max))
            }
        };
        if column.is_none() && why.explained() != Explained::Failure {
            return false;
        }
        // Each column as it was: a bitset's words, an interval's bounds;
        // and the values killed so far, by position or (an interval) by value.
        let scratch = &mut self.scratch;
        scratch.was.resize_with(arity, Vec::new);
        scratch.killed_positions.resize_with(arity, Vec::new);
        scratch.killed_values.resize_with(arity, Vec::new);
        scratch.bounds.clear();
        for (k, &var) in vars.iter().enumerate() {
            scratch.killed_values[k].clear();
            let killed = &mut scratch.killed_positions[k];
            killed.clear();
            if self.hull[k].is_some() {
                scratch.was[k].clear();
                scratch.bounds.push((why.min(var), why.max(var)));
            } else {
                why.words(var.index, &mut scratch.was[k]);
                killed.resize(scratch.was[k].len(), 0);
                scratch.bounds.push((0, 0));
            }
        }
        // The rows to kill, by their places in `order`, in that order (which
        // decides the values named): by the index when the removed positions
        // of a bitset column say which, else all of them, filtered.
        let mut hits = std::mem::take(&mut scratch.hits);
        hits.clear();
        let indexed = match (column, wanted) {
            (Some(k), Wanted::Positions(word, mask)) if self.hull[k].is_none() => Some((k, word, mask)),
            _ => None,
        };
        if let Some((k, word, mut mask)) = indexed {
            let index = self.index.get_or_insert_with(|| {
                let widths: Vec<usize> = self
                    .hull
                    .iter()
                    .zip(&self.supported)
                    .map(|(h, w)| if h.is_some() { 0 } else { w.len() * 64 })
                    .collect();
                Index::new(&self.positions, arity, &self.order, &widths)
            });
            while mask != 0 {
                let bit = mask.trailing_zeros();
                mask &= mask - 1;
                hits.extend(index.at(k, word * 64 + bit).iter().map(|&row| self.slot[row as usize]));
            }
            hits.sort_unstable();
        } else {
            hits.extend((0..self.order.len() as u32).filter(|&i| {
                let Some(k) = column else { return true };
                match wanted {
                    Wanted::All => true,
                    Wanted::Positions(word, mask) => {
                        let p = self.positions[i as usize * arity + k];
                        p / 64 == word && mask & 1u64 << (p % 64) != 0
                    }
                    Wanted::Values(lo, hi) => {
                        (lo..=hi).contains(&self.table.rows[self.order[i as usize] as usize * arity + k])
                    }
                }
            }));
        }
        let mut killed: Vec<(usize, i64)> = Vec::new();
        let mut supported = false;
        for &i in &hits {
            let row = self.order[i as usize] as usize;
            let values = &self.table.rows[row * arity..(row + 1) * arity];
            let positions = &self.positions[i as usize * arity..(i as usize + 1) * arity];
            let is_killed = (0..arity).any(|k| match self.hull[k] {
                Some(_) => scratch.killed_values[k].contains(&values[k]),
                None => bit(&scratch.killed_positions[k], positions[k]),
            });
            if is_killed {
                continue;
            }
            let gone = |k: usize| {
                Some(k) != column
                    && match self.hull[k] {
                        Some(_) => !(scratch.bounds[k].0..=scratch.bounds[k].1).contains(&values[k]),
                        None => !bit(&scratch.was[k], positions[k]),
                    }
            };
            match (0..arity).find(|&k| gone(k)) {
                Some(k) => {
                    killed.push((k, values[k]));
                    match self.hull[k] {
                        Some(_) => scratch.killed_values[k].push(values[k]),
                        None => {
                            let p = positions[k];
                            scratch.killed_positions[k][(p / 64) as usize] |= 1u64 << (p % 64);
                        }
                    }
                }
                // A row that supported what is explained: no answer here.
                None => {
                    supported = true;
                    break;
                }
            }
        }
        scratch.hits = hits;
        if supported {
            return false;
        }
        for (k, value) in killed {
            why.because(Atom::NotEqual(vars[k], value));
        }
        true
    }

    fn is_idempotent(&self) -> bool {
        // A variable that appears twice can lose values that other rows needed.
        !self.repeated
    }
}
