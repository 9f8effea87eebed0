//! What the propagators of the globals share when a variable appears at several
//! places of their scope: they propagate the relaxation in which each place is a
//! variable of its own (sound, since every solution of the constraint is one of
//! the relaxation), and check the constraint itself once the scope is fixed.

use crate::constraint::Constraint;
use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::{Conflict, PropagationResult};

/// Whether some variable appears twice in `scope`.
pub(crate) fn has_repeats(scope: &[VarId]) -> bool {
    let mut sorted: Vec<VarId> = scope.to_vec();
    sorted.sort_unstable_by_key(|v| v.index);
    sorted.windows(2).any(|pair| pair[0] == pair[1])
}

/// A conflict when every scope variable is fixed and the fixed values violate
/// `constraint`: what a propagator of a relaxation adds so that it detects
/// every violation of a full assignment. `buffer` holds the tuple.
pub(crate) fn check_when_fixed(
    ctx: &mut Context<'_>,
    constraint: &dyn Constraint,
    buffer: &mut Vec<i64>,
) -> PropagationResult {
    buffer.clear();
    for &var in constraint.scope() {
        match ctx.fixed_value(var) {
            Some(value) => buffer.push(value),
            None => return Ok(()),
        }
    }
    ctx.count_checks(1);
    if constraint.is_satisfied(buffer) { Ok(()) } else { Err(Conflict) }
}
