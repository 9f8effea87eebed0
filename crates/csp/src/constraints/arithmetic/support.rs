//! Domain consistency for `z = f(x, y)` (and `z = f(x)`) by enumerating the
//! operands' values: a value stays when it takes part in a tuple whose result
//! is in `z`'s domain. One pass reaches the fixpoint: the supports of the
//! values kept are kept too.

use super::Operation;
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, PropagationResult};

/// Buffers reused from call to call.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    xs: Vec<i64>,
    ys: Vec<i64>,
    x_supported: Vec<bool>,
    y_supported: Vec<bool>,
    results: Vec<i64>,
}

/// Keeps the supported values of `x`, `y` and `z` (`y == x` for a unary
/// operation, or when the operands are one variable). A variable that
/// appears twice takes one value: `x * x` only pairs a value with itself,
/// and `z` equal to an operand must equal it.
pub(super) fn propagate(
    ctx: &mut Context<'_>,
    operation: Operation,
    x: VarId,
    y: VarId,
    z: VarId,
    scratch: &mut Scratch,
) -> PropagationResult {
    let Scratch { xs, ys, x_supported, y_supported, results } = scratch;
    let same = x == y;
    xs.clear();
    xs.extend(ctx.values(x));
    ys.clear();
    if !same {
        ys.extend(ctx.values(y));
    }
    x_supported.clear();
    x_supported.resize(xs.len(), false);
    y_supported.clear();
    y_supported.resize(ys.len(), false);
    results.clear();
    let mut checks = 0u64;
    for (i, &a) in xs.iter().enumerate() {
        let partners: &[i64] = if same { std::slice::from_ref(&xs[i]) } else { ys };
        for (j, &b) in partners.iter().enumerate() {
            checks += 1;
            let Some(result) = operation.apply(a, b).and_then(|r| i64::try_from(r).ok()) else { continue };
            let agrees = (z != x || result == a) && (z != y || result == b);
            if agrees && ctx.contains(z, result) {
                x_supported[i] = true;
                if !same {
                    y_supported[j] = true;
                }
                results.push(result);
            }
        }
    }
    ctx.count_checks(checks);
    retain_supported(ctx, x, xs, x_supported)?;
    if !same {
        retain_supported(ctx, y, ys, y_supported)?;
    }
    results.sort_unstable();
    results.dedup();
    let (Some(&low), Some(&high)) = (results.first(), results.last()) else {
        // No tuple at all (`x` has lost every value, or, as an interval, its
        // bounds: its inner values stay).
        return Err(Conflict);
    };
    ctx.set_min(z, low)?;
    ctx.set_max(z, high)?;
    if ctx.size(z) > results.len() {
        ctx.retain(z, |v| results.binary_search(&v).is_ok())?;
    }
    Ok(())
}

/// Removes the values of `var` (listed in `values`, ascending) whose flag is
/// not set; an interval's bounds move to the first and the last supported
/// value (its inner values stay).
fn retain_supported(ctx: &mut Context<'_>, var: VarId, values: &[i64], supported: &[bool]) -> PropagationResult {
    if supported.iter().all(|&s| s) {
        return Ok(());
    }
    if ctx.is_interval(var) {
        let low = supported.iter().position(|&s| s).ok_or(Conflict)?;
        let high = supported.iter().rposition(|&s| s).ok_or(Conflict)?;
        ctx.set_min(var, values[low])?;
        ctx.set_max(var, values[high])?;
        return Ok(());
    }
    ctx.retain(var, |v| values.binary_search(&v).is_ok_and(|i| supported[i]))?;
    Ok(())
}
