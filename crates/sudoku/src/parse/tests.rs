//! The reader's tests: layouts, comments and shapes, errors.

use super::*;

fn read_all(text: &str) -> Vec<Result<Puzzle, String>> {
    puzzles(text).map(|r| r.map_err(|e| e.to_string())).collect()
}

#[test]
fn line_format_with_comments_and_letters() {
    let text = "# comment\n  # indented comment\n1.42421321343421\r\n\n1.42421321.43421  \n";
    let got = read_all(text);
    assert_eq!(got.len(), 2);
    let first = got[0].as_ref().unwrap();
    assert_eq!(first.line, 3);
    assert_eq!(first.layout, Layout::Line);
    assert_eq!(first.grid.cells()[..4], [1, 0, 4, 2]);
    let mut big = "G".to_string();
    big.push_str(&".".repeat(255));
    let grid = one(&big).unwrap();
    assert_eq!(grid.side(), 16);
    assert_eq!(grid.cells()[0], 16);
    assert_eq!(one(&big.to_lowercase()).unwrap(), grid);
}

#[test]
fn a_byte_order_mark_opening_the_input_is_skipped() {
    // Windows' Notepad starts a UTF-8 file with one; the first line is then
    // a comment, a puzzle or a grid row as usual, and columns are as shown.
    for text in [
        "\u{feff}# top\r\n1.42421321343421\r\n",
        "\u{feff}1.42421321343421\n",
        "\u{feff}1 . 4 2\n4 2 1 3\n2 1 3 4\n3 4 2 1\n",
    ] {
        let puzzles: Vec<_> = puzzles(text).collect::<Result<_, _>>().unwrap_or_else(|err| panic!("{text:?}: {err}"));
        assert_eq!(puzzles.len(), 1, "{text:?}");
        assert_eq!(puzzles[0].grid.side(), 4, "{text:?}");
    }
    let err = one("\u{feff}1.x2421321343421").unwrap_err();
    assert_eq!((err.line, err.column), (1, Some(3)));
    // Only at the start: elsewhere it is a character like any other.
    assert!(puzzles("1.42421321343421\n\u{feff}1.42421321343421\n").nth(1).unwrap().is_err());
}

#[test]
fn grid_format_any_side_and_pretty_output_read_back() {
    let text = "1 . 4 2\n4 2 1 3\n\n2 1 3 4\n";
    let got = read_all(text);
    assert_eq!(got[0], Err("line 3: the grid ends after 2 rows, expected 4".to_string()));
    let pretty = "1 2 | 3 4\n3 4 | 1 2\n----+----\n2 1 | 4 3\n4 3 | 2 1\n";
    let grid = one(pretty).unwrap();
    assert!(grid.is_filled());
    assert_eq!(crate::format::pretty(&grid), pretty.trim_end());
}

#[test]
fn euler_layout() {
    let text = "Grid 01\n1042\n4213\n2134\n3421\nGrid 02\n0000\n0000\n0000\n0000\n";
    let got = read_all(text);
    assert_eq!(got.len(), 2);
    let first = got[0].as_ref().unwrap();
    assert_eq!(first.layout, Layout::Euler);
    assert_eq!(first.line, 1);
    assert_eq!(first.grid.num_givens(), 15);
    assert_eq!(got[1].as_ref().unwrap().grid.num_givens(), 0);
}

#[test]
fn errors_name_line_and_column() {
    let text = "1.42421321343421\n1.4242132134342\n1.42.21.21.4.4x1\n1.42.21.21.4.451\n";
    let got = read_all(text);
    assert_eq!(got.len(), 4);
    assert!(got[0].is_ok());
    assert_eq!(
        got[1],
        Err("line 2: a line of 15 cells is not a puzzle: the length must be a square (16 for 4x4, 81 for 9x9, ...)"
            .to_string())
    );
    assert!(got[2].as_ref().unwrap_err().starts_with("line 3, column 15:"), "{:?}", got[2]);
    assert_eq!(got[3], Err("line 4, column 15: '5' (5) is larger than the grid's side, 4".to_string()));
}

#[test]
fn a_bad_grid_costs_one_error_and_reading_resumes() {
    let text = "1 2 3 4\n1 2 x 4\n1 2 3 4\n1 2 3 4\n\n1.42421321343421\n";
    let got = read_all(text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        got[0],
        Err("line 2, column 5: 'x' is not a number or an empty cell ('.', '0', '-', '_', '*')".to_string())
    );
    assert!(got[1].is_ok());
}

#[test]
fn binary_input_is_one_error() {
    let mut bytes = b"1.42421321343421\n".to_vec();
    bytes.extend_from_slice(&[0, 159, 146, 150, 10, 1, 2, 3]);
    let got: Vec<_> = PuzzleReader::new(&bytes[..]).file("x.bin").collect();
    assert_eq!(got.len(), 2);
    assert_eq!(
        got[1].as_ref().unwrap_err().to_string(),
        "x.bin:2:1: this is not a text file (byte 0x00); the rest of it is skipped"
    );
}

#[test]
fn comments_may_follow_a_puzzle_and_box_comments_give_shapes() {
    // A trailing comment is not part of the puzzle, in every layout.
    let text = "1.42421321343421 # easy\n1 . 4 2 # first row\n4 2 1 3\n2 1 3 4\n3 4 2 1\n";
    let got = read_all(text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].as_ref().unwrap().grid, got[1].as_ref().unwrap().grid);
    // 6x6 puzzles with 3x2 boxes: per puzzle, and for the grids of side 6 that follow.
    let line = "..65..62..15.3.......65...5..1..42.6";
    let per_puzzle = one(&format!("{line}  # box 3x2, hard")).unwrap();
    assert_eq!(per_puzzle.shape(), Shape::new(3, 2).unwrap());
    let text = format!("# box 3x2\n{line}\n1.42421321343421\n{line} # box 2x3\n{line}\n# BOX 2x3\n{line}\n");
    let shapes: Vec<String> = puzzles(&text).map(|p| p.unwrap().grid.shape().to_string()).collect();
    assert_eq!(shapes, ["3x2", "2x2", "2x3", "3x2", "2x3"]);
    // Other comments that mention a box are comments.
    assert!(one(&format!("# box 1 is hard\n{line} # box of chocolates")).is_ok());
    // A shape that does not fit, or disagrees with --box, is an error.
    let err = one(&format!("{line} # box 3x3")).unwrap_err();
    assert_eq!(err.to_string(), "line 1: boxes of 3x3 do not fit a grid of side 6 (3*3 = 9 is not 6)");
    let err = puzzles(&format!("# box 3x2\n{line}\n")).shape(Some(Shape::new(2, 3).unwrap())).next().unwrap();
    assert_eq!(err.unwrap_err().to_string(), "line 2: the input gives boxes of 3x2 ('# box 3x2'), but --box gives 2x3");
    let agreed = puzzles(&format!("# box 3x2\n{line}\n")).shape(Some(Shape::new(3, 2).unwrap())).next().unwrap();
    assert_eq!(agreed.unwrap().grid.shape(), Shape::new(3, 2).unwrap());
    let err = one("# box 0x3\n1.42421321343421").unwrap_err();
    assert_eq!(err.to_string(), "line 1, column 1: a box needs at least one row and one column, not 0x3");
    // A line of dots is an empty puzzle, not a frame; HoDoKu's frames are frames.
    assert_eq!(one("................").unwrap().num_givens(), 0);
    assert_eq!(
        one(".-------.-------.\n1 . 4 2\n4 2 1 3\n:-------+-------:\n2 1 3 4\n3 4 2 1\n").unwrap().num_givens(),
        15
    );
    // A '+' (HoDoKu's placed digits) is read only with the progress notation.
    let err = one("1.+42421321343421").unwrap_err();
    assert_eq!(err.kind, ParseErrorKind::PlacedDigit);
    assert_eq!(err.column, Some(3));
}

/// A binary stream with no line end (/dev/zero) is refused at its first cut
/// line, not read to its end (which may never come) to find a newline.
#[test]
fn binary_without_line_ends_is_refused_without_reading_it_all() {
    let zeros = io::BufReader::new(io::Read::take(io::repeat(0), 1 << 30));
    let mut reader = PuzzleReader::new(zeros);
    let err = reader.next().unwrap().unwrap_err();
    assert_eq!((err.kind, err.line, err.column), (ParseErrorKind::NotText { byte: 0 }, 1, Some(1)));
    assert!(reader.next().is_none());
    assert!(reader.bytes_read() < 2 * MAX_LINE as u64, "{} bytes read", reader.bytes_read());
}

#[test]
fn long_lines_are_refused_without_keeping_them() {
    let mut text = ".".repeat(MAX_LINE * 3);
    text.push_str("\n1.42421321343421\n");
    let got = read_all(&text);
    assert_eq!(got.len(), 2);
    assert!(got[0].as_ref().unwrap_err().contains("longer than"));
    assert!(got[1].is_ok());
}

/// A comment is not read, so a file whose comments were saved in another
/// encoding than UTF-8 (Latin-1's `é` is the byte 0xe9) is still read; a
/// puzzle that is not UTF-8 is refused, saying that it may be the encoding.
#[test]
fn comments_need_not_be_utf8_but_puzzles_must() {
    let bytes = b"# Grille n\xb01, caf\xe9\n1.42421321343421 # tr\xe8s facile\n1.42421321343421\n";
    let got: Vec<_> = PuzzleReader::new(&bytes[..]).collect();
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got.iter().all(Result::is_ok), "{got:?}");
    let bytes = b"1.42421321343421\xe9\n1.42421321343421\n";
    let got: Vec<_> = PuzzleReader::new(&bytes[..]).collect();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got[0].as_ref().unwrap_err().to_string(),
        "line 1, column 17: this is not a text file, or not one saved as UTF-8 (byte 0xe9); the rest of it is skipped"
    );
    // A JSON line keeps its '#'s, which may be inside strings: all of it must be UTF-8.
    let bytes = b"{\"puzzle\":[[1]],\"note\":\"# caf\xe9\"}\n";
    let got: Vec<_> = PuzzleReader::new(&bytes[..]).collect();
    assert!(matches!(got[0].as_ref().unwrap_err().kind, ParseErrorKind::NotText { byte: 0xe9 }), "{got:?}");
}

/// Lines ended by a lone carriage return (classic Mac OS) are named as such.
#[test]
fn a_carriage_return_inside_a_line_is_named() {
    let bytes = b"1.42421321343421\r1.42421321343421\r";
    let got: Vec<_> = PuzzleReader::new(&bytes[..]).collect();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got[0].as_ref().unwrap_err().to_string(),
        "line 1, column 17: a carriage return (byte 0x0d) inside a line: lines must end with a line feed, \
         as on Unix or Windows; the rest of the input is skipped"
    );
}

/// A line puzzle with a space in it is read as numbers separated by spaces;
/// the error says so, rather than only that a run of cells is not a number.
#[test]
fn a_line_puzzle_with_a_space_is_explained() {
    let err = one("4.....8.5.3..........7...... 2.....6.....8.4......1.......6.3.7.5..2.....1.4......").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 1: '4.....8.5.3.........' is not a number or an empty cell ('.', '0', '-', '_', '*'): a line with spaces is read as \
         numbers separated by spaces, and a puzzle written on one line has no spaces"
    );
    let err =
        one("003020600 900305001 001806400 008102900 700000008 006708200 002609500 800203009 005010300").unwrap_err();
    assert!(err.to_string().contains("a puzzle written on one line has no spaces"), "{err}");
    // A word in a grid is not taken for cells.
    let err = read_all("1 2 3 4\nGrille 1\n");
    assert_eq!(
        err[0],
        Err("line 2, column 1: 'Grille' is not a number or an empty cell ('.', '0', '-', '_', '*')".to_string())
    );
}

/// A pencil-mark grid (a cell's candidates written as one number, 1679) is
/// read by `hint` and `explain`; elsewhere the error says so rather than
/// only that 1679 is larger than the side.
#[test]
fn pencil_marks_where_givens_are_read_are_named() {
    let marks = "4 1679 12679 139 2369 1269 8 1239 5\n";
    let err = one(marks).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 3: '1679' looks like a cell's candidates: a pencil-mark grid is read by hint and explain \
         (sudoku hint), here a cell is one number, '.' or '0'"
    );
    // A number that cannot be candidates (a digit repeated, not ascending) is too large.
    let err = read_all("1 2 3 4\n1 2 3 44\n");
    assert_eq!(err[0], Err("line 2, column 7: '44' (44) is larger than the grid's side, 4".to_string()));
}

/// Nine rows of nine symbols without a header (the `.sdk` files of many
/// sudoku programs, Project Euler's rows without `Grid NN`) are one 9x9
/// puzzle: a line of 9 cells would be a 3x3 grid, which has no boxes.
#[test]
fn rows_of_symbols_without_a_header_are_one_grid() {
    let rows = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n";
    let euler = format!("Grid 01\n{}", rows.replace('.', "0"));
    let got = read_all(&format!("# an .sdk file\n{rows}\n{}", rows.replace('.', "0")));
    assert_eq!(got.len(), 2, "{got:?}");
    let first = got[0].as_ref().unwrap();
    assert_eq!((first.line, first.layout, first.grid.num_givens()), (2, Layout::Euler, 30));
    assert_eq!(first.grid, one(&euler).unwrap());
    assert_eq!(got[1].as_ref().unwrap().grid, first.grid);
    assert_eq!(one("1.4.\n.2..\n..3.\n4...\n").unwrap().shape().side(), 4);
    // A short row is named as after a header.
    let err =
        read_all("53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28\n...419..5\n....8..79\n");
    assert_eq!(err[0], Err("line 7: row 7 has 8 cells, expected 9".to_string()));
    // A lone line of 9 or 25 cells is what it was: a grid without boxes, and
    // the line after it is read for itself.
    let lone = read_all("1........\n1.42421321343421\n");
    assert_eq!(lone.len(), 2, "{lone:?}");
    assert_eq!(
        lone[0],
        Err("line 1: side 3 cannot be cut into boxes of at least 2x2 cells; give a shape with --box, e.g. --box 1x3"
            .to_string())
    );
    assert!(lone[1].is_ok(), "{lone:?}");
    let lone = read_all(&".".repeat(25));
    assert!(lone[0].as_ref().unwrap_err().contains("line 1: side 5 cannot be cut into boxes"), "{lone:?}");
    // A --box for another side leaves a short line a line puzzle, refused
    // for its own side; a --box for the rows' side reads the rows.
    let err = puzzles("1.42421321343421\n").shape(Some(Shape::new(2, 3).unwrap())).next().unwrap().unwrap_err();
    assert_eq!(err.to_string(), "line 1: boxes of 2x3 do not fit a grid of side 4 (2*3 = 6 is not 4)");
    let boxed = puzzles(rows).shape(Some(Shape::new(3, 3).unwrap())).next().unwrap().unwrap();
    assert_eq!(boxed.grid, first.grid);
    // With a shape for side 3 a line of 9 cells is a 3x3 Latin square.
    let latin = puzzles("1........\n").shape(Some(Shape::new(1, 3).unwrap())).next().unwrap().unwrap();
    assert_eq!((latin.grid.shape().side(), latin.layout), (3, Layout::Line));
}

/// `-`, `_` and `*` are empty cells too, in line puzzles, rows of symbols,
/// grid rows and pencil-mark grids; frames drawn with runs of `-` stay frames.
#[test]
fn dashes_underscores_and_stars_are_empty_cells_where_frames_stay_frames() {
    let dots = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let expected = one(dots).unwrap();
    for empty in ['-', '_', '*'] {
        assert_eq!(one(&dots.replace('.', &empty.to_string())).unwrap(), expected, "{empty}");
        // A line puzzle made only of them is an empty puzzle, but for `-`.
        if empty != '-' {
            assert_eq!(one(&empty.to_string().repeat(81)).unwrap().num_givens(), 0, "{empty}");
        }
    }
    let mixed: String =
        dots.chars().enumerate().map(|(i, c)| if c == '.' { ['-', '_', '*', '.'][i % 4] } else { c }).collect();
    assert_eq!(one(&mixed).unwrap(), expected);
    // A line of `-` alone is a frame, whatever its length: 81 of them are not
    // an empty 9x9 (write it with '.', '0', '_' or '*').
    assert_eq!(one(&"-".repeat(81)).unwrap_err().kind, ParseErrorKind::NoPuzzle);
    let framed = format!("{}\n{dots}\n{}\n", "-".repeat(81), "-".repeat(81));
    let got = read_all(&framed);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].as_ref().unwrap().grid, expected);
    // Grid rows: a cell '-', and a row of empty cells written apart, which is
    // no frame; frames drawn with runs of '-' (and '+', '|') are frames.
    let grid = "1 - 4 2\n4 2 1 3\n-----+-----\n- - | - -\n3 4 | 2 1\n";
    let read = one(grid).unwrap();
    assert_eq!(read.cells(), &[1, 0, 4, 2, 4, 2, 1, 3, 0, 0, 0, 0, 3, 4, 2, 1]);
    assert_eq!(one(&grid.replace("- - | - -", "_ * | . 0")).unwrap(), read);
    for frame in ["+-----+-----+", "------+------", "---+---+---", "+-------+", ".---.---.", "*-----*", "---------"] {
        let text = format!("{frame}\n1 . 4 2\n4 2 1 3\n{frame}\n2 1 3 4\n3 4 2 1\n{frame}\n");
        assert_eq!(one(&text).unwrap().num_givens(), 15, "{frame}");
    }
    // Rows of symbols (Project Euler's, .sdk) take them too.
    let rows = "Grid 01\n1-42\n42*3\n2134\n34_1\n";
    assert_eq!(one(rows).unwrap().num_givens(), 13);
    // A pencil-mark grid's empty cell.
    let marks = puzzles("1 - 4 2\n4 2 1 3\n2 1 3 4\n3 4 2 1\n").notation(Notation::Progress).next().unwrap().unwrap();
    assert_eq!(marks.grid.num_givens(), 15);
    // The larger grids' symbols are digits and letters: none of them is empty.
    for b in (b'1'..=b'9').chain(b'A'..=b'Z').chain(b'a'..=b'z') {
        assert!(symbol_value(b).is_some_and(|value| value > 0), "{}", char::from(b));
    }
    let big = format!("G-_*{}", ".".repeat(252));
    let grid = one(&big).unwrap();
    assert_eq!((grid.side(), grid.num_givens()), (16, 1));
}

/// A 16x16 puzzle from `generate --size 16 --seed 1`, and its rows.
const SIXTEEN: &str = "..EC....4....5...B.....D..C8..G1.G41B28....D9..A....4E.........7GC.2..6F8D4..1...43..8..7....6...9.B..23.A1.8.....7.CD..F...A....F...1E4..D.B.......A.9B..E.C..6...63.F.9...5.D.3A172....B.5.E.9.E.9DBC.A.G......6F38......C12.DB.AG...6.....CE...2.F.5AD.....9.";

fn rows_of(line: &str, side: usize) -> String {
    line.as_bytes().chunks(side).map(|row| format!("{}\n", std::str::from_utf8(row).unwrap())).collect()
}

/// Rows of symbols without a header are one grid whenever a row is no line
/// puzzle (12 symbols: no square), and sixteen rows of sixteen symbols are
/// one 16x16 when they make a block of exactly sixteen with a symbol above
/// 4, which no 4x4 puzzle holds; otherwise they are 4x4 line puzzles.
#[test]
fn blocks_of_rows_of_symbols_are_one_grid_when_they_are_one() {
    let sixteen = one(SIXTEEN).unwrap();
    let rows = rows_of(SIXTEEN, 16);
    let got = read_all(&format!("# a 16x16\n{rows}\n1.42421321343421\n"));
    assert_eq!(got.len(), 2, "{got:?}");
    let first = got[0].as_ref().unwrap();
    assert_eq!((first.line, first.layout, &first.grid), (2, Layout::Euler, &sixteen));
    assert_eq!(got[1].as_ref().unwrap().line, 19);
    // Two blocks apart, a block at the end of the input, and a block
    // followed at once by another puzzle. Two blocks with nothing between
    // them are a run of 32 lines, no block: line puzzles.
    let got = read_all(&format!("{rows}\n{rows}"));
    assert_eq!(got.iter().map(|p| p.as_ref().unwrap().grid.side()).collect::<Vec<_>>(), [16, 16], "{got:?}");
    assert_eq!(got[1].as_ref().unwrap().line, 18);
    assert_eq!(read_all(&format!("{rows}{rows}")).len(), 32);
    let got = read_all(&format!("{rows}{SIXTEEN}\n"));
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got.iter().all(|p| p.as_ref().unwrap().grid == sixteen), "{got:?}");
    // 4x4 line puzzles stay line puzzles, however many follow each other:
    // 16 of them (no symbol above 4), 5, 17 or 40.
    let four = "1.42421321343421\n";
    for count in [1, 5, 15, 16, 17, 40] {
        let got = read_all(&four.repeat(count));
        assert_eq!(got.len(), count, "{count}: {got:?}");
        assert!(got.iter().enumerate().all(|(i, p)| p.as_ref().is_ok_and(|p| p.grid.side() == 4 && p.line == i + 1)));
    }
    // A run longer than a block is line puzzles, the 16x16's rows in it too
    // (errors: symbols above 4).
    let got = read_all(&format!("{four}{rows}"));
    assert_eq!(got.len(), 17, "{got:?}");
    assert!(got[0].is_ok() && got[1].is_err(), "{got:?}");
    // A block with a comment above, a blank line after, then line puzzles.
    let got = read_all(&format!("{rows}\n{}", four.repeat(3)));
    assert_eq!(got.len(), 4, "{got:?}");
    // Rows of 12 symbols: one 12x12 (3x4 boxes); a lone line of 12 keeps
    // its error, and the line after it is read for itself.
    let twelve = "...C....4....53.9.C4...2...6.5.2C8.A...2B.41.7C5.9...A....B......6.......37B...6.A...1..53.B..6..6852.9..3.75.1.6.8....9.B284.5...A..74.3...5..B";
    let grid = one(&rows_of(twelve, 12)).unwrap();
    assert_eq!(grid, one(twelve).unwrap());
    assert_eq!(grid.shape().to_string(), "3x4");
    let lone = read_all("1...........\n1.42421321343421\n");
    assert_eq!(lone.len(), 2, "{lone:?}");
    assert_eq!(
        lone[0],
        Err("line 1: a line of 12 cells is not a puzzle: the length must be a square (16 for 4x4, 81 for 9x9, ...)"
            .to_string())
    );
    assert!(lone[1].is_ok(), "{lone:?}");
}

/// A line that looked like the first row of a grid and failed (a bad
/// symbol in 12 symbols, a bad token in a line with spaces) costs its own
/// error: the line puzzles after it are read, not skipped up to the next
/// blank line as the rest of a grid's rows are.
#[test]
fn a_failed_first_row_does_not_swallow_the_puzzles_after_it() {
    let nine = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    for bad in ["1.42%4213434", "4.....8.5 x3.........7", "1 2 x 4", "Grid 01\n1.%......", "1.42\n42%3"] {
        let got = read_all(&format!("{nine}{bad}\n{}", nine.repeat(3)));
        assert_eq!(got.len(), 5, "{bad}: {got:?}");
        assert!(got[1].is_err() && [0, 2, 3, 4].iter().all(|&i| got[i].is_ok()), "{bad}: {got:?}");
        assert_eq!(got[4].as_ref().unwrap().line, bad.lines().count() + 4, "{bad}");
    }
    // The rest of a grid's rows, comments and frames among them, are still
    // skipped: one bad grid, one error.
    let rows = "53..7....\n6..1%5...\n.98....6.\n# a comment\n---+---+---\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n";
    let got = read_all(&format!("{rows}{nine}"));
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(
        got[0],
        Err("line 2, column 5: '%' is not a digit, a letter or an empty cell ('.', '0', '-', '_', '*')".to_string())
    );
    assert_eq!(got[1].as_ref().unwrap().line, 12);
    let grid = "1 2 3 4\n1 2 x 4\n1 2 3 4\n| 1 2 | 3 4 |\n";
    let got = read_all(&format!("{grid}{nine}"));
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[1].as_ref().unwrap().line, 5);
    // A 16x16 block with a symbol above 16: its rows skipped, the line puzzle
    // right after it read.
    let rows = rows_of(&SIXTEEN.replacen('G', "H", 1), 16);
    let got = read_all(&format!("{rows}{nine}"));
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].as_ref().unwrap_err().contains("'H' (17) is larger than the grid's side, 16"), "{got:?}");
    assert_eq!(got[1].as_ref().unwrap().line, 17);
}

/// The boundaries of the sixteen-rows rule: batches of 9x9 line puzzles and
/// of 16x16 line puzzles, however many, never meet it (a line of 81 or 256
/// symbols is no row of a grid); a run of exactly sixteen 4x4 line puzzles
/// is one only with a symbol above 4; a 16x16 whose rows hold no symbol above
/// 4 (an empty one) needs a header or `--box`.
#[test]
fn the_sixteen_rows_rule_never_takes_a_batch_of_nine_or_sixteen_line_puzzles() {
    let nine = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let sixteen = format!("{SIXTEEN}\n");
    for (line, side) in [(nine, 9), (sixteen.as_str(), 16)] {
        for count in [1, 15, 16, 17, 32, 33] {
            for text in [line.repeat(count), format!("# a batch\n{}\n", line.repeat(count))] {
                let got = read_all(&text);
                assert_eq!(got.len(), count, "{side}x{side} x{count}");
                assert!(
                    got.iter().all(|p| p.as_ref().is_ok_and(|p| p.grid.side() == side && p.layout == Layout::Line))
                );
            }
        }
    }
    // A 16x16's rows among 9x9 lines are its block; a 4x4 there is a 4x4.
    let rows = rows_of(SIXTEEN, 16);
    let got = read_all(&format!("{nine}{rows}{nine}1.42421321343421\n{nine}"));
    let sides: Vec<_> = got.iter().map(|p| p.as_ref().unwrap().grid.side()).collect();
    assert_eq!(sides, [9, 16, 9, 4, 9]);
    // Exactly sixteen 4x4 line puzzles: line puzzles; with a symbol above 4
    // (a mistyped 4x4) they make one 16x16, whose rows repeat digits: its
    // givens clash, which the tools report as bad input before any search.
    let fours = "..3.32.....42..3\n1......3.1.2.23.\n...4..1.2..1.3.2\n1.42421321343421\n".repeat(4);
    let got = read_all(&fours);
    assert_eq!(got.len(), 16, "{got:?}");
    let typo = fours.replacen('3', "5", 1);
    let got = read_all(&typo);
    assert_eq!(got.len(), 1, "{got:?}");
    let grid = &got[0].as_ref().unwrap().grid;
    assert_eq!(grid.side(), 16);
    assert!(grid.first_conflict().is_some());
    // An empty 16x16 in rows is sixteen empty 4x4s; a header or --box 4x4
    // makes it one grid.
    let empty = rows_of(&".".repeat(256), 16);
    assert_eq!(read_all(&empty).len(), 16);
    assert_eq!(one(&format!("Grid 01\n{empty}")).unwrap().side(), 16);
    let boxed = puzzles(&empty).shape(Some(Shape::new(4, 4).unwrap())).next().unwrap().unwrap();
    assert_eq!(boxed.grid.side(), 16);
}

/// Without read-ahead (puzzles typed at a terminal) a line of 16 symbols is
/// a 4x4 puzzle, whatever follows it.
#[test]
fn without_read_ahead_sixteen_symbols_are_a_four_by_four() {
    let rows = rows_of(SIXTEEN, 16);
    let got: Vec<_> = PuzzleReader::new(rows.as_bytes()).read_ahead(false).collect();
    assert_eq!(got.len(), 16, "{got:?}");
    assert!(got[0].is_err(), "{got:?}");
}
