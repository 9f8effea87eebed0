//! Checking grids without the engine: what the `check` command reports, and the
//! independent verification every printed solution goes through.
//!
//! Nothing here uses `csp`: a solution is trusted only after plain counting
//! says that every row, column and box holds each value once and that every
//! given is kept, so a bug in a propagator cannot print a wrong answer.

use std::fmt;

use crate::grid::{CellName, Grid, MAX_SIDE, Unit};

/// What is wrong with one unit of a filled grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenUnit {
    /// The unit.
    pub unit: Unit,
    /// Each value that appears more than once, with the cells holding it.
    pub repeated: Vec<(u8, Vec<CellName>)>,
    /// The values that do not appear.
    pub missing: Vec<u8>,
}

/// `row 3: 5 at r3c1, r3c7; missing 4`.
impl fmt::Display for BrokenUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.unit)?;
        for (i, (value, cells)) in self.repeated.iter().enumerate() {
            f.write_str(if i == 0 { " " } else { "; " })?;
            write!(f, "{value} at ")?;
            for (j, cell) in cells.iter().enumerate() {
                if j > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{cell}")?;
            }
        }
        if !self.missing.is_empty() {
            f.write_str(if self.repeated.is_empty() { " missing " } else { "; missing " })?;
            for (i, value) in self.missing.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{value}")?;
            }
        }
        Ok(())
    }
}

/// The verdict on a grid meant to be filled: its empty cells and broken units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// The cells without a value.
    pub empty: Vec<CellName>,
    /// Every row, column and box that does not hold each value exactly once,
    /// rows first, then columns, then boxes.
    pub broken: Vec<BrokenUnit>,
}

impl CheckReport {
    /// Whether the grid is a valid, filled grid.
    pub fn is_valid(&self) -> bool {
        self.empty.is_empty() && self.broken.is_empty()
    }
}

/// Checks a filled grid, naming every empty cell and every broken unit (an
/// empty cell does not by itself break its units: they are reported only for
/// repeated values).
pub fn check_filled(grid: &Grid) -> CheckReport {
    // Most grids handed to a checker are fine: one pass with bit masks proves
    // it without allocating; the detailed report is built only for the rest.
    if unit_masks_full(grid) {
        return CheckReport::default();
    }
    let shape = grid.shape();
    let cells = grid.cells();
    let empty = (0..cells.len()).filter(|&i| cells[i] == 0).map(|i| shape.cell_name(i)).collect();
    let mut broken = Vec::new();
    let mut holders: Vec<Vec<CellName>> = vec![Vec::new(); shape.side() + 1];
    for unit in shape.units() {
        holders.iter_mut().for_each(Vec::clear);
        let mut has_empty = false;
        for cell in shape.unit_cells(unit) {
            let value = usize::from(cells[cell]);
            has_empty |= value == 0;
            holders[value].push(shape.cell_name(cell));
        }
        let repeated: Vec<(u8, Vec<CellName>)> =
            (1..=shape.side()).filter(|&v| holders[v].len() > 1).map(|v| (v as u8, holders[v].clone())).collect();
        // With empty cells a missing value is expected; only repeats are errors.
        let missing: Vec<u8> = if has_empty {
            Vec::new()
        } else {
            (1..=shape.side()).filter(|&v| holders[v].is_empty()).map(|v| v as u8).collect()
        };
        if !repeated.is_empty() || !missing.is_empty() {
            broken.push(BrokenUnit { unit, repeated, missing });
        }
    }
    CheckReport { empty, broken }
}

/// Why a solution failed verification.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The solution is not of the puzzle's shape.
    #[error("the solution has boxes of {found}, the puzzle {expected}")]
    Shape {
        /// The puzzle's shape.
        expected: crate::grid::Shape,
        /// The solution's.
        found: crate::grid::Shape,
    },
    /// A cell is empty.
    #[error("{cell} is empty")]
    Empty {
        /// The cell.
        cell: CellName,
    },
    /// A given was changed.
    #[error("{cell} was given as {given} but the solution has {found}")]
    GivenChanged {
        /// The cell.
        cell: CellName,
        /// The given.
        given: u8,
        /// The solution's value.
        found: u8,
    },
    /// A unit is not a permutation of `1..=n`.
    #[error("{0}")]
    Broken(BrokenUnit),
}

/// Verifies that `solution` solves `puzzle`: same shape, every cell filled,
/// every given kept, and every unit a permutation of `1..=n`. It takes
/// `O(n^2)` time with one bit mask per unit.
///
/// ```
/// use csp_sudoku::{check::verify_solution, parse};
/// let puzzle = parse::one("1.42421321343421").unwrap();
/// let solution = parse::one("1342421321343421").unwrap();
/// assert!(verify_solution(&puzzle, &solution).is_ok());
/// let wrong = parse::one("2341421321343421").unwrap();
/// assert_eq!(verify_solution(&puzzle, &wrong).unwrap_err().to_string(), "r1c1 was given as 1 but the solution has 2");
/// ```
pub fn verify_solution(puzzle: &Grid, solution: &Grid) -> Result<(), VerifyError> {
    if puzzle.shape() != solution.shape() {
        return Err(VerifyError::Shape { expected: puzzle.shape(), found: solution.shape() });
    }
    let shape = solution.shape();
    for (i, (&given, &value)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        if value == 0 {
            return Err(VerifyError::Empty { cell: shape.cell_name(i) });
        }
        if given != 0 && given != value {
            return Err(VerifyError::GivenChanged { cell: shape.cell_name(i), given, found: value });
        }
    }
    if unit_masks_full(solution) {
        return Ok(());
    }
    let report = check_filled(solution);
    let broken = report.broken.into_iter().next();
    // The masks found a broken unit, so the report names at least one.
    Err(VerifyError::Broken(broken.unwrap_or(BrokenUnit {
        unit: Unit::Row(0),
        repeated: Vec::new(),
        missing: Vec::new(),
    })))
}

/// Whether every row, column and box holds every value `1..=n`: with bit
/// `v - 1` of a unit's mask set when `v` is seen, `n` cells covering all `n`
/// values is the same as `n` distinct values. An empty cell fails it.
fn unit_masks_full(grid: &Grid) -> bool {
    let shape = grid.shape();
    let n = shape.side();
    let full: u64 = if n == MAX_SIDE { u64::MAX } else { (1u64 << n) - 1 };
    let mut masks = [0u64; 3 * MAX_SIDE];
    let (rows, rest) = masks.split_at_mut(MAX_SIDE);
    let (cols, boxes) = rest.split_at_mut(MAX_SIDE);
    let mut filled = true;
    shape.for_each_cell(|i, r, c, b| {
        let value = grid.cells()[i];
        filled &= value != 0;
        let bit = 1u64 << (value.wrapping_sub(1) & 63);
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    });
    filled && (0..n).all(|i| rows[i] == full && cols[i] == full && boxes[i] == full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    #[test]
    fn every_broken_unit_is_named() {
        // Rows are fine; r1c1/r1c2 swapped breaks columns 1, 2 and nothing else in 2x2 boxes.
        let grid = parse::one("3142421321343421").unwrap();
        let report = check_filled(&grid);
        let text: Vec<String> = report.broken.iter().map(ToString::to_string).collect();
        assert_eq!(text, ["column 1: 3 at r1c1, r4c1; missing 1", "column 2: 1 at r1c2, r3c2; missing 3"]);
        assert!(!report.is_valid());
        assert!(check_filled(&parse::one("1342421321343421").unwrap()).is_valid());
    }

    #[test]
    fn empty_cells_are_listed_without_calling_units_broken() {
        let report = check_filled(&parse::one("1.42421321343421").unwrap());
        assert_eq!(report.empty, [CellName { row: 0, col: 1 }]);
        assert!(report.broken.is_empty());
    }

    #[test]
    fn verification_catches_each_kind_of_mistake() {
        let puzzle = parse::one("1.42421321343421").unwrap();
        let filled = parse::one("1342421321343421").unwrap();
        assert_eq!(verify_solution(&puzzle, &filled), Ok(()));
        let empty = parse::one("1.42421321343421").unwrap();
        assert!(matches!(verify_solution(&puzzle, &empty), Err(VerifyError::Empty { .. })));
        let blank = parse::one("................").unwrap();
        let broken = parse::one("1342421321343412").unwrap();
        let err = verify_solution(&blank, &broken).unwrap_err();
        assert!(matches!(err, VerifyError::Broken(BrokenUnit { unit: Unit::Column(2), .. })), "{err}");
    }
}
