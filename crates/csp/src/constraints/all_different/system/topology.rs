//! The system's shape: which variables each constraint has and the other way
//! round, where constraints cross, and small bitsets of constraints.

/// Where a position sits in one of its constraints.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slot {
    /// The constraint.
    pub(super) unit: u32,
    /// The position's index among the constraint's variables.
    pub(super) index: u32,
}

/// Which variables each constraint has, and the other way round. The
/// variables of the system are numbered by position, in order of first
/// appearance; the constraints by their rank in the system.
#[derive(Debug)]
pub(super) struct Topology {
    /// The positions of constraint `u`: `members[member_start[u]..member_start[u + 1]]`.
    pub(super) member_start: Vec<u32>,
    pub(super) members: Vec<u32>,
    /// Where position `p` sits: `slots[slot_start[p]..slot_start[p + 1]]`.
    pub(super) slot_start: Vec<u32>,
    pub(super) slots: Vec<Slot>,
    /// The constraints of position `p` as a bitset of `words` words:
    /// `unit_words[p * words..(p + 1) * words]`.
    pub(super) unit_words: Vec<u64>,
    pub(super) words: usize,
    /// Per entry `m` of `members`, the other slots of its position (all
    /// but the one of that constraint): `others[other_start[m]..other_start[m + 1]]`.
    pub(super) other_start: Vec<u32>,
    pub(super) others: Vec<Slot>,
}

impl Topology {
    pub(super) fn new(scopes: &[Vec<u32>], n: usize) -> Topology {
        let mut member_start = vec![0u32];
        let mut members = Vec::new();
        for scope in scopes {
            members.extend_from_slice(scope);
            member_start.push(members.len() as u32);
        }
        let mut slot_start = vec![0u32; n + 1];
        for &p in &members {
            slot_start[p as usize + 1] += 1;
        }
        for p in 0..n {
            slot_start[p + 1] += slot_start[p];
        }
        let mut fill = slot_start.clone();
        let mut slots = vec![Slot { unit: 0, index: 0 }; members.len()];
        let words = scopes.len().div_ceil(64);
        let mut unit_words = vec![0u64; n * words];
        for (u, scope) in scopes.iter().enumerate() {
            for (index, &p) in scope.iter().enumerate() {
                let p = p as usize;
                slots[fill[p] as usize] = Slot { unit: u as u32, index: index as u32 };
                fill[p] += 1;
                unit_words[p * words + u / 64] |= 1 << (u % 64);
            }
        }
        let mut other_start = vec![0u32];
        let mut others = Vec::with_capacity(slots.len());
        for (u, scope) in scopes.iter().enumerate() {
            for &p in scope {
                let p = p as usize;
                let mine = &slots[slot_start[p] as usize..slot_start[p + 1] as usize];
                others.extend(mine.iter().filter(|slot| slot.unit as usize != u));
                other_start.push(others.len() as u32);
            }
        }
        Topology { member_start, members, slot_start, slots, unit_words, words, other_start, others }
    }

    #[inline]
    pub(super) fn members(&self, u: usize) -> &[u32] {
        &self.members[self.member_start[u] as usize..self.member_start[u + 1] as usize]
    }

    #[inline]
    pub(super) fn slots(&self, p: usize) -> &[Slot] {
        &self.slots[self.slot_start[p] as usize..self.slot_start[p + 1] as usize]
    }

    /// The slots of the position at entry `m` of `members` but the one of
    /// the constraint whose entry it is.
    #[inline]
    pub(super) fn others(&self, m: usize) -> &[Slot] {
        &self.others[self.other_start[m] as usize..self.other_start[m + 1] as usize]
    }

    #[inline]
    pub(super) fn unit_words(&self, p: usize) -> &[u64] {
        &self.unit_words[p * self.words..(p + 1) * self.words]
    }
}

/// Where constraint `u` crosses another, `other`, in two or more variables
/// (a sudoku box and a line): the shared variables as bit sets of their
/// indices in each (see [`Board::cross`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Crossing {
    pub(super) other: u32,
    pub(super) mine: u64,
    pub(super) theirs: u64,
}

/// Per constraint, its crossings: `crossings[start[u]..start[u + 1]]`; and
/// per constraint and index of a variable in it, the crossings of that
/// constraint that share the variable: `by_member[member_start[m]..member_start[m + 1]]`
/// for `m = Topology::member_start[u] + index`.
#[derive(Debug, Default)]
pub(super) struct Crossings {
    pub(super) start: Vec<u32>,
    pub(super) crossings: Vec<Crossing>,
    pub(super) member_start: Vec<u32>,
    pub(super) by_member: Vec<u32>,
}

impl Crossings {
    /// The crossings of every pair of constraints sharing at least two
    /// variables, neither holding the other whole.
    pub(super) fn new(topology: &Topology, k: usize) -> Crossings {
        let mut start = vec![0u32];
        let mut crossings = Vec::new();
        let (mut member_start, mut by_member) = (vec![0u32], Vec::new());
        // Per other constraint, the shared variables' indices in `u` and in
        // it, found through the variables' slots (not by comparing scopes).
        let mut shared = vec![(0u64, 0u64); k];
        let mut touched: Vec<usize> = Vec::new();
        for u in 0..k {
            let members = topology.members(u);
            for (i, &p) in members.iter().enumerate() {
                for slot in topology.slots(p as usize) {
                    let w = slot.unit as usize;
                    if w != u {
                        if shared[w] == (0, 0) {
                            touched.push(w);
                        }
                        shared[w].0 |= 1 << i;
                        shared[w].1 |= 1 << slot.index;
                    }
                }
            }
            touched.sort_unstable();
            for w in touched.drain(..) {
                let (mine, theirs) = std::mem::take(&mut shared[w]);
                let count = mine.count_ones() as usize;
                if count >= 2 && count < members.len() && count < topology.members(w).len() {
                    crossings.push(Crossing { other: w as u32, mine, theirs });
                }
            }
            let first = *start.last().expect("a start") as usize;
            for index in 0..members.len() {
                for (c, crossing) in crossings.iter().enumerate().skip(first) {
                    if crossing.mine & 1 << index != 0 {
                        by_member.push(c as u32);
                    }
                }
                member_start.push(by_member.len() as u32);
            }
            start.push(crossings.len() as u32);
        }
        Crossings { start, crossings, member_start, by_member }
    }

    /// The crossings of constraint `u`.
    #[inline]
    pub(super) fn of(&self, u: usize) -> &[Crossing] {
        match self.start.get(u..u + 2) {
            Some(&[a, b]) => &self.crossings[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The crossings that share the variable at `m` of the topology's
    /// member list (a constraint's index plus its `member_start`).
    #[inline]
    pub(super) fn at(&self, m: usize) -> impl Iterator<Item = &Crossing> {
        let (a, b) = (self.member_start[m] as usize, self.member_start[m + 1] as usize);
        self.by_member[a..b].iter().map(|&c| &self.crossings[c as usize])
    }
}

/// Adds constraint `u` to a bitset of constraints.
#[inline]
pub(super) fn insert(set: &mut [u64], u: usize) {
    set[u / 64] |= 1 << (u % 64);
}

/// Adds the constraints of a bitset (`words`) to another (`set`).
#[inline]
pub(super) fn insert_all(set: &mut [u64], words: &[u64]) {
    for (to, &from) in set.iter_mut().zip(words) {
        *to |= from;
    }
}

/// Removes and returns the smallest member of a bitset.
#[inline]
pub(super) fn pop_first(set: &mut [u64]) -> Option<usize> {
    for (w, word) in set.iter_mut().enumerate() {
        if *word != 0 {
            let bit = word.trailing_zeros() as usize;
            *word &= *word - 1;
            return Some(w * 64 + bit);
        }
    }
    None
}
