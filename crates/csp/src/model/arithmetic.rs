//! The constructors of arithmetic constraints: MiniZinc's `int_times`,
//! `int_div`, `int_mod`, `int_pow`, `int_abs`, `int_min`, `int_max`,
//! `array_int_minimum` and `array_int_maximum`, one call each.

use super::{Model, ModelError};
use crate::constraints::{Arithmetic, Extremum};
use crate::ids::{ConstraintId, VarId};

impl Model {
    /// `z = x * y` (MiniZinc's `int_times`). Domain consistent on small
    /// domains, bounds consistent beyond (see [`Arithmetic`]); no overflow
    /// over the whole value range.
    ///
    /// ```
    /// use csp::Model;
    ///
    /// let mut model = Model::new();
    /// let x = model.new_var(-3..=3).unwrap();
    /// let y = model.new_var(-3..=3).unwrap();
    /// let z = model.new_var(7..=9).unwrap();
    /// model.times(x, y, z).unwrap();
    /// let solution = model.solve().unwrap().expect("3 * 3 = 9");
    /// assert_eq!(solution[x] * solution[y], 9);
    /// ```
    pub fn times(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::times(x, y, z))
    }

    /// `z = x / y` truncated toward zero, and `y != 0` (MiniZinc's `int_div`).
    pub fn div(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::div(x, y, z))
    }

    /// `z = x % y`, the remainder with the sign of `x`, and `y != 0`
    /// (MiniZinc's `int_mod`, Rust's `%`).
    pub fn modulo(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::modulo(x, y, z))
    }

    /// `z = x ^ y` (MiniZinc's `int_pow`): `x^0 = 1`, and for `y < 0`,
    /// `1 div x^-y` with `x != 0`. A variable exponent is domain consistent
    /// while `x` and `y` have at most 4096 pairs of values; beyond that,
    /// propagation waits until the exponent is fixed and then works as
    /// [`pow_constant`](Model::pow_constant).
    pub fn pow(&mut self, x: VarId, y: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::pow(x, y, z))
    }

    /// `z = x ^ exponent` for a constant exponent (negative ones as in
    /// [`pow`](Model::pow)). Domain consistent on small domains, bounds
    /// consistent beyond.
    pub fn pow_constant(&mut self, x: VarId, exponent: i64, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::pow_constant(x, exponent, z))
    }

    /// `z = |x|` (MiniZinc's `int_abs`).
    pub fn abs(&mut self, x: VarId, z: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Arithmetic::abs(x, z))
    }

    /// `m = min(xs)`, domain consistent: MiniZinc's `array_int_minimum(m, xs)`,
    /// and `int_min(x, y, m)` as `minimum(m, &[x, y])`. A variable given twice
    /// in `xs` counts once.
    pub fn minimum(&mut self, m: VarId, xs: &[VarId]) -> Result<ConstraintId, ModelError> {
        let xs = self.extremum_operands("minimum", xs)?;
        self.post(Extremum::minimum(m, &xs))
    }

    /// `m = max(xs)`, domain consistent: MiniZinc's `array_int_maximum(m, xs)`,
    /// and `int_max(x, y, m)` as `maximum(m, &[x, y])`.
    pub fn maximum(&mut self, m: VarId, xs: &[VarId]) -> Result<ConstraintId, ModelError> {
        let xs = self.extremum_operands("maximum", xs)?;
        self.post(Extremum::maximum(m, &xs))
    }

    /// `xs` without repeats, checked not to be empty.
    fn extremum_operands(&self, kind: &str, xs: &[VarId]) -> Result<Vec<VarId>, ModelError> {
        if xs.is_empty() {
            return Err(ModelError::InvalidArgument {
                constraint: kind.to_string(),
                message: "the array is empty, so it has no extreme value".to_string(),
            });
        }
        self.check_scope(kind, xs)?;
        let mut distinct: Vec<VarId> = Vec::with_capacity(xs.len());
        let mut seen = std::collections::HashSet::with_capacity(xs.len());
        for &x in xs {
            if seen.insert(x) {
                distinct.push(x);
            }
        }
        Ok(distinct)
    }
}
