//! The FlatZinc syntax tree, as the parser reads it: plain data with the
//! place of every item, so that the lowering can say where a problem is.
//!
//! It follows the FlatZinc 1.6 grammar of the MiniZinc 2.6 reference, as
//! MiniZinc 2.6.4 writes it: predicate declarations, parameters, variables
//! and variable arrays (with an optional assignment), constraints, and one
//! solve item, each with annotations.

/// A place in the source text: 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1.
    pub column: u32,
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A whole FlatZinc model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlatZinc {
    /// `predicate name(...);` items (the solver's own builtins): names only.
    pub predicates: Vec<PredicateDeclaration>,
    /// Parameters and variables, in the order of the file.
    pub declarations: Vec<Declaration>,
    /// `constraint name(args) :: annotations;` items.
    pub constraints: Vec<ConstraintItem>,
    /// The solve item.
    pub solve: SolveItem,
}

impl FlatZinc {
    /// Where in the MiniZinc model the item starting at `line` comes from,
    /// as `file, line L, columns A-B`: the widest place of its `mzn_path`
    /// annotation, which MiniZinc writes with `--keep-paths` (`None`
    /// without one).
    pub fn mzn_place(&self, line: u32) -> Option<String> {
        let declarations = self.declarations.iter().filter(|d| d.position.line == line).map(|d| &d.annotations);
        let constraints = self.constraints.iter().filter(|c| c.position.line == line).map(|c| &c.annotations);
        let solve = (self.solve.position.line == line).then_some(&self.solve.annotations);
        declarations.chain(constraints).chain(solve).flatten().find_map(|annotation| match annotation {
            Annotation { name, arguments, .. } if name == "mzn_path" => match arguments.as_slice() {
                [Expr::String(path)] => mzn_place(path),
                _ => None,
            },
            _ => None,
        })
    }
}

/// The widest place of an `mzn_path` (places `file|line|column|end
/// line|end column|kind|name`, separated by `;`: the expressions the item
/// was flattened from) in words: the whole declaration or constraint rather
/// than a name inside it.
fn mzn_place(path: &str) -> Option<String> {
    let place = |segment: &str| {
        let fields: Vec<&str> = segment.splitn(7, '|').collect();
        let [file, line, column, end_line, end_column, ..] = fields.as_slice() else { return None };
        let number = |text: &str| text.parse::<u32>().ok();
        Some((file.to_string(), number(line)?, number(column)?, number(end_line)?, number(end_column)?))
    };
    let span = |&(_, line, column, end_line, end_column): &(String, u32, u32, u32, u32)| {
        (end_line.saturating_sub(line), if line == end_line { end_column.saturating_sub(column) } else { 0 })
    };
    let mut widest: Option<(String, u32, u32, u32, u32)> = None;
    for candidate in path.split(';').filter(|s| !s.is_empty()).filter_map(place) {
        if widest.as_ref().is_none_or(|w| span(&candidate) > span(w)) {
            widest = Some(candidate);
        }
    }
    let (file, line, column, end_line, end_column) = widest?;
    Some(if line == end_line {
        format!("{file}, line {line}, columns {column}-{end_column}")
    } else {
        format!("{file}, lines {line}-{end_line}")
    })
}

/// `predicate name(params);`: what the file expects the solver to know.
#[derive(Clone, Debug, PartialEq)]
pub struct PredicateDeclaration {
    /// The predicate's name.
    pub name: String,
    /// Where it is declared.
    pub position: Position,
}

/// The element type of a declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// `bool`.
    Bool,
    /// `int`, or an integer domain (`1..5`, `{1,3}`).
    Int(Option<SetLiteral>),
    /// `float`, or a float range.
    Float,
    /// `set of int`, or a set with an integer domain.
    Set,
    /// `string` (only in annotations and parameters of newer FlatZinc).
    String,
}

impl Type {
    /// The type's name in messages: `bool`, `int`, `float`, `set of int`.
    pub fn describe(&self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::Int(_) => "int",
            Type::Float => "float",
            Type::Set => "set of int",
            Type::String => "string",
        }
    }
}

/// A parameter, variable, parameter array or variable array.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// Its name.
    pub name: String,
    /// `var` (a decision variable) or not (a parameter).
    pub is_var: bool,
    /// `Some(length)` for `array [1..length] of ...`.
    pub array_length: Option<i64>,
    /// The element type.
    pub element: Type,
    /// Its annotations (`output_var`, `output_array([1..2, 1..3])`, ...).
    pub annotations: Vec<Annotation>,
    /// `= expr`, if assigned.
    pub value: Option<Expr>,
    /// Where the declaration starts.
    pub position: Position,
}

impl Declaration {
    /// The annotation with this name, if present.
    pub fn annotation(&self, name: &str) -> Option<&Annotation> {
        self.annotations.iter().find(|a| a.name == name)
    }
}

/// `constraint name(arguments) :: annotations;`.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintItem {
    /// The builtin's name (`int_lin_eq`, `fzn_all_different_int`, ...).
    pub name: String,
    /// Its arguments.
    pub arguments: Vec<Expr>,
    /// Its annotations (`defines_var(x)`, `domain`, ...).
    pub annotations: Vec<Annotation>,
    /// Where the item starts.
    pub position: Position,
}

/// What the solve item asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Goal {
    /// `solve satisfy;`.
    #[default]
    Satisfy,
    /// `solve minimize expr;`.
    Minimize(Expr),
    /// `solve maximize expr;`.
    Maximize(Expr),
}

/// `solve :: annotations goal;`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SolveItem {
    /// The goal.
    pub goal: Goal,
    /// The search annotations.
    pub annotations: Vec<Annotation>,
    /// Where the item starts.
    pub position: Position,
}

/// A constant set of integers: a range or a list of values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetLiteral {
    /// `lo..hi` (empty when `lo > hi`).
    Range(i64, i64),
    /// `{a, b, ...}`, as written.
    Values(Vec<i64>),
}

impl SetLiteral {
    /// The values in increasing order, without duplicates.
    pub fn values(&self) -> Vec<i64> {
        match self {
            SetLiteral::Range(lo, hi) => (*lo..=*hi).collect(),
            SetLiteral::Values(values) => {
                let mut sorted = values.clone();
                sorted.sort_unstable();
                sorted.dedup();
                sorted
            }
        }
    }

    /// The values within `min..=max`, in increasing order, without
    /// duplicates: as many as the narrower of the set and the range holds,
    /// however wide the other.
    pub fn values_within(&self, min: i64, max: i64) -> Vec<i64> {
        match *self {
            SetLiteral::Range(lo, hi) => (lo.max(min)..=hi.min(max)).collect(),
            SetLiteral::Values(_) => self.values().into_iter().filter(|v| (min..=max).contains(v)).collect(),
        }
    }

    /// Whether `value` is in the set.
    pub fn contains(&self, value: i64) -> bool {
        match self {
            SetLiteral::Range(lo, hi) => (*lo..=*hi).contains(&value),
            SetLiteral::Values(values) => values.contains(&value),
        }
    }

    /// The number of values (saturating).
    pub fn len(&self) -> u64 {
        match self {
            SetLiteral::Range(lo, hi) if lo <= hi => {
                u64::try_from((*hi as i128 - *lo as i128 + 1).min(u64::MAX as i128)).unwrap_or(u64::MAX)
            }
            SetLiteral::Range(..) => 0,
            SetLiteral::Values(_) => self.values().len() as u64,
        }
    }

    /// Whether the set has no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An expression: a literal, a name, an array, or (in annotations) a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal, and where it starts.
    Float(f64, Position),
    /// A set literal: `1..5`, `{1, 3}`, `{}`.
    Set(SetLiteral),
    /// A float range `1.0..2.5` (only float domains and parameters use
    /// them), and where it starts.
    FloatRange(f64, f64, Position),
    /// A string literal (annotations only).
    String(String),
    /// A parameter, variable or annotation name.
    Identifier(String, Position),
    /// `name[index]`: an element of a named array (1-based).
    Element(String, i64, Position),
    /// `[a, b, ...]`.
    Array(Vec<Expr>),
    /// `name(arguments)` inside an annotation.
    Call(Annotation),
}

/// `:: name` or `:: name(arguments)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    /// Its name.
    pub name: String,
    /// Its arguments (none for a plain name).
    pub arguments: Vec<Expr>,
    /// Where it is written.
    pub position: Position,
}
