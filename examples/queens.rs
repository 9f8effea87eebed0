//! N-queens: `cargo run --release --example queens -- [N] [options]` (see `--help`
//! and docs/queens.md). The work is done by `csp_examples::queens_app`.

use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let code = csp_examples::queens_app::run(std::env::args_os(), &mut out, &mut io::stderr());
    // A closed pipe at the last flush is not an error either.
    let _ = out.flush();
    ExitCode::from(code)
}
