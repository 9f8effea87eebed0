//! The nogoods: learnt clauses over literals, propagated with two watched
//! literals (Moskewicz et al. 2001, "Chaff"), and their database reduction
//! by literal block distance (Audemard & Simon 2009, "Glucose").
//!
//! A clause is a disjunction of [`Literal`]s, the negation of a nogood's
//! conjunction of facts. Each clause watches two literals that are not
//! false, through the watch lists of their variables. The store learns what
//! changed by reading the history from where it last stopped (every domain
//! change is an entry there, whoever made it): for each changed variable it
//! goes through its watches, and for each that became false, unless its
//! blocker (another literal of the clause) is true, looks at the clause
//! (see [`Watch`]; the watches of a literal `x ≠ v` are gone through only
//! when `x` is fixed to `v`, see [`Nogoods::list`]); it moves a watch that
//! became false to another literal that is not, and when it cannot, the
//! clause is unit (its last literal is made true, the clause being its
//! reason) or false (a conflict). (The history keeps how far the store has
//! read, so that an undo pulls it back with the entries.) A literal made
//! true by a clause is moved to its first place and stays there while it is
//! on the trail (a true watch is never moved), so the clause explains it by
//! the negations of its other literals.
//!
//! Reduction: every so many conflicts, the learnt clauses are sorted by
//! literal block distance (the number of decision levels among their
//! literals when learnt) and activity (bumped when a clause takes part in an
//! analysis), and the worse half is deleted, except the clauses of distance
//! two or less ("glue"), those that are the reason of a literal on the trail,
//! and the permanent ones (the nogoods that exclude found solutions).
//!
//! With tiers (`SolveConfig::nogood_tiers`, as Maple and CaDiCaL keep
//! their learnt clauses; Oh 2016, "Between SAT and UNSAT"): the glue
//! clauses are the core kept for good, the clauses of distance [`TIER2`] or
//! less are kept while an analysis used them since the last reduction, and
//! the others, the local tier, lose their less active half. With
//! `SolveConfig::dynamic_lbd`, the distance of a clause an analysis uses is
//! recounted then and lowered when smaller (Glucose's dynamic LBD, Audemard
//! & Simon 2009; the parent module's `recount_lbd`); with
//! `SolveConfig::lbd_protection` as well, a clause whose distance was
//! lowered (from [`PROTECT_BELOW`] or less) since the last reduction is
//! kept by it, and the reduction deletes as many others.
//!
//! Recounted glue (a clause learnt with a distance above two that a recount
//! lowered to two or less) is kept for good like learnt glue, unless one of
//! two rules bounds it ([`Rule`]): with `SolveConfig::expiring_glue` it is
//! kept only while an analysis used it since the last reduction (as tier
//! two is), and is otherwise weighed as any other clause; with
//! `SolveConfig::glue_cap`, the glue kept, learnt and recounted, is at most
//! [`GLUE_CAP`] of the learnt clauses alive, and the least active recounted
//! glue beyond that is weighed as any other clause. With
//! `SolveConfig::faded_glue_by_activity` as well as expiring glue, the glue
//! that expired is not weighed with the others (where its distance would
//! rank it last) but by activity alone: a reduction deletes its less active
//! half first, then the rest of its share from the other clauses.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::kernel::{History, Literal, State};

/// The hasher of [`Nogoods`]' map of removal literals: rustc's `FxHasher`
/// (a rotate, an xor and a multiply per word). Its keys are the solver's
/// own small numbers, not an adversary's, and the standard SipHash cost
/// about 200 instructions a look-up on every change of a fixed variable
/// (0.5% of `--learn`'s instructions on a 25x25 sudoku, callgrind).
#[derive(Clone, Copy, Debug, Default)]
struct FxHasher {
    hash: u64,
}

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(Self::SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// What a clause is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::search) enum Kind {
    /// Learnt from a conflict: may be deleted.
    Learnt,
    /// Excludes a solution found (or is a unit learnt at the root): kept.
    Permanent,
}

/// A clause and what the reduction weighs it by.
#[derive(Clone, Debug)]
pub(in crate::search) struct Clause {
    pub(in crate::search) literals: Vec<Literal>,
    pub(in crate::search) kind: Kind,
    pub(in crate::search) lbd: u32,
    pub(in crate::search) activity: f64,
    /// Whether an analysis used it since the last reduction.
    pub(in crate::search) used: bool,
    /// Whether the next reduction keeps it (`SolveConfig::lbd_protection`:
    /// its distance was lowered since the last reduction).
    pub(in crate::search) protected: bool,
    /// Its literal block distance when learnt (`lbd` may be lower since).
    pub(in crate::search) learnt_lbd: u32,
    /// Whether vivification looked at it (the sibling module `vivify`).
    pub(in crate::search) vivified: bool,
}

impl Clause {
    /// Whether it is glue (distance two or less) only because a recount
    /// lowered its distance.
    fn recounted_glue(&self) -> bool {
        self.lbd <= 2 && self.learnt_lbd > 2
    }
}

/// How a reduction treats the clauses (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Rule {
    /// `SolveConfig::nogood_tiers`.
    pub(super) tiers: bool,
    /// `SolveConfig::expiring_glue`: recounted glue is kept only while used.
    pub(super) expire: bool,
    /// `SolveConfig::faded_glue_by_activity`: the glue that expired is
    /// weighed by activity alone.
    pub(super) fade: bool,
    /// `SolveConfig::glue_cap`: the glue kept is at most [`GLUE_CAP`] of
    /// the learnt clauses.
    pub(super) cap: bool,
}

/// What a reduction did, for the statistics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Reduced {
    /// The learnt clauses it deleted.
    pub(super) deleted: usize,
    /// The learnt clauses alive after it.
    pub(super) alive: usize,
    /// Of those, the glue ones (distance two or less, learnt or recounted).
    pub(super) glue: usize,
}

/// Under `SolveConfig::glue_cap`, the largest share of the learnt clauses
/// alive at a reduction that the glue kept for good may take (see the
/// module docs).
pub(super) const GLUE_CAP: f64 = 0.5;

/// The largest distance a lowering protects from (Glucose's
/// `lbLBDFrozenClause`).
pub(in crate::search) const PROTECT_BELOW: u32 = 30;

/// The largest literal block distance of the second tier (see the module
/// docs): CaDiCaL's and Maple's six.
pub(in crate::search) const TIER2: u32 = 6;

/// What a look at one clause found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::search) enum Found {
    /// Nothing to do.
    Nothing,
    /// Its first literal is to be made true.
    Unit(Literal),
    /// Every literal is false.
    Conflict,
}

/// A clause watching one of its literals: an entry of the watch list of
/// the literal's variable. A change of the variable needs a look at the
/// clause only when it made this literal false and the blocker, another
/// literal of the clause, is not true (a true one satisfies the clause):
/// both the store tells from the entry alone, without reading the clause
/// (MiniSat's blocking literals, Sörensson & Eén 2009). An entry may be
/// stale: the clause no longer watches the literal, or was deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::search) struct Watch {
    pub(in crate::search) id: u32,
    pub(in crate::search) literal: Literal,
    pub(in crate::search) blocker: Literal,
}

/// The clauses, their watches, and how far the history was read.
#[derive(Debug, Default)]
pub(in crate::search) struct Nogoods {
    /// By id; a deleted clause's slot is `None` until reused.
    clauses: Vec<Option<Clause>>,
    free: Vec<u32>,
    /// The watch lists (see [`Nogoods::list`]): the clauses watching a
    /// literal, with the literal. Each literal a clause watches has its
    /// entry in its list.
    pub(in crate::search) watches: Vec<Vec<Watch>>,
    /// The variables (the first lists of `watches` are theirs).
    num_vars: usize,
    /// The list of each literal `x ≠ v` watched so far, by variable and
    /// the value's position.
    removals: HashMap<(u32, u32), u32, BuildHasherDefault<FxHasher>>,
    /// Per variable, the pass (see [`Nogoods::begin_pass`]) that last
    /// looked at its watches and the history's length then.
    looked: Vec<(u32, u32)>,
    /// The current pass.
    pass: u32,
    /// The learnt (deletable) clauses alive.
    learnt: usize,
    /// The activity increment of clauses.
    increment: f64,
    /// The clause switched off while vivification tries to shorten it
    /// (the sibling module `vivify`): its watches are kept as they are and
    /// it propagates nothing.
    off: Option<u32>,
}

impl Nogoods {
    pub(in crate::search) fn new(num_vars: usize) -> Nogoods {
        Nogoods {
            watches: vec![Vec::new(); num_vars],
            num_vars,
            looked: vec![(0, 0); num_vars],
            increment: 1.0,
            ..Nogoods::default()
        }
    }

    /// Starts a pass over the unread entries of the history: one reading
    /// that only appends entries (no undo happens during it).
    pub(in crate::search) fn begin_pass(&mut self) {
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.looked.iter_mut().for_each(|l| *l = (0, 0));
            self.pass = 1;
        }
    }

    /// Whether entry `e` of `var` needs a look at its watches, the history
    /// being `len` entries long; if so, records the look. An entry does not
    /// when this pass looked at the variable after the entry was made: that
    /// look saw the domain with this entry's change, and the watches it
    /// made false were moved or handled then (a true blocker stays true).
    /// A watch that a later change of the variable made false is visited at
    /// that change's own entry, still unread, so none is missed; but looking
    /// at every entry visited it here, earlier in the pass. Skipping can
    /// therefore change the order of the nogoods' propagations, so the
    /// reasons, the conflict found first and the learnt clauses: equally
    /// valid, a different tree (`explained_scheduling rcpsp`, BENCHMARKS.md
    /// "Scheduling and packing explained").
    #[inline]
    pub(in crate::search) fn first_look(&mut self, var: u32, e: u32, len: u32) -> bool {
        let looked = &mut self.looked[var as usize];
        if looked.0 == self.pass && e < looked.1 {
            return false;
        }
        *looked = (self.pass, len);
        true
    }

    /// Forgets every clause, for a new run.
    pub(in crate::search) fn clear(&mut self) {
        self.clauses.clear();
        self.free.clear();
        self.watches.truncate(self.num_vars);
        self.watches.iter_mut().for_each(Vec::clear);
        self.removals.clear();
        self.learnt = 0;
        self.increment = 1.0;
    }

    /// The clause `id`.
    #[inline]
    pub(in crate::search) fn clause(&self, id: u32) -> &Clause {
        self.clauses[id as usize].as_ref().expect("a live clause")
    }

    /// Adds a clause watching its first two literals (the first must not be
    /// false; the second, if any, is the last to have become false, or not
    /// false either). Returns its id.
    pub(in crate::search) fn add(&mut self, literals: Vec<Literal>, kind: Kind, lbd: u32) -> u32 {
        debug_assert!(!literals.is_empty(), "an empty clause is a conflict at the root, not a nogood");
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.clauses.push(None);
                self.clauses.len() as u32 - 1
            }
        };
        for (slot, &literal) in literals.iter().enumerate().take(2) {
            let blocker = literals[if literals.len() > 1 { 1 - slot } else { 0 }];
            let list = Nogoods::list(&mut self.watches, &mut self.removals, literal);
            self.watches[list].push(Watch { id, literal, blocker });
        }
        if kind == Kind::Learnt {
            self.learnt += 1;
        }
        self.clauses[id as usize] = Some(Clause {
            literals,
            kind,
            lbd,
            activity: self.increment,
            used: false,
            protected: false,
            learnt_lbd: lbd,
            vivified: false,
        });
        id
    }

    /// The watch list of `literal` (an index in `watches`): for a literal
    /// `x ≠ v`, which only `x = v` makes false, a list of its own, looked
    /// at only when `x` is fixed to `v` (the nogoods that exclude solutions
    /// are made of such literals); for the others, the variable's, looked at
    /// on every change of it.
    fn list(
        watches: &mut Vec<Vec<Watch>>,
        removals: &mut HashMap<(u32, u32), u32, BuildHasherDefault<FxHasher>>,
        literal: Literal,
    ) -> usize {
        match literal {
            Literal::Outside { var, word, mask } if mask.is_power_of_two() => {
                let position = word * 64 + mask.trailing_zeros();
                let list = *removals.entry((var, position)).or_insert(watches.len() as u32) as usize;
                if list == watches.len() {
                    watches.push(Vec::new());
                }
                list
            }
            _ => literal.var() as usize,
        }
    }

    /// The watch lists to look at after a change of `var`: its own, and,
    /// when it is fixed (at position `fixed_at`), the list of the literal
    /// `var ≠ value` of that value.
    pub(in crate::search) fn lists(&self, var: u32, fixed_at: Option<u32>) -> [Option<usize>; 2] {
        let removal = fixed_at.and_then(|position| self.removals.get(&(var, position))).map(|&l| l as usize);
        [Some(var as usize), removal]
    }

    /// Clause `id` took part in a conflict's analysis.
    pub(in crate::search) fn bump(&mut self, id: u32) {
        if let Some(clause) = &mut self.clauses[id as usize] {
            clause.used = true;
            clause.activity += self.increment;
            if clause.activity > 1e100 {
                self.clauses.iter_mut().flatten().for_each(|c| c.activity *= 1e-100);
                self.increment *= 1e-100;
            }
        }
    }

    /// Lowers clause `id`'s literal block distance to `lbd` if that is
    /// smaller (a learnt clause's, recomputed when an analysis used it);
    /// with `protect`, a lowering from [`PROTECT_BELOW`] or less also keeps
    /// the clause through the next reduction. Returns whether it lowered.
    pub(in crate::search) fn lower_lbd(&mut self, id: u32, lbd: u32, protect: bool) -> bool {
        if let Some(clause) = &mut self.clauses[id as usize] {
            if lbd < clause.lbd {
                clause.protected |= protect && clause.lbd <= PROTECT_BELOW;
                clause.lbd = lbd;
                return true;
            }
        }
        false
    }

    /// The conflict is over: later bumps weigh more.
    pub(in crate::search) fn decay(&mut self) {
        self.increment /= 0.999;
    }

    /// Looks at the clause of `watch`, whose literal is false: moves its
    /// watches off false literals where it can. Returns the entry's new
    /// blocker when it still watches the literal (the entry is kept), and
    /// what it found.
    pub(in crate::search) fn visit(&mut self, state: &State, watch: Watch) -> (Option<Literal>, Found) {
        let id = watch.id;
        if self.off == Some(id) {
            return (Some(watch.blocker), Found::Nothing);
        }
        let Some(clause) = self.clauses[id as usize].as_mut() else { return (None, Found::Nothing) };
        let literals = &mut clause.literals;
        if literals.len() == 1 {
            let found = match state.truth(literals[0]) {
                Some(true) => Found::Nothing,
                Some(false) => Found::Conflict,
                None => Found::Unit(literals[0]),
            };
            return ((literals[0] == watch.literal).then_some(literals[0]), found);
        }
        let mut truth = [state.truth(literals[0]), state.truth(literals[1])];
        if let Some(slot) = truth.iter().position(|&t| t == Some(true)) {
            // Satisfied: the true literal blocks the watch from now on.
            let kept = literals[0] == watch.literal || literals[1] == watch.literal;
            return (kept.then_some(literals[slot]), Found::Nothing);
        }
        for slot in 0..2 {
            if truth[slot] != Some(false) {
                continue;
            }
            let replacement = (2..literals.len()).find_map(|j| {
                let t = state.truth(literals[j]);
                (t != Some(false)).then_some((j, t))
            });
            if let Some((j, t)) = replacement {
                literals.swap(slot, j);
                truth[slot] = t;
                let (literal, blocker) = (literals[slot], literals[1 - slot]);
                let list = Nogoods::list(&mut self.watches, &mut self.removals, literal);
                self.watches[list].push(Watch { id, literal, blocker });
            }
        }
        let clause = self.clauses[id as usize].as_mut().expect("a live clause");
        let literals = &mut clause.literals;
        let found = match truth {
            [Some(true), _] | [_, Some(true)] => Found::Nothing,
            [Some(false), Some(false)] => Found::Conflict,
            [Some(false), None] => {
                // The literal to make true goes first: the clause is its reason.
                literals.swap(0, 1);
                Found::Unit(literals[0])
            }
            [None, Some(false)] => Found::Unit(literals[0]),
            [None, None] => Found::Nothing,
        };
        let blocker = match (literals[0] == watch.literal, literals[1] == watch.literal) {
            (true, _) => Some(literals[1]),
            (_, true) => Some(literals[0]),
            _ => None,
        };
        (blocker, found)
    }

    /// A live clause (not switched off) that `state` makes false, or unit
    /// with its last literal not true: a watch the propagation missed (the
    /// debug check of `Solver::check_nogoods`, after the nogoods read the
    /// whole history).
    #[cfg(feature = "testing")]
    pub(in crate::search) fn unnoticed(&self, state: &State) -> Option<u32> {
        let missed = |c: &Clause| {
            let mut open = c.literals.iter().filter(|&&l| state.truth(l) != Some(false));
            match (open.next(), open.next()) {
                (None, _) => true,
                (Some(&last), None) => state.truth(last) != Some(true),
                _ => false,
            }
        };
        self.clauses
            .iter()
            .enumerate()
            .filter(|&(id, _)| self.off != Some(id as u32))
            .find_map(|(id, c)| c.as_ref().filter(|c| missed(c)).map(|_| id as u32))
    }

    /// Switches clause `id` off (`None`: switches the one off back on): see
    /// the field `off`.
    pub(in crate::search) fn switch_off(&mut self, id: Option<u32>) {
        self.off = id;
    }

    /// The learnt clauses vivification has not looked at yet, best first:
    /// by literal block distance, then by id (the older first).
    pub(in crate::search) fn unvivified(&self) -> Vec<u32> {
        let mut ids: Vec<(u32, u32)> = self
            .clauses
            .iter()
            .enumerate()
            .filter_map(|(id, c)| c.as_ref().map(|c| (id as u32, c)))
            .filter(|(_, c)| c.kind == Kind::Learnt && !c.vivified)
            .map(|(id, c)| (c.lbd, id))
            .collect();
        ids.sort_unstable();
        ids.into_iter().map(|(_, id)| id).collect()
    }

    /// Vivification looked at clause `id`: its literals become `literals`,
    /// a subset of them that the state does not make false (with one, the
    /// clause is a unit, kept for good), watched anew; its distance is at
    /// most their number (lowered as a recount lowers it: its distance when
    /// learnt stays, see `Clause::recounted_glue`).
    pub(in crate::search) fn shorten(&mut self, id: u32, literals: Vec<Literal>) {
        debug_assert!(!literals.is_empty(), "an empty clause is a conflict at the root, not a nogood");
        let clause = self.clauses[id as usize].as_mut().expect("a live clause");
        clause.vivified = true;
        if literals.len() == clause.literals.len() {
            return;
        }
        // Every watch of the clause, stale ones too, is in the list of
        // one of its literals.
        let old = std::mem::replace(&mut clause.literals, literals.clone());
        for literal in old {
            let list = Nogoods::list(&mut self.watches, &mut self.removals, literal);
            self.watches[list].retain(|watch| watch.id != id);
        }
        for (slot, &literal) in literals.iter().enumerate().take(2) {
            let blocker = literals[if literals.len() > 1 { 1 - slot } else { 0 }];
            let list = Nogoods::list(&mut self.watches, &mut self.removals, literal);
            self.watches[list].push(Watch { id, literal, blocker });
        }
        let clause = self.clauses[id as usize].as_mut().expect("a live clause");
        clause.lbd = clause.lbd.min(literals.len() as u32);
        if literals.len() == 1 && clause.kind == Kind::Learnt {
            clause.kind = Kind::Permanent;
            self.learnt -= 1;
        }
    }

    /// Whether clause `id` is the reason of an entry still in the history.
    fn is_reason(&self, id: u32, history: &History) -> bool {
        let clause = self.clause(id);
        let var = clause.literals[0].var();
        let mut e = history.last(var);
        while e != crate::kernel::NONE {
            let entry = &history.entries[e as usize];
            if entry.cause == crate::kernel::Cause::Nogood(id) {
                return true;
            }
            e = entry.previous;
        }
        false
    }

    /// Deletes the worse half of the learnt clauses, or with `tiers` the
    /// less active half of the local tier; `rule` says which glue is kept
    /// (see the module docs).
    pub(super) fn reduce(&mut self, history: &History, rule: Rule) -> Reduced {
        let learnt = |c: &&Clause| c.kind == Kind::Learnt;
        // Glue kept for good before the cap: learnt glue, and recounted glue
        // unless it expired.
        let glue = |c: &Clause| c.lbd <= 2 && !(rule.expire && c.recounted_glue() && !c.used);
        // The recounted glue beyond the cap, least active first, is weighed
        // as any other clause.
        let mut uncapped: Vec<(u32, f64)> = Vec::new();
        if rule.cap {
            let kept = self.clauses.iter().flatten().filter(learnt).filter(|c| glue(c)).count();
            let cap = (self.learnt as f64 * GLUE_CAP) as usize;
            if kept > cap {
                uncapped = self
                    .clauses
                    .iter()
                    .enumerate()
                    .filter_map(|(id, c)| c.as_ref().map(|c| (id as u32, c)))
                    .filter(|(_, c)| learnt(c) && glue(c) && c.recounted_glue())
                    .map(|(id, c)| (id, c.activity))
                    .collect();
                uncapped.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                uncapped.truncate(kept - cap);
                uncapped.sort_unstable_by_key(|&(id, _)| id);
            }
        }
        let kept_glue = |id: u32, c: &Clause| glue(c) && uncapped.binary_search_by_key(&id, |&(id, _)| id).is_err();
        // Glue that expired, weighed by activity alone under `fade`.
        let faded = |c: &Clause| rule.fade && c.recounted_glue() && !c.used;
        let mut candidates: Vec<(u32, u32, f64)> = Vec::new();
        let mut fading: Vec<(u32, u32, f64)> = Vec::new();
        for (id, c) in self.clauses.iter().enumerate().filter_map(|(id, c)| c.as_ref().map(|c| (id as u32, c))) {
            if !learnt(&c) || kept_glue(id, c) || c.protected || (rule.tiers && c.used && c.lbd <= TIER2) {
                continue;
            }
            let list = if faded(c) && !rule.tiers { &mut fading } else { &mut candidates };
            list.push((id, c.lbd, c.activity));
        }
        // A protection lasts one reduction (Glucose); a use, until the next.
        self.clauses.iter_mut().flatten().for_each(|c| c.protected = false);
        if rule.tiers || rule.expire {
            self.clauses.iter_mut().flatten().for_each(|c| c.used = false);
        }
        let target = if rule.tiers {
            // The local tier by activity alone, least active first; ties by id.
            candidates.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
            candidates.len() / 2
        } else {
            // Worst first: the largest distance, then the least active; ties by id.
            candidates.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
            // The less active half of the faded glue first, least active
            // first; ties by id. Its other half waits for the next reduction.
            if !fading.is_empty() {
                fading.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
                fading.truncate(fading.len().div_ceil(2));
                fading.append(&mut candidates);
                candidates = fading;
            }
            self.learnt / 2
        };
        let mut deleted = 0;
        for &(id, _, _) in &candidates {
            if deleted >= target {
                break;
            }
            if self.is_reason(id, history) {
                continue;
            }
            self.clauses[id as usize] = None;
            self.free.push(id);
            deleted += 1;
        }
        self.learnt -= deleted;
        if deleted > 0 {
            // Drop the deleted clauses' watches (and stale ones) in one pass.
            let clauses = &self.clauses;
            for list in &mut self.watches {
                list.retain(|watch| {
                    clauses[watch.id as usize]
                        .as_ref()
                        .is_some_and(|c| c.literals.iter().take(2).any(|&l| l == watch.literal))
                });
                list.sort_unstable_by_key(|watch| watch.id);
                list.dedup();
            }
        }
        let glue = self.clauses.iter().flatten().filter(learnt).filter(|c| c.lbd <= 2).count();
        Reduced { deleted, alive: self.learnt, glue }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    use crate::model::Model;
    use crate::search::Solver;

    #[test]
    fn the_removal_literals_hasher_tells_nearby_keys_apart() {
        // Every (variable, position) of a 36x36 sudoku's cells and values,
        // and pairs that swap or shift the two halves: no two the same.
        let build = BuildHasherDefault::<FxHasher>::default();
        let mut seen = std::collections::HashSet::new();
        for var in 0..1296u32 {
            for position in 0..36u32 {
                assert!(seen.insert(build.hash_one((var, position))), "({var}, {position}) collides");
            }
        }
        let hash = |key: (u32, u32)| build.hash_one(key);
        assert_ne!(hash((1, 2)), hash((2, 1)));
        assert_ne!(hash((0, 1)), hash((1, 0)));
        // Bytes hash as the words they make, whatever the length.
        let mut bytes = FxHasher::default();
        [1u8, 0, 0, 0].hash(&mut bytes);
        let mut word = FxHasher::default();
        word.write_usize(4);
        word.write_u64(1);
        assert_eq!(bytes.finish(), word.finish());
    }

    /// Eight learnt clauses: ids 0-3 of distance 5 (activities 10, 20,
    /// 30, 40), ids 4-7 learnt at 5 and recounted to glue, unused since
    /// (expired), less active (1, 2, 3, 4). The ids that survive one
    /// reduction under `rule`.
    fn survivors(rule: Rule) -> Vec<u32> {
        let mut model = Model::new();
        model.new_vars(2, 0..=1).unwrap();
        let solver = Solver::new(&model, "mac+learn".parse().unwrap()).unwrap();
        let history = solver.state.history().expect("learning keeps the history");
        let mut nogoods = Nogoods::new(2);
        let literals =
            || vec![Literal::Outside { var: 0, word: 0, mask: 1 }, Literal::Outside { var: 1, word: 0, mask: 1 }];
        for (i, activity) in [10.0, 20.0, 30.0, 40.0, 1.0, 2.0, 3.0, 4.0].into_iter().enumerate() {
            let id = nogoods.add(literals(), Kind::Learnt, 5);
            assert_eq!(id, i as u32);
            if i >= 4 {
                assert!(nogoods.lower_lbd(id, 2, false));
            }
            nogoods.clauses[id as usize].as_mut().unwrap().activity = activity;
        }
        let reduced = nogoods.reduce(history, rule);
        assert_eq!(reduced.deleted, 4);
        (0..8).filter(|&id| nogoods.clauses[id as usize].is_some()).collect()
    }

    #[test]
    fn expired_glue_is_weighed_by_distance_or_with_fade_by_activity_alone() {
        // Kept for good without expiry: the reduction's half is the others.
        assert_eq!(survivors(Rule::default()), [4, 5, 6, 7]);
        // Expired, weighed by its distance of 2: still ranked last.
        assert_eq!(survivors(Rule { expire: true, ..Rule::default() }), [4, 5, 6, 7]);
        // Faded: its less active half goes first, then the worst others.
        assert_eq!(survivors(Rule { expire: true, fade: true, ..Rule::default() }), [2, 3, 6, 7]);
        // Under tiers everything is weighed by activity already.
        let tiers = Rule { tiers: true, expire: true, ..Rule::default() };
        assert_eq!(survivors(Rule { fade: true, ..tiers }), survivors(tiers));
    }
}
