//! Naked and hidden subsets: pairs, triples and quads.
//!
//! After HoDoKu ("Naked/Hidden Subsets") and sudokuwiki ("Naked Candidates",
//! "Hidden Candidates"). A naked subset is `k` cells of a unit whose
//! candidates are `k` digits between them: those digits go in those cells, so
//! the unit's other cells lose them. A hidden subset is `k` digits whose
//! places in a unit are `k` cells between them: those cells hold those digits,
//! so they lose every other candidate.

use super::Collector;
use super::candidates::{bit, digits, positions};
use super::singles::units_boxes_first;
use super::step::{Candidate, Step, Technique, cell_list, digit_set_text};

/// The `k`-element subsets of `0..n` as sorted index lists, in lexicographic
/// order, one buffer reused for all: `visit` takes each in turn and returns
/// true to stop (this function then returns true).
pub(crate) fn combinations(n: usize, k: usize, mut visit: impl FnMut(&[usize]) -> bool) -> bool {
    if k > n {
        return false;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        if visit(&c) {
            return true;
        }
        // Advance: the rightmost index that can move right, then reset the rest.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else { return false };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

fn naked_technique(size: usize) -> Technique {
    match size {
        2 => Technique::NakedPair,
        3 => Technique::NakedTriple,
        _ => Technique::NakedQuad,
    }
}

fn hidden_technique(size: usize) -> Technique {
    match size {
        2 => Technique::HiddenPair,
        3 => Technique::HiddenTriple,
        _ => Technique::HiddenQuad,
    }
}

/// `size` cells of a unit with `size` candidates between them.
pub(crate) fn naked_subset(found: &mut Collector<'_>, size: usize) {
    let marks = found.marks;
    let geometry = marks.geometry();
    // A unit's cells with 2 to `size` candidates (one list for every unit).
    let mut open: Vec<usize> = Vec::new();
    for u in units_boxes_first(marks.side()) {
        let cells = &geometry.unit_cells[u];
        open.clear();
        open.extend(cells.iter().copied().filter(|&c| (2..=size as u32).contains(&marks.candidates(c).count_ones())));
        // Fewer empty cells than size + 1 leaves nothing to eliminate.
        if open.len() < size || cells.iter().filter(|&&c| marks.value(c) == 0).count() <= size {
            continue;
        }
        let stop = combinations(open.len(), size, |chosen| {
            let union = chosen.iter().fold(0u64, |acc, &i| acc | marks.candidates(open[i]));
            if union.count_ones() as usize != size {
                return false;
            }
            let subset: Vec<usize> = chosen.iter().map(|&i| open[i]).collect();
            let eliminations: Vec<Candidate> = cells
                .iter()
                .filter(|c| !subset.contains(c))
                .flat_map(|&c| digits(marks.candidates(c) & union).map(move |d| Candidate::new(c, d)))
                .collect();
            if eliminations.is_empty() {
                return false;
            }
            let ds: Vec<u8> = digits(union).collect();
            let unit = geometry.unit(u);
            let pattern = Candidate::all_of(marks, &subset);
            found.push(
                Step::new(naked_technique(size), marks.shape())
                    .eliminating(eliminations)
                    .units(vec![unit])
                    .pattern(pattern)
                    .reason(format!(
                        "{} hold only {} in {unit}",
                        cell_list(marks.shape(), &subset),
                        digit_set_text(&ds)
                    ))
                    .cells(subset)
                    .digits(ds),
            );
            found.done()
        });
        if stop {
            return;
        }
    }
}

/// `size` digits with `size` places between them in a unit.
pub(crate) fn hidden_subset(found: &mut Collector<'_>, size: usize) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    // One list of a unit's digits with their places, refilled unit by unit.
    let mut places: Vec<(u8, u64)> = Vec::with_capacity(n);
    for u in units_boxes_first(n) {
        let cells = &geometry.unit_cells[u];
        let empty = cells.iter().filter(|&&c| marks.value(c) == 0).count();
        if empty <= size {
            continue;
        }
        places.clear();
        places.extend(
            (1..=n as u8)
                .map(|d| (d, marks.positions_in(u, d)))
                .filter(|&(_, p)| (2..=size as u32).contains(&p.count_ones())),
        );
        if places.len() < size {
            continue;
        }
        let stop = combinations(places.len(), size, |chosen| {
            let union = chosen.iter().fold(0u64, |acc, &i| acc | places[i].1);
            if union.count_ones() as usize != size {
                return false;
            }
            let keep = chosen.iter().fold(0u64, |acc, &i| acc | bit(places[i].0));
            // Nothing to eliminate (often: the cells are a naked subset too).
            if positions(union).all(|k| marks.candidates(cells[k]) & !keep == 0) {
                return false;
            }
            let ds: Vec<u8> = chosen.iter().map(|&i| places[i].0).collect();
            let subset: Vec<usize> = positions(union).map(|k| cells[k]).collect();
            let eliminations: Vec<Candidate> = subset
                .iter()
                .flat_map(|&c| digits(marks.candidates(c) & !keep).map(move |d| Candidate::new(c, d)))
                .collect();
            if eliminations.is_empty() {
                return false;
            }
            let unit = geometry.unit(u);
            let pattern = subset
                .iter()
                .flat_map(|&c| digits(marks.candidates(c) & keep).map(move |d| Candidate::new(c, d)))
                .collect();
            found.push(
                Step::new(hidden_technique(size), marks.shape())
                    .eliminating(eliminations)
                    .units(vec![unit])
                    .pattern(pattern)
                    .reason(format!(
                        "in {unit}, {} can only go in {}",
                        digit_set_text(&ds),
                        cell_list(marks.shape(), &subset)
                    ))
                    .cells(subset)
                    .digits(ds),
            );
            found.done()
        });
        if stop {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::combinations;

    fn all(n: usize, k: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        combinations(n, k, |c| {
            out.push(c.to_vec());
            false
        });
        out
    }

    #[test]
    fn combinations_are_all_subsets_in_order() {
        assert_eq!(all(4, 2), vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(all(9, 4).len(), 126);
        assert_eq!(all(3, 4).len(), 0);
        assert_eq!(all(3, 0), vec![Vec::<usize>::new()]);
        // Stopping: the visit that returns true is the last.
        let mut seen = 0;
        assert!(combinations(5, 3, |c| {
            seen += 1;
            c == [0, 2, 4]
        }));
        assert_eq!(seen, 5);
    }
}
