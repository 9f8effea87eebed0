//! Fish: per digit, the cells that can still hold it must contain a
//! permutation (one per row and one per column), as one constraint over
//! the whole grid, [`Fish`].
//!
//! The rows, columns and boxes as all-differents of matching strength find
//! every naked and hidden subset of a unit, and the all-different system's
//! intersections every box-line reduction, but no fish: an X-wing (two rows
//! whose candidates for a digit lie in the same two columns, which then
//! lose the digit elsewhere), a swordfish (three), a jellyfish (four) and
//! larger. All of those are Hall sets of one bipartite graph per digit: rows
//! on one side, columns on the other, an edge `(r, c)` when cell `(r, c)`
//! can hold the digit. A solution puts the digit on a perfect matching of
//! that graph, so an edge that lies in no perfect matching is a value to
//! remove, and Régin's filtering (1994) finds every such edge at once: with
//! a perfect matching `M`, edge `(r, c)` outside `M` lies in another perfect
//! matching exactly when `r` and the row `M` gives column `c` lie on a cycle
//! of the graph on rows where `a -> b` when `a` can take `b`'s column. That
//! is every fish of every size, rows as base or columns as base alike (a
//! fish on columns is the complement of one on rows). The same pruning as
//! the dual viewpoint `P[r][d]` (the column of digit `d` in row `r`) with
//! an all-different of matching strength per digit, which
//! [`Units::Dual`](crate::model::Units::Dual) states with the engine's
//! constraints; this propagator does it on bit boards of at most 64 columns.
//!
//! Each call reads the cells' domains into per-digit boards (a row's
//! candidate columns as a word) and works only on digits whose board
//! differs from the one it left at its last call (a fixpoint: nothing to
//! do), starting from that call's matching. The row graph's components are
//! Kosaraju's, on bit rows (a word operation per edge and per row).
//!
//! Explanations (for search that learns): a digit removed from cell
//! `(r, c)` because of a set of rows `S` (the rows the row matched to `c`
//! reaches, which does not contain `r`) whose candidates lie in as many
//! columns `T`: the atoms are "cell `(s, t)` cannot hold the digit" for each
//! row `s` of `S` and column `t` outside `T`, the fish's fins that are not
//! there. A failure (a digit without a perfect matching) is a set of rows
//! `S` whose candidates lie in fewer columns than `S` has rows, explained the
//! same way. The explanation is recomputed from the domains as they were
//! when the propagator acted.

use csp::{
    Atom, Constraint, Context, Cost, Event, Explained, Explanation, PropagationResult, Propagator, PropagatorOptions,
    VarId, WordSlot,
};

/// The largest side a [`Fish`] takes: a row of candidate columns is one word.
pub const LARGEST_SIDE: usize = 64;

/// Per digit, the cells that hold it form a permutation matrix: every row
/// and every column of the `n x n` grid holds each value of `1..=n` once.
/// The rows and columns of a sudoku (or a Latin square) as one constraint,
/// propagated as fish (see the module docs); the units' all-differents
/// are posted beside it, since it does no naked or hidden subsets.
#[derive(Clone, Debug)]
pub struct Fish {
    cells: Vec<VarId>,
    side: usize,
}

impl Fish {
    /// The constraint over `cells`, the `side x side` cells in reading order;
    /// `None` for a side above [`LARGEST_SIDE`], zero, or another number of
    /// cells.
    pub fn new(cells: &[VarId], side: usize) -> Option<Fish> {
        (side > 0 && side <= LARGEST_SIDE && cells.len() == side * side).then(|| Fish { cells: cells.to_vec(), side })
    }
}

impl Constraint for Fish {
    fn scope(&self) -> &[VarId] {
        &self.cells
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let n = self.side;
        if values.len() != n * n || values.iter().any(|v| !(1..=n as i64).contains(v)) {
            return false;
        }
        let bit = |v: i64| 1u64 << (v - 1);
        let full = full(n);
        let rows = (0..n).all(|r| (0..n).fold(0, |seen, c| seen | bit(values[r * n + c])) == full);
        let columns = (0..n).all(|c| (0..n).fold(0, |seen, r| seen | bit(values[r * n + c])) == full);
        rows && columns
    }

    fn kind(&self) -> &str {
        "fish"
    }

    fn propagator(&self, _options: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(FishPropagator::new(&self.cells, self.side)))
    }
}

/// The mask of `n` low bits.
fn full(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// One digit's bipartite graph: `adj[r]` the columns row `r` can put it in.
type Board = [u64; LARGEST_SIDE];

/// A perfect matching of rows to columns, or the first row left unmatched.
/// `row_of[c]` is the row of column `c`, `col_of[r]` the column of row `r`
/// (`NONE` when unmatched).
struct Matching {
    col_of: [u8; LARGEST_SIDE],
    row_of: [u8; LARGEST_SIDE],
}

const NONE: u8 = u8::MAX;

impl Matching {
    fn empty() -> Matching {
        Matching { col_of: [NONE; LARGEST_SIDE], row_of: [NONE; LARGEST_SIDE] }
    }

    /// Keeps the pairs of `self` that are still edges of `adj`, then augments
    /// every unmatched row; returns the first row that cannot be matched.
    fn repair(&mut self, adj: &Board, n: usize) -> Option<usize> {
        self.row_of[..n].fill(NONE);
        for (r, (col, &row)) in self.col_of.iter_mut().zip(adj).take(n).enumerate() {
            let c = *col;
            if c != NONE && row >> c & 1 != 0 && self.row_of[c as usize] == NONE {
                self.row_of[c as usize] = r as u8;
            } else {
                *col = NONE;
            }
        }
        for r in 0..n {
            if self.col_of[r] == NONE {
                let mut seen = 0u64;
                if !self.augment(adj, r, &mut seen) {
                    return Some(r);
                }
            }
        }
        None
    }

    /// Kuhn's augmenting path from row `r` through columns not in `seen`.
    fn augment(&mut self, adj: &Board, r: usize, seen: &mut u64) -> bool {
        let mut free = adj[r] & !*seen;
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            *seen |= 1 << c;
            let other = self.row_of[c];
            if other == NONE || self.augment(adj, other as usize, seen) {
                self.row_of[c] = r as u8;
                self.col_of[r] = c as u8;
                return true;
            }
        }
        false
    }

    /// The rows reachable from `start` (itself included) in the row graph
    /// (`a -> b` when `a` can take the column matched to `b`), and the
    /// columns those rows can take.
    fn reach(&self, adj: &Board, start: usize) -> (u64, u64) {
        let (mut rows, mut columns) = (1u64 << start, 0u64);
        let mut todo = 1u64 << start;
        while todo != 0 {
            let a = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let mut fresh = adj[a] & !columns;
            columns |= fresh;
            while fresh != 0 {
                let c = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let b = self.row_of[c];
                if b != NONE && rows >> b & 1 == 0 {
                    rows |= 1 << b;
                    todo |= 1 << b;
                }
            }
        }
        (rows, columns)
    }
}

/// The propagator of [`Fish`].
struct FishPropagator<'c> {
    cells: &'c [VarId],
    n: usize,
    /// Per digit, the board its last successful call left (a fixpoint), and
    /// the matching it found then.
    last: Vec<Board>,
    matchings: Vec<Matching>,
    /// Scratch: per digit the board read in this call and its transpose
    /// (per column the rows); per cell its values.
    boards: Vec<Board>,
    columns: Vec<Board>,
    masks: Vec<u64>,
    /// Where each cell's domain word is, when every cell's is one word of
    /// values from 1 ([`Context::word_slot`]).
    slots: Option<Vec<WordSlot>>,
}

impl<'c> FishPropagator<'c> {
    fn new(cells: &'c [VarId], n: usize) -> FishPropagator<'c> {
        FishPropagator {
            cells,
            n,
            // No board is all ones beyond the side: the first call looks at every digit.
            last: vec![[u64::MAX; LARGEST_SIDE]; n],
            matchings: (0..n).map(|_| Matching::empty()).collect(),
            boards: vec![[0; LARGEST_SIDE]; n],
            columns: vec![[0; LARGEST_SIDE]; n],
            slots: None,
            masks: vec![0; n * n],
        }
    }
}

/// A cell's values in `1..=n` as bits (`v - 1`), and whether its domain
/// has values outside `1..=n` (which no solution has).
fn read(ctx: &Context<'_>, x: VarId, n: usize) -> (u64, bool) {
    if let Some((base, word)) = ctx.small_domain(x) {
        if (1..=n as i64).contains(&base) {
            let shift = (base - 1) as u32;
            let shifted = word << shift;
            if word.checked_shr(64 - shift).unwrap_or(0) == 0 && shifted & !full(n) == 0 {
                return (shifted, false);
            }
        }
    }
    let mask = (1..=n as i64).fold(0u64, |m, v| m | u64::from(ctx.contains(x, v)) << (v - 1));
    (mask, ctx.size(x) != mask.count_ones() as usize)
}

/// The strongly connected components of a graph on `n` nodes given by its
/// successors and predecessors as bit rows (Kosaraju's two searches, on
/// words): each node's component number.
fn components(succ: &[u64; LARGEST_SIDE], pred: &[u64; LARGEST_SIDE], n: usize) -> [u8; LARGEST_SIDE] {
    let mut order = [0u8; LARGEST_SIDE];
    let mut done = 0;
    let mut stack = [0u8; LARGEST_SIDE];
    let mut unvisited = full(n);
    while unvisited != 0 {
        let s = unvisited.trailing_zeros() as usize;
        unvisited &= !(1 << s);
        stack[0] = s as u8;
        let mut depth = 1;
        while depth > 0 {
            let a = stack[depth - 1] as usize;
            let next = succ[a] & unvisited;
            if next != 0 {
                let b = next.trailing_zeros() as usize;
                unvisited &= !(1 << b);
                stack[depth] = b as u8;
                depth += 1;
            } else {
                order[done] = a as u8;
                done += 1;
                depth -= 1;
            }
        }
    }
    let mut component = [0u8; LARGEST_SIDE];
    let mut unassigned = full(n);
    let mut id = 0;
    for &s in order[..n].iter().rev() {
        if unassigned >> s & 1 == 0 {
            continue;
        }
        unassigned &= !(1 << s);
        let mut todo = 1u64 << s;
        while todo != 0 {
            let a = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            component[a] = id;
            let next = pred[a] & unassigned;
            unassigned &= !next;
            todo |= next;
        }
        id += 1;
    }
    component
}

/// The rows in `rows` and the columns outside `columns`: the cells of
/// those lacked `digit`, as atoms.
fn fins(why: &mut Explanation<'_>, cells: &[VarId], n: usize, digit: usize, rows: u64, columns: u64) {
    let mut s = rows;
    while s != 0 {
        let r = s.trailing_zeros() as usize;
        s &= s - 1;
        let mut out = full(n) & !columns;
        while out != 0 {
            let t = out.trailing_zeros() as usize;
            out &= out - 1;
            why.because(Atom::NotEqual(cells[r * n + t], digit as i64 + 1));
        }
    }
}

impl FishPropagator<'_> {
    /// Digit `d`'s board as it was when the propagator acted.
    fn board_then(&self, why: &Explanation<'_>, d: usize) -> Board {
        let n = self.n;
        let mut adj = [0u64; LARGEST_SIDE];
        for (r, row) in adj.iter_mut().enumerate().take(n) {
            for c in 0..n {
                *row |= u64::from(why.contains(self.cells[r * n + c], d as i64 + 1)) << c;
            }
        }
        adj
    }

    /// Explains that digit `d` cannot go in cell `(r, c)`, or (`at: None`)
    /// that it has no perfect matching; `false` if the board as it was
    /// shows neither (which a sound call cannot leave).
    fn explain_digit(&self, why: &mut Explanation<'_>, d: usize, at: Option<(usize, usize)>) -> bool {
        let n = self.n;
        let adj = self.board_then(why, d);
        let mut matching = Matching::empty();
        if let Some(u) = matching.repair(&adj, n) {
            // Rows reachable from an unmatched row: all their columns are
            // matched to the others, one column short.
            let (rows, columns) = matching.reach(&adj, u);
            fins(why, self.cells, n, d, rows, columns);
            return true;
        }
        let Some((r, c)) = at else { return false };
        if adj[r] >> c & 1 == 0 {
            // Not a candidate then: nothing the propagator removed.
            return false;
        }
        let b = matching.row_of[c] as usize;
        let (rows, columns) = matching.reach(&adj, b);
        if rows >> r & 1 != 0 {
            return false;
        }
        debug_assert_eq!(columns.count_ones(), rows.count_ones(), "a tight set of rows");
        fins(why, self.cells, n, d, rows, columns);
        true
    }
}

impl Propagator for FishPropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let n = self.n;
        for (board, columns) in self.boards.iter_mut().zip(&mut self.columns) {
            board[..n].fill(0);
            columns[..n].fill(0);
        }
        let mut outside = Vec::new();
        for (i, &x) in self.cells.iter().enumerate() {
            let mask = match &self.slots {
                Some(slots) => ctx.read_slot(slots[i]),
                None => {
                    let (mask, out) = read(ctx, x, n);
                    if out {
                        outside.push(i);
                    }
                    mask
                }
            };
            self.masks[i] = mask;
            let (r, c) = (i / n, i % n);
            let mut m = mask;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                self.boards[d][r] |= 1 << c;
                self.columns[d][c] |= 1 << r;
            }
        }
        for i in outside {
            let mask = self.masks[i];
            ctx.retain(self.cells[i], |v| (1..=n as i64).contains(&v) && mask >> (v - 1) & 1 != 0)?;
        }
        let mut changed = 0u64;
        for d in 0..n {
            let adj = self.boards[d];
            if adj[..n] == self.last[d][..n] {
                continue;
            }
            let matching = &mut self.matchings[d];
            if matching.repair(&adj, n).is_some() {
                self.last[d] = [u64::MAX; LARGEST_SIDE];
                return Err(csp::Conflict);
            }
            // The row graph's strongly connected components: a -> b when
            // a can take b's column; b's predecessors are the rows of the
            // column board of b's column.
            let mut succ = [0u64; LARGEST_SIDE];
            let mut pred = [0u64; LARGEST_SIDE];
            for a in 0..n {
                let mut cols = adj[a];
                while cols != 0 {
                    let c = cols.trailing_zeros() as usize;
                    cols &= cols - 1;
                    succ[a] |= 1 << matching.row_of[c];
                }
                pred[a] = self.columns[d][matching.col_of[a] as usize];
            }
            let component = components(&succ, &pred, n);
            let mut kept = adj;
            ctx.count_checks(n as u64);
            for r in 0..n {
                let mut others = adj[r] & !(1 << matching.col_of[r]);
                while others != 0 {
                    let c = others.trailing_zeros() as usize;
                    others &= others - 1;
                    if component[r] != component[matching.row_of[c] as usize] {
                        kept[r] &= !(1 << c);
                        self.masks[r * n + c] &= !(1 << d);
                        changed |= 1 << r;
                    }
                }
            }
            self.last[d] = kept;
        }
        while changed != 0 {
            let r = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            for c in 0..n {
                let i = r * n + c;
                let mask = self.masks[i];
                let x = self.cells[i];
                match ctx.small_domain(x) {
                    Some((1, _)) => {
                        ctx.retain_small(x, mask)?;
                    }
                    _ => {
                        ctx.retain(x, |v| (1..=n as i64).contains(&v) && mask >> (v - 1) & 1 != 0)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.slots = crate::bands::word_slots(ctx, self.cells, self.n);
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

    /// See the module docs.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let n = self.n;
        match why.explained() {
            Explained::Failure => (0..n).any(|d| self.explain_digit(why, d, None)),
            Explained::Removed(x) => {
                let Some(i) = self.cells.iter().position(|&y| y == x) else { return false };
                let removed: Vec<i64> = why.removed_values().collect();
                // A value outside 1..=n needs no reason.
                removed
                    .into_iter()
                    .filter(|v| (1..=n as i64).contains(v))
                    .all(|v| self.explain_digit(why, (v - 1) as usize, Some((i / n, i % n))))
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[u64]) -> Board {
        let mut adj = [0; LARGEST_SIDE];
        adj[..rows.len()].copy_from_slice(rows);
        adj
    }

    #[test]
    fn a_matching_is_repaired_and_a_short_set_is_found() {
        let adj = board(&[0b011, 0b011, 0b111]);
        let mut m = Matching::empty();
        assert_eq!(m.repair(&adj, 3), None);
        assert_eq!(m.col_of[2], 2);
        // Rows 0 and 1 can only take columns 0 and 1: an X-wing.
        let (rows, columns) = m.reach(&adj, m.row_of[0] as usize);
        assert_eq!((rows, columns), (0b011, 0b011));
        let adj = board(&[0b001, 0b001, 0b111]);
        let u = m.repair(&adj, 3).unwrap();
        let (rows, columns) = m.reach(&adj, u);
        assert_eq!((rows.count_ones(), columns), (2, 0b001));
    }

    /// Kosaraju's components against reachability both ways, on random
    /// graphs.
    #[test]
    #[expect(clippy::needless_range_loop, reason = "adjacency matrices read best indexed by node pairs")]
    fn components_are_mutual_reachability() {
        let mut rng = csp::rng::Rng::new(64);
        for case in 0..200 {
            let n = 1 + case % 12;
            let mut succ = [0u64; LARGEST_SIDE];
            let mut pred = [0u64; LARGEST_SIDE];
            for a in 0..n {
                for b in 0..n {
                    if rng.below(4) == 0 {
                        succ[a] |= 1 << b;
                        pred[b] |= 1 << a;
                    }
                }
            }
            let mut reach = succ;
            for a in 0..n {
                reach[a] |= 1 << a;
            }
            for k in 0..n {
                for a in 0..n {
                    if reach[a] >> k & 1 != 0 {
                        reach[a] |= reach[k];
                    }
                }
            }
            let component = components(&succ, &pred, n);
            for a in 0..n {
                for b in 0..n {
                    let mutual = reach[a] >> b & 1 != 0 && reach[b] >> a & 1 != 0;
                    assert_eq!(component[a] == component[b], mutual, "{a} {b} in {:?}", &succ[..n]);
                }
            }
        }
    }

    #[test]
    fn satisfied_means_latin() {
        let model = &mut csp::Model::new();
        let cells = model.new_vars(4, 1..=2).unwrap();
        let fish = Fish::new(&cells, 2).unwrap();
        assert!(fish.is_satisfied(&[1, 2, 2, 1]));
        assert!(!fish.is_satisfied(&[1, 2, 1, 2]));
        assert!(!fish.is_satisfied(&[1, 2, 2, 3]));
        assert!(Fish::new(&cells, 3).is_none());
    }
}
