//! The common fixpoints the system reached on the current branch, for a
//! call to start from the nearest one.
//!
//! A call only needs to look again at the constraints whose variables
//! changed since a common fixpoint of them all whose domains hold the
//! current ones (see `System::load`). The nearest such point is the end of
//! the last successful call on the current branch: after a backtrack or a
//! backjump, that is the end of a call at the level the search came back
//! to, not the last successful call before it, deeper in the branch just
//! undone (whose domains do not hold the current ones). Each successful
//! call keeps its masks under a new id and stores the id in a reversible
//! integer, which the solver's undo takes back with the domains: the id it
//! holds is always that of the newest fixpoint the domains descend from,
//! and every fixpoint kept after it was undone.

use crate::kernel::{Context, ReversibleInt};

/// The most fixpoints kept: past it a call keeps none, and the branch below
/// starts from the last one kept (farther, still right).
const KEPT: usize = 64;

/// The fixpoints of the current branch, oldest first (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Fixpoints {
    /// The masks of each, `n` words apiece, and its id.
    masks: Vec<u64>,
    ids: Vec<i64>,
    /// The id of the newest fixpoint the domains descend from (0 for none),
    /// restored on backtrack; `None` before `initialise`.
    newest: Option<ReversibleInt>,
    /// The next id to give.
    next: i64,
    /// Whether the last fixpoint kept is the one `newest` names.
    found: bool,
}

impl Fixpoints {
    /// Allocates the reversible integer (when the solver is built).
    pub(super) fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.newest = Some(ctx.new_reversible_int(0));
        self.next = 1;
    }

    /// Forgets the fixpoints undone since the last call (of `n` masks each).
    pub(super) fn forget_undone(&mut self, ctx: &Context<'_>, n: usize) {
        let Some(cell) = self.newest else { return };
        let id = ctx.get(cell);
        while self.ids.last().is_some_and(|&top| top > id) {
            self.ids.pop();
        }
        self.masks.truncate(self.ids.len() * n);
        self.found = self.ids.last() == Some(&id);
    }

    /// The masks of the newest fixpoint the domains descend from (each of
    /// its masks holds the current one), after `forget_undone`; `None`
    /// when there is none.
    pub(super) fn current(&self, n: usize) -> Option<&[u64]> {
        self.found.then(|| &self.masks[self.masks.len() - n..])
    }

    /// Keeps `masks`, a common fixpoint that the domains are at now.
    pub(super) fn keep(&mut self, masks: &[u64], ctx: &mut Context<'_>) {
        let Some(cell) = self.newest else { return };
        if self.ids.len() == KEPT {
            return;
        }
        if self.ids.capacity() == 0 {
            // Once, so that the search does not allocate after its first run.
            self.ids.reserve_exact(KEPT);
            self.masks.reserve_exact(KEPT * masks.len());
        }
        self.ids.push(self.next);
        self.masks.extend_from_slice(masks);
        ctx.set(cell, self.next);
        self.next += 1;
        self.found = true;
    }
}
