//! N-queens: `cargo run --release --example queens -- --help`. The same tool as
//! the `csp-queens` binary (`cargo install --path crates/cli`): both run
//! [`csp_cli::queens::main`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::queens::main)
}
