//! `fzn-csp`: see `fzn-csp --help` and [`csp_flatzinc::tool`].

fn main() -> std::process::ExitCode {
    csp_app::main(csp_flatzinc::tool::main)
}
