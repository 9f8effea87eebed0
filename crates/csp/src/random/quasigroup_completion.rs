//! Quasigroup completion (Gomes & Selman 1997): complete a random partial
//! Latin square, which, unlike a quasigroup with holes, may have no
//! completion. The fraction of preassigned cells is the order parameter:
//! few givens leave easy, almost always completable squares, many leave
//! squares whose inconsistency propagation finds quickly, and the cost
//! peaks near 42% preassigned, where the completable fraction falls
//! (Gomes & Selman 1997, orders 10 to 15).
//!
//! The generator preassigns cells one at a time, in a uniformly random
//! order of the cells: each takes a symbol drawn uniformly from those its
//! row and its column do not hold yet (forward checking: the partial square
//! never repeats a symbol in a line), and a cell whose row and column
//! already hold every symbol is left empty, the next cell drawn instead. It
//! stops at `round(p n^2)` preassigned cells, or fewer when the cells run
//! out first (which takes a high `p`; [`QuasigroupCompletion::partial_square`]
//! tells). The model is the quasigroup's: a variable per cell, row-major,
//! named `c{row}_{column}`, and an `all_different` per row and per column.

use std::fmt;

use crate::model::Model;
use crate::rng::Rng;

use super::quasigroup::{check_order, latin_square_model};
use super::{RandomCspError, fraction};

/// The parameters of a quasigroup-completion instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuasigroupCompletion {
    /// `n`, the order: the square is `n x n` over the symbols `0..n`.
    pub order: usize,
    /// `p`, the fraction of the cells preassigned.
    pub preassigned: f64,
    /// The seed: equal parameters and seeds give equal instances.
    pub seed: u64,
}

impl QuasigroupCompletion {
    /// The number of cells to preassign: `round(p n^2)`.
    pub fn preassigned_count(&self) -> usize {
        (self.preassigned * (self.order * self.order) as f64).round() as usize
    }

    fn validate(&self) -> Result<(), RandomCspError> {
        fraction("preassigned", self.preassigned)?;
        check_order(self.order)
    }

    /// The partial Latin square, row-major: the symbol of each preassigned
    /// cell, `None` for an empty one.
    pub fn partial_square(&self) -> Result<Vec<Option<usize>>, RandomCspError> {
        self.validate()?;
        let n = self.order;
        let mut rng = Rng::new(self.seed);
        let mut order: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut order);
        // Bit s of a row's (column's) mask: the line holds symbol s. Orders
        // up to 200 take four words.
        let words = n.div_ceil(64);
        let mut in_row = vec![0u64; n * words];
        let mut in_column = vec![0u64; n * words];
        let mut cells: Vec<Option<usize>> = vec![None; n * n];
        let mut placed = 0;
        let mut free: Vec<usize> = Vec::with_capacity(n);
        for cell in order {
            if placed == self.preassigned_count() {
                break;
            }
            let (r, c) = (cell / n, cell % n);
            free.clear();
            free.extend((0..n).filter(|&s| {
                let (word, bit) = (s / 64, 1u64 << (s % 64));
                (in_row[r * words + word] | in_column[c * words + word]) & bit == 0
            }));
            if free.is_empty() {
                continue;
            }
            let symbol = free[rng.below(free.len() as u64) as usize];
            in_row[r * words + symbol / 64] |= 1 << (symbol % 64);
            in_column[c * words + symbol / 64] |= 1 << (symbol % 64);
            cells[cell] = Some(symbol);
            placed += 1;
        }
        Ok(cells)
    }

    /// Draws the instance (see the module documentation).
    pub fn generate(&self) -> Result<Model, RandomCspError> {
        let cells = self.partial_square()?;
        Ok(latin_square_model(self.order, &cells)?)
    }
}

impl fmt::Display for QuasigroupCompletion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "QCP <n={}, preassigned={}> ({} cells) seed {}",
            self.order,
            self.preassigned,
            self.preassigned_count(),
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No symbol twice in a row or a column.
    fn is_partial_latin(cells: &[Option<usize>], n: usize) -> bool {
        (0..n).all(|line| {
            let mut row: Vec<usize> = (0..n).filter_map(|c| cells[line * n + c]).collect();
            let mut column: Vec<usize> = (0..n).filter_map(|r| cells[r * n + line]).collect();
            let (rows, columns) = (row.len(), column.len());
            row.sort_unstable();
            row.dedup();
            column.sort_unstable();
            column.dedup();
            row.len() == rows && column.len() == columns && row.iter().chain(&column).all(|&s| s < n)
        })
    }

    #[test]
    fn partial_squares_repeat_no_symbol_and_have_the_cells_asked_for() {
        for (order, preassigned) in [(1, 1.0), (5, 0.42), (10, 0.42), (12, 0.0), (15, 0.3), (30, 0.5)] {
            let spec = QuasigroupCompletion { order, preassigned, seed: 9 };
            let cells = spec.partial_square().unwrap();
            assert!(is_partial_latin(&cells, order), "{spec}");
            assert_eq!(cells.iter().flatten().count(), spec.preassigned_count(), "{spec}");
            let model = spec.generate().unwrap();
            assert_eq!((model.num_vars(), model.num_constraints()), (order * order, 2 * order));
            assert_eq!(spec.partial_square().unwrap(), cells, "the seed decides the instance");
        }
        // A full square rarely completes by forward checking alone: the
        // cells run out first, and the square stays partial and consistent.
        let full = QuasigroupCompletion { order: 12, preassigned: 1.0, seed: 3 };
        let cells = full.partial_square().unwrap();
        assert!(is_partial_latin(&cells, 12));
        assert!(cells.iter().flatten().count() <= 144);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(QuasigroupCompletion { order: 0, preassigned: 0.5, seed: 0 }.generate().is_err());
        assert!(QuasigroupCompletion { order: 5, preassigned: 1.5, seed: 0 }.generate().is_err());
        assert!(QuasigroupCompletion { order: 201, preassigned: 0.5, seed: 0 }.generate().is_err());
    }
}
