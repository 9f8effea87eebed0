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
/// order.
pub(crate) fn combinations(n: usize, k: usize) -> impl Iterator<Item = Vec<usize>> {
    let mut current: Option<Vec<usize>> = (k <= n).then(|| (0..k).collect());
    std::iter::from_fn(move || {
        let out = current.clone()?;
        // Advance: the rightmost index that can move right, then reset the rest.
        let next = {
            let mut c = out.clone();
            let mut i = k;
            loop {
                if i == 0 {
                    break None;
                }
                i -= 1;
                if c[i] < n - k + i {
                    c[i] += 1;
                    for j in i + 1..k {
                        c[j] = c[j - 1] + 1;
                    }
                    break Some(c);
                }
            }
        };
        current = next;
        Some(out)
    })
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
    for u in units_boxes_first(marks.side()) {
        let cells = &geometry.unit_cells[u];
        let open: Vec<usize> =
            cells.iter().copied().filter(|&c| (2..=size as u32).contains(&marks.candidates(c).count_ones())).collect();
        // Fewer empty cells than size + 1 leaves nothing to eliminate.
        if open.len() < size || cells.iter().filter(|&&c| marks.value(c) == 0).count() <= size {
            continue;
        }
        for chosen in combinations(open.len(), size) {
            let subset: Vec<usize> = chosen.iter().map(|&i| open[i]).collect();
            let union = subset.iter().fold(0u64, |acc, &c| acc | marks.candidates(c));
            if union.count_ones() as usize != size {
                continue;
            }
            let eliminations: Vec<Candidate> = cells
                .iter()
                .filter(|c| !subset.contains(c))
                .flat_map(|&c| digits(marks.candidates(c) & union).map(move |d| Candidate::new(c, d)))
                .collect();
            if eliminations.is_empty() {
                continue;
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
            if found.done() {
                return;
            }
        }
    }
}

/// `size` digits with `size` places between them in a unit.
pub(crate) fn hidden_subset(found: &mut Collector<'_>, size: usize) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    for u in units_boxes_first(n) {
        let cells = &geometry.unit_cells[u];
        let empty = cells.iter().filter(|&&c| marks.value(c) == 0).count();
        if empty <= size {
            continue;
        }
        let places: Vec<(u8, u64)> = (1..=n as u8)
            .map(|d| (d, marks.positions_in(u, d)))
            .filter(|&(_, p)| (2..=size as u32).contains(&p.count_ones()))
            .collect();
        if places.len() < size {
            continue;
        }
        for chosen in combinations(places.len(), size) {
            let union = chosen.iter().fold(0u64, |acc, &i| acc | places[i].1);
            if union.count_ones() as usize != size {
                continue;
            }
            let ds: Vec<u8> = chosen.iter().map(|&i| places[i].0).collect();
            let keep = ds.iter().fold(0u64, |acc, &d| acc | bit(d));
            let subset: Vec<usize> = positions(union).map(|k| cells[k]).collect();
            let eliminations: Vec<Candidate> = subset
                .iter()
                .flat_map(|&c| digits(marks.candidates(c) & !keep).map(move |d| Candidate::new(c, d)))
                .collect();
            if eliminations.is_empty() {
                continue;
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
            if found.done() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::combinations;

    #[test]
    fn combinations_are_all_subsets_in_order() {
        let all: Vec<Vec<usize>> = combinations(4, 2).collect();
        assert_eq!(all, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(combinations(9, 4).count(), 126);
        assert_eq!(combinations(3, 4).count(), 0);
        assert_eq!(combinations(3, 0).count(), 1);
    }
}
