//! `cargo run --release --example zebra -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::zebra`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::zebra::run)
}
