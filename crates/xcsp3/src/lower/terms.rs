//! What the constraints share: the items of a list (variables, array
//! slices, integers, expressions), constants and expressions turned into
//! variables when the engine wants variables (a fixed variable per constant,
//! an auxiliary variable per expression), and XCSP3 conditions
//! `(operator,operand)` posted on an integer expression.

use csp::{Condition, Domain, MAX_VALUE, Relation, VarId};

use super::Lowering;
use super::linear::Linear;
use crate::error::Error;
use crate::expression::{self, Expr};
use crate::text;

/// One item of a list.
#[derive(Clone, Debug)]
pub(super) enum Item {
    Var(VarId),
    Int(i64),
    Expr(Expr),
}

impl Lowering<'_, '_> {
    /// The items of a list: variable references expanded (`x[]` gives every
    /// cell), integers, and expressions (`add(x[0],1)`).
    pub(super) fn items(&self, text: &str) -> Result<Vec<Item>, Error> {
        let mut items = Vec::new();
        for token in text.split_whitespace() {
            if token.contains('(') {
                let expr = expression::parse(token).map_err(|e| self.expression_error(token, &e))?;
                items.push(Item::Expr(expr));
            } else if self.variables.names_variables(token) {
                let vars = self.variables.resolve(token).map_err(|m| self.invalid(m))?;
                items.extend(vars.into_iter().map(Item::Var));
            } else if token.starts_with(|c: char| c == '-' || c == '+' || c.is_ascii_digit()) {
                let (value, times) = text::repeated_integer(token).map_err(|m| self.text_error(m))?;
                text::check_expansion(items.len(), times).map_err(|m| self.text_error(m))?;
                items.extend(std::iter::repeat_n(Item::Int(value), times));
            } else {
                return Err(self.invalid(format!("'{token}' is not a declared variable")));
            }
        }
        Ok(items)
    }

    /// A parse error of an expression as an [`Error`].
    pub(super) fn expression_error(&self, text: &str, error: &expression::ExprError) -> Error {
        let near = text::preview(&text[error.offset.min(text.len())..]);
        if error.unsupported {
            self.unsupported(format!("{} (near '{near}')", error.message))
        } else {
            self.invalid(format!("in the expression '{}': {} (near '{near}')", text::preview(text), error.message))
        }
    }

    /// The items of a list as variables.
    pub(super) fn vars(&mut self, text: &str) -> Result<Vec<VarId>, Error> {
        let items = self.items(text)?;
        items.into_iter().map(|item| self.item_var(item)).collect()
    }

    /// The items of a list as integer expressions.
    pub(super) fn linears(&mut self, text: &str) -> Result<Vec<Linear>, Error> {
        let items = self.items(text)?;
        items.into_iter().map(|item| self.item_linear(item)).collect()
    }

    pub(super) fn item_linear(&mut self, item: Item) -> Result<Linear, Error> {
        match item {
            Item::Var(var) => Ok(Linear::var(var)),
            Item::Int(value) => Ok(Linear::constant(i128::from(value))),
            Item::Expr(expr) => self.integer(&expr),
        }
    }

    pub(super) fn item_var(&mut self, item: Item) -> Result<VarId, Error> {
        let linear = self.item_linear(item)?;
        self.var_of(&linear)
    }

    /// A list of integers only (`<coeffs>`, `<values>`, `<except>` ...).
    pub(super) fn integers(&self, text: &str) -> Result<Vec<i64>, Error> {
        text::integers(text).map_err(|m| self.text_error(m))
    }

    /// A fixed variable for a constant, one per value.
    pub(super) fn fixed(&mut self, value: i128) -> Result<VarId, Error> {
        let value = in_range(value).ok_or_else(|| self.unsupported(format!("the value {value}, beyond ±2^62")))?;
        if let Some(&var) = self.constants.get(&value) {
            return Ok(var);
        }
        let var = self.model.new_var(value..=value).map_err(|e| self.model_error(&e))?;
        self.constants.insert(value, var);
        Ok(var)
    }

    /// A variable equal to `linear`: the variable itself, a fixed variable,
    /// or a new auxiliary variable over the expression's bounds.
    pub(super) fn var_of(&mut self, linear: &Linear) -> Result<VarId, Error> {
        if let Some(var) = linear.as_var() {
            return Ok(var);
        }
        if let Some(value) = linear.as_constant() {
            return self.fixed(value);
        }
        let (low, high) = self.bounds(linear)?;
        let aux = self.auxiliary(low, high)?;
        self.define(aux, linear)?;
        Ok(aux)
    }

    /// Posts `var = value` for a new auxiliary variable: a definition, posted
    /// even while a reified constraint is lowered (it holds whatever the
    /// reifying literal is), unlike a requirement ([`Self::post_compare`]).
    pub(super) fn define(&mut self, var: VarId, value: &Linear) -> Result<(), Error> {
        let difference = Linear::var(var).minus(value).ok_or_else(|| self.overflow())?;
        let condition = self.compare_condition(&difference, Relation::Eq);
        self.model.add(condition).map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// The bounds of an expression, which must lie within `±2^62`.
    pub(super) fn bounds(&self, linear: &Linear) -> Result<(i64, i64), Error> {
        let (low, high) = linear.bounds(&self.model).ok_or_else(|| self.overflow())?;
        match (in_range(low), in_range(high)) {
            (Some(low), Some(high)) => Ok((low, high)),
            _ => Err(self.unsupported(format!("an intermediate value between {low} and {high}, beyond ±2^62"))),
        }
    }

    /// A new auxiliary variable over `low..=high`.
    pub(super) fn auxiliary(&mut self, low: i64, high: i64) -> Result<VarId, Error> {
        self.model.new_var(low..=high).map_err(|e| self.model_error(&e))
    }

    pub(super) fn overflow(&self) -> Error {
        self.unsupported("an expression whose coefficients go beyond 128 bits")
    }

    /// Requires `linear relation 0` ([`Self::require`]); over constants
    /// only, decides it instead.
    pub(super) fn post_compare(&mut self, linear: Linear, relation: Relation) -> Result<(), Error> {
        if let Some(value) = linear.as_constant() {
            if !holds(value, relation) {
                self.fail(format!("a constraint over constants fails ({value} {} 0)", relation_symbol(relation)));
            }
            return Ok(());
        }
        let condition = self.compare_condition(&linear, relation);
        self.require(condition)
    }

    /// The condition `linear relation 0` (with at least one variable).
    pub(super) fn compare_condition(&self, linear: &Linear, relation: Relation) -> Condition {
        linear.to_expr().compare(relation, 0)
    }

    /// Reads the XCSP3 condition `(operator,operand)`: the operand an
    /// integer, a variable, or for `in` and `notin` a range `a..b` or a set
    /// `{a,b,...}`.
    fn read_condition(&mut self, condition: &str) -> Result<Test, Error> {
        let (operator, operand) = text::condition(condition).map_err(|m| self.invalid(m))?;
        let relation = match operator {
            "lt" => Relation::Lt,
            "le" => Relation::Le,
            "ge" => Relation::Ge,
            "gt" => Relation::Gt,
            "eq" => Relation::Eq,
            "ne" => Relation::Ne,
            "in" | "notin" => {
                let values = set_values(operand).map_err(|m| self.text_error(m))?;
                return Ok(Test::Member { values, inside: operator == "in", operand: operand.to_string() });
            }
            other => return Err(self.invalid(format!("'{other}' is not an operator of a condition"))),
        };
        let rhs = match self.integer_items(operand, &format!("the condition {}", condition.trim()))?.as_slice() {
            [item] => self.item_linear(item.clone())?,
            _ => return Err(self.invalid(format!("the condition's operand '{operand}' is not one value or variable"))),
        };
        Ok(Test::Compare(relation, rhs))
    }

    /// Posts the XCSP3 condition `(operator,operand)` on `lhs`: `lhs
    /// operator operand` ([`Self::read_condition`]).
    pub(super) fn post_condition(&mut self, lhs: Linear, condition: &str) -> Result<(), Error> {
        match self.read_condition(condition)? {
            Test::Compare(relation, rhs) => {
                let difference = lhs.minus(&rhs).ok_or_else(|| self.overflow())?;
                self.post_compare(difference, relation)
            }
            Test::Member { values, inside, operand } => self.post_membership(lhs, &values, &operand, inside),
        }
    }

    /// A literal for the XCSP3 condition `(operator,operand)` on `lhs`;
    /// `None` when it is false over constants (true over constants gives a
    /// literal fixed to 1), as [`Self::compare_literal`].
    pub(super) fn condition_literal(&mut self, lhs: &Linear, condition: &str) -> Result<Option<csp::Lit>, Error> {
        let (values, inside, operand) = match self.read_condition(condition)? {
            Test::Compare(relation, rhs) => return self.compare_literal(lhs.clone().minus(&rhs), relation),
            Test::Member { values, inside, operand } => (values, inside, operand),
        };
        let decided = match lhs.as_constant() {
            Some(value) => Some(contains(&values, value)),
            None if values.is_empty() => Some(false),
            None => None,
        };
        if let Some(member) = decided {
            return if member == inside { self.true_literal().map(Some) } else { Ok(None) };
        }
        let var = self.var_of(lhs)?;
        let condition = self.set_condition(var, &values, &operand, inside)?;
        self.model.reified(condition).map(Some).map_err(|e| self.model_error(&e))
    }

    /// A literal fixed to true.
    pub(super) fn true_literal(&mut self) -> Result<csp::Lit, Error> {
        Ok(csp::Lit::positive(self.fixed(1)?))
    }

    fn post_membership(
        &mut self,
        lhs: Linear,
        values: &[(i64, i64)],
        operand: &str,
        inside: bool,
    ) -> Result<(), Error> {
        if let Some(value) = lhs.as_constant() {
            let member = contains(values, value);
            if member != inside {
                self.fail(format!("the constant {value} is {} {operand}", if inside { "not in" } else { "in" }));
            }
            return Ok(());
        }
        if values.is_empty() {
            if inside {
                self.fail(format!("nothing is in the empty set {operand}"));
            }
            return Ok(());
        }
        let var = self.var_of(&lhs)?;
        let condition = self.set_condition(var, values, operand, inside)?;
        self.require(condition)
    }

    /// `var` in (or not in) sorted disjoint ranges, at least one, written `operand`.
    fn set_condition(
        &self,
        var: VarId,
        values: &[(i64, i64)],
        operand: &str,
        inside: bool,
    ) -> Result<Condition, Error> {
        if text::count(values) > 10_000_000 {
            return Err(self.unsupported(format!("a set of more than 10000000 values ({operand})")));
        }
        let domain = match values {
            &[(low, high)] => Domain::range(low, high),
            _ => Domain::values(values.iter().flat_map(|&(a, b)| a..=b)),
        };
        Ok(if inside { Condition::in_set(var, domain) } else { Condition::not_in_set(var, domain) })
    }
}

/// A condition read ([`Lowering::read_condition`]).
enum Test {
    /// `lhs relation operand`.
    Compare(Relation, Linear),
    /// `lhs` in (`inside`) or not in the sorted disjoint ranges, written `operand`.
    Member { values: Vec<(i64, i64)>, inside: bool, operand: String },
}

/// Whether `value` lies in one of the ranges `values`.
fn contains(values: &[(i64, i64)], value: i128) -> bool {
    i64::try_from(value).is_ok_and(|v| values.iter().any(|&(a, b)| a <= v && v <= b))
}

/// A set operand: `a..b`, `{a,b,c}`, or values and ranges separated by
/// spaces or commas; as sorted disjoint ranges.
fn set_values(operand: &str) -> Result<Vec<(i64, i64)>, String> {
    let inside = operand.trim().trim_start_matches('{').trim_end_matches('}');
    text::ranges(&inside.replace(',', " "))
}

/// `value relation 0`.
pub(super) fn holds(value: i128, relation: Relation) -> bool {
    match relation {
        Relation::Eq => value == 0,
        Relation::Ne => value != 0,
        Relation::Lt => value < 0,
        Relation::Le => value <= 0,
        Relation::Gt => value > 0,
        Relation::Ge => value >= 0,
    }
}

fn relation_symbol(relation: Relation) -> &'static str {
    match relation {
        Relation::Eq => "=",
        Relation::Ne => "!=",
        Relation::Lt => "<",
        Relation::Le => "<=",
        Relation::Gt => ">",
        Relation::Ge => ">=",
    }
}

/// The value as an `i64` within `±2^62`.
pub(super) fn in_range(value: i128) -> Option<i64> {
    i64::try_from(value).ok().filter(|v| (-MAX_VALUE..=MAX_VALUE).contains(v))
}
