//! Strong and weak links between candidates, group nodes and ALS nodes:
//! what every chain and loop is made of.
//!
//! After HoDoKu ("Chains and Loops": links, group nodes, ALS nodes) and
//! sudokuwiki ("Alternating Inference Chains", "Grouped X-Cycles"). A link
//! joins two nodes, each a candidate (a digit in a cell), a group node (the
//! candidates of one digit in the intersection of a box and a line, at least
//! two cells, true when the digit is in one of them) or an ALS node (the
//! candidates of one digit in an almost locked set of two cells or more,
//! `als.rs`, true when the digit is in one of them):
//!
//! - weak: both cannot be true: two digits of one cell, or one digit in two
//!   cells (or groups) of one unit, or one digit in a node and in an ALS
//!   node whose every cell with the digit it sees (a candidate, a group
//!   node, or another ALS node's cells that do not overlap the ALS);
//! - strong: both cannot be false: the two digits of a bivalue cell, or the
//!   only two places of a digit in a unit (a conjugate pair), one of them
//!   possibly a group node; or two digits of one ALS: without one of them
//!   the ALS is locked on its other digits and holds the other.
//!
//! Every strong link between candidates and group nodes is also weak (the
//! two ends share a cell or a unit), so a chain may use it in either role;
//! the strong links inside an ALS are not (an ALS may hold both digits), so
//! a chain enters an ALS node by a weak link on one digit and leaves it by
//! a weak link on another (HoDoKu's ALS node, `(x=z)` in Eureka). ALS nodes
//! are HoDoKu's for digits that some candidate outside the ALS sees in all
//! its cells (the only digits a chain can enter or leave by); the
//! collection's bounds (`als.rs`) bound them.

use std::cell::RefCell;
use std::rc::Rc;

use super::PencilMarks;
use super::als::{self, AlsesAndLinks};
use super::candidates::{bit, digits};

/// The conjugate pairs of `digit`: for every cell, the cells that are the
/// only other place of the digit in one of its units (the strong links of
/// one digit, each listed once per end).
pub(crate) fn conjugates(marks: &PencilMarks, digit: u8) -> Vec<Vec<usize>> {
    let n = marks.side();
    let mut strong: Vec<Vec<usize>> = vec![Vec::new(); marks.shape().num_cells()];
    for u in 0..3 * n {
        let mut with = marks.cells_with(u, digit);
        if let (Some(a), Some(b), None) = (with.next(), with.next(), with.next())
            && !strong[a].contains(&b)
        {
            strong[a].push(b);
            strong[b].push(a);
        }
    }
    strong
}

/// A group node: the candidates of `digit` in the intersection of a box and
/// a line (two cells or more).
#[derive(Clone, Debug)]
pub(crate) struct Group {
    pub(crate) digit: u8,
    /// The cells, in reading order.
    pub(crate) cells: Vec<usize>,
    /// The box's and the line's unit indices.
    pub(crate) units: [usize; 2],
}

/// An ALS node: the candidates of one digit in an almost locked set.
#[derive(Clone, Debug)]
pub(crate) struct AlsNode {
    /// The ALS's index in the board's ALS collection (`als::alses_and_links`).
    pub(crate) als: usize,
    pub(crate) digit: u8,
    /// The ALS's cells with the digit, ascending.
    pub(crate) cells: Vec<usize>,
}

/// Which nodes a graph has besides candidates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Nodes {
    /// Candidates only.
    Plain,
    /// Candidates and group nodes.
    Grouped,
    /// Candidates, group nodes and ALS nodes.
    GroupedAls,
}

/// The link graph of a board: nodes are candidates (`cell * n + digit - 1`)
/// and, when asked for, group nodes (numbered after them) and ALS nodes
/// (numbered after those).
pub(crate) struct Graph {
    side: usize,
    candidates: usize,
    pub(crate) groups: Vec<Group>,
    pub(crate) als_nodes: Vec<AlsNode>,
    /// The board's ALSs when the graph has ALS nodes.
    alses: Option<Rc<AlsesAndLinks>>,
    /// For every node, the nodes it is strongly linked to.
    pub(crate) strong: Vec<Vec<u32>>,
    /// For every node, the nodes it is weakly linked to that have a strong
    /// link themselves (a chain can only go on from those).
    pub(crate) weak: Vec<Vec<u32>>,
    /// Every cell, in order: a candidate node's cells are one of them.
    each_cell: Vec<usize>,
}

thread_local! {
    /// The link lists of graphs gone, emptied, for the next graph to fill: a
    /// solve builds a graph for every pass that reaches the nice loops, and
    /// their lists' allocations were a good part of the building.
    static SPARE: RefCell<Vec<Vec<Vec<u32>>>> = const { RefCell::new(Vec::new()) };
}

/// The most lists of lists [`SPARE`] keeps (a graph has two).
const SPARE_LISTS: usize = 2;

/// `total` empty link lists, reusing a graph's gone when there is one.
fn empty_lists(total: usize) -> Vec<Vec<u32>> {
    let mut lists = SPARE.with(|spare| spare.borrow_mut().pop()).unwrap_or_default();
    lists.truncate(total);
    for list in &mut lists {
        list.clear();
    }
    lists.resize_with(total, Vec::new);
    lists
}

impl Drop for Graph {
    fn drop(&mut self) {
        // The weak lists first: the next graph takes its strong lists first,
        // and a node's lists of each kind are about as long from graph to graph.
        let lists = [std::mem::take(&mut self.weak), std::mem::take(&mut self.strong)];
        // A graph dropped while the thread ends just frees its lists.
        let _ = SPARE.try_with(|spare| {
            let mut spare = spare.borrow_mut();
            for list in lists {
                if spare.len() < SPARE_LISTS {
                    spare.push(list);
                }
            }
        });
    }
}

impl Graph {
    /// The links of a board, with the nodes asked for.
    pub(crate) fn new(marks: &PencilMarks, kinds: Nodes) -> Graph {
        let n = marks.side();
        let cells = marks.shape().num_cells();
        let geometry = marks.geometry();
        let groups = if kinds == Nodes::Plain { Vec::new() } else { groups(marks) };
        // The groups come digit by digit: those of a digit, by index.
        let of_digit =
            |digit: u8| groups.partition_point(|h| h.digit < digit)..groups.partition_point(|h| h.digit <= digit);
        let candidates = cells * n;
        let alses = (kinds == Nodes::GroupedAls).then(|| als::alses_and_links(marks));
        let als_nodes = alses.as_deref().map_or_else(Vec::new, |(alses, _)| als_nodes(marks, alses));
        let als_base = candidates + groups.len();
        let total = als_base + als_nodes.len();
        let mut strong = empty_lists(total);
        let node = |cell: usize, digit: u8| (cell * n + usize::from(digit - 1)) as u32;
        let add = |list: &mut Vec<Vec<u32>>, a: u32, b: u32| {
            if !list[a as usize].contains(&b) {
                list[a as usize].push(b);
                list[b as usize].push(a);
            }
        };
        // Bivalue cells.
        for cell in 0..cells {
            let set = marks.candidates(cell);
            if set.count_ones() == 2 {
                let mut ds = digits(set);
                if let (Some(x), Some(y)) = (ds.next(), ds.next()) {
                    add(&mut strong, node(cell, x), node(cell, y));
                }
            }
        }
        // Conjugate pairs.
        for digit in 1..=n as u8 {
            for (a, others) in conjugates(marks, digit).iter().enumerate() {
                for &b in others {
                    add(&mut strong, node(a, digit), node(b, digit));
                }
            }
        }
        // Group nodes: strong to the one other cell, or the one other group,
        // of the digit in one of their units.
        let mut others: Vec<usize> = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let gid = (candidates + g) as u32;
            for &u in &group.units {
                others.clear();
                others.extend(marks.cells_with(u, group.digit).filter(|c| !group.cells.contains(c)));
                if let [one] = others[..] {
                    add(&mut strong, gid, node(one, group.digit));
                } else if others.len() >= 2
                    && let Some(h) = of_digit(group.digit).find(|&h| groups[h].cells == others)
                {
                    add(&mut strong, gid, (candidates + h) as u32);
                }
            }
        }
        // ALS nodes: strong to the other digits of their ALS, and to the
        // candidates they force.
        let mut k = 0;
        while k < als_nodes.len() {
            let end = k + als_nodes[k..].iter().take_while(|a| a.als == als_nodes[k].als).count();
            for a in k..end {
                for b in a + 1..end {
                    add(&mut strong, (als_base + a) as u32, (als_base + b) as u32);
                }
            }
            if let Some((alses, _)) = alses.as_deref() {
                for (a, forced) in (k..end).zip(forcings(marks, &alses[als_nodes[k].als], &als_nodes[k..end])) {
                    for (cell, digit) in forced {
                        add(&mut strong, (als_base + a) as u32, node(cell, digit));
                    }
                }
            }
            k = end;
        }
        let linked = |id: u32| !strong[id as usize].is_empty();
        let mut weak = empty_lists(total);
        for cell in 0..cells {
            for digit in digits(marks.candidates(cell)) {
                let a = node(cell, digit);
                let list = &mut weak[a as usize];
                for other in digits(marks.candidates(cell)) {
                    if other != digit && linked(node(cell, other)) {
                        list.push(node(cell, other));
                    }
                }
                for peer in geometry.peers(cell) {
                    if marks.has(peer, digit) && linked(node(peer, digit)) {
                        list.push(node(peer, digit));
                    }
                }
            }
        }
        let mut seen: Vec<usize> = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            let gid = (candidates + g) as u32;
            // The cells of its box and line outside it see every cell of it.
            seen.clear();
            for &u in &group.units {
                for c in marks.cells_with(u, group.digit) {
                    if !group.cells.contains(&c) && !seen.contains(&c) {
                        seen.push(c);
                    }
                }
            }
            for &c in &seen {
                let a = node(c, group.digit);
                if linked(a) {
                    weak[gid as usize].push(a);
                }
                if linked(gid) {
                    weak[a as usize].push(gid);
                }
            }
            // Other groups of the digit in one of its units, not overlapping it.
            let range = of_digit(group.digit);
            for (h, other) in groups.iter().enumerate().take(range.end).skip(range.start) {
                if h != g
                    && other.digit == group.digit
                    && other.units.iter().any(|u| group.units.contains(u))
                    && !other.cells.iter().any(|c| group.cells.contains(c))
                    && linked((candidates + h) as u32)
                {
                    weak[gid as usize].push((candidates + h) as u32);
                }
            }
        }
        if let Some((alses, links)) = alses.as_deref() {
            let ends = (&groups[..], candidates, &strong[..]);
            als_weak_links(marks, (alses, links), ends, (&als_nodes, als_base), &mut weak);
        }
        Graph { side: n, candidates, groups, als_nodes, alses, strong, weak, each_cell: (0..cells).collect() }
    }

    /// The number of nodes.
    pub(crate) fn len(&self) -> usize {
        self.strong.len()
    }

    /// The node of a candidate.
    pub(crate) fn node(&self, cell: usize, digit: u8) -> u32 {
        (cell * self.side + usize::from(digit - 1)) as u32
    }

    /// The group of a node, if it is a group node.
    pub(crate) fn group(&self, node: u32) -> Option<&Group> {
        (node as usize).checked_sub(self.candidates).and_then(|g| self.groups.get(g))
    }

    /// The ALS node of a node, if it is one.
    pub(crate) fn als_node(&self, node: u32) -> Option<&AlsNode> {
        (node as usize).checked_sub(self.candidates + self.groups.len()).and_then(|a| self.als_nodes.get(a))
    }

    /// The ALS of an ALS node.
    pub(crate) fn als(&self, node: &AlsNode) -> Option<&als::Als> {
        self.alses.as_deref().and_then(|(alses, _)| alses.get(node.als))
    }

    /// Whether a node is a group node or an ALS node (a grouped chain uses
    /// one at least).
    pub(crate) fn is_grouped(&self, node: u32) -> bool {
        node as usize >= self.candidates
    }

    /// The cell of a candidate node (`None` for a group node).
    pub(crate) fn cell(&self, node: u32) -> Option<usize> {
        ((node as usize) < self.candidates).then(|| node as usize / self.side)
    }

    /// Whether a node is a candidate of `cell` (as `cell(node) == Some(cell)`,
    /// without a division: the search asks it of every link it follows).
    pub(crate) fn in_cell(&self, node: u32, cell: usize) -> bool {
        (node as usize).wrapping_sub(cell * self.side) < self.side
    }

    /// The digit of a node.
    pub(crate) fn digit(&self, node: u32) -> u8 {
        match (self.group(node), self.als_node(node)) {
            (Some(group), _) => group.digit,
            (None, Some(a)) => a.digit,
            (None, None) => (node as usize % self.side) as u8 + 1,
        }
    }

    /// The cells of a node (one, a group's, or an ALS's with its digit).
    pub(crate) fn cells(&self, node: u32) -> &[usize] {
        match (self.cell(node), self.group(node), self.als_node(node)) {
            (Some(cell), _, _) => &self.each_cell[cell..=cell],
            (None, Some(group), _) => &group.cells,
            (None, None, Some(a)) => &a.cells,
            (None, None, None) => &[],
        }
    }

    /// The node as Eureka writes it: `(5)r1c2`, a group `(5)r1c78`, an ALS
    /// node by its digit and all the ALS's cells, `(5)r4c135`.
    pub(crate) fn name(&self, marks: &PencilMarks, node: u32) -> String {
        let digit = self.digit(node);
        match (self.cell(node), self.group(node), self.als_node(node)) {
            (Some(cell), _, _) => format!("({digit}){}", marks.cell_name(cell)),
            (None, Some(group), _) => format!("({digit}){}", cells_name(marks, &group.cells)),
            (None, None, Some(a)) => {
                format!("({digit}){}", self.als(a).map_or_else(String::new, |als| cells_name(marks, &als.cells)))
            }
            (None, None, None) => String::new(),
        }
    }
}

/// Cells as Eureka writes them: `r1c78` in a row, `r12c7` in a column
/// (commas between numbers past 9), else `r1c7,r2c9`.
fn cells_name(marks: &PencilMarks, cells: &[usize]) -> String {
    let geometry = marks.geometry();
    let Some(&first) = cells.first() else { return String::new() };
    let separator = if marks.side() > 9 { "," } else { "" };
    let numbers = |f: &dyn Fn(usize) -> usize| cells.iter().map(|&c| (f(c) + 1).to_string()).collect::<Vec<_>>();
    if cells.iter().all(|&c| geometry.row(c) == geometry.row(first)) {
        format!("r{}c{}", geometry.row(first) + 1, numbers(&|c| geometry.col(c)).join(separator))
    } else if cells.iter().all(|&c| geometry.col(c) == geometry.col(first)) {
        format!("r{}c{}", numbers(&|c| geometry.row(c)).join(separator), geometry.col(first) + 1)
    } else {
        cells.iter().map(|&c| marks.cell_name(c)).collect::<Vec<_>>().join(",")
    }
}

/// The ALS nodes of a board's ALSs: for every ALS of two cells or more,
/// each digit that some candidate outside it sees in all its cells, when
/// there are two such digits or more (a node is entered on one and left on
/// another); grouped by ALS.
fn als_nodes(marks: &PencilMarks, alses: &[als::Als]) -> Vec<AlsNode> {
    let mut nodes = Vec::new();
    for (i, a) in alses.iter().enumerate() {
        if a.cells.len() < 2 || a.reach_digits().count_ones() < 2 {
            continue;
        }
        for digit in digits(a.reach_digits()) {
            nodes.push(AlsNode { als: i, digit, cells: a.cells_with(marks, digit).collect() });
        }
    }
    nodes
}

/// For each ALS node of one ALS, the candidates it forces when it is false:
/// without its digit the ALS is locked on its other digits, which go from
/// every cell seeing all their cells in it; a cell of three candidates or
/// more left with one holds it (HoDoKu; a bivalue cell's other digit is
/// reached through the cell's strong link).
fn forcings(marks: &PencilMarks, als: &als::Als, nodes: &[AlsNode]) -> Vec<Vec<(usize, u8)>> {
    // For every cell outside the ALS, the ALS's digits it would lose.
    let mut losing: Vec<(usize, super::DigitSet)> = Vec::new();
    for d in digits(als.reach_digits()) {
        for &c in als.reach(d) {
            match losing.iter_mut().find(|(cell, _)| *cell == c) {
                Some((_, lost)) => *lost |= bit(d),
                None => losing.push((c, bit(d))),
            }
        }
    }
    losing.sort_unstable();
    nodes
        .iter()
        .map(|a| {
            losing
                .iter()
                .filter_map(|&(c, lost)| {
                    let set = marks.candidates(c);
                    let left = set & !(lost & !bit(a.digit));
                    (set.count_ones() > 2 && left.count_ones() == 1).then(|| (c, digits(left).next().unwrap_or(0)))
                })
                .collect()
        })
        .collect()
}

/// The weak links of ALS nodes, both ways: to the candidates and group
/// nodes of the digit that see every cell of the node (they lie outside the
/// ALS), and to the ALS nodes of the digit in other ALSs, not overlapping,
/// whose cells with the digit all see each other's (a restricted common).
fn als_weak_links(
    marks: &PencilMarks,
    (alses, links): (&[als::Als], &[Vec<als::Link>]),
    (groups, candidates, strong): (&[Group], usize, &[Vec<u32>]),
    (nodes, base): (&[AlsNode], usize),
    weak: &mut [Vec<u32>],
) {
    // As for the other weak links, only to nodes with a strong link (ALS
    // nodes all have one).
    let linked = |id: u32| !strong[id as usize].is_empty();
    let n = marks.side();
    let node = |cell: usize, digit: u8| (cell * n + usize::from(digit - 1)) as u32;
    let mut first_node = vec![usize::MAX; alses.len()];
    for (k, a) in nodes.iter().enumerate().rev() {
        first_node[a.als] = k;
    }
    let find = |als: usize, digit: u8| {
        let first = first_node[als];
        (first != usize::MAX)
            .then(|| nodes[first..].iter().take_while(|a| a.als == als).position(|a| a.digit == digit))
            .flatten()
            .map(|k| (base + first + k) as u32)
    };
    for (k, a) in nodes.iter().enumerate() {
        let id = (base + k) as u32;
        let reach = alses[a.als].reach(a.digit);
        for &c in reach {
            let other = node(c, a.digit);
            weak[other as usize].push(id);
            if linked(other) {
                weak[id as usize].push(other);
            }
        }
        for (g, group) in groups.iter().enumerate() {
            if group.digit == a.digit && group.cells.iter().all(|c| reach.binary_search(c).is_ok()) {
                let gid = (candidates + g) as u32;
                weak[gid as usize].push(id);
                if linked(gid) {
                    weak[id as usize].push(gid);
                }
            }
        }
        for link in &links[a.als] {
            if !link.overlapping && link.digits & bit(a.digit) != 0 {
                if let Some(other) = find(link.to, a.digit) {
                    weak[id as usize].push(other);
                }
            }
        }
    }
}

/// Every group node of a board: for each digit, box and line crossing it,
/// the digit's candidates in their intersection when there are two or more;
/// digit by digit, smallest first (`Graph::new` looks a digit's up by that).
fn groups(marks: &PencilMarks) -> Vec<Group> {
    let n = marks.side();
    let geometry = marks.geometry();
    let mut found = Vec::new();
    for digit in 1..=n as u8 {
        for b in 0..n {
            let box_unit = 2 * n + b;
            let in_box: Vec<usize> = marks.cells_with(box_unit, digit).collect();
            if in_box.len() < 2 {
                continue;
            }
            let mut lines: Vec<usize> = Vec::new();
            for &c in &in_box {
                for line in [geometry.row(c), n + geometry.col(c)] {
                    if !lines.contains(&line) {
                        lines.push(line);
                    }
                }
            }
            lines.sort_unstable();
            for line in lines {
                let cells: Vec<usize> =
                    in_box.iter().copied().filter(|&c| geometry.cell_units[c][line / n] == line).collect();
                if cells.len() >= 2 {
                    found.push(Group { digit, cells, units: [box_unit, line] });
                }
            }
        }
    }
    found
}
