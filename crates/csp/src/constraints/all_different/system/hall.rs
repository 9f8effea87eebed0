//! Tier 3: the matching pass (Régin 1994) for the constraints where a Hall
//! set could act.

use super::board::Board;
use super::topology::Topology;
use crate::constraints::all_different::bitset::{BitIndices, Core, hall_set_possible};

/// The saved matching of one constraint: matched value of each of its
/// variables, and variable of each value.
pub(super) type Matching = ([u8; 64], [u8; 64]);

/// Per constraint, the proof its last pass left that the pass had nothing
/// to remove ([`Core::matching_after_elimination`]), kept until the next
/// pass: the variables unfixed then (none without a proof), and per member
/// (in [`Topology::members`]' order) the values whose edges the proof used.
/// See [`Board::match_unit`] for why the pass may be skipped while they
/// hold.
#[derive(Debug)]
pub(super) struct Proofs {
    free: Vec<u64>,
    need: Vec<u64>,
}

impl Proofs {
    /// No proof for any of the constraints of `topology`.
    pub(super) fn new(topology: &Topology, units: usize) -> Proofs {
        Proofs { free: vec![0; units], need: vec![0; topology.members.len()] }
    }
}

impl Board {
    /// Tier 3: constraint `u`'s matching pass, if it may hold a Hall set.
    /// Returns the number of variables checked (0 when skipped).
    pub(super) fn match_unit(
        &mut self,
        topology: &Topology,
        u: usize,
        core: &mut Core,
        matching: &mut Matching,
        proofs: &mut Proofs,
    ) -> Result<usize, u32> {
        let members = topology.members(u);
        let start = topology.member_start[u] as usize;
        let need = &mut proofs.need[start..start + members.len()];
        debug_assert!(self.fixed_values_left_peers(members), "tier 3 on constraint {u} before tier 1 is done");
        // One pass over the members: the free variables (without a branch
        // per variable: whether one is fixed is anyone's guess), the values
        // of the fixed ones and those the free ones hold, the domains copied
        // in for the pass (nearly every look runs it), how many have two
        // values, and which of the last proof's edges are gone.
        core.n = members.len();
        let (mut free, mut taken, mut held, mut pairs, mut missing) = (0u64, 0u64, 0u64, 0u32, 0u64);
        for (k, &p) in members.iter().enumerate() {
            let d = self.masks[p as usize];
            core.dom[k] = d;
            let is_free = d & d.wrapping_sub(1) != 0;
            free |= u64::from(is_free) << k;
            let in_free = u64::from(is_free).wrapping_neg();
            taken |= d & !in_free;
            held |= d & in_free;
            pairs += u32::from(d.count_ones() == 2);
            missing |= need[k] & !d & in_free;
        }
        // Tier 1 has taken the fixed variables' values from the others and no
        // two share one (the assertion above says so in debug builds; the
        // learning failures once blamed on the system were a bug of pairwise
        // elimination over intervals), so the pass need not do it again. The
        // check on the way in costs nothing beside the copy, and keeps the
        // pass's own elimination for any caller that breaks the invariant.
        let fixed = members.len() as u32 - free.count_ones();
        let eliminated = taken.count_ones() == fixed && held & taken == 0;
        // The last proof still holds: the pass would remove nothing.
        //
        // Why (Régin 1994): the pass removes value `a` from unfixed `x` iff
        // no matching of the unfixed variables to distinct values of theirs
        // uses the edge `x = a`. Given a matching `M` of all of them, with
        // the value graph (`a -> M(y)` when `y` holds `a`, `a != M(y)`),
        // every edge is in some matching iff every value is reachable from
        // a value no variable is matched to (a free value) or, with no free
        // value, the value graph is strongly connected. The proof left by
        // the last pass that removed nothing is `M` and a tree of each
        // closure that said so: for each matched value, the edge through
        // which the forward closure first reached it (from the free values,
        // or from the least value when there was none), and, with no free
        // value, the backward closure's tree into that least value. Now let
        // the same variables be unfixed, tier 1 be done (`eliminated`: the
        // fixed variables' values distinct and held by no unfixed one) and
        // every edge of the proof still be in the domains, whatever else
        // changed since (domains narrowed, or wider again after a
        // backtrack, or both). Then `M` still matches them all; a value
        // not matched by `M` is free; a matched value is reached along the
        // forward tree's edges from its root, a free value or the least
        // one. With free values at the proof, the roots are still free and
        // in the graph (their tree edges are): every value is reachable
        // from a free value. Without, every value matched by `M` (those of
        // the proof) reaches the least one and is reached from it: if no
        // value is free now the graph is strongly connected; if some value
        // `a` is new and free, it lies in the domain of an unfixed `y`, so
        // `a -> M(y)` reaches the least value and through it every matched
        // one. Either way the pass would remove nothing. (The proof's edges
        // give each unfixed variable two values, so none of them is fixed
        // now; `free == proofs.free[u]` excludes a newly unfixed one, and a
        // unit without a proof, `proofs.free[u] == 0`, matches only when
        // every variable is fixed, where the pass has nothing to do.) Which
        // matching the pass keeps changes, but not what it removes: domain
        // consistency is unique.
        if free == proofs.free[u] && missing == 0 && eliminated {
            self.to_look[u / 64] &= !(1 << (u % 64));
            return Ok(0);
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
        let result =
            if eliminated { core.matching_after_elimination(free, taken) } else { core.matching().map(|()| true) };
        *matching = (core.var_match, core.val_match);
        // Keep the proof when there is one, else forget the last.
        if eliminated && matches!(result, Ok(false)) && core.proven {
            // (Only the unfixed variables' words count: see the check.)
            proofs.free[u] = free;
            need.copy_from_slice(&core.need[..need.len()]);
        } else {
            proofs.free[u] = 0;
        }
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
