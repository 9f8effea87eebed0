//! The nonogram model, shared by the example and its benchmark: a 0/1 variable per
//! cell and one `regular` constraint per row and per column, whose automaton
//! ([`Dfa::from_runs`]) accepts exactly the lines with the clue's blocks.

use csp::{Dfa, Model, ModelError, VarId};

/// The clues of a nonogram: for each row (top to bottom) and each column (left to
/// right), the lengths of its blocks of filled cells in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clues {
    pub(crate) rows: Vec<Vec<usize>>,
    pub(crate) columns: Vec<Vec<usize>>,
}

impl Clues {
    /// The model, and the variable of each cell, row-major: cells `r1c1 ..` over
    /// `{0, 1}` (1 is filled), a `regular` per row and per column.
    pub(crate) fn model(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let (height, width) = (self.rows.len(), self.columns.len());
        let mut model = Model::new();
        let mut cells = Vec::with_capacity(height * width);
        for r in 0..height {
            for c in 0..width {
                cells.push(model.new_named_var(format!("r{}c{}", r + 1, c + 1), 0..=1)?);
            }
        }
        for (r, clue) in self.rows.iter().enumerate() {
            let line: Vec<VarId> = (0..width).map(|c| cells[r * width + c]).collect();
            let id = model.regular(&line, &Dfa::from_runs(clue)?)?;
            model.set_label(id, format!("row {}", r + 1))?;
        }
        for (c, clue) in self.columns.iter().enumerate() {
            let line: Vec<VarId> = (0..height).map(|r| cells[r * width + c]).collect();
            let id = model.regular(&line, &Dfa::from_runs(clue)?)?;
            model.set_label(id, format!("column {}", c + 1))?;
        }
        Ok((model, cells))
    }

    /// Whether a filled grid (row-major, 1 for filled) has the clues' blocks, checked
    /// by counting, without automata.
    pub(crate) fn accepts(&self, grid: &[i64]) -> bool {
        let (height, width) = (self.rows.len(), self.columns.len());
        let clue = |runs: &[usize]| runs.iter().copied().filter(|&r| r > 0).collect::<Vec<_>>();
        grid.len() == height * width
            && (0..height).all(|r| blocks((0..width).map(|c| grid[r * width + c])) == clue(&self.rows[r]))
            && (0..width).all(|c| blocks((0..height).map(|r| grid[r * width + c])) == clue(&self.columns[c]))
    }
}

/// The lengths of the blocks of 1s in a line.
fn blocks(line: impl Iterator<Item = i64>) -> Vec<usize> {
    let mut runs = Vec::new();
    let mut current = 0;
    for cell in line.chain(std::iter::once(0)) {
        if cell == 1 {
            current += 1;
        } else if current > 0 {
            runs.push(current);
            current = 0;
        }
    }
    runs
}
