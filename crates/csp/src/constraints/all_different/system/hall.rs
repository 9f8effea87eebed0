//! Tier 3: the matching pass (Régin 1994) for the constraints where a Hall
//! set could act.

use super::board::Board;
use super::topology::Topology;
use crate::constraints::all_different::bitset::{BitIndices, Core, hall_set_possible};

/// The saved matching of one constraint: matched value of each of its
/// variables, and variable of each value.
pub(super) type Matching = ([u8; 64], [u8; 64]);

impl Board {
    /// Tier 3: constraint `u`'s matching pass, if it may hold a Hall set.
    /// Returns the number of variables checked (0 when skipped).
    pub(super) fn match_unit(
        &mut self,
        topology: &Topology,
        u: usize,
        core: &mut Core,
        matching: &mut Matching,
    ) -> Result<usize, u32> {
        let members = topology.members(u);
        debug_assert!(self.fixed_values_left_peers(members), "tier 3 on constraint {u} before tier 1 is done");
        // One pass over the members: the free variables (without a branch
        // per variable: whether one is fixed is anyone's guess), the values
        // of the fixed ones and those the free ones hold, the domains copied
        // in for the pass (nearly every look runs it), and how many have two
        // values.
        core.n = members.len();
        let (mut free, mut taken, mut held, mut pairs) = (0u64, 0u64, 0u64, 0u32);
        for (k, &p) in members.iter().enumerate() {
            let d = self.masks[p as usize];
            core.dom[k] = d;
            let is_free = d & d.wrapping_sub(1) != 0;
            free |= u64::from(is_free) << k;
            let in_free = u64::from(is_free).wrapping_neg();
            taken |= d & !in_free;
            held |= d & in_free;
            pairs += u32::from(d.count_ones() == 2);
        }
        let unit = &self.units[u];
        let tight = unit.live == unit.size;
        // Most looks come late, with two or three variables left unfixed: no
        // Hall set can act then (see `hall_set_possible`).
        if free.count_ones() <= if tight { 3 } else { 2 } {
            return Ok(0);
        }
        // Two variables with two values may be a Hall set of two, below the
        // limit with this many free: the common answer, without the sizes.
        let masks = &self.masks;
        if pairs < 2 && !hall_set_possible(BitIndices(free).map(|k| masks[members[k] as usize].count_ones()), tight) {
            return Ok(0);
        }
        // The pass itself: when it removes nothing (most calls) it says so
        // after two closures over the value graph (see `Core::matching`).
        (core.var_match, core.val_match) = *matching;
        // Tier 1 has taken the fixed variables' values from the others and no
        // two share one (the assertion above says so in debug builds; the
        // learning failures once blamed on the system were a bug of pairwise
        // elimination over intervals), so the pass need not do it again. The
        // check on the way in costs nothing beside the copy, and keeps the
        // pass's own elimination for any caller that breaks the invariant.
        let fixed = members.len() as u32 - free.count_ones();
        let eliminated = taken.count_ones() == fixed && held & taken == 0;
        let result =
            if eliminated { core.matching_after_elimination(free, taken) } else { core.matching().map(|()| true) };
        *matching = (core.var_match, core.val_match);
        // Most passes remove nothing and say so: no comparison of the domains then.
        if result.map_err(|_| u as u32)? {
            for (k, &p) in members.iter().enumerate() {
                let p = p as usize;
                if core.dom[k] != self.masks[p] {
                    self.narrow(topology, p, core.dom[k], u)?;
                }
            }
        }
        // Domain consistent now: no need for another look at `u` until it changes.
        self.to_look[u / 64] &= !(1 << (u % 64));
        Ok(members.len())
    }

    /// Whether the values of the fixed variables among `members` are
    /// absent from the others, as tier 1 leaves them (for a debug check).
    fn fixed_values_left_peers(&self, members: &[u32]) -> bool {
        let (mut taken, mut fixed, mut free) = (0u64, 0u32, 0u64);
        for &p in members {
            let d = self.masks[p as usize];
            if d & d.wrapping_sub(1) == 0 {
                taken |= d;
                fixed += 1;
            } else {
                free |= d;
            }
        }
        taken.count_ones() == fixed && free & taken == 0
    }
}
