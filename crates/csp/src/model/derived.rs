//! Linear equations the model derives from the linear constraints posted
//! over wide domains (more than [`WIDE`] values), so that bounds reasoning
//! does not creep (BENCHMARKS.md, "Linear systems over wide domains" and
//! "Linear equation systems solved at the root").
//!
//! Two shapes creep when each constraint propagates alone: an equation
//! posted as `e <= k` and `e >= k` (neither side alone runs the equation's
//! remainder check, [`Linear`]'s `reachable`), and a system of equations
//! sharing wide variables (each equation's bounds are loose while the others
//! pin the shared variables together; a cycle of four, `w = x + y`, `x = y +
//! z`, `y = z + w`, `z = w + x`, allows only zeros, yet moves the bounds of
//! unbounded variables a few values a round). Neither is a cycle of
//! inequalities whose sum fails over the reals (`search/cycle.rs` cuts
//! those): both windows hold real sums, or real points, only no integer
//! one. So the model posts, beside the constraints as given (every solution
//! is still checked against them):
//!
//! - for `lo <= e` and `e <= hi` on the same expression (up to sign), once
//!   the window rounded to the gcd of the coefficients holds at most one
//!   multiple of it, the equation `e = that value` (or, when it holds none,
//!   `e = lo` or `e = hi`, not a multiple: the model has no solution, and
//!   the equation's remainder check says so at the root);
//! - the rows of the system of equations over wide variables (those posted,
//!   and the windows'), reduced by exact integer Gauss-Jordan elimination as
//!   they are posted: each row has a pivot, a wide variable in no other row;
//!   a new equation is reduced by the rows of the pivots it holds, takes one
//!   of its wide variables as its pivot (the smallest coefficient, then the
//!   fewest rows, then the first), and that pivot is eliminated from the
//!   other rows. Each combination `(b/g) * e - (a/g) * f` (`g = gcd(a, b)`)
//!   is fraction-free, in `i128` with checked arithmetic, divided by the gcd
//!   of its coefficients and right-hand side, and refused (the new equation
//!   left out of the system, which stays as it was) when a product
//!   overflows or a coefficient would leave `±2^62` (a right-hand side may:
//!   the row is kept, only not posted). A row is posted as a derived
//!   equation when it differs from the equation posted, and a row that
//!   changes replaces its derived equation in place (the model holds one per
//!   row, not one per step). So a variable the system determines gets an
//!   equation of its own (`z = 0`), two variables it ties get theirs (`x - y
//!   = 0`), a row whose coefficients' gcd does not divide its right-hand side
//!   fails at the root (its remainder check), and an equation the others
//!   contradict (reduced to `0 = c`, `c != 0`) posts `2x = 1` over one of its
//!   variables, which fails at the root too (any equation is implied by a
//!   system without solution).
//!
//! The system is bounded: [`ROWS`] rows of at most [`TERMS`] terms, [`WORK`]
//! term operations and [`TOTAL`] derived equations per model; beyond, an
//! equation is left out of it. Only equations posted plain are read: a
//! reified or implied one holds only where its literal is true, which the
//! model does not know before the search.
//!
//! Each derived equation is a linear combination of equations of the model
//! (or, for `2x = 1`, stands for a system without solution): a solution of
//! the model satisfies it, so it removes none, and its propagation's
//! explanations (from its own terms' bounds) are valid for learning.

use std::collections::{BTreeMap, HashMap};

use super::{MAX_VALUE, Model, ModelError};
use crate::constraint::Constraint;
use crate::constraints::{Linear, Relation};
use crate::ids::{ConstraintId, VarId};

/// A domain of more values than this is wide (the bitset limit's default,
/// beyond which the solver keeps an interval).
const WIDE: u64 = 1 << 16;

/// The most rows the system keeps.
const ROWS: usize = 256;

/// The most terms a row of the system has.
const TERMS: usize = 64;

/// The most term operations (a term of an equation combined) the system
/// spends per model.
const WORK: usize = 1 << 24;

/// The most derived equations a model posts, in all (a row's replacements
/// are not counted).
const TOTAL: usize = 256;

/// A linear expression in canonical form: its nonzero terms sorted by
/// variable, the first coefficient positive.
type Terms = Vec<(VarId, i64)>;

/// What the model knows of the linear constraints posted over wide domains.
#[derive(Debug, Default)]
pub(super) struct Derived {
    /// Per expression, the window its constraints allow so far, and whether
    /// an equation on it is posted (or derived).
    windows: HashMap<Terms, Window>,
    /// The system's rows, reduced: each row's pivot is in no other row.
    rows: Vec<Row>,
    /// Per pivot, its row (an index into `rows`).
    pivots: HashMap<VarId, usize>,
    /// Per wide variable, how many rows hold it.
    occurrences: HashMap<VarId, usize>,
    /// How many derived equations were posted (replacements not counted).
    posted: usize,
    /// How many term operations the system spent.
    work: usize,
    /// Whether the system was found without integer solution (and a failing
    /// equation posted): nothing more is derived.
    failed: bool,
}

#[derive(Debug, Default)]
struct Window {
    lower: Option<i128>,
    upper: Option<i128>,
    equation: bool,
}

/// A row of the system: `terms = k`, in canonical form.
#[derive(Debug)]
struct Row {
    terms: Terms,
    k: i128,
    /// The derived equation that states the row (its index in the model and
    /// its terms), replaced when the row changes; `None` while the row is an
    /// equation as posted (or did not fit the model's limits).
    constraint: Option<(usize, Terms)>,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The gcd of the coefficients of `terms` (0 without a term).
fn coefficients_gcd(terms: &Terms) -> u128 {
    terms.iter().fold(0u128, |g, &(_, a)| gcd(g, u128::from(a.unsigned_abs())))
}

/// `terms relation rhs` in canonical form (`None` without a nonzero term).
fn canonical(
    terms: impl Iterator<Item = (VarId, i64)>,
    relation: Relation,
    rhs: i128,
) -> Option<(Terms, Relation, i128)> {
    let mut sorted: Terms = terms.filter(|&(_, a)| a != 0).collect();
    sorted.sort_unstable_by_key(|&(x, _)| x);
    // A variable repeated (a merged coefficient beyond 2^62): not read.
    if sorted.windows(2).any(|pair| pair[0].0 == pair[1].0) {
        return None;
    }
    let &(_, first) = sorted.first()?;
    if first > 0 {
        return Some((sorted, relation, rhs));
    }
    // |a| <= MAX_VALUE: the negation fits.
    sorted.iter_mut().for_each(|(_, a)| *a = -*a);
    Some((sorted, relation.swapped(), -rhs))
}

/// What reducing an equation by the system's rows gave.
enum Reduced {
    /// `terms = k`, no pivot among its terms; `changed` when a row was used.
    Equation { terms: Terms, k: i128, changed: bool },
    /// `0 = 0`: the rows imply the equation.
    Implied,
    /// `0 = c`, `c != 0`: the rows contradict the equation.
    Contradicted,
    /// A combination did not fit, or the work ran out.
    Refused,
}

impl Model {
    /// Posts `linear` and derives the equations it implies with the linear
    /// constraints posted before it (see the module's doc).
    pub(super) fn post_linear(&mut self, linear: Linear) -> Result<ConstraintId, ModelError> {
        // A right-hand side beyond ±2^62 stays out of the system (its rows
        // are combined in checked i128 arithmetic sized for in-range ones).
        let within = linear.rhs().unsigned_abs() <= u128::from(MAX_VALUE.unsigned_abs());
        let wide = within && linear.scope().iter().any(|&x| self.is_wide(x));
        let canonical = if wide { canonical(linear.terms(), linear.relation(), linear.rhs()) } else { None };
        let id = self.post(linear)?;
        if let Some((terms, relation, rhs)) = canonical {
            self.derive(terms, relation, rhs);
        }
        Ok(id)
    }

    fn derived(&mut self) -> &mut Derived {
        self.derived.get_or_insert_default()
    }

    fn is_wide(&self, x: VarId) -> bool {
        self.domains[x.index()].size() > WIDE
    }

    /// Narrows the window of `terms` by `relation rhs`; an equation (posted,
    /// or the window's now) joins the system.
    fn derive(&mut self, terms: Terms, relation: Relation, rhs: i128) {
        let Some((lower, upper)) = relation.bounds(rhs) else { return };
        let window = self.derived().windows.entry(terms.clone()).or_default();
        if relation == Relation::Eq {
            // Even on an expression with an equation already: a second
            // right-hand side is a contradiction the system finds.
            window.equation = true;
            self.add_equation(terms, rhs, true);
            return;
        }
        if window.equation {
            return;
        }
        window.lower = match (window.lower, lower) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        window.upper = match (window.upper, upper) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let (Some(lower), Some(upper)) = (window.lower, window.upper) else { return };
        let g = coefficients_gcd(&terms) as i128;
        let (first, last) =
            (lower.div_euclid(g) * g + if lower.rem_euclid(g) == 0 { 0 } else { g }, upper.div_euclid(g) * g);
        let k = match first.cmp(&last) {
            std::cmp::Ordering::Less => return,
            std::cmp::Ordering::Equal => first,
            // No multiple of `g` in the window: no solution. An equation
            // with a right-hand side that is not one says so.
            std::cmp::Ordering::Greater if lower.rem_euclid(g) != 0 => lower,
            std::cmp::Ordering::Greater if upper.rem_euclid(g) != 0 => upper,
            // The window is empty over the reals too: the bounds say so.
            std::cmp::Ordering::Greater => return,
        };
        let stated = self.post_derived(&terms, k).is_some();
        self.add_equation(terms, k, stated);
    }

    /// Posts `terms = k` as a derived equation, unless one on `terms` is
    /// posted, the derived equations ran out, or it does not fit: its index
    /// in the model if it was posted.
    fn post_derived(&mut self, terms: &Terms, k: i128) -> Option<usize> {
        if self.derived().posted >= TOTAL {
            return None;
        }
        let linear = self.derived_linear(terms, k)?;
        let window = self.derived().windows.entry(terms.clone()).or_default();
        if window.equation {
            return None;
        }
        window.equation = true;
        let id = self.post(linear).ok()?;
        self.derived().posted += 1;
        Some(id.index())
    }

    /// `terms = k` as a constraint, if it fits the model's limits.
    fn derived_linear(&self, terms: &Terms, k: i128) -> Option<Linear> {
        let k = i64::try_from(k).ok()?;
        let within = |v: i64| v.unsigned_abs() <= MAX_VALUE.unsigned_abs();
        if !within(k) || !terms.iter().all(|&(_, a)| within(a)) {
            return None;
        }
        let wide: Vec<(i128, VarId)> = terms.iter().map(|&(x, a)| (i128::from(a), x)).collect();
        // The model's own checks: coefficients and sums within its limits.
        let (normal, k) = self.normalize_linear(wide, i128::from(k)).ok()?;
        (normal.len() == terms.len()).then(|| Linear::new(normal, Relation::Eq, k))
    }

    /// Adds the equation `terms = k` to the system (`stated`: a constraint
    /// of the model says exactly this): reduces it by the rows, posts what
    /// it derives, and keeps it as a row when a wide variable is left in it.
    fn add_equation(&mut self, terms: Terms, k: i128, stated: bool) {
        if self.derived().failed {
            return;
        }
        let first = terms[0].0;
        let (terms, k, changed) = match self.reduce(terms, k) {
            Reduced::Equation { terms, k, changed } => (terms, k, changed),
            Reduced::Implied | Reduced::Refused => return,
            Reduced::Contradicted => {
                self.post_contradiction(first);
                return;
            }
        };
        // Whether no constraint of the model says `terms = k` yet.
        let new = changed || !stated;
        if k.rem_euclid(coefficients_gcd(&terms) as i128) != 0 {
            // No integer solution: the row's remainder check fails it (the
            // constraint posted, when it says exactly this).
            if new && self.post_derived(&terms, k).is_none() {
                self.post_contradiction(first);
            }
            self.derived().failed = true;
            return;
        }
        let pivot = self.pivot(&terms);
        let updates = match pivot {
            Some(pivot) if self.derived().rows.len() < ROWS => self.eliminate(pivot, &terms, k),
            _ => None,
        };
        let (Some(pivot), Some(updates)) = (pivot, updates) else {
            // Not kept (no wide variable left, or beyond the limits): an
            // implied equation all the same.
            if new {
                self.post_derived(&terms, k);
            }
            return;
        };
        for (row, row_terms, row_k) in updates {
            let old = std::mem::take(&mut self.derived().rows[row].terms);
            self.count_occurrences(&old, false);
            self.count_occurrences(&row_terms, true);
            let integral = row_k.rem_euclid(coefficients_gcd(&row_terms) as i128) == 0;
            let slot = &mut self.derived().rows[row];
            (slot.terms, slot.k) = (row_terms, row_k);
            self.state_row(row);
            if !integral {
                // The combination of two rows has no integer solution: the
                // row's derived equation fails at the root (or, when it did
                // not fit, the contradiction does).
                let slot = &self.derived().rows[row];
                let stated = slot.constraint.as_ref().is_some_and(|(_, terms)| *terms == slot.terms);
                if !stated {
                    self.post_contradiction(pivot);
                }
                self.derived().failed = true;
                return;
            }
        }
        let constraint = if new { self.post_derived(&terms, k).map(|index| (index, terms.clone())) } else { None };
        self.count_occurrences(&terms, true);
        let derived = self.derived();
        derived.pivots.insert(pivot, derived.rows.len());
        derived.rows.push(Row { terms, k, constraint });
    }

    /// `terms = k` reduced by the rows of the pivots it holds.
    fn reduce(&mut self, mut terms: Terms, mut k: i128) -> Reduced {
        let mut changed = false;
        let derived = self.derived();
        while let Some((x, a, row)) = terms.iter().find_map(|&(x, a)| derived.pivots.get(&x).map(|&row| (x, a, row))) {
            let row = &derived.rows[row];
            let b = coefficient(&row.terms, x);
            derived.work += terms.len() + row.terms.len();
            if derived.work > WORK {
                return Reduced::Refused;
            }
            let Some((reduced, reduced_k)) = combine(&terms, k, a, &row.terms, row.k, b) else {
                return Reduced::Refused;
            };
            if reduced.is_empty() {
                return if reduced_k == 0 { Reduced::Implied } else { Reduced::Contradicted };
            }
            if reduced.len() > TERMS {
                return Reduced::Refused;
            }
            (terms, k, changed) = (reduced, reduced_k, true);
        }
        Reduced::Equation { terms, k, changed }
    }

    /// The wide variable of `terms` to pivot on: the smallest coefficient,
    /// then the fewest rows, then the first.
    fn pivot(&mut self, terms: &Terms) -> Option<VarId> {
        let wide: Vec<(VarId, i64)> = terms.iter().copied().filter(|&(x, _)| self.is_wide(x)).collect();
        let derived = self.derived();
        wide.into_iter()
            .min_by_key(|&(x, a)| (a.unsigned_abs(), derived.occurrences.get(&x).copied().unwrap_or(0), x))
            .map(|(x, _)| x)
    }

    /// The rows with `pivot` in them, each with `pivot` eliminated by the
    /// new row `terms = k` (`None`: a combination was refused).
    fn eliminate(&mut self, pivot: VarId, terms: &Terms, k: i128) -> Option<Vec<(usize, Terms, i128)>> {
        let a = coefficient(terms, pivot);
        let derived = self.derived();
        let mut updates = Vec::new();
        for (index, row) in derived.rows.iter().enumerate() {
            let Ok(at) = row.terms.binary_search_by_key(&pivot, |&(x, _)| x) else { continue };
            derived.work += terms.len() + row.terms.len();
            if derived.work > WORK {
                return None;
            }
            let (reduced, reduced_k) = combine(&row.terms, row.k, row.terms[at].1, terms, k, a)?;
            // The row's own pivot stays: the combination is not empty.
            if reduced.len() > TERMS {
                return None;
            }
            updates.push((index, reduced, reduced_k));
        }
        Some(updates)
    }

    /// Counts the wide variables of `terms` in (`add`) or out of the rows.
    fn count_occurrences(&mut self, terms: &Terms, add: bool) {
        for &(x, _) in terms {
            if self.is_wide(x) {
                let count = self.derived().occurrences.entry(x).or_default();
                *count = if add { *count + 1 } else { count.saturating_sub(1) };
            }
        }
    }

    /// States the changed row `row` by its derived equation: the one posted
    /// for it replaced in place, or a new one.
    fn state_row(&mut self, row: usize) {
        let derived = self.derived();
        let (terms, k) = (derived.rows[row].terms.clone(), derived.rows[row].k);
        match derived.rows[row].constraint.take() {
            Some((index, old)) => {
                let Some(linear) = self.derived_linear(&terms, k) else {
                    // The old equation stays: implied, only weaker now.
                    self.derived().rows[row].constraint = Some((index, old));
                    return;
                };
                self.constraints[index] = Box::new(linear);
                let derived = self.derived();
                derived.windows.entry(old).or_default().equation = false;
                derived.windows.entry(terms.clone()).or_default().equation = true;
                derived.rows[row].constraint = Some((index, terms));
            }
            None => {
                let constraint = self.post_derived(&terms, k).map(|index| (index, terms));
                self.derived().rows[row].constraint = constraint;
            }
        }
    }

    /// Posts `2x = 1`, which fails at the root: the system has no solution
    /// (so this equation, like any, is implied); nothing more is derived.
    fn post_contradiction(&mut self, x: VarId) {
        self.derived().failed = true;
        let _ = self.post(Linear::new(vec![(2, x)], Relation::Eq, 1));
    }
}

/// The coefficient of `x` in `terms` (0 when it is not there).
fn coefficient(terms: &Terms, x: VarId) -> i64 {
    terms.binary_search_by_key(&x, |&(y, _)| y).map_or(0, |at| terms[at].1)
}

/// `(b/g) * (e = k) - (a/g) * (f = l)` for `g = gcd(a, b)`: the equation
/// without the variable whose coefficients are `a` in `e` and `b` in `f`, in
/// canonical form, divided by the gcd of its coefficients and right-hand
/// side (no term: `0 = 0`, or `0 = ±1` for a contradiction). `None` when a
/// product or sum overflows `i128`, or a coefficient of the result is beyond
/// `±2^62`. The right-hand side may be (the row is then kept, not posted):
/// scaled by coefficients of `2^13`, a right-hand side of `2^50` leaves the
/// model's range, while the rows it meets may still end in `2x = odd`.
fn combine(e: &Terms, k: i128, a: i64, f: &Terms, l: i128, b: i64) -> Option<(Terms, i128)> {
    let g = gcd(u128::from(a.unsigned_abs()), u128::from(b.unsigned_abs())) as i128;
    let (p, q) = (i128::from(b) / g, i128::from(a) / g);
    let mut sum: BTreeMap<VarId, i128> = BTreeMap::new();
    for &(x, c) in e {
        let s = sum.entry(x).or_default();
        *s = s.checked_add(p.checked_mul(i128::from(c))?)?;
    }
    for &(x, c) in f {
        let s = sum.entry(x).or_default();
        *s = s.checked_sub(q.checked_mul(i128::from(c))?)?;
    }
    let rhs = p.checked_mul(k)?.checked_sub(q.checked_mul(l)?)?;
    sum.retain(|_, c| *c != 0);
    let divisor = sum.values().fold(rhs.unsigned_abs(), |d, c| gcd(d, c.unsigned_abs()));
    if divisor == 0 {
        return Some((Vec::new(), 0));
    }
    let negative = sum.values().next().map_or(rhs < 0, |&c| c < 0);
    let divisor = i128::try_from(divisor).ok()? * if negative { -1 } else { 1 };
    let within = |v: i128| v.unsigned_abs() <= u128::from(MAX_VALUE.unsigned_abs());
    let rhs = rhs / divisor;
    let terms =
        sum.into_iter().map(|(x, c)| Some((x, c / divisor)).filter(|&(_, c)| within(c)).map(|(x, c)| (x, c as i64)));
    Some((terms.collect::<Option<Terms>>()?, rhs))
}
