//! The random-CSP lab: `cargo run --release --example lab -- [sweep|one] [options]`
//! (see `--help` and docs/compare.md). The work is done by `csp_examples::lab_app`.

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let code = csp_examples::lab_app::run_in_terminal(std::env::args_os(), &mut out, &mut io::stderr());
    // A closed pipe at the last flush is not an error either.
    let _ = out.flush();
    ExitCode::from(code)
}
