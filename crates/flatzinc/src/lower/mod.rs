//! Lowering: a parsed FlatZinc model becomes a csp [`Model`], with what the
//! tool needs around it (what to print, the goal, the search plan).
//!
//! A `var bool` is a `0..1` integer variable (`true` is 1), so the boolean
//! builtins are integer constraints over 0/1 variables. A constant where a
//! builtin expects a variable becomes a fixed variable, one per value, shared
//! (so `all_different([x, 3, 3])` is correctly unsatisfiable). A declaration
//! `var 1..3: x = y;` makes `x` another name of `y` (or a new variable equal to
//! `y` when the declared domain is narrower). Each builtin is one small
//! function in the registry ([`builtins`]); a constraint without one is an
//! error naming it, never an approximation. A constraint whose arguments are
//! all constants and false makes the model unsatisfiable before any search
//! ([`Lowered::inconsistent`]). A `var int` without a domain ranges over the
//! engine's whole range, `-2^62..=2^62` ([`unbounded`]).

mod arguments;
mod arithmetic;
mod boolean;
mod builtins;
mod condition;
mod counting;
mod element;
mod globals;
mod graph;
mod integer;
mod order;
mod packing;
mod scheduling;

use std::collections::HashMap;

use csp::{Domain, Model, VarId};

use crate::ast::{Declaration, Expr, FlatZinc, Goal, SetLiteral, Type};
use crate::error::LowerError;
use crate::output::{Output, OutputItem};
use crate::search_plan::SearchPlan;

pub use builtins::{is_supported, supported_builtins};

/// A FlatZinc value once lowered: a variable of the model, or a constant
/// (booleans are 0 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A variable.
    Var(VarId),
    /// A constant.
    Const(i64),
}

/// What the solve item asks for, on lowered values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Any solution (or all of them).
    Satisfy,
    /// A solution with the smallest value.
    Minimize(Value),
    /// A solution with the largest value.
    Maximize(Value),
}

/// A lowered FlatZinc model: the csp model and what the solver needs around it.
#[derive(Debug)]
pub struct Lowered {
    /// The constraint model.
    pub model: Model,
    /// What a solution prints.
    pub output: Output,
    /// The goal.
    pub objective: Objective,
    /// The search annotations, read into a plan (see [`SearchPlan`]).
    pub search: SearchPlan,
    /// Why the model is unsatisfiable before search, when a constraint on
    /// constants alone is false (`int_le(3, 2)`), or a variable's assigned
    /// value is outside its domain.
    pub inconsistent: Option<String>,
    /// The FlatZinc integer variables.
    pub int_variables: usize,
    /// The FlatZinc boolean variables.
    pub bool_variables: usize,
}

/// Lowers a parsed FlatZinc model into a csp model.
///
/// ```
/// let fzn = csp_flatzinc::parse(
///     "var 1..3: x :: output_var;\nvar 1..3: y;\nconstraint int_lt(x, y);\nsolve satisfy;",
/// )
/// .unwrap();
/// let lowered = csp_flatzinc::lower(&fzn).unwrap();
/// let solution = lowered.model.solve().unwrap().unwrap();
/// assert_eq!(lowered.output.to_dzn(solution.values()), "x = 1;\n");
/// ```
pub fn lower(fzn: &FlatZinc) -> Result<Lowered, LowerError> {
    let mut lowering = Lowering::default();
    for declaration in &fzn.declarations {
        lowering.declare(declaration)?;
    }
    for item in &fzn.constraints {
        builtins::lower_constraint(&mut lowering, item)?;
    }
    let line = fzn.solve.position.line;
    let objective = match &fzn.solve.goal {
        Goal::Satisfy => Objective::Satisfy,
        Goal::Minimize(expr) => Objective::Minimize(lowering.objective(expr, line)?),
        Goal::Maximize(expr) => Objective::Maximize(lowering.objective(expr, line)?),
    };
    // The engine's branch and bound reads the objective from the model; a
    // constant objective leaves none (every solution is then optimal).
    let posted = match objective {
        Objective::Minimize(Value::Var(var)) => lowering.model.minimize(var).map(drop),
        Objective::Maximize(Value::Var(var)) => lowering.model.maximize(var).map(drop),
        _ => Ok(()),
    };
    posted.map_err(|e| model_error(e, line))?;
    let search = SearchPlan::read(&fzn.solve.annotations, &lowering);
    Ok(Lowered {
        model: lowering.model,
        output: Output { items: lowering.outputs },
        objective,
        search,
        inconsistent: lowering.inconsistent,
        int_variables: lowering.int_variables,
        bool_variables: lowering.bool_variables,
    })
}

/// What a name stands for.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    /// A variable or constant, integer or boolean.
    Scalar(Value),
    /// An array of variables and constants.
    Array(Vec<Value>),
    /// A constant set.
    Set(SetLiteral),
    /// An array of constant sets.
    SetArray(Vec<SetLiteral>),
    /// Something the engine has no values for (a float, a string): its type.
    Other(&'static str),
}

/// The state of a lowering: the model so far and the names.
#[derive(Default)]
pub(crate) struct Lowering {
    pub(crate) model: Model,
    names: HashMap<String, Binding>,
    constants: HashMap<i64, VarId>,
    outputs: Vec<OutputItem>,
    pub(crate) inconsistent: Option<String>,
    int_variables: usize,
    bool_variables: usize,
    /// The variables declared without a value and without `is_defined_var`
    /// (no constraint defines them), in declaration order.
    pub(crate) undefined: Vec<VarId>,
}

impl Lowering {
    pub(crate) fn binding(&self, name: &str) -> Option<&Binding> {
        self.names.get(name)
    }

    /// The variable standing for `value`: itself, or the fixed variable of a constant.
    pub(crate) fn var(&mut self, value: Value, line: u32) -> Result<VarId, LowerError> {
        match value {
            Value::Var(var) => Ok(var),
            Value::Const(constant) => {
                if let Some(&var) = self.constants.get(&constant) {
                    return Ok(var);
                }
                // Said of the constant: the engine's message would name the
                // fixed variable it was to become (`variable x1`), which the
                // file does not have.
                if constant.unsigned_abs() > csp::MAX_VALUE.unsigned_abs() {
                    let message = format!("the constant {constant} is outside the supported range -2^62..=2^62");
                    return Err(LowerError::Model { message, line });
                }
                let var = self.model.new_var(constant..=constant).map_err(|e| model_error(e, line))?;
                self.constants.insert(constant, var);
                Ok(var)
            }
        }
    }

    /// The variables standing for `values` (see [`Lowering::var`]).
    pub(crate) fn vars(&mut self, values: &[Value], line: u32) -> Result<Vec<VarId>, LowerError> {
        values.iter().map(|&value| self.var(value, line)).collect()
    }

    /// The smallest and largest value the variables' declared domains hold.
    pub(crate) fn span(&self, vars: &[VarId]) -> (i64, i64) {
        vars.iter()
            .filter_map(|&var| self.model.domain(var))
            .filter_map(|domain| Some((domain.min()?, domain.max()?)))
            .fold((i64::MAX, i64::MIN), |(lo, hi), (min, max)| (lo.min(min), hi.max(max)))
    }

    /// Records that the model cannot be satisfied, with the first reason.
    pub(crate) fn fail(&mut self, reason: impl FnOnce() -> String) {
        if self.inconsistent.is_none() {
            self.inconsistent = Some(reason());
        }
    }

    fn declare(&mut self, declaration: &Declaration) -> Result<(), LowerError> {
        let line = declaration.position.line;
        if self.names.contains_key(&declaration.name) {
            return Err(LowerError::Invalid { message: format!("'{}' is declared twice", declaration.name), line });
        }
        let binding = match (declaration.is_var, declaration.array_length) {
            (false, None) => self.parameter(declaration)?,
            (false, Some(_)) => self.parameter_array(declaration)?,
            (true, None) => Binding::Scalar(self.variable(declaration)?),
            (true, Some(length)) => Binding::Array(self.variable_array(declaration, length)?),
        };
        self.names.insert(declaration.name.clone(), binding);
        Ok(())
    }

    fn parameter(&mut self, declaration: &Declaration) -> Result<Binding, LowerError> {
        let line = declaration.position.line;
        let Some(value) = &declaration.value else {
            return Err(LowerError::Invalid { message: format!("parameter {} has no value", declaration.name), line });
        };
        Ok(match (&declaration.element, value) {
            (Type::Int(_) | Type::Bool, _) => Binding::Scalar(self.value(value, line)?),
            (Type::Set, Expr::Set(set)) => Binding::Set(set.clone()),
            (Type::Float, _) | (Type::String, _) => Binding::Other(declaration.element.describe()),
            (Type::Set, _) => return Err(invalid_value(declaration)),
        })
    }

    fn parameter_array(&mut self, declaration: &Declaration) -> Result<Binding, LowerError> {
        let line = declaration.position.line;
        let Some(Expr::Array(items)) = &declaration.value else {
            return Err(invalid_value(declaration));
        };
        Ok(match declaration.element {
            Type::Int(_) | Type::Bool => {
                let values = items.iter().map(|item| self.value(item, line)).collect::<Result<Vec<_>, _>>()?;
                if values.iter().any(|v| matches!(v, Value::Var(_))) {
                    return Err(invalid_value(declaration));
                }
                Binding::Array(values)
            }
            Type::Set => Binding::SetArray(
                items
                    .iter()
                    .map(|item| match item {
                        Expr::Set(set) => Ok(set.clone()),
                        _ => Err(invalid_value(declaration)),
                    })
                    .collect::<Result<_, _>>()?,
            ),
            Type::Float | Type::String => Binding::Other(declaration.element.describe()),
        })
    }

    fn variable(&mut self, declaration: &Declaration) -> Result<Value, LowerError> {
        let line = declaration.position.line;
        let name = &declaration.name;
        let declared: Option<Domain> = match &declaration.element {
            Type::Bool => Some(Domain::range(0, 1)),
            Type::Int(Some(set)) => Some(domain_of(set)),
            Type::Int(None) => None,
            Type::Float => return Err(LowerError::UnsupportedVariable { kind: "float", name: name.clone(), line }),
            Type::Set => return Err(LowerError::UnsupportedVariable { kind: "set", name: name.clone(), line }),
            Type::String => return Err(invalid_value(declaration)),
        };
        if declaration.element == Type::Bool {
            self.bool_variables += 1;
        } else {
            self.int_variables += 1;
        }
        let assigned = match &declaration.value {
            Some(expr) => Some(self.value(expr, line)?),
            None => None,
        };
        let value = match (declared, assigned) {
            (None, None) => Value::Var(self.new_var(name, unbounded(), line)?),
            (None, Some(value)) => value,
            (Some(domain), Some(Value::Const(constant))) => {
                if !domain.contains(constant) {
                    self.fail(|| format!("line {line}: {name} = {constant} is outside its domain"));
                }
                Value::Var(self.new_var(name, Domain::range(constant, constant), line)?)
            }
            (Some(domain), Some(Value::Var(target))) => {
                if self.model.domain(target).is_some_and(|d| within(d, &domain)) {
                    Value::Var(target)
                } else {
                    let var = self.new_var(name, domain, line)?;
                    self.model.equal(var, target).map_err(|e| model_error(e, line))?;
                    Value::Var(var)
                }
            }
            (Some(domain), None) => Value::Var(self.new_var(name, domain, line)?),
        };
        if let (Value::Var(var), None, None) = (value, &declaration.value, declaration.annotation("is_defined_var")) {
            self.undefined.push(var);
        }
        if declaration.annotation("output_var").is_some() {
            self.outputs.push(OutputItem {
                name: name.clone(),
                is_bool: declaration.element == Type::Bool,
                shape: None,
                values: vec![value],
            });
        }
        Ok(value)
    }

    /// A named variable; an empty domain makes the model inconsistent (the
    /// variable then gets a placeholder value, so that lowering can go on).
    fn new_var(&mut self, name: &str, domain: Domain, line: u32) -> Result<VarId, LowerError> {
        let domain = if domain.is_empty() {
            self.fail(|| format!("line {line}: variable {name} has an empty domain"));
            Domain::range(0, 0)
        } else {
            domain
        };
        self.model.new_named_var(name, domain).map_err(|e| model_error(e, line))
    }

    fn variable_array(&mut self, declaration: &Declaration, length: i64) -> Result<Vec<Value>, LowerError> {
        let line = declaration.position.line;
        let items = match &declaration.value {
            Some(Expr::Array(items)) => items,
            None => {
                return Err(LowerError::Invalid {
                    message: format!(
                        "array {} of variables has no value: FlatZinc lists its elements (`= [...]`)",
                        declaration.name
                    ),
                    line,
                });
            }
            Some(_) => return Err(invalid_value(declaration)),
        };
        match declaration.element {
            Type::Float => {
                return Err(LowerError::UnsupportedVariable { kind: "float", name: declaration.name.clone(), line });
            }
            Type::Set => {
                return Err(LowerError::UnsupportedVariable { kind: "set", name: declaration.name.clone(), line });
            }
            _ => {}
        }
        if items.len() as i64 != length {
            return Err(LowerError::Invalid {
                message: format!(
                    "array {} has {}, its type says {length}",
                    declaration.name,
                    plural(items.len(), "element")
                ),
                line,
            });
        }
        let values = items.iter().map(|item| self.value(item, line)).collect::<Result<Vec<_>, _>>()?;
        if let Some(annotation) = declaration.annotation("output_array") {
            let shape = output_shape(&annotation.arguments, values.len()).map_err(|why| LowerError::Invalid {
                message: format!("{}: output_array {why}", declaration.name),
                line,
            })?;
            self.outputs.push(OutputItem {
                name: declaration.name.clone(),
                is_bool: declaration.element == Type::Bool,
                shape: Some(shape),
                values: values.clone(),
            });
        }
        Ok(values)
    }

    /// A scalar expression: a literal, a scalar's name, or `array[i]`.
    pub(crate) fn value(&self, expr: &Expr, line: u32) -> Result<Value, LowerError> {
        match expr {
            Expr::Int(value) => Ok(Value::Const(*value)),
            Expr::Bool(value) => Ok(Value::Const(i64::from(*value))),
            Expr::Identifier(name, position) => match self.names.get(name) {
                Some(Binding::Scalar(value)) => Ok(*value),
                Some(binding) => Err(LowerError::Invalid {
                    message: format!("{name} is {}, where a single value is expected", describe(binding)),
                    line,
                }),
                None => Err(LowerError::UnknownName { name: name.clone(), position: *position }),
            },
            Expr::Element(name, index, position) => match self.names.get(name) {
                Some(Binding::Array(values)) => usize::try_from(*index - 1)
                    .ok()
                    .and_then(|i| values.get(i).copied())
                    .ok_or_else(|| LowerError::Invalid { message: format!("{name}[{index}] is out of bounds"), line }),
                Some(binding) => {
                    Err(LowerError::Invalid { message: format!("{name} is {}, not an array", describe(binding)), line })
                }
                None => Err(LowerError::UnknownName { name: name.clone(), position: *position }),
            },
            Expr::Float(value, position) => {
                Err(LowerError::UnsupportedFloat { value: format!("{value:?}"), position: *position })
            }
            Expr::FloatRange(lo, hi, position) => {
                Err(LowerError::UnsupportedFloat { value: format!("{lo:?}..{hi:?}"), position: *position })
            }
            _ => Err(LowerError::Invalid { message: "expected a single integer or boolean value".to_string(), line }),
        }
    }

    fn objective(&self, expr: &Expr, line: u32) -> Result<Value, LowerError> {
        self.value(expr, line).map_err(|error| match error {
            LowerError::UnsupportedFloat { .. } => {
                LowerError::UnsupportedGoal { what: "a float objective is not supported".to_string(), line }
            }
            other => other,
        })
    }
}

/// Whether every value of `inner` is in `outer` (by the bounds when `outer`
/// is a range, so that wide domains are not enumerated).
fn within(inner: &Domain, outer: &Domain) -> bool {
    let (Some(lo), Some(hi), Some(min), Some(max)) = (outer.min(), outer.max(), inner.min(), inner.max()) else {
        return false;
    };
    let outer_is_range = i128::from(hi) - i128::from(lo) + 1 == i128::from(outer.size());
    if outer_is_range {
        return lo <= min && max <= hi;
    }
    inner.size() <= outer.size() && inner.iter().all(|v| outer.contains(v))
}

pub(crate) fn model_error(error: csp::ModelError, line: u32) -> LowerError {
    LowerError::Model { message: error.to_string(), line }
}

fn invalid_value(declaration: &Declaration) -> LowerError {
    LowerError::Invalid {
        message: format!("{} has a value that does not fit its type", declaration.name),
        line: declaration.position.line,
    }
}

fn describe(binding: &Binding) -> &'static str {
    match binding {
        Binding::Scalar(_) => "a single value",
        Binding::Array(_) => "an array",
        Binding::Set(_) => "a set",
        Binding::SetArray(_) => "an array of sets",
        Binding::Other(kind) => kind,
    }
}

/// The domain of a `var int` declared without one: the engine's whole range,
/// `-2^62..=2^62`, kept as an interval (two bounds, split by the search).
/// MiniZinc's integers are 64-bit, so a solution with a value between `2^62`
/// and `2^63` is out of reach: fzn-csp's "unsatisfiable" means "none within
/// `±2^62`" for such a model.
pub(crate) fn unbounded() -> Domain {
    Domain::range(-csp::MAX_VALUE, csp::MAX_VALUE)
}

pub(crate) fn domain_of(set: &SetLiteral) -> Domain {
    match set {
        SetLiteral::Range(lo, hi) => Domain::range(*lo, *hi),
        SetLiteral::Values(values) => Domain::values(values.iter().copied()),
    }
}

/// The index sets of `output_array([1..2, 1..3])`, if they hold `length`
/// values; else what is wrong with them.
fn output_shape(arguments: &[Expr], length: usize) -> Result<Vec<(i64, i64)>, String> {
    let [Expr::Array(ranges)] = arguments else { return Err("takes one list of ranges".into()) };
    if ranges.is_empty() {
        return Err("has no range".into());
    }
    let mut shape = Vec::with_capacity(ranges.len());
    // Checked: a few ranges as wide as i64 overflow even 128 bits.
    let mut total: Option<u128> = Some(1);
    for range in ranges {
        let (lo, hi) = match range {
            Expr::Set(SetLiteral::Range(lo, hi)) => (*lo, *hi),
            Expr::Set(SetLiteral::Values(values)) if values.is_empty() => (1, 0),
            _ => return Err("takes ranges `lo..hi` only".into()),
        };
        let size = (i128::from(hi) - i128::from(lo) + 1).max(0).unsigned_abs();
        total = total.and_then(|total| total.checked_mul(size));
        shape.push((lo, hi));
    }
    if shape.iter().any(|&(lo, hi)| lo > hi) {
        total = Some(0);
    }
    match total {
        Some(total) if total == length as u128 => Ok(shape),
        Some(total) => Err(format!("ranges hold {total} elements, the array has {length}")),
        None => Err(format!("ranges hold more than 2^128 elements, the array has {length}")),
    }
}

/// `n` and the noun, plural unless `n` is 1: `1 argument`, `3 arguments`.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}
