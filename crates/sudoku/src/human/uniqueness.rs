//! Uniqueness: unique rectangle type 1.
//!
//! After HoDoKu ("Uniqueness Test 1") and sudokuwiki ("Unique Rectangles").
//! Four cells at the corners of a rectangle over two rows, two columns and
//! exactly two boxes must not all be limited to the same two digits `{x,y}`:
//! the two digits could then be swapped, and the puzzle would have two
//! solutions. So when three corners hold only `{x,y}`, the fourth loses `x`
//! and `y`. This assumes the puzzle has one solution: a puzzle with several
//! can be "solved" into a wrong answer by it.

use super::Collector;
use super::candidates::digits;
use super::step::{Candidate, Step, Technique, digit_set_text};

/// Unique rectangles of type 1.
pub(crate) fn unique_rectangle(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for a in 0..n * n {
        let pair = marks.candidates(a);
        if pair.count_ones() != 2 {
            continue;
        }
        let (row, col_a) = (geometry.row(a), geometry.col(a));
        for col_b in col_a + 1..n {
            let b = row * n + col_b;
            if marks.candidates(b) != pair {
                continue;
            }
            for other_row in 0..n {
                if other_row == row {
                    continue;
                }
                let (c, d) = (other_row * n + col_a, other_row * n + col_b);
                let mut boxes = [geometry.box_of(a), geometry.box_of(b), geometry.box_of(c), geometry.box_of(d)];
                boxes.sort_unstable();
                let distinct = 1 + boxes.windows(2).filter(|w| w[0] != w[1]).count();
                if distinct != 2 {
                    continue;
                }
                for (corner, target) in [(c, d), (d, c)] {
                    let t = marks.candidates(target);
                    if marks.candidates(corner) != pair || t & pair == 0 || t & !pair == 0 {
                        continue;
                    }
                    let eliminations: Vec<Candidate> = digits(t & pair).map(|d| Candidate::new(target, d)).collect();
                    let ds: Vec<u8> = digits(pair).collect();
                    let mut cells = vec![a, b, c, d];
                    cells.sort_unstable();
                    let corners: Vec<usize> = cells.iter().copied().filter(|&x| x != target).collect();
                    found.push(
                        Step::new(Technique::UniqueRectangle, marks.shape())
                            .eliminating(eliminations)
                            .pattern(
                                cells
                                    .iter()
                                    .flat_map(|&x| {
                                        ds.iter()
                                            .filter(move |&&dd| marks.has(x, dd))
                                            .map(move |&dd| Candidate::new(x, dd))
                                    })
                                    .collect(),
                            )
                            .reason(format!(
                                "{} hold only {}, so {} cannot take them without a second solution",
                                super::step::cell_list(marks.shape(), &corners),
                                digit_set_text(&ds),
                                marks.cell_name(target)
                            ))
                            .cells(cells)
                            .digits(ds),
                    );
                    if found.done() {
                        return;
                    }
                }
            }
        }
    }
}
