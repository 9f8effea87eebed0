//! A test oracle: box-line reasoning ("pointing" and "claiming") as a
//! redundant constraint of its own, one per crossing of a line and a box.
//!
//! Where a line (row or column) crosses a box, let `S` be the cells they
//! share, `A` the rest of the line and `B` the rest of the box. Both units hold
//! every value once, so `A` and `B` hold the same set of values: the values `S`
//! does not have. Hence a value no cell of `B` can take is in no cell of `A`,
//! and the other way round.
//!
//! The library reasons this way in one place only, the engine's all-different
//! system (`SolveConfig::all_different_intersections`, the sudoku tool's
//! `--intersections`). This independent, plainly written version, posted beside
//! separate all-differents, is what the tests check the engine's against: the
//! same root domains and the same search trees. (It used to be a library
//! constraint and a `--box-line` flag of the tool as well; one implementation
//! is enough there.)

use csp::{Constraint, Context, Cost, Domain, Event, Model, PropagationResult, Propagator, VarId};
use csp_sudoku::{Grid, Unit};

/// The model of `SudokuModel::new(puzzle)` (variables in reading order, givens
/// as one-value domains, one all-different per unit in the same order) with a
/// [`BoxLine`] constraint after them for every crossing of a line and a box.
pub(crate) fn model_with_box_line(puzzle: &Grid) -> Model {
    let shape = puzzle.shape();
    let n = shape.side();
    let mut model = Model::new();
    let vars: Vec<VarId> = puzzle
        .cells()
        .iter()
        .map(|&v| {
            let domain = if v == 0 { Domain::range(1, n as i64) } else { Domain::range(i64::from(v), i64::from(v)) };
            model.new_var(domain).unwrap()
        })
        .collect();
    for unit in shape.units() {
        let scope: Vec<VarId> = shape.unit_cells(unit).map(|cell| vars[cell]).collect();
        model.all_different(&scope).unwrap();
    }
    for line in (0..n).map(Unit::Row).chain((0..n).map(Unit::Column)) {
        for b in 0..n {
            let in_box = |cell: usize| {
                let (r, c) = shape.row_col(cell);
                shape.box_of(r, c) == b
            };
            let shared: Vec<usize> = shape.unit_cells(line).filter(|&cell| in_box(cell)).collect();
            if shared.is_empty() {
                continue;
            }
            let line_only: Vec<usize> = shape.unit_cells(line).filter(|&cell| !in_box(cell)).collect();
            let box_only: Vec<usize> = shape.unit_cells(Unit::Box(b)).filter(|cell| !shared.contains(cell)).collect();
            let of = |cells: &[usize]| cells.iter().map(|&cell| vars[cell]).collect::<Vec<VarId>>();
            model.post(BoxLine::new(&of(&line_only), &of(&shared), &of(&box_only))).unwrap();
        }
    }
    model
}

/// `values(A) == values(B)` over the scope `A ++ S ++ B` (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct BoxLine {
    scope: Vec<VarId>,
    /// `scope[..line_only]` is `A`, `scope[line_only + shared..]` is `B`.
    line_only: usize,
    shared: usize,
}

impl BoxLine {
    /// The constraint for a line's cells outside the box, the shared cells and
    /// the box's cells outside the line.
    pub(crate) fn new(line_only: &[VarId], shared: &[VarId], box_only: &[VarId]) -> BoxLine {
        let scope = line_only.iter().chain(shared).chain(box_only).copied().collect();
        BoxLine { scope, line_only: line_only.len(), shared: shared.len() }
    }
}

/// The set of values of a slice, as a sorted, deduplicated vector.
fn value_set(values: &[i64]) -> Vec<i64> {
    let mut set = values.to_vec();
    set.sort_unstable();
    set.dedup();
    set
}

impl Constraint for BoxLine {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let (a, rest) = values.split_at(self.line_only);
        value_set(a) == value_set(&rest[self.shared..])
    }

    fn kind(&self) -> &str {
        "box_line"
    }

    fn propagator(&self, _config: &csp::PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(BoxLinePropagator { constraint: self }))
    }
}

struct BoxLinePropagator<'c> {
    constraint: &'c BoxLine,
}

/// The values `1..=64` the cells can take, as a bit mask (bit `v - 1`); a
/// value outside that range (not in a sudoku model) sets bit 63 so that it is
/// never taken for absent.
fn union(ctx: &Context<'_>, cells: &[VarId]) -> u64 {
    let mut mask = 0u64;
    for &var in cells {
        for value in ctx.values(var) {
            mask |= bit(value);
        }
    }
    mask
}

#[inline]
fn bit(value: i64) -> u64 {
    if (1..=64).contains(&value) { 1u64 << (value - 1) } else { 1u64 << 63 }
}

impl Propagator for BoxLinePropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let c = self.constraint;
        let a = &c.scope[..c.line_only];
        let b = &c.scope[c.line_only + c.shared..];
        // Removing values from one side can shrink the other side's union in
        // turn: repeat until nothing changes (the propagator is idempotent).
        loop {
            let (in_a, in_b) = (union(ctx, a), union(ctx, b));
            let mut changed = false;
            if in_a & !in_b != 0 {
                for &var in a {
                    changed |= ctx.retain(var, |v| bit(v) & in_b != 0)?;
                }
            }
            if in_b & !in_a != 0 {
                for &var in b {
                    changed |= ctx.retain(var, |v| bit(v) & in_a != 0)?;
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn interest(&self) -> Event {
        Event::Domain
    }

    fn cost(&self) -> Cost {
        Cost::Cheap
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}
