//! Plain tables and their renderings: aligned text, CSV (RFC 4180) and Markdown.

use std::io::{self, Write};

/// One cell of a [`Table`].
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text, left-aligned.
    Text(String),
    /// A count, right-aligned.
    Int(u64),
    /// A signed number (an objective value), right-aligned.
    Signed(i64),
    /// A number shown with this many decimals in text and Markdown (CSV and
    /// JSON keep every significant digit, [`without_noise`]), right-aligned.
    Float(f64, usize),
    /// Nothing (an empty CSV field, `null` in JSON).
    Empty,
}

impl Cell {
    /// A text cell.
    pub fn text(text: impl Into<String>) -> Cell {
        Cell::Text(text.into())
    }

    /// The cell as shown in the text and Markdown tables.
    pub fn display(&self) -> String {
        match self {
            Cell::Text(text) => text.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::Signed(n) => n.to_string(),
            Cell::Float(x, decimals) => format!("{x:.decimals$}"),
            Cell::Empty => String::new(),
        }
    }

    /// The cell as a CSV field (before quoting): numbers in full precision.
    fn raw(&self) -> String {
        match self {
            Cell::Text(text) => text.clone(),
            Cell::Int(n) => n.to_string(),
            Cell::Signed(n) => n.to_string(),
            Cell::Float(x, _) => without_noise(*x).to_string(),
            Cell::Empty => String::new(),
        }
    }

    /// The cell as a JSON value: numbers stay numbers.
    pub fn json(&self) -> serde_json::Value {
        match self {
            Cell::Text(text) => serde_json::Value::from(text.as_str()),
            Cell::Int(n) => serde_json::Value::from(*n),
            Cell::Signed(n) => serde_json::Value::from(*n),
            // NaN and infinities have no JSON spelling.
            Cell::Float(x, _) => {
                serde_json::Number::from_f64(without_noise(*x)).map_or(serde_json::Value::Null, Into::into)
            }
            Cell::Empty => serde_json::Value::Null,
        }
    }

    fn is_numeric(&self) -> bool {
        matches!(self, Cell::Int(_) | Cell::Signed(_) | Cell::Float(..))
    }
}

/// `x` rounded to 12 significant digits, so that the last bits of a
/// computation (9,465,907 ns is `9.465907000000001` ms in binary floating
/// point) do not reach a CSV field or a JSON number. Measured and counted
/// values have far fewer significant digits than that.
pub fn without_noise(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    format!("{x:.11e}").parse().unwrap_or(x)
}

/// A table: named columns and rows of cells, with an optional title shown
/// above it in the text and Markdown renderings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// A line shown above the table (not in CSV).
    pub title: Option<String>,
    /// The column names: the header of every rendering and the keys of JSON records.
    pub columns: Vec<String>,
    /// The rows; each has one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// An empty table with these columns.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = S>) -> Table {
        Table { title: None, columns: columns.into_iter().map(Into::into).collect(), rows: Vec::new() }
    }

    /// This table with a title.
    pub fn with_title(mut self, title: impl Into<String>) -> Table {
        self.title = Some(title.into());
        self
    }

    /// Appends a row; it must have one cell per column.
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "a row has one cell per column");
        self.rows.push(row);
    }

    /// Whether column `c` is right-aligned: it is when its first non-empty cell is a number.
    fn right_aligned(&self, c: usize) -> bool {
        self.rows.iter().map(|row| &row[c]).find(|cell| **cell != Cell::Empty).is_some_and(Cell::is_numeric)
    }

    /// The rows as JSON objects keyed by column name.
    pub fn records(&self) -> Vec<serde_json::Value> {
        self.rows
            .iter()
            .map(|row| {
                let fields = self.columns.iter().zip(row).map(|(name, cell)| (name.clone(), cell.json()));
                serde_json::Value::Object(fields.collect())
            })
            .collect()
    }

    /// Writes the table aligned in columns two spaces apart, under a header and
    /// a rule; text to the left, numbers to the right.
    pub fn write_text(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(title) = &self.title {
            writeln!(out, "{title}")?;
        }
        let cells: Vec<Vec<String>> = self.rows.iter().map(|row| row.iter().map(Cell::display).collect()).collect();
        let widths: Vec<usize> = (0..self.columns.len())
            .map(|c| cells.iter().map(|row| row[c].chars().count()).chain([self.columns[c].chars().count()]).max())
            .map(|w| w.unwrap_or(0))
            .collect();
        let right: Vec<bool> = (0..self.columns.len()).map(|c| self.right_aligned(c)).collect();
        let line = |out: &mut dyn Write, fields: &[String]| -> io::Result<()> {
            let mut text = String::new();
            for (c, field) in fields.iter().enumerate() {
                if c > 0 {
                    text.push_str("  ");
                }
                let pad = " ".repeat(widths[c] - field.chars().count());
                if right[c] {
                    text.push_str(&pad);
                    text.push_str(field);
                } else {
                    text.push_str(field);
                    text.push_str(&pad);
                }
            }
            writeln!(out, "{}", text.trim_end())
        };
        line(out, &self.columns)?;
        line(out, &widths.iter().map(|&w| "-".repeat(w)).collect::<Vec<_>>())?;
        for row in &cells {
            line(out, row)?;
        }
        Ok(())
    }

    /// Writes the table as CSV: a header line, then one line per row. Fields
    /// with a comma, a quote, a line break or surrounding spaces are quoted.
    pub fn write_csv(&self, out: &mut dyn Write) -> io::Result<()> {
        self.write_csv_header(out)?;
        for row in &self.rows {
            Table::write_csv_record(row, out)?;
        }
        Ok(())
    }

    /// Writes the header line of [`Table::write_csv`] alone (records may
    /// follow one by one, with [`Table::write_csv_record`]).
    pub fn write_csv_header(&self, out: &mut dyn Write) -> io::Result<()> {
        csv_line(out, self.columns.iter().cloned())
    }

    /// Writes one row as a line of [`Table::write_csv`].
    pub fn write_csv_record(row: &[Cell], out: &mut dyn Write) -> io::Result<()> {
        csv_line(out, row.iter().map(Cell::raw))
    }

    /// Writes the table in GitHub-flavoured Markdown, the title in bold above it.
    pub fn write_markdown(&self, out: &mut dyn Write) -> io::Result<()> {
        if let Some(title) = &self.title {
            writeln!(out, "**{}**", markdown_cell(title))?;
            writeln!(out)?;
        }
        let header: Vec<String> = self.columns.iter().map(|c| markdown_cell(c)).collect();
        writeln!(out, "| {} |", header.join(" | "))?;
        let rules: Vec<&str> =
            (0..self.columns.len()).map(|c| if self.right_aligned(c) { "---:" } else { "---" }).collect();
        writeln!(out, "| {} |", rules.join(" | "))?;
        for row in &self.rows {
            let cells: Vec<String> = row.iter().map(|cell| markdown_cell(&cell.display())).collect();
            writeln!(out, "| {} |", cells.join(" | "))?;
        }
        Ok(())
    }
}

fn csv_line(out: &mut dyn Write, fields: impl Iterator<Item = String>) -> io::Result<()> {
    let fields: Vec<String> = fields.map(|field| csv_field(&field)).collect();
    writeln!(out, "{}", fields.join(","))
}

fn csv_field(field: &str) -> String {
    let needs_quotes = field.contains([',', '"', '\n', '\r']) || field.starts_with(' ') || field.ends_with(' ');
    if needs_quotes { format!("\"{}\"", field.replace('"', "\"\"")) } else { field.to_string() }
}

/// Escapes what Markdown would read as a column break or as HTML (`<n=20, d=10>`).
fn markdown_cell(text: &str) -> String {
    text.replace('\\', "\\\\").replace('|', "\\|").replace('<', "\\<").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut table = Table::new(["name", "count", "mean"]).with_title("a title");
        table.push(vec![Cell::text("a,b"), Cell::Int(12), Cell::Float(1.25, 1)]);
        table.push(vec![Cell::text("say \"hi\""), Cell::Int(3), Cell::Empty]);
        table
    }

    fn render(write: impl Fn(&Table, &mut dyn Write) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        write(&sample(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn text_aligns_text_left_and_numbers_right() {
        let text = render(Table::write_text);
        let expected =
            "a title\nname      count  mean\n--------  -----  ----\na,b          12   1.2\nsay \"hi\"      3\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn csv_quotes_what_needs_quoting_and_keeps_full_precision() {
        let csv = render(Table::write_csv);
        assert_eq!(csv, "name,count,mean\n\"a,b\",12,1.25\n\"say \"\"hi\"\"\",3,\n");
    }

    #[test]
    fn markdown_marks_numeric_columns_right_aligned() {
        let markdown = render(Table::write_markdown);
        let lines: Vec<&str> = markdown.lines().collect();
        assert_eq!(lines[0], "**a title**");
        assert_eq!(lines[2], "| name | count | mean |");
        assert_eq!(lines[3], "| --- | ---: | ---: |");
        assert_eq!(lines[4], "| a,b | 12 | 1.2 |");
        let mut table = Table::new(["model | kind"]).with_title("<n=20, d=10>");
        table.push(vec![Cell::text("a\\b")]);
        let mut out = Vec::new();
        table.write_markdown(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "**\\<n=20, d=10>**\n\n| model \\| kind |\n| --- |\n| a\\\\b |\n");
    }

    #[test]
    fn csv_and_json_numbers_carry_no_float_noise() {
        let millis = std::time::Duration::from_nanos(9_465_907).as_secs_f64() * 1e3;
        assert_eq!(millis.to_string(), "9.465907000000001", "the noise this guards against");
        let mut table = Table::new(["time_ms", "sum", "third"]);
        table.push(vec![Cell::Float(millis, 3), Cell::Float(0.1 + 0.2, 1), Cell::Float(1.0 / 3.0, 3)]);
        let mut out = Vec::new();
        table.write_csv(&mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "time_ms,sum,third\n9.465907,0.3,0.333333333333\n");
        let record = &table.records()[0];
        assert_eq!(record["time_ms"].to_string(), "9.465907");
        assert_eq!(record["sum"].to_string(), "0.3");
        assert_eq!(without_noise(4_130_319.6), 4_130_319.6);
        assert_eq!(without_noise(-2.5e-7), -2.5e-7);
        assert!(without_noise(f64::NAN).is_nan());
    }

    #[test]
    fn records_keep_numbers_as_numbers() {
        let records = sample().records();
        assert_eq!(records[0]["count"], 12);
        assert_eq!(records[0]["mean"], 1.25);
        assert!(records[1]["mean"].is_null());
    }
}
