//! Futoshiki: a latin square (each digit `1..=n` once in every row and column) with
//! some digits given and inequality signs between neighbouring cells.
//!
//! The text format draws the grid (see `docs/formats.md`): cells at the even
//! columns, with `<` or `>` between horizontal neighbours, and between two rows a line
//! with `^` (the upper cell is smaller) or `v` (the upper cell is larger) under a cell:
//!
//! ```text
//! .<. . .
//!     v
//! . . .>.
//! ^
//! . 3 . .
//!
//! . . . 1
//! ```
//!
//! The model: a variable per cell, `all_different` per row and column, the givens as
//! one-value domains and a `less_than` per sign.
//!
//! ```text
//! cargo run --release --example futoshiki -- [FILE] [--count] [--stats] [strategy options]
//! cargo run --release --example futoshiki -- [FILE] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare`, reading the file (`-` is standard input) and the
//! exit codes come from [`csp_cli::gallery`]; the parser's errors name the
//! file, the line and the column ([`csp_cli::gallery::ParseError`]).

use std::io::Write;

use csp::{Model, ModelError, Solution, VarId};

use csp_cli::Io;
use csp_cli::gallery::text::{Problem, Source};
use csp_cli::gallery::{self, FileArgs, NoOptions, ParseError, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<Futoshiki>()
}

/// The built-in puzzle, solved when no file is given.
const BUILT_IN: &str = include_str!("data/futoshiki.txt");

/// The largest size: cells are single digits.
const MAX_SIZE: usize = 9;

/// A futoshiki puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Futoshiki {
    /// The number of rows, columns and digits.
    size: usize,
    /// The given digits, row-major.
    givens: Vec<Option<i64>>,
    /// The inequalities `(a, b)`: cell `a` is smaller than cell `b` (row-major indices).
    less: Vec<(usize, usize)>,
}

impl Futoshiki {
    /// Parses the text format; `file` names the input in errors.
    fn parse(input: &str, file: &str) -> Result<Futoshiki, ParseError> {
        let source = Source::new(file);
        // The lines of the drawing with their numbers: comments are dropped anywhere,
        // blank lines only before the first row and after the last one (in between
        // they are lines without vertical signs).
        let mut lines: Vec<(usize, &str)> = Vec::new();
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            last_line = index + 1;
            if line.trim_start().starts_with('#') || (lines.is_empty() && line.trim().is_empty()) {
                continue;
            }
            lines.push((index + 1, line));
        }
        while lines.last().is_some_and(|(_, line)| line.trim().is_empty()) {
            lines.pop();
        }
        let Some(&(first_line, first)) = lines.first() else {
            return Err(source.error(last_line + 1, 1, Problem::Missing { what: "the grid".into() }));
        };
        let width = first.trim_end().chars().count();
        let size = width.div_ceil(2);
        if width % 2 == 0 {
            return Err(source.error(
                first_line,
                width,
                Problem::invalid("a row must end with a cell, not a sign (cells are at columns 1, 3, 5, ...)"),
            ));
        }
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(source.error(
                first_line,
                1,
                Problem::invalid(format!("the first row has {size} cells; a futoshiki has 2 to {MAX_SIZE}")),
            ));
        }
        let expected_lines = 2 * size - 1;
        if let Some(&(line, _)) = lines.get(expected_lines) {
            return Err(source.error(
                line,
                1,
                Problem::invalid(format!("the grid has {size} columns, so {size} rows; this line is one too many")),
            ));
        }
        if lines.len() < expected_lines {
            let what = if lines.len() % 2 == 0 { "the next row" } else { "the line of signs and the next row" };
            return Err(source.error(
                last_line + 1,
                1,
                Problem::Missing { what: format!("{what}: {size} columns need {size} rows") },
            ));
        }
        let mut givens = vec![None; size * size];
        let mut less = Vec::new();
        for (k, &(number, line)) in lines.iter().enumerate() {
            let at = |column: usize, problem: Problem| source.error(number, column, problem);
            let chars: Vec<char> = line.trim_end().chars().collect();
            if let Some(extra) = chars.get(2 * size - 1..).and_then(|rest| rest.iter().position(|c| *c != ' ')) {
                return Err(at(2 * size + extra, Problem::invalid("this is to the right of the last cell")));
            }
            let row = k / 2;
            if k % 2 == 0 {
                for (i, &c) in chars.iter().enumerate().take(2 * size - 1) {
                    let column = i / 2;
                    let cell = row * size + column;
                    if i % 2 == 0 {
                        match c {
                            '.' => {}
                            '1'..='9' if (c as i64 - '0' as i64) <= size as i64 => {
                                givens[cell] = Some(c as i64 - '0' as i64);
                            }
                            _ => {
                                return Err(at(
                                    i + 1,
                                    Problem::unexpected(format!("a digit 1 to {size} or '.'"), &c.to_string()),
                                ));
                            }
                        }
                    } else {
                        match c {
                            ' ' => {}
                            '<' => less.push((cell, cell + 1)),
                            '>' => less.push((cell + 1, cell)),
                            _ => return Err(at(i + 1, Problem::unexpected("'<', '>' or a space", &c.to_string()))),
                        }
                    }
                }
                if chars.len() < 2 * size - 1 {
                    return Err(at(chars.len() + 1, Problem::end_of_line(format!("{size} cells"))));
                }
            } else {
                for (i, &c) in chars.iter().enumerate() {
                    let cell = row * size + i / 2;
                    match (i % 2, c) {
                        (_, ' ') => {}
                        (0, '^') => less.push((cell, cell + size)),
                        (0, 'v' | 'V') => less.push((cell + size, cell)),
                        (0, _) => return Err(at(i + 1, Problem::unexpected("'^', 'v' or a space", &c.to_string()))),
                        _ => {
                            return Err(at(
                                i + 1,
                                Problem::unexpected("a space (signs go under the cells)", &c.to_string()),
                            ));
                        }
                    }
                }
            }
        }
        Ok(Futoshiki { size, givens, less })
    }

    /// The model, and the variable of each cell: cells `r1c1 ..` (row-major) over `1..=size` (a given digit as its
    /// only value), `all_different` per row and column, `less_than` per sign.
    fn build(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(n * n);
        for (i, given) in self.givens.iter().enumerate() {
            let name = format!("r{}c{}", i / n + 1, i % n + 1);
            cells.push(match given {
                Some(d) => model.new_named_var(name, *d..=*d)?,
                None => model.new_named_var(name, 1..=n as i64)?,
            });
        }
        for k in 0..n {
            let row: Vec<VarId> = (0..n).map(|c| cells[k * n + c]).collect();
            let column: Vec<VarId> = (0..n).map(|r| cells[r * n + k]).collect();
            model.all_different(&row)?;
            model.all_different(&column)?;
        }
        for &(a, b) in &self.less {
            model.less_than(cells[a], cells[b])?;
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
        if let Some(i) = (0..n * n).find(|&i| self.givens[i].is_some_and(|d| d != grid[i])) {
            return Err(format!("cell {} does not keep its given digit", i + 1));
        }
        if let Some(&(a, b)) = self.less.iter().find(|&&(a, b)| grid[a] >= grid[b]) {
            return Err(format!("cells {} and {} break their inequality", a + 1, b + 1));
        }
        Ok(())
    }

    /// Draws a filled grid in the input format, signs included.
    fn draw(&self, grid: &[i64]) -> String {
        let n = self.size;
        let mut text = String::new();
        let sign = |a: usize, b: usize, smaller: char, larger: char| {
            if self.less.contains(&(a, b)) {
                smaller
            } else if self.less.contains(&(b, a)) {
                larger
            } else {
                ' '
            }
        };
        for r in 0..n {
            if r > 0 {
                let line: String = (0..n)
                    .map(|c| sign((r - 1) * n + c, r * n + c, '^', 'v').to_string())
                    .collect::<Vec<_>>()
                    .join(" ");
                text.push_str(line.trim_end());
                text.push('\n');
            }
            let mut line = String::new();
            for c in 0..n {
                if c > 0 {
                    line.push(sign(r * n + c - 1, r * n + c, '<', '>'));
                }
                line.push_str(&grid[r * n + c].to_string());
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    }
}

impl Puzzle for Futoshiki {
    type Args = FileArgs;
    type Options = NoOptions;
    const NAME: &'static str = "futoshiki";
    const ABOUT: &'static str = "Solves a futoshiki given in the text format (the built-in one by default).";
    const WHAT: &'static str = "a futoshiki";

    /// The file's puzzle, or the built-in one; its name is the file's, or `built-in puzzle`.
    fn load(args: &FileArgs, io: &mut Io<'_>) -> anyhow::Result<(String, Futoshiki)> {
        gallery::load_file(args.file.as_deref(), BUILT_IN, io, Futoshiki::parse)
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.build()?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the cells, row-major.
        let grid = solution.values();
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
        assert_malformed, check_compare, fixture, run,
    };

    const TOOL: csp_cli::app::Tool = gallery::run::<Futoshiki>;

    #[test]
    fn the_built_in_puzzle_has_a_unique_checked_solution() {
        assert_built_in_is_unique(TOOL);
        assert_count_everywhere(TOOL, &[], 1);
        let puzzle = Futoshiki::parse(BUILT_IN, "built-in").unwrap();
        let (model, cells) = puzzle.build().unwrap();
        let solution = model.solve().unwrap().unwrap();
        let mut grid: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
        puzzle.verify(&grid).unwrap();
        grid.swap(0, 5);
        assert!(puzzle.verify(&grid).is_err());
    }

    #[test]
    fn a_puzzle_file_is_read_like_the_built_in_one() {
        assert_file_reads_like_the_built_in_one(TOOL, "futoshiki.txt");
    }

    #[test]
    fn malformed_puzzles_exit_two_with_file_line_and_column() {
        assert_malformed(
            TOOL,
            &[
                ("bad/futoshiki_bad_sign.txt", "line 4, column 3: expected '^', 'v' or a space, found '?'"),
                ("bad/futoshiki_bad_digit.txt", "line 3, column 3: expected a digit 1 to 3 or '.', found '7'"),
                ("bad/futoshiki_missing_rows.txt", "line 4, column 1: missing the line of signs"),
            ],
        );
        let unknown = run(TOOL, &["--propagation", "magic"]);
        assert_eq!(unknown.code, 2);
        assert!(unknown.stderr.contains("unknown propagation level 'magic'"), "{}", unknown.stderr);
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![&fixture("futoshiki.txt")],
            configs: "bt+input,fc+mrv,mac+domwdeg",
            goal: "count",
            answer: 1,
        });
        let strategy = run(TOOL, &["--compare", "--propagation", "fc"]);
        assert_eq!(strategy.code, 2, "the configurations say the strategy: {}", strategy.stdout);
    }

    #[test]
    fn a_drawing_parses() {
        let puzzle = Futoshiki::parse("# c\n\n.<. .\n    v\n. 3 .\n^\n. . .\n\n", "f").unwrap();
        assert_eq!(puzzle.size, 3);
        assert_eq!(puzzle.givens[4], Some(3));
        assert_eq!(puzzle.less, vec![(0, 1), (5, 2), (3, 6)]);
        let drawn = puzzle.draw(&[1, 2, 3, 2, 3, 1, 3, 1, 2]);
        assert_eq!(drawn, "1<2 3\n    v\n2 3 1\n^\n3 1 2\n");
    }

    #[test]
    fn mistakes_are_located() {
        let at = |input: &str| {
            let e = Futoshiki::parse(input, "f").unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(at(".<. .\n\n. 4 .\n\n. . .\n"), (3, 3));
        assert_eq!(at(".<. .\n\n. . .\n\n. .\n"), (5, 4));
        assert_eq!(at(".<. .\n\n. . . .\n\n. . .\n"), (3, 7));
        assert_eq!(at(".<. .\n ^\n. . .\n\n. . .\n"), (2, 2));
        assert_eq!(at(".=. .\n\n. . .\n\n. . .\n"), (1, 2));
        assert_eq!(at(".<. .\n\n. . .\n"), (4, 1));
        assert_eq!(at(".<. .\n\n. . .\n\n. . .\n\n. . .\n"), (6, 1));
        assert_eq!(at(".<. .<\n"), (1, 6));
        assert_eq!(at("\n# only a comment\n"), (3, 1));
    }
}
