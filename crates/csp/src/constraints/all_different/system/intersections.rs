//! The intersection tier (with `+intersect`): where two constraints share
//! two or more variables (a sudoku box and a line), what a value's places in
//! one say about the other ("pointing" and "claiming").

use super::System;
use super::board::Board;
use super::topology::{Crossings, Topology};
use crate::constraints::all_different::bitset::BitIndices;

impl Board {
    /// Tier 3, with intersections on: where tight constraint `u` crosses
    /// another, a value whose places in `u` all lie in the shared variables
    /// is in one of them, so it leaves the other constraint's variables
    /// outside the crossing ("pointing" and "claiming" in sudoku). Looks at
    /// the values marked dirty: within a call a conclusion only appears
    /// when the places in `u` shrink (the other constraint's only do), and
    /// between calls `mark_crossings` marks what changed since the last
    /// fixpoint. Returns whether it removed
    /// anything.
    pub(super) fn cross(&mut self, topology: &Topology, u: usize, crossings: &Crossings) -> Result<bool, u32> {
        let unit = &self.units[u];
        if unit.live != unit.size {
            self.units[u].dirty = 0;
            return Ok(false);
        }
        let values = std::mem::take(&mut self.units[u].dirty);
        let first = topology.member_start[u] as usize;
        let mut acted = false;
        for v in BitIndices(values) {
            let places = self.units[u].places[v];
            // One place: a fixed variable or a hidden single, whose value
            // tier 1 takes from every peer.
            if places & places.wrapping_sub(1) == 0 {
                continue;
            }
            // The crossings holding every place hold the first.
            for crossing in crossings.at(first + places.trailing_zeros() as usize) {
                if places & !crossing.mine != 0 {
                    continue;
                }
                let w = crossing.other as usize;
                let outside = self.units[w].places[v] & !crossing.theirs;
                for k in BitIndices(outside) {
                    let q = topology.members(w)[k] as usize;
                    let new = self.masks[q] & !(1 << v);
                    if new == 0 {
                        return Err(u as u32);
                    }
                    self.narrow(topology, q, new, u)?;
                    acted = true;
                }
            }
        }
        Ok(acted)
    }
}

impl System {
    /// With intersections on, after `load`: the values that changed at a
    /// position since the last successful call (a common fixpoint, crossings
    /// included) are dirty in its constraints, whose places of them changed,
    /// and in the constraints crossing those, whose conclusions about them
    /// may reach further now. Before a first successful call, every value.
    pub(super) fn mark_crossings(&mut self) {
        let (topology, board) = (&self.topology, &mut self.board);
        let Some(good) = self.fixpoints.current().map(|items| &items[..self.vars.len()]) else {
            let all = if board.span == 64 { u64::MAX } else { (1u64 << board.span) - 1 };
            for u in 0..self.constraints.len() {
                board.mark(u, all);
            }
            return;
        };
        for &p in &self.since_good {
            let p = p as usize;
            let changed = board.masks[p] ^ good[p];
            for slot in topology.slots(p) {
                board.mark(slot.unit as usize, changed);
                for crossing in self.crossings.of(slot.unit as usize) {
                    board.mark(crossing.other as usize, changed);
                }
            }
        }
    }
}
