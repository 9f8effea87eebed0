//! How a configuration is written: one table of names per option (the
//! `spelled!` macro), and the one-line grammar of a whole configuration
//! (`fc+mrv`, `mac/ac2001+domwdeg+lcv`), which every tool, table, plot and
//! benchmark id uses.

use std::fmt;
use std::str::FromStr;

use super::config::{Backjumping, Branching, Jumps, Probing, Propagation, Search, SolveConfig, ValueOrder, VarOrder};
use super::restart::Restarts;
use crate::constraint::AllDifferentStrength;
use crate::constraints::ArcConsistency;

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

/// The names of an option's values, in one table per type: `Variant =>
/// "name"`, optionally `("short")` (the word configuration spellings use,
/// when it is not the name), then `| "alias"`es. It gives the type `ALL`,
/// `name()`, `short()`, `Display` (the name) and `FromStr` (the name, the
/// short word and the aliases, in any case).
macro_rules! spelled {
    ($ty:ident, $what:literal, [$($variant:ident => $name:literal $(($short:literal))? $(| $alias:literal)*),+ $(,)?]) => {
        impl $ty {
            /// Every value, in declaration order.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];

            /// The canonical name.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name),+
                }
            }

            /// The word for this value in a configuration's one-line spelling
            /// (see [`SolveConfig`]'s `FromStr`).
            pub fn short(self) -> &'static str {
                match self {
                    $($ty::$variant => spelled!(@short $name $(, $short)?)),+
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
                    $($name $(| $short)? $(| $alias)* => Ok($ty::$variant),)+
                    _ => Err(UnknownOption {
                        what: $what,
                        found: s.to_string(),
                        expected: concat!($($name, " "),+),
                    }),
                }
            }
        }
    };
    (@short $name:literal) => { $name };
    (@short $name:literal, $short:literal) => { $short };
}

spelled!(Propagation, "propagation level", [
    None => "none" | "bt",
    ForwardChecking => "forward-checking" | "fc",
    Mac => "mac",
]);

spelled!(VarOrder, "variable ordering", [
    Input => "input" | "lex",
    Mrv => "mrv" | "dom",
    MrvDegree => "mrv-degree" ("mrvdeg") | "mrv+degree",
    DomDeg => "dom-deg" ("domdeg") | "dom/deg",
    DomDdeg => "dom-ddeg" ("domddeg") | "dom/ddeg",
    DomWdeg => "dom-wdeg" ("domwdeg") | "dom/wdeg",
    Vsids => "vsids" | "activity",
    LiteralVsids => "literal-vsids" ("lvsids") | "literal-activity",
    Alternate => "alternate" | "hybrid",
    Rotate => "rotate" | "alternate-sd",
    AntiFirstFail => "anti-first-fail" ("antiff") | "largest-domain",
    Smallest => "smallest" | "smallest-value",
    Largest => "largest" | "largest-value",
    Occurrence => "occurrence" | "max-degree",
    MaxRegret => "max-regret" ("regret"),
    MaxSd => "max-sd" ("maxsd") | "max-solution-density",
    MaxRelSd => "max-rel-sd" ("maxrelsd") | "max-relative-solution-density",
    Places => "places" | "exact-cover" | "dlx",
    WeightedPlaces => "weighted-places" ("wplaces"),
    AlternatePlaces => "alternate-places" ("aplaces"),
    Chb => "chb" | "conflict-history",
    AlternateChb => "alternate-chb" ("altchb"),
    ChbLiteral => "chb-literal" ("chblit"),
    Lrb => "lrb" | "learning-rate",
    AlternateLrb => "alternate-lrb" ("altlrb"),
]);

spelled!(ValueOrder, "value ordering", [
    Ascending => "ascending" ("asc") | "min",
    Descending => "descending" ("desc") | "max",
    Random => "random" | "rand",
    LeastConstraining => "lcv" | "least-constraining",
    Phase => "phase" | "phase-saving",
    Active => "active" | "most-active",
    Median => "median",
    Split => "split",
    ReverseSplit => "reverse-split" ("rsplit"),
    SolutionGuided => "solution-guided" ("guided") | "incumbent",
]);

spelled!(Probing, "probing", [
    Off => "off" | "none",
    Bivalue => "bivalue" ("probe") | "probe-bivalue",
    Singleton => "singleton" ("sac") | "singleton-arc-consistency",
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
    Bounds => "bounds" | "bc",
    Cover => "cover" | "exact-cover",
]);

/// A configuration spelling that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigSyntaxError {
    /// A word that is not part of the grammar.
    #[error(
        "unknown word '{word}' in configuration '{config}' (after the level come '+'-separated words: a variable \
         ordering input|mrv|mrvdeg|domdeg|domddeg|domwdeg|vsids|lvsids|alternate|rotate|antiff|smallest|largest|occurrence|regret|maxsd|maxrelsd|places|wplaces|aplaces|chb|altchb|chblit|lrb|altlrb, a value \
         ordering asc|desc|random|lcv|phase|active|median|split|rsplit|guided, an all-different strength pairwise|matching|bounds|cover, \
         learn, minimize, tiers, dynlbd, protect, noglue, expire, fade, gluecap, vivify, target, rephase, rephase=UNIT, stable, stable=UNIT, chrono, chrono=LEVELS, nld, probe, sac, cheap, touched, atroot, rootac, separate, intersect, binary, luby, luby=SCALE, geometric, geometric=SCALE:FACTOR, glucose or glucose=WINDOW, or seed=N)"
    )]
    UnknownWord {
        /// The whole spelling.
        config: String,
        /// The word.
        word: String,
    },
    /// A `+` with no word after it: doubled (`mac++mrv`), trailing (`mac+`),
    /// or before the level (`+mrv`).
    #[error("configuration '{config}': the '+' at character {position} {problem}")]
    EmptyWord {
        /// The whole spelling.
        config: String,
        /// The place of the `+` in the spelling, counted in characters from 1.
        position: usize,
        /// What is wrong with it: `is doubled (an empty word between two '+')`, ...
        problem: &'static str,
    },
    /// A word that says what another word of the spelling implies
    /// (`mac+learn+binary`: learning always branches binary).
    #[error("configuration '{config}': '{word}' is implied by '{by}' ({why}): leave it out")]
    Implied {
        /// The whole spelling.
        config: String,
        /// The word that says nothing more.
        word: String,
        /// The word that implies it.
        by: &'static str,
        /// Why.
        why: &'static str,
    },
    /// A known word with a value it does not take (`luby=0`, `seed=-1`).
    #[error("configuration '{config}': '{word}' is not a value of {what}: {takes}")]
    BadValue {
        /// The whole spelling.
        config: String,
        /// The word with its value.
        word: String,
        /// The word's name, with its value's place (`luby=SCALE`).
        what: &'static str,
        /// What it takes.
        takes: &'static str,
    },
    /// The level (before any `/` or `+`) is not known.
    #[error(
        "unknown level '{level}' in configuration '{config}' (expected bt, bt-bj, bt-gbj, bt-cbj, fc, fc-bj, fc-cbj, mac or mac-cbj)"
    )]
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
    /// Words that each make sense but ask together for a search the engine
    /// does not implement (see [`Search`](crate::Search)).
    #[error("configuration '{config}' asks for {what}, which is not implemented ({instead})")]
    Unsupported {
        /// The whole spelling.
        config: String,
        /// The combination.
        what: &'static str,
        /// What is implemented instead.
        instead: &'static str,
    },
}

/// The levels of the spelling: each propagation level, chronological or with
/// the backjumping implemented for it, by its name and other accepted words.
/// `Display` writes the name.
const LEVELS: &[(&str, &[&str], Search)] = &[
    ("bt", &["none"], Search::Chronological { propagation: Propagation::None, branching: Branching::Enumerate }),
    ("bt-bj", &["bj", "btbj"], Search::Backjumping(Backjumping::Bj)),
    ("bt-gbj", &["gbj", "btgbj"], Search::Backjumping(Backjumping::Gbj)),
    ("bt-cbj", &["cbj", "btcbj"], Search::Backjumping(Backjumping::BtCbj)),
    (
        "fc",
        &["forward-checking"],
        Search::Chronological { propagation: Propagation::ForwardChecking, branching: Branching::Enumerate },
    ),
    ("fc-bj", &["fcbj"], Search::Backjumping(Backjumping::FcBj)),
    ("fc-cbj", &["fccbj"], Search::Backjumping(Backjumping::FcCbj)),
    ("mac", &[], Search::Chronological { propagation: Propagation::Mac, branching: Branching::Enumerate }),
    ("mac-cbj", &["maccbj"], Search::Backjumping(Backjumping::MacCbj)),
];

/// The suffixes of the level words that name a way of jumping, longest first.
const JUMPS: &[(&str, Jumps)] =
    &[("-cbj", Jumps::ConflictDirected), ("-gbj", Jumps::GraphBased), ("-bj", Jumps::Gaschnig)];

/// The level word of a search (whatever its branching).
fn level_name(search: Search) -> &'static str {
    let head = search.with_branching(Branching::Enumerate);
    LEVELS.iter().find(|(_, _, level)| *level == head).map(|(name, _, _)| *name).expect("every search has a level")
}

/// The error of a spelling with a `+` that has no word after it (or no
/// level before it), naming the `+` by its place in characters from 1.
fn empty_word(config: &str) -> Option<ConfigSyntaxError> {
    let pluses: Vec<(usize, usize)> =
        config.char_indices().enumerate().filter(|(_, (_, c))| *c == '+').map(|(n, (byte, _))| (n + 1, byte)).collect();
    let mut previous_end = 0;
    for (k, &(position, byte)) in pluses.iter().enumerate() {
        let before = &config[previous_end..byte];
        let problem = if before.trim().is_empty() {
            Some(if k == 0 {
                "has no level before it (a spelling begins with the level: mac+mrv)"
            } else {
                "is doubled (an empty word between two '+')"
            })
        } else if k + 1 == pluses.len() && config[byte + 1..].trim().is_empty() {
            Some("ends the spelling: a word must follow it")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Some(ConfigSyntaxError::EmptyWord { config: config.to_string(), position, problem });
        }
        previous_end = byte + 1;
    }
    None
}

/// The search a level word stands for, d-way.
fn parse_level(word: &str, config: &str) -> Result<Search, ConfigSyntaxError> {
    if let Some((_, _, search)) = LEVELS.iter().find(|(name, aliases, _)| *name == word || aliases.contains(&word)) {
        return Ok(*search);
    }
    // A known level with a way of jumping not implemented for it (mac-gbj).
    for &(suffix, jumps) in JUMPS {
        let base = word.strip_suffix(suffix);
        if let Some(Search::Chronological { propagation, .. }) = base.and_then(|base| parse_level(base, config).ok()) {
            debug_assert!(Search::backjumping(propagation, jumps).is_none());
            return Err(ConfigSyntaxError::Unsupported {
                config: config.to_string(),
                what: match jumps {
                    Jumps::Gaschnig => "Gaschnig's backjumping with maintained arc consistency",
                    Jumps::GraphBased => "graph-based backjumping with propagation",
                    Jumps::ConflictDirected => "conflict-directed backjumping at this level",
                },
                instead: "backjumping is implemented as bt-bj, bt-gbj, bt-cbj, fc-bj, fc-cbj and mac-cbj",
            });
        }
    }
    Err(ConfigSyntaxError::UnknownLevel { config: config.to_string(), level: word.to_string() })
}

/// The one-line spelling of a configuration, used by every tool, table, plot
/// and benchmark id:
///
/// ```text
/// config := level [ "/" algorithm ] { "+" word }
/// level  := bt | bt-bj | bt-gbj | bt-cbj | fc | fc-bj | fc-cbj | mac | mac-cbj
///                                                   (bt is plain backtracking; bj, gbj and cbj backjump)
/// algorithm := ac3 | ac2001                         (default ac3)
/// word   := input | mrv | mrvdeg | domdeg | domddeg | domwdeg | vsids | lvsids
///         | alternate                               (variable ordering, default mrv;
///                                                    alternate: domwdeg and lvsids+active
///                                                    in turn, one restart run each)
///         | rotate                                  (domwdeg, lvsids+active and maxsd in turn,
///                                                    one restart run each)
///         | maxsd | maxrelsd                        (counting-based: the densest pair x = v of
///                                                    the all-differents, Pesant et al. 2012)
///         | places | wplaces | aplaces              (exact cover's choice: the fewest values of a
///                                                    variable or places of a value an all-different
///                                                    must take; wplaces weighs by failures; aplaces:
///                                                    wplaces and lvsids+active in turn)
///         | chb | altchb | chblit                   (CHB, Liang et al. 2016: conflict history-based
///                                                    scores; altchb: domwdeg and chb in turn;
///                                                    chblit: chb and lvsids+active in turn)
///         | lrb | altlrb                            (LRB, Liang et al. 2016: learning rate based
///                                                    scores; altlrb: domwdeg and lrb in turn)
///         | asc | desc | random | lcv | phase       (value ordering, default asc;
///         | active | median | split | rsplit          active: the most active literal's value,
///         | guided                                    guided: the last solution's value first)
///         | learn                                   (learn nogoods from failures; mac only, binary)
///         | minimize                                (learnt nogoods minimised; with learn)
///         | vivify                                  (learnt nogoods vivified at restarts; with learn)
///         | tiers | dynlbd | protect | noglue        (with learn: how the learnt nogoods are kept;
///         | expire | fade | gluecap                   protect, noglue, expire and gluecap with
///                                                    dynlbd, fade with expire)
///         | target                                  (target phases; with learn and phase)
///         | rephase | rephase=UNIT                    (rephasing every UNIT x k conflicts; with learn,
///                                                    default 1000)
///         | stable | stable=UNIT                      (stable and focused modes, the first UNIT
///                                                    conflicts long, then doubling; with learn,
///                                                    default 1000)
///         | chrono | chrono=LEVELS                   (a backjump over more than LEVELS levels
///                                                    re-makes the decisions it skipped; with
///                                                    learn, default 100)
///         | nld                                     (nogoods recorded from restarts; mac, luby or
///                                                    geometric, not learn)
///         | probe | sac                             (probing at each node: bivalue variables, or
///                                                    every value, singleton arc consistency; mac,
///                                                    chronological or with learn)
///         | cheap | touched | atroot                (with probing: probes propagate cheaply; a
///                                                    sweep probes only near changes; with learn:
///                                                    probing only at the root)
///         | pairwise | matching | bounds | cover    (all-different strength, default pairwise
///                                                    under bt and fc, matching under mac)
///         | rootac                                  (arc consistency at the root)
///         | separate                                (no merged all-different system)
///         | intersect                               (all-different intersections, see the field)
///         | binary                                  (2-way branching, default d-way; not with backjumping,
///                                                    nor with learn, which always branches binary)
///         | luby | luby=SCALE                       (Luby restarts, default scale 100)
///         | geometric | geometric=SCALE[:FACTOR]    (geometric restarts, default 100:1.5)
///         | glucose | glucose=WINDOW                (Glucose's dynamic restarts, with learn; default 50)
///         | seed=N                                  (default 0)
/// ```
///
/// Limits are not part of the spelling, nor is the bitset limit. `Display`
/// writes the level, the variable ordering, the all-different strength
/// (always, since its default depends on the level: `fc+mrv+pairwise` is
/// classic forward checking, `fc+mrv+matching` runs Régin's algorithm once
/// per decision), and whatever else differs from the defaults, so it reads
/// back to an equal configuration.
///
/// ```
/// use csp::{ArcConsistency, Propagation, SolveConfig, ValueOrder, VarOrder};
/// let config: SolveConfig = "mac/ac2001+domwdeg+lcv".parse().unwrap();
/// assert_eq!(config.propagation(), Propagation::Mac);
/// assert_eq!(config.arc_consistency, ArcConsistency::Ac2001);
/// assert_eq!((config.var_order, config.value_order), (VarOrder::DomWdeg, ValueOrder::LeastConstraining));
/// assert_eq!(config.to_string(), "mac/ac2001+domwdeg+lcv+matching");
/// assert!("fc-cbj+input".parse::<SolveConfig>().unwrap().backjumping());
/// assert!("fc+fastest".parse::<SolveConfig>().is_err());
/// // Forward checking is classic unless the matching is asked for.
/// assert_eq!("fc".parse::<SolveConfig>().unwrap().to_string(), "fc+mrv+pairwise");
/// assert_eq!("fc+matching".parse::<SolveConfig>().unwrap().to_string(), "fc+mrv+matching");
/// // Backjumping where it is not implemented does not parse.
/// let err = "mac-gbj+mrv".parse::<SolveConfig>().unwrap_err().to_string();
/// assert!(err.contains("graph-based backjumping") && err.contains("mac-cbj"), "{err}");
/// assert!("fc-cbj+binary".parse::<SolveConfig>().is_err());
/// ```
/// The words that switch an option on: their spellings, what they switch
/// (named when a word is repeated), and the option.
type Switch = (&'static [&'static str], &'static str, fn(&mut SolveConfig) -> &mut bool);
const SWITCHES: &[Switch] = &[
    (&["minimize", "minimise"], "nogood minimisation", |c| &mut c.minimize_nogoods),
    (&["tiers"], "nogood tiers", |c| &mut c.nogood_tiers),
    (&["dynlbd"], "dynamic LBD", |c| &mut c.dynamic_lbd),
    (&["protect"], "LBD protection", |c| &mut c.lbd_protection),
    (&["noglue"], "no recounted glue", |c| &mut c.learnt_glue_only),
    (&["expire"], "expiring glue", |c| &mut c.expiring_glue),
    (&["fade"], "expired glue by activity", |c| &mut c.faded_glue_by_activity),
    (&["gluecap"], "glue cap", |c| &mut c.glue_cap),
    (&["vivify"], "nogood vivification", |c| &mut c.vivify_nogoods),
    (&["nld"], "nogoods from restarts", |c| &mut c.restart_nogoods),
    (&["intersect"], "all-different intersections", |c| &mut c.all_different_intersections),
    (&["separate"], "separate all-different", |c| &mut c.separate_all_different),
    (&["rootac", "root-ac"], "root arc consistency", |c| &mut c.root_arc_consistency),
    (&["cheap"], "cheap probes", |c| &mut c.cheap_probes),
    (&["touched"], "touched probes", |c| &mut c.touched_probes),
    (&["atroot"], "root probes", |c| &mut c.root_probes),
    (&["target"], "target phases", |c| &mut c.target_phases),
];

/// The words that take an optional number of conflicts (`rephase`,
/// `rephase=UNIT`): their name, what they set (named when a word is
/// repeated), the default, and the option.
type Scheduled = (&'static str, &'static str, u32, fn(&mut SolveConfig) -> &mut Option<u32>);
const SCHEDULES: &[Scheduled] = &[
    ("rephase", "rephasing", SolveConfig::REPHASE_UNIT, |c| &mut c.rephase),
    ("stable", "stable modes", SolveConfig::STABLE_UNIT, |c| &mut c.stable_modes),
    ("chrono", "chronological replay", SolveConfig::CHRONO_LEVELS, |c| &mut c.chrono),
];

impl SolveConfig {
    /// What the unit of `rephase=UNIT` and `stable=UNIT` is, as a refusal
    /// says it.
    pub const CONFLICTS_UNIT: &'static str = "the unit is a whole number of conflicts, 1 or more";

    /// The unit of `rephase=UNIT` or `stable=UNIT` written as `text` (the
    /// one reading of it, for the spelling and the tools' flags): a whole
    /// number of conflicts, 1 or more; `None` if `text` is not one (see
    /// [`SolveConfig::CONFLICTS_UNIT`]).
    ///
    /// ```
    /// use csp::SolveConfig;
    /// assert_eq!(SolveConfig::conflicts_unit("20"), Some(20));
    /// assert_eq!(SolveConfig::conflicts_unit("0"), None);
    /// assert_eq!(SolveConfig::conflicts_unit("abc"), None);
    /// ```
    pub fn conflicts_unit(text: &str) -> Option<u32> {
        text.parse().ok().filter(|&n: &u32| n >= 1)
    }
}

impl FromStr for SolveConfig {
    type Err = ConfigSyntaxError;

    fn from_str(text: &str) -> Result<SolveConfig, ConfigSyntaxError> {
        let config_text = text.trim();
        let mut config = SolveConfig::default();
        if let Some(error) = empty_word(config_text) {
            return Err(error);
        }
        let mut words = config_text.split('+');
        let head = words.next().unwrap_or_default().trim().to_ascii_lowercase();
        let (level, algorithm) = match head.split_once('/') {
            Some((level, algorithm)) => (level.trim_end().to_string(), Some(algorithm.trim_start().to_string())),
            None => (head.clone(), None),
        };
        config.search = parse_level(&level, config_text)?;
        config.all_different = config.propagation().default_all_different();
        if let Some(algorithm) = algorithm {
            config.arc_consistency = algorithm
                .parse()
                .map_err(|_| ConfigSyntaxError::UnknownAlgorithm { config: config_text.to_string(), algorithm })?;
        }
        let mut seen: Vec<&'static str> = Vec::new();
        // The word that set the branching, for `learn` and `binary` in either order.
        let mut branching_word: Option<String> = None;
        let implied_binary = |word: &str| ConfigSyntaxError::Implied {
            config: config_text.to_string(),
            word: word.to_string(),
            by: "learn",
            why: "learning always branches binary: x = v, then x != v",
        };
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
            let bad_value = |what, takes| ConfigSyntaxError::BadValue {
                config: config_text.to_string(),
                word: word.clone(),
                what,
                takes,
            };
            if let Some(seed) = word.strip_prefix("seed=") {
                once("seed")?;
                config.seed = seed.parse().map_err(|_| bad_value("seed=N", "a whole number from 0 to 2^64 - 1"))?;
            } else if ["luby", "geometric", "glucose"]
                .iter()
                .any(|policy| word == *policy || word.starts_with(&format!("{policy}=")))
            {
                once("restarts")?;
                config.restarts = word.parse().map_err(|_| match word.split('=').next() {
                    Some("luby") => bad_value("luby=SCALE", "the scale is a whole number, 1 or more"),
                    Some("geometric") => bad_value(
                        "geometric=SCALE:FACTOR",
                        "the scale is a whole number, 1 or more, and the factor a number above 1 with at most \
                         three decimals",
                    ),
                    _ => bad_value("glucose=WINDOW", "the window is a whole number, 1 or more"),
                })?;
            } else if word == "learn" || word == "learning" {
                once("learning")?;
                if config.search.propagation() != Propagation::Mac {
                    return Err(ConfigSyntaxError::Unsupported {
                        config: config_text.to_string(),
                        what: "learning without maintained arc consistency",
                        instead: "learning propagates to a fixpoint after each decision: mac+learn",
                    });
                }
                if config.search.backjumps() {
                    return Err(ConfigSyntaxError::Unsupported {
                        config: config_text.to_string(),
                        what: "learning with backjumping",
                        instead: "learning jumps back by its own analysis of conflicts: mac+learn",
                    });
                }
                if let Some(binary) = branching_word.take() {
                    return Err(implied_binary(&binary));
                }
                config.search = Search::Learning;
            } else if let Some(&(name, what, default, option)) = SCHEDULES
                .iter()
                .find(|(name, ..)| word == *name || word.strip_prefix(name).is_some_and(|rest| rest.starts_with('=')))
            {
                once(what)?;
                let unit = match word.strip_prefix(name).and_then(|rest| rest.strip_prefix('=')) {
                    None => default,
                    Some(n) => SolveConfig::conflicts_unit(n).ok_or_else(|| match name {
                        "rephase" => bad_value("rephase=UNIT", SolveConfig::CONFLICTS_UNIT),
                        "stable" => bad_value("stable=UNIT", SolveConfig::CONFLICTS_UNIT),
                        _ => bad_value("chrono=LEVELS", "the threshold is a whole number of levels, 1 or more"),
                    })?,
                };
                *option(&mut config) = Some(unit);
            } else if let Some(&(_, what, flag)) = SWITCHES.iter().find(|(words, ..)| words.contains(&word.as_str())) {
                once(what)?;
                *flag(&mut config) = true;
            } else if word == "binary" || word == "2way" {
                once("branching")?;
                if config.learning() {
                    return Err(implied_binary(&word));
                }
                branching_word = Some(word.clone());
                if config.search.backjumps() {
                    return Err(ConfigSyntaxError::Unsupported {
                        config: config_text.to_string(),
                        what: "binary branching with backjumping",
                        instead: "backjumping branches d-way; binary branching backtracks chronologically",
                    });
                }
                config.search = config.search.with_branching(Branching::Binary);
            } else if let Some(probing) = Probing::ALL.iter().copied().find(|p| p.is_on() && word == p.short()) {
                once("probing")?;
                config.probing = probing;
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
        // Checked once every word is read: `mac+sac+learn` and
        // `mac+learn+sac` say the same.
        if let Err((what, instead)) = config.probing.supports(config.search) {
            return Err(ConfigSyntaxError::Unsupported { config: config_text.to_string(), what, instead });
        }
        if let Err((what, instead)) = config.restarts.supports(config.search) {
            return Err(ConfigSyntaxError::Unsupported { config: config_text.to_string(), what, instead });
        }
        if let Err((what, instead)) = super::nld::supports(&config) {
            return Err(ConfigSyntaxError::Unsupported { config: config_text.to_string(), what, instead });
        }
        let learning_only = [
            (
                config.minimize_nogoods,
                "nogood minimisation without learning",
                "only search that learns has nogoods to minimise: mac+learn+minimize",
            ),
            (
                config.nogood_tiers,
                "nogood tiers without learning",
                "only search that learns keeps nogoods: mac+learn+tiers",
            ),
            (
                config.dynamic_lbd,
                "dynamic LBD without learning",
                "only search that learns has nogoods to weigh: mac+learn+dynlbd",
            ),
            (
                config.lbd_protection,
                "LBD protection without learning",
                "only search that learns keeps nogoods: mac+learn+dynlbd+protect",
            ),
            (
                config.vivify_nogoods,
                "nogood vivification without learning",
                "only search that learns has nogoods to vivify: mac+learn+vivify",
            ),
            (
                config.target_phases,
                "target phases without learning",
                "the target is the largest state before a conflict's analysis: mac+learn+phase+target",
            ),
            (
                config.rephase.is_some(),
                "rephasing without learning",
                "the schedule counts the conflicts of search that learns: mac+learn+phase+rephase",
            ),
            (
                config.stable_modes.is_some(),
                "stable modes without learning",
                "the modes' lengths count the conflicts of search that learns: mac+learn+phase+stable",
            ),
            (
                config.chrono.is_some(),
                "chronological replay without learning",
                "only search that learns jumps back over levels by its analysis: mac+learn+chrono",
            ),
        ];
        if let Some(&(_, what, instead)) = learning_only.iter().find(|(on, ..)| *on && !config.learning()) {
            return Err(ConfigSyntaxError::Unsupported { config: config_text.to_string(), what, instead });
        }
        let probing_only = [
            (config.cheap_probes, "cheap probes without probing", "only probes propagate cheaply: mac+probe+cheap"),
            (
                config.touched_probes,
                "touched probes without probing",
                "only probing sweeps choose what to probe: mac+probe+touched",
            ),
            (
                config.root_probes,
                "root probes without probing",
                "only probing can be kept to the root: mac+learn+probe+atroot",
            ),
        ];
        if let Some(&(_, what, instead)) = probing_only.iter().find(|(on, ..)| *on && !config.probing.is_on()) {
            return Err(ConfigSyntaxError::Unsupported { config: config_text.to_string(), what, instead });
        }
        if config.root_probes && !config.learning() {
            return Err(ConfigSyntaxError::Unsupported {
                config: config_text.to_string(),
                what: "root probes without learning",
                instead: "probing at the root alone is probing under learning: mac+learn+probe+atroot",
            });
        }
        let dynamic_only = [
            (
                config.lbd_protection,
                "LBD protection without dynamic LBD",
                "a distance is lowered only when recounted: mac+learn+dynlbd+protect",
            ),
            (
                config.learnt_glue_only,
                "no recounted glue without dynamic LBD",
                "a distance is lowered only when recounted: mac+learn+dynlbd+noglue",
            ),
            (
                config.expiring_glue,
                "expiring glue without dynamic LBD",
                "only a recount makes glue that can expire: mac+learn+dynlbd+expire",
            ),
            (
                config.glue_cap,
                "a glue cap without dynamic LBD",
                "only a recount makes glue beyond the learnt glue: mac+learn+dynlbd+gluecap",
            ),
        ];
        if let Some(&(_, what, instead)) = dynamic_only.iter().find(|(on, ..)| *on && !config.dynamic_lbd) {
            return Err(ConfigSyntaxError::Unsupported { config: config_text.to_string(), what, instead });
        }
        if config.target_phases && config.value_order != ValueOrder::Phase {
            return Err(ConfigSyntaxError::Unsupported {
                config: config_text.to_string(),
                what: "target phases without phase saving",
                instead: "the phase value order reads the target: mac+learn+phase+target",
            });
        }
        if config.faded_glue_by_activity && !config.expiring_glue {
            return Err(ConfigSyntaxError::Unsupported {
                config: config_text.to_string(),
                what: "faded glue without expiring glue",
                instead: "only glue that expires can fade: mac+learn+dynlbd+expire+fade",
            });
        }
        Ok(config)
    }
}

impl fmt::Display for SolveConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(level_name(self.search))?;
        if self.arc_consistency != ArcConsistency::default() {
            write!(f, "/{}", self.arc_consistency)?;
        }
        if self.learning() {
            f.write_str("+learn")?;
        }
        write!(f, "+{}", self.var_order.short())?;
        if self.value_order != ValueOrder::default() {
            write!(f, "+{}", self.value_order.short())?;
        }
        write!(f, "+{}", self.all_different)?;
        if self.root_arc_consistency {
            f.write_str("+rootac")?;
        }
        if self.separate_all_different {
            f.write_str("+separate")?;
        }
        if self.all_different_intersections {
            f.write_str("+intersect")?;
        }
        if self.probing.is_on() {
            write!(f, "+{}", self.probing.short())?;
            if self.cheap_probes {
                f.write_str("+cheap")?;
            }
            if self.touched_probes {
                f.write_str("+touched")?;
            }
            if self.root_probes {
                f.write_str("+atroot")?;
            }
        }
        if self.branching() == Branching::Binary && !self.learning() {
            f.write_str("+binary")?;
        }
        if self.restarts != Restarts::Never {
            write!(f, "+{}", self.restarts)?;
        }
        if self.restart_nogoods {
            f.write_str("+nld")?;
        }
        if self.learning() && self.minimize_nogoods {
            f.write_str("+minimize")?;
        }
        if self.learning() && self.nogood_tiers {
            f.write_str("+tiers")?;
        }
        if self.learning() && self.dynamic_lbd {
            f.write_str("+dynlbd")?;
            if self.lbd_protection {
                f.write_str("+protect")?;
            }
            if self.learnt_glue_only {
                f.write_str("+noglue")?;
            }
            if self.expiring_glue {
                f.write_str("+expire")?;
                if self.faded_glue_by_activity {
                    f.write_str("+fade")?;
                }
            }
            if self.glue_cap {
                f.write_str("+gluecap")?;
            }
        }
        if self.learning() && self.vivify_nogoods {
            f.write_str("+vivify")?;
        }
        if self.learning() && self.target_phases {
            f.write_str("+target")?;
        }
        let schedules = [
            ("rephase", self.rephase, SolveConfig::REPHASE_UNIT),
            ("stable", self.stable_modes, SolveConfig::STABLE_UNIT),
            ("chrono", self.chrono, SolveConfig::CHRONO_LEVELS),
        ];
        for (name, unit, default) in schedules {
            match unit {
                Some(unit) if self.learning() && unit == default => write!(f, "+{name}")?,
                Some(unit) if self.learning() => write!(f, "+{name}={unit}")?,
                _ => {}
            }
        }
        if self.seed != 0 {
            write!(f, "+seed={}", self.seed)?;
        }
        Ok(())
    }
}

impl fmt::Display for Restarts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Restarts::Never => f.write_str("never"),
            Restarts::Luby { scale: Restarts::LUBY_SCALE } => f.write_str("luby"),
            Restarts::Luby { scale } => write!(f, "luby={scale}"),
            Restarts::Geometric {
                scale: Restarts::GEOMETRIC_SCALE,
                factor_thousandths: Restarts::GEOMETRIC_FACTOR_THOUSANDTHS,
            } => f.write_str("geometric"),
            Restarts::Geometric { scale, factor_thousandths: Restarts::GEOMETRIC_FACTOR_THOUSANDTHS } => {
                write!(f, "geometric={scale}")
            }
            Restarts::Geometric { scale, factor_thousandths } => {
                // The factor in decimal, without trailing zeros (1250: 1.25).
                let fraction = format!("{:03}", factor_thousandths % 1000);
                let fraction = fraction.trim_end_matches('0');
                let point = if fraction.is_empty() { "" } else { "." };
                write!(f, "geometric={scale}:{}{point}{fraction}", factor_thousandths / 1000)
            }
            Restarts::Glucose { window: Restarts::GLUCOSE_WINDOW } => f.write_str("glucose"),
            Restarts::Glucose { window } => write!(f, "glucose={window}"),
        }
    }
}

/// `never` (or `none`), `luby` (scale [`Restarts::LUBY_SCALE`]), `luby=SCALE`,
/// `geometric` (scale [`Restarts::GEOMETRIC_SCALE`], factor 1.5),
/// `geometric=SCALE` or `geometric=SCALE:FACTOR` (a factor above 1, with at
/// most three decimals), `glucose` (window [`Restarts::GLUCOSE_WINDOW`]) or
/// `glucose=WINDOW`.
impl FromStr for Restarts {
    type Err = UnknownOption;

    fn from_str(s: &str) -> Result<Self, UnknownOption> {
        let word = s.trim().to_ascii_lowercase();
        let scale = |text: &str| text.parse().ok().filter(|&n: &u32| n >= 1);
        let policy = match word.as_str() {
            "never" | "none" => Some(Restarts::Never),
            "luby" => Some(Restarts::Luby { scale: Restarts::LUBY_SCALE }),
            "geometric" => Some(Restarts::Geometric {
                scale: Restarts::GEOMETRIC_SCALE,
                factor_thousandths: Restarts::GEOMETRIC_FACTOR_THOUSANDTHS,
            }),
            "glucose" => Some(Restarts::Glucose { window: Restarts::GLUCOSE_WINDOW }),
            _ => {
                if let Some(n) = word.strip_prefix("luby=") {
                    scale(n).map(|scale| Restarts::Luby { scale })
                } else if let Some(rest) = word.strip_prefix("geometric=") {
                    let (n, factor) = rest.split_once(':').unwrap_or((rest, "1.5"));
                    scale(n)
                        .zip(thousandths(factor).filter(|&t| t > 1000))
                        .map(|(scale, factor_thousandths)| Restarts::Geometric { scale, factor_thousandths })
                } else if let Some(n) = word.strip_prefix("glucose=") {
                    scale(n).map(|window| Restarts::Glucose { window })
                } else {
                    None
                }
            }
        };
        policy.ok_or_else(|| UnknownOption {
            what: "restart policy",
            found: s.to_string(),
            expected: "never luby luby=SCALE geometric geometric=SCALE geometric=SCALE:FACTOR glucose glucose=WINDOW",
        })
    }
}

/// A decimal number with at most three decimals, in thousandths (`1.25`:
/// 1250), up to a million.
fn thousandths(text: &str) -> Option<u32> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !all_digits(whole) || !all_digits(fraction) || fraction.len() > 3 {
        return None;
    }
    let whole: u32 = whole.parse().ok().filter(|&w| w <= 1_000_000)?;
    let fraction: u32 = format!("{fraction:0<3}").parse().ok()?;
    Some(whole * 1000 + fraction)
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
        for &p in Probing::ALL {
            assert_eq!(p.name().parse::<Probing>(), Ok(p));
            assert_eq!(p.short().parse::<Probing>(), Ok(p));
        }
    }

    /// An empty word is named as such, by the place of its `+`, not as the
    /// unknown word ''.
    #[test]
    fn empty_words_name_the_doubled_or_trailing_plus() {
        for (text, position, problem) in [
            ("mac+", 4, "ends the spelling"),
            ("mac+mrv+ ", 8, "ends the spelling"),
            ("mac++mrv", 5, "is doubled"),
            ("mac+ +mrv", 6, "is doubled"),
            ("fc+mrv++", 8, "is doubled"),
            ("+mrv", 1, "has no level before it"),
            ("mac/ac2001+lcv+é++mrv", 18, "is doubled"),
        ] {
            let err = text.parse::<SolveConfig>().unwrap_err();
            assert!(matches!(err, ConfigSyntaxError::EmptyWord { .. }), "{text}: {err}");
            let err = err.to_string();
            assert!(err.contains(&format!("the '+' at character {position} {problem}")), "{text}: {err}");
            assert!(!err.contains("unknown word"), "{text}: {err}");
        }
        assert!("mac+mrv".parse::<SolveConfig>().is_ok());
    }

    #[test]
    fn configuration_spellings_round_trip() {
        for text in [
            "fc+mrv+pairwise",
            "mac/ac2001+domwdeg+lcv+matching",
            "bt-cbj+input+pairwise",
            "bt-bj+input+pairwise",
            "bt-gbj+mrv+pairwise",
            "fc-bj+mrv+pairwise",
            "fc-cbj+mrv+random+pairwise+seed=7",
            "mac-cbj+domddeg+matching",
            "mac+mrv+pairwise",
            "mac+mrv+matching+separate",
            "mac+domwdeg+matching+luby",
            "mac+domdeg+matching+geometric=10:1.2",
            "mac+domwdeg+matching+intersect+binary",
            "mac+mrv+random+matching+luby=10+seed=3",
            "mac+learn+vsids+phase+matching+luby",
            "mac+learn+domwdeg+matching+intersect",
            "mac+learn+domddeg+pairwise+geometric",
            "mac+learn+domwdeg+matching+intersect+glucose",
            "mac+learn+vsids+phase+matching+glucose=20",
            "mac+learn+domwdeg+matching+intersect+minimize",
            "mac+learn+vsids+phase+matching+glucose+minimize+seed=2",
            "mac+learn+alternate+matching+intersect+luby",
            "mac+learn+alternate+phase+matching+glucose",
            "mac+learn+alternate+phase+matching+intersect+glucose+tiers",
            "mac+learn+domwdeg+matching+glucose+minimize+tiers+dynlbd",
            "mac+learn+lvsids+active+matching+luby+dynlbd",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+protect",
            "mac+learn+domwdeg+matching+glucose+tiers+dynlbd+protect",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+noglue",
            "mac+learn+lvsids+active+matching+luby+dynlbd+protect+noglue",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+gluecap",
            "mac+learn+domwdeg+matching+glucose+tiers+dynlbd+protect+expire+gluecap",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire+target",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire+rephase",
            "mac+learn+vsids+phase+matching+luby+rephase=7",
            "mac+learn+alternate+phase+matching+glucose+stable",
            "mac+learn+lvsids+active+matching+glucose+stable=300",
            "mac+learn+vsids+phase+matching+glucose+target+rephase=20+stable=30",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire+vivify",
            "mac+learn+domwdeg+matching+luby+minimize+vivify",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire+chrono",
            "mac+learn+vsids+phase+matching+luby+chrono=1",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire+vivify+rephase=20+chrono=3",
            "mac+learn+alternate+phase+matching+intersect+glucose+dynlbd+expire+vivify+target+rephase=20+stable=30",
            "mac+domwdeg+matching+intersect+probe",
            "mac+domwdeg+matching+intersect+sac",
            "mac+mrv+matching+sac+binary+luby",
            "mac+domwdeg+matching+intersect+probe+cheap",
            "mac+domwdeg+matching+intersect+probe+touched",
            "mac+mrv+matching+sac+cheap+touched+binary+luby",
            "mac+learn+alternate+phase+matching+intersect+probe+glucose+dynlbd+expire",
            "mac+learn+alternate+phase+matching+intersect+probe+cheap+atroot+glucose+dynlbd+expire",
            "mac+learn+domwdeg+matching+sac+atroot+luby",
            "mac+learn+alternate+phase+matching+intersect+probe+cheap+touched+glucose+dynlbd+expire",
        ] {
            let config: SolveConfig = text.parse().unwrap();
            assert_eq!(config.to_string(), text);
            assert_eq!(config.to_string().parse::<SolveConfig>().unwrap(), config);
        }
        // Every configuration's spelling reads back; one the engine does not
        // implement cannot be written (the type has no mac-bj nor fc-gbj).
        for text in ["mac-bj+mrv", "fc-gbj", "MAC-GBJ+domwdeg"] {
            let err = text.parse::<SolveConfig>().unwrap_err();
            assert!(matches!(err, ConfigSyntaxError::Unsupported { .. }), "{text}: {err}");
            assert!(err.to_string().contains("bt-bj, bt-gbj, bt-cbj, fc-bj, fc-cbj and mac-cbj"), "{err}");
        }
        let err = "mac+domwdeg+minimize".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("nogood minimisation without learning") && err.contains("mac+learn+minimize"), "{err}");
        let err = "mac+domwdeg+tiers".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("nogood tiers without learning") && err.contains("mac+learn+tiers"), "{err}");
        let err = "mac+domwdeg+vivify".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("nogood vivification without learning") && err.contains("mac+learn+vivify"), "{err}");
        let err = "mac+domwdeg+dynlbd".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("dynamic LBD without learning") && err.contains("mac+learn+dynlbd"), "{err}");
        let err = "mac+domwdeg+dynlbd+protect".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("without learning"), "{err}");
        let err = "mac+learn+domwdeg+protect".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("LBD protection without dynamic LBD") && err.contains("dynlbd+protect"), "{err}");
        let err = "mac+learn+domwdeg+noglue".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("no recounted glue without dynamic LBD") && err.contains("dynlbd+noglue"), "{err}");
        assert!("mac+domwdeg+dynlbd+noglue".parse::<SolveConfig>().is_err());
        let err = "mac+learn+domwdeg+expire".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("expiring glue without dynamic LBD") && err.contains("dynlbd+expire"), "{err}");
        let err = "mac+learn+domwdeg+tiers+gluecap".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("a glue cap without dynamic LBD") && err.contains("dynlbd+gluecap"), "{err}");
        assert!("mac+domwdeg+dynlbd+expire".parse::<SolveConfig>().is_err());
        let err = "mac+learn+dynlbd+expire+expire".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("expiring glue"), "{err}");
        let config: SolveConfig = "mac+learn+phase+rephase+stable=5".parse().unwrap();
        assert_eq!((config.rephase, config.stable_modes), (Some(SolveConfig::REPHASE_UNIT), Some(5)));
        let twice = |text: &str| text.parse::<SolveConfig>().unwrap_err().to_string();
        assert!(twice("mac+learn+rephase+rephase=3").contains("rephasing twice"));
        assert!(twice("mac+learn+stable+stable").contains("stable modes twice"));
        assert!(twice("mac+learn+chrono+chrono=2").contains("chronological replay twice"));
        let chrono = |text: &str| text.parse::<SolveConfig>().unwrap().chrono;
        assert_eq!((chrono("mac+learn+chrono"), chrono("mac+learn+chrono=7")), (Some(100), Some(7)));
        for text in ["fc+learn", "bt-cbj+learn", "bt+mrv+learn", "fc-bj+learn"] {
            let err = text.parse::<SolveConfig>().unwrap_err().to_string();
            assert!(err.contains("learning without maintained arc consistency") && err.contains("mac+learn"), "{err}");
        }
        for text in ["mac-cbj+learn", "mac-cbj+mrv+learn"] {
            let err = text.parse::<SolveConfig>().unwrap_err().to_string();
            assert!(err.contains("learning with backjumping") && err.contains("mac+learn"), "{err}");
        }
        // Learning branches binary: `binary` beside `learn` says nothing more,
        // and is refused in words whatever the order of the words.
        for (text, word) in
            [("mac+learn+binary", "binary"), ("mac+2way+learn", "2way"), ("mac+binary+mrv+learn", "binary")]
        {
            let err = text.parse::<SolveConfig>().unwrap_err();
            assert!(matches!(err, ConfigSyntaxError::Implied { .. }), "{text}: {err}");
            let err = err.to_string();
            assert!(err.contains(&format!("'{word}' is implied by 'learn'")), "{text}: {err}");
            assert!(err.contains("learning always branches binary") && err.contains("leave it out"), "{text}: {err}");
        }
        assert!("mac+learn".parse::<SolveConfig>().unwrap().branching() == Branching::Binary);
        // Cheap probes and touched sweeps only with probing, in any order;
        // target phases, rephasing and modes only with learning, the target
        // with phase saving.
        for (text, what) in [
            ("mac+domwdeg+cheap", "cheap probes without probing"),
            ("mac+touched+mrv", "touched probes without probing"),
            ("mac+learn+atroot", "root probes without probing"),
            ("mac+probe+atroot", "root probes without learning"),
            ("mac+phase+target", "target phases without learning"),
            ("mac+phase+rephase", "rephasing without learning"),
            ("mac+luby+stable=10", "stable modes without learning"),
            ("mac+domwdeg+chrono", "chronological replay without learning"),
            ("mac+learn+target", "target phases without phase saving"),
            ("mac+learn+active+target", "target phases without phase saving"),
        ] {
            let err = text.parse::<SolveConfig>().unwrap_err();
            assert!(matches!(err, ConfigSyntaxError::Unsupported { .. }), "{text}: {err}");
            assert!(err.to_string().contains(what), "{err}");
        }
        let reordered: SolveConfig = "mac+touched+cheap+probe".parse().unwrap();
        assert_eq!(reordered.to_string(), "mac+mrv+matching+probe+cheap+touched");
        assert!("mac+probe+cheap+cheap".parse::<SolveConfig>().unwrap_err().to_string().contains("cheap probes"));
        // Probing only where a probed removal needs no reason, or where a
        // failed probe is a conflict that learning analyses.
        for text in ["mac+learn+sac", "mac+probe+learn"] {
            assert!(text.parse::<SolveConfig>().unwrap().probing.is_on(), "{text}");
        }
        for (text, what) in [
            ("mac-cbj+probe", "probing with backjumping"),
            ("fc+sac", "probing without maintained arc consistency"),
            ("bt+probe", "probing without maintained arc consistency"),
        ] {
            let err = text.parse::<SolveConfig>().unwrap_err();
            assert!(matches!(err, ConfigSyntaxError::Unsupported { .. }), "{text}: {err}");
            assert!(err.to_string().contains(what) && err.to_string().contains("mac+sac"), "{text}: {err}");
        }
        assert!("mac+probe+sac".parse::<SolveConfig>().unwrap_err().to_string().contains("probing twice"));
        for text in ["bt-cbj+input+binary", "fc-cbj+mrv+2way", "mac-cbj+binary", "bt-gbj+binary"] {
            let err = text.parse::<SolveConfig>().unwrap_err().to_string();
            assert!(err.contains("binary branching with backjumping"), "{text}: {err}");
        }
        for (alias, canonical) in [("bj", "bt-bj"), ("gbj", "bt-gbj"), ("cbj", "bt-cbj"), ("maccbj", "mac-cbj")] {
            let config: SolveConfig = alias.parse().unwrap();
            assert!(config.to_string().starts_with(&format!("{canonical}+")), "{alias}: {config}");
        }
        let config: SolveConfig = "FC+rootac".parse().unwrap();
        assert!(config.root_arc_consistency);
        assert_eq!(config.to_string(), "fc+mrv+pairwise+rootac");
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
        for &backjumping in Backjumping::ALL {
            let config = SolveConfig::default().with_search(Search::Backjumping(backjumping));
            assert_eq!(config.to_string().parse::<SolveConfig>().unwrap(), config);
        }
    }

    #[test]
    fn the_all_different_strength_defaults_by_level_and_is_always_written() {
        for (text, strength) in [
            ("bt", AllDifferentStrength::Pairwise),
            ("fc", AllDifferentStrength::Pairwise),
            ("fc-cbj", AllDifferentStrength::Pairwise),
            ("mac", AllDifferentStrength::Matching),
            ("mac-cbj", AllDifferentStrength::Matching),
            ("fc+matching", AllDifferentStrength::Matching),
            ("mac+pairwise", AllDifferentStrength::Pairwise),
            ("mac+bounds", AllDifferentStrength::Bounds),
        ] {
            let config: SolveConfig = text.parse().unwrap();
            assert_eq!(config.all_different, strength, "{text}");
            assert!(config.to_string().contains(&format!("+{}", strength.short())), "{config}");
        }
        assert_eq!(SolveConfig::default().to_string(), "mac+mrv+matching");
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
        assert!("mac+luby+geometric".parse::<SolveConfig>().unwrap_err().to_string().contains("restarts twice"));
        assert!("mac+geometric=5:0.9".parse::<SolveConfig>().is_err());
        let err = "mac+domwdeg+glucose".parse::<SolveConfig>().unwrap_err().to_string();
        assert!(err.contains("Glucose's restarts without learning"), "{err}");
        assert!("mac+learn+glucose+luby".parse::<SolveConfig>().unwrap_err().to_string().contains("restarts twice"));
        assert!("mac+ac2001".parse::<SolveConfig>().unwrap_err().to_string().contains("unknown word 'ac2001'"));
    }

    #[test]
    fn a_known_word_with_a_bad_value_says_what_it_takes() {
        for (text, word, takes) in [
            ("mac+luby=0", "luby=0", "luby=SCALE: the scale is a whole number, 1 or more"),
            ("mac+luby=1e3", "luby=1e3", "luby=SCALE: the scale"),
            ("mac+geometric=10:0.5", "geometric=10:0.5", "the factor a number above 1"),
            ("mac+learn+glucose=0", "glucose=0", "glucose=WINDOW: the window is a whole number, 1 or more"),
            ("mac+random+seed=-1", "seed=-1", "seed=N: a whole number from 0 to 2^64 - 1"),
            ("mac+learn+rephase=0", "rephase=0", "rephase=UNIT: the unit is a whole number of conflicts, 1 or more"),
            ("mac+learn+stable=x", "stable=x", "stable=UNIT: the unit is a whole number of conflicts"),
            ("mac+learn+stable=", "stable=", "stable=UNIT"),
            ("mac+learn+chrono=0", "chrono=0", "chrono=LEVELS: the threshold is a whole number of levels, 1 or more"),
        ] {
            let err = text.parse::<SolveConfig>().unwrap_err().to_string();
            assert!(err.starts_with(&format!("configuration '{text}': '{word}' is not a value of ")), "{err}");
            assert!(err.contains(takes) && !err.contains("unknown word"), "{err}");
        }
        // Spaces around the level are read as around the words.
        assert_eq!(" mac + mrv ".parse::<SolveConfig>().unwrap().to_string(), "mac+mrv+matching");
        assert_eq!("mac / ac2001 + mrv".parse::<SolveConfig>().unwrap().to_string(), "mac/ac2001+mrv+matching");
    }

    #[test]
    fn unknown_names_say_what_is_expected() {
        let err = "fastest".parse::<VarOrder>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown variable ordering 'fastest' (expected one of: input, mrv, mrv-degree, dom-deg, dom-ddeg, dom-wdeg, \
             vsids, literal-vsids, alternate, rotate, anti-first-fail, smallest, largest, occurrence, max-regret, max-sd, max-rel-sd, \
             places, weighted-places, alternate-places, chb, alternate-chb, chb-literal, lrb, alternate-lrb)"
        );
    }
}
