//! The progress notations ([`Notation::Progress`]): HoDoKu's `+` before the
//! digits placed since the givens, and pencil-mark grids, each cell a given,
//! a placed digit, or its candidates.

use std::io::BufRead;

use super::{
    Layout, LineKind, Notation, ParseError, ParseErrorKind, Progress, Puzzle, PuzzleReader, Read, Rows, symbol_value,
    tokens,
};
use crate::format::MAX_SYMBOL_SIDE;
use crate::grid::Grid;

/// A cell of a pencil-mark grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// `.` or `0`: empty, every candidate.
    Empty,
    /// A digit given with the puzzle.
    Given(u8),
    /// `+` and a digit: placed since the givens.
    Placed(u8),
    /// Candidates, bit `d - 1` for digit `d`.
    Candidates(u64),
}

fn problem(message: impl Into<String>) -> ParseErrorKind {
    ParseErrorKind::Progress { message: message.into() }
}

impl<R: BufRead> PuzzleReader<R> {
    /// A line-format puzzle with a `+` before every digit placed since the
    /// givens: `self.line[start..end]`.
    pub(super) fn progress_line(&mut self, start: usize, end: usize) -> Result<Puzzle, ParseError> {
        let (mut givens, mut placed) = (Vec::new(), Vec::new());
        let mut plus = None;
        for at in start..end {
            let b = self.line[at];
            if b == b'+' {
                if plus.is_some() {
                    return Err(self.error(Some(self.column(at)), problem("two '+' in a row")));
                }
                plus = Some(at);
                continue;
            }
            let Some(value) = symbol_value(b) else { return Err(self.bad_symbol(at)) };
            match plus.take() {
                Some(_) if value == 0 => {
                    return Err(self.error(Some(self.column(at)), problem("'+' before an empty cell")));
                }
                Some(_) => {
                    givens.push(0);
                    placed.push(value);
                }
                None => {
                    givens.push(value);
                    placed.push(0);
                }
            }
        }
        if let Some(at) = plus {
            return Err(self.error(Some(self.column(at)), problem("'+' at the end of the line, before no digit")));
        }
        let count = givens.len();
        let side = count.isqrt();
        if side * side != count {
            return Err(self.error(None, ParseErrorKind::NotSquare { found: count }));
        }
        let shape = self.shape_for(side, self.line_shape).map_err(|err| self.error(None, err))?;
        let symbols = (start..end).filter(|&at| self.line[at] != b'+');
        for (at, value) in symbols.zip(givens.iter().zip(&placed).map(|(&g, &p)| g.max(p))) {
            if usize::from(value) > side {
                let found = char::from(self.line[at]).to_string();
                let kind = ParseErrorKind::ValueTooLarge { found, value: u32::from(value), side };
                return Err(self.error(Some(self.column(at)), kind));
            }
        }
        let grid = |cells| Grid::from_cells(shape, cells).unwrap_or_else(|_| Grid::empty(shape));
        let progress = Some(Progress { placed: grid(placed), candidates: None });
        Ok(Puzzle { grid: grid(givens), line: self.line_number, layout: Layout::Line, progress })
    }

    /// A grid read with the progress notations, whose first row (of `side`
    /// words) is the current line.
    pub(super) fn marks_grid(&mut self, side: usize) -> Result<Puzzle, ParseError> {
        let result = self.marks_rows(side);
        if result.is_err() && !self.finished && !self.at_block_end() {
            self.skip_block(Rows::Tokens);
        }
        result
    }

    fn marks_rows(&mut self, side: usize) -> Result<Puzzle, ParseError> {
        let first_line = self.line_number;
        let shape = self.shape_for(side, self.line_shape).map_err(|err| self.error(None, err))?;
        // Up to side 9 a symbol and a number are the same; beyond, a word of
        // symbols is a set of candidates only in a declared pencil-mark grid.
        let symbols = side <= 9 || (self.notation == Notation::PencilMarks && side <= MAX_SYMBOL_SIDE);
        let full = if side >= 64 { u64::MAX } else { (1u64 << side) - 1 };
        let cells = side * side;
        let (mut givens, mut placed, mut candidates) =
            (Vec::with_capacity(cells), Vec::with_capacity(cells), Vec::with_capacity(cells));
        let (mut any_placed, mut any_candidates) = (false, false);
        let mut rows = 0;
        loop {
            let before = givens.len();
            for (at, token) in tokens(&self.line) {
                let mark = read_mark(token, side, symbols)
                    .map_err(|(offset, kind)| self.error(Some(self.column(at + offset)), kind))?;
                let (given, place, set) = match mark {
                    Mark::Empty => (0, 0, full),
                    Mark::Given(value) => (value, 0, 0),
                    Mark::Placed(value) => (0, value, 0),
                    Mark::Candidates(set) => (0, 0, set),
                };
                any_placed |= place != 0;
                any_candidates |= matches!(mark, Mark::Candidates(_));
                givens.push(given);
                placed.push(place);
                candidates.push(set);
            }
            let found = givens.len() - before;
            if found != side {
                return Err(self.error(None, ParseErrorKind::RowLength { row: rows + 1, expected: side, found }));
            }
            rows += 1;
            if rows == side {
                break;
            }
            self.next_row(side, rows)?;
        }
        let grid = |cells| Grid::from_cells(shape, cells).unwrap_or_else(|_| Grid::empty(shape));
        let progress = (any_placed || any_candidates)
            .then(|| Progress { placed: grid(placed), candidates: any_candidates.then_some(candidates) });
        let layout = if any_candidates { Layout::PencilMarks } else { Layout::Grid };
        Ok(Puzzle { grid: grid(givens), line: first_line, layout, progress })
    }

    /// Moves to the next row of a grid, past comments and frame lines.
    fn next_row(&mut self, side: usize, rows: usize) -> Result<(), ParseError> {
        let missing = ParseErrorKind::MissingRows { expected: side, found: rows };
        loop {
            let kind = match self.read_line()? {
                Read::End => None,
                Read::Line => Some(self.classify()),
            };
            match kind {
                Some(LineKind::Comment | LineKind::Separator) => {}
                Some(LineKind::Tokens(_) | LineKind::Word) => return Ok(()),
                Some(LineKind::Header | LineKind::Json) => {
                    self.replay = true;
                    return Err(self.error(None, missing));
                }
                Some(LineKind::Blank) | None => return Err(self.error(None, missing)),
            }
        }
    }
}

/// Reads a cell of a pencil-mark grid; an error comes with the byte offset of
/// the problem inside the word. `symbols`: a word of several symbols is a set
/// of candidates (otherwise it is a number).
fn read_mark(word: &[u8], side: usize, symbols: bool) -> Result<Mark, (usize, ParseErrorKind)> {
    if matches!(word, [b] if symbol_value(*b) == Some(0)) {
        return Ok(Mark::Empty);
    }
    if let Some(rest) = word.strip_prefix(b"+") {
        let value = match read_mark(rest, side, symbols).map_err(|(offset, kind)| (offset + 1, kind))? {
            Mark::Given(value) => value,
            _ => return Err((0, problem("'+' goes before one digit, placed since the givens"))),
        };
        return Ok(Mark::Placed(value));
    }
    if word.contains(&b',') {
        let mut set = 0u64;
        let mut offset = 0;
        for part in word.split(|&b| b == b',') {
            if !part.is_empty() {
                match read_number(part, side).map_err(|kind| (offset, kind))? {
                    0 => return Err((offset, problem("0 is not a candidate"))),
                    value => set |= 1u64 << (value - 1),
                }
            }
            offset += part.len() + 1;
        }
        return if set == 0 {
            Err((0, problem("a list of candidates without any")))
        } else {
            Ok(Mark::Candidates(set))
        };
    }
    if !symbols {
        return read_number(word, side).map(Mark::Given).map_err(|kind| (0, kind));
    }
    let mut set = 0u64;
    for (offset, &b) in word.iter().enumerate() {
        let value = match symbol_value(b) {
            Some(0) | None => {
                let shown = String::from_utf8_lossy(word).chars().take(20).collect::<String>();
                let message = format!(
                    "'{shown}' is not a cell of a pencil-mark grid: a digit, '+' and a digit, candidates such as 1679, or '.'"
                );
                return Err((0, problem(message)));
            }
            Some(value) => value,
        };
        if usize::from(value) > side {
            let found = char::from(b).to_string();
            return Err((offset, ParseErrorKind::ValueTooLarge { found, value: u32::from(value), side }));
        }
        set |= 1u64 << (value - 1);
    }
    if word.len() == 1 { Ok(Mark::Given(set.trailing_zeros() as u8 + 1)) } else { Ok(Mark::Candidates(set)) }
}

/// A cell's number, from 0 to `side`.
fn read_number(word: &[u8], side: usize) -> Result<u8, ParseErrorKind> {
    let shown = || String::from_utf8_lossy(word).chars().take(20).collect::<String>();
    if word.is_empty() || word.len() > 6 || !word.iter().all(u8::is_ascii_digit) {
        return Err(ParseErrorKind::BadToken { found: shown() });
    }
    let value = word.iter().fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
    if value as usize > side {
        return Err(ParseErrorKind::ValueTooLarge { found: shown(), value, side });
    }
    Ok(value as u8)
}

#[cfg(test)]
mod tests {
    use super::super::{Layout, Notation, ParseErrorKind, Puzzle, PuzzleReader};
    use crate::grid::Shape;

    fn read(text: &str, notation: Notation) -> Result<Puzzle, String> {
        let mut reader = PuzzleReader::new(text.as_bytes()).notation(notation);
        reader.next().unwrap().map_err(|err| err.to_string())
    }

    #[test]
    fn placed_digits_follow_a_plus() {
        let puzzle = read("1.+42421321.43421", Notation::Progress).unwrap();
        assert_eq!(puzzle.grid.cells()[..4], [1, 0, 0, 2]);
        let progress = puzzle.progress.unwrap();
        assert_eq!(progress.placed.cells()[..4], [0, 0, 4, 0]);
        assert_eq!(progress.candidates, None);
        assert_eq!(read("1.++42421321.43421", Notation::Progress).unwrap_err(), "line 1, column 4: two '+' in a row");
        assert_eq!(
            read("1.+.2421321.43421", Notation::Progress).unwrap_err(),
            "line 1, column 4: '+' before an empty cell"
        );
        assert!(read("1.42421321.43421+", Notation::Progress).unwrap_err().contains("at the end of the line"));
        assert!(read("1.+52421321.43421", Notation::Progress).unwrap_err().contains("column 4: '5' (5) is larger"));
        // Without a '+', the same puzzle as with givens only.
        assert_eq!(read("1.42421321.43421", Notation::Progress).unwrap().progress, None);
    }

    #[test]
    fn pencil_mark_grids_read_as_hodoku_writes_them() {
        let text = "\
.-------.--------.
| 1  3  | 4   2  |
| 24 24 | +1  3  |
:-------+--------:
| 2  14 | 3   4  |
| 3  4  | 2   1  |
'-------'--------'
";
        let puzzle = read(text, Notation::Progress).unwrap();
        assert_eq!((puzzle.line, puzzle.layout), (2, Layout::PencilMarks));
        assert_eq!(puzzle.grid.num_givens(), 12);
        let progress = puzzle.progress.unwrap();
        assert_eq!(progress.placed.cells()[6], 1);
        let candidates = progress.candidates.unwrap();
        assert_eq!(candidates[4..6], [0b1010, 0b1010]);
        assert_eq!(candidates[9], 0b1001);
        assert_eq!(candidates[0], 0);
        // With givens only, the same text is an error that names the candidates.
        assert!(matches!(
            PuzzleReader::new(text.as_bytes()).next().unwrap().unwrap_err().kind,
            ParseErrorKind::Candidates { found } if found == "24"
        ));
        // '.' is every candidate; a plain grid reads as givens alone.
        let plain = read("1 . 4 2\n4 2 1 3\n2 1 3 4\n3 4 2 1\n", Notation::Progress).unwrap();
        assert_eq!((plain.layout, plain.progress, plain.grid.num_givens()), (Layout::Grid, None, 15));
        assert!(
            read("1 . 4 2\n4 2 1 3\n2 1 3 4\n3 4 2 0x\n", Notation::Progress).unwrap_err().contains("column 7: '0x'")
        );
        assert!(
            read("1 . 4 2\n4 2 1 3\n2 1 3 4\n3 4 2 15\n", Notation::Progress)
                .unwrap_err()
                .contains("column 8: '5' (5)")
        );
        assert!(read("1 . 4 2\n4 2 1 3\n", Notation::Progress).unwrap_err().contains("ends after 2 rows"));
    }

    #[test]
    fn larger_sides_take_numbers_or_declared_symbols() {
        let shape = Shape::new(3, 4).unwrap();
        let mut rows: Vec<String> = (0..12).map(|_| ["."; 12].join(" ")).collect();
        rows[0] = format!("12 +11 1,2 {}", ["."; 9].join(" "));
        let text = rows.join("\n");
        let puzzle = read(&text, Notation::Progress).unwrap();
        assert_eq!(puzzle.grid.shape(), shape);
        assert_eq!(puzzle.grid.cells()[0], 12);
        let progress = puzzle.progress.unwrap();
        assert_eq!(progress.placed.cells()[1], 11);
        assert_eq!(progress.candidates.unwrap()[2], 0b11);
        // Declared pencil marks: symbols, so "12" is 1 and 2, and C is 12.
        rows[0] = format!("C +B 12 {}", ["."; 9].join(" "));
        let puzzle = read(&rows.join("\n"), Notation::PencilMarks).unwrap();
        assert_eq!(puzzle.grid.cells()[0], 12);
        assert_eq!(puzzle.progress.unwrap().candidates.unwrap()[2], 0b11);
    }
}
