//! `check` (validate filled grids) and `generate` (puzzles with a unique
//! solution).

use std::fmt::Write as _;

use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK};
use anyhow::Context as _;
use csp::{Limits, SolveConfig};
use csp_sudoku::Shape;
use csp_sudoku::check::{check_filled, verify_solution};
use csp_sudoku::generate::unique_puzzle;
use rayon::prelude::*;

use super::input::{Item, for_each_puzzle};
use csp_sudoku::{LARGEST_MRV_SIDE, default_config};

use super::{CheckArgs, GenerateArgs, Givens, Io};

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

/// Writes `count` puzzles with a unique solution, puzzle `i` from seed
/// `seed + i`, after a comment line with the command that reproduces them.
pub(super) fn generate(args: &GenerateArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let shape = match (args.shape, args.size) {
        (Some(shape), _) => shape,
        (None, Some(size)) => Shape::for_side(size)?,
        (None, None) => anyhow::bail!("give --size N or --box RxC"),
    };
    let cells = shape.num_cells();
    let givens = match args.givens {
        Givens::Count(count) => count.min(cells),
        Givens::Fraction(fraction) => (fraction * cells as f64).round() as usize,
    };
    // The uniqueness checks mostly find a second solution at once or prove
    // there is none by propagation; MRV is the cheapest order for that at
    // every side (dom/wdeg pays for its variable choice at each node).
    let config = SolveConfig {
        limits: Limits { nodes: Some(args.check_nodes), ..Limits::default() },
        ..default_config(LARGEST_MRV_SIDE)
    };
    let mut header = format!(
        "# {} generated puzzles, {}x{} with {shape} boxes, {givens} givens wanted, unique solutions\n",
        args.count,
        shape.side(),
        shape.side()
    );
    let _ = writeln!(
        header,
        "# sudoku generate --box {shape} --count {} --seed {} --givens {givens} --check-nodes {}",
        args.count, args.seed, args.check_nodes
    );
    io.stdout.write_all(header.as_bytes())?;
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(usize::from(args.jobs)).build().context("cannot start threads")?;
    let chunk = u64::from(args.jobs) * 2;
    let mut next = 0u64;
    while next < args.count {
        let end = (next + chunk).min(args.count);
        let made: Vec<_> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map(|i| unique_puzzle(shape, args.seed.wrapping_add(i), givens, &config))
                .collect()
        });
        let mut out = String::new();
        for generated in made {
            let generated = generated?;
            // The generator proves uniqueness as it goes; check the pair anyway.
            verify_solution(&generated.puzzle, &generated.solution)
                .context("internal error: a generated puzzle does not match its solution")?;
            args.output.write(&generated.puzzle, &mut out);
            if matches!(args.output, csp_sudoku::format::Format::Pretty | csp_sudoku::format::Format::Grid) {
                out.push('\n');
            }
        }
        io.stdout.write_all(out.as_bytes())?;
        io.stdout.flush()?;
        next = end;
    }
    Ok(EXIT_OK)
}
