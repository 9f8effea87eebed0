//! Single-digit patterns: skyscraper and 2-string kite.
//!
//! After HoDoKu ("Single Digit Patterns") and sudokuwiki ("Skyscraper",
//! "2-String Kite"). Both join two conjugate pairs of a digit (a unit where the
//! digit has exactly two places: one of them holds it). A skyscraper takes two
//! parallel lines whose pairs share one crossing line: one of the two other
//! ends holds the digit, so cells seeing both lose it. A 2-string kite takes a
//! row pair and a column pair with one end of each in the same box: again one
//! of the two far ends holds the digit.

use super::Collector;
use super::step::{Candidate, Step, Technique};
use crate::grid::Unit;

/// The conjugate pairs of `digit` in the lines of one kind (0 rows, 1 columns):
/// `(line, first cell, second cell)`.
pub(crate) fn line_pairs(marks: &super::PencilMarks, digit: u8, kind: usize) -> Vec<(usize, usize, usize)> {
    let n = marks.side();
    (0..n)
        .filter_map(|i| {
            let mut cells = marks.cells_with(kind * n + i, digit);
            let (a, b) = (cells.next()?, cells.next()?);
            cells.next().is_none().then_some((i, a, b))
        })
        .collect()
}

/// The cells with `digit` that see both `a` and `b`, as eliminations.
pub(crate) fn seeing_both(marks: &super::PencilMarks, digit: u8, a: usize, b: usize) -> Vec<Candidate> {
    let geometry = marks.geometry();
    geometry
        .peers(a)
        .filter(|&c| c != b && marks.has(c, digit) && geometry.sees(c, b))
        .map(|c| Candidate::new(c, digit))
        .collect()
}

/// Two parallel conjugate pairs with one shared crossing line.
pub(crate) fn skyscraper(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for digit in 1..=n as u8 {
        for kind in 0..2 {
            let cross = |cell: usize| if kind == 0 { geometry.col(cell) } else { geometry.row(cell) };
            let pairs = line_pairs(marks, digit, kind);
            for (i, &(line1, a1, b1)) in pairs.iter().enumerate() {
                for &(line2, a2, b2) in &pairs[i + 1..] {
                    // The ends on the shared crossing line, and the two tops.
                    let found_tops = [(a1, b1, a2, b2), (a1, b1, b2, a2), (b1, a1, a2, b2), (b1, a1, b2, a2)]
                        .into_iter()
                        .find(|&(base1, top1, base2, top2)| cross(base1) == cross(base2) && cross(top1) != cross(top2));
                    let Some((base1, top1, base2, top2)) = found_tops else { continue };
                    let eliminations = seeing_both(marks, digit, top1, top2);
                    if eliminations.is_empty() {
                        continue;
                    }
                    let unit = |line: usize| if kind == 0 { Unit::Row(line) } else { Unit::Column(line) };
                    let cells = vec![base1, top1, base2, top2];
                    found.push(
                        Step::new(Technique::Skyscraper, marks.shape())
                            .eliminating(eliminations)
                            .units(vec![unit(line1), unit(line2)])
                            .pattern(cells.iter().map(|&c| Candidate::new(c, digit)).collect())
                            .digits(vec![digit])
                            .reason(format!(
                                "{digit} is in {} or {} of {}, and in {} or {} of {}, and {} and {} share a {}: {} or {} is {digit}",
                                marks.cell_name(base1),
                                marks.cell_name(top1),
                                unit(line1),
                                marks.cell_name(base2),
                                marks.cell_name(top2),
                                unit(line2),
                                marks.cell_name(base1),
                                marks.cell_name(base2),
                                if kind == 0 { "column" } else { "row" },
                                marks.cell_name(top1),
                                marks.cell_name(top2),
                            ))
                            .cells(cells),
                    );
                    if found.done() {
                        return;
                    }
                }
            }
        }
    }
}

/// A row pair and a column pair with one end of each in the same box.
pub(crate) fn two_string_kite(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for digit in 1..=n as u8 {
        let rows = line_pairs(marks, digit, 0);
        let cols = line_pairs(marks, digit, 1);
        for &(row, r1, r2) in &rows {
            for &(col, c1, c2) in &cols {
                for (row_box_end, row_far) in [(r1, r2), (r2, r1)] {
                    for (col_box_end, col_far) in [(c1, c2), (c2, c1)] {
                        let b = geometry.box_of(row_box_end);
                        let distinct = [row_box_end, row_far, col_box_end, col_far];
                        if row_box_end == col_box_end
                            || distinct.iter().enumerate().any(|(i, x)| distinct[i + 1..].contains(x))
                            || geometry.box_of(col_box_end) != b
                            || geometry.box_of(row_far) == b
                            || geometry.box_of(col_far) == b
                        {
                            continue;
                        }
                        let eliminations = seeing_both(marks, digit, row_far, col_far);
                        if eliminations.is_empty() {
                            continue;
                        }
                        let cells = vec![row_far, row_box_end, col_box_end, col_far];
                        found.push(
                            Step::new(Technique::TwoStringKite, marks.shape())
                                .eliminating(eliminations)
                                .units(vec![Unit::Row(row), Unit::Column(col), Unit::Box(b)])
                                .pattern(cells.iter().map(|&c| Candidate::new(c, digit)).collect())
                                .digits(vec![digit])
                                .reason(format!(
                                    "{digit} is in {} or {} of row {}, in {} or {} of column {}, and {} and {} share box {}: {} or {} is {digit}",
                                    marks.cell_name(row_far),
                                    marks.cell_name(row_box_end),
                                    row + 1,
                                    marks.cell_name(col_box_end),
                                    marks.cell_name(col_far),
                                    col + 1,
                                    marks.cell_name(row_box_end),
                                    marks.cell_name(col_box_end),
                                    b + 1,
                                    marks.cell_name(row_far),
                                    marks.cell_name(col_far),
                                ))
                                .cells(cells),
                        );
                        if found.done() {
                            return;
                        }
                    }
                }
            }
        }
    }
}
