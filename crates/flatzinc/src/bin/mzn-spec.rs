//! `mzn-spec`: see `mzn-spec --help` and [`csp_flatzinc::spec`].

fn main() -> std::process::ExitCode {
    csp_app::main(csp_flatzinc::spec::main)
}
