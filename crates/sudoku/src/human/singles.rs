//! Singles: full house, naked single, hidden single.
//!
//! Definitions after HoDoKu ("Singles") and sudokuwiki ("Hidden Singles",
//! "Naked Candidates"): a full house is the last empty cell of a unit; a naked
//! single is a cell with one candidate; a hidden single is a digit with one
//! place left in a unit.

use super::Collector;
use super::candidates::{bit, digits};
use super::step::{Step, Technique};

/// The last empty cell of a unit gets the unit's missing digit.
pub(crate) fn full_house(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    // Boxes first, then rows and columns: a box is where people look first.
    for u in units_boxes_first(marks.side()) {
        if marks.empty_in(u) != 1 {
            continue;
        }
        let Some(cell) = geometry.unit_cells[u].iter().copied().find(|&c| marks.value(c) == 0) else { continue };
        let candidates = marks.candidates(cell);
        if candidates.count_ones() != 1 {
            continue;
        }
        let digit = candidates.trailing_zeros() as u8 + 1;
        let unit = geometry.unit(u);
        found.push(
            Step::new(Technique::FullHouse, marks.shape())
                .place(cell, digit)
                .units(vec![unit])
                .cells(vec![cell])
                .digits(vec![digit])
                .reason(format!("the last empty cell of {unit}")),
        );
        if found.done() {
            return;
        }
    }
}

/// A cell with one candidate gets it.
pub(crate) fn naked_single(found: &mut Collector<'_>) {
    let marks = found.marks;
    for cell in 0..marks.shape().num_cells() {
        let candidates = marks.candidates(cell);
        if candidates.count_ones() == 1 {
            let digit = candidates.trailing_zeros() as u8 + 1;
            found.push(
                Step::new(Technique::NakedSingle, marks.shape())
                    .place(cell, digit)
                    .cells(vec![cell])
                    .digits(vec![digit])
                    .reason(format!("the only candidate left in {}", marks.cell_name(cell))),
            );
            if found.done() {
                return;
            }
        }
    }
}

/// A digit with one place in a unit goes there.
pub(crate) fn hidden_single(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    for u in units_boxes_first(marks.side()) {
        let cells = &geometry.unit_cells[u];
        // Digits seen once and more than once among the unit's candidates.
        let (mut once, mut twice) = (0u64, 0u64);
        for &cell in cells {
            let c = marks.candidates(cell);
            twice |= once & c;
            once |= c;
        }
        for digit in digits(once & !twice) {
            let Some(cell) = cells.iter().copied().find(|&c| marks.candidates(c) & bit(digit) != 0) else {
                continue;
            };
            let unit = geometry.unit(u);
            found.push(
                Step::new(Technique::HiddenSingle, marks.shape())
                    .place(cell, digit)
                    .units(vec![unit])
                    .cells(vec![cell])
                    .digits(vec![digit])
                    .reason(format!("the only {digit} in {unit}")),
            );
            if found.done() {
                return;
            }
        }
    }
}

/// Unit indices: boxes, then rows, then columns.
pub(crate) fn units_boxes_first(n: usize) -> impl Iterator<Item = usize> {
    (2 * n..3 * n).chain(0..2 * n)
}
