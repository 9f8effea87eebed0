//! `cargo run --release --example killer_sudoku -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::killer_sudoku`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::killer_sudoku::run)
}
