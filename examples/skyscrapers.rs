//! Skyscrapers: a latin square of building heights `1..=n` (each height once in
//! every row and column) with clues around the grid: a clue says how many
//! buildings are seen from there, looking along its row or column, a taller
//! building hiding every shorter one behind it.
//!
//! ```text
//! cargo run --release --example skyscrapers -- [--regular] [--count] [--stats] [strategy options]
//! cargo run --release --example skyscrapers -- --compare [--configs LIST] [comparison options]
//! ```
//!
//! The model: a variable per cell, `all_different` per row and column, and per
//! clue "k buildings are visible" ([`post_visible`]). The engine has no
//! constraint by that name; it is said in two ways:
//!
//! - by default, with the tallest building so far along the line: a `maximum`
//!   per step, and a boolean per building, reified to "taller than the tallest
//!   before it" (`x.gt(tallest)`); the booleans add up to the clue;
//! - with `--regular`, as one `regular` per clue: an automaton that reads the
//!   heights and remembers the tallest so far and how many were seen, so the
//!   reasoning on each line is domain consistent (Pesant 2004). Fewer nodes.
//!
//! The puzzle is 6 x 6 with 11 of its 24 clues, made for this gallery from a
//! random latin square by removing clues while the solution stayed unique: its
//! test counts one solution under every propagation level and both models, and
//! more than one without any one of the 11 clues.
//!
//! Under forward checking the maximums' model runs for minutes: a variable
//! forward checking prunes to one value is not decided, so the sum of each
//! clue's booleans waits until the search decides them (docs/modeling.md,
//! "Forward checking and auxiliary variables"); `--regular` states the clues
//! on the cells and is solved under forward checking in 27,303 nodes.
//! The options, `--compare` and the exit codes come from [`csp_cli::gallery`].

use std::io::Write;

use clap::Args;
use csp::{Dfa, LinearExpr, Model, ModelError, Solution, VarId};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<Skyscrapers>()
}

/// The clues of the built-in puzzle, 0 where there is none: seen from the top
/// of each column, from the bottom, from the left of each row, from the right.
const CLUES: [[i64; 6]; 4] = [[0, 0, 2, 0, 0, 0], [0, 4, 4, 1, 0, 2], [2, 0, 2, 0, 2, 4], [0, 0, 2, 3, 0, 0]];

/// The number of buildings seen along `heights`, from its first one.
fn seen(heights: impl IntoIterator<Item = i64>) -> i64 {
    let mut tallest = 0;
    let mut count = 0;
    for height in heights {
        if height > tallest {
            tallest = height;
            count += 1;
        }
    }
    count
}

/// A skyscrapers puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Skyscrapers {
    /// The rows, columns and heights.
    size: usize,
    /// The clues: from the top, the bottom, the left and the right, 0 for none.
    clues: [Vec<i64>; 4],
}

/// The options that choose the model.
#[derive(Args, Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ModelOptions {
    /// State each clue as one `regular` over its line (domain consistent) instead of maximums and reified booleans.
    #[arg(long)]
    regular: bool,
}

impl Skyscrapers {
    /// The built-in puzzle.
    fn built_in() -> Skyscrapers {
        Skyscrapers { size: 6, clues: CLUES.map(|side| side.to_vec()) }
    }

    /// Each clue with its line of cells (row-major indices) in the order the
    /// clue looks along it.
    fn sightlines(&self) -> Vec<(i64, Vec<usize>)> {
        let n = self.size;
        let mut lines = Vec::new();
        for k in 0..n {
            let column: Vec<usize> = (0..n).map(|r| r * n + k).collect();
            let row: Vec<usize> = (0..n).map(|c| k * n + c).collect();
            lines.push((self.clues[0][k], column.clone()));
            lines.push((self.clues[1][k], column.into_iter().rev().collect()));
            lines.push((self.clues[2][k], row.clone()));
            lines.push((self.clues[3][k], row.into_iter().rev().collect()));
        }
        lines.retain(|(clue, _)| *clue > 0);
        lines
    }

    /// The model, and the variable of each cell: cells `r1c1 ..` (row-major)
    /// over `1..=size`, `all_different` per row and column, each clue posted by
    /// [`post_visible`] or, with `regular`, [`post_visible_regular`].
    fn build(&self, regular: bool) -> Result<(Model, Vec<VarId>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                cells.push(model.new_named_var(format!("r{}c{}", r + 1, c + 1), 1..=n as i64)?);
            }
        }
        for k in 0..n {
            model.all_different(&cells[k * n..(k + 1) * n])?;
            let column: Vec<VarId> = (0..n).map(|r| cells[r * n + k]).collect();
            model.all_different(&column)?;
        }
        for (clue, line) in self.sightlines() {
            let line: Vec<VarId> = line.iter().map(|&i| cells[i]).collect();
            if regular {
                post_visible_regular(&mut model, &line, n as i64, clue)?;
            } else {
                post_visible(&mut model, &line, n as i64, clue)?;
            }
        }
        Ok((model, cells))
    }

    /// Checks a filled grid (row-major) by the rules, without the solver.
    fn verify(&self, grid: &[i64]) -> Result<(), String> {
        let n = self.size;
        if grid.len() != n * n || grid.iter().any(|h| !(1..=n as i64).contains(h)) {
            return Err(format!("the grid is not {n} x {n} heights 1 to {n}"));
        }
        for k in 0..n {
            let mut row: Vec<i64> = grid[k * n..(k + 1) * n].to_vec();
            let mut column: Vec<i64> = (0..n).map(|r| grid[r * n + k]).collect();
            row.sort_unstable();
            column.sort_unstable();
            row.dedup();
            column.dedup();
            if row.len() != n || column.len() != n {
                return Err(format!("a height repeats in row or column {}", k + 1));
            }
        }
        for (clue, line) in self.sightlines() {
            let count = seen(line.iter().map(|&i| grid[i]));
            if count != clue {
                return Err(format!("the clue {clue} along cells {line:?} sees {count} buildings"));
            }
        }
        Ok(())
    }

    /// The grid with its clues around it (`.` for none).
    fn draw(&self, grid: &[i64]) -> String {
        let n = self.size;
        let clue = |value: i64| if value > 0 { value.to_string() } else { ".".to_string() };
        let edge = |side: &[i64]| format!("  {}\n", side.iter().map(|&v| clue(v)).collect::<Vec<_>>().join(" "));
        let mut text = edge(&self.clues[0]);
        for r in 0..n {
            let row: Vec<String> = grid[r * n..(r + 1) * n].iter().map(i64::to_string).collect();
            text.push_str(&format!("{} {} {}\n", clue(self.clues[2][r]), row.join(" "), clue(self.clues[3][r])));
        }
        text.push_str(&edge(&self.clues[1]));
        text
    }
}

/// "`k` buildings are seen along `line`" (from its first cell), the heights
/// being `1..=n`: the tallest
/// building so far is a `maximum` per step, and a building is seen when it is
/// taller than the tallest before it, a reified comparison; the first one
/// always is, so the others seen add up to `k - 1`.
fn post_visible(model: &mut Model, line: &[VarId], n: i64, k: i64) -> Result<(), ModelError> {
    let Some((&first, rest)) = line.split_first() else { return Ok(()) };
    let mut tallest = first;
    let mut seen = Vec::with_capacity(rest.len());
    for &building in rest {
        let is_seen = model.new_bool();
        model.reify(is_seen, building.gt(tallest))?;
        seen.push(is_seen);
        let next = model.new_var(1..=n)?;
        model.maximum(next, &[tallest, building])?;
        tallest = next;
    }
    model.add(LinearExpr::sum(seen).eq(k - 1))?;
    Ok(())
}

/// The same as [`post_visible`] with one `regular`: the automaton's state is
/// the tallest height so far (`0..=n`) and the buildings seen (`0..=k`); a
/// taller building moves both on, a shorter one neither; more than `k` seen
/// has no transition; the states with `k` seen accept.
fn post_visible_regular(model: &mut Model, line: &[VarId], n: i64, k: i64) -> Result<(), ModelError> {
    let (heights, seen) = (n as usize + 1, k as usize + 1);
    let state = |tallest: usize, count: usize| tallest * seen + count;
    let mut transitions = Vec::new();
    for tallest in 0..heights {
        for count in 0..seen {
            for height in 1..heights {
                if height <= tallest {
                    transitions.push((state(tallest, count), height as i64, state(tallest, count)));
                } else if count < k as usize {
                    transitions.push((state(tallest, count), height as i64, state(height, count + 1)));
                }
            }
        }
    }
    let accepting: Vec<usize> = (0..heights).map(|tallest| state(tallest, k as usize)).collect();
    let dfa = Dfa::new(heights * seen, state(0, 0), &accepting, &transitions)?;
    model.regular(line, &dfa)?;
    Ok(())
}

impl Puzzle for Skyscrapers {
    type Args = NoOptions;
    type Options = ModelOptions;
    const NAME: &'static str = "skyscrapers";
    const ABOUT: &'static str = "Solves the built-in 6x6 skyscrapers puzzle.";
    const WHAT: &'static str = "the skyscrapers puzzle";
    /// Maintained arc consistency only: plain backtracking and forward checking
    /// take minutes (see the test of uniqueness).
    const COMPARE_CONFIGS: &'static str = "mac+mrv,mac+domwdeg,mac+learn+vsids";

    fn load(_: &NoOptions, _: &mut Io<'_>) -> anyhow::Result<(String, Skyscrapers)> {
        Ok(("skyscrapers 6x6".to_string(), Skyscrapers::built_in()))
    }

    fn model(&self, options: &ModelOptions) -> Result<Model, ModelError> {
        Ok(self.build(options.regular)?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The cells are the first variables, row-major.
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
    use csp::{SolveConfig, Solver};

    use super::*;

    use crate::support::{Case, assert_built_in_is_unique, check_compare, first_word, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<Skyscrapers>;

    #[test]
    fn the_built_in_puzzle_has_a_unique_checked_solution() {
        assert_built_in_is_unique(TOOL);
        // Not under plain backtracking, which checks a clue only once its line is
        // filled; the maximums' model not under forward checking either, which
        // checks a clue's sum of booleans only once the search decides them
        // (minutes; docs/modeling.md, "Forward checking and auxiliary variables").
        for (args, levels) in [(&[][..], &["mac"][..]), (&["--regular"], &["forward-checking", "mac"])] {
            for level in levels {
                let result = run(TOOL, &[args, &["--count", "--propagation", level]].concat());
                assert_eq!((result.code, first_word(&result)), (0, "1"), "{args:?} {level}: {}", result.stderr);
            }
        }
        let puzzle = Skyscrapers::built_in();
        let (model, cells) = puzzle.build(false).unwrap();
        let solution = model.solve().unwrap().unwrap();
        let mut grid: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
        puzzle.verify(&grid).unwrap();
        // Swapping two heights of a row keeps the latin square's rows but not its columns or clues.
        grid.swap(0, 1);
        assert!(puzzle.verify(&grid).is_err());
        let printed = run(TOOL, &[]);
        assert_eq!(printed.code, 0, "{}", printed.stderr);
        assert_eq!(printed.stdout.lines().count(), 8, "{}", printed.stdout);
        assert!(printed.stdout.starts_with("  . . 2 . . .\n2 "), "{}", printed.stdout);
    }

    /// Both ways of saying "k are seen" accept exactly the lines with k seen:
    /// every permutation of 1..=5, under every clue, against [`seen`].
    #[test]
    fn both_visibility_models_agree_with_counting_on_every_line_of_five() {
        for k in 1..=5 {
            let mut counts = Vec::new();
            for regular in [false, true] {
                let mut model = Model::new();
                let line = model.new_vars(5, 1..=5).unwrap();
                model.all_different(&line).unwrap();
                if regular {
                    post_visible_regular(&mut model, &line, 5, k).unwrap();
                } else {
                    post_visible(&mut model, &line, 5, k).unwrap();
                }
                let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
                let mut count = 0;
                for solution in solver.solutions() {
                    assert_eq!(seen(line.iter().map(|&v| solution[v])), k);
                    count += 1;
                }
                counts.push(count);
            }
            // The unsigned Stirling numbers of the first kind, c(5, k): permutations of 5 with k records.
            let expected = [24, 50, 35, 10, 1][k as usize - 1];
            assert_eq!(counts, [expected, expected], "k = {k}");
        }
    }

    #[test]
    fn every_clue_is_needed() {
        let puzzle = Skyscrapers::built_in();
        let mut given = 0;
        for side in 0..4 {
            for k in (0..puzzle.size).filter(|&k| puzzle.clues[side][k] > 0) {
                given += 1;
                let mut fewer = puzzle.clone();
                fewer.clues[side][k] = 0;
                let (model, _) = fewer.build(true).unwrap();
                let count = Solver::new(&model, SolveConfig::default()).unwrap().count(Some(2)).solutions;
                assert_eq!(count, 2, "without clue {k} of side {side}");
            }
        }
        assert_eq!(given, 11);
    }

    #[test]
    fn the_automaton_prunes_more_than_the_maximums() {
        let nodes = |args: &[&str]| {
            let result = run(TOOL, &[&["--count", "--stats", "--var-order", "input"][..], args].concat());
            assert_eq!(first_word(&result), "1", "{}", result.stderr);
            let after = result.stderr.split("nodes ").nth(1).expect("stats: nodes N");
            after
                .split(|c: char| !c.is_ascii_digit() && c != ',')
                .next()
                .unwrap()
                .replace(',', "")
                .parse::<u64>()
                .unwrap()
        };
        assert!(nodes(&["--regular"]) <= nodes(&[]));
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "mac+mrv,mac+domwdeg+lcv,mac+learn+vsids",
            goal: "count",
            answer: 1,
        });
    }
}
