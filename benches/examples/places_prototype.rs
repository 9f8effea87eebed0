//! A measuring prototype, not part of the engine (issue #18): the 9x9
//! all-different system with the *places* as the primary data, per value an
//! 81-bit board of the cells that can still take it, as the bitboard solvers
//! keep them. A fixed cell leaves its peers with one AND per value board,
//! naked singles come from bit-sliced counts over the nine boards, hidden
//! singles from one AND per unit and value. The pruning is the engine's
//! `mac+mrv+matching`: every unit domain consistent (Régin's pass, run where
//! the place counts allow a Hall set), MRV with ties to the first cell,
//! values ascending, one node per value tried; it makes the same number of
//! nodes as the engine on every puzzle tried, which is what makes its
//! instruction counts comparable. BENCHMARKS.md ("Places first: a
//! prototype") has what it measured.
//!
//! ```sh
//! cargo build --release -p csp-benches --example places_prototype
//! valgrind --tool=callgrind --toggle-collect='*places_prototype*solve_one*' \
//!     target/release/examples/places_prototype FILE [matching|singles|registry] [REPEAT]
//! ```
//!
//! `matching` (the default) is the engine's pruning; `singles` leaves the
//! matching out (naked and hidden singles only: more nodes); `registry` runs
//! the registry crate's `some_solution` on the same puzzles, parsed before.

/// A set of cells, bit `9 * row + column`.
type Board = u128;
const ALL: Board = (1 << 81) - 1;

/// The grid's units (rows, columns, boxes) and the cells' peers.
struct Tables {
    /// The cells of each unit: as a board, and by their index in the unit.
    unit: [Board; 27],
    cells: [[u8; 9]; 27],
    /// The other cells of a cell's three units.
    peers: [Board; 81],
    /// With the matching, or singles only.
    matching: bool,
}

impl Tables {
    fn new(matching: bool) -> Tables {
        let mut t = Tables { unit: [0; 27], cells: [[0; 9]; 27], peers: [0; 81], matching };
        for c in 0..81 {
            let (r, k) = (c / 9, c % 9);
            for u in [r, 9 + k, 18 + (r / 3) * 3 + k / 3] {
                let n = t.unit[u].count_ones() as usize;
                t.cells[u][n] = c as u8;
                t.unit[u] |= 1 << c;
            }
        }
        for c in 0..81 {
            let mine = t.unit.iter().filter(|&&u| u >> c & 1 != 0).fold(0, |all, &u| all | u);
            t.peers[c] = mine & !(1 << c);
        }
        t
    }

    /// The units with a cell in `cells`, as bits.
    #[inline]
    fn units_of(&self, cells: Board) -> u32 {
        let mut units = 0u32;
        for (k, &unit) in self.unit.iter().enumerate() {
            units |= u32::from(cells & unit != 0) << k;
        }
        units
    }
}

/// The bits of unit `u`'s cells in `b`, by their index in the unit.
#[inline]
fn extract(b: Board, u: usize) -> u16 {
    if u < 9 {
        (b >> (9 * u)) as u16 & 0x1ff
    } else if u < 18 {
        // A column: bits 9i of the low word go to bit 56 + i by one multiply
        // (the partial products never collide); rows 7 and 8 by hand.
        const MAGIC: u64 = 1 << 56 | 1 << 48 | 1 << 40 | 1 << 32 | 1 << 24 | 1 << 16 | 1 << 8;
        let x = b >> (u - 9);
        let low = (((x as u64) & 0x0040_2010_0804_0201).wrapping_mul(MAGIC) >> 56) as u16 & 0x7f;
        low | ((x >> 63) as u16 & 1) << 7 | ((x >> 72) as u16 & 1) << 8
    } else {
        let k = u - 18;
        let x = b >> (27 * (k / 3) + 3 * (k % 3));
        (x as u16 & 7) | ((x >> 9) as u16 & 7) << 3 | ((x >> 18) as u16 & 7) << 6
    }
}

/// A node's state: per value, the cells that can take it.
#[derive(Clone, Copy)]
struct State {
    cand: [Board; 9],
    /// Cells fixed and whose value has left their peers.
    solved: Board,
    /// Cells that lost a value since the last hidden-single look, and since
    /// the last matching look.
    to_hide: Board,
    to_match: Board,
}

impl State {
    /// Fixes cell `c` to value `v` (which it has) and takes `v` from its peers.
    #[inline]
    fn assign(&mut self, t: &Tables, c: usize, v: usize) {
        let bit = 1 << c;
        for board in &mut self.cand {
            *board &= !bit;
        }
        let changed = (self.cand[v] & t.peers[c]) | bit;
        self.cand[v] = (self.cand[v] & !t.peers[c]) | bit;
        self.solved |= bit;
        self.to_hide |= changed;
        self.to_match |= changed;
    }

    /// The fixpoint; false on a failure.
    fn propagate(&mut self, t: &Tables) -> bool {
        'tiers: loop {
            // Naked singles, and cells without a value.
            let (mut ones, mut twos) = (0, 0);
            for &board in &self.cand {
                twos |= ones & board;
                ones |= board;
            }
            if ALL & !ones != 0 {
                return false;
            }
            let mut singles = ones & !twos & !self.solved;
            if singles != 0 {
                while singles != 0 {
                    let c = singles.trailing_zeros() as usize;
                    singles &= singles - 1;
                    let Some(v) = (0..9).find(|&v| self.cand[v] >> c & 1 != 0) else { return false };
                    if self.cand[v] & t.peers[c] & self.solved != 0 {
                        return false;
                    }
                    self.assign(t, c, v);
                }
                continue;
            }
            // Hidden singles, and values without a place, in the changed units.
            let mut units = t.units_of(self.to_hide);
            self.to_hide = 0;
            let mut any = false;
            while units != 0 {
                let u = units.trailing_zeros() as usize;
                units &= units - 1;
                // Without a branch per value: which values have no place,
                // and which one place in a cell not yet fixed.
                let (mut empty, mut alone) = (false, 0u16);
                for (v, &board) in self.cand.iter().enumerate() {
                    let x = board & t.unit[u];
                    empty |= x == 0;
                    alone |= u16::from(x & x.wrapping_sub(1) == 0 && x & !self.solved != 0) << v;
                }
                if empty {
                    return false;
                }
                while alone != 0 {
                    let v = alone.trailing_zeros() as usize;
                    alone &= alone - 1;
                    let x = self.cand[v] & t.unit[u];
                    if x & !self.solved == 0 {
                        continue;
                    }
                    let c = x.trailing_zeros() as usize;
                    if x == 0 || self.cand[v] & t.peers[c] & self.solved != 0 {
                        return false;
                    }
                    self.assign(t, c, v);
                    any = true;
                }
            }
            if any {
                continue;
            }
            if !t.matching {
                return true;
            }
            // The matching, in the changed units.
            let mut units = t.units_of(self.to_match);
            self.to_match = 0;
            while units != 0 {
                let u = units.trailing_zeros() as usize;
                units &= units - 1;
                match self.regin(t, u) {
                    None => return false,
                    Some(false) => {}
                    Some(true) => {
                        while units != 0 {
                            self.to_match |= t.unit[units.trailing_zeros() as usize];
                            units &= units - 1;
                        }
                        continue 'tiers;
                    }
                }
            }
            return true;
        }
    }

    /// Régin's pass on unit `u`, values against cells (a sudoku unit is
    /// tight, so the two sides are alike). `None` on a failure, else
    /// whether it removed anything.
    fn regin(&mut self, t: &Tables, u: usize) -> Option<bool> {
        let free = t.unit[u] & !self.solved;
        let (mut vals, mut sizes, mut m) = ([0usize; 9], [0u32; 9], 0);
        for (v, &board) in self.cand.iter().enumerate() {
            let x = board & free;
            // Written at `m` always, kept by moving on (no branch per value).
            (vals[m.min(8)], sizes[m.min(8)]) = (v, x.count_ones());
            m += usize::from(x != 0);
        }
        if m as u32 != free.count_ones() {
            return None;
        }
        if m <= 3 || !hall_set_possible(&sizes[..m]) {
            return Some(false);
        }
        let mut places = [0u16; 9];
        for (p, &v) in places.iter_mut().zip(&vals[..m]) {
            *p = extract(self.cand[v] & free, u);
        }
        // A perfect matching: a spare cell first, else an augmenting path.
        let (mut cell_match, mut val_match) = ([u8::MAX; 9], [0u8; 9]);
        for i in 0..m {
            let spare =
                places[i] & !cell_match.iter().enumerate().fold(0, |s, (k, &j)| s | u16::from(j != u8::MAX) << k);
            if spare != 0 {
                let k = spare.trailing_zeros() as usize;
                (cell_match[k], val_match[i]) = (i as u8, k as u8);
            } else if !augment(i, &places, &mut cell_match, &mut val_match, &mut 0) {
                return None;
            }
        }
        // i -> j when value i can take j's cell; the edge of i to j's cell
        // is in some perfect matching iff j reaches i. Built and closed
        // without data-dependent branches; one strongly connected
        // component (most calls) removes nothing.
        // (Over all nine rows, those from `m` on empty: fixed trip counts.)
        let mut reach = [0u16; 9];
        for i in 0..9 {
            let others = places[i] & !1u16.wrapping_shl(u32::from(val_match[i]));
            for (k, &j) in cell_match.iter().enumerate() {
                reach[i] |= (others >> k & 1).wrapping_neg() & 1u16.wrapping_shl(u32::from(j));
            }
        }
        for k in 0..9 {
            for i in 0..9 {
                reach[i] |= (reach[i] >> k & 1).wrapping_neg() & reach[k];
            }
        }
        let all = (1u16 << m) - 1;
        if reach[..m].iter().fold(all, |both, &r| both & r) == all {
            return Some(false);
        }
        let mut removed = false;
        for i in 0..m {
            let mut others = places[i] & !(1 << val_match[i]);
            while others != 0 {
                let k = others.trailing_zeros() as usize;
                others &= others - 1;
                if reach[cell_match[k] as usize] >> i & 1 == 0 {
                    let bit = 1 << t.cells[u][k];
                    self.cand[vals[i]] &= !bit;
                    self.to_hide |= bit;
                    self.to_match |= bit;
                    removed = true;
                }
            }
        }
        Some(removed)
    }
}

/// Kuhn's augmenting path from value `i` over cells not yet `seen`.
fn augment(i: usize, places: &[u16; 9], cell_match: &mut [u8; 9], val_match: &mut [u8; 9], seen: &mut u16) -> bool {
    let mut options = places[i] & !*seen;
    while options != 0 {
        let k = options.trailing_zeros() as usize;
        options &= options - 1;
        *seen |= 1 << k;
        if cell_match[k] == u8::MAX || augment(cell_match[k] as usize, places, cell_match, val_match, seen) {
            (cell_match[k], val_match[i]) = (i as u8, k as u8);
            return true;
        }
    }
    false
}

/// The engine's test (`bitset::hall_set_possible`, tight), on place counts:
/// whether some `k` in `2..m - 1` values have at most `k` places each.
fn hall_set_possible(sizes: &[u32]) -> bool {
    let mut by_size = [0usize; 10];
    for &size in sizes {
        by_size[size as usize] += 1;
    }
    let mut at_most = 0;
    for (k, &count) in by_size.iter().enumerate().take(sizes.len() - 1).skip(2) {
        at_most += count;
        if at_most >= k {
            return true;
        }
    }
    false
}

/// Depth-first search: MRV, ties to the first cell, values ascending.
fn search(t: &Tables, mut s: State, nodes: &mut u64) -> Option<State> {
    if !s.propagate(t) {
        return None;
    }
    if s.solved == ALL {
        return Some(s);
    }
    // Bit-sliced counts of each cell's values; the first cell of the smallest.
    let (mut c0, mut c1, mut c2, mut c3) = (0, 0, 0, 0);
    for &x in &s.cand {
        let k0 = c0 & x;
        c0 ^= x;
        let k1 = c1 & k0;
        c1 ^= k0;
        c3 |= c2 & k1;
        c2 ^= k1;
    }
    let pick = |on: bool, b: Board| if on { b } else { !b };
    let cell = (2..=9u32)
        .map(|n| {
            ALL & !s.solved & pick(n & 1 != 0, c0) & pick(n & 2 != 0, c1) & pick(n & 4 != 0, c2) & pick(n & 8 != 0, c3)
        })
        .find(|&cells| cells != 0)?
        .trailing_zeros() as usize;
    for v in 0..9 {
        if s.cand[v] >> cell & 1 != 0 {
            *nodes += 1;
            let mut child = s;
            child.assign(t, cell, v);
            if let Some(solved) = search(t, child, nodes) {
                return Some(solved);
            }
        }
    }
    None
}

/// One puzzle (0 for a blank): its solution, if any.
#[inline(never)]
fn solve_one(t: &Tables, puzzle: &[u8; 81], nodes: &mut u64) -> Option<[u8; 81]> {
    let mut s = State { cand: [ALL; 9], solved: 0, to_hide: ALL, to_match: ALL };
    for (c, &given) in puzzle.iter().enumerate() {
        if given != 0 {
            for (w, board) in s.cand.iter_mut().enumerate() {
                if w + 1 != usize::from(given) {
                    *board &= !(1 << c);
                }
            }
        }
    }
    let solved = search(t, s, nodes)?;
    let mut grid = [0u8; 81];
    for (v, &board) in solved.cand.iter().enumerate() {
        let mut x = board;
        while x != 0 {
            grid[x.trailing_zeros() as usize] = v as u8 + 1;
            x &= x - 1;
        }
    }
    Some(grid)
}

/// Whether `grid` is a solution of `puzzle`.
fn valid(t: &Tables, puzzle: &[u8; 81], grid: &[u8; 81]) -> bool {
    puzzle.iter().zip(grid).all(|(&p, &g)| p == 0 || p == g)
        && t.cells.iter().all(|cells| cells.iter().fold(0u16, |seen, &c| seen | 1 << grid[c as usize]) == 0x3fe)
}

/// The registry crate's first solution.
#[inline(never)]
fn registry_solve_one(grid: &sudoku::Sudoku) -> Option<sudoku::Sudoku> {
    grid.some_solution()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a puzzle file");
    let which = args.next().unwrap_or_else(|| "matching".into());
    let repeat: usize = args.next().map_or(1, |a| a.parse().expect("a count"));
    let text = std::fs::read_to_string(&path).expect("a readable file");
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.starts_with('#') && l.len() >= 81).collect();
    let puzzles: Vec<[u8; 81]> = lines
        .iter()
        .map(|line| {
            let mut puzzle = [0u8; 81];
            for (cell, ch) in puzzle.iter_mut().zip(line.chars()) {
                *cell = ch.to_digit(10).unwrap_or(0) as u8;
            }
            puzzle
        })
        .collect();
    let (mut nodes, mut solved) = (0, 0);
    let start = std::time::Instant::now();
    match which.as_str() {
        "matching" | "singles" => {
            let t = Tables::new(which == "matching");
            for _ in 0..repeat {
                for puzzle in &puzzles {
                    if let Some(grid) = solve_one(&t, puzzle, &mut nodes) {
                        assert!(valid(&t, puzzle, &grid), "a non-solution");
                        solved += 1;
                    }
                }
            }
        }
        "registry" => {
            let grids: Vec<sudoku::Sudoku> =
                lines.iter().map(|l| sudoku::Sudoku::from_str_line(l).expect("a registry puzzle")).collect();
            for _ in 0..repeat {
                solved += grids.iter().filter(|g| registry_solve_one(g).is_some()).count();
            }
        }
        other => panic!("unknown solver {other}: matching, singles or registry"),
    }
    let n = puzzles.len() * repeat;
    println!(
        "{which}: {n} puzzles, {solved} solved, {:.2} nodes each, {:.2} µs each",
        nodes as f64 / n as f64,
        start.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}
