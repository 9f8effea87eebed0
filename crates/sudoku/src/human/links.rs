//! Strong and weak links between candidates, and group nodes: what every
//! chain and loop is made of.
//!
//! After HoDoKu ("Chains and Loops": links, group nodes) and sudokuwiki
//! ("Alternating Inference Chains", "Grouped X-Cycles"). A link joins two
//! nodes, each a candidate (a digit in a cell) or a group node (the
//! candidates of one digit in the intersection of a box and a line, at least
//! two cells, true when the digit is in one of them):
//!
//! - weak: both cannot be true: two digits of one cell, or one digit in two
//!   cells (or groups) of one unit;
//! - strong: both cannot be false: the two digits of a bivalue cell, or the
//!   only two places of a digit in a unit (a conjugate pair), one of them
//!   possibly a group node.
//!
//! Every strong link here is also weak (the two ends share a cell or a
//! unit), so a chain may use it in either role.

use super::PencilMarks;
use super::candidates::digits;

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

/// The link graph of a board: nodes are candidates (`cell * n + digit - 1`)
/// and, when asked for, group nodes (numbered after them).
pub(crate) struct Graph {
    side: usize,
    candidates: usize,
    pub(crate) groups: Vec<Group>,
    /// For every node, the nodes it is strongly linked to.
    pub(crate) strong: Vec<Vec<u32>>,
    /// For every node, the nodes it is weakly linked to that have a strong
    /// link themselves (a chain can only go on from those).
    pub(crate) weak: Vec<Vec<u32>>,
}

impl Graph {
    /// The links of a board, with group nodes when `grouped`.
    pub(crate) fn new(marks: &PencilMarks, grouped: bool) -> Graph {
        let n = marks.side();
        let cells = marks.shape().num_cells();
        let geometry = marks.geometry();
        let groups = if grouped { groups(marks) } else { Vec::new() };
        let candidates = cells * n;
        let total = candidates + groups.len();
        let mut strong: Vec<Vec<u32>> = vec![Vec::new(); total];
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
        for (g, group) in groups.iter().enumerate() {
            let gid = (candidates + g) as u32;
            for &u in &group.units {
                let others: Vec<usize> =
                    marks.cells_with(u, group.digit).filter(|c| !group.cells.contains(c)).collect();
                if let [one] = others[..] {
                    add(&mut strong, gid, node(one, group.digit));
                } else if others.len() >= 2
                    && let Some(h) = groups.iter().position(|h| h.digit == group.digit && h.cells == others)
                {
                    add(&mut strong, gid, (candidates + h) as u32);
                }
            }
        }
        let linked = |id: u32| !strong[id as usize].is_empty();
        let mut weak: Vec<Vec<u32>> = vec![Vec::new(); total];
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
        for (g, group) in groups.iter().enumerate() {
            let gid = (candidates + g) as u32;
            // The cells of its box and line outside it see every cell of it.
            let mut seen: Vec<usize> = Vec::new();
            for &u in &group.units {
                for c in marks.cells_with(u, group.digit) {
                    if !group.cells.contains(&c) && !seen.contains(&c) {
                        seen.push(c);
                    }
                }
            }
            for c in seen {
                let a = node(c, group.digit);
                if linked(a) {
                    weak[gid as usize].push(a);
                }
                if linked(gid) {
                    weak[a as usize].push(gid);
                }
            }
            // Other groups of the digit in one of its units, not overlapping it.
            for (h, other) in groups.iter().enumerate() {
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
        Graph { side: n, candidates, groups, strong, weak }
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
        (node as usize).checked_sub(self.candidates).map(|g| &self.groups[g])
    }

    /// The cell of a candidate node (`None` for a group node).
    pub(crate) fn cell(&self, node: u32) -> Option<usize> {
        ((node as usize) < self.candidates).then(|| node as usize / self.side)
    }

    /// The digit of a node.
    pub(crate) fn digit(&self, node: u32) -> u8 {
        match self.group(node) {
            Some(group) => group.digit,
            None => (node as usize % self.side) as u8 + 1,
        }
    }

    /// The cells of a node (one, or a group's).
    pub(crate) fn cells(&self, node: u32) -> Vec<usize> {
        match (self.cell(node), self.group(node)) {
            (Some(cell), _) => vec![cell],
            (None, Some(group)) => group.cells.clone(),
            (None, None) => Vec::new(),
        }
    }

    /// The node as Eureka writes it: `(5)r1c2`, a group `(5)r1c78`.
    pub(crate) fn name(&self, marks: &PencilMarks, node: u32) -> String {
        let digit = self.digit(node);
        match (self.cell(node), self.group(node)) {
            (Some(cell), _) => format!("({digit}){}", marks.cell_name(cell)),
            (None, Some(group)) => {
                let geometry = marks.geometry();
                let first = group.cells[0];
                let separator = if self.side > 9 { "," } else { "" };
                if group.cells.iter().all(|&c| geometry.row(c) == geometry.row(first)) {
                    let cols: Vec<String> = group.cells.iter().map(|&c| (geometry.col(c) + 1).to_string()).collect();
                    format!("({digit})r{}c{}", geometry.row(first) + 1, cols.join(separator))
                } else {
                    let rows: Vec<String> = group.cells.iter().map(|&c| (geometry.row(c) + 1).to_string()).collect();
                    format!("({digit})r{}c{}", rows.join(separator), geometry.col(first) + 1)
                }
            }
            (None, None) => String::new(),
        }
    }
}

/// Every group node of a board: for each digit, box and line crossing it,
/// the digit's candidates in their intersection when there are two or more.
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
