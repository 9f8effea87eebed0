//! `csp-xcsp`: see `csp-xcsp --help` and [`csp_xcsp3::tool`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_xcsp3::tool::main)
}
