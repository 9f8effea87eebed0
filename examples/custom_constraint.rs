//! `cargo run --release --example custom_constraint -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::custom_constraint`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::custom_constraint::run)
}
