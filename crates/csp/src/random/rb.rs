//! Model RB (Xu & Li 2000): random binary CSPs whose phase transition is
//! known exactly.
//!
//! An instance `<n, α, r, p>` has `n` variables with domain `0..d`, where
//! `d = round(n^α)`; `m = round(r n ln n)` constraints, each on two distinct
//! variables drawn uniformly and independently (with repetition: two
//! constraints may share their scope); each constraint forbids exactly
//! `round(p d^2)` value pairs, drawn uniformly. Because the domain grows with
//! `n`, the instances do not become trivially flawed as model B's do.
//!
//! Xu & Li prove (their Theorems 1 and 2, for arity `k = 2`): with `α > 1/2`,
//! the probability that an instance is satisfiable tends to 1 below and to 0
//! above the critical tightness `p_cr = 1 - e^(-α/r)`, provided
//! `2 e^(-α/r) >= 1` (`p_cr <= 1/2`); equally, at a fixed `p <= 1/2`, below
//! and above the critical ratio `r_cr = -α / ln(1 - p)`.

use std::fmt;

use crate::ids::VarId;
use crate::model::Model;
use crate::rng::Rng;

use super::forbidden_pairs::{CellDraw, ForbiddenPairs};
use super::{RandomCspError, fraction, positive};

/// The parameters of a model-RB instance (arity 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelRb {
    /// `n`, the number of variables (at least 2).
    pub variables: usize,
    /// `α`: the domain size is `round(n^α)`.
    pub alpha: f64,
    /// `r`: there are `round(r n ln n)` constraints.
    pub ratio: f64,
    /// `p`, the fraction of value pairs each constraint forbids.
    pub tightness: f64,
    /// The seed: equal parameters and seeds give equal instances.
    pub seed: u64,
}

impl ModelRb {
    /// `d = round(n^α)`, the domain size (at least 1).
    pub fn values(&self) -> usize {
        ((self.variables as f64).powf(self.alpha).round() as usize).max(1)
    }

    /// `m = round(r n ln n)`, the number of constraints.
    pub fn constraint_count(&self) -> usize {
        let n = self.variables as f64;
        (self.ratio * n * n.ln()).round().max(0.0) as usize
    }

    /// The forbidden value pairs per constraint: `round(p d^2)`.
    pub fn forbidden_count(&self) -> usize {
        let d = self.values();
        (self.tightness * (d * d) as f64).round() as usize
    }

    /// The critical tightness `p_cr = 1 - e^(-α/r)` (Xu & Li 2000, Theorem 2).
    pub fn critical_tightness(&self) -> f64 {
        1.0 - (-self.alpha / self.ratio).exp()
    }

    /// The critical ratio `r_cr = -α / ln(1 - p)` (Xu & Li 2000, Theorem 1).
    pub fn critical_ratio(&self) -> f64 {
        -self.alpha / (1.0 - self.tightness).ln()
    }

    /// Whether Theorem 2 applies, so that [`critical_tightness`](Self::critical_tightness)
    /// is the exact threshold as `n` grows: `α > 1/2` and `2 e^(-α/r) >= 1`.
    pub fn exact_in_tightness(&self) -> bool {
        self.alpha > 0.5 && 2.0 * (-self.alpha / self.ratio).exp() >= 1.0
    }

    /// Whether Theorem 1 applies, so that [`critical_ratio`](Self::critical_ratio)
    /// is the exact threshold as `n` grows: `α > 1/2` and `p <= 1/2`.
    pub fn exact_in_ratio(&self) -> bool {
        self.alpha > 0.5 && self.tightness > 0.0 && self.tightness <= 0.5
    }

    /// Checks the parameters.
    fn validate(&self) -> Result<(), RandomCspError> {
        fraction("tightness", self.tightness)?;
        positive("alpha", self.alpha)?;
        positive("ratio", self.ratio)?;
        if self.variables < 2 {
            return Err(RandomCspError::Invalid {
                what: "variables",
                reason: format!("model RB needs at least 2 variables, not {}", self.variables),
            });
        }
        Ok(())
    }

    /// Draws the instance: variables named `x0`, `x1`, ..., one
    /// [`ForbiddenPairs`] constraint per drawn scope, in the order drawn.
    pub fn generate(&self) -> Result<Model, RandomCspError> {
        self.validate()?;
        let (n, d) = (self.variables, self.values());
        let mut rng = Rng::new(self.seed);
        let mut model = Model::new();
        let vars: Vec<VarId> =
            (0..n).map(|i| model.new_named_var(format!("x{i}"), 0..d as i64)).collect::<Result<_, _>>()?;
        let forbidden = self.forbidden_count();
        let mut cells = CellDraw::new(d * d);
        for _ in 0..self.constraint_count() {
            let i = rng.below(n as u64) as usize;
            // A second variable, uniform among the other n - 1.
            let j = (i + 1 + rng.below(n as u64 - 1) as usize) % n;
            let scope = [vars[i.min(j)], vars[i.max(j)]];
            model.post(ForbiddenPairs::new(scope, d, cells.draw(&mut rng, forbidden)))?;
        }
        Ok(model)
    }
}

impl fmt::Display for ModelRb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "RB <n={}, alpha={}, r={}, p={}> (d={}, m={}) seed {}",
            self.variables,
            self.alpha,
            self.ratio,
            self.tightness,
            self.values(),
            self.constraint_count(),
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parameters_are_xu_and_lis() {
        let spec = ModelRb { variables: 30, alpha: 0.8, ratio: 0.8, tightness: 0.25, seed: 1 };
        // d = 30^0.8 = 15.21..., m = 0.8 * 30 * ln 30 = 81.6...
        assert_eq!((spec.values(), spec.constraint_count(), spec.forbidden_count()), (15, 82, 56));
        let model = spec.generate().unwrap();
        assert_eq!((model.num_vars(), model.num_constraints()), (30, 82));
        for (_, constraint) in model.constraints() {
            let scope = constraint.scope();
            assert!(scope[0] < scope[1], "two distinct variables");
            let pairs = (0..15).flat_map(|a| (0..15).map(move |b| (a, b)));
            assert_eq!(pairs.filter(|&(a, b)| !constraint.is_satisfied(&[a, b])).count(), 56);
        }
        // Scopes are drawn with repetition: over many constraints some repeat.
        let dense = ModelRb { variables: 6, alpha: 1.0, ratio: 3.0, tightness: 0.1, seed: 2 }.generate().unwrap();
        let mut scopes: Vec<Vec<VarId>> = dense.constraints().map(|(_, c)| c.scope().to_vec()).collect();
        assert_eq!(scopes.len(), (3.0 * 6.0 * 6f64.ln()).round() as usize);
        scopes.sort();
        scopes.dedup();
        assert!(scopes.len() < 32, "32 constraints over 15 pairs repeat some");
    }

    #[test]
    fn the_threshold_formulas_agree_and_say_where_they_are_exact() {
        let spec = ModelRb { variables: 30, alpha: 0.8, ratio: 0.8, tightness: 0.0, seed: 1 };
        // p_cr = 1 - e^-1.
        assert!((spec.critical_tightness() - 0.632_120_558_8).abs() < 1e-9);
        // Above 1/2: Theorem 2 does not apply.
        assert!(!spec.exact_in_tightness());
        let spec = ModelRb { ratio: 3.0, ..spec };
        let p = spec.critical_tightness();
        assert!(spec.exact_in_tightness() && p < 0.5, "{p}");
        // The two thresholds are the same curve: r_cr at p_cr is r.
        let at = ModelRb { tightness: p, ..spec };
        assert!((at.critical_ratio() - 3.0).abs() < 1e-9);
        assert!(at.exact_in_ratio());
        assert!(!ModelRb { alpha: 0.5, ..at }.exact_in_ratio(), "alpha must exceed 1/2");
    }

    #[test]
    fn bad_parameters_are_errors() {
        let spec = ModelRb { variables: 10, alpha: 0.8, ratio: 0.8, tightness: 0.3, seed: 0 };
        assert!(ModelRb { tightness: 1.5, ..spec }.generate().is_err());
        assert!(ModelRb { alpha: -1.0, ..spec }.generate().is_err());
        assert!(ModelRb { ratio: f64::NAN, ..spec }.generate().is_err());
        let err = ModelRb { variables: 1, ..spec }.generate().unwrap_err();
        assert!(err.to_string().contains("at least 2 variables"), "{err}");
        assert_eq!(spec.generate().unwrap().num_constraints(), spec.constraint_count());
    }
}
