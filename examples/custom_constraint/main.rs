//! A constraint of our own on a small grid puzzle: fill an `n x n` grid (n even)
//! with the digits `1..=n/2` so that no digit appears three times in any row or
//! column (so, by counting, each appears exactly twice), keeping the given digits.
//!
//! The constraint is [`NoThreeEqual`], posted on
//! every row and column, in one of its two forms: defined by its check alone
//! (`--check-only`), or with its propagator (the default). `--compare` counts the
//! solutions under every propagation level (or the configurations of `--configs`)
//! with both forms, checks that they all agree, and prints a table per form through
//! the shared [`csp_cli::report`] module.

mod no_three_equal;

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use csp::{Model, ModelError, Solution, VarId};
use csp_cli::gallery::text::{Problem, Source};
use csp_cli::gallery::{self, ParseError, Puzzle};
use csp_cli::report::compare::{CompareError, CompareOptions, Comparison, Goal, Measurement, Row, check_agreement};
use csp_cli::report::{
    Cell, CompareArgs, ComparisonReport, Format, Report, Table, plot, report_bug, report_failure, write_report,
};
use csp_cli::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK, Io};
use no_three_equal::{NoThreeEqual, NoThreeEqualCheck, no_three_equal};

fn main() -> std::process::ExitCode {
    gallery::main::<Grid>()
}

/// The built-in puzzle: `.` for an empty cell.
const BUILT_IN: &str = include_str!("../data/no_three.txt");

/// Which form of the constraint a model uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// [`NoThreeEqualCheck`]: the check alone, propagated generically.
    CheckOnly,
    /// [`NoThreeEqual`]: with its propagator.
    Propagator,
}

impl Form {
    /// Both forms.
    const ALL: [Form; 2] = [Form::CheckOnly, Form::Propagator];

    /// How the form is printed.
    fn name(self) -> &'static str {
        match self {
            Form::CheckOnly => "check only",
            Form::Propagator => "propagator",
        }
    }
}

/// A grid to fill: `size x size` cells, some given.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Grid {
    /// The number of rows and columns (even).
    size: usize,
    /// The given digits, row-major.
    givens: Vec<Option<i64>>,
}

/// The largest size accepted.
const MAX_SIZE: usize = 16;

impl Grid {
    /// An empty grid.
    fn empty(size: usize) -> Grid {
        Grid { size, givens: vec![None; size * size] }
    }

    /// The largest digit.
    fn digits(&self) -> i64 {
        (self.size / 2) as i64
    }

    /// Parses a grid: one row per line, a digit or `.` per cell, spaces ignored, `#`
    /// lines are comments.
    fn parse(input: &str, file: &str) -> Result<Grid, ParseError> {
        let source = Source::new(file);
        let mut rows: Vec<(usize, Vec<(char, usize)>)> = Vec::new();
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            last_line = index + 1;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let cells = line.chars().enumerate().filter(|(_, c)| !c.is_whitespace()).map(|(i, c)| (c, i + 1));
            rows.push((index + 1, cells.collect()));
        }
        let Some((_, first)) = rows.first() else {
            return Err(source.error(last_line + 1, 1, Problem::Missing { what: "the grid".into() }));
        };
        let size = first.len();
        if size % 2 != 0 || !(2..=MAX_SIZE).contains(&size) {
            return Err(source.error(
                rows[0].0,
                1,
                Problem::invalid(format!("the first row has {size} cells; the size must be even, 2 to {MAX_SIZE}")),
            ));
        }
        if rows.len() != size {
            let line = rows.get(size).map_or(last_line + 1, |(line, _)| *line);
            return Err(source.error(line, 1, Problem::invalid(format!("{} rows for {size} columns", rows.len()))));
        }
        let digits = (size / 2) as i64;
        let mut givens = Vec::with_capacity(size * size);
        for (line, cells) in &rows {
            if cells.len() != size {
                return Err(source.error(
                    *line,
                    cells.get(size).map_or(1, |&(_, c)| c),
                    Problem::invalid(format!("this row has {} cells, the first has {size}", cells.len())),
                ));
            }
            for &(c, column) in cells {
                givens.push(match c.to_digit(10) {
                    _ if c == '.' => None,
                    Some(d) if (1..=digits).contains(&i64::from(d)) => Some(i64::from(d)),
                    _ => {
                        return Err(source.error(
                            *line,
                            column,
                            Problem::unexpected(format!("a digit 1 to {digits} or '.'"), &c.to_string()),
                        ));
                    }
                });
            }
        }
        Ok(Grid { size, givens })
    }

    /// The lines (rows, then columns) as row-major cell indices.
    fn lines(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut lines: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| r * n + c).collect()).collect();
        lines.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
        lines
    }

    /// The model: cells `r1c1 ..` over `1..=size/2` (a given digit as its only value)
    /// and the constraint, in the given form, on every row and column.
    fn build(&self, form: Form) -> Result<(Model, Vec<VarId>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(n * n);
        for (i, given) in self.givens.iter().enumerate() {
            let name = format!("r{}c{}", i / n + 1, i % n + 1);
            cells.push(match given {
                Some(d) => model.new_named_var(name, *d..=*d)?,
                None => model.new_named_var(name, 1..=self.digits())?,
            });
        }
        for line in self.lines() {
            let vars: Vec<VarId> = line.iter().map(|&i| cells[i]).collect();
            match form {
                Form::CheckOnly => model.post(NoThreeEqualCheck::new(vars))?,
                Form::Propagator => model.post(NoThreeEqual::new(vars))?,
            };
        }
        Ok((model, cells))
    }

    /// Checks a filled grid by the rules, without the solver.
    fn verify(&self, grid: &[i64]) -> Result<(), String> {
        if grid.len() != self.size * self.size || grid.iter().any(|d| !(1..=self.digits()).contains(d)) {
            return Err(format!("the grid is not {0} x {0} digits 1 to {1}", self.size, self.digits()));
        }
        if let Some(i) = (0..grid.len()).find(|&i| self.givens[i].is_some_and(|d| d != grid[i])) {
            return Err(format!("cell {} does not keep its given digit", i + 1));
        }
        for line in self.lines() {
            let values: Vec<i64> = line.iter().map(|&i| grid[i]).collect();
            if !no_three_equal(&values) {
                return Err(format!("a digit appears three times in {values:?}"));
            }
        }
        Ok(())
    }
}

/// The options that say which grid to fill (or compare on).
#[derive(Args, Clone, Debug)]
struct PuzzleArgs {
    /// A puzzle file: one row per line, a digit or '.' per cell ('-' reads standard input).
    #[arg(conflicts_with = "size")]
    file: Option<PathBuf>,
    /// Solve an empty grid of this size (even, 2 to 16) instead of the built-in puzzle.
    #[arg(long, value_name = "N")]
    size: Option<usize>,
}

/// The solving option: which form of the constraint (`--compare` runs both).
#[derive(Args, Clone, Copy, Debug, Default)]
struct FormOptions {
    /// Use the constraint defined by its check alone (generic propagation).
    #[arg(long = "check-only")]
    check_only: bool,
}

/// The configurations `--compare` runs by default: the three propagation
/// levels with the defaults of every other option (MRV, ascending values).
const COMPARE_CONFIGS: &str = "bt+mrv,fc+mrv,mac+mrv";

impl Puzzle for Grid {
    type Args = PuzzleArgs;
    type Options = FormOptions;
    const NAME: &'static str = "custom_constraint";
    const ABOUT: &'static str =
        "A user-defined constraint (no digit three times in a line), by its check alone or with a propagator.";
    const WHAT: &'static str = "the grid, with both forms of the constraint (its check alone, and with its propagator)";
    const COMPARE_CONFIGS: &'static str = COMPARE_CONFIGS;

    /// The grid and its name: the file's, `empty NxN grid` or `built-in puzzle`.
    fn load(args: &PuzzleArgs, io: &mut Io<'_>) -> anyhow::Result<(String, Grid)> {
        match (args.size, &args.file) {
            (Some(size), _) if size % 2 == 0 && (2..=MAX_SIZE).contains(&size) => {
                Ok((format!("empty {size}x{size} grid"), Grid::empty(size)))
            }
            (Some(size), _) => anyhow::bail!("--size {size}: the size must be even, 2 to {MAX_SIZE}"),
            (None, file) => gallery::load_file(file.as_deref(), BUILT_IN, io, Grid::parse),
        }
    }

    fn model(&self, options: &FormOptions) -> Result<Model, ModelError> {
        let form = if options.check_only { Form::CheckOnly } else { Form::Propagator };
        Ok(self.build(form)?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the cells, row-major.
        let values = solution.values();
        self.verify(values).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        for row in values.chunks(self.size) {
            let row: Vec<String> = row.iter().map(i64::to_string).collect();
            writeln!(out, "{}", row.join(" "))?;
        }
        Ok(())
    }

    /// Both forms, under every configuration, with one table per form.
    fn compare(&self, name: &str, args: &CompareArgs, io: &mut Io<'_>) -> anyhow::Result<u8> {
        compare(name, self, args, io.stdout, io.stderr)
    }
}

/// Runs `grid` under every configuration of `args` with both forms of the
/// constraint, checks that all runs agree (within a form, and between the
/// forms), and writes one table per form (CSV: one record per form and
/// configuration; JSON: one document per form, in a list). Returns the exit
/// status: 0 written, 1 a disagreement (a bug: printed on stderr, no table),
/// 2 the comparison could not run or the plot could not be written.
fn compare(
    name: &str,
    grid: &Grid,
    args: &CompareArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    let mut models = Vec::with_capacity(Form::ALL.len());
    for form in Form::ALL {
        match grid.build(form) {
            Ok((model, _)) => models.push((form, model)),
            Err(error) => {
                let _ = writeln!(err, "error: cannot build the model: {error}");
                return Ok(EXIT_BAD_INPUT);
            }
        }
    }
    compare_forms(name, &models, args, out, err)
}

/// [`compare`] on the models of the forms.
fn compare_forms(
    name: &str,
    models: &[(Form, Model)],
    args: &CompareArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<u8> {
    if let Some(baseline) = &args.baseline {
        // Its summary compares configurations over instances; this report
        // sets the forms of one puzzle side by side instead.
        let _ = writeln!(err, "error: --baseline {baseline}: the comparison of the forms has no baseline summary");
        return Ok(EXIT_BAD_INPUT);
    }
    let options = args.options();
    // What every compare runs: --learn's twins, --seeds' seeds.
    let configs = match args.configs_to_run() {
        Ok(configs) => configs,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let mut forms = Vec::with_capacity(models.len());
    for (form, model) in models {
        let form = *form;
        let instance = format!("{name}, {}", form.name());
        match csp_cli::report::compare::compare(&[(&instance, model)], &configs, &options) {
            Ok(comparison) => forms.push((form, comparison)),
            Err(error) => return Ok(report_failure(&error, err)),
        }
    }
    if let Err(error) = forms_agree(name, options.goal, &forms) {
        report_bug(&error, err);
        return Ok(EXIT_NO_SOLUTION);
    }
    let report = FormsReport { forms: &forms, options: &options };
    if let Some(path) = &args.plot {
        if let Err(error) = report.svg(name).and_then(|svg| plot::write_svg(path, &svg)) {
            let _ = writeln!(err, "error: {error:#}");
            return Ok(EXIT_BAD_INPUT);
        }
    }
    let written = write_report(&report, args.format, out).and_then(|()| {
        if matches!(args.format, Format::Table | Format::Markdown) {
            if let Some(line) = report.agreement() {
                writeln!(out, "\n{line}")?;
            }
        }
        out.flush()
    });
    written.context("cannot write the table")?;
    let limited = report.limited();
    if limited > 0 && args.quiet.notes() {
        let _ = writeln!(
            err,
            "note: a limit stopped {limited} run{}; their counts are lower bounds and they were not checked for agreement",
            if limited == 1 { "" } else { "s" }
        );
    }
    Ok(EXIT_OK)
}

/// Checks that the two forms give the same answer: the first complete run of
/// each is compared (the runs within a form already agree).
fn forms_agree(name: &str, goal: Goal, forms: &[(Form, Comparison)]) -> Result<(), CompareError> {
    let complete: Vec<(Form, &Measurement)> = forms
        .iter()
        .filter_map(|(form, comparison)| {
            comparison.measurements.iter().flatten().find(|m| m.is_complete()).map(|m| (*form, m))
        })
        .collect();
    for pair in complete.windows(2) {
        let (first, second) = (pair[0], pair[1]);
        check_agreement(name, goal, &[first.1.clone(), second.1.clone()]).map_err(|error| match error {
            CompareError::Disagreement { instance, first_answer, second_answer, .. } => CompareError::Disagreement {
                instance,
                first_config: format!("{} with the {} form", first.1.config, first.0.name()),
                first_answer,
                second_config: format!("{} with the {} form", second.1.config, second.0.name()),
                second_answer,
            },
            other => other,
        })?;
    }
    Ok(())
}

/// The comparisons of both forms, written as one report.
#[derive(Debug)]
struct FormsReport<'a> {
    forms: &'a [(Form, Comparison)],
    options: &'a CompareOptions,
}

impl FormsReport<'_> {
    fn reports(&self) -> impl Iterator<Item = (Form, ComparisonReport<'_>)> {
        self.forms.iter().map(|(form, comparison)| {
            (*form, ComparisonReport { comparison, options: self.options, baseline: None, seeded: false })
        })
    }

    /// The runs a limit stopped.
    fn limited(&self) -> usize {
        self.forms.iter().flat_map(|(_, comparison)| &comparison.rows).map(|row| row.limited).sum()
    }

    /// `all 6 runs agree: 1 solution`, unless a limit stopped a run.
    fn agreement(&self) -> Option<String> {
        if self.limited() > 0 {
            return None;
        }
        let runs: usize = self.forms.iter().map(|(_, comparison)| comparison.rows.len()).sum();
        let reference = self.forms.first()?.1.rows.first()?;
        let answer = match (self.options.goal, reference.solutions) {
            (Goal::First, 0) => "no solution".to_string(),
            (Goal::First, _) => "a solution".to_string(),
            (_, 1) => "1 solution".to_string(),
            (Goal::Count, n) => format!("{n} solutions"),
            (Goal::All, n) => format!("the same {n} solutions"),
            (Goal::Optimize, _) => "the same optimum".to_string(),
        };
        Some(format!("all {runs} runs agree: {answer}"))
    }

    /// A bar chart of nodes and time per configuration and form.
    fn svg(&self, name: &str) -> anyhow::Result<String> {
        let rows: Vec<(Form, &Row)> =
            self.forms.iter().flat_map(|(form, comparison)| comparison.rows.iter().map(|row| (*form, row))).collect();
        let labels: Vec<String> = rows.iter().map(|(form, row)| format!("{} ({})", row.config, form.name())).collect();
        let panels = [
            plot::BarPanel {
                title: "nodes".into(),
                axis: "nodes (log scale)".into(),
                values: rows.iter().map(|(_, row)| row.stats.nodes as f64).collect(),
            },
            plot::BarPanel {
                title: "time".into(),
                axis: "milliseconds (log scale)".into(),
                values: rows.iter().map(|(_, row)| row.time.as_secs_f64() * 1e3).collect(),
            },
        ];
        plot::bar_chart(&format!("{name}: check only against propagator"), &labels, &panels)
    }
}

impl Report for FormsReport<'_> {
    fn tables(&self) -> Vec<Table> {
        self.reports().flat_map(|(_, report)| report.tables()).collect()
    }

    fn records(&self) -> Table {
        let mut table: Option<Table> = None;
        for (form, report) in self.reports() {
            let records = report.records();
            let table = table.get_or_insert_with(|| {
                Table::new(std::iter::once("constraint").chain(records.columns.iter().map(String::as_str)))
            });
            for row in records.rows {
                table.push(std::iter::once(Cell::text(form.name())).chain(row).collect());
            }
        }
        table.unwrap_or_default()
    }

    fn json(&self) -> serde_json::Value {
        let forms: Vec<serde_json::Value> = self
            .reports()
            .map(|(form, report)| {
                let mut json = report.json();
                if let Some(object) = json.as_object_mut() {
                    object.insert("constraint".to_string(), form.name().into());
                }
                json
            })
            .collect();
        serde_json::json!({ "forms": forms })
    }
}

#[cfg(test)]
#[path = "../support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use csp::testing::{Harness, Strength};
    use csp::{Propagation, SolveConfig, Solver, VarOrder};

    use super::*;

    use crate::support::{self, fixture, run, table_rows};

    const TOOL: csp_cli::app::Tool = gallery::run::<Grid>;

    /// The 4x4 grid whose first cell is given: half of the empty grid's 90 solutions.
    fn half() -> Grid {
        let mut grid = Grid::empty(4);
        grid.givens[0] = Some(1);
        grid
    }

    #[test]
    fn seeds_run_a_random_configuration_once_per_seed_in_both_forms() {
        let empty = Grid::empty(4);
        let models: Vec<(Form, Model)> = Form::ALL.iter().map(|&form| (form, empty.build(form).unwrap().0)).collect();
        let args = |configs: &str| CompareArgs {
            configs: configs.split(',').map(|c| c.parse().unwrap()).collect(),
            goal: csp_cli::report::GoalArg::Count,
            seeds: Some("1-2".parse().unwrap()),
            ..CompareArgs::default()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(
            compare_forms("empty", &models, &args("fc+mrv,mac+mrv+random"), &mut out, &mut err).unwrap(),
            EXIT_OK
        );
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("+seed=1") && out.contains("+seed=2"), "{out}");
        assert!(out.contains("all 6 runs agree: 90 solutions"), "{out}");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = compare_forms("empty", &models, &args("mac+random+seed=4"), &mut out, &mut err).unwrap();
        assert_eq!(code, EXIT_BAD_INPUT);
        assert!(String::from_utf8(err).unwrap().contains("names its seed already"));
    }

    #[test]
    fn forms_that_disagree_are_a_bug_that_names_both() {
        let args = CompareArgs {
            configs: vec!["fc+mrv".parse().unwrap(), "mac+mrv".parse().unwrap()],
            goal: csp_cli::report::GoalArg::Count,
            ..CompareArgs::default()
        };
        let empty = Grid::empty(4);
        let models = |grids: [&Grid; 2]| -> Vec<(Form, Model)> {
            Form::ALL.iter().zip(grids).map(|(&form, grid)| (form, grid.build(form).unwrap().0)).collect()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(compare_forms("empty", &models([&empty, &empty]), &args, &mut out, &mut err).unwrap(), EXIT_OK);
        assert!(String::from_utf8(out).unwrap().contains("all 4 runs agree: 90 solutions"));
        // A planted bug: the propagator form is given another puzzle.
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = compare_forms("planted", &models([&empty, &half()]), &args, &mut out, &mut err).unwrap();
        assert_eq!(code, EXIT_NO_SOLUTION);
        assert!(out.is_empty(), "no table: {}", String::from_utf8_lossy(&out));
        let err = String::from_utf8(err).unwrap();
        assert!(err.contains("error: DISAGREEMENT: configurations disagree on instance 'planted'"), "{err}");
        assert!(err.contains("fc+mrv+pairwise with the check only form found 90 solutions"), "{err}");
        assert!(err.contains("fc+mrv+pairwise with the propagator form found 45 solutions"), "{err}");
    }

    #[test]
    fn limited_runs_are_not_said_to_agree() {
        let args = CompareArgs {
            configs: vec!["bt+input".parse().unwrap()],
            goal: csp_cli::report::GoalArg::Count,
            node_limit: Some(3),
            ..CompareArgs::default()
        };
        let grid = Grid::empty(4);
        let models: Vec<(Form, Model)> = Form::ALL.iter().map(|&form| (form, grid.build(form).unwrap().0)).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        assert_eq!(compare_forms("limited", &models, &args, &mut out, &mut err).unwrap(), EXIT_OK);
        let (out, err) = (String::from_utf8(out).unwrap(), String::from_utf8(err).unwrap());
        assert!(!out.contains("agree"), "{out}");
        assert!(err.contains("note: a limit stopped 2 runs"), "{err}");
    }

    #[test]
    fn both_forms_give_the_same_solutions_under_every_propagation_level() {
        let grid = Grid::empty(4);
        let mut reference: Option<Vec<Vec<i64>>> = None;
        for form in Form::ALL {
            let (model, _) = grid.build(form).unwrap();
            for &level in Propagation::ALL {
                for order in [VarOrder::Input, VarOrder::Mrv] {
                    let config = SolveConfig::default().with_propagation(level).with_var_order(order);
                    let mut solver = Solver::new(&model, config).unwrap();
                    let mut solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
                    solutions.sort();
                    assert_eq!(solutions.len(), 90, "{form:?} {level} {order}");
                    for s in &solutions {
                        grid.verify(s).unwrap();
                    }
                    match &reference {
                        None => reference = Some(solutions),
                        Some(expected) => assert_eq!(&solutions, expected, "{form:?} {level} {order}"),
                    }
                }
            }
        }
        let compare = run(TOOL, &["--compare"]);
        assert_eq!(compare.code, 0, "{}", compare.stdout);
        assert!(compare.stdout.contains("all 6 runs agree: 1 solution"), "{}", compare.stdout);
    }

    #[test]
    fn the_propagator_is_sound_by_the_harness() {
        for arity in 2..=6 {
            let harness = Harness::new(arity, 1..=3).cases(400).seed(arity as u64);
            let result = harness.check(Strength::Sound, |m, v| m.post(NoThreeEqual::new(v.to_vec())).map(drop));
            assert!(result.is_ok(), "arity {arity}: {result:?}");
            // The check-only form gets generic arc consistency: it is domain consistent.
            let result =
                harness.check(Strength::DomainConsistent, |m, v| m.post(NoThreeEqualCheck::new(v.to_vec())).map(drop));
            assert!(result.is_ok(), "check only, arity {arity}: {result:?}");
        }
        // Five variables over two values, each at most twice: no room, and the
        // pigeonhole count sees it before any search.
        let mut model = csp::Model::new();
        let vars = model.new_vars(5, 1..=2).unwrap();
        model.post(NoThreeEqual::new(vars)).unwrap();
        assert!(Solver::new(&model, SolveConfig::default()).unwrap().root_domains().is_none());
    }

    #[test]
    fn the_propagator_prunes_what_the_check_alone_cannot_under_forward_checking() {
        let grid = Grid::parse(&std::fs::read_to_string(fixture("no_three.txt")).unwrap(), "no_three.txt").unwrap();
        let nodes = |form| {
            let (model, _) = grid.build(form).unwrap();
            let mut solver =
                Solver::new(&model, SolveConfig::default().with_propagation(Propagation::ForwardChecking)).unwrap();
            assert!(solver.count(None).is_unique());
            solver.stats().nodes
        };
        assert!(nodes(Form::Propagator) < nodes(Form::CheckOnly));
        assert!(no_three_equal(&[1, 2, 1, 2, 3]) && !no_three_equal(&[1, 2, 1, 2, 1]) && no_three_equal(&[]));
    }

    #[test]
    fn compare_plots_a_bar_per_configuration_and_form() {
        let dir = std::env::temp_dir();
        // The custom constraint's chart has a bar per configuration and form.
        let path = dir.join(format!("gallery-compare-forms-{}.svg", std::process::id()));
        let result = run(TOOL, &["--compare", "--plot", path.to_str().unwrap()]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        let svg = std::fs::read_to_string(&path).expect("the plot was written");
        std::fs::remove_file(&path).unwrap();
        assert!(svg.contains("fc+mrv+pairwise (check only)") && svg.contains("mac+mrv+matching (propagator)"), "{svg}");
    }

    #[test]
    fn the_custom_constraint_compares_both_forms_in_every_format() {
        let table = run(TOOL, &["--compare"]);
        assert_eq!(table.code, 0, "{}", table.stderr);
        let rows = table_rows(&table.stdout);
        assert_eq!(rows.len(), 6, "two forms, three levels: {}", table.stdout);
        assert!(rows.iter().all(|row| row["solutions"] == "1"), "{}", table.stdout);
        assert!(table.stdout.contains("instance 'built-in puzzle, check only'"), "{}", table.stdout);
        assert!(table.stdout.contains("instance 'built-in puzzle, propagator'"), "{}", table.stdout);
        // The propagator needs fewer nodes than the check alone under plain backtracking.
        let nodes = |i: usize| rows[i]["nodes"].parse::<u64>().unwrap();
        assert!(nodes(3) < nodes(0), "{}", table.stdout);
        let configs = ["--compare", "--size", "4", "--goal", "all", "--configs", "fc+mrv,mac/ac2001+domwdeg"];
        let csv = run(TOOL, &[&configs[..], &["--format", "csv"]].concat());
        assert_eq!(csv.code, 0, "{}", csv.stderr);
        let lines: Vec<&str> = csv.stdout.lines().collect();
        assert_eq!(lines.len(), 5, "a record per form and configuration: {}", csv.stdout);
        assert!(lines[0].starts_with("constraint,config,"), "{}", lines[0]);
        assert!(
            lines[1].starts_with("check only,fc+mrv+pairwise,")
                && lines[4].starts_with("propagator,mac/ac2001+domwdeg+matching,")
        );
        let json = run(TOOL, &[&configs[..], &["--format", "json"]].concat());
        assert_eq!(json.code, 0, "{}", json.stderr);
        let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        let forms = doc["forms"].as_array().unwrap();
        assert_eq!(forms.len(), 2);
        for (form, name) in forms.iter().zip(["check only", "propagator"]) {
            assert_eq!((form["constraint"].as_str(), form["goal"].as_str()), (Some(name), Some("all")));
            assert!(form["configs"].as_array().unwrap().iter().all(|c| c["solutions"] == 90), "{form}");
        }
    }

    /// The example of docs/modeling.md, section 9: on the 8x8 puzzle both forms
    /// solve by propagation alone, the check-only form with far more checks.
    #[test]
    fn documented_commands_run_as_written() {
        support::assert_documented_commands_run("custom_constraint", TOOL);
    }

    #[test]
    fn the_propagator_makes_far_fewer_checks_than_the_check_alone() {
        let text = include_str!("../data/no_three_8.txt");
        let grid = Grid::parse(text, "no_three_8.txt").unwrap();
        let work = |form: Form| {
            let (model, _) = grid.build(form).unwrap();
            let mut solver = Solver::new(&model, SolveConfig::default().with_propagation(Propagation::Mac)).unwrap();
            assert!(solver.count(None).is_unique());
            solver.stats().checks
        };
        assert!(work(Form::CheckOnly) > 100 * work(Form::Propagator));
    }

    /// The example of docs/modeling.md, section 8 (with the cases it uses).
    #[test]
    fn the_harness_finds_both_forms_sound_as_the_tutorial_says() {
        for arity in 2..=6 {
            let harness = Harness::new(arity, 1..=3).cases(300).seed(arity as u64);
            let report =
                harness.check(Strength::Sound, |model, vars| model.post(NoThreeEqual::new(vars.to_vec())).map(drop));
            assert!(report.is_ok(), "{report:?}");
            let report = harness.check(Strength::DomainConsistent, |model, vars| {
                model.post(NoThreeEqualCheck::new(vars.to_vec())).map(drop)
            });
            assert!(report.is_ok(), "{report:?}");
        }
    }

    #[test]
    fn compare_runs_both_forms_so_check_only_is_refused() {
        let check_only = run(TOOL, &["--compare", "--check-only"]);
        assert_eq!(check_only.code, 2, "--compare runs both forms: {}", check_only.stdout);
    }
}
