//! KenKen: a latin square (each digit `1..=n` once in every row and column) whose
//! cells are grouped into cages; the digits of a cage make its target with its
//! operation: added, multiplied, subtracted (two cells, the larger minus the
//! smaller) or divided (two cells, the larger by the smaller). Digits may repeat in
//! a cage, on different rows and columns.
//!
//! The text format gives the size, then one cage per line (see `docs/formats.md`),
//! cells named by a column letter and a row number:
//!
//! ```text
//! 6
//! 11 + A1 A2
//! 2 / B1 C1
//! 20 * D1 D2
//! ...
//! ```
//!
//! The built-in puzzle is the example of Wikipedia's "KenKen" article
//! (`File:KenKenProblem.svg`), whose published solution the tests check.
//!
//! The model shows the arithmetic constraints at work: a variable per cell,
//! `all_different` per row and column, and per cage a `linear` sum, a chain of
//! `times` through partial products (whose domains are the target's divisors), `abs`
//! of a difference, or `minimum` and `maximum` of the two cells with `times`
//! (`smaller * target = larger`).
//!
//! ```text
//! cargo run --release --example kenken -- [FILE] [--count] [--stats] [strategy options]
//! cargo run --release --example kenken -- [FILE] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare`, reading the file (`-` is standard input) and the
//! exit codes come from [`csp_cli::gallery`]; the parser's errors name the
//! file, the line and the column ([`csp_cli::gallery::ParseError`]).

use std::io::Write;

use csp::{Domain, Model, ModelError, Relation, Solution, VarId};

use csp_cli::Io;
use csp_cli::gallery::text::{self, Problem, Source};
use csp_cli::gallery::{self, FileArgs, NoOptions, ParseError, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<KenKen>()
}

/// The built-in puzzle, solved when no file is given.
const BUILT_IN: &str = include_str!("data/kenken.txt");

/// The largest target a cage may have.
const MAX_TARGET: i64 = 1_000_000_000;

/// How the digits of a cage make its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Operation {
    Add,
    Subtract,
    Multiply,
    Divide,
    /// A single cell holding the target.
    Given,
}

impl Operation {
    /// The operation's sign in the file and the number of cells it needs, if fixed.
    fn sign_and_arity(self) -> (char, Option<usize>) {
        match self {
            Operation::Add => ('+', None),
            Operation::Subtract => ('-', Some(2)),
            Operation::Multiply => ('*', None),
            Operation::Divide => ('/', Some(2)),
            Operation::Given => ('=', Some(1)),
        }
    }
}

/// One cage: its target, operation and cells (row-major indices).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cage {
    target: i64,
    operation: Operation,
    cells: Vec<usize>,
}

impl Cage {
    /// Whether the digits make the target.
    fn holds(&self, digits: &[i64]) -> bool {
        match (self.operation, digits) {
            (Operation::Add, _) => digits.iter().sum::<i64>() == self.target,
            (Operation::Multiply, _) => digits.iter().product::<i64>() == self.target,
            (Operation::Subtract, [a, b]) => (a - b).abs() == self.target,
            (Operation::Divide, [a, b]) => a.max(b) % a.min(b) == 0 && a.max(b) / a.min(b) == self.target,
            (Operation::Given, [a]) => *a == self.target,
            _ => false,
        }
    }

    fn describe(&self) -> String {
        format!("{}{}", self.target, self.operation.sign_and_arity().0)
    }
}

/// A KenKen puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
struct KenKen {
    /// The number of rows, columns and digits.
    size: usize,
    /// The cages, in the file's order.
    cages: Vec<Cage>,
}

/// The name of a cell in the file: its column's letter and its row's number (`C4`).
fn cell_name(cell: usize, size: usize) -> String {
    format!("{}{}", (b'A' + (cell % size) as u8) as char, cell / size + 1)
}

/// The cell a name such as `C4` stands for, in a grid of `size` (case ignored).
fn parse_cell(word: &str, size: usize) -> Result<usize, Problem> {
    let last = (b'A' + size as u8 - 1) as char;
    let expected = format!("a cell A1 to {last}{size} (a column letter and a row number)");
    let mut chars = word.chars();
    let column = chars.next().map(|c| c.to_ascii_uppercase()).filter(|c| ('A'..=last).contains(c));
    let row = chars.as_str().parse::<usize>().ok().filter(|r| (1..=size).contains(r));
    match (column, row) {
        (Some(column), Some(row)) => Ok((row - 1) * size + (column as u8 - b'A') as usize),
        _ => Err(Problem::unexpected(expected, word)),
    }
}

impl KenKen {
    /// Parses the text format; `file` names the input in errors.
    fn parse(input: &str, file: &str) -> Result<KenKen, ParseError> {
        let source = Source::new(file);
        let mut size = None;
        let mut cages = Vec::new();
        // The line each cell's cage is on.
        let mut owner: Vec<Option<usize>> = Vec::new();
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            let number = index + 1;
            last_line = number;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let at = |column: usize, problem: Problem| source.error(number, column, problem);
            let words = text::tokens(line);
            let Some(n) = size else {
                let n = text::number(words[0].text, "size", 3, 9).map_err(|p| at(words[0].column, p))? as usize;
                if let Some(extra) = words.get(1) {
                    return Err(at(
                        extra.column,
                        Problem::unexpected("the end of the line after the size", extra.text),
                    ));
                }
                size = Some(n);
                owner = vec![None; n * n];
                continue;
            };
            let target = text::number(words[0].text, "target", 1, MAX_TARGET).map_err(|p| at(words[0].column, p))?;
            let Some(sign) = words.get(1) else {
                return Err(at(text::end_column(line), Problem::end_of_line("an operation after the target")));
            };
            let operation = match sign.text {
                "+" => Operation::Add,
                "-" => Operation::Subtract,
                "*" | "x" => Operation::Multiply,
                "/" => Operation::Divide,
                "=" => Operation::Given,
                other => {
                    return Err(at(sign.column, Problem::unexpected("an operation '+', '-', '*', '/' or '='", other)));
                }
            };
            if words.len() == 2 {
                return Err(at(text::end_column(line), Problem::end_of_line("the cage's cells")));
            }
            let mut cells = Vec::with_capacity(words.len() - 2);
            for word in &words[2..] {
                let cell = parse_cell(word.text, n).map_err(|p| at(word.column, p))?;
                if let Some(first_line) = owner[cell] {
                    return Err(at(
                        word.column,
                        Problem::Duplicate { what: format!("cell {}", word.text), first_line },
                    ));
                }
                owner[cell] = Some(number);
                cells.push(cell);
            }
            let (sign_char, arity) = operation.sign_and_arity();
            if let Some(arity) = arity.filter(|&a| a != cells.len()) {
                let cells_word = if arity == 1 { "one cell" } else { "two cells" };
                return Err(at(
                    sign.column,
                    Problem::invalid(format!("a '{sign_char}' cage has {cells_word}, this one has {}", cells.len())),
                ));
            }
            cages.push(Cage { target, operation, cells });
        }
        let Some(n) = size else {
            return Err(source.error(last_line + 1, 1, Problem::Missing { what: "the size".into() }));
        };
        if let Some(cell) = owner.iter().position(Option::is_none) {
            return Err(source.error(
                last_line + 1,
                1,
                Problem::Missing { what: format!("a cage for cell {}", cell_name(cell, n)) },
            ));
        }
        Ok(KenKen { size: n, cages })
    }

    /// The model, and the variable of each cell: cells `A1 ..` (row-major) over
    /// `1..=size`, `all_different` per row and column, and each cage's arithmetic
    /// (with auxiliary variables after the cells).
    fn build(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(n * n);
        for i in 0..n * n {
            cells.push(model.new_named_var(cell_name(i, n), 1..=n as i64)?);
        }
        for k in 0..n {
            let row: Vec<VarId> = (0..n).map(|c| cells[k * n + c]).collect();
            let column: Vec<VarId> = (0..n).map(|r| cells[r * n + k]).collect();
            model.all_different(&row)?;
            model.all_different(&column)?;
        }
        for cage in &self.cages {
            let vars: Vec<VarId> = cage.cells.iter().map(|&i| cells[i]).collect();
            let target = model.new_var(cage.target..=cage.target)?;
            let id = match (cage.operation, &vars[..]) {
                (Operation::Add | Operation::Given, _) | (Operation::Multiply, [_]) => {
                    model.linear(&vars.iter().map(|&v| (1, v)).collect::<Vec<_>>(), Relation::Eq, cage.target)?
                }
                (Operation::Multiply, [first, rest @ ..]) => {
                    // Partial products divide the target.
                    let divisors = Domain::values(divisors(cage.target));
                    let mut product = *first;
                    let mut id = None;
                    for (k, &cell) in rest.iter().enumerate() {
                        let next = if k + 1 == rest.len() { target } else { model.new_var(divisors.clone())? };
                        id = Some(model.times(product, cell, next)?);
                        product = next;
                    }
                    id.expect("a cage of two or more cells")
                }
                (Operation::Subtract, &[a, b]) => {
                    let span = n as i64 - 1;
                    let difference = model.new_var(-span..=span)?;
                    model.linear(&[(1, a), (-1, b), (-1, difference)], Relation::Eq, 0)?;
                    model.abs(difference, target)?
                }
                (Operation::Divide, &[a, b]) => {
                    let smaller = model.new_var(1..=n as i64)?;
                    let larger = model.new_var(1..=n as i64)?;
                    model.minimum(smaller, &[a, b])?;
                    model.maximum(larger, &[a, b])?;
                    model.times(smaller, target, larger)?
                }
                _ => unreachable!("the parser checks the number of cells of '-', '/' and '=' cages"),
            };
            model.set_label(id, format!("cage {} at {}", cage.describe(), cell_name(cage.cells[0], n)))?;
        }
        Ok((model, cells))
    }

    /// Checks a filled grid (row-major) by the rules, without the solver.
    fn verify(&self, grid: &[i64]) -> Result<(), String> {
        let n = self.size;
        if grid.len() != n * n || grid.iter().any(|d| !(1..=n as i64).contains(d)) {
            return Err(format!("the grid is not {n} x {n} digits 1 to {n}"));
        }
        for k in 0..n {
            let mut row: Vec<i64> = (0..n).map(|c| grid[k * n + c]).collect();
            let mut column: Vec<i64> = (0..n).map(|r| grid[r * n + k]).collect();
            row.sort_unstable();
            column.sort_unstable();
            row.dedup();
            column.dedup();
            if row.len() != n || column.len() != n {
                return Err(format!("a digit repeats in row or column {}", k + 1));
            }
        }
        for cage in &self.cages {
            let digits: Vec<i64> = cage.cells.iter().map(|&i| grid[i]).collect();
            if !cage.holds(&digits) {
                return Err(format!("cage {} at {} is broken", cage.describe(), cell_name(cage.cells[0], n)));
            }
        }
        Ok(())
    }

    /// Draws a filled grid, one row per line.
    fn draw(&self, grid: &[i64]) -> String {
        grid.chunks(self.size).map(|row| row.iter().map(i64::to_string).collect::<Vec<_>>().join(" ") + "\n").collect()
    }
}

/// The divisors of `target` (at least 1), in increasing order.
fn divisors(target: i64) -> Vec<i64> {
    let mut small = Vec::new();
    let mut large = Vec::new();
    let mut d = 1;
    while d * d <= target {
        if target % d == 0 {
            small.push(d);
            if d * d != target {
                large.push(target / d);
            }
        }
        d += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

impl Puzzle for KenKen {
    type Args = FileArgs;
    type Options = NoOptions;
    const NAME: &'static str = "kenken";
    const ABOUT: &'static str = "Solves a KenKen given in the text format (the built-in one by default).";
    const WHAT: &'static str = "a KenKen";

    /// The file's puzzle, or the built-in one; its name is the file's, or `built-in puzzle`.
    fn load(args: &FileArgs, io: &mut Io<'_>) -> anyhow::Result<(String, KenKen)> {
        gallery::load_file(args.file.as_deref(), BUILT_IN, io, KenKen::parse)
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.build()?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The first variables are the cells, row-major.
        let grid = &solution.values()[..self.size * self.size];
        self.verify(grid).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        write!(out, "{}", self.draw(grid))?;
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
        Case, assert_built_in_is_unique, assert_count_everywhere, assert_file_reads_like_the_built_in_one,
        assert_malformed, check_compare, run,
    };

    const TOOL: csp_cli::app::Tool = gallery::run::<KenKen>;

    /// The solution Wikipedia publishes with the puzzle (`File:KenKenSolution.svg`).
    const PUBLISHED: &str = "5 6 3 4 1 2\n6 1 4 5 2 3\n4 5 2 3 6 1\n3 4 1 2 5 6\n2 3 6 1 4 5\n1 2 5 6 3 4\n";

    #[test]
    fn the_built_in_puzzle_has_the_published_solution_and_no_other() {
        assert_built_in_is_unique(TOOL);
        assert_count_everywhere(TOOL, &[], 1);
        let solved = run(TOOL, &[]);
        assert_eq!((solved.code, solved.stdout.as_str()), (0, PUBLISHED));
        let puzzle = KenKen::parse(BUILT_IN, "built-in").unwrap();
        let mut grid: Vec<i64> = PUBLISHED.split_whitespace().map(|d| d.parse().unwrap()).collect();
        puzzle.verify(&grid).unwrap();
        grid.swap(0, 1);
        assert!(puzzle.verify(&grid).is_err());
    }

    #[test]
    fn a_puzzle_file_is_read_like_the_built_in_one() {
        assert_file_reads_like_the_built_in_one(TOOL, "kenken.txt");
    }

    #[test]
    fn malformed_puzzles_exit_two_with_file_line_and_column() {
        assert_malformed(
            TOOL,
            &[
                ("bad/kenken_bad_cage.txt", "line 3, column 3: a '-' cage has two cells, this one has 1"),
                ("bad/kenken_bad_operation.txt", "line 3, column 3: expected an operation '+', '-', '*', '/' or '='"),
                (
                    "bad/kenken_bad_cell.txt",
                    "line 4, column 11: expected a cell A1 to C3 (a column letter and a row number), found 'D3'",
                ),
                ("bad/kenken_missing_cell.txt", "line 5, column 1: missing a cage for cell C3"),
            ],
        );
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "fc+mrv,mac+domwdeg,mac+domdeg+lcv",
            goal: "count",
            answer: 1,
        });
    }

    #[test]
    fn each_operation_is_modelled_and_checked() {
        // 3x3, made from the square 123 / 231 / 312.
        let puzzle = KenKen::parse("3\n2 / A1 B1\n2 - C1 C2\n18 * A2 B2 A3\n3 + B3 C3\n", "k").unwrap();
        assert_eq!(puzzle.cages[0], Cage { target: 2, operation: Operation::Divide, cells: vec![0, 1] });
        let (model, cells) = puzzle.build().unwrap();
        let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
        let solutions: Vec<Vec<i64>> =
            solver.solutions().map(|s| cells.iter().map(|&c| s[c]).collect::<Vec<i64>>()).collect();
        // Brute force over the 12 latin squares of order 3.
        let mut expected = Vec::new();
        for grid in latin_squares() {
            if puzzle.verify(&grid).is_ok() {
                expected.push(grid);
            }
        }
        let mut solutions = solutions;
        solutions.sort();
        expected.sort();
        assert_eq!(solutions, expected);
        assert!(!expected.is_empty());
        let given = KenKen::parse("3\n2 = A1\n3 + B1 C1\n6 * A2 B2 C2\n6 * A3 B3 C3\n", "k").unwrap();
        assert_eq!(given.cages[0].operation, Operation::Given);
        assert_eq!(divisors(240).len(), 20);
        assert_eq!(divisors(36), vec![1, 2, 3, 4, 6, 9, 12, 18, 36]);
    }

    /// The 12 latin squares of order 3, row-major.
    fn latin_squares() -> Vec<Vec<i64>> {
        let permutations = [[1, 2, 3], [1, 3, 2], [2, 1, 3], [2, 3, 1], [3, 1, 2], [3, 2, 1]];
        let mut squares = Vec::new();
        for a in permutations {
            for b in permutations {
                for c in permutations {
                    let grid: Vec<i64> = a.iter().chain(&b).chain(&c).copied().collect();
                    let columns_ok = (0..3).all(|k| {
                        let mut column = [grid[k], grid[3 + k], grid[6 + k]];
                        column.sort_unstable();
                        column == [1, 2, 3]
                    });
                    if columns_ok {
                        squares.push(grid);
                    }
                }
            }
        }
        squares
    }

    #[test]
    fn mistakes_are_located() {
        let at = |input: &str| {
            let e = KenKen::parse(input, "k").unwrap_err();
            (e.line, e.column, e.problem.to_string())
        };
        assert_eq!(at("# nothing\n").0, 2);
        assert_eq!(at("12\n").1, 1);
        assert_eq!(at("3 3\n").1, 3);
        assert_eq!(at("3\n6\n"), (2, 2, "expected an operation after the target, found the end of the line".into()));
        assert_eq!(at("3\n6 +\n").1, 4);
        assert_eq!(at("3\n0 + A1\n").1, 1);
        assert_eq!(at("3\n6 + A1 A1\n"), (2, 8, "cell A1 is given twice (first on line 2)".into()));
        assert_eq!(at("3\n2 / A1 B1 C1\n").1, 3);
        assert_eq!(at("3\n2 = A1 B1\n").2, "a '=' cage has one cell, this one has 2");
        assert_eq!(at("3\n6 + a1 b1 c1\n6 + A2 B2 C2\n6 + A3 B3 C4\n").1, 11);
    }
}
