//! Logic over literals (booleans and their negations): clauses and parity.
//!
//! - [`Clause`], `l1 ∨ l2 ∨ ... ∨ ln`: unit propagation with two watched
//!   literals (Moskewicz et al., "Chaff", DAC 2001), domain consistent. The
//!   watches need no undo: after a backtrack a literal that was not false is
//!   still not false, so each call only checks that its two watches are not
//!   false, and looks for a replacement when one is.
//! - [`Xor`], an odd (or even) number of the literals true: once one literal
//!   is left open it takes the value that gives the parity; domain
//!   consistent, and reifiable (its negation is the other parity).
//!
//! Both normalise their literals when built, so that every variable appears
//! once: a repeated literal counts once in a clause, and a literal with its
//! negation makes the clause always true; in a parity, two occurrences of a
//! variable cancel, and a negation flips the parity.

use std::collections::BTreeMap;

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::ids::{Atom, Lit, VarId};
use crate::kernel::{Conflict, Context, Event, Explanation, PropagationResult};

use super::reified::{Enforce, Reifiable, ReifiableRelation};

/// Whether `literal` is true (`Some(true)`), false, or open in the current domains.
#[inline]
fn truth(ctx: &Context<'_>, literal: Lit) -> Option<bool> {
    ctx.fixed_value(literal.var()).map(|value| literal.is_true_at(value))
}

/// At least one of the literals is true.
#[derive(Clone, Debug)]
pub struct Clause {
    /// Without repeats; none when the clause holds a literal and its negation.
    literals: Vec<Lit>,
    scope: Vec<VarId>,
    /// The clause holds a literal and its negation: it always holds.
    tautology: bool,
}

impl Clause {
    /// `literals[0] ∨ literals[1] ∨ ...`. Prefer [`Model::or`](crate::Model::or),
    /// which checks that the variables are booleans.
    pub fn new(literals: &[Lit]) -> Clause {
        // The sign each variable was first seen with (a map: clauses can be long).
        let mut sign: BTreeMap<VarId, bool> = BTreeMap::new();
        let mut kept: Vec<Lit> = Vec::with_capacity(literals.len());
        let mut tautology = false;
        for &literal in literals {
            match sign.insert(literal.var(), literal.is_negated()) {
                None => kept.push(literal),
                Some(negated) => tautology |= negated != literal.is_negated(),
            }
        }
        let scope = kept.iter().map(|l| l.var()).collect();
        if tautology {
            kept.clear();
        }
        Clause { literals: kept, scope, tautology }
    }

    /// Whether the clause holds whatever the values (it has a literal and its negation).
    pub fn is_tautology(&self) -> bool {
        self.tautology
    }
}

impl Constraint for Clause {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        self.is_tautology() || self.literals.iter().zip(values).any(|(l, &v)| l.is_true_at(v))
    }

    fn kind(&self) -> &str {
        "clause"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(ClausePropagator { clause: self, watches: [0, 1] }))
    }
}

/// Unit propagation with two watched literals (positions in `literals`).
struct ClausePropagator<'c> {
    clause: &'c Clause,
    watches: [usize; 2],
}

impl Propagator for ClausePropagator<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let literals = &self.clause.literals[..];
        let n = literals.len();
        ctx.count_checks(1);
        match n {
            // A tautology has no literal left to watch; the empty clause fails.
            0 if self.clause.tautology => return Ok(()),
            0 => return Err(Conflict),
            1 => return ctx.fix(literals[0].var(), literals[0].value_for(true)).map(drop),
            _ => {}
        }
        // Point each watch at a literal that is not false, if there is one
        // besides the other watch; a true literal satisfies the clause.
        for slot in 0..2 {
            let watch = self.watches[slot];
            match truth(ctx, literals[watch]) {
                Some(true) => return Ok(()),
                None => continue,
                Some(false) => {
                    let other = self.watches[1 - slot];
                    let found =
                        (1..n).map(|i| (watch + i) % n).find(|&j| j != other && truth(ctx, literals[j]) != Some(false));
                    ctx.count_checks(n as u64 - 1);
                    if let Some(j) = found {
                        self.watches[slot] = j;
                        if truth(ctx, literals[j]) == Some(true) {
                            return Ok(());
                        }
                    }
                }
            }
        }
        // A watch still false has no replacement: every literal but the other
        // watch is false.
        let [first, second] = self.watches.map(|w| literals[w]);
        match (truth(ctx, first), truth(ctx, second)) {
            (Some(false), Some(false)) => Err(Conflict),
            (Some(false), None) => ctx.fix(second.var(), second.value_for(true)).map(drop),
            (None, Some(false)) => ctx.fix(first.var(), first.value_for(true)).map(drop),
            _ => Ok(()),
        }
    }

    fn interest(&self) -> Event {
        Event::Fixed
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    /// A literal made true because every other one was false; a failure
    /// because all were: the values they were fixed to.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let literals = &self.clause.literals;
        let skip = why.explained_var();
        if skip.is_some_and(|var| why.min(var) < 0 || why.max(var) > 1) {
            return false;
        }
        let false_ones = literals.iter().filter(|l| Some(l.var()) != skip).map(|l| {
            why.fixed_value(l.var()).filter(|&value| !l.is_true_at(value)).map(|value| Atom::Equal(l.var(), value))
        });
        let Some(atoms) = false_ones.collect::<Option<Vec<Atom>>>() else { return false };
        atoms.into_iter().for_each(|atom| why.because(atom));
        true
    }
}

/// An odd number of the literals are true (or an even number, for the
/// negation of a parity).
#[derive(Clone, Debug)]
pub struct Xor {
    /// Each variable once, in order of first appearance.
    scope: Vec<VarId>,
    /// Whether the variable counts (it appeared an odd number of times).
    counted: Vec<bool>,
    /// Whether the counted variables that are 1 must be odd in number.
    odd: bool,
}

impl Xor {
    /// `literals[0] ⊕ literals[1] ⊕ ... = odd`: an odd number of the literals
    /// are true when `odd`, an even number otherwise. Prefer
    /// [`Model::xor`](crate::Model::xor), which checks that the variables are booleans.
    pub fn new(literals: &[Lit], odd: bool) -> Xor {
        // A negation is `1 ⊕ x`: it flips the parity. Two occurrences cancel.
        let mut odd = odd;
        let mut position: BTreeMap<VarId, usize> = BTreeMap::new();
        let mut scope: Vec<VarId> = Vec::with_capacity(literals.len());
        let mut counted: Vec<bool> = Vec::with_capacity(literals.len());
        for &literal in literals {
            odd ^= literal.is_negated();
            match position.get(&literal.var()) {
                Some(&at) => counted[at] = !counted[at],
                None => {
                    position.insert(literal.var(), scope.len());
                    scope.push(literal.var());
                    counted.push(true);
                }
            }
        }
        Xor { scope, counted, odd }
    }

    /// The counted variables, with the open one if exactly one is open
    /// (`Err(())` if more are), and the parity of the fixed ones.
    fn survey(&self, ctx: &Context<'_>) -> (Result<Option<VarId>, ()>, bool) {
        let mut open = None;
        let mut parity = false;
        for (&var, _) in self.scope.iter().zip(&self.counted).filter(|(_, counted)| **counted) {
            match ctx.fixed_value(var) {
                Some(value) => parity ^= value != 0,
                None if open.is_some() => return (Err(()), parity),
                None => open = Some(var),
            }
        }
        (Ok(open), parity)
    }
}

impl Constraint for Xor {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let parity =
            values.iter().zip(&self.counted).filter(|(_, counted)| **counted).fold(false, |p, (&v, _)| p ^ (v != 0));
        parity == self.odd
    }

    fn kind(&self) -> &str {
        "xor"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Enforce(self)))
    }
}

impl Reifiable for Xor {
    fn enforce(&self, ctx: &mut Context<'_>) -> PropagationResult {
        ctx.count_checks(1);
        match self.survey(ctx) {
            (Err(()), _) => Ok(()),
            (Ok(None), parity) if parity == self.odd => Ok(()),
            (Ok(None), _) => Err(Conflict),
            // The last one makes up the parity.
            (Ok(Some(var)), parity) => ctx.fix(var, i64::from(parity != self.odd)).map(drop),
        }
    }

    fn may_hold(&self, ctx: &Context<'_>) -> bool {
        match self.survey(ctx) {
            (Ok(None), parity) => parity == self.odd,
            _ => true,
        }
    }

    fn negation(&self) -> ReifiableRelation {
        ReifiableRelation::Xor(Xor { odd: !self.odd, ..self.clone() })
    }

    fn events(&self) -> Event {
        Event::Fixed
    }

    /// The last open variable fixed, or a failure, because the other
    /// counted variables were fixed: their values.
    fn explain(&self, why: &mut Explanation<'_>) -> bool {
        if why.explained_var().is_some_and(|var| why.min(var) < 0 || why.max(var) > 1) {
            return false;
        }
        let counted = self.scope.iter().zip(&self.counted).filter(|(_, counted)| **counted).map(|(&var, _)| var);
        why.because_fixed(counted)
    }
}
