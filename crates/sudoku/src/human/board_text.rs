//! Boards as text, in and out: a puzzle read with a player's progress
//! ([`crate::parse::Notation::Progress`]: HoDoKu's `+` before placed digits,
//! pencil-mark grids) becomes a board, and a board is written back as a
//! line with `+` or as a pencil-mark grid.

use super::candidates::{PencilMarkError, PencilMarks};
use crate::format::{MAX_SYMBOL_SIDE, symbol};
use crate::grid::Shape;
use crate::parse::{Notation, Progress, Puzzle, PuzzleReader};

impl PencilMarks {
    /// The board of a puzzle as read, with its progress when it has some:
    /// the digits placed since the givens and, from a pencil-mark grid, the
    /// candidates (less those a filled peer rules out).
    pub fn from_puzzle(puzzle: &Puzzle) -> Result<PencilMarks, PencilMarkError> {
        match &puzzle.progress {
            None => PencilMarks::from_givens(&puzzle.grid),
            Some(Progress { placed, candidates: None }) => PencilMarks::from_progress(&puzzle.grid, placed),
            Some(Progress { placed, candidates: Some(candidates) }) => {
                PencilMarks::from_candidates(&puzzle.grid, placed, candidates)
            }
        }
    }

    /// A board from the line format with a `+` before every digit placed
    /// since the givens (HoDoKu's notation: `+6+3.42...`), one symbol per cell
    /// (`.` or `0` empty, `1`-`9`, then `A`-`Z` for 10-35); the side is the
    /// square root of the number of cells, with its default box shape unless
    /// `shape` says otherwise. (Read by [`PuzzleReader`] with
    /// [`Notation::Progress`], which also takes pencil-mark grids.)
    ///
    /// ```
    /// use csp_sudoku::human::PencilMarks;
    /// let marks = PencilMarks::from_marked_line("1.+42421321.43421", None).unwrap();
    /// assert!(marks.is_given(0) && !marks.is_given(2));
    /// assert_eq!(marks.to_marked_line(), "1.+42421321.43421");
    /// ```
    pub fn from_marked_line(text: &str, shape: Option<Shape>) -> Result<PencilMarks, PencilMarkError> {
        let mut reader = PuzzleReader::new(text.as_bytes()).notation(Notation::Progress).shape(shape);
        match reader.next() {
            Some(Ok(puzzle)) => PencilMarks::from_puzzle(&puzzle),
            Some(Err(err)) => {
                Err(PencilMarkError::Text { column: err.column.unwrap_or(1), message: err.kind.to_string() })
            }
            None => Err(PencilMarkError::Text { column: 1, message: "no puzzle found".to_string() }),
        }
    }

    /// The board's digits in the notation of [`PencilMarks::from_marked_line`]
    /// (sides up to 35; candidates are not written).
    pub fn to_marked_line(&self) -> String {
        let mut out = String::with_capacity(self.shape().num_cells() * 2);
        for cell in 0..self.shape().num_cells() {
            let value = self.value(cell);
            if value != 0 && !self.is_given(cell) {
                out.push('+');
            }
            out.push(symbol(value));
        }
        out
    }

    /// The board as a pencil-mark grid (see [`PencilMarks::write_marks_grid`]).
    ///
    /// ```
    /// use csp_sudoku::human::PencilMarks;
    /// let marks = PencilMarks::from_marked_line("1..2.+2..........", None).unwrap();
    /// assert_eq!(marks.marks_grid(), "\
    /// 1   34  | 34   2
    /// 34  +2  | 134  134
    /// --------+---------
    /// 234 134 | 1234 134
    /// 234 134 | 1234 134
    /// ");
    /// ```
    pub fn marks_grid(&self) -> String {
        let mut out = String::new();
        self.write_marks_grid(&mut out, &mut |_, _| ("", ""));
        out
    }

    /// Appends the board as a pencil-mark grid, the layout HoDoKu writes and
    /// the reader takes back ([`Notation::PencilMarks`], or
    /// [`Notation::Progress`] up to side 9): one row per line, every cell a
    /// word (a given; `+` and a placed digit; the candidates of an empty
    /// cell, so that a cell with one candidate reads back as that digit),
    /// left-aligned in columns, boxes framed by `|` and `-+-` lines. Up to side
    /// 35 digits are symbols (`A` = 10); beyond, numbers, candidates separated
    /// by commas. `paint(cell, digit)` gives text to write before and after
    /// each digit (terminal colours, say); it does not count in the widths.
    pub fn write_marks_grid(&self, out: &mut String, paint: &mut dyn FnMut(usize, u8) -> (&'static str, &'static str)) {
        let shape = self.shape();
        let n = shape.side();
        let numbers = n > MAX_SYMBOL_SIDE;
        let digit_width = |digit: u8| if numbers && digit >= 10 { 2 } else { 1 };
        // The digits of each cell, whether it has a '+', and its width.
        let cells: Vec<(Vec<u8>, bool)> = (0..n * n)
            .map(|cell| match self.value(cell) {
                0 => (self.candidate_digits(cell).collect(), false),
                value => (vec![value], !self.is_given(cell)),
            })
            .collect();
        let width = |(digits, plus): &(Vec<u8>, bool)| -> usize {
            let commas = if numbers { digits.len().saturating_sub(1) } else { 0 };
            usize::from(*plus)
                + digits.iter().map(|&d| digit_width(d)).sum::<usize>()
                + commas
                + usize::from(digits.is_empty())
        };
        let widths: Vec<usize> =
            (0..n).map(|col| (0..n).map(|row| width(&cells[row * n + col])).max().unwrap_or(1)).collect();
        let (rows_per_box, cols_per_box) = (shape.box_rows(), shape.box_cols());
        for row in 0..n {
            if row > 0 && row % rows_per_box == 0 {
                for stack in 0..n / cols_per_box {
                    if stack > 0 {
                        out.push_str("-+-");
                    }
                    let span: usize = widths[stack * cols_per_box..(stack + 1) * cols_per_box].iter().sum();
                    out.extend(std::iter::repeat_n('-', span + cols_per_box - 1));
                }
                out.push('\n');
            }
            for (col, &column_width) in widths.iter().enumerate() {
                if col > 0 {
                    out.push_str(if col % cols_per_box == 0 { " | " } else { " " });
                }
                let cell = row * n + col;
                let (digits, plus) = &cells[cell];
                if *plus {
                    out.push('+');
                }
                if digits.is_empty() {
                    // An empty cell without candidates: a broken board.
                    out.push('?');
                }
                for (i, &digit) in digits.iter().enumerate() {
                    if numbers && i > 0 {
                        out.push(',');
                    }
                    let (before, after) = paint(cell, digit);
                    out.push_str(before);
                    if numbers {
                        out.push_str(&digit.to_string());
                    } else {
                        out.push(symbol(digit));
                    }
                    out.push_str(after);
                }
                if col + 1 < n {
                    out.extend(std::iter::repeat_n(' ', column_width - width(&cells[cell])));
                }
            }
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::human;
    use crate::parse;

    fn read_marks(text: &str) -> PencilMarks {
        let puzzle = PuzzleReader::new(text.as_bytes()).notation(Notation::PencilMarks).next().unwrap().unwrap();
        PencilMarks::from_puzzle(&puzzle).unwrap()
    }

    #[test]
    fn pencil_mark_grids_read_back_on_every_shape_family() {
        for (line, steps) in [
            ("..6..35......134.......6..1....5..64", 3),
            ("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........", 20),
            (
                ".8.1......62A.571.3.......9...8.....B.2.8...1...3C...7.....6....364..BA..3B..419....5.....7...B8...C...5.7.1.....5...8.......A.76C.32A......B.5.",
                10,
            ),
        ] {
            let puzzle = parse::one(line).unwrap();
            let solution = human::explain(&puzzle).unwrap();
            let board = solution.boards().nth(steps).unwrap();
            let text = board.marks_grid();
            let again = read_marks(&text);
            // Cells with one candidate read back as that digit (placed, so
            // their peers lose it); all else is the same.
            let mut expected = board.clone();
            for cell in 0..puzzle.cells().len() {
                if board.value(cell) == 0 && board.candidates(cell).count_ones() == 1 {
                    expected.place(cell, board.candidates(cell).trailing_zeros() as u8 + 1);
                }
            }
            for cell in 0..puzzle.cells().len() {
                assert_eq!(
                    (again.value(cell), again.candidates(cell)),
                    (expected.value(cell), expected.candidates(cell))
                );
                if board.value(cell) != 0 {
                    assert_eq!(again.is_given(cell), board.is_given(cell));
                }
            }
        }
    }

    #[test]
    fn painted_digits_do_not_move_the_columns() {
        let board = PencilMarks::from_marked_line("1..2.+2..........", None).unwrap();
        let mut painted = String::new();
        board.write_marks_grid(&mut painted, &mut |cell, digit| {
            if cell == 1 && digit == 3 { ("<", ">") } else { ("", "") }
        });
        assert_eq!(painted.replace(['<', '>'], ""), board.marks_grid());
        assert!(painted.starts_with("1   <3>4  | 34"), "{painted}");
    }

    #[test]
    fn beyond_side_35_candidates_are_numbers_with_commas() {
        let shape = Shape::new(6, 6).unwrap();
        let mut grid = crate::Grid::empty(shape);
        grid.set(0, 36);
        let board = PencilMarks::from_givens(&grid).unwrap();
        let text = board.marks_grid();
        let first_row: Vec<&str> = text.lines().next().unwrap().split_whitespace().collect();
        assert_eq!(
            first_row[..2],
            ["36", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35"]
        );
        let again = read_marks(&text);
        assert_eq!(again, board);
    }
}
