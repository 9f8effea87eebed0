//! One relation over lowered values, posted plain, reified or half-reified:
//! the one path every comparison, linear sum, set membership and piece of
//! logic of FlatZinc takes into the engine.
//!
//! A builtin first builds a [`Relation`]: constants are folded in (128-bit
//! arithmetic for sums), repeated variables merged, and a relation left
//! without variables is decided here ([`Relation::Constant`]). The rest is a
//! [`Condition`] of the engine, which [`Model::add`](csp::Model::add) posts
//! as its most specific native constraint, and [`Model::reify`](csp::Model::reify)
//! and [`Model::implies`](csp::Model::implies) tie to a literal. So
//! `int_le_reif(x, 3, r)` is `reify(r, x <= 3)`, `bool_clause` a clause with
//! watched literals, `int_lin_le_imp` a half-reified linear sum. A constant
//! control literal is folded too: `int_le_reif(x, y, true)` is `x <= y`, and
//! with `false` it is `x > y`.

use std::collections::{HashMap, HashSet};

use csp::{Condition, Domain, LinearExpr, Lit, MAX_COEFFICIENT, Relation as Comparison, VarId};

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, Value, model_error};

/// The most terms a linear sum's repeated variables are merged by scanning.
const LONG_SUM: usize = 16;

/// How a relation is posted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Enforcement {
    /// The relation holds (the plain builtins).
    Always,
    /// `r <-> relation` (the `_reif` builtins).
    Reified(Value),
    /// `r -> relation` (the `_imp` builtins).
    Implied(Value),
}

/// A relation over lowered values, constants folded.
#[derive(Debug)]
pub(super) enum Relation {
    /// A relation without variables: it holds or it does not.
    Constant(bool),
    /// A relation the engine posts.
    Condition(Condition),
}

impl Relation {
    /// `sum(terms) comparison rhs`. The constant terms move to the right-hand
    /// side and repeated variables merge, in 128-bit arithmetic; the engine
    /// takes a right-hand side of any size. A coefficient beyond the engine's
    /// range is decided by the bounds of the sum when it can be, and is an
    /// error naming the builtin otherwise.
    pub(super) fn linear(
        lowering: &Lowering,
        call: Call<'_>,
        terms: &[(i64, Value)],
        comparison: Comparison,
        rhs: i64,
    ) -> Result<Relation, LowerError> {
        let overflow = || call.unsupported("its constants overflow 128-bit arithmetic");
        let mut rhs = i128::from(rhs);
        let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
        // Each variable's place in `merged`, by a map for long sums (a scan
        // per term would be quadratic: 4 s for 10^5 terms).
        let mut places: HashMap<VarId, usize> = HashMap::new();
        let long = terms.len() > LONG_SUM;
        for &(coefficient, value) in terms {
            match value {
                Value::Const(constant) => {
                    rhs = rhs.checked_sub(i128::from(coefficient) * i128::from(constant)).ok_or_else(overflow)?;
                }
                Value::Var(var) => {
                    let place =
                        if long { places.get(&var).copied() } else { merged.iter().position(|&(_, v)| v == var) };
                    match place {
                        Some(k) => merged[k].0 += i128::from(coefficient),
                        None => {
                            if long {
                                places.insert(var, merged.len());
                            }
                            merged.push((i128::from(coefficient), var));
                        }
                    }
                }
            }
        }
        merged.retain(|&(coefficient, _)| coefficient != 0);
        if merged.is_empty() {
            return Ok(Relation::Constant(comparison.holds(0, rhs)));
        }
        // The engine keeps a merged coefficient beyond ±2^62 (up to
        // MAX_COEFFICIENT) as several in-range terms over its variable, and a
        // right-hand side of any size, so the sum stays exact.
        if merged.iter().any(|&(c, _)| c.unsigned_abs() > MAX_COEFFICIENT.unsigned_abs()) {
            // The sum's range over the declared domains: decided when every
            // value of the sum falls on one side.
            let (mut low, mut high) = (0i128, 0i128);
            for &(coefficient, var) in &merged {
                let domain = lowering.model.domain(var).expect("a variable of the model");
                let (min, max) = (i128::from(domain.min().unwrap_or(0)), i128::from(domain.max().unwrap_or(0)));
                let (a, b) = (coefficient.saturating_mul(min), coefficient.saturating_mul(max));
                low = low.saturating_add(a.min(b));
                high = high.saturating_add(a.max(b));
            }
            let (all, none) = match comparison {
                Comparison::Eq => (false, rhs < low || rhs > high),
                Comparison::Ne => (rhs < low || rhs > high, false),
                Comparison::Le => (high <= rhs, low > rhs),
                Comparison::Lt => (high < rhs, low >= rhs),
                Comparison::Ge => (low >= rhs, high < rhs),
                Comparison::Gt => (low > rhs, high <= rhs),
            };
            if all || none {
                return Ok(Relation::Constant(all));
            }
            return Err(call.unsupported("a coefficient beyond 2^68 that does not decide the sum"));
        }
        let expr: LinearExpr = merged.iter().map(|&(coefficient, var)| LinearExpr::wide_term(coefficient, var)).sum();
        Ok(Relation::Condition(expr.compare(comparison, LinearExpr::wide_constant(rhs))))
    }

    /// `x comparison y`.
    pub(super) fn compare(
        lowering: &Lowering,
        call: Call<'_>,
        x: Value,
        comparison: Comparison,
        y: Value,
    ) -> Result<Relation, LowerError> {
        Relation::linear(lowering, call, &[(1, x), (-1, y)], comparison, 0)
    }

    /// `x ∈ set`.
    pub(super) fn in_set(x: Value, set: Domain) -> Relation {
        match x {
            Value::Const(value) => Relation::Constant(set.contains(value)),
            Value::Var(var) => Relation::Condition(Condition::in_set(var, set)),
        }
    }

    /// At least one of `positive` is true or one of `negative` is false.
    pub(super) fn clause(positive: &[Value], negative: &[Value]) -> Relation {
        let mut literals: Vec<Lit> = Vec::with_capacity(positive.len() + negative.len());
        // The literals so far, looked up rather than searched for (a linear
        // search per literal is quadratic in a long clause).
        let mut seen: HashSet<Lit> = HashSet::with_capacity(positive.len() + negative.len());
        let signed = positive.iter().map(|&v| (v, false)).chain(negative.iter().map(|&v| (v, true)));
        for (value, negated) in signed {
            match value {
                // A true literal satisfies the clause; a false one drops out.
                Value::Const(constant) if (constant != 0) != negated => return Relation::Constant(true),
                Value::Const(_) => {}
                Value::Var(var) => {
                    let literal = if negated { Lit::negative(var) } else { Lit::positive(var) };
                    if seen.contains(&!literal) {
                        return Relation::Constant(true);
                    }
                    if seen.insert(literal) {
                        literals.push(literal);
                    }
                }
            }
        }
        if literals.is_empty() { Relation::Constant(false) } else { Relation::Condition(Condition::or(&literals)) }
    }

    /// Every one of `values` is true.
    pub(super) fn and(values: &[Value]) -> Relation {
        // and(as) is not(or(not as)).
        match Relation::clause(&[], values) {
            Relation::Constant(holds) => Relation::Constant(!holds),
            Relation::Condition(condition) => Relation::Condition(!condition),
        }
    }

    /// An odd number of `values` are true (`odd`), or an even number.
    pub(super) fn parity(values: &[Value], odd: bool) -> Relation {
        let mut odd = odd;
        let mut vars: Vec<VarId> = Vec::with_capacity(values.len());
        for &value in values {
            match value {
                Value::Const(constant) => odd ^= constant != 0,
                // A variable twice adds an even count: it cancels out.
                Value::Var(var) => match vars.iter().position(|&v| v == var) {
                    Some(i) => {
                        vars.swap_remove(i);
                    }
                    None => vars.push(var),
                },
            }
        }
        if vars.is_empty() {
            return Relation::Constant(!odd);
        }
        let literals: Vec<Lit> = vars.into_iter().map(Lit::positive).collect();
        let condition = Condition::xor(&literals);
        Relation::Condition(if odd { condition } else { !condition })
    }

    /// The relation that holds exactly when this one does not.
    fn negation(self) -> Relation {
        match self {
            Relation::Constant(holds) => Relation::Constant(!holds),
            Relation::Condition(condition) => Relation::Condition(!condition),
        }
    }
}

/// Posts `relation` under `enforcement` for the builtin `call`.
pub(super) fn post(
    lowering: &mut Lowering,
    call: Call<'_>,
    enforcement: Enforcement,
    relation: Relation,
) -> Result<(), LowerError> {
    let line = call.line();
    let (relation, control) = match enforcement {
        Enforcement::Always => (relation, None),
        Enforcement::Reified(Value::Const(truth)) => (if truth != 0 { relation } else { relation.negation() }, None),
        Enforcement::Implied(Value::Const(truth)) => {
            if truth == 0 {
                return Ok(());
            }
            (relation, None)
        }
        Enforcement::Reified(Value::Var(var)) => (relation, Some((Lit::positive(var), false))),
        Enforcement::Implied(Value::Var(var)) => (relation, Some((Lit::positive(var), true))),
    };
    let model = &mut lowering.model;
    let posted = match (relation, control) {
        (Relation::Constant(true), None) => return Ok(()),
        (Relation::Constant(false), None) => {
            lowering.fail(|| format!("line {line}: {} is false", call.item.name));
            return Ok(());
        }
        // r -> true holds whatever r is.
        (Relation::Constant(true), Some((_, true))) => return Ok(()),
        // r <-> holds, and r -> false: the literal is decided.
        (Relation::Constant(holds), Some((literal, _))) => {
            model.add(Condition::in_set(literal.var(), [literal.value_for(holds)]))
        }
        (Relation::Condition(condition), None) => model.add(condition),
        (Relation::Condition(condition), Some((literal, false))) => model.reify(literal, condition),
        (Relation::Condition(condition), Some((literal, true))) => model.implies(literal, condition),
    };
    posted.map(drop).map_err(|e| model_error(e, line))
}
