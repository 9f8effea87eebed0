//! The command-line tools of the csp workspace, as a library so that tests run
//! them in-process: the sudoku tool ([`sudoku`]), N-queens ([`queens`]), the
//! random-CSP lab ([`lab`]), the XCSP3 solver ([`xcsp`]), the comparison
//! reports they share ([`report`]) and the model files they compare
//! ([`model_file`]: XCSP3 and FlatZinc, through the front-end libraries), and
//! the plumbing of the puzzle gallery in `examples/` ([`gallery`]);
//! [`documented`] runs the commands of the documentation, for the tests.
//!
//! The binaries `csp-sudoku`, `csp-queens`, `csp-lab` and `csp-xcsp` (`src/bin/`) and the
//! examples `sudoku`, `queens` and `lab` are one line each: they hand the
//! tool's function to [`app::main`], which owns the standard streams, usage
//! errors, broken pipes and exit codes for every tool alike. Install them with
//! `cargo install --path crates/cli`.
//!
//! Every tool spells the strategy options the same way ([`StrategyArgs`]) and
//! keeps the same conventions ([`app`]): one exit-code rule ([`EXIT_OK`] (0)
//! solved or counted at least one, [`EXIT_NO_SOLUTION`] (1) no solution, a
//! count of zero or a limit reached, [`EXIT_BAD_INPUT`] (2) bad input or
//! usage), results alone on stdout, `--version`, shell completions and a
//! manual page, `-q`/`-v`, colour and cursor movement only where
//! [`app::Terminal`] allows them.

pub mod documented;
pub mod gallery;
pub mod lab;
pub mod model_file;
pub mod queens;
pub mod report;
mod strategy;
pub mod sudoku;
pub mod xcsp;

pub use app::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, Io};
/// The one wrapper of every tool (its own crate, `csp-app`, so that the front
/// ends' tools use it without depending on this crate).
pub use csp_app as app;
pub use strategy::{StrategyArgs, parse_seconds};
