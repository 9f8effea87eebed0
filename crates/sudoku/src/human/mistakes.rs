//! A player's mistakes: digits placed and candidates removed that the
//! puzzle's solution contradicts, so that a hint can say what went wrong
//! instead of reasoning from a board that has no solution.

use std::fmt;

use super::PencilMarks;
use crate::grid::{Grid, Shape};

/// A placed digit or a removed candidate that the solution contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mistake {
    /// A digit placed since the givens that is not the cell's.
    WrongDigit {
        /// The board's shape, for the cell's name.
        shape: Shape,
        /// The cell.
        cell: usize,
        /// The digit placed there.
        placed: u8,
    },
    /// The cell's own digit is no longer among its candidates.
    RemovedDigit {
        /// The board's shape, for the cell's name.
        shape: Shape,
        /// The cell.
        cell: usize,
        /// The digit removed.
        digit: u8,
    },
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Mistake::WrongDigit { shape, cell, placed } => {
                write!(f, "{}: the {placed} placed there is wrong", shape.cell_name(cell))
            }
            Mistake::RemovedDigit { shape, cell, digit } => {
                let name = shape.cell_name(cell);
                write!(f, "{name}: the candidate {digit} was removed, but {digit} is {name}'s digit")
            }
        }
    }
}

/// The mistakes of a board against the solution of its puzzle, in cell order
/// (none when the board can still reach it). A candidate that a wrong digit
/// in a peer took away is not listed: the wrong digit is the mistake.
///
/// ```
/// use csp_sudoku::human::{PencilMarks, mistakes};
/// use csp_sudoku::parse;
///
/// let solution = parse::one("1342421321343421").unwrap();
/// let board = PencilMarks::from_marked_line("1.+3...........21", None).unwrap().without(&[(3, 2)]).unwrap();
/// let found: Vec<String> = mistakes(&board, &solution).iter().map(|m| m.to_string()).collect();
/// assert_eq!(found, ["r1c3: the 3 placed there is wrong", "r1c4: the candidate 2 was removed, but 2 is r1c4's digit"]);
/// ```
pub fn mistakes(marks: &PencilMarks, solution: &Grid) -> Vec<Mistake> {
    let shape = marks.shape();
    let wrong = |cell: usize| {
        let placed = marks.value(cell);
        placed != 0 && !marks.is_given(cell) && solution.cells().get(cell).is_some_and(|&digit| digit != placed)
    };
    let mut found = Vec::new();
    for (cell, &digit) in solution.cells().iter().enumerate().take(shape.num_cells()) {
        match marks.value(cell) {
            0 if digit != 0 && !marks.has(cell, digit) => {
                let explained = marks.geometry().peers(cell).any(|peer| wrong(peer) && marks.value(peer) == digit);
                if !explained {
                    found.push(Mistake::RemovedDigit { shape, cell, digit });
                }
            }
            placed if placed != 0 && placed != digit && !marks.is_given(cell) => {
                found.push(Mistake::WrongDigit { shape, cell, placed });
            }
            _ => {}
        }
    }
    found
}
