//! The registry: each FlatZinc builtin that fzn-csp lowers, its arity, and
//! the one small function that posts it. A builtin not listed here is an
//! error that names it ("line 12: constraint float_plus is not supported by
//! fzn-csp yet"); a builtin listed here may still refuse a form it cannot
//! express exactly (a linear sum whose coefficients reach beyond 2^62), with
//! the same error and the form in parentheses.
//!
//! The mznlib (`crates/flatzinc/mznlib/`) declares the globals among these
//! (`fzn_*`) so that MiniZinc hands them over instead of decomposing them; a
//! test checks that every predicate it declares is here.

use crate::ast::ConstraintItem;
use crate::error::LowerError;

use super::arguments::{Call, Form};
use super::{Lowering, arithmetic, boolean, counting, element, globals, graph, integer, order, packing, scheduling};

/// How a builtin is posted.
type LowerFn = fn(&mut Lowering, Call<'_>) -> Result<(), LowerError>;

struct Builtin {
    name: &'static str,
    /// The numbers of arguments it takes.
    arities: &'static [usize],
    lower: LowerFn,
}

/// A builtin of the name, the arities and the function.
const fn builtin(name: &'static str, arities: &'static [usize], lower: LowerFn) -> Builtin {
    Builtin { name, arities, lower }
}

/// The builtins, sorted by name (a test checks it), for a binary search. A
/// `_reif` or `_imp` form shares its plain form's function, which reads the
/// form from the name ([`Form`]).
const BUILTINS: &[Builtin] = &[
    builtin("array_bool_and", &[2], boolean::array_and),
    builtin("array_bool_and_imp", &[2], boolean::array_and),
    builtin("array_bool_element", &[3], element::constant_array),
    builtin("array_bool_or", &[2], boolean::array_or),
    builtin("array_bool_or_imp", &[2], boolean::array_or),
    builtin("array_bool_xor", &[1], boolean::array_xor),
    builtin("array_int_element", &[3], element::constant_array),
    builtin("array_int_maximum", &[2], arithmetic::array_maximum),
    builtin("array_int_minimum", &[2], arithmetic::array_minimum),
    builtin("array_var_bool_element", &[3], element::variable_array),
    builtin("array_var_int_element", &[3], element::variable_array),
    builtin("bool2int", &[2], integer::eq),
    builtin("bool_and", &[3], boolean::and),
    builtin("bool_and_imp", &[3], boolean::and),
    builtin("bool_clause", &[2], boolean::clause),
    builtin("bool_clause_imp", &[3], boolean::clause),
    builtin("bool_clause_reif", &[3], boolean::clause),
    builtin("bool_eq", &[2], integer::eq),
    builtin("bool_eq_imp", &[3], integer::eq),
    builtin("bool_eq_reif", &[3], integer::eq),
    builtin("bool_le", &[2], integer::le),
    builtin("bool_le_imp", &[3], integer::le),
    builtin("bool_le_reif", &[3], integer::le),
    builtin("bool_lin_eq", &[3], integer::bool_lin_eq),
    builtin("bool_lin_le", &[3], integer::lin_le),
    builtin("bool_lt", &[2], integer::lt),
    builtin("bool_lt_imp", &[3], integer::lt),
    builtin("bool_lt_reif", &[3], integer::lt),
    builtin("bool_not", &[2], integer::ne),
    builtin("bool_or", &[3], boolean::or),
    builtin("bool_or_imp", &[3], boolean::or),
    builtin("bool_xor", &[2, 3], boolean::xor),
    builtin("bool_xor_imp", &[3], boolean::xor),
    builtin("csp_bin_packing_load", &[4], packing::bin_packing_load),
    builtin("csp_circuit", &[2], graph::hamiltonian),
    builtin("csp_inverse", &[4], graph::inverse),
    builtin("csp_subcircuit", &[2], graph::subcircuit),
    builtin("fzn_all_different_int", &[1], globals::all_different),
    builtin("fzn_among", &[3], counting::among),
    builtin("fzn_at_least_int", &[3], counting::at_least),
    builtin("fzn_at_most_int", &[3], counting::at_most),
    builtin("fzn_count_eq", &[3], counting::count_eq),
    builtin("fzn_cumulative", &[4], scheduling::cumulative),
    builtin("fzn_decreasing_bool", &[1], order::decreasing),
    builtin("fzn_decreasing_int", &[1], order::decreasing),
    builtin("fzn_diffn", &[4], packing::diffn),
    builtin("fzn_diffn_nonstrict", &[4], packing::diffn_nonstrict),
    builtin("fzn_disjunctive", &[2], scheduling::disjunctive_plain),
    builtin("fzn_disjunctive_strict", &[2], scheduling::disjunctive_strict),
    builtin("fzn_exactly_int", &[3], counting::exactly),
    builtin("fzn_global_cardinality", &[3], counting::global_cardinality),
    builtin("fzn_global_cardinality_closed", &[3], counting::global_cardinality_closed),
    builtin("fzn_global_cardinality_low_up", &[4], counting::global_cardinality_low_up),
    builtin("fzn_global_cardinality_low_up_closed", &[4], counting::global_cardinality_low_up_closed),
    builtin("fzn_increasing_bool", &[1], order::increasing),
    builtin("fzn_increasing_int", &[1], order::increasing),
    builtin("fzn_lex_less_bool", &[2], order::lex_less),
    builtin("fzn_lex_less_int", &[2], order::lex_less),
    builtin("fzn_lex_lesseq_bool", &[2], order::lex_lesseq),
    builtin("fzn_lex_lesseq_int", &[2], order::lex_lesseq),
    builtin("fzn_nvalue", &[2], counting::nvalue),
    builtin("fzn_regular", &[6], globals::regular),
    builtin("fzn_strictly_decreasing_int", &[1], order::strictly_decreasing),
    builtin("fzn_strictly_increasing_int", &[1], order::strictly_increasing),
    builtin("fzn_table_bool", &[2], globals::table),
    builtin("fzn_table_int", &[2], globals::table),
    builtin("int_abs", &[2], arithmetic::abs),
    builtin("int_div", &[3], arithmetic::div),
    builtin("int_eq", &[2], integer::eq),
    builtin("int_eq_imp", &[3], integer::eq),
    builtin("int_eq_reif", &[3], integer::eq),
    builtin("int_le", &[2], integer::le),
    builtin("int_le_imp", &[3], integer::le),
    builtin("int_le_reif", &[3], integer::le),
    builtin("int_lin_eq", &[3], integer::lin_eq),
    builtin("int_lin_eq_imp", &[4], integer::lin_eq),
    builtin("int_lin_eq_reif", &[4], integer::lin_eq),
    builtin("int_lin_le", &[3], integer::lin_le),
    builtin("int_lin_le_imp", &[4], integer::lin_le),
    builtin("int_lin_le_reif", &[4], integer::lin_le),
    builtin("int_lin_ne", &[3], integer::lin_ne),
    builtin("int_lin_ne_imp", &[4], integer::lin_ne),
    builtin("int_lin_ne_reif", &[4], integer::lin_ne),
    builtin("int_lt", &[2], integer::lt),
    builtin("int_lt_imp", &[3], integer::lt),
    builtin("int_lt_reif", &[3], integer::lt),
    builtin("int_max", &[3], arithmetic::max),
    builtin("int_min", &[3], arithmetic::min),
    builtin("int_mod", &[3], arithmetic::modulo),
    builtin("int_ne", &[2], integer::ne),
    builtin("int_ne_imp", &[3], integer::ne),
    builtin("int_ne_reif", &[3], integer::ne),
    builtin("int_plus", &[3], integer::plus),
    builtin("int_pow", &[3], arithmetic::pow),
    builtin("int_pow_fixed", &[3], arithmetic::pow),
    builtin("int_times", &[3], arithmetic::times),
    builtin("set_in", &[2], integer::set_in),
    builtin("set_in_imp", &[3], integer::set_in),
    builtin("set_in_reif", &[3], integer::set_in),
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
    let call = Call { item, form: Form::of(&item.name) };
    if !builtin.arities.contains(&item.arguments.len()) {
        let expected: Vec<String> = builtin.arities.iter().map(usize::to_string).collect();
        let given = super::plural(item.arguments.len(), "argument");
        return Err(call.invalid(format!("{given}, expected {}", expected.join(" or "))));
    }
    // The engine's refusals (a value beyond its range) say which constraint.
    (builtin.lower)(lowering, call).map_err(|error| match error {
        LowerError::Model { message, line } if !message.starts_with("constraint ") => {
            LowerError::Model { message: format!("constraint {}: {message}", item.name), line }
        }
        error => error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_sorted_for_binary_search() {
        assert!(BUILTINS.windows(2).all(|pair| pair[0].name < pair[1].name));
        assert!(is_supported("int_lin_eq") && !is_supported("float_plus"));
    }
}
