//! The global constraints the engine has natively: all-different (Régin's
//! matching or pairwise, as the solver's configuration says) and positive
//! tables (simple tabular reduction), as the mznlib's `fzn_all_different_int`,
//! `fzn_table_int` and `fzn_table_bool`.

use csp::VarId;

use crate::error::LowerError;

use super::arguments::Call;
use super::{Lowering, Value, model_error};

pub(super) fn all_different(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let values = call.values(lowering, 0)?;
    let mut vars: Vec<VarId> = Vec::with_capacity(values.len());
    for value in values {
        let var = lowering.var(value, line)?;
        if vars.contains(&var) {
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
