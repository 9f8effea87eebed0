//! Franken, mutant and Siamese fish: the generalised fish of the Ultimate
//! Fish Guide, as HoDoKu finds them.
//!
//! After HoDoKu ("Franken Fish", "Mutant Fish", "Siamese Fish") and Obi-Wahn's
//! "Ultimate Fish Guide" (sudoku.com forum, topic 4993). A fish of size `k`
//! on a digit takes `k` base units and `k` other cover units (rows, columns or
//! boxes) so that every candidate of the digit in the base units lies in a
//! cover unit. Base units that share no candidate each place the digit once,
//! in `k` different cells, and the `k` cover units take one each: the cover
//! units' other candidates are false, and so is a base candidate in two cover
//! units (cannibalism). A base candidate in no cover unit is a fin, and so is
//! one in two base units (an endo fin, since it could place the digit in both
//! at once): either a fin is true or the fish is, so the candidates the fish
//! would remove that also see every fin are false.
//!
//! The families, as HoDoKu names them: a *basic* fish has rows for base and
//! columns for cover (or the other way round; [`super::fish`] finds those one
//! box of fins at a time); a *Franken* fish adds boxes to either side (base
//! rows and boxes, cover columns and boxes, or the other way round); a
//! *mutant* fish is any other mix. A *Siamese* fish is two finned fish of one
//! family and size on the same digit and base units whose eliminations differ:
//! both hold, so one step makes both.
//!
//! The bounds are HoDoKu's defaults: at most 5 fins, endo fins included, and
//! at most 2 endo fins; Franken fish up to size 4 (jellyfish), mutant fish up
//! to size 6 (whale). Being costly, Franken fish are searched only where the
//! side is 12 or less ([`FRANKEN_MAX_SIDE`]) and mutant fish where it is 9 or
//! less ([`MUTANT_MAX_SIDE`]: the search chooses base units among all `3n`);
//! basic Siamese fish on every shape.

use super::Collector;
use super::candidates::positions;
use super::step::{Step, Technique, and_list};
use crate::grid::Unit;

/// The units a fish draws its base and cover sets from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// Rows against columns.
    Basic,
    /// Rows and boxes against columns and boxes.
    Franken,
    /// Any units on either side.
    Mutant,
}

/// The most fins of a finned fish, endo fins included (HoDoKu's default).
pub const MAX_FINS: usize = 5;
/// The most endo fins (HoDoKu's default).
pub const MAX_ENDO_FINS: usize = 2;
/// The largest fish searched (a mutant whale).
const MAX_SIZE: usize = 6;
/// The largest side on which mutant fish are searched (their base sets are
/// drawn from all `3n` units).
pub const MUTANT_MAX_SIDE: usize = 9;
/// The largest side on which Franken fish (and the Siamese fish built from
/// them) are searched: their base sets are drawn from `2n` units, and on a
/// 16x16 the search tried before every forcing chain made `rate` 8 times
/// slower (1.0 s to 8.3 s of CPU on `bench-16x16.txt`).
pub const FRANKEN_MAX_SIDE: usize = 12;

/// A set of cells of a board of up to `64 * W` cells.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Cells<const W: usize>([u64; W]);

/// The candidate sets of a fish being built: the base candidates, the endo
/// fins among them, the candidates the cover units so far take, the fins so
/// far, and the candidates of the digit that see every fin (the fish can only
/// remove those).
#[derive(Clone, Copy)]
struct Net<const W: usize> {
    base: Cells<W>,
    endo: Cells<W>,
    covered: Cells<W>,
    fins: Cells<W>,
    targets: Cells<W>,
}

impl<const W: usize> Cells<W> {
    const EMPTY: Cells<W> = Cells([0; W]);

    #[inline]
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    #[inline]
    fn zip(self, other: Cells<W>, f: impl Fn(u64, u64) -> u64) -> Cells<W> {
        let mut out = self;
        for (o, b) in out.0.iter_mut().zip(other.0) {
            *o = f(*o, b);
        }
        out
    }

    #[inline]
    fn or(self, other: Cells<W>) -> Cells<W> {
        self.zip(other, |a, b| a | b)
    }

    #[inline]
    fn and(self, other: Cells<W>) -> Cells<W> {
        self.zip(other, |a, b| a & b)
    }

    #[inline]
    fn minus(self, other: Cells<W>) -> Cells<W> {
        self.zip(other, |a, b| a & !b)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    #[inline]
    fn first(&self) -> Option<usize> {
        self.0.iter().enumerate().find(|(_, w)| **w != 0).map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| positions(w).map(move |p| i * 64 + p))
    }
}

/// One fish found: its units, fins and eliminations (cells; the digit is
/// the fish's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fish {
    pub(crate) digit: u8,
    pub(crate) base: Vec<usize>,
    pub(crate) cover: Vec<usize>,
    /// Base candidates in a cover unit and in one base unit only.
    pub(crate) body: Vec<usize>,
    /// Fins (base candidates in no cover unit), then endo fins.
    pub(crate) fins: Vec<usize>,
    pub(crate) endo_fins: Vec<usize>,
    pub(crate) eliminations: Vec<usize>,
    pub(crate) family: Family,
    /// A basic finned fish with a base line of one candidate besides its
    /// fins.
    pub(crate) sashimi: bool,
}

/// What a search looks for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Query {
    pub(crate) family: Family,
    pub(crate) size: usize,
    pub(crate) finned: bool,
}

/// Every fish of the query on the board, digit by digit, on the digits of
/// `digits` (a [`super::DigitSet`]);
/// `visit` returns true to stop.
pub(crate) fn search(marks: &super::PencilMarks, query: Query, digits: u64, visit: &mut dyn FnMut(Fish) -> bool) {
    assert!(query.size <= MAX_SIZE, "a fish of size {} (at most {MAX_SIZE})", query.size);
    let cells = marks.side() * marks.side();
    match cells.div_ceil(64) {
        0..=2 => search_in::<2>(marks, query, digits, visit),
        3..=4 => search_in::<4>(marks, query, digits, visit),
        5..=16 => search_in::<16>(marks, query, digits, visit),
        17..=32 => search_in::<32>(marks, query, digits, visit),
        _ => search_in::<64>(marks, query, digits, visit),
    }
}

/// Unit kinds: 0 rows, 1 columns, 2 boxes.
fn kind_of(u: usize, n: usize) -> usize {
    u / n
}

fn search_in<const W: usize>(
    marks: &super::PencilMarks,
    query: Query,
    digits: u64,
    visit: &mut dyn FnMut(Fish) -> bool,
) {
    let n = marks.side();
    if (query.family == Family::Mutant && n > MUTANT_MAX_SIDE)
        || (query.family == Family::Franken && n > FRANKEN_MAX_SIDE)
    {
        return;
    }
    let geometry = marks.geometry();
    // (base kinds, cover kinds) as masks over unit kinds.
    let sides: &[(u8, u8)] = match query.family {
        Family::Basic => &[(0b001, 0b010), (0b010, 0b001)],
        Family::Franken => &[(0b101, 0b110), (0b110, 0b101)],
        Family::Mutant => &[(0b111, 0b111)],
    };
    for digit in super::candidates::digits(digits) {
        let unit_sets: Vec<Cells<W>> = (0..3 * n)
            .map(|u| {
                let mut set = Cells::EMPTY;
                for cell in marks.cells_with(u, digit) {
                    set.insert(cell);
                }
                set
            })
            .collect();
        let all = unit_sets[..n].iter().fold(Cells::EMPTY, |acc, &s| acc.or(s));
        let peer_sets: Vec<Cells<W>> = (0..n * n)
            .map(|cell| {
                let [r, c, b] = geometry.cell_units[cell];
                let mut me = Cells::EMPTY;
                me.insert(cell);
                unit_sets[r].or(unit_sets[c]).or(unit_sets[b]).minus(me)
            })
            .collect();
        for &(base_kinds, cover_kinds) in sides {
            let allowed = |kinds: u8| -> Vec<usize> {
                (0..3 * n).filter(|&u| kinds >> kind_of(u, n) & 1 != 0 && !unit_sets[u].is_empty()).collect()
            };
            let base_units = allowed(base_kinds);
            if base_units.len() < query.size {
                continue;
            }
            let cover_units = allowed(cover_kinds);
            let mut usable = vec![false; 3 * n];
            for &u in &cover_units {
                usable[u] = true;
            }
            let mut search = Search {
                geometry,
                n,
                digit,
                query,
                unit_sets: &unit_sets,
                all,
                peer_sets: &peer_sets,
                capacity: 0,
                base_units,
                base_kinds: 0,
                cover_kinds,
                cover_units,
                usable,
                base: Vec::with_capacity(query.size),
                cover: [0; MAX_SIZE],
                covers: 0,
                visit: &mut *visit,
            };
            if search.bases(0, Cells::EMPTY, Cells::EMPTY) {
                return;
            }
        }
    }
}

struct Search<'a, const W: usize> {
    geometry: &'a super::candidates::Geometry,
    n: usize,
    digit: u8,
    query: Query,
    unit_sets: &'a [Cells<W>],
    /// Every candidate of the digit.
    all: Cells<W>,
    /// For each cell, the other candidates of the digit it sees.
    peer_sets: &'a [Cells<W>],
    /// The most base candidates one cover unit holds (for the base units
    /// being tried).
    capacity: usize,
    base_units: Vec<usize>,
    /// The unit kinds of the base units chosen (once all are).
    base_kinds: u8,
    /// The unit kinds cover units are drawn from.
    cover_kinds: u8,
    /// The units of those kinds that hold the digit.
    cover_units: Vec<usize>,
    /// Whether a unit may be a cover unit here: of the cover kinds, not a
    /// base unit, not a cover unit already and not ruled out below this point
    /// of the cover search.
    usable: Vec<bool>,
    base: Vec<usize>,
    /// The cover units so far, `covers` of them.
    cover: [usize; MAX_SIZE],
    covers: usize,
    visit: &'a mut dyn FnMut(Fish) -> bool,
}

impl<const W: usize> Search<'_, W> {
    /// The other candidates of the digit that `cell` sees.
    #[inline]
    fn peers(&self, cell: usize) -> Cells<W> {
        self.peer_sets[cell]
    }

    /// The family the fish has with these base units and cover units.
    fn family_of(&self, cover_kinds: u8) -> Family {
        match (self.base_kinds, cover_kinds) {
            (0b001, 0b010) | (0b010, 0b001) => Family::Basic,
            (0b001 | 0b101, 0b010 | 0b110) | (0b010 | 0b110, 0b001 | 0b101) => Family::Franken,
            _ => Family::Mutant,
        }
    }

    /// Chooses base units from `base_units[from..]`; returns true to stop.
    fn bases(&mut self, from: usize, union: Cells<W>, endo: Cells<W>) -> bool {
        if self.base.len() == self.query.size {
            self.base_kinds = self.base.iter().fold(0u8, |acc, &u| acc | 1 << kind_of(u, self.n));
            // No cover units of the cover kinds make a fish of the family
            // asked for with these base units (boxes alone, say): the search
            // below would report nothing.
            let cover_kinds = self.cover_kinds;
            if !(1..8u8).any(|kinds| kinds & !cover_kinds == 0 && self.family_of(kinds) == self.query.family) {
                return false;
            }
            // The cells that could lose the digit see every endo fin.
            let mut targets = self.all.minus(endo);
            for fin in endo.cells() {
                targets = targets.and(self.peers(fin));
            }
            if targets.is_empty() {
                return false;
            }
            self.capacity = self
                .cover_units
                .iter()
                .filter(|&&u| self.usable[u])
                .map(|&u| self.unit_sets[u].and(union).count())
                .max()
                .unwrap_or(0);
            let endo_count = endo.count();
            let net = Net { base: union, endo, covered: Cells::EMPTY, fins: Cells::EMPTY, targets };
            return self.covers(net, endo_count, 0);
        }
        for i in from..self.base_units.len() {
            if self.base_units.len() - i < self.query.size - self.base.len() {
                break;
            }
            let u = self.base_units[i];
            let set = self.unit_sets[u];
            let overlap = union.and(set);
            let endo = endo.or(overlap);
            if !overlap.is_empty() && (!self.query.finned || endo.count() > MAX_ENDO_FINS) {
                continue;
            }
            let was_usable = self.usable[u];
            self.usable[u] = false;
            self.base.push(u);
            let stop = self.bases(i + 1, union.or(set), endo);
            self.base.pop();
            self.usable[u] = was_usable;
            if stop {
                return true;
            }
        }
        false
    }

    /// Covers the first base candidate not yet covered (and not a fin) by
    /// each cover unit through it in turn, then makes it a fin; a unit tried
    /// is ruled out for the later choices, so each set of cover units and
    /// fins is met once. Returns true to stop.
    /// `fin_count`: the fins and endo fins so far; `kinds_so_far`: the unit
    /// kinds of the cover units so far.
    fn covers(&mut self, net: Net<W>, fin_count: usize, kinds_so_far: u8) -> bool {
        let open = net.base.minus(net.covered.or(net.fins).or(net.endo));
        if open.is_empty() {
            return self.covers == self.query.size && self.examine(net, kinds_so_far);
        }
        let fin_room = if self.query.finned { MAX_FINS - fin_count.min(MAX_FINS) } else { 0 };
        let open_count = open.count();
        if self.covers == self.query.size {
            // Every candidate left open is a fin.
            if open_count > fin_room {
                return false;
            }
            let targets = open.cells().fold(net.targets, |t, fin| t.and(self.peers(fin)));
            let net = Net { fins: net.fins.or(open), targets, ..net };
            return !targets.is_empty() && self.examine(net, kinds_so_far);
        }
        // A lower bound on the fins: what the cover units left can take.
        let left = self.query.size - self.covers;
        if open_count > left * self.capacity + fin_room {
            return false;
        }
        // The first open candidate (every one is covered or a fin).
        let Some(cell) = open.first() else { return false };
        let mut ruled_out = [usize::MAX; 3];
        let mut stop = false;
        for (k, u) in self.geometry.cell_units[cell].into_iter().enumerate() {
            if !self.usable[u] {
                continue;
            }
            // Ruled out for the later choices here, tried or not.
            self.usable[u] = false;
            ruled_out[k] = u;
            // The last cover unit must make the fish of the family asked for
            // (the cell's units are its row, column and box: kinds 0, 1, 2).
            let kinds = kinds_so_far | 1 << k;
            if left == 1 && self.family_of(kinds) != self.query.family {
                continue;
            }
            self.cover[self.covers] = u;
            self.covers += 1;
            stop = self.covers(Net { covered: net.covered.or(self.unit_sets[u]), ..net }, fin_count, kinds);
            self.covers -= 1;
            if stop {
                break;
            }
        }
        if !stop && fin_room > 0 {
            let targets = net.targets.and(self.peers(cell));
            if !targets.is_empty() {
                let mut fins = net.fins;
                fins.insert(cell);
                stop = self.covers(Net { fins, targets, ..net }, fin_count + 1, kinds_so_far);
            }
        }
        for u in ruled_out.into_iter().filter(|&u| u != usize::MAX) {
            self.usable[u] = true;
        }
        stop
    }

    /// Reports the fish on the chosen units (`kinds`: their unit kinds) if
    /// it is of the family asked for and removes something; returns true to
    /// stop.
    fn examine(&mut self, net: Net<W>, kinds: u8) -> bool {
        let Net { base, endo, covered, fins, targets } = net;
        let all_fins = fins.or(endo);
        if self.query.finned == all_fins.is_empty() {
            return false;
        }
        let family = self.family_of(kinds);
        if family != self.query.family {
            return false;
        }
        // Candidates in two cover units.
        let (mut once, mut twice) = (Cells::<W>::EMPTY, Cells::<W>::EMPTY);
        for &u in &self.cover[..self.covers] {
            twice = twice.or(once.and(self.unit_sets[u]));
            once = once.or(self.unit_sets[u]);
        }
        let potential = covered.minus(base).or(twice);
        let eliminations: Vec<usize> = potential.and(targets).cells().collect();
        if eliminations.is_empty() {
            return false;
        }
        let sashimi = family == Family::Basic
            && self.query.finned
            && self.base.iter().any(|&u| self.unit_sets[u].minus(all_fins).count() <= 1);
        let fish = Fish {
            digit: self.digit,
            base: self.base.clone(),
            cover: self.cover[..self.covers].to_vec(),
            body: base.minus(all_fins).cells().collect(),
            fins: fins.cells().collect(),
            endo_fins: endo.cells().collect(),
            eliminations,
            family,
            sashimi,
        };
        (self.visit)(fish)
    }
}

/// Which fish a technique reports.
fn query_of(technique: Technique) -> Option<(Query, Option<bool>)> {
    use Family::{Basic, Franken, Mutant};
    let (family, size, finned) = match technique {
        Technique::FrankenXWing => (Franken, 2, false),
        Technique::FrankenSwordfish => (Franken, 3, false),
        Technique::FrankenJellyfish => (Franken, 4, false),
        Technique::FinnedFrankenXWing => (Franken, 2, true),
        Technique::FinnedFrankenSwordfish => (Franken, 3, true),
        Technique::FinnedFrankenJellyfish => (Franken, 4, true),
        Technique::FinnedMutantJellyfish => (Mutant, 4, true),
        Technique::FinnedMutantSquirmbag => (Mutant, 5, true),
        Technique::FinnedMutantWhale => (Mutant, 6, true),
        Technique::SiameseFinnedSwordfish => {
            return Some((Query { family: Basic, size: 3, finned: true }, Some(false)));
        }
        Technique::SiameseSashimiSwordfish => {
            return Some((Query { family: Basic, size: 3, finned: true }, Some(true)));
        }
        Technique::SiameseFinnedJellyfish => {
            return Some((Query { family: Basic, size: 4, finned: true }, Some(false)));
        }
        Technique::SiameseSashimiJellyfish => {
            return Some((Query { family: Basic, size: 4, finned: true }, Some(true)));
        }
        Technique::SiameseFinnedFrankenSwordfish => {
            return Some((Query { family: Franken, size: 3, finned: true }, None));
        }
        Technique::SiameseFinnedFrankenJellyfish => {
            return Some((Query { family: Franken, size: 4, finned: true }, None));
        }
        Technique::SiameseFinnedMutantJellyfish => {
            return Some((Query { family: Mutant, size: 4, finned: true }, None));
        }
        _ => return None,
    };
    Some((Query { family, size, finned }, None))
}

/// The Franken and mutant fish of a technique.
pub(crate) fn generalised_fish(found: &mut Collector<'_>, technique: Technique) {
    let Some((query, _)) = query_of(technique) else { return };
    let marks = found.marks;
    for digit in 1..=marks.side() as u8 {
        // A digit whose candidates are as they were when its search last
        // found nothing.
        if found.fruitless(technique, digit) {
            continue;
        }
        let steps_before = found.steps.len();
        let mut stop = false;
        search(marks, query, super::candidates::bit(digit), &mut |fish| {
            found.push(step_of(marks, technique, &[&fish]));
            stop = found.done();
            stop
        });
        if stop {
            return;
        }
        found.searched(technique, digit, steps_before);
    }
}

/// Siamese fish: two finned fish of a family, size and digit on the same
/// base units with different eliminations, reported as one step. For basic
/// fish, the Siamese sashimi techniques take the pairs where either fish is
/// sashimi, the Siamese finned ones the pairs where either is not.
pub(crate) fn siamese_fish(found: &mut Collector<'_>, technique: Technique) {
    let Some((query, sashimi)) = query_of(technique) else { return };
    let marks = found.marks;
    let mut all: Vec<Fish> = Vec::new();
    search(marks, query, super::candidates::full_set(marks.side()), &mut |fish| {
        all.push(fish);
        false
    });
    for (i, a) in all.iter().enumerate() {
        for b in &all[i + 1..] {
            if a.digit != b.digit || a.base != b.base || a.eliminations == b.eliminations {
                continue;
            }
            // A mixed pair counts as both (HoDoKu names it after whichever
            // of the two it sorts first).
            let fits = match sashimi {
                Some(true) => a.sashimi || b.sashimi,
                Some(false) => !(a.sashimi && b.sashimi),
                None => true,
            };
            if !fits {
                continue;
            }
            found.push(step_of(marks, technique, &[a, b]));
            if found.done() {
                return;
            }
        }
    }
}

/// `row 2, row 3 and box 6`.
fn unit_names(n: usize, units: &[usize]) -> String {
    let unit = |u: usize| match kind_of(u, n) {
        0 => Unit::Row(u),
        1 => Unit::Column(u - n),
        _ => Unit::Box(u - 2 * n),
    };
    and_list(&units.iter().map(|&u| unit(u).to_string()).collect::<Vec<_>>())
}

/// The step of one fish, or of a Siamese pair (one base, two covers).
fn step_of(marks: &super::PencilMarks, technique: Technique, fish: &[&Fish]) -> Step {
    let n = marks.side();
    let first = fish[0];
    let digit = first.digit;
    let names = |cells: &[usize]| and_list(&cells.iter().map(|&c| marks.cell_name(c)).collect::<Vec<_>>());
    let mut reason = format!("the {digit}s of {} lie in ", unit_names(n, &first.base));
    let mut units: Vec<usize> = first.base.clone();
    let mut cells: Vec<usize> = first.body.clone();
    let mut fins_all: Vec<usize> = Vec::new();
    let mut eliminations: Vec<usize> = Vec::new();
    for (i, f) in fish.iter().enumerate() {
        if i > 0 {
            reason.push_str(", and also in ");
        }
        reason.push_str(&unit_names(n, &f.cover));
        if !f.fins.is_empty() {
            reason.push_str(&format!(" except the fin{} {}", if f.fins.len() > 1 { "s" } else { "" }, names(&f.fins)));
        }
        if !f.endo_fins.is_empty() {
            reason.push_str(if f.fins.is_empty() { " except " } else { " and " });
            let s = if f.endo_fins.len() > 1 { "s" } else { "" };
            reason.push_str(&format!("the endo fin{s} {} (in two base units)", names(&f.endo_fins)));
        }
        units.extend(f.cover.iter().copied().filter(|u| !units.contains(u)).collect::<Vec<_>>());
        fins_all
            .extend(f.fins.iter().chain(&f.endo_fins).copied().filter(|c| !fins_all.contains(c)).collect::<Vec<_>>());
        eliminations.extend_from_slice(&f.eliminations);
    }
    if fish.len() > 1 {
        reason.push_str(": either fish removes its digits");
    }
    cells.retain(|c| !fins_all.contains(c));
    let mut pattern: Vec<super::Candidate> = cells.iter().map(|&c| super::Candidate::new(c, digit)).collect();
    pattern.extend(fins_all.iter().map(|&c| super::Candidate::new(c, digit)));
    cells.extend_from_slice(&fins_all);
    let geometry = marks.geometry();
    Step::new(technique, marks.shape())
        .eliminating(eliminations.into_iter().map(|c| super::Candidate::new(c, digit)).collect())
        .units(units.into_iter().map(|u| geometry.unit(u)).collect())
        .cells(cells)
        .pattern(pattern)
        .digits(vec![digit])
        .reason(reason)
}
