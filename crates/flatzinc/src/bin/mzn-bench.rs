//! `mzn-bench`: see `mzn-bench --help` and [`csp_flatzinc::bench`].

fn main() -> std::process::ExitCode {
    csp_app::main(csp_flatzinc::bench::main)
}
