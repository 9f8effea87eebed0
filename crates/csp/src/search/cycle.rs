//! Slow-convergence cycles cut by a sum (issue #18). Two linear
//! constraints can push each other's bounds by one per call, `x >= y + 1`
//! and `y >= x + 1` over `±2^62`: the fixpoint takes as many calls as the
//! width. The kernel traces the interval narrowings of a fixpoint that has
//! made many (the kernel's `Pushes`); here the trace is read as
//! CP-SAT reads its pushes: each traced push is linked to the push of the
//! bound it was most likely made from (the latest earlier push of a bound
//! the pushing inequality reads), and following the links back from the
//! latest push finds a cycle of inequalities. They are summed with the
//! positive multipliers that cancel the cycle's variables; the variables
//! left in the sum are held at their current bounds, and if the sum's
//! smallest left side then exceeds its right side, the node fails.
//!
//! Soundness does not depend on how the cycle was found: each inequality
//! holds in every solution below the node, so any positive combination
//! does, and the sum is computed exactly (`i128`, checked; an overflow gives
//! up). The facts it used (the bounds of the variables left in the sum, and
//! the fixed literals of reified inequalities)
//! are the conflict's explanation when the search learns.

use std::collections::{BTreeMap, HashMap};

use super::Solver;
use super::propagate::{Failure, Origin};
use crate::constraint::Inequality;
use crate::ids::VarId;
use crate::kernel::{Literal, Push};

/// How many walks back the trace a reading makes (from its latest pushes
/// of distinct bounds).
const WALKS: usize = 8;

/// The analysis' buffers and the facts of the latest cycle cut.
#[derive(Debug, Default)]
pub(super) struct Cycles {
    /// Per constraint of the trace, its inequalities now (empty: none) and
    /// the variable of its literal when reified.
    inequalities: HashMap<u32, (Vec<Inequality>, Option<VarId>)>,
    /// What the latest cycle cut used: the conflict's facts.
    pub(super) facts: Vec<Literal>,
}

/// One step of a cycle: the inequality `row` of constraint `constraint`
/// pushed a bound of `target` from a bound of `source`.
#[derive(Clone, Copy, Debug)]
struct Step {
    constraint: u32,
    row: usize,
    source: u32,
    target: u32,
}

impl Solver<'_> {
    /// Reads the trace of pushes (it is full): `Some` failure when it holds
    /// a cycle of linear inequalities whose sum fails. Otherwise the kernel
    /// traces again after more narrowings.
    pub(super) fn cut_cycle(&mut self) -> Option<Failure> {
        let trace = std::mem::take(&mut self.state.pushes.trace);
        // Conflict-directed backjumping blames one constraint's scope: a
        // cycle is not one constraint, so it is not cut there.
        let failure = if self.backjumping.is_none() { self.find_cycle(&trace) } else { None };
        self.state.pushes.trace = trace;
        self.cycles.inequalities.clear();
        if failure.is_some() {
            self.state.stop_pushes();
        } else {
            self.state.skip_pushes();
        }
        failure
    }

    /// The inequalities of constraint `c` as it is enforced now (cached for
    /// one reading).
    fn inequalities_of(&mut self, c: u32) -> &(Vec<Inequality>, Option<VarId>) {
        let (state, constraints) = (&self.state, &self.program.constraints);
        self.cycles.inequalities.entry(c).or_insert_with(|| {
            let mut rows = Vec::new();
            let fixed = |x: VarId| (state.size(x.index) == 1).then(|| state.value(x.index, state.min_pos(x.index)));
            let control = constraints[c as usize].inequalities(&fixed, &mut rows);
            (rows, control)
        })
    }

    /// Links each push to the push it came from, walks back from the latest
    /// pushes and sums the first cycle that fails.
    fn find_cycle(&mut self, trace: &[Push]) -> Option<Failure> {
        // Per push: the earlier push it came from, through which row.
        let mut from: Vec<Option<(usize, usize)>> = vec![None; trace.len()];
        let mut latest: HashMap<(u32, bool), usize> = HashMap::new();
        for (i, push) in trace.iter().enumerate() {
            if push.constraint != u32::MAX {
                let rows = &self.inequalities_of(push.constraint).0;
                let mut best: Option<(usize, usize)> = None;
                for (r, row) in rows.iter().enumerate() {
                    // An upper bound comes from a positive coefficient of
                    // the target in `sum <= k`, a lower bound from a negative.
                    if !row.terms.iter().any(|&(a, x)| x.index == push.var && (a > 0) == push.upper && a != 0) {
                        continue;
                    }
                    for &(a, x) in &row.terms {
                        // The others' smallest terms: lower bounds of the
                        // positive, upper bounds of the negative.
                        if x.index == push.var || a == 0 {
                            continue;
                        }
                        if let Some(&j) = latest.get(&(x.index, a < 0))
                            && best.is_none_or(|(b, _)| j > b)
                        {
                            best = Some((j, r));
                        }
                    }
                }
                from[i] = best;
            }
            latest.insert((push.var, push.upper), i);
        }
        // Walk back from the latest push of each of a few bounds.
        let mut starts: Vec<usize> = latest.values().copied().collect();
        starts.sort_unstable_by(|a, b| b.cmp(a));
        for &start in starts.iter().take(WALKS) {
            let mut at: HashMap<(u32, bool), usize> = HashMap::new();
            let mut walk: Vec<Step> = Vec::new();
            let mut i = start;
            loop {
                let push = trace[i];
                if let Some(&k) = at.get(&(push.var, push.upper)) {
                    if let Some(failure) = self.sum_cycle(&walk[k..]) {
                        return Some(failure);
                    }
                    break;
                }
                let Some((j, row)) = from[i] else { break };
                at.insert((push.var, push.upper), walk.len());
                walk.push(Step { constraint: push.constraint, row, source: trace[j].var, target: push.var });
                i = j;
            }
        }
        None
    }

    /// Sums the cycle's inequalities (each step's source is the next step's
    /// target, the last step's source the first's target) with the
    /// multipliers that cancel the cycle's variables, then takes the sum's
    /// smallest left-hand side over the current bounds of the variables left
    /// in it: a failure when that exceeds its right-hand side.
    fn sum_cycle(&mut self, steps: &[Step]) -> Option<Failure> {
        // Per step: the target's and the source's coefficients.
        let mut links: Vec<(i128, i128)> = Vec::with_capacity(steps.len());
        for step in steps {
            let row = &self.inequalities_of(step.constraint).0[step.row];
            let coefficient = |var: u32| row.terms.iter().filter(|t| t.1.index == var).map(|t| i128::from(t.0)).sum();
            links.push((coefficient(step.target), coefficient(step.source)));
        }
        // λ_m = prod_{i<m} |source_i| * prod_{i>m} |target_i|: step m + 1's
        // target is step m's source, and λ_{m+1} |target_{m+1}| = λ_m |source_m|.
        // Ordered by variable, so that the facts' order (and the nogood
        // learnt from them) does not depend on a hash.
        let mut sum: BTreeMap<u32, i128> = BTreeMap::new();
        let mut rhs = 0i128;
        let mut controls = Vec::new();
        for (m, step) in steps.iter().enumerate() {
            let mut lambda = 1i128;
            for (i, &(target, source)) in links.iter().enumerate() {
                let factor = if i < m {
                    source.abs()
                } else if i > m {
                    target.abs()
                } else {
                    1
                };
                lambda = lambda.checked_mul(factor)?;
            }
            let (rows, control) = self.inequalities_of(step.constraint);
            let row = &rows[step.row];
            for &(a, x) in &row.terms {
                let entry = sum.entry(x.index).or_insert(0);
                *entry = entry.checked_add(lambda.checked_mul(i128::from(a))?)?;
            }
            rhs = rhs.checked_add(lambda.checked_mul(row.rhs)?)?;
            controls.extend(*control);
        }
        // The smallest the sum can be, and the bounds that say so.
        let mut facts = std::mem::take(&mut self.cycles.facts);
        facts.clear();
        let mut least = 0i128;
        for (&x, &a) in &sum {
            if a == 0 {
                continue;
            }
            let (min, max) = (self.state.value(x, self.state.min_pos(x)), self.state.value(x, self.state.max_pos(x)));
            let (bound, fact) = if a > 0 {
                (min, Literal::AtLeast { var: x, value: min })
            } else {
                (max, Literal::AtMost { var: x, value: max })
            };
            least = least.checked_add(a.checked_mul(i128::from(bound))?)?;
            facts.push(fact);
        }
        for b in controls {
            let value = self.state.value(b.index, self.state.min_pos(b.index));
            facts.push(Literal::AtLeast { var: b.index, value });
            facts.push(Literal::AtMost { var: b.index, value });
        }
        self.cycles.facts = facts;
        (least > rhs).then_some(Failure { constraint: steps[0].constraint, wiped: None, origin: Origin::Cycle })
    }
}

#[cfg(feature = "testing")]
impl Solver<'_> {
    /// Traces a fixpoint's interval narrowings after `narrowings` of them,
    /// `window` at a time, instead of the engine's 16,384 and 4,096: a test
    /// on small domains reaches the cycle analysis this way (a debug knob).
    pub fn trace_pushes_after(&mut self, narrowings: u64, window: usize) {
        self.state.pushes.first = narrowings;
        self.state.pushes.window = window.max(1);
    }
}
