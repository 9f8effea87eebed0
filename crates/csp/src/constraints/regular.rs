//! `regular`: the sequence of the variables' values is a word that a
//! deterministic finite automaton accepts (MiniZinc's `fzn_regular`), so that a
//! nonogram line, a shift pattern or any other regular rule is one constraint.
//!
//! Strength: domain consistent, by Pesant's layered graph (Pesant 2004, "A
//! regular language membership constraint for finite sequences of
//! variables"). Layer `i` holds the states the automaton can be in before
//! reading variable `i`; a forward pass keeps the states reachable from the
//! start, a backward pass those from which an accepting state is reachable,
//! and a value of variable `i` stays when it labels an edge between two kept
//! states. Recomputed at each call, in time linear in the number of edges
//! (variables x states x values).
//!
//! A variable's labels are read from whichever is smaller, its domain or the
//! alphabet, so an interval domain (a range wider than the bitset limit, kept
//! as its bounds) is never walked; its bounds move to the smallest and the
//! largest supported label, which is bounds consistent (the values between
//! them that are no symbol stay, and fail once the variable is fixed).
//!
//! Explanations: a symbol leaves variable `i` because every edge it labels
//! starts at a state no path from the start reaches (cut on the left) or
//! ends at one from which no path reaches acceptance (cut on the right).
//! The answer names, walking away from layer `i`, only the absent values
//! that cut an edge from a state that is reached (reaches acceptance) into
//! one that must not be: the values absent at the positions that block
//! every path through the symbol, not every value gone from the scope. A
//! failure is explained likewise, cutting acceptance on the left.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::relaxed::has_repeats;
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Cost, Explained, Explanation, PropagationResult};

/// The state a transition to nowhere leads to.
pub(crate) const DEAD: u32 = u32::MAX;

/// A deterministic finite automaton over integer symbols.
///
/// States are numbered from 0. Build one with [`Dfa::new`] (a list of
/// transitions), [`Dfa::from_minizinc`] (MiniZinc's table) or
/// [`Dfa::from_runs`] (a nonogram clue); these constructors check their
/// arguments and return [`ModelError`](crate::ModelError)s, so they are
/// defined with the model's constructors (`model/extensional.rs`).
///
/// ```
/// use csp::Dfa;
///
/// // A nonogram line with the clue "3 1": blocks of 3 and 1 filled cells.
/// let line = Dfa::from_runs(&[3, 1]).unwrap();
/// assert!(line.accepts(&[0, 1, 1, 1, 0, 0, 1]));
/// assert!(!line.accepts(&[1, 1, 1, 1, 0, 1]));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    /// The number of states.
    pub(crate) states: u32,
    /// The symbols, sorted, without repeats.
    pub(crate) symbols: Vec<i64>,
    /// `next[state * symbols.len() + symbol]`: the next state, or `DEAD`.
    pub(crate) next: Vec<u32>,
    pub(crate) start: u32,
    pub(crate) accepting: Vec<bool>,
}

impl Dfa {
    /// Whether the automaton accepts `word`.
    pub fn accepts(&self, word: &[i64]) -> bool {
        let mut state = self.start;
        for &value in word {
            match self.symbols.binary_search(&value) {
                Ok(symbol) => state = self.next[state as usize * self.symbols.len() + symbol],
                Err(_) => return false,
            }
            if state == DEAD {
                return false;
            }
        }
        self.accepting[state as usize]
    }

    /// The number of states.
    pub fn num_states(&self) -> usize {
        self.states as usize
    }

    /// The symbols the automaton reads, in increasing order.
    pub fn symbols(&self) -> &[i64] {
        &self.symbols
    }
}

/// The variables spell a word the automaton accepts; domain consistent (Pesant
/// 2004) when the variables are distinct.
#[derive(Clone, Debug)]
pub struct Regular {
    vars: Vec<VarId>,
    dfa: Dfa,
}

impl Regular {
    /// The constraint. Prefer [`Model::regular`](crate::Model::regular).
    pub fn new(vars: Vec<VarId>, dfa: Dfa) -> Regular {
        Regular { vars, dfa }
    }
}

impl Constraint for Regular {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        self.dfa.accepts(values)
    }

    fn kind(&self) -> &str {
        "regular"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let words = (self.dfa.states as usize).div_ceil(64);
        let layers = self.vars.len() + 1;
        Some(Box::new(LayeredGraph {
            constraint: self,
            words,
            forward: vec![0; layers * words],
            backward: vec![0; layers * words],
            labels: Vec::new(),
            label_start: Vec::with_capacity(layers),
            supported: Vec::new(),
            repeats: has_repeats(&self.vars),
        }))
    }
}

/// Pesant's layered graph, recomputed at each call.
struct LayeredGraph<'c> {
    constraint: &'c Regular,
    /// Words per layer's state set.
    words: usize,
    /// Per layer, the states reachable from the start (bitsets, `words` each).
    forward: Vec<u64>,
    /// Per layer, the states reachable from the start and reaching acceptance.
    backward: Vec<u64>,
    /// Per variable (from `label_start[i]`), its current values that are
    /// symbols, as (value, symbol index).
    labels: Vec<(i64, u32)>,
    label_start: Vec<usize>,
    /// Per label, whether an edge between kept states carries it.
    supported: Vec<bool>,
    repeats: bool,
}

/// The states set in a layer's bitset.
fn states(layer: &[u64]) -> impl Iterator<Item = usize> + '_ {
    layer.iter().enumerate().flat_map(|(w, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                w * 64 + bit
            })
        })
    })
}

impl Propagator for LayeredGraph<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let dfa = &self.constraint.dfa;
        let vars = &self.constraint.vars;
        let (n, words, width) = (vars.len(), self.words, dfa.symbols.len());
        self.labels.clear();
        self.label_start.clear();
        for &var in vars {
            self.label_start.push(self.labels.len());
            if ctx.size(var) > width {
                let symbols = dfa.symbols.iter().enumerate().filter(|&(_, &value)| ctx.contains(var, value));
                self.labels.extend(symbols.map(|(symbol, &value)| (value, symbol as u32)));
            } else {
                for value in ctx.values(var) {
                    if let Ok(symbol) = dfa.symbols.binary_search(&value) {
                        self.labels.push((value, symbol as u32));
                    }
                }
            }
        }
        self.label_start.push(self.labels.len());
        // Forward: the states reachable from the start.
        self.forward.fill(0);
        self.forward[dfa.start as usize / 64] |= 1 << (dfa.start % 64);
        let mut edges = 0u64;
        for i in 0..n {
            let (done, rest) = self.forward.split_at_mut((i + 1) * words);
            let (layer, next) = (&done[i * words..], &mut rest[..words]);
            let labels = &self.labels[self.label_start[i]..self.label_start[i + 1]];
            for q in states(layer) {
                for &(_, symbol) in labels {
                    let to = dfa.next[q * width + symbol as usize];
                    if to != DEAD {
                        next[to as usize / 64] |= 1 << (to % 64);
                    }
                }
                edges += labels.len() as u64;
            }
        }
        // Backward: of those, the states from which acceptance is reachable;
        // a label is supported when it leads from one to another.
        self.backward.fill(0);
        let last = &mut self.backward[n * words..];
        for q in states(&self.forward[n * words..]).filter(|&q| dfa.accepting[q]) {
            last[q / 64] |= 1 << (q % 64);
        }
        if last.iter().all(|&w| w == 0) {
            ctx.count_checks(edges);
            return Err(Conflict);
        }
        self.supported.clear();
        self.supported.resize(self.labels.len(), false);
        for i in (0..n).rev() {
            let (before, after) = self.backward.split_at_mut((i + 1) * words);
            let (here, next) = (&mut before[i * words..], &after[..words]);
            let start = self.label_start[i];
            let labels = &self.labels[start..self.label_start[i + 1]];
            for q in states(&self.forward[i * words..(i + 1) * words]) {
                for (k, &(_, symbol)) in labels.iter().enumerate() {
                    let to = dfa.next[q * width + symbol as usize];
                    if to != DEAD && next[to as usize / 64] & (1 << (to % 64)) != 0 {
                        here[q / 64] |= 1 << (q % 64);
                        self.supported[start + k] = true;
                    }
                }
            }
        }
        ctx.count_checks(edges);
        for (i, &var) in vars.iter().enumerate() {
            let (start, end) = (self.label_start[i], self.label_start[i + 1]);
            let kept = self.supported[start..end].iter().filter(|&&s| s).count();
            if kept < ctx.size(var) {
                let labels = &self.labels[start..end];
                let supported = &self.supported[start..end];
                if ctx.is_interval(var) {
                    // Acceptance is reachable: every layer has a supported label.
                    let mut kept = labels.iter().zip(supported).filter(|&(_, &s)| s).map(|(&(value, _), _)| value);
                    let low = kept.next().ok_or(Conflict)?;
                    let high = kept.next_back().unwrap_or(low);
                    ctx.set_min(var, low)?;
                    ctx.set_max(var, high)?;
                } else {
                    ctx.retain(var, |v| {
                        labels.binary_search_by_key(&v, |&(value, _)| value).is_ok_and(|k| supported[k])
                    })?;
                }
            }
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        Cost::Expensive
    }

    fn is_idempotent(&self) -> bool {
        !self.repeats
    }

    /// See the module docs.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        if self.repeats {
            return false;
        }
        let vars = &self.constraint.vars;
        let symbols = &self.constraint.dfa.symbols;
        let mut atoms = Vec::new();
        // The layer of the explained variable and the symbols it lost.
        let symbols_within = |lo: i64, hi: i64| (0..symbols.len()).filter(move |&a| (lo..=hi).contains(&symbols[a]));
        let (layer, lost): (Option<usize>, Vec<usize>) = match why.explained() {
            Explained::Failure => (None, Vec::new()),
            Explained::Removed(var) => {
                let lost = why.removed_values().filter_map(|value| symbols.binary_search(&value).ok()).collect();
                (vars.iter().position(|&x| x == var), lost)
            }
            Explained::AtLeast(var, bound) => {
                atoms.push(Atom::AtLeast(var, why.min(var)));
                (vars.iter().position(|&x| x == var), symbols_within(why.min(var), bound - 1).collect())
            }
            Explained::AtMost(var, bound) => {
                atoms.push(Atom::AtMost(var, why.max(var)));
                (vars.iter().position(|&x| x == var), symbols_within(bound + 1, why.max(var)).collect())
            }
        };
        if layer.is_none() && why.explained() != Explained::Failure {
            return false;
        }
        let answered = Cut::new(self.constraint, why).explain(layer, &lost, &mut atoms);
        if answered {
            why.because_each(atoms);
        }
        answered
    }
}

/// The layered graph as the explained propagation saw it, state by state
/// (`layer * states + state`), and the states that must stay cut off.
struct Cut<'c> {
    constraint: &'c Regular,
    states: usize,
    /// `present[i * symbols + a]`: whether variable `i` had symbol `a`.
    present: Vec<bool>,
    /// The states a path from the start reaches.
    reached: Vec<bool>,
    /// The states from which a path reaches acceptance.
    accepts: Vec<bool>,
}

impl<'c> Cut<'c> {
    fn new(constraint: &'c Regular, why: &Explanation<'_>) -> Cut<'c> {
        let (dfa, vars) = (&constraint.dfa, &constraint.vars);
        let (n, states, width) = (vars.len(), dfa.states as usize, dfa.symbols.len());
        // Each domain read once: an interval by its bounds, a bitset by its
        // values or (when it has more than the alphabet) symbol by symbol.
        let mut present = vec![false; n * width];
        for (i, &x) in vars.iter().enumerate() {
            let row = &mut present[i * width..(i + 1) * width];
            if why.is_interval(x) {
                let (min, max) = (why.min(x), why.max(x));
                row.iter_mut().zip(&dfa.symbols).for_each(|(p, value)| *p = (min..=max).contains(value));
            } else if why.size(x) > width as u64 {
                row.iter_mut().zip(&dfa.symbols).for_each(|(p, &value)| *p = why.contains(x, value));
            } else {
                for value in why.values(x) {
                    if let Ok(a) = dfa.symbols.binary_search(&value) {
                        row[a] = true;
                    }
                }
            }
        }
        let mut reached = vec![false; (n + 1) * states];
        reached[dfa.start as usize] = true;
        let mut accepts = vec![false; (n + 1) * states];
        accepts[n * states..].copy_from_slice(&dfa.accepting);
        for i in 0..n {
            for q in 0..states {
                if !reached[i * states + q] {
                    continue;
                }
                for a in (0..width).filter(|&a| present[i * width + a]) {
                    let to = dfa.next[q * width + a];
                    if to != DEAD {
                        reached[(i + 1) * states + to as usize] = true;
                    }
                }
            }
        }
        for i in (0..n).rev() {
            for q in 0..states {
                accepts[i * states + q] = (0..width).any(|a| {
                    let to = dfa.next[q * width + a];
                    present[i * width + a] && to != DEAD && accepts[(i + 1) * states + to as usize]
                });
            }
        }
        Cut { constraint, states, present, reached, accepts }
    }

    /// Adds why no accepted word had symbol `a` at `layer` for each `a` in
    /// `lost` (with no layer, why no word was accepted); `false` when the
    /// graph did not show it.
    fn explain(&self, layer: Option<usize>, lost: &[usize], atoms: &mut Vec<Atom>) -> bool {
        let (dfa, n, states) = (&self.constraint.dfa, self.constraint.vars.len(), self.states);
        let width = dfa.symbols.len();
        // The states that must stay unreached (left) or must not reach acceptance (right).
        let mut left = vec![false; (n + 1) * states];
        let mut right = vec![false; (n + 1) * states];
        let top = match layer {
            None => {
                for q in (0..states).filter(|&q| dfa.accepting[q]) {
                    if self.reached[n * states + q] {
                        return false;
                    }
                    left[n * states + q] = true;
                }
                n
            }
            Some(i) => {
                for &a in lost {
                    for q in 0..states {
                        let to = dfa.next[q * width + a];
                        if to == DEAD {
                            continue;
                        }
                        if !self.reached[i * states + q] {
                            left[i * states + q] = true;
                        } else if !self.accepts[(i + 1) * states + to as usize] {
                            right[(i + 1) * states + to as usize] = true;
                        } else {
                            return false;
                        }
                    }
                }
                i
            }
        };
        // An edge from a state reached into one that must not be is cut by
        // the absence of its symbol; a state unreached with an edge into one
        // that must not be reached must not be either.
        for i in (0..top).rev() {
            for q in 0..states {
                for a in 0..width {
                    let to = dfa.next[q * width + a];
                    if to == DEAD || !left[(i + 1) * states + to as usize] {
                        continue;
                    }
                    if !self.reached[i * states + q] {
                        left[i * states + q] = true;
                    } else if !self.cut(i, a, atoms) {
                        return false;
                    }
                }
            }
        }
        // Likewise forward: an edge from a state that must not reach
        // acceptance into one that does is cut by its symbol's absence.
        for i in layer.map_or(n, |i| i + 1)..n {
            for q in 0..states {
                if !right[i * states + q] {
                    continue;
                }
                for a in 0..width {
                    let to = dfa.next[q * width + a];
                    if to == DEAD {
                        continue;
                    }
                    if !self.accepts[(i + 1) * states + to as usize] {
                        right[(i + 1) * states + to as usize] = true;
                    } else if !self.cut(i, a, atoms) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Adds that variable `i` did not have symbol `a` (`false` if it did).
    fn cut(&self, i: usize, a: usize, atoms: &mut Vec<Atom>) -> bool {
        let width = self.constraint.dfa.symbols.len();
        if self.present[i * width + a] {
            return false;
        }
        atoms.push(Atom::NotEqual(self.constraint.vars[i], self.constraint.dfa.symbols[a]));
        true
    }
}
