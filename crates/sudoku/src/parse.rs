//! Reading puzzles: the line, grid and Project Euler layouts, detected
//! automatically, streamed one puzzle at a time.
//!
//! - **Line**: one puzzle per line, a symbol per cell: `.`, `0`, `-`, `_` or
//!   `*` empty, `1`-`9`, then `A` = 10 up to `Z` = 35 (lowercase too). The
//!   side is the square root of the length. A line of more than [`MAX_SIDE`]
//!   whitespace-separated numbers is also one puzzle (that is how grids of
//!   side above 35 are written on a line).
//! - **Grid**: `n` lines of `n` whitespace-separated numbers (`0`, `.`, `-`,
//!   `_` or `*` empty), for any side. `|` tokens and lines made of `-`, `+`,
//!   `=` and `|` only are ignored, so the pretty output reads back; but a
//!   line of empty cells written apart (`- - | - -`) is a row.
//! - **Project Euler**: a `Grid NN` line, then `n` lines of `n` symbols; or
//!   such lines without the header, where a line is no line puzzle (nine rows
//!   of nine symbols), or where a block of exactly sixteen lines of sixteen
//!   symbols holds one above 4, which no 4x4 line puzzle has.
//!
//! - **JSON**: one object per line with the rows of a grid as arrays of numbers
//!   (`0` empty) under `"puzzle"`, `"rows"` or `"solution"`, and the box shape
//!   under `"box"`: what the tools write with `--output json`, read back.
//!
//! `#` starts a comment that runs to the end of the line, in every layout (a
//! JSON line has none: `#` may be inside its strings); puzzles of all layouts
//! may follow each other in one input. A comment `# box RxC` gives a box
//! shape: on a line of its own, to the grids of side `R * C` that follow (`#
//! box 3x2` before 6x6 puzzles whose boxes are 3 rows by 2 columns); after a
//! puzzle on its line, to that puzzle alone (`..65.. # box 3x2`). What the
//! tools write carries its shape this way whenever it is not the side's
//! default, so every output reads back with the same meaning. A grid ends
//! after its `n`-th row; after an error inside a multi-line puzzle the reader
//! skips the rest of its rows (up to a blank line, a `Grid` line, or a line
//! that cannot be one of them) and goes on, so one bad puzzle costs one error
//! and a line that only looked like a first row costs no more. Input that is
//! not text (a NUL or another control byte, or invalid UTF-8) is reported
//! once, and the rest of that input is skipped.
//!
//! The reader holds one line at a time (at most [`MAX_LINE`] bytes; longer lines
//! are an error, not an allocation), and at most `n * n + 1` more read ahead to
//! judge a line of `n * n` symbols (17 for 16 symbols: a 4x4 puzzle or a
//! 16x16's row), so a file of a million puzzles streams through in constant
//! memory.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use crate::grid::{Grid, MAX_SIDE, Shape};

mod comments;
mod error;
mod json;
mod progress;

pub use error::{ParseError, ParseErrorKind};

/// The longest line kept, in bytes: a 64x64 grid on one line in numbers with
/// spaces takes about 12 KB.
pub const MAX_LINE: usize = 64 * 1024;

/// Which layout a puzzle was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// One line (symbols, or numbers with spaces).
    Line,
    /// Rows of whitespace-separated numbers.
    Grid,
    /// Rows of symbols, one per line: Project Euler's, after a `Grid NN`
    /// header, or without one where a row is no line puzzle (nine rows of
    /// nine symbols: a line of nine cells would be a 3x3 grid; twelve of
    /// twelve) or in a block of sixteen rows of sixteen that cannot be 4x4
    /// line puzzles.
    Euler,
    /// A JSON object on one line.
    Json,
    /// A pencil-mark grid: rows of candidate sets ([`Notation::Progress`]).
    PencilMarks,
}

/// What the reader takes besides givens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Givens only: a `+` is an error ([`ParseErrorKind::PlacedDigit`]).
    #[default]
    Givens,
    /// A player's progress as well: a `+` before each digit placed since the
    /// givens, on a line (`1.+42...`, HoDoKu's notation) or before a number of
    /// a grid (`+12`); and grids of side up to 9 are pencil-mark grids, each
    /// cell a word: a digit (a given), `+` and a digit (placed), `.` or `0`
    /// (empty, every candidate) or the cell's candidates (`1679`). HoDoKu's
    /// and Sudoku Explainer's frames (`.---.`, `:---+---:`, `|`) are ignored,
    /// so their pencil-mark grids read as they are. A cell with one candidate
    /// is that digit.
    Progress,
    /// [`Notation::Progress`], and every grid is a pencil-mark grid, whatever
    /// its side: candidates are the line format's symbols (`1`-`9`, then `A`
    /// = 10 up to `Z` = 35), so `12` is the candidates 1 and 2 and a filled 12
    /// is written `C`; beyond side 35, a cell is a number or a
    /// comma-separated list of candidates (`3,17,40`).
    PencilMarks,
}

/// A puzzle read from an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// The puzzle: the givens, 0 for empty cells.
    pub grid: Grid,
    /// The line where it starts, counting from 1.
    pub line: usize,
    /// How it was written.
    pub layout: Layout,
    /// The progress written with it ([`Notation::Progress`] only).
    pub progress: Option<Progress>,
}

/// What a player did since the givens: the digits placed and, from a
/// pencil-mark grid, every cell's candidates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The digits placed since the givens (0 elsewhere).
    pub placed: Grid,
    /// For a pencil-mark grid, every cell's candidates row by row (bit `d - 1`
    /// for digit `d`; 0 for filled cells).
    pub candidates: Option<Vec<u64>>,
}

/// Reads puzzles one at a time from any buffered input (a file, stdin, a
/// byte slice). Each item is a puzzle or the error that replaced it; the reader
/// never panics, whatever the input.
///
/// ```
/// use csp_sudoku::parse::PuzzleReader;
///
/// let text = "# two puzzles\n1.42421321343421\n\n1 0 4 2\n4 2 1 3\n2 1 3 4\n3 4 2 1\n";
/// let puzzles: Vec<_> = PuzzleReader::new(text.as_bytes()).collect::<Result<_, _>>().unwrap();
/// assert_eq!(puzzles.len(), 2);
/// assert_eq!(puzzles[0].grid, puzzles[1].grid);
/// assert_eq!(puzzles[1].line, 4);
///
/// let err = PuzzleReader::new(&b"1.4242%321343421"[..]).file("a.txt").next().unwrap().unwrap_err();
/// assert_eq!(err.to_string(), "a.txt:1:7: '%' is not a digit, a letter or an empty cell ('.', '0', '-', '_', '*')");
/// ```
#[derive(Debug)]
pub struct PuzzleReader<R> {
    input: R,
    file: Option<Arc<str>>,
    shape: Option<Shape>,
    notation: Notation,
    /// The shapes given by `# box` comment lines so far, by side.
    declared: Vec<(usize, Shape)>,
    /// The shape given by a `# box` comment after a puzzle on the current line.
    line_shape: Option<Shape>,
    /// The current line, without its line ending.
    line: Vec<u8>,
    line_number: usize,
    /// Whether the current line was cut at [`MAX_LINE`].
    too_long: bool,
    /// Whether the current line is to be handed out again (one line of lookahead).
    replay: bool,
    /// Bytes consumed from the input, for progress reports.
    offset: u64,
    finished: bool,
    /// Scratch for the cells of the puzzle being read.
    cells: Vec<u8>,
    /// Lines read ahead to judge a block of rows ([`Self::block_puzzle`]),
    /// handed out again before the input's next ones.
    ahead: VecDeque<Ahead>,
    /// The last line of a run of rows judged to be line puzzles (0: none);
    /// a row right after it is one too.
    judged_until: usize,
    /// Whether lines may be read ahead to judge a block of rows
    /// ([`PuzzleReader::read_ahead()`]).
    read_ahead: bool,
    /// The length of the first row of the rows of symbols being read, whose
    /// other rows are skipped after an error ([`Self::skip_block`]).
    row_width: usize,
}

/// A line read ahead: its number, and its text and trailing `# box` shape,
/// or the error reading it gave.
#[derive(Debug)]
struct Ahead {
    number: usize,
    text: Result<(Vec<u8>, Option<Shape>), ParseError>,
}

/// What the reader made of a line.
enum Read {
    /// A line of text is in `self.line`.
    Line,
    /// The end of the input.
    End,
}

/// The kinds of line, before parsing them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    Blank,
    Comment,
    /// Only `-`, `+`, `=`, `|` and blanks: a box separator of a drawn grid.
    Separator,
    /// `Grid NN`.
    Header,
    /// One word: a line-format puzzle or a row of a Project Euler grid.
    Word,
    /// Several whitespace-separated words (not counting `|`).
    Tokens(usize),
    /// A JSON object (the first non-blank character is `{`).
    Json,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader of `input`, with the default box shape for each puzzle's side.
    pub fn new(input: R) -> Self {
        PuzzleReader {
            input,
            file: None,
            shape: None,
            notation: Notation::Givens,
            declared: Vec::new(),
            line_shape: None,
            line: Vec::new(),
            line_number: 0,
            too_long: false,
            replay: false,
            offset: 0,
            finished: false,
            cells: Vec::new(),
            ahead: VecDeque::new(),
            judged_until: 0,
            read_ahead: true,
            row_width: 0,
        }
    }

    /// Names the input in errors (`file:line:column: ...`).
    pub fn file(mut self, name: impl Into<Arc<str>>) -> Self {
        self.file = Some(name.into());
        self
    }

    /// Uses this box shape for every puzzle instead of the default for its side;
    /// a puzzle whose side it does not fit, or whose input gives another shape
    /// (`# box`), is an error.
    pub fn shape(mut self, shape: Option<Shape>) -> Self {
        self.shape = shape;
        self
    }

    /// Reads a player's progress too (see [`Notation`]).
    pub fn notation(mut self, notation: Notation) -> Self {
        self.notation = notation;
        self
    }

    /// Whether a line of 16 symbols, a 4x4 puzzle or the first row of a
    /// 16x16, may be judged by reading the lines after it (on by default).
    /// Off, it is a 4x4 puzzle: for puzzles typed at a terminal, each
    /// answered as soon as it is entered, not after the next sixteen lines.
    pub fn read_ahead(mut self, read_ahead: bool) -> Self {
        self.read_ahead = read_ahead;
        self
    }

    /// The bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.offset
    }

    fn error(&self, column: Option<usize>, kind: ParseErrorKind) -> ParseError {
        ParseError { file: self.file.clone(), line: self.line_number, column, kind }
    }

    /// The character column (from 1) of byte offset `at` of the current line.
    fn column(&self, at: usize) -> usize {
        let prefix = &self.line[..at.min(self.line.len())];
        match std::str::from_utf8(prefix) {
            Ok(text) => text.chars().count() + 1,
            Err(_) => at + 1,
        }
    }

    /// Reads the next line into `self.line` (or hands the current one out again).
    fn read_line(&mut self) -> Result<Read, ParseError> {
        if self.replay {
            self.replay = false;
            return Ok(Read::Line);
        }
        if let Some(ahead) = self.ahead.pop_front() {
            self.line_number = ahead.number;
            self.too_long = false;
            (self.line, self.line_shape) = ahead.text?;
            return Ok(Read::Line);
        }
        self.line.clear();
        self.too_long = false;
        let mut any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => {
                    self.finished = true;
                    let kind = ParseErrorKind::Io { kind: err.kind(), message: err.to_string() };
                    return Err(ParseError { line: self.line_number + 1, ..self.error(None, kind) });
                }
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (chunk, used, end) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = MAX_LINE - self.line.len();
            if chunk.len() > room {
                let first_cut = !self.too_long;
                self.too_long = true;
                self.line.extend_from_slice(&chunk[..room]);
                // A line too long to keep whose kept part is not text (a binary
                // file, /dev/zero) is refused now: reading on to its end would
                // read the whole file, or forever, to find a newline.
                if first_cut && self.line.iter().any(|&b| is_control(b)) {
                    self.input.consume(used);
                    self.offset += used as u64;
                    break;
                }
            } else {
                self.line.extend_from_slice(chunk);
            }
            self.input.consume(used);
            self.offset += used as u64;
            if end {
                break;
            }
        }
        if !any {
            return Ok(Read::End);
        }
        self.line_number += 1;
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        // A byte order mark opens a file that Windows' Notepad saved as UTF-8:
        // not a cell. Columns are then counted as an editor shows them.
        if self.line_number == 1 && self.line.starts_with(BYTE_ORDER_MARK) {
            self.line.drain(..BYTE_ORDER_MARK.len());
        }
        let hash = self.check_text()?;
        if self.too_long {
            return Err(self.error(None, ParseErrorKind::LineTooLong { limit: MAX_LINE }));
        }
        self.line_shape = None;
        if let Some(hash) = hash {
            self.strip_comment(hash)?;
        }
        Ok(Read::Line)
    }

    /// Refuses lines that are not text: control bytes other than tab and form
    /// feed, or invalid UTF-8 outside a comment (a line cut at [`MAX_LINE`]
    /// may end inside a character, which is not held against it).
    ///
    /// Returns where the first `#` is: the same pass over the bytes finds it
    /// (a second pass cost 0.36% more instructions on a 17clue batch).
    fn check_text(&mut self) -> Result<Option<usize>, ParseError> {
        let mut hash = None;
        let mut bad = None;
        for (at, &b) in self.line.iter().enumerate() {
            if b < 0x20 || b == 0x7f || b == b'#' {
                if b == b'#' {
                    hash = hash.or(Some(at));
                } else if is_control(b) {
                    bad = Some(at);
                    break;
                }
            }
        }
        // A comment is not read (but for a `# box` shape, which is ASCII), so
        // it need not be UTF-8: a file whose comments are in Latin-1 is read.
        // A JSON line keeps its `#`s, which may be inside its strings.
        let json = self.line.iter().find(|&&b| !is_blank(b)) == Some(&b'{');
        let text = match hash {
            Some(hash) if !json => &self.line[..hash],
            _ => &self.line[..],
        };
        let bad = bad.or_else(|| match std::str::from_utf8(text) {
            Ok(_) => None,
            Err(err) if self.too_long && err.error_len().is_none() => None,
            Err(err) => Some(err.valid_up_to()),
        });
        match bad {
            None => Ok(hash),
            Some(at) => {
                self.finished = true;
                let byte = self.line[at];
                Err(self.error(Some(self.column(at)), ParseErrorKind::NotText { byte }))
            }
        }
    }

    fn classify(&self) -> LineKind {
        let line = &self.line;
        let Some(first) = line.iter().position(|b| !is_blank(*b)) else {
            return LineKind::Blank;
        };
        if line[first] == b'#' {
            return LineKind::Comment;
        }
        if line[first] == b'{' {
            return LineKind::Json;
        }
        if is_separator(line) {
            return LineKind::Separator;
        }
        let word = &line[first..];
        if word.len() >= 4 && word[..4].eq_ignore_ascii_case(b"grid") && word.get(4).is_none_or(|&b| is_blank(b)) {
            return LineKind::Header;
        }
        match tokens(line).count() {
            1 => LineKind::Word,
            count => LineKind::Tokens(count),
        }
    }

    /// Skips the rest of a multi-line puzzle after an error: its `rows`,
    /// comments and frames, up to a blank line (consumed), the end, or a line
    /// that cannot be one of its rows (kept for the next puzzle: a `Grid`
    /// header, a JSON line, a line puzzle after a grid of numbers or one of
    /// another length after rows of symbols). So a line that merely looked
    /// like the first row of a grid (`1.42%4213434` among 9x9 line puzzles)
    /// costs its own error, not the rest of the batch.
    fn skip_block(&mut self, rows: Rows) {
        loop {
            match self.read_line() {
                Ok(Read::End) => return,
                Ok(Read::Line) => {
                    let row = match (self.classify(), rows) {
                        (LineKind::Blank, _) => return,
                        (LineKind::Comment | LineKind::Separator, _) | (LineKind::Tokens(_), Rows::Tokens) => true,
                        (LineKind::Word, Rows::Symbols(width)) => {
                            let (start, end) = trimmed(&self.line);
                            end - start == width
                        }
                        _ => false,
                    };
                    if !row {
                        self.replay = true;
                        return;
                    }
                }
                Err(_) if self.finished => return,
                Err(_) => {}
            }
        }
    }

    fn finish_puzzle(&mut self, shape: Shape, line: usize, layout: Layout) -> Puzzle {
        let cells = std::mem::take(&mut self.cells);
        let grid = match Grid::from_cells(shape, cells) {
            Ok(grid) => grid,
            // The values were checked against the side while reading.
            Err(_) => Grid::empty(shape),
        };
        Puzzle { grid, line, layout, progress: None }
    }

    /// A line-format puzzle: the current line is one word of symbols.
    fn line_puzzle(&mut self) -> Result<Puzzle, ParseError> {
        let (start, end) = trimmed(&self.line);
        if self.notation != Notation::Givens && self.line[start..end].contains(&b'+') {
            return self.progress_line(start, end);
        }
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let result = self.symbols(start, end, &mut cells);
        self.cells = cells;
        let side = result?;
        let shape = self.shape_for(side, self.line_shape).map_err(|e| self.error(None, e))?;
        self.check_values(shape.side(), start, end)?;
        Ok(self.finish_puzzle(shape, self.line_number, Layout::Line))
    }

    /// Reads the symbols of `self.line[start..end]` into `cells` and returns the
    /// side, the square root of their number.
    ///
    /// This is the loop of [`PuzzleReader::symbols_row`] again, on purpose: the
    /// line layout is the hot path of a batch, and calling that function here
    /// costs 5% more instructions in parsing (callgrind, first 2,000 puzzles of
    /// 17clue).
    fn symbols(&self, start: usize, end: usize, cells: &mut Vec<u8>) -> Result<usize, ParseError> {
        for (i, &b) in self.line[start..end].iter().enumerate() {
            match symbol_value(b) {
                Some(v) => cells.push(v),
                None => return Err(self.bad_symbol(start + i)),
            }
        }
        let count = cells.len();
        let side = count.isqrt();
        if side * side != count {
            return Err(self.error(None, ParseErrorKind::NotSquare { found: count }));
        }
        Ok(side)
    }

    /// Refuses symbols of `self.line[start..end]` above `side`.
    fn check_values(&self, side: usize, start: usize, end: usize) -> Result<(), ParseError> {
        match self.line[start..end].iter().position(|&b| usize::from(symbol_value(b).unwrap_or(0)) > side) {
            None => Ok(()),
            Some(i) => {
                let at = start + i;
                let b = self.line[at];
                Err(self.error(
                    Some(self.column(at)),
                    ParseErrorKind::ValueTooLarge {
                        found: char::from(b).to_string(),
                        value: u32::from(symbol_value(b).unwrap_or(0)),
                        side,
                    },
                ))
            }
        }
    }

    fn char_at(&self, at: usize) -> char {
        std::str::from_utf8(&self.line[at..]).ok().and_then(|s| s.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    /// Reads the numbers of the current line into `cells`, returning how many
    /// there were; `side` bounds them when it is known.
    fn numbers(&self, cells: &mut Vec<u8>, side: Option<usize>) -> Result<usize, ParseError> {
        let mut count = 0;
        for (at, token) in tokens(&self.line) {
            let value = match token {
                b"." | b"-" | b"_" | b"*" => 0,
                _ if token.len() <= 6 && token.iter().all(u8::is_ascii_digit) => {
                    token.iter().fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'))
                }
                _ => {
                    let found: String = String::from_utf8_lossy(token).chars().take(20).collect();
                    // A run of cells (dots, or more digits than a number has) is
                    // a line puzzle with a space in it: say why it is read so.
                    let cells = token.len() >= 3
                        && token.iter().all(|&b| symbol_value(b).is_some())
                        && (token.iter().any(|&b| symbol_value(b) == Some(0) && b != b'0')
                            || token.iter().all(u8::is_ascii_digit));
                    let kind =
                        if cells { ParseErrorKind::SpacedCells { found } } else { ParseErrorKind::BadToken { found } };
                    return Err(self.error(Some(self.column(at)), kind));
                }
            };
            if let Some(side) = side {
                if value as usize > side {
                    let found = String::from_utf8_lossy(token).into_owned();
                    // Digits in ascending order, each a value of the grid: a
                    // cell's candidates, from a pencil-mark grid.
                    let candidates = token.len() >= 2
                        && token.windows(2).all(|pair| pair[0] < pair[1])
                        && token.iter().all(|&d| d > b'0' && usize::from(d - b'0') <= side);
                    let kind = if candidates {
                        ParseErrorKind::Candidates { found }
                    } else {
                        ParseErrorKind::ValueTooLarge { found, value, side }
                    };
                    return Err(self.error(Some(self.column(at)), kind));
                }
            }
            cells.push(value.min(255) as u8);
            count += 1;
        }
        Ok(count)
    }

    /// Checks the values of a first row read before the side was known.
    fn check_first_row(&self, side: usize) -> Result<(), ParseError> {
        let mut scratch = Vec::new();
        self.numbers(&mut scratch, Some(side)).map(|_| ())
    }

    /// A puzzle written as one line of more than [`MAX_SIDE`] numbers.
    fn spaced_line_puzzle(&mut self) -> Result<Puzzle, ParseError> {
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let result = self.numbers(&mut cells, None);
        self.cells = cells;
        let count = result?;
        let side = count.isqrt();
        if side * side != count {
            return Err(self.error(None, ParseErrorKind::NotSquare { found: count }));
        }
        let shape = self.shape_for(side, self.line_shape).map_err(|e| self.error(None, e))?;
        self.check_first_row(shape.side())?;
        Ok(self.finish_puzzle(shape, self.line_number, Layout::Line))
    }

    /// A grid of whitespace-separated numbers whose first row is the current line.
    fn grid_puzzle(&mut self) -> Result<Puzzle, ParseError> {
        let result = self.grid_rows();
        if result.is_err() && !self.finished && !self.at_block_end() {
            self.skip_block(Rows::Tokens);
        }
        result
    }

    /// Whether the current line already ends a block (a blank line, or a header
    /// left for the next puzzle).
    fn at_block_end(&self) -> bool {
        self.replay || self.classify() == LineKind::Blank
    }

    fn grid_rows(&mut self) -> Result<Puzzle, ParseError> {
        let first_line = self.line_number;
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let result = self.numbers(&mut cells, None);
        self.cells = cells;
        let side = result?;
        let shape = self.shape_for(side, self.line_shape).map_err(|e| self.error(None, e))?;
        self.check_first_row(side)?;
        let mut rows = 1;
        while rows < side {
            let kind = match self.read_line()? {
                Read::End => None,
                Read::Line => Some(self.classify()),
            };
            match kind {
                Some(LineKind::Comment | LineKind::Separator) => continue,
                Some(LineKind::Tokens(_) | LineKind::Word) => {}
                Some(LineKind::Header | LineKind::Json) => {
                    self.replay = true;
                    return Err(self.error(None, ParseErrorKind::MissingRows { expected: side, found: rows }));
                }
                Some(LineKind::Blank) | None => {
                    return Err(self.error(None, ParseErrorKind::MissingRows { expected: side, found: rows }));
                }
            }
            let mut cells = std::mem::take(&mut self.cells);
            let before = cells.len();
            let result = self.numbers(&mut cells, Some(side));
            self.cells = cells;
            let found = result?;
            if found != side {
                self.cells.truncate(before);
                return Err(self.error(None, ParseErrorKind::RowLength { row: rows + 1, expected: side, found }));
            }
            rows += 1;
        }
        Ok(self.finish_puzzle(shape, first_line, Layout::Grid))
    }

    /// A Project Euler grid: the current line is its `Grid NN` header.
    fn euler_puzzle(&mut self) -> Result<Puzzle, ParseError> {
        self.rows_puzzle(true)
    }

    /// Whether the current line, one word, is the first row of a grid of
    /// rows of symbols without a header: its cells make no line puzzle (9
    /// cells would be a 3x3 grid, which has no boxes; 12 cells no square)
    /// and a grid of side its length has a box shape. No shape is given for
    /// the line's side (a `--box` for another side leaves the line to be
    /// refused as a line puzzle of its own side). Lines of more than 35
    /// cells (every 81-cell line of a batch) are line puzzles at the cost of
    /// a comparison.
    fn starts_rows(&self) -> bool {
        let (start, end) = trimmed(&self.line);
        let length = end - start;
        if !(4..=35).contains(&length) || self.line[start..end].contains(&b'+') {
            return false;
        }
        let side = length.isqrt();
        let line_puzzle = side * side == length && self.shape_for(side, self.line_shape).is_ok();
        !line_puzzle && self.shape_for(length, self.line_shape).is_ok()
    }

    /// Whether the current line, one word of `n * n` symbols that is a line
    /// puzzle of side `n`, may also be the first row of a grid of side `n *
    /// n` (16 symbols: a 4x4 puzzle, or a row of a 16x16): see
    /// [`Self::block_puzzle`].
    fn may_start_block(&self) -> bool {
        let (start, end) = trimmed(&self.line);
        let length = end - start;
        let side = length.isqrt();
        self.read_ahead
            && (4..=35).contains(&length)
            && side * side == length
            && self.line[start..end].iter().all(|&b| symbol_value(b).is_some())
            && self.shape_for(side, self.line_shape).is_ok()
            && self.shape_for(length, self.line_shape).is_ok()
    }

    /// A line of `n * n` symbols that may be a line puzzle of side `n` or
    /// the first row of a grid of side `n * n` ([`Self::may_start_block`]):
    /// it is a row of a grid when it opens a block of exactly `n * n` such
    /// lines (no other right before or after it) and some symbol of the
    /// block is larger than `n`, which no line puzzle of side `n` holds;
    /// otherwise every line of the run is a line puzzle. The lines of the
    /// block are read ahead (at most `n * n + 1`) and handed out again.
    fn block_puzzle(&mut self) -> Result<Puzzle, ParseError> {
        let (start, end) = trimmed(&self.line);
        let length = end - start;
        let side = length.isqrt();
        if self.judged_until != 0 && self.line_number <= self.judged_until + 1 {
            self.judged_until = self.judged_until.max(self.line_number);
            return self.line_puzzle();
        }
        let larger = |line: &[u8]| line.iter().any(|&b| usize::from(symbol_value(b).unwrap_or(0)) > side);
        let mut grid = larger(&self.line[start..end]);
        let first = Ahead { number: self.line_number, text: Ok((std::mem::take(&mut self.line), self.line_shape)) };
        let mut rows = VecDeque::from([first]);
        let mut after = None;
        while rows.len() <= length {
            let read = self.read_line();
            let number = self.line_number;
            match read {
                Ok(Read::End) => break,
                Ok(Read::Line) => {
                    let (start, end) = trimmed(&self.line);
                    let row = self.classify() == LineKind::Word
                        && end - start == length
                        && self.line[start..end].iter().all(|&b| symbol_value(b).is_some());
                    grid |= row && larger(&self.line[start..end]);
                    let line = Ahead { number, text: Ok((std::mem::take(&mut self.line), self.line_shape)) };
                    if !row {
                        after = Some(line);
                        break;
                    }
                    rows.push_back(line);
                }
                Err(err) => {
                    after = Some(Ahead { number, text: Err(err) });
                    break;
                }
            }
        }
        let grid = grid && rows.len() == length;
        if !grid {
            self.judged_until = rows.back().map_or(0, |last| last.number);
        }
        // The rows and the line after them are handed out again, the first now.
        rows.extend(after);
        rows.append(&mut self.ahead);
        self.ahead = rows;
        self.read_line()?;
        if grid { self.rows_puzzle(false) } else { self.line_puzzle() }
    }

    /// A grid of rows of symbols: after a `Grid NN` header (the current line,
    /// `header`), or without one from the current line (see
    /// [`Self::starts_rows`]).
    fn rows_puzzle(&mut self, header: bool) -> Result<Puzzle, ParseError> {
        let result = self.euler_rows(header);
        if result.is_err() && !self.finished && !self.at_block_end() {
            self.skip_block(Rows::Symbols(self.row_width));
        }
        result
    }

    fn euler_rows(&mut self, after_header: bool) -> Result<Puzzle, ParseError> {
        let mut current_is_a_row = !after_header;
        let header_line = self.line_number;
        let header_shape = self.line_shape;
        let header = String::from_utf8_lossy(&self.line).trim().to_string();
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        self.cells = cells;
        let mut side = 0;
        let mut shape = None;
        let mut rows = 0;
        while shape.is_none() || rows < side {
            let kind = if std::mem::take(&mut current_is_a_row) {
                Some(LineKind::Word)
            } else {
                match self.read_line()? {
                    Read::End => None,
                    Read::Line => Some(self.classify()),
                }
            };
            let (start, end) = trimmed(&self.line);
            if !after_header && rows == 1 && !(kind == Some(LineKind::Word) && end - start == side) {
                // Without a header, a first row that no second row follows
                // was a line puzzle: its error is that of its side, and the
                // line read is the next puzzle's.
                self.replay = kind.is_some();
                let root = side.isqrt();
                let kind = if root * root == side {
                    self.shape_for(root, header_shape).err().unwrap_or(ParseErrorKind::NoPuzzle)
                } else {
                    ParseErrorKind::NotSquare { found: side }
                };
                return Err(ParseError { file: self.file.clone(), line: header_line, column: None, kind });
            }
            let missing = |reader: &Self| {
                if rows == 0 {
                    reader.error(None, ParseErrorKind::EmptyHeader { header: header.clone() })
                } else {
                    reader.error(None, ParseErrorKind::MissingRows { expected: side, found: rows })
                }
            };
            match kind {
                Some(LineKind::Comment | LineKind::Separator) => continue,
                Some(LineKind::Word) => {}
                Some(LineKind::Tokens(found)) => {
                    return Err(self.error(None, ParseErrorKind::RowLength { row: rows + 1, expected: side, found }));
                }
                Some(LineKind::Header | LineKind::Json) => {
                    self.replay = true;
                    return Err(missing(self));
                }
                Some(LineKind::Blank) | None => return Err(missing(self)),
            }
            let (start, end) = trimmed(&self.line);
            if rows == 0 {
                self.row_width = end - start;
            }
            let mut cells = std::mem::take(&mut self.cells);
            let before = cells.len();
            let result = self.symbols_row(start, end, &mut cells);
            self.cells = cells;
            let found = result?;
            if rows == 0 {
                side = found;
                let fitted = self.shape_for(side, header_shape).map_err(|e| self.error(None, e))?;
                shape = Some(fitted);
            } else if found != side {
                self.cells.truncate(before);
                return Err(self.error(None, ParseErrorKind::RowLength { row: rows + 1, expected: side, found }));
            }
            self.check_values(side, start, end)?;
            rows += 1;
        }
        match shape {
            Some(shape) => Ok(self.finish_puzzle(shape, header_line, Layout::Euler)),
            None => Err(self.error(None, ParseErrorKind::EmptyHeader { header })),
        }
    }

    /// Reads one row of symbols, returning how many there were.
    fn symbols_row(&self, start: usize, end: usize, cells: &mut Vec<u8>) -> Result<usize, ParseError> {
        let before = cells.len();
        for (i, &b) in self.line[start..end].iter().enumerate() {
            match symbol_value(b) {
                Some(v) => cells.push(v),
                None => return Err(self.bad_symbol(start + i)),
            }
        }
        Ok(cells.len() - before)
    }

    /// The error for a character at byte `at` that is not a symbol.
    fn bad_symbol(&self, at: usize) -> ParseError {
        let kind = match self.line[at] {
            b'+' => ParseErrorKind::PlacedDigit,
            _ => ParseErrorKind::BadSymbol { found: self.char_at(at) },
        };
        self.error(Some(self.column(at)), kind)
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.finished && self.ahead.is_empty() {
                return None;
            }
            match self.read_line() {
                Ok(Read::End) => {
                    self.finished = true;
                    return None;
                }
                Ok(Read::Line) => {}
                Err(err) => return Some(Err(err)),
            }
            return Some(match self.classify() {
                LineKind::Blank | LineKind::Comment | LineKind::Separator => continue,
                LineKind::Header => self.euler_puzzle(),
                LineKind::Word if self.starts_rows() => self.rows_puzzle(false),
                LineKind::Word if self.may_start_block() => self.block_puzzle(),
                LineKind::Word => self.line_puzzle(),
                LineKind::Json => match self.json_puzzle() {
                    Ok(Some(puzzle)) => Ok(puzzle),
                    // A record of a puzzle without a grid (no solution): a comment.
                    Ok(None) => continue,
                    Err(err) => Err(err),
                },
                LineKind::Tokens(count) if count > MAX_SIDE => self.spaced_line_puzzle(),
                LineKind::Tokens(count) if self.notation != Notation::Givens => self.marks_grid(count),
                LineKind::Tokens(_) => self.grid_puzzle(),
            });
        }
    }
}

/// The rows of a multi-line puzzle, skipped after an error in it
/// ([`PuzzleReader::skip_block`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rows {
    /// Rows of whitespace-separated numbers or pencil marks.
    Tokens,
    /// Rows of this many symbols each.
    Symbols(usize),
}

/// Whether a line draws a grid's frame: only `-`, `+`, `=` and `|` (the
/// pretty output), or also HoDoKu's and Sudoku Explainer's `.`, `:`, `'` and
/// `*` with at least one `-` or `=` (a line of dots alone is an empty puzzle).
///
/// `-`, `_` and `*` are also empty cells, so a line of them could be a row
/// of empty cells: a frame draws runs of `-` (`------+------`, `+-----+`,
/// `---------`), a grid row of empty cells is cells apart (`- - - | - - -`),
/// and such a line is a row. A line of `-` alone, whatever its length (81
/// for a 9x9), is a frame: an empty puzzle is written with `.`, `0`, `_` or
/// `*`.
fn is_separator(line: &[u8]) -> bool {
    let frame = |b: u8| matches!(b, b'-' | b'+' | b'=' | b'|') || is_blank(b);
    let drawn = line.iter().all(|&b| frame(b))
        || (line.iter().all(|&b| frame(b) || matches!(b, b'.' | b':' | b'\'' | b'*'))
            && line.iter().any(|&b| matches!(b, b'-' | b'=')));
    drawn && !is_row_of_empty_cells(line)
}

/// Whether a line is two or more empty cells written apart (`- - -`, `* *
/// | * *`), `|` tokens left out: a grid row, not a frame.
fn is_row_of_empty_cells(line: &[u8]) -> bool {
    let mut cells = 0;
    for (_, token) in tokens(line) {
        match token {
            [b] if symbol_value(*b) == Some(0) => cells += 1,
            _ => return false,
        }
    }
    cells >= 2
}

#[inline]
/// A byte that text does not hold: a control character other than tab and
/// form feed.
fn is_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t' && b != 0x0c) || b == 0x7f
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0c' | b'\r')
}

/// The value of a line-format symbol: `.`, `0`, `-`, `_` and `*` are 0 (an
/// empty cell), `1`-`9`, `A`-`Z` and `a`-`z` are 1 to 35.
///
/// One lookup in a table: the line layout reads every byte of a batch
/// through here twice, and a `match` on the five empty symbols, which are
/// not one range, cost 0.75% more instructions on a 17clue batch (callgrind,
/// first 2,000 puzzles) than the table.
#[inline]
pub fn symbol_value(b: u8) -> Option<u8> {
    match SYMBOL_VALUES[usize::from(b)] {
        NOT_A_SYMBOL => None,
        value => Some(value),
    }
}

/// [`SYMBOL_VALUES`]' mark of a byte that is no symbol.
const NOT_A_SYMBOL: u8 = u8::MAX;

/// The value of every byte as a symbol ([`symbol_value`]).
static SYMBOL_VALUES: [u8; 256] = {
    let mut table = [NOT_A_SYMBOL; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'.' | b'0' | b'-' | b'_' | b'*' => 0,
            digit @ b'1'..=b'9' => digit - b'0',
            letter @ b'A'..=b'Z' => letter - b'A' + 10,
            letter @ b'a'..=b'z' => letter - b'a' + 10,
            _ => NOT_A_SYMBOL,
        };
        b += 1;
    }
    table
};

/// The start and end of a line without its leading and trailing blanks.
fn trimmed(line: &[u8]) -> (usize, usize) {
    let start = line.iter().position(|&b| !is_blank(b)).unwrap_or(line.len());
    let end = line.iter().rposition(|&b| !is_blank(b)).map_or(start, |i| i + 1);
    (start, end)
}

/// The whitespace-separated words of a line with their byte offsets, `|` left out.
fn tokens(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            while at < line.len() && is_blank(line[at]) {
                at += 1;
            }
            if at >= line.len() {
                return None;
            }
            let start = at;
            while at < line.len() && !is_blank(line[at]) {
                at += 1;
            }
            let token = &line[start..at];
            if token != b"|" {
                return Some((start, token));
            }
        }
    })
}

/// U+FEFF in UTF-8: at the start of an input, a byte order mark, skipped.
const BYTE_ORDER_MARK: &[u8] = "\u{feff}".as_bytes();

/// Reads every puzzle of a string (see [`PuzzleReader`]).
pub fn puzzles(text: &str) -> PuzzleReader<&[u8]> {
    PuzzleReader::new(text.as_bytes())
}

/// The first puzzle of a string, with the default box shape.
///
/// ```
/// let grid = csp_sudoku::parse::one("1.42421321343421").unwrap();
/// assert_eq!(grid.side(), 4);
/// ```
pub fn one(text: &str) -> Result<Grid, ParseError> {
    match puzzles(text).next() {
        Some(result) => result.map(|puzzle| puzzle.grid),
        None => Err(ParseError { file: None, line: 1, column: None, kind: ParseErrorKind::NoPuzzle }),
    }
}

#[cfg(test)]
mod tests;
