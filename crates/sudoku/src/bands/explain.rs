//! Why the band propagator did what it did, for a search that learns.
//!
//! A call runs its three rules to their fixpoint on its own boards and only
//! then writes the cells back, so a removal can end a chain of inferences
//! whose middle steps never reached the domains (and a failure is found on
//! the boards, before any write). The answer replays the chain: from the
//! domains as they were when the propagator acted, the rules run again, each
//! removal recording the facts it followed from, until the values asked
//! about are gone (or the grid fails, which implies anything); the facts
//! are then traced back to the values that were already gone, and those are
//! the answer (`x = v` for a cell that had one value, `x ≠ v` otherwise):
//!
//! - a value taken by a peer fixed to it: that peer's other values gone
//!   (a naked single), or the other places of its unit (a hidden single);
//! - a cell's other values, when it was its unit's only place for a value:
//!   the unit's other places for that value;
//! - locked candidates: the value's places in the rest of the box (or line);
//! - a cell without a value: its nine values; a unit without a place for a
//!   value: its nine places.
//!
//! Two common questions are answered without the replay (or reading all
//! 81 cells, most of its cost): values that peers fixed to them took (`x = v`
//! for each), and a cell left with one value, the only place for it in one
//! of its units (`x ≠ v` for the unit's other cells).
//!
//! The replay reaches what the call did: the rules only remove, and a rule
//! that applies to some domains applies to narrower ones (or the grid
//! fails), so the fixpoint of the domains as they were (the call's starting
//! domains, narrowed by its writes so far) is the call's, or a failure. The
//! replay's derivations need not be the call's; any is a sound answer.

use csp::{Atom, Explained, Explanation, VarId};

use super::{ALL, Cells, Tables, VALUES};

/// Why a value left a cell in the replay.
#[derive(Clone, Copy, Debug)]
enum Cause {
    /// None written: a value gone from the domains as they were (an atom of
    /// the answer), which [`Replay::trace`] reads from `masks` instead.
    Gone,
    /// A peer (this cell) was fixed to it.
    Taken(u8),
    /// The cell was fixed to another value, that value's only place in a
    /// unit.
    Placed,
    /// Locked candidates: the value's places in the first unit lie within
    /// the second, and it left the second's other cells.
    Locked(u8, u8),
}

/// How a cell was fixed in the replay (`value` in `1..=9`).
#[derive(Clone, Copy, Debug)]
enum Fixed {
    /// Not fixed (or not in this replay: only the cells a cause names are read).
    Open,
    /// Its other values were gone.
    Naked { value: u8 },
    /// It was the value's only place in the unit.
    Hidden { value: u8, unit: u8 },
}

/// Where the replay failed.
#[derive(Clone, Copy, Debug)]
enum Failure {
    /// A cell without a value.
    Cell(usize),
    /// A unit without a place for a value.
    Unit(usize, usize),
}

/// The replay's scratch, kept between questions.
pub(super) struct Replay {
    cand: [Cells; 9],
    /// The cells fixed so far.
    solved: Cells,
    /// Per value, the cells that lost it since the last look at hidden
    /// singles; the values whose boards changed since the last look at
    /// locked candidates.
    hide: [Cells; 9],
    to_lock: u16,
    cause: [[Cause; 9]; 81],
    fixed: [Fixed; 81],
    /// The cells' values as they were (bit `v - 1`), and which cells had
    /// values outside `1..=9` too.
    masks: [u16; 81],
    wider: Cells,
    /// The facts traced back (bit `v - 1` per cell), and those already gone.
    seen: [u16; 81],
    leaves: [u16; 81],
    stack: Vec<(u8, u8)>,
    /// The (box, line) pairs that share three cells.
    crossings: Vec<(u8, u8)>,
}

impl Replay {
    pub(super) fn new(t: &Tables) -> Replay {
        let crossings = (18..27u8)
            .flat_map(|b| (0..18u8).map(move |l| (b, l)))
            .filter(|&(b, l)| t.unit[usize::from(b)] & t.unit[usize::from(l)] != 0)
            .collect();
        Replay {
            cand: [0; 9],
            solved: 0,
            hide: [0; 9],
            to_lock: 0,
            cause: [[Cause::Gone; 9]; 81],
            fixed: [Fixed::Open; 81],
            masks: [0; 81],
            wider: 0,
            seen: [0; 81],
            leaves: [0; 81],
            stack: Vec::new(),
            crossings,
        }
    }

    /// Answers `why` for the propagator over `cells`: `false` for the
    /// generic answer (a question about a bound, interval cells, a variable
    /// in two cells, or a replay that does not reach what was asked, which
    /// the argument in the module docs rules out).
    pub(super) fn explain(&mut self, t: &Tables, cells: &[VarId], why: &mut Explanation<'_>) -> bool {
        let goal = match why.explained() {
            Explained::Failure => None,
            Explained::Removed(var) => {
                let Some(c) = cells.iter().position(|&x| x == var) else { return false };
                if cells[c + 1..].contains(&var) {
                    return false;
                }
                let asked = why.removed_values().filter(|v| (1..=9).contains(v)).fold(0u16, |m, v| m | 1 << (v - 1));
                if asked == 0 {
                    return true; // values outside 1..=9 need no reason
                }
                Some((c, asked))
            }
            _ => return false,
        };
        if let Some((c, asked)) = goal {
            if Self::by_peers(t, cells, c, asked, why) || Self::by_unit(t, cells, c, asked, why) {
                return true;
            }
        }
        if !self.read(cells, why) || !self.answer(t, goal) {
            return false;
        }
        for (c, &x) in cells.iter().enumerate() {
            let leaves = self.leaves[c];
            if leaves == 0 {
                continue;
            }
            let had = self.masks[c];
            if had.count_ones() == 1 && self.wider >> c & 1 == 0 {
                why.because(Atom::Equal(x, i64::from(had.trailing_zeros()) + 1));
            } else {
                (0..9).filter(|&v| leaves >> v & 1 != 0).for_each(|v| why.because(Atom::NotEqual(x, v + 1)));
            }
        }
        true
    }

    /// The common case without a replay (nor reading all 81 cells): each
    /// value asked had a peer of cell `c` fixed to it, which took it (`x = v`
    /// for each). `false`, adding nothing, when one had none.
    fn by_peers(t: &Tables, cells: &[VarId], c: usize, asked: u16, why: &mut Explanation<'_>) -> bool {
        let mut taker = [usize::MAX; 9];
        let mut peers = t.peers[c];
        while peers != 0 {
            let p = peers.trailing_zeros() as usize;
            peers &= peers - 1;
            if let Some(value @ 1..=9) = why.fixed_value(cells[p]) {
                taker[value as usize - 1] = p;
            }
        }
        if (0..9).any(|v| asked >> v & 1 != 0 && taker[v] == usize::MAX) {
            return false;
        }
        for v in (0..9).filter(|&v| asked >> v & 1 != 0) {
            why.because(Atom::Equal(cells[taker[v]], v as i64 + 1));
        }
        true
    }

    /// The other common case without a replay: cell `c` was left with one
    /// value, the only place for it in one of its units (`x ≠ v` for each
    /// other cell of the unit). `false`, adding nothing, when it was not.
    fn by_unit(t: &Tables, cells: &[VarId], c: usize, asked: u16, why: &mut Explanation<'_>) -> bool {
        let mut left = None;
        for value in why.values(cells[c]) {
            let in_grid = (1..=9).contains(&value);
            if !in_grid || asked >> (value - 1) & 1 == 0 {
                if left.is_some() || !in_grid {
                    return false;
                }
                left = Some(value);
            }
        }
        let Some(value) = left else { return false };
        let units = Tables::units_of(1 << c);
        let only = (0..27)
            .filter(|&u| units >> u & 1 != 0)
            .find(|&u| (0..81).filter(|&q| q != c && t.unit[u] >> q & 1 != 0).all(|q| !why.contains(cells[q], value)));
        let Some(u) = only else { return false };
        for q in (0..81).filter(|&q| q != c && t.unit[u] >> q & 1 != 0) {
            why.because(Atom::NotEqual(cells[q], value));
        }
        true
    }

    /// Finds the values already gone (`leaves`, from `masks`) that the
    /// removal of `goal`'s values from its cell follows from, or with `None`
    /// the failure; `false` if the replay reaches neither.
    fn answer(&mut self, t: &Tables, goal: Option<(usize, u16)>) -> bool {
        let failure = match self.run(t, goal) {
            Ok(None) => return false,
            Ok(Some(failure)) => Some(failure),
            Err(()) => None,
        };
        self.seen = [0; 81];
        self.leaves = [0; 81];
        match (failure, goal) {
            (Some(Failure::Cell(c)), _) => (0..9).for_each(|v| self.push(c, v)),
            (Some(Failure::Unit(u, v)), _) => self.push_places(t.unit[u], v),
            (None, Some((c, asked))) => (0..9).filter(|&v| asked >> v & 1 != 0).for_each(|v| self.push(c, v)),
            (None, None) => return false,
        }
        self.trace(t);
        true
    }

    /// The answer for the domains `masks` (bit `v - 1`, within `1..=9`):
    /// the values already gone that the removal of `goal` (a cell and its
    /// values) or the failure follows from, per cell.
    #[cfg(test)]
    pub(super) fn leaves(&mut self, t: &Tables, masks: &[u16; 81], goal: Option<(usize, u16)>) -> Option<[u16; 81]> {
        self.masks = *masks;
        self.wider = 0;
        self.answer(t, goal).then_some(self.leaves)
    }

    /// Reads the cells' values as they were; `false` if a cell is an interval.
    fn read(&mut self, cells: &[VarId], why: &Explanation<'_>) -> bool {
        self.wider = 0;
        for (c, &x) in cells.iter().enumerate() {
            if why.is_interval(x) {
                return false;
            }
            let mut mask = 0u16;
            for value in why.values(x) {
                match value {
                    1..=9 => mask |= 1 << (value - 1),
                    _ => self.wider |= 1 << c,
                }
            }
            self.masks[c] = mask;
        }
        true
    }

    /// Runs the rules from the domains read until the values of `goal` are
    /// gone from its cell (`Err(())`), or the grid fails (`Ok(Some(_))`);
    /// `Ok(None)` at a fixpoint without either.
    fn run(&mut self, t: &Tables, goal: Option<(usize, u16)>) -> Result<Option<Failure>, ()> {
        // (The causes of the values gone from `masks` are not written:
        // `trace` reads those from `masks`.)
        self.cand = [0; 9];
        self.solved = 0;
        self.hide = [ALL; 9];
        self.to_lock = VALUES;
        for c in 0..81 {
            let mut mask = self.masks[c];
            while mask != 0 {
                self.cand[mask.trailing_zeros() as usize] |= 1 << c;
                mask &= mask - 1;
            }
        }
        let reached = |cand: &[Cells; 9]| {
            goal.is_some_and(|(c, asked)| (0..9).all(|v| asked >> v & 1 == 0 || cand[v] >> c & 1 == 0))
        };
        loop {
            if reached(&self.cand) {
                return Err(());
            }
            // Cells without a value, and naked singles.
            let (mut ones, mut twos) = (0, 0);
            for &board in &self.cand {
                twos |= ones & board;
                ones |= board;
            }
            if ALL & !ones != 0 {
                return Ok(Some(Failure::Cell((ALL & !ones).trailing_zeros() as usize)));
            }
            let mut singles = ones & !twos & !self.solved;
            if singles != 0 {
                while singles != 0 {
                    let c = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    // An earlier single of this batch may have taken its value.
                    let Some(v) = (0..9).find(|&v| self.cand[v] >> c & 1 != 0) else {
                        return Ok(Some(Failure::Cell(c)));
                    };
                    self.fixed[c] = Fixed::Naked { value: v as u8 + 1 };
                    self.solved |= 1 << c;
                    self.take(t, c, v);
                }
                continue;
            }
            // Units without a place for a value, and hidden singles, in the
            // units where the value lost places.
            let mut acted = false;
            for v in 0..9 {
                let mut units = Tables::units_of(std::mem::take(&mut self.hide[v]));
                while units != 0 {
                    let u = units.trailing_zeros() as usize;
                    units &= units - 1;
                    let places = self.cand[v] & t.unit[u];
                    if places == 0 {
                        return Ok(Some(Failure::Unit(u, v)));
                    }
                    let c = places.trailing_zeros() as usize;
                    if places.count_ones() != 1 || self.solved >> c & 1 != 0 {
                        continue;
                    }
                    self.fixed[c] = Fixed::Hidden { value: v as u8 + 1, unit: u as u8 };
                    self.solved |= 1 << c;
                    for w in (0..9).filter(|&w| w != v) {
                        self.remove(w, self.cand[w] & 1 << c, Cause::Placed);
                    }
                    self.take(t, c, v);
                    acted = true;
                }
            }
            if acted {
                continue;
            }
            // Locked candidates: a box's places within one line leave the
            // rest of the line, a line's within one box the rest of the box.
            let mut values = std::mem::take(&mut self.to_lock);
            while values != 0 {
                let v = values.trailing_zeros() as usize;
                values &= values - 1;
                if t.locked(self.cand[v]) == self.cand[v] {
                    continue; // nothing to lock
                }
                for k in 0..self.crossings.len() {
                    let (b, l) = self.crossings[k];
                    let (boxed, line) = (t.unit[usize::from(b)], t.unit[usize::from(l)]);
                    let shared = boxed & line;
                    for (from, within, other, rest) in [(b, l, boxed, line), (l, b, line, boxed)] {
                        let x = self.cand[v];
                        let gone = x & rest & !shared;
                        if x & other & !shared == 0 && gone != 0 {
                            self.remove(v, gone, Cause::Locked(from, within));
                            acted = true;
                        }
                    }
                }
            }
            if !acted {
                return Ok(None);
            }
        }
    }

    /// Takes value `v` from the peers of cell `c`, fixed to it.
    fn take(&mut self, t: &Tables, c: usize, v: usize) {
        self.remove(v, self.cand[v] & t.peers[c], Cause::Taken(c as u8));
    }

    /// Removes value `v` from the cells `gone`, for `cause`.
    fn remove(&mut self, v: usize, mut gone: Cells, cause: Cause) {
        self.cand[v] &= !gone;
        self.hide[v] |= gone;
        self.to_lock |= u16::from(gone != 0) << v;
        while gone != 0 {
            let c = gone.trailing_zeros() as usize;
            gone &= gone - 1;
            self.cause[c][v] = cause;
        }
    }

    /// Asks why value `v` left cell `c`.
    fn push(&mut self, c: usize, v: usize) {
        if self.seen[c] >> v & 1 == 0 {
            self.seen[c] |= 1 << v;
            self.stack.push((c as u8, v as u8));
        }
    }

    /// Asks why value `v` left each of `cells`.
    fn push_places(&mut self, mut cells: Cells, v: usize) {
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            self.push(c, v);
        }
    }

    /// Asks why cell `c` was fixed.
    fn push_fixed(&mut self, t: &Tables, c: usize) {
        match self.fixed[c] {
            Fixed::Naked { value } => {
                (0..9).filter(|&w| w + 1 != usize::from(value)).for_each(|w| self.push(c, w));
            }
            Fixed::Hidden { value, unit } => {
                self.push_places(t.unit[usize::from(unit)] & !(1 << c), usize::from(value) - 1);
            }
            Fixed::Open => unreachable!("a cause names a fixed cell"),
        }
    }

    /// Traces the facts asked back to the values already gone (`leaves`).
    fn trace(&mut self, t: &Tables) {
        while let Some((c, v)) = self.stack.pop() {
            let (c, v) = (usize::from(c), usize::from(v));
            if self.masks[c] >> v & 1 == 0 {
                self.leaves[c] |= 1 << v;
                continue;
            }
            match self.cause[c][v] {
                Cause::Gone => unreachable!("a value gone from the domains is a leaf"),
                Cause::Taken(p) => self.push_fixed(t, usize::from(p)),
                Cause::Placed => self.push_fixed(t, c),
                Cause::Locked(from, within) => {
                    let places = t.unit[usize::from(from)] & !t.unit[usize::from(within)];
                    self.push_places(places, v);
                }
            }
        }
    }
}
