//! Simple colouring (single-digit colouring): trap and wrap; multi-colours.
//!
//! After HoDoKu ("Simple Colors") and sudokuwiki ("Simple Colouring"). The
//! conjugate pairs of a digit (units where it has exactly two places) link
//! cells; a connected cluster is coloured in two colours so that linked cells
//! differ, and exactly one colour holds the digit. Trap: a cell outside the
//! cluster that sees both colours loses the digit. Wrap: when two cells of one
//! colour see each other, that colour is false and all its cells lose the
//! digit. Multi-colours (HoDoKu's "Multi Colors", sudokuwiki's "Multi-Colouring")
//! compare two clusters of one digit: see `multi_colors`.

use super::Collector;
use super::step::{Candidate, Step, Technique, cell_list};

/// The clusters of a digit: each a list of `(cell, colour)`, colour 0 or 1.
fn clusters(marks: &super::PencilMarks, digit: u8) -> Vec<Vec<(usize, u8)>> {
    let geometry = marks.geometry();
    let n = marks.side();
    let cells = marks.shape().num_cells();
    let mut links: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for u in 0..3 * n {
        let mut with = marks.cells_with(u, digit);
        if let (Some(a), Some(b), None) = (with.next(), with.next(), with.next()) {
            if !links[a].contains(&b) {
                links[a].push(b);
                links[b].push(a);
            }
        }
    }
    let _ = geometry;
    let mut colour: Vec<Option<u8>> = vec![None; cells];
    let mut out = Vec::new();
    for start in 0..cells {
        if links[start].is_empty() || colour[start].is_some() {
            continue;
        }
        let mut cluster = vec![(start, 0u8)];
        colour[start] = Some(0);
        let mut at = 0;
        while at < cluster.len() {
            let (cell, c) = cluster[at];
            at += 1;
            for &next in &links[cell] {
                if colour[next].is_none() {
                    colour[next] = Some(1 - c);
                    cluster.push((next, 1 - c));
                }
            }
        }
        out.push(cluster);
    }
    out
}

/// Simple colours, trap (`wrap` false) or wrap (`wrap` true).
pub(crate) fn simple_colors(found: &mut Collector<'_>, wrap: bool) {
    let marks = found.marks;
    let this = if wrap { Technique::SimpleColorsWrap } else { Technique::SimpleColorsTrap };
    let geometry = marks.geometry();
    let n = marks.side();
    for digit in 1..=n as u8 {
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(this, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        for cluster in clusters(marks, digit) {
            if cluster.len() < 3 {
                continue;
            }
            let colour_cells = |c: u8| cluster.iter().filter(move |x| x.1 == c).map(|x| x.0);
            let names = |c: u8| colour_cells(c).map(|cell| marks.cell_name(cell)).collect::<Vec<_>>().join(" ");
            let pattern: Vec<Candidate> = cluster.iter().map(|&(cell, _)| Candidate::new(cell, digit)).collect();
            let cells: Vec<usize> = cluster.iter().map(|x| x.0).collect();
            if wrap {
                for c in 0..2u8 {
                    let same: Vec<usize> = colour_cells(c).collect();
                    let clash = same
                        .iter()
                        .enumerate()
                        .find_map(|(i, &a)| same[i + 1..].iter().find(|&&b| geometry.sees(a, b)).map(|&b| (a, b)));
                    let Some((a, b)) = clash else { continue };
                    let eliminations: Vec<Candidate> = same.iter().map(|&cell| Candidate::new(cell, digit)).collect();
                    found.push(
                        Step::new(Technique::SimpleColorsWrap, marks.shape())
                            .eliminating(eliminations)
                            .pattern(pattern.clone())
                            .cells(cells.clone())
                            .digits(vec![digit])
                            .reason(format!(
                                "colouring the {digit}s: {} and {} have the same colour and see each other, so that colour ({}) is false (other colour: {})",
                                marks.cell_name(a),
                                marks.cell_name(b),
                                names(c),
                                names(1 - c)
                            )),
                    );
                    if found.done() {
                        return;
                    }
                }
            } else {
                let in_cluster = |cell: usize| cluster.iter().any(|x| x.0 == cell);
                let eliminations: Vec<Candidate> = (0..marks.shape().num_cells())
                    .filter(|&cell| marks.has(cell, digit) && !in_cluster(cell))
                    .filter(|&cell| {
                        colour_cells(0).any(|x| geometry.sees(cell, x))
                            && colour_cells(1).any(|x| geometry.sees(cell, x))
                    })
                    .map(|cell| Candidate::new(cell, digit))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                found.push(
                    Step::new(Technique::SimpleColorsTrap, marks.shape())
                        .eliminating(eliminations)
                        .pattern(pattern)
                        .cells(cells)
                        .digits(vec![digit])
                        .reason(format!(
                            "colouring the {digit}s by conjugate pairs: one of the colours {} / {} is true, and these cells see both",
                            names(0),
                            names(1)
                        )),
                );
                if found.done() {
                    return;
                }
            }
        }
        found.searched(this, digit, steps_before);
    }
}

/// Multi-colours (HoDoKu's "Multi Colors 1" and "Multi Colors 2"): two
/// clusters of one digit, each coloured in two colours, one colour of each
/// true.
///
/// - Type 1 (`second` false): a cell of colour `a` sees a cell of colour
///   `b` of the other cluster, so `a` and `b` are not both true: the other
///   colour of one cluster or of the other is, and a cell seeing both of those
///   loses the digit (all four such crossings at once).
/// - Type 2 (`second` true): the cells of one colour see both colours of the
///   other cluster, one of which is true: that colour is false and its cells
///   lose the digit.
pub(crate) fn multi_colors(found: &mut Collector<'_>, second: bool) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let technique = if second { Technique::MultiColors2 } else { Technique::MultiColors1 };
    let mut reported: Vec<Vec<Candidate>> = Vec::new();
    for digit in 1..=n as u8 {
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(technique, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        let colours: Vec<[Vec<usize>; 2]> = clusters(marks, digit)
            .into_iter()
            .map(|cluster| [0u8, 1].map(|c| cluster.iter().filter(|x| x.1 == c).map(|x| x.0).collect::<Vec<usize>>()))
            .collect();
        let sees = |xs: &[usize], ys: &[usize]| xs.iter().any(|&x| ys.iter().any(|&y| geometry.sees(x, y)));
        let names = |cells: &[usize]| cell_list(marks.shape(), cells);
        for (i, a) in colours.iter().enumerate() {
            for (j, b) in colours.iter().enumerate() {
                if i == j {
                    continue;
                }
                let mut eliminations: Vec<Candidate> = Vec::new();
                let mut why: Vec<String> = Vec::new();
                if second {
                    for side in a {
                        if sees(side, &b[0]) && sees(side, &b[1]) {
                            eliminations.extend(side.iter().map(|&c| Candidate::new(c, digit)));
                            why.push(format!(
                                "{} see both colours of the other cluster ({} / {}), one of which is {digit}, so they are not",
                                names(side),
                                names(&b[0]),
                                names(&b[1])
                            ));
                        }
                    }
                } else {
                    for (ka, kb) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                        if !sees(&a[ka], &b[kb]) {
                            continue;
                        }
                        let (other_a, other_b) = (&a[1 - ka], &b[1 - kb]);
                        let before = eliminations.len();
                        eliminations.extend(
                            (0..n * n)
                                .filter(|&c| marks.has(c, digit) && !other_a.contains(&c) && !other_b.contains(&c))
                                .filter(|&c| {
                                    other_a.iter().any(|&x| geometry.sees(c, x))
                                        && other_b.iter().any(|&y| geometry.sees(c, y))
                                })
                                .map(|c| Candidate::new(c, digit)),
                        );
                        if eliminations.len() > before {
                            why.push(format!(
                                "{} and {} see each other, so {} or {} is {digit}",
                                names(&a[ka]),
                                names(&b[kb]),
                                names(other_a),
                                names(other_b)
                            ));
                        }
                    }
                }
                if eliminations.is_empty() {
                    continue;
                }
                eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
                eliminations.dedup();
                if reported.contains(&eliminations) {
                    continue;
                }
                reported.push(eliminations.clone());
                let cells: Vec<usize> = a.iter().chain(b.iter()).flatten().copied().collect();
                found.push(
                    Step::new(technique, marks.shape())
                        .eliminating(eliminations)
                        .pattern(cells.iter().map(|&c| Candidate::new(c, digit)).collect())
                        .cells(cells)
                        .digits(vec![digit])
                        .reason(format!(
                            "colouring the {digit}s by conjugate pairs in two clusters ({} / {} and {} / {}): {}",
                            names(&a[0]),
                            names(&a[1]),
                            names(&b[0]),
                            names(&b[1]),
                            why.join("; ")
                        )),
                );
                if found.done() {
                    return;
                }
            }
        }
        found.searched(technique, digit, steps_before);
    }
}
