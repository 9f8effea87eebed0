//! Basic fish (X-wing, swordfish, jellyfish) and their finned and sashimi
//! variants.
//!
//! After HoDoKu ("Basic Fish", "Finned/Sashimi Fish") and sudokuwiki
//! ("X-Wing", "Swordfish", "Jellyfish", "Finned X-Wing"). A fish of size `k`
//! on a digit takes `k` base lines (rows, or columns) whose candidates of the
//! digit all lie in `k` cover lines (columns, or rows): the digit is placed
//! once in each base line, which fills every cover line, so the cover lines'
//! other cells lose it. A finned fish has extra candidates, the fins, all in
//! one box: either a fin is true, or the fish is; the cells of the cover lines
//! that see every fin (those in the fins' box) lose the digit either way. As
//! in HoDoKu, a finned fish is sashimi when a base line has only one candidate
//! besides the fins (the fish without its fins would be degenerate).

use super::Collector;
use super::candidates::positions;
use super::step::{Candidate, Step, Technique, and_list};
use super::subsets::combinations;
use crate::grid::Unit;

/// Which fish a search reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Basic,
    Finned,
    Sashimi,
}

fn technique(size: usize, kind: Kind) -> Technique {
    match (size, kind) {
        (2, Kind::Basic) => Technique::XWing,
        (3, Kind::Basic) => Technique::Swordfish,
        (_, Kind::Basic) => Technique::Jellyfish,
        (2, Kind::Finned) => Technique::FinnedXWing,
        (3, Kind::Finned) => Technique::FinnedSwordfish,
        (_, Kind::Finned) => Technique::FinnedJellyfish,
        (2, Kind::Sashimi) => Technique::SashimiXWing,
        (3, Kind::Sashimi) => Technique::SashimiSwordfish,
        (_, Kind::Sashimi) => Technique::SashimiJellyfish,
    }
}

/// Fish of `size` lines of the `kind` asked for, rows as base lines and then
/// columns.
pub(crate) fn fish(found: &mut Collector<'_>, size: usize, kind: Kind) {
    let marks = found.marks;
    let n = marks.side();
    let box_masks = [box_masks(marks, 0), box_masks(marks, 1)];
    let this = technique(size, kind);
    for digit in 1..=n as u8 {
        // A digit whose candidates are as they were when its search last
        // found nothing.
        if found.fruitless(this, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        for (base_kind, masks) in box_masks.iter().enumerate() {
            let search = Search::new(marks, digit, base_kind, size, kind, masks);
            if search.lines.len() < size {
                continue;
            }
            let mut base = Vec::with_capacity(size);
            if search.extend(found, &mut base, 0, 0) {
                return;
            }
        }
        found.searched(this, digit, steps_before);
    }
}

/// For base lines of `base_kind`: `mask[line * n + box]`, the cover indices
/// of the line inside the box.
fn box_masks(marks: &super::PencilMarks, base_kind: usize) -> Vec<u64> {
    let geometry = marks.geometry();
    let n = marks.side();
    let mut box_mask = vec![0u64; n * n];
    for line in 0..n {
        for c in 0..n {
            let cell = if base_kind == 0 { line * n + c } else { c * n + line };
            box_mask[line * n + geometry.box_of(cell)] |= 1 << c;
        }
    }
    box_mask
}

/// One digit and one orientation of a fish search.
struct Search<'a> {
    digit: u8,
    base_kind: usize,
    size: usize,
    kind: Kind,
    n: usize,
    /// masks[i]: the positions (cover indices) of the digit in base line i.
    masks: Vec<u64>,
    /// The base lines that can take part.
    lines: Vec<usize>,
    /// The most cover positions a combination of base lines may span: `size`
    /// for a basic fish; with fins in one box, `size` plus the box's width
    /// along the base lines.
    max_union: u32,
    /// box_mask[line * n + box]: the cover indices of a base line inside a box.
    box_mask: &'a [u64],
}

impl<'a> Search<'a> {
    fn new(
        marks: &super::PencilMarks,
        digit: u8,
        base_kind: usize,
        size: usize,
        kind: Kind,
        box_mask: &'a [u64],
    ) -> Search<'a> {
        let n = marks.side();
        let masks: Vec<u64> = (0..n).map(|i| marks.positions_in(base_kind * n + i, digit)).collect();
        let width = if base_kind == 0 { marks.shape().box_cols() } else { marks.shape().box_rows() };
        let max_union = if kind == Kind::Basic { size } else { size + width } as u32;
        let lines: Vec<usize> = (0..n)
            .filter(|&i| {
                let count = masks[i].count_ones();
                count >= 1 && count <= max_union
            })
            .collect();
        Search { digit, base_kind, size, kind, n, masks, lines, max_union, box_mask }
    }

    /// The cell of base line `b` at cover index `c`.
    #[inline]
    fn cell_at(&self, b: usize, c: usize) -> usize {
        if self.base_kind == 0 { b * self.n + c } else { c * self.n + b }
    }

    /// Chooses base lines from `lines[from..]` depth first, pruning unions
    /// too wide to be covered; returns true to stop.
    fn extend(&self, found: &mut Collector<'_>, base: &mut Vec<usize>, from: usize, union: u64) -> bool {
        // The combinations of base lines grow as the side to the fish's size.
        if found.out_of_time() {
            return true;
        }
        if base.len() == self.size {
            return self.examine(found, base, union);
        }
        for i in from..self.lines.len() {
            if self.lines.len() - i < self.size - base.len() {
                break;
            }
            let line = self.lines[i];
            let wider = union | self.masks[line];
            if wider.count_ones() > self.max_union {
                continue;
            }
            base.push(line);
            let stop = self.extend(found, base, i + 1, wider);
            base.pop();
            if stop {
                return true;
            }
        }
        false
    }

    /// Reports the fish on these base lines; returns true to stop.
    fn examine(&self, found: &mut Collector<'_>, base: &[usize], union: u64) -> bool {
        let marks = found.marks;
        let geometry = marks.geometry();
        let (n, digit, size) = (self.n, self.digit, self.size);
        let cover_kind = 1 - self.base_kind;
        let base_set = base.iter().fold(0u64, |acc, &b| acc | 1 << b);
        if self.kind == Kind::Basic {
            if union.count_ones() as usize != size {
                return false;
            }
            let mut eliminations = Vec::new();
            for c in positions(union) {
                let others = marks.positions_in(cover_kind * n + c, digit) & !base_set;
                for b in positions(others) {
                    eliminations.push(Candidate::new(self.cell_at(b, c), digit));
                }
            }
            if eliminations.is_empty() {
                return false;
            }
            let covers: Vec<usize> = positions(union).collect();
            push_fish(found, size, self.kind, digit, base, &covers, self.base_kind, &[], eliminations, &self.masks);
            return found.done();
        }
        if union.count_ones() as usize <= size {
            return false;
        }
        // The fins lie in one box; try each box a base candidate is in (a
        // bit per box, smallest first).
        let mut boxes = 0u64;
        for &b in base {
            for c in positions(self.masks[b]) {
                boxes |= 1 << geometry.box_of(self.cell_at(b, c));
            }
        }
        for fin_box in positions(boxes) {
            let in_box = |b: usize| self.box_mask[b * n + fin_box];
            let required = base.iter().fold(0u64, |acc, &b| acc | (self.masks[b] & !in_box(b)));
            let have = required.count_ones() as usize;
            if have > size {
                continue;
            }
            let pool_mask = base.iter().fold(0u64, |acc, &b| acc | (self.masks[b] & in_box(b))) & !required;
            let need = size - have;
            if need > pool_mask.count_ones() as usize {
                continue;
            }
            // The cells the fish can remove the digit from: in the fins' box,
            // outside the base lines, in a cover line; by cover index.
            let mut removable = 0u64;
            for &cell in &geometry.unit_cells[2 * n + fin_box] {
                let (b, c) = self.line_and_index(cell);
                if base_set & 1 << b == 0 && marks.has(cell, digit) {
                    removable |= 1 << c;
                }
            }
            if removable & (required | pool_mask) == 0 {
                continue;
            }
            let pool: Vec<usize> = positions(pool_mask).collect();
            let stop = combinations(pool.len(), need, |extra| {
                let cover = extra.iter().fold(required, |acc, &i| acc | 1 << pool[i]);
                if removable & cover == 0 {
                    return false;
                }
                // Every base line keeps a candidate in the cover lines, and
                // some candidate lies outside them (a fin).
                if base.iter().any(|&b| self.masks[b] & cover == 0) || base.iter().all(|&b| self.masks[b] & !cover == 0)
                {
                    return false;
                }
                let sashimi = base.iter().any(|&b| (self.masks[b] & cover).count_ones() == 1);
                if sashimi != (self.kind == Kind::Sashimi) {
                    return false;
                }
                let eliminations: Vec<Candidate> = geometry.unit_cells[2 * n + fin_box]
                    .iter()
                    .copied()
                    .filter(|&cell| {
                        let (b, c) = self.line_and_index(cell);
                        base_set & 1 << b == 0 && cover & 1 << c != 0 && marks.has(cell, digit)
                    })
                    .map(|cell| Candidate::new(cell, digit))
                    .collect();
                let fins: Vec<usize> = base
                    .iter()
                    .flat_map(|&b| positions(self.masks[b] & !cover).map(move |c| self.cell_at(b, c)))
                    .collect();
                let covers: Vec<usize> = positions(cover).collect();
                push_fish(
                    found,
                    size,
                    self.kind,
                    digit,
                    base,
                    &covers,
                    self.base_kind,
                    &fins,
                    eliminations,
                    &self.masks,
                );
                found.done()
            });
            if stop {
                return true;
            }
        }
        false
    }

    /// A cell's base line and cover index.
    #[inline]
    fn line_and_index(&self, cell: usize) -> (usize, usize) {
        let (row, col) = (cell / self.n, cell % self.n);
        if self.base_kind == 0 { (row, col) } else { (col, row) }
    }
}

#[expect(clippy::too_many_arguments, reason = "the parts of one fish, named")]
fn push_fish(
    found: &mut Collector<'_>,
    size: usize,
    kind: Kind,
    digit: u8,
    base: &[usize],
    covers: &[usize],
    base_kind: usize,
    fins: &[usize],
    eliminations: Vec<Candidate>,
    masks: &[u64],
) {
    let marks = found.marks;
    let n = marks.side();
    let unit_of = |kind: usize, i: usize| if kind == 0 { Unit::Row(i) } else { Unit::Column(i) };
    let cell_at = |b: usize, c: usize| if base_kind == 0 { b * n + c } else { c * n + b };
    let base_units: Vec<Unit> = base.iter().map(|&b| unit_of(base_kind, b)).collect();
    let cover_units: Vec<Unit> = covers.iter().map(|&c| unit_of(1 - base_kind, c)).collect();
    let mut body = Vec::new();
    for &b in base {
        for c in positions(masks[b]) {
            let cell = cell_at(b, c);
            if !fins.contains(&cell) {
                body.push(cell);
            }
        }
    }
    let (base_word, cover_word) = if base_kind == 0 { ("rows", "columns") } else { ("columns", "rows") };
    let numbers = |xs: &[usize]| and_list(&xs.iter().map(|x| (x + 1).to_string()).collect::<Vec<_>>());
    let mut reason = format!("the {digit}s of {base_word} {} lie in {cover_word} {}", numbers(base), numbers(covers));
    if !fins.is_empty() {
        let names: Vec<String> = fins.iter().map(|&c| marks.cell_name(c)).collect();
        reason.push_str(&format!(" except the fin{} {}", if fins.len() > 1 { "s" } else { "" }, and_list(&names)));
    }
    let mut pattern: Vec<Candidate> = body.iter().map(|&c| Candidate::new(c, digit)).collect();
    pattern.extend(fins.iter().map(|&c| Candidate::new(c, digit)));
    let mut cells = body;
    cells.extend_from_slice(fins);
    let mut units = base_units;
    units.extend(cover_units);
    found.push(
        Step::new(technique(size, kind), marks.shape())
            .eliminating(eliminations)
            .units(units)
            .cells(cells)
            .pattern(pattern)
            .digits(vec![digit])
            .reason(reason),
    );
}
