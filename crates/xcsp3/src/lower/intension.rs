//! `<intension>`: an expression of the functional syntax lowered onto the
//! vocabulary, exactly.
//!
//! - Integer expressions are [`Linear`] where they are linear (`add`, `sub`,
//!   `neg`, `mul` by a constant); every other operator gets an auxiliary
//!   variable over the bounds of its value and the engine's relation
//!   (`times`, `div`, `modulo`, `pow`, `abs`, `minimum`, `maximum`; `dist`
//!   is `abs` of a difference, `sqr` a power of 2, `if` two implications).
//! - Comparisons are linear conditions; `in` and `notin` set membership.
//! - Logic goes through literals: a Boolean subexpression is reified
//!   ([`csp::Model::reified`]) unless it is a 0/1 variable or its negation;
//!   `and`, `or`, `xor` are the engine's conditions over literals; `imp`
//!   and `iff` at the top are half and full reification of their right side.
//! - A constraint over constants is decided, never posted.
//!
//! A variable used as a Boolean must have a domain within `{0, 1}`.
//! Partial functions are strict: a division by zero (or a negative power of
//! zero) anywhere in a constraint's expression makes the constraint false
//! for those values, as in the evaluator of [`crate::expression`].

use csp::{Condition, Lit, Relation, VarId};
use roxmltree::Node;

use super::Lowering;
use super::linear::Linear;
use crate::error::Error;
use crate::expression::{self, Expr, Operator};

/// A Boolean expression lowered: a constant, or a condition not yet posted.
enum Truth {
    Constant(bool),
    Condition(Condition),
}

/// A Boolean expression as a literal, or a constant.
#[derive(Clone, Copy)]
enum Literal {
    Constant(bool),
    Lit(Lit),
}

impl<'a, 'i> Lowering<'a, 'i> {
    /// `<intension> expr </intension>` or `<intension><function> expr </function></intension>`.
    pub(super) fn intension(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let text = match self.optional_child(node, "function")? {
            Some(function) => self.text(function)?,
            None => self.text(node)?,
        };
        let expr = expression::parse(&text).map_err(|e| self.expression_error(&text, &e))?;
        self.check_symbols(&expr)?;
        self.symbols_readable = self.variables.has_symbols();
        let posted = self.post_expression(&expr);
        self.symbols_readable = false;
        posted
    }

    /// Posts a Boolean expression as a constraint (requires it, when
    /// reified: its truth as one condition).
    pub(super) fn post_expression(&mut self, expr: &Expr) -> Result<(), Error> {
        if self.is_reifying() {
            let truth = self.truth(expr)?;
            return self.post_truth(truth);
        }
        match expr {
            Expr::Call(Operator::And, operands) => {
                for operand in operands {
                    self.post_expression(operand)?;
                }
                Ok(())
            }
            Expr::Call(Operator::Imp, operands) => {
                let condition = self.truth(&operands[1])?;
                match (self.literal(&operands[0])?, condition) {
                    (Literal::Constant(false), _) | (_, Truth::Constant(true)) => Ok(()),
                    (Literal::Constant(true), condition) => self.post_truth(condition),
                    (Literal::Lit(lit), Truth::Constant(false)) => self.post_truth(Truth::Condition((!lit).into())),
                    (Literal::Lit(lit), Truth::Condition(condition)) => {
                        self.model.implies(lit, condition).map_err(|e| self.model_error(&e))?;
                        Ok(())
                    }
                }
            }
            Expr::Call(Operator::Iff, operands) if operands.len() == 2 => {
                let condition = self.truth(&operands[1])?;
                match (self.literal(&operands[0])?, condition) {
                    (Literal::Constant(truth), condition) => {
                        self.post_truth(if truth { condition } else { negate(condition) })
                    }
                    (Literal::Lit(lit), Truth::Constant(truth)) => {
                        self.post_truth(Truth::Condition((if truth { lit } else { !lit }).into()))
                    }
                    (Literal::Lit(lit), Truth::Condition(condition)) => {
                        self.model.reify(lit, condition).map_err(|e| self.model_error(&e))?;
                        Ok(())
                    }
                }
            }
            _ => {
                let truth = self.truth(expr)?;
                self.post_truth(truth)
            }
        }
    }

    fn post_truth(&mut self, truth: Truth) -> Result<(), Error> {
        match truth {
            Truth::Constant(true) => Ok(()),
            Truth::Constant(false) => {
                self.fail("an intension constraint is false whatever the values");
                Ok(())
            }
            Truth::Condition(condition) => self.require(condition),
        }
    }

    /// A Boolean expression as a condition (or a constant).
    fn truth(&mut self, expr: &Expr) -> Result<Truth, Error> {
        let Expr::Call(op, operands) = expr else {
            return Ok(match self.literal(expr)? {
                Literal::Constant(truth) => Truth::Constant(truth),
                Literal::Lit(lit) => Truth::Condition(lit.into()),
            });
        };
        let relation = match op {
            Operator::Lt => Some(Relation::Lt),
            Operator::Le => Some(Relation::Le),
            Operator::Ge => Some(Relation::Ge),
            Operator::Gt => Some(Relation::Gt),
            Operator::Ne => Some(Relation::Ne),
            Operator::Eq if operands.len() == 2 => Some(Relation::Eq),
            _ => None,
        };
        if let Some(relation) = relation {
            let difference = self.difference(&operands[0], &operands[1])?;
            if let Some(value) = difference.as_constant() {
                return Ok(Truth::Constant(super::terms::holds(value, relation)));
            }
            return Ok(Truth::Condition(self.compare_condition(&difference, relation)));
        }
        match op {
            Operator::Eq | Operator::Iff => {
                // All equal: each consecutive pair.
                let pairs: Vec<Expr> = operands
                    .windows(2)
                    .map(|pair| {
                        Expr::Call(Operator::Eq, vec![boolean_value(*op, &pair[0]), boolean_value(*op, &pair[1])])
                    })
                    .collect();
                self.conjunction(&pairs)
            }
            Operator::In | Operator::NotIn => self.membership(&operands[0], &operands[1], *op == Operator::In),
            Operator::Not => Ok(negate(self.truth(&operands[0])?)),
            Operator::And => self.conjunction(operands),
            Operator::Or => {
                let literals = self.literals(operands, true)?;
                Ok(match literals {
                    None => Truth::Constant(true),
                    Some(literals) if literals.is_empty() => Truth::Constant(false),
                    Some(literals) => Truth::Condition(Condition::or(&literals)),
                })
            }
            Operator::Xor => {
                let mut odd = false;
                let mut literals = Vec::new();
                for operand in operands {
                    match self.literal(operand)? {
                        Literal::Constant(truth) => odd ^= truth,
                        Literal::Lit(lit) => literals.push(lit),
                    }
                }
                Ok(match (literals.is_empty(), odd) {
                    (true, odd) => Truth::Constant(odd),
                    // An even number of the others are true: xor(l1, ..., !ln).
                    (false, true) => {
                        let last = literals.len() - 1;
                        literals[last] = !literals[last];
                        Truth::Condition(Condition::xor(&literals))
                    }
                    (false, false) => Truth::Condition(Condition::xor(&literals)),
                })
            }
            Operator::Imp => {
                let premise = negated(&operands[0]);
                self.truth(&Expr::Call(Operator::Or, vec![premise, operands[1].clone()]))
            }
            _ => {
                // An integer operator in a Boolean place: its value must be 0 or 1.
                let literal = self.literal(expr)?;
                Ok(match literal {
                    Literal::Constant(truth) => Truth::Constant(truth),
                    Literal::Lit(lit) => Truth::Condition(lit.into()),
                })
            }
        }
    }

    /// Every operand holds.
    fn conjunction(&mut self, operands: &[Expr]) -> Result<Truth, Error> {
        Ok(match self.literals(operands, false)? {
            None => Truth::Constant(false),
            Some(literals) if literals.is_empty() => Truth::Constant(true),
            Some(literals) => Truth::Condition(Condition::and(&literals)),
        })
    }

    /// The literals of operands whose constants are dropped when they are
    /// `!absorbing`; `None` when one is the absorbing constant.
    fn literals(&mut self, operands: &[Expr], absorbing: bool) -> Result<Option<Vec<Lit>>, Error> {
        let mut literals = Vec::with_capacity(operands.len());
        for operand in operands {
            match self.literal(operand)? {
                Literal::Constant(truth) if truth == absorbing => return Ok(None),
                Literal::Constant(_) => {}
                Literal::Lit(lit) => literals.push(lit),
            }
        }
        Ok(Some(literals))
    }

    /// `x in set(...)` (or not in).
    fn membership(&mut self, x: &Expr, set: &Expr, inside: bool) -> Result<Truth, Error> {
        let Expr::Call(Operator::Set, members) = set else {
            return Err(self.invalid("the second operand of in/notin must be set(...)"));
        };
        let mut values = Vec::with_capacity(members.len());
        for member in members {
            match self.integer(member)?.as_constant() {
                Some(value) => values.push(value),
                None => {
                    // A member that is not a constant: x equals one of them.
                    let alternatives =
                        members.iter().map(|m| Expr::Call(Operator::Eq, vec![x.clone(), m.clone()])).collect();
                    let any = Expr::Call(Operator::Or, alternatives);
                    let truth = self.truth(&any)?;
                    return Ok(if inside { truth } else { negate(truth) });
                }
            }
        }
        let x = self.integer(x)?;
        if let Some(value) = x.as_constant() {
            return Ok(Truth::Constant(values.contains(&value) == inside));
        }
        let values: Vec<i64> = values.into_iter().filter_map(super::terms::in_range).collect();
        if values.is_empty() {
            return Ok(Truth::Constant(!inside));
        }
        let var = self.var_of(&x)?;
        Ok(Truth::Condition(if inside { Condition::in_set(var, values) } else { Condition::not_in_set(var, values) }))
    }

    /// A Boolean expression as a literal (or a constant): a 0/1 variable is
    /// its own literal, `not` negates, anything else is reified.
    fn literal(&mut self, expr: &Expr) -> Result<Literal, Error> {
        match expr {
            Expr::Int(value @ (0 | 1)) => Ok(Literal::Constant(*value == 1)),
            Expr::Int(value) => Err(self.invalid(format!("the integer {value} is used as a Boolean"))),
            Expr::Var(_) => {
                let var = self.integer(expr)?.as_var().expect("a variable is its own expression");
                Ok(Literal::Lit(self.boolean_var(var)?))
            }
            Expr::Call(Operator::Not, operands) => Ok(match self.literal(&operands[0])? {
                Literal::Constant(truth) => Literal::Constant(!truth),
                Literal::Lit(lit) => Literal::Lit(!lit),
            }),
            Expr::Call(op, _) if op.is_boolean() => match self.truth(expr)? {
                Truth::Constant(truth) => Ok(Literal::Constant(truth)),
                Truth::Condition(condition) => {
                    let lit = self.model.reified(condition).map_err(|e| self.model_error(&e))?;
                    Ok(Literal::Lit(lit))
                }
            },
            Expr::Call(..) => {
                let value = self.integer(expr)?;
                match value.as_constant() {
                    Some(v @ (0 | 1)) => Ok(Literal::Constant(v == 1)),
                    Some(v) => Err(self.invalid(format!("'{expr}' is used as a Boolean but its value is {v}"))),
                    None => {
                        let var = self.var_of(&value)?;
                        Ok(Literal::Lit(self.boolean_var(var)?))
                    }
                }
            }
        }
    }

    /// The positive literal of a variable whose domain is within `{0, 1}`.
    pub(super) fn boolean_var(&self, var: VarId) -> Result<Lit, Error> {
        let domain = self.model.domain(var);
        let boolean = domain.is_some_and(|d| d.min().is_some_and(|m| m >= 0) && d.max().is_some_and(|m| m <= 1));
        if !boolean {
            let shown = domain.map_or(String::new(), ToString::to_string);
            return Err(self.invalid(format!(
                "{} is used as a Boolean but its domain {shown} is not within {{0, 1}}",
                self.model.display_name(var)
            )));
        }
        Ok(Lit::positive(var))
    }

    /// `a - b` as an integer expression.
    fn difference(&mut self, a: &Expr, b: &Expr) -> Result<Linear, Error> {
        let a = self.integer(a)?;
        let b = self.integer(b)?;
        a.minus(&b).ok_or_else(|| self.overflow())
    }

    /// An integer expression (a Boolean one counts as its 0/1 value).
    pub(super) fn integer(&mut self, expr: &Expr) -> Result<Linear, Error> {
        let operands = match expr {
            Expr::Int(value) => return Ok(Linear::constant(i128::from(*value))),
            Expr::Var(name) => {
                if let Some(var) = self.variables.single(name).map_err(|m| self.invalid(m))? {
                    return Ok(Linear::var(var));
                }
                return self
                    .symbol_constant(name)
                    .ok_or_else(|| self.invalid(format!("'{name}' is not a declared variable")));
            }
            Expr::Call(op, _) if op.is_boolean() => {
                return Ok(match self.literal(expr)? {
                    Literal::Constant(truth) => Linear::constant(i128::from(truth)),
                    Literal::Lit(lit) => Linear::literal(lit),
                });
            }
            Expr::Call(Operator::If, operands) => {
                let then = self.integer(&operands[1])?;
                let otherwise = self.integer(&operands[2])?;
                return match self.literal(&operands[0])? {
                    Literal::Constant(truth) => Ok(if truth { then } else { otherwise }),
                    Literal::Lit(lit) => self.if_then_else(lit, &then, &otherwise),
                };
            }
            Expr::Call(_, operands) => operands,
        };
        let Expr::Call(op, _) = expr else { unreachable!("matched above") };
        let values = operands.iter().map(|operand| self.integer(operand)).collect::<Result<Vec<Linear>, Error>>()?;
        self.arithmetic(*op, values)
    }
}

/// The negation of a lowered Boolean.
fn negate(truth: Truth) -> Truth {
    match truth {
        Truth::Constant(truth) => Truth::Constant(!truth),
        Truth::Condition(condition) => Truth::Condition(!condition),
    }
}

/// `not(expr)`, simplified when `expr` is itself a `not`.
fn negated(expr: &Expr) -> Expr {
    match expr {
        Expr::Call(Operator::Not, operands) => operands[0].clone(),
        _ => Expr::Call(Operator::Not, vec![expr.clone()]),
    }
}

/// An operand of `eq` as it is compared; for `iff`, its truth value, so that
/// `iff(x, y)` compares the Booleans (a non-Boolean is refused there).
fn boolean_value(op: Operator, operand: &Expr) -> Expr {
    match op {
        Operator::Iff => Expr::Call(Operator::Not, vec![Expr::Call(Operator::Not, vec![operand.clone()])]),
        _ => operand.clone(),
    }
}
