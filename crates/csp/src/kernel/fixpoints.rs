//! The fixpoints a propagator's successful calls reached on the current
//! branch, for a call to start from the nearest one.
//!
//! An incremental propagator that keeps state of its own (bit masks, bit
//! boards) between calls need only look again at what changed since a
//! fixpoint of its rules whose domains hold the current ones. The nearest
//! such point is the end of the last successful call on the current branch:
//! after a backtrack or a backjump, that is the end of a call at the level
//! the search came back to, not the last successful call before it, deeper in
//! the branch just undone (whose domains do not hold the current ones). Each
//! successful call keeps its state under a new id and stores the id in a
//! reversible integer, which the solver's undo takes back with the domains:
//! the id it holds is always that of the newest fixpoint the domains descend
//! from, and every fixpoint kept after it was undone.
//!
//! The all-different system keeps its masks here (one `u64` a variable), the
//! sudoku crate's 9x9 band propagator its boards (one item a fixpoint), a
//! long among the trail point it read the domains at (one item).

use super::context::Context;
use super::trail::ReversibleInt;

/// The fewest fixpoints a branch keeps, however wide they are: past the most
/// kept (see [`BUDGET`]) a call keeps none, and the branch below starts from
/// the last one kept (farther, still right).
const KEPT: usize = 64;

/// The bytes a branch's fixpoints may take, when more than [`KEPT`] fit: a
/// call below the last one kept reads every change since it, so that a
/// node's cost grows with its depth past it. With 64 kept, a 49x49 sudoku's
/// nodes 650 deep cost about 1.9 M instructions each, most of them the
/// all-different system reading its domains again (BENCHMARKS.md, "Big
/// grids: 49x49 and 64x64"). 256 MiB holds about 3,500 of a 49x49 grid's
/// (75 KiB each) and 2,000 of a 64x64 grid's (128 KiB): taken only as the
/// branch goes that deep.
const BUDGET: usize = 256 << 20;

/// The fixpoints of the current branch, oldest first, each `width` items of
/// `T` (see the module docs). Allocate its reversible integer in
/// [`Propagator::initialise`](crate::Propagator::initialise); then, in each
/// call, [`forget_undone`](Fixpoints::forget_undone) first, start from
/// [`current`](Fixpoints::current), and [`keep`](Fixpoints::keep) the state
/// a successful call ends in.
#[derive(Debug)]
pub struct Fixpoints<T> {
    /// The items of each, `width` apiece, and its id.
    items: Vec<T>,
    ids: Vec<i64>,
    width: usize,
    /// The id of the newest fixpoint the domains descend from (0 for none),
    /// restored on backtrack; `None` before `initialise`.
    newest: Option<ReversibleInt>,
    /// The next id to give.
    next: i64,
    /// Whether the last fixpoint kept is the one `newest` names.
    found: bool,
    /// The most kept at once (see [`BUDGET`]).
    most: usize,
}

impl<T: Copy> Fixpoints<T> {
    /// None yet, each of `width` items when kept. Nothing is kept before
    /// [`initialise`](Fixpoints::initialise).
    pub fn new(width: usize) -> Fixpoints<T> {
        let most = BUDGET / (width * std::mem::size_of::<T>()).max(1);
        Fixpoints::with_most(width, most.max(KEPT))
    }

    /// [`new`](Fixpoints::new), keeping at most `most` at once.
    pub(crate) fn with_most(width: usize, most: usize) -> Fixpoints<T> {
        Fixpoints { items: Vec::new(), ids: Vec::new(), width, newest: None, next: 0, found: false, most }
    }

    /// Allocates the reversible integer (when the solver is built: from
    /// [`Propagator::initialise`](crate::Propagator::initialise)).
    pub fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.newest = Some(ctx.new_reversible_int(0));
        self.next = 1;
    }

    /// Forgets the fixpoints undone since the last call.
    pub fn forget_undone(&mut self, ctx: &Context<'_>) {
        let Some(cell) = self.newest else { return };
        let id = ctx.get(cell);
        while self.ids.last().is_some_and(|&top| top > id) {
            self.ids.pop();
        }
        self.items.truncate(self.ids.len() * self.width);
        self.found = self.ids.last() == Some(&id);
    }

    /// The items of the newest fixpoint the domains descend from (whose
    /// domains hold the current ones), after
    /// [`forget_undone`](Fixpoints::forget_undone); `None` when there is none.
    #[inline]
    pub fn current(&self) -> Option<&[T]> {
        self.found.then(|| &self.items[self.items.len() - self.width..])
    }

    /// The id of the newest fixpoint the domains descend from (see
    /// [`current`](Fixpoints::current)): ids are never given twice.
    #[inline]
    pub fn current_id(&self) -> Option<i64> {
        self.found.then(|| self.ids[self.ids.len() - 1])
    }

    /// How many fixpoints are kept (after
    /// [`forget_undone`](Fixpoints::forget_undone), those on the current
    /// branch, oldest first; the newest is [`current`](Fixpoints::current)
    /// when the domains descend from it): for a caller that keeps something
    /// of its own beside each.
    #[inline]
    pub fn kept(&self) -> usize {
        self.ids.len()
    }

    /// Keeps `items` (`width` of them), a fixpoint that the domains are at
    /// now.
    pub fn keep(&mut self, items: &[T], ctx: &mut Context<'_>) {
        self.keep_with(ctx, |kept| kept.extend_from_slice(items));
    }

    /// [`keep`](Fixpoints::keep) of the `width` items that `fill` appends
    /// (for a state in several parts, copied once). Out of line: inlined
    /// into the sudoku band propagator, its call cost 17clue 0.3% more
    /// instructions (callgrind).
    #[inline(never)]
    pub fn keep_with(&mut self, ctx: &mut Context<'_>, fill: impl FnOnce(&mut Vec<T>)) {
        let Some(cell) = self.newest else { return };
        if self.ids.len() == self.most {
            return;
        }
        if self.ids.capacity() == 0 {
            // Once, so that the search does not allocate after its first run
            // while its branches are at most `KEPT` deep; deeper ones grow
            // the vectors as they first go deeper.
            self.ids.reserve_exact(KEPT.min(self.most));
            self.items.reserve_exact(KEPT.min(self.most) * self.width);
        }
        fill(&mut self.items);
        debug_assert_eq!(self.items.len(), (self.ids.len() + 1) * self.width);
        self.ids.push(self.next);
        ctx.set(cell, self.next);
        self.next += 1;
        self.found = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::kernel::context::Assigned;
    use crate::kernel::domains::State;

    /// Runs `f` with a context on `state`.
    fn with<R>(state: &mut State, f: impl FnOnce(&mut Context<'_>) -> R) -> R {
        let (mut pruned, mut checks) = (0, 0);
        let mut ctx = Context::new(state, 0, 0, Assigned::Fixed, &mut pruned, &mut checks, &mut []);
        f(&mut ctx)
    }

    #[test]
    fn a_call_starts_from_the_newest_fixpoint_the_domains_descend_from() {
        let mut state = State::new(&[Domain::range(1, 9)], u64::MAX).unwrap();
        let mut fixpoints = Fixpoints::<u16>::new(2);
        with(&mut state, |ctx| {
            // Before `initialise`, nothing is kept.
            fixpoints.keep(&[1, 2], ctx);
            fixpoints.forget_undone(ctx);
            assert_eq!(fixpoints.current(), None);
            fixpoints.initialise(ctx);
            fixpoints.forget_undone(ctx);
            assert_eq!(fixpoints.current(), None);
            fixpoints.keep(&[1, 2], ctx);
        });
        let root = state.mark();
        with(&mut state, |ctx| {
            fixpoints.forget_undone(ctx);
            assert_eq!(fixpoints.current(), Some(&[1, 2][..]));
            fixpoints.keep(&[3, 4], ctx);
        });
        let deeper = state.mark();
        with(&mut state, |ctx| fixpoints.keep(&[5, 6], ctx));
        // Back one level: the newest is the one kept there.
        state.undo_to(deeper);
        with(&mut state, |ctx| {
            fixpoints.forget_undone(ctx);
            assert_eq!(fixpoints.current(), Some(&[3, 4][..]));
            fixpoints.keep(&[7, 8], ctx);
        });
        // Back to the root: the first one.
        state.undo_to(root);
        with(&mut state, |ctx| {
            fixpoints.forget_undone(ctx);
            assert_eq!(fixpoints.current(), Some(&[1, 2][..]));
        });
    }

    #[test]
    fn narrow_fixpoints_are_kept_deeper_than_the_fewest_wide_ones_as_deep() {
        assert_eq!(Fixpoints::<u64>::new(BUDGET).most, KEPT);
        assert_eq!(Fixpoints::<u64>::new(BUDGET / 8 / 1000).most, 1000);
        let mut state = State::new(&[Domain::range(1, 9)], u64::MAX).unwrap();
        let mut fixpoints = Fixpoints::<u64>::new(2);
        with(&mut state, |ctx| fixpoints.initialise(ctx));
        for i in 0..4 * KEPT as u64 {
            with(&mut state, |ctx| {
                fixpoints.forget_undone(ctx);
                fixpoints.keep(&[i, i + 1], ctx);
                assert_eq!(fixpoints.current(), Some(&[i, i + 1][..]));
            });
        }
    }

    #[test]
    fn past_the_most_kept_the_branch_below_starts_from_the_last_one() {
        let mut state = State::new(&[Domain::range(1, 9)], u64::MAX).unwrap();
        let mut fixpoints = Fixpoints::<usize>::with_most(1, KEPT);
        with(&mut state, |ctx| fixpoints.initialise(ctx));
        let mut marks = Vec::new();
        for i in 0..KEPT + 10 {
            marks.push(state.mark());
            with(&mut state, |ctx| {
                fixpoints.forget_undone(ctx);
                fixpoints.keep(&[i], ctx);
                assert_eq!(fixpoints.current(), Some(&[i.min(KEPT - 1)][..]));
            });
        }
        state.undo_to(marks[KEPT - 1]);
        with(&mut state, |ctx| {
            fixpoints.forget_undone(ctx);
            assert_eq!(fixpoints.current(), Some(&[KEPT - 2][..]));
        });
    }
}
