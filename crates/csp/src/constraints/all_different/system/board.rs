//! The domains as the system narrows them, the places of the values, and the
//! first two tiers: singles and hidden singles.

use super::topology::{Topology, insert, insert_all};
use crate::constraints::all_different::bitset::BitIndices;

/// The places of the values among `members` (see [`Unit::places`]), and
/// how many values have one.
pub(super) fn count_places(members: &[u32], masks: &[u64]) -> ([u64; 64], u8) {
    let mut places = [0u64; 64];
    let mut values = 0u64;
    for (k, &p) in members.iter().enumerate() {
        let d = masks[p as usize];
        values |= d;
        for v in BitIndices(d) {
            places[v] |= 1 << k;
        }
    }
    (places, values.count_ones() as u8)
}

/// What the system knows of one constraint.
#[derive(Clone, Debug)]
pub(super) struct Unit {
    /// Per value: which of the constraint's variables (by index) can take it.
    /// They describe the masks, or at the start of a call the masks the last
    /// call left.
    pub(super) places: [u64; 64],
    /// How many values some variable can take, and how many variables there are.
    pub(super) live: u8,
    pub(super) size: u8,
    /// The values it removed in this call.
    pub(super) pruned: u64,
    /// With intersections on: the values whose places shrank since its
    /// crossings were last looked at (see [`Board::cross`]).
    pub(super) dirty: u64,
    /// Its variables (by index) whose masks changed since the last write
    /// of its changes ([`System::write`](super::System::write)).
    pub(super) changed: u64,
}

/// The domains as the system narrows them, and the work they call for.
#[derive(Debug)]
pub(super) struct Board {
    /// Per position, its domain as local value ids.
    pub(super) masks: Vec<u64>,
    pub(super) units: Vec<Unit>,
    /// Tier 1: fixed positions whose value has not yet left their peers
    /// (a stack: `singles[..num_singles]`; a position becomes fixed once per call).
    pub(super) singles: Vec<u32>,
    pub(super) num_singles: usize,
    /// Tier 2: values that only one variable of a constraint can still take,
    /// as `u * 64 + v` (a stack: `hidden[..num_hidden]`; a place set shrinks
    /// to one once per call).
    pub(super) hidden: Vec<u32>,
    pub(super) num_hidden: usize,
    /// Tier 2: constraints to check whole, as a bitset: those whose
    /// variables changed between calls, and those whose values became tight.
    pub(super) to_check: Vec<u64>,
    /// Tier 3: constraints changed since their last Hall-set look, as a bitset.
    pub(super) to_look: Vec<u64>,
    /// Tier 3, with intersections on: constraints with `dirty` values, as a bitset.
    pub(super) to_cross: Vec<u64>,
    pub(super) crossing: bool,
    /// The number of local values.
    pub(super) span: usize,
}

impl Board {
    /// Recomputes the places from the masks.
    pub(super) fn recount(&mut self, topology: &Topology) {
        for (u, unit) in self.units.iter_mut().enumerate() {
            (unit.places, unit.live) = count_places(topology.members(u), &self.masks);
        }
    }

    /// Appends the places, per constraint those of the span's values and
    /// how many values have one: what [`restore`](Board::restore) reads.
    pub(super) fn save_places(&self, saved: &mut Vec<u64>) {
        for unit in &self.units {
            saved.extend_from_slice(&unit.places[..self.span]);
            saved.push(u64::from(unit.live));
        }
    }

    /// Restores the places that [`save_places`](Board::save_places) saved.
    pub(super) fn restore(&mut self, saved: &[u64]) {
        for (unit, saved) in self.units.iter_mut().zip(saved.chunks_exact(self.span + 1)) {
            unit.places[..self.span].copy_from_slice(&saved[..self.span]);
            unit.live = saved[self.span] as u8;
        }
    }

    /// Position `p` changed between calls from `old` to its mask: updates
    /// the places.
    #[inline]
    pub(super) fn reload(&mut self, topology: &Topology, p: usize, old: u64) {
        let mask = self.masks[p];
        let (added, removed) = (mask & !old, old & !mask);
        for slot in topology.slots(p) {
            let unit = &mut self.units[slot.unit as usize];
            let bit = 1u64 << slot.index;
            for v in BitIndices(added) {
                unit.live += u8::from(unit.places[v] == 0);
                unit.places[v] |= bit;
            }
            for v in BitIndices(removed) {
                unit.places[v] &= !bit;
                unit.live -= u8::from(unit.places[v] == 0);
            }
        }
    }

    /// Narrows position `p` to `new` (a non-empty subset), the work of
    /// constraint `u`, and keeps the places up to date. `Err(w)` when
    /// constraint `w` is left fewer values than variables (the places are
    /// complete all the same).
    #[inline]
    pub(super) fn narrow(&mut self, topology: &Topology, p: usize, new: u64, u: usize) -> Result<(), u32> {
        let removed = self.masks[p] & !new;
        self.units[u].pruned += u64::from(removed.count_ones());
        // The mask is written, queued and its constraints marked once, for
        // every value it loses.
        self.masks[p] = new;
        if new & (new - 1) == 0 {
            self.singles[self.num_singles] = p as u32;
            self.num_singles += 1;
        }
        insert_all(&mut self.to_look, topology.unit_words(p));
        let slots = topology.slots(p);
        for slot in slots {
            self.units[slot.unit as usize].changed |= 1 << slot.index;
        }
        let mut result = Ok(());
        for v in BitIndices(removed) {
            for slot in slots {
                if let Err(w) = self.unplace(topology, slot.unit as usize, v, slot.index) {
                    result = Err(w);
                }
            }
        }
        result
    }

    /// The variable at `index` of constraint `w` lost value `v`.
    #[inline(always)]
    pub(super) fn unplace(&mut self, topology: &Topology, w: usize, v: usize, index: u32) -> Result<(), u32> {
        if self.crossing {
            self.mark(w, 1 << (v & 63));
        }
        let places = &mut self.units[w].places[v & 63];
        let left = *places & !(1 << index);
        *places = left;
        if left & left.wrapping_sub(1) == 0 { self.shrunk(topology, w, v, left) } else { Ok(()) }
    }

    /// Value `v` has at most one place left in constraint `w`: one is a
    /// hidden single (unless that variable is already fixed to `v`), none
    /// leaves one value fewer, which may make `w` tight or fail it.
    #[cold]
    pub(super) fn shrunk(&mut self, topology: &Topology, w: usize, v: usize, left: u64) -> Result<(), u32> {
        if left != 0 {
            let q = topology.members(w)[left.trailing_zeros() as usize] as usize;
            if self.masks[q] != 1 << v {
                self.hidden[self.num_hidden] = (w * 64 + v) as u32;
                self.num_hidden += 1;
            }
            return Ok(());
        }
        let unit = &mut self.units[w];
        unit.live -= 1;
        if unit.live < unit.size {
            return Err(w as u32);
        }
        if unit.live == unit.size {
            // Tight now: its values held once are hidden singles.
            insert(&mut self.to_check, w);
        }
        Ok(())
    }

    /// Marks `values` of constraint `w` for a look at its crossings.
    #[inline]
    pub(super) fn mark(&mut self, w: usize, values: u64) {
        let unit = &mut self.units[w];
        if unit.dirty == 0 {
            insert(&mut self.to_cross, w);
        }
        unit.dirty |= values;
    }

    /// Queues position `p` for tier 1 if it is fixed.
    #[inline]
    pub(super) fn push_if_single(&mut self, p: usize) {
        let mask = self.masks[p];
        if mask & (mask - 1) == 0 {
            self.singles[self.num_singles] = p as u32;
            self.num_singles += 1;
        }
    }

    /// Tier 1: the value of fixed position `p` leaves the other variables of
    /// its constraints. `Err(w)` when constraint `w` fails.
    #[inline]
    pub(super) fn eliminate(&mut self, topology: &Topology, p: usize) -> Result<(), u32> {
        let value = self.masks[p];
        let v = value.trailing_zeros() as usize & 63;
        // The constraints to look at again, gathered here rather than in
        // `to_look` itself after every removal (when they fit one word).
        let mut look = 0u64;
        let gather = topology.words == 1;
        for slot in topology.slots(p) {
            let u = slot.unit as usize;
            let unit = &mut self.units[u];
            let others = unit.places[v] & !(1u64 << slot.index);
            if others == 0 {
                continue;
            }
            // `p` is the only place of `v` left in `u`, and it is fixed to it.
            unit.places[v] = 1 << slot.index;
            unit.pruned += u64::from(others.count_ones());
            // (On a failure below, a few more than changed: `write` skips those.)
            unit.changed |= others;
            let members = topology.members(u);
            let first = topology.member_start[u] as usize;
            let mut result = Ok(());
            for k in BitIndices(others) {
                let q = members[k] as usize;
                let new = self.masks[q] & !value;
                if new == 0 {
                    // `q` is fixed to `v` too. The places must keep
                    // describing the masks: `q` and the rest still have `v`.
                    self.units[u].places[v] |= others & !((1 << k) - 1);
                    self.to_look[0] |= look;
                    return Err(u as u32);
                }
                self.masks[q] = new;
                if new & (new - 1) == 0 {
                    self.singles[self.num_singles] = q as u32;
                    self.num_singles += 1;
                }
                if gather {
                    look |= topology.unit_words[q];
                } else {
                    insert_all(&mut self.to_look, topology.unit_words(q));
                }
                for other in topology.others(first + k) {
                    self.units[other.unit as usize].changed |= 1 << other.index;
                    if let Err(w) = self.unplace(topology, other.unit as usize, v, other.index) {
                        result = Err(w);
                    }
                }
            }
            if result.is_err() {
                self.to_look[0] |= look;
                return result;
            }
        }
        if gather {
            self.to_look[0] |= look;
        }
        Ok(())
    }

    /// Tier 2: a hidden single `u * 64 + v`, if it still is one: the one
    /// variable of `u` that can take `v` is fixed to it.
    #[inline]
    pub(super) fn hidden_single(&mut self, topology: &Topology, entry: usize) -> Result<(), u32> {
        let (u, v) = (entry / 64, entry % 64);
        let unit = &self.units[u];
        let place = unit.places[v];
        if place.count_ones() != 1 || unit.live != unit.size {
            return Ok(());
        }
        let p = topology.members(u)[place.trailing_zeros() as usize] as usize;
        let bit = 1u64 << v;
        if self.masks[p] == bit { Ok(()) } else { self.narrow(topology, p, bit, u) }
    }

    /// Tier 2: constraint `u`'s whole check: fails when fewer values than
    /// variables are left, and when exactly as many, fixes its hidden
    /// singles. (The values of its fixed variables have left the others:
    /// tier 1 did it.)
    pub(super) fn check(&mut self, topology: &Topology, u: usize) -> Result<(), u32> {
        let unit = &self.units[u];
        if unit.live < unit.size {
            return Err(u as u32);
        }
        if unit.live == unit.size {
            // The values with one place, but for those of fixed variables.
            let mut alone = 0u64;
            for (v, &places) in unit.places[..self.span].iter().enumerate() {
                alone |= u64::from(places.count_ones() == 1) << v;
            }
            for &p in topology.members(u) {
                let d = self.masks[p as usize];
                if d & (d - 1) == 0 {
                    alone &= !d;
                }
            }
            for v in BitIndices(alone) {
                self.hidden_single(topology, u * 64 + v)?;
            }
        }
        Ok(())
    }
}
