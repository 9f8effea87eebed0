//! The constructors of extensional constraints: the negative table, and
//! `regular` with the checked constructors of its automaton (MiniZinc's
//! `fzn_regular` is [`Model::regular_minizinc`], one call).

use super::{Model, ModelError};
use crate::constraints::regular::DEAD;
use crate::constraints::{Dfa, NegativeTable, Regular};
use crate::ids::{ConstraintId, VarId};

/// The most states, and the largest transition table (states x symbols), an
/// automaton may have.
const MAX_TRANSITIONS: usize = 1 << 26;

fn invalid(message: String) -> ModelError {
    ModelError::InvalidArgument { constraint: "regular".to_string(), message }
}

/// The constructors of [`Dfa`] that check their arguments. (The type and its
/// infallible constructor are in `constraints/regular.rs`; these return model
/// errors, which that layer does not know.)
impl Dfa {
    /// The automaton with states `0..states`, starting in `start`, accepting
    /// in the `accepting` states, with one `(from, symbol, to)` per
    /// transition; a missing transition rejects the word.
    ///
    /// ```
    /// use csp::Dfa;
    ///
    /// // Words over {1, 2} without two 2s in a row.
    /// let dfa = Dfa::new(2, 0, &[0, 1], &[(0, 1, 0), (0, 2, 1), (1, 1, 0)]).unwrap();
    /// assert!(dfa.accepts(&[2, 1, 2]));
    /// assert!(!dfa.accepts(&[1, 2, 2]));
    /// assert!(Dfa::new(2, 0, &[0], &[(0, 1, 0), (0, 1, 1)]).is_err()); // not deterministic
    /// ```
    pub fn new(
        states: usize,
        start: usize,
        accepting: &[usize],
        transitions: &[(usize, i64, usize)],
    ) -> Result<Dfa, ModelError> {
        let state = |what: &str, q: usize| {
            if q < states { Ok(q as u32) } else { Err(invalid(format!("{what} {q} is not a state (0..{states})"))) }
        };
        if states == 0 {
            return Err(invalid("an automaton needs at least one state".to_string()));
        }
        let start = state("the start", start)?;
        let mut symbols: Vec<i64> = Vec::with_capacity(transitions.len());
        for &(_, symbol, _) in transitions {
            Model::check_value(|| "regular symbol".to_string(), symbol)?;
            symbols.push(symbol);
        }
        symbols.sort_unstable();
        symbols.dedup();
        let width = symbols.len();
        if states > MAX_TRANSITIONS || states.saturating_mul(width) > MAX_TRANSITIONS {
            return Err(invalid(format!("{states} states x {width} symbols is too large a table")));
        }
        let mut next = vec![DEAD; states * width];
        for &(from, symbol, to) in transitions {
            let (from, to) = (state("the transition's source", from)?, state("the transition's target", to)?);
            let column = symbols.binary_search(&symbol).expect("a symbol of a transition");
            let slot = &mut next[from as usize * width + column];
            if *slot != DEAD && *slot != to {
                return Err(invalid(format!("state {from} has two transitions on {symbol}: not deterministic")));
            }
            *slot = to;
        }
        let mut accepts = vec![false; states];
        for &q in accepting {
            accepts[state("the accepting state", q)? as usize] = true;
        }
        Ok(Dfa { states: states as u32, symbols, next, start, accepting: accepts })
    }

    /// MiniZinc's automaton (the arguments of `fzn_regular(x, Q, S, d, q0,
    /// F)`): states `1..=q`, symbols `1..=s`, `d` the `q x s` transition table
    /// row by row, `0` the dead state, `q0` the start, `f` the accepting states.
    pub fn from_minizinc(q: usize, s: usize, d: &[i64], q0: i64, f: &[i64]) -> Result<Dfa, ModelError> {
        if d.len() != q.saturating_mul(s) {
            return Err(invalid(format!("the transition table has {} entries, expected {q} x {s}", d.len())));
        }
        let state = |what: &str, value: i64| match usize::try_from(value) {
            Ok(k) if (1..=q).contains(&k) => Ok(k - 1),
            _ => Err(invalid(format!("{what} {value} is not a state (1..={q})"))),
        };
        let mut transitions = Vec::with_capacity(d.len());
        for (k, &to) in d.iter().enumerate() {
            if to != 0 {
                let to = state(&format!("d[{}, {}] =", k / s + 1, k % s + 1), to)?;
                transitions.push((k / s, (k % s) as i64 + 1, to));
            }
        }
        let accepting = f.iter().map(|&q| state("the accepting state", q)).collect::<Result<Vec<_>, _>>()?;
        let mut dfa = Dfa::new(q, state("the start", q0)?, &accepting, &transitions)?;
        // Every symbol 1..=s is in the alphabet, even one without transitions.
        if dfa.symbols.len() < s {
            dfa = dfa.with_symbols((1..=s as i64).collect());
        }
        Ok(dfa)
    }

    /// The automaton of a nonogram line over `0` (blank) and `1` (filled): the
    /// blocks of filled cells have the lengths of `runs`, in order, separated
    /// by at least one blank. Zeros in `runs` are skipped (the clue `0` is an
    /// empty line). An error when the automaton would be too large (more than
    /// 2^25 states).
    pub fn from_runs(runs: &[usize]) -> Result<Dfa, ModelError> {
        let runs: Vec<usize> = runs.iter().copied().filter(|&r| r > 0).collect();
        // State 0 waits before the first block; each block has one state per
        // cell; after each block, a state waits for the next one.
        let states = runs.iter().try_fold(1usize, |states, &run| states.checked_add(run)?.checked_add(1));
        let states = match states {
            Some(states) if states.saturating_mul(2) <= MAX_TRANSITIONS => states,
            _ => return Err(invalid(format!("the blocks {runs:?} need too many states"))),
        };
        let mut next = vec![DEAD; states * 2];
        let mut accepting = vec![false; states];
        let mut waiting = 0usize;
        let mut fresh = 1usize;
        next[0] = 0;
        for &run in &runs {
            let first = fresh;
            next[waiting * 2 + 1] = first as u32;
            for cell in first..first + run - 1 {
                next[cell * 2 + 1] = cell as u32 + 1;
            }
            let last = first + run - 1;
            waiting = first + run;
            fresh = waiting + 1;
            next[last * 2] = waiting as u32;
            next[waiting * 2] = waiting as u32;
        }
        // Accepting: the end of the last block, and the blanks after it.
        accepting[waiting] = true;
        if !runs.is_empty() {
            accepting[waiting - 1] = true;
        }
        Ok(Dfa { states: states as u32, symbols: vec![0, 1], next, start: 0, accepting })
    }

    /// The same automaton over a larger alphabet (a superset of its symbols),
    /// the new symbols leading nowhere.
    fn with_symbols(self, symbols: Vec<i64>) -> Dfa {
        let (old, width) = (self.symbols.len(), symbols.len());
        let mut next = vec![DEAD; self.states as usize * width];
        for q in 0..self.states as usize {
            for (k, symbol) in self.symbols.iter().enumerate() {
                let column = symbols.binary_search(symbol).expect("a superset");
                next[q * width + column] = self.next[q * old + k];
            }
        }
        Dfa { symbols, next, ..self }
    }
}

/// A table's rows one after the other, each as long as `vars`; a typed
/// error for the first row that is not.
pub(super) fn flat_rows(vars: &[VarId], rows: &[Vec<i64>]) -> Result<Vec<i64>, ModelError> {
    let mut flat = Vec::with_capacity(rows.len() * vars.len());
    for (row, tuple) in rows.iter().enumerate() {
        if tuple.len() != vars.len() {
            return Err(ModelError::TableArity { row, expected: vars.len(), found: tuple.len() });
        }
        flat.extend_from_slice(tuple);
    }
    Ok(flat)
}

impl Model {
    /// The variables take none of the rows (forbidden tuples), with
    /// generalized arc consistency (when the variables are distinct).
    pub fn negative_table(&mut self, vars: &[VarId], rows: &[Vec<i64>]) -> Result<ConstraintId, ModelError> {
        self.check_scope("negative_table", vars)?;
        let flat = flat_rows(vars, rows)?;
        self.post(NegativeTable::new(vars.to_vec(), flat))
    }

    /// The variables, in order, spell a word that `dfa` accepts; domain
    /// consistent (Pesant 2004).
    ///
    /// ```
    /// use csp::{Dfa, Model};
    ///
    /// // A nonogram line of 6 cells with the clue "2 2".
    /// let mut model = Model::new();
    /// let cells = model.new_vars(6, 0..=1).unwrap();
    /// model.regular(&cells, &Dfa::from_runs(&[2, 2]).unwrap()).unwrap();
    /// let count = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap().count(None).solutions;
    /// assert_eq!(count, 3); // 110110, 110011, 011011
    /// ```
    pub fn regular(&mut self, xs: &[VarId], dfa: &Dfa) -> Result<ConstraintId, ModelError> {
        self.post(Regular::new(xs.to_vec(), dfa.clone()))
    }

    /// MiniZinc's `fzn_regular(xs, q, s, d, q0, f)`: [`regular`](Model::regular)
    /// with the automaton of [`Dfa::from_minizinc`].
    pub fn regular_minizinc(
        &mut self,
        xs: &[VarId],
        q: usize,
        s: usize,
        d: &[i64],
        q0: i64,
        f: &[i64],
    ) -> Result<ConstraintId, ModelError> {
        let dfa = Dfa::from_minizinc(q, s, d, q0, f)?;
        self.regular(xs, &dfa)
    }
}
