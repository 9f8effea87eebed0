//! Box shapes, cells, units and the grid itself.
//!
//! A generalized sudoku has side `n = R * C`: `n` rows, `n` columns and `n`
//! boxes of `R` rows by `C` columns, and every one of these units holds each
//! value `1..=n` exactly once. Cells are numbered row by row from 0; their
//! names (`r3c5`), like the names of units (`row 3`, `column 5`, `box 2`),
//! count from 1, as sudoku players do.

use std::fmt;
use std::str::FromStr;

/// The largest side supported: a domain of up to 64 values is one machine word
/// in the engine, and the line format's alphabet (`1`-`9`, `A`-`Z`) reaches 35.
/// Larger grids are refused with [`ShapeError::TooLarge`].
pub const MAX_SIDE: usize = 64;

/// Why a box shape is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A box with no rows or no columns.
    #[error("a box needs at least one row and one column, not {rows}x{cols}")]
    Empty {
        /// Rows per box.
        rows: usize,
        /// Columns per box.
        cols: usize,
    },
    /// The side is beyond [`MAX_SIDE`].
    #[error("side {side} is larger than the largest supported side, {MAX_SIDE}")]
    TooLarge {
        /// The side asked for.
        side: usize,
    },
    /// Boxes whose side, `rows * cols`, is beyond [`MAX_SIDE`].
    #[error("boxes of {rows}x{cols} make a side larger than the largest supported side, {MAX_SIDE}")]
    BoxTooLarge {
        /// Rows per box.
        rows: usize,
        /// Columns per box.
        cols: usize,
    },
    /// No box shape with at least two rows and two columns divides the side.
    #[error(
        "side {side} cannot be cut into boxes of at least 2x2 cells{}; give a shape with --box, e.g. --box 1x{side}",
        if *side > 3 { format!(" ({side} is prime)") } else { String::new() }
    )]
    NoBoxes {
        /// The side.
        side: usize,
    },
    /// The box shape does not fit the grid: `rows * cols` is not its side.
    #[error("boxes of {rows}x{cols} do not fit a grid of side {side} ({rows}*{cols} = {} is not {side})", rows * cols)]
    Mismatch {
        /// Rows per box.
        rows: usize,
        /// Columns per box.
        cols: usize,
        /// The grid's side.
        side: usize,
    },
    /// A box shape that is not written `RxC`.
    #[error("'{text}' is not a box shape (expected ROWSxCOLS, e.g. 3x3 or 2x3)")]
    Syntax {
        /// What was given.
        text: String,
    },
}

/// The shape of the boxes, which fixes the side of the grid: `rows * cols`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// Boxes of `box_rows` rows by `box_cols` columns.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        if box_rows == 0 || box_cols == 0 {
            return Err(ShapeError::Empty { rows: box_rows, cols: box_cols });
        }
        // Named by its factors: their product may not fit (it was shown
        // saturated, `side 18446744073709551615`).
        if box_rows.checked_mul(box_cols).is_none_or(|side| side > MAX_SIDE) {
            return Err(ShapeError::BoxTooLarge { rows: box_rows, cols: box_cols });
        }
        Ok(Shape { box_rows: box_rows as u8, box_cols: box_cols as u8 })
    }

    /// The default shape for a side: square boxes when `side` is a square,
    /// otherwise as many rows as the largest divisor of `side` not above its
    /// square root (6 gives 2x3, 12 gives 3x4, 20 gives 4x5). Boxes of one row
    /// would only repeat the rows, so a prime side has no default.
    pub fn for_side(side: usize) -> Result<Shape, ShapeError> {
        if side > MAX_SIDE {
            return Err(ShapeError::TooLarge { side });
        }
        if side == 0 {
            return Err(ShapeError::Empty { rows: 0, cols: 0 });
        }
        let rows = (1..=side).take_while(|r| r * r <= side).filter(|r| side % r == 0).last().unwrap_or(1);
        if rows < 2 {
            return Err(ShapeError::NoBoxes { side });
        }
        Shape::new(rows, side / rows)
    }

    /// This shape, if it fits a grid of side `side`.
    pub fn fit(self, side: usize) -> Result<Shape, ShapeError> {
        if self.side() == side {
            Ok(self)
        } else {
            Err(ShapeError::Mismatch { rows: self.box_rows(), cols: self.box_cols(), side })
        }
    }

    /// Rows per box.
    #[inline]
    pub fn box_rows(self) -> usize {
        usize::from(self.box_rows)
    }

    /// Columns per box.
    #[inline]
    pub fn box_cols(self) -> usize {
        usize::from(self.box_cols)
    }

    /// The side `n` of the grid: rows, columns, boxes and values.
    #[inline]
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// The number of cells, `n * n`.
    #[inline]
    pub fn num_cells(self) -> usize {
        self.side() * self.side()
    }

    /// The box (counting from 0, row by row) of the cell at `row`, `col`.
    #[inline]
    pub fn box_of(self, row: usize, col: usize) -> usize {
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }

    /// Calls `f(index, row, column, box)` for every cell in reading order,
    /// without a division per cell (batch checks call this for every puzzle).
    #[inline]
    pub fn for_each_cell(self, mut f: impl FnMut(usize, usize, usize, usize)) {
        let (n, rows, cols) = (self.side(), self.box_rows(), self.box_cols());
        let mut index = 0;
        for row in 0..n {
            // A band of boxes holds `rows` boxes side by side (`n = rows * cols`).
            let first_box = row / rows * rows;
            let mut col = 0;
            for across in 0..rows {
                for _ in 0..cols {
                    f(index, row, col, first_box + across);
                    index += 1;
                    col += 1;
                }
            }
        }
        debug_assert_eq!(index, n * n);
    }

    /// The cell `index` as `(row, column)`, counting from 0.
    #[inline]
    pub fn row_col(self, index: usize) -> (usize, usize) {
        (index / self.side(), index % self.side())
    }

    /// Every unit: the rows, then the columns, then the boxes.
    pub fn units(self) -> impl Iterator<Item = Unit> {
        let n = self.side();
        (0..n).map(Unit::Row).chain((0..n).map(Unit::Column)).chain((0..n).map(Unit::Box))
    }

    /// The cells of a unit, in reading order.
    pub fn unit_cells(self, unit: Unit) -> impl Iterator<Item = usize> {
        let n = self.side();
        let (r, c) = (self.box_rows(), self.box_cols());
        (0..n).map(move |k| match unit {
            Unit::Row(i) => i * n + k,
            Unit::Column(j) => k * n + j,
            Unit::Box(b) => {
                let top = (b / r) * r;
                let left = (b % r) * c;
                (top + k / c) * n + left + k % c
            }
        })
    }

    /// The name of a cell, `r3c5` (counting from 1).
    pub fn cell_name(self, index: usize) -> CellName {
        let (row, col) = self.row_col(index);
        CellName { row, col }
    }
}

/// `RxC`, e.g. `3x3` or `2x3`.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

/// Parses `RxC` (`x` or `X`, spaces allowed around the numbers).
impl FromStr for Shape {
    type Err = ShapeError;

    fn from_str(text: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax { text: text.to_string() };
        let (rows, cols) = text.split_once(['x', 'X']).ok_or_else(syntax)?;
        let rows: usize = rows.trim().parse().map_err(|_| syntax())?;
        let cols: usize = cols.trim().parse().map_err(|_| syntax())?;
        Shape::new(rows, cols)
    }
}

/// A row, column or box, counting from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// A row.
    Row(usize),
    /// A column.
    Column(usize),
    /// A box, numbered row by row.
    Box(usize),
}

/// `row 3`, `column 5`, `box 2` (counting from 1).
impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(j) => write!(f, "column {}", j + 1),
            Unit::Box(b) => write!(f, "box {}", b + 1),
        }
    }
}

/// A cell's name as players write it: `r3c5` for row 3, column 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellName {
    /// The row, counting from 0.
    pub row: usize,
    /// The column, counting from 0.
    pub col: usize,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// Why cells cannot form a grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// The number of cells is not `n * n`.
    #[error("{found} cells do not fill a grid of side {side} ({} cells)", side * side)]
    CellCount {
        /// The side of the shape.
        side: usize,
        /// The number of cells given.
        found: usize,
    },
    /// A value above the side.
    #[error("{cell}: {value} is larger than the side, {side}")]
    ValueTooLarge {
        /// The cell.
        cell: CellName,
        /// Its value.
        value: u8,
        /// The side.
        side: usize,
    },
}

/// Two givens with the same value in one unit: a puzzle that cannot be solved,
/// found before any search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Conflict {
    /// The unit both cells are in.
    pub unit: Unit,
    /// The value they share.
    pub value: u8,
    /// The first cell, in reading order.
    pub first: CellName,
    /// The second cell.
    pub second: CellName,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} and {} are both {} in {}", self.first, self.second, self.value, self.unit)
    }
}

/// A grid of side `n`: each cell empty (0) or a value in `1..=n`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// An empty grid.
    pub fn empty(shape: Shape) -> Grid {
        Grid { shape, cells: vec![0; shape.num_cells()] }
    }

    /// A grid from its cells row by row, 0 for empty.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Result<Grid, GridError> {
        let side = shape.side();
        if cells.len() != shape.num_cells() {
            return Err(GridError::CellCount { side, found: cells.len() });
        }
        if let Some(index) = cells.iter().position(|&v| usize::from(v) > side) {
            return Err(GridError::ValueTooLarge { cell: shape.cell_name(index), value: cells[index], side });
        }
        Ok(Grid { shape, cells })
    }

    /// The box shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The side `n`.
    #[inline]
    pub fn side(&self) -> usize {
        self.shape.side()
    }

    /// The cells row by row, 0 for empty.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `row`, `col` (counting from 0), or `None` when the cell is
    /// empty or outside the grid.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        if row >= self.side() || col >= self.side() {
            return None;
        }
        Some(self.cells[row * self.side() + col]).filter(|&v| v != 0)
    }

    /// Sets the cell at `index` (row by row) to `value` (0 empties it). Returns
    /// false, changing nothing, when the index or the value is out of range.
    pub fn set(&mut self, index: usize, value: u8) -> bool {
        if usize::from(value) > self.side() {
            return false;
        }
        match self.cells.get_mut(index) {
            Some(cell) => {
                *cell = value;
                true
            }
            None => false,
        }
    }

    /// The number of filled cells.
    pub fn num_givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell has a value.
    pub fn is_filled(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of equal values in a unit, scanning rows, then columns,
    /// then boxes: a puzzle with one has no solution.
    pub fn first_conflict(&self) -> Option<Conflict> {
        // Batches check every puzzle: one pass with a bit mask per unit says
        // whether there is anything to report before the units are walked.
        if self.givens_are_distinct() {
            return None;
        }
        self.conflicts().next()
    }

    fn givens_are_distinct(&self) -> bool {
        let mut masks = [0u64; 3 * MAX_SIDE];
        let mut distinct = true;
        self.shape.for_each_cell(|i, r, c, b| {
            let value = self.cells[i];
            if value == 0 {
                return;
            }
            let bit = 1u64 << ((value - 1) & 63);
            let units = [r, MAX_SIDE + c, 2 * MAX_SIDE + b];
            if units.iter().any(|&u| masks[u] & bit != 0) {
                distinct = false;
            }
            for u in units {
                masks[u] |= bit;
            }
        });
        distinct
    }

    /// Every pair of equal values in a unit (each repeated value is reported
    /// against its first occurrence in the unit).
    pub fn conflicts(&self) -> impl Iterator<Item = Conflict> + '_ {
        let shape = self.shape;
        shape.units().flat_map(move |unit| {
            // The first cell holding each value, as cell index + 1 (0: not seen).
            let mut first = [0usize; MAX_SIDE + 1];
            shape.unit_cells(unit).filter_map(move |cell| {
                let value = self.cells[cell];
                if value == 0 {
                    return None;
                }
                let seen = &mut first[usize::from(value)];
                if *seen == 0 {
                    *seen = cell + 1;
                    None
                } else {
                    Some(Conflict { unit, value, first: shape.cell_name(*seen - 1), second: shape.cell_name(cell) })
                }
            })
        })
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, {})", self.shape, crate::format::line(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_visited_with_their_row_column_and_box() {
        for (rows, cols) in [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 5), (5, 4), (8, 8)] {
            let shape = Shape::new(rows, cols).unwrap();
            let mut seen = Vec::new();
            shape.for_each_cell(|i, r, c, b| seen.push((i, r, c, b)));
            let expected: Vec<_> = (0..shape.num_cells())
                .map(|i| {
                    let (r, c) = shape.row_col(i);
                    (i, r, c, shape.box_of(r, c))
                })
                .collect();
            assert_eq!(seen, expected, "{rows}x{cols}");
        }
    }

    #[test]
    fn default_shapes_follow_the_rule() {
        let shape = |n| Shape::for_side(n).map(|s| s.to_string());
        assert_eq!(shape(4).unwrap(), "2x2");
        assert_eq!(shape(6).unwrap(), "2x3");
        assert_eq!(shape(8).unwrap(), "2x4");
        assert_eq!(shape(9).unwrap(), "3x3");
        assert_eq!(shape(12).unwrap(), "3x4");
        assert_eq!(shape(16).unwrap(), "4x4");
        assert_eq!(shape(20).unwrap(), "4x5");
        assert_eq!(shape(25).unwrap(), "5x5");
        assert_eq!(shape(64).unwrap(), "8x8");
        assert_eq!(shape(7), Err(ShapeError::NoBoxes { side: 7 }));
        assert_eq!(shape(3), Err(ShapeError::NoBoxes { side: 3 }));
        // Not "give --box 1x0": no box shape makes a grid of side 0.
        assert_eq!(shape(0), Err(ShapeError::Empty { rows: 0, cols: 0 }));
        assert_eq!(shape(65), Err(ShapeError::TooLarge { side: 65 }));
    }

    #[test]
    fn shapes_parse_and_print() {
        assert_eq!("2x3".parse::<Shape>().unwrap(), Shape::new(2, 3).unwrap());
        assert_eq!(" 4 X 5 ".parse::<Shape>().unwrap().to_string(), "4x5");
        assert!(matches!("3".parse::<Shape>(), Err(ShapeError::Syntax { .. })));
        assert!(matches!("0x3".parse::<Shape>(), Err(ShapeError::Empty { .. })));
        assert!(matches!("9x9".parse::<Shape>(), Err(ShapeError::BoxTooLarge { rows: 9, cols: 9 })));
        // A product beyond usize is named by its factors, not saturated.
        let huge = "9999999999x9999999999".parse::<Shape>().unwrap_err().to_string();
        assert_eq!(huge, "boxes of 9999999999x9999999999 make a side larger than the largest supported side, 64");
        assert_eq!(
            Shape::new(2, 3).unwrap().fit(9).unwrap_err().to_string(),
            "boxes of 2x3 do not fit a grid of side 9 (2*3 = 6 is not 9)"
        );
    }

    #[test]
    fn every_unit_is_a_set_of_n_distinct_cells_and_every_cell_is_in_three() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (4, 5)] {
            let shape = Shape::new(r, c).unwrap();
            let mut count = vec![0; shape.num_cells()];
            for unit in shape.units() {
                let mut cells: Vec<usize> = shape.unit_cells(unit).collect();
                cells.sort_unstable();
                cells.dedup();
                assert_eq!(cells.len(), shape.side(), "{unit} of {shape}");
                for &cell in &cells {
                    count[cell] += 1;
                    let (row, col) = shape.row_col(cell);
                    if let Unit::Box(b) = unit {
                        assert_eq!(shape.box_of(row, col), b);
                    }
                }
            }
            assert!(count.iter().all(|&k| k == 3));
        }
    }

    #[test]
    fn conflicts_name_both_cells() {
        let shape = Shape::new(2, 2).unwrap();
        let mut cells = vec![0; 16];
        cells[0] = 3;
        cells[5] = 3; // r2c2: same box as r1c1
        let grid = Grid::from_cells(shape, cells).unwrap();
        let conflicts: Vec<String> = grid.conflicts().map(|c| c.to_string()).collect();
        assert_eq!(conflicts, ["r1c1 and r2c2 are both 3 in box 1"]);
    }

    #[test]
    fn bad_cells_are_refused() {
        let shape = Shape::new(2, 2).unwrap();
        assert_eq!(Grid::from_cells(shape, vec![0; 15]), Err(GridError::CellCount { side: 4, found: 15 }));
        let mut cells = vec![0; 16];
        cells[6] = 5;
        assert_eq!(Grid::from_cells(shape, cells).unwrap_err().to_string(), "r2c3: 5 is larger than the side, 4");
        let mut grid = Grid::empty(shape);
        assert!(!grid.set(3, 5));
        assert!(!grid.set(16, 1));
        assert!(grid.set(3, 4));
        assert_eq!(grid.get(0, 3), Some(4));
    }
}
