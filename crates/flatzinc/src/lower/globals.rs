//! The extensional globals and all-different, as the mznlib declares them:
//! all-different (Régin's matching or pairwise, as the solver's
//! configuration says), positive tables (simple tabular reduction) and
//! `regular` (Pesant's layered graph), each domain consistent:
//! `fzn_all_different_int`, `fzn_table_int`, `fzn_table_bool` and
//! `fzn_regular`. (MiniZinc 2.6.4 has no hook for negative tables: a model's
//! forbidden tuples reach fzn-csp decomposed.)

use std::collections::HashSet;

use csp::VarId;

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, Value, model_error};

pub(super) fn all_different(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    let mut vars: Vec<VarId> = Vec::with_capacity(values.len());
    // Looked up, not searched for: a linear search per variable is
    // quadratic, minutes on an all_different of 10^5 variables.
    let mut seen: HashSet<VarId> = HashSet::with_capacity(values.len());
    for value in values {
        let var = lowering.var(value, line)?;
        if !seen.insert(var) {
            // x != x: equal constants share their fixed variable, so this
            // covers all_different([3, 3]) too.
            lowering.fail(|| format!("line {line}: all_different has the same variable or value twice"));
            return Ok(());
        }
        vars.push(var);
    }
    if vars.len() < 2 {
        return Ok(());
    }
    lowering.model.all_different(&vars).map(drop).map_err(|e| model_error(e, line))
}

/// `fzn_table_int(x, t)`: `t` is the rows one after the other.
pub(super) fn table(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let values = call.values(lowering, 0)?;
    let flat = call.ints(lowering, 1)?;
    if values.is_empty() {
        return Err(call.unsupported("an empty scope"));
    }
    if flat.len() % values.len() != 0 {
        return Err(call.invalid(format!("{} table values do not make rows of {}", flat.len(), values.len())));
    }
    let rows = flat.chunks_exact(values.len()).map(<[i64]>::to_vec).collect();
    post_table(lowering, call, &values, rows)
}

/// The tuples of `values` are among `rows`. A constant keeps the rows that
/// have its value and leaves the scope; a variable given twice keeps the rows
/// that agree on it and appears once. No variable left: decided here.
pub(super) fn post_table(
    lowering: &mut Lowering,
    call: Call<'_>,
    values: &[Value],
    mut rows: Vec<Vec<i64>>,
) -> Result<(), LowerError> {
    let line = call.line();
    let mut vars: Vec<VarId> = Vec::new();
    // For each kept column, the original column it came from.
    let mut kept: Vec<usize> = Vec::new();
    for (column, value) in values.iter().enumerate() {
        match *value {
            Value::Const(constant) => rows.retain(|row| row[column] == constant),
            Value::Var(var) => match vars.iter().position(|&v| v == var) {
                Some(first) => {
                    let first_column = kept[first];
                    rows.retain(|row| row[column] == row[first_column]);
                }
                None => {
                    vars.push(var);
                    kept.push(column);
                }
            },
        }
    }
    if rows.is_empty() {
        lowering.fail(|| format!("line {line}: {} allows no tuple", call.item.name));
        return Ok(());
    }
    if vars.is_empty() {
        return Ok(());
    }
    let rows: Vec<Vec<i64>> = rows.into_iter().map(|row| kept.iter().map(|&c| row[c]).collect()).collect();
    lowering.model.table(&vars, &rows).map(drop).map_err(|e| model_error(e, line))
}

/// `fzn_regular(x, Q, S, d, q0, F)`: the word `x` takes the automaton of
/// `Q` states over the symbols `1..S`, transitions `d` (row by row, `0` the
/// dead state) from `q0` to a state of `F`. An empty word is accepted when
/// `q0` is.
pub(super) fn regular(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    let count = |index: usize| -> Result<usize, LowerError> {
        let value = call.int(lowering, index)?;
        usize::try_from(value).map_err(|_| call.invalid(format!("argument {} is negative", index + 1)))
    };
    let (states, symbols) = (count(1)?, count(2)?);
    let transitions = call.ints(lowering, 3)?;
    let start = call.int(lowering, 4)?;
    if states == 0 || symbols == 0 {
        return Err(call.invalid("an automaton needs at least one state and one symbol"));
    }
    if transitions.len() != states.saturating_mul(symbols) {
        return Err(
            call.invalid(format!("{} transitions for {states} states and {symbols} symbols", transitions.len()))
        );
    }
    // Only the states 1..=Q can accept.
    let accepting = call.set(lowering, 5)?.values_within(1, i64::try_from(states).unwrap_or(i64::MAX));
    if values.is_empty() {
        if !accepting.contains(&start) {
            lowering.fail(|| format!("line {line}: regular rejects the empty word"));
        }
        return Ok(());
    }
    let xs = lowering.vars(&values, line)?;
    lowering
        .model
        .regular_minizinc(&xs, states, symbols, &transitions, start, &accepting)
        .map(drop)
        .map_err(|e| model_error(e, line))
}
