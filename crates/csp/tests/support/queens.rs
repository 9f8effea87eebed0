//! The N-queens model the engine's tests share (included with `#[path]`):
//! the queen of row `i`, named `q{i}`, takes a column in `0..n`; the columns
//! are all different, and so are they plus the row (one diagonal) and minus
//! the row (the other).

use csp::Model;

/// N queens, one variable per row.
pub(crate) fn queens(n: usize) -> Model {
    let mut model = Model::new();
    let q: Vec<_> = (0..n).map(|i| model.new_named_var(format!("q{i}"), 0..n as i64).unwrap()).collect();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    model.all_different(&q).unwrap();
    model.all_different_offset(&q, &up).unwrap();
    model.all_different_offset(&q, &down).unwrap();
    model
}
