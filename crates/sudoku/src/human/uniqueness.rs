//! Uniqueness: unique rectangles of types 1, 2 and 4, and BUG+1.
//!
//! After HoDoKu ("Uniqueness") and sudokuwiki ("Unique Rectangles", "BUG").
//! Four cells at the corners of a rectangle over two rows, two columns and
//! exactly two boxes must not all be limited to the same two digits `{x,y}`:
//! the two digits could then be swapped, and the puzzle would have two
//! solutions. With two corners (the floor) holding only `{x,y}`:
//!
//! - type 1: a third corner holds only `{x,y}` too, so the fourth loses `x`
//!   and `y`;
//! - type 2: the two other corners (the roof) hold `{x,y}` and the same one
//!   extra digit `z`: one of them is `z`, so cells seeing both lose `z`;
//! - type 4: in a unit both roof corners share, `x` has no other place: one of
//!   them is `x`, so neither may be `y` (that would complete the deadly
//!   pattern).
//!
//! A bivalue universal grave (BUG) is a board where every empty cell has two
//! candidates and every digit two places in each unit: such a board has no or
//! two solutions. In BUG+1 one cell has three candidates; the digit that
//! appears three times in its units must go there, so the cell loses the
//! other two.
//!
//! All of these assume the puzzle has one solution: a puzzle with several can
//! be "solved" into a wrong answer by them.

use super::Collector;
use super::candidates::{bit, digits};
use super::step::{Candidate, Step, Technique, cell_list, digit_set_text};
use crate::grid::Unit;

/// Unique rectangles of `kind` 1, 2 or 4.
pub(crate) fn unique_rectangle(found: &mut Collector<'_>, kind: u8) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let cells = n * n;
    for a in 0..cells {
        let pair = marks.candidates(a);
        if pair.count_ones() != 2 {
            continue;
        }
        let (row_a, col_a) = (geometry.row(a), geometry.col(a));
        // The floor: a and b, in a row (b to the right) or a column (b below).
        for along_row in [true, false] {
            for other in 0..n {
                let b = if along_row { row_a * n + other } else { other * n + col_a };
                // The other floor cell holds only digits of the pair; as in HoDoKu,
                // one of them may be missing there ("missing candidates").
                let cb = marks.candidates(b);
                if b == a || marks.value(b) != 0 || cb == 0 || cb & !pair != 0 || (cb == pair && b < a) {
                    continue;
                }
                for line in 0..n {
                    let (c, d) = if along_row {
                        (line * n + col_a, line * n + geometry.col(b))
                    } else {
                        (row_a * n + line, geometry.row(b) * n + line)
                    };
                    if line == if along_row { row_a } else { col_a } {
                        continue;
                    }
                    let mut boxes = [geometry.box_of(a), geometry.box_of(b), geometry.box_of(c), geometry.box_of(d)];
                    boxes.sort_unstable();
                    if 1 + boxes.windows(2).filter(|w| w[0] != w[1]).count() != 2 {
                        continue;
                    }
                    let (cc, cd) = (marks.candidates(c), marks.candidates(d));
                    if marks.value(c) != 0 || marks.value(d) != 0 {
                        continue;
                    }
                    let ds: Vec<u8> = digits(pair).collect();
                    let rectangle = {
                        let mut r = vec![a, b, c, d];
                        r.sort_unstable();
                        r
                    };
                    let pattern: Vec<Candidate> = rectangle
                        .iter()
                        .flat_map(|&x| {
                            ds.iter().filter(move |&&dd| marks.has(x, dd)).map(move |&dd| Candidate::new(x, dd))
                        })
                        .collect();
                    let step = |technique: Technique, eliminations: Vec<Candidate>, reason: String| {
                        Step::new(technique, marks.shape())
                            .eliminating(eliminations)
                            .pattern(pattern.clone())
                            .cells(rectangle.clone())
                            .digits(ds.clone())
                            .reason(reason)
                    };
                    match kind {
                        1 => {
                            for (corner, target) in [(c, d), (d, c)] {
                                let t = marks.candidates(target);
                                let corner_set = marks.candidates(corner);
                                if corner_set == 0 || corner_set & !pair != 0 || t & pair == 0 || t & !pair == 0 {
                                    continue;
                                }
                                let eliminations = digits(t & pair).map(|dd| Candidate::new(target, dd)).collect();
                                let corners: Vec<usize> = rectangle.iter().copied().filter(|&x| x != target).collect();
                                found.push(step(
                                    Technique::UniqueRectangle1,
                                    eliminations,
                                    format!(
                                        "{} hold only {}, so {} cannot take them without a second solution",
                                        cell_list(marks.shape(), &corners),
                                        digit_set_text(&ds),
                                        marks.cell_name(target)
                                    ),
                                ));
                            }
                        }
                        2 => {
                            let extra = cc & !pair;
                            if cc & pair == 0 || cd & pair == 0 || cd & !pair != extra || extra.count_ones() != 1 {
                                continue;
                            }
                            let z = extra.trailing_zeros() as u8 + 1;
                            let eliminations: Vec<Candidate> = geometry
                                .peers(c)
                                .filter(|&x| x != d && marks.has(x, z) && geometry.sees(x, d))
                                .map(|x| Candidate::new(x, z))
                                .collect();
                            if eliminations.is_empty() {
                                continue;
                            }
                            found.push(step(
                                Technique::UniqueRectangle2,
                                eliminations,
                                format!(
                                    "{} and {} hold only {}, and {} and {} hold them and {z}: one of those two is {z}",
                                    marks.cell_name(a),
                                    marks.cell_name(b),
                                    digit_set_text(&ds),
                                    marks.cell_name(c),
                                    marks.cell_name(d)
                                ),
                            ));
                        }
                        _ => {
                            if (cc | cd) & !pair == 0 {
                                continue;
                            }
                            // The units c and d share: their line, and their box if it is one.
                            let mut shared =
                                vec![if along_row { geometry.cell_units[c][0] } else { geometry.cell_units[c][1] }];
                            if geometry.box_of(c) == geometry.box_of(d) {
                                shared.push(geometry.cell_units[c][2]);
                            }
                            for &x in &ds {
                                let y = digits(pair & !bit(x)).next().unwrap_or(x);
                                if !marks.has(c, x) || !marks.has(d, x) {
                                    continue;
                                }
                                let locked = shared.iter().copied().find(|&u| marks.cells_with(u, x).count() == 2);
                                let Some(u) = locked else { continue };
                                let eliminations: Vec<Candidate> = [c, d]
                                    .into_iter()
                                    .filter(|&r| marks.has(r, y))
                                    .map(|r| Candidate::new(r, y))
                                    .collect();
                                if eliminations.is_empty() {
                                    continue;
                                }
                                let unit: Unit = geometry.unit(u);
                                found.push(step(
                                    Technique::UniqueRectangle4,
                                    eliminations,
                                    format!(
                                        "{} and {} hold only {}, and in {unit} {x} must be in {} or {}: neither may be {y}",
                                        marks.cell_name(a),
                                        marks.cell_name(b),
                                        digit_set_text(&ds),
                                        marks.cell_name(c),
                                        marks.cell_name(d)
                                    ),
                                ));
                                break;
                            }
                        }
                    }
                    if found.done() {
                        return;
                    }
                }
            }
        }
    }
}

/// BUG+1: every empty cell bivalue but one with three candidates.
pub(crate) fn bug_plus_one(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let mut plus = None;
    for cell in 0..n * n {
        match marks.candidates(cell).count_ones() {
            0 | 2 => {}
            3 if plus.is_none() => plus = Some(cell),
            _ => return,
        }
    }
    let Some(cell) = plus else { return };
    // In each of the cell's units one digit appears three times; it is the
    // same digit in all three, and every other (unit, digit) has 0 or 2 places.
    let mut extra = None;
    for u in 0..3 * n {
        for digit in 1..=n as u8 {
            let count = marks.cells_with(u, digit).count();
            let mine = geometry.cell_units[cell].contains(&u) && marks.has(cell, digit);
            match (count, mine) {
                (0, _) | (2, _) => {}
                (3, true) if extra.is_none_or(|e| e == digit) => extra = Some(digit),
                _ => return,
            }
        }
    }
    let Some(digit) = extra else { return };
    // As in HoDoKu the step removes the cell's other candidates; the naked
    // single follows.
    let eliminations = digits(marks.candidates(cell) & !bit(digit)).map(|d| Candidate::new(cell, d)).collect();
    found.push(
        Step::new(Technique::BugPlusOne, marks.shape())
            .eliminating(eliminations)
            .cells(vec![cell])
            .pattern(digits(marks.candidates(cell)).map(|d| Candidate::new(cell, d)).collect())
            .digits(vec![digit])
            .reason(format!(
                "every other empty cell has two candidates; without {digit}, {} would leave a board with two solutions or none",
                marks.cell_name(cell)
            )),
    );
}
