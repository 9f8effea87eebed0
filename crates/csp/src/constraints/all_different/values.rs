//! The shifted values an all-different can see, numbered from 0: what the
//! matching's graph and the cover's places are indexed by.

use crate::ids::VarId;
use crate::kernel::Context;

/// The shifted values `x_i + o_i` the constraint can see, numbered from 0.
/// (In `i128`: a value and an offset may each be `2^62`.)
#[derive(Debug)]
pub(super) enum LocalValues {
    /// Ids are `value - base`.
    Dense { base: i128, span: usize },
    /// Ids are positions in a sorted list (for scattered values).
    Sparse(Vec<i128>),
}

impl LocalValues {
    /// Every shifted value of the variables' current domains (bitsets, not
    /// intervals): dense unless those values are scattered.
    pub(super) fn of(vars: &[VarId], offsets: &[i64], ctx: &Context<'_>) -> LocalValues {
        let mut lo = i128::MAX;
        let mut hi = i128::MIN;
        let mut total: u64 = 0;
        for (&var, &offset) in vars.iter().zip(offsets) {
            lo = lo.min(i128::from(ctx.min(var)) + i128::from(offset));
            hi = hi.max(i128::from(ctx.max(var)) + i128::from(offset));
            total += ctx.size(var) as u64;
        }
        if vars.is_empty() {
            return LocalValues::Dense { base: 0, span: 0 };
        }
        let span = (hi - lo + 1) as u128;
        if span <= u128::from(2 * total + 64) {
            return LocalValues::Dense { base: lo, span: span as usize };
        }
        let mut all: Vec<i128> = Vec::new();
        for (&var, &offset) in vars.iter().zip(offsets) {
            all.extend(ctx.values(var).map(|v| i128::from(v) + i128::from(offset)));
        }
        all.sort_unstable();
        all.dedup();
        LocalValues::Sparse(all)
    }

    /// The number of ids.
    pub(super) fn len(&self) -> usize {
        match self {
            LocalValues::Dense { span, .. } => *span,
            LocalValues::Sparse(values) => values.len(),
        }
    }

    /// The id of a shifted value of an initial domain.
    #[inline]
    pub(super) fn id(&self, shifted: i128) -> u32 {
        match self {
            LocalValues::Dense { base, .. } => (shifted - base) as u32,
            LocalValues::Sparse(values) => values.binary_search(&shifted).expect("a value of an initial domain") as u32,
        }
    }

    /// The shifted value of an id.
    #[inline]
    pub(super) fn value(&self, id: u32) -> i128 {
        match self {
            LocalValues::Dense { base, .. } => base + i128::from(id),
            LocalValues::Sparse(values) => values[id as usize],
        }
    }
}
