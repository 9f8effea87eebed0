//! Why the system removed values or failed: the Hall sets of
//! [`super::super::explain`] within the constraint that acted, or, for the
//! intersection tier, where that constraint crosses the variable's.
//!
//! When the solver keeps a history (it learns, or an observer asks for
//! explanations), the system records each step's changes as the step's,
//! under the constraint that acted, in the order the steps were done (see
//! [`System::fixpoint`]; they reach the domains at the end of the call), so
//! that every change in the history comes after the changes it follows from
//! and names its constraint. The answers are then found on the domains as
//! they were just before the change:
//!
//! - a value removed from a variable of the acting constraint: a Hall set of
//!   that constraint (`x ≠ 7` because `y = 7`; a hidden single's other
//!   values because every other variable lost it; naked and hidden sets and
//!   the matching's removals because of their sets' domains);
//! - a value removed from a variable outside it (pointing and claiming): the
//!   acting constraint has exactly as many values as variables, so it takes
//!   the value, and its variables outside the crossing had lost it;
//! - a failure: a set of the constraint's variables with fewer values than
//!   variables (two variables fixed to one value, a value no variable can
//!   take), or a crossing that leaves a variable of the other constraint no
//!   value.
//!
//! When none of these is found the system answers nothing, and the engine
//! uses the generic answer (every variable of the system), which is always
//! right.

use smallvec::SmallVec;

use super::System;
use super::topology::Crossing;
use crate::constraints::all_different::explain;
use crate::kernel::{Explained, Explanation, Literal};

impl System {
    /// The answer to `why` (see the module docs); `false` when there is none.
    pub(super) fn answer(&self, why: &mut Explanation<'_>) -> bool {
        let rank = self.rank_of.get(why.constraint().index as usize).copied();
        let Some(u) = rank.filter(|&u| u != u32::MAX).map(|u| u as usize) else {
            return false;
        };
        match why.explained() {
            Explained::Removed(var) => {
                let (word, mask) = why.removed_positions();
                word == 0 && self.removal(why, u, var.index, mask)
            }
            Explained::Failure => self.failure(why, u),
            _ => false,
        }
    }

    /// The index of variable `x` among constraint `u`'s, if it is one of them.
    fn index_in(&self, u: usize, x: u32) -> Option<usize> {
        let p = *self.position_of.get(x as usize).filter(|&&p| p != u32::MAX)?;
        self.topology.slots(p as usize).iter().find(|slot| slot.unit as usize == u).map(|slot| slot.index as usize)
    }

    /// Position `p`'s domain as it was, in local value ids.
    #[inline(always)]
    fn then(&self, why: &Explanation<'_>, p: usize) -> u64 {
        why.first_word_at(self.vars[p], self.address[p]) << self.shift[p]
    }

    /// The domains of constraint `u`'s variables (at most 64) as they
    /// were, written into `dom`: the part of it they fill.
    fn domains<'d>(&self, why: &Explanation<'_>, u: usize, dom: &'d mut [u64; 64]) -> &'d mut [u64] {
        let (members, addresses, shifts) = self.members(u);
        match why.rewound {
            // The words as they were at hand (as in conflict analysis): read
            // directly, without a shift when the domains start at one value.
            Some(words) if !self.shifted => {
                for (d, &address) in dom.iter_mut().zip(addresses) {
                    *d = words[address];
                }
            }
            Some(words) => {
                for ((d, &address), &shift) in dom.iter_mut().zip(addresses).zip(shifts) {
                    *d = words[address] << shift;
                }
            }
            None => {
                for (((d, &p), &address), &shift) in dom.iter_mut().zip(members).zip(addresses).zip(shifts) {
                    *d = why.first_word_at(self.vars[p as usize], address) << shift;
                }
            }
        }
        &mut dom[..members.len()]
    }

    /// Constraint `u`'s positions, and their domain words' addresses and
    /// shifts (slices of one length).
    #[inline(always)]
    fn members(&self, u: usize) -> (&[u32], &[usize], &[u8]) {
        let members = self.topology.members(u);
        let first = self.topology.member_start[u] as usize;
        let range = first..first + members.len();
        (members, &self.member_address[range.clone()], &self.member_shift[range])
    }

    /// Adds "position `p` had only values of `allowed`" (local value ids).
    #[inline]
    fn within(&self, why: &mut Explanation<'_>, p: usize, allowed: u64) {
        let x = self.vars[p];
        let gone = self.positions[p] & !(allowed >> self.shift[p]);
        if gone != 0 {
            why.push(Literal::Outside { var: x, word: 0, mask: gone });
        }
    }

    /// Why constraint `u` took the positions `mask` from variable `x`.
    fn removal(&self, why: &mut Explanation<'_>, u: usize, x: u32, mask: u64) -> bool {
        let members = self.topology.members(u);
        let Some(k) = self.index_in(u, x) else {
            return self.crossing_removal(why, u, x, mask);
        };
        let removed = mask << self.shift[members[k] as usize];
        // The commonest answer, a peer fixed to the one value removed
        // (`x ≠ v` because `y = v`), found without the other domains as they
        // were: domains only shrink, so a peer fixed to `v` then has at most
        // `v` now. The first such peer, as `explain::removal_of` would name.
        let single = removed & removed.wrapping_sub(1) == 0;
        if single && let Some(i) = self.fixed_peer(why, u, k, removed) {
            self.within(why, members[i] as usize, removed);
            return true;
        }
        let mut buffer = [0; 64];
        let dom = self.domains(why, u, &mut buffer);
        // Both answer nothing when they return `false`. One value with no
        // fixed peer (looked for above) is the Hall sets' alone.
        let mut answer = |i: usize, allowed| self.within(why, members[i] as usize, allowed);
        if single {
            return explain::hall_removal(dom, k, removed, answer);
        }
        explain::removal_of(dom, k, removed, &mut answer)
    }

    /// The index of the first variable of constraint `u` but the `k`th that
    /// was fixed to the one value `removed` (local value ids), if any.
    fn fixed_peer(&self, why: &Explanation<'_>, u: usize, k: usize, removed: u64) -> Option<usize> {
        let (members, addresses, shifts) = self.members(u);
        let mut peers = addresses.iter().zip(shifts).enumerate();
        // With the words as they were at hand (as in conflict analysis),
        // those alone; else the current ones first, to spare most walks
        // back through the history: domains only shrink, so a peer fixed
        // to the value then has at most it now.
        if let Some(words) = why.rewound {
            if !self.shifted {
                return addresses.iter().enumerate().position(|(i, &address)| words[address] == removed && i != k);
            }
            return peers.position(|(i, (&address, &shift))| words[address] << shift == removed && i != k);
        }
        let state = why.state;
        peers.position(|(i, (&address, &shift))| {
            (state.word_at(address) << shift) & !removed == 0
                && i != k
                && why.first_word_at(self.vars[members[i] as usize], address) << shift == removed
        })
    }

    /// The values of constraint `u` if it has exactly as many as variables
    /// (every one of them is taken), from its domains `dom`.
    fn tight_values(dom: &[u64]) -> Option<u64> {
        let values = dom.iter().fold(0, |all, &d| all | d);
        (values.count_ones() as usize == dom.len()).then_some(values)
    }

    /// Adds why the values `taken` are taken inside `crossing` of constraint
    /// `u` (domains `dom`, values `values`): every variable of `u` had only
    /// values of `values`, those outside the crossing none of `taken`.
    fn taken_inside(&self, why: &mut Explanation<'_>, u: usize, crossing: &Crossing, values: u64, taken: u64) {
        for (k, &p) in self.topology.members(u).iter().enumerate() {
            let allowed = if crossing.mine & 1 << k != 0 { values } else { values & !taken };
            self.within(why, p as usize, allowed);
        }
    }

    /// Whether every value of `taken` is among `values` and placed in `u`
    /// (domains `dom`) only inside `crossing`.
    fn inside(dom: &[u64], crossing: &Crossing, values: u64, taken: u64) -> bool {
        let outside = dom.iter().enumerate().filter(|&(k, _)| crossing.mine & 1 << k == 0).fold(0, |a, (_, &d)| a | d);
        taken & !values == 0 && taken & outside == 0
    }

    /// Why tight constraint `u` took the positions `mask` from variable `x`,
    /// a variable of a constraint that crosses it.
    fn crossing_removal(&self, why: &mut Explanation<'_>, u: usize, x: u32, mask: u64) -> bool {
        let mut buffer = [0; 64];
        let dom = self.domains(why, u, &mut buffer);
        let Some(values) = Self::tight_values(dom) else { return false };
        for crossing in self.crossings.of(u) {
            let other = crossing.other as usize;
            let Some(i) = self.index_in(other, x) else { continue };
            let members = self.topology.members(other);
            let removed = mask << self.shift[members[i] as usize];
            if crossing.theirs & 1 << i == 0 && Self::inside(dom, crossing, values, removed) {
                self.taken_inside(why, u, crossing, values, removed);
                return true;
            }
        }
        false
    }

    /// Why constraint `u` failed, on the domains as they are.
    fn failure(&self, why: &mut Explanation<'_>, u: usize) -> bool {
        let members = self.topology.members(u);
        let mut buffer = [0; 64];
        let dom = self.domains(why, u, &mut buffer);
        let mut answers: SmallVec<[(usize, u64); 16]> = SmallVec::new();
        if explain::failure(dom, |i, allowed| answers.push((members[i] as usize, allowed))) {
            for (p, allowed) in answers {
                self.within(why, p, allowed);
            }
            return true;
        }
        // A crossing that took the last value of another constraint's variable.
        let Some(values) = Self::tight_values(dom) else { return false };
        for crossing in self.crossings.of(u) {
            let members = self.topology.members(crossing.other as usize);
            for (i, &q) in members.iter().enumerate() {
                let d = self.then(why, q as usize);
                if crossing.theirs & 1 << i == 0 && d != 0 && d & (d - 1) == 0 && Self::inside(dom, crossing, values, d)
                {
                    self.within(why, q as usize, d);
                    self.taken_inside(why, u, crossing, values, d);
                    return true;
                }
            }
        }
        false
    }
}
