//! The arithmetic constraints against brute force: domain consistent on small
//! domains (the default strength), sound with bounds propagation only, with
//! repeated variables, and at the ends of the value range.

use csp::constraints::Arithmetic;
use csp::testing::{Failure, Harness, Strength};
use csp::{ArithmeticStrength, Domain, MAX_VALUE, Model, ModelError, VarId};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

type Post = fn(&mut Model, &[VarId]) -> Result<(), ModelError>;

/// Each binary operation, posted on `[x, y, z]` through the model.
const BINARY: [(&str, Post); 4] = [
    ("times", |m, v| m.times(v[0], v[1], v[2]).map(drop)),
    ("div", |m, v| m.div(v[0], v[1], v[2]).map(drop)),
    ("mod", |m, v| m.modulo(v[0], v[1], v[2]).map(drop)),
    ("pow", |m, v| m.pow(v[0], v[1], v[2]).map(drop)),
];

/// The same operations, propagated by interval reasoning only.
const BINARY_BOUNDS: [(&str, Post); 4] = [
    ("times (bounds)", |m, v| {
        m.post(Arithmetic::times(v[0], v[1], v[2]).with_strength(ArithmeticStrength::Bounds)).map(drop)
    }),
    ("div (bounds)", |m, v| {
        m.post(Arithmetic::div(v[0], v[1], v[2]).with_strength(ArithmeticStrength::Bounds)).map(drop)
    }),
    ("mod (bounds)", |m, v| {
        m.post(Arithmetic::modulo(v[0], v[1], v[2]).with_strength(ArithmeticStrength::Bounds)).map(drop)
    }),
    ("pow (bounds)", |m, v| {
        m.post(Arithmetic::pow(v[0], v[1], v[2]).with_strength(ArithmeticStrength::Bounds)).map(drop)
    }),
];

fn unary(exponent: i64, bounds: bool) -> impl Fn(&mut Model, &[VarId]) -> Result<(), ModelError> {
    move |m, v| {
        let constraint = if exponent == i64::MIN {
            Arithmetic::abs(v[0], v[1])
        } else {
            Arithmetic::pow_constant(v[0], exponent, v[1])
        };
        let strength = if bounds { ArithmeticStrength::Bounds } else { ArithmeticStrength::Domain };
        m.post(constraint.with_strength(strength)).map(drop)
    }
}

#[test]
fn binary_operations_are_domain_consistent_on_small_domains() {
    for (name, post) in BINARY {
        let harness = Harness::new(3, -4..=5).cases(500).seed(name.len() as u64);
        assert_holds(name, harness.check(Strength::DomainConsistent, post));
        let harness = Harness::new(3, Domain::values([-9, -4, -1, 0, 1, 2, 3, 8, 16])).cases(300).seed(7);
        assert_holds(name, harness.check(Strength::DomainConsistent, post));
    }
}

#[test]
fn binary_operations_are_sound_with_bounds_propagation() {
    for (name, post) in BINARY_BOUNDS {
        let harness = Harness::new(3, -6..=7).cases(600).seed(name.len() as u64 + 3);
        assert_holds(name, harness.check(Strength::Sound, post));
        let harness = Harness::new(3, Domain::values([-12, -5, -2, -1, 0, 1, 3, 4, 9, 27])).cases(400).seed(5);
        assert_holds(name, harness.check(Strength::Sound, post));
    }
}

#[test]
fn unary_operations_are_domain_consistent() {
    for exponent in [i64::MIN, -3, -2, -1, 0, 1, 2, 3, 4] {
        let harness = Harness::new(2, -5..=9).cases(400).seed(exponent.unsigned_abs() % 97);
        assert_holds(&format!("pow {exponent}"), harness.check(Strength::DomainConsistent, unary(exponent, false)));
        assert_holds(&format!("pow {exponent} (bounds)"), harness.check(Strength::Sound, unary(exponent, true)));
    }
}

/// Negative powers and `abs` are domain consistent without enumerating, and
/// the other bounds rules are exact on intervals where a test can say so.
#[test]
fn bounds_propagation_is_domain_consistent_where_it_claims_to_be() {
    for exponent in [-1, -2, -3] {
        let harness = Harness::new(2, -4..=4).cases(400).seed(11);
        assert_holds(
            &format!("pow {exponent} (bounds)"),
            harness.check(Strength::DomainConsistent, unary(exponent, true)),
        );
    }
}

#[test]
fn repeated_variables_take_one_value() {
    let harness = Harness::new(2, -4..=6).cases(400).seed(2);
    for (name, post) in BINARY.into_iter().chain(BINARY_BOUNDS) {
        // x op x = z, x op y = x, x op y = y.
        let square = move |m: &mut Model, v: &[VarId]| post(m, &[v[0], v[0], v[1]]);
        let left = move |m: &mut Model, v: &[VarId]| post(m, &[v[0], v[1], v[0]]);
        let right = move |m: &mut Model, v: &[VarId]| post(m, &[v[0], v[1], v[1]]);
        let strength = if name.contains("bounds") { Strength::Sound } else { Strength::DomainConsistent };
        assert_holds(&format!("{name} on x, x, z"), harness.check(strength, square));
        assert_holds(&format!("{name} on x, y, x"), harness.check(strength, left));
        assert_holds(&format!("{name} on x, y, y"), harness.check(strength, right));
    }
    let harness = Harness::new(1, -4..=6).cases(200).seed(4);
    assert_holds("x * x = x", harness.check(Strength::DomainConsistent, |m, v| m.times(v[0], v[0], v[0]).map(drop)));
    assert_holds("|x| = x", harness.check(Strength::DomainConsistent, |m, v| m.abs(v[0], v[0]).map(drop)));
}

/// Values at the ends of the range: products up to 2^124, quotients of 2^62,
/// powers that leave the range.
#[test]
fn the_ends_of_the_value_range_do_not_overflow() {
    let edge =
        Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -(1 << 31), -2, -1, 0, 1, 2, 1 << 31, MAX_VALUE - 1, MAX_VALUE]);
    for (name, post) in BINARY.into_iter().chain(BINARY_BOUNDS) {
        let harness = Harness::new(3, edge.clone()).cases(300).seed(13);
        let strength = if name.contains("bounds") { Strength::Sound } else { Strength::DomainConsistent };
        assert_holds(&format!("{name} at the edges"), harness.check(strength, post));
    }
    for exponent in [i64::MIN, -1, 2, 3, 62] {
        let harness = Harness::new(2, edge.clone()).cases(200).seed(17);
        assert_holds(
            &format!("pow {exponent} at the edges"),
            harness.check(Strength::DomainConsistent, unary(exponent, false)),
        );
        assert_holds(
            &format!("pow {exponent} (bounds) at the edges"),
            harness.check(Strength::Sound, unary(exponent, true)),
        );
    }
}

/// Bounds propagation over wide domains narrows as interval arithmetic says,
/// without enumerating (the domains have a million values).
#[test]
fn wide_domains_are_narrowed_by_interval_reasoning() {
    let mut model = Model::new();
    let x = model.new_var(-1_000_000..=1_000_000).unwrap();
    let y = model.new_var(3..=1_000_000).unwrap();
    let z = model.new_var(10..=20).unwrap();
    model.times(x, y, z).unwrap();
    let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
    let domains = solver.root_domains().expect("consistent");
    // x = z / y is in 10/1_000_000 ..= 20/3, so 1..=6; then y <= 20.
    assert_eq!((domains[x.index()].min(), domains[x.index()].max()), (Some(1), Some(6)));
    assert_eq!(domains[y.index()].max(), Some(20));

    // x^2 in 50..=99: |x| in 8..=9. Over a million values x is an interval
    // (wider than the bitset limit), which keeps no holes: its bounds are
    // exact. As a bitset (a higher limit), the 19 values left after the
    // interval reasoning are few enough to enumerate, and the holes go too.
    let mut model = Model::new();
    let x = model.new_var(-1_000_000..=1_000_000).unwrap();
    let z = model.new_var(50..=99).unwrap();
    model.pow_constant(x, 2, z).unwrap();
    for (bitset_limit, expected) in [(1 << 16, (-9..=9).collect::<Vec<i64>>()), (1 << 21, vec![-9, -8, 8, 9])] {
        let config = csp::SolveConfig::default().with_bitset_limit(bitset_limit);
        let mut solver = csp::Solver::new(&model, config).unwrap();
        let domains = solver.root_domains().expect("consistent");
        let left: Vec<i64> = domains[x.index()].iter().collect();
        assert_eq!(left, expected, "bitset limit {bitset_limit}");
    }

    // x / y = 3: |y| <= 10^6 / 3 drops y = -10^6, then x is 6..=11 (6 / 2 up to 11 / 3).
    let mut model = Model::new();
    let x = model.new_var(-1_000_000..=1_000_000).unwrap();
    let y = model.new_var(vec![-1_000_000, 2, 3]).unwrap();
    let z = model.new_var(3..=3).unwrap();
    model.post(Arithmetic::div(x, y, z).with_strength(ArithmeticStrength::Bounds)).unwrap();
    let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
    let domains = solver.root_domains().expect("consistent");
    assert_eq!((domains[x.index()].min(), domains[x.index()].max()), (Some(6), Some(11)));
    assert_eq!(domains[y.index()].iter().collect::<Vec<_>>(), vec![2, 3]);
}

/// `x * x = z` with `x` over the whole value range: the square's root bounds
/// `x` at once. With the two factors narrowed apart by quotients, each step
/// moved a bound a little (millions of propagations at the root for
/// `z = 2^62`, found by fzn-csp on `int_times(x, x, y)`).
#[test]
fn a_square_by_times_is_narrowed_by_its_root() {
    let mut model = Model::new();
    let x = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    let z = model.new_var(MAX_VALUE..=MAX_VALUE).unwrap();
    model.times(x, x, z).unwrap();
    let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
    let domains = solver.root_domains().expect("consistent");
    assert_eq!((domains[x.index()].min(), domains[x.index()].max()), (Some(-(1 << 31)), Some(1 << 31)));
    assert!(solver.stats().propagations < 100, "{} propagations", solver.stats().propagations);
    let solution = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap().solve().into_solution();
    assert_eq!(solution.map(|s| s.values()[x.index()].abs()), Some(1 << 31));
}

/// `2 ^ y = 2^62` with `y` over the whole value range: a base of magnitude
/// at least 2 bounds the exponent by the result's magnitude (the search
/// alone had 2^63 exponents to try).
#[test]
fn a_variable_exponent_is_bounded_by_the_result() {
    let mut model = Model::new();
    let x = model.new_var(2..=3).unwrap();
    let y = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    let z = model.new_var(MAX_VALUE..=MAX_VALUE).unwrap();
    model.pow(x, y, z).unwrap();
    let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
    let domains = solver.root_domains().expect("consistent");
    assert!(domains[y.index()].min() >= Some(0) && domains[y.index()].max() <= Some(62), "{:?}", domains[y.index()]);
    let solution = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap().solve().into_solution();
    assert_eq!(solution.map(|s| (s.values()[x.index()], s.values()[y.index()])), Some((2, 62)));
    // A result that may be 0 keeps the negative exponents (`2 ^ -5 = 0`).
    let mut model = Model::new();
    let x = model.new_var(vec![-3, 2]).unwrap();
    let y = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    let z = model.new_var(-8..=100).unwrap();
    model.pow(x, y, z).unwrap();
    let mut solver = csp::Solver::new(&model, csp::SolveConfig::default()).unwrap();
    let domains = solver.root_domains().expect("consistent");
    assert_eq!((domains[y.index()].min(), domains[y.index()].max()), (Some(-MAX_VALUE), Some(6)));
}

#[test]
fn minimum_and_maximum_are_domain_consistent() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, Domain::values([-3, -1, 0, 2, 3, 5])).cases(500).seed(arity as u64);
        assert_holds("minimum", harness.check(Strength::DomainConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)));
        assert_holds("maximum", harness.check(Strength::DomainConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)));
        let harness = Harness::new(arity, -2..=3).cases(400).seed(20 + arity as u64);
        assert_holds("minimum", harness.check(Strength::DomainConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)));
        assert_holds("maximum", harness.check(Strength::DomainConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)));
    }
    // Wider domains, whose values the scans search among m's by steps.
    let wide = Domain::values([-40, -17, -9, -3, -1, 0, 2, 3, 5, 11, 26, 39]);
    let harness = Harness::new(3, wide).cases(300).seed(9);
    assert_holds("minimum", harness.check(Strength::DomainConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)));
    assert_holds("maximum", harness.check(Strength::DomainConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)));
    let edge = Domain::values([-MAX_VALUE, -MAX_VALUE + 1, 0, MAX_VALUE - 1, MAX_VALUE]);
    let harness = Harness::new(4, edge).cases(300).seed(3);
    assert_holds(
        "minimum at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)),
    );
    assert_holds(
        "maximum at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)),
    );
}

/// Every range an interval (bitset limit 0): the harness's random domains
/// that are ranges become intervals, the others stay bitsets.
fn intervals() -> csp::SolveConfig {
    csp::SolveConfig::default().with_bitset_limit(0)
}

/// Over interval domains the support enumeration moves bounds (an interval
/// keeps no holes), so the default strength is bounds consistent there;
/// interval reasoning alone is sound.
#[test]
fn arithmetic_is_bounds_consistent_on_interval_domains() {
    for (name, post) in BINARY {
        let harness = Harness::new(3, -4..=5).cases(400).seed(name.len() as u64 + 20).config(intervals());
        assert_holds(&format!("{name} over intervals"), harness.check(Strength::BoundsConsistent, post));
    }
    for (name, post) in BINARY_BOUNDS {
        let harness = Harness::new(3, -6..=7).cases(400).seed(name.len() as u64 + 21).config(intervals());
        assert_holds(&format!("{name} over intervals"), harness.check(Strength::Sound, post));
    }
    for exponent in [i64::MIN, -2, -1, 0, 2, 3] {
        let harness = Harness::new(2, -5..=9).cases(300).seed(exponent.unsigned_abs() % 89).config(intervals());
        assert_holds(
            &format!("pow {exponent} over intervals"),
            harness.check(Strength::BoundsConsistent, unary(exponent, false)),
        );
        assert_holds(
            &format!("pow {exponent} (bounds) over intervals"),
            harness.check(Strength::Sound, unary(exponent, true)),
        );
    }
    let harness = Harness::new(2, -4..=6).cases(300).seed(2).config(intervals());
    for (name, post) in BINARY.into_iter().chain(BINARY_BOUNDS) {
        let square = move |m: &mut Model, v: &[VarId]| post(m, &[v[0], v[0], v[1]]);
        assert_holds(&format!("{name} on x, x, z over intervals"), harness.check(Strength::Sound, square));
    }
    // Intervals at the ends of the range: products near 2^124.
    let edges =
        [Domain::range(MAX_VALUE - 3, MAX_VALUE), Domain::range(-MAX_VALUE, -MAX_VALUE + 3), Domain::range(-2, 2)];
    for (name, post) in BINARY.into_iter().chain(BINARY_BOUNDS) {
        let harness = Harness::with_domains(edges.clone()).cases(200).seed(23).config(intervals());
        assert_holds(&format!("{name} over intervals at the edges"), harness.check(Strength::Sound, post));
    }
}

#[test]
fn minimum_and_maximum_are_bounds_consistent_on_interval_domains() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, -2..=3).cases(400).seed(40 + arity as u64).config(intervals());
        assert_holds(
            "minimum over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)),
        );
        assert_holds(
            "maximum over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)),
        );
    }
    let harness = Harness::new(3, -2..=3).cases(400).seed(9).config(intervals());
    assert_holds(
        "m = min(m, x, y) over intervals",
        harness.check(Strength::Sound, |m, v| m.minimum(v[0], v).map(drop)),
    );
    assert_holds(
        "m = max(x, x, y) over intervals",
        harness.check(Strength::Sound, |m, v| m.maximum(v[0], &[v[1], v[1], v[2]]).map(drop)),
    );
    let edges = [Domain::range(MAX_VALUE - 3, MAX_VALUE), Domain::range(-MAX_VALUE, -MAX_VALUE + 3)];
    let harness = Harness::with_domains([edges[0].clone(), edges[1].clone(), edges[0].clone(), edges[1].clone()])
        .cases(200)
        .seed(3)
        .config(intervals());
    assert_holds(
        "maximum over intervals at the edges",
        harness.check(Strength::BoundsConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)),
    );
    assert_holds(
        "minimum over intervals at the edges",
        harness.check(Strength::BoundsConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)),
    );
}

/// Above 4096 values in the scope's domains together the propagator does not
/// scan them: it reasons on bounds, as over intervals (here `m` has a range
/// of 4200 values, with the harness's random holes).
#[test]
fn minimum_and_maximum_are_bounds_consistent_on_large_domains() {
    let domains = [Domain::range(-4100, 100), Domain::range(-2, 3), Domain::range(-3, 2)];
    let harness = Harness::with_domains(domains).cases(40).seed(11);
    assert_holds(
        "minimum over a large domain",
        harness.check(Strength::BoundsConsistent, |m, v| m.minimum(v[0], &v[1..]).map(drop)),
    );
    assert_holds(
        "maximum over a large domain",
        harness.check(Strength::BoundsConsistent, |m, v| m.maximum(v[0], &v[1..]).map(drop)),
    );
}

#[test]
fn minimum_and_maximum_with_repeated_variables_are_sound() {
    let harness = Harness::new(3, -2..=3).cases(400).seed(9);
    // m among the xs: m <= every other x.
    assert_holds("m = min(m, x, y)", harness.check(Strength::Sound, |m, v| m.minimum(v[0], v).map(drop)));
    assert_holds("m = max(x, m)", harness.check(Strength::Sound, |m, v| m.maximum(v[0], &[v[1], v[0]]).map(drop)));
    // A repeated x counts once.
    assert_holds(
        "m = min(x, x, y)",
        harness.check(Strength::DomainConsistent, |m, v| m.minimum(v[0], &[v[1], v[1], v[2]]).map(drop)),
    );
    let mut model = Model::new();
    let m = model.new_var(0..=3).unwrap();
    assert!(matches!(model.minimum(m, &[]), Err(ModelError::InvalidArgument { .. })));
}
