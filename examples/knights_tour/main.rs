//! A closed knight's tour: the knight visits every square of the board once and
//! its last move leads back to the first square (on the 8x8 board since Euler,
//! "Solution d'une question curieuse qui ne paroît soumise à aucune analyse",
//! 1759). Any rectangular board may be asked for; closed tours exist on an
//! `m x n` board (`m <= n`) unless both are odd, `m` is 1, 2 or 4, or `m = 3`
//! and `n` is 4, 6 or 8 (Schwenk, "Which rectangular chessboards have a
//! knight's tour?", Mathematics Magazine 1991).
//!
//! ```text
//! cargo run --release --example knights_tour -- [--rows R] [--columns C] [--count] [--stats] [strategy options]
//! cargo run --release --example knights_tour -- [--rows R] [--columns C] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The model (`knights_tour/model.rs`, shared with `benches/scheduling.rs`) is one `circuit`: a variable per square, `next[s]`, the square the
//! knight moves to from `s`, whose domain is the squares a knight's move away.
//! The circuit's propagator keeps the fixed moves from closing a tour early,
//! its all-different (matching) sends exactly one move into each square, and
//! its strongly connected components fail a board the moves cut in two.
//!
//! The options, `--compare` and the exit codes come from [`csp_cli::gallery`].

use std::io::Write;

use clap::Args;
use csp::{Model, ModelError, Solution};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};
use csp_cli::report::GoalArg;

mod model;

use model::KnightsTour;

fn main() -> std::process::ExitCode {
    gallery::main::<KnightsTour>()
}

impl KnightsTour {
    /// Checks successors against the rules, without the solver: every move a
    /// knight's move, and one cycle through every square. Returns the order in
    /// which the tour from square 0 visits the squares (0 for the first).
    fn verify(&self, next: &[i64]) -> Result<Vec<usize>, String> {
        let n = self.squares() as usize;
        if next.len() != n {
            return Err(format!("{} successors for {n} squares", next.len()));
        }
        let mut order = vec![usize::MAX; n];
        let mut square = 0usize;
        for step in 0..n {
            if order[square] != usize::MAX {
                return Err(format!("square {} is visited twice", self.name(square as i64)));
            }
            order[square] = step;
            let target = next[square];
            if !self.moves(square as i64).contains(&target) {
                return Err(format!("{} to square {target} is not a knight's move", self.name(square as i64)));
            }
            square = target as usize;
        }
        if square != 0 {
            return Err("the tour does not come back to its first square".to_string());
        }
        Ok(order)
    }
}

/// The options that say which board to tour (or compare on).
#[derive(Args, Clone, Copy, Debug)]
struct BoardArgs {
    /// The number of rows.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(i64).range(1..=100))]
    rows: i64,
    /// The number of columns.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(i64).range(1..=100))]
    columns: i64,
}

impl Puzzle for KnightsTour {
    type Args = BoardArgs;
    type Options = NoOptions;
    const NAME: &'static str = "knights_tour";
    const ABOUT: &'static str = "Finds (or counts) the closed knight's tours of a board.";
    const WHAT: &'static str = "the closed knight's tours of a board";
    const GOAL_HELP: &'static str = "first";
    /// Arc consistency with MRV, then dom/wdeg: forward checking and plain
    /// backtracking wander for minutes on the 8x8 board.
    const COMPARE_CONFIGS: &'static str = "mac+mrv,mac+domwdeg";

    fn load(args: &BoardArgs, _: &mut Io<'_>) -> anyhow::Result<(String, KnightsTour)> {
        Ok((format!("{}x{}", args.rows, args.columns), KnightsTour { rows: args.rows, columns: args.columns }))
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        self.build()
    }

    fn compare_goal(_: &BoardArgs) -> GoalArg {
        GoalArg::First
    }

    /// The board, each square holding its move number (1 for `a1`, the start),
    /// the first row at the bottom as on a chessboard.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the squares, in order.
        let order =
            self.verify(solution.values()).map_err(|e| anyhow::anyhow!("internal error: the tour is wrong: {e}"))?;
        let width = self.squares().to_string().len();
        for row in (0..self.rows as usize).rev() {
            let cells: Vec<String> = (0..self.columns as usize)
                .map(|column| format!("{:>width$}", order[row * self.columns as usize + column] + 1))
                .collect();
            writeln!(out, "{}", cells.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "../support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use csp::{SolveConfig, Solver};

    use super::*;

    use crate::support::{Case, check_compare, first_word, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<KnightsTour>;

    /// The directed closed tours of a board, by a depth-first search over
    /// paths from square 0 that knows nothing of the engine.
    fn count_by_hand(board: KnightsTour) -> u64 {
        fn extend(board: &KnightsTour, path: &mut Vec<i64>, seen: &mut [bool]) -> u64 {
            let last = *path.last().expect("the path starts at 0");
            if path.len() == seen.len() {
                return u64::from(board.moves(last).contains(&0));
            }
            let mut count = 0;
            for target in board.moves(last) {
                if !seen[target as usize] {
                    seen[target as usize] = true;
                    path.push(target);
                    count += extend(board, path, seen);
                    path.pop();
                    seen[target as usize] = false;
                }
            }
            count
        }
        let mut seen = vec![false; board.squares() as usize];
        seen[0] = true;
        extend(&board, &mut vec![0], &mut seen)
    }

    #[test]
    fn the_8x8_board_has_a_closed_tour() {
        let result = run(TOOL, &["--stats"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        let board = KnightsTour { rows: 8, columns: 8 };
        let model = board.build().unwrap();
        let solution = Solver::new(&model, SolveConfig::default()).unwrap().solve().into_solution().unwrap();
        let order = board.verify(solution.values()).unwrap();
        assert_eq!(order[0], 0);
        // The printout is the same tour, its rows from the top (row 8) down.
        let printed: Vec<usize> =
            result.stdout.lines().take(8).flat_map(|l| l.split_whitespace()).map(|w| w.parse().unwrap()).collect();
        let expected: Vec<usize> =
            (0..8).rev().flat_map(|r| (0..8).map(move |c| (r, c))).map(|(r, c)| order[r * 8 + c] + 1).collect();
        assert_eq!(printed, expected);
    }

    /// 16 closed tours of the 3x10 board (OEIS A070030), each in two directions.
    #[test]
    fn the_3x10_board_has_16_closed_tours() {
        let board = KnightsTour { rows: 3, columns: 10 };
        assert_eq!(count_by_hand(board), 32);
        let result = run(TOOL, &["--rows", "3", "--columns", "10", "--count"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert_eq!(first_word(&result), "32");
    }

    #[test]
    fn boards_without_closed_tours_have_none() {
        for (rows, columns) in [(3, 4), (4, 4), (5, 5), (3, 8), (1, 1)] {
            assert_eq!(count_by_hand(KnightsTour { rows, columns }), 0, "{rows}x{columns}");
            let (rows, columns) = (rows.to_string(), columns.to_string());
            let result = run(TOOL, &["--rows", &rows, "--columns", &columns, "--count"]);
            assert_eq!(first_word(&result), "0", "{rows}x{columns}: {}", result.stderr);
        }
    }

    #[test]
    fn the_verifier_rejects_wrong_tours() {
        let board = KnightsTour { rows: 8, columns: 8 };
        let model = board.build().unwrap();
        let solution = Solver::new(&model, SolveConfig::default()).unwrap().solve().into_solution().unwrap();
        let mut next = solution.values().to_vec();
        next.swap(0, 1);
        assert!(board.verify(&next).is_err());
        assert_eq!(board.name(0), "a1");
        assert_eq!(board.name(63), "h8");
        assert_eq!(KnightsTour { rows: 1, columns: 30 }.name(27), "ab1");
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec!["--rows", "6", "--columns", "6"],
            configs: "mac+mrv,mac+domwdeg",
            goal: "first",
            answer: 1,
        });
    }
}
