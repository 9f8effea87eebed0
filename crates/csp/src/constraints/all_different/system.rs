//! Several `all_different`s over one small value space, propagated together.
//!
//! A sudoku has 27 all-differents over 81 cells, each cell in three. Run one
//! propagator per constraint and every value a box removes wakes the cell's
//! row and column, each of which reads its nine domains, narrows some, and
//! wakes others in turn: most of the work is the cascade (reading, trailing,
//! queueing), not the reasoning. The solver instead hands all such
//! constraints to one [`System`] propagator. It copies the domains into
//! local bit masks, works on those, and writes each changed domain back once.
//! The work comes in tiers, each run only when the ones before it have
//! nothing left to do:
//!
//! 1. **Singles**: a variable with one value left loses it from the other
//!    variables of its constraints.
//! 2. **Hidden singles**: when a constraint has exactly as many values left
//!    as variables, every value must be taken, and a value only one variable
//!    can take goes to it. A constraint fails when fewer values than
//!    variables remain. For this the system keeps, per constraint and value,
//!    the set of the constraint's variables that can take the value (its
//!    "places"), updated with every removal; a place set that shrinks to one
//!    variable is a candidate. A constraint whose variables changed between
//!    calls is checked whole, as [`super::bitset`]'s cheap pass does.
//! 3. **Matching**: for each constraint that changed since its last look
//!    and may hold a Hall set ([`hall_set_possible`]) that the pass would act
//!    on ([`may_prune`], an exact search over small sets), Régin's matching
//!    pass, which leaves it domain consistent. With
//!    [`SolveConfig::all_different_intersections`], before that, each
//!    constraint whose places shrank looks at where it crosses others (two
//!    or more shared variables, a sudoku box and a line): a value whose
//!    places lie in the shared part leaves the rest of the other constraint
//!    ([`Board::cross`]). That prunes more than the constraints do one at a
//!    time; it is the same as redundant box-line constraints would.
//!
//! Without intersections the pruning is the same as separate propagators':
//! every constraint ends domain consistent, and the
//! common fixpoint of the constraints' propagators does not depend on the
//! order they run in, so the search makes the same decisions and finds the
//! same solutions (the tests check it against separate propagators). Values
//! removed and failures are attributed to the constraint whose reasoning
//! caused them.
//!
//! With an observer, each constraint's changes are written to the domains
//! as soon as it has made them, so that every removal is reported with the
//! constraint that made it; otherwise each changed domain is written once,
//! at the end of the call.
//!
//! Between calls the system keeps the masks its last successful call left, a
//! common fixpoint: a constraint none of whose variables changed since is
//! still at its own, so only the others are checked and looked at, and only
//! the fixed variables that are new, or whose value came back to a peer (a
//! backtrack), go through tier 1 again. The place sets follow the masks
//! through every call, failed ones included.

use smallvec::SmallVec;

use super::bitset::{BitIndices, Core, hall_set_possible};
use crate::config::{Propagation, SolveConfig};
use crate::constraint::Propagator;
use crate::constraint::{AllDifferentStrength, PropagatorOptions};
use crate::kernel::Context;
use crate::kernel::{Conflict, Cost, PropagationResult};
use crate::kernel::{Event, State};
use crate::model::Model;

/// The saved matching of one constraint: matched value of each of its
/// variables, and variable of each value.
type Matching = ([u8; 64], [u8; 64]);

/// Where a position sits in one of its constraints.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The constraint.
    unit: u32,
    /// The position's index among the constraint's variables.
    index: u32,
}

/// Which variables each constraint has, and the other way round. The
/// variables of the system are numbered by position, in order of first
/// appearance; the constraints by their rank in the system.
#[derive(Debug)]
struct Topology {
    /// The positions of constraint `u`: `members[member_start[u]..member_start[u + 1]]`.
    member_start: Vec<u32>,
    members: Vec<u32>,
    /// Where position `p` sits: `slots[slot_start[p]..slot_start[p + 1]]`.
    slot_start: Vec<u32>,
    slots: Vec<Slot>,
    /// The constraints of position `p` as a bitset of `words` words:
    /// `unit_words[p * words..(p + 1) * words]`.
    unit_words: Vec<u64>,
    words: usize,
}

impl Topology {
    fn new(scopes: &[Vec<u32>], n: usize) -> Topology {
        let mut member_start = vec![0u32];
        let mut members = Vec::new();
        for scope in scopes {
            members.extend_from_slice(scope);
            member_start.push(members.len() as u32);
        }
        let mut slot_start = vec![0u32; n + 1];
        for &p in &members {
            slot_start[p as usize + 1] += 1;
        }
        for p in 0..n {
            slot_start[p + 1] += slot_start[p];
        }
        let mut fill = slot_start.clone();
        let mut slots = vec![Slot { unit: 0, index: 0 }; members.len()];
        let words = scopes.len().div_ceil(64);
        let mut unit_words = vec![0u64; n * words];
        for (u, scope) in scopes.iter().enumerate() {
            for (index, &p) in scope.iter().enumerate() {
                let p = p as usize;
                slots[fill[p] as usize] = Slot { unit: u as u32, index: index as u32 };
                fill[p] += 1;
                unit_words[p * words + u / 64] |= 1 << (u % 64);
            }
        }
        Topology { member_start, members, slot_start, slots, unit_words, words }
    }

    #[inline]
    fn members(&self, u: usize) -> &[u32] {
        &self.members[self.member_start[u] as usize..self.member_start[u + 1] as usize]
    }

    #[inline]
    fn slots(&self, p: usize) -> &[Slot] {
        &self.slots[self.slot_start[p] as usize..self.slot_start[p + 1] as usize]
    }

    #[inline]
    fn unit_words(&self, p: usize) -> &[u64] {
        &self.unit_words[p * self.words..(p + 1) * self.words]
    }
}

/// Where constraint `u` crosses another, `other`, in two or more variables
/// (a sudoku box and a line): the shared variables as bit sets of their
/// indices in each (see [`Board::cross`]).
#[derive(Clone, Copy, Debug)]
struct Crossing {
    other: u32,
    mine: u64,
    theirs: u64,
}

/// Per constraint, its crossings: `crossings[start[u]..start[u + 1]]`; and
/// per constraint and index of a variable in it, the crossings of that
/// constraint that share the variable: `by_member[member_start[m]..member_start[m + 1]]`
/// for `m = Topology::member_start[u] + index`.
#[derive(Debug, Default)]
struct Crossings {
    start: Vec<u32>,
    crossings: Vec<Crossing>,
    member_start: Vec<u32>,
    by_member: Vec<u32>,
}

impl Crossings {
    /// The crossings of every pair of constraints sharing at least two
    /// variables, neither holding the other whole.
    fn new(topology: &Topology, k: usize) -> Crossings {
        let mut start = vec![0u32];
        let mut crossings = Vec::new();
        let (mut member_start, mut by_member) = (vec![0u32], Vec::new());
        // Per other constraint, the shared variables' indices in `u` and in
        // it, found through the variables' slots (not by comparing scopes).
        let mut shared = vec![(0u64, 0u64); k];
        let mut touched: Vec<usize> = Vec::new();
        for u in 0..k {
            let members = topology.members(u);
            for (i, &p) in members.iter().enumerate() {
                for slot in topology.slots(p as usize) {
                    let w = slot.unit as usize;
                    if w != u {
                        if shared[w] == (0, 0) {
                            touched.push(w);
                        }
                        shared[w].0 |= 1 << i;
                        shared[w].1 |= 1 << slot.index;
                    }
                }
            }
            touched.sort_unstable();
            for w in touched.drain(..) {
                let (mine, theirs) = std::mem::take(&mut shared[w]);
                let count = mine.count_ones() as usize;
                if count >= 2 && count < members.len() && count < topology.members(w).len() {
                    crossings.push(Crossing { other: w as u32, mine, theirs });
                }
            }
            let first = *start.last().expect("a start") as usize;
            for index in 0..members.len() {
                for (c, crossing) in crossings.iter().enumerate().skip(first) {
                    if crossing.mine & 1 << index != 0 {
                        by_member.push(c as u32);
                    }
                }
                member_start.push(by_member.len() as u32);
            }
            start.push(crossings.len() as u32);
        }
        Crossings { start, crossings, member_start, by_member }
    }

    /// The crossings of constraint `u`.
    #[inline]
    fn of(&self, u: usize) -> &[Crossing] {
        match self.start.get(u..u + 2) {
            Some(&[a, b]) => &self.crossings[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The crossings that share the variable at `m` of the topology's
    /// member list (a constraint's index plus its `member_start`).
    #[inline]
    fn at(&self, m: usize) -> impl Iterator<Item = &Crossing> {
        let (a, b) = (self.member_start[m] as usize, self.member_start[m + 1] as usize);
        self.by_member[a..b].iter().map(|&c| &self.crossings[c as usize])
    }
}

/// Adds constraint `u` to a bitset of constraints.
#[inline]
fn insert(set: &mut [u64], u: usize) {
    set[u / 64] |= 1 << (u % 64);
}

/// Adds the constraints of a bitset (`words`) to another (`set`).
#[inline]
fn insert_all(set: &mut [u64], words: &[u64]) {
    for (to, &from) in set.iter_mut().zip(words) {
        *to |= from;
    }
}

/// Removes and returns the smallest member of a bitset.
#[inline]
fn pop_first(set: &mut [u64]) -> Option<usize> {
    for (w, word) in set.iter_mut().enumerate() {
        if *word != 0 {
            let bit = word.trailing_zeros() as usize;
            *word &= *word - 1;
            return Some(w * 64 + bit);
        }
    }
    None
}

/// How many steps [`may_prune`] takes before it gives up and answers yes.
const SEARCH_BUDGET: u32 = 256;

/// The most free variables a constraint may have for [`may_prune`] to be
/// asked; with more, the matching runs at once.
const SEARCH_MAX_FREE: usize = 9;

/// Whether Régin's matching pass could act on an all-different whose free
/// variables have the domains `rows` (bit sets of values), looking only at
/// sets of at most `max` rows: whether some set `S` of rows covers fewer
/// columns than it has rows (the constraint fails), or exactly as many (a
/// Hall set) of which another row also has one (that row loses it).
///
/// The matching pass removes value `a` from variable `x` exactly when some
/// Hall set not containing `x` has `a` among its values, and fails exactly
/// when some set of variables has fewer values than variables (Hall's
/// theorem), so a `false` here means the pass would do nothing. The same
/// holds with rows and columns swapped (values, and the variables that can
/// take them: a hidden subset), which is how the caller covers sets larger
/// than `max` when every value must be taken: a Hall set of `k` of the `m`
/// free variables leaves the other `m - k` values to the other variables.
///
/// The search is a depth-first walk over sets of rows, cut off as soon as
/// their columns outnumber `max`; it answers `true` (run the matching)
/// when it has spent its `budget` of steps.
fn may_prune(rows: impl Iterator<Item = u64>, max: usize, budget: &mut u32) -> bool {
    // A row with more than `max` columns is in no set of interest; it only
    // counts as another row (`wide`: their columns).
    let mut small: SmallVec<[u64; 64]> = SmallVec::new();
    let mut wide = 0u64;
    for row in rows {
        if row.count_ones() as usize <= max {
            small.push(row);
        } else {
            wide |= row;
        }
    }
    small.len() <= 64 && Search { rows: &small, wide, max, budget }.from(0, 0, 0)
}

/// The state of [`may_prune`]'s walk.
struct Search<'a> {
    rows: &'a [u64],
    wide: u64,
    max: usize,
    budget: &'a mut u32,
}

impl Search<'_> {
    /// Whether some set of rows extending `chosen` (with columns `cols`) by
    /// rows from `from` on answers yes.
    fn from(&mut self, from: usize, chosen: u64, cols: u64) -> bool {
        let count = chosen.count_ones() as usize + 1;
        for i in from..self.rows.len() {
            if *self.budget == 0 {
                return true;
            }
            *self.budget -= 1;
            let cols = cols | self.rows[i];
            let size = cols.count_ones() as usize;
            if size > self.max {
                continue;
            }
            let chosen = chosen | 1 << i;
            if size < count || (size == count && count >= 2 && self.others_meet(chosen, cols)) {
                return true;
            }
            if count < self.max && self.from(i + 1, chosen, cols) {
                return true;
            }
        }
        false
    }

    /// Whether a row not in `chosen` has one of the columns `cols`.
    fn others_meet(&self, chosen: u64, cols: u64) -> bool {
        self.wide & cols != 0 || self.rows.iter().enumerate().any(|(j, &row)| chosen & 1 << j == 0 && row & cols != 0)
    }
}

/// The places of the values among `members` (see [`Unit::places`]), and
/// how many values have one.
fn count_places(members: &[u32], masks: &[u64]) -> ([u64; 64], u8) {
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
struct Unit {
    /// Per value: which of the constraint's variables (by index) can take it.
    /// They describe the masks, or at the start of a call the masks the last
    /// call left.
    places: [u64; 64],
    /// How many values some variable can take, and how many variables there are.
    live: u8,
    size: u8,
    /// The values it removed in this call.
    pruned: u64,
    /// With intersections on: the values whose places shrank since its
    /// crossings were last looked at (see [`Board::cross`]).
    dirty: u64,
}

/// The domains as the system narrows them, and the work they call for.
#[derive(Debug)]
struct Board {
    /// Per position, its domain as local value ids.
    masks: Vec<u64>,
    units: Vec<Unit>,
    /// Tier 1: fixed positions whose value has not yet left their peers
    /// (a stack: `singles[..num_singles]`; a position becomes fixed once per call).
    singles: Vec<u32>,
    num_singles: usize,
    /// Tier 2: values that only one variable of a constraint can still take,
    /// as `u * 64 + v` (a stack: `hidden[..num_hidden]`; a place set shrinks
    /// to one once per call).
    hidden: Vec<u32>,
    num_hidden: usize,
    /// Tier 2: constraints to check whole, as a bitset: those whose
    /// variables changed between calls, and those whose values became tight.
    to_check: Vec<u64>,
    /// Tier 3: constraints changed since their last Hall-set look, as a bitset.
    to_look: Vec<u64>,
    /// Tier 3, with intersections on: constraints with `dirty` values, as a bitset.
    to_cross: Vec<u64>,
    crossing: bool,
    /// The number of local values.
    span: usize,
}

impl Board {
    /// Recomputes the places from the masks.
    fn recount(&mut self, topology: &Topology) {
        for (u, unit) in self.units.iter_mut().enumerate() {
            (unit.places, unit.live) = count_places(topology.members(u), &self.masks);
        }
    }

    /// Restores the places of the masks `initial` from `template` (see
    /// [`System::template`]).
    fn restore(&mut self, template: &[(Vec<u64>, u8)]) {
        for (unit, (places, live)) in self.units.iter_mut().zip(template) {
            unit.places[..places.len()].copy_from_slice(places);
            unit.live = *live;
        }
    }

    /// Position `p` changed between calls from `old` to its mask: updates
    /// the places.
    #[inline]
    fn reload(&mut self, topology: &Topology, p: usize, old: u64) {
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
    /// constraint `u`. `Err(w)` when constraint `w` is left fewer values than
    /// variables (the places are complete all the same).
    #[inline]
    fn narrow(&mut self, topology: &Topology, p: usize, new: u64, u: usize) -> Result<(), u32> {
        let removed = self.masks[p] & !new;
        self.units[u].pruned += u64::from(removed.count_ones());
        let mut result = Ok(());
        for v in BitIndices(removed) {
            if let Err(w) = self.remove(topology, p, v) {
                result = Err(w);
            }
        }
        result
    }

    /// Removes value `v` from position `p` (which has it and another) and
    /// keeps the places up to date (see [`Board::narrow`]; the caller counts
    /// the removal).
    #[inline]
    fn remove(&mut self, topology: &Topology, p: usize, v: usize) -> Result<(), u32> {
        let new = self.masks[p] & !(1 << (v & 63));
        self.masks[p] = new;
        if new & (new - 1) == 0 {
            self.singles[self.num_singles] = p as u32;
            self.num_singles += 1;
        }
        insert_all(&mut self.to_look, topology.unit_words(p));
        let mut result = Ok(());
        for slot in topology.slots(p) {
            if let Err(w) = self.unplace(topology, slot.unit as usize, v, slot.index) {
                result = Err(w);
            }
        }
        result
    }

    /// The variable at `index` of constraint `w` lost value `v`.
    #[inline(always)]
    fn unplace(&mut self, topology: &Topology, w: usize, v: usize, index: u32) -> Result<(), u32> {
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
    fn shrunk(&mut self, topology: &Topology, w: usize, v: usize, left: u64) -> Result<(), u32> {
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
    fn mark(&mut self, w: usize, values: u64) {
        let unit = &mut self.units[w];
        if unit.dirty == 0 {
            insert(&mut self.to_cross, w);
        }
        unit.dirty |= values;
    }

    /// Queues fixed position `p` for tier 1 unless it is marked in `pushed`
    /// (and marks it).
    #[inline]
    fn push_once(&mut self, p: usize, pushed: &mut [u64]) {
        let bit = 1u64 << (p % 64);
        if pushed[p / 64] & bit == 0 {
            pushed[p / 64] |= bit;
            self.singles[self.num_singles] = p as u32;
            self.num_singles += 1;
        }
    }

    /// Queues position `p` for tier 1 if it is fixed.
    #[inline]
    fn push_if_single(&mut self, p: usize) {
        let mask = self.masks[p];
        if mask & (mask - 1) == 0 {
            self.singles[self.num_singles] = p as u32;
            self.num_singles += 1;
        }
    }

    /// Tier 1: the value of fixed position `p` leaves the other variables of
    /// its constraints. `Err(w)` when constraint `w` fails.
    #[inline]
    fn eliminate(&mut self, topology: &Topology, p: usize) -> Result<(), u32> {
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
            let members = topology.members(u);
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
                for other in topology.slots(q) {
                    let w = other.unit as usize;
                    if w != u {
                        if let Err(w) = self.unplace(topology, w, v, other.index) {
                            result = Err(w);
                        }
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
    fn hidden_single(&mut self, topology: &Topology, entry: usize) -> Result<(), u32> {
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
    fn check(&mut self, topology: &Topology, u: usize) -> Result<(), u32> {
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

    /// Tier 3, with intersections on: where tight constraint `u` crosses
    /// another, a value whose places in `u` all lie in the shared variables
    /// is in one of them, so it leaves the other constraint's variables
    /// outside the crossing ("pointing" and "claiming" in sudoku). Looks at
    /// the values marked dirty: within a call a conclusion only appears
    /// when the places in `u` shrink (the other constraint's only do), and
    /// between calls `mark_crossings` marks what changed since the last
    /// fixpoint. Returns whether it removed
    /// anything.
    fn cross(&mut self, topology: &Topology, u: usize, crossings: &Crossings) -> Result<bool, u32> {
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

    /// Tier 3: constraint `u`'s matching pass, if it may hold a Hall set.
    /// Returns the number of variables checked (0 when skipped).
    fn match_unit(
        &mut self,
        topology: &Topology,
        u: usize,
        core: &mut Core,
        matching: &mut Matching,
    ) -> Result<usize, u32> {
        let members = topology.members(u);
        // The free variables, and the values they can take (none taken by a
        // fixed variable: tier 1 is done).
        let (mut free, mut values) = (0u64, 0u64);
        for (k, &p) in members.iter().enumerate() {
            let d = self.masks[p as usize];
            if d & (d - 1) != 0 {
                free |= 1 << k;
                values |= d;
            }
        }
        let unit = &self.units[u];
        let tight = unit.live == unit.size;
        // Most looks come late, with two or three variables left unfixed: no
        // Hall set can act then (see `hall_set_possible`).
        if free.count_ones() <= if tight { 3 } else { 2 } {
            return Ok(0);
        }
        let masks = &self.masks;
        if !hall_set_possible(BitIndices(free).map(|k| masks[members[k] as usize].count_ones()), tight) {
            return Ok(0);
        }
        // Look for a Hall set the matching would act on, among the free
        // variables and, when every value must be taken, among the values
        // no fixed variable has taken (see `may_prune`).
        let m = free.count_ones() as usize;
        let max = if tight { m.div_ceil(2) } else { m - 1 };
        let mut budget = SEARCH_BUDGET;
        // With many free variables the search costs more than the matching.
        let mut act =
            m > SEARCH_MAX_FREE || may_prune(BitIndices(free).map(|k| masks[members[k] as usize]), max, &mut budget);
        if !act && tight {
            act = may_prune(BitIndices(values).map(|v| unit.places[v]), max, &mut budget);
        }
        if !act {
            return Ok(0);
        }
        core.n = members.len();
        for (k, &p) in members.iter().enumerate() {
            core.dom[k] = masks[p as usize];
        }
        (core.var_match, core.val_match) = *matching;
        let result = core.matching();
        *matching = (core.var_match, core.val_match);
        result.map_err(|_| u as u32)?;
        for (k, &p) in members.iter().enumerate() {
            let p = p as usize;
            if core.dom[k] != self.masks[p] {
                self.narrow(topology, p, core.dom[k], u)?;
            }
        }
        // Domain consistent now: no need for another look at `u` until it changes.
        self.to_look[u / 64] &= !(1 << (u % 64));
        Ok(members.len())
    }
}

/// What a step of [`System::fixpoint`] changed.
#[derive(Clone, Copy, Debug)]
enum Acted {
    /// The variables of constraint `u`, its own work.
    Unit(usize),
    /// The peers of fixed position `p`, the work of each of its constraints.
    Peers(usize),
    /// The variables of the constraints crossing `u`, its work.
    Crossings(usize),
}

/// One propagator for several `all_different`s (see the module docs).
#[derive(Debug)]
pub(crate) struct System {
    /// The merged constraints, in posting order; the first one runs the system.
    constraints: Vec<u32>,
    /// Per position: the variable, the shift from its bit 0 to the local
    /// value id, and where its domain word lives.
    vars: Vec<u32>,
    shift: Vec<u8>,
    address: Vec<usize>,
    topology: Topology,
    board: Board,
    /// The masks as read at the start of the call.
    before: Vec<u64>,
    /// The masks when the solver was built (every later mask is a subset),
    /// and per constraint its places then (the values of the span) and how
    /// many values had one: a new run from the root restores these and
    /// removes what is gone since, rather than undo the last run's work.
    initial: Vec<u64>,
    template: Vec<(Vec<u64>, u8)>,
    /// The masks as the last call left them, which the places describe, and
    /// whether that call succeeded (then every constraint none of whose
    /// variables changed since is still at its fixpoint). `None` before the
    /// first call.
    last: Option<Vec<u64>>,
    /// The masks as the last successful call left them (`None` before one).
    good: Option<Vec<u64>>,
    /// Positions queued for tier 1 while loading (a bitset, clear between calls).
    pushed: Vec<u64>,
    /// Scratch of `load`: the positions changed since `last` and since `good`.
    since_last: Vec<u32>,
    since_good: Vec<u32>,
    /// Per constraint, where it crosses others (empty without
    /// [`SolveConfig::all_different_intersections`]).
    crossings: Crossings,
    /// Per constraint, its matching, kept between calls.
    matchings: Vec<Matching>,
    core: Box<Core>,
}

/// The propagator of a constraint merged into a [`System`]: the system does
/// its work, so it never runs.
#[derive(Debug)]
pub(crate) struct Merged;

impl Propagator for Merged {
    fn propagate(&mut self, _ctx: &mut Context<'_>) -> PropagationResult {
        Ok(())
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

impl System {
    /// The system of `model`'s all-differents, when the configuration and the
    /// domains allow one: arc consistency with matching strength, at least two
    /// `all_different`s without offsets and of at most 64 variables, each of
    /// their variables a dense one-word domain, all of them within one span of
    /// 64 values. `None` otherwise (each constraint then gets its own propagator).
    pub(crate) fn merge(
        model: &Model,
        config: &SolveConfig,
        options: &PropagatorOptions,
        state: &State,
    ) -> Option<System> {
        if config.propagation != Propagation::Mac || config.separate_all_different {
            return None;
        }
        // The plain all-differents of matching strength over distinct
        // variables (one `stamp` per constraint finds a repeated one).
        let mut stamp = vec![u32::MAX; model.num_vars()];
        let constraints: Vec<u32> = model
            .constraints()
            .filter_map(|(id, c)| {
                let all_different = (c as &dyn std::any::Any).downcast_ref::<super::AllDifferent>()?;
                let matching = all_different.strength(options) == AllDifferentStrength::Matching;
                let scope = c.scope();
                let distinct = scope.iter().all(|var| std::mem::replace(&mut stamp[var.index()], id.0) != id.0);
                (matching && all_different.is_plain() && scope.len() <= 64 && distinct).then_some(id.0)
            })
            .collect();
        if constraints.len() < 2 {
            return None;
        }
        // The value space: from the smallest bit 0 to the largest value.
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        for &c in &constraints {
            for var in model.constraint(crate::ids::ConstraintId(c)).expect("a constraint of the model").scope() {
                let x = var.index;
                let base = state.dense_base(x)?;
                let word = state.word(x, 0);
                if state.num_words(x) != 1 || word == 0 {
                    return None;
                }
                lo = lo.min(base);
                hi = hi.max(base + i64::from(63 - word.leading_zeros()));
            }
        }
        if hi - lo >= 64 {
            return None;
        }
        // Positions in order of first appearance.
        let mut position = vec![u32::MAX; model.num_vars()];
        let mut vars = Vec::new();
        let mut scopes = Vec::with_capacity(constraints.len());
        for &c in &constraints {
            let mut scope = Vec::new();
            for var in model.constraint(crate::ids::ConstraintId(c)).expect("a constraint of the model").scope() {
                let x = var.index as usize;
                if position[x] == u32::MAX {
                    position[x] = vars.len() as u32;
                    vars.push(var.index);
                }
                scope.push(position[x]);
            }
            scopes.push(scope);
        }
        let (n, k) = (vars.len(), constraints.len());
        let shift: Vec<u8> = vars.iter().map(|&x| (state.dense_base(x).unwrap_or(lo) - lo) as u8).collect();
        let initial: Vec<u64> = vars.iter().zip(&shift).map(|(&x, &shift)| state.word(x, 0) << shift).collect();
        let topology = Topology::new(&scopes, n);
        let span = (hi - lo + 1) as usize;
        let template = (0..k)
            .map(|u| {
                let (places, live) = count_places(topology.members(u), &initial);
                (places[..span].to_vec(), live)
            })
            .collect();
        let crossings =
            if config.all_different_intersections { Crossings::new(&topology, k) } else { Crossings::default() };
        Some(System {
            crossings,
            shift,
            address: vars.iter().map(|&x| state.word_address(x)).collect(),
            vars,
            board: Board {
                masks: vec![0; n],
                units: scopes
                    .iter()
                    .map(|scope| Unit { places: [0; 64], live: 0, size: scope.len() as u8, pruned: 0, dirty: 0 })
                    .collect(),
                singles: vec![0; n],
                num_singles: 0,
                hidden: vec![0; k * 64],
                num_hidden: 0,
                to_check: vec![0; k.div_ceil(64)],
                to_look: vec![0; k.div_ceil(64)],
                to_cross: vec![0; k.div_ceil(64)],
                crossing: config.all_different_intersections,
                span,
            },
            topology,
            before: vec![0; n],
            initial,
            template,
            last: None,
            good: None,
            pushed: vec![0; n.div_ceil(64)],
            since_last: Vec::with_capacity(n),
            since_good: Vec::with_capacity(n),
            matchings: vec![([u8::MAX; 64], [u8::MAX; 64]); k],
            core: Box::new(Core::new(0)),
            constraints,
        })
    }

    /// The merged constraints; the first one runs the system.
    pub(crate) fn constraints(&self) -> &[u32] {
        &self.constraints
    }

    /// With an observer: writes the changes to the variables of constraints
    /// `units` at once, each `(blamed, unit)` reported as the work of constraint
    /// `blamed`.
    fn write(&self, units: impl Iterator<Item = (usize, usize)>, ctx: &mut Context<'_>) -> PropagationResult {
        for (blamed, u) in units {
            ctx.constraint = self.constraints[blamed];
            for &p in self.topology.members(u) {
                let p = p as usize;
                let word = self.board.masks[p] >> self.shift[p];
                if ctx.state().word_at(self.address[p]) != word {
                    ctx.narrow_single_word(self.vars[p], word)?;
                }
            }
        }
        Ok(())
    }

    /// Runs the tiers until none has anything left to do. `Err(u)` when
    /// constraint `u` fails.
    fn fixpoint(&mut self, eager: bool, ctx: &mut Context<'_>) -> Result<(), u32> {
        loop {
            let (topology, board) = (&self.topology, &mut self.board);
            // Who acted, for `write`.
            let acted = if board.num_singles > 0 {
                board.num_singles -= 1;
                let p = board.singles[board.num_singles] as usize;
                board.eliminate(topology, p)?;
                Acted::Peers(p)
            } else if board.num_hidden > 0 {
                board.num_hidden -= 1;
                let entry = board.hidden[board.num_hidden] as usize;
                board.hidden_single(topology, entry)?;
                Acted::Unit(entry / 64)
            } else if let Some(u) = pop_first(&mut board.to_check) {
                ctx.count_checks(topology.members(u).len() as u64);
                board.check(topology, u)?;
                Acted::Unit(u)
            } else if let Some(u) = pop_first(&mut board.to_cross) {
                if !board.cross(topology, u, &self.crossings)? {
                    continue;
                }
                Acted::Crossings(u)
            } else if let Some(u) = pop_first(&mut board.to_look) {
                let checked = board.match_unit(topology, u, &mut self.core, &mut self.matchings[u])?;
                ctx.count_checks(checked as u64);
                Acted::Unit(u)
            } else {
                return Ok(());
            };
            if eager {
                // Cannot fail (the masks are never empty); blamed on the first acting constraint if it did.
                let (first, result) = match acted {
                    Acted::Unit(u) => (u as u32, self.write(std::iter::once((u, u)), ctx)),
                    Acted::Peers(p) => {
                        let slots = self.topology.slots(p);
                        let units = slots.iter().map(|slot| (slot.unit as usize, slot.unit as usize));
                        (slots[0].unit, self.write(units, ctx))
                    }
                    Acted::Crossings(u) => {
                        let units = self.crossings.of(u).iter().map(|crossing| (u, crossing.other as usize));
                        (u as u32, self.write(units, ctx))
                    }
                };
                result.map_err(|_| first)?;
            }
        }
    }

    /// With intersections on, after `load`: the values that changed at a
    /// position since the last successful call (a common fixpoint, crossings
    /// included) are dirty in its constraints, whose places of them changed,
    /// and in the constraints crossing those, whose conclusions about them
    /// may reach further now. Before a first successful call, every value.
    fn mark_crossings(&mut self) {
        let (topology, board) = (&self.topology, &mut self.board);
        let Some(good) = self.good.as_deref() else {
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

    /// Reads the domains, brings the places up to date, and queues the work
    /// that the changes since the last call call for.
    fn load(&mut self, ctx: &Context<'_>) {
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
        });
        // One pass over the domains: the positions changed since the last
        // call (whose masks the places describe) and since the last
        // successful one (a common fixpoint, see below).
        let (since_last, since_good) = (&mut self.since_last, &mut self.since_good);
        since_last.clear();
        since_good.clear();
        let mut from_last = 0;
        let (last, good) = (self.last.as_deref(), self.good.as_deref());
        // Slices of one length, so that the loop indexes without checks.
        let n = self.vars.len();
        let (address, shift) = (&self.address[..n], &self.shift[..n]);
        let (masks, before) = (&mut board.masks[..n], &mut self.before[..n]);
        let (old_last, old_good): (&[u64], &[u64]) = (last.unwrap_or(&[]), good.unwrap_or(&[]));
        if old_last.len() == n && old_good.len() == n {
            for p in 0..n {
                let mask = state.word_at(address[p]) << shift[p];
                masks[p] = mask;
                before[p] = mask;
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
                before[p] = mask;
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
        // The work: against the masks of the last successful call, a common
        // fixpoint, every constraint none of whose variables changed since
        // is still at its own. Every fixed variable's value has left its
        // peers there too: tier 1 takes the newly fixed variables, and the
        // fixed variables whose value came back to a peer (a backtrack).
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
        let mut regained = 0;
        for &p in since_good.iter() {
            let p = p as usize;
            regained += (board.masks[p] & !good[p]).count_ones() as usize;
            insert_all(&mut board.to_check, topology.unit_words(p));
            insert_all(&mut board.to_look, topology.unit_words(p));
        }
        if regained > self.vars.len() / 4 {
            // Cheaper to take every fixed variable again.
            for p in 0..self.vars.len() {
                board.push_if_single(p);
            }
            return;
        }
        let pushed = &mut self.pushed;
        for &p in since_good.iter() {
            let (p, old) = (p as usize, good[p as usize]);
            let mask = board.masks[p];
            if mask & (mask - 1) == 0 {
                board.push_once(p, pushed);
            }
            let back = mask & !old;
            if back != 0 {
                for slot in topology.slots(p) {
                    let members = topology.members(slot.unit as usize);
                    for v in BitIndices(back) {
                        for k in BitIndices(board.units[slot.unit as usize].places[v] & !(1 << slot.index)) {
                            let q = members[k] as usize;
                            if board.masks[q] == 1 << v {
                                board.push_once(q, pushed);
                            }
                        }
                    }
                }
            }
        }
        for &p in &board.singles[..board.num_singles] {
            pushed[p as usize / 64] &= !(1 << (p % 64));
        }
    }
}

impl Propagator for System {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let eager = ctx.observer.is_some();
        self.load(ctx);
        if self.board.crossing {
            self.mark_crossings();
        }
        let result = self.fixpoint(eager, ctx);
        // The places describe the masks as they are now, even after a failure.
        let mut last = self.last.take().unwrap_or_else(|| vec![0; self.vars.len()]);
        last.copy_from_slice(&self.board.masks);
        self.last = Some(last);
        if result.is_ok() {
            let mut good = self.good.take().unwrap_or_else(|| vec![0; self.vars.len()]);
            good.copy_from_slice(&self.board.masks);
            self.good = Some(good);
        }
        if let Err(u) = result {
            ctx.constraint = self.constraints[u as usize];
            return Err(Conflict);
        }
        // (The per-unit counts of removed values are reset by the next load.)
        if !eager {
            for p in 0..self.vars.len() {
                let mask = self.board.masks[p];
                if mask != self.before[p] {
                    ctx.narrow_unattributed(self.vars[p], mask >> self.shift[p])?;
                }
            }
            for (unit, &constraint) in self.board.units.iter().zip(&self.constraints) {
                if unit.pruned != 0 {
                    ctx.attribute(constraint, unit.pruned);
                }
            }
        }
        ctx.constraint = self.constraints[0];
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Domain
    }

    fn cost(&self) -> Cost {
        Cost::Expensive
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// What `match_unit` decides for free variables with domains `rows`
    /// (values `0..values`): whether to run the matching.
    fn decide(rows: &[u64], values: usize) -> bool {
        let m = rows.len();
        let tight = values == m;
        let max = if tight { m.div_ceil(2) } else { m - 1 };
        let mut budget = u32::MAX;
        if may_prune(rows.iter().copied(), max, &mut budget) {
            return true;
        }
        let places: Vec<u64> = (0..values)
            .map(|v| rows.iter().enumerate().filter(|&(_, &d)| d & 1 << v != 0).fold(0, |p, (k, _)| p | 1 << k))
            .collect();
        tight && may_prune(places.into_iter(), max, &mut budget)
    }

    #[test]
    fn the_hall_set_search_answers_exactly_when_the_matching_acts() {
        // Free variables as the tiers leave them: two values or more each,
        // and when there are as many values as variables, every value with
        // two places or more (no hidden single).
        let mut rng = Rng::new(7);
        let (mut acts, mut cases) = (0, 0);
        while cases < 20_000 {
            let m = 3 + rng.below(6) as usize;
            let values = m + rng.below(3) as usize;
            let rows: Vec<u64> = (0..m)
                .map(|_| {
                    loop {
                        let d = rng.next_u64() & ((1 << values) - 1) & rng.next_u64();
                        if d.count_ones() >= 2 {
                            break d;
                        }
                    }
                })
                .collect();
            let union = rows.iter().fold(0, |a, &d| a | d);
            let places = |v: usize| rows.iter().filter(|&&d| d & 1 << v != 0).count();
            if values == m && (union.count_ones() as usize != m || (0..m).any(|v| places(v) < 2)) {
                continue;
            }
            cases += 1;
            let mut core = Core::new(m);
            core.dom[..m].copy_from_slice(&rows);
            let acted = core.matching().is_err() || core.dom[..m] != rows[..];
            assert_eq!(decide(&rows, values), acted, "{rows:?} over {values} values");
            acts += usize::from(acted);
        }
        assert!(acts > 1000 && acts < 19_000, "both answers are exercised: {acts}");
    }
}
