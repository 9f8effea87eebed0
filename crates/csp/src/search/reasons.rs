//! The reasons of the propagators' narrowings, for an observer that asks
//! ([`Observer::wants_reasons`](crate::Observer::wants_reasons)): after each
//! propagator's run, every entry it added to the history is explained (as
//! conflict analysis explains them, see the sibling module `learning`) and
//! sent as a [`Reason`]. The history is on only when someone asks, and the
//! search pays one predictable branch per propagator run otherwise.

use crate::ids::{Atom, ConstraintId, VarId};
use crate::kernel::{Cause, Explanation, INTERVAL, Literal, Request, State};
use crate::observer::Reason;

use super::Solver;

impl Solver<'_> {
    /// Appends to `out` why `propagator`, acting for `constraint`, did what
    /// `request` asks at entry `time` of the history (`time` the history's
    /// length for a failure): its own explanation (then `true`), or the
    /// generic one. `rewound`, if given, holds every bitset word as it was
    /// before `time`, by address.
    pub(super) fn explain_by_propagator(
        &mut self,
        propagator: u32,
        constraint: u32,
        request: Request,
        time: u32,
        rewound: Option<&[u64]>,
        out: &mut Vec<Literal>,
    ) -> bool {
        let state = &self.state;
        let history = state.history().expect("explanations read the history");
        let start = out.len();
        let model = self.program.model.id();
        let mut explanation = Explanation { state, history, time, request, constraint, model, out, rewound };
        if self.program.propagators[propagator as usize].explain(&mut explanation) {
            return true;
        }
        explanation.out.truncate(start);
        // The all-different system reasons over all its constraints at
        // once, whichever it names.
        let scope = match &self.program.system_scope {
            Some((leader, vars)) if *leader == propagator => vars,
            _ => self.program.scopes[constraint as usize],
        };
        explanation.generic(scope);
        false
    }

    /// The length of the history when an observer wants reasons (where the
    /// next propagator's entries start), else 0.
    #[inline]
    pub(super) fn reasons_start(&self) -> u32 {
        if self.reasons { self.state.history().map_or(0, |history| history.len()) } else { 0 }
    }

    /// Sends the reason of every entry of the history from `start` on that a
    /// propagator made (entries of decisions and nogoods have none).
    #[cold]
    pub(super) fn emit_reasons(&mut self, start: u32) {
        let end = self.state.history().map_or(0, |history| history.len());
        let mut literals = Vec::new();
        let (mut facts, mut because) = (Vec::new(), Vec::new());
        for e in start..end {
            let entry = self.state.history().expect("the history is on").entries[e as usize];
            let Cause::Propagator { propagator, constraint } = entry.cause else { continue };
            facts.clear();
            let var = VarId { index: entry.var, model: self.program.model.id() };
            let mut requests: smallvec::SmallVec<[Request; 2]> = smallvec::SmallVec::new();
            if entry.word == INTERVAL {
                let history = self.state.history().expect("the history is on");
                let (old, new) = history.bounds[entry.removed as usize];
                if new.min > old.min {
                    requests.push(Request::AtLeast { var: entry.var, value: new.min });
                    facts.push(Atom::AtLeast(var, new.min));
                }
                if new.max < old.max {
                    requests.push(Request::AtMost { var: entry.var, value: new.max });
                    facts.push(Atom::AtMost(var, new.max));
                }
            } else {
                requests.push(Request::Removed { var: entry.var, word: entry.word, mask: entry.removed });
                facts.extend(
                    positions(entry.word, entry.removed).map(|p| Atom::NotEqual(var, self.state.value(entry.var, p))),
                );
            }
            literals.clear();
            for request in requests {
                self.explain_by_propagator(propagator, constraint, request, e, None, &mut literals);
            }
            because.clear();
            for &literal in &literals {
                atoms_of(&self.state, self.program.model.id(), literal, &mut because);
            }
            simplify(&self.state, &mut because);
            let reason = Reason {
                facts: &facts,
                constraint: ConstraintId { index: constraint, model: self.program.model.id() },
                because: &because,
            };
            if let Some(observer) = &mut self.observer {
                observer.on_reason(&reason);
            }
        }
    }
}

/// The positions `word * 64 + bit` of the bits set in `mask`.
fn positions(word: u32, mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            word * 64 + bit
        })
    })
}

/// `literal` as atoms, into `out`: removed positions as `x ≠ v`, one
/// position left as `x = v` (several as `x ≠ v` for each other value of
/// the initial domain), bounds as bounds.
fn atoms_of(state: &State, model: u32, literal: Literal, out: &mut Vec<Atom>) {
    let var = VarId { index: literal.var(), model };
    match literal {
        Literal::Outside { var: x, word, mask } => {
            out.extend(positions(word, mask).map(|p| Atom::NotEqual(var, state.value(x, p))));
        }
        Literal::Within { var: x, word, mask } if mask.count_ones() == 1 => {
            out.push(Atom::Equal(var, state.value(x, word * 64 + mask.trailing_zeros())));
        }
        Literal::Within { var: x, word, mask } => {
            for k in 0..state.num_words(x) {
                let outside = state.word_positions(x, k) & !if k == word { mask } else { 0 };
                out.extend(positions(k, outside).map(|p| Atom::NotEqual(var, state.value(x, p))));
            }
        }
        Literal::AtLeast { value, .. } => out.push(Atom::AtLeast(var, value)),
        Literal::AtMost { value, .. } => out.push(Atom::AtMost(var, value)),
    }
}

/// Sorts `atoms` by variable and drops repeats; a variable's `x ≠ v` for
/// every value of its initial domain but one become that one `x = v`.
fn simplify(state: &State, atoms: &mut Vec<Atom>) {
    atoms.sort_unstable_by_key(|&atom| (atom.var(), atom));
    atoms.dedup();
    let mut out = Vec::with_capacity(atoms.len());
    let mut i = 0;
    while i < atoms.len() {
        let var = atoms[i].var();
        let end = i + atoms[i..].iter().take_while(|atom| atom.var() == var).count();
        let group = &atoms[i..end];
        let x = var.index;
        let all_removals = group.iter().all(|atom| matches!(atom, Atom::NotEqual(..)));
        if all_removals && !state.is_interval(x) && group.len() + 1 == state.num_positions(x) as usize {
            let left = (0..state.num_positions(x))
                .map(|p| state.value(x, p))
                .find(|&v| !group.contains(&Atom::NotEqual(var, v)));
            if let Some(value) = left {
                out.push(Atom::Equal(var, value));
                i = end;
                continue;
            }
        }
        out.extend_from_slice(group);
        i = end;
    }
    *atoms = out;
}
