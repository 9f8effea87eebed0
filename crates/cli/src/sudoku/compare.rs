//! `compare`: every puzzle of the input under several solver configurations,
//! side by side, through the shared [`crate::report`] module.
//!
//! Each puzzle gets its own model (the givens as one-value domains, as in
//! [`SudokuModel::unlabelled`]) rather than the shared solver of `solve`, so
//! that every configuration starts from the same state. The table sums the
//! puzzles; the JSON output also has every puzzle's own measurements.

use crate::EXIT_BAD_INPUT;
use clap::Args;
use csp::Model;
use csp_sudoku::model::{SudokuModel, Units};

use super::input::{BatchOptions, Item, for_each_puzzle};
use super::{InputArgs, Io};
use crate::report::{CompareArgs, run_comparison};

/// The configurations compared when `--configs` is not given: forward
/// checking and its backjumping twin, then maintained arc consistency with
/// pairwise and matching all-different (the tool's default) and with dom/wdeg.
/// Plain backtracking is left out: it needs millions of nodes on hard 9x9
/// puzzles (give `--configs bt+input,...` to see it).
pub const DEFAULT_CONFIGS: &str = "fc+mrv,fc-cbj+mrv,mac+mrv+pairwise,mac+mrv,mac+domwdeg";

/// The long help of the `compare` subcommand.
pub(super) const COMPARE_ABOUT: &str = "Compare solver configurations on every puzzle of the files (or of stdin; without a file and \
        with a terminal or nothing on stdin, the built-in example): nodes, backtracks, checks, propagations, pruned values \
        and time per configuration, summed over the puzzles, as an aligned table (default), CSV, JSON (with \
        every puzzle's own numbers) or Markdown, and with --plot an SVG bar chart of nodes and time (log \
        scale). Each puzzle is solved from its own model, the givens as one-value domains.\n\n\
        The goal is `first` (the first solution of each puzzle) unless --goal says otherwise; `--goal count` \
        proves uniqueness too. Every configuration must find the same answer on every puzzle; a disagreement \
        is a bug: it is printed on stderr, no table is printed (CSV records stop before the disagreeing run), \
        and the exit status is 1.";

/// The arguments of `sudoku compare`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Exit status: 0 the table was printed, 1 two configurations disagreed (a bug), 2 bad input or \
        usage (an unreadable puzzle or conflicting givens: nothing is compared).\n\n\
        Example:\n  sudoku compare top95.txt --configs fc+mrv,mac+mrv+pairwise,mac+mrv --plot top95.svg",
    mut_arg("configs", |arg| arg.default_value(DEFAULT_CONFIGS)),
)]
pub(super) struct CompareCmdArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    compare: CompareArgs,
    /// Also state the dual viewpoint of rows and columns in every puzzle's model: per row the column of each
    /// digit, channelled to the row's cells, and per digit an all-different of its columns (the pruning of
    /// --fish, stated with the engine's constraints).
    #[arg(long)]
    dual: bool,
    /// Also propagate fish in every puzzle's model (as `solve --fish`).
    #[arg(long, conflicts_with = "dual")]
    fish: bool,
}

/// Reads every puzzle, then compares the configurations on all of them and
/// returns the exit status. Nothing is compared if a puzzle cannot be read or
/// has conflicting givens.
pub(super) fn compare(args: &CompareCmdArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let units = match (args.fish, args.dual) {
        (true, _) => Units::Fish,
        (_, true) => Units::Dual,
        _ => Units::AllDifferents,
    };
    let mut instances: Vec<(String, SudokuModel)> = Vec::new();
    let mut refused = 0u64;
    let totals = for_each_puzzle(
        &args.input,
        BatchOptions { jobs: 1, notes: args.compare.quiet.notes() },
        io,
        |puzzle| match puzzle.grid.first_conflict() {
            Some(conflict) => Err(format!("conflicting givens: {conflict}")),
            None => SudokuModel::unlabelled_with(&puzzle.grid, units).map_err(|err| err.to_string()),
        },
        |sink, location, item| {
            match item {
                // Already reported on stderr by the driver.
                Item::Bad(_) => {}
                Item::Done(_, Ok(model)) => instances.push((location.to_string(), model)),
                Item::Done(_, Err(problem)) => {
                    refused += 1;
                    writeln!(sink.stderr, "error: {location}: {problem}")?;
                }
            }
            Ok(())
        },
    )?;
    let bad = totals.bad_sources + totals.bad_puzzles + refused;
    if bad > 0 {
        writeln!(
            io.stderr,
            "error: {bad} bad input{} (see above): nothing was compared",
            if bad == 1 { "" } else { "s" }
        )?;
        return Ok(EXIT_BAD_INPUT);
    }
    let refs: Vec<(&str, &Model)> = instances.iter().map(|(name, model)| (name.as_str(), model.model())).collect();
    run_comparison(&refs, &args.compare, io.stdout, io.stderr)
}
