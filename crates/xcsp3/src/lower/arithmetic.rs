//! The integer operators of intension expressions: linear ones fold into a
//! [`Linear`], the others get an auxiliary variable over the exact bounds of
//! their value (computed in `i128` over the operands' bounds) and the
//! engine's relation. Constants fold with the evaluator's semantics.

use csp::{Lit, Relation, VarId};

use super::Lowering;
use super::linear::Linear;
use crate::error::Error;
use crate::expression::Operator;

/// The most values the narrower factor of a product past `±2^62` may have
/// for [`Lowering::product_by_cases`] (one boolean and one auxiliary
/// variable each).
const CASES: u64 = 64;

impl Lowering<'_, '_> {
    /// The value of an integer operator over lowered operands.
    pub(super) fn arithmetic(&mut self, op: Operator, values: Vec<Linear>) -> Result<Linear, Error> {
        let overflow = |lowering: &Self| lowering.overflow();
        match op {
            Operator::Neg => values[0].clone().times(-1).ok_or_else(|| overflow(self)),
            Operator::Add => Linear::sum(values).ok_or_else(|| overflow(self)),
            Operator::Sub => values[0].clone().minus(&values[1]).ok_or_else(|| overflow(self)),
            Operator::Mul => {
                let mut values = values.into_iter();
                let mut product = values.next().expect("mul has operands");
                for value in values {
                    product = self.multiply(product, value)?;
                }
                Ok(product)
            }
            Operator::Div | Operator::Mod => self.division(op, &values[0], &values[1]),
            Operator::Abs => self.absolute(&values[0]),
            Operator::Dist => {
                let difference = values[0].clone().minus(&values[1]).ok_or_else(|| overflow(self))?;
                self.absolute(&difference)
            }
            Operator::Sqr => self.power(&values[0], &Linear::constant(2)),
            Operator::Pow => self.power(&values[0], &values[1]),
            Operator::Min | Operator::Max => self.extremum_of(&values, op == Operator::Min),
            other => Err(self.invalid(format!("{} is not an integer operator here", other.name()))),
        }
    }

    /// `a * b`: linear when either is a constant, else `times` on an
    /// auxiliary variable; a product that may pass `±2^62`, which no variable
    /// holds, is a sum by cases ([`Self::product_by_cases`]).
    fn multiply(&mut self, a: Linear, b: Linear) -> Result<Linear, Error> {
        if let Some(c) = a.as_constant() {
            return b.times(c).ok_or_else(|| self.overflow());
        }
        if let Some(c) = b.as_constant() {
            return a.times(c).ok_or_else(|| self.overflow());
        }
        let (x, y) = (self.var_of(&a)?, self.var_of(&b)?);
        let (xl, xh) = self.var_bounds(x);
        let (yl, yh) = self.var_bounds(y);
        let corners = [xl * yl, xl * yh, xh * yl, xh * yh];
        let (low, high) = (corners.iter().min().copied(), corners.iter().max().copied());
        if low.and_then(super::terms::in_range).is_none() || high.and_then(super::terms::in_range).is_none() {
            return self.product_by_cases(x, y, (low, high));
        }
        let z = self.result_var(low, high)?;
        self.model.times(x, y, z).map_err(|e| self.model_error(&e))?;
        Ok(Linear::var(z))
    }

    /// `x * y` as a linear sum, exact in `i128`, when one factor has at most
    /// [`CASES`] values: with `x` that one and `m` its median value (or 0
    /// when that weighs less), `m * y +
    /// sum over the other values v of (v - m) * y_v`, where `y_v` is `y`
    /// when `x = v` and 0 otherwise. The coefficients are differences of
    /// `x`'s values (small for values near one another), so the sum's
    /// magnitude stays what the engine adds up; a product of two wider
    /// factors is refused as before, naming its bounds.
    fn product_by_cases(
        &mut self,
        x: VarId,
        y: VarId,
        (low, high): (Option<i128>, Option<i128>),
    ) -> Result<Linear, Error> {
        let size = |lowering: &Self, v: VarId| lowering.model.domain(v).map_or(u64::MAX, csp::Domain::size);
        let (x, y) = if size(self, x) <= size(self, y) { (x, y) } else { (y, x) };
        if size(self, x) > CASES {
            let (Some(low), Some(high)) = (low, high) else { return Err(self.overflow()) };
            return Err(self.unsupported(format!("an intermediate value between {low} and {high}, beyond ±2^62")));
        }
        let values: Vec<i64> = self.model.domain(x).expect("a variable of this model").iter().collect();
        // The base whose term and differences weigh least (the median, or 0).
        let weight = |m: i64| {
            values.iter().map(|&v| (i128::from(v) - i128::from(m)).unsigned_abs()).sum::<u128>()
                + u128::from(m.unsigned_abs())
        };
        let median = [values[values.len() / 2], 0].into_iter().min_by_key(|&m| weight(m)).expect("two candidates");
        let (yl, yh) = self.var_bounds(y);
        let (low, high) = (i64::try_from(yl.min(0)).unwrap_or(0), i64::try_from(yh.max(0)).unwrap_or(0));
        let mut sum = Linear::var(y).times(i128::from(median)).ok_or_else(|| self.overflow())?;
        for &value in values.iter().filter(|&&v| v != median) {
            let case = self.model.reified(csp::LinearExpr::from(x).eq(value)).map_err(|e| self.model_error(&e))?;
            let y_v = self.auxiliary(low, high)?;
            self.model.implies(case, (y_v - y).eq(0)).map_err(|e| self.model_error(&e))?;
            self.model.implies(!case, y_v.eq(0)).map_err(|e| self.model_error(&e))?;
            let term = Linear::var(y_v).times(i128::from(value) - i128::from(median)).ok_or_else(|| self.overflow())?;
            sum = sum.plus(&term).ok_or_else(|| self.overflow())?;
        }
        Ok(sum)
    }

    /// `a div b` or `a mod b`: truncated, the remainder with `a`'s sign; a
    /// zero divisor makes the constraint false (the engine's relation requires `b != 0`).
    fn division(&mut self, op: Operator, a: &Linear, b: &Linear) -> Result<Linear, Error> {
        if let (Some(x), Some(y)) = (a.as_constant(), b.as_constant()) {
            if y != 0 {
                let value = if op == Operator::Div { x.checked_div(y) } else { x.checked_rem(y) };
                return value.map(Linear::constant).ok_or_else(|| self.overflow());
            }
        }
        let (x, y) = (self.var_of(a)?, self.var_of(b)?);
        if self.is_reifying() && self.model.domain(y).is_some_and(|d| d.contains(0)) {
            return Err(self.partial_in_reified(op));
        }
        let (xl, xh) = self.var_bounds(x);
        let (yl, yh) = self.var_bounds(y);
        let magnitude = xl.abs().max(xh.abs());
        let z = if op == Operator::Div {
            self.result_var(Some(-magnitude), Some(magnitude))?
        } else {
            let divisor = yl.abs().max(yh.abs());
            let bound = (divisor - 1).max(0).min(magnitude);
            let low = if xl >= 0 { 0 } else { -bound };
            let high = if xh <= 0 { 0 } else { bound };
            self.result_var(Some(low), Some(high))?
        };
        let posted = if op == Operator::Div { self.model.div(x, y, z) } else { self.model.modulo(x, y, z) };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(Linear::var(z))
    }

    /// The refusal of a partial operation in a reified constraint: the
    /// engine's relation would remove the values where it is undefined
    /// whatever the reifying literal says.
    fn partial_in_reified(&self, op: Operator) -> Error {
        self.unsupported(format!(
            "{} where it can be undefined (a divisor or a base of a negative power that can be 0) in a reified constraint",
            op.name()
        ))
    }

    /// `|a|`: `a` or `-a` when its sign is known, else `abs` on an auxiliary variable.
    fn absolute(&mut self, a: &Linear) -> Result<Linear, Error> {
        let (low, high) = self.bounds(a)?;
        if low >= 0 {
            return Ok(a.clone());
        }
        if high <= 0 {
            return a.clone().times(-1).ok_or_else(|| self.overflow());
        }
        let x = self.var_of(a)?;
        let z = self.result_var(Some(0), Some(i128::from(low).abs().max(i128::from(high))))?;
        self.model.abs(x, z).map_err(|e| self.model_error(&e))?;
        Ok(Linear::var(z))
    }

    /// `a ^ b` (a negative exponent is `1 div a^-b`, undefined for `a = 0`).
    fn power(&mut self, a: &Linear, b: &Linear) -> Result<Linear, Error> {
        if let (Some(base), Some(exponent)) = (a.as_constant(), b.as_constant()) {
            if let Some(value) = crate::expression::power(base, exponent) {
                return Ok(Linear::constant(value));
            }
        }
        let x = self.var_of(a)?;
        let (xl, xh) = self.var_bounds(x);
        let magnitude = xl.abs().max(xh.abs());
        let negative = match b.as_constant() {
            Some(exponent) => exponent < 0,
            None => self.bounds(b)?.0 < 0,
        };
        if negative && self.is_reifying() && self.model.domain(x).is_some_and(|d| d.contains(0)) {
            return Err(self.partial_in_reified(Operator::Pow));
        }
        if let Some(exponent) = b.as_constant() {
            if exponent == 0 {
                return Ok(Linear::constant(1));
            }
            let (low, high) = if exponent < 0 {
                (-1, 1)
            } else {
                let k = u32::try_from(exponent).map_err(|_| self.unsupported("an exponent beyond 32 bits"))?;
                let power = |v: i128| v.checked_pow(k);
                let (pl, ph) = (power(xl), power(xh));
                let (Some(pl), Some(ph)) = (pl, ph) else {
                    return Err(self.unsupported(format!("pow(x, {exponent}) with values beyond 128 bits")));
                };
                if k % 2 == 0 && xl < 0 && xh > 0 { (0, pl.max(ph)) } else { (pl.min(ph), pl.max(ph)) }
            };
            let z = self.result_var(Some(low), Some(high))?;
            let exponent = i64::try_from(exponent).map_err(|_| self.overflow())?;
            self.model.pow_constant(x, exponent, z).map_err(|e| self.model_error(&e))?;
            return Ok(Linear::var(z));
        }
        let y = self.var_of(b)?;
        let (_, yh) = self.var_bounds(y);
        let k = u32::try_from(yh.max(0)).map_err(|_| self.unsupported("an exponent beyond 32 bits"))?;
        let bound = magnitude.max(1).checked_pow(k);
        let Some(bound) = bound else {
            return Err(self.unsupported("pow(x, y) with values beyond 128 bits"));
        };
        let z = self.result_var(Some(-bound), Some(bound))?;
        self.model.pow(x, y, z).map_err(|e| self.model_error(&e))?;
        Ok(Linear::var(z))
    }

    /// `min(...)` or `max(...)`.
    fn extremum_of(&mut self, values: &[Linear], minimum: bool) -> Result<Linear, Error> {
        if let Some(constants) = values.iter().map(Linear::as_constant).collect::<Option<Vec<i128>>>() {
            let value = if minimum { constants.iter().min() } else { constants.iter().max() };
            return Ok(Linear::constant(*value.expect("at least one operand")));
        }
        let mut vars: Vec<VarId> = Vec::with_capacity(values.len());
        for value in values {
            let var = self.var_of(value)?;
            if !vars.contains(&var) {
                vars.push(var);
            }
        }
        if let [var] = vars.as_slice() {
            return Ok(Linear::var(*var));
        }
        let bounds: Vec<(i128, i128)> = vars.iter().map(|&v| self.var_bounds(v)).collect();
        let pick = |f: fn(i128, i128) -> i128, of: fn(&(i128, i128)) -> i128| bounds.iter().map(of).reduce(f);
        let (low, high) = if minimum {
            (pick(i128::min, |b| b.0), pick(i128::min, |b| b.1))
        } else {
            (pick(i128::max, |b| b.0), pick(i128::max, |b| b.1))
        };
        let z = self.result_var(low, high)?;
        let posted = if minimum { self.model.minimum(z, &vars) } else { self.model.maximum(z, &vars) };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(Linear::var(z))
    }

    /// `if lit then a else b`: an auxiliary variable equal to one or the other.
    pub(super) fn if_then_else(&mut self, lit: Lit, then: &Linear, otherwise: &Linear) -> Result<Linear, Error> {
        let (tl, th) = self.bounds(then)?;
        let (ol, oh) = self.bounds(otherwise)?;
        let z = self.auxiliary(tl.min(ol), th.max(oh))?;
        for (literal, value) in [(lit, then), (!lit, otherwise)] {
            let difference = Linear::var(z).minus(value).ok_or_else(|| self.overflow())?;
            if let Some(constant) = difference.as_constant() {
                // z - value is constant only if z cancelled, which cannot happen with a fresh z.
                debug_assert!(constant == 0, "a fresh variable does not cancel");
                continue;
            }
            let condition = self.compare_condition(&difference, Relation::Eq);
            self.model.implies(literal, condition).map_err(|e| self.model_error(&e))?;
        }
        Ok(Linear::var(z))
    }

    /// A variable's bounds in `i128`.
    fn var_bounds(&self, var: VarId) -> (i128, i128) {
        let domain = self.model.domain(var).expect("a variable of this model");
        (i128::from(domain.min().unwrap_or(0)), i128::from(domain.max().unwrap_or(0)))
    }

    /// An auxiliary variable for an operator's result over `low..=high`.
    fn result_var(&mut self, low: Option<i128>, high: Option<i128>) -> Result<VarId, Error> {
        let (Some(low), Some(high)) = (low, high) else { return Err(self.overflow()) };
        match (super::terms::in_range(low), super::terms::in_range(high)) {
            (Some(low), Some(high)) => self.auxiliary(low, high),
            _ => Err(self.unsupported(format!("an intermediate value between {low} and {high}, beyond ±2^62"))),
        }
    }
}
