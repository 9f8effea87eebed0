//! Wings: XY-wing, XYZ-wing and W-wing.
//!
//! After HoDoKu ("Wings") and sudokuwiki ("Y-Wing", "XYZ-Wing", "W-Wing"). An
//! XY-wing is a bivalue pivot `{x,y}` seeing two bivalue pincers `{x,z}` and
//! `{y,z}`: whatever the pivot holds, a pincer is `z`, so cells seeing both
//! pincers lose `z`. An XYZ-wing has a pivot `{x,y,z}`: the pivot itself may be
//! `z`, so only cells seeing all three lose it. A W-wing is two bivalue cells
//! `{x,y}` that do not see each other, joined by a strong link on `x` (a unit
//! where `x` has two places, one seen by each cell): one of the two cells is
//! `y`, so cells seeing both lose `y`.

use super::Collector;
use super::candidates::digits;
use super::single_digit::seeing_both;
use super::step::{Candidate, Step, Technique, digit_set_text};

fn bivalue_cells(marks: &super::PencilMarks) -> Vec<usize> {
    (0..marks.shape().num_cells()).filter(|&c| marks.candidates(c).count_ones() == 2).collect()
}

/// `pivot r5c5 {1,2} with pincers r5c1 {1,3} and r1c5 {2,3}`: the start of
/// an XY- or XYZ-wing's reason.
fn pivot_and_pincers(marks: &super::PencilMarks, pivot: usize, a: usize, b: usize) -> String {
    let cell = |c: usize| format!("{} {}", marks.cell_name(c), digit_set_text(digits(marks.candidates(c))));
    format!("pivot {} with pincers {} and {}", cell(pivot), cell(a), cell(b))
}

/// A bivalue pivot and two bivalue pincers.
pub(crate) fn xy_wing(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let bivalue = bivalue_cells(marks);
    for &pivot in &bivalue {
        let pair = marks.candidates(pivot);
        let seen: Vec<usize> = bivalue.iter().copied().filter(|&c| geometry.sees(pivot, c)).collect();
        for (i, &a) in seen.iter().enumerate() {
            let (ca, cb_all) = (marks.candidates(a), pair);
            // a shares exactly one digit with the pivot.
            if (ca & cb_all).count_ones() != 1 {
                continue;
            }
            let z = ca & !pair;
            for &b in &seen[i + 1..] {
                let cb = marks.candidates(b);
                // b holds z and the pivot's other digit.
                if cb != z | (pair & !ca) {
                    continue;
                }
                let zd = z.trailing_zeros() as u8 + 1;
                let eliminations = seeing_both(marks, zd, a, b);
                if eliminations.is_empty() {
                    continue;
                }
                let cells = vec![pivot, a, b];
                let pattern = Candidate::all_of(marks, &cells);
                let ds: Vec<u8> = digits(pair | z).collect();
                found.push(
                    Step::new(Technique::XyWing, marks.shape())
                        .eliminating(eliminations)
                        .pattern(pattern)
                        .reason(format!("{}: one pincer is {zd}", pivot_and_pincers(marks, pivot, a, b)))
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

/// A trivalue pivot and two bivalue pincers.
pub(crate) fn xyz_wing(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let bivalue = bivalue_cells(marks);
    for pivot in 0..marks.shape().num_cells() {
        let triple = marks.candidates(pivot);
        if triple.count_ones() != 3 {
            continue;
        }
        let seen: Vec<usize> = bivalue
            .iter()
            .copied()
            .filter(|&c| geometry.sees(pivot, c) && marks.candidates(c) & !triple == 0)
            .collect();
        for (i, &a) in seen.iter().enumerate() {
            for &b in &seen[i + 1..] {
                let (ca, cb) = (marks.candidates(a), marks.candidates(b));
                let z = ca & cb;
                if ca == cb || z.count_ones() != 1 {
                    continue;
                }
                let zd = z.trailing_zeros() as u8 + 1;
                let eliminations: Vec<Candidate> = seeing_both(marks, zd, a, b)
                    .into_iter()
                    .filter(|e| e.cell != pivot && geometry.sees(e.cell, pivot))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let cells = vec![pivot, a, b];
                let pattern = Candidate::all_of(marks, &cells);
                found.push(
                    Step::new(Technique::XyzWing, marks.shape())
                        .eliminating(eliminations)
                        .pattern(pattern)
                        .reason(format!("{}: the pivot or a pincer is {zd}", pivot_and_pincers(marks, pivot, a, b)))
                        .cells(cells)
                        .digits(digits(triple).collect()),
                );
                if found.done() {
                    return;
                }
            }
        }
    }
}

/// Two bivalue cells with the same digits joined by a strong link.
pub(crate) fn w_wing(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let bivalue = bivalue_cells(marks);
    for (i, &a) in bivalue.iter().enumerate() {
        let pair = marks.candidates(a);
        for &b in &bivalue[i + 1..] {
            if marks.candidates(b) != pair || geometry.sees(a, b) {
                continue;
            }
            for link_digit in digits(pair) {
                let other = digits(pair & !(1u64 << (link_digit - 1))).next().unwrap_or(link_digit);
                let eliminations = seeing_both(marks, other, a, b);
                if eliminations.is_empty() {
                    continue;
                }
                // A unit where link_digit has exactly two places, one seen by a, the other by b.
                for u in 0..3 * n {
                    let mut cells = marks.cells_with(u, link_digit);
                    let (Some(p), Some(q), None) = (cells.next(), cells.next(), cells.next()) else { continue };
                    let ends = if geometry.sees(a, p) && geometry.sees(b, q) && p != b && q != a {
                        Some((p, q))
                    } else if geometry.sees(a, q) && geometry.sees(b, p) && q != b && p != a {
                        Some((q, p))
                    } else {
                        None
                    };
                    let Some((end_a, end_b)) = ends else { continue };
                    if [end_a, end_b].contains(&a) || [end_a, end_b].contains(&b) {
                        continue;
                    }
                    let unit = geometry.unit(u);
                    let cells = vec![a, end_a, end_b, b];
                    let mut pattern: Vec<Candidate> =
                        [a, b].iter().flat_map(|&c| digits(pair).map(move |d| Candidate::new(c, d))).collect();
                    pattern.push(Candidate::new(end_a, link_digit));
                    pattern.push(Candidate::new(end_b, link_digit));
                    found.push(
                        Step::new(Technique::WWing, marks.shape())
                            .eliminating(eliminations.clone())
                            .units(vec![unit])
                            .pattern(pattern)
                            .reason(format!(
                                "{} and {} hold {}, and {link_digit} is in {} or {} of {unit}: one of them is {other}",
                                marks.cell_name(a),
                                marks.cell_name(b),
                                digit_set_text(digits(pair)),
                                marks.cell_name(end_a),
                                marks.cell_name(end_b),
                            ))
                            .cells(cells)
                            .digits(vec![link_digit, other]),
                    );
                    if found.done() {
                        return;
                    }
                }
            }
        }
    }
}
