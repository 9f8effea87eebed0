//! Property tests: on small random CSPs, every configuration finds exactly the
//! solutions that brute force finds, and every solution it returns satisfies
//! every constraint when checked independently of the propagators. The
//! models mix integer variables (some with values near `±2^62`) and
//! booleans, with every built-in constraint: the binary ones, all-different,
//! linear sums of every relation, tables, predicates, clauses, parity, set
//! membership, and conditions posted plain, reified and half-reified, and the
//! vocabulary's globals. Some models have wide variables (`-2^62..=2^62`,
//! intervals whatever the bitset limit), each equal to a small variable plus
//! an offset, so that brute force stays exact over the few values they can
//! reach; and the same models are solved with every range an interval. With
//! an objective, branch and bound finds the brute-force optimum under every
//! configuration.

use std::collections::BTreeSet;

use csp::{
    AllDifferentStrength, Backjumping, Branching, Condition, Dfa, Domain, LinearExpr, Lit, MAX_VALUE, Model,
    OptimizationOutcome, Probing, Propagation, Relation, Restarts, Search, SearchPhase, SolveConfig, Solver, Status,
    ValueOrder, VarId, VarOrder,
};
use proptest::prelude::*;

/// A constraint of a random model, over variable indices.
#[derive(Clone, Debug)]
enum Spec {
    Equal(usize, usize),
    NotEqual(usize, usize, i64),
    Less(usize, usize, bool),
    AllDifferent(Vec<usize>, Vec<i64>),
    Linear(Vec<(i64, usize)>, Relation, i64),
    Table(Vec<usize>, Vec<Vec<i64>>),
    /// `(sum + first * last) % 3 == 1`, checked generically.
    Predicate(Vec<usize>),
    /// `z = x op y` for `times`, `div`, `mod` or `pow` (variables may repeat).
    Arithmetic(&'static str, usize, usize, usize),
    PowConstant(usize, i64, usize),
    Abs(usize, usize),
    /// `m = max(xs)` when true, `min` otherwise.
    Extremum(bool, usize, Vec<usize>),
    /// `array[index - first] = value`.
    Element(usize, Vec<i64>, usize, i64),
    ElementVar(usize, Vec<usize>, usize, i64),
    Count(Vec<usize>, usize, usize),
    Among(usize, Vec<usize>, Vec<i64>),
    /// `at_least` (0), `at_most` (1) or `exactly` (2): `n`, the xs, the value.
    AmongConstant(u8, i64, Vec<usize>, i64),
    /// The xs, the cover, the counts, closed.
    Cardinality(Vec<usize>, Vec<i64>, Vec<usize>, bool),
    /// The xs, the cover, low and up, closed.
    CardinalityLowUp(Vec<usize>, Vec<i64>, Vec<i64>, Vec<i64>, bool),
    NValue(usize, Vec<usize>),
    NegativeTable(Vec<usize>, Vec<Vec<i64>>),
    /// The xs, the number of states, the transitions, the accepting states (start 0).
    Regular(Vec<usize>, usize, Vec<(usize, i64, usize)>, Vec<usize>),
    /// A clause over boolean literals `(boolean index, negated)`.
    Clause(Vec<(usize, bool)>),
    /// An odd number of the literals are true.
    Xor(Vec<(usize, bool)>),
    /// At most one, or exactly one, of the literals is true.
    LiteralCardinality(Vec<(usize, bool)>, bool),
    /// A condition posted plain.
    Add(Cond),
    /// `literal <-> condition`, or `literal -> condition` (half).
    Reify((usize, bool), Cond, bool),
    /// `circuit` (or `subcircuit` when true) over nodes numbered from the base.
    Circuit(Vec<usize>, i64, bool),
    /// `inverse(f, f_base, invf, invf_base)`.
    Inverse(Vec<usize>, i64, Vec<usize>, i64),
    /// `lex_less` (true) or `lex_lesseq` of two vectors, which may share variables.
    Lex(Vec<usize>, Vec<usize>, bool),
    /// `increasing`, strict or not (first flag), or decreasing (second flag).
    Increasing(Vec<usize>, bool, bool),
    /// `cumulative` with constant durations and uses (some near 2^62) and capacity.
    Cumulative(Vec<usize>, Vec<i64>, Vec<i64>, i64),
    /// `disjunctive`, strict or not, with constant durations (some near 2^62).
    Disjunctive(Vec<usize>, Vec<i64>, bool),
    /// `cumulative` with variable durations, uses and capacity (which may
    /// repeat, and be starts).
    CumulativeVars(Vec<usize>, Vec<usize>, Vec<usize>, usize),
    /// `bin_packing_load(loads, bins, sizes, base)`.
    BinPacking(Vec<usize>, Vec<usize>, Vec<i64>, i64),
    /// `diffn` (or `diffn_nonstrict` when true) over origins with constant sizes (some near 2^62).
    Diffn(Vec<usize>, Vec<usize>, Vec<i64>, Vec<i64>, bool),
}

/// A condition over variable indices (integers and booleans alike) or
/// boolean literals.
#[derive(Clone, Debug)]
enum Cond {
    /// `sum(c * x) + constant relation 0`.
    Compare(Vec<(i64, usize)>, i128, Relation),
    InSet(usize, Vec<i64>, bool),
    Or(Vec<(usize, bool)>),
    And(Vec<(usize, bool)>),
    Xor(Vec<(usize, bool)>),
}

#[derive(Clone, Debug)]
struct RandomCsp {
    /// Integer variables first, then the booleans.
    domains: Vec<Vec<i64>>,
    booleans: usize,
    /// Wide variables, after the small ones: each equals a small variable
    /// plus an offset.
    wide: Vec<(usize, i64)>,
    constraints: Vec<Spec>,
}

/// Small values, or (one time in five) values near both ends of the range.
fn domain() -> impl Strategy<Value = Vec<i64>> {
    let extremes = [-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, MAX_VALUE - 1, MAX_VALUE];
    prop_oneof![
        4 => prop::collection::btree_set(-3i64..=4, 1..=5),
        1 => prop::collection::btree_set(prop::sample::select(extremes.to_vec()), 1..=4),
    ]
    .prop_map(|set| set.into_iter().collect())
}

/// A constant of a constraint: mostly small, now and then at the ends of the range.
fn constant() -> impl Strategy<Value = i64> {
    prop_oneof![6 => -3i64..=4, 1 => prop_oneof![Just(-MAX_VALUE), Just(MAX_VALUE)]]
}

/// A value a constraint names (an offset, a set's member, a cover's value, a
/// symbol): mostly small, now and then near either end of the range, where
/// it meets the variables' values near `±2^62` and shifted sums pass 64 bits.
fn value() -> impl Strategy<Value = i64> + Clone {
    let extremes = [-MAX_VALUE, -MAX_VALUE + 1, MAX_VALUE - 1, MAX_VALUE];
    prop_oneof![6 => -3i64..=4, 1 => prop::sample::select(extremes.to_vec())]
}

/// A right-hand side beyond `±2^62` that sums of values near `2^62` reach
/// (`2^62 - 1 + 2^62 = i64::MAX`) or just miss.
fn wide_rhs() -> impl Strategy<Value = i64> {
    let wide = [i64::MIN, i64::MIN + 1, -MAX_VALUE - 1, MAX_VALUE + 1, i64::MAX - 2, i64::MAX - 1, i64::MAX];
    prop::sample::select(wide.to_vec())
}

/// A constant of a condition beyond 64 bits: near the products `2^62 * 2^62`
/// that a coefficient of `2^62` on a value near `2^62` makes, near sums of
/// two, and past every sum (`2^126`, `i128::MAX`, which the model clamps).
fn wide_constant() -> impl Strategy<Value = i128> {
    let p = 1i128 << 124;
    let wide = [p - 1, p, p + 1, 2 * p, -p, -p + (1 << 62), 1 << 63, -(1 << 63) - 1, 1 << 126, i128::MAX, i128::MIN];
    prop::sample::select(wide.to_vec())
}

/// A coefficient: mostly small, now and then `±2^62` or one less.
fn coefficient() -> impl Strategy<Value = i64> {
    let extremes = [-MAX_VALUE, -MAX_VALUE + 1, MAX_VALUE - 1, MAX_VALUE];
    prop_oneof![8 => -3i64..=3, 1 => prop::sample::select(extremes.to_vec())]
}

/// The first index, node or bin number of an element, circuit, inverse or
/// bin packing: small, or where the numbering ends at (or starts from) an end
/// of the range.
fn base() -> impl Strategy<Value = i64> {
    prop_oneof![6 => -3i64..=1, 1 => Just(MAX_VALUE - 5), 1 => Just(-MAX_VALUE)]
}

fn boolean_domain() -> impl Strategy<Value = Vec<i64>> {
    prop_oneof![4 => Just(vec![0, 1]), 1 => Just(vec![0]), 1 => Just(vec![1])]
}

fn relation() -> impl Strategy<Value = Relation> {
    prop::sample::select(vec![Relation::Eq, Relation::Le, Relation::Ge, Relation::Ne, Relation::Lt, Relation::Gt])
}

/// Literals over `booleans` booleans (repeats allowed), at least one.
fn literals(booleans: usize) -> impl Strategy<Value = Vec<(usize, bool)>> {
    prop::collection::vec((0..booleans, any::<bool>()), 1..=4)
}

/// A condition over `n` integers followed by `booleans` booleans.
fn condition(n: usize, booleans: usize) -> BoxedStrategy<Cond> {
    let all = n + booleans;
    let compare = (
        prop::collection::vec((coefficient(), 0..all), 1..=3),
        prop_oneof![6 => (-4i64..=4).prop_map(i128::from), 1 => value().prop_map(i128::from), 1 => wide_constant()],
        relation(),
    )
        .prop_map(|(terms, constant, relation)| Cond::Compare(terms, constant, relation));
    let in_set = (0..n, prop::collection::vec(value(), 0..=4), any::<bool>())
        .prop_map(|(var, values, negated)| Cond::InSet(var, values, negated));
    if booleans == 0 {
        return prop_oneof![compare, in_set].boxed();
    }
    prop_oneof![
        3 => compare,
        1 => in_set,
        1 => literals(booleans).prop_map(Cond::Or),
        1 => literals(booleans).prop_map(Cond::And),
        1 => literals(booleans).prop_map(Cond::Xor),
    ]
    .boxed()
}

fn distinct(n: usize, k: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<usize>>()).prop_shuffle().prop_map(move |v| v.into_iter().take(k).collect())
}

fn spec(n: usize, booleans: usize) -> BoxedStrategy<Spec> {
    prop_oneof![7 => basic_spec(n, booleans), 6 => arithmetic_spec(n), 9 => global_spec(n), 6 => structural_spec(n)]
        .boxed()
}

fn basic_spec(n: usize, booleans: usize) -> BoxedStrategy<Spec> {
    let var = 0..n;
    let integer = prop_oneof![
        (var.clone(), var.clone()).prop_map(|(a, b)| Spec::Equal(a, b)),
        (var.clone(), var.clone(), prop_oneof![4 => -2i64..=2, 1 => value()])
            .prop_map(|(a, b, c)| Spec::NotEqual(a, b, c)),
        (var.clone(), var.clone(), any::<bool>()).prop_map(|(a, b, s)| Spec::Less(a, b, s)),
        (2..=n.max(2)).prop_flat_map(move |k| {
            let k = k.min(n);
            (distinct(n, k), prop::collection::vec(prop_oneof![4 => -2i64..=2, 1 => value()], k))
                .prop_map(|(vars, offsets)| Spec::AllDifferent(vars, offsets))
        }),
        (
            prop::collection::vec((coefficient(), var.clone()), 1..=3),
            relation(),
            prop_oneof![6 => -6i64..=6, 1 => value(), 1 => wide_rhs()]
        )
            .prop_map(|(terms, rel, rhs)| Spec::Linear(terms, rel, rhs)),
        (1..=n.min(3)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(prop::collection::vec(-3i64..=4, k), 0..8))
                .prop_map(|(vars, rows)| Spec::Table(vars, rows))
        }),
        (1..=n.min(3)).prop_flat_map(move |k| distinct(n, k)).prop_map(Spec::Predicate),
        condition(n, booleans).prop_map(Spec::Add),
    ];
    if booleans == 0 {
        return integer.boxed();
    }
    let logic = prop_oneof![
        literals(booleans).prop_map(Spec::Clause),
        literals(booleans).prop_map(Spec::Xor),
        (literals(booleans), any::<bool>()).prop_map(|(l, exactly)| Spec::LiteralCardinality(l, exactly)),
        ((0..booleans, any::<bool>()), condition(n, booleans), any::<bool>())
            .prop_map(|(literal, cond, half)| Spec::Reify(literal, cond, half)),
    ];
    prop_oneof![integer, logic].boxed()
}

fn arithmetic_spec(n: usize) -> impl Strategy<Value = Spec> {
    let var = 0..n;
    let operation = prop_oneof![Just("times"), Just("div"), Just("mod"), Just("pow")];
    prop_oneof![
        (operation, var.clone(), var.clone(), var.clone()).prop_map(|(op, x, y, z)| Spec::Arithmetic(op, x, y, z)),
        (var.clone(), -2i64..=3, var.clone()).prop_map(|(x, k, z)| Spec::PowConstant(x, k, z)),
        (var.clone(), var.clone()).prop_map(|(x, z)| Spec::Abs(x, z)),
        (any::<bool>(), var.clone(), prop::collection::vec(var.clone(), 1..=3))
            .prop_map(|(maximum, m, xs)| Spec::Extremum(maximum, m, xs)),
    ]
}

fn global_spec(n: usize) -> impl Strategy<Value = Spec> {
    let var = 0..n;
    let vars = prop::collection::vec(var.clone(), 1..=3);
    let values = prop::collection::vec(value(), 0..=3);
    prop_oneof![
        (var.clone(), prop::collection::vec(constant(), 1..=5), var.clone(), base())
            .prop_map(|(i, array, z, first)| Spec::Element(i, array, z, first)),
        (var.clone(), vars.clone(), var.clone(), base())
            .prop_map(|(i, xs, z, first)| Spec::ElementVar(i, xs, z, first)),
        (vars.clone(), var.clone(), var.clone()).prop_map(|(xs, y, c)| Spec::Count(xs, y, c)),
        (var.clone(), vars.clone(), values.clone()).prop_map(|(c, xs, set)| Spec::Among(c, xs, set)),
        (0u8..=2, -1i64..=3, vars.clone(), value()).prop_map(|(kind, k, xs, v)| Spec::AmongConstant(kind, k, xs, v)),
        (vars.clone(), prop::collection::btree_set(value(), 1..=2), any::<bool>()).prop_flat_map(
            move |(xs, cover, closed)| {
                let cover: Vec<i64> = cover.into_iter().collect();
                let k = cover.len();
                (Just(xs), Just(cover), prop::collection::vec(0..n, k), Just(closed))
                    .prop_map(|(xs, cover, counts, closed)| Spec::Cardinality(xs, cover, counts, closed))
            }
        ),
        (vars.clone(), prop::collection::btree_set(value(), 1..=2), any::<bool>()).prop_flat_map(
            |(xs, cover, closed)| {
                let cover: Vec<i64> = cover.into_iter().collect();
                let k = cover.len();
                (
                    Just(xs),
                    Just(cover),
                    prop::collection::vec(0i64..=2, k),
                    prop::collection::vec(0i64..=2, k),
                    Just(closed),
                )
                    .prop_map(|(xs, cover, low, up, closed)| Spec::CardinalityLowUp(xs, cover, low, up, closed))
            }
        ),
        (var.clone(), vars.clone()).prop_map(|(m, xs)| Spec::NValue(m, xs)),
        (1..=n.min(3)).prop_flat_map(move |k| {
            (prop::collection::vec(0..n, k), prop::collection::vec(prop::collection::vec(constant(), k), 0..10))
                .prop_map(|(xs, rows)| Spec::NegativeTable(xs, rows))
        }),
        (vars, 1usize..=3).prop_flat_map(|(xs, states)| {
            let transition = (0..states, value(), 0..states);
            (Just(xs), Just(states), prop::collection::vec(transition, 0..8), prop::collection::vec(0..states, 0..=2))
                .prop_map(|(xs, states, transitions, accepting)| Spec::Regular(xs, states, transitions, accepting))
        }),
    ]
}

/// The structural globals: circuits, channeling, orders and schedules.
fn structural_spec(n: usize) -> impl Strategy<Value = Spec> {
    let var = 0..n;
    prop_oneof![
        (1..=n)
            .prop_flat_map(move |k| (distinct(n, k), base(), any::<bool>()))
            .prop_map(|(vars, base, sub)| Spec::Circuit(vars, base, sub)),
        (1..=n.min(3))
            .prop_flat_map(move |k| (distinct(n, k), base(), distinct(n, k), base()))
            .prop_map(|(f, f_base, invf, invf_base)| Spec::Inverse(f, f_base, invf, invf_base)),
        (prop::collection::vec(var.clone(), 1..=3), prop::collection::vec(var.clone(), 0..=3), any::<bool>())
            .prop_map(|(x, y, strict)| Spec::Lex(x, y, strict)),
        (prop::collection::vec(var.clone(), 1..=4), any::<bool>(), any::<bool>())
            .prop_map(|(vars, strict, decreasing)| Spec::Increasing(vars, strict, decreasing)),
        (1..=n.min(3)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(time(), k), prop::collection::vec(time(), k), time())
                .prop_map(|(vars, durations, uses, capacity)| Spec::Cumulative(vars, durations, uses, capacity))
        }),
        (1..=n.min(4)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(time(), k), any::<bool>())
                .prop_map(|(vars, durations, strict)| Spec::Disjunctive(vars, durations, strict))
        }),
        (1..=n.min(2)).prop_flat_map(move |k| {
            (distinct(n, k), prop::collection::vec(0..n, k), prop::collection::vec(0..n, k), 0..n)
                .prop_map(|(starts, durations, uses, capacity)| Spec::CumulativeVars(starts, durations, uses, capacity))
        }),
        (1..=n.min(3)).prop_flat_map(move |k| {
            (
                prop::collection::vec(0..n, 1..=2),
                prop::collection::vec(0..n, k),
                prop::collection::vec(-1i64..=3, k),
                base(),
            )
                .prop_map(|(loads, bins, sizes, base)| Spec::BinPacking(loads, bins, sizes, base))
        }),
        (1..=n.min(3)).prop_flat_map(move |k| {
            let sizes = || prop::collection::vec(time(), k);
            (distinct(n, k), prop::collection::vec(0..n, k), sizes(), sizes(), any::<bool>())
                .prop_map(|(x, y, dx, dy, nonstrict)| Spec::Diffn(x, y, dx, dy, nonstrict))
        }),
    ]
}

/// A duration, use or capacity: small (0 included, and a negative one that
/// the constraint rejects) or near 2^62, where sums pass the 64-bit range.
fn time() -> impl Strategy<Value = i64> {
    prop_oneof![4 => -1i64..=3, 1 => Just(csp::MAX_VALUE), 1 => Just(csp::MAX_VALUE - 1)]
}

fn random_csp() -> impl Strategy<Value = RandomCsp> {
    (1usize..=5, 0usize..=2).prop_flat_map(|(n, booleans)| {
        let domains = (prop::collection::vec(domain(), n), prop::collection::vec(boolean_domain(), booleans)).prop_map(
            |(mut ints, bools)| {
                ints.extend(bools);
                ints
            },
        );
        (domains, prop::collection::vec(spec(n, booleans), 0..=5)).prop_map(move |(domains, constraints)| RandomCsp {
            domains,
            booleans,
            wide: Vec::new(),
            constraints,
        })
    })
}

/// Offsets of the wide variables: small ones, and some that put their values
/// near ±2^61 (beyond every small domain, still far from the range's ends).
fn wide_offset() -> impl Strategy<Value = i64> {
    prop_oneof![-3i64..=3, Just(1i64 << 61), Just(-(1i64 << 61) + 7)]
}

/// A random CSP with up to two wide variables among the scopes of every
/// kind of constraint (the specification numbers them after the small
/// integers, before the booleans).
fn random_wide_csp() -> impl Strategy<Value = RandomCsp> {
    (1usize..=4, 0usize..=2, 0usize..=2).prop_flat_map(|(n, k, booleans)| {
        let domains = (prop::collection::vec(domain(), n), prop::collection::vec(boolean_domain(), booleans)).prop_map(
            |(mut ints, bools)| {
                ints.extend(bools);
                ints
            },
        );
        (domains, prop::collection::vec((0..n, wide_offset()), k), prop::collection::vec(spec(n + k, booleans), 0..=5))
            .prop_map(move |(domains, wide, constraints)| RandomCsp { domains, booleans, wide, constraints })
    })
}

/// The literals of the specification, over the booleans after the `n` integers.
fn lits(vars: &[VarId], n: usize, spec: &[(usize, bool)]) -> Vec<Lit> {
    spec.iter().map(|&(b, negated)| if negated { !Lit::from(vars[n + b]) } else { Lit::from(vars[n + b]) }).collect()
}

fn cond(vars: &[VarId], n: usize, spec: &Cond) -> Condition {
    match spec {
        Cond::Compare(terms, constant, relation) => {
            let expr: LinearExpr = terms.iter().map(|&(c, i)| c * vars[i]).sum();
            (expr + LinearExpr::wide_constant(*constant)).compare(*relation, 0)
        }
        Cond::InSet(var, values, false) => Condition::in_set(vars[*var], values.clone()),
        Cond::InSet(var, values, true) => Condition::not_in_set(vars[*var], values.clone()),
        Cond::Or(l) => Condition::or(&lits(vars, n, l)),
        Cond::And(l) => Condition::and(&lits(vars, n, l)),
        Cond::Xor(l) => Condition::xor(&lits(vars, n, l)),
    }
}

fn build(csp: &RandomCsp) -> Model {
    let mut model = Model::new();
    let created: Vec<VarId> = csp.domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
    let (integers, booleans) = created.split_at(csp.domains.len() - csp.booleans);
    // The specification numbers the integers, then the wide variables, then
    // the booleans; the model creates the wide variables last.
    let mut vars: Vec<VarId> = integers.to_vec();
    for &(of, offset) in &csp.wide {
        let wide = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
        model.linear(&[(1, wide), (-1, vars[of])], Relation::Eq, offset).unwrap();
        vars.push(wide);
    }
    let n = vars.len();
    vars.extend_from_slice(booleans);
    for spec in &csp.constraints {
        match spec {
            Spec::Equal(a, b) => {
                model.equal(vars[*a], vars[*b]).unwrap();
            }
            Spec::NotEqual(a, b, c) => {
                model.not_equal_offset(vars[*a], vars[*b], *c).unwrap();
            }
            Spec::Less(a, b, true) => {
                model.less_than(vars[*a], vars[*b]).unwrap();
            }
            Spec::Less(a, b, false) => {
                model.less_or_equal(vars[*a], vars[*b]).unwrap();
            }
            Spec::AllDifferent(vs, offsets) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model.all_different_offset(&scope, offsets).unwrap();
            }
            // Coefficients of 2^62 on values near 2^62 may leave the sums
            // i128 holds with room to spare: a typed refusal, nothing posted.
            // Small coefficients (at most 3 in size, three terms) on values
            // within 2^62 never come near it, so they must be posted.
            Spec::Linear(terms, relation, rhs) => {
                let extreme = terms.iter().any(|&(c, _)| c.unsigned_abs() > 3);
                let terms: Vec<(i64, VarId)> = terms.iter().map(|&(c, i)| (c, vars[i])).collect();
                match model.linear(&terms, *relation, *rhs) {
                    Ok(_) => {}
                    Err(csp::ModelError::LinearOverflow { .. }) if extreme => {}
                    Err(err) => panic!("{spec:?}: {err}"),
                }
            }
            Spec::Table(vs, rows) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model.table(&scope, rows).unwrap();
            }
            Spec::Predicate(vs) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                // In i128: values may be near ±2^62.
                model
                    .predicate(&scope, |t| {
                        let wide = |v: i64| i128::from(v);
                        (t.iter().map(|&v| wide(v)).sum::<i128>() + wide(t[0]) * wide(t[t.len() - 1])).rem_euclid(3)
                            == 1
                    })
                    .unwrap();
            }
            Spec::Clause(l) => {
                model.or(&lits(&vars, n, l)).unwrap();
            }
            Spec::Xor(l) => {
                model.xor(&lits(&vars, n, l)).unwrap();
            }
            Spec::LiteralCardinality(l, false) => {
                model.at_most_one(&lits(&vars, n, l)).unwrap();
            }
            Spec::LiteralCardinality(l, true) => {
                model.exactly_one(&lits(&vars, n, l)).unwrap();
            }
            // A condition without variables left (all cancelled out) is refused,
            // and so is a sum too large to add up safely (as for Spec::Linear).
            Spec::Add(c) => match model.add(cond(&vars, n, c)) {
                Ok(_) | Err(csp::ModelError::EmptyScope { .. } | csp::ModelError::LinearOverflow { .. }) => {}
                Err(err) => panic!("{c:?}: {err}"),
            },
            Spec::Reify(literal, c, half) => {
                let literal = lits(&vars, n, &[*literal])[0];
                let condition = cond(&vars, n, c);
                match if *half { model.implies(literal, condition) } else { model.reify(literal, condition) } {
                    Ok(_) | Err(csp::ModelError::LinearOverflow { .. }) => {}
                    Err(err) => panic!("{c:?}: {err}"),
                }
            }
            Spec::Circuit(vs, base, sub) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                if *sub { model.subcircuit(&scope, *base) } else { model.circuit(&scope, *base) }.unwrap();
            }
            Spec::Inverse(f, f_base, invf, invf_base) => {
                let f: Vec<VarId> = f.iter().map(|&i| vars[i]).collect();
                let invf: Vec<VarId> = invf.iter().map(|&i| vars[i]).collect();
                model.inverse(&f, *f_base, &invf, *invf_base).unwrap();
            }
            Spec::Lex(x, y, strict) => {
                let x: Vec<VarId> = x.iter().map(|&i| vars[i]).collect();
                let y: Vec<VarId> = y.iter().map(|&i| vars[i]).collect();
                if *strict { model.lex_less(&x, &y) } else { model.lex_lesseq(&x, &y) }.unwrap();
            }
            Spec::Increasing(vs, strict, decreasing) => {
                let scope: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                match (strict, decreasing) {
                    (false, false) => model.increasing(&scope),
                    (true, false) => model.strictly_increasing(&scope),
                    (false, true) => model.decreasing(&scope),
                    (true, true) => model.strictly_decreasing(&scope),
                }
                .unwrap();
            }
            Spec::Cumulative(vs, durations, uses, capacity) => {
                let starts: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                model.cumulative(&starts, durations, uses, *capacity).unwrap();
            }
            Spec::CumulativeVars(vs, durations, uses, capacity) => {
                let pick = |is: &[usize]| is.iter().map(|&i| vars[i]).collect::<Vec<VarId>>();
                model.cumulative(&pick(vs), &pick(durations), &pick(uses), vars[*capacity]).unwrap();
            }
            Spec::BinPacking(loads, bins, sizes, base) => {
                let pick = |is: &[usize]| is.iter().map(|&i| vars[i]).collect::<Vec<VarId>>();
                model.bin_packing_load(&pick(loads), &pick(bins), sizes, *base).unwrap();
            }
            Spec::Diffn(x, y, dx, dy, nonstrict) => {
                let pick = |is: &[usize]| is.iter().map(|&i| vars[i]).collect::<Vec<VarId>>();
                if *nonstrict {
                    model.diffn_nonstrict(&pick(x), &pick(y), dx, dy)
                } else {
                    model.diffn(&pick(x), &pick(y), dx, dy)
                }
                .unwrap();
            }
            Spec::Disjunctive(vs, durations, strict) => {
                let starts: Vec<VarId> = vs.iter().map(|&i| vars[i]).collect();
                if *strict {
                    model.disjunctive_strict(&starts, durations)
                } else {
                    model.disjunctive(&starts, durations)
                }
                .unwrap();
            }
            spec => post_global(&mut model, &vars, spec),
        }
    }
    model
}

/// Posts one of the vocabulary's arithmetic and global constraints.
fn post_global(model: &mut Model, vars: &[VarId], spec: &Spec) {
    let pick = |indices: &[usize]| -> Vec<VarId> { indices.iter().map(|&i| vars[i]).collect() };
    match spec {
        Spec::Arithmetic(operation, x, y, z) => {
            let (x, y, z) = (vars[*x], vars[*y], vars[*z]);
            match *operation {
                "times" => model.times(x, y, z),
                "div" => model.div(x, y, z),
                "mod" => model.modulo(x, y, z),
                _ => model.pow(x, y, z),
            }
            .unwrap();
        }
        Spec::PowConstant(x, k, z) => {
            model.pow_constant(vars[*x], *k, vars[*z]).unwrap();
        }
        Spec::Abs(x, z) => {
            model.abs(vars[*x], vars[*z]).unwrap();
        }
        Spec::Extremum(maximum, m, xs) => {
            let xs = pick(xs);
            if *maximum { model.maximum(vars[*m], &xs) } else { model.minimum(vars[*m], &xs) }.unwrap();
        }
        Spec::Element(i, array, z, first) => {
            model.element(vars[*i], array, vars[*z], *first).unwrap();
        }
        Spec::ElementVar(i, xs, z, first) => {
            model.element_var(vars[*i], &pick(xs), vars[*z], *first).unwrap();
        }
        Spec::Count(xs, y, c) => {
            model.count(&pick(xs), vars[*y], vars[*c]).unwrap();
        }
        Spec::Among(c, xs, set) => {
            model.among(vars[*c], &pick(xs), set).unwrap();
        }
        Spec::AmongConstant(kind, k, xs, value) => {
            let xs = pick(xs);
            match kind {
                0 => model.at_least(*k, &xs, *value),
                1 => model.at_most(*k, &xs, *value),
                _ => model.exactly(*k, &xs, *value),
            }
            .unwrap();
        }
        Spec::Cardinality(xs, cover, counts, closed) => {
            let (xs, counts) = (pick(xs), pick(counts));
            if *closed {
                model.global_cardinality_closed(&xs, cover, &counts)
            } else {
                model.global_cardinality(&xs, cover, &counts)
            }
            .unwrap();
        }
        Spec::CardinalityLowUp(xs, cover, low, up, closed) => {
            let xs = pick(xs);
            if *closed {
                model.global_cardinality_low_up_closed(&xs, cover, low, up)
            } else {
                model.global_cardinality_low_up(&xs, cover, low, up)
            }
            .unwrap();
        }
        Spec::NValue(n, xs) => {
            model.nvalue(vars[*n], &pick(xs)).unwrap();
        }
        Spec::NegativeTable(xs, rows) => {
            model.negative_table(&pick(xs), rows).unwrap();
        }
        Spec::Regular(xs, states, transitions, accepting) => {
            // Keep the first transition of each (state, symbol): deterministic.
            let mut deterministic: Vec<(usize, i64, usize)> = Vec::new();
            for &(from, symbol, to) in transitions {
                if !deterministic.iter().any(|&(f, s, _)| (f, s) == (from, symbol)) {
                    deterministic.push((from, symbol, to));
                }
            }
            let dfa = Dfa::new(*states, 0, accepting, &deterministic).unwrap();
            model.regular(&pick(xs), &dfa).unwrap();
        }
        _ => unreachable!("the basic constraints are posted by build"),
    }
}

/// Every assignment of the domains that `Model::is_solution` accepts: the
/// small variables enumerated, each wide one their value plus its offset.
fn brute_force(csp: &RandomCsp, model: &Model) -> BTreeSet<Vec<i64>> {
    let domains = &csp.domains;
    let mut solutions = BTreeSet::new();
    csp::testing::for_each_assignment(domains, |small| {
        let mut values = small.to_vec();
        for &(of, offset) in &csp.wide {
            values.push(values[of] + offset);
        }
        if model.is_solution(&values) {
            solutions.insert(values);
        }
    });
    solutions
}

/// Every solution `solver` enumerates, each checked to satisfy `model` and
/// to come only once.
fn enumerate(
    model: &Model,
    solver: &mut Solver<'_>,
    config: &SolveConfig,
) -> Result<BTreeSet<Vec<i64>>, TestCaseError> {
    let mut found = BTreeSet::new();
    for solution in solver.solutions() {
        prop_assert!(
            model.is_solution(solution.values()),
            "{config:?} returned a non-solution {:?}",
            solution.values()
        );
        prop_assert!(found.insert(solution.values().to_vec()), "{config:?} returned a solution twice");
    }
    Ok(found)
}

fn configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for &var_order in VarOrder::ALL {
            for &value_order in ValueOrder::ALL {
                for &strength in AllDifferentStrength::ALL {
                    for root in [false, true] {
                        // Chronological, and every backjumping of the level.
                        let backjumpings = Backjumping::ALL.iter().filter(|b| b.propagation() == propagation);
                        let searches = std::iter::once(Search::chronological(propagation))
                            .chain(backjumpings.map(|&b| Search::Backjumping(b)));
                        for search in searches {
                            let backjumping = search.backjumps();
                            let mut config = SolveConfig::default()
                                .with_search(search)
                                .with_var_order(var_order)
                                .with_value_order(value_order)
                                .with_all_different(strength)
                                .with_seed(11);
                            config.root_arc_consistency = root;
                            config.arc_consistency =
                                if root { csp::ArcConsistency::Ac2001 } else { csp::ArcConsistency::Ac3 };
                            // Binary branching and restarts (every few
                            // failures: each run restarts often) on top.
                            if !backjumping {
                                let binary = config.clone().with_branching(Branching::Binary);
                                configs.push(binary.clone().with_restarts(Restarts::Luby { scale: 2 }));
                                configs.push(binary);
                            }
                            configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
                            configs.push(config);
                        }
                    }
                }
            }
        }
    }
    configs.extend(probing_configs());
    configs
}

/// Probing under `mac` (the only level that probes), each ordering, both
/// branchings, with and without restarts, both probings.
fn probing_configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &var_order in VarOrder::ALL {
        for &value_order in ValueOrder::ALL {
            let config = SolveConfig::default().with_var_order(var_order).with_value_order(value_order).with_seed(3);
            configs.push(config.clone().with_probing(Probing::Singleton));
            configs.push(
                config
                    .clone()
                    .with_probing(Probing::Singleton)
                    .with_branching(Branching::Binary)
                    .with_restarts(Restarts::Luby { scale: 1 }),
            );
            configs.push(config.clone().with_probing(Probing::Bivalue).with_branching(Branching::Binary));
            configs.push(config.with_probing(Probing::Bivalue).with_restarts(Restarts::Luby { scale: 2 }));
        }
        // Cheap probes and touched sweeps, alone and together.
        let config = SolveConfig::default().with_var_order(var_order).with_seed(5);
        for (probing, cheap, touched) in [
            (Probing::Singleton, true, false),
            (Probing::Singleton, false, true),
            (Probing::Singleton, true, true),
            (Probing::Bivalue, true, true),
        ] {
            let mut probed = config.clone().with_probing(probing).with_branching(Branching::Binary);
            (probed.cheap_probes, probed.touched_probes) = (cheap, touched);
            configs.push(probed.clone().with_branching(Branching::Enumerate));
            configs.push(probed.with_restarts(Restarts::Luby { scale: 1 }));
        }
    }
    configs
}

/// The configurations of [`configs`], built once for every case of every
/// shard.
static CONFIGS: std::sync::LazyLock<Vec<SolveConfig>> = std::sync::LazyLock::new(configs);

/// How many tests share [`CONFIGS`]: the harness runs them on every core
/// (the configurations number about 27,500, most of this file's time).
const SHARDS: usize = 8;

/// The positions in [`CONFIGS`] of shard `shard`: every `SHARDS`-th, so that
/// each shard has some of every level, ordering and option.
fn shard_of(shard: usize) -> impl Iterator<Item = usize> {
    (shard..CONFIGS.len()).step_by(SHARDS)
}

/// The configurations of shard `shard` ([`shard_of`]), each enumerating
/// exactly the brute-force solutions of `csp`, counting them, and finding
/// one when there is one.
fn every_configuration_of_shard(csp: &RandomCsp, shard: usize) -> Result<(), TestCaseError> {
    let model = build(csp);
    let expected = brute_force(csp, &model);
    for config in shard_of(shard).map(|i| &CONFIGS[i]) {
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        let found = enumerate(&model, &mut solver, config)?;
        prop_assert_eq!(&found, &expected, "{:?}", config);
        let count = solver.count(None);
        prop_assert_eq!(count.solutions, expected.len() as u64);
        prop_assert!(count.is_complete());
        prop_assert_eq!(solver.solve().is_solved(), !expected.is_empty());
    }
    Ok(())
}

/// One property test per shard, named `NAME_0`, `NAME_1`, ...: every
/// configuration meets 400 random instances, as when this was one test; in
/// SHARDS tests, the harness runs them in parallel.
macro_rules! shards {
    ($($name:ident: $shard:literal),* $(,)?) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: csp::testing::scaled(400) as u32, ..ProptestConfig::default() })]
            $(
                #[test]
                fn $name(csp in random_csp()) {
                    every_configuration_of_shard(&csp, $shard)?;
                }
            )*
        }
    };
}

shards! {
    every_configuration_finds_exactly_the_brute_force_solutions_0: 0,
    every_configuration_finds_exactly_the_brute_force_solutions_1: 1,
    every_configuration_finds_exactly_the_brute_force_solutions_2: 2,
    every_configuration_finds_exactly_the_brute_force_solutions_3: 3,
    every_configuration_finds_exactly_the_brute_force_solutions_4: 4,
    every_configuration_finds_exactly_the_brute_force_solutions_5: 5,
    every_configuration_finds_exactly_the_brute_force_solutions_6: 6,
    every_configuration_finds_exactly_the_brute_force_solutions_7: 7,
}

#[test]
fn the_shards_cover_every_configuration_once() {
    let mut positions: Vec<usize> = (0..SHARDS).flat_map(shard_of).collect();
    positions.sort_unstable();
    assert_eq!(positions, (0..CONFIGS.len()).collect::<Vec<_>>());
}

/// A smaller set of configurations, each with the default bitset limit and
/// with every range an interval (limit 2: wider ranges are intervals). Plain
/// backtracking narrows nothing, so over a wide variable it would try its
/// 2^63 values one by one: it establishes arc consistency at the root (see
/// [`searchable`]).
fn interval_configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            // Solution-guided with dom/wdeg and restarts: fzn-csp's free
            // search, whose descents start from the incumbent (and split
            // intervals towards its value).
            for (var_order, value_order) in [
                (VarOrder::Mrv, ValueOrder::Ascending),
                (VarOrder::DomWdeg, ValueOrder::Random),
                (VarOrder::DomWdeg, ValueOrder::SolutionGuided),
            ] {
                let config = SolveConfig::default()
                    .with_search(Search::Chronological { propagation, branching })
                    .with_var_order(var_order)
                    .with_value_order(value_order)
                    .with_seed(5);
                configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
                configs.push(config.with_all_different(AllDifferentStrength::Bounds));
            }
        }
        for backjumping in Backjumping::ALL.iter().filter(|b| b.propagation() == propagation) {
            let search = Search::Backjumping(*backjumping);
            configs.push(SolveConfig::default().with_search(search).with_var_order(VarOrder::DomWdeg));
        }
    }
    // Probing: interval domains are not probed, their neighbours are.
    for probing in [Probing::Bivalue, Probing::Singleton] {
        let config = SolveConfig::default().with_var_order(VarOrder::DomWdeg).with_probing(probing);
        configs.push(
            config.clone().with_value_order(ValueOrder::SolutionGuided).with_restarts(Restarts::Luby { scale: 1 }),
        );
        configs.push(config.with_branching(Branching::Binary));
    }
    for config in &mut configs {
        config.root_arc_consistency = config.propagation() == Propagation::None;
    }
    configs.iter().flat_map(|c| [c.clone(), c.clone().with_bitset_limit(2)]).collect()
}

/// Whether `config` can search `model` in a test's time: plain backtracking
/// checks a constraint only once its variables are decided, so it walks an
/// interval by splits down to single values, and is run only when arc
/// consistency at the root leaves no domain wider than a few thousand values
/// (a wide variable equal to a small one plus an offset is as narrow as the
/// small one's hull, which a sparse domain near both ends of the range does
/// not make narrow).
fn searchable(model: &Model, config: &SolveConfig) -> bool {
    if config.propagation() != Propagation::None {
        return true;
    }
    let root = Solver::new(model, config.clone()).unwrap().root_domains();
    root.is_none_or(|domains| domains.iter().all(|d| d.size() <= 4096))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(200) as u32, ..ProptestConfig::default() })]

    #[test]
    fn wide_and_interval_domains_find_exactly_the_brute_force_solutions(csp in random_wide_csp()) {
        let model = build(&csp);
        let expected = brute_force(&csp, &model);
        for config in interval_configs().into_iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let found = enumerate(&model, &mut solver, &config)?;
            prop_assert_eq!(&found, &expected, "{:?}", config);
        }
    }

    #[test]
    fn branch_and_bound_finds_the_brute_force_optimum(
        csp in random_wide_csp(),
        objective in prop::collection::vec(-3i64..=3, 1..=3),
        shift in -4i64..=4,
        maximize in any::<bool>(),
    ) {
        let mut model = build(&csp);
        // The objective: a weighted sum of the first small variables, or (when
        // its first weight is 0) the first wide variable itself, an interval.
        let vars: Vec<VarId> = model.vars().collect();
        let n = csp.domains.len();
        let terms: Vec<(i64, VarId)> = match (objective[0], csp.wide.is_empty()) {
            (0, false) => vec![(1, vars[n])],
            _ => objective.iter().zip(&vars[..n]).map(|(&a, &x)| (a, x)).collect(),
        };
        // A variable alone is its own objective; a sum (with a constant) gets one.
        let shift = if terms.len() == 1 { 0 } else { shift };
        // In i128: a term may pass i64 (3 * 2^62) while the sum fits.
        let value_of = |values: &[i64]| -> i64 {
            let sum = terms.iter().map(|&(a, x)| i128::from(a) * i128::from(values[x.index()])).sum::<i128>();
            i64::try_from(sum + i128::from(shift)).expect("a posted objective's values fit the value range")
        };
        let expression: LinearExpr = terms.iter().map(|&(a, x)| a * x).sum::<LinearExpr>() + shift;
        // An objective that can leave the value range is refused (values
        // near 2^62 times a weight of 2 or 3): exactly when its range does.
        let (low, high) = terms.iter().fold((i128::from(shift), i128::from(shift)), |(low, high), &(a, x)| {
            let d = model.domain(x).unwrap();
            let ends = [d.min().unwrap(), d.max().unwrap()].map(|v| i128::from(a) * i128::from(v));
            (low + ends[0].min(ends[1]), high + ends[0].max(ends[1]))
        });
        let in_range = |v: i128| v.unsigned_abs() <= MAX_VALUE.unsigned_abs().into();
        let objective_var = match if maximize { model.maximize(expression) } else { model.minimize(expression) } {
            Err(csp::ModelError::ObjectiveOutOfRange { .. }) if !(in_range(low) && in_range(high)) => return Ok(()),
            result => result.unwrap(),
        };
        if let [(1, x)] = terms[..] {
            prop_assert_eq!(objective_var, x);
        }
        let objectives: Vec<i64> = brute_force(&csp, &build(&csp)).iter().map(|v| value_of(v)).collect();
        let best = if maximize { objectives.iter().max() } else { objectives.iter().min() }.copied();
        for config in interval_configs().into_iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            let mut last: Option<i64> = None;
            for improvement in solver.improvements() {
                prop_assert!(model.is_solution(improvement.solution.values()), "{config:?}");
                prop_assert_eq!(improvement.objective, value_of(improvement.solution.values()), "{:?}", config);
                if let Some(last) = last {
                    prop_assert!(if maximize { improvement.objective > last } else { improvement.objective < last }, "{config:?} did not improve");
                }
                last = Some(improvement.objective);
            }
            prop_assert_eq!(last, best, "{:?}", config);
            match solver.optimize() {
                OptimizationOutcome::Optimal { objective, .. } => prop_assert_eq!(Some(objective), best, "{:?}", config),
                OptimizationOutcome::Unsatisfiable => prop_assert_eq!(best, None, "{:?}", config),
                other => prop_assert!(false, "{config:?}: {other:?}"),
            }
            prop_assert_eq!(solver.stats().solutions > 0, best.is_some());
        }
    }
}

#[test]
fn domains_of_every_size_work() {
    // More than 64 and more than 1,000 values, and a sparse list with holes.
    for domain in [Domain::range(-50, 49), Domain::range(1, 1500), Domain::values([-3, 0, 2, 7, 1000, 5000])] {
        let mut model = Model::new();
        let x = model.new_var(domain.clone()).unwrap();
        let y = model.new_var(domain.clone()).unwrap();
        model.less_than(x, y).unwrap();
        model.linear(&[(1, x), (1, y)], Relation::Eq, domain.max().unwrap() + domain.min().unwrap()).unwrap();
        let n = domain.size();
        let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
        // Pairs v < w with v + w = min + max: one per value below the middle.
        let expected = domain.iter().filter(|&v| {
            let w = domain.max().unwrap() + domain.min().unwrap() - v;
            v < w && domain.contains(w)
        });
        assert_eq!(count.solutions, expected.count() as u64, "domain of {n} values");
    }
}

/// The configurations that learn ([`Search::Learning`]): every variable and
/// value ordering and every all-different strength, with and without
/// restarts (every failure or two: many restarts per run), the
/// all-different system's intersections, every range an interval,
/// nogoods kept as analysed (not minimised), kept by tiers, and with
/// distances recounted (dynamic LBD), with and without protecting the
/// nogoods whose distance was lowered and recounting down to glue, and with
/// recounted glue that expires unless used (weighed by activity alone once
/// expired, or not) or is capped, and with target phases, rephasing and
/// stable modes, with the nogoods vivified at restarts, and with probing
/// (at every node or at the root, cheap or not, touched or not). The tests
/// reduce the nogoods every few conflicts (`reduce_nogoods_after`): the
/// engine's first reduction, after 2,000, is beyond these small models.
fn learning_configs() -> Vec<SolveConfig> {
    let learning = SolveConfig::default().with_search(Search::Learning).with_seed(3);
    let mut configs = Vec::new();
    for &var_order in VarOrder::ALL {
        for &value_order in ValueOrder::ALL {
            configs.push(learning.clone().with_var_order(var_order).with_value_order(value_order));
        }
    }
    for &strength in AllDifferentStrength::ALL {
        let policies = [
            Restarts::Never,
            Restarts::Luby { scale: 1 },
            Restarts::Luby { scale: 2 },
            Restarts::Glucose { window: 2 },
        ];
        for restarts in policies {
            let config = learning.clone().with_all_different(strength).with_restarts(restarts);
            configs.push(config.clone().with_var_order(VarOrder::Vsids).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::LiteralVsids).with_value_order(ValueOrder::Active));
            configs.push(config.clone().with_var_order(VarOrder::Alternate).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::MaxSd).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::Rotate).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::MaxSd).with_value_order(ValueOrder::Random));
            configs.push(config.clone().with_var_order(VarOrder::Places).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::AlternatePlaces).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::Chb).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::AlternateChb).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::ChbLiteral).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::Lrb).with_value_order(ValueOrder::Phase));
            configs.push(config.clone().with_var_order(VarOrder::AlternateLrb).with_value_order(ValueOrder::Phase));
            configs.push(config.with_var_order(VarOrder::DomWdeg));
        }
    }
    let mut intersect = learning.clone().with_var_order(VarOrder::Vsids);
    intersect.all_different_intersections = true;
    configs.push(intersect);
    configs.push(learning.clone().with_bitset_limit(2));
    let mut minimised = learning.clone().with_var_order(VarOrder::DomWdeg);
    minimised.minimize_nogoods = true;
    configs.push(minimised);
    // (restarts, tiers, dynlbd, protect, noglue, expire, gluecap, fade)
    for (restarts, tiers, dynamic_lbd, protect, noglue, expire, cap, fade) in [
        (Restarts::Never, true, false, false, false, false, false, false),
        (Restarts::Glucose { window: 2 }, true, true, false, false, false, false, false),
        (Restarts::Luby { scale: 1 }, false, true, false, false, false, false, false),
        (Restarts::Glucose { window: 2 }, false, true, true, false, false, false, false),
        (Restarts::Never, true, true, true, true, false, false, false),
        (Restarts::Glucose { window: 2 }, false, true, false, true, false, false, false),
        (Restarts::Glucose { window: 2 }, false, true, false, false, true, false, false),
        (Restarts::Luby { scale: 1 }, false, true, false, false, false, true, false),
        (Restarts::Never, true, true, true, false, true, true, false),
        (Restarts::Glucose { window: 2 }, false, true, false, false, true, false, true),
        (Restarts::Luby { scale: 1 }, false, true, true, false, true, true, true),
    ] {
        let mut config = learning.clone().with_var_order(VarOrder::Alternate).with_value_order(ValueOrder::Phase);
        config.nogood_tiers = tiers;
        config.dynamic_lbd = dynamic_lbd;
        config.lbd_protection = protect;
        config.learnt_glue_only = noglue;
        config.expiring_glue = expire;
        config.glue_cap = cap;
        config.faded_glue_by_activity = fade;
        configs.push(config.with_restarts(restarts));
    }
    // Target phases, rephasing and stable modes, every conflict or two
    // (target, rephase unit, stable unit): many rephases and switches per run.
    for restarts in [Restarts::Never, Restarts::Luby { scale: 1 }, Restarts::Glucose { window: 2 }] {
        for (target, rephase, stable) in
            [(true, None, None), (false, Some(1), None), (false, None, Some(1)), (true, Some(2), Some(1))]
        {
            for (var_order, value_order) in [
                (VarOrder::Alternate, ValueOrder::Phase),
                (VarOrder::Vsids, ValueOrder::Phase),
                (VarOrder::LiteralVsids, ValueOrder::Active),
            ] {
                if target && value_order != ValueOrder::Phase {
                    continue;
                }
                let mut config = learning.clone().with_var_order(var_order).with_value_order(value_order);
                config.target_phases = target;
                config.rephase = rephase;
                config.stable_modes = stable;
                configs.push(config.with_restarts(restarts));
            }
        }
    }
    let mut wide = learning.clone().with_bitset_limit(2).with_value_order(ValueOrder::Phase);
    (wide.target_phases, wide.rephase, wide.stable_modes) = (true, Some(1), Some(1));
    configs.push(wide);
    // Vivification at restarts: under `--learn`'s settings beyond 16x16,
    // Luby's restarts every failure, every range an interval (bounds
    // literals), pairwise all-different, and with minimised nogoods.
    let vivify = |mut config: SolveConfig| {
        config.vivify_nogoods = true;
        config
    };
    let mut expiring = learning.clone().with_var_order(VarOrder::Alternate).with_value_order(ValueOrder::Phase);
    (expiring.dynamic_lbd, expiring.expiring_glue, expiring.all_different_intersections) = (true, true, true);
    configs.push(vivify(expiring.with_restarts(Restarts::Glucose { window: 2 })));
    configs.push(vivify(learning.clone().with_var_order(VarOrder::DomWdeg).with_restarts(Restarts::Luby { scale: 1 })));
    configs.push(vivify(
        learning
            .clone()
            .with_bitset_limit(2)
            .with_var_order(VarOrder::Vsids)
            .with_restarts(Restarts::Luby { scale: 1 }),
    ));
    configs.push(vivify(
        learning
            .clone()
            .with_all_different(AllDifferentStrength::Pairwise)
            .with_var_order(VarOrder::LiteralVsids)
            .with_value_order(ValueOrder::Active)
            .with_restarts(Restarts::Luby { scale: 2 }),
    ));
    let mut minimised = learning.clone().with_var_order(VarOrder::Vsids).with_restarts(Restarts::Luby { scale: 1 });
    minimised.minimize_nogoods = true;
    configs.push(vivify(minimised));
    configs.push(
        learning
            .clone()
            .with_bitset_limit(2)
            .with_var_order(VarOrder::Vsids)
            .with_restarts(Restarts::Luby { scale: 1 }),
    );
    // Failed-literal probing: bivalue and singleton, at every node or at
    // the root alone, cheap or not, touched or not, under every
    // all-different strength, without restarts and with restarts every
    // failure, every range an interval (nothing to probe but the bitsets),
    // and under `--learn`'s settings with vivification and minimisation.
    let flags = [
        (false, false, false),
        (true, false, false),
        (false, true, false),
        (true, true, false),
        (false, false, true),
        (false, true, true),
        (true, false, true),
    ];
    for probing in [Probing::Bivalue, Probing::Singleton] {
        for (root, cheap, touched) in flags {
            for &strength in AllDifferentStrength::ALL {
                for restarts in [Restarts::Never, Restarts::Luby { scale: 1 }] {
                    let mut config = learning
                        .clone()
                        .with_all_different(strength)
                        .with_var_order(VarOrder::Alternate)
                        .with_value_order(ValueOrder::Phase)
                        .with_probing(probing)
                        .with_restarts(restarts);
                    (config.root_probes, config.cheap_probes, config.touched_probes) = (root, cheap, touched);
                    configs.push(config);
                }
            }
            let mut wide =
                learning.clone().with_bitset_limit(2).with_var_order(VarOrder::DomWdeg).with_probing(probing);
            (wide.root_probes, wide.cheap_probes, wide.touched_probes) = (root, cheap, touched);
            configs.push(wide.with_restarts(Restarts::Glucose { window: 2 }));
        }
    }
    // Chronological replay: the decisions a backjump skipped made again,
    // after every backjump (`chrono=1`) and after long ones, without
    // restarts and with restarts every failure, every range an interval
    // (splits are not replayed), with probing and with enumeration.
    for (levels, restarts) in [
        (1, Restarts::Never),
        (1, Restarts::Luby { scale: 1 }),
        (2, Restarts::Glucose { window: 2 }),
        (3, Restarts::Never),
    ] {
        for (var_order, value_order) in [
            (VarOrder::Alternate, ValueOrder::Phase),
            (VarOrder::DomWdeg, ValueOrder::Ascending),
            (VarOrder::LiteralVsids, ValueOrder::Active),
        ] {
            let mut config = learning.clone().with_var_order(var_order).with_value_order(value_order);
            config.chrono = Some(levels);
            configs.push(config.with_restarts(restarts));
        }
        let mut wide = learning.clone().with_bitset_limit(2).with_var_order(VarOrder::Vsids);
        wide.chrono = Some(levels);
        configs.push(wide.with_restarts(restarts));
    }
    let mut replayed = learning.clone().with_var_order(VarOrder::Alternate).with_value_order(ValueOrder::Phase);
    (replayed.dynamic_lbd, replayed.expiring_glue, replayed.chrono) = (true, true, Some(1));
    configs.push(replayed.clone().with_probing(Probing::Bivalue).with_restarts(Restarts::Glucose { window: 2 }));
    replayed.minimize_nogoods = true;
    configs.push(vivify(replayed.with_restarts(Restarts::Luby { scale: 1 })));
    let mut probed = learning.with_var_order(VarOrder::Alternate).with_value_order(ValueOrder::Phase);
    (probed.dynamic_lbd, probed.expiring_glue, probed.all_different_intersections) = (true, true, true);
    let mut probed = vivify(probed.with_probing(Probing::Bivalue).with_restarts(Restarts::Glucose { window: 2 }));
    probed.minimize_nogoods = true;
    configs.push(probed);
    configs
}

/// The configurations that record nogoods from restarts
/// ([`SolveConfig::restart_nogoods`]): `mac` (the only level that takes
/// them), both branchings, every all-different strength, Luby's and
/// geometric restarts every failure or few (many restarts per run), the
/// orderings that change between restarts (dom/wdeg, random values) and
/// one that does not (each restart would repeat its tree but for the
/// nogoods), probing, and every range an interval (a split ends what a
/// branch can record).
fn nld_configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    let policies = [
        Restarts::Luby { scale: 1 },
        Restarts::Luby { scale: 2 },
        Restarts::Geometric { scale: 1, factor_thousandths: 1500 },
        Restarts::Geometric { scale: 2, factor_thousandths: 2000 },
    ];
    for &strength in AllDifferentStrength::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            for restarts in policies {
                for (var_order, value_order) in [
                    (VarOrder::DomWdeg, ValueOrder::Ascending),
                    (VarOrder::Mrv, ValueOrder::Random),
                    (VarOrder::Input, ValueOrder::Descending),
                    (VarOrder::Rotate, ValueOrder::Ascending),
                    (VarOrder::MaxSd, ValueOrder::Random),
                ] {
                    let mut config = SolveConfig::default()
                        .with_search(Search::Chronological { propagation: Propagation::Mac, branching })
                        .with_all_different(strength)
                        .with_var_order(var_order)
                        .with_value_order(value_order)
                        .with_restarts(restarts)
                        .with_seed(7);
                    config.restart_nogoods = true;
                    configs.push(config);
                }
            }
        }
    }
    let mut probing = SolveConfig::default()
        .with_var_order(VarOrder::DomWdeg)
        .with_probing(Probing::Bivalue)
        .with_restarts(Restarts::Luby { scale: 1 });
    probing.restart_nogoods = true;
    configs.push(probing.clone().with_branching(Branching::Binary));
    configs.push(probing);
    configs.iter().flat_map(|c| [c.clone(), c.clone().with_bitset_limit(2)]).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(300) as u32, ..ProptestConfig::default() })]

    /// Search that learns, and search that records nogoods from restarts,
    /// finds exactly the brute-force solutions, and every nogood it learns
    /// or records on the way excludes none that it has not found yet
    /// (`check_nogoods` panics otherwise).
    #[test]
    fn learning_finds_exactly_the_brute_force_solutions_and_learns_only_implied_nogoods(csp in random_csp()) {
        let model = build(&csp);
        let expected = brute_force(&csp, &model);
        for config in learning_configs().into_iter().chain(nld_configs()) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solver.check_nogoods(true);
            solver.reduce_nogoods_after(4);
            let found = enumerate(&model, &mut solver, &config)?;
            prop_assert_eq!(&found, &expected, "{}", config);
            let count = solver.count(None);
            prop_assert_eq!(count.solutions, expected.len() as u64, "{}", config);
            prop_assert_eq!(solver.solve().is_solved(), !expected.is_empty(), "{}", config);
        }
    }

    #[test]
    fn learning_on_wide_and_interval_domains_finds_exactly_the_brute_force_solutions(csp in random_wide_csp()) {
        let model = build(&csp);
        let expected = brute_force(&csp, &model);
        for config in learning_configs().into_iter().chain(nld_configs()) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solver.check_nogoods(true);
            solver.reduce_nogoods_after(4);
            let found: BTreeSet<Vec<i64>> = solver.solutions().map(|s| s.values().to_vec()).collect();
            prop_assert_eq!(&found, &expected, "{}", config);
        }
    }

    #[test]
    fn learning_branch_and_bound_finds_the_brute_force_optimum(
        csp in random_wide_csp(),
        objective in prop::collection::vec(-3i64..=3, 1..=3),
        maximize in any::<bool>(),
    ) {
        let Some((model, best)) = with_weighted_objective(&csp, &objective, maximize) else {
            return Ok(());
        };
        for config in learning_configs().into_iter().chain(nld_configs()) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solver.check_nogoods(true);
            solver.reduce_nogoods_after(4);
            match solver.optimize() {
                OptimizationOutcome::Optimal { objective, solution } => {
                    prop_assert!(model.is_solution(solution.values()), "{}", config);
                    prop_assert_eq!(Some(objective), best, "{}", config);
                }
                OptimizationOutcome::Unsatisfiable => prop_assert_eq!(best, None, "{}", config),
                other => prop_assert!(false, "{config}: {other:?}"),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(100) as u32, ..ProptestConfig::default() })]

    /// Branch and bound that bisects the objective's range after nearly
    /// every improvement (`bisect_after_steps(1)`, where the default waits
    /// for an improvement 2^16 times smaller than the range left): the
    /// objective is the first wide variable (an interval), or a weighted
    /// sum with every range an interval (bitset limit 2), under the
    /// chronological, backjumping and learning searches, learning's
    /// nogoods checked.
    #[test]
    fn bisecting_branch_and_bound_finds_the_brute_force_optimum(
        csp in random_wide_csp(),
        objective in prop::collection::vec(-3i64..=3, 1..=3),
        maximize in any::<bool>(),
    ) {
        let (model, best) = if csp.wide.is_empty() {
            let Some(weighted) = with_weighted_objective(&csp, &objective, maximize) else {
                return Ok(());
            };
            weighted
        } else {
            let mut model = build(&csp);
            let n = csp.domains.len();
            let wide = model.vars().nth(n).expect("a wide variable");
            if maximize { model.maximize(wide) } else { model.minimize(wide) }.unwrap();
            let values: Vec<i64> = brute_force(&csp, &build(&csp)).iter().map(|v| v[wide.index()]).collect();
            let best = if maximize { values.iter().max() } else { values.iter().min() }.copied();
            (model, best)
        };
        let learning = [
            SolveConfig::default().with_search(Search::Learning),
            SolveConfig::default().with_search(Search::Learning).with_restarts(Restarts::Luby { scale: 1 }),
            SolveConfig::default().with_search(Search::Learning).with_var_order(VarOrder::Vsids).with_value_order(ValueOrder::Phase),
        ];
        let configs = interval_configs().into_iter().chain(learning).flat_map(|c| [c.clone(), c.with_bitset_limit(2)]);
        for config in configs.filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solver.bisect_after_steps(1);
            if config.learning() {
                solver.check_nogoods(true);
            }
            let mut last: Option<i64> = None;
            for improvement in solver.improvements() {
                prop_assert!(model.is_solution(improvement.solution.values()), "{config:?}");
                if let Some(last) = last {
                    prop_assert!(if maximize { improvement.objective > last } else { improvement.objective < last }, "{config:?} did not improve");
                }
                last = Some(improvement.objective);
            }
            prop_assert_eq!(solver.status(), Status::Complete, "{:?}", config);
            prop_assert_eq!(last, best, "{:?}", config);
        }
    }
}

/// The model of `csp` with a weighted sum of its first small variables
/// (weights `objective`) to minimise or maximise, and the brute-force
/// optimum (`None` if there is no solution); `None` if the objective is
/// refused because its values pass the value range (tested elsewhere).
fn with_weighted_objective(csp: &RandomCsp, objective: &[i64], maximize: bool) -> Option<(Model, Option<i64>)> {
    let mut model = build(csp);
    let vars: Vec<VarId> = model.vars().collect();
    let terms: Vec<(i64, VarId)> = objective.iter().zip(&vars[..csp.domains.len()]).map(|(&a, &x)| (a, x)).collect();
    // In i128: a term may pass i64 (3 * 2^62) while the sum fits.
    let value_of = |values: &[i64]| -> i64 {
        let sum = terms.iter().map(|&(a, x)| i128::from(a) * i128::from(values[x.index()])).sum::<i128>();
        i64::try_from(sum).expect("a posted objective's values fit the value range")
    };
    let expression: LinearExpr = terms.iter().map(|&(a, x)| a * x).sum();
    let posted = if maximize { model.maximize(expression) } else { model.minimize(expression) };
    posted.ok()?;
    let objectives: Vec<i64> = brute_force(csp, &build(csp)).iter().map(|v| value_of(v)).collect();
    let best = if maximize { objectives.iter().max() } else { objectives.iter().min() }.copied();
    Some((model, best))
}

/// A random search plan: phases of variable indices (taken modulo the
/// model's number of variables, repeats allowed) with a variable and a value
/// ordering each, as indices into `VarOrder::ALL` and `ValueOrder::ALL`.
type Plan = Vec<(Vec<usize>, usize, usize)>;

fn random_plan() -> impl Strategy<Value = Plan> {
    let phase = (prop::collection::vec(0usize..16, 0..=4), 0..VarOrder::ALL.len(), 0..ValueOrder::ALL.len());
    prop::collection::vec(phase, 1..=3)
}

fn phases(model: &Model, plan: &Plan) -> Vec<SearchPhase> {
    let vars: Vec<VarId> = model.vars().collect();
    if vars.is_empty() {
        return Vec::new();
    }
    plan.iter()
        .map(|(indices, var_order, value_order)| {
            let chosen: Vec<VarId> = indices.iter().map(|&i| vars[i % vars.len()]).collect();
            SearchPhase::new(&chosen, VarOrder::ALL[*var_order], ValueOrder::ALL[*value_order])
        })
        .collect()
}

/// The configurations a search plan is tried under: every level, both
/// branchings, restarts, every backjumping, and search that learns (with
/// and without restarts); each with the default bitset limit and with every
/// range an interval. The variables the plan leaves are decided by dom/wdeg.
fn plan_configs(phases: &[SearchPhase]) -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for branching in [Branching::Enumerate, Branching::Binary] {
            let config = SolveConfig::default().with_search(Search::Chronological { propagation, branching });
            configs.push(config.clone().with_restarts(Restarts::Luby { scale: 1 }));
            configs.push(config);
        }
        for backjumping in Backjumping::ALL.iter().filter(|b| b.propagation() == propagation) {
            configs.push(SolveConfig::default().with_search(Search::Backjumping(*backjumping)));
        }
    }
    configs.push(SolveConfig::default().with_search(Search::Learning));
    configs.push(SolveConfig::default().with_search(Search::Learning).with_restarts(Restarts::Luby { scale: 1 }));
    configs.push(SolveConfig::default().with_probing(Probing::Singleton));
    configs.push(SolveConfig::default().with_probing(Probing::Bivalue).with_branching(Branching::Binary));
    let mut cheap = SolveConfig::default().with_probing(Probing::Singleton);
    (cheap.cheap_probes, cheap.touched_probes) = (true, true);
    configs.push(cheap);
    for config in &mut configs {
        config.root_arc_consistency = config.propagation() == Propagation::None;
        config.var_order = VarOrder::DomWdeg;
        config.seed = 9;
        config.phases = phases.to_vec();
    }
    configs.iter().flat_map(|c| [c.clone(), c.clone().with_bitset_limit(2)]).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(200) as u32, ..ProptestConfig::default() })]

    /// Whatever the plan, the search finds exactly the brute-force solutions.
    #[test]
    fn every_search_plan_finds_exactly_the_brute_force_solutions(csp in random_wide_csp(), plan in random_plan()) {
        let model = build(&csp);
        let expected = brute_force(&csp, &model);
        for config in plan_configs(&phases(&model, &plan)).into_iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            if config.learning() {
                solver.check_nogoods(true);
            }
            let found = enumerate(&model, &mut solver, &config)?;
            prop_assert_eq!(&found, &expected, "{:?}", config);
        }
    }

    /// Whatever the plan, branch and bound finds the brute-force optimum.
    #[test]
    fn branch_and_bound_under_every_search_plan_finds_the_brute_force_optimum(
        csp in random_wide_csp(),
        plan in random_plan(),
        objective in prop::collection::vec(-3i64..=3, 1..=3),
        maximize in any::<bool>(),
    ) {
        let Some((model, best)) = with_weighted_objective(&csp, &objective, maximize) else {
            return Ok(());
        };
        for config in plan_configs(&phases(&model, &plan)).into_iter().filter(|c| searchable(&model, c)) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            match solver.optimize() {
                OptimizationOutcome::Optimal { objective, solution } => {
                    prop_assert!(model.is_solution(solution.values()), "{:?}", config);
                    prop_assert_eq!(Some(objective), best, "{:?}", config);
                }
                OptimizationOutcome::Unsatisfiable => prop_assert_eq!(best, None, "{:?}", config),
                other => prop_assert!(false, "{config:?}: {other:?}"),
            }
        }
    }
}
