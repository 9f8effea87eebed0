//! Generalized sudoku on the [`csp`] engine: any box shape `R x C` (side
//! `n = R * C`, from 4x4 to 64x64), parsers for the usual file layouts,
//! formatters, the constraint model, an engine-free checker and a generator of
//! puzzles with unique solutions.
//!
//! ```
//! use csp::SolveConfig;
//! use csp_sudoku::{check, format, model, parse};
//!
//! // A 6x6 puzzle with boxes of 2 rows by 3 columns, in the line format.
//! let puzzle = parse::one("..6..35......134.......6..1....5..64").unwrap();
//! assert_eq!(puzzle.shape().to_string(), "2x3");
//! let (answer, _stats) = model::solve(&puzzle, &SolveConfig::default()).unwrap();
//! let model::Answer::Solved(solution) = answer else { panic!("it has a solution") };
//! check::verify_solution(&puzzle, &solution).unwrap();
//! println!("{}", format::pretty(&solution));
//! ```
//!
//! The modules:
//!
//! - [`grid`]: [`Shape`] (the boxes, hence the side), [`Grid`], cells and units.
//! - [`parse`]: a streaming [`PuzzleReader`] for the line, grid and Project
//!   Euler layouts, with typed errors that say file, line and column.
//! - [`format`](mod@format): pretty, line, grid and JSON output.
//! - [`model`]: the `csp` model (one variable per cell, a labelled
//!   `all_different` per unit), [`model::solve`] and [`model::count`], and
//!   [`default_config`], the configuration the tool uses for each side
//!   ([`learning_config`] with `--learn`).
//! - [`bands`]: [`bands::Grid9`], a whole 9x9 grid as one constraint whose
//!   propagator works on per-value bit boards ([`model::Units::Bands`]; the
//!   tool solves and counts 9x9 grids of 3x3 boxes so, [`model::Units::fastest`]).
//! - [`fish`]: [`fish::Fish`], the rows and columns as one constraint whose
//!   propagator finds every fish (X-wing, swordfish, ...) by a matching per
//!   digit ([`model::Units::Fish`], the tool's opt-in `--fish`).
//! - [`check`]: validation of filled grids and verification of solutions,
//!   independent of the engine.
//! - [`generate`]: random full grids and puzzles with a unique solution,
//!   reproducible from a seed, and puzzles of a chosen difficulty.
//! - [`human`]: solving like a person: pencil marks, techniques from singles
//!   to chains, explained steps, hints and a difficulty rating.

pub mod bands;
pub mod check;
pub mod fish;
pub mod format;
pub mod generate;
pub mod grid;
pub mod human;
pub mod model;
pub mod parse;

pub use grid::{Grid, MAX_SIDE, Shape, ShapeError, Unit};
pub use model::{LARGEST_MRV_SIDE, default_config, learning_config};
pub use parse::{ParseError, PuzzleReader};
