//! Puzzles as JSON records, one object per line: what the tools write with
//! `--output json` (`generate`'s `{"box","side","rows"}`, `solve`'s
//! `{"file","line","status","box","solution",...}`), read back.

use std::io::BufRead;

use serde_json::Value;

use super::{Layout, MAX_SIDE, ParseError, ParseErrorKind, Puzzle, PuzzleReader};
use crate::grid::Shape;

/// The fields that may hold a grid's rows, in the order they are looked for.
const GRID_FIELDS: [&str; 3] = ["puzzle", "rows", "solution"];

impl<R: BufRead> PuzzleReader<R> {
    /// The puzzle of the current line, a JSON object; `None` for a record
    /// without a grid that says why (one with a `"status"`: a puzzle the tool
    /// could not solve, which is skipped like a comment), and for every
    /// `"event"` record of a trace or an explanation but its `"start"`, which
    /// holds the puzzle (the steps hold none, and the end's solution is the
    /// same puzzle solved).
    pub(super) fn json_puzzle(&mut self) -> Result<Option<Puzzle>, ParseError> {
        let problem = |message: &str| ParseErrorKind::Json { message: message.to_string() };
        let text = std::str::from_utf8(&self.line).unwrap_or_default();
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            Err(err) => {
                let message = err.to_string();
                let message = message.split(" at line ").next().unwrap_or_default();
                let column = Some(err.column().max(1));
                return Err(self.error(column, problem(&format!("not valid JSON: {message}"))));
            }
        };
        let Some(object) = value.as_object() else {
            return Err(self.error(None, problem("a JSON line must be an object")));
        };
        if object.get("event").is_some_and(|event| event != "start") {
            return Ok(None);
        }
        let Some(rows) = GRID_FIELDS.iter().find_map(|field| object.get(*field)) else {
            if object.contains_key("status") {
                return Ok(None);
            }
            return Err(self.error(
                None,
                problem("a JSON object needs the grid's rows under \"puzzle\", \"rows\" or \"solution\""),
            ));
        };
        let declared = match object.get("box") {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(text.parse::<Shape>().map_err(|err| self.error(None, err.into()))?),
            Some(_) => return Err(self.error(None, problem("\"box\" must be a string such as \"3x3\""))),
        };
        let Some(rows) = rows.as_array().filter(|rows| !rows.is_empty()) else {
            return Err(self.error(None, problem("the grid must be a non-empty array of rows")));
        };
        let side = rows.len();
        if side > MAX_SIDE {
            return Err(self.error(None, crate::grid::ShapeError::TooLarge { side }.into()));
        }
        let mut cells = std::mem::take(&mut self.cells);
        cells.clear();
        let result = self.json_rows(rows, &mut cells);
        self.cells = cells;
        result?;
        let shape = self.shape_for(side, declared).map_err(|err| self.error(None, err))?;
        Ok(Some(self.finish_puzzle(shape, self.line_number, Layout::Json)))
    }

    /// Reads the rows of a JSON grid of side `rows.len()` into `cells`.
    fn json_rows(&self, rows: &[Value], cells: &mut Vec<u8>) -> Result<(), ParseError> {
        let side = rows.len();
        for (r, row) in rows.iter().enumerate() {
            let Some(row) = row.as_array() else {
                let message = format!("row {} is not an array of numbers", r + 1);
                return Err(self.error(None, ParseErrorKind::Json { message }));
            };
            if row.len() != side {
                return Err(
                    self.error(None, ParseErrorKind::RowLength { row: r + 1, expected: side, found: row.len() })
                );
            }
            for (c, value) in row.iter().enumerate() {
                let Some(number) = value.as_u64() else {
                    let message = format!("row {}: {value} is not a whole number from 0 to {side}", r + 1);
                    return Err(self.error(None, ParseErrorKind::Json { message }));
                };
                if number > side as u64 {
                    // The cell, since a JSON line has no columns to name; and
                    // the number as written (above u32, it has no `value`).
                    let message =
                        format!("row {}, cell {}: {number} is larger than the grid's side, {side}", r + 1, c + 1);
                    return Err(self.error(None, ParseErrorKind::Json { message }));
                }
                cells.push(number as u8);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Layout, ParseErrorKind, one, puzzles};
    use crate::grid::Shape;

    #[test]
    fn the_tools_json_records_read_back() {
        let generated = r#"{"box":"3x2","side":6,"rows":[[0,0,6,5,0,0],[6,2,0,0,1,5],[0,3,0,0,0,0],[0,0,0,6,5,0],[0,0,5,0,0,1],[0,0,4,2,0,6]]}"#;
        let grid = one(generated).unwrap();
        assert_eq!((grid.shape(), grid.num_givens()), (Shape::new(3, 2).unwrap(), 14));
        // A solve record: the solution is the grid; a record without a grid
        // but with a status (no solution) is skipped like a comment.
        let text = format!(
            "{}\n{}\n",
            r##"{"file":"a#b.txt","line":3,"status":"unsatisfiable","message":"no solution"}"##,
            r#"{"file":"x","line":1,"status":"solved","box":"2x2","solution":[[1,3,4,2],[4,2,1,3],[2,1,3,4],[3,4,2,1]]}"#
        );
        let read: Vec<_> = puzzles(&text).collect();
        assert_eq!(read.len(), 1);
        let puzzle = read[0].as_ref().unwrap();
        assert_eq!((puzzle.line, puzzle.layout, puzzle.grid.is_filled()), (2, Layout::Json, true));
        // A trace or an explanation (`--format jsonl`): its start is the puzzle,
        // the other events are skipped.
        let text = [
            r#"{"event":"start","file":"x","line":1,"box":"2x2","puzzle":[[1,0,4,2],[4,2,1,3],[2,1,0,4],[3,4,2,1]]}"#,
            r#"{"event":"step","index":1,"technique":"full house","text":"full house: r1c2 = 3"}"#,
            r#"{"event":"end","status":"solved","solution":[[1,3,4,2],[4,2,1,3],[2,1,3,4],[3,4,2,1]]}"#,
        ]
        .join("\n");
        let read: Vec<_> = puzzles(&text).collect::<Result<_, _>>().unwrap();
        assert_eq!((read.len(), read[0].line, read[0].grid.num_givens()), (1, 1, 14));
    }

    #[test]
    fn bad_json_lines_say_what_is_wrong() {
        let error = |text: &str| one(text).unwrap_err().to_string();
        assert!(error("{\"rows\": [[1,2],").starts_with("line 1, column "), "{}", error("{\"rows\": [[1,2],"));
        assert!(error("{\"rows\": [[1,2],").contains("not valid JSON"));
        assert_eq!(
            error("{\"a\": 1}"),
            "line 1: a JSON object needs the grid's rows under \"puzzle\", \"rows\" or \"solution\""
        );
        assert_eq!(error("{\"rows\": [[1,0,0,0],[0,0,0,0],[0,0,0,0]]}"), "line 1: row 1 has 4 cells, expected 3");
        assert_eq!(error("{\"rows\": []}"), "line 1: the grid must be a non-empty array of rows");
        assert_eq!(
            error("{\"rows\": [[0,0,0,0],[0,0,5,0],[0,0,0,0],[0,0,0,0]]}"),
            "line 1: row 2, cell 3: 5 is larger than the grid's side, 4"
        );
        // Not `(4294967295)`, a number saturated to 32 bits.
        assert_eq!(
            error("{\"rows\": [[9999999999999999999, 0], [0, 0]]}"),
            "line 1: row 1, cell 1: 9999999999999999999 is larger than the grid's side, 2"
        );
        assert!(error("{\"rows\": [[-1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}").contains("-1 is not a whole number"));
        assert!(error("{\"box\":\"2x3\",\"rows\": [[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}").contains("do not fit"));
        assert!(matches!(one("{\"box\":3,\"rows\":[[0]]}").unwrap_err().kind, ParseErrorKind::Json { .. }));
    }
}
