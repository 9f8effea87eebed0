//! Nonogram (paint by numbers): fill cells of a grid so that each row and column
//! has blocks of filled cells of the lengths its clue lists, in order, separated
//! by at least one blank cell.
//!
//! The text format lists the clues (see `docs/formats.md`):
//!
//! ```text
//! rows
//! 11
//! 3 5 5 3
//! ...
//! columns
//! 4 12
//! ...
//! ```
//!
//! The model is one `regular` constraint per line, whose automaton
//! (`Dfa::from_runs`) accepts the lines with the clue's blocks
//! (`nonogram/lines.rs`, shared with `benches/nonogram.rs`). `regular` is domain
//! consistent, so propagation does all that reasoning line by line can do: the
//! built-in puzzle, Jan Wolter's "Bucks" (27 x 23), needs a handful of decisions.
//!
//! ```text
//! cargo run --release --example nonogram -- [FILE] [--count] [--stats] [strategy options]
//! cargo run --release --example nonogram -- [FILE] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare`, reading the file (`-` is standard input) and the
//! exit codes come from [`csp_cli::gallery`]; the parser's errors name the
//! file, the line and the column ([`csp_cli::gallery::ParseError`]).

mod lines;

use std::io::Write;

use csp::{Model, ModelError, Solution};

use csp_cli::Io;
use csp_cli::gallery::text::{self, Problem, Source};
use csp_cli::gallery::{self, FileArgs, NoOptions, ParseError, Puzzle};

use lines::Clues;

fn main() -> std::process::ExitCode {
    gallery::main::<Nonogram>()
}

/// The built-in puzzle, solved when no file is given.
const BUILT_IN: &str = include_str!("../data/nonogram.txt");

/// The most rows or columns, and the longest block.
const MAX_SIZE: usize = 1000;

/// A nonogram puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Nonogram {
    clues: Clues,
}

impl Nonogram {
    /// Parses the text format; `file` names the input in errors.
    fn parse(input: &str, file: &str) -> Result<Nonogram, ParseError> {
        let source = Source::new(file);
        let mut rows: Option<Vec<Vec<usize>>> = None;
        let mut columns: Option<Vec<Vec<usize>>> = None;
        // Which section clue lines go to, and where each section started.
        let mut current: Option<bool> = None; // Some(true) for rows
        let mut started = [0usize; 2];
        let mut last_line = 0;
        for (index, line) in input.lines().enumerate() {
            let number = index + 1;
            last_line = number;
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let at = |column: usize, problem: Problem| source.error(number, column, problem);
            let words = text::tokens(line);
            if let [word] = words.as_slice() {
                if let Some(is_rows) = match word.text {
                    "rows" => Some(true),
                    "columns" => Some(false),
                    _ => None,
                } {
                    let section = if is_rows { &mut rows } else { &mut columns };
                    if section.is_some() {
                        let what = format!("the '{}' section", word.text);
                        let first_line = started[usize::from(is_rows)];
                        return Err(at(word.column, Problem::Duplicate { what, first_line }));
                    }
                    *section = Some(Vec::new());
                    started[usize::from(is_rows)] = number;
                    current = Some(is_rows);
                    continue;
                }
            }
            let Some(is_rows) = current else {
                return Err(at(
                    words[0].column,
                    Problem::unexpected("'rows' or 'columns' before the clues", words[0].text),
                ));
            };
            let mut clue = Vec::with_capacity(words.len());
            for word in &words {
                let length =
                    text::number(word.text, "block length", 0, MAX_SIZE as i64).map_err(|p| at(word.column, p))?;
                if length == 0 && words.len() > 1 {
                    return Err(at(
                        word.column,
                        Problem::invalid("a block has at least one cell (0 alone is an empty line)"),
                    ));
                }
                clue.push(length as usize);
            }
            let section = if is_rows { &mut rows } else { &mut columns };
            let section = section.as_mut().expect("the current section exists");
            if section.len() == MAX_SIZE {
                return Err(at(1, Problem::invalid(format!("more than {MAX_SIZE} lines in a section"))));
            }
            section.push(clue);
        }
        let missing = |what: &str| source.error(last_line + 1, 1, Problem::Missing { what: what.to_string() });
        let rows = rows
            .filter(|r| !r.is_empty())
            .ok_or_else(|| missing("the clues of the rows ('rows', then a clue per line)"))?;
        let columns = columns
            .filter(|c| !c.is_empty())
            .ok_or_else(|| missing("the clues of the columns ('columns', then a clue per line)"))?;
        Ok(Nonogram { clues: Clues { rows, columns } })
    }

    /// Draws a filled grid: `#` for a filled cell, `.` for a blank one.
    fn draw(&self, grid: &[i64]) -> String {
        grid.chunks(self.clues.columns.len())
            .map(|row| {
                row.iter()
                    .map(|&cell| if cell == 1 { '#' } else { '.' })
                    .chain(std::iter::once('\n'))
                    .collect::<String>()
            })
            .collect()
    }
}

impl Puzzle for Nonogram {
    type Args = FileArgs;
    type Options = NoOptions;
    const NAME: &'static str = "nonogram";
    const ABOUT: &'static str = "Solves a nonogram given by its clues (the built-in one by default).";
    const WHAT: &'static str = "a nonogram";

    /// The file's puzzle, or the built-in one; its name is the file's, or `built-in puzzle`.
    fn load(args: &FileArgs, io: &mut Io<'_>) -> anyhow::Result<(String, Nonogram)> {
        gallery::load_file(args.file.as_deref(), BUILT_IN, io, Nonogram::parse)
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.clues.model()?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the cells, row-major.
        let grid = solution.values();
        if !self.clues.accepts(grid) {
            anyhow::bail!("internal error: the answer is wrong: a line does not have its clue's blocks");
        }
        write!(out, "{}", self.draw(grid))?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "../support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::support::{
        Case, assert_file_reads_like_the_built_in_one, assert_malformed, check_compare, first_word, run,
    };

    const TOOL: csp_cli::app::Tool = gallery::run::<Nonogram>;

    /// The picture of "Bucks", as Gecode 6.2 also finds it (through MiniZinc and
    /// `regular`), and checked against the clues by `Clues::accepts`.
    const BUCKS: &str = "\
......###########..........
...#################.......
..###.#####.#####.###......
..##....##....##....#......
.##.#.###.#.###.#.####.....
.###...###...###...###.....
#####.#.###.#.###.#.###....
###....##....##....####....
#####.#####.#####.#####....
#######################....
...........................
#######################....
#.....................#....
#.....................#....
#................##...#....
#................#.#..#....
#................#.#..#....
#...##########...#.##.#....
#...#........#...#..#.#.###
#...#........#...#..#.#.#.#
#...#........#...#..#..#..#
#...#........#...#..##...##
#####........#####....###..
";

    fn grid_of(picture: &str) -> Vec<i64> {
        picture.lines().flat_map(|line| line.chars().map(|c| i64::from(c == '#'))).collect()
    }

    #[test]
    fn the_built_in_puzzle_has_its_known_picture_and_no_other() {
        let solved = run(TOOL, &[]);
        assert_eq!((solved.code, solved.stdout.as_str()), (0, BUCKS), "{}", solved.stderr);
        let puzzle = Nonogram::parse(BUILT_IN, "built-in").unwrap();
        assert_eq!((puzzle.clues.rows.len(), puzzle.clues.columns.len()), (23, 27));
        let mut grid = grid_of(BUCKS);
        assert!(puzzle.clues.accepts(&grid));
        grid[0] = 1;
        assert!(!puzzle.clues.accepts(&grid));
        // Plain backtracking checks a line only once it is full: hopeless here.
        for level in ["forward-checking", "mac"] {
            let count = run(TOOL, &["--count", "--propagation", level]);
            assert_eq!(first_word(&count), "1", "{level}: {}", count.stdout);
        }
    }

    #[test]
    fn line_reasoning_leaves_a_few_decisions() {
        let puzzle = Nonogram::parse(BUILT_IN, "built-in").unwrap();
        let (model, _) = puzzle.clues.model().unwrap();
        let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
        assert!(solver.solve().is_solved());
        let nodes = solver.stats().nodes;
        assert!(nodes <= 20, "{nodes} nodes: regular is domain consistent, so only a few decisions are left");
    }

    #[test]
    fn a_puzzle_file_is_read_like_the_built_in_one() {
        assert_file_reads_like_the_built_in_one(TOOL, "nonogram.txt");
    }

    #[test]
    fn malformed_puzzles_exit_two_with_file_line_and_column() {
        assert_malformed(
            TOOL,
            &[
                (
                    "bad/nonogram_no_section.txt",
                    "line 2, column 1: expected 'rows' or 'columns' before the clues, found '3'",
                ),
                (
                    "bad/nonogram_bad_block.txt",
                    "line 4, column 3: a block has at least one cell (0 alone is an empty line)",
                ),
                ("bad/nonogram_no_columns.txt", "line 4, column 1: missing the clues of the columns"),
            ],
        );
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "fc+mrv,mac+input,mac+domwdeg",
            goal: "count",
            answer: 1,
        });
    }

    #[test]
    fn small_puzzles_solve_and_count() {
        // A 5 x 5 with two solutions (the diagonals of a 2 x 2 block), and a plus sign.
        let two = "rows\n1\n1\n0\n0\n0\ncolumns\n1\n1\n0\n0\n0\n";
        let file = std::env::temp_dir().join(format!("nonogram-two-{}.txt", std::process::id()));
        std::fs::write(&file, two).unwrap();
        let count = run(TOOL, &[file.to_str().unwrap(), "--count"]);
        std::fs::remove_file(&file).ok();
        assert_eq!(first_word(&count), "2", "{}", count.stdout);
        let plus = Nonogram::parse("rows\n1\n3\n1\ncolumns\n1\n3\n1\n", "p").unwrap();
        let (model, _) = plus.clues.model().unwrap();
        let solution = model.solve().unwrap().expect("a plus sign");
        assert_eq!(plus.draw(solution.values()), ".#.\n###\n.#.\n");
    }

    #[test]
    fn mistakes_are_located() {
        let at = |input: &str| {
            let e = Nonogram::parse(input, "n").unwrap_err();
            (e.line, e.column, e.problem.to_string())
        };
        assert_eq!(at("# nothing\n").0, 2);
        assert_eq!(at("rows\n1 x\n").1, 3);
        assert_eq!(at("rows\n1\nrows\n").2, "the 'rows' section is given twice (first on line 1)");
        assert_eq!(at("columns\n1\n").2, "missing the clues of the rows ('rows', then a clue per line)");
        assert_eq!(at("rows\n1\ncolumns\n").0, 4);
        assert_eq!(at("rows\n1001\n").1, 1);
    }
}
