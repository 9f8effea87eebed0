//! Explanations: why a propagator removed values, moved a bound or failed,
//! as atoms that held before it did (lazy clause generation's explanations,
//! computed on demand: Feydy & Stuckey 2009; Gent et al.'s lazy
//! explanations, 2010).
//!
//! An [`Explanation`] is a question put to a propagator after the fact: it
//! says what is to be explained ([`Explained`]), shows the domains as they
//! were when the propagator acted (read from the history, see the sibling
//! module `history`), and collects the answer, a conjunction of atoms that
//! held then and, with the constraint, imply what the propagator did. Any
//! propagator that reads only its scope's domains has one answer that is
//! always right, the generic one: the scope's domains as they were
//! ([`Explanation::because_domain`] of every other scope variable). A
//! propagator can do better by naming only what its reasoning used
//! ([`Propagator::explain`](crate::Propagator::explain)): the sharper the
//! explanation, the more a learnt nogood prunes elsewhere.

use super::domains::{Interval, State};
use super::history::History;
use super::literal::Literal;
use crate::ids::{Atom, ConstraintId, VarId};

/// What a propagator is asked to explain (see [`Explanation::explained`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Explained {
    /// Why it removed values from the variable's domain
    /// ([`Explanation::removed_values`] lists them).
    Removed(VarId),
    /// Why it raised the smallest value of the variable (an interval
    /// domain) to at least this bound.
    AtLeast(VarId, i64),
    /// Why it lowered the largest value of the variable (an interval
    /// domain) to at most this bound.
    AtMost(VarId, i64),
    /// Why it failed (returned a [`Conflict`](crate::Conflict) without
    /// emptying a domain).
    Failure,
}

/// The question, as the engine asks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Request {
    /// The positions `mask` of word `word` of a bitset `var` were removed.
    Removed { var: u32, word: u32, mask: u64 },
    /// Interval `var`'s smallest value became at least `value`.
    AtLeast { var: u32, value: i64 },
    /// Interval `var`'s largest value became at most `value`.
    AtMost { var: u32, value: i64 },
    /// The propagator failed.
    Failure,
}

/// A variable's bounds as they were, read once ([`Explanation::bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeldBounds {
    /// The smallest value (`i64::MAX` if the domain was empty).
    pub(crate) min: i64,
    /// The largest value (`i64::MIN` if the domain was empty).
    pub(crate) max: i64,
    /// A bitset's positions below its smallest value's (its number of
    /// positions if it was empty).
    below: u32,
    /// A bitset's positions up to its largest value's, included (0 if it
    /// was empty).
    upto: u32,
}

/// Why a propagator did what it did: the question, the domains as they were
/// then, and the atoms of the answer. A propagator that reads only its
/// scope always has one right answer, the generic one: the scope's domains
/// as they were ([`Explanation::because_domain`] of every other scope
/// variable); naming only what its reasoning used makes the nogoods learnt
/// from it prune more.
///
/// ```
/// use csp::{Atom, Constraint, Explanation, Explained, Model, Propagator, SolveConfig, Solver};
/// use csp::{Context, PropagationResult};
///
/// /// x < y, propagated on bounds, and explained by the bound it used.
/// struct Below([csp::VarId; 2]);
/// struct BelowPropagator([csp::VarId; 2]);
///
/// impl Constraint for Below {
///     fn scope(&self) -> &[csp::VarId] {
///         &self.0
///     }
///     fn is_satisfied(&self, v: &[i64]) -> bool {
///         v[0] < v[1]
///     }
///     fn propagator(&self, _: &csp::PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
///         Some(Box::new(BelowPropagator(self.0)))
///     }
/// }
///
/// impl Propagator for BelowPropagator {
///     fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
///         let [x, y] = self.0;
///         ctx.set_max(x, ctx.max(y) - 1)?;
///         ctx.set_min(y, ctx.min(x) + 1)?;
///         Ok(())
///     }
///     fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
///         let [x, y] = self.0;
///         match why.explained() {
///             // x lost values above max(y) - 1: y was at most its max then.
///             Explained::Removed(var) if var == x => why.because(Atom::AtMost(y, why.max(y))),
///             Explained::Removed(_) => why.because(Atom::AtLeast(x, why.min(x))),
///             _ => why.because_domain(x),
///         }
///         true
///     }
/// }
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=9).unwrap();
/// let y = model.new_var(0..=9).unwrap();
/// model.post(Below([x, y])).unwrap();
/// model.post(Below([y, x])).unwrap();
/// let mut solver = Solver::new(&model, "mac+learn".parse::<SolveConfig>().unwrap()).unwrap();
/// assert_eq!(solver.count(None).solutions, 0);
/// ```
pub struct Explanation<'a> {
    pub(crate) state: &'a State,
    pub(crate) history: &'a History,
    /// The domains are shown as they were before this entry of the history.
    pub(crate) time: u32,
    pub(crate) request: Request,
    /// The constraint the propagator acted for, and the model's id.
    pub(crate) constraint: u32,
    pub(crate) model: u32,
    pub(crate) out: &'a mut Vec<Literal>,
    /// Every bitset word as it was before `time`, by address, when the
    /// caller keeps them ([`Rewound`](super::Rewound)).
    pub(crate) rewound: Option<&'a [u64]>,
}

impl std::fmt::Debug for Explanation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Explanation").field("request", &self.request).field("time", &self.time).finish_non_exhaustive()
    }
}

impl Explanation<'_> {
    #[inline]
    fn id(&self, index: u32) -> VarId {
        VarId { index, model: self.model }
    }

    // ---- the question ----

    /// What is to be explained.
    pub fn explained(&self) -> Explained {
        match self.request {
            Request::Removed { var, .. } => Explained::Removed(self.id(var)),
            Request::AtLeast { var, value } => Explained::AtLeast(self.id(var), value),
            Request::AtMost { var, value } => Explained::AtMost(self.id(var), value),
            Request::Failure => Explained::Failure,
        }
    }

    /// The variable whose values or bounds are explained (`None` for a failure).
    pub(crate) fn explained_var(&self) -> Option<VarId> {
        match self.request {
            Request::Removed { var, .. } | Request::AtLeast { var, .. } | Request::AtMost { var, .. } => {
                Some(self.id(var))
            }
            Request::Failure => None,
        }
    }

    /// The constraint the propagator acted for (its own, or one of those it
    /// propagates together).
    pub fn constraint(&self) -> ConstraintId {
        ConstraintId { index: self.constraint, model: self.model }
    }

    /// The values removed that are to be explained, in increasing order
    /// (none unless [`Explained::Removed`]).
    pub fn removed_values(&self) -> impl Iterator<Item = i64> + '_ {
        let (var, word, mut mask) = match self.request {
            Request::Removed { var, word, mask } => (var, word, mask),
            _ => (0, 0, 0),
        };
        std::iter::from_fn(move || {
            (mask != 0).then(|| {
                let bit = mask.trailing_zeros();
                mask &= mask - 1;
                self.state.value(var, word * 64 + bit)
            })
        })
    }

    /// The positions removed that are to be explained, as a word of the
    /// explained bitset and a mask of its bits (`(0, 0)` unless
    /// [`Explained::Removed`]).
    pub(crate) fn removed_positions(&self) -> (u32, u64) {
        match self.request {
            Request::Removed { word, mask, .. } => (word, mask),
            _ => (0, 0),
        }
    }

    // ---- the domains as they were ----

    /// Word `k` of bitset `x`'s domain as it was.
    #[inline]
    pub(crate) fn word(&self, x: u32, k: u32) -> u64 {
        match self.rewound {
            Some(words) => words[self.state.address_of(x, k)],
            None => self.state.word_before(self.history, x, k, self.time),
        }
    }

    /// Every word of bitset `x`'s domain as it was, into `out` (cleared
    /// first).
    pub(crate) fn words(&self, x: u32, out: &mut Vec<u64>) {
        match self.rewound {
            Some(words) => {
                out.clear();
                out.extend((0..self.state.num_words(x)).map(|k| words[self.state.address_of(x, k)]));
            }
            None => self.state.words_before(self.history, x, self.time, out),
        }
    }

    /// The first word of one-word bitset `x`'s domain as it was, for a
    /// caller that keeps the word's address ([`State::word_address`]).
    #[inline(always)]
    pub(crate) fn first_word_at(&self, x: u32, address: usize) -> u64 {
        debug_assert_eq!(address, self.state.word_address(x));
        match self.rewound {
            Some(words) => words[address],
            None => self.state.word_before(self.history, x, 0, self.time),
        }
    }

    /// Interval `x`'s bounds as they were.
    #[inline]
    pub(crate) fn interval(&self, x: u32) -> Interval {
        self.state.interval_before(self.history, x, self.time)
    }

    /// The smallest position of bitset `x` as it was (`None` if empty).
    #[inline]
    fn first_position(&self, x: u32) -> Option<u32> {
        (0..self.state.num_words(x)).find_map(|k| {
            let w = self.word(x, k);
            (w != 0).then(|| k * 64 + w.trailing_zeros())
        })
    }

    /// The largest position of bitset `x` as it was (`None` if empty).
    #[inline]
    fn last_position(&self, x: u32) -> Option<u32> {
        (0..self.state.num_words(x)).rev().find_map(|k| {
            let w = self.word(x, k);
            (w != 0).then(|| k * 64 + 63 - w.leading_zeros())
        })
    }

    /// Whether `var`'s domain is an interval (see [`Context::is_interval`](crate::Context::is_interval)).
    pub fn is_interval(&self, var: VarId) -> bool {
        self.state.is_interval(var.index)
    }

    /// The smallest value `var` had.
    pub fn min(&self, var: VarId) -> i64 {
        let x = var.index;
        if self.state.is_interval(x) {
            return self.interval(x).min;
        }
        self.first_position(x).map_or(i64::MAX, |first| self.state.value(x, first))
    }

    /// The largest value `var` had.
    pub fn max(&self, var: VarId) -> i64 {
        let x = var.index;
        if self.state.is_interval(x) {
            return self.interval(x).max;
        }
        self.last_position(x).map_or(i64::MIN, |last| self.state.value(x, last))
    }

    /// The smallest and largest values `var` had, read together (`min`
    /// and `max` as [`min`](Self::min) and [`max`](Self::max) answer them),
    /// with what [`because_bound`](Self::because_bound) needs to name
    /// either without reading the domain again: for a reader of both on
    /// every term of a sum.
    #[inline]
    pub(crate) fn bounds(&self, var: VarId) -> HeldBounds {
        let x = var.index;
        if self.state.is_interval(x) {
            let Interval { min, max } = self.interval(x);
            return HeldBounds { min, max, below: 0, upto: 0 };
        }
        let (first, last) = if self.state.num_words(x) == 1 {
            let w = self.word(x, 0);
            ((w != 0).then(|| w.trailing_zeros()), (w != 0).then(|| 63 - w.leading_zeros()))
        } else {
            (self.first_position(x), self.last_position(x))
        };
        match (first, last) {
            (Some(first), Some(last)) => HeldBounds {
                min: self.state.value(x, first),
                max: self.state.value(x, last),
                below: first,
                upto: last + 1,
            },
            // As `because` names `var ≥ i64::MAX` and `var ≤ i64::MIN`.
            _ => HeldBounds { min: i64::MAX, max: i64::MIN, below: self.state.num_positions(x), upto: 0 },
        }
    }

    /// Whether `value` was in `var`'s domain (for an interval: between its bounds).
    pub fn contains(&self, var: VarId, value: i64) -> bool {
        let x = var.index;
        if self.state.is_interval(x) {
            let Interval { min, max } = self.interval(x);
            return (min..=max).contains(&value);
        }
        self.state.position(x, value).is_some_and(|p| self.word(x, p / 64) & 1u64 << (p % 64) != 0)
    }

    /// The number of values `var` had (saturated at `u64::MAX`).
    pub fn size(&self, var: VarId) -> u64 {
        let x = var.index;
        if self.state.is_interval(x) {
            let Interval { min, max } = self.interval(x);
            return (i128::from(max) - i128::from(min) + 1).clamp(0, i128::from(u64::MAX)) as u64;
        }
        (0..self.state.num_words(x)).map(|k| u64::from(self.word(x, k).count_ones())).sum()
    }

    /// The value of `var` if it had only one.
    pub fn fixed_value(&self, var: VarId) -> Option<i64> {
        (self.size(var) == 1).then(|| self.min(var))
    }

    /// The values `var` had, in increasing order (for an interval, every
    /// value between its bounds: read those instead).
    pub fn values(&self, var: VarId) -> impl Iterator<Item = i64> + '_ {
        let x = var.index;
        let (interval, bounds) = match self.state.is_interval(x) {
            true => (true, self.interval(x)),
            false => (false, Interval { min: 1, max: 0 }),
        };
        let words = if interval { 0 } else { self.state.num_words(x) };
        let mut k = 0;
        let mut bits = if words > 0 { self.word(x, 0) } else { 0 };
        let mut next = bounds.min;
        std::iter::from_fn(move || {
            if interval {
                if next > bounds.max {
                    return None;
                }
                next += 1;
                return Some(next - 1);
            }
            while bits == 0 {
                k += 1;
                if k >= words {
                    return None;
                }
                bits = self.word(x, k);
            }
            let bit = bits.trailing_zeros();
            bits &= bits - 1;
            Some(self.state.value(x, k * 64 + bit))
        })
    }

    /// The values of `var`'s initial domain that are not interval bounds
    /// (none for an interval), in increasing order.
    pub(crate) fn initial_values(&self, var: VarId) -> impl Iterator<Item = i64> + '_ {
        let x = var.index;
        let len = if self.state.is_interval(x) { 0 } else { self.state.num_positions(x) };
        (0..len).map(move |p| self.state.value(x, p))
    }

    /// Adds that bitset `var` had no value in `lo..=hi`, one
    /// `var ≠ v` per value `v` of its initial domain there (the answer
    /// `because(Atom::NotEqual(var, v))` of each, in increasing order),
    /// reading only the words of the range; `false`, adding nothing, if it
    /// had one.
    pub(crate) fn because_none_of(&mut self, var: VarId, lo: i64, hi: i64) -> bool {
        let x = var.index;
        debug_assert!(!self.state.is_interval(x), "x{x} is an interval");
        let start = self.state.positions_below(x, lo);
        let end = match hi.checked_add(1) {
            Some(above) => self.state.positions_below(x, above),
            None => self.state.num_positions(x),
        }
        .max(start);
        let mut masks: smallvec::SmallVec<[(u32, u64); 4]> = smallvec::SmallVec::new();
        let mut held = true;
        self.state.position_range_masks(x, start, end, |word, mask| {
            held &= self.word(x, word) & mask == 0;
            masks.push((word, mask));
        });
        if !held {
            return false;
        }
        for (word, mut mask) in masks {
            while mask != 0 {
                self.push(Literal::Outside { var: x, word, mask: mask & mask.wrapping_neg() });
                mask &= mask - 1;
            }
        }
        true
    }

    /// Asks `answer` why the domains as they were admitted no tuple of a
    /// relation (a failure), in place of the question put: a reified
    /// relation's literal is fixed because the relation (or its negation)
    /// could no longer hold.
    pub(crate) fn as_failure<R>(&mut self, answer: impl FnOnce(&mut Self) -> R) -> R {
        let request = std::mem::replace(&mut self.request, Request::Failure);
        let result = answer(self);
        self.request = request;
        result
    }

    // ---- the answer ----

    /// Adds `atom`, which held, to the answer.
    pub fn because(&mut self, atom: Atom) {
        let x = atom.var().index;
        let bitset = !self.state.is_interval(x);
        match atom {
            Atom::Equal(_, value) if bitset => match self.state.position(x, value) {
                Some(p) => self.push(Literal::Within { var: x, word: p / 64, mask: 1u64 << (p % 64) }),
                None => debug_assert!(false, "{atom} cannot have held: {value} is no value of x{x}"),
            },
            Atom::Equal(_, value) => {
                self.push(Literal::AtLeast { var: x, value });
                self.push(Literal::AtMost { var: x, value });
            }
            // A value outside the initial domain is never there: nothing to say.
            Atom::NotEqual(_, value) if bitset => {
                if let Some(p) = self.state.position(x, value) {
                    self.push(Literal::Outside { var: x, word: p / 64, mask: 1u64 << (p % 64) });
                }
            }
            // An interval has no holes: the value is beyond one of its bounds.
            Atom::NotEqual(_, value) => {
                let Interval { min, max } = self.interval(x);
                debug_assert!(value < min || value > max, "{atom} did not hold: x{x} was {min}..={max}");
                if value < min {
                    self.push(Literal::AtLeast { var: x, value: value + 1 });
                } else {
                    self.push(Literal::AtMost { var: x, value: value - 1 });
                }
            }
            Atom::AtLeast(_, value) if bitset => {
                let below = self.state.positions_below(x, value);
                self.because_positions(x, 0, below);
            }
            Atom::AtMost(_, value) if bitset => {
                let upto = self.state.positions_below(x, value.saturating_add(1));
                let len = self.state.len[x as usize];
                self.because_positions(x, upto, len);
            }
            Atom::AtLeast(_, value) => self.push(Literal::AtLeast { var: x, value }),
            Atom::AtMost(_, value) => self.push(Literal::AtMost { var: x, value }),
        }
    }

    /// Adds "the positions `start..end` of bitset `x` were removed".
    #[inline]
    fn because_positions(&mut self, x: u32, start: u32, end: u32) {
        if start >= end {
            return;
        }
        let state = self.state;
        state.position_range_masks(x, start, end, |word, mask| self.push(Literal::Outside { var: x, word, mask }));
    }

    /// Adds `var ≥ min` (`low`) or `var ≤ max` of `bounds`, `var`'s bounds
    /// as [`bounds`](Self::bounds) read them: the literals
    /// `because(Atom::AtLeast(var, bounds.min))` (or `AtMost`) adds, a
    /// bitset's from the positions read (none at its initial bound).
    #[inline]
    pub(crate) fn because_bound(&mut self, var: VarId, bounds: HeldBounds, low: bool) {
        let x = var.index;
        let start = self.out.len();
        match (self.state.is_interval(x), low) {
            (true, true) => self.push(Literal::AtLeast { var: x, value: bounds.min }),
            (true, false) => self.push(Literal::AtMost { var: x, value: bounds.max }),
            (false, true) => self.because_positions(x, 0, bounds.below),
            (false, false) => self.because_positions(x, bounds.upto, self.state.num_positions(x)),
        }
        if cfg!(debug_assertions) {
            // The very literals `because` names from the bound's value.
            debug_assert_eq!(bounds, self.bounds(var), "bounds read for x{x} at another time");
            let named: Vec<Literal> = self.out.drain(start..).collect();
            self.because(if low { Atom::AtLeast(var, bounds.min) } else { Atom::AtMost(var, bounds.max) });
            debug_assert_eq!(self.out[start..], named[..], "because_bound and because disagree on x{x}");
        }
    }

    /// Adds everything that had been removed from `var`'s domain: each
    /// value gone from a bitset, both bounds of an interval.
    pub fn because_domain(&mut self, var: VarId) {
        let x = var.index;
        if self.state.is_interval(x) {
            let Interval { min, max } = self.interval(x);
            self.push(Literal::AtLeast { var: x, value: min });
            self.push(Literal::AtMost { var: x, value: max });
            return;
        }
        for k in 0..self.state.num_words(x) {
            let gone = self.state.word_positions(x, k) & !self.word(x, k);
            if gone != 0 {
                self.push(Literal::Outside { var: x, word: k, mask: gone });
            }
        }
    }

    /// The answer of a propagator that acts only once every other variable
    /// of `vars` is fixed (a parity's last literal, `x ≠ y + c`): each of
    /// them but the explained one, by the value it had. `false`, adding
    /// nothing, when one was open.
    pub(crate) fn because_fixed(&mut self, vars: impl IntoIterator<Item = VarId>) -> bool {
        let skip = self.explained_var();
        let atoms: Option<smallvec::SmallVec<[Atom; 8]>> = vars
            .into_iter()
            .filter(|&var| Some(var) != skip)
            .map(|var| self.fixed_value(var).map(|value| Atom::Equal(var, value)))
            .collect();
        let Some(atoms) = atoms else { return false };
        atoms.into_iter().for_each(|atom| self.because(atom));
        true
    }

    /// Adds each of `atoms`, which held, once (a propagator's answer
    /// gathered before it knew it had one).
    pub(crate) fn because_each(&mut self, mut atoms: Vec<Atom>) {
        atoms.sort_unstable();
        atoms.dedup();
        atoms.into_iter().for_each(|atom| self.because(atom));
    }

    /// Adds `var ≥ min`, its smallest value then.
    pub fn because_lower_bound(&mut self, var: VarId) {
        let min = self.min(var);
        self.because(Atom::AtLeast(var, min));
    }

    /// Adds `var ≤ max`, its largest value then.
    pub fn because_upper_bound(&mut self, var: VarId) {
        let max = self.max(var);
        self.because(Atom::AtMost(var, max));
    }

    /// Adds a literal that held.
    #[inline]
    pub(crate) fn push(&mut self, literal: Literal) {
        debug_assert!(self.held(literal), "the explanation's {literal:?} did not hold before entry {}", self.time);
        self.out.push(literal);
    }

    /// Whether `literal` held (for the checks of debug builds).
    fn held(&self, literal: Literal) -> bool {
        match literal {
            Literal::Outside { var, word, mask } => self.word(var, word) & mask == 0,
            Literal::Within { var, word, mask } => {
                (0..self.state.num_words(var)).all(|k| self.word(var, k) & !if k == word { mask } else { 0 } == 0)
            }
            Literal::AtLeast { var, value } => self.min(self.id(var)) >= value,
            Literal::AtMost { var, value } => self.max(self.id(var)) <= value,
        }
    }

    /// The generic answer, right for every sound propagator that reads only
    /// the domains of `scope`: the other scope variables' domains as they
    /// were (and for a bound of the explained interval, its own bound on
    /// that side, the values already gone); for a failure, every scope
    /// variable's domain.
    pub(crate) fn generic(&mut self, scope: &[VarId]) {
        let explained = match self.request {
            Request::Removed { var, .. } => Some(var),
            Request::AtLeast { var, .. } => {
                self.because_lower_bound(self.id(var));
                Some(var)
            }
            Request::AtMost { var, .. } => {
                self.because_upper_bound(self.id(var));
                Some(var)
            }
            Request::Failure => None,
        };
        for &var in scope {
            if Some(var.index) != explained {
                self.because_domain(var);
            }
        }
    }
}
