//! The sudoku tool: `cargo run --release --example sudoku -- --help`.
//! Everything but the process entry point lives in `csp_examples::sudoku_app`.

fn main() -> std::process::ExitCode {
    csp_examples::sudoku_app::main()
}
