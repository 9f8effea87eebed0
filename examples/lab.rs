//! The random-CSP lab: `cargo run --release --example lab -- --help`. The same tool as
//! the `csp-lab` binary (`cargo install --path crates/cli`): both run
//! [`csp_cli::lab::main`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::lab::main)
}
