//! Slots: where an incremental propagator keeps each of its variables (a
//! long sum's terms, the kept counts' distinct variables), found by the
//! variable's index, so that a call reads which of them the trail says
//! changed since its last one ([`State::changed_since`]) instead of
//! passing over them all. The trail holds every change of the model, not
//! only the propagator's: a long one (a call after many others' changes in
//! a big model) is not read, the propagator reads its variables instead.

use super::{State, TrailPoint};
use crate::ids::VarId;

/// The widest range of variable indices, per slot, that the map may span:
/// the variables of a huge model's scattered array are not mapped (the
/// propagator recomputes instead).
const SPREAD: usize = 16;

/// The longest trail, in entries per slot, that a call reads its changes
/// from: past it, the propagator reads every slot's variable instead (see
/// [`Slots::changed_since`]).
const TRAIL_PER_SLOT: usize = 16;

/// The slot of each variable, by its index less `first` (`u32::MAX`: none).
#[derive(Clone, Debug)]
pub(crate) struct Slots {
    first: usize,
    slot_of: Vec<u32>,
    /// The longest trail since a call's point that is read (see [`TRAIL_PER_SLOT`]).
    most: usize,
}

impl Slots {
    /// A map of `vars`' indices, none given a slot yet, if they span at
    /// most [`SPREAD`] indices per slot of `slots`; `None` when they span
    /// more or `vars` is empty.
    pub(crate) fn new(vars: &[VarId], slots: usize) -> Option<Slots> {
        let first = vars.iter().map(|v| v.index as usize).min()?;
        let last = vars.iter().map(|v| v.index as usize).max()?;
        let span = last - first + 1;
        let most = slots.saturating_mul(TRAIL_PER_SLOT);
        (span <= slots.saturating_mul(SPREAD)).then(|| Slots { first, slot_of: vec![u32::MAX; span], most })
    }

    /// Whether the map spans at most [`SPREAD`] indices per slot of `slots`
    /// (for a caller that knows its number of slots only once it gave them).
    pub(crate) fn fits(&self, slots: usize) -> bool {
        self.slot_of.len() <= slots.saturating_mul(SPREAD)
    }

    /// The slot of `var` (one of the map's variables), to read or give.
    pub(crate) fn slot_mut(&mut self, var: VarId) -> &mut u32 {
        &mut self.slot_of[var.index as usize - self.first]
    }

    /// Puts in `changed` (emptied first) the slots of the variables the
    /// trail says changed since `point`, a slot more than once if it
    /// changed more than once; `false` when the trail cannot tell (see
    /// [`State::changed_since`]) or holds more than [`TRAIL_PER_SLOT`]
    /// entries a slot since `point` (reading every slot is then cheaper:
    /// on the MiniZinc Challenge's `nside`, whose 240 long sums of 250
    /// terms each read about 6,600 entries a call for 5 of their own, the
    /// reading was a fifth of the solver's time).
    pub(crate) fn changed_since(&self, state: &State, point: TrailPoint, changed: &mut Vec<u32>) -> bool {
        changed.clear();
        let vars = self.first..self.first + self.slot_of.len();
        state.changed_among(point, vars, self.most, |var| {
            let slot = self.slot_of[var - self.first];
            if slot != u32::MAX {
                changed.push(slot);
            }
        })
    }
}
