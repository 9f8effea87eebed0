//! `cargo run --release --example send_more_money -- --help` lists the options; the tool itself
//! is [`csp_examples::gallery::send_more_money`].

fn main() -> std::process::ExitCode {
    csp_examples::gallery::main(csp_examples::gallery::send_more_money::run)
}
