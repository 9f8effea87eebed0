//! Sue de Coq: two or three cells where a line crosses a box, with a set of
//! the line and a set of the box that share none of their digits.
//!
//! After HoDoKu ("Sue de Coq", after its inventor's name on the Sudoku Players'
//! Forum) and sudokuwiki ("Sue-de-Coq"). Take `C`, two or three empty cells of
//! the intersection of a line and a box, holding the digits `V` with `|V| >=
//! |C| + 2`. Take `L`, cells of the line outside the box, and `B`, cells of the
//! box outside the line, such that no digit of `V` is a candidate in both `L`
//! and `B`; call the digits of `L` (of `B`) outside `V` its extra digits. When
//! `(|L| - extras of L) + (|B| - extras of B) = |V| - |C|`, counting shows
//! that every digit of `V` is placed once in `C`, `L` or `B` and every extra
//! digit of `L` (of `B`) once in `L` (in `B`). So the rest of the line loses
//! the digits of `V` that `B` lacks and the extras of `L`; the rest of the box
//! loses the digits of `V` that `L` lacks and the extras of `B`.
//!
//! The intersection part has two or three cells, as in HoDoKu; where a box is
//! wider or taller than three, larger parts of the intersection are not
//! tried. The subsets of the lines and boxes are searched with at most
//! [`SUBSET_BUDGET`] nodes in all, which a 9x9 does not reach.

use super::candidates::{DigitSet, digits};
use super::step::{Candidate, Step, Technique, cell_list, digit_set_text};
use super::{Collector, PencilMarks};

/// The most line and box subsets tried in one search (every line and box).
pub const SUBSET_BUDGET: usize = 50_000;

/// The largest part of the intersection (HoDoKu's: a 3x3 box's side).
const MAX_INTERSECTION: usize = 3;

/// What is fixed while the line and box sets are searched.
struct Frame<'a> {
    marks: &'a PencilMarks,
    line: usize,
    boxed: usize,
    inter: &'a [usize],
    inter_digits: DigitSet,
    line_rest: &'a [usize],
    box_rest: &'a [usize],
    budget: usize,
    /// Room for a box set (empty between uses), taken and put back so that
    /// the box sets of every line set share one allocation.
    box_set: Vec<usize>,
}

/// A Sue de Coq: the searches over every line and box that cross.
pub(crate) fn sue_de_coq(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let mut budget = SUBSET_BUDGET;
    // The intersection cells chosen (one list for every subset).
    let mut chosen: Vec<usize> = Vec::new();
    for line in 0..2 * n {
        let line_cells: Vec<usize> =
            geometry.unit_cells[line].iter().copied().filter(|&c| marks.value(c) == 0).collect();
        let mut boxes: Vec<usize> = line_cells.iter().map(|&c| geometry.cell_units[c][2]).collect();
        boxes.dedup();
        for boxed in boxes {
            let inter: Vec<usize> =
                line_cells.iter().copied().filter(|&c| geometry.cell_units[c][2] == boxed).collect();
            if inter.len() < 2 {
                continue;
            }
            let line_rest: Vec<usize> =
                line_cells.iter().copied().filter(|&c| geometry.cell_units[c][2] != boxed).collect();
            let box_rest: Vec<usize> = geometry.unit_cells[boxed]
                .iter()
                .copied()
                .filter(|&c| marks.value(c) == 0 && !geometry.unit_cells[line].contains(&c))
                .collect();
            if line_rest.is_empty() || box_rest.is_empty() {
                continue;
            }
            for mask in 1u32..(1 << inter.len().min(8)) {
                let size = mask.count_ones() as usize;
                if !(2..=MAX_INTERSECTION).contains(&size) {
                    continue;
                }
                chosen.clear();
                chosen.extend(inter.iter().enumerate().filter(|(k, _)| mask & (1 << k) != 0).map(|(_, &c)| c));
                let inter_digits = chosen.iter().fold(0, |s, &c| s | marks.candidates(c));
                if (inter_digits.count_ones() as usize) < size + 2 {
                    continue;
                }
                let mut frame = Frame {
                    marks,
                    line,
                    boxed,
                    inter: &chosen,
                    inter_digits,
                    line_rest: &line_rest,
                    box_rest: &box_rest,
                    budget,
                    box_set: Vec::new(),
                };
                let mut line_set = Vec::new();
                frame.line_sets(found, 0, 0, &mut line_set);
                budget = frame.budget;
                if found.done() || budget == 0 {
                    return;
                }
            }
        }
    }
}

/// `(cells - extra digits)`: how many digits of `V` the set places.
fn places(cells: usize, held: DigitSet, v: DigitSet) -> isize {
    cells as isize - (held & !v).count_ones() as isize
}

impl Frame<'_> {
    /// The line sets from `line_rest[start..]` on, each with every box set.
    fn line_sets(&mut self, found: &mut Collector<'_>, start: usize, held: DigitSet, set: &mut Vec<usize>) {
        let v = self.inter_digits;
        let spare = v.count_ones() as isize - self.inter.len() as isize;
        for i in start..self.line_rest.len() {
            if self.budget == 0 || found.done() {
                return;
            }
            self.budget -= 1;
            let cell = self.line_rest[i];
            let with = held | self.marks.candidates(cell);
            set.push(cell);
            let placed = places(set.len(), with, v);
            if with & v != 0 && placed > 0 && placed < spare {
                let mut box_set = std::mem::take(&mut self.box_set);
                self.box_sets(found, 0, 0, &mut box_set, set, with, spare - placed);
                self.box_set = box_set;
            }
            if placed < spare {
                self.line_sets(found, i + 1, with, set);
            }
            set.pop();
        }
    }

    /// The box sets from `box_rest[start..]` on that place `need` digits of
    /// `V` and share none with the line set.
    #[allow(clippy::too_many_arguments)]
    fn box_sets(
        &mut self,
        found: &mut Collector<'_>,
        start: usize,
        held: DigitSet,
        set: &mut Vec<usize>,
        line_set: &[usize],
        line_digits: DigitSet,
        need: isize,
    ) {
        let v = self.inter_digits;
        let forbidden = line_digits & v;
        for i in start..self.box_rest.len() {
            if self.budget == 0 || found.done() {
                return;
            }
            let cell = self.box_rest[i];
            if self.marks.candidates(cell) & forbidden != 0 {
                continue;
            }
            self.budget -= 1;
            let with = held | self.marks.candidates(cell);
            set.push(cell);
            let placed = places(set.len(), with, v);
            if with & v != 0 && placed == need {
                self.report(found, line_set, line_digits, set, with);
            }
            if placed <= need {
                self.box_sets(found, i + 1, with, set, line_set, line_digits, need);
            }
            set.pop();
        }
    }

    fn report(
        &self,
        found: &mut Collector<'_>,
        line_set: &[usize],
        line_digits: DigitSet,
        box_set: &[usize],
        box_digits: DigitSet,
    ) {
        let marks = self.marks;
        let geometry = marks.geometry();
        let v = self.inter_digits;
        let line_loses = (v & !box_digits) | (line_digits & !v);
        let box_loses = (v & !line_digits) | (box_digits & !v);
        let mut eliminations = Vec::new();
        for (unit, set, loses) in [(self.line, line_set, line_loses), (self.boxed, box_set, box_loses)] {
            for &c in &geometry.unit_cells[unit] {
                if marks.value(c) != 0 || self.inter.contains(&c) || set.contains(&c) {
                    continue;
                }
                eliminations.extend(digits(marks.candidates(c) & loses).map(|d| Candidate::new(c, d)));
            }
        }
        if eliminations.is_empty() {
            return;
        }
        let (line_unit, box_unit) = (geometry.unit(self.line), geometry.unit(self.boxed));
        let mut cells: Vec<usize> = self.inter.iter().chain(line_set).chain(box_set).copied().collect();
        cells.sort_unstable();
        let total = cells.len();
        let reason = format!(
            "{} of {line_unit} and {box_unit} hold {}; with {} {} of {line_unit} and {} {} of {box_unit}, \
             which share no digit of it, the {total} cells place each digit of the first set once and the \
             other digits of each set once in it: {} once in {line_unit}, {} once in {box_unit}",
            cell_list(marks.shape(), self.inter),
            digit_set_text(digits(v)),
            cell_list(marks.shape(), line_set),
            digit_set_text(digits(line_digits)),
            cell_list(marks.shape(), box_set),
            digit_set_text(digits(box_digits)),
            digit_set_text(digits(line_loses)),
            digit_set_text(digits(box_loses)),
        );
        let mut ds: Vec<u8> = digits(v | line_digits | box_digits).collect();
        ds.dedup();
        found.push(
            Step::new(Technique::SueDeCoq, marks.shape())
                .eliminating(eliminations)
                .pattern(Candidate::all_of(marks, &cells))
                .units(vec![line_unit, box_unit])
                .cells(cells)
                .digits(ds)
                .reason(reason),
        );
    }
}
