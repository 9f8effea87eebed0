//! Uniqueness: unique rectangles of types 1 to 6, hidden and avoidable
//! rectangles, and BUG+1.
//!
//! After HoDoKu ("Uniqueness", "Hidden Rectangle", "Avoidable Rectangle") and
//! sudokuwiki ("Unique Rectangles", "Hidden Unique Rectangles", "Avoidable
//! Rectangles", "BUG").
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
//!   pattern);
//! - types 3, 5 and 6 and the hidden rectangle: see `rectangle_family`;
//! - avoidable rectangles: the same pattern among digits placed while solving
//!   (never givens): see `avoidable_rectangle`.
//!
//! A bivalue universal grave (BUG) is a board where every empty cell has two
//! candidates and every digit two places in each unit: such a board has no or
//! two solutions. In BUG+1 one cell has three candidates; the digit that
//! appears three times in its units must go there, so the cell loses the
//! other two.
//!
//! All of these assume the puzzle has one solution: a puzzle with several can
//! be "solved" into a wrong answer by them.

use super::candidates::{DigitSet, Geometry, bit, digits};
use super::step::{Candidate, Step, Technique, cell_list, digit_set_text};
use super::{Collector, PencilMarks};
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

/// A rectangle of four empty cells over two rows, two columns and two boxes
/// where both digits of `pair` may go, one corner holding only them (HoDoKu's
/// start cell): corners top left, top right, bottom left, bottom right.
struct Rectangle {
    corners: [usize; 4],
    pair: DigitSet,
}

impl Rectangle {
    /// The corner diagonally opposite corner `i`.
    fn opposite(&self, i: usize) -> usize {
        self.corners[3 - i]
    }
}

/// Whether four corners lie in exactly two boxes.
fn in_two_boxes(geometry: &Geometry, corners: &[usize; 4]) -> bool {
    let mut boxes = corners.map(|c| geometry.box_of(c));
    boxes.sort_unstable();
    boxes[0] == boxes[1] && boxes[2] == boxes[3] && boxes[1] != boxes[2]
}

/// The corners of the rectangle over the rows and columns of `a` and `d`.
fn corners_of(n: usize, geometry: &Geometry, a: usize, d: usize) -> [usize; 4] {
    let (r1, c1, r2, c2) = (geometry.row(a), geometry.col(a), geometry.row(d), geometry.col(d));
    let (top, bottom, left, right) = (r1.min(r2), r1.max(r2), c1.min(c2), c1.max(c2));
    [top * n + left, top * n + right, bottom * n + left, bottom * n + right]
}

/// Every unique rectangle of the board, each once: four empty corners from
/// a bivalue one (HoDoKu's start cell), where both digits may still go in
/// each corner: a corner may have lost one of them to a technique (HoDoKu's
/// "missing candidates"), but no placed digit in its units rules one out.
/// The deadly pattern is then still what the solution cannot hold.
fn rectangles(marks: &PencilMarks) -> Vec<Rectangle> {
    let geometry = marks.geometry();
    let n = marks.side();
    // The digits placed in each unit.
    let placed: Vec<DigitSet> = geometry
        .unit_cells
        .iter()
        .map(|cells| cells.iter().filter(|&&c| marks.value(c) != 0).fold(0, |acc, &c| acc | bit(marks.value(c))))
        .collect();
    let allows = |cell: usize, pair: DigitSet| {
        marks.value(cell) == 0 && geometry.cell_units[cell].iter().all(|&u| placed[u] & pair == 0)
    };
    let mut out: Vec<Rectangle> = Vec::new();
    for a in 0..n * n {
        let pair = marks.candidates(a);
        if pair.count_ones() != 2 {
            continue;
        }
        let (row, col) = (geometry.row(a), geometry.col(a));
        for other_col in (0..n).filter(|&c| c != col) {
            if !allows(row * n + other_col, pair) {
                continue;
            }
            for other_row in (0..n).filter(|&r| r != row) {
                let corners = corners_of(n, geometry, a, other_row * n + other_col);
                if corners.iter().any(|&c| !allows(c, pair)) || !in_two_boxes(geometry, &corners) {
                    continue;
                }
                // Found once: from its first corner holding only the pair.
                if corners.iter().any(|&c| c < a && marks.candidates(c) == pair) {
                    continue;
                }
                out.push(Rectangle { corners, pair });
            }
        }
    }
    out
}

/// The text that opens every rectangle step: `r1c1, r1c5, r4c1 and r4c5
/// cannot all be {2,7} (the two digits could swap: two solutions)`.
fn deadly(marks: &PencilMarks, corners: &[usize], digits_of: &[u8]) -> String {
    format!(
        "{} cannot all be {} (the two digits could swap: two solutions)",
        cell_list(marks.shape(), corners),
        digit_set_text(digits_of)
    )
}

/// A rectangle step: its cells, its digits, the candidates of its corners as
/// the pattern.
fn rectangle_step(marks: &PencilMarks, technique: Technique, corners: &[usize], pair: DigitSet) -> Step {
    let pattern =
        corners.iter().flat_map(|&c| digits(marks.candidates(c) & pair).map(move |d| Candidate::new(c, d))).collect();
    Step::new(technique, marks.shape()).cells(corners.to_vec()).pattern(pattern).digits(digits(pair).collect())
}

/// Unique rectangles of types 3, 5 and 6 and hidden rectangles
/// (HoDoKu's "Uniqueness Test 3/5/6" and "Hidden Rectangle").
///
/// With `x`, `y` the rectangle's digits, "bivalue" the corners holding only
/// them and "extra" the others:
/// - type 3: two extra corners sharing a unit; at least one of them takes
///   one of their extra digits, so they act as one cell holding those: with
///   other cells of the unit (without `x` and `y`) they make a naked subset,
///   whose digits the unit's other cells lose;
/// - type 5: two diagonal or three extra corners, each with the same one
///   extra digit `z`: one of them is `z`, so cells seeing all of them lose it;
/// - type 6: two diagonal extra corners; `x` appears in the rectangle's two
///   rows and two columns only in its corners, so it sits on one diagonal,
///   and on the extra corners' diagonal it would leave the others `y`: the
///   extra corners lose `x`;
/// - hidden rectangle: one bivalue corner (or two, diagonal); in the row and
///   the column of the opposite corner `x` appears only in the rectangle:
///   the opposite corner cannot be `y` (the other three would be forced into
///   the deadly pattern).
pub(crate) fn rectangle_family(found: &mut Collector<'_>, technique: Technique) {
    let marks = found.marks;
    let geometry = marks.geometry();
    for rect in rectangles(marks) {
        let pair = rect.pair;
        // Corners holding nothing but the rectangle's digits, and the others.
        let bivalue: Vec<usize> = (0..4).filter(|&i| marks.candidates(rect.corners[i]) & !pair == 0).collect();
        let extra: Vec<usize> = (0..4).filter(|&i| marks.candidates(rect.corners[i]) & !pair != 0).collect();
        let xy: Vec<u8> = digits(pair).collect();
        let corners = rect.corners;
        let diagonal = |i: usize, j: usize| i + j == 3;
        match technique {
            Technique::UniqueRectangle3 if extra.len() == 2 => {
                let (e1, e2) = (corners[extra[0]], corners[extra[1]]);
                let shared: Vec<usize> =
                    (0..3).filter(|&k| geometry.cell_units[e1][k] == geometry.cell_units[e2][k]).collect();
                let virtual_digits = (marks.candidates(e1) | marks.candidates(e2)) & !pair;
                for k in shared {
                    let u = geometry.cell_units[e1][k];
                    let pool: Vec<usize> = geometry.unit_cells[u]
                        .iter()
                        .copied()
                        .filter(|&c| marks.value(c) == 0 && !corners.contains(&c) && marks.candidates(c) & pair == 0)
                        .collect();
                    let mut chosen = Vec::new();
                    subsets_with_roof(found, &rect, &xy, [e1, e2], k, u, &pool, 0, virtual_digits, &mut chosen);
                    if found.done() {
                        return;
                    }
                }
            }
            Technique::UniqueRectangle5 if (2..=3).contains(&extra.len()) => {
                if extra.len() == 2 && !diagonal(extra[0], extra[1]) {
                    continue; // two extra corners side by side: type 2
                }
                let extras: Vec<usize> = extra.iter().map(|&i| corners[i]).collect();
                let z_set = extras.iter().fold(0, |acc, &c| acc | (marks.candidates(c) & !pair));
                if z_set.count_ones() != 1 || extras.iter().any(|&c| marks.candidates(c) & !pair == 0) {
                    continue;
                }
                let z = z_set.trailing_zeros() as u8 + 1;
                let eliminations: Vec<Candidate> = geometry
                    .peers(extras[0])
                    .filter(|&c| {
                        marks.has(c, z) && !corners.contains(&c) && extras.iter().all(|&e| geometry.sees(c, e))
                    })
                    .map(|c| Candidate::new(c, z))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                found.push(rectangle_step(marks, technique, &corners, pair).eliminating(eliminations).reason(format!(
                    "{}; {} hold only them and {z}: one of those is {z}",
                    deadly(marks, &corners, &xy),
                    cell_list(marks.shape(), &extras)
                )));
            }
            Technique::UniqueRectangle6 if extra.len() == 2 && diagonal(extra[0], extra[1]) => {
                let lines: Vec<usize> = [0, 3]
                    .into_iter()
                    .flat_map(|i| [geometry.cell_units[corners[i]][0], geometry.cell_units[corners[i]][1]])
                    .collect();
                for &x in &xy {
                    let locked = lines.iter().all(|&u| {
                        let mut with = marks.cells_with(u, x).peekable();
                        with.peek().is_some() && marks.cells_with(u, x).all(|c| corners.contains(&c))
                    });
                    if !locked {
                        continue;
                    }
                    let y = xy.iter().copied().find(|&d| d != x).unwrap_or(x);
                    let targets = [corners[extra[0]], corners[extra[1]]];
                    found.push(
                        rectangle_step(marks, technique, &corners, pair)
                            .eliminating(targets.iter().map(|&c| Candidate::new(c, x)).collect())
                            .reason(format!(
                                "{}; in the rectangle's rows and columns {x} is only in its corners, so it lies on one diagonal; on {} it would leave the other two corners {y}",
                                deadly(marks, &corners, &xy),
                                cell_list(marks.shape(), &targets)
                            ))
                            .units(lines.iter().map(|&u| geometry.unit(u)).collect()),
                    );
                    if found.done() {
                        return;
                    }
                    break;
                }
            }
            Technique::HiddenRectangle
                if bivalue.len() == 1 || (bivalue.len() == 2 && diagonal(bivalue[0], bivalue[1])) =>
            {
                for &start in &bivalue {
                    let target = rect.opposite(start);
                    let (row, col) = (geometry.cell_units[target][0], geometry.cell_units[target][1]);
                    for &x in &xy {
                        let y = xy.iter().copied().find(|&d| d != x).unwrap_or(x);
                        let only_corners = |u: usize| {
                            marks.cells_with(u, x).next().is_some()
                                && marks.cells_with(u, x).all(|c| corners.contains(&c))
                        };
                        if !marks.has(target, y) || !only_corners(row) || !only_corners(col) {
                            continue;
                        }
                        found.push(
                            rectangle_step(marks, technique, &corners, pair)
                                .eliminating(vec![Candidate::new(target, y)])
                                .units(vec![geometry.unit(row), geometry.unit(col)])
                                .reason(format!(
                                    "{}; {} holds only them, and in {} and {} {x} is only in the rectangle: were {} {y}, the other corners would be forced into it",
                                    deadly(marks, &corners, &xy),
                                    marks.cell_name(corners[start]),
                                    geometry.unit(row),
                                    geometry.unit(col),
                                    marks.cell_name(target)
                                )),
                        );
                        if found.done() {
                            return;
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The largest naked subset (counting the two extra corners as one cell) a
/// type 3 looks for: the search stays bounded on large boards.
const MOST_SUBSET_DIGITS: u32 = 5;

/// Grows the type 3 subset from `pool[from..]`; reports every subset whose
/// digits number one more than its cells from the pool.
#[allow(clippy::too_many_arguments)]
fn subsets_with_roof(
    found: &mut Collector<'_>,
    rect: &Rectangle,
    xy: &[u8],
    roof: [usize; 2],
    kind: usize,
    unit: usize,
    pool: &[usize],
    from: usize,
    digits_so_far: DigitSet,
    chosen: &mut Vec<usize>,
) {
    let marks = found.marks;
    let geometry = marks.geometry();
    for i in from..pool.len() {
        let set = digits_so_far | marks.candidates(pool[i]);
        if set.count_ones() > MOST_SUBSET_DIGITS {
            continue;
        }
        chosen.push(pool[i]);
        let mut cells: Vec<usize> = roof.to_vec();
        cells.extend(chosen.iter().copied());
        let in_one_line = |cells: &[usize]| {
            cells.iter().all(|&c| geometry.row(c) == geometry.row(cells[0]))
                || cells.iter().all(|&c| geometry.col(c) == geometry.col(cells[0]))
        };
        // In a box, subsets along one line were found in that line.
        if set.count_ones() as usize == chosen.len() + 1 && !(kind == 2 && in_one_line(&cells)) {
            let mut units = vec![unit];
            let boxed = geometry.cell_units[cells[0]][2];
            if kind < 2 && cells.iter().all(|&c| geometry.cell_units[c][2] == boxed) {
                units.push(boxed);
            }
            let mut eliminations = Vec::new();
            for &u in &units {
                for &c in &geometry.unit_cells[u] {
                    if !cells.contains(&c) && marks.value(c) == 0 {
                        eliminations.extend(digits(marks.candidates(c) & set).map(|d| Candidate::new(c, d)));
                    }
                }
            }
            if !eliminations.is_empty() {
                let mut pattern: Vec<Candidate> = rect
                    .corners
                    .iter()
                    .flat_map(|&c| digits(marks.candidates(c) & rect.pair).map(move |d| Candidate::new(c, d)))
                    .collect();
                pattern.extend(
                    cells.iter().flat_map(|&c| digits(marks.candidates(c) & set).map(move |d| Candidate::new(c, d))),
                );
                let set_digits: Vec<u8> = digits(set).collect();
                found.push(
                    Step::new(Technique::UniqueRectangle3, marks.shape())
                        .eliminating(eliminations)
                        .cells(rect.corners.to_vec())
                        .pattern(pattern)
                        .digits(xy.to_vec())
                        .units(units.iter().map(|&u| geometry.unit(u)).collect())
                        .reason(format!(
                            "{}; one of {} is one of {}, so with {} they make a naked subset of {} in {}",
                            deadly(marks, &rect.corners, xy),
                            cell_list(marks.shape(), &roof),
                            digit_set_text(digits(
                                (marks.candidates(roof[0]) | marks.candidates(roof[1])) & !rect.pair
                            )),
                            cell_list(marks.shape(), chosen),
                            digit_set_text(&set_digits),
                            geometry.unit(unit)
                        )),
                );
                if found.done() {
                    chosen.pop();
                    return;
                }
            }
        }
        subsets_with_roof(found, rect, xy, roof, kind, unit, pool, i + 1, set, chosen);
        chosen.pop();
        if found.done() {
            return;
        }
    }
}

/// Avoidable rectangles of type 1 and 2 (HoDoKu's "Avoidable Rectangle").
///
/// Digits placed while solving (never givens) can make a deadly pattern too:
/// if `x` and `y` were placed on one side of a rectangle over two boxes and
/// the other side became `y` and `x`, the four could swap. Type 1: three
/// corners are placed that way, so the fourth cannot take the digit that
/// would complete it. Type 2: two corners of one side are placed, the two
/// others hold only the completing digit and the same `z`: one of them is
/// `z`, so cells seeing both lose it. HoDoKu starts from two placed cells of
/// one box and, for type 1, asks the open corner to be bivalue; here any side
/// of the rectangle may be the placed one and the open corner may hold more:
/// the argument is the same.
pub(crate) fn avoidable_rectangle(found: &mut Collector<'_>, technique: Technique) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let solved = |c: usize| marks.value(c) != 0 && !marks.is_given(c);
    let mut seen: Vec<[usize; 4]> = Vec::new();
    for a in (0..n * n).filter(|&c| solved(c)) {
        for b in geometry.peers(a).filter(|&b| solved(b) && marks.value(b) != marks.value(a)) {
            if geometry.row(a) != geometry.row(b) && geometry.col(a) != geometry.col(b) {
                continue;
            }
            let along_row = geometry.row(a) == geometry.row(b);
            for line in 0..n {
                // c across from a, d across from b: the deadly pattern has c = b's digit, d = a's.
                let (c, d) = if along_row {
                    (line * n + geometry.col(a), line * n + geometry.col(b))
                } else {
                    (geometry.row(a) * n + line, geometry.row(b) * n + line)
                };
                if c == a || c == b || d == a || d == b {
                    continue;
                }
                let (x, y) = (marks.value(a), marks.value(b));
                // The corners across that could make a pattern (tested again
                // below), before the rectangle's boxes: most lines have none.
                let could = match technique {
                    Technique::AvoidableRectangle1 => {
                        (solved(c) && marks.value(c) == y && marks.has(d, x))
                            || (solved(d) && marks.value(d) == x && marks.has(c, y))
                    }
                    _ => marks.has(c, y) && marks.has(d, x),
                };
                if !could {
                    continue;
                }
                let mut corners = [a, b, c, d];
                if !in_two_boxes(geometry, &corners) {
                    continue;
                }
                corners.sort_unstable();
                let step = |eliminations: Vec<Candidate>, reason: String| {
                    Step::new(technique, marks.shape())
                        .eliminating(eliminations)
                        .cells(corners.to_vec())
                        .pattern(
                            [(a, x), (b, y), (c, y), (d, x)]
                                .into_iter()
                                .filter(|&(cell, digit)| marks.has(cell, digit))
                                .map(|(cell, digit)| Candidate::new(cell, digit))
                                .collect(),
                        )
                        .digits(vec![x.min(y), x.max(y)])
                        .reason(reason)
                };
                match technique {
                    Technique::AvoidableRectangle1 => {
                        for (third, want, fourth, completing) in [(c, y, d, x), (d, x, c, y)] {
                            if !(solved(third) && marks.value(third) == want && marks.has(fourth, completing)) {
                                continue;
                            }
                            if seen.contains(&corners) {
                                continue;
                            }
                            seen.push(corners);
                            found.push(step(
                                vec![Candidate::new(fourth, completing)],
                                format!(
                                    "{} were placed (not given) as {x}, {y} and {want}: {} = {completing} would let the four swap, two solutions",
                                    cell_list(marks.shape(), &[a, b, third]),
                                    marks.cell_name(fourth)
                                ),
                            ));
                        }
                    }
                    _ => {
                        let (cc, cd) = (marks.candidates(c), marks.candidates(d));
                        if marks.value(c) != 0 || marks.value(d) != 0 || cc.count_ones() != 2 || cd.count_ones() != 2 {
                            continue;
                        }
                        let (zc, zd) = (cc & !bit(y), cd & !bit(x));
                        if cc & bit(y) == 0 || cd & bit(x) == 0 || zc != zd {
                            continue;
                        }
                        let z = zc.trailing_zeros() as u8 + 1;
                        let eliminations = super::single_digit::seeing_both(marks, z, c, d);
                        if eliminations.is_empty() || seen.contains(&corners) {
                            continue;
                        }
                        seen.push(corners);
                        found.push(step(
                            eliminations,
                            format!(
                                "{} were placed (not given) as {x} and {y}; {} holds only {y} and {z}, {} only {x} and {z}: without {z} they would complete a rectangle that could swap, so one of them is {z}",
                                cell_list(marks.shape(), &[a, b]),
                                marks.cell_name(c),
                                marks.cell_name(d)
                            ),
                        ));
                    }
                }
                if found.done() {
                    return;
                }
            }
        }
    }
}
