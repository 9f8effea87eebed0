//! How to solve: propagation level, orderings, strengths, limits.
//!
//! Every option has a short lowercase name (its `Display` and `FromStr`
//! spelling) so that command-line tools, tables and benchmark ids all write a
//! configuration the same way.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::constraint::AllDifferentStrength;
use crate::constraints::ArcConsistency;

/// How much reasoning the solver does after each decision. The levels run the
/// same constraints with different scheduling, so they find the same solutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Propagation {
    /// Plain chronological backtracking: a constraint is only checked once the
    /// decisions cover its scope (`all_different` is checked pair by pair, as the
    /// clique of not-equal constraints it stands for). Domains are never pruned.
    None,
    /// Forward checking (Haralick & Elliott 1980): after each decision, every
    /// constraint on the decided variable runs its propagator once, treating only
    /// decided variables as assigned; what it prunes is not propagated further.
    ForwardChecking,
    /// Maintained arc consistency: after each decision the propagators run to a
    /// fixpoint, driven by an AC-3 style queue of constraints (Mackworth 1977),
    /// and variables fixed by propagation count as assigned.
    #[default]
    Mac,
}

/// Which unassigned variable the search decides next. Ties go to the variable
/// created first, so every ordering is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarOrder {
    /// The order in which the variables were created.
    Input,
    /// Minimum remaining values: the smallest current domain first (the
    /// fail-first principle of Haralick & Elliott 1980).
    #[default]
    Mrv,
    /// MRV, ties broken by the largest number of constraints shared with other
    /// unassigned variables (Brélaz 1979).
    MrvDegree,
    /// Smallest ratio of domain size to the number of constraints shared with
    /// unassigned variables (Bessière & Régin 1996).
    DomDeg,
    /// Smallest ratio of domain size to weighted degree, where a constraint's weight
    /// counts the failures it caused (Boussemart, Hemery, Lecoutre & Sais 2004).
    DomWdeg,
}

/// In which order the search tries the values of the chosen variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueOrder {
    /// Smallest value first.
    #[default]
    Ascending,
    /// Largest value first.
    Descending,
    /// A pseudo-random order drawn from [`SolveConfig::seed`].
    Random,
    /// Least-constraining value first: each value is tried by propagation and the
    /// ones that prune the fewest values from other variables go first (ties by value).
    LeastConstraining,
}

/// How the search splits a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Branching {
    /// One child per value of the chosen variable, tried in the value order
    /// (d-way branching, the textbook backtracking search).
    #[default]
    Enumerate,
    /// Two children: `x = v`, then `x ≠ v` (2-way branching, as in most CP
    /// solvers). After the refutation is propagated the search chooses again,
    /// so it may go on with another variable: what a failed value taught
    /// (its removal, and what propagation draws from it) steers the next
    /// choice. Counts one node per `x = v` tried.
    Binary,
}

/// Whether the search starts over from the root after a number of failures
/// (restarts, Gomes, Selman & Kautz 1998). A backtracking search's cost on
/// hard instances is heavy-tailed: an early wrong decision can hide the
/// answer under a subtree thousands of times larger than the usual one.
/// Restarting after a while, with the variable ordering having learned from
/// the failures ([`VarOrder::DomWdeg`] keeps its weights across restarts of
/// one run) or with [`ValueOrder::Random`] drawing a new order, can cut that
/// tail off. Not always: on hard sudokus, with one solution and little to
/// randomise, they are much slower (docs/compare.md has the numbers).
///
/// The search stays complete: the cutoffs grow without bound, so a run that
/// finds nothing eventually explores a whole tree. Restarts stop at the run's
/// first solution; the search goes on from there without them, so
/// [`Solver::solutions`](crate::Solver::solutions) and
/// [`Solver::count`](crate::Solver::count) still see every solution once.
/// They only change the search with an ordering that learns or draws at
/// random: with the others each restart repeats the same tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Restarts {
    /// One tree, searched to the end.
    #[default]
    Never,
    /// Restart after `scale` times the next term of Luby, Sinclair & Zuckerman's
    /// (1993) sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... failures. `scale` is
    /// at least 1.
    Luby {
        /// Failures in the first, shortest runs.
        scale: u32,
    },
}

impl Restarts {
    /// The default scale of [`Restarts::Luby`].
    pub const LUBY_SCALE: u32 = 100;

    /// Failures allowed before restart number `restart` (from 0), `None`
    /// when the search never restarts.
    pub fn cutoff(self, restart: u64) -> Option<u64> {
        match self {
            Restarts::Never => None,
            Restarts::Luby { scale } => Some(u64::from(scale.max(1)).saturating_mul(luby(restart + 1))),
        }
    }
}

impl fmt::Display for Restarts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Restarts::Never => f.write_str("never"),
            Restarts::Luby { scale: Restarts::LUBY_SCALE } => f.write_str("luby"),
            Restarts::Luby { scale } => write!(f, "luby={scale}"),
        }
    }
}

/// `never` (or `none`), `luby` (scale [`Restarts::LUBY_SCALE`]) or `luby=SCALE`.
impl FromStr for Restarts {
    type Err = UnknownOption;

    fn from_str(s: &str) -> Result<Self, UnknownOption> {
        let word = s.trim().to_ascii_lowercase();
        let scale = match word.as_str() {
            "never" | "none" => return Ok(Restarts::Never),
            "luby" => Some(Restarts::LUBY_SCALE),
            _ => word.strip_prefix("luby=").and_then(|n| n.parse().ok()).filter(|&n: &u32| n >= 1),
        };
        scale.map(|scale| Restarts::Luby { scale }).ok_or_else(|| UnknownOption {
            what: "restart policy",
            found: s.to_string(),
            expected: "never luby luby=SCALE",
        })
    }
}

/// Term `i` (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
fn luby(mut i: u64) -> u64 {
    loop {
        // 2^(k-1) <= i < 2^k.
        let k = u64::BITS - i.leading_zeros();
        if k == u64::BITS || i == (1u64 << k) - 1 {
            return 1u64 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// When the solver stops before the search is complete.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Stop after this many decisions.
    pub nodes: Option<u64>,
    /// Stop after this many solutions.
    pub solutions: Option<u64>,
    /// Stop after this much wall-clock time (checked every few nodes).
    pub time: Option<Duration>,
}

/// Which limit stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Limits::nodes`].
    Nodes,
    /// [`Limits::solutions`] (or the `k` of a count).
    Solutions,
    /// [`Limits::time`].
    Time,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Solutions => "solution limit",
            Limit::Time => "time limit",
        })
    }
}

/// Everything the solver can be told about how to search.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SolveConfig {
    /// The propagation level.
    pub propagation: Propagation,
    /// Establish arc consistency at the root before search, whatever the level.
    /// (Under [`Propagation::Mac`] the root is always made arc consistent.)
    pub root_arc_consistency: bool,
    /// The variable ordering.
    pub var_order: VarOrder,
    /// The value ordering.
    pub value_order: ValueOrder,
    /// The seed of [`ValueOrder::Random`] and of anything else random.
    pub seed: u64,
    /// The strength of `all_different` constraints posted without one of their own.
    pub all_different: AllDifferentStrength,
    /// The arc-consistency algorithm of generic support checking on binary
    /// constraints (under [`Propagation::Mac`] and at the root).
    pub arc_consistency: ArcConsistency,
    /// Propagate every `all_different` on its own even where the solver would
    /// merge them. By default, under [`Propagation::Mac`] with
    /// [`AllDifferentStrength::Matching`], the solver propagates the
    /// `all_different`s without offsets over one space of at most 64 values
    /// (sudoku units, Latin square rows and columns) as one system: the same
    /// pruning (each constraint domain consistent, to the common fixpoint, so
    /// the same search tree and solutions), one propagator call per wave
    /// instead of a cascade of calls and wake-ups. Pruning and failures are
    /// still attributed to the constraint that caused them. Set this to study
    /// the cascade itself (the `propagations` statistic counts calls).
    pub separate_all_different: bool,
    /// Where two merged all-differents over as many values as variables
    /// share two or more variables (a sudoku box and a line), a value whose
    /// places in one of them all lie in the shared part leaves the rest of
    /// the other ("pointing" and "claiming"). Stronger than the constraints'
    /// own domain consistency, so fewer nodes; it only acts within the
    /// merged system (under [`Propagation::Mac`] with matching strength,
    /// not with [`separate_all_different`](SolveConfig::separate_all_different)).
    pub all_different_intersections: bool,
    /// Conflict-directed backjumping (Prosser 1993): with [`Propagation::None`]
    /// this is BT-CBJ, with [`Propagation::ForwardChecking`] FC-CBJ. It cannot be
    /// combined with [`Propagation::Mac`] ([`Solver::new`](crate::Solver::new)
    /// rejects it).
    pub backjumping: bool,
    /// How a node is split: one child per value, or `x = v` then `x ≠ v`.
    pub branching: Branching,
    /// Whether the search restarts from the root after a number of failures.
    pub restarts: Restarts,
    /// Limits on nodes, solutions and time.
    pub limits: Limits,
}

impl SolveConfig {
    /// The default configuration with another propagation level.
    pub fn with_propagation(mut self, propagation: Propagation) -> Self {
        self.propagation = propagation;
        self
    }

    /// This configuration with another variable ordering.
    pub fn with_var_order(mut self, order: VarOrder) -> Self {
        self.var_order = order;
        self
    }

    /// This configuration with another value ordering.
    pub fn with_value_order(mut self, order: ValueOrder) -> Self {
        self.value_order = order;
        self
    }

    /// This configuration with another `all_different` strength.
    pub fn with_all_different(mut self, strength: AllDifferentStrength) -> Self {
        self.all_different = strength;
        self
    }

    /// This configuration with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// This configuration with another restart policy.
    pub fn with_restarts(mut self, restarts: Restarts) -> Self {
        self.restarts = restarts;
        self
    }

    /// This configuration with other limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// An option name that is not one of the known spellings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{found}' (expected one of: {})", .expected.trim_end().replace(' ', ", "))]
pub struct UnknownOption {
    /// What was being parsed, e.g. "propagation level".
    pub what: &'static str,
    /// The word that was given.
    pub found: String,
    /// The accepted spellings.
    pub expected: &'static str,
}

macro_rules! spelled {
    ($ty:ident, $what:literal, [$($variant:ident => $name:literal $(| $alias:literal)*),+ $(,)?]) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The canonical short name.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }

        impl FromStr for $ty {
            type Err = UnknownOption;

            fn from_str(s: &str) -> Result<Self, UnknownOption> {
                match s.to_ascii_lowercase().as_str() {
                    $($name $(| $alias)* => Ok($ty::$variant),)+
                    _ => Err(UnknownOption {
                        what: $what,
                        found: s.to_string(),
                        expected: concat!($($name, " "),+),
                    }),
                }
            }
        }
    };
}

spelled!(Propagation, "propagation level", [
    None => "none" | "bt",
    ForwardChecking => "forward-checking" | "fc",
    Mac => "mac",
]);

spelled!(VarOrder, "variable ordering", [
    Input => "input" | "lex",
    Mrv => "mrv" | "dom",
    MrvDegree => "mrv-degree" | "mrvdeg" | "mrv+degree",
    DomDeg => "dom-deg" | "domdeg" | "dom/deg",
    DomWdeg => "dom-wdeg" | "domwdeg" | "dom/wdeg",
]);

spelled!(ValueOrder, "value ordering", [
    Ascending => "ascending" | "asc" | "min",
    Descending => "descending" | "desc" | "max",
    Random => "random" | "rand",
    LeastConstraining => "lcv" | "least-constraining",
]);

spelled!(Branching, "branching", [
    Enumerate => "enumerate" | "d-way" | "dway",
    Binary => "binary" | "2-way" | "2way",
]);

spelled!(ArcConsistency, "arc-consistency algorithm", [
    Ac3 => "ac3" | "ac-3",
    Ac2001 => "ac2001" | "ac-2001",
]);

spelled!(AllDifferentStrength, "all-different strength", [
    Pairwise => "pairwise" | "value",
    Matching => "matching" | "domain" | "regin",
]);

/// A configuration spelling that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigSyntaxError {
    /// A word that is not part of the grammar.
    #[error(
        "unknown word '{word}' in configuration '{config}' (after the level come '+'-separated words: a variable \
         ordering input|mrv|mrvdeg|domdeg|domwdeg, a value ordering asc|desc|random|lcv, an all-different \
         strength pairwise|matching, rootac, separate, intersect, binary, luby or luby=SCALE, or seed=N)"
    )]
    UnknownWord {
        /// The whole spelling.
        config: String,
        /// The word.
        word: String,
    },
    /// The level (before any `/` or `+`) is not known.
    #[error("unknown level '{level}' in configuration '{config}' (expected bt, bt-cbj, fc, fc-cbj or mac)")]
    UnknownLevel {
        /// The whole spelling.
        config: String,
        /// The level word.
        level: String,
    },
    /// The arc-consistency algorithm after `/` is not known.
    #[error("unknown arc-consistency algorithm '{algorithm}' in configuration '{config}' (expected ac3 or ac2001)")]
    UnknownAlgorithm {
        /// The whole spelling.
        config: String,
        /// The algorithm word.
        algorithm: String,
    },
    /// Two words set the same option.
    #[error("configuration '{config}' sets the {what} twice")]
    Repeated {
        /// The whole spelling.
        config: String,
        /// Which option.
        what: &'static str,
    },
}

impl SolveConfig {
    /// The short name of the variable ordering used in configuration spellings.
    fn short_var_order(order: VarOrder) -> &'static str {
        match order {
            VarOrder::Input => "input",
            VarOrder::Mrv => "mrv",
            VarOrder::MrvDegree => "mrvdeg",
            VarOrder::DomDeg => "domdeg",
            VarOrder::DomWdeg => "domwdeg",
        }
    }

    fn short_value_order(order: ValueOrder) -> &'static str {
        match order {
            ValueOrder::Ascending => "asc",
            ValueOrder::Descending => "desc",
            ValueOrder::Random => "random",
            ValueOrder::LeastConstraining => "lcv",
        }
    }
}

/// The one-line spelling of a configuration, used by every tool, table, plot
/// and benchmark id:
///
/// ```text
/// config := level [ "/" algorithm ] { "+" word }
/// level  := bt | bt-cbj | fc | fc-cbj | mac        (bt is plain backtracking)
/// algorithm := ac3 | ac2001                         (default ac3)
/// word   := input | mrv | mrvdeg | domdeg | domwdeg (variable ordering, default mrv)
///         | asc | desc | random | lcv               (value ordering, default asc)
///         | pairwise | matching                     (all-different strength, default matching)
///         | rootac                                  (arc consistency at the root)
///         | separate                                (no merged all-different system)
///         | intersect                               (all-different intersections, see the field)
///         | binary                                  (2-way branching, default d-way)
///         | luby | luby=SCALE                         (Luby restarts, default scale 100)
///         | seed=N                                  (default 0)
/// ```
///
/// Limits are not part of the spelling. `Display` writes the level, the
/// variable ordering, and whatever else differs from the defaults, so it reads
/// back to an equal configuration.
///
/// ```
/// use csp::{ArcConsistency, Propagation, SolveConfig, ValueOrder, VarOrder};
/// let config: SolveConfig = "mac/ac2001+domwdeg+lcv".parse().unwrap();
/// assert_eq!(config.propagation, Propagation::Mac);
/// assert_eq!(config.arc_consistency, ArcConsistency::Ac2001);
/// assert_eq!((config.var_order, config.value_order), (VarOrder::DomWdeg, ValueOrder::LeastConstraining));
/// assert_eq!(config.to_string(), "mac/ac2001+domwdeg+lcv");
/// assert!("fc-cbj+input".parse::<SolveConfig>().unwrap().backjumping);
/// assert!("fc+fastest".parse::<SolveConfig>().is_err());
/// ```
impl FromStr for SolveConfig {
    type Err = ConfigSyntaxError;

    fn from_str(text: &str) -> Result<SolveConfig, ConfigSyntaxError> {
        let config_text = text.trim();
        let mut config = SolveConfig::default();
        let mut words = config_text.split('+');
        let head = words.next().unwrap_or_default().to_ascii_lowercase();
        let (level, algorithm) = match head.split_once('/') {
            Some((level, algorithm)) => (level.to_string(), Some(algorithm.to_string())),
            None => (head.clone(), None),
        };
        (config.propagation, config.backjumping) = match level.as_str() {
            "bt" | "none" => (Propagation::None, false),
            "bt-cbj" | "btcbj" => (Propagation::None, true),
            "fc" | "forward-checking" => (Propagation::ForwardChecking, false),
            "fc-cbj" | "fccbj" => (Propagation::ForwardChecking, true),
            "mac" => (Propagation::Mac, false),
            // Readable so that every configuration's spelling reads back; the
            // solver refuses it.
            "mac-cbj" | "maccbj" => (Propagation::Mac, true),
            _ => return Err(ConfigSyntaxError::UnknownLevel { config: config_text.to_string(), level }),
        };
        if let Some(algorithm) = algorithm {
            config.arc_consistency = algorithm
                .parse()
                .map_err(|_| ConfigSyntaxError::UnknownAlgorithm { config: config_text.to_string(), algorithm })?;
        }
        let mut seen: Vec<&'static str> = Vec::new();
        let mut once = |what: &'static str| {
            if seen.contains(&what) {
                Err(ConfigSyntaxError::Repeated { config: config_text.to_string(), what })
            } else {
                seen.push(what);
                Ok(())
            }
        };
        for word in words {
            let word = word.trim().to_ascii_lowercase();
            if let Some(seed) = word.strip_prefix("seed=") {
                once("seed")?;
                config.seed = seed.parse().map_err(|_| ConfigSyntaxError::UnknownWord {
                    config: config_text.to_string(),
                    word: word.clone(),
                })?;
            } else if word == "luby" || word.starts_with("luby=") {
                once("restarts")?;
                config.restarts = word.parse().map_err(|_| ConfigSyntaxError::UnknownWord {
                    config: config_text.to_string(),
                    word: word.clone(),
                })?;
            } else if word == "binary" || word == "2way" {
                once("branching")?;
                config.branching = Branching::Binary;
            } else if word == "intersect" {
                once("all-different intersections")?;
                config.all_different_intersections = true;
            } else if word == "separate" {
                once("separate all-different")?;
                config.separate_all_different = true;
            } else if word == "rootac" || word == "root-ac" {
                once("root arc consistency")?;
                config.root_arc_consistency = true;
            } else if let Ok(order) = word.parse::<VarOrder>() {
                once("variable ordering")?;
                config.var_order = order;
            } else if let Ok(order) = word.parse::<ValueOrder>() {
                once("value ordering")?;
                config.value_order = order;
            } else if let Ok(strength) = word.parse::<AllDifferentStrength>() {
                once("all-different strength")?;
                config.all_different = strength;
            } else {
                return Err(ConfigSyntaxError::UnknownWord { config: config_text.to_string(), word });
            }
        }
        Ok(config)
    }
}

impl fmt::Display for SolveConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match (self.propagation, self.backjumping) {
            (Propagation::None, false) => "bt",
            (Propagation::None, true) => "bt-cbj",
            (Propagation::ForwardChecking, false) => "fc",
            (Propagation::ForwardChecking, true) => "fc-cbj",
            (Propagation::Mac, false) => "mac",
            (Propagation::Mac, true) => "mac-cbj",
        };
        f.write_str(level)?;
        if self.arc_consistency != ArcConsistency::default() {
            write!(f, "/{}", self.arc_consistency)?;
        }
        write!(f, "+{}", Self::short_var_order(self.var_order))?;
        if self.value_order != ValueOrder::default() {
            write!(f, "+{}", Self::short_value_order(self.value_order))?;
        }
        if self.all_different != AllDifferentStrength::default() {
            write!(f, "+{}", self.all_different)?;
        }
        if self.root_arc_consistency {
            f.write_str("+rootac")?;
        }
        if self.separate_all_different {
            f.write_str("+separate")?;
        }
        if self.all_different_intersections {
            f.write_str("+intersect")?;
        }
        if self.branching == Branching::Binary {
            f.write_str("+binary")?;
        }
        if self.restarts != Restarts::Never {
            write!(f, "+{}", self.restarts)?;
        }
        if self.seed != 0 {
            write!(f, "+seed={}", self.seed)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &p in Propagation::ALL {
            assert_eq!(p.name().parse::<Propagation>(), Ok(p));
        }
        for &v in VarOrder::ALL {
            assert_eq!(v.name().parse::<VarOrder>(), Ok(v));
        }
        for &v in ValueOrder::ALL {
            assert_eq!(v.name().parse::<ValueOrder>(), Ok(v));
        }
        for &s in AllDifferentStrength::ALL {
            assert_eq!(s.name().parse::<AllDifferentStrength>(), Ok(s));
        }
    }

    #[test]
    fn configuration_spellings_round_trip() {
        for text in [
            "fc+mrv",
            "mac/ac2001+domwdeg+lcv",
            "bt-cbj+input",
            "fc-cbj+mrv+random+seed=7",
            "mac+mrv+pairwise",
            "mac+mrv+separate",
            "mac+domwdeg+luby",
            "mac+domwdeg+intersect+binary",
            "mac+mrv+random+luby=10+seed=3",
        ] {
            let config: SolveConfig = text.parse().unwrap();
            assert_eq!(config.to_string(), text);
            assert_eq!(config.to_string().parse::<SolveConfig>().unwrap(), config);
        }
        // The solver refuses it, but the spelling of every configuration reads back.
        let config: SolveConfig = "mac-cbj+mrv".parse().unwrap();
        assert!(config.backjumping && config.propagation == Propagation::Mac);
        assert_eq!(config.to_string(), "mac-cbj+mrv");
        let config: SolveConfig = "FC+rootac".parse().unwrap();
        assert!(config.root_arc_consistency);
        assert_eq!(config.to_string(), "fc+mrv+rootac");
        for &propagation in Propagation::ALL {
            for &var_order in VarOrder::ALL {
                for &value_order in ValueOrder::ALL {
                    let config = SolveConfig::default()
                        .with_propagation(propagation)
                        .with_var_order(var_order)
                        .with_value_order(value_order);
                    assert_eq!(config.to_string().parse::<SolveConfig>().unwrap(), config);
                }
            }
        }
    }

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(u64::MAX), 1 << 63);
        assert_eq!(Restarts::Luby { scale: 10 }.cutoff(6), Some(40));
        assert_eq!(Restarts::Luby { scale: 0 }.cutoff(0), Some(1));
        assert_eq!(Restarts::Never.cutoff(0), None);
        for text in ["never", "luby", "luby=7"] {
            assert_eq!(text.parse::<Restarts>().unwrap().to_string(), text);
        }
        assert!("luby=0".parse::<Restarts>().is_err());
        assert!("geometric".parse::<Restarts>().unwrap_err().to_string().contains("never, luby, luby=SCALE"));
    }

    #[test]
    fn bad_spellings_say_what_is_wrong() {
        let err = "fc+mrv+fast".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.starts_with("unknown word 'fast' in configuration 'fc+mrv+fast'"), "{err}");
        assert!("ac+mrv".parse::<SolveConfig>().unwrap_err().to_string().contains("unknown level 'ac'"));
        assert!("mac/ac4".parse::<SolveConfig>().unwrap_err().to_string().contains("'ac4'"));
        assert!("fc+mrv+input".parse::<SolveConfig>().unwrap_err().to_string().contains("twice"));
        assert!("fc+seed=x".parse::<SolveConfig>().is_err());
        assert!("mac+luby=0".parse::<SolveConfig>().is_err());
        assert!("mac+luby+luby=5".parse::<SolveConfig>().unwrap_err().to_string().contains("restarts twice"));
    }

    #[test]
    fn unknown_names_say_what_is_expected() {
        let err = "fastest".parse::<VarOrder>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variable ordering 'fastest' (expected one of: input, mrv, mrv-degree, dom-deg, dom-wdeg)"
        );
    }
}
