//! `cargo run --release --example map_coloring -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::map_coloring`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::map_coloring::run)
}
