//! Symbolic variables (`type="symbolic"`): each symbol stands for an
//! integer code ([`Variables::symbol_code`](crate::Variables), in the order
//! the file first names them), and a solution shows the symbols again.
//!
//! Symbols mean nothing but themselves, so a symbolic variable takes part
//! only where its codes cannot be read as numbers: `intension` comparing
//! symbolic variables and symbols by `eq`, `ne`, `in` and `notin` (the
//! symbols' own operators; any arithmetic or order over them is refused),
//! `extension` (symbols in its columns), `allDifferent` and `allEqual` over
//! symbolic variables only, `instantiation`, and `count`, `nValues`,
//! `cardinality` and `element` whose lists and values are all symbolic
//! ([`Lowering::sorted_items`]) and whose counts, conditions and indices
//! are integers ([`Lowering::integer_items`]). A symbolic variable in any
//! other constraint or in the objective is refused, naming it: the
//! constraints each of those posted are checked ([`Lowering::no_symbolic`]).

use csp::VarId;

use super::Lowering;
use super::linear::Linear;
use super::terms::Item;
use crate::error::Error;
use crate::expression::{Expr, Operator};
use crate::text;

/// The constraints a symbolic variable may take part in.
pub(super) const SYMBOLIC: [&str; 9] = [
    "intension",
    "extension",
    "allDifferent",
    "allEqual",
    "instantiation",
    "count",
    "nValues",
    "cardinality",
    "element",
];

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

    /// The items of a list and whether they are symbolic: symbolic
    /// variables and symbols (as their codes, a symbol no domain holds
    /// given a code no variable takes), or integers, integer variables and
    /// expressions over them; a list of both is refused (`what` names the
    /// constraint), and so is an expression over a symbol.
    pub(super) fn sorted_items(&mut self, text: &str, what: &str) -> Result<(Vec<Item>, bool), Error> {
        let (mut symbols, mut integers) = (false, false);
        let mut items = Vec::new();
        for token in text.split_whitespace() {
            if self.variables.has_symbols() && !self.variables.names_variables(token) && text::is_symbol(token) {
                items.push(Item::Int(self.variables.symbol_code(token)));
                symbols = true;
                continue;
            }
            for item in self.items(token)? {
                match &item {
                    Item::Var(var) if self.variables.is_symbolic(*var) => symbols = true,
                    Item::Expr(expr) => {
                        if let Some(leaf) = self.symbolic_leaf(expr)? {
                            return Err(self.unsupported(format!(
                                "the symbol or symbolic variable '{leaf}' in the expression '{expr}' in {what}"
                            )));
                        }
                        integers = true;
                    }
                    _ => integers = true,
                }
                items.push(item);
            }
        }
        if symbols && integers {
            return Err(self.unsupported(format!("{what} over symbols and integers together")));
        }
        Ok((items, symbols))
    }

    /// The items of a list as variables, and whether they are symbolic
    /// ([`Self::sorted_items`]).
    pub(super) fn sorted_vars(&mut self, text: &str, what: &str) -> Result<(Vec<VarId>, bool), Error> {
        let (items, symbolic) = self.sorted_items(text, what)?;
        let vars = items.into_iter().map(|item| self.item_var(item)).collect::<Result<_, _>>()?;
        Ok((vars, symbolic))
    }

    /// The items of a list as integer expressions (codes for symbols), and
    /// whether they are symbolic ([`Self::sorted_items`]).
    pub(super) fn sorted_linears(&mut self, text: &str, what: &str) -> Result<(Vec<Linear>, bool), Error> {
        let (items, symbolic) = self.sorted_items(text, what)?;
        let linears = items.into_iter().map(|item| self.item_linear(item)).collect::<Result<_, _>>()?;
        Ok((linears, symbolic))
    }

    /// The items of `text`, none of them a symbol or symbolic variable
    /// (`what` names where, for the refusal).
    pub(super) fn integer_items(&mut self, text: &str, what: &str) -> Result<Vec<Item>, Error> {
        let (items, symbolic) = self.sorted_items(text, what)?;
        if symbolic {
            return Err(self.unsupported(format!("a symbol or symbolic variable in {what} (codes are not numbers)")));
        }
        Ok(items)
    }

    /// The one item of `text` and whether it is symbolic ([`Self::sorted_items`]).
    pub(super) fn sorted_item(&mut self, text: &str, what: &str) -> Result<(Item, bool), Error> {
        let (mut items, symbolic) = self.sorted_items(text, what)?;
        if items.len() != 1 {
            return Err(self.invalid(format!(
                "expected one variable or value, found {} in '{}'",
                items.len(),
                text.trim()
            )));
        }
        Ok((items.remove(0), symbolic))
    }

    /// Refuses `second` of another sort than `first` (neither empty), as
    /// `what`.
    pub(super) fn same_sort(&self, first: (usize, bool), second: (usize, bool), what: &str) -> Result<(), Error> {
        if first.0 > 0 && second.0 > 0 && first.1 != second.1 {
            let sorts = if first.1 { "symbols and integers" } else { "integers and symbols" };
            return Err(self.unsupported(format!("{what} over {sorts} together")));
        }
        Ok(())
    }

    /// The first leaf of an expression that is a symbol or a symbolic variable.
    fn symbolic_leaf(&self, expr: &Expr) -> Result<Option<String>, Error> {
        match expr {
            Expr::Call(_, operands) => {
                for operand in operands {
                    if let Some(leaf) = self.symbolic_leaf(operand)? {
                        return Ok(Some(leaf));
                    }
                }
                Ok(None)
            }
            leaf => Ok((self.leaf_sort(leaf)? == Sort::Symbol).then(|| leaf.to_string())),
        }
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
