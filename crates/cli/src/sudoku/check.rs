//! `check`: validate filled grids.

use std::fmt::Write as _;

use csp_sudoku::check::{BrokenUnit, CheckReport, check_filled};
use serde::Serialize;

use super::batch::{exit_code, push_json_line};
use super::input::{BatchOptions, Item, Location, for_each_puzzle};
use super::{CheckArgs, Io, RecordOutput};

/// Prints `file:line: valid` or `file:line: invalid` and, indented, every
/// empty cell and broken unit (or one JSON object per grid). Exit status 1
/// when a grid is invalid.
pub(super) fn check(args: &CheckArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let mut invalid = 0u64;
    let mut bad = 0u64;
    let json = args.output == RecordOutput::Json;
    let totals = for_each_puzzle(
        &args.input,
        BatchOptions { jobs: 1, notes: args.quiet.notes() },
        io,
        |puzzle| check_filled(&puzzle.grid),
        |sink, location, item| {
            let out = &mut sink.out;
            match item {
                Item::Bad(err) => {
                    bad += 1;
                    if json {
                        let message = format!("bad input: {err}");
                        push_json_line(out, &Checked::failure(location, &message));
                    } else {
                        let _ = writeln!(out, "# bad input: {err}");
                    }
                }
                Item::Done(_, report) => {
                    invalid += u64::from(!report.is_valid());
                    if json {
                        push_json_line(out, &Checked::of(location, &report));
                    } else {
                        write_report(out, location, &report);
                    }
                }
            }
            Ok(())
        },
    )?;
    Ok(exit_code(totals.bad_sources + bad, invalid))
}

fn write_report(out: &mut String, location: &Location, report: &CheckReport) {
    if report.is_valid() {
        let _ = writeln!(out, "{location}: valid");
        return;
    }
    let _ = writeln!(out, "{location}: invalid");
    if !report.empty.is_empty() {
        let _ = write!(out, "  {} empty cell{}:", report.empty.len(), if report.empty.len() == 1 { "" } else { "s" });
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

/// One line of `check --output json`.
#[derive(Serialize)]
struct Checked<'a> {
    file: &'a str,
    line: usize,
    /// `checked`, or `invalid` for input that is not a grid (with a `message`).
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    valid: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    empty: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    broken: Option<Vec<Broken>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

/// A broken unit: what repeats, what is missing, and the text line.
#[derive(Serialize)]
struct Broken {
    unit: String,
    repeated: Vec<Repeated>,
    missing: Vec<u8>,
    text: String,
}

#[derive(Serialize)]
struct Repeated {
    value: u8,
    cells: Vec<String>,
}

impl<'a> Checked<'a> {
    fn of(location: &'a Location, report: &CheckReport) -> Checked<'a> {
        let broken = |unit: &BrokenUnit| Broken {
            unit: unit.unit.to_string(),
            repeated: unit
                .repeated
                .iter()
                .map(|(value, cells)| Repeated {
                    value: *value,
                    cells: cells.iter().map(ToString::to_string).collect(),
                })
                .collect(),
            missing: unit.missing.clone(),
            text: unit.to_string(),
        };
        Checked {
            file: &location.file,
            line: location.line,
            status: "checked",
            valid: Some(report.is_valid()),
            empty: Some(report.empty.iter().map(ToString::to_string).collect()),
            broken: Some(report.broken.iter().map(broken).collect()),
            message: None,
        }
    }

    fn failure(location: &'a Location, message: &'a str) -> Checked<'a> {
        Checked {
            file: &location.file,
            line: location.line,
            status: "invalid",
            valid: None,
            empty: None,
            broken: None,
            message: Some(message),
        }
    }
}
