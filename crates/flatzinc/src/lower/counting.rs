//! The counting globals, as the mznlib declares them: `fzn_count_eq`,
//! `fzn_among`, `fzn_at_least_int`, `fzn_at_most_int`, `fzn_exactly_int`,
//! the four `fzn_global_cardinality` forms and `fzn_nvalue`, each the
//! engine's counting constraint (domain consistent when the variables are
//! distinct; `nvalue` with bounds on its count). An empty array counts
//! nothing, and a value the cover lists twice is counted once for each
//! (their counts are equal), which the engine, wanting distinct cover values,
//! gets merged.

use std::collections::HashMap;

use csp::{Relation as Comparison, VarId};

use crate::error::LowerError;

use super::arguments::Call;
use super::condition::{Enforcement, Relation, post};
use super::{Lowering, Value, model_error};

/// `count = n` for a counting constraint over no variables.
fn counts_nothing(lowering: &mut Lowering, call: Call<'_>, count: Value) -> Result<(), LowerError> {
    super::integer::equal(lowering, call, count, Value::Const(0))
}

/// `c = #{i : x[i] = y}` (`fzn_count_eq(x, y, c)`).
pub(super) fn count_eq(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    let (y, c) = (call.value(lowering, 1)?, call.value(lowering, 2)?);
    if values.is_empty() {
        return counts_nothing(lowering, call, c);
    }
    let xs = lowering.vars(&values, line)?;
    let (y, c) = (lowering.var(y, line)?, lowering.var(c, line)?);
    lowering.model.count(&xs, y, c).map(drop).map_err(|e| model_error(e, line))
}

/// `n = #{i : x[i] ∈ v}` (`fzn_among(n, x, v)`).
pub(super) fn among(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let n = call.value(lowering, 0)?;
    let values = call.values(lowering, 1)?;
    let set = call.set(lowering, 2)?;
    if values.is_empty() {
        return counts_nothing(lowering, call, n);
    }
    let xs = lowering.vars(&values, line)?;
    // Only the values the variables can take count: a wide range of a set
    // is cut down to the variables' span.
    let (min, max) = lowering.span(&xs);
    let counted = set.values_within(min, max);
    let n = lowering.var(n, line)?;
    lowering.model.among(n, &xs, &counted).map(drop).map_err(|e| model_error(e, line))
}

/// `fzn_at_least_int(n, x, v)`: at least `n` of `x` equal `v`.
pub(super) fn at_least(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    count_between(lowering, call, Comparison::Ge)
}

/// `fzn_at_most_int(n, x, v)`: at most `n` of `x` equal `v`.
pub(super) fn at_most(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    count_between(lowering, call, Comparison::Le)
}

/// `fzn_exactly_int(n, x, v)`: exactly `n` of `x` equal `v`.
pub(super) fn exactly(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    count_between(lowering, call, Comparison::Eq)
}

/// `#{i : x[i] = v} comparison n` for constants `n` and `v`.
fn count_between(lowering: &mut Lowering, call: Call<'_>, comparison: Comparison) -> Result<(), LowerError> {
    let line = call.line();
    let n = call.int(lowering, 0)?;
    let values = call.values(lowering, 1)?;
    let v = call.int(lowering, 2)?;
    if values.is_empty() {
        let relation = Relation::Constant(comparison.holds(0, i128::from(n)));
        return post(lowering, call, Enforcement::Always, relation);
    }
    let xs = lowering.vars(&values, line)?;
    let model = &mut lowering.model;
    let posted = match comparison {
        Comparison::Ge => model.at_least(n, &xs, v),
        Comparison::Le => model.at_most(n, &xs, v),
        _ => model.exactly(n, &xs, v),
    };
    posted.map(drop).map_err(|e| model_error(e, line))
}

/// The four forms of `global_cardinality`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cardinality {
    /// `counts[j] = #{i : x[i] = cover[j]}`.
    Counts { closed: bool },
    /// `low[j] <= #{i : x[i] = cover[j]} <= up[j]`.
    Bounds { closed: bool },
}

pub(super) fn global_cardinality(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    cardinality(lowering, call, Cardinality::Counts { closed: false })
}

pub(super) fn global_cardinality_closed(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    cardinality(lowering, call, Cardinality::Counts { closed: true })
}

pub(super) fn global_cardinality_low_up(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    cardinality(lowering, call, Cardinality::Bounds { closed: false })
}

pub(super) fn global_cardinality_low_up_closed(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    cardinality(lowering, call, Cardinality::Bounds { closed: true })
}

fn cardinality(lowering: &mut Lowering, call: Call<'_>, form: Cardinality) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    let cover = call.ints(lowering, 1)?;
    let closed = matches!(form, Cardinality::Counts { closed: true } | Cardinality::Bounds { closed: true });
    // Per cover value: its count, or its bounds.
    let (counts, bounds) = match form {
        Cardinality::Counts { .. } => (call.values(lowering, 2)?, Vec::new()),
        Cardinality::Bounds { .. } => {
            let (low, up) = (call.ints(lowering, 2)?, call.ints(lowering, 3)?);
            if low.len() != up.len() {
                return Err(call.invalid(format!("{} lower bounds for {} upper bounds", low.len(), up.len())));
            }
            (Vec::new(), low.into_iter().zip(up).collect::<Vec<_>>())
        }
    };
    let per_value = counts.len().max(bounds.len());
    if per_value != cover.len() {
        return Err(call.invalid(format!("{} cover values for {per_value} counts or bounds", cover.len())));
    }
    // A value listed twice: its counts are equal (one is kept), its bounds
    // meet. Each value's first place is looked up, not searched for: MiniZinc
    // writes a cover of one value per domain value (400,006 for
    // `alldifferent_except_0` over a domain of 400,001), and a linear search
    // per value took minutes.
    let mut distinct: Vec<i64> = Vec::with_capacity(cover.len());
    let mut first_place: HashMap<i64, usize> = HashMap::with_capacity(cover.len());
    let mut kept_counts: Vec<Value> = Vec::new();
    let mut kept_bounds: Vec<(i64, i64)> = Vec::new();
    for (j, &value) in cover.iter().enumerate() {
        match first_place.get(&value).copied() {
            Some(first) if bounds.is_empty() => super::integer::equal(lowering, call, kept_counts[first], counts[j])?,
            Some(first) => {
                let (low, up) = &mut kept_bounds[first];
                *low = (*low).max(bounds[j].0);
                *up = (*up).min(bounds[j].1);
            }
            None => {
                first_place.insert(value, distinct.len());
                distinct.push(value);
                if bounds.is_empty() {
                    kept_counts.push(counts[j]);
                } else {
                    kept_bounds.push(bounds[j]);
                }
            }
        }
    }
    if values.is_empty() {
        // Nothing is counted: every count is 0, every lower bound at most 0.
        for &count in &kept_counts {
            counts_nothing(lowering, call, count)?;
        }
        if kept_bounds.iter().any(|&(low, up)| low > 0 || up < 0) {
            lowering.fail(|| format!("line {line}: {} over no variable needs a count above 0", call.item.name));
        }
        return Ok(());
    }
    let xs = lowering.vars(&values, line)?;
    let model_result = if bounds.is_empty() {
        let counts: Vec<VarId> = lowering.vars(&kept_counts, line)?;
        let model = &mut lowering.model;
        if closed {
            model.global_cardinality_closed(&xs, &distinct, &counts)
        } else {
            model.global_cardinality(&xs, &distinct, &counts)
        }
    } else {
        let (low, up): (Vec<i64>, Vec<i64>) = kept_bounds.into_iter().unzip();
        let model = &mut lowering.model;
        if closed {
            model.global_cardinality_low_up_closed(&xs, &distinct, &low, &up)
        } else {
            model.global_cardinality_low_up(&xs, &distinct, &low, &up)
        }
    };
    model_result.map(drop).map_err(|e| model_error(e, line))
}

/// `n` is the number of distinct values of `x` (`fzn_nvalue(n, x)`).
pub(super) fn nvalue(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let n = call.value(lowering, 0)?;
    let values = call.values(lowering, 1)?;
    if values.is_empty() {
        return counts_nothing(lowering, call, n);
    }
    let xs = lowering.vars(&values, line)?;
    let n = lowering.var(n, line)?;
    lowering.model.nvalue(n, &xs).map(drop).map_err(|e| model_error(e, line))
}
