//! What the input parsers of the gallery share: the typed error with file, line
//! and column ([`ParseError`], built through a [`Source`]), and a tokenizer that
//! remembers where each word starts.

use std::fmt;

/// A mistake in an input file, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The file's name as the user gave it (or a description such as `--puzzle`).
    pub file: String,
    /// The line, counting from 1.
    pub line: usize,
    /// The column (in characters), counting from 1.
    pub column: usize,
    /// What is wrong.
    pub problem: Problem,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: line {}, column {}: {}", self.file, self.line, self.column, self.problem)
    }
}

impl std::error::Error for ParseError {}

/// What is wrong with an input.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// Something the format does not allow at this place.
    Unexpected {
        /// What the format allows here.
        expected: String,
        /// What the input has (quoted), or `the end of the line`.
        found: String,
    },
    /// A number outside the range its meaning allows.
    OutOfRange {
        /// What the number is (`vertex`, `sum`, ...).
        what: String,
        /// The number as written.
        value: String,
        /// The smallest allowed value.
        min: i64,
        /// The largest allowed value.
        max: i64,
    },
    /// Something the format requires is not there.
    Missing {
        /// What is missing.
        what: String,
    },
    /// Something given a second time.
    Duplicate {
        /// What was given twice.
        what: String,
        /// The line where it was first given.
        first_line: usize,
    },
    /// Any other broken rule of the format, in words.
    Invalid {
        /// The rule that is broken, lowercase, naming the offending thing.
        message: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Unexpected { expected, found } => write!(f, "expected {expected}, found {found}"),
            Problem::OutOfRange { what, value, min, max } => {
                write!(f, "{what} {value} is out of range (allowed: {min} to {max})")
            }
            Problem::Missing { what } => write!(f, "missing {what}"),
            Problem::Duplicate { what, first_line } => {
                write!(f, "{what} is given twice (first on line {first_line})")
            }
            Problem::Invalid { message } => f.write_str(message),
        }
    }
}

impl Problem {
    /// `expected X, found 'Y'`.
    pub fn unexpected(expected: impl Into<String>, found: &str) -> Problem {
        Problem::Unexpected { expected: expected.into(), found: format!("'{found}'") }
    }

    /// `expected X, found the end of the line`.
    pub fn end_of_line(expected: impl Into<String>) -> Problem {
        Problem::Unexpected { expected: expected.into(), found: "the end of the line".to_string() }
    }

    /// Another broken rule of the format, in words.
    pub fn invalid(message: impl Into<String>) -> Problem {
        Problem::Invalid { message: message.into() }
    }
}

/// The name of an input, to build errors with.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file's name as the user gave it.
    pub file: String,
}

impl Source {
    /// An input called `file` in messages.
    pub fn new(file: impl Into<String>) -> Source {
        Source { file: file.into() }
    }

    /// The error `problem` at `line` and `column` of this input.
    pub fn error(&self, line: usize, column: usize, problem: Problem) -> ParseError {
        ParseError { file: self.file.clone(), line, column, problem }
    }
}

/// A whitespace-separated word and the column (in characters, from 1) where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The word.
    pub text: &'a str,
    /// Its first column (in characters, from 1).
    pub column: usize,
}

/// The words of a line with their columns.
pub fn tokens(line: &str) -> Vec<Token<'_>> {
    let mut tokens = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    for (column, (offset, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((offset, column + 1)),
            (true, Some((begin, col))) => {
                tokens.push(Token { text: &line[begin..offset], column: col });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((begin, col)) = start {
        tokens.push(Token { text: &line[begin..], column: col });
    }
    tokens
}

/// The column (in characters, from 1) just past the end of a line: where "the end of
/// the line" is reported.
pub fn end_column(line: &str) -> usize {
    line.trim_end().chars().count() + 1
}

/// Parses a whole number in `min..=max`; `what` names it in the error.
pub fn number(text: &str, what: &str, min: i64, max: i64) -> Result<i64, Problem> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit() || b == b'-' || b == b'+') {
        return Err(Problem::unexpected(format!("{what} (a whole number)"), text));
    }
    match text.parse::<i64>() {
        Ok(value) if (min..=max).contains(&value) => Ok(value),
        Ok(_) => Err(Problem::OutOfRange { what: what.to_string(), value: text.to_string(), min, max }),
        Err(_) if text.trim_start_matches(['-', '+']).bytes().all(|b| b.is_ascii_digit()) && text.len() > 1 => {
            Err(Problem::OutOfRange { what: what.to_string(), value: text.to_string(), min, max })
        }
        Err(_) => Err(Problem::unexpected(format!("{what} (a whole number)"), text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_know_their_columns() {
        let words: Vec<(&str, usize)> = tokens("  e 12\t3 ").iter().map(|t| (t.text, t.column)).collect();
        assert_eq!(words, vec![("e", 3), ("12", 5), ("3", 8)]);
        assert_eq!(tokens("é x")[1].column, 3, "columns count characters, not bytes");
    }

    #[test]
    fn numbers_are_checked_for_form_and_range() {
        assert_eq!(number("42", "sum", 1, 45), Ok(42));
        assert!(matches!(number("46", "sum", 1, 45), Err(Problem::OutOfRange { .. })));
        assert!(matches!(number("99999999999999999999", "sum", 1, 45), Err(Problem::OutOfRange { .. })));
        assert!(matches!(number("4x", "sum", 1, 45), Err(Problem::Unexpected { .. })));
        assert!(matches!(number("-", "sum", 1, 45), Err(Problem::Unexpected { .. })));
        assert_eq!(number("x", "vertex", 1, 5).unwrap_err().to_string(), "expected vertex (a whole number), found 'x'");
    }
}
