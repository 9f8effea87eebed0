//! Pencil marks: for every empty cell the digits it can still take, beside the
//! givens and the digits placed so far.
//!
//! Candidates are one `u64` per cell (bit `d - 1` for digit `d`), so every
//! side up to 64 fits a machine word. Units are numbered rows `0..n`, columns
//! `n..2n`, boxes `2n..3n`; a geometry holds the cells of each unit and the
//! units of each cell, shared by every board of one shape.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use crate::grid::{Grid, Shape, Unit};

/// A set of digits: bit `d - 1` for digit `d`.
pub type DigitSet = u64;

/// The bit of digit `digit` (1-based).
#[inline]
pub(crate) fn bit(digit: u8) -> u64 {
    1u64 << (digit - 1)
}

/// The digits of a set, smallest first.
#[inline]
pub(crate) fn digits(mut set: DigitSet) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let d = set.trailing_zeros() as u8 + 1;
            set &= set - 1;
            Some(d)
        }
    })
}

/// The positions (0-based bit indices) of a mask, smallest first.
#[inline]
pub(crate) fn positions(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(p)
        }
    })
}

/// The cells of every unit and the units of every cell, for one shape.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) shape: Shape,
    pub(crate) side: usize,
    /// `3n` units, each its `n` cells in reading order.
    pub(crate) unit_cells: Vec<Vec<usize>>,
    /// For every cell: its row, column and box unit indices.
    pub(crate) cell_units: Vec<[usize; 3]>,
    /// The peers of every cell, cell after cell, in [`Geometry::peers`]'s
    /// order: cell `c`'s are `peer_cells[peer_starts[c]..peer_starts[c + 1]]`
    /// (the techniques ask for them all the time: a table, not a filter of
    /// the three units each time).
    peer_cells: Vec<u32>,
    peer_starts: Vec<usize>,
}

impl Geometry {
    fn new(shape: Shape) -> Geometry {
        let n = shape.side();
        let unit_cells: Vec<Vec<usize>> = shape.units().map(|unit| shape.unit_cells(unit).collect()).collect();
        let mut cell_units = vec![[0; 3]; n * n];
        for (u, cells) in unit_cells.iter().enumerate() {
            for &cell in cells {
                cell_units[cell][u / n] = u;
            }
        }
        let mut geometry =
            Geometry { shape, side: n, unit_cells, cell_units, peer_cells: Vec::new(), peer_starts: vec![0] };
        let mut peer_cells = Vec::new();
        let mut peer_starts = vec![0];
        for cell in 0..n * n {
            peer_cells.extend(geometry.peers_of_units(cell).map(|p| p as u32));
            peer_starts.push(peer_cells.len());
        }
        geometry.peer_cells = peer_cells;
        geometry.peer_starts = peer_starts;
        geometry
    }

    /// The geometry of a shape, built once per shape and process.
    pub(crate) fn of(shape: Shape) -> Arc<Geometry> {
        static CACHE: OnceLock<Mutex<HashMap<Shape, Arc<Geometry>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        map.entry(shape).or_insert_with(|| Arc::new(Geometry::new(shape))).clone()
    }

    #[inline]
    pub(crate) fn row(&self, cell: usize) -> usize {
        self.cell_units[cell][0]
    }

    #[inline]
    pub(crate) fn col(&self, cell: usize) -> usize {
        self.cell_units[cell][1] - self.side
    }

    #[inline]
    pub(crate) fn box_of(&self, cell: usize) -> usize {
        self.cell_units[cell][2] - 2 * self.side
    }

    /// Whether two different cells share a unit.
    #[inline]
    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        a != b && {
            let (x, y) = (&self.cell_units[a], &self.cell_units[b]);
            x[0] == y[0] || x[1] == y[1] || x[2] == y[2]
        }
    }

    /// The unit with index `u` as a [`Unit`].
    pub(crate) fn unit(&self, u: usize) -> Unit {
        let n = self.side;
        match u / n {
            0 => Unit::Row(u),
            1 => Unit::Column(u - n),
            _ => Unit::Box(u - 2 * n),
        }
    }

    /// The peers of a cell: every other cell of its three units (a cell in
    /// both the row and the box of `cell` appears once), its row's first,
    /// then its column's, then the rest of its box's, each in reading order.
    #[inline]
    pub(crate) fn peers(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.peer_cells[self.peer_starts[cell]..self.peer_starts[cell + 1]].iter().map(|&p| p as usize)
    }

    /// [`Geometry::peers`] from the units (what the table is built from).
    fn peers_of_units(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let [row, col, boxed] = self.cell_units[cell];
        let (r, c) = (self.row(cell), self.col(cell));
        self.unit_cells[row]
            .iter()
            .chain(self.unit_cells[col].iter())
            .copied()
            .filter(move |&p| p != cell)
            .chain(self.unit_cells[boxed].iter().copied().filter(move |&p| self.row(p) != r && self.col(p) != c))
    }
}

/// Why a pencil-mark board cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PencilMarkError {
    /// Two grids (givens, placed digits, solution) of different shapes.
    #[error("the grids have different shapes: {expected} and {found}")]
    Shape {
        /// The givens' shape.
        expected: Shape,
        /// The other grid's shape.
        found: Shape,
    },
    /// A placed digit where the givens already have a different one.
    #[error("{cell} is given as {given} but placed as {placed}")]
    PlacedOverGiven {
        /// The cell's name.
        cell: String,
        /// The given.
        given: u8,
        /// The placed digit.
        placed: u8,
    },
    /// Two equal digits in one unit.
    #[error("{conflict}")]
    Conflict {
        /// What the two cells are.
        conflict: String,
    },
    /// The wrong number of candidate sets.
    #[error("{found} candidate sets for a grid of {expected} cells")]
    CandidateCount {
        /// The number of cells.
        expected: usize,
        /// The number given.
        found: usize,
    },
    /// A candidate above the side.
    #[error("{cell}: candidate {digit} is larger than the side, {side}")]
    CandidateTooLarge {
        /// The cell's name.
        cell: String,
        /// The largest digit of its set.
        digit: u8,
        /// The side.
        side: usize,
    },
    /// An empty cell left without a candidate.
    #[error("{cell} is empty and has no candidate left")]
    NoCandidate {
        /// The cell's name.
        cell: String,
    },
    /// A board written as text that cannot be read.
    #[error("column {column}: {message}")]
    Text {
        /// The column (from 1) of the problem.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A cell named outside the grid.
    #[error("cell {cell} is outside a grid of {cells} cells")]
    CellOutside {
        /// The index.
        cell: usize,
        /// The number of cells.
        cells: usize,
    },
}

/// A board of pencil marks: the givens, the digits placed since, and for
/// every other cell its candidates.
///
/// ```
/// use csp_sudoku::human::PencilMarks;
/// use csp_sudoku::parse;
///
/// let puzzle = parse::one("1.42421321343421").unwrap();
/// let marks = PencilMarks::from_givens(&puzzle).unwrap();
/// assert_eq!(marks.candidate_digits(1).collect::<Vec<_>>(), vec![3]);
/// ```
#[derive(Clone)]
pub struct PencilMarks {
    geometry: Arc<Geometry>,
    values: Vec<u8>,
    given: Vec<bool>,
    candidates: Vec<DigitSet>,
    /// The number of empty cells of each unit, kept up to date by `place`
    /// (a full house is a unit with one).
    empty: Vec<u32>,
}

impl fmt::Debug for PencilMarks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PencilMarks")
            .field("shape", &self.shape())
            .field("values", &self.values)
            .field("candidates", &self.candidates)
            .finish()
    }
}

impl PartialEq for PencilMarks {
    fn eq(&self, other: &PencilMarks) -> bool {
        self.shape() == other.shape()
            && self.values == other.values
            && self.given == other.given
            && self.candidates == other.candidates
    }
}

impl Eq for PencilMarks {}

impl PencilMarks {
    /// The board of a puzzle: every empty cell's candidates are the digits
    /// none of its peers holds.
    pub fn from_givens(puzzle: &Grid) -> Result<PencilMarks, PencilMarkError> {
        PencilMarks::from_progress(puzzle, &Grid::empty(puzzle.shape()))
    }

    /// The board of a puzzle with digits placed since (`placed` may repeat the
    /// givens; 0 is empty), candidates as in [`PencilMarks::from_givens`].
    pub fn from_progress(givens: &Grid, placed: &Grid) -> Result<PencilMarks, PencilMarkError> {
        let shape = givens.shape();
        if placed.shape() != shape {
            return Err(PencilMarkError::Shape { expected: shape, found: placed.shape() });
        }
        let geometry = Geometry::of(shape);
        let cells = shape.num_cells();
        let full = full_set(shape.side());
        let mut marks = PencilMarks {
            geometry,
            values: vec![0; cells],
            given: vec![false; cells],
            candidates: vec![full; cells],
            empty: vec![shape.side() as u32; 3 * shape.side()],
        };
        let mut both = givens.clone();
        for (cell, (&g, &p)) in givens.cells().iter().zip(placed.cells()).enumerate() {
            if g != 0 && p != 0 && g != p {
                return Err(PencilMarkError::PlacedOverGiven {
                    cell: shape.cell_name(cell).to_string(),
                    given: g,
                    placed: p,
                });
            }
            if g == 0 && p != 0 {
                both.set(cell, p);
            }
        }
        if let Some(conflict) = both.first_conflict() {
            return Err(PencilMarkError::Conflict { conflict: conflict.to_string() });
        }
        for (cell, &v) in both.cells().iter().enumerate() {
            if v != 0 {
                marks.given[cell] = givens.cells()[cell] != 0;
                marks.place(cell, v);
            }
        }
        marks.check_candidates()?;
        Ok(marks)
    }

    /// The board with explicit candidates for the empty cells (`candidates[i]`
    /// has bit `d - 1` set when cell `i` may be `d`; the sets of filled cells are
    /// ignored). Candidates a placed peer rules out are removed as well.
    pub fn from_candidates(
        givens: &Grid,
        placed: &Grid,
        candidates: &[DigitSet],
    ) -> Result<PencilMarks, PencilMarkError> {
        let mut marks = PencilMarks::from_progress(givens, placed)?;
        let side = marks.side();
        if candidates.len() != marks.candidates.len() {
            return Err(PencilMarkError::CandidateCount { expected: marks.candidates.len(), found: candidates.len() });
        }
        for (cell, &set) in candidates.iter().enumerate() {
            if marks.values[cell] != 0 {
                continue;
            }
            if set & !full_set(side) != 0 {
                return Err(PencilMarkError::CandidateTooLarge {
                    cell: marks.cell_name(cell),
                    digit: 64 - set.leading_zeros() as u8,
                    side,
                });
            }
            marks.candidates[cell] &= set;
        }
        marks.check_candidates()?;
        Ok(marks)
    }

    /// Removes candidates, e.g. the deleted candidates of a HoDoKu library case
    /// (`(cell, digit)` pairs; removing an absent candidate does nothing).
    pub fn without(mut self, removed: &[(usize, u8)]) -> Result<PencilMarks, PencilMarkError> {
        for &(cell, digit) in removed {
            if cell >= self.candidates.len() {
                return Err(PencilMarkError::CellOutside { cell, cells: self.candidates.len() });
            }
            if digit == 0 || usize::from(digit) > self.side() {
                return Err(PencilMarkError::CandidateTooLarge {
                    cell: self.cell_name(cell),
                    digit,
                    side: self.side(),
                });
            }
            self.eliminate(cell, digit);
        }
        self.check_candidates()?;
        Ok(self)
    }

    fn check_candidates(&self) -> Result<(), PencilMarkError> {
        match (0..self.candidates.len()).find(|&c| self.values[c] == 0 && self.candidates[c] == 0) {
            Some(cell) => Err(PencilMarkError::NoCandidate { cell: self.cell_name(cell) }),
            None => Ok(()),
        }
    }

    /// The box shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.geometry.shape
    }

    /// The side `n`.
    #[inline]
    pub fn side(&self) -> usize {
        self.geometry.side
    }

    #[inline]
    pub(crate) fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The digit in a cell (given or placed), 0 when empty.
    #[inline]
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// Whether the cell's digit is a given.
    #[inline]
    pub fn is_given(&self, cell: usize) -> bool {
        self.given[cell]
    }

    /// The candidates of a cell (0 for a filled cell).
    #[inline]
    pub fn candidates(&self, cell: usize) -> DigitSet {
        self.candidates[cell]
    }

    /// The candidates of a cell as digits, smallest first.
    pub fn candidate_digits(&self, cell: usize) -> impl Iterator<Item = u8> + use<> {
        digits(self.candidates[cell])
    }

    /// Whether `digit` is a candidate of `cell`.
    #[inline]
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] & bit(digit) != 0
    }

    /// The number of empty cells.
    pub fn num_empty(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// The number of candidates left in all empty cells.
    pub fn num_candidates(&self) -> usize {
        self.candidates.iter().map(|c| c.count_ones() as usize).sum()
    }

    /// Whether every cell is filled.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The givens and the placed digits as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.shape(), self.values.clone()).unwrap_or_else(|_| Grid::empty(self.shape()))
    }

    /// The givens only.
    pub fn givens(&self) -> Grid {
        let cells = self.values.iter().zip(&self.given).map(|(&v, &g)| if g { v } else { 0 }).collect();
        Grid::from_cells(self.shape(), cells).unwrap_or_else(|_| Grid::empty(self.shape()))
    }

    /// The name of a cell, `r3c5`.
    pub fn cell_name(&self, cell: usize) -> String {
        self.shape().cell_name(cell).to_string()
    }

    /// Places `digit` in `cell` and removes it from the candidates of the
    /// cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        if self.values[cell] == 0 {
            for u in self.geometry.cell_units[cell] {
                self.empty[u] -= 1;
            }
        }
        self.values[cell] = digit;
        self.candidates[cell] = 0;
        let geometry = Arc::clone(&self.geometry);
        let mask = !bit(digit);
        for peer in geometry.peers(cell) {
            self.candidates[peer] &= mask;
        }
    }

    /// Removes a candidate; returns whether it was there.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let had = self.candidates[cell] & bit(digit) != 0;
        self.candidates[cell] &= !bit(digit);
        had
    }

    /// Applies a step: its placements, then its eliminations.
    pub fn apply(&mut self, step: &super::Step) {
        for p in step.placements() {
            if self.values[p.cell] == 0 {
                self.place(p.cell, p.digit);
            }
        }
        for e in step.eliminations() {
            self.eliminate(e.cell, e.digit);
        }
    }

    /// Whether some empty cell has no candidate or some unit cannot place a
    /// digit it still needs: the board contradicts itself.
    pub fn is_broken(&self) -> bool {
        if (0..self.values.len()).any(|c| self.values[c] == 0 && self.candidates[c] == 0) {
            return true;
        }
        let full = full_set(self.side());
        self.geometry.unit_cells.iter().any(|cells| {
            let (mut placed, mut possible) = (0u64, 0u64);
            for &c in cells {
                if self.values[c] != 0 {
                    let b = bit(self.values[c]);
                    if placed & b != 0 {
                        return true;
                    }
                    placed |= b;
                } else {
                    possible |= self.candidates[c];
                }
            }
            (placed | possible) != full
        })
    }

    /// The positions (indices inside the unit) where `digit` is a candidate in
    /// unit `u` (rows `0..n`, columns `n..2n`, boxes `2n..3n`).
    #[inline]
    pub(crate) fn positions_in(&self, u: usize, digit: u8) -> u64 {
        let b = bit(digit);
        let mut mask = 0;
        for (k, &cell) in self.geometry.unit_cells[u].iter().enumerate() {
            if self.candidates[cell] & b != 0 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// The number of empty cells of unit `u`.
    #[inline]
    pub(crate) fn empty_in(&self, u: usize) -> u32 {
        self.empty[u]
    }

    /// The cells of unit `u` that have `digit` as a candidate.
    pub(crate) fn cells_with(&self, u: usize, digit: u8) -> impl Iterator<Item = usize> + '_ {
        let b = bit(digit);
        self.geometry.unit_cells[u].iter().copied().filter(move |&c| self.candidates[c] & b != 0)
    }

    /// The candidates of every cell, row by row (0 for filled cells): what
    /// [`PencilMarks::from_candidates`] takes back.
    pub fn candidate_sets(&self) -> &[DigitSet] {
        &self.candidates
    }
}

/// Every digit of a side: bits `0..n`.
#[inline]
pub(crate) fn full_set(side: usize) -> DigitSet {
    if side >= 64 { u64::MAX } else { (1u64 << side) - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn peers_are_the_other_cells_of_the_three_units_once_each() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (3, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let geometry = Geometry::of(shape);
            let n = shape.side();
            for cell in 0..n * n {
                let mut peers: Vec<usize> = geometry.peers(cell).collect();
                let count = peers.len();
                peers.sort_unstable();
                peers.dedup();
                assert_eq!(peers.len(), count, "{shape} {cell}");
                // n - 1 in the row, n - 1 in the column, the rest of the box.
                assert_eq!(count, 2 * (n - 1) + (r - 1) * (c - 1), "{shape}");
                assert!(peers.iter().all(|&p| geometry.sees(cell, p)));
                // The table gives them in the order the units give them.
                assert!(geometry.peers(cell).eq(geometry.peers_of_units(cell)), "{shape} {cell}");
            }
        }
    }

    #[test]
    fn boards_from_givens_progress_and_candidates_agree() {
        let puzzle = parse::one("..6..35......134.......6..1....5..64").unwrap();
        let marks = PencilMarks::from_givens(&puzzle).unwrap();
        assert!(!marks.is_broken());
        assert_eq!(marks.num_empty(), puzzle.cells().iter().filter(|&&v| v == 0).count());
        let again =
            PencilMarks::from_candidates(&puzzle, &Grid::empty(puzzle.shape()), marks.candidate_sets()).unwrap();
        assert_eq!(again, marks);
        let mut placed = Grid::empty(puzzle.shape());
        placed.set(0, 1);
        let conflict = PencilMarks::from_progress(&puzzle, &{
            let mut g = placed.clone();
            g.set(1, 1);
            g
        });
        assert!(matches!(conflict, Err(PencilMarkError::Conflict { .. })));
    }
}
