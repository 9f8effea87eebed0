//! The FlatZinc tokens: names, numbers, strings and punctuation, each with
//! its line and column. Comments (`%` to the end of the line) and white
//! space are skipped.

use crate::ast::Position;
use crate::error::ParseError;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    /// A name or a keyword (`var`, `constraint`, `X_INTRODUCED_3_`).
    Identifier,
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal; the text is the unescaped content's source, quotes excluded.
    String,
    /// `::`.
    DoubleColon,
    /// `:`.
    Colon,
    /// `;`.
    Semicolon,
    /// `,`.
    Comma,
    /// `=`.
    Equals,
    /// `..`.
    DotDot,
    /// `(`.
    OpenParen,
    /// `)`.
    CloseParen,
    /// `[`.
    OpenBracket,
    /// `]`.
    CloseBracket,
    /// `{`.
    OpenBrace,
    /// `}`.
    CloseBrace,
    /// The end of the input.
    End,
}

/// A token: its kind, its text in the source, and where it starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Token<'a> {
    pub(crate) kind: Kind,
    pub(crate) text: &'a str,
    pub(crate) position: Position,
}

impl Token<'_> {
    /// How a message names the token: `'solve'`, `end of input`.
    pub(crate) fn describe(&self) -> String {
        match self.kind {
            Kind::End => "end of input".to_string(),
            Kind::String => format!("string \"{}\"", self.text),
            _ => format!("'{}'", self.text),
        }
    }
}

/// Splits the source into tokens, one at a time.
pub(crate) struct Lexer<'a> {
    source: &'a str,
    offset: usize,
    line: u32,
    column: u32,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(source: &'a str) -> Lexer<'a> {
        Lexer { source, offset: 0, line: 1, column: 1 }
    }

    fn position(&self) -> Position {
        Position { line: self.line, column: self.column }
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.source.as_bytes().get(self.offset + ahead).copied()
    }

    /// Moves past `count` bytes, counting lines and (character) columns.
    fn advance(&mut self, count: usize) {
        for &byte in &self.source.as_bytes()[self.offset..self.offset + count] {
            if byte == b'\n' {
                self.line = self.line.saturating_add(1);
                self.column = 1;
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes of a UTF-8 character do not start a column.
                self.column = self.column.saturating_add(1);
            }
        }
        self.offset += count;
    }

    fn skip_blanks_and_comments(&mut self) {
        while let Some(byte) = self.peek_byte(0) {
            match byte {
                b' ' | b'\t' | b'\r' | b'\n' => self.advance(1),
                b'%' => {
                    let rest = &self.source.as_bytes()[self.offset..];
                    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                    self.advance(end);
                }
                _ => break,
            }
        }
    }

    /// The next token, or an error naming the character that starts no token.
    pub(crate) fn next_token(&mut self) -> Result<Token<'a>, ParseError> {
        self.skip_blanks_and_comments();
        let position = self.position();
        let start = self.offset;
        let Some(byte) = self.peek_byte(0) else {
            return Ok(Token { kind: Kind::End, text: "", position });
        };
        let (kind, length) = match byte {
            b':' if self.peek_byte(1) == Some(b':') => (Kind::DoubleColon, 2),
            b':' => (Kind::Colon, 1),
            b';' => (Kind::Semicolon, 1),
            b',' => (Kind::Comma, 1),
            b'=' => (Kind::Equals, 1),
            b'.' if self.peek_byte(1) == Some(b'.') => (Kind::DotDot, 2),
            b'(' => (Kind::OpenParen, 1),
            b')' => (Kind::CloseParen, 1),
            b'[' => (Kind::OpenBracket, 1),
            b']' => (Kind::CloseBracket, 1),
            b'{' => (Kind::OpenBrace, 1),
            b'}' => (Kind::CloseBrace, 1),
            b'"' => return self.string(position),
            b'-' | b'+' | b'0'..=b'9' => return self.number(position),
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let rest = &self.source.as_bytes()[start..];
                let length = rest.iter().position(|b| !(b.is_ascii_alphanumeric() || *b == b'_')).unwrap_or(rest.len());
                (Kind::Identifier, length)
            }
            _ => {
                let character = self.source[start..].chars().next().unwrap_or('?');
                // A control character is shown escaped (`'\0'`), not written out.
                let shown = character.escape_debug();
                return Err(ParseError::new(position, format!("'{shown}' does not start a FlatZinc token")));
            }
        };
        self.advance(length);
        Ok(Token { kind, text: &self.source[start..start + length], position })
    }

    fn string(&mut self, position: Position) -> Result<Token<'a>, ParseError> {
        let bytes = self.source.as_bytes();
        let start = self.offset + 1;
        let mut end = start;
        loop {
            match bytes.get(end) {
                None | Some(b'\n') => return Err(ParseError::new(position, "this string is not closed on its line")),
                Some(b'\\') => end += 2,
                Some(b'"') => break,
                Some(_) => end += 1,
            }
        }
        self.advance(end + 1 - self.offset);
        Ok(Token { kind: Kind::String, text: &self.source[start..end], position })
    }

    /// An integer (decimal, `0x` hexadecimal or `0o` octal) or a float, with
    /// an optional sign. `1..5` is an integer, then `..`.
    fn number(&mut self, position: Position) -> Result<Token<'a>, ParseError> {
        let bytes = self.source.as_bytes();
        let start = self.offset;
        let mut end = start;
        if matches!(bytes.get(end), Some(b'-' | b'+')) {
            end += 1;
        }
        let radix = match (bytes.get(end), bytes.get(end + 1)) {
            (Some(b'0'), Some(b'x')) => 16,
            (Some(b'0'), Some(b'o')) => 8,
            _ => 10,
        };
        if radix != 10 {
            end += 2;
        }
        let body_start = end;
        while bytes.get(end).is_some_and(|b| b.is_ascii_digit() || (radix == 16 && b.is_ascii_hexdigit())) {
            end += 1;
        }
        if end == body_start {
            return Err(ParseError::new(
                position,
                format!("'{}' is not followed by a digit", &self.source[start..end]),
            ));
        }
        let mut is_float = false;
        if radix == 10 {
            if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
                is_float = true;
                end += 1;
                while bytes.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
            }
            if matches!(bytes.get(end), Some(b'e' | b'E')) {
                let mut exponent = end + 1;
                if matches!(bytes.get(exponent), Some(b'-' | b'+')) {
                    exponent += 1;
                }
                if bytes.get(exponent).is_some_and(u8::is_ascii_digit) {
                    is_float = true;
                    end = exponent;
                    while bytes.get(end).is_some_and(u8::is_ascii_digit) {
                        end += 1;
                    }
                }
            }
        }
        let text = &self.source[start..end];
        let kind = if is_float {
            match text.parse::<f64>() {
                Ok(value) => Kind::Float(value),
                Err(_) => return Err(ParseError::new(position, format!("'{text}' is not a float"))),
            }
        } else {
            let negative = bytes[start] == b'-';
            let magnitude = u128::from_str_radix(&self.source[body_start..end], radix)
                .ok()
                .filter(|m| *m <= 1u128 << 63)
                .ok_or_else(|| ParseError::new(position, format!("the integer {text} does not fit in 64 bits")))?;
            let value = if negative { -(magnitude as i128) } else { magnitude as i128 };
            match i64::try_from(value) {
                Ok(value) => Kind::Int(value),
                Err(_) => return Err(ParseError::new(position, format!("the integer {text} does not fit in 64 bits"))),
            }
        };
        self.advance(end - start);
        Ok(Token { kind, text, position })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(source: &str) -> Vec<Kind> {
        let mut lexer = Lexer::new(source);
        let mut kinds = Vec::new();
        loop {
            let token = lexer.next_token().unwrap();
            kinds.push(token.kind);
            if token.kind == Kind::End {
                return kinds;
            }
        }
    }

    #[test]
    fn ranges_floats_and_signs_are_told_apart() {
        assert_eq!(kinds("1..3"), vec![Kind::Int(1), Kind::DotDot, Kind::Int(3), Kind::End]);
        assert_eq!(kinds("-2..-1"), vec![Kind::Int(-2), Kind::DotDot, Kind::Int(-1), Kind::End]);
        assert_eq!(
            kinds("1.5 2e3 0x1F 0o17"),
            vec![Kind::Float(1.5), Kind::Float(2000.0), Kind::Int(31), Kind::Int(15), Kind::End]
        );
        assert_eq!(kinds("-9223372036854775808"), vec![Kind::Int(i64::MIN), Kind::End]);
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let mut lexer = Lexer::new("% comment\n  é x :: y");
        let error = lexer.next_token().unwrap_err();
        assert_eq!(error.to_string(), "line 2, column 3: 'é' does not start a FlatZinc token");
        let mut lexer = Lexer::new("\n x\u{0}");
        lexer.next_token().unwrap();
        let error = lexer.next_token().unwrap_err();
        assert_eq!(error.to_string(), "line 2, column 3: '\\0' does not start a FlatZinc token");
        let mut lexer = Lexer::new("a\n  bc ::");
        lexer.next_token().unwrap();
        let token = lexer.next_token().unwrap();
        assert_eq!((token.text, token.position), ("bc", Position { line: 2, column: 3 }));
    }

    #[test]
    fn bad_numbers_and_strings_are_errors() {
        assert!(Lexer::new("99999999999999999999").next_token().is_err());
        assert!(Lexer::new("9223372036854775808").next_token().is_err());
        assert!(Lexer::new("-x").next_token().is_err());
        assert!(Lexer::new("\"open").next_token().is_err());
        assert!(Lexer::new("\"ends in a backslash\\").next_token().is_err());
    }
}
