//! Element: `array_int_element(i, as, z)` and `array_bool_element` (an
//! array of constants indexed by a variable), `array_var_int_element` and
//! `array_var_bool_element` (an array of variables), all indexed from 1 as
//! FlatZinc's arrays are: the engine's `element` and `element_var` with
//! `first_index` 1, domain consistent (the variable form when its variables
//! are distinct). The index must name an entry, so an empty array is false
//! and a constant index picks its entry here.

use crate::error::LowerError;

use super::arguments::Call;
use super::integer::equal;
use super::{Lowering, Value, model_error};

/// `as[i] = z` for an array of constants.
pub(super) fn constant_array(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let index = call.value(lowering, 0)?;
    let array = call.ints(lowering, 1)?;
    let value = call.value(lowering, 2)?;
    match index_of(lowering, call, index, array.len()) {
        Index::Variable => {}
        Index::Entry(entry) => return equal(lowering, call, Value::Const(array[entry]), value),
        Index::Nothing => return Ok(()),
    }
    let index = lowering.var(index, line)?;
    let value = lowering.var(value, line)?;
    lowering.model.element(index, &array, value, 1).map(drop).map_err(|e| model_error(e, line))
}

/// `xs[i] = z` for an array of variables (and constants).
pub(super) fn variable_array(lowering: &mut Lowering, call: Call<'_>) -> Result<(), LowerError> {
    let line = call.line();
    let index = call.value(lowering, 0)?;
    let array = call.values(lowering, 1)?;
    let value = call.value(lowering, 2)?;
    match index_of(lowering, call, index, array.len()) {
        Index::Variable => {}
        Index::Entry(entry) => return equal(lowering, call, array[entry], value),
        Index::Nothing => return Ok(()),
    }
    let index = lowering.var(index, line)?;
    let xs = lowering.vars(&array, line)?;
    let value = lowering.var(value, line)?;
    lowering.model.element_var(index, &xs, value, 1).map(drop).map_err(|e| model_error(e, line))
}

/// What the index of an element names.
enum Index {
    /// A variable, over a non-empty array.
    Variable,
    /// A constant naming this entry (from 0).
    Entry(usize),
    /// No entry: the model is inconsistent (already recorded).
    Nothing,
}

fn index_of(lowering: &mut Lowering, call: Call<'_>, index: Value, len: usize) -> Index {
    let line = call.line();
    let entry = match index {
        Value::Var(_) if len > 0 => return Index::Variable,
        Value::Var(_) => None,
        Value::Const(i) => usize::try_from(i).ok().filter(|&i| (1..=len).contains(&i)).map(|i| i - 1),
    };
    match entry {
        Some(entry) => Index::Entry(entry),
        None => {
            lowering.fail(|| format!("line {line}: {}: the index names no entry of the array", call.item.name));
            Index::Nothing
        }
    }
}
