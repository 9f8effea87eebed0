//! The registry: each FlatZinc builtin that fzn-csp lowers, its arity, and
//! the one small function that posts it. A builtin not listed here is an
//! error that names it ("constraint int_times (line 12) is not supported by
//! fzn-csp yet"); a builtin listed here may still refuse a form it cannot
//! express exactly (`int_lin_ne` over three variables), with the same error
//! and the form in parentheses.
//!
//! The mznlib (`crates/flatzinc/mznlib/`) declares the globals among these
//! (`fzn_*`) so that MiniZinc hands them over instead of decomposing them; a
//! test checks that every predicate it declares is here.

use crate::ast::ConstraintItem;
use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, boolean, globals, integer};

/// How a builtin is posted.
type LowerFn = fn(&mut Lowering, Call<'_>) -> Result<(), LowerError>;

struct Builtin {
    name: &'static str,
    /// The numbers of arguments it takes.
    arities: &'static [usize],
    lower: LowerFn,
}

/// The builtins, sorted by name (a test checks it), for a binary search.
const BUILTINS: &[Builtin] = &[
    Builtin { name: "array_bool_and", arities: &[2], lower: boolean::array_and },
    Builtin { name: "array_bool_or", arities: &[2], lower: boolean::array_or },
    Builtin { name: "bool2int", arities: &[2], lower: integer::eq },
    Builtin { name: "bool_and", arities: &[3], lower: boolean::and },
    Builtin { name: "bool_clause", arities: &[2], lower: boolean::clause },
    Builtin { name: "bool_clause_reif", arities: &[3], lower: boolean::clause_reif },
    Builtin { name: "bool_eq", arities: &[2], lower: integer::eq },
    Builtin { name: "bool_eq_reif", arities: &[3], lower: boolean::eq_reif },
    Builtin { name: "bool_le", arities: &[2], lower: integer::le },
    Builtin { name: "bool_le_reif", arities: &[3], lower: boolean::le_reif },
    Builtin { name: "bool_lin_eq", arities: &[3], lower: boolean::lin_eq },
    Builtin { name: "bool_lin_le", arities: &[3], lower: integer::lin_le },
    Builtin { name: "bool_lt", arities: &[2], lower: integer::lt },
    Builtin { name: "bool_lt_reif", arities: &[3], lower: boolean::lt_reif },
    Builtin { name: "bool_not", arities: &[2], lower: integer::ne },
    Builtin { name: "bool_or", arities: &[3], lower: boolean::or },
    Builtin { name: "bool_xor", arities: &[2, 3], lower: boolean::xor },
    Builtin { name: "fzn_all_different_int", arities: &[1], lower: globals::all_different },
    Builtin { name: "fzn_table_bool", arities: &[2], lower: globals::table },
    Builtin { name: "fzn_table_int", arities: &[2], lower: globals::table },
    Builtin { name: "int_eq", arities: &[2], lower: integer::eq },
    Builtin { name: "int_le", arities: &[2], lower: integer::le },
    Builtin { name: "int_lin_eq", arities: &[3], lower: integer::lin_eq },
    Builtin { name: "int_lin_le", arities: &[3], lower: integer::lin_le },
    Builtin { name: "int_lin_ne", arities: &[3], lower: integer::lin_ne },
    Builtin { name: "int_lt", arities: &[2], lower: integer::lt },
    Builtin { name: "int_ne", arities: &[2], lower: integer::ne },
    Builtin { name: "set_in", arities: &[2], lower: integer::set_in },
];

fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.binary_search_by(|builtin| builtin.name.cmp(name)).ok().map(|i| &BUILTINS[i])
}

/// The names of the builtins fzn-csp lowers, in alphabetical order.
pub fn supported_builtins() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|builtin| builtin.name)
}

/// Whether fzn-csp lowers the builtin `name` (in at least one form).
pub fn is_supported(name: &str) -> bool {
    find(name).is_some()
}

pub(crate) fn lower_constraint(lowering: &mut Lowering, item: &ConstraintItem) -> Result<(), LowerError> {
    let Some(builtin) = find(&item.name) else {
        return Err(LowerError::UnsupportedConstraint {
            name: item.name.clone(),
            line: item.position.line,
            detail: None,
        });
    };
    let call = Call { item };
    if !builtin.arities.contains(&item.arguments.len()) {
        return Err(call.invalid(format!("{} arguments, expected {:?}", item.arguments.len(), builtin.arities)));
    }
    (builtin.lower)(lowering, call)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_sorted_for_binary_search() {
        assert!(BUILTINS.windows(2).all(|pair| pair[0].name < pair[1].name));
        assert!(is_supported("int_lin_eq") && !is_supported("int_times"));
    }
}
