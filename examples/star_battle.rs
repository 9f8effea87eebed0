//! Star Battle: place stars in an `n x n` grid cut into `n` regions, the same
//! number of stars (here two) in every row, every column and every region, no
//! two stars touching, not even diagonally.
//!
//! ```text
//! cargo run --release --example star_battle -- [--count] [--stats] [strategy options]
//! cargo run --release --example star_battle -- --compare [--configs LIST] [comparison options]
//! ```
//!
//! The model is a boolean per cell and counting: `exactly k` stars (a sum of
//! booleans) per row, column and region, and `at_most_one` star in every 2 x 2
//! square, which is "no two touch": two cells that touch, across a side or a
//! corner, always share a 2 x 2 square.
//!
//! The puzzle is the 10 x 10 two-star grid of the 2017 MIT Mystery Hunt (as in
//! the `constraint-examples` collection of Christopher Night); its test counts
//! one solution under every propagation level. The options, `--compare` and the
//! exit codes come from [`csp_cli::gallery`].

use std::io::Write;

use csp::{Lit, Model, ModelError, Solution};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<StarBattle>()
}

/// The regions of the built-in puzzle, one letter per cell.
const REGIONS: &str = "\
AABBBBBBCC
ABBADDDDDC
AAAADECCCC
DDDDDEEFFF
DGGGGGEHHF
GGIIIIEHFF
GIIJJIEHHH
GIGGJIEEJH
GIIGJIJJJH
GGGGJJJHHH
";

/// A star battle puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
struct StarBattle {
    /// The rows, columns and regions.
    size: usize,
    /// The stars in each row, column and region.
    stars: usize,
    /// The region of each cell (row-major), numbered from 0.
    regions: Vec<usize>,
}

impl StarBattle {
    /// The built-in puzzle.
    fn built_in() -> StarBattle {
        let letters: Vec<u8> = REGIONS.bytes().filter(u8::is_ascii_uppercase).collect();
        let regions = letters.iter().map(|&letter| usize::from(letter - b'A')).collect();
        StarBattle { size: 10, stars: 2, regions }
    }

    /// The cells of each row, column and region (row-major indices).
    fn units(&self) -> Vec<Vec<usize>> {
        let n = self.size;
        let mut units: Vec<Vec<usize>> = (0..n).map(|r| (0..n).map(|c| r * n + c).collect()).collect();
        units.extend((0..n).map(|c| (0..n).map(|r| r * n + c).collect()));
        units.extend((0..n).map(|region| (0..n * n).filter(|&i| self.regions[i] == region).collect()));
        units
    }

    /// The 2 x 2 squares, by their four cells.
    fn squares(&self) -> Vec<[usize; 4]> {
        let n = self.size;
        let corners = (0..n - 1).flat_map(|r| (0..n - 1).map(move |c| r * n + c));
        corners.map(|i| [i, i + 1, i + n, i + n + 1]).collect()
    }

    /// The model, and the boolean of each cell (row-major, named `r1c1 ..`).
    fn build(&self) -> Result<(Model, Vec<Lit>), ModelError> {
        let n = self.size;
        let mut model = Model::new();
        let mut star = Vec::with_capacity(n * n);
        for r in 0..n {
            for c in 0..n {
                star.push(model.new_named_bool(format!("r{}c{}", r + 1, c + 1))?);
            }
        }
        for unit in self.units() {
            let stars: Vec<Lit> = unit.iter().map(|&i| star[i]).collect();
            model.add(model.sum(&stars).eq(self.stars as i64))?;
        }
        for square in self.squares() {
            model.at_most_one(&square.map(|i| star[i]))?;
        }
        Ok((model, star))
    }

    /// Checks the stars (one 0/1 per cell, row-major) by the rules, without the solver.
    fn verify(&self, stars: &[i64]) -> Result<(), String> {
        let n = self.size;
        if stars.len() != n * n || stars.iter().any(|&s| s != 0 && s != 1) {
            return Err(format!("the grid is not {n} x {n} cells with or without a star"));
        }
        for unit in self.units() {
            let count = unit.iter().filter(|&&i| stars[i] == 1).count();
            if count != self.stars {
                return Err(format!("cells {unit:?} hold {count} stars, not {}", self.stars));
            }
        }
        for i in (0..n * n).filter(|&i| stars[i] == 1) {
            let (r, c) = (i / n, i % n);
            for (dr, dc) in [(0, 1), (1, -1), (1, 0), (1, 1)] {
                let (r2, c2) = (r as i64 + dr, c as i64 + dc);
                if (0..n as i64).contains(&r2)
                    && (0..n as i64).contains(&c2)
                    && stars[r2 as usize * n + c2 as usize] == 1
                {
                    return Err(format!("the stars of r{}c{} and r{}c{} touch", r + 1, c + 1, r2 + 1, c2 + 1));
                }
            }
        }
        Ok(())
    }

    /// The regions' letters, a star as `*`.
    fn draw(&self, stars: &[i64]) -> String {
        let n = self.size;
        let mut text = String::new();
        for r in 0..n {
            let row: Vec<String> = (0..n)
                .map(|c| {
                    let i = r * n + c;
                    if stars[i] == 1 { "*".to_string() } else { char::from(b'a' + self.regions[i] as u8).to_string() }
                })
                .collect();
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        text
    }
}

impl Puzzle for StarBattle {
    type Args = NoOptions;
    type Options = NoOptions;
    const NAME: &'static str = "star_battle";
    const ABOUT: &'static str = "Solves the built-in 10x10 two-star Star Battle (MIT Mystery Hunt 2017).";
    const WHAT: &'static str = "the star battle";

    fn load(_: &NoOptions, _: &mut Io<'_>) -> anyhow::Result<(String, StarBattle)> {
        Ok(("star battle 10x10".to_string(), StarBattle::built_in()))
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.build()?.0)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the cells, row-major.
        let stars = solution.values();
        self.verify(stars).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        write!(out, "{}", self.draw(stars))?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::support::{Case, assert_built_in_is_unique, check_compare, first_word, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<StarBattle>;

    #[test]
    fn the_built_in_puzzle_has_a_unique_checked_solution() {
        assert_built_in_is_unique(TOOL);
        // Plain backtracking counts too (1.9 million nodes, half a second in a release build).
        for level in ["forward-checking", "mac"] {
            let result = run(TOOL, &["--count", "--propagation", level]);
            assert_eq!((result.code, first_word(&result)), (0, "1"), "{level}: {}", result.stderr);
        }
        let puzzle = StarBattle::built_in();
        assert_eq!(puzzle.regions.len(), 100);
        let (model, cells) = puzzle.build().unwrap();
        let solution = model.solve().unwrap().unwrap();
        let mut stars: Vec<i64> = cells.iter().map(|&s| solution[s.var()]).collect();
        puzzle.verify(&stars).unwrap();
        let printed = run(TOOL, &[]);
        assert_eq!(printed.code, 0, "{}", printed.stderr);
        assert_eq!(printed.stdout.matches('*').count(), 20, "{}", printed.stdout);
        // A star moved one cell to the right touches, or leaves its column short.
        let first = stars.iter().position(|&s| s == 1).unwrap();
        stars.swap(first, first + 1);
        assert!(puzzle.verify(&stars).is_err());
    }

    /// Two stars that touch at a corner break the rules, and the 2 x 2 squares
    /// say so: the checker and the model agree on a small grid.
    #[test]
    fn touching_stars_are_refused_by_the_checker_and_the_model() {
        let puzzle = StarBattle { size: 4, stars: 1, regions: vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3] };
        let (model, cells) = puzzle.build().unwrap();
        let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
        let mut count = 0;
        for solution in solver.solutions() {
            let stars: Vec<i64> = cells.iter().map(|&s| solution[s.var()]).collect();
            puzzle.verify(&stars).unwrap();
            count += 1;
        }
        // One star per row, column and quadrant, none touching: the stars' columns,
        // row by row, are 2 4 1 3 or 3 1 4 2 (counted by a separate enumeration).
        assert_eq!(count, 2);
        // One star per row, column and quadrant, but r1c2 and r2c3 touch at a corner.
        let touching = [0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0];
        assert!(puzzle.verify(&touching).unwrap_err().contains("touch"));
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "fc+mrv,mac+domwdeg,mac+learn+vsids",
            goal: "count",
            answer: 1,
        });
    }
}
