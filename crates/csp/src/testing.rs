//! Testing a constraint's propagator against its own definition.
//!
//! The harness follows Gecode's: for many random sub-domains of small
//! domains, it compares what the propagator leaves (run to its fixpoint at the
//! root) with brute force over [`Constraint::is_satisfied`]:
//!
//! - *soundness*: a value that belongs to some satisfying tuple is never removed,
//!   and propagation never fails while a satisfying tuple exists;
//! - *completeness*, for propagators that claim domain consistency: every value
//!   without a satisfying tuple is removed, and propagation fails when there is
//!   no satisfying tuple at all; for those that claim bounds consistency: each
//!   variable's smallest and largest value left belong to a satisfying tuple
//!   of values between the other variables' bounds (holes included, the
//!   relaxation bounds consistency reasons on);
//! - *checking*: on fixed domains, propagation fails exactly when the
//!   constraint is violated.
//!
//! ```
//! use csp::testing::{Harness, Strength};
//! use csp::{Model, Relation};
//!
//! // x + 2y = 5 over small domains, with bounds propagation (not complete).
//! let report = Harness::new(3, -2..=4).cases(200).seed(7).check(Strength::Sound, |model, vars| {
//!     model.linear(&[(1, vars[0]), (2, vars[1]), (-1, vars[2])], Relation::Eq, 5).map(drop)
//! });
//! assert!(report.is_ok(), "{report:?}");
//! ```

use std::fmt;

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::domain::Domain;
use crate::ids::VarId;
use crate::kernel::{Context, PropagationResult};
use crate::model::{Model, ModelError};
use crate::rng::Rng;
use crate::search::SolveConfig;
use crate::search::Solver;

/// What a propagator promises about the values it leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// Only soundness (and detecting violations of fixed domains).
    Sound,
    /// Domain (generalized arc) consistency: exactly the supported values remain.
    DomainConsistent,
    /// Bounds consistency (bounds(Z)): every variable's bounds have a support
    /// in which each other variable takes a value between its own bounds.
    BoundsConsistent,
}

/// A case where the propagator broke its promise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The domains the propagator started from, one per scope variable.
    pub domains: Vec<Vec<i64>>,
    /// What went wrong.
    pub problem: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "from domains {:?}: {}", self.domains, self.problem)
    }
}

/// `cases` times the positive integer in the environment variable
/// `CSP_TEST_SCALE` (1 when it is unset): the number of cases the [`Harness`]
/// and the workspace's property tests run, so that a longer audit needs no
/// edit (`CSP_TEST_SCALE=20 cargo test --release -p csp --test properties`).
/// A value that is not a positive integer is reported on stderr and ignored.
pub fn scaled(cases: usize) -> usize {
    from_env("CSP_TEST_SCALE", "a positive integer", |&scale: &usize| scale > 0)
        .map_or(cases, |scale| cases.saturating_mul(scale))
}

/// Calls `visit` with every assignment of `domains` (position `k` taking
/// each value of `domains[k]`), the last position turning fastest: the
/// brute-force enumeration the tests compare solvers with. One call with no
/// values when there are no domains; none when a domain is empty.
pub fn for_each_assignment(domains: &[Vec<i64>], mut visit: impl FnMut(&[i64])) {
    if domains.iter().any(Vec::is_empty) {
        return;
    }
    let mut odometer = vec![0usize; domains.len()];
    let mut values: Vec<i64> = domains.iter().map(|d| d[0]).collect();
    loop {
        visit(&values);
        let mut k = domains.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            odometer[k] += 1;
            if odometer[k] < domains[k].len() {
                values[k] = domains[k][odometer[k]];
                break;
            }
            odometer[k] = 0;
            values[k] = domains[k][0];
        }
    }
}

/// The seed of a seeded test (the readers' mutation tests): the integer in
/// the environment variable `CSP_TEST_SEED`, else `default`, so that an audit
/// draws new cases without an edit (`CSP_TEST_SEED=7 CSP_TEST_SCALE=40 cargo
/// test --release -p csp-flatzinc --test flatzinc seeded_mutations`). A value
/// that is not an integer is reported on stderr and ignored.
pub fn seed(default: u64) -> u64 {
    from_env("CSP_TEST_SEED", "an integer", |_: &u64| true).unwrap_or(default)
}

/// The value of the environment variable `name`, when it is set and reads
/// as a `T` that is `valid`; a value that is not (not `what`) is reported
/// on stderr and ignored.
fn from_env<T: std::str::FromStr>(name: &str, what: &str, valid: impl Fn(&T) -> bool) -> Option<T> {
    let text = std::env::var(name).ok()?;
    let value = parse_valid(&text, valid);
    if value.is_none() {
        eprintln!("{name}={text:?} is not {what}: ignored");
    }
    value
}

fn parse_valid<T: std::str::FromStr>(text: &str, valid: impl Fn(&T) -> bool) -> Option<T> {
    text.trim().parse().ok().filter(valid)
}

/// Random soundness testing for one constraint. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Harness {
    arity: usize,
    /// The values each position's random domains are drawn from.
    values: Vec<Vec<i64>>,
    cases: usize,
    seed: u64,
    config: SolveConfig,
}

impl Harness {
    /// Tests constraints over `arity` variables whose domains are random subsets of `values`.
    pub fn new(arity: usize, values: impl Into<Domain>) -> Harness {
        let values: Vec<i64> = values.into().iter().collect();
        Harness::with_domains(vec![values; arity])
    }

    /// Tests constraints over one variable per entry of `domains`, whose
    /// domains are random subsets of that entry: a boolean next to integers
    /// near `±2^62`, say (`[Domain::range(0, 1), Domain::values([...])]`).
    pub fn with_domains<D: Into<Domain>>(domains: impl IntoIterator<Item = D>) -> Harness {
        let values: Vec<Vec<i64>> = domains.into_iter().map(|d| d.into().iter().collect()).collect();
        Harness { arity: values.len(), values, cases: 500, seed: 1, config: SolveConfig::default() }
    }

    /// The number of random cases (500 by default), times `CSP_TEST_SCALE`
    /// (see [`scaled`]).
    pub fn cases(mut self, cases: usize) -> Harness {
        self.cases = cases;
        self
    }

    /// The seed of the random sub-domains.
    pub fn seed(mut self, seed: u64) -> Harness {
        self.seed = seed;
        self
    }

    /// The configuration the propagators are built with (its all-different strength, say).
    pub fn config(mut self, config: SolveConfig) -> Harness {
        self.config = config;
        self
    }

    /// Runs the cases. `post` posts the constraint under test on the given
    /// variables (one per scope position). Returns every broken promise (at most
    /// ten), or `Ok` with the number of cases run.
    pub fn check<F>(&self, strength: Strength, post: F) -> Result<usize, Vec<Failure>>
    where
        F: Fn(&mut Model, &[VarId]) -> Result<(), ModelError>,
    {
        let mut rng = Rng::new(self.seed);
        let mut failures = Vec::new();
        for case in 0..scaled(self.cases) {
            // Every tenth case fixes all variables, to test the check itself.
            let fixed = case % 10 == 9;
            let domains: Vec<Vec<i64>> =
                self.values.iter().map(|values| random_subset(values, &mut rng, fixed)).collect();
            if let Some(problem) = self.check_case(strength, &post, &domains) {
                failures.push(Failure { domains, problem });
                if failures.len() >= 10 {
                    break;
                }
            }
        }
        if failures.is_empty() { Ok(self.cases) } else { Err(failures) }
    }

    fn check_case<F>(&self, strength: Strength, post: &F, domains: &[Vec<i64>]) -> Option<String>
    where
        F: Fn(&mut Model, &[VarId]) -> Result<(), ModelError>,
    {
        let mut model = Model::new();
        let vars: Vec<VarId> = match domains.iter().map(|d| model.new_var(d.clone())).collect() {
            Ok(vars) => vars,
            Err(err) => return Some(format!("could not create the variables: {err}")),
        };
        if let Err(err) = post(&mut model, &vars) {
            return Some(format!("could not post the constraint: {err}"));
        }
        // Brute force: the values of each position that appear in a satisfying tuple.
        let mut supported: Vec<Vec<i64>> = vec![Vec::new(); self.arity];
        let mut any = false;
        let mut tuple: Vec<i64> = domains.iter().map(|d| d[0]).collect();
        let mut odometer = vec![0usize; self.arity];
        'tuples: loop {
            if model.is_solution(&tuple) {
                any = true;
                for (k, &value) in tuple.iter().enumerate() {
                    if !supported[k].contains(&value) {
                        supported[k].push(value);
                    }
                }
            }
            for k in (0..self.arity).rev() {
                odometer[k] += 1;
                if odometer[k] < domains[k].len() {
                    tuple[k] = domains[k][odometer[k]];
                    continue 'tuples;
                }
                odometer[k] = 0;
                tuple[k] = domains[k][0];
            }
            break;
        }
        let mut solver = match Solver::new(&model, self.config.clone()) {
            Ok(solver) => solver,
            Err(err) => return Some(format!("could not build a solver: {err}")),
        };
        let all_fixed = domains.iter().all(|d| d.len() == 1);
        match solver.root_domains() {
            None if any => Some("propagation failed although a satisfying tuple exists".to_string()),
            None => None,
            Some(_) if all_fixed && !any => {
                Some("propagation accepted fixed values that violate the constraint".to_string())
            }
            Some(_) if !any && strength == Strength::DomainConsistent => {
                Some("propagation did not fail although no tuple satisfies the constraint".to_string())
            }
            Some(left) if strength == Strength::BoundsConsistent => {
                let hulls: Vec<(i64, i64)> = vars
                    .iter()
                    .map(|var| (left[var.index()].min().unwrap_or(0), left[var.index()].max().unwrap_or(0)))
                    .collect();
                Self::unsupported_bound(&model, &hulls).or_else(|| Self::lost_value(&vars, &supported, &left))
            }
            Some(left) => {
                for (k, var) in vars.iter().enumerate() {
                    let remaining: Vec<i64> = left[var.index()].iter().collect();
                    if let Some(lost) = supported[k].iter().find(|v| !remaining.contains(v)) {
                        return Some(format!("position {k} lost the supported value {lost} (left {remaining:?})"));
                    }
                    if strength == Strength::DomainConsistent && any {
                        if let Some(extra) = remaining.iter().find(|v| !supported[k].contains(v)) {
                            return Some(format!(
                                "position {k} kept the unsupported value {extra} (supported {:?})",
                                supported[k]
                            ));
                        }
                    }
                }
                None
            }
        }
    }

    /// The first supported value that propagation removed, if any.
    fn lost_value(vars: &[VarId], supported: &[Vec<i64>], left: &[Domain]) -> Option<String> {
        vars.iter().zip(supported).enumerate().find_map(|(k, (var, supported))| {
            let remaining: Vec<i64> = left[var.index()].iter().collect();
            supported
                .iter()
                .find(|v| !remaining.contains(v))
                .map(|lost| format!("position {k} lost the supported value {lost} (left {remaining:?})"))
        })
    }

    /// The first bound among `hulls` (one `(min, max)` per scope variable)
    /// that no tuple of values within the hulls supports, if any.
    fn unsupported_bound(model: &Model, hulls: &[(i64, i64)]) -> Option<String> {
        let arity = hulls.len();
        let mut found = vec![[false; 2]; arity];
        let mut tuple: Vec<i64> = hulls.iter().map(|&(lo, _)| lo).collect();
        'tuples: loop {
            if model.violated(&tuple).is_empty() {
                for (k, &value) in tuple.iter().enumerate() {
                    found[k][0] |= value == hulls[k].0;
                    found[k][1] |= value == hulls[k].1;
                }
            }
            for k in (0..arity).rev() {
                if tuple[k] < hulls[k].1 {
                    tuple[k] += 1;
                    continue 'tuples;
                }
                tuple[k] = hulls[k].0;
            }
            break;
        }
        let (k, sides) = found.iter().enumerate().find(|(_, sides)| !sides[0] || !sides[1])?;
        let (bound, value) = if sides[0] { ("largest", hulls[k].1) } else { ("smallest", hulls[k].0) };
        Some(format!(
            "position {k} kept its {bound} value {value}, which no tuple within the bounds {hulls:?} supports"
        ))
    }
}

/// A random non-empty subset of `values` (one value when `single`).
fn random_subset(values: &[i64], rng: &mut Rng, single: bool) -> Vec<i64> {
    if single || values.len() == 1 {
        return vec![values[rng.below(values.len() as u64) as usize]];
    }
    // Keep each value with probability 3/4, and at least one.
    let mut subset: Vec<i64> = values.iter().copied().filter(|_| rng.below(4) != 0).collect();
    if subset.is_empty() {
        subset.push(values[rng.below(values.len() as u64) as usize]);
    }
    subset
}

/// A deliberately wrong constraint, for testing what must catch bugs (this
/// harness, the comparisons that check that configurations agree): `x != y`,
/// whose propagator, where propagation runs to a fixpoint (maintained arc
/// consistency, and the root), also removes `x + 1` from `y` once `x` is
/// assigned, so `mac` loses solutions that the other levels find.
///
/// ```
/// use csp::testing::{Harness, PlantedBug, Strength};
///
/// let report = Harness::new(2, 0..=3).cases(300).check(Strength::Sound, |model, vars| {
///     model.post(PlantedBug([vars[0], vars[1]])).map(drop)
/// });
/// assert!(report.is_err(), "the harness catches the planted bug");
/// ```
#[derive(Debug)]
pub struct PlantedBug(pub [VarId; 2]);

/// The propagator of [`PlantedBug`], with its bug.
struct PlantedBugPropagator([VarId; 2]);

impl Constraint for PlantedBug {
    fn scope(&self) -> &[VarId] {
        &self.0
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        values[0] != values[1]
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(PlantedBugPropagator(self.0)))
    }
}

impl Propagator for PlantedBugPropagator {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let [x, y] = self.0;
        if let Some(v) = ctx.assigned_value(x) {
            ctx.remove(y, v)?;
            if ctx.can_reschedule() {
                // The bug: only where propagation runs to a fixpoint.
                ctx.remove(y, v + 1)?;
            }
        }
        if let Some(v) = ctx.assigned_value(y) {
            ctx.remove(x, v)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_seed_is_a_whole_number() {
        let seed_from = |text| parse_valid::<u64>(text, |_| true);
        assert_eq!(seed_from(" 7 "), Some(7));
        assert_eq!(seed_from("seven"), None);
        assert_eq!(seed_from("-1"), None);
    }
}
