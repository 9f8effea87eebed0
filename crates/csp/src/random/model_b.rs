//! Model B (Smith 1994; Prosser 1996), and its flawless variant (Gent,
//! MacIntyre, Prosser, Smith & Walsh 2001).
//!
//! A model-B instance `<n, d, p1, p2>` has `n` variables with domain
//! `0..d`; exactly `round(p1 * n(n-1)/2)` of the variable pairs, chosen
//! uniformly, are constrained, and each constraint forbids exactly
//! `round(p2 * d^2)` of the value pairs, chosen uniformly.
//!
//! Achlioptas et al. (1997) showed that such instances are flawed as `n`
//! grows: a value whose every pair with some neighbour is forbidden has no
//! support, and once some variable has only such values the instance is
//! insoluble for a trivial reason (see [`super::flaws`]). In *flawless*
//! model B each constraint first draws a random bijection `π` of the values
//! and never forbids the pairs `(a, π(a))`, so every value keeps a support
//! in every constraint; the forbidden pairs are drawn among the other
//! `d^2 - d`.

use std::fmt;

use crate::ids::VarId;
use crate::model::Model;
use crate::rng::Rng;

use super::RandomCspError;
use super::forbidden_pairs::{CellDraw, ForbiddenPairs};

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
        self.draw(false)
    }

    /// Draws an instance of flawless model B (Gent et al. 2001): each
    /// constraint never forbids the pairs `(a, π(a))` of a bijection `π` of
    /// the values drawn for it, so no value is flawed
    /// ([`flaws`](super::flaws)); the `round(p2 d^2)` forbidden pairs are drawn
    /// uniformly among the other `d^2 - d`. A tightness above `1 - 1/d`
    /// cannot be flawless and is an error.
    pub fn generate_flawless(&self) -> Result<Model, RandomCspError> {
        self.draw(true)
    }

    /// The largest tightness flawless model B can draw: `1 - 1/d` (rounded
    /// like the tightness itself, to whole value pairs).
    pub fn flawless_limit(&self) -> f64 {
        1.0 - 1.0 / self.values as f64
    }

    fn draw(&self, flawless: bool) -> Result<Model, RandomCspError> {
        for (what, value) in [("density", self.density), ("tightness", self.tightness)] {
            if !(0.0..=1.0).contains(&value) {
                return Err(RandomCspError::OutOfRange { what, value });
            }
        }
        if self.variables == 0 || self.values == 0 {
            return Err(RandomCspError::Empty);
        }
        let d = self.values;
        let forbidden = self.forbidden_count();
        if flawless && forbidden > d * d - d {
            return Err(RandomCspError::Invalid {
                what: "tightness",
                reason: format!(
                    "{} forbids {forbidden} of {} value pairs, but flawless model B keeps {d} of them allowed (at most {:.4})",
                    self.tightness,
                    d * d,
                    self.flawless_limit()
                ),
            });
        }
        let mut rng = Rng::new(self.seed);
        let mut model = Model::new();
        let vars: Vec<VarId> =
            (0..self.variables).map(|i| model.new_named_var(format!("x{i}"), 0..d as i64)).collect::<Result<_, _>>()?;
        let mut pairs: Vec<(usize, usize)> =
            (0..self.variables).flat_map(|i| (i + 1..self.variables).map(move |j| (i, j))).collect();
        rng.shuffle(&mut pairs);
        pairs.truncate(self.constraint_count());
        // Constraints in a canonical order, so the model reads the same whatever
        // order the pairs were drawn in.
        pairs.sort_unstable();
        let mut cells = CellDraw::new(d * d);
        let mut bijection: Vec<usize> = (0..d).collect();
        for (i, j) in pairs {
            let scope = [vars[i], vars[j]];
            let constraint = if flawless {
                rng.shuffle(&mut bijection);
                let kept = |cell: usize| bijection[cell / d] == cell % d;
                let mut others = CellDraw::from_cells((0..d * d).filter(|&cell| !kept(cell)).collect());
                ForbiddenPairs::new(scope, d, others.draw(&mut rng, forbidden))
            } else {
                ForbiddenPairs::new(scope, d, cells.draw(&mut rng, forbidden))
            };
            model.post(constraint)?;
        }
        Ok(model)
    }
}

impl fmt::Display for RandomCsp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "<{}, {}, {}, {}> seed {}", self.variables, self.values, self.density, self.tightness, self.seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraint::Constraint;

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
    fn flawless_instances_have_no_flawed_value_and_exact_counts() {
        for (n, d, p1, p2) in [(20, 10, 0.5, 0.85), (12, 4, 1.0, 0.75), (8, 5, 0.5, 0.3), (6, 3, 0.8, 0.0)] {
            let spec = RandomCsp { variables: n, values: d, density: p1, tightness: p2, seed: 3 };
            let model = spec.generate_flawless().unwrap();
            assert_eq!(model.num_constraints(), spec.constraint_count());
            for (_, constraint) in model.constraints() {
                let allowed = |a: i64, b: i64| constraint.is_satisfied(&[a, b]);
                let forbidden = (0..d as i64).flat_map(|a| (0..d as i64).map(move |b| (a, b)));
                assert_eq!(forbidden.filter(|&(a, b)| !allowed(a, b)).count(), spec.forbidden_count());
                // Every value has a support on both sides.
                for a in 0..d as i64 {
                    assert!((0..d as i64).any(|b| allowed(a, b)) && (0..d as i64).any(|b| allowed(b, a)));
                }
            }
            let flaws = crate::random::flaws(&model);
            assert_eq!((flaws.values, flaws.variables.len()), (0, 0), "<{n}, {d}, {p1}, {p2}>");
        }
        // Plain model B at p2 = 0.85 with d = 10 is riddled with flaws.
        let spec = RandomCsp { variables: 20, values: 10, density: 0.5, tightness: 0.85, seed: 3 };
        assert!(crate::random::flaws(&spec.generate().unwrap()).values > 0);
        // Beyond 1 - 1/d a flawless instance cannot exist.
        let spec = RandomCsp { variables: 5, values: 4, density: 0.5, tightness: 0.8, seed: 1 };
        let err = spec.generate_flawless().unwrap_err();
        assert!(err.to_string().contains("flawless model B keeps 4 of them allowed"), "{err}");
        assert_eq!(spec.flawless_limit(), 0.75);
    }

    #[test]
    fn model_b_draws_what_it_drew_before_the_flawless_variant() {
        // The forbidden pairs of the first constraint of a published instance
        // (seed 0xB18A02F46D8D86C3: the first of the default sweep), so that
        // the numbers in docs/compare.md stay reproducible.
        let spec = RandomCsp { variables: 20, values: 10, density: 0.5, tightness: 0.05, seed: 0xB18A_02F4_6D8D_86C3 };
        let model = spec.generate().unwrap();
        let forbidden = |constraint: &dyn Constraint| -> (Vec<usize>, Vec<(i64, i64)>) {
            let pairs = (0..10).flat_map(|a| (0..10).map(move |b| (a, b)));
            let scope = constraint.scope().iter().map(|v| v.index()).collect();
            (scope, pairs.filter(|&(a, b)| !constraint.is_satisfied(&[a, b])).collect())
        };
        let (_, first) = model.constraints().next().unwrap();
        assert_eq!(forbidden(first), (vec![0, 1], vec![(4, 1), (4, 2), (4, 4), (4, 8), (6, 3)]));
        let (_, last) = model.constraints().last().unwrap();
        assert_eq!(forbidden(last), (vec![18, 19], vec![(0, 9), (1, 1), (1, 4), (3, 1), (9, 6)]));
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
