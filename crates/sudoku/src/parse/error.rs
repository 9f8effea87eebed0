//! What can be wrong with a puzzle, and where: the reader's errors.

use std::fmt;
use std::io;
use std::sync::Arc;

use crate::grid::{Shape, ShapeError};

/// What is wrong with a puzzle (see [`ParseError`] for where).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that is not in the line format's alphabet.
    #[error("'{found}' is not a digit, a letter or an empty cell ('.', '0', '-', '_', '*')")]
    BadSymbol {
        /// The character.
        found: char,
    },
    /// A token of a grid row that is not a number or an empty cell.
    #[error("'{found}' is not a number or an empty cell ('.', '0', '-', '_', '*')")]
    BadToken {
        /// The token (cut to 20 characters).
        found: String,
    },
    /// A token of a line of numbers that is a run of cells: a line puzzle
    /// with a space in it.
    #[error(
        "'{found}' is not a number or an empty cell ('.', '0', '-', '_', '*'): a line with spaces is read as numbers separated by spaces, and a \
         puzzle written on one line has no spaces"
    )]
    SpacedCells {
        /// The token (cut to 20 characters).
        found: String,
    },
    /// A number that is a cell's candidates (`1679`), of a pencil-mark grid
    /// where only givens are read.
    #[error(
        "'{found}' looks like a cell's candidates: a pencil-mark grid is read by hint and explain (sudoku hint), \
         here a cell is one number, '.' or '0'"
    )]
    Candidates {
        /// The number.
        found: String,
    },
    /// A value above the side of the grid.
    #[error("'{found}' ({value}) is larger than the grid's side, {side}")]
    ValueTooLarge {
        /// The symbol or number as written.
        found: String,
        /// Its value.
        value: u32,
        /// The side.
        side: usize,
    },
    /// A line-format puzzle whose length is not a square.
    #[error("a line of {found} cells is not a puzzle: the length must be a square (16 for 4x4, 81 for 9x9, ...)")]
    NotSquare {
        /// The number of cells on the line.
        found: usize,
    },
    /// A grid row with the wrong number of cells.
    #[error("row {row} has {found} cells, expected {expected}")]
    RowLength {
        /// The row, counting from 1.
        row: usize,
        /// The side (the first row's length).
        expected: usize,
        /// The row's length.
        found: usize,
    },
    /// A grid that ends before its `n`-th row.
    #[error("the grid ends after {found} rows, expected {expected}")]
    MissingRows {
        /// The side.
        expected: usize,
        /// The rows read.
        found: usize,
    },
    /// A `Grid NN` line with no rows after it.
    #[error("'{header}' is not followed by the grid's rows")]
    EmptyHeader {
        /// The header line.
        header: String,
    },
    /// The box shape does not suit the side.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A line longer than [`MAX_LINE`](super::MAX_LINE).
    #[error("the line is longer than {limit} bytes")]
    LineTooLong {
        /// [`MAX_LINE`](super::MAX_LINE).
        limit: usize,
    },
    /// Bytes that are not text: a control byte, or outside a comment bytes
    /// that are not UTF-8; the rest of the input is skipped.
    #[error("{}", not_text(*byte))]
    NotText {
        /// The first offending byte.
        byte: u8,
    },
    /// The input holds no puzzle at all.
    #[error("no puzzle found")]
    NoPuzzle,
    /// A `# box` comment and `--box` (the reader's shape) disagree.
    #[error("the input gives boxes of {declared} ('# box {declared}'), but --box gives {given}")]
    ShapeConflict {
        /// The shape the input declares.
        declared: Shape,
        /// The shape the reader was given.
        given: Shape,
    },
    /// A JSON line that is not a puzzle record.
    #[error("{message}")]
    Json {
        /// What is wrong.
        message: String,
    },
    /// A `+` (a digit placed since the givens) where only givens are read.
    #[error("'+' marks a digit placed since the givens, which only the progress notation reads (sudoku hint)")]
    PlacedDigit,
    /// A cell of the progress notations that cannot be read.
    #[error("{message}")]
    Progress {
        /// What is wrong.
        message: String,
    },
    /// Reading failed; the rest of the input is skipped.
    #[error("cannot read: {message}")]
    Io {
        /// The kind of failure.
        kind: io::ErrorKind,
        /// The system's message.
        message: String,
    },
}

/// A puzzle that could not be read: where (file, line, column) and why.
///
/// Displayed as `file:line:column: message` when the input has a name, and
/// `line 3, column 7: message` otherwise; the column is left out when the
/// problem is with a whole line or puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The input's name, if it has one.
    pub file: Option<Arc<str>>,
    /// The line, counting from 1.
    pub line: usize,
    /// The column in characters, counting from 1, when the problem is at one place.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.column) {
            (Some(file), Some(column)) => write!(f, "{file}:{}:{column}: {}", self.line, self.kind),
            (Some(file), None) => write!(f, "{file}:{}: {}", self.line, self.kind),
            (None, Some(column)) => write!(f, "line {}, column {column}: {}", self.line, self.kind),
            (None, None) => write!(f, "line {}: {}", self.line, self.kind),
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseErrorKind::Shape(err) => Some(err),
            _ => None,
        }
    }
}

/// What a byte that is not text says: a carriage return inside a line is
/// most likely a file with the line ends of classic Mac OS, a byte above
/// 0x7f one saved in another encoding than UTF-8 (Latin-1, Windows-1252).
fn not_text(byte: u8) -> String {
    match byte {
        b'\r' => "a carriage return (byte 0x0d) inside a line: lines must end with a line feed, as on Unix or \
                   Windows; the rest of the input is skipped"
            .to_string(),
        0x80.. => {
            format!("this is not a text file, or not one saved as UTF-8 (byte 0x{byte:02x}); the rest of it is skipped")
        }
        _ => format!("this is not a text file (byte 0x{byte:02x}); the rest of it is skipped"),
    }
}
