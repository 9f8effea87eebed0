//! `csp-lab`: see `csp-lab --help` and [`csp_cli::lab`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::lab::main)
}
