//! A solution as MiniZinc constraints (`constraint a = array2d(...);`), for
//! checking it against a model that gives some of its variables in part as
//! data (`a = array2d(..., [1, _, ...])`): the JSON data file would assign
//! them a second time, which MiniZinc refuses, while an equality constraint
//! states the same values.

use std::fmt::Write as _;

use serde_json::Value as Json;

/// The constraints fixing each variable of `solution` (its `_` entries
/// aside) to its value; `None` for a value this cannot write (an enum, a
/// set, a record).
pub(crate) fn constraints(solution: &Json) -> Option<String> {
    let mut text = String::new();
    for (name, value) in solution.as_object()?.iter().filter(|(name, _)| !name.starts_with('_')) {
        let _ = writeln!(text, "constraint {name} = {};", literal(name, value)?);
    }
    Some(text)
}

/// `value` as a MiniZinc expression; an array keeps the index sets of the
/// variable `name` (`array2d(index_set_1of2(name), index_set_2of2(name), [...])`).
fn literal(name: &str, value: &Json) -> Option<String> {
    if !value.is_array() {
        return scalar(value);
    }
    let mut dimensions = 0;
    let mut level = value;
    while let Some(first) = level.as_array().and_then(|items| items.first()) {
        dimensions += 1;
        level = first;
        if !level.is_array() {
            break;
        }
    }
    let dimensions = dimensions.max(1);
    let mut flat = Vec::new();
    flatten(value, dimensions, &mut flat)?;
    let index_sets: Vec<String> = if dimensions == 1 {
        vec![format!("index_set({name})")]
    } else {
        (1..=dimensions).map(|d| format!("index_set_{d}of{dimensions}({name})")).collect()
    };
    Some(format!("array{dimensions}d({}, [{}])", index_sets.join(", "), flat.join(", ")))
}

/// The scalars of a `depth`-deep nested array, row by row.
fn flatten(value: &Json, depth: usize, out: &mut Vec<String>) -> Option<()> {
    if depth == 0 {
        out.push(scalar(value)?);
        return Some(());
    }
    for item in value.as_array()? {
        flatten(item, depth - 1, out)?;
    }
    Some(())
}

fn scalar(value: &Json) -> Option<String> {
    match value {
        Json::Bool(b) => Some(b.to_string()),
        Json::Number(n) if n.is_i64() => Some(n.to_string()),
        Json::Null => Some("<>".to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_keep_the_variables_index_sets() {
        let solution = serde_json::json!({"a": [[1, 2], [3, 4]], "b": true, "c": [5], "_objective": 3});
        assert_eq!(
            constraints(&solution).unwrap(),
            "constraint a = array2d(index_set_1of2(a), index_set_2of2(a), [1, 2, 3, 4]);\n\
             constraint b = true;\n\
             constraint c = array1d(index_set(c), [5]);\n"
        );
        assert_eq!(constraints(&serde_json::json!({"s": {"set": [1, 2]}})), None);
    }
}
