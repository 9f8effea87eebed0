//! The tools end to end: each run in-process through `csp_cli::app::run`, and
//! as the real installed binaries (`csp-sudoku`, `csp-queens`, `csp-lab`, found
//! through `CARGO_BIN_EXE_*`).

mod common;
mod conventions;
mod lab;
mod model_files;
mod queens;
mod sudoku;
mod sudoku_enthusiast;
mod sudoku_findings;
mod sudoku_human;
mod sudoku_leftovers;
mod xcsp;
