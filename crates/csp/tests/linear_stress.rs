//! Linear constraints at random over wide domains (near ±2^62) mixed with
//! narrow ones: equations, `<=`, `!=` and reified forms, with coefficient
//! gcds beyond [`Linear::reachable`]'s old modulus limit of 4,096 and narrow
//! terms of more than 64 values, each solved under a wall guard and checked
//! against a reference. Big cases are built with their answer: a planted
//! solution (satisfiable), or a right-hand side whose remainder modulo the
//! wide terms' gcd no sum of the narrow terms reaches (unsatisfiable, by
//! exhaustive enumeration of the narrow sums). Small cases are counted by
//! brute force. Systems of two and three equations sharing wide variables
//! are planted (or made unsatisfiable by parity), and small systems over
//! two wide and two narrow variables counted by solving for the wide ones
//! at each narrow assignment. The bounds reasoning of an equation without an integer
//! solution near its bounds moves them a few values a round (a creep); over
//! ±2^62 that is a hang, which the guard turns into a failure that names
//! the case. `CSP_TEST_SEED` draws other cases, `CSP_TEST_SCALE` more.
//!
//! [`Linear::reachable`]: csp::constraints::linear

use std::time::Duration;

use csp::rng::Rng;
use csp::{Domain, LinearExpr, Lit, MAX_VALUE, Model, Outcome, Relation, SolveConfig, Solver, VarId};

/// The wall time a case may take under one configuration: a guard against a
/// hang, not a measurement (a case takes milliseconds).
const GUARD: Duration = Duration::from_secs(20);

/// The configurations every case is solved under.
const CONFIGS: [&str; 5] =
    ["mac", "mac+learn", "mac+domwdeg+binary", "fc", "mac+learn+phase+luby+target+rephase=1+stable=1"];

/// The gcds of the wide terms' coefficients drawn: small, around the old
/// modulus limit of 4,096, and far beyond it.
const GCDS: [i64; 11] = [1, 2, 3, 7, 10, 64, 4096, 4097, 5000, 65_536, 1_000_003];

/// What a case's answer is, by construction or by brute force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A solution exists (one was planted).
    Sat,
    /// No solution exists.
    Unsat,
    /// Exactly this many solutions.
    Count(u64),
}

/// A random case: its model, its answer and what it says.
struct Case {
    model: Model,
    expect: Expect,
    text: String,
    /// Whether forward checking is tried (on a case not planted: see
    /// [`check`]). Not on systems: it starts from the model's domains
    /// without propagating at the root, so an equation derived over one
    /// wide variable (`2x = 2v + 1`) fails only once that variable is
    /// decided, while the search splits the others' intervals unguided.
    fc: bool,
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// A value in `lo..=hi`.
fn between(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    let span = (i128::from(hi) - i128::from(lo)) as u128;
    if span >= u128::from(u64::MAX) {
        return rng.next_u64() as i64;
    }
    lo + rng.below(span as u64 + 1) as i64
}

/// A wide domain: the whole range, one side of it, a band at either end, or
/// a random stretch of 2^30 to 2^62 values.
fn wide_domain(rng: &mut Rng) -> (i64, i64) {
    match rng.below(6) {
        0 => (-MAX_VALUE, MAX_VALUE),
        1 => (0, MAX_VALUE - 1),
        2 => (-MAX_VALUE, 1 << 40),
        3 => (MAX_VALUE - (1 << 40), MAX_VALUE),
        4 => (-MAX_VALUE, -MAX_VALUE + (1 << 41)),
        _ => {
            let width = 1i64 << (30 + rng.below(32));
            let lo = between(rng, -MAX_VALUE, MAX_VALUE - width);
            (lo, lo + width)
        }
    }
}

/// A narrow domain: a stretch of 3 to 200 values with holes (some have more
/// than 64 values, the old limit of a narrow term).
fn narrow_domain(rng: &mut Rng) -> Vec<i64> {
    let width = pick(rng, &[3i64, 5, 9, 20, 40, 65, 80, 100, 130, 200]);
    let lo = between(rng, -100, 100);
    let keep = pick(rng, &[100u64, 90, 75, 50]);
    let mut values: Vec<i64> = (lo..lo + width).filter(|_| rng.below(100) < keep).collect();
    if values.is_empty() {
        values.push(lo);
    }
    values
}

/// Every sum `sum(a_i * v_i)` of the narrow terms, each once.
fn narrow_sums(terms: &[(i64, Vec<i64>)]) -> Vec<i128> {
    let mut sums = vec![0i128];
    for (a, values) in terms {
        let mut next: Vec<i128> =
            sums.iter().flat_map(|&s| values.iter().map(move |&v| s + i128::from(*a) * i128::from(v))).collect();
        next.sort_unstable();
        next.dedup();
        sums = next;
    }
    sums
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

/// How the main relation `sum = k` is posted.
#[derive(Clone, Copy, Debug)]
enum Posting {
    /// `Model::linear(.., Eq, k)`.
    Direct,
    /// `b <-> sum = k`, `b` true.
    Reified,
    /// `b <-> sum != k`, `b` false.
    NegatedReified,
    /// `b -> sum = k`, `b` true.
    Implied,
    /// `sum <= k` and `sum >= k`, two constraints.
    TwoInequalities,
}

/// The postings of the random cases: each propagates as one equation, the
/// two inequalities through the equation the model derives from them.
const POSTINGS: [Posting; 5] =
    [Posting::Direct, Posting::Reified, Posting::NegatedReified, Posting::Implied, Posting::TwoInequalities];

fn expr(terms: &[(i64, VarId)]) -> LinearExpr {
    LinearExpr::sum(terms.iter().map(|&(a, x)| LinearExpr::term(a, x)))
}

/// Posts `sum(terms) = k` as `posting` says (`None` if the model refuses it).
fn post_equation(model: &mut Model, terms: &[(i64, VarId)], k: i64, posting: Posting) -> Option<()> {
    let rhs = LinearExpr::constant(k);
    let literal = |model: &mut Model, value: bool| -> Lit {
        let b = model.new_bool();
        model.add(if value { b } else { !b }).unwrap();
        b
    };
    match posting {
        Posting::Direct => model.linear(terms, Relation::Eq, k).ok()?,
        Posting::Reified => {
            let b = literal(model, true);
            model.reify(b, expr(terms).eq(rhs)).ok()?
        }
        Posting::NegatedReified => {
            let b = literal(model, false);
            model.reify(b, expr(terms).ne(rhs)).ok()?
        }
        Posting::Implied => {
            let b = literal(model, true);
            model.implies(b, expr(terms).eq(rhs)).ok()?
        }
        Posting::TwoInequalities => {
            model.linear(terms, Relation::Le, k).ok()?;
            model.linear(terms, Relation::Ge, k).ok()?
        }
    };
    Some(())
}

/// The first case `draw` builds (it gives up on a draw that does not fit).
fn until_drawn(rng: &mut Rng, draw: fn(&mut Rng) -> Option<Case>) -> Case {
    loop {
        if let Some(case) = draw(rng) {
            return case;
        }
    }
}

/// A big case: `G*c_1*x_1 + ... + a_1*z_1 + ... = k` over wide `x` and
/// narrow `z`, posted one of [`POSTINGS`]' ways, with side constraints that
/// keep the answer: `<=` and `>=` over the wide terms around the planted
/// values (tight, so that the bounds pin the wide terms' differences), and
/// `!=` on narrow values the planted solution does not take.
fn wide_case(rng: &mut Rng) -> Case {
    until_drawn(rng, try_wide_case)
}

fn try_wide_case(rng: &mut Rng) -> Option<Case> {
    let mut model = Model::new();
    let g = pick(rng, &GCDS);
    let n_wide = 1 + rng.below(3) as usize;
    let mut wide = Vec::new();
    for _ in 0..n_wide {
        let (lo, hi) = wide_domain(rng);
        let c = pick(rng, &[1i64, -1, 1, -1, 2, -2, 3, -3]);
        wide.push((g * c, model.new_var(lo..=hi).unwrap(), lo, hi));
    }
    let mut narrow = Vec::new();
    let mut product = 1u64;
    for _ in 0..1 + rng.below(3) {
        let values = narrow_domain(rng);
        product = product.saturating_mul(values.len() as u64);
        if product > 200_000 {
            break;
        }
        let a = pick(rng, &[1i64, -1, 2, -3, 5, 7, -10, 12, 90, -1]);
        narrow.push((a, model.new_var(Domain::values(values.iter().copied())).unwrap(), values));
    }
    let modulus = wide.iter().fold(0i128, |m, &(a, ..)| gcd(m, i128::from(a)));
    let sums = narrow_sums(&narrow.iter().map(|(a, _, values)| (*a, values.clone())).collect::<Vec<_>>());
    let mut residues: Vec<i128> = sums.iter().map(|s| s.rem_euclid(modulus)).collect();
    residues.sort_unstable();
    residues.dedup();
    let missing = (modulus > 1 && (residues.len() as i128) < modulus)
        .then(|| (0..modulus.min(1 << 20)).find(|r| residues.binary_search(r).is_err()))
        .flatten();
    let terms: Vec<(i64, VarId)> =
        wide.iter().map(|&(a, x, ..)| (a, x)).chain(narrow.iter().map(|&(a, z, _)| (a, z))).collect();
    let posting = pick(rng, &POSTINGS);
    let unsat = missing.is_some() && rng.below(2) == 0;
    let (k, expect, planted) = if let (true, Some(r)) = (unsat, missing) {
        // Any k with that remainder: no sum of the terms equals it.
        let base = i128::from(between(rng, -(1 << 40), 1 << 40));
        let k = base - base.rem_euclid(modulus) + r;
        (i64::try_from(k).ok()?, Expect::Unsat, None)
    } else {
        // A planted solution: wide values near 0 when their domain allows
        // it (a sum within i64), else anywhere in it; narrow values drawn.
        let mut values = Vec::new();
        for &(a, _, lo, hi) in &wide {
            let reach = (MAX_VALUE / 4) / a.abs() / n_wide as i64;
            let (near_lo, near_hi) = (lo.max(-reach), hi.min(reach));
            let v = if near_lo <= near_hi && rng.below(4) != 0 {
                between(rng, near_lo, near_hi)
            } else {
                let inside = between(rng, lo, hi);
                pick(rng, &[lo, hi, inside])
            };
            values.push(v);
        }
        for (_, _, domain) in &narrow {
            values.push(pick(rng, domain));
        }
        let k: i128 = terms.iter().zip(&values).map(|(&(a, _), &v)| i128::from(a) * i128::from(v)).sum();
        (i64::try_from(k).ok().filter(|k| (-MAX_VALUE..=MAX_VALUE).contains(k))?, Expect::Sat, Some(values))
    };
    post_equation(&mut model, &terms, k, posting)?;
    let mut text = format!(
        "{posting:?}: {} = {k} over wide {:?} and narrow {:?}",
        terms.iter().map(|(a, x)| format!("{a}*x{}", x.index())).collect::<Vec<_>>().join(" + "),
        wide.iter().map(|&(_, x, lo, hi)| format!("x{}: {lo}..={hi}", x.index())).collect::<Vec<_>>(),
        narrow.iter().map(|(_, z, values)| format!("x{}: {} values", z.index(), values.len())).collect::<Vec<_>>(),
    );
    // Side constraints over two wide terms, around the planted values (any
    // values when unsatisfiable: they keep it so).
    if n_wide >= 2 && rng.below(2) == 0 {
        let (a, x) = (pick(rng, &[1i64, -1, 2]), wide[0].1);
        let (b, y) = (pick(rng, &[1i64, -1, 3]), wide[1].1);
        let at = match &planted {
            Some(values) => i128::from(a) * i128::from(values[0]) + i128::from(b) * i128::from(values[1]),
            None => i128::from(between(rng, -(1 << 20), 1 << 20)),
        };
        // Tight (a window of at most 5 sums) only around no solution: a
        // tight window beside the equation is a system of two equations,
        // whose bounds reasoning creeps (see
        // `two_equations_that_pin_wide_terms_together_creep`).
        let slack = if planted.is_some() { 1i128 << (20 + rng.below(20)) } else { i128::from(rng.below(3) as i64) };
        if let (Ok(upper), Ok(lower)) = (i64::try_from(at + slack), i64::try_from(at - slack)) {
            model.linear(&[(a, x), (b, y)], Relation::Le, upper).ok()?;
            model.linear(&[(a, x), (b, y)], Relation::Ge, lower).ok()?;
            text.push_str(&format!(", {lower} <= {a}*x{} + {b}*x{} <= {upper}", x.index(), y.index()));
        }
    }
    for (i, (_, z, domain)) in narrow.iter().enumerate() {
        if rng.below(3) == 0 {
            let taken = planted.as_ref().map(|values| values[n_wide + i]);
            if let Some(&v) = domain.iter().find(|&&v| Some(v) != taken && rng.below(4) == 0) {
                model.linear(&[(1, *z)], Relation::Ne, v).unwrap();
                text.push_str(&format!(", x{} != {v}", z.index()));
            }
        }
    }
    Some(Case { model, expect, text, fc: true })
}

/// A small case: two to four terms over at most 12 values each (one maybe
/// with a gcd beyond 4,096), one relation of six, posted directly or
/// reified with a free literal, counted by brute force.
fn small_case(rng: &mut Rng) -> Case {
    let mut model = Model::new();
    let n = 2 + rng.below(3) as usize;
    let mut domains = Vec::new();
    let mut terms = Vec::new();
    for _ in 0..n {
        let lo = between(rng, -8, 8);
        let values: Vec<i64> = (lo..lo + 1 + rng.below(12) as i64).filter(|_| rng.below(5) != 0).collect();
        let values = if values.is_empty() { vec![lo] } else { values };
        let a = pick(rng, &[1i64, -1, 2, -3, 5, 4096, -5000, 4097, 1_000_003]);
        terms.push((a, model.new_var(Domain::values(values.iter().copied())).unwrap()));
        domains.push(values);
    }
    let relation = pick(rng, &[Relation::Eq, Relation::Le, Relation::Ne, Relation::Lt, Relation::Ge, Relation::Gt]);
    // A right-hand side some assignment reaches, or near one.
    let witness: i128 = terms.iter().zip(&domains).map(|(&(a, _), d)| i128::from(a) * i128::from(pick(rng, d))).sum();
    let k = i64::try_from(witness).unwrap() + pick(rng, &[0i64, 0, 1, -1, 2]);
    let reified = rng.below(2) == 0;
    let holds = |values: &[i64]| {
        let sum: i128 = terms.iter().zip(values).map(|(&(a, _), &v)| i128::from(a) * i128::from(v)).sum();
        relation.holds(sum, i128::from(k))
    };
    let mut count = 0u64;
    let mut values = vec![0i64; n];
    let mut odometer = vec![0usize; n];
    'all: loop {
        for i in 0..n {
            values[i] = domains[i][odometer[i]];
        }
        // A free literal doubles nothing: b takes the one value the sum gives.
        count += if reified { 1 } else { u64::from(holds(&values)) };
        for i in 0..n {
            odometer[i] += 1;
            if odometer[i] < domains[i].len() {
                continue 'all;
            }
            odometer[i] = 0;
        }
        break;
    }
    if reified {
        let b = model.new_bool();
        model.reify(b, expr(&terms).compare(relation, LinearExpr::constant(k))).unwrap();
    } else {
        model.linear(&terms, relation, k).unwrap();
    }
    let text = format!(
        "{}{} {relation} {k} over {domains:?}",
        if reified { "b <-> " } else { "" },
        terms.iter().map(|(a, x)| format!("{a}*x{}", x.index())).collect::<Vec<_>>().join(" + "),
    );
    let expect = Expect::Count(count);
    Case { model, expect, text, fc: true }
}

/// `terms = k` as text.
fn equation_text(terms: &[(i64, VarId)], k: i64) -> String {
    let sum = terms.iter().map(|(a, x)| format!("{a}*x{}", x.index())).collect::<Vec<_>>().join(" + ");
    format!("{sum} = {k}")
}

/// The postings of a system's equations: those the model reads when it
/// derives equations (`model/derived.rs`); a reified or half-reified
/// equation is not read, its literal being a constraint of its own.
const SYSTEM_POSTINGS: [Posting; 3] = [Posting::Direct, Posting::TwoInequalities, Posting::Direct];

/// A system of two or three equations over two or three wide variables
/// (the first in every equation) and up to two narrow ones: a planted
/// solution, or (a third of the cases) one more equation that is the first
/// with `2c` more of one of its variables and a right-hand side `2c * v + 1`
/// more, `v` the planted value: their difference `2c * x = 2c * v + 1` has
/// no integer solution.
fn system_case(rng: &mut Rng) -> Case {
    until_drawn(rng, try_system_case)
}

fn try_system_case(rng: &mut Rng) -> Option<Case> {
    let mut model = Model::new();
    let n_wide = 2 + rng.below(2) as usize;
    let n_narrow = rng.below(3) as usize;
    let mut vars = Vec::new();
    let mut values = Vec::new();
    let mut descriptions = Vec::new();
    for _ in 0..n_wide {
        let (lo, hi) = wide_domain(rng);
        let x = model.new_var(lo..=hi).unwrap();
        // Near 0 when the domain allows it (sums within i64), else anywhere.
        let reach = MAX_VALUE / (1 << 24);
        let (near_lo, near_hi) = (lo.max(-reach), hi.min(reach));
        let v = if near_lo <= near_hi && rng.below(4) != 0 {
            between(rng, near_lo, near_hi)
        } else {
            let inside = between(rng, lo, hi);
            pick(rng, &[lo, hi, inside])
        };
        descriptions.push(format!("x{}: {lo}..={hi}", x.index()));
        vars.push(x);
        values.push(v);
    }
    for _ in 0..n_narrow {
        let domain = narrow_domain(rng);
        let z = model.new_var(Domain::values(domain.iter().copied())).unwrap();
        descriptions.push(format!("x{}: {} values", z.index(), domain.len()));
        vars.push(z);
        values.push(pick(rng, &domain));
    }
    let planted = |terms: &[(i64, VarId)]| -> i128 {
        terms.iter().map(|&(a, x)| i128::from(a) * i128::from(values[vars.iter().position(|&y| y == x).unwrap()])).sum()
    };
    let fits = |k: i128| i64::try_from(k).ok().filter(|k| k.unsigned_abs() <= MAX_VALUE.unsigned_abs());
    let mut equations: Vec<(Vec<(i64, VarId)>, i64)> = Vec::new();
    for _ in 0..2 + rng.below(2) {
        let g = pick(rng, &[1i64, 1, 2, 3, 7, 4096, 65_536]);
        let mut terms = Vec::new();
        for (i, &x) in vars.iter().enumerate() {
            if i < n_wide && (i == 0 || rng.below(3) != 0) {
                terms.push((g * pick(rng, &[1i64, -1, 2, -2, 3, -3]), x));
            } else if i >= n_wide && rng.below(2) == 0 {
                terms.push((pick(rng, &[1i64, -1, 2, -3, 5, 12]), x));
            }
        }
        if terms.len() < 2 {
            terms.push((pick(rng, &[1i64, -1, 2]), vars[1]));
        }
        let k = fits(planted(&terms))?;
        equations.push((terms, k));
    }
    let unsat = rng.below(3) == 0;
    if unsat {
        let (mut terms, k) = equations[0].clone();
        let t = rng.below(terms.len() as u64) as usize;
        let c = pick(rng, &[1i64, -1]);
        terms[t].0 += 2 * c;
        let v = values[vars.iter().position(|&y| y == terms[t].1).unwrap()];
        let k = fits(i128::from(k) + 2 * i128::from(c) * i128::from(v) + 1)?;
        equations.push((terms, k));
    }
    let mut text = String::new();
    for (terms, k) in &equations {
        let posting = pick(rng, &SYSTEM_POSTINGS);
        post_equation(&mut model, terms, *k, posting)?;
        text.push_str(&format!("{posting:?}: {}, ", equation_text(terms, *k)));
    }
    text.push_str(&format!("over {descriptions:?}"));
    let expect = if unsat { Expect::Unsat } else { Expect::Sat };
    Some(Case { model, expect, text, fc: false })
}

/// A small system: `a1*x + b1*y + c11*z1 + c12*z2 = k1` and the same with
/// other coefficients `= k2`, over wide `x` and `y` (2^17 to 2^30 values)
/// and narrow `z1`, `z2` (at most 12 values): counted by enumerating the
/// narrow values and solving for `x` and `y` (a nonzero determinant).
fn small_system_case(rng: &mut Rng) -> Case {
    until_drawn(rng, try_small_system_case)
}

fn try_small_system_case(rng: &mut Rng) -> Option<Case> {
    let mut model = Model::new();
    let mut wide = Vec::new();
    for _ in 0..2 {
        let lo = between(rng, -(1 << 40), 1 << 40);
        let hi = lo + (1i64 << 17) + rng.below(1 << 30) as i64;
        wide.push((model.new_var(lo..=hi).unwrap(), lo, hi));
    }
    let mut narrow = Vec::new();
    for _ in 0..2 {
        let lo = between(rng, -8, 8);
        let values: Vec<i64> = (lo..lo + 1 + rng.below(12) as i64).filter(|_| rng.below(5) != 0).collect();
        let values = if values.is_empty() { vec![lo] } else { values };
        narrow.push((model.new_var(Domain::values(values.iter().copied())).unwrap(), values));
    }
    let wide_coefficient = [1i64, -1, 2, -3, 5, 4096, -5000];
    let rows: Vec<[i64; 4]> = (0..2)
        .map(|_| {
            [
                pick(rng, &wide_coefficient),
                pick(rng, &wide_coefficient),
                pick(rng, &[0i64, 1, -1, 2, 7]),
                pick(rng, &[0i64, 1, -1, 2, 7]),
            ]
        })
        .collect();
    let det = i128::from(rows[0][0]) * i128::from(rows[1][1]) - i128::from(rows[1][0]) * i128::from(rows[0][1]);
    if det == 0 {
        return None;
    }
    let point = [
        between(rng, wide[0].1, wide[0].2),
        between(rng, wide[1].1, wide[1].2),
        pick(rng, &narrow[0].1),
        pick(rng, &narrow[1].1),
    ];
    let ks: Vec<i128> = rows
        .iter()
        .map(|row| {
            let sum: i128 = row.iter().zip(&point).map(|(&a, &v)| i128::from(a) * i128::from(v)).sum();
            sum + i128::from(pick(rng, &[0i64, 0, 0, 1, -1]))
        })
        .collect();
    let mut count = 0u64;
    for &z1 in &narrow[0].1 {
        for &z2 in &narrow[1].1 {
            let rest: Vec<i128> = rows
                .iter()
                .zip(&ks)
                .map(|(row, &k)| k - i128::from(row[2]) * i128::from(z1) - i128::from(row[3]) * i128::from(z2))
                .collect();
            // Cramer's rule.
            let x_num = rest[0] * i128::from(rows[1][1]) - rest[1] * i128::from(rows[0][1]);
            let y_num = i128::from(rows[0][0]) * rest[1] - i128::from(rows[1][0]) * rest[0];
            if x_num % det != 0 || y_num % det != 0 {
                continue;
            }
            let (x, y) = (x_num / det, y_num / det);
            let inside = |v: i128, (_, lo, hi): (VarId, i64, i64)| i128::from(lo) <= v && v <= i128::from(hi);
            count += u64::from(inside(x, wide[0]) && inside(y, wide[1]));
        }
    }
    let vars = [wide[0].0, wide[1].0, narrow[0].0, narrow[1].0];
    let mut text = String::new();
    for (row, &k) in rows.iter().zip(&ks) {
        let terms: Vec<(i64, VarId)> = row.iter().copied().zip(vars).filter(|&(a, _)| a != 0).collect();
        let k = i64::try_from(k).ok()?;
        let posting = pick(rng, &SYSTEM_POSTINGS);
        post_equation(&mut model, &terms, k, posting)?;
        text.push_str(&format!("{posting:?}: {}, ", equation_text(&terms, k)));
    }
    text.push_str(&format!(
        "over x{}: {}..={}, x{}: {}..={}, {:?}",
        wide[0].0.index(),
        wide[0].1,
        wide[0].2,
        wide[1].0.index(),
        wide[1].1,
        wide[1].2,
        narrow.iter().map(|(_, values)| values.clone()).collect::<Vec<_>>()
    ));
    Some(Case { model, expect: Expect::Count(count), text, fc: false })
}

/// Solves `case` under every configuration within the guard; the problems
/// found, each naming the case and the configuration.
fn check(case: &Case, label: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let limits = csp::Limits::none().with_time(GUARD);
    for spelling in CONFIGS {
        // Forward checking propagates a constraint only once one variable is
        // left open: a planted point among intervals of 2^62 values is then
        // a search without guidance (seed 7, wide case 234: 58 million
        // nodes in 20 s), so fc proves the unsatisfiable cases only.
        if spelling == "fc" && (case.expect == Expect::Sat || !case.fc) {
            continue;
        }
        let config: SolveConfig = spelling.parse().unwrap();
        let mut solver = Solver::new(&case.model, config.with_limits(limits)).unwrap();
        let problem = match case.expect {
            Expect::Count(expected) => {
                let count = solver.count(None);
                (count.solutions != expected || !count.is_complete())
                    .then(|| format!("{count:?}, expected {expected} solutions"))
            }
            Expect::Sat | Expect::Unsat => match solver.solve() {
                Outcome::Solved(solution) if !case.model.is_solution(solution.values()) => {
                    Some("a wrong solution".to_string())
                }
                Outcome::Solved(_) => {
                    (case.expect == Expect::Unsat).then(|| "a solution of an unsatisfiable case".into())
                }
                Outcome::Unsatisfiable => {
                    (case.expect == Expect::Sat).then(|| "unsatisfiable, with a planted solution".into())
                }
                Outcome::LimitReached(limit) => Some(format!("stopped by {limit:?} (a creep?)")),
            },
        };
        if let Some(problem) = problem {
            let problem = format!("{label} under {spelling}: {problem} ({:?}): {}", solver.stats().nodes, case.text);
            problems.push(problem);
        }
    }
    problems
}

/// Draws `count` cases with `draw` (from `seed`, salted) and checks each;
/// asserts that none has a problem.
fn hunt(draw: fn(&mut Rng) -> Case, seed: u64, salt: u64, count: usize, what: &str) {
    let mut rng = Rng::new(seed ^ salt);
    let (mut sat, mut unsat) = (0, 0);
    let mut problems = Vec::new();
    for i in 0..count {
        let case = draw(&mut rng);
        match case.expect {
            Expect::Sat => sat += 1,
            Expect::Unsat => unsat += 1,
            Expect::Count(_) => {}
        }
        problems.extend(check(&case, &format!("seed {seed}, {what} {i}")));
    }
    println!("{what}: {sat} satisfiable and {unsat} unsatisfiable");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn random_wide_linear_constraints_neither_creep_nor_answer_wrongly() {
    hunt(wide_case, csp::testing::seed(24), 0, csp::testing::scaled(60), "wide case");
}

#[test]
fn random_small_linear_constraints_count_as_brute_force_does() {
    hunt(small_case, csp::testing::seed(24), 0x5111, csp::testing::scaled(100), "small case");
}

#[test]
fn random_systems_of_wide_equations_neither_creep_nor_answer_wrongly() {
    hunt(system_case, csp::testing::seed(25), 0x5157, csp::testing::scaled(40), "system case");
}

#[test]
fn random_small_wide_systems_count_as_brute_force_does() {
    hunt(small_system_case, csp::testing::seed(25), 0x5155, csp::testing::scaled(30), "small system");
}

/// Bounds reasoning over wide terms that two constraints pin together (a
/// system of two equations, or an equation posted as `<=` and `>=` whose
/// window holds no sum) moved the bounds a few values a round, each
/// constraint's own bounds being loose: the search split the intervals for
/// millions of nodes (BENCHMARKS.md, "... (flags, 2026-12-05)"). The model
/// now derives the equation of the window and the equation that eliminates
/// a shared wide variable (`model/derived.rs`), whose remainder check
/// ([`Linear::reachable`]) and bounds end both at once.
///
/// [`Linear::reachable`]: csp::constraints::linear
#[test]
fn two_equations_that_pin_wide_terms_together_creep() {
    let mut problems = Vec::new();
    // The random case (seed 24, wide case 22 at CSP_TEST_SCALE=50): no
    // solution (the coefficients are even, k is odd), as two inequalities.
    let mut model = Model::new();
    let x0 = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    let x1 = model.new_var(0..=MAX_VALUE - 1).unwrap();
    let x2 = model.new_var(MAX_VALUE - (1 << 40)..=MAX_VALUE).unwrap();
    let x3 = model.new_var(Domain::values([-3, 0, 1, 4, 5, 8, 9])).unwrap();
    let terms = [(6, x0), (6, x1), (-6, x2), (2, x3)];
    post_equation(&mut model, &terms, -557_063_045_363, Posting::TwoInequalities).unwrap();
    let text = "6*x0 + 6*x1 - 6*x2 + 2*x3 = -557063045363 as <= and >=".to_string();
    problems.extend(check(&Case { model, expect: Expect::Unsat, text, fc: true }, "two inequalities"));
    // The random case (seed 24, wide case 2364 at CSP_TEST_SCALE=50): a
    // planted solution of two equations.
    let mut model = Model::new();
    let x0 = model.new_var(0..=MAX_VALUE - 1).unwrap();
    let x1 = model.new_var(0..=MAX_VALUE - 1).unwrap();
    let x2 = model.new_var(-2_868_032_977_178_483_456..=-1_715_111_472_571_636_480).unwrap();
    let x3 = model.new_var(-40..=39).unwrap();
    let (v0, v1, v3) = (1_000_000_000_000_000i64, 415_834_050_097_345_092i64, 7i64);
    let v2 = -2_000_000_000_000_000_000i64;
    let k = -v0 - v1 - 2 * v2 - 3 * v3;
    model.linear(&[(-1, x0), (-1, x1), (-2, x2), (-3, x3)], Relation::Eq, k).unwrap();
    model.linear(&[(-1, x0), (3, x1)], Relation::Eq, -v0 + 3 * v1).unwrap();
    let text = format!("-x0 - x1 - 2*x2 - 3*x3 = {k}, -x0 + 3*x1 = {}", -v0 + 3 * v1);
    problems.extend(check(&Case { model, expect: Expect::Sat, text, fc: true }, "a system of two equations"));
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

/// An open weakness, not fixed: a satisfiable system whose wide variables
/// outnumber its equations beyond one (seed 7, system case 1348 at
/// `CSP_TEST_SCALE=50`, recorded as 1347 when the creep was found: the
/// draws have moved by one since; `-3x0 - 2x1 + x2 - x3 + 5x4 = k1` and
/// `2x0 - 2x2 - x3 - x4 = k2` as `<=` and `>=`, three wide variables, two
/// narrow ones). Eliminating `x0` or `x2` leaves equations over two wide
/// variables each (as do the rows of the system reduced by Gauss-Jordan
/// elimination, `model/derived.rs`): below a split, a box the equations
/// cross over the reals holds no integer point, and the bounds move a few
/// values a round (9 million nodes under `mac` in 20 s; 5 to 15 million
/// with the reduced rows, by the load). Complete reasoning would need the
/// lattice of the system's integer solutions (a Hermite normal form), not
/// elimination over the rationals. Run with `--ignored`: it stops at the
/// guard under `mac`, `mac+learn` and `mac+domwdeg+binary`.
#[test]
#[ignore = "a known creep of a satisfiable system with more wide variables than equations (not fixed)"]
fn a_system_with_two_wide_degrees_of_freedom_creeps() {
    let mut rng = Rng::new(7 ^ 0x5157);
    let case = (0..1348).fold(system_case(&mut rng), |_, _| system_case(&mut rng));
    assert!(case.text.starts_with("Direct: -3*x0 + -2*x1 + 1*x2"), "{}", case.text);
    let problems = check(&case, "seed 7, system case 1348");
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
