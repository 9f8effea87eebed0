//! `rate`: the difficulty of every puzzle as a person would meet it: the
//! human-style solver's level, score and hardest technique, one line (or one
//! JSON record) per puzzle, and with `--stats` how many of each level.
//!
//! A rating assumes one solution (the uniqueness techniques do, and so does
//! HoDoKu's rating), so each puzzle is counted to two solutions first; a
//! puzzle with several, or none, is reported instead of rated.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use csp_sudoku::format::JsonRows;
use csp_sudoku::human::{HumanError, Level, Rating, Technique};
use csp_sudoku::parse::Puzzle;
use serde::Serialize;

use super::batch::{exit_code, push_json_line};
use super::human::{HumanTime, Use, check_steps, check_stopped, stopped, uses, wrong_steps};
use super::input::{BatchArgs, Item, Location, Sink, for_each_puzzle};
use super::solvers::with_solver;
use super::summary::{Histogram, duration_text, wall_line};
use super::{Configs, InputArgs, Io, RecordOutput};
use crate::StrategyArgs;
use crate::app::counted;

/// The long help of `rate`.
pub(super) const RATE_ABOUT: &str = "Rate the difficulty of every puzzle as a person would meet it: solve it \
    step by step with the easiest technique that makes progress, add up the techniques' scores (HoDoKu's), \
    and give the level: easy, medium, hard, unfair or extreme (the harder of the level the total reaches and \
    the level of the hardest technique; the table is in docs/sudoku.md).\n\n\
    One line per puzzle, `file:line<TAB>level<TAB>score<TAB>hardest technique`; a puzzle that cannot be \
    rated gets a line starting with '#' that says why (several solutions, none, bad input). --output json \
    gives one record per puzzle with the uses of every technique; --stats a summary on stderr.\n\n\
    On the largest grids a rating can take minutes: --timeout (5 s by default, as for explain and hint) \
    stops a puzzle's steps and says so.\n\n\
    Exit status: 0 every puzzle rated, 1 some puzzle has no solution or several, or --timeout stopped it, 2 bad \
    input or usage.";

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Examples:\n  sudoku rate puzzles.txt\n  sudoku rate ../shared/data/sudoku/top1465.txt --stats > /dev/null"
)]
pub(super) struct RateArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output: text (one line per puzzle) or json (one object per line).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    output: RecordOutput,
    #[command(flatten)]
    time: HumanTime,
    #[command(flatten)]
    batch: BatchArgs,
}

/// The rating of one puzzle, or why there is none.
enum Rated {
    Done {
        rating: Rating,
        nanos: u64,
    },
    Several,
    NoSolution,
    Bad(String),
    /// The time limit ran out (the message says after how many steps).
    Stopped(String),
    /// Steps that fail the independent check (what is wrong).
    Wrong(String),
}

fn rate_one(puzzle: &Puzzle, configs: &Configs, time: HumanTime) -> anyhow::Result<Rated> {
    let start = Instant::now();
    if let Some(conflict) = puzzle.grid.first_conflict() {
        return Ok(Rated::Bad(format!("conflicting givens: {conflict}")));
    }
    let shape = puzzle.grid.shape();
    // The count is bounded by the limit too: on a 49x49 proving one solution
    // can take the engine minutes.
    let config = configs.for_side_until(puzzle.grid.side(), Some(Instant::now() + time.limit()));
    let (count, _) = with_solver(shape, configs.units(shape), &config, |solver| solver.count(&puzzle.grid, Some(2)))??;
    match count.solutions {
        2.. => return Ok(Rated::Several),
        _ if !count.is_complete() => {
            return Ok(Rated::Stopped(check_stopped(Some(time.limit()), "counting the solutions")));
        }
        0 => return Ok(Rated::NoSolution),
        _ => {}
    }
    let rating = match time.solver(false).solve(&puzzle.grid) {
        // The rating is of steps that reach a solution of the givens (the
        // puzzle has one, so no other).
        Ok(solution) => match check_steps(&puzzle.grid, solution.end(), None) {
            Ok(()) => solution.rating(),
            Err(problem) => return Ok(Rated::Wrong(problem)),
        },
        Err(err @ HumanError::TimeLimit { .. }) => return Ok(Rated::Stopped(stopped(&err))),
        Err(err) => return Err(err.into()),
    };
    Ok(Rated::Done { rating, nanos: start.elapsed().as_nanos() as u64 })
}

/// One line of `--output json`.
#[derive(Serialize)]
struct Record<'a> {
    file: &'a str,
    line: usize,
    status: &'static str,
    #[serde(rename = "box")]
    shape: String,
    level: &'static str,
    score: u64,
    hardest: Option<&'static str>,
    steps: usize,
    uses: Vec<Use>,
    puzzle: JsonRows<'a>,
}

/// A puzzle that was not rated, in JSON.
#[derive(Serialize)]
struct Unrated<'a> {
    file: &'a str,
    line: usize,
    status: &'static str,
    message: &'a str,
}

/// What `--stats` sums up.
#[derive(Debug, Default)]
struct Summary {
    puzzles: u64,
    levels: [u64; 5],
    several: u64,
    unsatisfiable: u64,
    invalid: u64,
    stopped: u64,
    forcing_chains: u64,
    guesses: u64,
    scores: Histogram,
    times: Histogram,
}

impl Summary {
    fn render(&self, wall: Duration, jobs: u16) -> String {
        let mut out = String::new();
        let rated: u64 = self.levels.iter().sum();
        let _ = write!(
            out,
            "puzzles         {} (rated {rated}, several solutions {}, no solution {}, bad input {}",
            self.puzzles, self.several, self.unsatisfiable, self.invalid
        );
        if self.stopped > 0 {
            let _ = write!(out, ", stopped by --timeout {}", self.stopped);
        }
        out.push_str(")\n");
        let share = |count: u64| if rated == 0 { 0.0 } else { 100.0 * count as f64 / rated as f64 };
        let levels: Vec<String> = Level::ALL
            .iter()
            .zip(self.levels)
            .map(|(level, count)| format!("{level} {count} ({:.1}%)", share(count)))
            .collect();
        let _ = writeln!(out, "levels          {}", levels.join(", "));
        let _ = writeln!(
            out,
            "scores          median {}, p90 {}, max {}",
            self.scores.quantile(0.5),
            self.scores.quantile(0.9),
            self.scores.max()
        );
        let _ = writeln!(
            out,
            "last resorts    {} needed a forcing chain, {} a guess",
            counted(self.forcing_chains, "puzzle", "puzzles"),
            self.guesses
        );
        out.push_str(&wall_line(self.puzzles, wall, usize::from(jobs)));
        let _ = writeln!(
            out,
            "time per puzzle median {}, p90 {}, max {} (uniqueness check and rating)",
            duration_text(self.times.quantile(0.5)),
            duration_text(self.times.quantile(0.9)),
            duration_text(self.times.max())
        );
        out
    }
}

pub(super) fn rate(args: &RateArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let configs = Configs::new(&StrategyArgs::default());
    let started = Instant::now();
    let json = args.output == RecordOutput::Json;
    let mut summary = Summary::default();
    let totals = for_each_puzzle(
        &args.input,
        args.batch.options(),
        io,
        |puzzle| rate_one(puzzle, &configs, args.time),
        |sink, location, item| {
            summary.puzzles += 1;
            let rated = match item {
                // Already reported on stderr by the driver.
                Item::Bad(err) => {
                    summary.invalid += 1;
                    unrated(sink, json, location, "invalid", &format!("bad input: {err}"));
                    return Ok(());
                }
                Item::Done(puzzle, rated) => (puzzle, rated?),
            };
            match rated {
                (puzzle, Rated::Done { rating, nanos }) => {
                    summary.levels[Level::ALL.iter().position(|&l| l == rating.level).unwrap_or(4)] += 1;
                    summary.scores.record(rating.score);
                    summary.times.record(nanos);
                    let used = |technique| rating.uses.iter().any(|&(t, _)| t == technique);
                    summary.forcing_chains += u64::from(used(Technique::ForcingChain));
                    summary.guesses += u64::from(used(Technique::Guess));
                    write_rating(sink, json, location, puzzle, &rating);
                }
                (_, Rated::Several) => {
                    summary.several += 1;
                    unrated(sink, json, location, "several", &format!("several solutions ({location})"));
                }
                (_, Rated::NoSolution) => {
                    summary.unsatisfiable += 1;
                    unrated(sink, json, location, "unsatisfiable", &format!("no solution ({location})"));
                }
                (_, Rated::Stopped(message)) => {
                    summary.stopped += 1;
                    unrated(sink, json, location, "limit", &format!("{location}: {message}"));
                }
                (_, Rated::Bad(why)) => {
                    summary.invalid += 1;
                    let message = format!("{location}: {why}");
                    writeln!(sink.stderr, "error: {message}")?;
                    unrated(sink, json, location, "invalid", &format!("bad input: {message}"));
                }
                (_, Rated::Wrong(problem)) => return Err(wrong_steps(location, &problem)),
            }
            Ok(())
        },
    )?;
    if args.batch.stats() {
        io.stderr.write_all(summary.render(started.elapsed(), args.batch.jobs()).as_bytes())?;
    }
    Ok(exit_code(totals.bad_sources + summary.invalid, summary.several + summary.unsatisfiable + summary.stopped))
}

fn write_rating(sink: &mut Sink<'_>, json: bool, location: &Location, puzzle: &Puzzle, rating: &Rating) {
    let hardest = rating.hardest.map(Technique::name);
    if json {
        let record = Record {
            file: &location.file,
            line: location.line,
            status: "rated",
            shape: puzzle.grid.shape().to_string(),
            level: rating.level.name(),
            score: rating.score,
            hardest,
            steps: rating.steps,
            uses: uses(rating),
            puzzle: JsonRows(&puzzle.grid),
        };
        push_json_line(&mut sink.out, &record);
    } else {
        let _ = writeln!(sink.out, "{location}\t{}\t{}\t{}", rating.level, rating.score, hardest.unwrap_or("none"));
    }
}

/// A puzzle that was not rated: a `#` line, or a JSON record.
fn unrated(sink: &mut Sink<'_>, json: bool, location: &Location, status: &'static str, message: &str) {
    if json {
        push_json_line(&mut sink.out, &Unrated { file: &location.file, line: location.line, status, message });
    } else {
        let _ = writeln!(sink.out, "# {message}");
    }
}
