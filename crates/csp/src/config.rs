//! How to solve: propagation level, orderings, strengths, limits.
//!
//! Every option has a short lowercase name (its `Display` and `FromStr`
//! spelling) so that command-line tools, tables and benchmark ids all write a
//! configuration the same way.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

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

/// The strength of the `all_different` propagator (Gecode's value versus domain
/// consistency). Both are sound and detect every violation of a full assignment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AllDifferentStrength {
    /// Pairwise value elimination: an assigned variable's value is removed from the
    /// others. As strong as the clique of binary not-equal constraints.
    Pairwise,
    /// Domain consistency by bipartite matching (Régin 1994): every value left has
    /// a support in some complete assignment of the constraint. It also finds
    /// hidden singles, naked pairs and every other pigeonhole argument.
    #[default]
    Matching,
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

spelled!(AllDifferentStrength, "all-different strength", [
    Pairwise => "pairwise" | "value",
    Matching => "matching" | "domain" | "regin",
]);

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
    fn unknown_names_say_what_is_expected() {
        let err = "fastest".parse::<VarOrder>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variable ordering 'fastest' (expected one of: input, mrv, mrv-degree, dom-deg, dom-wdeg)"
        );
    }
}
