//! Single-digit patterns: skyscraper and 2-string kite.
//!
//! After HoDoKu ("Single Digit Patterns") and sudokuwiki ("Skyscraper",
//! "2-String Kite"). Both join two conjugate pairs of a digit (a unit where the
//! digit has exactly two places: one of them holds it). A skyscraper takes two
//! parallel lines whose pairs share one crossing line: one of the two other
//! ends holds the digit, so cells seeing both lose it. A 2-string kite takes a
//! row pair and a column pair with one end of each in the same box: again one
//! of the two far ends holds the digit. The turbot fish and the empty
//! rectangle live here too, and the duals of HoDoKu ("Dual 2-String Kite",
//! "Dual Empty Rectangle"): two kites or two empty rectangles on one pattern,
//! reported as one step.

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
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(Technique::Skyscraper, digit) {
            continue;
        }
        let steps_before = found.steps.len();
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
        found.searched(Technique::Skyscraper, digit, steps_before);
    }
}

/// A row pair and a column pair with one end of each in the same box.
pub(crate) fn two_string_kite(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for digit in 1..=n as u8 {
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(Technique::TwoStringKite, digit) {
            continue;
        }
        let steps_before = found.steps.len();
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
        found.searched(Technique::TwoStringKite, digit, steps_before);
    }
}

/// The conjugate pairs of `digit` in every unit, each once.
fn all_pairs(marks: &super::PencilMarks, digit: u8) -> Vec<(usize, usize)> {
    let n = marks.side();
    let mut pairs = Vec::new();
    for u in 0..3 * n {
        let mut cells = marks.cells_with(u, digit);
        if let (Some(a), Some(b), None) = (cells.next(), cells.next(), cells.next()) {
            if !pairs.contains(&(a, b)) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// Two conjugate pairs whose inner ends see each other (HoDoKu's turbot
/// fish; skyscrapers and kites are special cases tried before).
pub(crate) fn turbot_fish(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for digit in 1..=n as u8 {
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(Technique::TurbotFish, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        let pairs = all_pairs(marks, digit);
        for (i, &(p1, q1)) in pairs.iter().enumerate() {
            for &(p2, q2) in &pairs[i + 1..] {
                for (end1, inner1) in [(p1, q1), (q1, p1)] {
                    for (inner2, end2) in [(p2, q2), (q2, p2)] {
                        let four = [end1, inner1, inner2, end2];
                        if four.iter().enumerate().any(|(k, x)| four[k + 1..].contains(x))
                            || !geometry.sees(inner1, inner2)
                        {
                            continue;
                        }
                        let eliminations: Vec<Candidate> = seeing_both(marks, digit, end1, end2)
                            .into_iter()
                            .filter(|e| !four.contains(&e.cell))
                            .collect();
                        if eliminations.is_empty() {
                            continue;
                        }
                        found.push(
                            Step::new(Technique::TurbotFish, marks.shape())
                                .eliminating(eliminations)
                                .pattern(four.iter().map(|&c| Candidate::new(c, digit)).collect())
                                .digits(vec![digit])
                                .reason(format!(
                                    "{digit} is in {} or {}, and in {} or {}, and {} sees {}: {} or {} is {digit}",
                                    marks.cell_name(end1),
                                    marks.cell_name(inner1),
                                    marks.cell_name(inner2),
                                    marks.cell_name(end2),
                                    marks.cell_name(inner1),
                                    marks.cell_name(inner2),
                                    marks.cell_name(end1),
                                    marks.cell_name(end2)
                                ))
                                .cells(four.to_vec()),
                        );
                        if found.done() {
                            return;
                        }
                    }
                }
            }
        }
        found.searched(Technique::TurbotFish, digit, steps_before);
    }
}

/// A box whose candidates of a digit lie in one row and one column of it,
/// and a conjugate pair in a crossing line with one end on the box's row (or
/// column): the other end's line meets the box's column (row) in a cell that
/// loses the digit.
pub(crate) fn empty_rectangle(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let shape = marks.shape();
    let n = marks.side();
    for digit in 1..=n as u8 {
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(Technique::EmptyRectangle, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        let pairs = [line_pairs(marks, digit, 0), line_pairs(marks, digit, 1)];
        // A box's cells with the digit (one list for every box).
        let mut in_box: Vec<usize> = Vec::new();
        for b in 0..n {
            in_box.clear();
            in_box.extend(marks.cells_with(2 * n + b, digit));
            if in_box.len() < 2 {
                continue;
            }
            let top = b / shape.box_rows() * shape.box_rows();
            let left = b % shape.box_rows() * shape.box_cols();
            for row in top..top + shape.box_rows() {
                for col in left..left + shape.box_cols() {
                    let fits = in_box.iter().all(|&c| geometry.row(c) == row || geometry.col(c) == col);
                    let only_row = in_box.iter().all(|&c| geometry.row(c) == row);
                    let only_col = in_box.iter().all(|&c| geometry.col(c) == col);
                    if !fits || only_row || only_col {
                        continue;
                    }
                    // Conjugate pairs in columns outside the box's stack, one end on `row`:
                    // the other end's row meets `col` in the target. Then the transpose.
                    for kind in 0..2 {
                        for &(line, p, q) in &pairs[1 - kind] {
                            let outside = if kind == 0 {
                                line / shape.box_cols() != b % shape.box_rows()
                            } else {
                                line / shape.box_rows() != b / shape.box_rows()
                            };
                            if !outside {
                                continue;
                            }
                            for (near, far) in [(p, q), (q, p)] {
                                let (on_line, target) = if kind == 0 {
                                    (geometry.row(near) == row, geometry.row(far) * n + col)
                                } else {
                                    (geometry.col(near) == col, row * n + geometry.col(far))
                                };
                                if !on_line
                                    || !marks.has(target, digit)
                                    || geometry.box_of(target) == b
                                    || target == far
                                {
                                    continue;
                                }
                                let mut pattern: Vec<Candidate> =
                                    in_box.iter().map(|&c| Candidate::new(c, digit)).collect();
                                pattern.push(Candidate::new(near, digit));
                                pattern.push(Candidate::new(far, digit));
                                let unit = if kind == 0 { Unit::Column(line) } else { Unit::Row(line) };
                                let hinge = if kind == 0 { Unit::Row(row) } else { Unit::Column(col) };
                                let across = if kind == 0 { Unit::Column(col) } else { Unit::Row(row) };
                                let mut cells = in_box.clone();
                                cells.extend([near, far]);
                                found.push(
                                    Step::new(Technique::EmptyRectangle, marks.shape())
                                        .eliminating(vec![Candidate::new(target, digit)])
                                        .units(vec![Unit::Box(b), unit])
                                        .pattern(pattern)
                                        .cells(cells)
                                        .digits(vec![digit])
                                        .reason(format!(
                                            "in box {} the {digit}s lie in {hinge} and {across}; {digit} is in {} or {} of {unit}: either way {} is not {digit}",
                                            b + 1,
                                            marks.cell_name(near),
                                            marks.cell_name(far),
                                            marks.cell_name(target)
                                        )),
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
        found.searched(Technique::EmptyRectangle, digit, steps_before);
    }
}

/// Two instances of `technique` (2-string kites or empty rectangles) that
/// share their pattern, reported as one step removing what both remove
/// (HoDoKu's "Dual 2-String Kite" and "Dual Empty Rectangle"): two kites
/// joined by the same two cells of a box, or two empty rectangles of one box
/// and digit, with different eliminations.
pub(crate) fn dual(found: &mut Collector<'_>, technique: Technique) {
    let marks = found.marks;
    let (single, dual_technique) = match technique {
        Technique::DualTwoStringKite => (Technique::TwoStringKite, Technique::DualTwoStringKite),
        _ => (Technique::EmptyRectangle, Technique::DualEmptyRectangle),
    };
    let instances = super::find_all(single, marks);
    // What the two instances must share: the kite's two cells in the box (as
    // in HoDoKu's library, the two kites may be of different digits), or the
    // empty rectangle's box (its first unit) and digit.
    let shared = |step: &Step| -> (u8, Vec<usize>) {
        let digit = step.digits_involved().first().copied().unwrap_or(0);
        match single {
            Technique::TwoStringKite => {
                let mut joint = step.pattern_cells()[1..3].to_vec();
                joint.sort_unstable();
                (0, joint)
            }
            _ => (
                digit,
                step.pattern_cells()
                    .iter()
                    .copied()
                    .filter(|&c| {
                        step.units_involved().first().is_some_and(|u| Unit::Box(marks.geometry().box_of(c)) == *u)
                    })
                    .collect(),
            ),
        }
    };
    for (i, first) in instances.iter().enumerate() {
        for second in &instances[i + 1..] {
            if shared(first) != shared(second) || first.eliminations() == second.eliminations() {
                continue;
            }
            let mut eliminations = first.eliminations().to_vec();
            eliminations.extend_from_slice(second.eliminations());
            let mut cells = first.pattern_cells().to_vec();
            cells.extend(second.pattern_cells().iter().filter(|c| !first.pattern_cells().contains(c)));
            let mut pattern = first.pattern_candidates().to_vec();
            pattern.extend(second.pattern_candidates().iter().filter(|c| !first.pattern_candidates().contains(c)));
            let mut units = first.units_involved().to_vec();
            units.extend(second.units_involved().iter().filter(|u| !first.units_involved().contains(u)));
            found.push(
                Step::new(dual_technique, marks.shape())
                    .eliminating(eliminations)
                    .cells(cells)
                    .pattern(pattern)
                    .units(units)
                    .digits({
                        let mut both = first.digits_involved().to_vec();
                        both.extend(second.digits_involved().iter().filter(|d| !first.digits_involved().contains(d)));
                        both
                    })
                    .reason(format!(
                        "two {}s on one pattern: {}; and {}",
                        single.name(),
                        first.reason_text(),
                        second.reason_text()
                    )),
            );
            if found.done() {
                return;
            }
        }
    }
}
