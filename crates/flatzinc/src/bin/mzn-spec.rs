//! `mzn-spec`: see `mzn-spec --help` and [`csp_flatzinc::spec`].

fn main() -> std::process::ExitCode {
    csp_cli::app::main(csp_flatzinc::spec::main)
}
