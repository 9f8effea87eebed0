//! Almost locked sets: ALS-XZ, ALS-XY-wing, ALS chain and death blossom.
//!
//! After HoDoKu ("Almost Locked Sets", `AlsSolver`) and sudokuwiki ("Almost
//! Locked Sets", "Death Blossom"). An almost locked set (ALS) is `N` cells of
//! one unit holding `N + 1` digits between them (a bivalue cell is the
//! smallest): if one of its digits is taken away, the other `N` are locked in
//! it, each exactly once. A digit `x` is a restricted common of two ALSs that
//! do not overlap when every `x` of one sees every `x` of the other: at most
//! one of them holds `x`, so the other is locked.
//!
//! - ALS-XZ: two ALSs `A` and `B` with a restricted common `x`. For another
//!   digit `z` of both, one of them is locked and holds `z`: cells seeing every
//!   `z` of both lose `z`. With two restricted commons (doubly linked) both
//!   are locked together: each restricted common is in one of them, and each
//!   other digit of `A` (of `B`) is in `A` (in `B`), so cells seeing all of
//!   them lose it.
//! - ALS-XY-wing: a pivot ALS `C` with restricted commons `x` to `A` and `y` to
//!   `B`, `x != y`. If neither `A` nor `B` held `z`, both would be locked,
//!   hold `x` and `y`, and `C` would lose two digits: cells seeing every `z` of
//!   `A` and `B` lose `z` (`z` not a restricted common).
//! - ALS chain: `A1 - A2 - ... - Ak` (at least four ALSs), each pair of
//!   neighbours joined by a restricted common that differs from the one before.
//!   If `A1` lacked `z` it would hold the first restricted common, the next ALS
//!   would lack it and be locked, and so on to `Ak`, which then holds `z`:
//!   cells seeing every `z` of `A1` and `Ak` lose `z`.
//! - Death blossom: a stem cell and, for each of its digits `d`, a petal ALS
//!   whose every `d` sees the stem; the petals do not overlap. Whatever the stem
//!   holds, that digit's petal is locked on its other digits, so a digit `z`
//!   (not the stem's) in every petal is in one of them: cells seeing every `z`
//!   of the petals lose it.
//!
//! Overlaps follow HoDoKu's rules when overlaps are allowed (its regression
//! library tests both): two ALSs joined by a restricted common may share
//! cells that do not hold that digit (none of the arguments above counts the
//! cells of two ALSs together), except in ALS-XZ, whose doubly linked case
//! does; petals of a death blossom may overlap. An ALS chain is at most six
//! restricted commons long (HoDoKu's default), and its eliminations exclude
//! its first and last restricted commons; its first ALS may lie inside its
//! last or the reverse (as in HoDoKu: `z` is still in one of them). The
//! solver searches chains forward only in the order the ALSs are collected,
//! as HoDoKu's solver does; when every instance is wanted they are then also
//! searched both ways, breadth first, as HoDoKu does when it lists all steps.
//!
//! The search is bounded so that large boards stay usable: an ALS has at most
//! [`MAX_CELLS`] cells (HoDoKu's largest on a 9x9, a unit minus one cell), at
//! most [`UNIT_BUDGET`] cell subsets are tried per unit and [`MAX_ALSES`] ALSs
//! kept; the chain and death blossom searches stop after [`SEARCH_BUDGET`]
//! nodes. On a 9x9 only the last can be reached (a unit has at most 511 cell
//! subsets; the first limit is HoDoKu's own).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::candidates::{DigitSet, bit, digits, positions};
use super::step::{Candidate, Step, Technique, digit_set_text};
use super::{Collector, PencilMarks};
use crate::grid::Shape;

/// The most cells of an ALS: HoDoKu's (a unit of a 9x9 minus one cell), and
/// a unit minus one cell on smaller boards.
pub const MAX_CELLS: usize = 8;
/// The most cell subsets tried per unit while collecting ALSs.
pub const UNIT_BUDGET: usize = 2_000;
/// The most ALSs collected on one board.
pub const MAX_ALSES: usize = 3_000;
/// The most nodes an ALS chain or a death blossom search visits.
pub const SEARCH_BUDGET: usize = 100_000;
/// The longest ALS chain, in restricted commons (HoDoKu's default).
const MAX_CHAIN_LINKS: usize = 6;

/// An almost locked set: cells of one unit with one digit more than cells.
#[derive(Clone, Debug)]
pub(crate) struct Als {
    /// The unit it was found in.
    pub(crate) unit: usize,
    /// Its cells, ascending.
    pub(crate) cells: Vec<usize>,
    /// Its digits.
    pub(crate) digits: DigitSet,
    /// Bit `cell % 64` of each cell: sets with disjoint masks are disjoint.
    mask: u64,
    /// For each of its digits `d`: the cells outside it with `d` that see
    /// every `d` of it, ascending, as `(d, end)`, the cells from the previous
    /// digit's end to `end` in `reach_cells` (one list, not one per digit:
    /// a board has hundreds of ALSs).
    reach: Vec<(u8, usize)>,
    reach_cells: Vec<usize>,
    /// The digits whose `reach` is not empty.
    reach_digits: DigitSet,
}

impl Als {
    pub(crate) fn contains(&self, cell: usize) -> bool {
        self.mask & (1u64 << (cell % 64)) != 0 && self.cells.contains(&cell)
    }

    pub(crate) fn overlaps(&self, other: &Als) -> bool {
        self.mask & other.mask != 0 && self.cells.iter().any(|c| other.cells.contains(c))
    }

    /// The cells that have `digit`.
    pub(crate) fn cells_with<'a>(&'a self, marks: &'a PencilMarks, digit: u8) -> impl Iterator<Item = usize> + 'a {
        self.cells.iter().copied().filter(move |&c| marks.has(c, digit))
    }

    /// The digits whose [`Als::reach`] is not empty.
    pub(crate) fn reach_digits(&self) -> DigitSet {
        self.reach_digits
    }

    /// The cells outside it with `digit` that see every `digit` of it.
    pub(crate) fn reach(&self, digit: u8) -> &[usize] {
        let Some(k) = self.reach.iter().position(|&(d, _)| d == digit) else { return &[] };
        let start = if k == 0 { 0 } else { self.reach[k - 1].1 };
        &self.reach_cells[start..self.reach[k].1]
    }

    /// The ALS with its reach; `seen` is room for a cell set and `scratch`
    /// for the reach's cells (the caller's, reused from ALS to ALS, so that
    /// the reach's list is made once at its size).
    fn with_reach(
        mut self,
        marks: &PencilMarks,
        bits: &CellBits,
        seen: &mut Vec<u64>,
        scratch: &mut Vec<usize>,
    ) -> Als {
        let words = bits.words;
        seen.resize(words, 0);
        for d in digits(self.digits) {
            // The cells with d, less the ALS's, that are peers of every holder.
            seen.copy_from_slice(bits.digit(d));
            for &c in &self.cells {
                if marks.has(c, d) {
                    for (w, p) in seen.iter_mut().zip(bits.peers(c)) {
                        *w &= p;
                    }
                }
            }
            for &c in &self.cells {
                seen[c / 64] &= !(1u64 << (c % 64));
            }
            let before = scratch.len();
            scratch.extend(seen.iter().enumerate().flat_map(|(w, &word)| positions(word).map(move |b| w * 64 + b)));
            if scratch.len() > before {
                self.reach_digits |= bit(d);
            }
            self.reach.push((d, scratch.len()));
        }
        self.reach_cells = scratch.clone();
        scratch.clear();
        self
    }

    /// `r1c2, r1c5 {1,4,5}`.
    pub(crate) fn text(&self, marks: &PencilMarks) -> String {
        let names: Vec<String> = self.cells.iter().map(|&c| marks.cell_name(c)).collect();
        format!("{} {}", names.join(", "), digit_set_text(digits(self.digits)))
    }
}

/// Cell sets as bit words: the peers of every cell and the cells with each
/// digit.
struct CellBits {
    words: usize,
    peers: Vec<u64>,
    digits: Vec<u64>,
}

impl CellBits {
    fn new(marks: &PencilMarks) -> CellBits {
        let geometry = marks.geometry();
        let cells = marks.shape().num_cells();
        let words = cells.div_ceil(64);
        let mut peers = vec![0u64; cells * words];
        let mut with = vec![0u64; marks.side() * words];
        for c in 0..cells {
            for p in geometry.peers(c) {
                peers[c * words + p / 64] |= 1u64 << (p % 64);
            }
            for d in digits(marks.candidates(c)) {
                with[usize::from(d - 1) * words + c / 64] |= 1u64 << (c % 64);
            }
        }
        CellBits { words, peers, digits: with }
    }

    fn peers(&self, cell: usize) -> &[u64] {
        &self.peers[cell * self.words..(cell + 1) * self.words]
    }

    fn digit(&self, digit: u8) -> &[u64] {
        let d = usize::from(digit - 1);
        &self.digits[d * self.words..(d + 1) * self.words]
    }
}

/// Every ALS of the board (bounded: see the module doc), each cell set once.
pub(crate) fn collect(marks: &PencilMarks) -> Vec<Als> {
    let geometry = marks.geometry();
    let n = marks.side();
    let max_cells = MAX_CELLS.min(n.saturating_sub(1));
    let mut seen: HashSet<Vec<usize>> = HashSet::new();
    let mut out = Vec::new();
    let bits = CellBits::new(marks);
    for u in 0..3 * n {
        let empty: Vec<usize> = geometry.unit_cells[u].iter().copied().filter(|&c| marks.value(c) == 0).collect();
        let mut grower = Grower {
            marks,
            bits: &bits,
            unit: u,
            empty: &empty,
            max_cells,
            budget: UNIT_BUDGET,
            chosen: Vec::new(),
            seen: &mut seen,
            seen_cells: Vec::new(),
            reach_cells: Vec::new(),
        };
        grower.grow(0, 0, &mut out);
        if out.len() >= MAX_ALSES {
            break;
        }
    }
    out
}

struct Grower<'a> {
    marks: &'a PencilMarks,
    bits: &'a CellBits,
    unit: usize,
    empty: &'a [usize],
    max_cells: usize,
    budget: usize,
    chosen: Vec<usize>,
    seen: &'a mut HashSet<Vec<usize>>,
    /// Room for a cell set and a cell list, for [`Als::with_reach`].
    seen_cells: Vec<u64>,
    reach_cells: Vec<usize>,
}

impl Grower<'_> {
    /// Extends `chosen` (with digits `held`) by the empty cells from `start` on.
    fn grow(&mut self, start: usize, held: DigitSet, out: &mut Vec<Als>) {
        for i in start..self.empty.len() {
            if self.budget == 0 || out.len() >= MAX_ALSES {
                return;
            }
            self.budget -= 1;
            let cell = self.empty[i];
            let with = held | self.marks.candidates(cell);
            if with.count_ones() as usize > self.max_cells + 1 {
                continue;
            }
            self.chosen.push(cell);
            if with.count_ones() as usize == self.chosen.len() + 1 {
                let mut cells = self.chosen.clone();
                cells.sort_unstable();
                // Only a set that also lies in another unit can be met twice
                // (a unit meets each of its subsets once).
                let units = &self.marks.geometry().cell_units;
                let elsewhere = (0..3).any(|k| {
                    let u = units[cells[0]][k];
                    u != self.unit && cells.iter().all(|&c| units[c][k] == u)
                });
                if !elsewhere || self.seen.insert(cells.clone()) {
                    let mask = cells.iter().fold(0u64, |m, &c| m | 1u64 << (c % 64));
                    let reach = Vec::with_capacity(with.count_ones() as usize);
                    let als = Als {
                        unit: self.unit,
                        cells,
                        digits: with,
                        mask,
                        reach,
                        reach_cells: Vec::new(),
                        reach_digits: 0,
                    };
                    out.push(als.with_reach(self.marks, self.bits, &mut self.seen_cells, &mut self.reach_cells));
                }
            }
            if self.chosen.len() < self.max_cells {
                self.grow(i + 1, with, out);
            }
            self.chosen.pop();
        }
    }
}

/// A restricted common link from one ALS to another.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Link {
    /// The other ALS.
    pub(crate) to: usize,
    /// The restricted common digits (one or two).
    pub(crate) digits: DigitSet,
    /// Whether the two ALSs share cells (none holding a restricted common).
    pub(crate) overlapping: bool,
}

/// For every ALS, its restricted common links. Two ALSs may overlap when no
/// cell they share holds the digit (HoDoKu's rule when overlaps are allowed):
/// every copy of the digit in one still sees every copy in the other.
///
/// Digit `d` joins `A` and `B` when every `d` of `B` lies among the cells
/// outside `A` that see every `d` of `A` (the relation is symmetric), so
/// each `A` only meets the ALSs whose first `d` is such a cell.
pub(crate) fn restricted_commons(marks: &PencilMarks, alses: &[Als]) -> Vec<Vec<Link>> {
    let n = marks.side();
    let cells = marks.shape().num_cells();
    // The ALSs whose first cell with d is c, for each slot (d - 1) * cells + c,
    // in one list by slot (ascending ALS numbers within a slot): a count,
    // then each ALS put at its slot's next place.
    let slot_of = |als: &Als, d: u8| als.cells_with(marks, d).next().map(|c| usize::from(d - 1) * cells + c);
    let mut starts = vec![0usize; n * cells + 1];
    for als in alses {
        for d in digits(als.digits) {
            if let Some(slot) = slot_of(als, d) {
                starts[slot + 1] += 1;
            }
        }
    }
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut next = starts.clone();
    let mut by_first = vec![0usize; starts[n * cells]];
    for (i, als) in alses.iter().enumerate() {
        for d in digits(als.digits) {
            if let Some(slot) = slot_of(als, d) {
                by_first[next[slot]] = i;
                next[slot] += 1;
            }
        }
    }
    // The cells of one reach, as bits (set and cleared again for each).
    let mut in_reach = vec![0u64; cells.div_ceil(64)];
    // Every link once (i < j), in the order it is found.
    let mut pairs: Vec<(usize, usize, Link)> = Vec::new();
    let mut found: Vec<(usize, u8)> = Vec::new();
    for (i, a) in alses.iter().enumerate() {
        found.clear();
        for d in digits(a.reach_digits) {
            let reach = a.reach(d);
            for &c in reach {
                in_reach[c / 64] |= 1 << (c % 64);
            }
            for &c in reach {
                let slot = usize::from(d - 1) * cells + c;
                for &j in &by_first[starts[slot]..starts[slot + 1]] {
                    if j > i && alses[j].cells_with(marks, d).all(|x| in_reach[x / 64] & 1 << (x % 64) != 0) {
                        found.push((j, d));
                    }
                }
            }
            for &c in reach {
                in_reach[c / 64] = 0;
            }
        }
        found.sort_unstable();
        let mut k = 0;
        while k < found.len() {
            let j = found[k].0;
            let mut rc: DigitSet = 0;
            while k < found.len() && found[k].0 == j {
                rc |= bit(found[k].1);
                k += 1;
            }
            let b = &alses[j];
            let overlapping = a.overlaps(b);
            // One inside the other is never joined; three restricted commons
            // cannot happen on a board with a solution.
            if overlapping && (a.cells.iter().all(|&c| b.contains(c)) || b.cells.iter().all(|&c| a.contains(c))) {
                continue;
            }
            if rc.count_ones() <= 2 {
                pairs.push((i, j, Link { to: j, digits: rc, overlapping }));
            }
        }
    }
    // Each ALS's list made at its size, then filled in the order found
    // (which sorts every list by the other ALS).
    let mut degrees = vec![0usize; alses.len()];
    for &(i, j, _) in &pairs {
        degrees[i] += 1;
        degrees[j] += 1;
    }
    let mut links: Vec<Vec<Link>> = degrees.iter().map(|&d| Vec::with_capacity(d)).collect();
    for (i, j, link) in pairs {
        links[i].push(link);
        links[j].push(Link { to: i, ..link });
    }
    links
}

/// The ALSs of a board and, for each, its restricted common links.
pub(crate) type AlsesAndLinks = (Vec<Als>, Vec<Vec<Link>>);

/// A board (its shape and candidates) and its ALSs and links.
type Cached = (Shape, Vec<DigitSet>, Rc<AlsesAndLinks>);

/// The ALSs of a board and their links, kept for the board last asked about
/// on this thread: the four ALS techniques are tried one after the other on
/// the same board.
pub(crate) fn alses_and_links(marks: &PencilMarks) -> Rc<AlsesAndLinks> {
    thread_local! {
        static LAST: RefCell<Option<Cached>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((shape, candidates, both)) = last.as_ref() {
            if *shape == marks.shape() && candidates.as_slice() == marks.candidate_sets() {
                return Rc::clone(both);
            }
        }
        let alses = collect(marks);
        let links = restricted_commons(marks, &alses);
        let both = Rc::new((alses, links));
        *last = Some((marks.shape(), marks.candidate_sets().to_vec(), Rc::clone(&both)));
        both
    })
}

/// The eliminations of digits `zs` between two flanking ALSs.
fn flank_eliminations(a: &Als, b: &Als, zs: DigitSet) -> Vec<Candidate> {
    let mut out = Vec::new();
    for z in digits(zs & a.reach_digits & b.reach_digits) {
        let other = b.reach(z);
        out.extend(a.reach(z).iter().filter(|c| other.binary_search(c).is_ok()).map(|&c| Candidate::new(c, z)));
    }
    out
}

fn step(marks: &PencilMarks, technique: Technique, chain: &[&Als], eliminations: Vec<Candidate>) -> Step {
    let mut cells: Vec<usize> = chain.iter().flat_map(|a| a.cells.iter().copied()).collect();
    cells.sort_unstable();
    cells.dedup();
    let mut units: Vec<_> = chain.iter().map(|a| marks.geometry().unit(a.unit)).collect();
    units.dedup();
    let mut ds: Vec<u8> = eliminations.iter().map(|e| e.digit).collect();
    ds.sort_unstable();
    ds.dedup();
    Step::new(technique, marks.shape())
        .eliminating(eliminations)
        .pattern(Candidate::all_of(marks, &cells))
        .units(units)
        .cells(cells)
        .digits(ds)
}

/// `1` or `1 and 7`.
fn digit_words(set: DigitSet) -> String {
    let ds: Vec<String> = digits(set).map(|d| d.to_string()).collect();
    super::step::and_list(&ds)
}

/// Two ALSs joined by one or two restricted commons.
pub(crate) fn als_xz(found: &mut Collector<'_>) {
    let marks = found.marks;
    let both = alses_and_links(marks);
    let (alses, links) = (&both.0, &both.1);
    for (i, a) in alses.iter().enumerate() {
        for link in &links[i] {
            // The doubly linked argument counts cells: no overlap, as in HoDoKu.
            if link.to < i || link.overlapping {
                continue;
            }
            let (b, rc) = (&alses[link.to], link.digits);
            let mut eliminations = flank_eliminations(a, b, a.digits & b.digits & !rc);
            let doubly = rc.count_ones() == 2;
            if doubly {
                eliminations.extend(flank_eliminations(a, b, rc));
                for (p, q) in [(a, b), (b, a)] {
                    for d in digits(p.digits & !rc) {
                        eliminations
                            .extend(p.reach(d).iter().filter(|c| !q.contains(**c)).map(|&c| Candidate::new(c, d)));
                    }
                }
            }
            if eliminations.is_empty() {
                continue;
            }
            let reason = if doubly {
                format!(
                    "A = {} and B = {}: {} are restricted commons (every one in A sees every one in B), so A and \
                     B together are locked: each of {} is in A or B, and every other digit in its own ALS",
                    a.text(marks),
                    b.text(marks),
                    digit_words(rc),
                    digit_words(rc)
                )
            } else {
                let z = a.digits & b.digits & !rc;
                format!(
                    "A = {} and B = {}: every {x} in A sees every {x} in B, so one of them has no {x} and is locked: \
                     {} in A or B",
                    a.text(marks),
                    b.text(marks),
                    if z.count_ones() == 1 {
                        format!("{} is", digit_words(z))
                    } else {
                        format!("each of {} is", digit_words(z))
                    },
                    x = digit_words(rc),
                )
            };
            found.push(step(marks, Technique::AlsXz, &[a, b], eliminations).reason(reason));
            if found.done() {
                return;
            }
        }
    }
}

/// A pivot ALS joined to two ALSs by different restricted commons.
pub(crate) fn als_xy_wing(found: &mut Collector<'_>) {
    let marks = found.marks;
    let both = alses_and_links(marks);
    let (alses, links) = (&both.0, &both.1);
    for (ci, c) in alses.iter().enumerate() {
        let around = &links[ci];
        for (k, la) in around.iter().enumerate() {
            for lb in &around[k + 1..] {
                let (ra, rb) = (la.digits, lb.digits);
                if ra == rb && ra.count_ones() == 1 {
                    continue;
                }
                let (a, b) = (&alses[la.to], &alses[lb.to]);
                // A and B may overlap (the argument does not count their
                // cells), but one inside the other proves nothing.
                if a.cells.iter().all(|&x| b.contains(x)) || b.cells.iter().all(|&x| a.contains(x)) {
                    continue;
                }
                let zs = a.digits & b.digits & !ra & !rb;
                let eliminations = flank_eliminations(a, b, zs);
                if eliminations.is_empty() {
                    continue;
                }
                let (x, y) = if ra.count_ones() == 1 {
                    (ra, if rb.count_ones() == 1 { rb } else { rb & !ra })
                } else {
                    (if rb.count_ones() == 1 { ra & !rb } else { ra }, rb)
                };
                let reason = format!(
                    "pivot C = {} with A = {} (restricted common {}) and B = {} (restricted common {}): if neither A \
                     nor B held {z}, both would be locked and take {} and {} from C, which cannot lose two digits: {z} \
                     is in A or B",
                    c.text(marks),
                    a.text(marks),
                    digit_words(ra),
                    b.text(marks),
                    digit_words(rb),
                    digit_words(x),
                    digit_words(y),
                    z = digit_words(zs & eliminations_digits(&eliminations)),
                );
                found.push(step(marks, Technique::AlsXyWing, &[a, c, b], eliminations).reason(reason));
                if found.done() {
                    return;
                }
            }
        }
    }
}

fn eliminations_digits(eliminations: &[Candidate]) -> DigitSet {
    eliminations.iter().fold(0, |s, e| s | bit(e.digit))
}

/// Chains of at least four ALSs joined by restricted commons, shortest first:
/// depth first forward only, then (for every instance) breadth first both
/// ways, keeping for each set of eliminations the shortest chain found first.
pub(crate) fn als_chain(found: &mut Collector<'_>) {
    let marks = found.marks;
    let both = alses_and_links(marks);
    let (alses, links) = (&both.0, &both.1);
    let mut search = ChainSearch {
        alses,
        links,
        budget: SEARCH_BUDGET,
        path: Vec::new(),
        actives: Vec::new(),
        best: Vec::new(),
        index: HashMap::new(),
        targets: Vec::new(),
        target_digits: 0,
    };
    'starts: for (start, around) in links.iter().enumerate() {
        // Forward only (to ALSs found later), as HoDoKu searches.
        for link in around.iter().filter(|link| link.to > start) {
            for x in digits(link.digits) {
                if !search.aim(start, x) {
                    continue;
                }
                search.path = vec![start, link.to];
                search.actives = vec![bit(x)];
                search.extend();
                if search.budget == 0 || found.out_of_time() {
                    break 'starts;
                }
            }
        }
    }
    // When every instance is wanted, then both ways, breadth first: the
    // chains against the ALSs' order that the forward search cannot find, or
    // shorter ones (HoDoKu too searches forward only when it solves, both
    // ways when it lists every step).
    if !found.first_only {
        search.budget = SEARCH_BUDGET;
        WideSearch::new(marks.side(), alses.len()).run(&mut search, found);
    }
    // The shortest chain for each set of eliminations, shortest first.
    let mut best = search.best;
    best.sort_by_key(|(_, path, _)| path.len());
    for (eliminations, path, actives) in best {
        let chain: Vec<&Als> = path.iter().map(|&i| &alses[i]).collect();
        let mut text = chain[0].text(marks);
        for (als, &active) in chain[1..].iter().zip(&actives) {
            text.push_str(&format!(" -{}- {}", digit_words(active).replace(" and ", ","), als.text(marks)));
        }
        let z = eliminations_digits(&eliminations);
        let reason = format!(
            "chain of ALSs {text} (each digit between two ALSs is a restricted common): if the first held no {z}, \
             each ALS would be locked in turn and the last would hold {z}",
            z = digit_words(z)
        );
        found.push(step(marks, Technique::AlsChain, &chain, eliminations).reason(reason));
        if found.done() {
            return;
        }
    }
}

/// A chain found: its eliminations, its ALSs and the restricted commons in use.
type Chain = (Vec<Candidate>, Vec<usize>, Vec<DigitSet>);

struct ChainSearch<'a> {
    alses: &'a [Als],
    links: &'a [Vec<Link>],
    budget: usize,
    /// The ALSs of the chain so far.
    path: Vec<usize>,
    /// The restricted commons in use between neighbours: `actives[i]` joins
    /// `path[i]` and `path[i + 1]`, and `path[i + 1]` lacks them.
    actives: Vec<DigitSet>,
    /// The shortest chain found for each set of eliminations.
    best: Vec<Chain>,
    /// Where each set of eliminations is in `best`.
    index: HashMap<Vec<Candidate>, usize>,
    /// The candidates outside the first ALS that see all of their digit in it.
    targets: Vec<Candidate>,
    /// The digits of `targets`.
    target_digits: DigitSet,
}

/// A state of the breadth-first chain search: an ALS reached by a restricted
/// common (the last of the chain so far).
#[derive(Clone, Copy)]
struct WideNode {
    als: usize,
    /// The restricted commons in use into it (none for the first ALS).
    active: DigitSet,
    /// The node before it (itself for the first ALS).
    parent: usize,
    /// Its links from the first ALS.
    links: usize,
}

/// The breadth-first chain search from one first ALS and restricted common:
/// each ALS is reached once per smallest restricted common into it, by the
/// shortest chain found first, which goes through no ALS twice.
struct WideSearch {
    nodes: Vec<WideNode>,
    /// `seen[als * side + d - 1]` is `generation` once `als` is reached with
    /// smallest restricted common `d`.
    seen: Vec<u32>,
    generation: u32,
    side: usize,
}

impl WideSearch {
    fn new(side: usize, alses: usize) -> WideSearch {
        WideSearch { nodes: Vec::new(), seen: vec![0; alses * side], generation: 0, side }
    }

    /// Searches from every first ALS and restricted common, until the
    /// budget or the time runs out.
    fn run(&mut self, chains: &mut ChainSearch<'_>, found: &Collector<'_>) {
        for start in 0..chains.alses.len() {
            let xs = chains.links[start].iter().fold(0, |s: DigitSet, link| s | link.digits);
            for x in digits(xs) {
                if !chains.aim(start, x) {
                    continue;
                }
                self.search(chains, start, x);
                if chains.budget == 0 || found.out_of_time() {
                    return;
                }
            }
        }
    }

    fn search(&mut self, chains: &mut ChainSearch<'_>, start: usize, x: u8) {
        self.generation += 1;
        self.nodes.clear();
        self.nodes.push(WideNode { als: start, active: 0, parent: 0, links: 0 });
        let mut k = 0;
        while k < self.nodes.len() {
            if chains.budget == 0 {
                return;
            }
            chains.budget -= 1;
            let node = self.nodes[k];
            if node.links >= 3 {
                self.check(chains, k);
            }
            if node.links < MAX_CHAIN_LINKS {
                // The restricted commons the next link may use: x from the
                // first ALS; then, as in the depth-first search, any but the
                // one before (the smaller, after two).
                let allowed = if node.links == 0 { bit(x) } else { !(node.active & node.active.wrapping_neg()) };
                for link in &chains.links[node.als] {
                    let active = link.digits & allowed;
                    if active == 0 {
                        continue;
                    }
                    let slot = link.to * self.side + active.trailing_zeros() as usize;
                    if self.seen[slot] == self.generation || self.on_chain(k, link.to) {
                        continue;
                    }
                    self.seen[slot] = self.generation;
                    self.nodes.push(WideNode { als: link.to, active, parent: k, links: node.links + 1 });
                }
            }
            k += 1;
        }
    }

    /// Whether `als` is on the chain that ends at node `k`.
    fn on_chain(&self, mut k: usize, als: usize) -> bool {
        loop {
            let node = self.nodes[k];
            if node.als == als {
                return true;
            }
            if node.links == 0 {
                return false;
            }
            k = node.parent;
        }
    }

    /// Hands the chain that ends at node `k` to [`ChainSearch::check`] when
    /// its last ALS could eliminate.
    fn check(&self, chains: &mut ChainSearch<'_>, k: usize) {
        let node = self.nodes[k];
        if chains.alses[node.als].reach_digits & !node.active & chains.target_digits == 0 {
            return;
        }
        chains.path.clear();
        chains.actives.clear();
        let mut at = k;
        loop {
            let n = self.nodes[at];
            chains.path.push(n.als);
            if n.links == 0 {
                break;
            }
            chains.actives.push(n.active);
            at = n.parent;
        }
        chains.path.reverse();
        chains.actives.reverse();
        chains.check();
    }
}

impl ChainSearch<'_> {
    /// Sets the targets for chains from ALS `start` whose first restricted
    /// common is `x`: the candidates that see every copy of a digit `z != x`
    /// in it (the chain must end at an ALS they see too). False when there
    /// are none.
    fn aim(&mut self, start: usize, x: u8) -> bool {
        let first = &self.alses[start];
        self.targets = digits(first.reach_digits & !bit(x))
            .flat_map(|z| first.reach(z).iter().map(move |&c| Candidate::new(c, z)))
            .collect();
        self.target_digits = eliminations_digits(&self.targets);
        !self.targets.is_empty()
    }

    fn extend(&mut self) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        if self.actives.len() >= 3 {
            self.check();
        }
        if self.actives.len() == MAX_CHAIN_LINKS {
            return;
        }
        let (Some(&current), Some(&before)) = (self.path.last(), self.actives.last()) else { return };
        // After a link with two restricted commons the chain has already
        // proved its point (the ALS after it would lose two digits), so, as in
        // HoDoKu, only the smaller of them is kept from the next link.
        let before = if before.count_ones() == 2 { before & before.wrapping_neg() } else { before };
        for link in &self.links[current] {
            let (next, active) = (link.to, link.digits & !before);
            if next < current || active == 0 || self.path.contains(&next) {
                continue;
            }
            self.path.push(next);
            self.actives.push(active);
            self.extend();
            self.path.pop();
            self.actives.pop();
            if self.budget == 0 {
                return;
            }
        }
    }

    fn check(&mut self) {
        // The first ALS may lie inside the last or the reverse (HoDoKu's
        // chains allow it): the chain still proves that z is in one of them.
        let last = &self.alses[self.path[self.path.len() - 1]];
        let Some(&tail) = self.actives.last() else { return };
        if last.reach_digits & !tail & self.target_digits == 0 {
            return;
        }
        let mut eliminations: Vec<Candidate> = self
            .targets
            .iter()
            .copied()
            .filter(|t| {
                last.reach_digits & !tail & bit(t.digit) != 0 && last.reach(t.digit).binary_search(&t.cell).is_ok()
            })
            .collect();
        if eliminations.is_empty() {
            return;
        }
        eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
        let chain = (eliminations.clone(), self.path.clone(), self.actives.clone());
        match self.index.get(&eliminations) {
            Some(&k) if self.best[k].1.len() <= self.path.len() => {}
            Some(&k) => self.best[k] = chain,
            None => {
                self.index.insert(eliminations, self.best.len());
                self.best.push(chain);
            }
        }
    }
}

/// A stem cell with one petal ALS per digit.
pub(crate) fn death_blossom(found: &mut Collector<'_>) {
    let marks = found.marks;
    let both = alses_and_links(marks);
    let alses = &both.0;
    let cells = marks.shape().num_cells();
    // petals[cell]: (digit, ALS) where every digit of the ALS sees the cell.
    let mut petals: Vec<Vec<(u8, usize)>> = vec![Vec::new(); cells];
    for (i, als) in alses.iter().enumerate() {
        for d in digits(als.reach_digits) {
            for &stem in als.reach(d) {
                petals[stem].push((d, i));
            }
        }
    }
    let mut search = BlossomSearch { alses, budget: SEARCH_BUDGET, chosen: Vec::new(), emitted: HashSet::new() };
    for (stem, stem_petals) in petals.iter().enumerate() {
        let stem_digits = marks.candidates(stem);
        if stem_digits.count_ones() < 2 || stem_petals.iter().fold(0, |s, &(d, _)| s | bit(d)) != stem_digits {
            continue;
        }
        let by_digit: Vec<Vec<usize>> = digits(stem_digits)
            .map(|d| stem_petals.iter().filter(|&&(e, _)| e == d).map(|&(_, i)| i).collect())
            .collect();
        search.chosen.clear();
        search.grow(found, stem, &by_digit, None);
        if found.done() || search.budget == 0 {
            return;
        }
    }
}

struct BlossomSearch<'a> {
    alses: &'a [Als],
    budget: usize,
    chosen: Vec<usize>,
    emitted: HashSet<Vec<Candidate>>,
}

impl BlossomSearch<'_> {
    /// Chooses a petal for the next digit of the stem; `targets` are the
    /// candidates that still see every copy of their digit in the chosen
    /// petals (`None` before the first): the search stops when none is left.
    fn grow(&mut self, found: &mut Collector<'_>, stem: usize, by_digit: &[Vec<usize>], targets: Option<&[Candidate]>) {
        let marks = found.marks;
        if self.chosen.len() == by_digit.len() {
            let Some(targets) = targets else { return };
            let mut eliminations = targets.to_vec();
            eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
            // One death blossom per set of eliminations (the first found).
            if !self.emitted.insert(eliminations.clone()) {
                return;
            }
            let petals: Vec<&Als> = self.chosen.iter().map(|&i| &self.alses[i]).collect();
            let common = petals.iter().fold(!marks.candidates(stem), |s, p| s & p.digits);
            let stem_digits: Vec<u8> = digits(marks.candidates(stem)).collect();
            let parts: Vec<String> =
                stem_digits.iter().zip(&petals).map(|(d, p)| format!("{d}: {}", p.text(marks))).collect();
            let z = digit_words(common & eliminations_digits(&eliminations));
            let reason = format!(
                "stem {} {} with one ALS per digit, each of whose copies of that digit sees the stem ({}): whatever \
                 the stem holds, that ALS is locked on its other digits, so {z}, in every ALS, is in one of them",
                marks.cell_name(stem),
                digit_set_text(&stem_digits),
                parts.join("; "),
            );
            let mut s = step(marks, Technique::DeathBlossom, &petals, eliminations).reason(reason);
            s.cells.push(stem);
            s.pattern.extend(stem_digits.iter().map(|&d| Candidate::new(stem, d)));
            found.push(s);
            return;
        }
        for &i in &by_digit[self.chosen.len()] {
            if self.budget == 0 || found.done() {
                return;
            }
            self.budget -= 1;
            let als = &self.alses[i];
            // Petals may overlap: the argument only needs the stem's digit's
            // petal to be locked.
            let next: Vec<Candidate> = match targets {
                None => digits(als.reach_digits & !marks.candidates(stem))
                    .flat_map(|z| als.reach(z).iter().filter(|&&c| c != stem).map(move |&c| Candidate::new(c, z)))
                    .collect(),
                Some(targets) => targets
                    .iter()
                    .copied()
                    .filter(|t| {
                        als.reach_digits & bit(t.digit) != 0 && als.reach(t.digit).binary_search(&t.cell).is_ok()
                    })
                    .collect(),
            };
            if next.is_empty() {
                continue;
            }
            self.chosen.push(i);
            self.grow(found, stem, by_digit, Some(&next));
            self.chosen.pop();
        }
    }
}
