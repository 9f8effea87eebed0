//! Killer sudoku: a sudoku without givens whose cells are grouped into cages; the
//! digits of a cage are different and add up to the cage's sum.
//!
//! The cage file draws the grid with one label per cell, then gives each cage's sum
//! (see `docs/formats.md`):
//!
//! ```text
//! # a 4x4 killer sudoku (2x2 boxes)
//! aabb
//! cdde
//! cfge
//! hfgg
//! a = 3
//! ...
//! ```
//!
//! The model: a variable per cell, `all_different` on every row, column, box and cage,
//! a `linear` sum per cage, and the redundant sum `1 + 2 + ... + n` of every row,
//! column and box, which lets the sum propagators reason about the "innies and
//! outies" that solvers by hand use.
//!
//! ```text
//! cargo run --release --example killer_sudoku -- [FILE] [--count] [--stats] [strategy options]
//! cargo run --release --example killer_sudoku -- [FILE] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare`, reading the file (`-` is standard input) and the
//! exit codes come from [`csp_cli::gallery`]; the parser's errors name the
//! file, the line and the column ([`csp_cli::gallery::ParseError`]).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use csp::{Model, ModelError, Relation, Solution, SolveConfig, VarId, VarOrder};

use csp_cli::Io;
use csp_cli::gallery::text::{self, Problem, Source};
use csp_cli::gallery::{self, NoOptions, ParseError, Puzzle};
use csp_cli::report::GoalArg;

fn main() -> std::process::ExitCode {
    gallery::main::<KillerSudoku>()
}

/// The built-in puzzle, solved when no file is given.
const BUILT_IN: &str = include_str!("data/killer_sudoku.txt");

/// One cage: its label in the file, its sum, and its cells (row-major indices).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cage {
    /// The character that marks the cage's cells in the file.
    label: char,
    /// The sum of its digits.
    sum: i64,
    /// Its cells, as `row * size + column`.
    cells: Vec<usize>,
}

/// A killer sudoku.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KillerSudoku {
    /// The number of rows, columns and digits.
    size: usize,
    /// The rows of a box.
    box_rows: usize,
    /// The columns of a box.
    box_columns: usize,
    /// The cages, in the order their labels first appear in the grid.
    cages: Vec<Cage>,
}

/// The box shape of a grid size: square boxes for 4, 9 and 16, 2 x 3 for 6.
fn box_shape(size: usize) -> Option<(usize, usize)> {
    match size {
        4 => Some((2, 2)),
        6 => Some((2, 3)),
        9 => Some((3, 3)),
        16 => Some((4, 4)),
        _ => None,
    }
}

/// The rows, columns and boxes of a sudoku grid, as lists of row-major cell indices.
fn units(size: usize, box_rows: usize, box_columns: usize) -> Vec<Vec<usize>> {
    let mut units: Vec<Vec<usize>> = (0..size).map(|r| (0..size).map(|c| r * size + c).collect()).collect();
    units.extend((0..size).map(|c| (0..size).map(|r| r * size + c).collect()));
    for top in (0..size).step_by(box_rows) {
        for left in (0..size).step_by(box_columns) {
            units.push(
                (top..top + box_rows).flat_map(|r| (left..left + box_columns).map(move |c| r * size + c)).collect(),
            );
        }
    }
    units
}

/// Whether `c` may label a cage.
fn is_label(c: char) -> bool {
    !c.is_whitespace() && c != '#' && c != '='
}

impl KillerSudoku {
    /// Parses the cage format; `file` names the input in errors.
    fn parse(input: &str, file: &str) -> Result<KillerSudoku, ParseError> {
        let source = Source::new(file);
        // The grid: (line number, [(label, column)]) per row.
        let mut rows: Vec<(usize, Vec<(char, usize)>)> = Vec::new();
        let mut sums: BTreeMap<char, (i64, usize, usize)> = BTreeMap::new(); // label -> (sum, line, column)
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            let number = index + 1;
            last_line = number;
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let at = |column: usize, problem: Problem| source.error(number, column, problem);
            if let Some(equals) = line.find('=') {
                let words = text::tokens(&line[..equals]);
                let label_column = match words.as_slice() {
                    [] => return Err(at(1, Problem::unexpected("a cage label before '='", "="))),
                    [word] if word.text.chars().count() == 1 => word.column,
                    [word] => {
                        return Err(at(word.column, Problem::unexpected("a one-character cage label", word.text)));
                    }
                    [_, extra, ..] => return Err(at(extra.column, Problem::unexpected("'='", extra.text))),
                };
                let label = words[0].text.chars().next().expect("one character");
                let equals_column = line[..equals].chars().count() + 1;
                let after = text::tokens(&line[equals + 1..]);
                let sum = match after.as_slice() {
                    [] => return Err(at(text::end_column(line), Problem::end_of_line("the cage's sum"))),
                    [word, rest @ ..] => {
                        if let Some(extra) = rest.first() {
                            return Err(at(
                                equals_column + extra.column,
                                Problem::unexpected("the end of the line", extra.text),
                            ));
                        }
                        text::number(word.text, "sum", 1, 1_000_000).map_err(|p| at(equals_column + word.column, p))?
                    }
                };
                if let Some(&(_, first_line, _)) = sums.get(&label) {
                    return Err(at(
                        label_column,
                        Problem::Duplicate { what: format!("the sum of cage '{label}'"), first_line },
                    ));
                }
                sums.insert(label, (sum, number, label_column));
                continue;
            }
            let mut labels = Vec::new();
            for (column, c) in line.chars().enumerate() {
                if c.is_whitespace() {
                    continue;
                }
                if !is_label(c) {
                    return Err(at(column + 1, Problem::unexpected("a cage label", &c.to_string())));
                }
                labels.push((c, column + 1));
            }
            rows.push((number, labels));
        }
        let Some((first_line, first)) = rows.first() else {
            return Err(source.error(last_line + 1, 1, Problem::Missing { what: "the grid of cage labels".into() }));
        };
        let size = first.len();
        let Some((box_rows, box_columns)) = box_shape(size) else {
            return Err(source.error(
                *first_line,
                first.last().map_or(1, |&(_, c)| c),
                Problem::invalid(format!("the first row has {size} cells; a killer sudoku has 4, 6, 9 or 16")),
            ));
        };
        for (r, (line, labels)) in rows.iter().enumerate() {
            if r >= size {
                return Err(source.error(
                    *line,
                    labels[0].1,
                    Problem::invalid(format!("row {} of a grid with {size} columns (so {size} rows)", r + 1)),
                ));
            }
            if labels.len() != size {
                let column = labels.get(size).map_or_else(|| labels.last().map_or(1, |&(_, c)| c + 1), |&(_, c)| c);
                return Err(source.error(
                    *line,
                    column,
                    Problem::invalid(format!("this row has {} cells, the first has {size}", labels.len())),
                ));
            }
        }
        if rows.len() < size {
            return Err(source.error(
                last_line + 1,
                1,
                Problem::Missing { what: format!("rows {} to {size} of the grid", rows.len() + 1) },
            ));
        }
        // Group the cells by label, in order of first appearance.
        let mut cages: Vec<Cage> = Vec::new();
        let mut position: BTreeMap<usize, (usize, usize)> = BTreeMap::new(); // cell -> (line, column)
        for (r, (line, labels)) in rows.iter().enumerate() {
            for (c, &(label, column)) in labels.iter().enumerate() {
                let cell = r * size + c;
                position.insert(cell, (*line, column));
                match cages.iter_mut().find(|cage| cage.label == label) {
                    Some(cage) => cage.cells.push(cell),
                    None => cages.push(Cage { label, sum: 0, cells: vec![cell] }),
                }
            }
        }
        for cage in &mut cages {
            let (line, column) = position[&cage.cells[0]];
            match sums.remove(&cage.label) {
                Some((sum, _, _)) => cage.sum = sum,
                None => {
                    return Err(source.error(
                        line,
                        column,
                        Problem::Missing { what: format!("the sum of cage '{}'", cage.label) },
                    ));
                }
            }
            if cage.cells.len() > size {
                return Err(source.error(
                    line,
                    column,
                    Problem::invalid(format!(
                        "cage '{}' has {} cells, more than the {size} different digits",
                        cage.label,
                        cage.cells.len()
                    )),
                ));
            }
            if let Some(cell) = disconnected_cell(&cage.cells, size) {
                let (line, column) = position[&cell];
                return Err(source.error(
                    line,
                    column,
                    Problem::invalid(format!(
                        "cage '{}' is in pieces: this cell does not touch the cage's first cell (give each cage its own label)",
                        cage.label
                    )),
                ));
            }
        }
        if let Some((label, (_, line, column))) = sums.into_iter().next() {
            return Err(source.error(
                line,
                column,
                Problem::invalid(format!("no cell of the grid is in cage '{label}'")),
            ));
        }
        Ok(KillerSudoku { size, box_rows, box_columns, cages })
    }

    /// The model, and the variable of each cell: cells `r1c1 ..` (row-major) over `1..=size`, `all_different` on the
    /// units and the cages, a sum per cage and the redundant sum of every unit.
    fn build(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                cells.push(model.new_named_var(format!("r{}c{}", r + 1, c + 1), 1..=n as i64)?);
            }
        }
        let unit_sum = (n * (n + 1) / 2) as i64;
        for unit in units(n, self.box_rows, self.box_columns) {
            let vars: Vec<VarId> = unit.iter().map(|&i| cells[i]).collect();
            model.all_different(&vars)?;
            model.linear(&vars.iter().map(|&v| (1, v)).collect::<Vec<_>>(), Relation::Eq, unit_sum)?;
        }
        for cage in &self.cages {
            let vars: Vec<VarId> = cage.cells.iter().map(|&i| cells[i]).collect();
            if vars.len() > 1 {
                let id = model.all_different(&vars)?;
                model.set_label(id, format!("cage '{}' digits", cage.label))?;
            }
            let id = model.linear(&vars.iter().map(|&v| (1, v)).collect::<Vec<_>>(), Relation::Eq, cage.sum)?;
            model.set_label(id, format!("cage '{}' sum {}", cage.label, cage.sum))?;
        }
        Ok((model, cells))
    }

    /// Checks a filled grid (row-major) by the rules, without the solver.
    fn verify(&self, grid: &[i64]) -> Result<(), String> {
        let n = self.size;
        if grid.len() != n * n || grid.iter().any(|d| !(1..=n as i64).contains(d)) {
            return Err(format!("the grid is not {n} x {n} digits 1 to {n}"));
        }
        for unit in units(n, self.box_rows, self.box_columns) {
            if !all_different(unit.iter().map(|&i| grid[i])) {
                return Err(format!("a digit repeats in the unit of cells {unit:?}"));
            }
        }
        for cage in &self.cages {
            let sum: i64 = cage.cells.iter().map(|&i| grid[i]).sum();
            if sum != cage.sum || !all_different(cage.cells.iter().map(|&i| grid[i])) {
                return Err(format!("cage '{}' is broken", cage.label));
            }
        }
        Ok(())
    }
}

fn all_different(values: impl Iterator<Item = i64>) -> bool {
    let mut seen = std::collections::BTreeSet::new();
    values.into_iter().all(|v| seen.insert(v))
}

/// A cell of the cage not orthogonally connected to its first cell, if any.
fn disconnected_cell(cells: &[usize], size: usize) -> Option<usize> {
    let mut reached = vec![cells[0]];
    let mut frontier = vec![cells[0]];
    while let Some(cell) = frontier.pop() {
        let (r, c) = (cell / size, cell % size);
        let neighbours = [
            (r > 0).then(|| cell - size),
            (r + 1 < size).then(|| cell + size),
            (c > 0).then(|| cell - 1),
            (c + 1 < size).then(|| cell + 1),
        ];
        for next in neighbours.into_iter().flatten() {
            if cells.contains(&next) && !reached.contains(&next) {
                reached.push(next);
                frontier.push(next);
            }
        }
    }
    cells.iter().copied().find(|c| !reached.contains(c))
}

/// Prints a sudoku grid with lines between the boxes.
fn write_grid(
    out: &mut dyn Write,
    grid: &[i64],
    size: usize,
    box_rows: usize,
    box_columns: usize,
) -> std::io::Result<()> {
    let width = size.to_string().len();
    for r in 0..size {
        if r > 0 && r % box_rows == 0 {
            let parts: Vec<String> =
                (0..size / box_columns).map(|_| "-".repeat(box_columns * (width + 1) - 1)).collect();
            writeln!(out, "{}", parts.join("-+-"))?;
        }
        let mut row = String::new();
        for c in 0..size {
            if c > 0 {
                row.push_str(if c % box_columns == 0 { " | " } else { " " });
            }
            row.push_str(&format!("{:>width$}", grid[r * size + c]));
        }
        writeln!(out, "{row}")?;
    }
    Ok(())
}

/// The configuration used unless options say otherwise: arc consistency, dom/wdeg,
/// matching-based all-different. Counting the solutions of the built-in puzzle (a
/// release build) takes 173 nodes this way, 411 with MRV and 1,257 with pairwise
/// all-different; forward checking needs 467,000.
fn default_config() -> SolveConfig {
    SolveConfig::default().with_var_order(VarOrder::DomWdeg)
}

/// The configurations `--compare` runs by default: forward checking and its
/// backjumping twin, arc consistency with MRV (matching and pairwise
/// all-different), and the tool's own default (dom/wdeg). Plain backtracking is
/// left out: it needs about 100 million nodes on the built-in puzzle (20 s).
const COMPARE_CONFIGS: &str = "fc+mrv,fc-cbj+mrv,mac+mrv,mac+mrv+pairwise,mac+domwdeg";

/// The option that says which puzzle to solve (or compare on).
#[derive(Args, Clone, Debug)]
struct PuzzleArgs {
    /// The cage file ('-' reads standard input); see docs/formats.md.
    file: Option<PathBuf>,
}

impl Puzzle for KillerSudoku {
    type Args = PuzzleArgs;
    type Options = NoOptions;
    const NAME: &'static str = "killer_sudoku";
    const ABOUT: &'static str = "Solves a killer sudoku given as a cage file (the built-in one by default).";
    const WHAT: &'static str = "a killer sudoku";
    const GOAL_HELP: &'static str = "first";
    const COMPARE_CONFIGS: &'static str = COMPARE_CONFIGS;

    fn default_config() -> SolveConfig {
        default_config()
    }

    /// The first solution: a count also proves uniqueness, but takes 467,000
    /// nodes under forward checking.
    fn compare_goal(_: &PuzzleArgs) -> GoalArg {
        GoalArg::First
    }

    /// The file's puzzle, or the built-in one; its name is the file's, or `built-in puzzle`.
    fn load(args: &PuzzleArgs, io: &mut Io<'_>) -> anyhow::Result<(String, KillerSudoku)> {
        gallery::load_file(args.file.as_deref(), BUILT_IN, io, KillerSudoku::parse)
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.build()?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the cells, row-major.
        let grid = solution.values();
        self.verify(grid).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        write_grid(out, grid, self.size, self.box_rows, self.box_columns)?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::support::{
        Case, assert_built_in_is_unique, assert_file_reads_like_the_built_in_one, assert_malformed, check_compare,
        fixture, run,
    };

    const TOOL: csp_cli::app::Tool = gallery::run::<KillerSudoku>;

    #[test]
    fn the_built_in_puzzle_has_a_unique_checked_solution() {
        assert_built_in_is_unique(TOOL);
        // Not under every level: forward checking takes 467,000 nodes, too many
        // for a debug build.
        let puzzle = KillerSudoku::parse(BUILT_IN, "built-in").unwrap();
        let (model, cells) = puzzle.build().unwrap();
        let solution = model.solve().unwrap().unwrap();
        let mut grid: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
        puzzle.verify(&grid).unwrap();
        grid.swap(0, 1);
        assert!(puzzle.verify(&grid).is_err(), "the verifier must catch a broken grid");
    }

    #[test]
    fn a_puzzle_file_is_read_like_the_built_in_one() {
        assert_file_reads_like_the_built_in_one(TOOL, "killer_sudoku.txt");
    }

    #[test]
    fn malformed_puzzles_exit_two_with_file_line_and_column() {
        assert_malformed(
            TOOL,
            &[
                ("bad/killer_missing_sum.txt", "line 4, column 1: missing the sum of cage 'h'"),
                ("bad/killer_short_row.txt", "line 3, column 4: this row has 3 cells, the first has 4"),
                ("bad/killer_bad_sum.txt", "line 12, column 5: expected sum (a whole number), found 'one'"),
                ("bad/empty.txt", "line 1, column 1: missing the grid"),
            ],
        );
        let binary = run(TOOL, &[&fixture("bad/not_utf8.txt")]);
        assert_eq!(binary.code, 2);
        assert!(binary.stderr.contains("cannot read"), "{}", binary.stderr);
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            // (`/ac2001` would change nothing here: every constraint has its own propagator.)
            configs: "mac+mrv,mac+domwdeg,mac+mrv+pairwise",
            goal: "first",
            answer: 1,
        });
        // After `--`, `--compare` is a file name.
        assert_eq!(run(TOOL, &["--", "--compare"]).code, 2);
    }

    const SMALL: &str = "# 4x4\naabb\ncdde\ncfge\nhfgg\na=3\nb = 7\nc=7\nd=5\ne=5\nf=5\ng=7\nh=1\n";

    #[test]
    fn a_cage_file_parses() {
        let puzzle = KillerSudoku::parse(SMALL, "small").unwrap();
        assert_eq!(puzzle.size, 4);
        assert_eq!(puzzle.cages.len(), 8);
        assert_eq!(puzzle.cages[1], Cage { label: 'b', sum: 7, cells: vec![2, 3] });
        assert_eq!(puzzle.cages[6].cells, vec![10, 14, 15]);
    }

    #[test]
    fn mistakes_are_located() {
        let at = |input: &str| {
            let e = KillerSudoku::parse(input, "k").unwrap_err();
            (e.line, e.column, e.to_string())
        };
        let (line, column, message) = at("aabb\ncdde\ncfge\nhfgg\na=3\nb=7\nc=7\nd=5\ne=5\nf=5\ng=7\n");
        assert_eq!((line, column), (4, 1));
        assert!(message.contains("missing the sum of cage 'h'"), "{message}");
        assert_eq!(at("aabb\ncdd\n").0, 2);
        assert_eq!(at("aabb\ncdd\n").1, 4);
        assert_eq!(at("aabbc\n").1, 5);
        assert_eq!(at(&SMALL.replace("b = 7", "b = x")).1, 5);
        assert_eq!(at(&SMALL.replace("b = 7", "b = 7 8")).1, 7);
        assert_eq!(at(&SMALL.replace("h=1", "h=1\nz=4")).2, "k: line 14, column 1: no cell of the grid is in cage 'z'");
        assert_eq!((at(&SMALL.replace("hfgg", "afgg")).0, at(&SMALL.replace("hfgg", "afgg")).1), (5, 1));
        assert!(at(&SMALL.replace("h=1", "h=1\na=2")).2.contains("given twice (first on line 6)"));
        assert_eq!(at("aa#b\n").1, 3);
    }
}
