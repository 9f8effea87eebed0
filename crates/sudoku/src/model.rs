//! The sudoku as a `csp` model, and solving and counting on top of it.
//!
//! One variable per cell in reading order (so variable `i` is cell `i`), with
//! domain `1..=n`, or the single value of a given; one `all_different` per row,
//! column and box, labelled `row 3`, `column 5`, `box 2` so that traces name
//! them. The strength of the all-different propagators is the solver
//! configuration's [`SolveConfig::all_different`].
//!
//! Givens are singleton domains rather than constraints: the engine starts from
//! them at no cost, and the root propagation removes their values from their
//! peers.

use csp::{
    AllDifferentStrength, Count, Domain, Limit, Model, ModelError, Outcome, Propagation, Restarts, Search, SolveConfig,
    Solver, Stats, ValueOrder, VarId, VarOrder,
};

use crate::bands::Grid9;
use crate::fish::Fish;
use crate::grid::{Grid, Shape};

/// The largest side solved with MRV by default; larger grids use dom/wdeg.
pub const LARGEST_MRV_SIDE: usize = 16;

/// The configuration the sudoku tool, the benchmarks and the tests use unless
/// told otherwise: the fastest one measured on the puzzle sets (see
/// docs/sudoku.md).
///
/// Maintained arc consistency with matching-based all-different (Régin 1994),
/// which finds hidden singles and every other pigeonhole argument, for every
/// side. The variable order depends on the side: the smallest domain first
/// (MRV) up to 16x16, where most puzzles need few decisions and MRV's choice is
/// the cheapest; dom/wdeg (Boussemart et al. 2004) beyond, where the hard
/// puzzles need thousands of decisions and learning which units fail cuts them
/// by a factor of three to five. Beyond 16x16 the all-different system also
/// reasons on box-line intersections (pointing and claiming): three to four
/// times fewer nodes there, for a third more time per node; up to 16x16 it
/// helps the hard puzzles but makes the typical one (one guess or none) a few
/// percent slower. With learning (`--learn`), the nogoods are not minimised:
/// on 25x25 puzzles minimisation drops about an eighth of each nogood's
/// facts but costs 1.6-1.7x the instructions (BENCHMARKS.md, "Minimising
/// learnt nogoods").
///
/// ```
/// use csp::VarOrder;
/// assert_eq!(csp_sudoku::default_config(9).var_order, VarOrder::Mrv);
/// assert!(csp_sudoku::default_config(25).all_different_intersections);
/// ```
pub fn default_config(side: usize) -> SolveConfig {
    let large = side > LARGEST_MRV_SIDE;
    SolveConfig {
        search: Search::chronological(Propagation::Mac),
        all_different: AllDifferentStrength::Matching,
        var_order: if large { VarOrder::DomWdeg } else { VarOrder::Mrv },
        value_order: ValueOrder::Ascending,
        all_different_intersections: large,
        ..SolveConfig::default()
    }
}

/// The configuration the tool's `--learn` runs: [`default_config`] with
/// search that learns and, beyond 16x16, [`VarOrder::Alternate`] (dom/wdeg
/// with saved phases and the most active literal in turn) with Glucose's
/// restarts: on the twelve 25x25 puzzles from an outside generator it
/// solves all twelve within 15 s where dom/wdeg alone needs up to 78 s,
/// with a lower median and a quarter of the CPU in all (BENCHMARKS.md,
/// "Restarts that switch orderings"). Beyond 16x16 the nogoods' distances
/// are recounted too ([`SolveConfig::dynamic_lbd`]), with the recounted
/// glue kept only while used ([`SolveConfig::expiring_glue`]): on the
/// twelve, median 1.18 s against 6.25 s and worst 15.5 s against 20.4 s in
/// the same run; the hardest 25x25 and 36x36 sets stay under 0.4 s a puzzle
/// (BENCHMARKS.md, "Glue that expires or is capped"). Up to 16x16 the
/// default's MRV, without restarts.
///
/// ```
/// use csp::{Restarts, ValueOrder, VarOrder};
/// let config = csp_sudoku::learning_config(25);
/// assert!(config.learning());
/// assert_eq!((config.var_order, config.value_order), (VarOrder::Alternate, ValueOrder::Phase));
/// assert_eq!(config.restarts, Restarts::Glucose { window: 50 });
/// assert!(config.dynamic_lbd && config.expiring_glue);
/// assert_eq!(csp_sudoku::learning_config(9).var_order, VarOrder::Mrv);
/// assert!(!csp_sudoku::learning_config(9).dynamic_lbd);
/// ```
pub fn learning_config(side: usize) -> SolveConfig {
    let config = default_config(side).with_search(Search::Learning);
    if side > LARGEST_MRV_SIDE {
        SolveConfig {
            dynamic_lbd: true,
            expiring_glue: true,
            ..config
                .with_var_order(VarOrder::Alternate)
                .with_value_order(ValueOrder::Phase)
                .with_restarts(Restarts::Glucose { window: Restarts::GLUCOSE_WINDOW })
        }
    } else {
        config
    }
}

/// Why the engine could not take a sudoku model. Neither happens for a grid of
/// a valid shape; the variants keep the library free of panics all the same.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    // The engine's error is in the message and is not also the `source`: a
    // printer of error chains (anyhow's `{:#}`) would say it twice.
    /// Building the model failed.
    #[error("cannot build the model: {0}")]
    Model(ModelError),
    /// Building the solver failed.
    #[error("cannot build the solver: {0}")]
    Solver(csp::SolveError),
    /// [`Units::Bands`] asked for a grid that is not 9x9 with 3x3 boxes.
    #[error("the band propagator takes 9x9 grids of 3x3 boxes, not {found} boxes")]
    Bands {
        /// The grid's shape.
        found: Shape,
    },
    /// [`Units::Fish`] asked for a grid wider than [`fish::LARGEST_SIDE`](crate::fish::LARGEST_SIDE).
    #[error("the fish propagator takes sides up to 64, not {found} boxes")]
    Fish {
        /// The grid's shape.
        found: Shape,
    },
    /// A puzzle given to a [`ShapeSolver`] of another shape.
    #[error("a solver for {expected} boxes cannot take a puzzle with {found} boxes")]
    Shape {
        /// The solver's shape.
        expected: Shape,
        /// The puzzle's.
        found: Shape,
    },
}

impl From<ModelError> for EngineError {
    fn from(err: ModelError) -> EngineError {
        EngineError::Model(err)
    }
}

impl From<csp::SolveError> for EngineError {
    fn from(err: csp::SolveError) -> EngineError {
        EngineError::Solver(err)
    }
}

/// How a model states its units.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Units {
    /// One `all_different` per row, column and box, propagated as the
    /// configuration's [`SolveConfig::all_different`] says (the default).
    #[default]
    AllDifferents,
    /// 9x9 only: one constraint over the whole grid, [`Grid9`], whose
    /// propagator works on per-value bit boards (singles, hidden singles,
    /// locked candidates; no matching), as the registry's bitboard solvers do.
    Bands,
    /// [`Units::AllDifferents`] and the dual viewpoint of rows and columns:
    /// per row `r` and digit `d` a variable `P[r][d]`, the column of `d` in
    /// row `r`, channelled to the row's cells by an `inverse`, and per digit
    /// an `all_different` over the rows of `P[r][d]` (the digit's columns
    /// differ). Matching on those finds every fish (X-wing, swordfish,
    /// jellyfish and larger) of rows and columns, which the units' own
    /// all-differents do not.
    Dual,
    /// [`Units::AllDifferents`] and [`Fish`] over the whole grid: the same
    /// pruning as [`Units::Dual`] on per-digit bit boards, without the dual
    /// variables (sides up to 64; [`EngineError::Fish`] beyond).
    Fish,
}

impl Units {
    /// The faster statement of a shape's units under the default search:
    /// [`Units::Bands`] for 9x9 grids of 3x3 boxes (about twice as fast on
    /// every 9x9 set measured, BENCHMARKS.md), [`Units::AllDifferents`] for
    /// every other shape. The solving commands of the `sudoku` tool take it.
    pub fn fastest(shape: Shape) -> Units {
        if fits_bands(shape) { Units::Bands } else { Units::AllDifferents }
    }
}

/// Whether [`Units::Bands`] states `shape`'s units: a 9x9 grid of 3x3 boxes.
fn fits_bands(shape: Shape) -> bool {
    shape.side() == 9 && shape.box_rows() == 3 && shape.box_cols() == 3
}

/// A sudoku puzzle as a constraint model.
#[derive(Debug)]
pub struct SudokuModel {
    model: Model,
    shape: Shape,
}

impl SudokuModel {
    /// The model of a puzzle: givens are fixed, every other cell ranges over
    /// `1..=n`; the constraints are labelled for traces.
    pub fn new(puzzle: &Grid) -> Result<SudokuModel, EngineError> {
        SudokuModel::build(puzzle.shape(), Labels::Units, |cell| given_domain(puzzle, cell))
    }

    /// [`SudokuModel::new`] without the labels: for batch solving, where
    /// nothing shows them and the `3n` label strings are a measurable part of
    /// building a model.
    pub fn unlabelled(puzzle: &Grid) -> Result<SudokuModel, EngineError> {
        SudokuModel::unlabelled_with(puzzle, Units::AllDifferents)
    }

    /// [`SudokuModel::unlabelled`] with the units stated as `units` says
    /// ([`EngineError::Bands`] for [`Units::Bands`] on another shape than
    /// 9x9 of 3x3 boxes).
    pub fn unlabelled_with(puzzle: &Grid, units: Units) -> Result<SudokuModel, EngineError> {
        SudokuModel::build_with(puzzle.shape(), Labels::None, units, |cell| given_domain(puzzle, cell))
    }

    /// The model of a puzzle in which cell `cell` may take any value but
    /// `value`. It has no solution exactly when `value` is the only value the
    /// cell can take in every solution of `puzzle`: the generator uses it to
    /// ask "is the puzzle still unique without this given?" with one search
    /// for a solution instead of a count to two.
    pub fn excluding(puzzle: &Grid, cell: usize, value: u8) -> Result<SudokuModel, EngineError> {
        let n = puzzle.side() as i64;
        SudokuModel::build(puzzle.shape(), Labels::None, |i| {
            if i == cell { Domain::values((1..=n).filter(|&v| v != i64::from(value))) } else { given_domain(puzzle, i) }
        })
    }

    /// The model of the empty grid of a shape, unlabelled: the template a
    /// [`ShapeSolver`] solves every puzzle of that shape with.
    pub fn blank(shape: Shape) -> Result<SudokuModel, EngineError> {
        SudokuModel::blank_with(shape, Units::AllDifferents)
    }

    /// [`SudokuModel::blank`] with the units stated as `units` says;
    /// [`Units::Bands`] takes 9x9 grids of 3x3 boxes only ([`EngineError::Bands`]
    /// otherwise).
    pub fn blank_with(shape: Shape, units: Units) -> Result<SudokuModel, EngineError> {
        let n = shape.side() as i64;
        SudokuModel::build_with(shape, Labels::None, units, |_| Domain::range(1, n))
    }

    /// The model of a board whose cells range over the given domains (one
    /// per cell, a given as a single value): the human-style solver asks the
    /// engine about boards with pencil marks this way.
    pub fn with_domains(shape: Shape, domain: impl FnMut(usize) -> Domain) -> Result<SudokuModel, EngineError> {
        SudokuModel::build(shape, Labels::Units, domain)
    }

    fn build(shape: Shape, labels: Labels, domain: impl FnMut(usize) -> Domain) -> Result<SudokuModel, EngineError> {
        SudokuModel::build_with(shape, labels, Units::AllDifferents, domain)
    }

    fn build_with(
        shape: Shape,
        labels: Labels,
        units: Units,
        mut domain: impl FnMut(usize) -> Domain,
    ) -> Result<SudokuModel, EngineError> {
        let mut model = Model::new();
        let mut vars = Vec::with_capacity(shape.num_cells());
        for cell in 0..shape.num_cells() {
            vars.push(model.new_var(domain(cell))?);
        }
        if units == Units::Bands {
            // Its units are a 3x3-box grid's: 9x9 with 1x9 or 9x1 boxes (a
            // Latin square) is another puzzle.
            let grid = Grid9::new(&vars).filter(|_| fits_bands(shape)).ok_or(EngineError::Bands { found: shape })?;
            model.post(grid)?;
            return Ok(SudokuModel { model, shape });
        }
        let mut scope = Vec::with_capacity(shape.side());
        for unit in shape.units() {
            scope.clear();
            scope.extend(shape.unit_cells(unit).map(|cell| vars[cell]));
            let id = model.all_different(&scope)?;
            if labels == Labels::Units {
                model.set_label(id, unit.to_string())?;
            }
        }
        match units {
            Units::Dual => post_dual(&mut model, &vars, shape, labels)?,
            Units::Fish => {
                let fish = Fish::new(&vars, shape.side()).ok_or(EngineError::Fish { found: shape })?;
                let id = model.post(fish)?;
                if labels == Labels::Units {
                    model.set_label(id, "fish")?;
                }
            }
            Units::AllDifferents | Units::Bands => {}
        }
        Ok(SudokuModel { model, shape })
    }

    /// The constraint model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The box shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The variable of a cell.
    pub fn var(&self, cell: usize) -> Option<VarId> {
        self.model.var_at(cell)
    }

    /// The grid of a solution's values.
    pub fn grid(&self, values: &[i64]) -> Grid {
        // The cells' variables come first (a dual view's after them).
        let cells =
            values[..values.len().min(self.shape.num_cells())].iter().map(|&v| u8::try_from(v).unwrap_or(0)).collect();
        Grid::from_cells(self.shape, cells).unwrap_or_else(|_| Grid::empty(self.shape))
    }

    /// A solver for this model.
    pub fn solver(&self, config: SolveConfig) -> Result<Solver<'_>, EngineError> {
        Ok(Solver::new(&self.model, config)?)
    }
}

/// The dual viewpoint of rows and columns ([`Units::Dual`]): `P[r][d]`, the
/// column (from 1) of digit `d` in row `r`, is the inverse of the row's
/// cells, and each digit's columns differ from row to row. The dual
/// variables come after the cells', row by row.
fn post_dual(model: &mut Model, cells: &[VarId], shape: Shape, labels: Labels) -> Result<(), EngineError> {
    let n = shape.side();
    let mut dual = Vec::with_capacity(n * n);
    for r in 0..n {
        let row = model.new_vars(n, Domain::range(1, n as i64))?;
        let id = model.post(csp::constraints::Inverse::new(&cells[r * n..(r + 1) * n], 1, &row, 1))?;
        if labels == Labels::Units {
            model.set_label(id, format!("row {} by digit", r + 1))?;
        }
        dual.extend(row);
    }
    let mut scope = Vec::with_capacity(n);
    for d in 0..n {
        scope.clear();
        scope.extend((0..n).map(|r| dual[r * n + d]));
        let id = model.all_different(&scope)?;
        if labels == Labels::Units {
            model.set_label(id, format!("columns of digit {}", d + 1))?;
        }
    }
    Ok(())
}

/// Whether the constraints get labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Labels {
    None,
    Units,
}

/// The domain of a cell of a puzzle: its given, or `1..=n`.
fn given_domain(puzzle: &Grid, cell: usize) -> Domain {
    match puzzle.cells()[cell] {
        0 => Domain::range(1, puzzle.side() as i64),
        v => Domain::range(i64::from(v), i64::from(v)),
    }
}

/// How a search for a solution ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A solution (not yet verified: see [`crate::check::verify_solution`]).
    Solved(Grid),
    /// No solution exists.
    Unsatisfiable,
    /// A limit stopped the search.
    LimitReached(Limit),
}

/// One solver for every puzzle of a box shape: it is built once over the blank
/// grid's model, and each puzzle's givens become assumptions
/// ([`Solver::assume`]) replayed at the root of the next run. Building a model
/// and a solver costs about as much as solving a typical 9x9 by propagation,
/// so a batch reuses one of these per shape (and per thread) instead.
///
/// ```
/// use csp::SolveConfig;
/// use csp_sudoku::model::{Answer, ShapeSolver, SudokuModel};
/// use csp_sudoku::{parse, Shape};
///
/// let blank = SudokuModel::blank(Shape::new(2, 2).unwrap()).unwrap();
/// let mut solver = ShapeSolver::new(&blank, SolveConfig::default()).unwrap();
/// for line in ["1.42421321.43421", "..3.32.....42..3"] {
///     let (answer, _stats) = solver.solve(&parse::one(line).unwrap()).unwrap();
///     assert!(matches!(answer, Answer::Solved(_)));
/// }
/// ```
pub struct ShapeSolver<'m> {
    model: &'m SudokuModel,
    solver: Solver<'m>,
}

impl std::fmt::Debug for ShapeSolver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapeSolver").field("shape", &self.model.shape).field("solver", &self.solver).finish()
    }
}

impl<'m> ShapeSolver<'m> {
    /// A solver for the puzzles of `blank`'s shape ([`SudokuModel::blank`]).
    pub fn new(blank: &'m SudokuModel, config: SolveConfig) -> Result<ShapeSolver<'m>, EngineError> {
        Ok(ShapeSolver { model: blank, solver: blank.solver(config)? })
    }

    /// The box shape this solver takes.
    pub fn shape(&self) -> Shape {
        self.model.shape
    }

    /// The model it solves with.
    pub fn model(&self) -> &'m SudokuModel {
        self.model
    }

    /// The configuration.
    pub fn config(&self) -> &SolveConfig {
        self.solver.config()
    }

    /// Makes the puzzle's givens the assumptions of the next run.
    fn load(&mut self, puzzle: &Grid) -> Result<(), EngineError> {
        if puzzle.shape() != self.model.shape {
            return Err(EngineError::Shape { expected: self.model.shape, found: puzzle.shape() });
        }
        self.solver.clear_assumptions();
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value != 0 {
                let var = self
                    .model
                    .model
                    .var_at(cell)
                    .ok_or(EngineError::Shape { expected: self.model.shape, found: puzzle.shape() })?;
                self.solver.assume(var, i64::from(value))?;
            }
        }
        Ok(())
    }

    /// The first solution of a puzzle of this shape, with the statistics.
    pub fn solve(&mut self, puzzle: &Grid) -> Result<(Answer, Stats), EngineError> {
        self.load(puzzle)?;
        let answer = match self.solver.solve() {
            Outcome::Solved(solution) => Answer::Solved(self.model.grid(solution.values())),
            Outcome::Unsatisfiable => Answer::Unsatisfiable,
            Outcome::LimitReached(limit) => Answer::LimitReached(limit),
        };
        Ok((answer, self.solver.stats().clone()))
    }

    /// Counts the solutions of a puzzle of this shape, stopping at `limit`.
    pub fn count(&mut self, puzzle: &Grid, limit: Option<u64>) -> Result<(Count, Stats), EngineError> {
        self.load(puzzle)?;
        let count = self.solver.count(limit);
        Ok((count, self.solver.stats().clone()))
    }
}

/// Solves a puzzle: the first solution under `config`, with the statistics.
///
/// ```
/// use csp::SolveConfig;
/// use csp_sudoku::{model::{solve, Answer}, parse};
/// let puzzle = parse::one("1.42421321.43421").unwrap();
/// let (answer, stats) = solve(&puzzle, &SolveConfig::default()).unwrap();
/// assert_eq!(answer, Answer::Solved(parse::one("1342421321343421").unwrap()));
/// assert_eq!(stats.nodes, 0, "propagation alone solves it");
/// ```
pub fn solve(puzzle: &Grid, config: &SolveConfig) -> Result<(Answer, Stats), EngineError> {
    let model = SudokuModel::unlabelled(puzzle)?;
    let mut solver = model.solver(config.clone())?;
    let answer = match solver.solve() {
        Outcome::Solved(solution) => Answer::Solved(model.grid(solution.values())),
        Outcome::Unsatisfiable => Answer::Unsatisfiable,
        Outcome::LimitReached(limit) => Answer::LimitReached(limit),
    };
    Ok((answer, solver.stats().clone()))
}

/// Counts the solutions of a puzzle, stopping at `limit` (2 answers "is it
/// unique?").
pub fn count(puzzle: &Grid, config: &SolveConfig, limit: Option<u64>) -> Result<(Count, Stats), EngineError> {
    let model = SudokuModel::unlabelled(puzzle)?;
    let mut solver = model.solver(config.clone())?;
    let count = solver.count(limit);
    Ok((count, solver.stats().clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn constraints_are_labelled_by_unit() {
        let model = SudokuModel::new(&parse::one("1.42421321343421").unwrap()).unwrap();
        let labels: Vec<_> = model.model().constraints().map(|(id, _)| model.model().describe(id)).collect();
        assert_eq!(labels.len(), 12);
        assert_eq!(labels[0], "row 1");
        assert_eq!(labels[5], "column 2");
        assert_eq!(labels[11], "box 4");
    }

    /// The engine's error is said once, in the message, and not again as the
    /// source a chain printer would add.
    #[test]
    fn engine_errors_say_their_cause_once() {
        let err = EngineError::from(ModelError::EmptyDomain { var: "x0".into() });
        assert_eq!(err.to_string(), "cannot build the model: variable x0 has an empty domain");
        assert!(std::error::Error::source(&err).is_none());
    }

    #[test]
    fn the_three_solutions_of_the_fifth_seed() {
        let puzzle = parse::one("1..2..1..1.4...1").unwrap();
        let (count, _) = count(&puzzle, &SolveConfig::default(), None).unwrap();
        assert_eq!(count.solutions, 3);
        assert!(count.is_complete());
    }

    #[test]
    fn one_shape_solver_answers_like_fresh_models() {
        let blank = SudokuModel::blank(Shape::new(2, 2).unwrap()).unwrap();
        let config = SolveConfig::default();
        let mut solver = ShapeSolver::new(&blank, config.clone()).unwrap();
        // Unique, three solutions, no solution (r1c4 must be 3 and 4), unique again.
        for line in ["1.42421321343421", "1..2..1..1.4...1", "12.....3.......4", "..3.32.....42..3"] {
            let puzzle = parse::one(line).unwrap();
            assert_eq!(solver.solve(&puzzle).unwrap().0, solve(&puzzle, &config).unwrap().0, "{line}");
            assert_eq!(solver.count(&puzzle, None).unwrap().0, count(&puzzle, &config, None).unwrap().0, "{line}");
        }
        let six = parse::one("..6..35......134.......6..1....5..64").unwrap();
        assert!(matches!(solver.solve(&six), Err(EngineError::Shape { .. })));
    }

    #[test]
    fn excluding_the_only_value_leaves_no_solution() {
        let puzzle = parse::one("1.42421321343421").unwrap();
        // r1c2 must be 3.
        let model = SudokuModel::excluding(&puzzle, 1, 3).unwrap();
        assert!(!model.solver(SolveConfig::default()).unwrap().solve().is_solved());
        let model = SudokuModel::excluding(&puzzle, 1, 2).unwrap();
        assert!(model.solver(SolveConfig::default()).unwrap().solve().is_solved());
    }
}
