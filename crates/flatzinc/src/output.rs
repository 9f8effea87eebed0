//! The solution output of the FlatZinc protocol: one `name = value;` line for
//! each `output_var` and `output_array`, in the order of the file, written as
//! fzn-gecode writes them (`array2d(1..2, 1..3, [...])`, `{}` for an empty
//! index set, `true`/`false` for booleans), and the status lines.

use std::fmt::Write as _;

use crate::lower::Value;

/// The line after each solution.
pub const SOLUTION_SEPARATOR: &str = "----------";
/// The line after the last solution when the search was complete: every
/// solution was printed, or the last one is optimal.
pub const SEARCH_COMPLETE: &str = "==========";
/// The only line when the model has no solution.
pub const UNSATISFIABLE: &str = "=====UNSATISFIABLE=====";
/// The only line when the search stopped before it found a solution or
/// proved there is none.
pub const UNKNOWN: &str = "=====UNKNOWN=====";

/// What a solution prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The items, in the order of the file.
    pub items: Vec<OutputItem>,
}

/// One `output_var` or `output_array`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputItem {
    /// The name.
    pub name: String,
    /// Whether the values print as `true`/`false`.
    pub is_bool: bool,
    /// `None` for a scalar; the index sets of an array (`[(1, 2), (1, 3)]`).
    pub shape: Option<Vec<(i64, i64)>>,
    /// The values (one for a scalar), row-major.
    pub values: Vec<Value>,
}

impl Output {
    /// The solution's lines, given the value of every model variable (by index).
    pub fn to_dzn(&self, solution: &[i64]) -> String {
        let mut text = String::new();
        for item in &self.items {
            item.write(solution, &mut text);
        }
        text
    }
}

impl OutputItem {
    fn write(&self, solution: &[i64], text: &mut String) {
        let value = |value: &Value| match *value {
            Value::Var(var) => solution[var.index()],
            Value::Const(constant) => constant,
        };
        let scalar = |v: i64| -> String {
            if self.is_bool { if v != 0 { "true".into() } else { "false".into() } } else { v.to_string() }
        };
        let _ = write!(text, "{} = ", self.name);
        match &self.shape {
            None => text.push_str(&scalar(self.values.first().map_or(0, value))),
            Some(shape) => {
                let _ = write!(text, "array{}d(", shape.len());
                for &(lo, hi) in shape {
                    if lo > hi {
                        text.push_str("{}, ");
                    } else {
                        let _ = write!(text, "{lo}..{hi}, ");
                    }
                }
                text.push('[');
                for (i, v) in self.values.iter().enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(&scalar(value(v)));
                }
                text.push_str("])");
            }
        }
        text.push_str(";\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_print_as_fzn_gecode_prints_them() {
        let item = |name: &str, is_bool, shape, values: Vec<i64>| OutputItem {
            name: name.to_string(),
            is_bool,
            shape,
            values: values.into_iter().map(Value::Const).collect(),
        };
        let output = Output {
            items: vec![
                item("x", false, None, vec![-3]),
                item("b", true, None, vec![1]),
                item("e", false, Some(vec![(1, 0)]), vec![]),
                item("m", true, Some(vec![(1, 2), (0, 1)]), vec![1, 0, 0, 1]),
            ],
        };
        assert_eq!(
            output.to_dzn(&[]),
            "x = -3;\nb = true;\ne = array1d({}, []);\nm = array2d(1..2, 0..1, [true, false, false, true]);\n"
        );
    }
}
