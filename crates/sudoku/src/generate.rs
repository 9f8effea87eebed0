//! Random full grids and puzzles with a unique solution, reproducible from a seed.
//!
//! Two sources of full grids:
//!
//! - [`shuffled_grid`] needs no engine: it relabels the values and permutes
//!   rows inside bands, bands, columns inside stacks and stacks of a fixed
//!   valid pattern. The planted-solution tests use it, so that what they check
//!   the engine against does not come from the engine.
//! - [`full_grid`] fills the boxes on the diagonal (which share no row or
//!   column) with random permutations and lets the solver complete the grid
//!   with a random value order. Its grids are far more varied; the generator
//!   uses it.
//!
//! [`unique_puzzle`] then blanks cells in random order, keeping a blank only
//! when the puzzle stays unique, until the wanted number of givens is left.
//! Its proofs, and those of the generator by difficulty
//! ([`crate::human::generate`]), run on solvers of the blank grid reused from
//! proof to proof (`Proofs`).

use csp::rng::Rng;
use csp::{Limits, Outcome, SolveConfig, Solver, ValueOrder};

use crate::grid::{Grid, Shape};
use crate::model::{EngineError, SudokuModel};

/// The valid full grid `value(r, c) = ((r mod R) * C + r div R + c) mod n + 1`:
/// in a box the first term and the column walk all of `0..n` once, and along a
/// column `(r mod R) * C + r div R` does too.
pub fn pattern_grid(shape: Shape) -> Grid {
    let (n, r, c) = (shape.side(), shape.box_rows(), shape.box_cols());
    let cells = (0..n * n)
        .map(|i| {
            let (row, col) = (i / n, i % n);
            (((row % r) * c + row / r + col) % n + 1) as u8
        })
        .collect();
    Grid::from_cells(shape, cells).unwrap_or_else(|_| Grid::empty(shape))
}

/// A random valid full grid made from [`pattern_grid`] by symmetries that keep
/// every unit a unit: relabelled values, rows permuted inside each band, bands
/// permuted, columns inside each stack, stacks, and (for square boxes) a
/// transposition. Independent of the engine.
pub fn shuffled_grid(shape: Shape, rng: &mut Rng) -> Grid {
    let (n, r, c) = (shape.side(), shape.box_rows(), shape.box_cols());
    let pattern = pattern_grid(shape);
    let mut values: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut values);
    // Bands are `r` rows high (there are `c` of them); stacks `c` columns wide.
    let rows = permutation_in_groups(n, r, rng);
    let cols = permutation_in_groups(n, c, rng);
    let transpose = r == c && rng.below(2) == 1;
    let mut cells = Vec::with_capacity(n * n);
    for &row in &rows {
        for &col in &cols {
            let (a, b) = if transpose { (col, row) } else { (row, col) };
            let v = pattern.cells()[a * n + b];
            cells.push(values[usize::from(v) - 1]);
        }
    }
    Grid::from_cells(shape, cells).unwrap_or(pattern)
}

/// A permutation of `0..n` that moves groups of `size` consecutive indices as
/// blocks and permutes the indices inside each group.
fn permutation_in_groups(n: usize, size: usize, rng: &mut Rng) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..n / size).collect();
    rng.shuffle(&mut groups);
    let mut order = Vec::with_capacity(n);
    for g in groups {
        let mut inside: Vec<usize> = (g * size..(g + 1) * size).collect();
        rng.shuffle(&mut inside);
        order.extend(inside);
    }
    order
}

/// Blanks `count` random cells of a grid (all of them if `count` is larger).
pub fn blank_cells(grid: &Grid, count: usize, rng: &mut Rng) -> Grid {
    let mut order: Vec<usize> = (0..grid.cells().len()).collect();
    rng.shuffle(&mut order);
    let mut puzzle = grid.clone();
    for &cell in order.iter().take(count) {
        puzzle.set(cell, 0);
    }
    puzzle
}

/// The largest side whose full grids start from random diagonal boxes.
///
/// Beyond it the random boxes make the fill heavy-tailed: on 64x64 grids
/// with the eight diagonal boxes filled at random, `mac+mrv+matching+random`
/// was stopped at 20 s on 8 of 16 (seed, start) pairs, and so every attempt
/// of [`full_grid`] could fail (seed 1 took 70 s before falling back on a
/// pattern grid); from the empty grid the same search filled 8 of 8 seeds
/// with at most 227 backtracks (3.7 k nodes, 0.7 s). Up to this side the
/// diagonal start is kept, so that every puzzle made before stays the same.
const LARGEST_DIAGONAL_START_SIDE: usize = 49;

/// A random valid full grid: the diagonal boxes filled at random (up to
/// 49x49; larger grids start empty), the rest by
/// the solver with a random value order. Runs that take too long are retried
/// with another seed; after a few, the grid comes from [`shuffled_grid`].
pub fn full_grid(shape: Shape, seed: u64) -> Result<Grid, EngineError> {
    let n = shape.side();
    let mut rng = Rng::new(seed);
    let diagonal_boxes = if n <= LARGEST_DIAGONAL_START_SIDE { shape.box_rows().min(shape.box_cols()) } else { 0 };
    for _attempt in 0..4 {
        let mut start = Grid::empty(shape);
        // Box (i, i) spans rows i*R.. and columns i*C..; there are min(R, C)
        // such boxes and no two share a row or a column.
        for i in 0..diagonal_boxes {
            let mut values: Vec<u8> = (1..=n as u8).collect();
            rng.shuffle(&mut values);
            let b = i * shape.box_rows() + i;
            for (cell, value) in shape.unit_cells(crate::grid::Unit::Box(b)).zip(values) {
                start.set(cell, value);
            }
        }
        let config = SolveConfig::default()
            .with_value_order(ValueOrder::Random)
            .with_seed(rng.next_u64())
            .with_limits(Limits::none().with_nodes(20 * n as u64 * n as u64));
        let model = SudokuModel::new(&start)?;
        let mut solver = model.solver(config)?;
        if let Outcome::Solved(solution) = solver.solve() {
            return Ok(model.grid(solution.values()));
        }
    }
    Ok(shuffled_grid(shape, &mut rng))
}

/// A puzzle with a unique solution, and that solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
    /// Blanks that were undone because proving the puzzle still unique took
    /// more than `config`'s limits: with a larger node limit, the puzzle
    /// might have fewer givens (and with `givens` 0, be minimal only when
    /// this is 0).
    pub unproved: usize,
}

/// A puzzle with a unique solution and (at least, when the puzzle cannot lose
/// more givens and stay unique) `givens` givens, from a [`full_grid`], reproducible by
/// `seed`.
///
/// Cells are blanked in random order. Blanking a cell whose value is `v`
/// keeps the puzzle unique exactly when the puzzle with that cell allowed
/// every value but `v` has no solution, so each step is one search for a
/// solution. A search stopped by `config`'s limits keeps the given: uniqueness
/// is never assumed, only proved.
///
/// With `givens` 0 every cell is tried once, and the puzzle is minimal (no
/// given can be removed keeping the solution unique) when no proof was cut
/// short ([`Generated::unproved`] is 0): a given kept because its removal
/// allowed a second solution stays necessary as more cells are blanked,
/// since blanking only adds solutions.
pub fn unique_puzzle(shape: Shape, seed: u64, givens: usize, config: &SolveConfig) -> Result<Generated, EngineError> {
    unique_puzzle_with(shape, seed, givens, std::slice::from_ref(config))
}

/// [`unique_puzzle`] with a portfolio of proofs: each blank is decided by
/// the first of `configs` (each within its own limits) that decides it, so
/// a search that is fast on some proofs (learning) can follow one that is
/// fast on others. A blank is undecided (and its given stays) only when
/// every one of them hits its limits; an empty `configs` decides nothing.
pub fn unique_puzzle_with(
    shape: Shape,
    seed: u64,
    givens: usize,
    configs: &[SolveConfig],
) -> Result<Generated, EngineError> {
    let solution = full_grid(shape, seed)?;
    let mut rng = Rng::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut order: Vec<usize> = (0..solution.cells().len()).collect();
    rng.shuffle(&mut order);
    let mut puzzle = solution.clone();
    let mut left = puzzle.cells().len();
    let mut unproved = 0;
    let blank = SudokuModel::blank(shape)?;
    let mut proofs = Proofs::new(&blank, configs)?;
    for cell in order {
        if left <= givens {
            break;
        }
        let value = puzzle.cells()[cell];
        puzzle.set(cell, 0);
        // On the 1x1 grid the cell has no other value, so the puzzle stays
        // unique.
        if puzzle.side() == 1 {
            left -= 1;
            continue;
        }
        match proofs.second_solution(&puzzle, cell, value)? {
            Some(false) => left -= 1,
            decided => {
                unproved += usize::from(decided.is_none());
                puzzle.set(cell, value);
            }
        }
    }
    Ok(Generated { puzzle, solution, unproved })
}

/// Uniqueness proofs for the puzzles of one shape ("has the puzzle a
/// solution with this cell other than this value?") on solvers of the blank
/// grid, one a configuration, reused from proof to proof: each proof's
/// givens and excluded value are its run's assumptions and every run starts
/// afresh from the root, so no model is built a proof (2.2-3x faster
/// generation from 25x25 to 49x49; BENCHMARKS.md, "Uniqueness proofs on one
/// solver").
pub(crate) struct Proofs<'m> {
    blank: &'m SudokuModel,
    solvers: Vec<Solver<'m>>,
}

impl<'m> Proofs<'m> {
    /// Proofs by the first of `configs` that decides each (each within its
    /// own limits); none decides anything when `configs` is empty.
    pub(crate) fn new(blank: &'m SudokuModel, configs: &[SolveConfig]) -> Result<Proofs<'m>, EngineError> {
        let solvers = configs.iter().map(|config| blank.solver(config.clone())).collect::<Result<_, _>>()?;
        Ok(Proofs { blank, solvers })
    }

    /// Whether `puzzle` has a solution with `cell` not `value`, by the first
    /// solver that decides it; `None` when none does. The root's domains are
    /// those of the model of the puzzle with that cell's other values, so the
    /// answer is that model's (and under MRV so is the search; dom/wdeg's
    /// weights and learning's explanations follow the order propagation takes,
    /// so their searches are those of the tool's `solve`, which takes givens
    /// the same way).
    pub(crate) fn second_solution(
        &mut self,
        puzzle: &Grid,
        cell: usize,
        value: u8,
    ) -> Result<Option<bool>, EngineError> {
        let blank = self.blank;
        let var =
            |cell: usize| blank.var(cell).ok_or(EngineError::Shape { expected: blank.shape(), found: puzzle.shape() });
        for solver in &mut self.solvers {
            solver.clear_assumptions();
            for (given, &v) in puzzle.cells().iter().enumerate() {
                if v != 0 {
                    solver.assume(var(given)?, i64::from(v))?;
                }
            }
            solver.assume_not(var(cell)?, i64::from(value))?;
            match solver.solve() {
                Outcome::Unsatisfiable => return Ok(Some(false)),
                Outcome::Solved(_) => return Ok(Some(true)),
                Outcome::LimitReached(_) => {}
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_filled, verify_solution};
    use crate::model::{count, default_config};

    #[test]
    fn pattern_and_shuffled_grids_are_valid_for_every_shape() {
        let mut rng = Rng::new(3);
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (8, 8)] {
            let shape = Shape::new(r, c).unwrap();
            assert!(check_filled(&pattern_grid(shape)).is_valid(), "{shape}");
            for _ in 0..5 {
                assert!(check_filled(&shuffled_grid(shape, &mut rng)).is_valid(), "{shape}");
            }
        }
    }

    #[test]
    fn full_grids_are_valid_and_reproducible() {
        let shape = Shape::new(2, 3).unwrap();
        let a = full_grid(shape, 11).unwrap();
        assert!(check_filled(&a).is_valid());
        assert_eq!(a, full_grid(shape, 11).unwrap());
        assert!(check_filled(&full_grid(Shape::new(3, 3).unwrap(), 5).unwrap()).is_valid());
    }

    #[test]
    fn generated_puzzles_are_unique_and_keep_their_solution() {
        let shape = Shape::new(3, 3).unwrap();
        let config = SolveConfig::default();
        let generated = unique_puzzle(shape, 42, 30, &config).unwrap();
        assert_eq!(generated.puzzle.num_givens(), 30);
        verify_solution(&generated.puzzle, &generated.solution).unwrap();
        let (counted, _) = count(&generated.puzzle, &config, Some(2)).unwrap();
        assert!(counted.is_unique());
        assert_eq!(generated, unique_puzzle(shape, 42, 30, &config).unwrap());
    }

    /// With no givens wanted and no proof cut short, no given can be removed
    /// keeping the solution unique: each removal is counted independently.
    #[test]
    fn puzzles_blanked_as_far_as_they_go_are_minimal() {
        let config = SolveConfig::default();
        for (shape, seed) in [(Shape::new(2, 3).unwrap(), 7), (Shape::new(3, 3).unwrap(), 5)] {
            let made = unique_puzzle(shape, seed, 0, &config).unwrap();
            assert_eq!(made.unproved, 0, "{shape}");
            verify_solution(&made.puzzle, &made.solution).unwrap();
            assert!(count(&made.puzzle, &config, Some(2)).unwrap().0.is_unique());
            for cell in (0..made.puzzle.cells().len()).filter(|&c| made.puzzle.cells()[c] != 0) {
                let mut fewer = made.puzzle.clone();
                fewer.set(cell, 0);
                let (counted, _) = count(&fewer, &config, Some(2)).unwrap();
                assert!(!counted.is_unique(), "{shape}: the given at {cell} can go");
            }
        }
    }

    /// The same on a 16x16 board with the search the tool uses for large
    /// boards (dom/wdeg, intersections): every given is necessary and the
    /// puzzle is unique, each checked by an independent count.
    #[test]
    fn a_minimal_sixteen_by_sixteen_puzzle_is_minimal() {
        let shape = Shape::new(4, 4).unwrap();
        let check = SolveConfig { limits: Limits::none().with_nodes(100_000), ..default_config(25) };
        let made = unique_puzzle(shape, 3, 0, &check).unwrap();
        assert_eq!(made.unproved, 0, "every proof decided within the budget");
        verify_solution(&made.puzzle, &made.solution).unwrap();
        let config = default_config(16);
        assert!(count(&made.puzzle, &config, Some(2)).unwrap().0.is_unique());
        for cell in (0..made.puzzle.cells().len()).filter(|&c| made.puzzle.cells()[c] != 0) {
            let mut fewer = made.puzzle.clone();
            fewer.set(cell, 0);
            assert!(!count(&fewer, &config, Some(2)).unwrap().0.is_unique(), "the given at {cell} can go");
        }
    }

    /// A budget too small to decide keeps givens and says how many: such a
    /// puzzle is still unique, but not claimed minimal.
    #[test]
    fn an_exhausted_budget_is_reported_not_assumed() {
        let shape = Shape::new(4, 4).unwrap();
        let check = SolveConfig { limits: Limits::none().with_nodes(1), ..default_config(16) };
        let made = unique_puzzle(shape, 3, 0, &check).unwrap();
        assert!(made.unproved > 0);
        verify_solution(&made.puzzle, &made.solution).unwrap();
        assert!(count(&made.puzzle, &default_config(16), Some(2)).unwrap().0.is_unique());
    }

    /// A portfolio decides each blank by its first decisive search: a
    /// search cut at one node (it decides little more than propagation does)
    /// followed by a decisive one makes the decisive one's puzzle, since
    /// every decided answer is the truth and the blanking order comes from
    /// the seed.
    #[test]
    fn a_portfolio_falls_back_to_its_next_search() {
        let shape = Shape::new(3, 3).unwrap();
        let tiny = SolveConfig { limits: Limits::none().with_nodes(1), ..SolveConfig::default() };
        let full = default_config(9);
        let alone = unique_puzzle(shape, 9, 0, &full).unwrap();
        assert_eq!(alone.unproved, 0);
        assert_eq!(unique_puzzle_with(shape, 9, 0, &[tiny.clone(), full]).unwrap(), alone);
        assert!(unique_puzzle_with(shape, 9, 0, &[tiny]).unwrap().unproved > 0);
        assert_eq!(unique_puzzle_with(shape, 9, 0, &[]).unwrap().puzzle.num_givens(), 81, "nothing decided");
    }

    /// A proof by assumptions on one reused solver of the blank grid is the
    /// search a fresh solver of the blank grid runs (the tool's `solve`
    /// takes givens the same way), and it answers as the model of the
    /// puzzle with the cell's other values does. Under MRV it is also that
    /// model's search, node for node; dom/wdeg's weights and learning's
    /// explanations follow the order propagation takes, which the root's
    /// form changes, so their trees may differ from that model's (under
    /// learning on 16x16 here they do; `generate --size 25 --minimal`'s
    /// dom/wdeg proofs did too), never the answer. A node limit cuts some
    /// proofs short.
    #[test]
    fn proofs_by_assumptions_answer_as_the_puzzles_own_models() {
        for (r, c, givens) in [(3, 3, 30), (4, 4, 100), (5, 5, 350)] {
            let shape = Shape::new(r, c).unwrap();
            let mut rng = Rng::new(5);
            let puzzle = blank_cells(&full_grid(shape, 5).unwrap(), shape.num_cells() - givens, &mut rng);
            let side = shape.side();
            for base in [default_config(9), default_config(side), crate::model::learning_config(side)] {
                let mrv = base.var_order == csp::VarOrder::Mrv && base.search != csp::Search::Learning;
                let config = SolveConfig { limits: Limits::none().with_nodes(50), ..base };
                let blank = SudokuModel::blank(shape).unwrap();
                let mut reused = Proofs::new(&blank, std::slice::from_ref(&config)).unwrap();
                let filled: Vec<usize> = (0..shape.num_cells()).filter(|&i| puzzle.cells()[i] != 0).collect();
                let mut decided = 0;
                for &cell in filled.iter().take(40) {
                    let value = puzzle.cells()[cell];
                    let mut without = puzzle.clone();
                    without.set(cell, 0);
                    let got = reused.second_solution(&without, cell, value).unwrap();
                    let mut fresh = Proofs::new(&blank, std::slice::from_ref(&config)).unwrap();
                    let first = fresh.second_solution(&without, cell, value).unwrap();
                    let at = format!("{shape}, {:?}, cell {cell}", config.var_order);
                    assert_eq!(got, first, "{at}");
                    assert_eq!(reused.solvers[0].stats().nodes, fresh.solvers[0].stats().nodes, "{at}");
                    let own = SudokuModel::excluding(&without, cell, value).unwrap();
                    let mut solver = own.solver(config.clone()).unwrap();
                    let expected = match solver.solve() {
                        Outcome::Unsatisfiable => Some(false),
                        Outcome::Solved(_) => Some(true),
                        Outcome::LimitReached(_) => None,
                    };
                    if let (Some(got), Some(expected)) = (got, expected) {
                        assert_eq!(got, expected, "{at}");
                        decided += 1;
                    }
                    if mrv {
                        assert_eq!((got, reused.solvers[0].stats().nodes), (expected, solver.stats().nodes), "{at}");
                    }
                }
                assert!(decided >= 20, "{shape}: only {decided} proofs decided both ways");
            }
        }
    }

    /// The smallest shapes, whose cells have one or two values.
    #[test]
    fn the_one_by_one_and_one_by_two_grids_are_generated() {
        let config = SolveConfig::default();
        let one = unique_puzzle(Shape::new(1, 1).unwrap(), 1, 0, &config).unwrap();
        assert_eq!((one.puzzle.num_givens(), one.solution.cells()), (0, &[1][..]));
        let two = unique_puzzle(Shape::new(1, 2).unwrap(), 1, 0, &config).unwrap();
        assert_eq!(two.puzzle.num_givens(), 1, "one given decides a 2x2 grid");
        verify_solution(&two.puzzle, &two.solution).unwrap();
    }
}
