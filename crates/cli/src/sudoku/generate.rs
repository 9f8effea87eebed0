//! `generate`: puzzles with a unique solution, reproducibly from a seed, with
//! a number of givens or, with `--difficulty`, rated in a level by the
//! human-style solver (`--symmetric`, `--minimal`).
//!
//! Text outputs start with `#` lines that say what was made and the command
//! that makes it again; JSON output is one record per puzzle and nothing else,
//! the same facts in its fields. What could not be reached (fewer givens, a
//! level within the attempts) is said on stderr, as a note or a warning
//! (a limit, exit status 1, is not an `error:`).

use std::fmt::Write as _;

use anyhow::Context as _;
use clap::Args;
use csp::{Limits, SolveConfig};
use csp_sudoku::check::verify_solution;
use csp_sudoku::format::{Format, JsonRows, Writer};
use csp_sudoku::generate::{Generated, unique_puzzle_with};
use csp_sudoku::grid::Grid;
use csp_sudoku::human::Level;
use csp_sudoku::human::generate::{GenerateError, GenerateOptions, RatedPuzzle, generate as rated_puzzle};
use csp_sudoku::{LARGEST_MRV_SIDE, Shape, default_config};
use rayon::prelude::*;
use serde::Serialize;

use super::batch::push_json_line;
use super::{Io, default_jobs};
use crate::app::Quiet;
use crate::{EXIT_NO_SOLUTION, EXIT_OK};

#[derive(Args, Debug, Clone)]
#[command(after_help = "Exit status: 0 every puzzle made, 1 some puzzle of the --difficulty not reached within \
    --attempts (a warning on stderr), 2 bad usage.\n\n\
    Examples:\n  sudoku generate --size 9 --count 5 --givens 26\n  \
    sudoku generate --box 2x3 --difficulty hard --symmetric --count 10\n  \
    sudoku generate --size 16 --difficulty extreme --minimal --output json\n  \
    sudoku generate --box 5x5 --minimal --count 10 --check-nodes 2000")]
// One of --size and --box is required: as a group, a usage error without
// either names both (`required_unless_present` named only --size).
#[command(group(clap::ArgGroup::new("grid").args(["size", "shape"]).required(true)))]
pub(super) struct GenerateArgs {
    /// The side of the grids (the default box shape for it), e.g. 9, 16, 20, 25.
    #[arg(long, value_name = "N", conflicts_with = "shape")]
    size: Option<usize>,
    /// The box shape ROWSxCOLS instead of --size.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<Shape>,
    /// How many puzzles.
    #[arg(long, value_name = "K", default_value_t = 1)]
    count: u64,
    /// The seed of the first puzzle; puzzle i uses seed + i.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// The givens to keep: a fraction of the cells (0.4) or a number (160) [default: 0.4].
    #[arg(long, value_name = "AMOUNT")]
    givens: Option<Givens>,
    /// Give up proving that a blank keeps the puzzle unique after this many
    /// nodes (the given then stays); keeps generation fast and reproducible [default: 2000 up to
    /// 16x16 and with --minimal, otherwise 100].
    #[arg(long = "check-nodes", value_name = "N")]
    check_nodes: Option<u64>,
    /// The search of the uniqueness proofs, in the one-line spelling of `compare --configs`
    /// (e.g. mac+learn+domwdeg+intersect); a comma-separated list is a portfolio: each proof is
    /// decided by the first that decides it, each within --check-nodes [default: with --minimal the
    /// solver's default for the side, otherwise mac+mrv+matching].
    #[arg(long = "check-config", value_name = "CONFIGS", value_delimiter = ',', value_parser = crate::report::parse_config,
        conflicts_with = "difficulty")]
    check_config: Vec<SolveConfig>,
    /// Puzzles whose rating (see `rate`) is this level: easy, medium, hard, unfair or extreme.
    #[arg(long, value_name = "LEVEL", conflicts_with_all = ["givens", "check_nodes"])]
    difficulty: Option<Level>,
    /// With --difficulty: givens symmetric under a half turn.
    #[arg(long, requires = "difficulty")]
    symmetric: bool,
    /// No given can be removed without losing uniqueness. Without --difficulty: every cell is tried
    /// (instead of --givens), the uniqueness proofs with the solver's default strategy for the side, and
    /// a given whose proof hits --check-nodes is kept and counted (the puzzle is then minimal only as
    /// far as the proofs went: said on stderr).
    #[arg(long, conflicts_with = "givens")]
    minimal: bool,
    /// With --difficulty: full grids to try per puzzle before giving up [default: 1000].
    #[arg(long, value_name = "N", requires = "difficulty", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    attempts: Option<u64>,
    /// Output format of the puzzles: line, pretty, grid or json (one record per line).
    #[arg(long, value_name = "FORMAT", default_value = "line")]
    output: Format,
    /// Generate this many puzzles in parallel (output stays in seed order) [default: the number of cores].
    // No `default_value_t`: it would show this machine's cores as the default.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
    #[command(flatten)]
    quiet: Quiet,
}

/// How many givens to keep.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Givens {
    Fraction(f64),
    Count(usize),
}

impl std::str::FromStr for Givens {
    type Err = String;

    fn from_str(text: &str) -> Result<Givens, String> {
        if let Ok(count) = text.parse::<usize>() {
            return Ok(Givens::Count(count));
        }
        match text.parse::<f64>() {
            Ok(f) if (0.0..=1.0).contains(&f) => Ok(Givens::Fraction(f)),
            _ => Err(format!("'{text}' is neither a number of givens nor a fraction between 0 and 1")),
        }
    }
}

/// What one seed gave.
enum Made {
    Plain(Generated),
    Rated(RatedPuzzle),
    /// No puzzle of the level within the attempts.
    NotReached(GenerateError),
}

impl Made {
    fn puzzle_and_solution(&self) -> Option<(&Grid, &Grid)> {
        match self {
            Made::Plain(made) => Some((&made.puzzle, &made.solution)),
            Made::Rated(made) => Some((&made.puzzle, &made.solution)),
            Made::NotReached(_) => None,
        }
    }
}

/// One line of `--output json`.
#[derive(Serialize)]
struct Record<'a> {
    #[serde(rename = "box")]
    shape: String,
    side: usize,
    seed: u64,
    givens: usize,
    rows: JsonRows<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hardest: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attempt: Option<usize>,
    /// Without --difficulty: the givens kept because their uniqueness proof
    /// hit --check-nodes (0: every given kept is proved necessary).
    #[serde(skip_serializing_if = "Option::is_none")]
    undecided: Option<usize>,
}

/// Writes `count` puzzles, puzzle `i` from seed `seed + i`, in seed order.
pub(super) fn generate(args: &GenerateArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let shape = match (args.shape, args.size) {
        (Some(shape), _) => shape,
        (None, Some(size)) => Shape::for_side(size)?,
        (None, None) => anyhow::bail!("give --size N or --box RxC"),
    };
    let cells = shape.num_cells();
    let givens = match args.givens.unwrap_or(Givens::Fraction(0.4)) {
        _ if args.minimal => 0,
        Givens::Count(count) => count.min(cells),
        Givens::Fraction(fraction) => (fraction * cells as f64).round() as usize,
    };
    // Beyond 16x16 a proof that propagation and a few guesses do not settle
    // seldom ends within 2000 nodes either, and near the end of a pass nearly
    // every proof is such a one: seed 1 kept 271 / 270 givens at 25x25 with
    // 100 / 2000 nodes (0.8 s / 10.8 s of CPU), 640 / 633 at 36x36 (2.7 s /
    // 33 s), the same 2357 at 64x64 (23 s / 303 s). --minimal asks for
    // the proofs, so it keeps the larger budget.
    let check_nodes = args.check_nodes.unwrap_or(if args.minimal || shape.side() <= 16 { 2000 } else { 100 });
    // The uniqueness checks mostly find a second solution at once or prove
    // there is none by propagation; MRV is the cheapest order for that at
    // every side (dom/wdeg pays for its variable choice at each node). Near
    // a minimal puzzle they are hard searches, where the default strategy
    // of the side (dom/wdeg and intersections beyond 16x16) decides more of
    // them within the same nodes (12 of 40 against none for MRV, at 2000
    // nodes on a 25x25 puzzle of 275 givens).
    let strategy = if args.minimal && args.difficulty.is_none() { shape.side() } else { LARGEST_MRV_SIDE };
    let checks = if args.check_config.is_empty() { vec![default_config(strategy)] } else { args.check_config.clone() };
    let limits = Limits::none().with_nodes(check_nodes);
    let configs: Vec<SolveConfig> = checks.into_iter().map(|check| SolveConfig { limits, ..check }).collect();
    let options = args.difficulty.map(|level| {
        GenerateOptions::new(level)
            .symmetric(args.symmetric)
            .minimal(args.minimal)
            .attempts(usize::try_from(args.attempts.unwrap_or(1000)).unwrap_or(usize::MAX))
    });
    if args.output != Format::Json {
        io.stdout.write_all(header(args, shape, givens, check_nodes, options.as_ref()).as_bytes())?;
    }
    let jobs = args.jobs.unwrap_or_else(default_jobs);
    let pool =
        rayon::ThreadPoolBuilder::new().num_threads(usize::from(jobs)).build().context("cannot start threads")?;
    let mut writer = Writer::new(args.output);
    let mut shortfall = Shortfall::default();
    let mut missing = 0u64;
    let chunk = u64::from(jobs) * 2;
    let mut next = 0u64;
    while next < args.count {
        let end = (next + chunk).min(args.count);
        let made: Vec<anyhow::Result<Made>> = pool.install(|| {
            (next..end)
                .into_par_iter()
                .map(|i| {
                    let seed = args.seed.wrapping_add(i);
                    Ok(match &options {
                        None => Made::Plain(unique_puzzle_with(shape, seed, givens, &configs)?),
                        Some(options) => match rated_puzzle(shape, &options.clone().seed(seed)) {
                            Ok(made) => Made::Rated(made),
                            Err(err @ GenerateError::NotReached { .. }) => Made::NotReached(err),
                            Err(err) => return Err(err.into()),
                        },
                    })
                })
                .collect()
        });
        let mut out = String::new();
        for (i, made) in (next..end).zip(made) {
            let seed = args.seed.wrapping_add(i);
            let made = made?;
            if let Some((puzzle, solution)) = made.puzzle_and_solution() {
                // The generators prove uniqueness as they go; check the pair anyway.
                verify_solution(puzzle, solution)
                    .context("internal error: a generated puzzle does not match its solution")?;
            }
            match &made {
                Made::NotReached(err) => {
                    missing += 1;
                    // A limit, not bad input (exit status 1): a warning, which -q leaves out.
                    if args.quiet.notes() {
                        writeln!(io.stderr, "warning: seed {seed}: {err} (--attempts)")?;
                    }
                }
                Made::Plain(made) => {
                    shortfall.record(made, givens);
                    write_puzzle(&mut writer, &mut out, &made.puzzle, seed, Origin::Plain(made.unproved));
                    if args.minimal && made.unproved > 0 && writer.format() != Format::Json {
                        let _ = writeln!(
                            out,
                            "# seed {seed}: not proved minimal: {} givens undecided at --check-nodes {check_nodes}",
                            made.unproved
                        );
                    }
                }
                Made::Rated(made) => write_puzzle(&mut writer, &mut out, &made.puzzle, seed, Origin::Rated(made)),
            }
        }
        io.stdout.write_all(out.as_bytes())?;
        io.stdout.flush()?;
        next = end;
    }
    let note = if args.minimal && args.difficulty.is_none() {
        shortfall.minimal_note(args.count, check_nodes)
    } else {
        shortfall.note(args.count, givens, check_nodes)
    };
    if let (true, Some(note)) = (args.quiet.notes(), note) {
        writeln!(io.stderr, "note: {note}")?;
    }
    Ok(if missing > 0 { EXIT_NO_SOLUTION } else { EXIT_OK })
}

/// The `#` lines that start a text output: what was made, and the command
/// that makes it again.
fn header(
    args: &GenerateArgs,
    shape: Shape,
    givens: usize,
    check_nodes: u64,
    options: Option<&GenerateOptions>,
) -> String {
    let n = shape.side();
    let puzzles =
        if args.count == 1 { "1 generated puzzle".to_string() } else { format!("{} generated puzzles", args.count) };
    let check = if args.check_config.is_empty() {
        String::new()
    } else {
        let configs: Vec<String> = args.check_config.iter().map(ToString::to_string).collect();
        format!(" --check-config {}", configs.join(","))
    };
    let mut out = String::new();
    match options {
        None if args.minimal => {
            let _ = writeln!(
                out,
                "# {puzzles}, {n}x{n} with {shape} boxes, minimal (proved, unless a 'not proved minimal' line \
                 follows), unique solutions"
            );
            let _ = writeln!(
                out,
                "# sudoku generate --box {shape} --count {} --seed {} --minimal --check-nodes {check_nodes}{check}",
                args.count, args.seed
            );
        }
        None => {
            let _ = writeln!(out, "# {puzzles}, {n}x{n} with {shape} boxes, {givens} givens wanted, unique solutions");
            let _ = writeln!(
                out,
                "# sudoku generate --box {shape} --count {} --seed {} --givens {givens} --check-nodes {check_nodes}{check}",
                args.count, args.seed
            );
        }
        Some(options) => {
            let mut flags = String::new();
            if options.symmetric {
                flags.push_str(" --symmetric");
            }
            if options.minimal {
                flags.push_str(" --minimal");
            }
            let _ = writeln!(
                out,
                "# {puzzles}, {n}x{n} with {shape} boxes, rated {}{}{}, unique solutions",
                options.level,
                if options.symmetric { ", symmetric" } else { "" },
                if options.minimal { ", minimal" } else { "" }
            );
            let _ = writeln!(
                out,
                "# sudoku generate --box {shape} --count {} --seed {} --difficulty {}{flags} --attempts {}",
                args.count, args.seed, options.level, options.attempts
            );
        }
    }
    out
}

/// How a written puzzle was made: by blanking cells (with the number of
/// givens kept because their proof hit the node limit) or rated.
#[derive(Clone, Copy)]
enum Origin<'a> {
    Plain(usize),
    Rated(&'a RatedPuzzle),
}

fn write_puzzle(writer: &mut Writer, out: &mut String, puzzle: &Grid, seed: u64, origin: Origin<'_>) {
    let (rated, undecided) = match origin {
        Origin::Plain(undecided) => (None, Some(undecided)),
        Origin::Rated(made) => (Some(made), None),
    };
    match writer.format() {
        Format::Json => {
            let record = Record {
                shape: puzzle.shape().to_string(),
                side: puzzle.side(),
                seed,
                givens: puzzle.num_givens(),
                rows: JsonRows(puzzle),
                level: rated.map(|made| made.rating.level.name()),
                score: rated.map(|made| made.rating.score),
                hardest: rated.and_then(|made| made.rating.hardest).map(|technique| technique.name()),
                attempt: rated.map(|made| made.attempt),
                undecided,
            };
            push_json_line(out, &record);
        }
        Format::Line => writer.write(puzzle, out),
        Format::Pretty | Format::Grid => {
            writer.write(puzzle, out);
            out.push('\n');
        }
    }
}

/// Puzzles that kept more givens than asked, and why.
#[derive(Debug, Default)]
struct Shortfall {
    puzzles: u64,
    fewest: usize,
    most: usize,
    /// Blanks undone because the uniqueness proof hit `--check-nodes`.
    unproved: usize,
    /// Puzzles with such a blank.
    undecided: u64,
}

impl Shortfall {
    fn record(&mut self, made: &Generated, wanted: usize) {
        self.undecided += u64::from(made.unproved > 0);
        let kept = made.puzzle.num_givens();
        if kept > wanted {
            self.fewest = if self.puzzles == 0 { kept } else { self.fewest.min(kept) };
            self.most = self.most.max(kept);
            self.puzzles += 1;
            self.unproved += made.unproved;
        }
    }

    /// What to say on stderr after `--minimal` without `--difficulty`, if
    /// anything: the puzzles whose minimality a proof left undecided.
    fn minimal_note(&self, count: u64, check_nodes: u64) -> Option<String> {
        (self.unproved > 0).then(|| {
            format!(
                "{} of {count} puzzles may not be minimal: proving {} blanks unique took more than --check-nodes \
                 {check_nodes} nodes, and their givens stayed (a larger --check-nodes may remove more)",
                self.undecided, self.unproved,
            )
        })
    }

    /// What to say on stderr, if anything.
    fn note(&self, count: u64, wanted: usize, check_nodes: u64) -> Option<String> {
        if self.puzzles == 0 {
            return None;
        }
        let kept = if self.fewest == self.most {
            self.fewest.to_string()
        } else {
            format!("{} to {}", self.fewest, self.most)
        };
        let which = if count == 1 {
            "the puzzle kept".to_string()
        } else {
            format!("{} of {count} puzzles kept", self.puzzles)
        };
        let mut note = format!(
            "{which} {kept} givens, not the {wanted} wanted: removing any other given would have made the solution not unique"
        );
        if self.unproved > 0 {
            let _ = write!(
                note,
                ", or proving it unique took more than --check-nodes {check_nodes} nodes ({} time{}; a larger \
                 --check-nodes may remove more)",
                self.unproved,
                if self.unproved == 1 { "" } else { "s" }
            );
        }
        Some(note)
    }
}
