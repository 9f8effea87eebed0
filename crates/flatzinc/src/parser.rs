//! A hand-written recursive-descent parser for FlatZinc, with one token of
//! look-ahead.
//!
//! Hand-written rather than a parser crate so that every error names its line
//! and column and what was expected, the nesting depth is bounded (a file of a
//! million `[` is an error, not a stack overflow), and a large file is read in
//! one pass without backtracking. Items may come in any order, but there must
//! be exactly one solve item, and it must be the last.

use crate::ast::{
    Annotation, ConstraintItem, Declaration, Expr, FlatZinc, Goal, Position, PredicateDeclaration, SetLiteral,
    SolveItem, Type,
};
use crate::error::ParseError;
use crate::lexer::{Kind, Lexer, Token};

/// How deeply arrays and annotation calls may nest.
const MAX_DEPTH: u32 = 200;

/// Parses a FlatZinc model.
///
/// ```
/// let model = csp_flatzinc::parse("var 1..3: x :: output_var;\nconstraint int_ne(x, 2);\nsolve satisfy;\n").unwrap();
/// assert_eq!(model.constraints[0].name, "int_ne");
/// let error = csp_flatzinc::parse("var 1..3: x\nsolve satisfy;").unwrap_err();
/// assert_eq!(error.to_string(), "line 2, column 1: expected ';', found 'solve'");
/// ```
pub fn parse(source: &str) -> Result<FlatZinc, ParseError> {
    let mut parser = Parser::new(source)?;
    parser.model()
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    current: Token<'a>,
    depth: u32,
}

impl<'a> Parser<'a> {
    fn new(source: &'a str) -> Result<Parser<'a>, ParseError> {
        let mut lexer = Lexer::new(source);
        let current = lexer.next_token()?;
        Ok(Parser { lexer, current, depth: 0 })
    }

    fn bump(&mut self) -> Result<Token<'a>, ParseError> {
        let next = self.lexer.next_token()?;
        Ok(std::mem::replace(&mut self.current, next))
    }

    fn unexpected<T>(&self, expected: &str) -> Result<T, ParseError> {
        Err(ParseError::new(self.current.position, format!("expected {expected}, found {}", self.current.describe())))
    }

    fn expect(&mut self, kind: Kind, text: &str) -> Result<Token<'a>, ParseError> {
        if self.current.kind == kind { self.bump() } else { self.unexpected(&format!("'{text}'")) }
    }

    fn at_keyword(&self, keyword: &str) -> bool {
        self.current.kind == Kind::Identifier && self.current.text == keyword
    }

    fn keyword(&mut self, keyword: &str) -> Result<(), ParseError> {
        if self.at_keyword(keyword) {
            self.bump()?;
            Ok(())
        } else {
            self.unexpected(&format!("'{keyword}'"))
        }
    }

    fn identifier(&mut self) -> Result<(String, Position), ParseError> {
        if self.current.kind == Kind::Identifier {
            let token = self.bump()?;
            Ok((token.text.to_string(), token.position))
        } else {
            self.unexpected("a name")
        }
    }

    fn int(&mut self) -> Result<i64, ParseError> {
        match self.current.kind {
            Kind::Int(value) => {
                self.bump()?;
                Ok(value)
            }
            _ => self.unexpected("an integer"),
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ParseError::new(self.current.position, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    fn model(&mut self) -> Result<FlatZinc, ParseError> {
        let mut model = FlatZinc::default();
        let mut solve = None;
        while self.current.kind != Kind::End {
            if let Some(position) = solve.as_ref().map(|s: &SolveItem| s.position) {
                return Err(ParseError::new(
                    self.current.position,
                    format!("nothing may follow the solve item (at {position}), found {}", self.current.describe()),
                ));
            }
            match self.current.text {
                "predicate" if self.current.kind == Kind::Identifier => model.predicates.push(self.predicate()?),
                "constraint" if self.current.kind == Kind::Identifier => model.constraints.push(self.constraint()?),
                "solve" if self.current.kind == Kind::Identifier => solve = Some(self.solve()?),
                _ => model.declarations.push(self.declaration()?),
            }
        }
        match solve {
            Some(item) => model.solve = item,
            None => return Err(ParseError::new(self.current.position, "the model has no solve item")),
        }
        Ok(model)
    }

    /// `predicate name(params);`: the parameters are skipped, parentheses matched.
    fn predicate(&mut self) -> Result<PredicateDeclaration, ParseError> {
        let position = self.current.position;
        self.keyword("predicate")?;
        let (name, _) = self.identifier()?;
        self.expect(Kind::OpenParen, "(")?;
        let mut open = 1u32;
        while open > 0 {
            match self.current.kind {
                Kind::OpenParen => open += 1,
                Kind::CloseParen => open -= 1,
                Kind::End => return self.unexpected("')'"),
                _ => {}
            }
            self.bump()?;
        }
        self.expect(Kind::Semicolon, ";")?;
        Ok(PredicateDeclaration { name, position })
    }

    fn constraint(&mut self) -> Result<ConstraintItem, ParseError> {
        let position = self.current.position;
        self.keyword("constraint")?;
        let (name, _) = self.identifier()?;
        self.expect(Kind::OpenParen, "(")?;
        let arguments = self.list(Kind::CloseParen, ")")?;
        let annotations = self.annotations()?;
        self.expect(Kind::Semicolon, ";")?;
        Ok(ConstraintItem { name, arguments, annotations, position })
    }

    fn solve(&mut self) -> Result<SolveItem, ParseError> {
        let position = self.current.position;
        self.keyword("solve")?;
        let annotations = self.annotations()?;
        let goal = if self.at_keyword("satisfy") {
            self.bump()?;
            Goal::Satisfy
        } else if self.at_keyword("minimize") {
            self.bump()?;
            Goal::Minimize(self.expr()?)
        } else if self.at_keyword("maximize") {
            self.bump()?;
            Goal::Maximize(self.expr()?)
        } else {
            return self.unexpected("'satisfy', 'minimize' or 'maximize'");
        };
        self.expect(Kind::Semicolon, ";")?;
        Ok(SolveItem { goal, annotations, position })
    }

    /// `type: name :: annotations [= value];`.
    fn declaration(&mut self) -> Result<Declaration, ParseError> {
        let position = self.current.position;
        let mut array_length = None;
        if self.at_keyword("array") {
            self.bump()?;
            self.expect(Kind::OpenBracket, "[")?;
            let from = self.int()?;
            self.expect(Kind::DotDot, "..")?;
            let to_position = self.current.position;
            let to = self.int()?;
            if from != 1 || to < 0 {
                return Err(ParseError::new(
                    to_position,
                    format!("an array's index set must be 1..n, found {from}..{to}"),
                ));
            }
            self.expect(Kind::CloseBracket, "]")?;
            self.keyword("of")?;
            array_length = Some(to);
        }
        let is_var = self.at_keyword("var");
        if is_var {
            self.bump()?;
        }
        let element = self.element_type()?;
        self.expect(Kind::Colon, ":")?;
        let (name, _) = self.identifier()?;
        let annotations = self.annotations()?;
        let value = if self.current.kind == Kind::Equals {
            self.bump()?;
            Some(self.expr()?)
        } else {
            None
        };
        self.expect(Kind::Semicolon, ";")?;
        Ok(Declaration { name, is_var, array_length, element, annotations, value, position })
    }

    /// `bool`, `int`, `float`, `string`, `1..5`, `{1,3}`, `1.0..2.0`, `set of int`, `set of 1..3`.
    fn element_type(&mut self) -> Result<Type, ParseError> {
        match self.current.kind {
            Kind::Identifier => match self.current.text {
                "bool" => {
                    self.bump()?;
                    Ok(Type::Bool)
                }
                "int" => {
                    self.bump()?;
                    Ok(Type::Int(None))
                }
                "float" => {
                    self.bump()?;
                    Ok(Type::Float)
                }
                "string" => {
                    self.bump()?;
                    Ok(Type::String)
                }
                "set" => {
                    self.bump()?;
                    self.keyword("of")?;
                    if self.at_keyword("int") {
                        self.bump()?;
                    } else {
                        self.set_literal()?;
                    }
                    Ok(Type::Set)
                }
                _ => self.unexpected("a type"),
            },
            Kind::Int(_) | Kind::OpenBrace => Ok(Type::Int(Some(self.set_literal()?))),
            Kind::Float(_) => {
                self.bump()?;
                self.expect(Kind::DotDot, "..")?;
                match self.current.kind {
                    Kind::Float(_) | Kind::Int(_) => {
                        self.bump()?;
                        Ok(Type::Float)
                    }
                    _ => self.unexpected("a float"),
                }
            }
            _ => self.unexpected("a type"),
        }
    }

    /// `lo..hi` or `{a, b, ...}` over integers.
    fn set_literal(&mut self) -> Result<SetLiteral, ParseError> {
        if self.current.kind == Kind::OpenBrace {
            self.bump()?;
            let mut values = Vec::new();
            if self.current.kind != Kind::CloseBrace {
                values.push(self.int()?);
                while self.current.kind == Kind::Comma {
                    self.bump()?;
                    values.push(self.int()?);
                }
            }
            self.expect(Kind::CloseBrace, "}")?;
            Ok(SetLiteral::Values(values))
        } else {
            let lo = self.int()?;
            self.expect(Kind::DotDot, "..")?;
            let hi = self.int()?;
            Ok(SetLiteral::Range(lo, hi))
        }
    }

    fn annotations(&mut self) -> Result<Vec<Annotation>, ParseError> {
        let mut annotations = Vec::new();
        while self.current.kind == Kind::DoubleColon {
            self.bump()?;
            let (name, position) = self.identifier()?;
            let arguments = if self.current.kind == Kind::OpenParen {
                self.bump()?;
                self.list(Kind::CloseParen, ")")?
            } else {
                Vec::new()
            };
            annotations.push(Annotation { name, arguments, position });
        }
        Ok(annotations)
    }

    /// Expressions separated by commas, up to the closing token (consumed).
    fn list(&mut self, close: Kind, text: &str) -> Result<Vec<Expr>, ParseError> {
        self.enter()?;
        let mut items = Vec::new();
        if self.current.kind != close {
            items.push(self.expr()?);
            while self.current.kind == Kind::Comma {
                self.bump()?;
                if self.current.kind == close {
                    break; // a trailing comma
                }
                items.push(self.expr()?);
            }
        }
        self.expect(close, text)?;
        self.depth -= 1;
        Ok(items)
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        let token = self.current;
        match token.kind {
            Kind::Int(value) => {
                self.bump()?;
                if self.current.kind == Kind::DotDot {
                    self.bump()?;
                    let hi = self.int()?;
                    Ok(Expr::Set(SetLiteral::Range(value, hi)))
                } else {
                    Ok(Expr::Int(value))
                }
            }
            Kind::Float(value) => {
                self.bump()?;
                if self.current.kind == Kind::DotDot {
                    self.bump()?;
                    let hi = match self.current.kind {
                        Kind::Float(hi) => hi,
                        Kind::Int(hi) => hi as f64,
                        _ => return self.unexpected("a float"),
                    };
                    self.bump()?;
                    Ok(Expr::FloatRange(value, hi, token.position))
                } else {
                    Ok(Expr::Float(value, token.position))
                }
            }
            Kind::OpenBrace => Ok(Expr::Set(self.set_literal()?)),
            Kind::String => {
                self.bump()?;
                Ok(Expr::String(unescape(token.text)))
            }
            Kind::OpenBracket => {
                self.bump()?;
                Ok(Expr::Array(self.list(Kind::CloseBracket, "]")?))
            }
            Kind::Identifier => {
                self.bump()?;
                match token.text {
                    "true" => return Ok(Expr::Bool(true)),
                    "false" => return Ok(Expr::Bool(false)),
                    _ => {}
                }
                match self.current.kind {
                    Kind::OpenBracket => {
                        self.bump()?;
                        let index = self.int()?;
                        self.expect(Kind::CloseBracket, "]")?;
                        Ok(Expr::Element(token.text.to_string(), index, token.position))
                    }
                    Kind::OpenParen => {
                        self.bump()?;
                        let arguments = self.list(Kind::CloseParen, ")")?;
                        Ok(Expr::Call(Annotation { name: token.text.to_string(), arguments, position: token.position }))
                    }
                    _ => Ok(Expr::Identifier(token.text.to_string(), token.position)),
                }
            }
            _ => self.unexpected("an expression"),
        }
    }
}

/// The content of a string literal with `\"`, `\\`, `\n` and `\t` replaced.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minizinc_2_6_output_parses() {
        let source = "predicate fzn_table_int(array [int] of var int: x,array [int,int] of int: t);\n\
            array [1..2] of int: X_INTRODUCED_12_ = [1,-1];\n\
            var 1..3: x = 2;\n\
            var {1,3,5}: z:: output_var;\n\
            var bool: b ::var_is_introduced :: is_defined_var;\n\
            array [1..2] of var int: a:: output_array([1..2]) = [x,z];\n\
            array [1..0] of var int: e:: output_array([1..0]) = [];\n\
            constraint int_lin_ne(X_INTRODUCED_12_,[z,x],0);\n\
            constraint int_le_reif(3,x,b):: defines_var(b);\n\
            solve :: seq_search([int_search(a,first_fail,indomain_min,complete),bool_search([b],input_order,indomain_max,complete)]) minimize z;\n";
        let model = parse(source).unwrap();
        assert_eq!(model.predicates[0].name, "fzn_table_int");
        assert_eq!(model.declarations.len(), 6);
        assert_eq!(model.declarations[1].value, Some(Expr::Int(2)));
        assert_eq!(model.declarations[2].element, Type::Int(Some(SetLiteral::Values(vec![1, 3, 5]))));
        assert_eq!(
            model.declarations[4].annotations[0].arguments,
            vec![Expr::Array(vec![Expr::Set(SetLiteral::Range(1, 2))])]
        );
        assert_eq!(model.declarations[5].array_length, Some(0));
        assert_eq!(model.constraints.len(), 2);
        assert!(matches!(model.solve.goal, Goal::Minimize(Expr::Identifier(ref name, _)) if name == "z"));
        assert_eq!(model.solve.annotations[0].name, "seq_search");
    }

    #[test]
    fn errors_say_where_and_what() {
        let cases = [
            ("", "line 1, column 1: the model has no solve item"),
            ("var 1..3 x;", "line 1, column 10: expected ':', found 'x'"),
            (
                "solve satisfy;\nsolve satisfy;",
                "line 2, column 1: nothing may follow the solve item (at line 1, column 1), found 'solve'",
            ),
            ("constraint int_le(x, y)\nsolve satisfy;", "line 2, column 1: expected ';', found 'solve'"),
            ("array [0..3] of int: a = [];", "line 1, column 11: an array's index set must be 1..n, found 0..3"),
            ("solve maximise x;", "line 1, column 7: expected 'satisfy', 'minimize' or 'maximize', found 'maximise'"),
            ("var 1..3: x = @;", "line 1, column 15: '@' does not start a FlatZinc token"),
        ];
        for (source, message) in cases {
            assert_eq!(parse(source).unwrap_err().to_string(), message, "{source}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let source = format!("constraint c({}1{});\nsolve satisfy;", "[".repeat(100_000), "]".repeat(100_000));
        assert!(parse(&source).unwrap_err().message.contains("nesting deeper"));
    }
}
