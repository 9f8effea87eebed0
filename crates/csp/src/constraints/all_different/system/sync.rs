//! Between the system's board and the solver's domains: reading the domains
//! at the start of a call, with the work their changes since the last call
//! call for, and writing the changed domains back.

use super::System;
use super::board::Board;
use super::topology::Topology;
use super::topology::{insert, insert_all};
use crate::constraints::all_different::bitset::BitIndices;
use crate::kernel::{Context, PropagationResult, State, Step};

impl System {
    /// With a history or an observer: notes the changes to the variables
    /// of constraint `unit` as one step, the work of constraint `blamed`,
    /// to be written at the end of the call ([`write_steps`](System::write_steps)).
    /// Only its variables marked changed are looked at.
    #[inline]
    pub(super) fn write(&mut self, blamed: usize, unit: usize, state: &State) {
        if self.board.units[unit].changed != 0 {
            self.write_marked(blamed, unit, state);
        }
    }

    /// [`write`](System::write) of a constraint with variables marked. A
    /// variable written is unmarked in its other constraints too: every
    /// later change marks it in all of them again, so a mark left would
    /// only have a later write find its domain as written.
    #[inline(never)]
    fn write_marked(&mut self, blamed: usize, unit: usize, state: &State) {
        let changed = std::mem::take(&mut self.board.units[unit].changed);
        let constraint = self.constraints[blamed];
        let first = self.topology.member_start[unit] as usize;
        for k in BitIndices(changed) {
            let p = self.topology.members[first + k] as usize;
            let word = self.board.masks[p] >> self.shift[p];
            // The domain as the steps noted so far leave it.
            let pending = self.pending[p];
            let before = state.word_at(self.address[p]) & !pending;
            if before != word {
                for other in self.topology.others(first + k) {
                    self.board.units[other.unit as usize].changed &= !(1 << other.index);
                }
                if pending == 0 {
                    self.pending_at.push(p as u32);
                }
                self.pending[p] = pending | (before & !word);
                self.steps.push(Step { var: self.vars[p], constraint, before, after: word });
            }
        }
    }

    /// Writes the steps noted during the call to the domains, each variable
    /// narrowed once, and records them as if each had been written as it was
    /// made ([`Context::narrow_in_steps`]): the explanations see every
    /// change as its constraint's, in the order the changes were made.
    pub(super) fn write_steps(&mut self, ctx: &mut Context<'_>) {
        if self.steps.is_empty() {
            return;
        }
        let (vars, pending) = (&self.vars, &self.pending);
        let removed = self.pending_at.iter().map(|&p| (vars[p as usize], pending[p as usize]));
        ctx.narrow_in_steps(removed, &self.steps);
        for &p in &self.pending_at {
            self.pending[p as usize] = 0;
        }
        self.pending_at.clear();
        self.steps.clear();
    }

    /// Without a history or an observer: writes the changed domains back at
    /// the end of a successful call, and counts each constraint's removals.
    pub(super) fn write_back(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // Only the positions written in this call can differ from what it
        // read: each write marks its position changed in all of its
        // constraints (`Unit::changed`, reset by `load`). Gathered by
        // position, they are narrowed in the positions' order, as a scan
        // of them all would.
        let written = &mut self.written;
        written.fill(0);
        for (u, unit) in self.board.units.iter().enumerate() {
            let members = self.topology.members(u);
            for k in BitIndices(unit.changed) {
                insert(written, members[k] as usize);
            }
        }
        for (w, &word) in written.iter().enumerate() {
            for bit in BitIndices(word) {
                let p = w * 64 + bit;
                // Nothing was written to the domains since `load` read them.
                let word = self.board.masks[p] >> self.shift[p];
                if ctx.state().word_at(self.address[p]) != word {
                    ctx.narrow_unattributed(self.vars[p], word)?;
                }
            }
        }
        for (unit, &constraint) in self.board.units.iter().zip(&self.constraints) {
            if unit.pruned != 0 {
                ctx.attribute(constraint, unit.pruned);
            }
        }
        Ok(())
    }

    /// Where the domains stand, for the next call's `load`: against the
    /// newest fixpoint, its id and the trail now, and the positions where
    /// the masks (the last call's) differ from it. After a call that kept
    /// its masks, none; after any other, those found by comparing (by the
    /// next `load`, when it reads from this reference: `touched_unknown`), if the
    /// reference is still the fixpoint the call started from (a call that
    /// kept nothing new leaves the trail point of the one it started from:
    /// a branch point taken since may be undone to without undoing it).
    ///
    /// With `written`, after a successful `write_back`: the positions that
    /// differ are those that differed when read (`since_good`) and those
    /// written, listed without a comparison of every mask (what a cheap
    /// probe's call, most of the time, would spend a tenth of its time on).
    pub(super) fn note_reference(&mut self, kept: bool, written: bool, ctx: &Context<'_>) {
        if kept {
            let point = ctx.state().trail_point();
            self.reference = self.fixpoints.current_id().map(|id| (id, point));
            if let Some(last) = self.points.last_mut() {
                *last = Some(point);
            }
            self.touched.clear();
            self.touched_unknown = false;
            return;
        }
        let id = self.fixpoints.current_id();
        match (self.fixpoints.current(), self.reference) {
            (Some(_), Some((reference, _))) if Some(reference) == id && written => {
                self.touched.clear();
                self.touched.extend_from_slice(&self.since_good);
                for (w, &word) in self.written.iter().enumerate() {
                    self.touched.extend(BitIndices(word).map(|bit| (w * 64 + bit) as u32));
                }
                self.touched_unknown = false;
            }
            (Some(_), Some((reference, _))) if Some(reference) == id => {
                // The comparison of every mask with the fixpoint's is left to
                // the next `load`, which needs it only when it reads from this
                // reference: after a failure (the commonest call here), the
                // backjump most often undoes the fixpoint too.
                self.touched_unknown = true;
            }
            _ => self.reference = None,
        }
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
        let n = self.vars.len();
        // The newest fixpoint: its masks and its places.
        let (last, kept) = (self.last.as_deref(), self.fixpoints.current().map(|items| items.split_at(n)));
        let good = kept.map(|(masks, _)| masks);
        let mut from_good = 0;
        // Slices of one length, so that the loops index without checks.
        let (address, shift) = (&self.address[..n], &self.shift[..n]);
        let masks = &mut board.masks[..n];
        let (old_last, old_good): (&[u64], &[u64]) = (last.unwrap_or(&[]), good.unwrap_or(&[]));
        if old_last.len() == n && old_good.len() == n {
            // Each position read is compared with the last call's masks
            // (which the places describe) and with the newest fixpoint's.
            let reading = Reading { state, address, shift, masks, last: old_last, good: old_good };
            // When the newest fixpoint is the one the last call ended
            // against, the domains are its masks less the changes on the
            // trail since, and the last call's masks are its masks but at
            // `touched`: elsewhere all three are the same, and the board
            // holds them. Otherwise every position is read.
            let candidates = &mut self.candidates;
            let incremental = self.reference.is_some_and(|(id, point)| {
                Some(id) == self.fixpoints.current_id() && {
                    candidates.fill(0);
                    let position_of = &self.position_of;
                    state.changed_since(point, |var| {
                        if let Some(&p) = position_of.get(var).filter(|&&p| p != u32::MAX) {
                            insert(candidates, p as usize);
                        }
                    })
                }
            });
            // Otherwise, when the trail still holds every change since the
            // newest fixpoint's call ended (a backtrack to it, most often
            // after a failure), the domains are its masks less those
            // changes: the board starts from its masks and places, and only
            // the positions changed since are read (the last call's masks
            // are not needed then).
            let from_point = !incremental
                && self.points.last().copied().flatten().is_some_and(|point| {
                    candidates.fill(0);
                    let position_of = &self.position_of;
                    state.changed_since(point, |var| {
                        if let Some(&p) = position_of.get(var).filter(|&&p| p != u32::MAX) {
                            insert(candidates, p as usize);
                        }
                    })
                });
            if incremental {
                if self.touched_unknown {
                    // The last call's masks are `old_last` (see `note_reference`).
                    for (p, (&l, &g)) in old_last.iter().zip(old_good).enumerate() {
                        if l != g {
                            insert(candidates, p);
                        }
                    }
                } else {
                    for &p in &self.touched {
                        insert(candidates, p as usize);
                    }
                }
                let positions =
                    candidates.iter().enumerate().flat_map(|(w, &word)| BitIndices(word).map(move |bit| w * 64 + bit));
                (from_last, from_good) = reading.read(positions, since_last, since_good);
            } else if let (true, Some((good, places))) = (from_point, kept) {
                let masks = reading.masks;
                masks.copy_from_slice(good);
                for (w, &word) in candidates.iter().enumerate() {
                    for bit in BitIndices(word) {
                        let p = w * 64 + bit;
                        let mask = state.word_at(address[p]) << shift[p];
                        if mask != good[p] {
                            masks[p] = mask;
                            since_good.push(p as u32);
                        }
                    }
                }
                debug_assert!(
                    (0..n).all(|p| masks[p] == state.word_at(address[p]) << shift[p]),
                    "a position changed since the fixpoint's call is missing from the trail"
                );
                board.restore(places);
                for &p in since_good.iter() {
                    board.reload(topology, p as usize, good[p as usize]);
                }
                queue_since_good(topology, board, since_good, good);
                return;
            } else {
                (from_last, from_good) = reading.read(0..n, since_last, since_good);
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
        // Bring the places up to date: from scratch the first time, else from
        // the cheapest start: the last call's masks, the newest fixpoint's
        // (whose places were kept with them: after a failure, fewer changes
        // than the failed call's), or the initial ones (a new run from the
        // root). A restore costs about as much as one change per 16 of its
        // words (callgrind: per 4, most failures undid their work).
        match last {
            None => board.recount(topology),
            Some(last) => {
                let restore_cost = self.template.len() / 16;
                let from_kept = kept.filter(|_| from_good + restore_cost < from_last);
                let best = if kept.is_some() { from_last.min(from_good + restore_cost) } else { from_last };
                let restore = best > restore_cost && {
                    let from_initial: usize =
                        board.masks.iter().zip(&self.initial).map(|(&m, &i)| (m ^ i).count_ones() as usize).sum();
                    from_initial + restore_cost < best
                };
                if restore {
                    board.restore(&self.template);
                    for (p, &old) in self.initial.iter().enumerate() {
                        if board.masks[p] != old {
                            board.reload(topology, p, old);
                        }
                    }
                } else if let Some((good, places)) = from_kept {
                    board.restore(places);
                    for &p in since_good.iter() {
                        board.reload(topology, p as usize, good[p as usize]);
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
        queue_since_good(topology, board, since_good, good);
    }
}

/// The work after `load`: against the masks `good` of the newest
/// fixpoint the domains descend from, every constraint none of whose
/// variables changed since (`since_good`) is still at its own
/// fixpoint, and every fixed variable's value has left its peers: the
/// others are checked and looked at, and tier 1 takes the newly fixed
/// variables.
fn queue_since_good(topology: &Topology, board: &mut Board, since_good: &[u32], good: &[u64]) {
    for &p in since_good {
        let p = p as usize;
        debug_assert_eq!(board.masks[p] & !good[p], 0, "position {p} regained values since its fixpoint");
        insert_all(&mut board.to_check, topology.unit_words(p));
        insert_all(&mut board.to_look, topology.unit_words(p));
        board.push_if_single(p);
    }
}

/// The domains at the start of a call, against the masks of the last call
/// and of the newest fixpoint (all of one length).
struct Reading<'a> {
    state: &'a State,
    address: &'a [usize],
    shift: &'a [u8],
    masks: &'a mut [u64],
    last: &'a [u64],
    good: &'a [u64],
}

impl Reading<'_> {
    /// Reads the domains at `positions` (ascending) into the masks, and
    /// lists those that differ from the last call's and from the newest
    /// fixpoint's; returns how many values differ from each.
    #[inline(always)]
    fn read(
        self,
        positions: impl Iterator<Item = usize>,
        since_last: &mut Vec<u32>,
        since_good: &mut Vec<u32>,
    ) -> (usize, usize) {
        let (mut from_last, mut from_good) = (0, 0);
        for p in positions {
            let mask = self.state.word_at(self.address[p]) << self.shift[p];
            self.masks[p] = mask;
            let (l, g) = (self.last[p], self.good[p]);
            if mask != l {
                since_last.push(p as u32);
                from_last += (mask ^ l).count_ones() as usize;
            }
            if mask != g {
                since_good.push(p as u32);
                from_good += (mask ^ g).count_ones() as usize;
            }
        }
        (from_last, from_good)
    }
}
