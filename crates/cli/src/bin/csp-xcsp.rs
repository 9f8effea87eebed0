//! `csp-xcsp`: see `csp-xcsp --help` and [`csp_cli::xcsp`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::xcsp::main)
}
