//! `csp-queens`: see `csp-queens --help` and [`csp_cli::queens`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_cli::queens::main)
}
