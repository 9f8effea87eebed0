//! The latin square the engine's learning and reason tests share (included
//! with `#[path]`).

use csp::{Model, VarId};

/// A latin square of side `n` (rows and columns all different: merged into
/// the all-different system under `mac`), with `givens` as `(row, col, value)`.
pub(crate) fn latin_square(n: usize, givens: &[(usize, usize, i64)]) -> Model {
    let mut model = Model::new();
    let cells: Vec<VarId> = (0..n * n)
        .map(|c| match givens.iter().find(|&&(i, j, _)| i * n + j == c) {
            Some(&(_, _, v)) => model.new_var([v]).unwrap(),
            None => model.new_var(0..n as i64).unwrap(),
        })
        .collect();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        model.all_different(&row).unwrap();
        model.all_different(&col).unwrap();
    }
    model
}
