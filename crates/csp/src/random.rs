//! Random binary CSPs (model B), the standard test bed for comparing
//! propagation and search algorithms (Smith 1994; Prosser 1996).
//!
//! A model-B instance `<n, d, p1, p2>` has `n` variables with domain
//! `0..d`; exactly `round(p1 * n(n-1)/2)` of the variable pairs, chosen
//! uniformly, are constrained, and each constraint forbids exactly
//! `round(p2 * d^2)` of the value pairs, chosen uniformly. Instances are
//! reproducible from their seed.
//!
//! ```
//! use csp::random::RandomCsp;
//! let spec = RandomCsp { variables: 10, values: 5, density: 0.5, tightness: 0.3, seed: 1 };
//! let model = spec.generate().unwrap();
//! assert_eq!(model.num_vars(), 10);
//! assert_eq!(model.num_constraints(), spec.constraint_count());
//! ```

use std::fmt;

use crate::constraint::Constraint;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::model::{Model, ModelError};
use crate::rng::Rng;

/// The parameters of a model-B random binary CSP.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomCsp {
    /// `n`, the number of variables.
    pub variables: usize,
    /// `d`, the domain size (values `0..d`).
    pub values: usize,
    /// `p1`, the fraction of variable pairs that are constrained.
    pub density: f64,
    /// `p2`, the fraction of value pairs each constraint forbids.
    pub tightness: f64,
    /// The seed: equal parameters and seeds give equal instances.
    pub seed: u64,
}

/// Parameters that describe no instance.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RandomCspError {
    /// Density or tightness outside `0..=1`, or not a number.
    #[error("{what} must be between 0 and 1, not {value}")]
    OutOfRange {
        /// "density" or "tightness".
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// No variables or no values.
    #[error("a random CSP needs at least one variable and one value")]
    Empty,
    /// The model could not be built (too large).
    #[error(transparent)]
    Model(#[from] ModelError),
}

impl RandomCsp {
    /// The number of constrained pairs: `round(p1 * n(n-1)/2)`.
    pub fn constraint_count(&self) -> usize {
        let pairs = self.variables * self.variables.saturating_sub(1) / 2;
        (self.density * pairs as f64).round() as usize
    }

    /// The number of forbidden value pairs per constraint: `round(p2 * d^2)`.
    pub fn forbidden_count(&self) -> usize {
        (self.tightness * (self.values * self.values) as f64).round() as usize
    }

    /// The tightness at the predicted phase transition, where about half the
    /// instances are satisfiable: `p2 = 1 - d^(-2 / (p1 (n - 1)))` (Smith 1994;
    /// the expected number of solutions is then 1).
    pub fn critical_tightness(&self) -> f64 {
        let exponent = -2.0 / (self.density * (self.variables as f64 - 1.0));
        1.0 - (self.values as f64).powf(exponent)
    }

    /// Draws the instance: variables named `x0`, `x1`, ..., one
    /// [`ForbiddenPairs`] constraint per constrained pair.
    pub fn generate(&self) -> Result<Model, RandomCspError> {
        for (what, value) in [("density", self.density), ("tightness", self.tightness)] {
            if !(0.0..=1.0).contains(&value) {
                return Err(RandomCspError::OutOfRange { what, value });
            }
        }
        if self.variables == 0 || self.values == 0 {
            return Err(RandomCspError::Empty);
        }
        let mut rng = Rng::new(self.seed);
        let mut model = Model::new();
        let d = self.values as i64;
        let vars: Vec<VarId> =
            (0..self.variables).map(|i| model.new_named_var(format!("x{i}"), 0..d)).collect::<Result<_, _>>()?;
        let mut pairs: Vec<(usize, usize)> =
            (0..self.variables).flat_map(|i| (i + 1..self.variables).map(move |j| (i, j))).collect();
        rng.shuffle(&mut pairs);
        pairs.truncate(self.constraint_count());
        // Constraints in a canonical order, so the model reads the same whatever
        // order the pairs were drawn in.
        pairs.sort_unstable();
        let cells = self.values * self.values;
        let forbidden = self.forbidden_count();
        let mut value_pairs: Vec<usize> = (0..cells).collect();
        for (i, j) in pairs {
            // A partial Fisher-Yates shuffle picks `forbidden` distinct value pairs.
            for k in 0..forbidden {
                let pick = k + rng.below((cells - k) as u64) as usize;
                value_pairs.swap(k, pick);
            }
            let mut bits = vec![0u64; cells.div_ceil(64)];
            for &cell in &value_pairs[..forbidden] {
                bits[cell / 64] |= 1u64 << (cell % 64);
            }
            model.post(ForbiddenPairs { scope: [vars[i], vars[j]], values: self.values, forbidden: bits })?;
        }
        Ok(model)
    }
}

impl fmt::Display for RandomCsp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}, {}, {}, {}> seed {}", self.variables, self.values, self.density, self.tightness, self.seed)
    }
}

/// A binary constraint over two variables with domains `0..values` that
/// forbids the listed value pairs. It has no propagator of its own: it is
/// propagated by generic support checking, so that constraint checks are
/// counted the way the classic experiments count them.
#[derive(Clone, Debug)]
pub struct ForbiddenPairs {
    scope: [VarId; 2],
    values: usize,
    /// Bit `a * values + b` set when `(a, b)` is forbidden.
    forbidden: Vec<u64>,
}

impl ForbiddenPairs {
    /// The number of forbidden pairs.
    pub fn forbidden_count(&self) -> usize {
        self.forbidden.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether `(a, b)` is forbidden.
    pub fn forbids(&self, a: i64, b: i64) -> bool {
        let d = self.values as i64;
        if !(0..d).contains(&a) || !(0..d).contains(&b) {
            return false;
        }
        let cell = (a * d + b) as usize;
        self.forbidden[cell / 64] & (1u64 << (cell % 64)) != 0
    }

    /// The domain both variables are meant to have.
    pub fn domain(&self) -> Domain {
        Domain::range(0, self.values as i64 - 1)
    }
}

impl Constraint for ForbiddenPairs {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        !self.forbids(values[0], values[1])
    }

    fn kind(&self) -> &str {
        "forbidden_pairs"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn density_and_tightness_are_exact() {
        for (n, d, p1, p2) in [(20, 10, 0.5, 0.38), (10, 3, 1.0, 0.0), (15, 7, 0.25, 1.0), (5, 4, 0.3, 0.5)] {
            let spec = RandomCsp { variables: n, values: d, density: p1, tightness: p2, seed: 9 };
            let model = spec.generate().unwrap();
            let pairs = n * (n - 1) / 2;
            assert_eq!(model.num_constraints(), (p1 * pairs as f64).round() as usize);
            let mut seen = std::collections::BTreeSet::new();
            for (_, constraint) in model.constraints() {
                let scope = constraint.scope();
                assert!(scope[0] < scope[1] && seen.insert((scope[0], scope[1])), "each pair at most once");
                let forbidden = (0..d as i64)
                    .flat_map(|a| (0..d as i64).map(move |b| (a, b)))
                    .filter(|&(a, b)| !constraint.is_satisfied(&[a, b]))
                    .count();
                assert_eq!(forbidden, (p2 * (d * d) as f64).round() as usize);
            }
        }
    }

    #[test]
    fn equal_seeds_give_equal_instances() {
        let spec = RandomCsp { variables: 12, values: 6, density: 0.4, tightness: 0.3, seed: 5 };
        let shape = |model: &Model| -> Vec<(Vec<VarId>, Vec<bool>)> {
            model
                .constraints()
                .map(|(_, c)| {
                    let cells = (0..6).flat_map(|a| (0..6).map(move |b| (a, b)));
                    (c.scope().to_vec(), cells.map(|(a, b)| c.is_satisfied(&[a, b])).collect())
                })
                .collect()
        };
        let a = spec.generate().unwrap();
        let b = spec.generate().unwrap();
        let c = RandomCsp { seed: 6, ..spec }.generate().unwrap();
        let index = |s: Vec<(Vec<VarId>, Vec<bool>)>| -> Vec<(Vec<usize>, Vec<bool>)> {
            s.into_iter().map(|(vars, cells)| (vars.iter().map(|v| v.index()).collect(), cells)).collect()
        };
        assert_eq!(index(shape(&a)), index(shape(&b)));
        assert_ne!(index(shape(&a)), index(shape(&c)));
    }

    #[test]
    fn the_critical_point_matches_the_formula() {
        let spec = RandomCsp { variables: 20, values: 10, density: 0.5, tightness: 0.0, seed: 0 };
        let p2 = spec.critical_tightness();
        assert!((p2 - 0.3844).abs() < 1e-3, "{p2}");
    }

    #[test]
    fn bad_parameters_are_errors() {
        let spec = RandomCsp { variables: 5, values: 3, density: 1.5, tightness: 0.1, seed: 0 };
        assert!(matches!(spec.generate(), Err(RandomCspError::OutOfRange { what: "density", .. })));
        let spec = RandomCsp { variables: 0, values: 3, density: 0.5, tightness: 0.1, seed: 0 };
        assert!(matches!(spec.generate(), Err(RandomCspError::Empty)));
        let spec = RandomCsp { variables: 3, values: 3, density: 0.5, tightness: f64::NAN, seed: 0 };
        assert!(spec.generate().is_err());
    }
}
