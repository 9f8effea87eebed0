//! `check`: validate filled grids.

use std::fmt::Write as _;

use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK};
use csp_sudoku::check::check_filled;

use super::input::{Item, for_each_puzzle};
use super::{CheckArgs, Io};

/// Prints `file:line: valid` or `file:line: invalid` and, indented, every
/// empty cell and broken unit. Exit status 1 when a grid is invalid.
pub(super) fn check(args: &CheckArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let mut invalid = 0u64;
    let mut bad = 0u64;
    let totals = for_each_puzzle(
        &args.input,
        1,
        io,
        |puzzle| check_filled(&puzzle.grid),
        |sink, location, item| {
            let out = &mut sink.out;
            match item {
                Item::Bad(err) => {
                    bad += 1;
                    let _ = writeln!(out, "# bad input: {err}");
                }
                Item::Done(_, report) if report.is_valid() => {
                    let _ = writeln!(out, "{location}: valid");
                }
                Item::Done(_, report) => {
                    invalid += 1;
                    let _ = writeln!(out, "{location}: invalid");
                    if !report.empty.is_empty() {
                        let _ = write!(
                            out,
                            "  {} empty cell{}:",
                            report.empty.len(),
                            if report.empty.len() == 1 { "" } else { "s" }
                        );
                        for cell in report.empty.iter().take(10) {
                            let _ = write!(out, " {cell}");
                        }
                        if report.empty.len() > 10 {
                            out.push_str(" ...");
                        }
                        out.push('\n');
                    }
                    for unit in &report.broken {
                        let _ = writeln!(out, "  {unit}");
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok(if totals.bad_sources + bad > 0 {
        EXIT_BAD_INPUT
    } else if invalid > 0 {
        EXIT_NO_SOLUTION
    } else {
        EXIT_OK
    })
}
