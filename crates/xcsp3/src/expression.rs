//! Intension expressions: XCSP3's functional syntax (`eq(x,add(y,1))`,
//! `or(lt(x,3),in(y,set(1,2,4)))`, ...) parsed into an [`Expr`] tree, and
//! evaluated over values with the semantics of the XCSP3 specification
//! (integer division truncates toward zero, `mod` takes the sign of the
//! dividend, Booleans are 0 and 1).
//!
//! Partial functions are strict: an expression with an undefined part (a
//! division by zero, even in the branch of an `if` that is not taken) is
//! undefined, and a constraint whose value is undefined does not hold.
//!
//! The evaluator is not used to solve: the lowering (`lower::intension`)
//! turns a tree into the engine's constraints. It is the independent
//! reference that the tests compare the lowering with, by brute force.

use std::fmt;

/// The deepest nesting of operators the parser accepts: deeper trees are
/// refused with an error rather than risking the stack on hostile input.
pub const MAX_DEPTH: usize = 256;

/// An operator of the functional syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `neg(x)`: `-x`.
    Neg,
    /// `abs(x)`.
    Abs,
    /// `add(x, y, ...)`.
    Add,
    /// `sub(x, y)`.
    Sub,
    /// `mul(x, y, ...)`.
    Mul,
    /// `div(x, y)`: truncated toward zero.
    Div,
    /// `mod(x, y)`: the sign of `x`.
    Mod,
    /// `sqr(x)`: `x * x`.
    Sqr,
    /// `pow(x, y)`.
    Pow,
    /// `min(x, y, ...)`.
    Min,
    /// `max(x, y, ...)`.
    Max,
    /// `dist(x, y)`: `|x - y|`.
    Dist,
    /// `lt(x, y)`.
    Lt,
    /// `le(x, y)`.
    Le,
    /// `ge(x, y)`.
    Ge,
    /// `gt(x, y)`.
    Gt,
    /// `ne(x, y)`.
    Ne,
    /// `eq(x, y, ...)`: all equal.
    Eq,
    /// `set(a, b, ...)`: a set of values, only as the second operand of `in` and `notin`.
    Set,
    /// `in(x, set(...))`.
    In,
    /// `notin(x, set(...))`.
    NotIn,
    /// `not(x)`.
    Not,
    /// `and(x, y, ...)`.
    And,
    /// `or(x, y, ...)`.
    Or,
    /// `xor(x, y, ...)`: an odd number are true.
    Xor,
    /// `iff(x, y, ...)`: all equal (as Booleans).
    Iff,
    /// `imp(x, y)`: `x` implies `y`.
    Imp,
    /// `if(c, x, y)`: `x` when `c` holds, else `y`.
    If,
}

/// Every operator with its XCSP3 name, and the number of operands it takes
/// (`None`: at least one; `set` takes any number).
const OPERATORS: [(Operator, &str, Option<usize>); 28] = [
    (Operator::Neg, "neg", Some(1)),
    (Operator::Abs, "abs", Some(1)),
    (Operator::Add, "add", None),
    (Operator::Sub, "sub", Some(2)),
    (Operator::Mul, "mul", None),
    (Operator::Div, "div", Some(2)),
    (Operator::Mod, "mod", Some(2)),
    (Operator::Sqr, "sqr", Some(1)),
    (Operator::Pow, "pow", Some(2)),
    (Operator::Min, "min", None),
    (Operator::Max, "max", None),
    (Operator::Dist, "dist", Some(2)),
    (Operator::Lt, "lt", Some(2)),
    (Operator::Le, "le", Some(2)),
    (Operator::Ge, "ge", Some(2)),
    (Operator::Gt, "gt", Some(2)),
    (Operator::Ne, "ne", Some(2)),
    (Operator::Eq, "eq", None),
    (Operator::Set, "set", None),
    (Operator::In, "in", Some(2)),
    (Operator::NotIn, "notin", Some(2)),
    (Operator::Not, "not", Some(1)),
    (Operator::And, "and", None),
    (Operator::Or, "or", None),
    (Operator::Xor, "xor", None),
    (Operator::Iff, "iff", None),
    (Operator::Imp, "imp", Some(2)),
    (Operator::If, "if", Some(3)),
];

impl Operator {
    /// The operator named `name` (XCSP3 spells `if` also `ite`).
    pub fn from_name(name: &str) -> Option<Operator> {
        let name = if name == "ite" { "if" } else { name };
        OPERATORS.iter().find(|(_, n, _)| *n == name).map(|&(op, _, _)| op)
    }

    /// Its XCSP3 name.
    pub fn name(self) -> &'static str {
        OPERATORS.iter().find(|(op, _, _)| *op == self).map_or("?", |&(_, name, _)| name)
    }

    fn arity(self) -> Option<usize> {
        OPERATORS.iter().find(|(op, _, _)| *op == self).and_then(|&(_, _, arity)| arity)
    }

    /// Whether the operator's value is a Boolean (0 or 1).
    pub fn is_boolean(self) -> bool {
        use Operator::*;
        matches!(self, Lt | Le | Ge | Gt | Ne | Eq | In | NotIn | Not | And | Or | Xor | Iff | Imp)
    }
}

/// An expression of the functional syntax.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer constant.
    Int(i64),
    /// A variable, as written (`x`, `q[3]`, `m[1][2]`).
    Var(String),
    /// An operator applied to its operands.
    Call(Operator, Vec<Expr>),
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Int(value) => write!(f, "{value}"),
            Expr::Var(name) => f.write_str(name),
            Expr::Call(op, operands) => {
                write!(f, "{}(", op.name())?;
                for (i, operand) in operands.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{operand}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// An expression that does not parse: the byte offset in the text, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// The byte offset in the text where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// Whether the text is valid XCSP3 that the parser does not support
    /// (an operator of another XCSP3 flavour) rather than a malformed one.
    pub unsupported: bool,
}

/// Parses one expression of the functional syntax; the whole text must be
/// that expression (with white space around it allowed).
pub fn parse(text: &str) -> Result<Expr, ExprError> {
    let mut parser = Parser { text, bytes: text.as_bytes(), at: 0 };
    let expr = parser.expr(0)?;
    parser.skip_space();
    if parser.at < parser.bytes.len() {
        return Err(parser.error(format!("unexpected '{}' after the expression", parser.rest_word())));
    }
    Ok(expr)
}

struct Parser<'t> {
    text: &'t str,
    bytes: &'t [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, message: impl Into<String>) -> ExprError {
        ExprError { offset: self.at, message: message.into(), unsupported: false }
    }

    fn skip_space(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    /// The next few characters, to quote in a message.
    fn rest_word(&self) -> String {
        self.text[self.at..].chars().take_while(|c| !c.is_whitespace()).take(20).collect()
    }

    fn expr(&mut self, depth: usize) -> Result<Expr, ExprError> {
        if depth > MAX_DEPTH {
            return Err(ExprError {
                unsupported: true,
                ..self.error(format!("an expression nested more than {MAX_DEPTH} deep"))
            });
        }
        self.skip_space();
        let start = self.at;
        let Some(&first) = self.bytes.get(self.at) else {
            return Err(self.error("an expression is missing"));
        };
        if first == b'-' || first == b'+' || first.is_ascii_digit() {
            self.at += 1;
            while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_digit() {
                self.at += 1;
            }
            let digits = &self.text[start..self.at];
            return digits.parse::<i64>().map(Expr::Int).map_err(|_| ExprError {
                offset: start,
                message: format!("'{digits}' is not an integer within 64 bits"),
                unsupported: false,
            });
        }
        if !(first.is_ascii_alphabetic() || first == b'_') {
            return Err(self.error(format!("'{}' does not start an expression", self.rest_word())));
        }
        while self.at < self.bytes.len()
            && (self.bytes[self.at].is_ascii_alphanumeric() || matches!(self.bytes[self.at], b'_' | b'[' | b']'))
        {
            self.at += 1;
        }
        let name = &self.text[start..self.at];
        self.skip_space();
        if self.bytes.get(self.at) != Some(&b'(') {
            return Ok(Expr::Var(name.to_string()));
        }
        let Some(op) = Operator::from_name(name) else {
            return Err(ExprError {
                offset: start,
                message: format!("the operator '{name}'"),
                unsupported: is_known_operator(name),
            });
        };
        self.at += 1; // '('
        let mut operands = Vec::new();
        self.skip_space();
        if self.bytes.get(self.at) == Some(&b')') {
            self.at += 1;
        } else {
            loop {
                operands.push(self.expr(depth + 1)?);
                self.skip_space();
                match self.bytes.get(self.at) {
                    Some(b',') => self.at += 1,
                    Some(b')') => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(self.error(format!("expected ',' or ')' in {name}(...)"))),
                }
            }
        }
        let expected = match op.arity() {
            Some(n) => operands.len() == n,
            None => op == Operator::Set || !operands.is_empty(),
        };
        if !expected {
            let wanted = op.arity().map_or("at least 1".to_string(), |n| n.to_string());
            return Err(ExprError {
                offset: start,
                message: format!("{name} takes {wanted} operand(s), found {}", operands.len()),
                unsupported: false,
            });
        }
        if matches!(op, Operator::In | Operator::NotIn) && !matches!(operands[1], Expr::Call(Operator::Set, _)) {
            return Err(ExprError {
                offset: start,
                message: format!("the second operand of {name} must be set(...)"),
                unsupported: false,
            });
        }
        Ok(Expr::Call(op, operands))
    }
}

/// Operators of XCSP3 flavours beyond integers (sets, reals, symbols), which
/// are refused as unsupported rather than as unknown.
fn is_known_operator(name: &str) -> bool {
    matches!(
        name,
        "card"
            | "union"
            | "inter"
            | "diff"
            | "sdiff"
            | "hull"
            | "djoint"
            | "subset"
            | "subseq"
            | "supseq"
            | "supset"
            | "convex"
            | "fdiv"
            | "fmod"
            | "sqrt"
            | "nroot"
            | "exp"
            | "ln"
            | "log"
            | "sin"
            | "cos"
            | "tan"
            | "asin"
            | "acos"
            | "atan"
            | "sinh"
            | "cosh"
            | "tanh"
    )
}

impl Expr {
    /// The variables the expression mentions, each once, in order of first appearance.
    pub fn variables(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        self.visit_variables(&mut |name| {
            if !names.contains(&name) {
                names.push(name);
            }
        });
        names
    }

    fn visit_variables<'e>(&'e self, visit: &mut impl FnMut(&'e str)) {
        match self {
            Expr::Int(_) => {}
            Expr::Var(name) => visit(name),
            Expr::Call(_, operands) => operands.iter().for_each(|operand| operand.visit_variables(visit)),
        }
    }

    /// The value of the expression when each variable has the value `value`
    /// gives it, with XCSP3's semantics; `None` when it is undefined (a
    /// division by zero, a value beyond `i128`, a Boolean operator on a value
    /// other than 0 or 1, `set` outside `in`). A constraint whose value is
    /// undefined does not hold.
    pub fn evaluate(&self, value: &dyn Fn(&str) -> Option<i64>) -> Option<i128> {
        use Operator::*;
        let operands = match self {
            Expr::Int(v) => return Some(i128::from(*v)),
            Expr::Var(name) => return value(name).map(i128::from),
            Expr::Call(_, operands) => operands,
        };
        let Expr::Call(op, _) = self else { unreachable!("matched above") };
        let eval = |e: &Expr| e.evaluate(value);
        let all = || operands.iter().map(eval).collect::<Option<Vec<i128>>>();
        let boolean = |v: i128| matches!(v, 0 | 1).then_some(v == 1);
        let bools = || operands.iter().map(|e| eval(e).and_then(boolean)).collect::<Option<Vec<bool>>>();
        let truth = |b: bool| Some(i128::from(b));
        match op {
            Neg => eval(&operands[0]).and_then(i128::checked_neg),
            Abs => eval(&operands[0]).and_then(i128::checked_abs),
            Add => all()?.into_iter().try_fold(0i128, i128::checked_add),
            Sub => eval(&operands[0])?.checked_sub(eval(&operands[1])?),
            Mul => all()?.into_iter().try_fold(1i128, i128::checked_mul),
            Div => eval(&operands[0])?.checked_div(eval(&operands[1])?),
            Mod => eval(&operands[0])?.checked_rem(eval(&operands[1])?),
            Sqr => eval(&operands[0]).and_then(|v| v.checked_mul(v)),
            Pow => power(eval(&operands[0])?, eval(&operands[1])?),
            Min => all()?.into_iter().min(),
            Max => all()?.into_iter().max(),
            Dist => eval(&operands[0])?.checked_sub(eval(&operands[1])?).and_then(i128::checked_abs),
            Lt => truth(eval(&operands[0])? < eval(&operands[1])?),
            Le => truth(eval(&operands[0])? <= eval(&operands[1])?),
            Ge => truth(eval(&operands[0])? >= eval(&operands[1])?),
            Gt => truth(eval(&operands[0])? > eval(&operands[1])?),
            Ne => truth(eval(&operands[0])? != eval(&operands[1])?),
            Eq => {
                let values = all()?;
                truth(values.windows(2).all(|pair| pair[0] == pair[1]))
            }
            Set => None,
            In | NotIn => {
                let x = eval(&operands[0])?;
                let Expr::Call(Set, members) = &operands[1] else { return None };
                let members = members.iter().map(eval).collect::<Option<Vec<i128>>>()?;
                truth(members.contains(&x) == (*op == In))
            }
            Not => truth(!boolean(eval(&operands[0])?)?),
            And => truth(bools()?.into_iter().all(|b| b)),
            Or => truth(bools()?.into_iter().any(|b| b)),
            Xor => truth(bools()?.into_iter().filter(|&b| b).count() % 2 == 1),
            Iff => {
                let values = bools()?;
                truth(values.windows(2).all(|pair| pair[0] == pair[1]))
            }
            Imp => {
                let values = bools()?;
                truth(!values[0] || values[1])
            }
            If => {
                // Strict, like the lowering: both branches must be defined.
                let (then, otherwise) = (eval(&operands[1])?, eval(&operands[2])?);
                Some(if boolean(eval(&operands[0])?)? { then } else { otherwise })
            }
        }
    }
}

/// `base ^ exponent` as the engine computes it (a negative exponent is `1 div
/// base^-exponent`, undefined for a zero base); `None` beyond `i128`.
pub(crate) fn power(base: i128, exponent: i128) -> Option<i128> {
    if exponent < 0 {
        return match base {
            0 => None,
            1 => Some(1),
            -1 => Some(if exponent % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        };
    }
    let exponent = u32::try_from(exponent).ok()?;
    base.checked_pow(exponent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, values: &[(&str, i64)]) -> Option<i128> {
        let expr = parse(text).expect("parses");
        expr.evaluate(&|name| values.iter().find(|(n, _)| *n == name).map(|&(_, v)| v))
    }

    #[test]
    fn the_functional_syntax_parses_and_prints_back() {
        let text = "eq(add(x,mul(2,q[3])),if(lt(y,-3),5,m[1][2]))";
        let expr = parse(text).unwrap();
        assert_eq!(expr.to_string(), text);
        assert_eq!(expr.variables(), vec!["x", "q[3]", "y", "m[1][2]"]);
        assert_eq!(parse(" in( x , set( ) ) ").unwrap().to_string(), "in(x,set())");
        assert_eq!(parse("ite(x,1,2)").unwrap(), parse("if(x,1,2)").unwrap());
    }

    #[test]
    fn malformed_expressions_say_where() {
        let cases = [
            ("eq(x,", "an expression is missing"),
            ("eq(x y)", "expected ',' or ')'"),
            ("foo(x)", "the operator 'foo'"),
            ("eq(x,1))", "unexpected ')'"),
            ("sub(x)", "sub takes 2 operand(s), found 1"),
            ("in(x,3)", "must be set(...)"),
            ("99999999999999999999", "not an integer within 64 bits"),
            ("", "missing"),
            ("(x)", "does not start an expression"),
        ];
        for (text, message) in cases {
            let error = parse(text).unwrap_err();
            assert!(error.message.contains(message), "{text}: {error:?}");
            assert!(error.offset <= text.len());
        }
        assert!(parse("card(s)").unwrap_err().unsupported);
        let deep = format!("{}x{}", "neg(".repeat(MAX_DEPTH + 5), ")".repeat(MAX_DEPTH + 5));
        assert!(parse(&deep).unwrap_err().unsupported);
    }

    #[test]
    fn evaluation_follows_the_specification() {
        assert_eq!(eval("div(-7,2)", &[]), Some(-3), "truncated toward zero");
        assert_eq!(eval("mod(-7,2)", &[]), Some(-1), "the sign of the dividend");
        assert_eq!(eval("div(x,0)", &[("x", 3)]), None);
        assert_eq!(eval("dist(x,y)", &[("x", 3), ("y", 10)]), Some(7));
        assert_eq!(eval("and(x,not(y))", &[("x", 1), ("y", 0)]), Some(1));
        assert_eq!(eval("and(x,y)", &[("x", 2), ("y", 1)]), None, "2 is not a Boolean");
        assert_eq!(eval("xor(1,1,1)", &[]), Some(1));
        assert_eq!(eval("iff(1,0)", &[]), Some(0));
        assert_eq!(eval("imp(0,0)", &[]), Some(1));
        assert_eq!(eval("in(x,set(1,3))", &[("x", 3)]), Some(1));
        assert_eq!(eval("notin(x,set())", &[("x", 3)]), Some(1));
        assert_eq!(eval("if(eq(x,1),10,20)", &[("x", 2)]), Some(20));
        assert_eq!(eval("if(eq(x,1),10,div(1,0))", &[("x", 1)]), None, "strict: the other branch is undefined");
        assert_eq!(eval("pow(2,62)", &[]), Some(1 << 62));
        assert_eq!(eval("pow(x,-1)", &[("x", 0)]), None);
        assert_eq!(eval("mul(4611686018427387904,4611686018427387904)", &[]), Some(1 << 124));
        assert_eq!(eval("eq(x,y,z)", &[("x", 1), ("y", 1), ("z", 1)]), Some(1));
        assert_eq!(eval("x", &[]), None, "an unknown variable");
    }
}
