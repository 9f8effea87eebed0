//! `csp-sudoku`: see `csp-sudoku --help` and [`csp_cli::sudoku`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::sudoku::main)
}
