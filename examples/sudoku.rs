//! The sudoku tool: `cargo run --release --example sudoku -- --help`. The same tool as
//! the `csp-sudoku` binary (`cargo install --path crates/cli`): both run
//! [`csp_cli::sudoku::main`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::sudoku::main)
}
