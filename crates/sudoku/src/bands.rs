//! A dedicated propagator for the whole of a 9x9 grid (issue #18): one
//! constraint over the 81 cells instead of 27 `all_different`s, propagated
//! on per-value bit boards as the bitboard solvers do it (the registry's
//! `sudoku` crate, a JCZSolve port).
//!
//! The constraint ([`Grid9`]) says: every cell takes a value of `1..=9` and
//! every row, column and box holds nine different values. Its propagator
//! ([`Bands`]) keeps, per value, a 128-bit board of the cells that can still
//! take it (bit `9 * row + column`), and reasons on the boards only:
//!
//! 1. **Naked singles**: from bit-sliced counts over the nine boards (a cell
//!    on no board fails); a fixed cell's value leaves its 20 peers with one
//!    AND per board.
//! 2. **Hidden singles** in the units where a cell changed: a value with one
//!    place in a unit goes there; a value without a place fails.
//! 3. **Locked candidates** (pointing and claiming) for the values whose
//!    boards changed: a value whose places in a box lie in one row or column
//!    leaves the rest of that line, and the other way round.
//!
//! There is no matching: it prunes less than `mac+mrv+matching` (more
//! nodes), as the registry crate does, and finds the same solutions (it is
//! sound and fails every full assignment that breaks a unit).
//!
//! Between calls it keeps the boards of its successful calls on the current
//! branch (the engine's [`Fixpoints`]), and starts from the newest one the
//! domains descend from (after a backtrack, one at the level the search came
//! back to): only the cells changed since then are read into the boards, and
//! only the units and values they touch are looked at again.
//! It writes back only the cells whose candidates it removed. When every
//! cell starts as a one-word domain within `1..=9` (the sudoku models' cells)
//! it reads the 81 words through the slots it found in `initialise`
//! ([`Context::word_slot`]), one load each.
//!
//! Explanations for learning (the sibling module `explain`) replay the
//! rules from the domains as they were, recording why each value left each
//! cell, and answer with the values already gone that the asked removal (or
//! failure) follows from: a removal by a peer fixed as it was is explained
//! by that peer's value alone, where the engine's generic answer named the
//! domains of all 81 cells.

mod explain;

use std::sync::OnceLock;

use csp::{
    Conflict, Constraint, Context, Cost, Event, Explanation, Fixpoints, PropagationResult, Propagator,
    PropagatorOptions, VarId, WordSlot,
};

use explain::Replay;

/// A set of cells, bit `9 * row + column`.
type Cells = u128;

/// Every cell.
const ALL: Cells = (1 << 81) - 1;

/// Every value, bit `v - 1` for value `v`.
const VALUES: u16 = 0x1ff;

/// The grid's units and the cells' peers.
struct Tables {
    /// Rows 0-8, columns 9-17, boxes 18-26.
    unit: [Cells; 27],
    /// The other cells of a cell's three units.
    peers: [Cells; 81],
    /// Per nine bits of a row, which of its three boxes they touch.
    boxes_of_row: [u8; 512],
    /// Locked candidates in a band, on its nine row segments (bit `3r + k`:
    /// row `r` of the band within box `k` holds a place): the segments that
    /// keep their places ([`lock`]).
    lock_rows: [u16; 512],
    /// The same in a stack, on its nine column segments (bit `3b + j`:
    /// column `j` of the stack within band `b`).
    lock_columns: [u16; 512],
}

/// Locked candidates on the nine segments where three lines cross three
/// boxes (bit `3a + b`: line `a` within box `b` holds a place), to their
/// fixpoint: a box whose places lie in one line leaves the rest of that line
/// (pointing), a line whose places lie in one box leaves the rest of that box
/// (claiming). The segments that keep their places.
fn lock(code: u16) -> u16 {
    let at = |a: usize, b: usize| 1u16 << (3 * a + b);
    let mut m = code;
    loop {
        let before = m;
        for b in 0..3 {
            let lines: Vec<usize> = (0..3).filter(|&a| m & at(a, b) != 0).collect();
            if let [a] = lines[..] {
                (0..3).filter(|&other| other != b).for_each(|other| m &= !at(a, other));
            }
        }
        for a in 0..3 {
            let boxes: Vec<usize> = (0..3).filter(|&b| m & at(a, b) != 0).collect();
            if let [b] = boxes[..] {
                (0..3).filter(|&other| other != a).for_each(|other| m &= !at(other, b));
            }
        }
        if m == before {
            return m;
        }
    }
}

/// A 3x3 bit matrix (bit `3a + b`) transposed.
fn transpose(code: u16) -> u16 {
    (0..9).filter(|&i| code >> i & 1 != 0).fold(0, |t, i| t | 1 << (3 * (i % 3) + i / 3))
}

/// Nine segment bits of one line (bit `k` for box `k`) as the line's cells.
const SPREAD: [u32; 8] = [0, 0o7, 0o70, 0o77, 0o700, 0o707, 0o770, 0o777];

impl Tables {
    fn new() -> Tables {
        let mut t = Tables {
            unit: [0; 27],
            peers: [0; 81],
            boxes_of_row: [0; 512],
            lock_rows: [0; 512],
            lock_columns: [0; 512],
        };
        for c in 0..81 {
            let (r, k) = (c / 9, c % 9);
            for u in [r, 9 + k, 18 + (r / 3) * 3 + k / 3] {
                t.unit[u] |= 1 << c;
            }
        }
        for c in 0..81 {
            let mine = t.unit.iter().filter(|&&u| u >> c & 1 != 0).fold(0, |all, &u| all | u);
            t.peers[c] = mine & !(1 << c);
        }
        for code in 0..512u16 {
            let i = usize::from(code);
            t.boxes_of_row[i] =
                u8::from(code & 0o7 != 0) | u8::from(code & 0o70 != 0) << 1 | u8::from(code & 0o700 != 0) << 2;
            t.lock_rows[i] = lock(code);
            t.lock_columns[i] = transpose(lock(transpose(code)));
        }
        t
    }

    /// The places of one value that survive locked candidates in every band
    /// (rows against boxes) and then every stack (columns against boxes),
    /// by table: [`lock`] on each band's and stack's nine segments.
    #[inline]
    fn locked(&self, x: Cells) -> Cells {
        let mut bands = [0u32; 3];
        let mut columns = [0u32; 3];
        for (b, band) in bands.iter_mut().enumerate() {
            let cells = (x >> (27 * b)) as u32 & ((1 << 27) - 1);
            let rows = [cells & 0x1ff, cells >> 9 & 0x1ff, cells >> 18];
            let code = self.boxes_of_row[rows[0] as usize] as usize
                | (self.boxes_of_row[rows[1] as usize] as usize) << 3
                | (self.boxes_of_row[rows[2] as usize] as usize) << 6;
            let keep = self.lock_rows[code];
            let mask = SPREAD[usize::from(keep & 7)]
                | SPREAD[usize::from(keep >> 3 & 7)] << 9
                | SPREAD[usize::from(keep >> 6)] << 18;
            *band = cells & mask;
            columns[b] = (*band | *band >> 9 | *band >> 18) & 0x1ff;
        }
        let mut keep_columns = [0u32; 3];
        for stack in 0..3 {
            let code = (columns[0] >> (3 * stack) & 7)
                | (columns[1] >> (3 * stack) & 7) << 3
                | (columns[2] >> (3 * stack) & 7) << 6;
            let keep = u32::from(self.lock_columns[code as usize]);
            for (b, kept) in keep_columns.iter_mut().enumerate() {
                *kept |= (keep >> (3 * b) & 7) << (3 * stack);
            }
        }
        (0..3).fold(0, |all, b| all | Cells::from(bands[b] & (keep_columns[b] * 0x40201)) << (27 * b))
    }

    /// The units with a cell in `cells`, as bits (rows 0-8, columns 9-17,
    /// boxes 18-26): per band of three rows, which rows, columns and boxes
    /// its 27 bits touch.
    #[inline]
    fn units_of(cells: Cells) -> u32 {
        let (mut rows, mut columns, mut boxes) = (0u32, 0u32, 0u32);
        for b in 0..3 {
            let band = (cells >> (27 * b)) as u32 & ((1 << 27) - 1);
            let (r0, r1, r2) = (band & 0x1ff, band >> 9 & 0x1ff, band >> 18);
            rows |= (u32::from(r0 != 0) | u32::from(r1 != 0) << 1 | u32::from(r2 != 0) << 2) << (3 * b);
            let any = r0 | r1 | r2;
            columns |= any;
            boxes |= (u32::from(any & 7 != 0) | u32::from(any & 0x38 != 0) << 1 | u32::from(any & 0x1c0 != 0) << 2)
                << (3 * b);
        }
        rows | columns << 9 | boxes << 18
    }
}

/// The tables, built once.
fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::new)
}

/// A whole 9x9 sudoku as one constraint: the 81 cells (in reading order)
/// each take a value of `1..=9`, and the 27 units each hold nine different
/// values. Its propagator is [`Bands`] (see the module docs).
#[derive(Clone, Debug)]
pub struct Grid9 {
    cells: Vec<VarId>,
}

impl Grid9 {
    /// The constraint over `cells`, the 81 cells in reading order; `None`
    /// for another number of cells.
    pub fn new(cells: &[VarId]) -> Option<Grid9> {
        (cells.len() == 81).then(|| Grid9 { cells: cells.to_vec() })
    }
}

impl Constraint for Grid9 {
    fn scope(&self) -> &[VarId] {
        &self.cells
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        if values.len() != 81 || values.iter().any(|v| !(1..=9).contains(v)) {
            return false;
        }
        let t = tables();
        t.unit.iter().all(|&unit| {
            let seen = (0..81).filter(|&c| unit >> c & 1 != 0).fold(0u16, |seen, c| seen | 1 << (values[c] - 1));
            seen == VALUES
        })
    }

    fn kind(&self) -> &str {
        "sudoku9"
    }

    fn propagator(&self, _options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Bands::new(&self.cells)))
    }
}

/// The boards: per value the cells that can take it, the cells whose value
/// has left their peers, and each cell's values. What a call keeps of a
/// fixpoint, and what it works on.
#[derive(Clone, Copy)]
struct Boards {
    cand: [Cells; 9],
    solved: Cells,
    /// Each cell's values: in a call, as its domain was read at the start,
    /// until the write-back brings them up to date.
    masks: [u16; 81],
}

/// The blank grid: every cell can take every value. It is a fixpoint of the
/// rules, and every call's domains lie within it.
const BLANK: Boards = Boards { cand: [ALL; 9], solved: 0, masks: [VALUES; 81] };

/// The work of one call: the boards, and what is left to look at.
struct Work {
    now: Boards,
    /// Per value, the cells that lost it since the last hidden-single look.
    hide: [Cells; 9],
    /// Values whose boards changed since the last locked-candidates look
    /// (besides those in `hide`).
    to_lock: u16,
    /// Cells that lost a value in this call.
    touched: Cells,
    /// Per cell, 1 + the value it was fixed to in this call, 0 if it was
    /// not fixed in this call.
    value: [u8; 81],
}

impl Work {
    /// Fixes cell `c` to value `v` (which it has) and takes `v` from its
    /// peers. A `naked` single has no other value to lose.
    #[inline]
    fn assign(&mut self, t: &Tables, c: usize, v: usize, naked: bool) {
        let bit: Cells = 1 << c;
        if !naked {
            for (board, hide) in self.now.cand.iter_mut().zip(&mut self.hide) {
                let had = *board & bit;
                *board ^= had;
                *hide |= had;
            }
        }
        self.value[c] = v as u8 + 1;
        let changed = self.now.cand[v] & t.peers[c];
        self.now.cand[v] = (self.now.cand[v] & !t.peers[c]) | bit;
        self.hide[v] = (self.hide[v] | changed) & !bit;
        self.now.solved |= bit;
        self.touched |= changed | bit;
    }

    /// Removes the cells `gone` from value `v`'s board.
    #[inline]
    fn remove(&mut self, v: usize, gone: Cells) {
        let gone = self.now.cand[v] & gone;
        self.now.cand[v] &= !gone;
        self.hide[v] |= gone;
        self.touched |= gone;
    }

    /// The fixpoint of the three rules; `Err` on a failure.
    fn fixpoint(&mut self, t: &Tables) -> Result<(), Conflict> {
        loop {
            // Naked singles, and cells without a value.
            let (mut ones, mut twos) = (0, 0);
            for &board in &self.now.cand {
                twos |= ones & board;
                ones |= board;
            }
            if ALL & !ones != 0 {
                return Err(Conflict);
            }
            let mut singles = ones & !twos & !self.now.solved;
            if singles != 0 {
                while singles != 0 {
                    let c = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    // An earlier single of this batch may have taken its value.
                    let v = (0..9).find(|&v| self.now.cand[v] >> c & 1 != 0).ok_or(Conflict)?;
                    self.assign(t, c, v, true);
                }
                continue;
            }
            // Hidden singles, and values without a place, where a value lost
            // places.
            let mut acted = false;
            for v in 0..9 {
                let hide = std::mem::take(&mut self.hide[v]);
                if hide == 0 {
                    continue;
                }
                self.to_lock |= 1 << v;
                // The units' places on the board as it is now, without a
                // branch on what a unit holds (its count is data the branch
                // predictor cannot learn): the units without a place, and the
                // places that are a unit's only one.
                let board = self.now.cand[v];
                let (mut empty, mut only) = (false, 0);
                let mut units = Tables::units_of(hide);
                while units != 0 {
                    let u = units.trailing_zeros() as usize;
                    units &= units - 1;
                    let x = board & t.unit[u];
                    let n = x.count_ones();
                    empty |= n == 0;
                    only |= x & Cells::from(n == 1).wrapping_neg();
                }
                if empty {
                    return Err(Conflict);
                }
                // Each only place takes the value, unless an earlier one of
                // them took it from there: its unit is left without a place.
                let mut only = only & !self.now.solved;
                while only != 0 {
                    let c = only.trailing_zeros() as usize;
                    only &= only - 1;
                    if self.now.cand[v] >> c & 1 == 0 {
                        return Err(Conflict);
                    }
                    self.assign(t, c, v, false);
                    acted = true;
                }
            }
            if acted {
                continue;
            }
            // Locked candidates, for the values whose boards changed.
            let mut values = self.to_lock;
            self.to_lock = 0;
            while values != 0 {
                let v = values.trailing_zeros() as usize;
                values &= values - 1;
                let x = self.now.cand[v];
                let gone = x & !t.locked(x);
                if gone != 0 {
                    self.remove(v, gone);
                    acted = true;
                }
            }
            if !acted {
                return Ok(());
            }
        }
    }
}

/// The propagator of [`Grid9`] (see the module docs).
pub struct Bands {
    cells: Vec<VarId>,
    tables: &'static Tables,
    /// The fixpoints of the successful calls on the current branch, one
    /// [`Boards`] each.
    fixpoints: Fixpoints<Boards>,
    /// Where the cells' words are kept, when every cell's initial domain is
    /// a one-word domain of base 1 within `1..=9` (found in `initialise`): its
    /// word is then its mask, read with one load and never outside `1..=9`.
    slots: Option<Vec<WordSlot>>,
    /// The explanations' scratch, made at the first question.
    replay: Option<Box<Replay>>,
}

impl std::fmt::Debug for Bands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bands").finish_non_exhaustive()
    }
}

impl Bands {
    /// The propagator over the 81 cells `cells`, in reading order.
    fn new(cells: &[VarId]) -> Bands {
        Bands { cells: cells.to_vec(), tables: tables(), fixpoints: Fixpoints::new(1), slots: None, replay: None }
    }
}

/// Where each cell's domain word is ([`Context::word_slot`]), when every
/// cell's domain is one word of values within `1..=side` (bit 0 the value
/// 1), so that a call reads a cell with one load; `None` otherwise.
pub(crate) fn word_slots(ctx: &Context<'_>, cells: &[VarId], side: usize) -> Option<Vec<WordSlot>> {
    let within = |&x: &VarId| {
        ctx.small_domain(x).is_some_and(|(base, word)| base == 1 && word.checked_shr(side as u32).unwrap_or(0) == 0)
    };
    if cells.iter().all(within) { cells.iter().map(|&x| ctx.word_slot(x)).collect() } else { None }
}

/// A cell's values in `1..=9` as bits (`v - 1`), and whether its domain has
/// values outside `1..=9` (which no solution has: they must go).
#[inline]
fn read(ctx: &Context<'_>, x: VarId) -> (u16, bool) {
    if let Some((base, word)) = ctx.small_domain(x) {
        if (1..=9).contains(&base) {
            let shifted = word << (base - 1);
            if word >> (10 - base) == 0 {
                return (shifted as u16, false);
            }
        }
    }
    let mask = (1..=9).fold(0u16, |m, v| m | u16::from(ctx.contains(x, v)) << (v - 1));
    (mask, true)
}

/// Narrows cell `x` to the values of `mask`.
#[inline]
fn write(ctx: &mut Context<'_>, x: VarId, mask: u16, outside: bool) -> Result<bool, Conflict> {
    if !outside {
        if let Some((base, _)) = ctx.small_domain(x) {
            return ctx.retain_small(x, u64::from(mask) >> (base - 1));
        }
    }
    ctx.retain(x, |v| (1..=9).contains(&v) && mask >> (v - 1) & 1 != 0)
}

impl Propagator for Bands {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let t = self.tables;
        // The newest fixpoint the domains descend from, which the call starts
        // from.
        self.fixpoints.forget_undone(ctx);
        let top = self.fixpoints.current().map_or(&BLANK, |top| &top[0]);
        let mut work = Work {
            now: Boards { cand: top.cand, solved: top.solved, masks: [0; 81] },
            hide: [0; 9],
            to_lock: 0,
            touched: 0,
            value: [0; 81],
        };
        let masks = &mut work.now.masks;
        let mut outside: Cells = 0;
        if let Some(slots) = &self.slots {
            for (mask, &slot) in masks.iter_mut().zip(slots) {
                *mask = ctx.read_slot(slot) as u16;
            }
        } else {
            for (c, &x) in self.cells.iter().enumerate() {
                let (mask, out) = read(ctx, x);
                masks[c] = mask;
                outside |= Cells::from(out) << c;
            }
        }
        debug_assert!(masks.iter().zip(&top.masks).all(|(&m, &s)| m & !s == 0), "a cell regained a value");
        for (c, (&m, &s)) in work.now.masks.iter().zip(&top.masks).enumerate() {
            let mut gone = s & !m;
            while gone != 0 {
                let v = gone.trailing_zeros() as usize;
                gone &= gone - 1;
                work.now.cand[v] &= !(1 << c);
                work.hide[v] |= 1 << c;
            }
        }
        work.fixpoint(t)?;
        let mut changed = work.touched | outside;
        while changed != 0 {
            let c = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let fold = || (0..9).fold(0u16, |m, v| m | ((work.now.cand[v] >> c) as u16 & 1) << v);
            let mask = if work.value[c] != 0 { 1 << (work.value[c] - 1) } else { fold() };
            debug_assert_eq!(mask, fold(), "cell {c}");
            if mask != work.now.masks[c] || outside >> c & 1 != 0 {
                work.now.masks[c] = mask;
                if self.slots.is_some() {
                    ctx.retain_small(self.cells[c], u64::from(mask))?;
                } else {
                    write(ctx, self.cells[c], mask, outside >> c & 1 != 0)?;
                }
            }
        }
        if self.fixpoints.current().is_none_or(|top| top[0].masks != work.now.masks) {
            self.fixpoints.keep(std::slice::from_ref(&work.now), ctx);
        }
        Ok(())
    }

    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.fixpoints.initialise(ctx);
        self.slots = word_slots(ctx, &self.cells, 9);
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

    /// See the module docs and the sibling module `explain`.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let t = self.tables;
        self.replay.get_or_insert_with(|| Box::new(Replay::new(t))).explain(t, &self.cells, why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units of a set of cells, one unit at a time.
    fn units_naive(t: &Tables, cells: Cells) -> u32 {
        (0..27).filter(|&u| cells & t.unit[u] != 0).fold(0, |all, u| all | 1 << u)
    }

    #[test]
    fn units_of_agrees_with_the_units_one_at_a_time() {
        let t = tables();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            // xorshift; sparse and dense sets alike.
            let mut word = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            let dense = Cells::from(word()) | Cells::from(word()) << 64;
            let sparse = dense & Cells::from(word()) & Cells::from(word()) << (word() % 64);
            for cells in [dense & ALL, sparse & ALL, 1 << (word() % 81)] {
                assert_eq!(Tables::units_of(cells), units_naive(t, cells), "{cells:#x}");
            }
        }
        assert_eq!(Tables::units_of(0), 0);
        assert_eq!(Tables::units_of(ALL), (1 << 27) - 1);
    }

    #[test]
    fn the_tables_have_27_units_of_nine_and_20_peers() {
        let t = tables();
        assert!(t.unit.iter().all(|u| u.count_ones() == 9));
        assert!(t.peers.iter().all(|p| p.count_ones() == 20));
    }

    /// Locked candidates one box-line intersection at a time, one pass.
    fn locked_naive(t: &Tables, x: Cells) -> Cells {
        let mut gone = 0;
        for b in 18..27 {
            for line in 0..18 {
                let shared = t.unit[b] & t.unit[line];
                if shared == 0 || x & shared == 0 {
                    continue;
                }
                let (box_rest, line_rest) = (t.unit[b] & !shared, t.unit[line] & !shared);
                if x & box_rest == 0 {
                    gone |= line_rest;
                }
                if x & line_rest == 0 {
                    gone |= box_rest;
                }
            }
        }
        x & !gone
    }

    #[test]
    fn locked_by_table_reaches_the_fixpoint_of_the_rules_one_at_a_time() {
        let t = tables();
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            let mut word = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            // A value's places in a solved grid (the pattern grid, value
            // `v`), and sparse extra places, where the rules act: a board
            // the rules cannot empty a unit of. (On boards with no solution
            // the order of the rules can matter: the rule that empties a
            // unit first wins, and the solver fails there either way.)
            let v = word() % 9;
            let solution = (0..81).filter(|c| (c / 9 * 3 + c / 27 + c % 9) % 9 == v).fold(0, |b, c| b | 1 << c);
            let extra = Cells::from(word() & word()) | Cells::from(word() & word() & word()) << 64;
            let board = (solution | extra) & ALL;
            // The tables' pass keeps no more than the naive fixpoint and no
            // less: iterate both to their fixpoints and compare.
            let (mut a, mut b) = (board, board);
            loop {
                let next = locked_naive(t, a);
                if next == a {
                    break;
                }
                a = next;
            }
            loop {
                let next = t.locked(b);
                if next == b {
                    break;
                }
                b = next;
            }
            assert_eq!(a, b, "{board:#x}");
            assert_eq!(a & solution, solution);
            // One pass of the tables removes only what the rules remove.
            assert_eq!(a & !t.locked(board), 0);
        }
    }

    /// The root's fixpoint of the propagator on the domains `masks` (bit
    /// `v - 1`), through the engine; `None` when it fails.
    fn propagated(masks: &[u16; 81]) -> Option<[u16; 81]> {
        if masks.contains(&0) {
            return None;
        }
        let mut model = csp::Model::new();
        let domain = |m: u16| csp::Domain::values((1..=9).filter(|v| m >> (v - 1) & 1 != 0));
        let cells: Vec<VarId> = masks.iter().map(|&m| model.new_var(domain(m)).unwrap()).collect();
        model.post(Grid9::new(&cells).unwrap()).unwrap();
        let domains = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap().root_domains()?;
        Some(std::array::from_fn(|c| (1..=9).filter(|&v| domains[c].contains(v)).fold(0, |m, v| m | 1 << (v - 1))))
    }

    /// The explanations' replay (the sibling module `explain`), checked
    /// through the propagator, which is sound (the brute-force tests): on
    /// random domains, a failure's answer (the values gone that it follows
    /// from) makes the propagator fail when only those values are gone, and
    /// so does a removal's, or it removes the values asked. The answers name
    /// only values that were gone.
    #[test]
    fn the_replay_answers_imply_what_they_explain() {
        let t = tables();
        let mut replay = explain::Replay::new(t);
        let mut x: u64 = 0x6a09_e667_f3bc_c908;
        let (mut failures, mut removals) = (0, 0);
        let check = |masks: &[u16; 81], leaves: &[u16; 81], goal: Option<(usize, u16)>| {
            assert!((0..81).all(|c| leaves[c] & masks[c] == 0), "an answer names a value that was there");
            let only: [u16; 81] = std::array::from_fn(|c| VALUES & !leaves[c]);
            match (propagated(&only), goal) {
                (None, _) => {}
                (Some(left), Some((c, asked))) => assert_eq!(left[c] & asked, 0, "{masks:?} {goal:?} {leaves:?}"),
                (Some(_), None) => panic!("a failure's answer does not fail: {masks:?} {leaves:?}"),
            }
        };
        for case in 0..3_000 {
            let mut word = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            // The pattern grid's values relabelled, some given (a few wrong),
            // the others with values missing (rarely the right one).
            let shift = word() % 9;
            let given = 20 + word() % 20;
            let mut masks: [u16; 81] = std::array::from_fn(|c| {
                let right = 1u16 << (((c / 9 * 3 + c / 27 + c % 9) as u64 + shift) % 9);
                match word() % 100 {
                    n if n < given && case % 3 == 0 && word() % 30 == 0 => 1 << (word() % 9),
                    n if n < given => right,
                    _ => ((word() as u16 & word() as u16) | (right & (u16::from(word() % 40 != 0) * VALUES))) & VALUES,
                }
            });
            if case % 4 == 1 {
                // Open cells, and a value without a place in a unit.
                for m in masks.iter_mut().filter(|m| m.count_ones() > 1) {
                    *m = VALUES;
                }
                let (u, v) = (word() as usize % 27, word() % 9);
                for c in (0..81).filter(|&c| t.unit[u] >> c & 1 != 0) {
                    if masks[c] != 1 << v {
                        masks[c] &= !(1 << v);
                    }
                }
            }
            match propagated(&masks) {
                None => {
                    let leaves = replay.leaves(t, &masks, None).expect("the replay fails too");
                    check(&masks, &leaves, None);
                    failures += 1;
                }
                Some(left) => {
                    for c in (0..81).filter(|&c| masks[c] & !left[c] != 0) {
                        let goal = Some((c, masks[c] & !left[c]));
                        let leaves = replay.leaves(t, &masks, goal).expect("the replay removes them too");
                        check(&masks, &leaves, goal);
                        removals += 1;
                    }
                }
            }
        }
        assert!(failures > 300 && removals > 3_000, "{failures} failures, {removals} removals");
    }

    #[test]
    fn the_check_wants_every_unit_complete() {
        let grid = Grid9 { cells: Vec::new() };
        let solved: Vec<i64> = (0..81).map(|c| ((c / 9 * 3 + c / 27 + c % 9) % 9 + 1) as i64).collect();
        assert!(grid.is_satisfied(&solved));
        let mut swapped = solved.clone();
        swapped.swap(0, 1);
        assert!(!grid.is_satisfied(&swapped));
        let mut outside = solved.clone();
        outside[0] = 10;
        assert!(!grid.is_satisfied(&outside));
        assert!(!grid.is_satisfied(&solved[..80]));
    }
}
