//! Between the system's board and the solver's domains: reading the domains
//! at the start of a call, with the work their changes since the last call
//! call for, and writing the changed domains back.

use super::System;
use super::topology::{insert, insert_all};
use crate::constraints::all_different::bitset::BitIndices;
use crate::kernel::{Context, PropagationResult};

impl System {
    /// With a history or an observer: writes the changes to the variables
    /// of constraint `unit` at once, reported as the work of constraint
    /// `blamed`. Only its variables marked changed are looked at.
    pub(super) fn write(&mut self, blamed: usize, unit: usize, ctx: &mut Context<'_>) -> PropagationResult {
        let changed = std::mem::take(&mut self.board.units[unit].changed);
        if changed == 0 {
            return Ok(());
        }
        ctx.constraint = self.constraints[blamed];
        let members = self.topology.members(unit);
        for k in BitIndices(changed) {
            let p = members[k] as usize;
            let word = self.board.masks[p] >> self.shift[p];
            if ctx.state().word_at(self.address[p]) != word {
                ctx.narrow_single_word(self.vars[p], word)?;
            }
        }
        Ok(())
    }

    /// Reads the domains, brings the places up to date, and queues the work
    /// that the changes since the last call call for.
    pub(super) fn load(&mut self, ctx: &Context<'_>) {
        let (topology, board) = (&self.topology, &mut self.board);
        let state = ctx.state();
        // What the last call queued is stale if it failed half-way.
        board.num_singles = 0;
        board.num_hidden = 0;
        board.to_check.fill(0);
        board.to_look.fill(0);
        board.to_cross.fill(0);
        board.units.iter_mut().for_each(|unit| {
            unit.pruned = 0;
            unit.dirty = 0;
            unit.changed = 0;
        });
        // One pass over the domains: the positions changed since the last
        // call (whose masks the places describe) and since the last
        // successful one (a common fixpoint, see below).
        let (since_last, since_good) = (&mut self.since_last, &mut self.since_good);
        since_last.clear();
        since_good.clear();
        let mut from_last = 0;
        let (last, good) = (self.last.as_deref(), self.fixpoints.current());
        // Slices of one length, so that the loop indexes without checks.
        let n = self.vars.len();
        let (address, shift) = (&self.address[..n], &self.shift[..n]);
        let masks = &mut board.masks[..n];
        let (old_last, old_good): (&[u64], &[u64]) = (last.unwrap_or(&[]), good.unwrap_or(&[]));
        if old_last.len() == n && old_good.len() == n {
            for p in 0..n {
                let mask = state.word_at(address[p]) << shift[p];
                masks[p] = mask;
                let (l, g) = (old_last[p], old_good[p]);
                if mask != l {
                    since_last.push(p as u32);
                    from_last += (mask ^ l).count_ones() as usize;
                }
                if mask != g {
                    since_good.push(p as u32);
                }
            }
        } else {
            for p in 0..n {
                let mask = state.word_at(address[p]) << shift[p];
                masks[p] = mask;
                if let Some(&l) = old_last.get(p).filter(|&&l| l != mask) {
                    since_last.push(p as u32);
                    from_last += (mask ^ l).count_ones() as usize;
                }
                if old_good.get(p).is_some_and(|&g| g != mask) {
                    since_good.push(p as u32);
                }
            }
        }
        // Bring the places up to date: from scratch the first time, from the
        // last call's masks, or from the initial ones when that is less work
        // (a new run from the root).
        match last {
            None => board.recount(topology),
            Some(last) => {
                let restore_cost = self.template.len() * board.span / 4;
                let restore = from_last > restore_cost && {
                    let from_initial: usize =
                        board.masks.iter().zip(&self.initial).map(|(&m, &i)| (m ^ i).count_ones() as usize).sum();
                    from_initial + restore_cost < from_last
                };
                if restore {
                    board.restore(&self.template);
                    for (p, &old) in self.initial.iter().enumerate() {
                        if board.masks[p] != old {
                            board.reload(topology, p, old);
                        }
                    }
                } else {
                    for &p in since_last.iter() {
                        board.reload(topology, p as usize, last[p as usize]);
                    }
                }
            }
        }
        // The work: against the masks of the newest fixpoint the domains
        // descend from (each holds the current one, see `Fixpoints`), every
        // constraint none of whose variables changed since is still at its
        // own fixpoint, and every fixed variable's value has left its peers:
        // tier 1 takes the newly fixed variables.
        let Some(good) = good else {
            for u in 0..self.constraints.len() {
                insert(&mut board.to_check, u);
                insert(&mut board.to_look, u);
            }
            for p in 0..self.vars.len() {
                board.push_if_single(p);
            }
            return;
        };
        for &p in since_good.iter() {
            let p = p as usize;
            debug_assert_eq!(board.masks[p] & !good[p], 0, "position {p} regained values since its fixpoint");
            insert_all(&mut board.to_check, topology.unit_words(p));
            insert_all(&mut board.to_look, topology.unit_words(p));
            board.push_if_single(p);
        }
    }
}
