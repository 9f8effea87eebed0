//! The order constraints on vectors: `lex_less`, `lex_lesseq`, `increasing`,
//! `decreasing` and the strict forms, against brute force with the soundness
//! harness (they claim domain consistency), on small values and at the edges
//! of the value range.

use csp::testing::{Failure, Harness, Strength};
use csp::{Domain, MAX_VALUE, Model, ModelError, SolveConfig, Solver};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

/// Values at both ends of the range and around 0.
fn wide_values() -> Domain {
    Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, MAX_VALUE - 1, MAX_VALUE])
}

#[test]
fn lex_is_domain_consistent_on_vectors_of_any_lengths() {
    for x_len in 0..=3usize {
        for y_len in 0..=3usize {
            if x_len + y_len == 0 {
                continue;
            }
            let seed = (x_len * 4 + y_len) as u64;
            for values in [Domain::range(0, 2), Domain::range(-1, 1), wide_values()] {
                let harness = Harness::new(x_len + y_len, values).cases(300).seed(seed);
                assert_holds(
                    "lex_less",
                    harness.check(Strength::DomainConsistent, |m, v| m.lex_less(&v[..x_len], &v[x_len..]).map(drop)),
                );
                assert_holds(
                    "lex_lesseq",
                    harness.check(Strength::DomainConsistent, |m, v| m.lex_lesseq(&v[..x_len], &v[x_len..]).map(drop)),
                );
            }
        }
    }
}

#[test]
fn lex_on_booleans_is_domain_consistent() {
    let harness = Harness::new(8, 0..=1).cases(400).seed(8);
    assert_holds(
        "lex_less on 0/1",
        harness.check(Strength::DomainConsistent, |m, v| m.lex_less(&v[..4], &v[4..]).map(drop)),
    );
    assert_holds(
        "lex_lesseq on 0/1",
        harness.check(Strength::DomainConsistent, |m, v| m.lex_lesseq(&v[..4], &v[4..]).map(drop)),
    );
}

#[test]
fn lex_with_shared_variables_is_sound() {
    // x = (a, b, c) and y = (b, c, a): the same variables in both vectors.
    let harness = Harness::new(3, 0..=2).cases(300).seed(3);
    for strict in [false, true] {
        assert_holds(
            "lex with shared variables",
            harness.check(Strength::Sound, |m, v| {
                let (x, y) = (&[v[0], v[1], v[2]], &[v[1], v[2], v[0]]);
                if strict { m.lex_less(x, y) } else { m.lex_lesseq(x, y) }.map(drop)
            }),
        );
    }
    // A vector against itself: always equal.
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=1).unwrap();
    model.lex_lesseq(&x, &x).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 8);
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=1).unwrap();
    model.lex_less(&x, &x).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 0);
}

#[test]
fn lex_orders_like_slices() {
    // Of the pairs of 3-digit vectors over 0..=2, half of those not equal are
    // strictly ordered: (27 * 27 - 27) / 2.
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=2).unwrap();
    let y = model.new_vars(3, 0..=2).unwrap();
    model.lex_less(&x, &y).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, (27 * 27 - 27) / 2);
    for solution in Solver::new(&model, SolveConfig::default()).unwrap().solutions() {
        let values = solution.values();
        assert!(values[..3] < values[3..], "{values:?}");
    }
}

#[test]
fn increasing_is_domain_consistent() {
    for n in 1..=4usize {
        for values in [Domain::range(-2, 3), Domain::values([-5, -2, 0, 1, 4, 9]), wide_values()] {
            let harness = Harness::new(n, values).cases(400).seed(n as u64 + 20);
            assert_holds("increasing", harness.check(Strength::DomainConsistent, |m, v| m.increasing(v).map(drop)));
            assert_holds(
                "strictly_increasing",
                harness.check(Strength::DomainConsistent, |m, v| m.strictly_increasing(v).map(drop)),
            );
            assert_holds("decreasing", harness.check(Strength::DomainConsistent, |m, v| m.decreasing(v).map(drop)));
            assert_holds(
                "strictly_decreasing",
                harness.check(Strength::DomainConsistent, |m, v| m.strictly_decreasing(v).map(drop)),
            );
        }
    }
}

#[test]
fn increasing_with_a_repeated_variable_is_sound() {
    let harness = Harness::new(2, 0..=4).cases(300).seed(5);
    assert_holds(
        "increasing (x, y, x)",
        harness.check(Strength::Sound, |m, v| m.increasing(&[v[0], v[1], v[0]]).map(drop)),
    );
    // x < y < x has no solution.
    let mut model = Model::new();
    let x = model.new_var(0..=100).unwrap();
    let y = model.new_var(0..=100).unwrap();
    model.strictly_increasing(&[x, y, x]).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 0);
}

#[test]
fn monotone_sequences_are_counted() {
    // Non-decreasing sequences of length 4 over 5 values: C(5 + 4 - 1, 4) = 70;
    // strictly increasing ones: C(5, 4) = 5.
    let count = |strict: bool, decreasing: bool| {
        let mut model = Model::new();
        let x = model.new_vars(4, 1..=5).unwrap();
        match (strict, decreasing) {
            (false, false) => model.increasing(&x),
            (true, false) => model.strictly_increasing(&x),
            (false, true) => model.decreasing(&x),
            (true, true) => model.strictly_decreasing(&x),
        }
        .unwrap();
        Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions
    };
    assert_eq!((count(false, false), count(true, false), count(false, true), count(true, true)), (70, 5, 70, 5));
}

#[test]
fn bad_order_arguments_are_typed_errors() {
    let mut model = Model::new();
    assert!(matches!(model.lex_less(&[], &[]), Err(ModelError::EmptyScope { .. })));
    assert!(matches!(model.increasing(&[]), Err(ModelError::EmptyScope { .. })));
    let mut other = Model::new();
    let y = other.new_var(0..=2).unwrap();
    let x = model.new_var(0..=2).unwrap();
    assert!(matches!(model.lex_lesseq(&[x], &[y]), Err(ModelError::ForeignVariable { position: 1, .. })));
}

/// Every range an interval (bitset limit 0): the harness's random ranges
/// become intervals (kept as their bounds), the others stay bitsets.
fn intervals() -> SolveConfig {
    SolveConfig::default().with_bitset_limit(0)
}

/// Both propagators move bounds only, so over interval domains (which keep
/// no holes) domain consistency is bounds consistency.
#[test]
fn lex_and_increasing_are_bounds_consistent_on_interval_domains() {
    for (x_len, y_len) in [(1, 1), (2, 2), (3, 2), (2, 3)] {
        for values in [Domain::range(0, 2), Domain::range(-2, 2)] {
            let harness =
                Harness::new(x_len + y_len, values).cases(300).seed(x_len as u64 * 5 + 60).config(intervals());
            assert_holds(
                "lex_less over intervals",
                harness.check(Strength::BoundsConsistent, |m, v| m.lex_less(&v[..x_len], &v[x_len..]).map(drop)),
            );
            assert_holds(
                "lex_lesseq over intervals",
                harness.check(Strength::BoundsConsistent, |m, v| m.lex_lesseq(&v[..x_len], &v[x_len..]).map(drop)),
            );
        }
    }
    for n in 1..=4usize {
        let harness = Harness::new(n, -2..=3).cases(300).seed(n as u64 + 70).config(intervals());
        assert_holds(
            "increasing over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.increasing(v).map(drop)),
        );
        assert_holds(
            "strictly_decreasing over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.strictly_decreasing(v).map(drop)),
        );
    }
    let edges = [Domain::range(MAX_VALUE - 3, MAX_VALUE), Domain::range(MAX_VALUE - 2, MAX_VALUE)];
    let harness =
        Harness::with_domains([edges[0].clone(), edges[1].clone(), edges[0].clone()]).cases(200).config(intervals());
    assert_holds(
        "strictly_increasing over intervals at the edge",
        harness.check(Strength::BoundsConsistent, |m, v| m.strictly_increasing(v).map(drop)),
    );
}
