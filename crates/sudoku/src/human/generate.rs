//! Puzzles of a chosen difficulty.
//!
//! Each attempt takes a random full grid ([`crate::generate::full_grid`]) and
//! blanks cells in random order (in pairs opposite through the centre with
//! [`GenerateOptions::symmetric`]), keeping a blank only when the puzzle stays
//! unique. Uniqueness is proved, never assumed: blanking a cell whose digit is
//! `v` keeps the puzzle unique exactly when the puzzle with that cell allowed
//! every digit but `v` has no solution, one search per cell, and a search
//! stopped by the node limit keeps the given.
//!
//! Without [`GenerateOptions::minimal`], a blank that would make the rating
//! harder than the level asked for is undone too, so the blanking homes in on
//! the level from below; the attempt succeeds when the finished puzzle rates
//! exactly that level. With `minimal`, every blank that keeps the puzzle
//! unique is kept (no given can then be removed), and the attempt succeeds
//! when the minimal puzzle happens to rate the level. After
//! [`GenerateOptions::attempts`] failures the answer is
//! [`GenerateError::NotReached`]: a 4x4 has no puzzle beyond easy, and the
//! rarer levels of a shape may need more attempts than the budget.

use csp::rng::Rng;
use csp::{Limits, SolveConfig};

use super::{HumanError, HumanSolver, Level, Rating};
use crate::generate::{Proofs, full_grid};
use crate::grid::{Grid, Shape};
use crate::model::{EngineError, SudokuModel};

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateOptions {
    /// The level the puzzle must rate.
    pub level: Level,
    /// Givens symmetric under a half turn (cell `i` and cell `n*n - 1 - i`).
    pub symmetric: bool,
    /// No given can be removed without losing uniqueness.
    pub minimal: bool,
    /// The seed: the same options and seed give the same puzzle.
    pub seed: u64,
    /// How many full grids to try before giving up.
    pub attempts: usize,
}

impl GenerateOptions {
    /// A puzzle of `level`, not symmetric, not necessarily minimal, seed 0,
    /// 1000 attempts (the rarest levels of a 6x6 take a few hundred; an attempt
    /// costs about a millisecond at 6x6, 40 at 9x9, seconds at 16x16).
    pub fn new(level: Level) -> GenerateOptions {
        GenerateOptions { level, symmetric: false, minimal: false, seed: 0, attempts: 1000 }
    }

    /// With givens symmetric under a half turn.
    pub fn symmetric(mut self, symmetric: bool) -> GenerateOptions {
        self.symmetric = symmetric;
        self
    }

    /// Minimal: no given can be removed.
    pub fn minimal(mut self, minimal: bool) -> GenerateOptions {
        self.minimal = minimal;
        self
    }

    /// With this seed.
    pub fn seed(mut self, seed: u64) -> GenerateOptions {
        self.seed = seed;
        self
    }

    /// With this attempt budget (at least 1).
    pub fn attempts(mut self, attempts: usize) -> GenerateOptions {
        self.attempts = attempts.max(1);
        self
    }
}

/// A generated puzzle with its solution and rating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedPuzzle {
    /// The puzzle.
    pub puzzle: Grid,
    /// Its only solution.
    pub solution: Grid,
    /// Its rating, in the level asked for.
    pub rating: Rating,
    /// The attempt that succeeded, from 1.
    pub attempt: usize,
}

/// Why no puzzle came out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The engine failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The human solver failed.
    #[error(transparent)]
    Human(#[from] HumanError),
    /// No attempt rated the level.
    #[error(
        "no {level} puzzle with {shape} boxes in {attempts} attempts (the levels reached: {reached}); {shape} grids may not reach {level}, or need more attempts"
    )]
    NotReached {
        /// The shape.
        shape: Shape,
        /// The level asked for.
        level: Level,
        /// The attempts made.
        attempts: usize,
        /// The levels the attempts did reach, e.g. `easy x200`.
        reached: String,
    },
}

/// A unique puzzle with `shape` boxes rating `options.level`.
///
/// ```
/// use csp_sudoku::human::generate::{generate, GenerateOptions};
/// use csp_sudoku::human::Level;
/// use csp_sudoku::Shape;
///
/// let shape = Shape::new(2, 3).unwrap();
/// let made = generate(shape, &GenerateOptions::new(Level::Easy).seed(7)).unwrap();
/// assert_eq!(made.rating.level, Level::Easy);
/// // A 4x4 never needs more than singles.
/// let tiny = Shape::new(2, 2).unwrap();
/// assert!(generate(tiny, &GenerateOptions::new(Level::Extreme).attempts(5)).is_err());
/// ```
pub fn generate(shape: Shape, options: &GenerateOptions) -> Result<RatedPuzzle, GenerateError> {
    let mut rng = Rng::new(options.seed ^ 0x005E_ED0F_D1FF);
    let mut reached = [0usize; 5];
    let solver = HumanSolver::new();
    let n2 = shape.num_cells() as u64;
    let config = SolveConfig::default().with_limits(Limits::none().with_nodes(20 * n2));
    let blank = SudokuModel::blank(shape)?;
    let mut proofs = Proofs::new(&blank, &[config])?;
    for attempt in 1..=options.attempts.max(1) {
        let solution = full_grid(shape, rng.next_u64())?;
        let puzzle = dig(&solution, options, &solver, &mut proofs, &mut rng)?;
        let rating = solver.solve(&puzzle)?.rating();
        if rating.level == options.level {
            return Ok(RatedPuzzle { puzzle, solution, rating, attempt });
        }
        reached[Level::ALL.iter().position(|&l| l == rating.level).unwrap_or(0)] += 1;
    }
    let reached: Vec<String> = Level::ALL
        .iter()
        .zip(reached)
        .filter(|&(_, count)| count > 0)
        .map(|(level, count)| format!("{level} x{count}"))
        .collect();
    Err(GenerateError::NotReached {
        shape,
        level: options.level,
        attempts: options.attempts.max(1),
        reached: reached.join(", "),
    })
}

/// Blanks the cells of a full grid in random order, keeping each blank that
/// leaves the puzzle unique (and, unless minimal, not harder than the level).
fn dig(
    solution: &Grid,
    options: &GenerateOptions,
    solver: &HumanSolver,
    proofs: &mut Proofs<'_>,
    rng: &mut Rng,
) -> Result<Grid, GenerateError> {
    let cells = solution.cells().len();
    let mut order: Vec<usize> = (0..cells).collect();
    rng.shuffle(&mut order);
    let mut puzzle = solution.clone();
    let mut done = vec![false; cells];
    for cell in order {
        if done[cell] {
            continue;
        }
        let mut orbit = vec![cell];
        if options.symmetric && cells - 1 - cell != cell {
            orbit.push(cells - 1 - cell);
        }
        for &c in &orbit {
            done[c] = true;
            puzzle.set(c, 0);
        }
        let mut keep = true;
        for &c in &orbit {
            if proofs.second_solution(&puzzle, c, solution.cells()[c])? != Some(false) {
                keep = false;
                break;
            }
        }
        if keep && !options.minimal {
            keep = solver.solve(&puzzle)?.rating().level <= options.level;
        }
        if !keep {
            for &c in &orbit {
                puzzle.set(c, solution.cells()[c]);
            }
        }
    }
    Ok(puzzle)
}

/// Whether no given of `puzzle` can be removed without losing uniqueness
/// (`solution` is its only solution).
pub fn is_minimal(puzzle: &Grid, solution: &Grid) -> Result<bool, EngineError> {
    let blank = SudokuModel::blank(puzzle.shape())?;
    let mut proofs = Proofs::new(&blank, &[SolveConfig::default()])?;
    let mut trial = puzzle.clone();
    for cell in 0..puzzle.cells().len() {
        let value = puzzle.cells()[cell];
        if value == 0 {
            continue;
        }
        trial.set(cell, 0);
        let unique = proofs.second_solution(&trial, cell, solution.cells()[cell])? == Some(false);
        trial.set(cell, value);
        if unique {
            return Ok(false);
        }
    }
    Ok(true)
}
