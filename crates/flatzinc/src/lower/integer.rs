//! The integer builtins: comparisons (`int_eq`, `int_ne`, `int_le`,
//! `int_lt`, and their boolean twins), linear sums (`int_lin_eq`,
//! `int_lin_le`, and the forms of `int_lin_ne` that are a not-equal with an
//! offset), and membership in a constant set (`set_in`).
//!
//! Constants are folded: a comparison of two constants, or a sum without
//! variables, is decided here, and a false one makes the model inconsistent.

use csp::{Relation, VarId};

use crate::ast::SetLiteral;
use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, Value, model_error};

/// The four comparisons of two values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Comparison {
    Eq,
    Ne,
    Le,
    Lt,
}

impl Comparison {
    fn holds(self, x: i64, y: i64) -> bool {
        match self {
            Comparison::Eq => x == y,
            Comparison::Ne => x != y,
            Comparison::Le => x <= y,
            Comparison::Lt => x < y,
        }
    }
}

pub(super) fn eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Eq)
}

pub(super) fn ne(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Ne)
}

pub(super) fn le(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Le)
}

pub(super) fn lt(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    compare(lowering, call, Comparison::Lt)
}

/// `x op y` for the first two arguments. A variable compared with itself is
/// decided here (the engine's binary constraints take two variables).
fn compare(lowering: &mut Lowering, call: Call<'_>, comparison: Comparison) -> Result<(), LowerError> {
    let (x, y) = (call.value(lowering, 0)?, call.value(lowering, 1)?);
    let decided = match (x, y) {
        (Value::Const(a), Value::Const(b)) => Some(comparison.holds(a, b)),
        (Value::Var(a), Value::Var(b)) if a == b => Some(comparison.holds(0, 0)),
        _ => None,
    };
    if let Some(holds) = decided {
        if !holds {
            let line = call.line();
            lowering.fail(|| format!("line {line}: {} is false", call.item.name));
        }
        return Ok(());
    }
    let (a, b) = (lowering.var(x, call.line())?, lowering.var(y, call.line())?);
    let model = &mut lowering.model;
    let posted = match comparison {
        Comparison::Eq => model.equal(a, b),
        Comparison::Ne => model.not_equal(a, b),
        Comparison::Le => model.less_or_equal(a, b),
        Comparison::Lt => model.less_than(a, b),
    };
    posted.map(drop).map_err(|e| model_error(e, call.line()))
}

pub(super) fn lin_eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let terms = linear_terms(lowering, call)?;
    let rhs = call.int(lowering, 2)?;
    post_linear(lowering, call, &terms, Relation::Eq, rhs)
}

pub(super) fn lin_le(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let terms = linear_terms(lowering, call)?;
    let rhs = call.int(lowering, 2)?;
    post_linear(lowering, call, &terms, Relation::Le, rhs)
}

/// `sum(a[i] * x[i]) != c` where it is a not-equal: over one variable
/// (`a * x != c`) or two with opposite coefficients (`a * (x - y) != c`,
/// which is `x != y + c / a`). The general form needs a linear not-equal
/// propagator, which the engine does not have yet.
pub(super) fn lin_ne(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let terms = linear_terms(lowering, call)?;
    let rhs = call.int(lowering, 2)?;
    let line = call.line();
    let (vars, rhs) = fold(call, &terms, rhs)?;
    match vars.as_slice() {
        [] => {
            if rhs == 0 {
                lowering.fail(|| format!("line {line}: int_lin_ne on constants is false"));
            }
            Ok(())
        }
        &[(a, x)] => {
            // a * x != rhs: only x = rhs / a can violate it.
            if rhs % i128::from(a) != 0 {
                return Ok(());
            }
            match i64::try_from(rhs / i128::from(a)) {
                Ok(value) if lowering.model.domain(x).is_some_and(|d| d.contains(value)) => {
                    let fixed = lowering.var(Value::Const(value), line)?;
                    lowering.model.not_equal(x, fixed).map(drop).map_err(|e| model_error(e, line))
                }
                _ => Ok(()),
            }
        }
        &[(a, x), (b, y)] if i128::from(a) == -i128::from(b) => {
            if rhs % i128::from(a) != 0 {
                return Ok(());
            }
            match i64::try_from(rhs / i128::from(a)) {
                Ok(offset) if offset.unsigned_abs() <= csp::MAX_VALUE as u64 => {
                    lowering.model.not_equal_offset(x, y, offset).map(drop).map_err(|e| model_error(e, line))
                }
                // |x - y| never reaches such an offset.
                _ => Ok(()),
            }
        }
        [_, _] => Err(call.unsupported("two variables whose coefficients are not opposite")),
        more => Err(call.unsupported(format!("{} variables", more.len()))),
    }
}

/// The `(coefficient, value)` pairs of a linear builtin's first two arguments.
fn linear_terms(lowering: &Lowering, call: Call<'_>) -> Result<Vec<(i64, Value)>, LowerError> {
    let coefficients = call.ints(lowering, 0)?;
    let values = call.values(lowering, 1)?;
    if coefficients.len() != values.len() {
        return Err(call.invalid(format!("{} coefficients for {} values", coefficients.len(), values.len())));
    }
    Ok(coefficients.into_iter().zip(values).collect())
}

/// The variable terms (repeated variables merged, zero coefficients dropped)
/// and the right-hand side once the constant terms are moved to it, in i128.
fn fold(call: Call<'_>, terms: &[(i64, Value)], rhs: i64) -> Result<(Vec<(i64, VarId)>, i128), LowerError> {
    let overflow = || call.unsupported("its constants overflow 128-bit arithmetic");
    let mut rhs = i128::from(rhs);
    let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
    for &(coefficient, value) in terms {
        match value {
            Value::Const(constant) => {
                rhs = rhs.checked_sub(i128::from(coefficient) * i128::from(constant)).ok_or_else(overflow)?;
            }
            Value::Var(var) => match merged.iter_mut().find(|(_, v)| *v == var) {
                Some((sum, _)) => *sum += i128::from(coefficient),
                None => merged.push((i128::from(coefficient), var)),
            },
        }
    }
    let vars = merged
        .into_iter()
        .filter(|(coefficient, _)| *coefficient != 0)
        .map(|(coefficient, var)| i64::try_from(coefficient).map(|c| (c, var)).map_err(|_| overflow()))
        .collect::<Result<_, _>>()?;
    Ok((vars, rhs))
}

/// `sum(terms) relation rhs`, with constants folded; decided here when no
/// variable is left.
pub(super) fn post_linear(
    lowering: &mut Lowering,
    call: Call<'_>,
    terms: &[(i64, Value)],
    relation: Relation,
    rhs: i64,
) -> Result<(), LowerError> {
    let line = call.line();
    let (vars, rhs) = fold(call, terms, rhs)?;
    if vars.is_empty() {
        let holds = match relation {
            Relation::Eq => rhs == 0,
            Relation::Le => 0 <= rhs,
            Relation::Ge => 0 >= rhs,
            Relation::Ne => rhs != 0,
            Relation::Lt => 0 < rhs,
            Relation::Gt => 0 > rhs,
        };
        if !holds {
            lowering.fail(|| format!("line {line}: {} on constants is false", call.item.name));
        }
        return Ok(());
    }
    let rhs = i64::try_from(rhs).map_err(|_| call.unsupported("its right-hand side is beyond 64 bits"))?;
    lowering.model.linear(&vars, relation, rhs).map(drop).map_err(|e| model_error(e, line))
}

/// `x in S` for a constant set: two bounds for a range, a one-column table
/// of the values in both `S` and the domain otherwise.
pub(super) fn set_in(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let set = call.set(lowering, 1)?;
    match call.value(lowering, 0)? {
        Value::Const(value) => {
            if !set.contains(value) {
                lowering.fail(|| format!("line {line}: set_in on constants is false"));
            }
            Ok(())
        }
        Value::Var(x) => match set {
            SetLiteral::Range(lo, hi) => {
                let x = Value::Var(x);
                post_linear(lowering, call, &[(1, x)], Relation::Ge, lo)?;
                post_linear(lowering, call, &[(1, x)], Relation::Le, hi)
            }
            SetLiteral::Values(_) => {
                let domain = lowering.model.domain(x);
                let rows: Vec<Vec<i64>> = set
                    .values()
                    .into_iter()
                    .filter(|v| domain.is_some_and(|d| d.contains(*v)))
                    .map(|v| vec![v])
                    .collect();
                if rows.is_empty() {
                    lowering.fail(|| format!("line {line}: set_in leaves no value"));
                    return Ok(());
                }
                lowering.model.table(&[x], &rows).map(drop).map_err(|e| model_error(e, line))
            }
        },
    }
}
