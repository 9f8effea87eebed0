//! `<regular>` and `<mdd>`: the engine's `regular` (Pesant 2004) over a
//! deterministic automaton. XCSP3 allows non-deterministic automata: they
//! are made deterministic by the subset construction (Rabin & Scott 1959),
//! which accepts the same words, up to [`MAX_STATES`] states. An MDD is the
//! automaton of its arcs, from its root (the node without an incoming arc)
//! to its terminal nodes (those without an outgoing arc): over a list of `n`
//! variables, `regular` accepts exactly the words of `n` symbols that follow
//! a root-to-terminal path, which are the MDD's tuples.

use std::collections::{BTreeSet, HashMap};

use csp::Dfa;
use roxmltree::Node;

use super::Lowering;
use crate::error::Error;
use crate::text;

/// The most states of the deterministic automaton built from a
/// non-deterministic one.
pub(super) const MAX_STATES: usize = 100_000;

/// An automaton with named states, read from the file: `(from, symbol, to)`.
struct Automaton {
    names: Vec<String>,
    transitions: Vec<(usize, i64, usize)>,
}

impl Automaton {
    fn state(&mut self, index: &mut HashMap<String, usize>, name: &str) -> usize {
        if let Some(&at) = index.get(name) {
            return at;
        }
        index.insert(name.to_string(), self.names.len());
        self.names.push(name.to_string());
        self.names.len() - 1
    }
}

impl<'a, 'i> Lowering<'a, 'i> {
    /// `<regular>`: list, transitions, start, final.
    pub(super) fn regular(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let list = self.text(self.child(node, "list")?)?;
        let vars = self.vars(&list)?;
        let (mut automaton, mut index) = self.transitions(node)?;
        let start_text = self.text(self.child(node, "start")?)?;
        let start = automaton.state(&mut index, start_text.trim());
        let final_text = self.text(self.child(node, "final")?)?;
        let accepting: Vec<usize> = final_text.split_whitespace().map(|q| automaton.state(&mut index, q)).collect();
        self.post_automaton(&vars, &automaton, start, &accepting)
    }

    /// `<mdd>`: list and transitions.
    pub(super) fn mdd(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let list = self.text(self.child(node, "list")?)?;
        let vars = self.vars(&list)?;
        let (automaton, _) = self.transitions(node)?;
        let states = automaton.names.len();
        let mut incoming = vec![false; states];
        let mut outgoing = vec![false; states];
        for &(from, _, to) in &automaton.transitions {
            outgoing[from] = true;
            incoming[to] = true;
        }
        let roots: Vec<usize> = (0..states).filter(|&q| !incoming[q]).collect();
        let [root] = roots.as_slice() else {
            return Err(
                self.invalid(format!("an MDD has one root (a node without incoming arc), found {}", roots.len()))
            );
        };
        let terminals: Vec<usize> = (0..states).filter(|&q| !outgoing[q]).collect();
        self.post_automaton(&vars, &automaton, *root, &terminals)
    }

    /// The `<transitions>` of a node: `(from,symbol,to)...`.
    fn transitions(&self, node: Node<'a, 'i>) -> Result<(Automaton, HashMap<String, usize>), Error> {
        let text = self.text(self.child(node, "transitions")?)?;
        let mut automaton = Automaton { names: Vec::new(), transitions: Vec::new() };
        let mut index = HashMap::new();
        let mut rest = text.trim_start();
        while !rest.is_empty() {
            let inside = rest.strip_prefix('(').and_then(|r| r.split_once(')'));
            let Some((inside, after)) = inside else {
                return Err(self.invalid(format!("a transition is (from,symbol,to), found '{}'", text::preview(rest))));
            };
            let parts: Vec<&str> = inside.split(',').map(str::trim).collect();
            let [from, symbol, to] = parts.as_slice() else {
                return Err(self.invalid(format!("a transition is (from,symbol,to), found '({inside})'")));
            };
            let symbol = text::integer(symbol).map_err(|m| self.text_error(m))?;
            let from = automaton.state(&mut index, from);
            let to = automaton.state(&mut index, to);
            automaton.transitions.push((from, symbol, to));
            rest = after.trim_start();
        }
        Ok((automaton, index))
    }

    /// Posts `regular(vars, automaton)`, made deterministic first if needed.
    fn post_automaton(
        &mut self,
        vars: &[csp::VarId],
        automaton: &Automaton,
        start: usize,
        accepting: &[usize],
    ) -> Result<(), Error> {
        if vars.is_empty() {
            if !accepting.contains(&start) {
                self.fail("an automaton that rejects the empty word, over no variable");
            }
            return Ok(());
        }
        let states = automaton.names.len().max(start + 1);
        let Some((states, start, accepting, transitions)) =
            determinize(states, start, accepting, &automaton.transitions)
        else {
            return Err(self.unsupported(format!(
                "a non-deterministic automaton with more than {MAX_STATES} deterministic states"
            )));
        };
        if self.is_reifying() {
            return self.automaton_by_tables(vars, states, start, &accepting, &transitions);
        }
        let dfa = Dfa::new(states, start, &accepting, &transitions);
        let dfa = dfa.map_err(|e| self.model_error(&e))?;
        self.model.regular(vars, &dfa).map_err(|e| self.model_error(&e))?;
        Ok(())
    }
}

impl Lowering<'_, '_> {
    /// Reified (the engine's `regular` is not reifiable): the state after
    /// each symbol an auxiliary variable, a total function of the state
    /// before and the symbol by a table (a missing transition, or a symbol
    /// the automaton does not read, leads to a dead state `states`), and
    /// the requirement that the last state accepts.
    fn automaton_by_tables(
        &mut self,
        vars: &[csp::VarId],
        states: usize,
        start: usize,
        accepting: &[usize],
        transitions: &[(usize, i64, usize)],
    ) -> Result<(), Error> {
        let dead = states as i64;
        let next: HashMap<(usize, i64), usize> =
            transitions.iter().map(|&(from, symbol, to)| ((from, symbol), to)).collect();
        // A variable of its own (not the shared constant, which could be in `vars`).
        let mut state = self.auxiliary(start as i64, start as i64)?;
        let mut sources = start..=start;
        for &var in vars {
            let domain =
                self.model.domain(var).ok_or_else(|| self.unsupported("an unknown variable in an automaton"))?;
            if domain.size().saturating_mul(states as u64 + 1) > MAX_ROWS {
                return Err(self.unsupported(format!(
                    "a reified automaton whose states times a variable's values exceed {MAX_ROWS}"
                )));
            }
            let values: Vec<i64> = domain.iter().collect();
            let mut rows = Vec::with_capacity(values.len() * sources.clone().count());
            for from in sources.clone() {
                for &value in &values {
                    let to = next.get(&(from, value)).map_or(dead, |&to| to as i64);
                    rows.push(vec![from as i64, value, to]);
                }
            }
            let after = self.auxiliary(0, dead)?;
            self.model.table(&[state, var, after], &rows).map_err(|e| self.model_error(&e))?;
            state = after;
            sources = 0..=states;
        }
        if accepting.is_empty() {
            self.fail("an automaton without an accepting state");
            return Ok(());
        }
        let accepting: Vec<i64> = accepting.iter().map(|&q| q as i64).collect();
        self.require(csp::Condition::in_set(state, accepting))
    }
}

/// The most rows of a reified automaton's table per variable.
const MAX_ROWS: u64 = 1 << 20;

type Deterministic = (usize, usize, Vec<usize>, Vec<(usize, i64, usize)>);

/// The automaton itself when it is deterministic; otherwise the subset
/// construction's (the reachable sets of states), or `None` beyond
/// [`MAX_STATES`].
fn determinize(
    states: usize,
    start: usize,
    accepting: &[usize],
    transitions: &[(usize, i64, usize)],
) -> Option<Deterministic> {
    let mut by_source: Vec<Vec<(i64, usize)>> = vec![Vec::new(); states];
    for &(from, symbol, to) in transitions {
        by_source[from].push((symbol, to));
    }
    for arcs in &mut by_source {
        arcs.sort_unstable();
        arcs.dedup();
    }
    let deterministic = by_source.iter().all(|arcs| arcs.windows(2).all(|pair| pair[0].0 != pair[1].0));
    if deterministic {
        let transitions = by_source
            .iter()
            .enumerate()
            .flat_map(|(from, arcs)| arcs.iter().map(move |&(symbol, to)| (from, symbol, to)))
            .collect();
        return Some((states, start, accepting.to_vec(), transitions));
    }
    let mut sets: Vec<BTreeSet<usize>> = vec![BTreeSet::from([start])];
    let mut ids: HashMap<BTreeSet<usize>, usize> = HashMap::from([(sets[0].clone(), 0)]);
    let mut result = Vec::new();
    let mut next = 0;
    while next < sets.len() {
        let mut successors: std::collections::BTreeMap<i64, BTreeSet<usize>> = std::collections::BTreeMap::new();
        for &q in &sets[next] {
            for &(symbol, to) in &by_source[q] {
                successors.entry(symbol).or_default().insert(to);
            }
        }
        for (symbol, set) in successors {
            let id = match ids.get(&set) {
                Some(&id) => id,
                None => {
                    if sets.len() >= MAX_STATES {
                        return None;
                    }
                    ids.insert(set.clone(), sets.len());
                    sets.push(set);
                    sets.len() - 1
                }
            };
            result.push((next, symbol, id));
        }
        next += 1;
    }
    let accepting_sets =
        sets.iter().enumerate().filter(|(_, set)| set.iter().any(|q| accepting.contains(q))).map(|(i, _)| i).collect();
    Some((sets.len(), 0, accepting_sets, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subset_construction_accepts_the_same_words() {
        // Words over {0, 1} whose second-to-last symbol is 1: non-deterministic with 3 states.
        let transitions = [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 2), (1, 1, 2)];
        let (states, start, accepting, transitions) = determinize(3, 0, &[2], &transitions).unwrap();
        let dfa = Dfa::new(states, start, &accepting, &transitions).unwrap();
        for word in 0..64u32 {
            let symbols: Vec<i64> = (0..6).map(|k| i64::from((word >> k) & 1)).collect();
            assert_eq!(dfa.accepts(&symbols), symbols[4] == 1, "{symbols:?}");
        }
    }
}
