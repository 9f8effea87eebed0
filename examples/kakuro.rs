//! `cargo run --release --example kakuro -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::kakuro`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::kakuro::run)
}
