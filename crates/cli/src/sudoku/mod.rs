//! The `sudoku` tool: solve, count, trace, check and generate generalized
//! sudoku puzzles (any box shape) with the csp engine.
//!
//! `cargo run --release --example sudoku -- solve puzzles.txt --output line --stats`
//!
//! The binary `csp-sudoku` and the example `sudoku` both hand [`main`] to
//! [`crate::app::main`]; tests run it in-process with [`crate::app::run`] and
//! their own stdin, stdout and stderr.

mod animate;
mod batch;
mod check;
pub mod compare;
mod generate;
mod human;
mod input;
mod rate;
mod screen;
mod solvers;
mod summary;
mod trace;

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Instant;

use crate::app::ColorChoice;
use crate::app::Quiet;
use crate::{Io, StrategyArgs};
use clap::{Args, Parser, Subcommand};
use csp::SolveConfig;
use csp_sudoku::format::Format;
use csp_sudoku::model::Units;
use csp_sudoku::parse::Notation;
use csp_sudoku::{LARGEST_MRV_SIDE, Shape, default_config, learning_config};
use input::BatchArgs;

/// The configurations of a run: the defaults for small and large sides with
/// the command line's strategy options applied to both, and whether 9x9
/// grids of 3x3 boxes are solved with the band propagator (`solve` and
/// `count` by default, see [`BandsArgs`]).
#[derive(Clone, Debug)]
struct Configs {
    small: SolveConfig,
    large: SolveConfig,
    bands: bool,
    /// The statement of the units on grids the band propagator does not take.
    units: Units,
    /// The workers of a per-puzzle portfolio (`solve --portfolio N`; 1: none).
    portfolio: usize,
    /// The configurations with learning switched (`--learn` on or off),
    /// small and large: a portfolio's second worker.
    switched: Option<Box<(SolveConfig, SolveConfig)>>,
    /// Whether the portfolio's learning workers share their short learnt
    /// nogoods (`solve --share`).
    share: bool,
}

impl Configs {
    fn new(strategy: &StrategyArgs) -> Configs {
        // `--learn` starts from the learning configuration of the side.
        let base = |side| if strategy.learn { learning_config(side) } else { default_config(side) };
        Configs {
            small: strategy.config(&base(LARGEST_MRV_SIDE)),
            large: strategy.config(&base(LARGEST_MRV_SIDE + 1)),
            bands: false,
            units: Units::AllDifferents,
            portfolio: 1,
            switched: None,
            share: false,
        }
    }

    /// These configurations, solving each puzzle with a portfolio of
    /// `workers` (see [`Configs::workers`]).
    fn with_portfolio(self, workers: usize, strategy: &StrategyArgs) -> Configs {
        let switched = Configs::new(&StrategyArgs { learn: !strategy.learn, ..strategy.clone() });
        Configs { portfolio: workers, switched: Some(Box::new((switched.small, switched.large))), ..self }
    }

    /// These configurations, their portfolio's learning workers sharing
    /// their short learnt nogoods when `share` (see [`Configs::workers`]).
    fn with_sharing(self, share: bool) -> Configs {
        Configs { share, ..self }
    }

    /// What the portfolio's learning workers share (`--share`), if anything.
    fn sharing(&self) -> Option<csp::portfolio::Sharing> {
        self.share.then(csp::portfolio::Sharing::default)
    }

    /// The portfolio's workers for a side, when `--portfolio` asks for more
    /// than one: the configuration itself, the same with learning switched
    /// (`--learn` on or off: the two disagree most on the hardest 25x25
    /// puzzles and cover each other best), and learning with `aplaces`
    /// (which solves the puzzle `--learn` finds hardest of the twelve 25x25
    /// ones in 0.60 s against 19.5 s), then those with other seeds
    /// ([`csp::portfolio::extend`]). With `--share` and `--learn`, learning
    /// with `aplaces` comes second, before the switched configuration, so
    /// that two workers learn and have nogoods to share.
    fn workers(&self, side: usize) -> Option<Vec<SolveConfig>> {
        let switched = self.switched.as_deref().filter(|_| self.portfolio > 1)?;
        let own = self.for_side(side).clone();
        let switched = if side <= LARGEST_MRV_SIDE { &switched.0 } else { &switched.1 };
        let learner = if own.learning() { &own } else { switched };
        let aplaces = learner.clone().with_var_order(csp::VarOrder::AlternatePlaces);
        let bases = if self.share && own.learning() {
            [own.clone(), aplaces, switched.clone()]
        } else {
            [own.clone(), switched.clone(), aplaces]
        };
        Some(csp::portfolio::extend(&bases, self.portfolio))
    }

    /// These configurations, with the band propagator for 9x9 grids of 3x3
    /// boxes when the command line's options ask for it ([`BandsArgs::wanted`]).
    fn with_bands(self, bands: &BandsArgs, strategy: &StrategyArgs) -> Configs {
        let units = if bands.fish { Units::Fish } else { Units::AllDifferents };
        Configs { bands: bands.wanted(strategy), units, ..self }
    }

    fn for_side(&self, side: usize) -> &SolveConfig {
        if side <= LARGEST_MRV_SIDE { &self.small } else { &self.large }
    }

    /// The configuration for `side`, its time bounded by what is left until
    /// `deadline` when there is one (the human tools' check of a puzzle).
    fn for_side_until(&self, side: usize, deadline: Option<Instant>) -> SolveConfig {
        let mut config = self.for_side(side).clone();
        if let Some(deadline) = deadline {
            config.limits = config.limits.with_time(deadline.saturating_duration_since(Instant::now()));
        }
        config
    }

    /// How the model of a grid of `shape` states its units: with the band
    /// propagator on, the faster statement for the shape ([`Units::fastest`]:
    /// the band propagator on 9x9 grids of 3x3 boxes), one all-different per
    /// unit otherwise, with the fish propagator when `--fish` asks for it
    /// ([`Units::Fish`]; the band propagator keeps its grids).
    fn units(&self, shape: Shape) -> Units {
        if self.bands && Units::fastest(shape) == Units::Bands { Units::Bands } else { self.units }
    }
}

/// `--bands` and `--no-bands` of `solve` and `count`.
#[derive(Args, Debug, Clone)]
struct BandsArgs {
    /// 9x9 grids of 3x3 boxes: one constraint over the whole grid on per-value bit boards (singles, hidden
    /// singles, locked candidates; no matching), about twice as fast as the all-differents. The default,
    /// unless --alldiff or --intersections asks for the all-differents; other grids as without it.
    #[arg(long, overrides_with = "no_bands")]
    bands: bool,
    /// 9x9 grids of 3x3 boxes: one all-different per row, column and box, as every other grid (and trace,
    /// explain and hint) has them. With --learn their sharper explanations make smaller trees: 27-39% less CPU
    /// than the band propagator on hard puzzles (top95, top1465), twice as much on easy ones (17clue).
    #[arg(long = "no-bands")]
    no_bands: bool,
    /// Also propagate fish (X-wing, swordfish, jellyfish and larger): per digit, Régin's matching of rows to
    /// columns on bit boards finds every one. Grids the band propagator takes keep it. Not faster on any set
    /// measured (BENCHMARKS.md, "Fish").
    #[arg(long)]
    fish: bool,
}

impl BandsArgs {
    /// Whether 9x9 grids of 3x3 boxes take the band propagator: unless
    /// `--no-bands`, or an all-different option (`--alldiff`,
    /// `--intersections`) without `--bands`, since the band propagator has
    /// no all-differents to apply it to.
    fn wanted(&self, strategy: &StrategyArgs) -> bool {
        !self.no_bands && (self.bands || (strategy.all_different.is_none() && !strategy.intersections))
    }
}

/// The puzzle solved when no file is given and stdin is a terminal: the
/// 9x9 example of the project's source documents.
pub const BUILTIN_PUZZLE: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

#[derive(Parser, Debug)]
#[command(
    name = "sudoku",
    about = "Solve, count, trace, check, generate, explain and rate sudoku puzzles of any box shape (4x4 to 64x64).",
    long_about = "Solve, count, trace, check, generate, explain and rate sudoku puzzles of any box shape (4x4 to 64x64).\n\n\
        Puzzles are read from files or stdin (gzipped or not) in the line format (one puzzle per line, '.', '0', '-', '_' or '*' \
        empty, 1-9 then A=10 ... Z=35), the grid format (n lines of n numbers, puzzles separated by blank lines), \
        the Project Euler layout ('Grid NN' then n lines of digits) or as JSON records (what --output json \
        writes), or written on the command line in place of a file (in the line format). '#' starts a comment; '# box RxC' gives the box shape of the puzzles that follow (on its own \
        line) or of the puzzle before it (on its line), and every output carries its shape so. Without a \
        command, 'solve' is run; options may come before the command. Without a file, on a terminal, 'solve' \
        shows a built-in example beside its solution (the other commands take the example), and 'solve -' \
        solves puzzles as they are typed.\n\nExit status: 0 every puzzle solved, 1 some puzzle has no solution \
        or hit a limit, 2 bad input or usage.",
    args_conflicts_with_subcommands = true,
    version
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Subcommand, Debug)]
#[expect(
    clippy::large_enum_variant,
    reason = "parsed once per process from the command line: its size costs nothing, and boxing would cost clap's derive"
)]
enum Command {
    /// Solve every puzzle (the default command).
    #[command(after_help = SOLVE_AFTER)]
    Solve(SolveArgs),
    /// Count the solutions of every puzzle, up to a limit.
    #[command(after_help = COUNT_AFTER)]
    Count(CountArgs),
    /// Show the search step by step: decisions, removed values, backtracks.
    #[command(after_help = TRACE_AFTER)]
    Trace(TraceArgs),
    /// Check filled grids, naming every broken row, column and box.
    #[command(after_help = CHECK_AFTER)]
    Check(CheckArgs),
    /// Generate puzzles with a unique solution, reproducibly from a seed; of a chosen difficulty with --difficulty.
    Generate(generate::GenerateArgs),
    /// Solve every puzzle as a person would, step by step, and rate it: the steps, then the rating.
    #[command(long_about = human::EXPLAIN_ABOUT)]
    Explain(human::ExplainArgs),
    /// The next step a person can take, from a puzzle with its progress or pencil marks.
    #[command(long_about = human::HINT_ABOUT)]
    Hint(human::HintArgs),
    /// Rate the difficulty of every puzzle: level, score and the hardest technique needed, one line each.
    #[command(long_about = rate::RATE_ABOUT)]
    Rate(rate::RateArgs),
    /// Compare solver configurations on every puzzle: nodes, checks and time per configuration.
    #[command(long_about = compare::COMPARE_ABOUT)]
    Compare(compare::CompareCmdArgs),
}

/// The end of `solve --help`: exit status and examples.
const SOLVE_AFTER: &str = "Exit status: 0 every puzzle solved, 1 some puzzle has no solution or hit a limit, 2 bad \
    input (the batch goes on past it) or usage.\n\n\
    Examples:\n  sudoku solve puzzles.txt --output line > solutions.txt\n  \
    sudoku solve ../shared/data/sudoku/top95.txt --output json --stats\n  \
    echo '..6..35......134.......6..1....5..64' | sudoku solve";

/// The end of `count --help`.
const COUNT_AFTER: &str = "Exit status: 0 every puzzle has a solution (a count stopped at --limit included), 1 some \
    puzzle has none or a node or time limit cut its count short, 2 bad input (the batch goes on past it) or \
    usage.\n\n\
    Examples:\n  sudoku count puzzles.txt            none, unique or multiple, per puzzle\n  \
    sudoku count --limit 1000 f.txt     the number of solutions, up to 1000";

/// The end of `trace --help`.
const TRACE_AFTER: &str = "Exit status: 0 every puzzle solved, 1 some puzzle has no solution or hit a limit, 2 bad \
    input or usage.\n\n\
    Examples:\n  echo '1.42421321.43421' | sudoku trace\n  \
    sudoku trace puzzle.txt --format jsonl\n  \
    sudoku trace puzzle.txt --animate --propagation fc\n  \
    sudoku trace puzzle.txt --animate --human";

/// The end of `check --help`.
const CHECK_AFTER: &str = "Exit status: 0 every grid valid, 1 some grid invalid (a broken unit or an empty cell), 2 \
    input that is not a grid (the batch goes on past it) or usage.\n\n\
    Examples:\n  sudoku solve puzzles.txt --output line | sudoku check\n  \
    sudoku check grids.txt --output json";

/// Where the puzzles come from.
#[derive(Args, Debug, Clone, Default)]
struct InputArgs {
    /// Puzzle files; '-' is stdin; a puzzle on one line that names no file is read as it is. Without any, stdin (or the built-in example on a terminal or an empty stdin).
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The box shape ROWSxCOLS (e.g. 2x3) instead of the default for each puzzle's side.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<Shape>,
    /// What the reader takes besides givens (set by the commands that read progress).
    #[arg(skip)]
    notation: Notation,
}

#[derive(Args, Debug, Clone)]
struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format: pretty, line (exactly one line per puzzle), grid or json (one object per line).
    #[arg(long, value_name = "FORMAT", default_value = "pretty")]
    output: Format,
    #[command(flatten)]
    strategy: StrategyArgs,
    /// Solve each puzzle with a portfolio of N workers, one thread each, the first answer wins: the configuration
    /// itself, the same with --learn switched (on or off), learning with the aplaces ordering, then those with
    /// other seeds. It shortens the wall time of a hard puzzle, not the CPU time. With --jobs J, up to J x N
    /// threads run at once: on two cores use --jobs 1 --portfolio 2.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    portfolio: u16,
    /// With --portfolio N: the learning workers share the short nogoods they learn (at most 8 literals, or glue),
    /// each adding the others' at its restarts; with --learn the second worker is then learning with aplaces, so
    /// that two workers learn.
    #[arg(long)]
    share: bool,
    #[command(flatten)]
    bands: BandsArgs,
    #[command(flatten)]
    batch: BatchArgs,
}

/// The default of `--jobs`: one worker per core. Output never depends on it.
fn default_jobs() -> u16 {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(256) as u16)
}

#[derive(Args, Debug, Clone)]
struct CountArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Stop counting at this many solutions (2 tells none, unique or multiple).
    #[arg(long, value_name = "K", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    limit: u64,
    /// Output: text (`verdict<TAB>file:line`) or json (one object per puzzle).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    output: RecordOutput,
    #[command(flatten)]
    strategy: StrategyArgs,
    #[command(flatten)]
    bands: BandsArgs,
    #[command(flatten)]
    batch: BatchArgs,
}

/// `--output` of the commands that print one line per puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum RecordOutput {
    /// Lines of text.
    #[default]
    Text,
    /// One JSON object per line.
    #[value(alias = "jsonl")]
    Json,
}

/// `--format` of the commands that print a stream of events (`trace`,
/// `explain`). They also take it as `--output`, and `json` for `jsonl`, as
/// the other commands spell their output: a user need not remember which
/// command says which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum TraceFormat {
    /// Readable lines, indented by depth.
    #[default]
    Text,
    /// One JSON object per event.
    #[value(alias = "json")]
    Jsonl,
}

/// The strategy options, which `trace --human` (a person's steps) has no use for.
const STRATEGY_OPTIONS: [&str; 14] = [
    "propagation",
    "var_order",
    "value_order",
    "all_different",
    "root_arc_consistency",
    "intersections",
    "no_intersections",
    "branching",
    "restarts",
    "learn",
    "seed",
    "node_limit",
    "timeout",
    "cpu_timeout",
];

#[derive(Args, Debug, Clone)]
struct TraceArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Trace format: text (default) or jsonl (one JSON object per event); not with --animate.
    #[arg(long, visible_alias = "output", value_enum, conflicts_with = "animate")]
    format: Option<TraceFormat>,
    /// Redraw the board as the search runs, on a terminal in place (frames one after another into a file or a pipe).
    #[arg(long)]
    animate: bool,
    /// Say why each value left a domain: `r4c2 ≠ 7 because r4c5 = 7 (row 4)`, from the constraints' explanations (slower: the search keeps the domains' history); with --animate, under each frame, the first reasons of the values removed since the last one.
    #[arg(long, conflicts_with = "human")]
    why: bool,
    /// With --animate: replay a person's steps (those of `explain`) on the pencil marks instead of the search.
    #[arg(long, requires = "animate", conflicts_with_all = STRATEGY_OPTIONS)]
    human: bool,
    /// With --animate: milliseconds between two frames on a terminal [default: 60, 1500 with --human].
    #[arg(long, value_name = "MS", requires = "animate")]
    delay: Option<u64>,
    /// With --animate: colours auto (on a terminal without NO_COLOR), always or never.
    #[arg(long, value_enum, value_name = "WHEN", requires = "animate")]
    color: Option<ColorChoice>,
    #[command(flatten)]
    strategy: StrategyArgs,
    #[command(flatten)]
    quiet: Quiet,
}

#[derive(Args, Debug, Clone)]
struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output: text (`file:line: valid`, and what is wrong) or json (one object per grid).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t)]
    output: RecordOutput,
    #[command(flatten)]
    quiet: Quiet,
}

/// The tool: `sudoku [COMMAND] [FILE]... [OPTIONS]` (see `--help`), on the
/// streams of `io`; returns the exit status. Run it with [`crate::app::run`] or
/// [`crate::app::main`].
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    // How the tool was called (`csp-sudoku`, or `sudoku` as the example), for
    // the commands it suggests.
    let program = args
        .first()
        .and_then(|first| std::path::Path::new(first).file_stem())
        .map_or("sudoku".to_string(), |stem| stem.to_string_lossy().into_owned());
    let cli: Cli = crate::app::parse(command_first(args), io)?;
    let code = match cli.command.unwrap_or(Command::Solve(cli.solve)) {
        Command::Solve(args) => batch::solve(&args, &program, io)?,
        Command::Count(args) => batch::count(&args, io)?,
        Command::Trace(args) => trace::trace(&args, io)?,
        Command::Check(args) => check::check(&args, io)?,
        Command::Generate(args) => generate::generate(&args, io)?,
        Command::Compare(args) => compare::compare(&args, io)?,
        Command::Explain(args) => human::explain(&args, io)?,
        Command::Hint(args) => human::hint(&args, io)?,
        Command::Rate(args) => rate::rate(&args, io)?,
    };
    Ok(code)
}

/// The arguments with the command moved before the options that precede it:
/// `sudoku --output line solve f.txt` is `sudoku solve --output line f.txt`.
/// Without this, the options would go to the default command (`solve`) and
/// the command's name would be taken for a file. An option the command does
/// not take is then a usage error that names it. The first word that is not
/// an option or an option's value is the command, if it is one (a file
/// named like a command is written `./solve`).
fn command_first(mut args: Vec<OsString>) -> Vec<OsString> {
    use clap::CommandFactory;
    let cli = Cli::command();
    // An option takes a value if it does for the tool or any command (the
    // same name means the same kind of option everywhere in this tool).
    let options: Vec<&clap::Arg> =
        cli.get_arguments().chain(cli.get_subcommands().flat_map(|command| command.get_arguments())).collect();
    let takes_value = |word: &str| {
        let value_option = |arg: &&&clap::Arg| arg.get_action().takes_values();
        if let Some(long) = word.strip_prefix("--") {
            !long.contains('=') && options.iter().filter(value_option).any(|arg| arg.get_long() == Some(long))
        } else {
            let mut chars = word.chars().skip(1);
            match (chars.next(), chars.next()) {
                (Some(short), None) => options.iter().filter(value_option).any(|arg| arg.get_short() == Some(short)),
                _ => false,
            }
        }
    };
    let mut at = 1;
    while at < args.len() {
        let Some(word) = args[at].to_str() else { break };
        if word == "--" {
            break;
        }
        if word.starts_with('-') && word.len() > 1 {
            at += if takes_value(word) { 2 } else { 1 };
            continue;
        }
        let is_command = cli.get_subcommands().any(|command| command.get_name() == word);
        if is_command && at > 1 {
            let command = args.remove(at);
            args.insert(1, command);
        }
        break;
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp::{Restarts, VarOrder};

    #[test]
    fn learn_starts_from_the_learning_configuration_of_the_side() {
        let learn = StrategyArgs { learn: true, ..StrategyArgs::default() };
        let configs = Configs::new(&learn);
        assert_eq!(configs.for_side(25), &learning_config(25));
        assert_eq!(configs.for_side(9), &learning_config(9));
        assert_eq!(
            configs.for_side(25).to_string(),
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire"
        );
        assert_eq!(Configs::new(&StrategyArgs::default()).for_side(25), &default_config(25));
        // The command line's options still win, each on its own.
        let chosen = StrategyArgs {
            learn: true,
            var_order: Some(VarOrder::DomWdeg),
            restarts: Some(Restarts::Never),
            ..StrategyArgs::default()
        };
        // (the nogood database's rules, which no option names, stay).
        assert_eq!(
            Configs::new(&chosen).for_side(25).to_string(),
            "mac+learn+domwdeg+phase+matching+intersect+dynlbd+expire"
        );
    }
}
