//! Chains: remote pairs, X-chains and XY-chains.
//!
//! After HoDoKu ("Chains and Loops") and sudokuwiki ("X-Chains", "XY-Chains",
//! "Remote Pairs"). A chain alternates strong links (if one end is false the
//! other is true: a conjugate pair, or the two digits of a bivalue cell) and
//! weak links (both ends cannot be true: two candidates of a digit in one
//! unit, or two digits of one cell). A chain that starts and ends with strong
//! links proves that one of its two ends is true, so a candidate that sees
//! both ends is false.
//!
//! - An X-chain uses one digit: conjugate pairs as strong links.
//! - An XY-chain goes through bivalue cells: from the digit a cell is not to
//!   the digit it then is, and on to a seen bivalue cell that therefore is not
//!   that digit. When the chain starts by denying `x` in its first cell and
//!   ends by asserting `x` in its last, cells seeing both lose `x`.
//! - Remote pairs: a chain of bivalue cells with the same two digits, each
//!   seeing the next; cells an odd number of links apart hold different
//!   digits, so a cell seeing two of them (at least three links apart) loses
//!   both digits.
//!
//! The chains are found by breadth-first search over "candidate is true /
//! false" states, so each is a shortest chain between its two ends.

use std::collections::VecDeque;

use super::Collector;
use super::candidates::{bit, digits};
use super::links;
use super::step::{Candidate, Step, Technique, digit_set_text};

/// X-chains of `digit`: for each pair of ends, one chain.
pub(crate) fn x_chain(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let cells = marks.shape().num_cells();
    for digit in 1..=n as u8 {
        // Its candidates as they were when this search last found nothing.
        if found.fruitless(Technique::XChain, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        let nodes: Vec<usize> = (0..cells).filter(|&c| marks.has(c, digit)).collect();
        if nodes.len() < 4 {
            continue;
        }
        // strong[c]: the cells conjugate to c in some unit.
        let strong = links::conjugates(marks, digit);
        let weak = |c: usize| geometry.peers(c).filter(move |&p| marks.has(p, digit));
        // States: 2 * cell + (1 if the candidate is true). Parent links rebuild the chain.
        let mut parent = vec![usize::MAX; 2 * cells];
        for &start in &nodes {
            if strong[start].is_empty() {
                continue;
            }
            for p in parent.iter_mut() {
                *p = usize::MAX;
            }
            let start_state = 2 * start;
            parent[start_state] = start_state;
            let mut queue = VecDeque::from([start_state]);
            let mut ends = Vec::new();
            while let Some(state) = queue.pop_front() {
                let (cell, on) = (state / 2, state % 2 == 1);
                if on {
                    if cell > start && !strong[start].contains(&cell) {
                        ends.push(cell);
                    }
                    for next in weak(cell) {
                        let s = 2 * next;
                        if parent[s] == usize::MAX {
                            parent[s] = state;
                            queue.push_back(s);
                        }
                    }
                } else {
                    for &next in &strong[cell] {
                        let s = 2 * next + 1;
                        if parent[s] == usize::MAX {
                            parent[s] = state;
                            queue.push_back(s);
                        }
                    }
                }
            }
            for end in ends {
                let eliminations: Vec<Candidate> = geometry
                    .peers(start)
                    .filter(|&c| c != end && marks.has(c, digit) && geometry.sees(c, end))
                    .map(|c| Candidate::new(c, digit))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let path = rebuild(&parent, 2 * end + 1);
                let chain: Vec<usize> = path.iter().map(|s| s / 2).collect();
                let mut text = String::new();
                for (i, &cell) in chain.iter().enumerate() {
                    if i > 0 {
                        text.push_str(if i % 2 == 1 { " = " } else { " - " });
                    }
                    text.push_str(&marks.cell_name(cell));
                }
                found.push(
                    Step::new(Technique::XChain, marks.shape())
                        .eliminating(eliminations)
                        .pattern(chain.iter().map(|&c| Candidate::new(c, digit)).collect())
                        .digits(vec![digit])
                        .reason(format!(
                            "chain on {digit} ({text}, '=' strong, '-' weak): {} or {} is {digit}",
                            marks.cell_name(start),
                            marks.cell_name(end)
                        ))
                        .cells(chain),
                );
                if found.done() {
                    return;
                }
            }
        }
        found.searched(Technique::XChain, digit, steps_before);
    }
}

/// The states from the root to `state`, following parent links.
fn rebuild(parent: &[usize], mut state: usize) -> Vec<usize> {
    let mut path = vec![state];
    while parent[state] != state {
        state = parent[state];
        path.push(state);
    }
    path.reverse();
    path
}

/// XY-chains through bivalue cells.
pub(crate) fn xy_chain(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let n = marks.side();
    let cells = marks.shape().num_cells();
    let bivalue: Vec<usize> = (0..cells).filter(|&c| marks.candidates(c).count_ones() == 2).collect();
    if bivalue.len() < 3 {
        return;
    }
    let is_bivalue = {
        let mut v = vec![false; cells];
        for &c in &bivalue {
            v[c] = true;
        }
        v
    };
    // States: cell * n + (digit - 1): the cell is that digit (on).
    let index = |cell: usize, digit: u8| cell * n + usize::from(digit - 1);
    // A state's parent counts in the search of the current epoch only (no
    // clearing of every state's for each search).
    let mut parent = vec![0; cells * n];
    let mut stamp = vec![0u32; cells * n];
    let mut epoch = 0u32;
    let mut queue = VecDeque::new();
    let mut ends = Vec::new();
    for &start in &bivalue {
        for x in digits(marks.candidates(start)) {
            epoch += 1;
            let y = digits(marks.candidates(start) & !bit(x)).next().unwrap_or(x);
            let first = index(start, y);
            parent[first] = first;
            stamp[first] = epoch;
            queue.clear();
            queue.push_back(first);
            ends.clear();
            while let Some(state) = queue.pop_front() {
                let (cell, v) = (state / n, (state % n) as u8 + 1);
                if v == x && cell > start {
                    ends.push(state);
                }
                for next in geometry.peers(cell) {
                    if !is_bivalue[next] || !marks.has(next, v) || next == start {
                        continue;
                    }
                    let w = digits(marks.candidates(next) & !bit(v)).next().unwrap_or(v);
                    let s = index(next, w);
                    if stamp[s] != epoch {
                        stamp[s] = epoch;
                        parent[s] = state;
                        queue.push_back(s);
                    }
                }
            }
            for &end_state in &ends {
                let end = end_state / n;
                let path = rebuild(&parent, end_state);
                if path.len() < 3 {
                    continue;
                }
                let eliminations: Vec<Candidate> = geometry
                    .peers(start)
                    .filter(|&c| c != end && marks.has(c, x) && geometry.sees(c, end))
                    .map(|c| Candidate::new(c, x))
                    .collect();
                if eliminations.is_empty() {
                    continue;
                }
                let chain: Vec<usize> = path.iter().map(|s| s / n).collect();
                let text: Vec<String> = chain
                    .iter()
                    .map(|&c| format!("{}{}", marks.cell_name(c), digit_set_text(digits(marks.candidates(c)))))
                    .collect();
                let pattern = Candidate::all_of(marks, &chain);
                found.push(
                    Step::new(Technique::XyChain, marks.shape())
                        .eliminating(eliminations)
                        .pattern(pattern)
                        .digits(vec![x])
                        .reason(format!(
                            "chain of bivalue cells {}: if {} is not {x} then {} is {x}",
                            text.join(" - "),
                            marks.cell_name(start),
                            marks.cell_name(end)
                        ))
                        .cells(chain),
                );
                if found.done() {
                    return;
                }
            }
        }
    }
}

/// Remote pairs: chains of bivalue cells with the same two digits.
pub(crate) fn remote_pair(found: &mut Collector<'_>) {
    let marks = found.marks;
    let geometry = marks.geometry();
    let cells = marks.shape().num_cells();
    let mut pairs: Vec<u64> = (0..cells).map(|c| marks.candidates(c)).filter(|c| c.count_ones() == 2).collect();
    pairs.sort_unstable();
    pairs.dedup();
    for pair in pairs {
        let group: Vec<usize> = (0..cells).filter(|&c| marks.candidates(c) == pair).collect();
        if group.len() < 4 {
            continue;
        }
        let ds: Vec<u8> = digits(pair).collect();
        let mut seen_eliminations: Vec<Vec<Candidate>> = Vec::new();
        // Chains by length, shortest first, so the explanation is the shortest one.
        for length in 4..=group.len().min(16) {
            let mut budget = 50_000usize;
            for &start in &group {
                let mut path = vec![start];
                extend(marks, &group, &mut path, length, &mut budget, &mut |path: &[usize]| {
                    if path[0] > path[path.len() - 1] {
                        return false;
                    }
                    let mut eliminations = Vec::new();
                    for i in 0..path.len() {
                        for j in (i + 3..path.len()).step_by(2) {
                            for c in geometry.peers(path[i]) {
                                if !path.contains(&c) && geometry.sees(c, path[j]) {
                                    for &d in &ds {
                                        if marks.has(c, d) {
                                            eliminations.push(Candidate::new(c, d));
                                        }
                                    }
                                }
                            }
                        }
                    }
                    eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
                    eliminations.dedup();
                    if eliminations.is_empty() || seen_eliminations.contains(&eliminations) {
                        return false;
                    }
                    seen_eliminations.push(eliminations.clone());
                    let names: Vec<String> = path.iter().map(|&c| marks.cell_name(c)).collect();
                    found.push(
                        Step::new(Technique::RemotePair, marks.shape())
                            .eliminating(eliminations)
                            .pattern(path.iter().flat_map(|&c| ds.iter().map(move |&d| Candidate::new(c, d))).collect())
                            .cells(path.to_vec())
                            .digits(ds.clone())
                            .reason(format!(
                                "{} all hold {} and each sees the next, so they alternate",
                                names.join(" - "),
                                digit_set_text(&ds)
                            )),
                    );
                    found.done()
                });
                if found.done() {
                    return;
                }
            }
        }
    }
}

/// Depth-first extension of a simple path through `group` to `length` cells;
/// `visit` returns true to stop.
fn extend(
    marks: &super::PencilMarks,
    group: &[usize],
    path: &mut Vec<usize>,
    length: usize,
    budget: &mut usize,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if path.len() == length {
        return visit(path);
    }
    let last = path[path.len() - 1];
    for &next in group {
        if !path.contains(&next) && marks.geometry().sees(last, next) {
            path.push(next);
            let stop = extend(marks, group, path, length, budget, visit);
            path.pop();
            if stop {
                return true;
            }
        }
    }
    false
}
