//! `fzn-csp`: see `fzn-csp --help` and [`csp_flatzinc::tool`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_flatzinc::tool::main)
}
