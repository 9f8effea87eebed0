//! The knight's tour model, shared by the example and `benches/scheduling.rs`:
//! a variable per square, the square the knight moves to next, in one
//! `circuit`.

use csp::{Model, ModelError};

/// The knight's eight moves.
const MOVES: [(i64, i64); 8] = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)];

/// A board, its squares numbered row by row from 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct KnightsTour {
    pub(crate) rows: i64,
    pub(crate) columns: i64,
}

impl KnightsTour {
    /// How many squares the board has.
    pub(crate) fn squares(&self) -> i64 {
        self.rows * self.columns
    }

    /// The squares a knight's move away from `square`.
    pub(crate) fn moves(&self, square: i64) -> Vec<i64> {
        let (row, column) = (square / self.columns, square % self.columns);
        let mut targets: Vec<i64> = MOVES
            .iter()
            .map(|&(dr, dc)| (row + dr, column + dc))
            .filter(|&(r, c)| (0..self.rows).contains(&r) && (0..self.columns).contains(&c))
            .map(|(r, c)| r * self.columns + c)
            .collect();
        targets.sort_unstable();
        targets
    }

    /// The model: `next[s]`, named after the square in chess notation
    /// (`a1` is square 0), over the squares a move away, in one `circuit`.
    pub(crate) fn build(&self) -> Result<Model, ModelError> {
        let mut model = Model::new();
        let mut next = Vec::new();
        for square in 0..self.squares() {
            let mut moves = self.moves(square);
            if moves.is_empty() {
                // No move leaves it: only itself, which a circuit forbids.
                moves.push(square);
            }
            next.push(model.new_named_var(self.name(square), moves)?);
        }
        model.circuit(&next, 0)?;
        Ok(model)
    }

    /// A square's name: its column as letters (`a`, ..., `z`, `aa`, ...) and its row from 1.
    pub(crate) fn name(&self, square: i64) -> String {
        let (row, mut column) = (square / self.columns, square % self.columns);
        let mut letters = Vec::new();
        loop {
            letters.push(b'a' + (column % 26) as u8);
            if column < 26 {
                break;
            }
            column = column / 26 - 1;
        }
        letters.reverse();
        format!("{}{}", String::from_utf8_lossy(&letters), row + 1)
    }
}
