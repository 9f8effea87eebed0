//! `Linear`: the lowering's integer expressions, `sum(a_i x_i) + c` with
//! coefficients in `i128`, so that constants fold and repeated variables
//! merge before anything is posted (the engine refuses a condition without
//! variables, and a constant one is decided here instead).

use csp::{LinearExpr, Lit, Model, VarId};

/// `sum(coefficient * variable) + constant`, merged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Linear {
    pub(super) terms: Vec<(i128, VarId)>,
    pub(super) constant: i128,
}

impl Linear {
    pub(super) fn constant(value: i128) -> Linear {
        Linear { terms: Vec::new(), constant: value }
    }

    pub(super) fn var(var: VarId) -> Linear {
        Linear { terms: vec![(1, var)], constant: 0 }
    }

    /// A literal's 0/1 value: `b`, or `1 - b` for `!b`.
    pub(super) fn literal(literal: Lit) -> Linear {
        if literal.is_negated() {
            Linear { terms: vec![(-1, literal.var())], constant: 1 }
        } else {
            Linear::var(literal.var())
        }
    }

    /// The value, when there is no variable.
    pub(super) fn as_constant(&self) -> Option<i128> {
        self.terms.is_empty().then_some(self.constant)
    }

    /// The variable, when the expression is exactly one variable.
    pub(super) fn as_var(&self) -> Option<VarId> {
        match self.terms.as_slice() {
            [(1, var)] if self.constant == 0 => Some(*var),
            _ => None,
        }
    }

    /// `self + other`, or `None` beyond `i128`.
    pub(super) fn plus(mut self, other: &Linear) -> Option<Linear> {
        self.constant = self.constant.checked_add(other.constant)?;
        self.terms.extend_from_slice(&other.terms);
        self.merged()
    }

    /// `factor * self`, or `None` beyond `i128`.
    pub(super) fn times(mut self, factor: i128) -> Option<Linear> {
        self.constant = self.constant.checked_mul(factor)?;
        for (coefficient, _) in &mut self.terms {
            *coefficient = coefficient.checked_mul(factor)?;
        }
        self.merged()
    }

    /// The sum of `parts`, merged once.
    pub(super) fn sum(parts: impl IntoIterator<Item = Linear>) -> Option<Linear> {
        let mut total = Linear::default();
        for part in parts {
            total.constant = total.constant.checked_add(part.constant)?;
            total.terms.extend(part.terms);
        }
        total.merged()
    }

    /// `self - other`.
    pub(super) fn minus(self, other: &Linear) -> Option<Linear> {
        self.plus(&other.clone().times(-1)?)
    }

    /// Repeated variables merged (first appearance order), zeros dropped.
    fn merged(mut self) -> Option<Linear> {
        if self.terms.len() > 1 {
            let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(self.terms.len());
            let mut slot: std::collections::HashMap<VarId, usize> = std::collections::HashMap::new();
            for &(coefficient, var) in &self.terms {
                match slot.get(&var) {
                    Some(&at) => merged[at].0 = merged[at].0.checked_add(coefficient)?,
                    None => {
                        slot.insert(var, merged.len());
                        merged.push((coefficient, var));
                    }
                }
            }
            self.terms = merged;
        }
        self.terms.retain(|&(coefficient, _)| coefficient != 0);
        Some(self)
    }

    /// The least and greatest values over the variables' domains, or
    /// `None` beyond `i128`.
    pub(super) fn bounds(&self, model: &Model) -> Option<(i128, i128)> {
        let mut low = self.constant;
        let mut high = self.constant;
        for &(coefficient, var) in &self.terms {
            let domain = model.domain(var)?;
            let (min, max) = (i128::from(domain.min()?), i128::from(domain.max()?));
            let (a, b) = (coefficient.checked_mul(min)?, coefficient.checked_mul(max)?);
            low = low.checked_add(a.min(b))?;
            high = high.checked_add(a.max(b))?;
        }
        Some((low, high))
    }

    /// The engine's expression. The coefficients go as they are: one that
    /// two in-range coefficients of a variable merged past `±2^62` (or past
    /// 64 bits) the engine keeps as several in-range terms, so the sum stays
    /// exact; the constant too, whatever its size (a right-hand side past
    /// `±2^62` that sums of values near `2^62` reach).
    pub(super) fn to_expr(&self) -> LinearExpr {
        let mut expr = LinearExpr::wide_constant(self.constant);
        for &(coefficient, var) in &self.terms {
            expr += LinearExpr::wide_term(coefficient, var);
        }
        expr
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_merge_and_constants_fold() {
        let mut model = Model::new();
        let x = model.new_var(-2..=3).unwrap();
        let y = model.new_var(0..=1).unwrap();
        let e = Linear::var(x).times(2).unwrap().plus(&Linear::var(y)).unwrap().plus(&Linear::constant(5)).unwrap();
        assert_eq!(e.bounds(&model), Some((1, 12)));
        let zero = e.clone().minus(&e).unwrap();
        assert_eq!(zero.as_constant(), Some(0), "x - x cancels");
        assert_eq!(Linear::literal(!Lit::positive(y)).bounds(&model), Some((0, 1)));
        assert_eq!(Linear::var(x).as_var(), Some(x));
        assert!(Linear::constant(i128::MAX).plus(&Linear::constant(1)).is_none());
        assert_eq!(Linear::constant(1 << 100).to_expr().to_string(), (1i128 << 100).to_string());
    }
}
