//! `cargo run --release --example magic_square -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::magic_square`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::magic_square::run)
}
