//! The search strategy options every tool accepts, spelled the same way
//! everywhere (`--propagation`, `--var-order`, `--value-order`, `--alldiff`,
//! `--intersections`, `--branching`, `--restarts`, `--learn`, `--probing`, `--seed`, limits).

use std::time::Duration;

use clap::Args;
use csp::{
    AllDifferentStrength, Branching, Limits, Probing, Propagation, Restarts, Search, SolveConfig, ValueOrder, VarOrder,
};

/// The search strategy options every binary accepts. Unset options keep the
/// binary's own default configuration (the fastest one measured for its problem).
#[derive(Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct StrategyArgs {
    /// Propagation level: none (plain backtracking), forward-checking (fc), mac.
    #[arg(long, value_name = "LEVEL")]
    pub propagation: Option<Propagation>,
    /// Variable ordering: input, mrv, mrv-degree, dom-deg, dom-ddeg, dom-wdeg, vsids, literal-vsids, alternate
    /// (dom-wdeg and literal-vsids with the most active value, in turn at restarts), rotate (dom-wdeg, literal-vsids
    /// and max-sd in turn at restarts), anti-first-fail, smallest,
    /// largest, occurrence, max-regret, max-sd (counting-based: the densest pair x = v over the all-differents, its
    /// value first), max-rel-sd, places (exact cover's choice: the fewest values of a variable or places of a value an
    /// all-different must take), weighted-places, alternate-places (weighted-places and literal-vsids in turn), chb
    /// (conflict history-based scores, for learning), alternate-chb (dom-wdeg and chb in turn), chb-literal (chb and
    /// literal-vsids in turn), lrb (learning rate based scores, for learning), alternate-lrb (dom-wdeg and lrb in
    /// turn).
    #[arg(long = "var-order", value_name = "ORDER")]
    pub var_order: Option<VarOrder>,
    /// Value ordering: ascending, descending, random, lcv, phase, active, median, split, reverse-split,
    /// solution-guided.
    #[arg(long = "value-order", value_name = "ORDER")]
    pub value_order: Option<ValueOrder>,
    /// All-different strength: pairwise (value elimination), matching (Régin), bounds (Hall intervals) or cover
    /// (pairwise and, on a permutation, hidden singles: unit propagation on the exact-cover SAT encoding).
    #[arg(long = "alldiff", value_name = "STRENGTH")]
    pub all_different: Option<AllDifferentStrength>,
    /// Make the root arc consistent before search, whatever the propagation level.
    #[arg(long = "root-ac")]
    pub root_arc_consistency: bool,
    /// Reason on where all-differents cross (box-line: pointing and claiming) inside the all-different system.
    #[arg(long, overrides_with = "no_intersections")]
    pub intersections: bool,
    /// Do not reason on all-different intersections (the default for small grids and for most models).
    #[arg(long = "no-intersections")]
    pub no_intersections: bool,
    /// Branching: enumerate (one child per value) or binary (x = v, then x ≠ v).
    #[arg(long, value_name = "KIND")]
    pub branching: Option<Branching>,
    /// Restart policy: never, luby (after 100, 100, 200, 100, 100, 200, 400, ... failures), luby=SCALE, geometric,
    /// geometric=SCALE:FACTOR, or with --learn glucose or glucose=WINDOW (when the recent nogoods' literal block
    /// distances are worse than usual).
    #[arg(long, value_name = "POLICY")]
    pub restarts: Option<Restarts>,
    /// Learn from failures: nogoods from the constraints' explanations, kept and propagated (lazy clause
    /// generation; `+learn` in the spelling of `compare --configs`). It is maintained arc consistency with
    /// binary decisions, so not with --propagation or --branching. The sudoku tool's grids beyond 16x16 then
    /// also take --var-order alternate, --value-order phase and --restarts glucose unless those are given, and
    /// always Glucose's recounted literal block distances with glue that expires (`+dynlbd+expire`).
    #[arg(long, conflicts_with_all = ["propagation", "branching"])]
    pub learn: bool,
    /// Probing after each node's propagation: off, bivalue (probe: each value of the variables with two values
    /// is assumed, propagated and undone, removed when that fails) or singleton (sac: every value of every
    /// variable, singleton arc consistency). Under mac with chronological backtracking, not with --learn.
    #[arg(long, value_name = "KIND", conflicts_with = "learn")]
    pub probing: Option<Probing>,
    /// Seed for random value ordering (and anything else random).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Stop a search after this many decisions.
    #[arg(long = "node-limit", value_name = "N")]
    pub node_limit: Option<u64>,
    /// Stop a search after this many seconds (fractions allowed).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// Stop a search after this many seconds of its thread's CPU time (fractions allowed): unlike --timeout, the
    /// same work however loaded the machine is.
    #[arg(long = "cpu-timeout", value_name = "SECS", value_parser = parse_seconds)]
    pub cpu_timeout: Option<Duration>,
}

impl StrategyArgs {
    /// `defaults` with every option that was given on the command line applied.
    pub fn config(&self, defaults: &SolveConfig) -> SolveConfig {
        let mut config = defaults.clone();
        if let Some(p) = self.propagation {
            config = config.with_propagation(p);
        }
        if let Some(v) = self.var_order {
            config.var_order = v;
        }
        if let Some(v) = self.value_order {
            config.value_order = v;
        }
        if let Some(s) = self.all_different {
            config.all_different = s;
        }
        if self.root_arc_consistency {
            config.root_arc_consistency = true;
        }
        if self.intersections {
            config.all_different_intersections = true;
        }
        if self.no_intersections {
            config.all_different_intersections = false;
        }
        if let Some(branching) = self.branching {
            config = config.with_branching(branching);
        }
        if let Some(restarts) = self.restarts {
            config.restarts = restarts;
        }
        if self.learn {
            config.search = Search::Learning;
        }
        if let Some(probing) = self.probing {
            config.probing = probing;
        }
        if let Some(seed) = self.seed {
            config.seed = seed;
        }
        // Unset limits keep the defaults' limits.
        config.limits.nodes = self.node_limit.or(config.limits.nodes);
        config.limits.time = self.timeout.or(config.limits.time);
        config.limits.cpu_time = self.cpu_timeout.or(config.limits.cpu_time);
        config
    }
}

/// The limits of the options `--node-limit`, `--timeout` and `--cpu-timeout`
/// that the comparisons and the lab share (no solution limit).
pub(crate) fn run_limits(nodes: Option<u64>, time: Option<Duration>, cpu_time: Option<Duration>) -> Limits {
    let mut limits = Limits::none();
    limits.nodes = nodes;
    limits.time = time;
    limits.cpu_time = cpu_time;
    limits
}

/// Parses a number of seconds such as `2`, `0.5` or `1e-3` (the time
/// options of every tool: [`csp_app::parse_seconds`]).
pub use csp_app::parse_seconds;

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        strategy: StrategyArgs,
    }

    #[test]
    fn options_override_the_defaults() {
        let cli =
            Cli::try_parse_from(["x", "--propagation", "fc", "--var-order", "dom-wdeg", "--timeout", "0.5"]).unwrap();
        let config = cli.strategy.config(&SolveConfig::default());
        assert_eq!(config.propagation(), Propagation::ForwardChecking);
        assert_eq!(config.var_order, VarOrder::DomWdeg);
        assert_eq!(config.value_order, ValueOrder::Ascending);
        assert_eq!(config.limits.time, Some(Duration::from_millis(500)));
    }

    #[test]
    fn learn_is_the_configurations_learning_twin() {
        let defaults: SolveConfig = "mac+domwdeg+intersect".parse().unwrap();
        let cli = Cli::try_parse_from(["x", "--learn"]).unwrap();
        let config = cli.strategy.config(&defaults);
        assert!(config.learning());
        assert_eq!(config, crate::report::learning_twin(&defaults).unwrap(), "--learn is compare's +learn");
        assert!(!Cli::try_parse_from(["x"]).unwrap().strategy.config(&defaults).learning());
        for other in [["--propagation", "mac"], ["--branching", "binary"]] {
            let err = Cli::try_parse_from(["x", "--learn", other[0], other[1]]).err().unwrap().to_string();
            assert!(err.contains("cannot be used with"), "{err}");
        }
    }

    #[test]
    fn unset_limits_keep_the_defaults() {
        let defaults = SolveConfig::default().with_limits(Limits::none().with_nodes(5));
        let cli = Cli::try_parse_from(["x"]).unwrap();
        assert_eq!(cli.strategy.config(&defaults).limits.nodes, Some(5));
        let cli = Cli::try_parse_from(["x", "--node-limit", "9"]).unwrap();
        assert_eq!(cli.strategy.config(&defaults).limits.nodes, Some(9));
        let defaults = defaults.with_limits(Limits::none().with_cpu_time(Duration::from_secs(3)));
        assert_eq!(cli.strategy.config(&defaults).limits.cpu_time, Some(Duration::from_secs(3)));
        let cli = Cli::try_parse_from(["x", "--cpu-timeout", "0.25"]).unwrap();
        assert_eq!(cli.strategy.config(&defaults).limits.cpu_time, Some(Duration::from_millis(250)));
    }

    #[test]
    fn unknown_words_are_rejected_with_the_choices() {
        let err = Cli::try_parse_from(["x", "--var-order", "best"]).err().unwrap().to_string();
        assert!(err.contains("unknown variable ordering 'best'"), "{err}");
        assert!(err.contains("dom-wdeg"), "{err}");
        use clap::{CommandFactory as _, FromArgMatches as _};
        let negative = crate::app::negatives_as_values(Cli::command()).try_get_matches_from(["x", "--timeout", "-1"]);
        let err = negative.and_then(|matches| Cli::from_arg_matches(&matches)).err().unwrap().to_string();
        assert!(err.contains("'-1' is not a non-negative number of seconds"), "{err}");
    }
}
