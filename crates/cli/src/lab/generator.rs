//! Which random instances the lab draws: a generator family of
//! [`csp::random`] and its parameters, spelled `FAMILY[:NAME=VALUE,...]`.
//!
//! ```text
//! b:n=20,d=10,p1=0.5,p2=0.38        model B (Smith 1994; Prosser 1996)
//! b-flawless:n=20,d=10,p1=0.5       flawless model B (Gent et al. 2001)
//! rb:n=20,alpha=0.8,r=2,p=0.3       model RB (Xu & Li 2000)
//! qwh:n=10,holes=0.42               quasigroup with holes (Achlioptas et al. 2000)
//! qwh-balanced:n=10,holes=0.42      the same, balanced holes (Kautz et al. 2001)
//! qcp:n=10,preassigned=0.42         quasigroup completion (Gomes & Selman 1997)
//! colouring:n=50,k=3,degree=4.6     k-colouring of G(n, m) (Cheeseman et al. 1991)
//! ```
//!
//! Every parameter has a default (`lab --help` lists them), so `rb` alone is
//! a generator. One parameter of each family is the one a sweep varies by
//! default (model B's `p2`, RB's `p`, QWH's `holes`, QCP's `preassigned`,
//! colouring's `degree`);
//! `--sweep NAME=RANGE` varies another.

use std::fmt;

use crate::app::short_float;
use csp::Model;
use csp::random::{ModelRb, QuasigroupCompletion, QuasigroupWithHoles, RandomColouring, RandomCsp, RandomCspError};

/// The largest instance the lab builds, in bytes of forbidden-pair bitsets:
/// beyond this a model would not fit comfortably in memory.
pub const MAX_INSTANCE_BYTES: usize = 1 << 30;

/// The largest domain of a binary random instance (the generators list all `d^2` value pairs).
pub const MAX_VALUES: usize = 1_000;

/// A generator family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Model B.
    B,
    /// Flawless model B.
    FlawlessB,
    /// Model RB.
    Rb,
    /// Quasigroup with holes.
    Qwh,
    /// Quasigroup with balanced holes.
    BalancedQwh,
    /// Quasigroup completion.
    Qcp,
    /// Random graph colouring.
    Colouring,
}

/// How a parameter's values are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A whole number of at least `min`, at most `max`.
    Count { min: u32, max: u32 },
    /// A number between 0 and 1.
    Fraction,
    /// A positive number.
    Positive,
    /// A number of at least 0.
    NonNegative,
}

/// One parameter of a family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parameter {
    /// Its name in a spelling (`p2`, `alpha`).
    pub name: &'static str,
    /// What it means, for the help.
    pub meaning: &'static str,
    /// Its value when not given.
    pub default: f64,
    kind: Kind,
}

const fn count(name: &'static str, meaning: &'static str, default: f64, min: u32, max: u32) -> Parameter {
    Parameter { name, meaning, default, kind: Kind::Count { min, max } }
}

const fn number(name: &'static str, meaning: &'static str, default: f64, kind: Kind) -> Parameter {
    Parameter { name, meaning, default, kind }
}

const MODEL_B: [Parameter; 4] = [
    count("n", "variables", 20.0, 2, 2000),
    count("d", "values per domain", 10.0, 1, 1000),
    number("p1", "density: the fraction of variable pairs constrained", 0.5, Kind::Fraction),
    number("p2", "tightness: the fraction of value pairs each constraint forbids", 0.38, Kind::Fraction),
];

const MODEL_RB: [Parameter; 4] = [
    count("n", "variables", 20.0, 2, 2000),
    number("alpha", "the domain size is round(n^alpha)", 0.8, Kind::Positive),
    number("r", "there are round(r n ln n) constraints", 2.0, Kind::Positive),
    number("p", "tightness: the fraction of value pairs each constraint forbids", 0.33, Kind::Fraction),
];

const QWH: [Parameter; 2] = [
    count("n", "the order of the square", 10.0, 1, 200),
    number("holes", "the fraction of the cells emptied", 0.42, Kind::Fraction),
];

const QCP: [Parameter; 2] = [
    count("n", "the order of the square", 10.0, 1, 200),
    number("preassigned", "the fraction of the cells preassigned", 0.42, Kind::Fraction),
];

const COLOURING: [Parameter; 3] = [
    count("n", "vertices", 50.0, 1, 2000),
    count("k", "colours", 3.0, 1, 1000),
    number("degree", "the average degree: round(degree n / 2) edges", 4.6, Kind::NonNegative),
];

impl Family {
    /// Every family, in the order of the help.
    pub const ALL: [Family; 7] =
        [Family::B, Family::FlawlessB, Family::Rb, Family::Qwh, Family::BalancedQwh, Family::Qcp, Family::Colouring];

    /// Its name in a spelling.
    pub fn name(self) -> &'static str {
        match self {
            Family::B => "b",
            Family::FlawlessB => "b-flawless",
            Family::Rb => "rb",
            Family::Qwh => "qwh",
            Family::BalancedQwh => "qwh-balanced",
            Family::Qcp => "qcp",
            Family::Colouring => "colouring",
        }
    }

    /// What it is, with its citation.
    pub fn title(self) -> &'static str {
        match self {
            Family::B => "model B",
            Family::FlawlessB => "flawless model B",
            Family::Rb => "model RB",
            Family::Qwh => "quasigroup with holes",
            Family::BalancedQwh => "quasigroup with balanced holes",
            Family::Qcp => "quasigroup completion",
            Family::Colouring => "random graph colouring",
        }
    }

    /// Its parameters, in order.
    pub fn parameters(self) -> &'static [Parameter] {
        match self {
            Family::B | Family::FlawlessB => &MODEL_B,
            Family::Rb => &MODEL_RB,
            Family::Qwh | Family::BalancedQwh => &QWH,
            Family::Qcp => &QCP,
            Family::Colouring => &COLOURING,
        }
    }

    /// The parameter a sweep varies by default, and its default values.
    pub fn swept(self) -> (&'static str, &'static str) {
        match self {
            Family::B => ("p2", "0.05..0.95:0.05"),
            Family::FlawlessB => ("p2", "0.05..0.9:0.05"),
            Family::Rb => ("p", "0.05..0.6:0.05"),
            Family::Qwh | Family::BalancedQwh => ("holes", "0.1..0.9:0.05"),
            Family::Qcp => ("preassigned", "0.1..0.9:0.05"),
            Family::Colouring => ("degree", "1..8:0.5"),
        }
    }

    /// Whether its instances are binary constraints given by forbidden
    /// pairs, which may be flawed ([`csp::random::flaws`]).
    pub fn may_be_flawed(self) -> bool {
        matches!(self, Family::B | Family::FlawlessB | Family::Rb)
    }

    fn parse(text: &str) -> Result<Family, String> {
        let text = text.trim().to_ascii_lowercase();
        let found = match text.as_str() {
            "coloring" => Some(Family::Colouring),
            "flawless" | "b-flawless" => Some(Family::FlawlessB),
            "balanced-qwh" | "qwh-balanced" => Some(Family::BalancedQwh),
            _ => Family::ALL.into_iter().find(|family| family.name() == text),
        };
        found.ok_or_else(|| {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            format!("unknown generator '{text}' (expected {})", names.join(", "))
        })
    }
}

/// A family with a value for each of its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Generator {
    /// The family.
    pub family: Family,
    /// One value per parameter, in the family's order.
    values: Vec<f64>,
}

impl Generator {
    /// The family with its default parameters.
    pub fn new(family: Family) -> Generator {
        Generator { family, values: family.parameters().iter().map(|p| p.default).collect() }
    }

    fn index(&self, name: &str) -> Result<usize, String> {
        let parameters = self.family.parameters();
        parameters.iter().position(|p| p.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<&str> = parameters.iter().map(|p| p.name).collect();
            format!("{} has no parameter '{}' (it has {})", self.family.name(), name.trim(), names.join(", "))
        })
    }

    /// The value of parameter `name`, which the family must have.
    pub fn get(&self, name: &str) -> f64 {
        self.index(name).map_or(f64::NAN, |i| self.values[i])
    }

    /// This generator with parameter `name` set to `value`, checked.
    pub fn with(&self, name: &str, value: f64) -> Result<Generator, String> {
        let i = self.index(name)?;
        let parameter = self.family.parameters()[i];
        let valid = match parameter.kind {
            Kind::Count { min, max } => value.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(&value),
            Kind::Fraction => (0.0..=1.0).contains(&value),
            Kind::Positive => value.is_finite() && value > 0.0,
            Kind::NonNegative => value.is_finite() && value >= 0.0,
        };
        if !valid {
            let expected = match parameter.kind {
                Kind::Count { min, max } => format!("a whole number from {min} to {max}"),
                Kind::Fraction => "between 0 and 1".to_string(),
                Kind::Positive => "a positive number".to_string(),
                Kind::NonNegative => "a number of at least 0".to_string(),
            };
            return Err(format!(
                "{} of {} must be {expected}, not {}",
                parameter.name,
                self.family.name(),
                short_float(value)
            ));
        }
        let mut generator = self.clone();
        generator.values[i] = value;
        Ok(generator)
    }

    /// Whether parameter `name` is a fraction (between 0 and 1).
    pub fn is_fraction(&self, name: &str) -> bool {
        self.index(name).is_ok_and(|i| self.family.parameters()[i].kind == Kind::Fraction)
    }

    /// The canonical name of parameter `name` (as the family spells it).
    pub fn parameter_name(&self, name: &str) -> Result<&'static str, String> {
        self.index(name).map(|i| self.family.parameters()[i].name)
    }

    fn count(&self, name: &str) -> usize {
        self.get(name) as usize
    }

    /// Draws the instance of seed `seed`.
    pub fn generate(&self, seed: u64) -> Result<Model, RandomCspError> {
        match self.family {
            Family::B => self.model_b(seed).generate(),
            Family::FlawlessB => self.model_b(seed).generate_flawless(),
            Family::Rb => self.model_rb(seed).generate(),
            Family::Qwh => self.quasigroup_with_holes(seed).generate(),
            Family::BalancedQwh => self.quasigroup_with_holes(seed).generate_balanced(),
            Family::Qcp => {
                QuasigroupCompletion { order: self.count("n"), preassigned: self.get("preassigned"), seed }.generate()
            }
            Family::Colouring => RandomColouring {
                vertices: self.count("n"),
                colours: self.count("k"),
                degree: self.get("degree"),
                seed,
            }
            .generate(),
        }
    }

    fn model_b(&self, seed: u64) -> RandomCsp {
        RandomCsp {
            variables: self.count("n"),
            values: self.count("d"),
            density: self.get("p1"),
            tightness: self.get("p2"),
            seed,
        }
    }

    fn quasigroup_with_holes(&self, seed: u64) -> QuasigroupWithHoles {
        QuasigroupWithHoles { order: self.count("n"), holes: self.get("holes"), seed }
    }

    fn model_rb(&self, seed: u64) -> ModelRb {
        ModelRb {
            variables: self.count("n"),
            alpha: self.get("alpha"),
            ratio: self.get("r"),
            tightness: self.get("p"),
            seed,
        }
    }

    /// The predicted critical value of parameter `name`, with words for
    /// its legend, where the family has one: model B's expected number of
    /// solutions equal to 1 (Smith 1994; flawless model B has the same
    /// expectation), model RB's exact threshold (Xu & Li 2000) or formula
    /// (where their theorems do not apply), colouring's first-moment estimate.
    pub fn critical(&self, name: &str) -> Option<(f64, &'static str)> {
        match (self.family, name) {
            (Family::B | Family::FlawlessB, "p2") => Some((self.model_b(0).critical_tightness(), "predicted")),
            (Family::Rb, "p") => {
                let rb = self.model_rb(0);
                Some((
                    rb.critical_tightness(),
                    if rb.exact_in_tightness() { "exact threshold" } else { "threshold formula" },
                ))
            }
            (Family::Rb, "r") => {
                let rb = self.model_rb(0);
                Some((rb.critical_ratio(), if rb.exact_in_ratio() { "exact threshold" } else { "threshold formula" }))
            }
            (Family::Colouring, "degree") => {
                let colouring = RandomColouring { vertices: 1, colours: self.count("k"), degree: 0.0, seed: 0 };
                Some((colouring.first_moment_degree(), "first-moment estimate"))
            }
            _ => None,
        }
    }

    /// The spelling, without parameter `except` (the swept one), e.g.
    /// `b:n=20,d=10,p1=0.5`.
    pub fn spelling_without(&self, except: Option<&str>) -> String {
        let parameters = self.family.parameters().iter().zip(&self.values);
        let words: Vec<String> = parameters
            .filter(|(p, _)| Some(p.name) != except)
            .map(|(p, v)| format!("{}={}", p.name, short_float(*v)))
            .collect();
        format!("{}:{}", self.family.name(), words.join(","))
    }

    /// A description for titles, without parameter `except`: `model B <n=20, d=10, p1=0.5>`.
    pub fn description(&self, except: Option<&str>) -> String {
        let parameters = self.family.parameters().iter().zip(&self.values);
        let words: Vec<String> = parameters
            .filter(|(p, _)| Some(p.name) != except)
            .map(|(p, v)| format!("{}={}", p.name, short_float(*v)))
            .collect();
        format!("{} <{}>", self.family.title(), words.join(", "))
    }

    /// Fails when the instances would be too large to build comfortably
    /// (more than [`MAX_INSTANCE_BYTES`] of forbidden-pair bitsets, more than
    /// [`MAX_VALUES`] values) or cannot exist (flawless model B above
    /// `1 - 1/d`, a graph with more edges than pairs).
    pub fn check(&self) -> Result<(), String> {
        let bitsets =
            |constraints: usize, values: usize| constraints.saturating_mul((values * values).div_ceil(8) + 64);
        match self.family {
            Family::B | Family::FlawlessB => {
                let b = self.model_b(0);
                if bitsets(b.constraint_count(), b.values) > MAX_INSTANCE_BYTES {
                    return Err(format!("{} is too large for the lab", self.description(None)));
                }
                if self.family == Family::FlawlessB && b.forbidden_count() > b.values * b.values - b.values {
                    return Err(format!(
                        "flawless model B keeps d of the d^2 value pairs allowed: p2 = {} is above {:.4}",
                        short_float(b.tightness),
                        b.flawless_limit()
                    ));
                }
            }
            Family::Rb => {
                let rb = self.model_rb(0);
                if rb.values() > MAX_VALUES || bitsets(rb.constraint_count(), rb.values()) > MAX_INSTANCE_BYTES {
                    // `n^alpha` and the like saturate to `usize::MAX` when they overflow.
                    let count = |x: usize| if x == usize::MAX { "beyond 2^64".to_string() } else { x.to_string() };
                    return Err(format!(
                        "{} is too large for the lab (d = {}, {} constraints)",
                        self.description(None),
                        count(rb.values()),
                        count(rb.constraint_count())
                    ));
                }
            }
            Family::Qwh | Family::BalancedQwh | Family::Qcp => {}
            Family::Colouring => {
                let n = self.get("n");
                // Named as the other parameters' errors name theirs
                // (`p1 of b must be ...`): the degree is the parameter at
                // fault, n the one that bounds it.
                if self.get("degree") > n - 1.0 {
                    return Err(format!(
                        "degree of colouring must be at most n - 1 = {} (n = {} vertices), not {}",
                        short_float(n - 1.0),
                        short_float(n),
                        short_float(self.get("degree"))
                    ));
                }
            }
        }
        Ok(())
    }

    /// The help text listing every family and its parameters.
    pub fn help() -> String {
        let mut text = String::from(
            "Generators (--model FAMILY[:NAME=VALUE,...]; the first parameter named is swept by default):\n",
        );
        for family in Family::ALL {
            let (swept, range) = family.swept();
            let parameters: Vec<String> =
                family.parameters().iter().map(|p| format!("{}={} ({})", p.name, p.default, p.meaning)).collect();
            text.push_str(&format!(
                "  {}: {}; sweeps {swept} over {range} by default\n      {}\n",
                family.name(),
                family.title(),
                parameters.join("\n      ")
            ));
        }
        text
    }
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelling_without(None))
    }
}

impl std::str::FromStr for Generator {
    type Err = String;

    /// Parses `FAMILY[:NAME=VALUE,...]`.
    fn from_str(text: &str) -> Result<Generator, String> {
        let (family, parameters) = text.split_once(':').unwrap_or((text, ""));
        let mut generator = Generator::new(Family::parse(family)?);
        // A parameter named twice is refused: one of the values would be
        // silently lost.
        let mut named: Vec<&'static str> = Vec::new();
        for word in parameters.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            let (name, value) =
                word.split_once('=').ok_or_else(|| format!("'{word}' is not NAME=VALUE in generator '{text}'"))?;
            if value.contains("..") {
                return Err(format!(
                    "'{word}': a range goes in --sweep {}={}, not in --model",
                    name.trim(),
                    value.trim()
                ));
            }
            let value: f64 =
                value.trim().parse().map_err(|_| format!("'{}' is not a number in '{word}'", value.trim()))?;
            let canonical = generator.parameter_name(name)?;
            if named.contains(&canonical) {
                return Err(format!("parameter '{canonical}' is given twice in generator '{text}'"));
            }
            named.push(canonical);
            generator = generator.with(name, value)?;
        }
        Ok(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_parse_with_defaults_and_round_trip() {
        let b: Generator = "b".parse().unwrap();
        assert_eq!(b.to_string(), "b:n=20,d=10,p1=0.5,p2=0.38");
        let rb: Generator = "RB: n=30, alpha=0.7".parse().unwrap();
        assert_eq!((rb.get("n"), rb.get("alpha"), rb.get("r")), (30.0, 0.7, 2.0));
        assert_eq!(rb.to_string().parse::<Generator>().unwrap(), rb);
        assert_eq!("coloring:k=4".parse::<Generator>().unwrap().family, Family::Colouring);
        assert_eq!("flawless".parse::<Generator>().unwrap().family, Family::FlawlessB);
        assert_eq!(b.description(Some("p2")), "model B <n=20, d=10, p1=0.5>");
        assert_eq!(b.spelling_without(Some("p2")), "b:n=20,d=10,p1=0.5");
    }

    #[test]
    fn bad_spellings_say_what_is_wrong() {
        let cases = [
            ("model-c", "unknown generator 'model-c' (expected b, b-flawless, rb, qwh, qwh-balanced, qcp, colouring)"),
            ("b:q=3", "b has no parameter 'q' (it has n, d, p1, p2)"),
            ("b:n=2.5", "n of b must be a whole number from 2 to 2000, not 2.5"),
            ("b:p2=1.5", "p2 of b must be between 0 and 1, not 1.5"),
            ("rb:alpha=0", "alpha of rb must be a positive number, not 0"),
            ("qwh:n=500", "n of qwh must be a whole number from 1 to 200, not 500"),
            ("b:p2", "'p2' is not NAME=VALUE"),
            ("b:p2=x", "'x' is not a number"),
            ("b:p2=0.1..0.5:0.1", "a range goes in --sweep p2=0.1..0.5:0.1"),
            ("b:n=20,p2=0.3,n=30", "parameter 'n' is given twice in generator 'b:n=20,p2=0.3,n=30'"),
            ("rb:Alpha=0.7,alpha=0.8", "parameter 'alpha' is given twice"),
            ("b:n=1e300", "n of b must be a whole number from 2 to 2000, not 1e300"),
        ];
        for (text, message) in cases {
            let err = text.parse::<Generator>().unwrap_err();
            assert!(err.contains(message), "{text}: {err}");
        }
    }

    #[test]
    fn huge_values_are_echoed_short() {
        // `{}` writes 1e308 with its 309 digits; the messages and the
        // spelling write it as typed, and the spelling still reads back.
        let rb: Generator = "rb:alpha=1e308".parse().unwrap();
        assert_eq!(rb.to_string(), "rb:n=20,alpha=1e308,r=2,p=0.33");
        assert_eq!(rb.to_string().parse::<Generator>().unwrap(), rb);
        let err = rb.check().unwrap_err();
        assert!(err.starts_with("model RB <n=20, alpha=1e308, r=2, p=0.33> is too large for the lab"), "{err}");
        assert!(err.contains("d = beyond 2^64"), "{err}");
        assert!(err.len() < 120, "{} bytes: {err}", err.len());
        let colouring: Generator = "colouring:n=10,degree=1e300".parse().unwrap();
        assert_eq!(
            colouring.check().unwrap_err(),
            "degree of colouring must be at most n - 1 = 9 (n = 10 vertices), not 1e300"
        );
    }

    #[test]
    fn each_family_draws_its_instances() {
        let sizes = [
            ("b:n=12,d=5", 12, 33),
            ("b-flawless:n=12,d=5,p2=0.5", 12, 33),
            ("rb:n=10,alpha=1,r=1", 10, 23),
            ("qwh:n=5", 25, 10),
            ("qwh-balanced:n=5", 25, 10),
            ("qcp:n=6,preassigned=0.5", 36, 12),
            ("colouring:n=20,degree=3", 20, 30),
        ];
        for (text, vars, constraints) in sizes {
            let generator: Generator = text.parse().unwrap();
            let model = generator.generate(3).unwrap();
            assert_eq!((model.num_vars(), model.num_constraints()), (vars, constraints), "{text}");
            assert_eq!(generator.generate(3).unwrap().num_constraints(), constraints);
        }
        assert!("b-flawless:d=4,p2=0.9".parse::<Generator>().unwrap().generate(1).is_err());
    }

    #[test]
    fn critical_values_follow_each_familys_formula() {
        let b: Generator = "b".parse().unwrap();
        let (p2, _) = b.critical("p2").unwrap();
        assert!((p2 - 0.3844).abs() < 1e-3);
        let rb: Generator = "rb:alpha=0.8,r=2".parse().unwrap();
        assert_eq!(rb.critical("p"), Some((1.0 - (-0.4f64).exp(), "exact threshold")));
        let (degree, words) = "colouring".parse::<Generator>().unwrap().critical("degree").unwrap();
        assert!((degree - 5.419).abs() < 1e-3 && words == "first-moment estimate");
        assert_eq!("qwh".parse::<Generator>().unwrap().critical("holes"), None);
        assert_eq!("qcp".parse::<Generator>().unwrap().critical("preassigned"), None);
        assert!(b.critical("n").is_none());
    }
}
