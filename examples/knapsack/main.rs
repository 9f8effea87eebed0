//! The 0/1 knapsack: choose items of the greatest total value whose total
//! weight fits the capacity. The built-in instance is P07 of John Burkardt's
//! KNAPSACK_01 data set (Florida State University; from Kreher & Stinson,
//! "Combinatorial Algorithms", 1999): 15 items, capacity 750, optimum 1458,
//! reached by items 1, 3, 5, 7, 8, 9, 14 and 15 only.
//!
//! ```text
//! cargo run --release --example knapsack -- [--capacity C] [--count] [--stats] [strategy options]
//! cargo run --release --example knapsack -- [--capacity C] --compare [--configs LIST] [comparison options]
//! ```
//!
//! One 0/1 variable per item, one `linear` constraint for the weight, and the
//! total value as the objective ([`Model::maximize`] of a sum; `knapsack/model.rs`,
//! shared with `benches/optimization.rs`): the solver prints
//! each better packing as branch and bound finds it, then the best one, proved
//! optimal. `--count` counts the packings that fit, whatever their value. The
//! options, `--compare` (which counts packings) and the exit codes come from
//! [`csp_cli::gallery`].

use std::io::Write;

use clap::Args;
use csp::{Model, ModelError, Solution};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};

mod model;

use model::{CAPACITY, Knapsack};

fn main() -> std::process::ExitCode {
    gallery::main::<Knapsack>()
}

/// Which instance: P07, with another capacity if asked.
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
struct KnapsackArgs {
    /// The capacity (P07's is 750).
    #[arg(long, value_parser = clap::value_parser!(i64).range(0..=csp::MAX_VALUE))]
    capacity: Option<i64>,
}

impl Knapsack {
    /// The packed items (from 1) of a solution, checked against the capacity
    /// without the solver, with their total weight and value.
    fn packing(&self, solution: &Solution<'_>) -> Result<(Vec<usize>, i64, i64), String> {
        let packed: Vec<usize> =
            (1..=self.items.len()).filter(|i| solution[format!("item{i}").as_str()] == 1).collect();
        let weight: i64 = packed.iter().map(|&i| self.items[i - 1].0).sum();
        let value: i64 = packed.iter().map(|&i| self.items[i - 1].1).sum();
        if weight > self.capacity {
            return Err(format!("the packing weighs {weight}, over the capacity {}", self.capacity));
        }
        Ok((packed, weight, value))
    }
}

impl Puzzle for Knapsack {
    type Args = KnapsackArgs;
    type Options = NoOptions;
    const NAME: &'static str = "knapsack";
    const ABOUT: &'static str = "Packs the items of greatest total value into a knapsack (Burkardt's P07).";
    const WHAT: &'static str = "the knapsack";
    const GOAL_HELP: &'static str = "count (the packings that fit)";

    fn load(args: &KnapsackArgs, _: &mut Io<'_>) -> anyhow::Result<(String, Knapsack)> {
        let capacity = args.capacity.unwrap_or(CAPACITY);
        Ok((format!("P07, capacity {capacity}"), Knapsack::p07(capacity)))
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        Ok(self.model()?.0)
    }

    /// The packed items, their weight and their value.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        let (packed, weight, value) =
            self.packing(solution).map_err(|e| anyhow::anyhow!("internal error: the packing is wrong: {e}"))?;
        let items: Vec<String> = packed.iter().map(|i| i.to_string()).collect();
        writeln!(out, "items {}: weight {weight} of {}, value {value}", items.join(", "), self.capacity)?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "../support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use csp::{OptimizationOutcome, Propagation, SolveConfig, Solver};

    use super::*;

    use crate::support::{Case, check_compare, first_word, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<Knapsack>;

    /// (Plain backtracking, which tries every value of the total before it
    /// checks the sum, takes minutes here in a debug build; `csp`'s own tests
    /// run it on a smaller knapsack.)
    #[test]
    fn p07_has_the_published_optimum_under_forward_checking_and_mac() {
        let knapsack = Knapsack::p07(CAPACITY);
        let (model, take) = knapsack.model().unwrap();
        for level in &[Propagation::ForwardChecking, Propagation::Mac] {
            let mut solver = Solver::new(&model, SolveConfig::default().with_propagation(*level)).unwrap();
            let OptimizationOutcome::Optimal { solution, objective } = solver.optimize() else {
                panic!("{level}: not proved optimal");
            };
            assert_eq!(objective, 1458, "{level}");
            let chosen: Vec<i64> = take.iter().map(|&x| solution[x]).collect();
            assert_eq!(chosen, [1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1], "{level}");
            assert_eq!(knapsack.packing(&solution), Ok((vec![1, 3, 5, 7, 8, 9, 14, 15], 749, 1458)));
        }
    }

    #[test]
    fn the_tool_prints_improvements_then_the_proved_optimum() {
        let result = run(TOOL, &[]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        let lines: Vec<&str> = result.stdout.lines().collect();
        let improvements: Vec<i64> = lines
            .iter()
            .filter_map(|line| line.strip_prefix("objective "))
            .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        assert!(improvements.len() > 1, "{}", result.stdout);
        assert!(improvements.windows(2).all(|w| w[0] < w[1]), "{}", result.stdout);
        assert_eq!(improvements.last(), Some(&1458));
        assert!(
            result.stdout.contains("items 1, 3, 5, 7, 8, 9, 14, 15: weight 749 of 750, value 1458"),
            "{}",
            result.stdout
        );
        assert!(result.stdout.contains("optimal: 1458"), "{}", result.stdout);
        // A smaller knapsack, and one that holds nothing.
        let small = run(TOOL, &["--capacity", "100"]);
        assert!(small.stdout.contains("items 9: weight 98 of 100, value 192"), "{}", small.stdout);
        assert!(small.stdout.contains("optimal: 192"), "{}", small.stdout);
        let empty = run(TOOL, &["--capacity", "0"]);
        assert!(empty.stdout.contains("optimal: 0"), "{}", empty.stdout);
    }

    #[test]
    fn a_limit_reports_the_best_packing_found() {
        let result = run(TOOL, &["--node-limit", "20"]);
        assert_eq!(result.code, 1, "{}", result.stdout);
        assert!(result.stdout.contains("best found: "), "{}", result.stdout);
        assert!(result.stdout.contains("node limit"), "{}", result.stdout);
    }

    #[test]
    fn count_counts_the_packings_that_fit() {
        // 18,554 of the 2^15 subsets weigh at most 750 (counted by brute force).
        assert_eq!(first_word(&run(TOOL, &["--count"])), "18554");
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec!["--capacity", "200"],
            configs: "fc+mrv,mac+domwdeg",
            goal: "count",
            answer: 87,
        });
    }
}
