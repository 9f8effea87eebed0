//! Symbolic variables (`type="symbolic"`): each symbol stands for an
//! integer code ([`Variables::symbol_code`](crate::Variables), in the order
//! the file first names them), and a solution shows the symbols again.
//!
//! Symbols mean nothing but themselves, so a symbolic variable takes part
//! only where its codes cannot be read as numbers: `intension` comparing
//! symbolic variables and symbols by `eq`, `ne`, `in` and `notin` (the
//! symbols' own operators; any arithmetic or order over them is refused),
//! `extension` (symbols in its columns), `allDifferent` and `allEqual` over
//! symbolic variables only, and `instantiation`. A symbolic variable in any
//! other constraint or in the objective is refused, naming it: the
//! constraints each of those posted are checked ([`Lowering::no_symbolic`]).

use csp::VarId;

use super::Lowering;
use super::linear::Linear;
use crate::error::Error;
use crate::expression::{Expr, Operator};
use crate::text;

/// The constraints a symbolic variable may take part in.
pub(super) const SYMBOLIC: [&str; 5] = ["intension", "extension", "allDifferent", "allEqual", "instantiation"];

/// What an expression's value is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sort {
    Integer,
    Symbol,
}

impl<'a, 'i> Lowering<'a, 'i> {
    /// Refuses a symbolic variable in the scope of a constraint posted since
    /// the model had `before` constraints, by `what`.
    pub(super) fn no_symbolic(&self, before: usize, what: &str) -> Result<(), Error> {
        for index in before..self.model.num_constraints() {
            let Some(id) = self.model.constraint_at(index) else { continue };
            let Some(constraint) = self.model.constraint(id) else { continue };
            if let Some(&var) = constraint.scope().iter().find(|&&var| self.variables.is_symbolic(var)) {
                return Err(self.unsupported(format!(
                    "the symbolic variable {} in {what} (symbols are compared by eq, ne, in and notin only)",
                    self.model.display_name(var)
                )));
            }
        }
        Ok(())
    }

    /// Checks that an intension expression uses symbols only as operands of
    /// `eq`, `ne`, `in` and `notin`, each of which compares symbols only.
    pub(super) fn check_symbols(&self, expr: &Expr) -> Result<(), Error> {
        match self.sort(expr)? {
            Sort::Symbol => Err(self.unsupported(format!("the symbol or symbolic variable '{expr}' as a condition"))),
            Sort::Integer => Ok(()),
        }
    }

    fn sort(&self, expr: &Expr) -> Result<Sort, Error> {
        let Expr::Call(op, operands) = expr else { return self.leaf_sort(expr) };
        let compared: Vec<&Expr> = match (op, operands.as_slice()) {
            (Operator::Eq | Operator::Ne, _) => operands.iter().collect(),
            (Operator::In | Operator::NotIn, [x, Expr::Call(Operator::Set, members)]) => {
                std::iter::once(x).chain(members).collect()
            }
            _ => Vec::new(),
        };
        let mut sorts = Vec::with_capacity(compared.len());
        for operand in &compared {
            sorts.push(self.sort(operand)?);
        }
        if sorts.contains(&Sort::Symbol) {
            if let Some(other) =
                compared.iter().find(|e| !matches!(e, Expr::Var(_)) || self.leaf_sort(e).ok() != Some(Sort::Symbol))
            {
                return Err(self.unsupported(format!(
                    "'{other}' compared with a symbol by {} (a symbol compares with symbols and symbolic variables only)",
                    op.name()
                )));
            }
            return Ok(Sort::Integer);
        }
        if compared.is_empty() {
            for operand in operands {
                if self.sort(operand)? == Sort::Symbol {
                    return Err(self.unsupported(format!(
                        "the operator {} over the symbol or symbolic variable '{operand}' (only eq, ne, in and notin take symbols)",
                        op.name()
                    )));
                }
            }
        }
        Ok(Sort::Integer)
    }

    /// A leaf's sort: a symbolic variable or a symbol, or an integer.
    fn leaf_sort(&self, expr: &Expr) -> Result<Sort, Error> {
        let Expr::Var(name) = expr else { return Ok(Sort::Integer) };
        let symbol = self.variables.symbol(name).is_some();
        match self.variables.single(name) {
            Ok(Some(_)) if symbol => {
                Err(self.invalid(format!("'{name}' is both a variable and a symbol of a symbolic domain")))
            }
            Ok(Some(var)) if self.variables.is_symbolic(var) => Ok(Sort::Symbol),
            Ok(Some(_)) => Ok(Sort::Integer),
            _ if symbol => Ok(Sort::Symbol),
            // In an instance with symbols, a name no variable has is a
            // symbol too (one no domain holds, which no variable takes).
            _ if self.variables.has_symbols() && text::is_symbol(name) => Ok(Sort::Symbol),
            _ => Ok(Sort::Integer),
        }
    }

    /// The code of a symbol in an expression, while symbols may stand for
    /// their codes ([`Self::intension`] after [`Self::check_symbols`]).
    pub(super) fn symbol_constant(&mut self, name: &str) -> Option<Linear> {
        if !self.symbols_readable || !text::is_symbol(name) {
            return None;
        }
        Some(Linear::constant(i128::from(self.variables.symbol_code(name))))
    }

    /// Whether any of `vars` is symbolic; if one is, every one must be
    /// (`what` names the constraint for the refusal).
    pub(super) fn all_symbolic(&self, vars: &[Linear], what: &str) -> Result<bool, Error> {
        let symbolic = |v: &Linear| v.as_var().is_some_and(|var| self.variables.is_symbolic(var));
        let any = vars.iter().any(|v| v.terms.iter().any(|&(_, var)| self.variables.is_symbolic(var)));
        if any && !vars.iter().all(symbolic) {
            return Err(self.unsupported(format!("{what} over symbolic variables and other items")));
        }
        Ok(any)
    }

    /// A value written for `var`: a symbol's code for a symbolic variable
    /// (a symbol no domain holds gets a code no variable takes), an integer
    /// otherwise.
    pub(super) fn value_for(&mut self, var: VarId, token: &str) -> Result<i64, Error> {
        if !self.variables.is_symbolic(var) {
            if text::is_symbol(token) {
                return Err(self.invalid(format!(
                    "the symbol '{token}' for the integer variable {}",
                    self.model.display_name(var)
                )));
            }
            return text::integer(token).map_err(|m| self.text_error(m));
        }
        if !text::is_symbol(token) {
            return Err(self.invalid(format!(
                "'{token}' for the symbolic variable {} is not a symbol",
                self.model.display_name(var)
            )));
        }
        Ok(self.variables.symbol_code(token))
    }
}
