//! The cover strength: what unit propagation does on the exact-cover SAT
//! encoding of an all-different (a boolean per variable and value; at most
//! one value per variable, at most one variable per value and, when the
//! constraint is a permutation, at least one variable per value).
//!
//! At most one variable per value is pairwise value elimination
//! ([`Pairwise`], or on the words when every domain is one word). At least
//! one is "each value needs a place", which holds when the initial domains
//! hold exactly as many shifted values as there are variables (every sudoku
//! unit): a value that only one variable can still take is fixed there (a
//! hidden single), and a value that none can take is a failure. Both are
//! explained as the SAT solver's clause would be, by the other variables'
//! `≠ v`, where the matching's Hall sets are long. Nothing else (no naked
//! pairs, no Hall sets): a constraint with more values than variables, one
//! over intervals, or one whose scope repeats a variable is propagated as
//! pairwise. Measured under learning (BENCHMARKS.md, "Learning with
//! SAT-like propagation"), its nodes cost about what the matching's do
//! (a node's cost follows the values it removes) and its trees are larger.

use smallvec::SmallVec;

use crate::constraint::Propagator;
use crate::constraints::relaxed::has_repeats;
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult};

use super::pairwise::Pairwise;
use super::values::LocalValues;

/// Pairwise value elimination and, for a permutation, hidden singles.
pub(super) struct Cover<'c> {
    vars: &'c [VarId],
    offsets: &'c [i64],
    pairwise: Pairwise<'c>,
    /// The places of each value, when the constraint is a permutation.
    places: Option<Places>,
}

/// A permutation's values, numbered, and how the places of each are found.
enum Places {
    /// Every domain one word of consecutive values, the values within 64.
    Small(Box<Small>),
    /// Any other bitset domains.
    Wide(Wide),
}

/// The places on one word: the value of local id `i` is `lo + i`.
struct Small {
    lo: i128,
    /// The ids of the values (a bit each): exactly as many as variables.
    universe: u64,
    /// `id = position + shift[p]` for variable `p`, whose word is at `address[p]`.
    shift: Vec<u32>,
    address: Vec<usize>,
    /// The domains as read, as masks of ids.
    dom: [u64; 64],
}

/// The places of values numbered by [`LocalValues`], found by reading each
/// domain's values (twice a call: nothing is kept per variable, so that a
/// permutation of many wide domains costs no memory beyond its values).
struct Wide {
    values: LocalValues,
    universe: Vec<u64>,
    /// Scratch: the ids held by at least one and by two variables or more,
    /// and one variable's domain.
    once: Vec<u64>,
    twice: Vec<u64>,
    domain: Vec<u64>,
}

/// A variable's domain: the current one, or the one an explanation shows.
#[derive(Clone, Copy)]
enum Domains<'a, 'b> {
    Now(&'a Context<'b>),
    Then(&'a Explanation<'b>),
}

/// The lowest set bit's index.
#[inline]
fn lowest(bits: u64) -> u32 {
    bits.trailing_zeros()
}

impl Places {
    /// The places of an all-different over `vars` (shifted by `offsets`)
    /// that is a permutation of bitset domains without a repeated
    /// variable, else `None`.
    fn new(vars: &[VarId], offsets: &[i64], ctx: &Context<'_>) -> Option<Places> {
        if vars.is_empty() || vars.iter().any(|&v| ctx.is_interval(v)) || has_repeats(vars) {
            return None;
        }
        let values = LocalValues::of(vars, offsets, ctx);
        let words = values.len().div_ceil(64);
        let mut universe = vec![0u64; words];
        for (&var, &offset) in vars.iter().zip(offsets) {
            for v in ctx.values(var) {
                let id = values.id(i128::from(v) + i128::from(offset)) as usize;
                universe[id / 64] |= 1u64 << (id % 64);
            }
        }
        let count: u32 = universe.iter().map(|w| w.count_ones()).sum();
        if count as usize != vars.len() {
            return None;
        }
        if let (LocalValues::Dense { base: lo, .. }, 1) = (&values, words) {
            let state = ctx.state();
            let shift: Option<Vec<u32>> = vars
                .iter()
                .zip(offsets)
                .map(|(v, &o)| {
                    let base = state.dense_base(v.index).filter(|_| state.num_words(v.index) == 1)?;
                    Some((i128::from(base) + i128::from(o) - lo) as u32)
                })
                .collect();
            if let Some(shift) = shift {
                let address = vars.iter().map(|v| state.word_address(v.index)).collect();
                return Some(Places::Small(Box::new(Small {
                    lo: *lo,
                    universe: universe[0],
                    shift,
                    address,
                    dom: [0; 64],
                })));
            }
        }
        Some(Places::Wide(Wide {
            values,
            universe,
            once: vec![0; words],
            twice: vec![0; words],
            domain: vec![0; words],
        }))
    }

    /// One pass of hidden singles: fixes each unfixed variable that alone
    /// holds a value to the first such value. A failure when a value has no
    /// place. Returns whether it fixed a variable.
    fn singles(&mut self, ctx: &mut Context<'_>, vars: &[VarId], offsets: &[i64]) -> Result<bool, Conflict> {
        ctx.count_checks(vars.len() as u64);
        match self {
            Places::Small(small) => small.singles(ctx, vars, offsets),
            Places::Wide(wide) => wide.singles(ctx, vars, offsets),
        }
    }

    /// The cover's own answer to `why`: values taken by fixed peers
    /// (`x ≠ v` because `y = v`), a variable fixed to a value no other
    /// variable held (`x = v` because every other `y ≠ v`), or a value that
    /// no variable held (the failure). `false`, adding nothing, when none
    /// of these holds (the caller's answer then).
    fn explain(&mut self, vars: &[VarId], offsets: &[i64], why: &mut Explanation<'_>) -> bool {
        let (reason, skip) = match why.explained() {
            Explained::Removed(var) => {
                let Some(x) = vars.iter().position(|&v| v == var) else { return false };
                let reason = match self {
                    Places::Small(small) => small.removal(vars, why, x),
                    Places::Wide(wide) => wide.removal(vars, offsets, why, x),
                };
                (reason, Some(x))
            }
            Explained::Failure => {
                let value = match self {
                    Places::Small(small) => small.placeless(vars, why),
                    Places::Wide(wide) => wide.placeless(vars, offsets, why),
                };
                (value.map(Reason::Single), None)
            }
            _ => (None, None),
        };
        match reason {
            None => return false,
            Some(Reason::Peers(peers)) => {
                for (q, shifted) in peers {
                    why.because(Atom::Equal(vars[q], (shifted - i128::from(offsets[q])) as i64));
                }
            }
            // `y ≠ v` for every other `y`, `v` shifted back by `y`'s offset.
            Some(Reason::Single(shifted)) => {
                for q in (0..vars.len()).filter(|&q| Some(q) != skip) {
                    // A value beyond `i64` is no value of `vars[q]`: nothing to say.
                    if let Ok(value) = i64::try_from(shifted - i128::from(offsets[q])) {
                        why.because(Atom::NotEqual(vars[q], value));
                    }
                }
            }
        }
        true
    }
}

/// Why the cover acted, as the domains an explanation shows tell: fixed
/// variables (their positions) hold the shifted values removed, or only
/// one variable (the explained, or none for a failure) may take the
/// shifted value.
enum Reason {
    Peers(Peers),
    Single(i128),
}

/// Fixed peers and their shifted values.
type Peers = SmallVec<[(usize, i128); 4]>;

impl Small {
    /// Reads the domains, now or as they were, into `dom`.
    #[inline]
    fn load(&mut self, domains: Domains<'_, '_>, vars: &[VarId]) {
        for (p, var) in vars.iter().enumerate() {
            let word = match domains {
                Domains::Now(ctx) => ctx.state().word_at(self.address[p]),
                Domains::Then(why) => why.first_word_at(var.index, self.address[p]),
            };
            self.dom[p] = word << self.shift[p];
        }
    }

    /// The ids held by at least one and by two of the variables but `skip`
    /// (after [`load`](Small::load)).
    #[inline]
    fn count(&self, n: usize, skip: usize) -> (u64, u64) {
        let (mut once, mut twice) = (0u64, 0u64);
        for (p, &d) in self.dom[..n].iter().enumerate() {
            let d = if p == skip { 0 } else { d };
            twice |= once & d;
            once |= d;
        }
        (once, twice)
    }

    /// Value elimination and hidden singles to their fixpoint, a word a
    /// variable: each narrowing is written at once, so that the domains an
    /// explanation sees hold the fixed peers or the lost places behind it.
    fn propagate(&mut self, ctx: &mut Context<'_>, vars: &[VarId]) -> PropagationResult {
        let n = vars.len();
        loop {
            ctx.count_checks(n as u64);
            self.load(Domains::Now(ctx), vars);
            // The fixed variables' values leave the others.
            let (mut fixed, mut clash) = (0u64, false);
            for &d in &self.dom[..n] {
                if d & d.wrapping_sub(1) == 0 {
                    clash |= fixed & d != 0;
                    fixed |= d;
                }
            }
            if clash {
                return Err(Conflict);
            }
            let mut narrowed = false;
            for (p, var) in vars.iter().enumerate() {
                let d = self.dom[p];
                if d & d.wrapping_sub(1) != 0 && d & fixed != 0 {
                    ctx.narrow_single_word(var.index, (d & !fixed) >> self.shift[p])?;
                    narrowed = true;
                }
            }
            if narrowed {
                continue;
            }
            let (once, twice) = self.count(n, n);
            if self.universe & !once != 0 {
                return Err(Conflict);
            }
            let singles = once & !twice & !fixed;
            if singles == 0 {
                return Ok(());
            }
            for (p, var) in vars.iter().enumerate() {
                let mine = self.dom[p] & singles;
                if mine != 0 {
                    ctx.narrow_single_word(var.index, (mine & mine.wrapping_neg()) >> self.shift[p])?;
                }
            }
        }
    }

    fn singles(&mut self, ctx: &mut Context<'_>, vars: &[VarId], offsets: &[i64]) -> Result<bool, Conflict> {
        let n = vars.len();
        self.load(Domains::Now(ctx), vars);
        let (once, twice) = self.count(n, n);
        if self.universe & !once != 0 {
            return Err(Conflict);
        }
        // The values held once, by an unfixed variable (a fixed variable's
        // value is held once when pairwise is done).
        let fixed = self.dom[..n].iter().fold(0, |m, &d| m | if d & d.wrapping_sub(1) == 0 { d } else { 0 });
        let singles = once & !twice & !fixed;
        if singles == 0 {
            return Ok(false);
        }
        for p in 0..n {
            let mine = self.dom[p] & singles;
            if mine != 0 {
                let value = self.lo + i128::from(lowest(mine)) - i128::from(offsets[p]);
                // A shifted value of `p`'s domain, so the value fits `i64`.
                ctx.fix(vars[p], value as i64)?;
            }
        }
        Ok(true)
    }

    /// Why `vars[x]` lost the removed values, as `why` shows the domains:
    /// fixed peers holding each value removed (value elimination), or a
    /// value `x` kept that no other variable held (a hidden single).
    fn removal(&mut self, vars: &[VarId], why: &Explanation<'_>, x: usize) -> Option<Reason> {
        let n = vars.len();
        self.load(Domains::Then(why), vars);
        let (word, mask) = why.removed_positions();
        debug_assert_eq!(word, 0);
        let removed = mask << self.shift[x];
        let mut peers = Peers::new();
        for a in 0..64 {
            if removed & 1u64 << a == 0 {
                continue;
            }
            match (0..n).find(|&q| q != x && self.dom[q] == 1u64 << a) {
                Some(q) => peers.push((q, self.lo + i128::from(a))),
                None => break,
            }
        }
        if peers.len() == removed.count_ones() as usize {
            return Some(Reason::Peers(peers));
        }
        let (once, _) = self.count(n, x);
        let kept = self.dom[x] & !removed & !once;
        (kept != 0).then(|| Reason::Single(self.lo + i128::from(lowest(kept))))
    }

    /// The shifted value no variable held, as `why` shows the domains.
    fn placeless(&mut self, vars: &[VarId], why: &Explanation<'_>) -> Option<i128> {
        self.load(Domains::Then(why), vars);
        let (once, _) = self.count(vars.len(), vars.len());
        let gone = self.universe & !once;
        (gone != 0).then(|| self.lo + i128::from(lowest(gone)))
    }
}

impl Wide {
    /// Reads the domain of `vars[p]` into `domain`; returns how many values
    /// it holds.
    fn read(&mut self, domains: Domains<'_, '_>, vars: &[VarId], offsets: &[i64], p: usize) -> u32 {
        self.domain.fill(0);
        let (values, domain) = (&self.values, &mut self.domain);
        let mut add = |v: i64| {
            let id = values.id(i128::from(v) + i128::from(offsets[p])) as usize;
            domain[id / 64] |= 1u64 << (id % 64);
        };
        let mut size = 0;
        match domains {
            Domains::Now(ctx) => ctx.values(vars[p]).for_each(|v| {
                add(v);
                size += 1;
            }),
            Domains::Then(why) => why.values(vars[p]).for_each(|v| {
                add(v);
                size += 1;
            }),
        }
        size
    }

    /// Counts the places of each value over the variables but `skip`:
    /// `once` the ids held at least once, `twice` at least twice.
    fn count(&mut self, domains: Domains<'_, '_>, vars: &[VarId], offsets: &[i64], skip: Option<usize>) {
        self.once.fill(0);
        self.twice.fill(0);
        for p in (0..vars.len()).filter(|&p| Some(p) != skip) {
            self.read(domains, vars, offsets, p);
            for k in 0..self.domain.len() {
                self.twice[k] |= self.once[k] & self.domain[k];
                self.once[k] |= self.domain[k];
            }
        }
    }

    /// The first id of the universe that no variable counted holds (after
    /// [`count`](Wide::count)), among `within` if given.
    fn first_placeless(&self, within: Option<&[u64]>) -> Option<u32> {
        (0..self.universe.len()).find_map(|k| {
            let gone = self.universe[k] & !self.once[k] & within.map_or(u64::MAX, |w| w[k]);
            (gone != 0).then(|| k as u32 * 64 + lowest(gone))
        })
    }

    fn singles(&mut self, ctx: &mut Context<'_>, vars: &[VarId], offsets: &[i64]) -> Result<bool, Conflict> {
        self.count(Domains::Now(ctx), vars, offsets, None);
        if self.first_placeless(None).is_some() {
            return Err(Conflict);
        }
        let mut fixed = false;
        for p in 0..vars.len() {
            if self.read(Domains::Now(ctx), vars, offsets, p) < 2 {
                continue;
            }
            let single = (0..self.domain.len()).find_map(|k| {
                let mine = self.domain[k] & self.once[k] & !self.twice[k];
                (mine != 0).then(|| k as u32 * 64 + lowest(mine))
            });
            if let Some(id) = single {
                // A shifted value of `p`'s domain, so the value fits `i64`.
                let value = self.values.value(id) - i128::from(offsets[p]);
                ctx.fix(vars[p], value as i64)?;
                fixed = true;
            }
        }
        Ok(fixed)
    }

    /// [`Small::removal`], reading the values.
    fn removal(&mut self, vars: &[VarId], offsets: &[i64], why: &Explanation<'_>, x: usize) -> Option<Reason> {
        let removed: Vec<i128> = why.removed_values().map(|v| i128::from(v) + i128::from(offsets[x])).collect();
        if let [value] = removed[..] {
            let peer = (0..vars.len()).find(|&q| {
                q != x && why.fixed_value(vars[q]).is_some_and(|w| i128::from(w) + i128::from(offsets[q]) == value)
            });
            if let Some(q) = peer {
                return Some(Reason::Peers(Peers::from_slice(&[(q, value)])));
            }
        }
        self.count(Domains::Then(why), vars, offsets, Some(x));
        self.read(Domains::Then(why), vars, offsets, x);
        for value in removed {
            let id = self.values.id(value) as usize;
            self.domain[id / 64] &= !(1u64 << (id % 64));
        }
        let kept = std::mem::take(&mut self.domain);
        let id = self.first_placeless(Some(&kept));
        self.domain = kept;
        id.map(|id| Reason::Single(self.values.value(id)))
    }

    /// [`Small::placeless`], reading the values.
    fn placeless(&mut self, vars: &[VarId], offsets: &[i64], why: &Explanation<'_>) -> Option<i128> {
        self.count(Domains::Then(why), vars, offsets, None);
        self.first_placeless(None).map(|id| self.values.value(id))
    }
}

impl<'c> Cover<'c> {
    pub(super) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        Cover { vars, offsets, pairwise: Pairwise::new(vars, offsets), places: None }
    }
}

impl Propagator for Cover<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.pairwise.initialise(ctx);
        self.places = Places::new(self.vars, self.offsets, ctx);
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        // One word: both rules on the words (not under forward checking,
        // where only the decision counts as assigned).
        if let (Some(Places::Small(small)), None) = (&mut self.places, ctx.decision) {
            return small.propagate(ctx, self.vars);
        }
        self.pairwise.propagate(ctx)?;
        let Some(places) = &mut self.places else { return Ok(()) };
        // Under forward checking pairwise reasons from the decision alone
        // (the only assignment), so the singles' fixes are not eliminated.
        let forward_checking = ctx.decision.is_some();
        while places.singles(ctx, self.vars, self.offsets)? {
            if !forward_checking {
                self.pairwise.propagate(ctx)?;
            }
        }
        Ok(())
    }

    /// Any removal may leave a value one place (asked before
    /// [`initialise`](Propagator::initialise), so also when the constraint
    /// turns out not to be a permutation).
    fn interest(&self) -> Event {
        Event::Domain
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn has_partial_check(&self) -> bool {
        true
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if let Some(places) = &mut self.places {
            if places.explain(self.vars, self.offsets, why) {
                return true;
            }
        }
        super::explain::answer(self.vars, self.offsets, why)
    }

    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        self.pairwise.check_partial(ctx)
    }
}
