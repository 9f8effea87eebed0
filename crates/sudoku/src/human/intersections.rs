//! Intersections of a box and a line: locked candidates (pointing and
//! claiming) and locked pairs and triples.
//!
//! After HoDoKu ("Locked Candidates", "Locked Pair/Triple") and sudokuwiki
//! ("Intersection Removal"). Pointing (HoDoKu's type 1): when a box's
//! candidates of a digit all lie in one line, the digit goes in that line's
//! part of the box, so the rest of the line loses it. Claiming (type 2): when
//! a line's candidates all lie in one box, the rest of the box loses it. A
//! locked pair or triple is a naked subset inside the cells a box shares with
//! a line: both units lose its digits.

use super::Collector;
use super::candidates::{bit, digits, positions};
use super::step::{Candidate, Step, Technique, cell_list, digit_set_text};
use super::subsets::combinations;

/// A box's candidates of a digit in one line: the rest of the line loses it.
pub(crate) fn pointing(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for b in 0..n {
        let box_unit = 2 * n + b;
        let box_cells = &geometry.unit_cells[box_unit];
        for digit in 1..=n as u8 {
            let mask = marks.positions_in(box_unit, digit);
            if mask.count_ones() < 2 {
                continue;
            }
            for kind in 0..2 {
                let line = geometry.cell_units[box_cells[mask.trailing_zeros() as usize]][kind];
                if positions(mask).any(|k| geometry.cell_units[box_cells[k]][kind] != line) {
                    continue;
                }
                // Cheap test first: does the line have the digit outside the box at all?
                if marks.positions_in(line, digit).count_ones() == mask.count_ones() {
                    continue;
                }
                let cells: Vec<usize> = positions(mask).map(|k| box_cells[k]).collect();
                let eliminations: Vec<Candidate> = marks
                    .cells_with(line, digit)
                    .filter(|&c| geometry.box_of(c) != b)
                    .map(|c| Candidate::new(c, digit))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let (boxed, line_unit) = (geometry.unit(box_unit), geometry.unit(line));
                found.push(
                    Step::new(Technique::Pointing, marks.shape())
                        .eliminating(eliminations)
                        .units(vec![boxed, line_unit])
                        .pattern(cells.iter().map(|&c| Candidate::new(c, digit)).collect())
                        .cells(cells.clone())
                        .digits(vec![digit])
                        .reason(format!("in {boxed} the {digit}s are all in {line_unit}")),
                );
                if found.done() {
                    return;
                }
            }
        }
    }
}

/// A line's candidates of a digit in one box: the rest of the box loses it.
pub(crate) fn claiming(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for line in 0..2 * n {
        let line_cells = &geometry.unit_cells[line];
        for digit in 1..=n as u8 {
            let mask = marks.positions_in(line, digit);
            if mask.count_ones() < 2 {
                continue;
            }
            let b = geometry.box_of(line_cells[mask.trailing_zeros() as usize]);
            if positions(mask).any(|k| geometry.box_of(line_cells[k]) != b) {
                continue;
            }
            if marks.positions_in(2 * n + b, digit).count_ones() == mask.count_ones() {
                continue;
            }
            let cells: Vec<usize> = positions(mask).map(|k| line_cells[k]).collect();
            let kind = line / n;
            let eliminations: Vec<Candidate> = marks
                .cells_with(2 * n + b, digit)
                .filter(|&c| geometry.cell_units[c][kind] != line)
                .map(|c| Candidate::new(c, digit))
                .collect();
            if eliminations.is_empty() {
                continue;
            }
            let (boxed, line_unit) = (geometry.unit(2 * n + b), geometry.unit(line));
            found.push(
                Step::new(Technique::Claiming, marks.shape())
                    .eliminating(eliminations)
                    .units(vec![line_unit, boxed])
                    .pattern(cells.iter().map(|&c| Candidate::new(c, digit)).collect())
                    .cells(cells.clone())
                    .digits(vec![digit])
                    .reason(format!("in {line_unit} the {digit}s are all in {boxed}")),
            );
            if found.done() {
                return;
            }
        }
    }
}

/// A naked pair (`size` 2) or triple (3) in the cells a box shares with a
/// line: both units lose its digits.
pub(crate) fn locked_subset(found: &mut Collector<'_>, size: usize) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let technique = if size == 2 { Technique::LockedPair } else { Technique::LockedTriple };
    // The lists of one box and line, made once for all.
    let (mut lines, mut shared): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for b in 0..n {
        let box_unit = 2 * n + b;
        for kind in 0..2 {
            // The lines crossing the box, each once.
            lines.clear();
            lines.extend(geometry.unit_cells[box_unit].iter().map(|&c| geometry.cell_units[c][kind]));
            lines.sort_unstable();
            lines.dedup();
            for &line in &lines {
                shared.clear();
                shared.extend(
                    geometry.unit_cells[box_unit]
                        .iter()
                        .copied()
                        .filter(|&c| geometry.cell_units[c][kind] == line && marks.value(c) == 0)
                        .filter(|&c| (2..=size as u32).contains(&marks.candidates(c).count_ones())),
                );
                if shared.len() < size {
                    continue;
                }
                let stop = combinations(shared.len(), size, |chosen| {
                    let union = chosen.iter().fold(0u64, |acc, &i| acc | marks.candidates(shared[i]));
                    if union.count_ones() as usize != size {
                        return false;
                    }
                    let cells: Vec<usize> = chosen.iter().map(|&i| shared[i]).collect();
                    // As in HoDoKu, both units lose something; otherwise it is
                    // a plain naked subset of the one unit that does.
                    let mut eliminations = Vec::new();
                    let mut both = true;
                    for unit in [box_unit, line] {
                        let before = eliminations.len();
                        for &c in &geometry.unit_cells[unit] {
                            if cells.contains(&c) || (unit == line && geometry.box_of(c) == b) {
                                continue;
                            }
                            for digit in digits(marks.candidates(c) & union) {
                                eliminations.push(Candidate::new(c, digit));
                            }
                        }
                        both &= eliminations.len() > before;
                    }
                    if !both {
                        return false;
                    }
                    let ds: Vec<u8> = digits(union).collect();
                    let (boxed, line_unit) = (geometry.unit(box_unit), geometry.unit(line));
                    let pattern = cells
                        .iter()
                        .flat_map(|&c| {
                            ds.iter()
                                .filter(move |&&d| marks.candidates(c) & bit(d) != 0)
                                .map(move |&d| Candidate::new(c, d))
                        })
                        .collect();
                    found.push(
                        Step::new(technique, marks.shape())
                            .eliminating(eliminations)
                            .units(vec![boxed, line_unit])
                            .pattern(pattern)
                            .reason(format!(
                                "{} hold only {} and lie in both {boxed} and {line_unit}",
                                cell_list(marks.shape(), &cells),
                                digit_set_text(&ds)
                            ))
                            .cells(cells)
                            .digits(ds),
                    );
                    found.done()
                });
                if stop {
                    return;
                }
            }
        }
    }
}
