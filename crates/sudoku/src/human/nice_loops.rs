//! Nice loops and alternating inference chains (AIC), plain and grouped.
//!
//! After HoDoKu ("Chains and Loops": nice loops, AIC, grouped nice loops) and
//! sudokuwiki ("Alternating Inference Chains", "Grouped X-Cycles"). A chain
//! alternates strong and weak links (`links.rs`) between candidates
//! and, in the grouped forms, group nodes; read as implications, a strong link
//! takes "not A" to "B" and a weak link takes "A" to "not B".
//!
//! - An AIC starts and ends with a strong link, so one of its two ends is
//!   true. Type 1: both ends the same digit; cells seeing both ends lose it.
//!   Type 2: different digits in two cells that see each other; each end
//!   loses the other end's digit.
//! - A nice loop returns to the cell it started from. Continuous: the links
//!   alternate all the way round, so the candidates of the loop are
//!   alternately true and false, every weak link holds as a strong one, and
//!   a digit in a unit of a weak link outside the loop goes (a cell whose two
//!   digits the loop joins by a weak link loses its other digits).
//!   Discontinuous: two links of one kind meet at the start. Two weak links
//!   on the start digit: it implies its own absence, it goes. Two strong
//!   links on it: its absence implies it, it is set (HoDoKu writes that as
//!   every other digit of the cell going). A weak and a strong link on
//!   different digits: the digit of the weak link goes.
//!
//! The grouped kinds may pass through ALS nodes (`links.rs`): entered on
//! one digit and left on another, or by the candidate the ALS forces. In a
//! continuous loop such an ALS is locked on its other digits (exactly one
//! of the two digits is in it, or, at a forcing, one of the ALS's digit and
//! the forced cell's other digits is missing from it), which go from the
//! cells seeing all of them in it. As HoDoKu's defaults, ALS nodes are used
//! when every instance is listed, not in the solver's steps.
//!
//! Which eliminations each kind reports is HoDoKu's (its regression
//! library's cases pass, the grouped ones with ALS nodes too). The search is breadth-first
//! over "node is true / false" from every candidate, each state reached
//! once, by a shortest chain (as HoDoKu's tables do), so a chain has at most
//! [`MAX_LINKS`] links and a search stops after [`WORK`] link visits (a
//! 25x25 or 36x36 stays usable); of the instances with the same
//! eliminations, the shortest is reported, and the solver takes the one
//! with the most eliminations.

use std::collections::HashMap;

use super::Collector;
use super::links::{Graph, Nodes};
use super::step::{Candidate, Step, Technique};

/// The most links in a chain or loop.
pub const MAX_LINKS: usize = 20;

/// The most link visits in one search (a complete search of a hard 9x9
/// makes about 20,000; the solver's time limit also stops a search).
pub const WORK: usize = 20_000_000;

/// Which kind of chain a technique reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Continuous,
    Discontinuous,
    Aic,
}

/// The technique of a kind, grouped or not.
fn technique(kind: Kind, grouped: bool) -> Technique {
    match (kind, grouped) {
        (Kind::Continuous, false) => Technique::ContinuousNiceLoop,
        (Kind::Discontinuous, false) => Technique::DiscontinuousNiceLoop,
        (Kind::Aic, false) => Technique::Aic,
        (Kind::Continuous, true) => Technique::GroupedContinuousNiceLoop,
        (Kind::Discontinuous, true) => Technique::GroupedDiscontinuousNiceLoop,
        (Kind::Aic, true) => Technique::GroupedAic,
    }
}

/// A node of a chain and whether the chain makes it true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    node: u32,
    on: bool,
}

/// What one search found: for each kind and set of eliminations, the
/// shortest chain.
#[derive(Default)]
struct Found {
    best: [HashMap<Vec<Candidate>, (usize, Step)>; 3],
}

impl Found {
    /// Sorts the eliminations and says whether they are new, or this chain
    /// shorter than the one found for them.
    fn wants(&self, kind: Kind, length: usize, eliminations: &mut Vec<Candidate>) -> bool {
        eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
        eliminations.dedup();
        !eliminations.is_empty() && self.best[kind as usize].get(eliminations).is_none_or(|(l, _)| *l > length)
    }

    fn insert(&mut self, kind: Kind, length: usize, eliminations: Vec<Candidate>, step: Step) {
        self.best[kind as usize].insert(eliminations, (length, step));
    }
}

/// The last search's board (its candidates), whether grouped, and what it
/// found by kind: the three kinds come from one search, and the solver asks
/// for them one after the other on the same board.
type Cache = Option<(Vec<u64>, Nodes, [Vec<(usize, Step)>; 3])>;

thread_local! {
    static LAST: std::cell::RefCell<Cache> = const { std::cell::RefCell::new(None) };
}

/// Nice loops or AICs of one kind; grouped ones use a group node at least once.
///
/// The solver, which wants one step, gets HoDoKu's "Nice Loop/AIC" step: the
/// best of the three kinds (the most eliminations, then the shortest chain),
/// asked for as the first of them, the continuous loop (the other two,
/// asked for alone, give their own best).
pub(crate) fn nice_loops(found: &mut Collector<'_>, kind: Kind, grouped: bool) {
    let marks = found.marks;
    // ALS nodes as HoDoKu: in every step listed, not in the solver's steps
    // (its options "allStepsAllowAlsInTablingChains" and
    // "allowAlsInTablingChains").
    let nodes = match (grouped, found.first_only) {
        (false, _) => Nodes::Plain,
        (true, true) => Nodes::Grouped,
        (true, false) => Nodes::GroupedAls,
    };
    let cached = LAST.with(|last| match &*last.borrow() {
        Some((candidates, k, all)) if *k == nodes && candidates[..] == *marks.candidate_sets() => Some(all.clone()),
        _ => None,
    });
    let all = match cached {
        Some(all) => all,
        None => {
            let all = search(found, nodes);
            LAST.with(|last| *last.borrow_mut() = Some((marks.candidate_sets().to_vec(), nodes, all.clone())));
            all
        }
    };
    if found.first_only {
        // The other two, asked for alone, give their own best.
        let kinds: &[Kind] =
            if kind == Kind::Continuous { &[Kind::Continuous, Kind::Discontinuous, Kind::Aic] } else { &[kind] };
        {
            let best = kinds
                .iter()
                .filter_map(|&k| all[k as usize].first().map(|(length, step)| (k, *length, step)))
                .min_by(|a, b| b.2.eliminations.len().cmp(&a.2.eliminations.len()).then(a.1.cmp(&b.1)));
            if let Some((k, _, step)) = best {
                let mut step = step.clone();
                step.technique = technique(k, grouped);
                found.push(step);
            }
        }
        return;
    }
    let technique = technique(kind, grouped);
    for (_, step) in &all[kind as usize] {
        let mut step = step.clone();
        step.technique = technique;
        found.push(step);
    }
}

/// Every kind of nice loop and AIC on the board, best first.
fn search(found: &Collector<'_>, nodes: Nodes) -> [Vec<(usize, Step)>; 3] {
    let marks = found.marks;
    let graph = Graph::new(marks, nodes);
    let grouped = nodes != Nodes::Plain;
    let cells = marks.shape().num_cells();
    let layers = if grouped { 2 } else { 1 };
    // States: (node * 2 + on) * layers + (1 once a group node is used).
    let states = graph.len() * 2 * layers;
    let state = |link: Link, g: usize| ((link.node as usize * 2 + usize::from(link.on)) * layers + g) as u32;
    let mut parent = vec![0u32; states];
    let mut stamp = vec![0u32; states];
    let mut epoch = 0u32;
    // A search reaches each state once: never more than `states` queued.
    let mut queue: Vec<(u32, u8)> = Vec::with_capacity(states);
    let mut out = Found::default();
    let mut closing: Vec<Link> = Vec::new();
    let mut work = 0usize;
    let decode = |s: u32| decode(s, layers);
    'starts: for start in 0..cells {
        if found.out_of_time() || work > WORK {
            break;
        }
        for digit in marks.candidate_digits(start) {
            for start_on in [true, false] {
                let first = Link { node: graph.node(start, digit), on: start_on };
                if !start_on && graph.strong[first.node as usize].is_empty() {
                    continue;
                }
                epoch += 1;
                let first_state = state(first, 0);
                stamp[first_state as usize] = epoch;
                parent[first_state as usize] = first_state;
                queue.clear();
                queue.push((first_state, 0));
                let mut head = 0;
                while head < queue.len() {
                    let (s, depth) = queue[head];
                    head += 1;
                    let (at, g) = decode(s);
                    let depth = usize::from(depth);
                    if depth + 1 > MAX_LINKS {
                        continue;
                    }
                    // Back to the start cell: a loop (at least three links).
                    if depth + 1 >= 3 && (!grouped || g == 1) {
                        closings(marks, &graph, at, start, &mut closing);
                        for &close in &closing {
                            check_loop(
                                marks,
                                &graph,
                                (first, close),
                                depth + 2,
                                || rebuild(&parent, s, layers, close),
                                &mut out,
                            );
                        }
                    }
                    let next: &[u32] =
                        if at.on { &graph.weak[at.node as usize] } else { &graph.strong[at.node as usize] };
                    work += next.len();
                    for &node in next {
                        // The start cell only by the first link (a bivalue start,
                        // or its other digits); after that it closes a loop.
                        if depth > 0 && graph.in_cell(node, start) {
                            continue;
                        }
                        let link = Link { node, on: !at.on };
                        let g2 = if grouped { g | usize::from(graph.is_grouped(node)) } else { 0 };
                        let t = state(link, g2);
                        if stamp[t as usize] == epoch {
                            continue;
                        }
                        stamp[t as usize] = epoch;
                        parent[t as usize] = s;
                        queue.push((t, (depth + 1) as u8));
                        if !start_on && link.on && depth + 1 >= 3 && (!grouped || g2 == 1) {
                            if let Some(end) = graph.cell(node) {
                                let ends = (start, digit, end, graph.digit(node));
                                check_aic(
                                    marks,
                                    &graph,
                                    ends,
                                    depth + 2,
                                    || rebuild(&parent, s, layers, link),
                                    &mut out,
                                );
                            }
                        }
                    }
                }
                if work > WORK {
                    break 'starts;
                }
            }
        }
    }
    out.best.map(|best| {
        let mut steps: Vec<(usize, Step)> = best.into_values().collect();
        // The most eliminations first, then the shortest chain, then by place.
        steps.sort_by(|a, b| {
            b.1.eliminations
                .len()
                .cmp(&a.1.eliminations.len())
                .then(a.0.cmp(&b.0))
                .then(a.1.eliminations.cmp(&b.1.eliminations))
        });
        steps
    })
}

/// A state's link and layer (`layers` is 1 or 2: shifts, not divisions).
fn decode(s: u32, layers: usize) -> (Link, usize) {
    debug_assert!(layers.is_power_of_two());
    let g = s as usize & (layers - 1);
    let rest = s as usize >> layers.trailing_zeros();
    (Link { node: (rest / 2) as u32, on: rest % 2 == 1 }, g)
}

/// The chain from the root to state `s`, then `last`.
fn rebuild(parent: &[u32], mut s: u32, layers: usize, last: Link) -> Vec<Link> {
    // A chain has at most MAX_LINKS links besides the closing one: one
    // allocation, not a growth from one link up.
    let mut links = Vec::with_capacity(MAX_LINKS + 2);
    links.push(last);
    loop {
        links.push(decode(s, layers).0);
        if parent[s as usize] == s {
            break;
        }
        s = parent[s as usize];
    }
    links.reverse();
    links
}

/// The candidates of the start cell a chain at `at` reaches in one link:
/// through a weak link when `at` is true, a strong one when it is false.
fn closings(marks: &super::PencilMarks, graph: &Graph, at: Link, start: usize, out: &mut Vec<Link>) {
    let geometry = marks.geometry();
    out.clear();
    if at.on {
        let digit = graph.digit(at.node);
        if !marks.has(start, digit) {
            return;
        }
        let sees = match graph.cell(at.node) {
            Some(cell) => geometry.sees(cell, start),
            None => graph.cells(at.node).iter().all(|&c| geometry.sees(c, start)),
        };
        if sees {
            out.push(Link { node: graph.node(start, digit), on: false });
        }
    } else {
        for &node in &graph.strong[at.node as usize] {
            if graph.in_cell(node, start) {
                out.push(Link { node, on: true });
            }
        }
    }
}

/// Whether the links `a` then `b` pass through one ALS: entered on one
/// digit, left on another (its strong link).
fn through_als(graph: &Graph, a: Link, b: Link) -> bool {
    matches!((graph.als_node(a.node), graph.als_node(b.node)), (Some(x), Some(y)) if x.als == y.als && b.on)
}

/// The chain in Eureka notation: `(5)r1c2 = (5)r1c7 - (7)r1c7`, an ALS
/// passed through as `(7=3)r4c123` (the digits in and out, all its cells).
fn chain_text(marks: &super::PencilMarks, graph: &Graph, path: &[Link]) -> String {
    let mut text = String::new();
    let mut i = 0;
    while i < path.len() {
        let link = path[i];
        if i > 0 {
            text.push_str(if link.on { " = " } else { " - " });
        }
        match path.get(i + 1) {
            Some(&next) if through_als(graph, link, next) => {
                let name = graph.name(marks, next.node);
                let cells = name.split_once(')').map_or("", |(_, cells)| cells);
                text.push_str(&format!("({}={}){cells}", graph.digit(link.node), graph.digit(next.node)));
                i += 2;
            }
            _ => {
                text.push_str(&graph.name(marks, link.node));
                i += 1;
            }
        }
    }
    text
}

/// The step's pattern: every candidate of the chain (all of an ALS's), and
/// its cells.
fn pattern(marks: &super::PencilMarks, graph: &Graph, path: &[Link]) -> (Vec<Candidate>, Vec<usize>, Vec<u8>) {
    let mut candidates = Vec::new();
    let mut cells = Vec::new();
    let mut ds = Vec::new();
    for link in path {
        let digit = graph.digit(link.node);
        if let Some(als) = graph.als_node(link.node).and_then(|a| graph.als(a)) {
            for candidate in Candidate::all_of(marks, &als.cells) {
                if !candidates.contains(&candidate) {
                    candidates.push(candidate);
                }
            }
            for &c in &als.cells {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
        }
        for &c in graph.cells(link.node) {
            let candidate = Candidate::new(c, digit);
            if !candidates.contains(&candidate) {
                candidates.push(candidate);
            }
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        if !ds.contains(&digit) {
            ds.push(digit);
        }
    }
    ds.sort_unstable();
    (candidates, cells, ds)
}

/// The step of a chain.
fn chain_step(
    marks: &super::PencilMarks,
    graph: &Graph,
    technique: Technique,
    path: &[Link],
    eliminations: Vec<Candidate>,
    reason: String,
) -> Step {
    let (pattern, cells, ds) = pattern(marks, graph, path);
    Step::new(technique, marks.shape())
        .eliminating(eliminations)
        .pattern(pattern)
        .cells(cells)
        .digits(ds)
        .reason(reason)
}

/// A loop from the start back to its cell: `ends` are the start and the
/// candidate of the start cell it closes on, `length` its number of nodes,
/// `path` rebuilds it.
fn check_loop(
    marks: &super::PencilMarks,
    graph: &Graph,
    ends: (Link, Link),
    length: usize,
    path: impl FnOnce() -> Vec<Link>,
    out: &mut Found,
) {
    let geometry = marks.geometry();
    let (first, last) = ends;
    let start = graph.cell(first.node).unwrap_or(0);
    let (sd, ed) = (graph.digit(first.node), graph.digit(last.node));
    // The first link is strong when the start is false, the last when the
    // closing candidate is true.
    let (first_strong, last_strong) = (!first.on, last.on);
    let discontinuous: Option<Vec<Candidate>> = if !first_strong && !last_strong && sd == ed {
        Some(vec![Candidate::new(start, sd)])
    } else if first_strong && last_strong && sd == ed {
        Some(marks.candidate_digits(start).filter(|&d| d != sd).map(|d| Candidate::new(start, d)).collect())
    } else if first_strong != last_strong && sd != ed {
        Some(vec![Candidate::new(start, if first_strong { ed } else { sd })])
    } else {
        None
    };
    if let Some(mut eliminations) = discontinuous {
        if !out.wants(Kind::Discontinuous, length, &mut eliminations) {
            return;
        }
        let path = path();
        let name = marks.cell_name(start);
        let text = chain_text(marks, graph, &path);
        let reason = if !first_strong && !last_strong {
            format!("if {name} is {sd}, the loop {text} makes it not {sd}")
        } else if first_strong && last_strong {
            format!("if {name} is not {sd}, the loop {text} makes it {sd}, so it is {sd}")
        } else if first_strong {
            format!("{name} is {sd} or, by the loop {text}, not {ed}: either way not {ed}")
        } else {
            format!("if {name} is {sd}, the loop {text} makes it {ed}")
        };
        let step = chain_step(marks, graph, Technique::DiscontinuousNiceLoop, &path, eliminations.clone(), reason);
        out.insert(Kind::Discontinuous, length, eliminations, step);
        return;
    }
    let bivalue = marks.candidates(start).count_ones() == 2;
    let continuous = (!first_strong && !last_strong && bivalue && sd != ed)
        || (first_strong && last_strong && sd != ed)
        || (first_strong != last_strong && sd == ed);
    if !continuous {
        return;
    }
    let path = path();
    let mut on_loop: Vec<usize> = Vec::with_capacity(path.len());
    for link in &path[..path.len() - 1] {
        on_loop.extend(graph.cells(link.node));
    }
    let mut eliminations = Vec::new();
    // A cell entered and left by strong links between cells, with a weak
    // link between its two digits: it holds one of them.
    for i in 1..path.len().saturating_sub(2) {
        let (prev, at, next, after) = (path[i - 1], path[i], path[i + 1], path[i + 2]);
        let Some(cell) = graph.cell(at.node) else { continue };
        if graph.cell(prev.node) == Some(cell) || !at.on {
            continue;
        }
        if graph.cell(next.node) != Some(cell) || next.on || !after.on || graph.cell(after.node) == Some(cell) {
            continue;
        }
        let keep = [graph.digit(at.node), graph.digit(next.node)];
        for d in marks.candidate_digits(cell) {
            if !keep.contains(&d) {
                eliminations.push(Candidate::new(cell, d));
            }
        }
    }
    // The start cell, left and entered by strong links on two digits.
    if first_strong && last_strong {
        for d in marks.candidate_digits(start) {
            if d != sd && d != ed {
                eliminations.push(Candidate::new(start, d));
            }
        }
    }
    // An ALS entered on one digit and left on another: exactly one of the
    // two is in it (the loop's strong links hold as weak ones), so it is
    // locked on its other digits, which go from the cells seeing all their
    // cells in it (HoDoKu).
    for pair in path.windows(2) {
        if !through_als(graph, pair[0], pair[1]) {
            continue;
        }
        let Some(als) = graph.als_node(pair[0].node).and_then(|a| graph.als(a)) else { continue };
        let keep = [graph.digit(pair[0].node), graph.digit(pair[1].node)];
        for d in super::candidates::digits(als.digits) {
            if !keep.contains(&d) {
                eliminations.extend(als.reach(d).iter().map(|&c| Candidate::new(c, d)));
            }
        }
    }
    // An ALS that forces a cell (its strong link to a candidate): exactly
    // one holds, the ALS without its digit or the cell with the forced one;
    // either way the ALS lacks one digit among its own and the cell's other
    // digits (the cell sees all of each in it), so it holds its other
    // digits, and each of the cell's other digits is in the cell or in the
    // ALS (HoDoKu).
    for pair in path.windows(2) {
        if !pair[1].on {
            continue;
        }
        let (a, forced) = match (graph.als_node(pair[0].node), graph.als_node(pair[1].node)) {
            (Some(a), None) => (a, pair[1].node),
            (None, Some(a)) => (a, pair[0].node),
            _ => continue,
        };
        let (Some(als), Some(cell)) = (graph.als(a), graph.cell(forced)) else { continue };
        let exits = marks.candidates(cell) & !super::candidates::bit(graph.digit(forced));
        for d in super::candidates::digits(als.digits) {
            if d == a.digit {
                continue;
            }
            let cells = als.reach(d).iter().copied();
            if exits & super::candidates::bit(d) == 0 {
                eliminations.extend(cells.map(|c| Candidate::new(c, d)));
            } else {
                eliminations.extend(cells.filter(|&c| geometry.sees(c, cell)).map(|c| Candidate::new(c, d)));
            }
        }
    }
    // A weak link between cells: the digit goes from cells seeing both ends.
    for i in 1..path.len() {
        let (prev, at) = (path[i - 1], path[i]);
        if at.on {
            continue;
        }
        if graph.cell(prev.node).is_some() && graph.cell(prev.node) == graph.cell(at.node) {
            continue;
        }
        let digit = graph.digit(at.node);
        let (a, b) = (graph.cells(prev.node), graph.cells(at.node));
        for c in geometry.peers(a[0]) {
            if marks.has(c, digit)
                && !on_loop.contains(&c)
                && a.iter().all(|&x| geometry.sees(c, x))
                && b.iter().all(|&x| geometry.sees(c, x))
            {
                eliminations.push(Candidate::new(c, digit));
            }
        }
    }
    if !out.wants(Kind::Continuous, length, &mut eliminations) {
        return;
    }
    let reason = format!(
        "{} is a closed loop: its candidates are alternately true and false, so every weak link is strong too",
        chain_text(marks, graph, &path)
    );
    let step = chain_step(marks, graph, Technique::ContinuousNiceLoop, &path, eliminations.clone(), reason);
    out.insert(Kind::Continuous, length, eliminations, step);
}

/// An AIC: `ends` are the start cell and digit (false) and the end cell and
/// digit (true), `length` its number of nodes, `path` rebuilds it.
fn check_aic(
    marks: &super::PencilMarks,
    graph: &Graph,
    ends: (usize, u8, usize, u8),
    length: usize,
    path: impl FnOnce() -> Vec<Link>,
    out: &mut Found,
) {
    let geometry = marks.geometry();
    let (start, sd, end, ed) = ends;
    let mut eliminations: Vec<Candidate> = if sd == ed {
        geometry
            .peers(start)
            .filter(|&c| c != end && marks.has(c, sd) && geometry.sees(c, end))
            .map(|c| Candidate::new(c, sd))
            .collect()
    } else {
        if !geometry.sees(start, end) {
            return;
        }
        let mut list = Vec::new();
        if marks.has(start, ed) {
            list.push(Candidate::new(start, ed));
        }
        if marks.has(end, sd) {
            list.push(Candidate::new(end, sd));
        }
        list
    };
    // One elimination of type 1 is a discontinuous nice loop's (HoDoKu).
    if (sd == ed && eliminations.len() < 2) || !out.wants(Kind::Aic, length, &mut eliminations) {
        return;
    }
    let path = path();
    let text = chain_text(marks, graph, &path);
    let (a, b) = (format!("{} is {sd}", marks.cell_name(start)), format!("{} is {ed}", marks.cell_name(end)));
    let reason = if sd == ed {
        format!("{text}: {a} or {b}")
    } else {
        format!("{text}: {a} or {b}, and the two cells see each other")
    };
    let step = chain_step(marks, graph, Technique::Aic, &path, eliminations.clone(), reason);
    out.insert(Kind::Aic, length, eliminations, step);
}
