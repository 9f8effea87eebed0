//! Writing grids: pretty (box separators), line, grid and JSON.
//!
//! Every formatter appends to a `String` the caller owns, so a batch of a
//! million puzzles reuses one buffer instead of allocating per puzzle. Every
//! format reads back with [`crate::parse`], box shape included: [`Writer`]
//! (and [`Format::write`]) mark a shape that is not its side's default with a
//! `# box RxC` comment. JSON is written with `serde_json`; [`JsonRows`] is a
//! grid's rows for records of one's own.

use std::fmt;
use std::str::FromStr;

use crate::grid::{Grid, Shape};

/// How to write a grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Rows with box separators and aligned columns, for people.
    #[default]
    Pretty,
    /// One line: a symbol per cell (`1`-`9`, `A`-`Z`, `.` empty) up to side 35,
    /// numbers separated by single spaces beyond.
    Line,
    /// `n` lines of space-separated numbers (`.` empty), aligned.
    Grid,
    /// A JSON object: `{"box":"3x3","side":9,"rows":[[5,3,0,...],...]}` (0 empty).
    Json,
}

impl Format {
    /// Every format, in declaration order.
    pub const ALL: &'static [Format] = &[Format::Pretty, Format::Line, Format::Grid, Format::Json];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pretty => "pretty",
            Format::Line => "line",
            Format::Grid => "grid",
            Format::Json => "json",
        }
    }

    /// Appends `grid` in this format to `out`: one line for line and JSON,
    /// several lines for pretty and grid, always ending with a newline, and
    /// marked with its box shape when that is not its side's default (see
    /// [`Writer`], which also keeps track of the shapes across grids).
    pub fn write(self, grid: &Grid, out: &mut String) {
        Writer::new(self).write(grid, out);
    }
}

/// Writes grids in one format so that they read back with their box shapes.
///
/// A line-format grid whose shape is not its side's default ends with `# box
/// RxC`, which the reader applies to that puzzle alone, so the output stays
/// one line per grid. A pretty or grid block is preceded by a `# box RxC`
/// line, which the reader applies to the grids of that side that follow,
/// whenever its shape differs from what the reader would take by then. JSON
/// records name their shape.
///
/// ```
/// use csp_sudoku::format::{Format, Writer};
/// use csp_sudoku::{Grid, Shape};
///
/// let mut writer = Writer::new(Format::Line);
/// let mut out = String::new();
/// writer.write(&Grid::empty(Shape::new(3, 2).unwrap()), &mut out);
/// writer.write(&Grid::empty(Shape::new(2, 3).unwrap()), &mut out);
/// assert_eq!(out, format!("{} # box 3x2\n{}\n", ".".repeat(36), ".".repeat(36)));
/// let read: Vec<Shape> = csp_sudoku::parse::puzzles(&out).map(|p| p.unwrap().grid.shape()).collect();
/// assert_eq!(read, [Shape::new(3, 2).unwrap(), Shape::new(2, 3).unwrap()]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Writer {
    format: Format,
    /// The shapes the `# box` lines written so far give, by side.
    declared: Vec<(usize, Shape)>,
    /// The last shape written and whether it is its side's default (a batch
    /// has one shape: this saves working the default out for every grid).
    last: Option<(Shape, bool)>,
}

impl Writer {
    /// A writer of grids in `format`.
    pub fn new(format: Format) -> Writer {
        Writer { format, declared: Vec::new(), last: None }
    }

    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Appends `grid` (see [`Format::write`]).
    pub fn write(&mut self, grid: &Grid, out: &mut String) {
        let shape = grid.shape();
        let is_default = match self.last {
            Some((last, is_default)) if last == shape => is_default,
            _ => {
                let is_default = Shape::for_side(shape.side()) == Ok(shape);
                self.last = Some((shape, is_default));
                is_default
            }
        };
        match self.format {
            Format::Pretty | Format::Grid => {
                let side = shape.side();
                let assumed = match self.declared.iter().find(|(s, _)| *s == side) {
                    Some(&(_, declared)) => declared == shape,
                    None => is_default,
                };
                if !assumed {
                    out.push_str("# box ");
                    out.push_str(&shape.to_string());
                    out.push('\n');
                    match self.declared.iter_mut().find(|(s, _)| *s == side) {
                        Some(entry) => entry.1 = shape,
                        None => self.declared.push((side, shape)),
                    }
                }
                if self.format == Format::Pretty { write_pretty(grid, out) } else { write_grid(grid, out) }
            }
            Format::Line => {
                write_line(grid, out);
                if !is_default {
                    out.push_str(" # box ");
                    out.push_str(&shape.to_string());
                }
            }
            Format::Json => write_json(grid, out),
        }
        out.push('\n');
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An output format name that is not one of the four.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown output format '{0}' (expected one of: pretty, line, grid, json)")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(text: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownFormat(text.to_string()))
    }
}

/// The largest side the one-symbol-per-cell line format can write.
pub const MAX_SYMBOL_SIDE: usize = 35;

/// The line-format symbol of a value: `.` for empty, `1`-`9`, then `A` for 10
/// up to `Z` for 35 (`?` beyond, which a caller avoids by checking the side).
#[inline]
pub fn symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => char::from(b'0' + value),
        10..=35 => char::from(b'A' + value - 10),
        _ => '?',
    }
}

/// The grid in the line format, as a `String` (see [`write_line`]).
pub fn line(grid: &Grid) -> String {
    let mut out = String::with_capacity(grid.cells().len());
    write_line(grid, &mut out);
    out
}

/// Appends the grid in the line format, without a newline: one symbol per cell
/// up to side 35, otherwise the numbers separated by single spaces (`0` empty).
/// The box shape is not written (see [`Writer`]).
pub fn write_line(grid: &Grid, out: &mut String) {
    if grid.side() <= MAX_SYMBOL_SIDE {
        out.extend(grid.cells().iter().map(|&v| symbol(v)));
    } else {
        for (i, &v) in grid.cells().iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            push_number(out, v);
        }
    }
}

/// The grid with box separators, as a `String` (see [`write_pretty`]).
pub fn pretty(grid: &Grid) -> String {
    let mut out = String::new();
    write_pretty(grid, &mut out);
    out
}

/// Appends the grid for people, without the final newline: boxes separated by
/// `|` and `-+-` lines, values right-aligned in columns as wide as the side's
/// largest number, `.` for empty cells.
pub fn write_pretty(grid: &Grid, out: &mut String) {
    let shape = grid.shape();
    let (n, c) = (shape.side(), shape.box_cols());
    let width = digits(n);
    for row in 0..n {
        if row > 0 {
            out.push('\n');
            if row % shape.box_rows() == 0 {
                for stack in 0..n / c {
                    if stack > 0 {
                        out.push_str("-+-");
                    }
                    out.extend(std::iter::repeat_n('-', c * width + c - 1));
                }
                out.push('\n');
            }
        }
        for col in 0..n {
            if col > 0 {
                out.push_str(if col % c == 0 { " | " } else { " " });
            }
            push_cell(out, grid.cells()[row * n + col], width);
        }
    }
}

/// Appends the grid as `n` lines of aligned, space-separated numbers (`.`
/// empty), without the final newline.
pub fn write_grid(grid: &Grid, out: &mut String) {
    let n = grid.side();
    let width = digits(n);
    for (i, &v) in grid.cells().iter().enumerate() {
        if i > 0 {
            out.push(if i % n == 0 { '\n' } else { ' ' });
        }
        push_cell(out, v, width);
    }
}

/// A grid's rows as JSON: an array of arrays of numbers (0 empty), for the
/// records a tool writes with `serde_json`.
#[derive(Clone, Copy, Debug)]
pub struct JsonRows<'a>(pub &'a Grid);

impl serde::Serialize for JsonRows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.cells().chunks(self.0.side()))
    }
}

/// The JSON object of [`Format::Json`].
#[derive(serde::Serialize)]
struct JsonGrid<'a> {
    #[serde(rename = "box")]
    shape: String,
    side: usize,
    rows: JsonRows<'a>,
}

/// Appends the grid as one JSON object (see [`Format::Json`]), without a newline.
pub fn write_json(grid: &Grid, out: &mut String) {
    let object = JsonGrid { shape: grid.shape().to_string(), side: grid.side(), rows: JsonRows(grid) };
    // Writing plain data to a string cannot fail.
    out.push_str(&serde_json::to_string(&object).unwrap_or_default());
}

fn digits(n: usize) -> usize {
    if n < 10 { 1 } else { 2 }
}

fn push_number(out: &mut String, v: u8) {
    if v >= 10 {
        out.push(char::from(b'0' + v / 10));
    }
    out.push(char::from(b'0' + v % 10));
}

fn push_cell(out: &mut String, v: u8, width: usize) {
    if width == 2 && v < 10 {
        out.push(' ');
    }
    if v == 0 {
        out.push('.');
    } else {
        push_number(out, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    fn grid_2x3() -> Grid {
        let cells = vec![
            1, 2, 3, 4, 5, 6, //
            4, 5, 6, 1, 2, 3, //
            2, 3, 1, 5, 6, 4, //
            5, 6, 4, 2, 3, 1, //
            3, 1, 2, 6, 4, 5, //
            6, 4, 5, 3, 1, 0,
        ];
        Grid::from_cells(Shape::new(2, 3).unwrap(), cells).unwrap()
    }

    #[test]
    fn pretty_separates_rectangular_boxes() {
        let text = pretty(&grid_2x3());
        let expected = "\
1 2 3 | 4 5 6
4 5 6 | 1 2 3
------+------
2 3 1 | 5 6 4
5 6 4 | 2 3 1
------+------
3 1 2 | 6 4 5
6 4 5 | 3 1 .";
        assert_eq!(text, expected);
    }

    #[test]
    fn large_sides_align_and_use_letters_or_numbers() {
        let shape = Shape::new(3, 4).unwrap();
        let mut grid = Grid::empty(shape);
        grid.set(0, 12);
        grid.set(1, 3);
        let text = pretty(&grid);
        assert!(text.starts_with("12  3  .  . |  .  .  .  . |"), "{text}");
        assert!(text.lines().nth(3).unwrap().starts_with("------------+-"), "{text}");
        assert!(line(&grid).starts_with("C3.."));
        let big = Grid::empty(Shape::new(6, 6).unwrap());
        assert_eq!(line(&big).split(' ').count(), 36 * 36);
    }

    #[test]
    fn line_grid_and_json_forms() {
        let grid = grid_2x3();
        assert_eq!(line(&grid), "12345645612323156456423131264564531.");
        let mut out = String::new();
        Format::Grid.write(&grid, &mut out);
        assert_eq!(out.lines().count(), 6);
        assert_eq!(out.lines().last(), Some("6 4 5 3 1 ."));
        out.clear();
        Format::Json.write(&grid, &mut out);
        assert!(out.starts_with("{\"box\":\"2x3\",\"side\":6,\"rows\":[[1,2,3,4,5,6],[4,5,6,1,2,3],"), "{out}");
        assert!(out.ends_with(",[6,4,5,3,1,0]]}\n"), "{out}");
        let rows = serde_json::to_string(&JsonRows(&grid)).unwrap();
        assert!(rows.starts_with("[[1,2,3,4,5,6],[4,5,6,1,2,3],") && rows.ends_with(",[6,4,5,3,1,0]]"), "{rows}");
    }

    #[test]
    fn every_format_reads_back_with_its_box_shape() {
        let tall = Shape::new(3, 2).unwrap();
        let wide = Shape::new(2, 3).unwrap();
        let latin = Shape::new(1, 7).unwrap();
        let grids = [Grid::empty(tall), Grid::empty(wide), Grid::empty(tall), grid_2x3(), Grid::empty(latin)];
        for &format in Format::ALL {
            let mut writer = Writer::new(format);
            let mut out = String::new();
            for grid in &grids {
                writer.write(grid, &mut out);
            }
            let read: Vec<Grid> = crate::parse::puzzles(&out).map(|p| p.unwrap().grid).collect();
            assert_eq!(read, grids, "{format}:\n{out}");
        }
        // Pretty and grid blocks declare a shape only when it changes.
        let mut out = String::new();
        let mut writer = Writer::new(Format::Grid);
        for grid in &grids[..4] {
            writer.write(grid, &mut out);
        }
        assert_eq!(out.matches("# box").collect::<Vec<_>>().len(), 4);
        out.clear();
        Format::Grid.write(&grid_2x3(), &mut out);
        assert!(!out.contains('#'), "the default shape needs no comment");
    }

    #[test]
    fn format_names_round_trip() {
        for &f in Format::ALL {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("xml".parse::<Format>().unwrap_err().to_string().contains("pretty, line, grid, json"));
    }
}
