//! Linear equations the model derives from the linear constraints posted
//! over wide domains (more than [`WIDE`] values), so that bounds reasoning
//! does not creep (BENCHMARKS.md, "Linear systems over wide domains").
//!
//! Two shapes creep when each constraint propagates alone: an equation
//! posted as `e <= k` and `e >= k` (neither side alone runs the equation's
//! remainder check, [`Linear`]'s `reachable`), and a system of equations
//! sharing wide variables (each equation's bounds are loose while the others
//! pin the shared variables together). Neither is a cycle of inequalities
//! whose sum fails over the reals (`search/cycle.rs` cuts those): both
//! windows hold real sums, only no integer one. So the model posts, beside
//! the constraints as given (every solution is still checked against them):
//!
//! - for `lo <= e` and `e <= hi` on the same expression (up to sign), once
//!   the window rounded to the gcd of the coefficients holds at most one
//!   multiple of it, the equation `e = that value` (or, when it holds none,
//!   `e = lo` or `e = hi`, not a multiple: the model has no solution, and
//!   the equation's remainder check says so at the root);
//! - for two equations sharing a wide variable `x`, the equation without
//!   `x` that eliminates it (what CP-SAT's presolve does with affine
//!   substitution), in `i128`, divided by the gcd of its coefficients and
//!   right-hand side, and refused when a coefficient or the right-hand side
//!   would not fit, or its sums could overflow.
//!
//! Each derived equation is implied by the constraints posted: a solution of
//! the model satisfies it, so it removes none, and its propagation's
//! explanations (from its own terms' bounds) are valid for learning.

use std::collections::HashMap;

use super::{MAX_VALUE, Model, ModelError};
use crate::constraint::Constraint;
use crate::constraints::{Linear, Relation};
use crate::ids::{ConstraintId, VarId};

/// A domain of more values than this is wide (the bitset limit's default,
/// beyond which the solver keeps an interval).
const WIDE: u64 = 1 << 16;

/// The most equations one posted equation derives by elimination.
const PER_EQUATION: usize = 8;

/// The most equations a model derives by elimination, in all.
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
    /// The equations with a wide variable, posted or derived.
    equations: Vec<(Terms, i128)>,
    /// Per wide variable, the equations (indices into `equations`) it is in.
    by_var: HashMap<VarId, Vec<usize>>,
    /// How many equations elimination derived.
    eliminated: usize,
}

#[derive(Debug, Default)]
struct Window {
    lower: Option<i128>,
    upper: Option<i128>,
    equation: bool,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `terms relation rhs` in canonical form (`None` without a nonzero term).
fn canonical(
    terms: impl Iterator<Item = (VarId, i64)>,
    relation: Relation,
    rhs: i64,
) -> Option<(Terms, Relation, i128)> {
    let mut sorted: Terms = terms.filter(|&(_, a)| a != 0).collect();
    sorted.sort_unstable_by_key(|&(x, _)| x);
    // A variable repeated (a merged coefficient beyond 2^62): not read.
    if sorted.windows(2).any(|pair| pair[0].0 == pair[1].0) {
        return None;
    }
    let &(_, first) = sorted.first()?;
    if first > 0 {
        return Some((sorted, relation, i128::from(rhs)));
    }
    // |a| <= MAX_VALUE: the negation fits.
    sorted.iter_mut().for_each(|(_, a)| *a = -*a);
    Some((sorted, relation.swapped(), -i128::from(rhs)))
}

impl Model {
    /// Posts `linear` and derives the equations it implies with the linear
    /// constraints posted before it (see the module's doc).
    pub(super) fn post_linear(&mut self, linear: Linear) -> Result<ConstraintId, ModelError> {
        let wide = linear.scope().iter().any(|&x| self.is_wide(x));
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
    /// or the window's now) is eliminated against the earlier ones.
    fn derive(&mut self, terms: Terms, relation: Relation, rhs: i128) {
        let Some((lower, upper)) = relation.bounds(rhs) else { return };
        let window = self.derived().windows.entry(terms.clone()).or_default();
        if window.equation {
            return;
        }
        if relation == Relation::Eq {
            window.equation = true;
            self.eliminate(terms, rhs);
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
        let g = terms.iter().fold(0u128, |g, &(_, a)| gcd(g, u128::from(a.unsigned_abs()))) as i128;
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
        if self.post_derived(&terms, k) {
            self.eliminate(terms, k);
        }
    }

    /// Posts `terms = k` as a derived equation, unless one on `terms` is
    /// posted or it does not fit: whether it was posted.
    fn post_derived(&mut self, terms: &Terms, k: i128) -> bool {
        let Ok(k) = i64::try_from(k) else { return false };
        let within = |v: i64| v.unsigned_abs() <= MAX_VALUE.unsigned_abs();
        if !within(k) || !terms.iter().all(|&(_, a)| within(a)) {
            return false;
        }
        let wide: Vec<(i128, VarId)> = terms.iter().map(|&(x, a)| (i128::from(a), x)).collect();
        // The model's own checks: coefficients and sums within its limits.
        let Ok((normal, k)) = self.normalize_linear(wide, i128::from(k)) else { return false };
        if normal.len() != terms.len() {
            return false;
        }
        let window = self.derived().windows.entry(terms.clone()).or_default();
        if window.equation {
            return false;
        }
        window.equation = true;
        self.post(Linear::new(normal, Relation::Eq, k)).is_ok()
    }

    /// Eliminates each wide variable of the equation `terms = k` against the
    /// earlier equations it shares it with (the derived equations are kept
    /// for later ones, not eliminated further now), then keeps it.
    fn eliminate(&mut self, terms: Terms, k: i128) {
        let mut derived = Vec::new();
        'pivots: for &(x, a) in &terms {
            if !self.is_wide(x) {
                continue;
            }
            let others = self.derived().by_var.get(&x).cloned().unwrap_or_default();
            for j in others {
                if derived.len() >= PER_EQUATION || self.derived().eliminated >= TOTAL {
                    break 'pivots;
                }
                let (other, other_k) = &self.derived().equations[j];
                let Some(&(_, b)) = other.iter().find(|&&(y, _)| y == x) else { continue };
                let Some((combined, combined_k)) = combine(&terms, k, a, other, *other_k, b) else { continue };
                if self.post_derived(&combined, combined_k) {
                    self.derived().eliminated += 1;
                    derived.push((combined, combined_k));
                }
            }
        }
        self.keep_equation(terms, k);
        for (terms, k) in derived {
            self.keep_equation(terms, k);
        }
    }

    fn keep_equation(&mut self, terms: Terms, k: i128) {
        let index = self.derived().equations.len();
        for &(x, _) in &terms {
            if self.is_wide(x) {
                self.derived().by_var.entry(x).or_default().push(index);
            }
        }
        self.derived().equations.push((terms, k));
    }
}

/// `(b/g) * (e = k) - (a/g) * (f = l)` for `g = gcd(a, b)`: the equation
/// without the variable whose coefficients are `a` in `e` and `b` in `f`, in
/// canonical form, divided by the gcd of its coefficients and right-hand
/// side (`None` when no term is left or it does not fit in `i64`).
fn combine(e: &Terms, k: i128, a: i64, f: &Terms, l: i128, b: i64) -> Option<(Terms, i128)> {
    let g = gcd(u128::from(a.unsigned_abs()), u128::from(b.unsigned_abs())) as i128;
    let (p, q) = (i128::from(b) / g, i128::from(a) / g);
    // |p|, |q|, the coefficients and k are within 2^62 (k of a derived
    // equation too): each product within 2^124, their difference 2^125.
    let mut sum: std::collections::BTreeMap<VarId, i128> = std::collections::BTreeMap::new();
    for &(x, c) in e {
        *sum.entry(x).or_default() += p * i128::from(c);
    }
    for &(x, c) in f {
        *sum.entry(x).or_default() -= q * i128::from(c);
    }
    let mut rhs = p * k - q * l;
    sum.retain(|_, c| *c != 0);
    let divisor = sum.values().fold(rhs.unsigned_abs(), |d, c| gcd(d, c.unsigned_abs())) as i128;
    let &first = sum.values().next()?;
    let divisor = if first < 0 { -divisor } else { divisor };
    rhs /= divisor;
    let terms = sum.into_iter().map(|(x, c)| Some((x, i64::try_from(c / divisor).ok()?))).collect::<Option<Terms>>()?;
    Some((terms, rhs))
}
