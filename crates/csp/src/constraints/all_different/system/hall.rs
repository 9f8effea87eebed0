//! Tier 3: the matching pass (Régin 1994) for the constraints where a Hall
//! set could act, decided first by an exact search over small sets.

use smallvec::SmallVec;

use super::board::Board;
use super::topology::Topology;
use crate::constraints::all_different::bitset::{BitIndices, Core, hall_set_possible};

/// The saved matching of one constraint: matched value of each of its
/// variables, and variable of each value.
pub(super) type Matching = ([u8; 64], [u8; 64]);

/// How many steps [`may_prune`] takes before it gives up and answers yes.
pub(super) const SEARCH_BUDGET: u32 = 256;

/// The most free variables a constraint may have for [`may_prune`] to be
/// asked; with more, the matching runs at once.
pub(super) const SEARCH_MAX_FREE: usize = 9;

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
pub(super) fn may_prune(rows: impl Iterator<Item = u64>, max: usize, budget: &mut u32) -> bool {
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
pub(super) struct Search<'a> {
    rows: &'a [u64],
    wide: u64,
    max: usize,
    budget: &'a mut u32,
}

impl Search<'_> {
    /// Whether some set of rows extending `chosen` (with columns `cols`) by
    /// rows from `from` on answers yes.
    pub(super) fn from(&mut self, from: usize, chosen: u64, cols: u64) -> bool {
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
    pub(super) fn others_meet(&self, chosen: u64, cols: u64) -> bool {
        self.wide & cols != 0 || self.rows.iter().enumerate().any(|(j, &row)| chosen & 1 << j == 0 && row & cols != 0)
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
