//! `cargo run --release --example futoshiki -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::futoshiki`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::futoshiki::run)
}
