//! The global constraints against brute force (the soundness harness):
//! element, the counting family, the negative table and regular, domain
//! consistent where they claim it, sound everywhere, with repeated variables
//! and at the ends of the value range.

use csp::testing::{Failure, Harness, Strength};
use csp::{Domain, MAX_VALUE, Model, ModelError, VarId};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

/// Posts the constraint under test on the harness's variables.
type Post = fn(&mut Model, &[VarId]) -> Result<(), ModelError>;

/// Values at the ends of the range, and a few in between.
fn edges() -> Domain {
    Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, MAX_VALUE - 1, MAX_VALUE])
}

// ---- element ----

#[test]
fn element_of_constants_is_domain_consistent() {
    let array = [3, -1, 3, 0, 7, 2];
    for first in [0i64, 1, -2] {
        let harness = Harness::new(2, -3..=7).cases(500).seed(first.unsigned_abs());
        assert_holds(
            "element",
            harness.check(Strength::DomainConsistent, |m, v| m.element(v[0], &array, v[1], first).map(drop)),
        );
    }
    // The index is the value: entries equal to their index.
    let harness = Harness::new(1, -3..=7).cases(300);
    assert_holds(
        "element(x, array, x)",
        harness.check(Strength::DomainConsistent, |m, v| m.element(v[0], &[5, 1, 2, 0, 4], v[0], 0).map(drop)),
    );
    let big = [MAX_VALUE, -MAX_VALUE, 0, 1];
    let harness = Harness::new(2, edges()).cases(300);
    assert_holds(
        "element at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.element(v[0], &big, v[1], -1).map(drop)),
    );
    let harness = Harness::new(2, edges()).cases(300);
    assert_holds(
        "element indexed from -2^62",
        harness.check(Strength::DomainConsistent, |m, v| m.element(v[0], &big, v[1], -MAX_VALUE).map(drop)),
    );
}

#[test]
fn element_of_variables_is_domain_consistent() {
    for len in 1..=4 {
        for first in [0, 1] {
            let harness = Harness::new(len + 2, -1..=3).cases(400).seed(len as u64 * 7 + first as u64);
            assert_holds(
                "element_var",
                harness.check(Strength::DomainConsistent, |m, v| m.element_var(v[0], &v[2..], v[1], first).map(drop)),
            );
        }
    }
    let harness = Harness::new(4, edges()).cases(300).seed(3);
    assert_holds(
        "element_var at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.element_var(v[0], &v[2..], v[1], 0).map(drop)),
    );
}

#[test]
fn element_of_variables_with_repeated_variables_is_sound() {
    let harness = Harness::new(3, 0..=3).cases(500).seed(8);
    let cases: [(&str, Post); 4] = [
        ("the index in the array", |m, v| m.element_var(v[0], &[v[1], v[0], v[2]], v[2], 0).map(drop)),
        ("the value in the array", |m, v| m.element_var(v[0], &[v[1], v[2], v[1]], v[1], 1).map(drop)),
        ("a repeated entry", |m, v| m.element_var(v[0], &[v[1], v[1], v[2]], v[2], 0).map(drop)),
        ("the index as the value", |m, v| m.element_var(v[0], &[v[1], v[2], v[1]], v[0], 0).map(drop)),
    ];
    for (name, post) in cases {
        assert_holds(name, harness.check(Strength::Sound, post));
    }
}

#[test]
fn element_arguments_are_checked() {
    let mut model = Model::new();
    let i = model.new_var(0..=3).unwrap();
    let z = model.new_var(0..=3).unwrap();
    assert!(matches!(model.element(i, &[], z, 0), Err(ModelError::InvalidArgument { .. })));
    assert!(matches!(model.element(i, &[1, i64::MAX], z, 0), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.element(i, &[1, 2], z, MAX_VALUE), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.element_var(i, &[], z, 1), Err(ModelError::InvalidArgument { .. })));
}

// ---- counting ----

#[test]
fn count_is_domain_consistent() {
    for arity in 3..=5 {
        let harness = Harness::new(arity, 0..=3).cases(500).seed(arity as u64);
        let n = arity - 2;
        assert_holds(
            "count",
            harness.check(Strength::DomainConsistent, move |m, v| m.count(&v[..n], v[n], v[n + 1]).map(drop)),
        );
    }
    let harness = Harness::new(4, Domain::values([-MAX_VALUE, 0, 1, 2, MAX_VALUE])).cases(400).seed(12);
    assert_holds(
        "count at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.count(&v[..2], v[2], v[3]).map(drop)),
    );
}

#[test]
fn among_and_its_constant_forms_are_domain_consistent() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, -1..=3).cases(500).seed(40 + arity as u64);
        let n = arity - 1;
        assert_holds(
            "among",
            harness.check(Strength::DomainConsistent, move |m, v| m.among(v[n], &v[..n], &[0, 2, 3]).map(drop)),
        );
        for k in [0, 1, 2] {
            assert_holds("at_least", harness.check(Strength::DomainConsistent, |m, v| m.at_least(k, v, 1).map(drop)));
            assert_holds("at_most", harness.check(Strength::DomainConsistent, |m, v| m.at_most(k, v, 1).map(drop)));
            assert_holds("exactly", harness.check(Strength::DomainConsistent, |m, v| m.exactly(k, v, 2).map(drop)));
        }
    }
    let harness = Harness::new(4, edges()).cases(300).seed(9);
    assert_holds(
        "among at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.among(v[3], &v[..3], &[-MAX_VALUE, MAX_VALUE]).map(drop)),
    );
}

#[test]
fn global_cardinality_is_sound_and_checks_its_cover() {
    for arity in 3..=5 {
        let harness = Harness::new(arity, 0..=3).cases(500).seed(60 + arity as u64);
        let n = arity - 2;
        for closed in [false, true] {
            assert_holds(
                "global_cardinality",
                harness.check(Strength::Sound, move |m, v| {
                    if closed {
                        m.global_cardinality_closed(&v[..n], &[1, 2], &v[n..]).map(drop)
                    } else {
                        m.global_cardinality(&v[..n], &[1, 2], &v[n..]).map(drop)
                    }
                }),
            );
        }
        let harness = Harness::new(arity, 0..=3).cases(500).seed(70 + arity as u64);
        assert_holds(
            "global_cardinality_low_up",
            harness.check(Strength::Sound, |m, v| {
                m.global_cardinality_low_up(v, &[0, 1, 3], &[1, 0, 0], &[2, 1, 1]).map(drop)
            }),
        );
        assert_holds(
            "global_cardinality_low_up_closed",
            harness.check(Strength::Sound, |m, v| {
                m.global_cardinality_low_up_closed(v, &[0, 1, 3], &[0, 1, 0], &[2, 2, 1]).map(drop)
            }),
        );
    }
    // One value's count alone is among with one value: domain consistent.
    let harness = Harness::new(4, 0..=3).cases(400).seed(80);
    assert_holds(
        "global_cardinality of one value",
        harness.check(Strength::DomainConsistent, |m, v| m.global_cardinality(&v[..3], &[2], &v[3..]).map(drop)),
    );
    let mut model = Model::new();
    let xs = model.new_vars(3, 0..=3).unwrap();
    let counts = model.new_vars(2, 0..=3).unwrap();
    assert!(matches!(model.global_cardinality(&xs, &[1, 1], &counts), Err(ModelError::InvalidArgument { .. })));
    assert!(matches!(model.global_cardinality(&xs, &[1, 2, 3], &counts), Err(ModelError::InvalidArgument { .. })));
    assert!(matches!(model.global_cardinality_low_up(&xs, &[1], &[0], &[]), Err(ModelError::InvalidArgument { .. })));
    assert!(matches!(
        model.global_cardinality_low_up(&xs, &[i64::MAX], &[0], &[1]),
        Err(ModelError::ValueOutOfRange { .. })
    ));
}

#[test]
fn nvalue_is_sound() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, 0..=3).cases(500).seed(90 + arity as u64);
        assert_holds("nvalue", harness.check(Strength::Sound, |m, v| m.nvalue(v[0], &v[1..]).map(drop)));
    }
    let harness = Harness::new(3, edges()).cases(300).seed(5);
    assert_holds("nvalue at the edges", harness.check(Strength::Sound, |m, v| m.nvalue(v[0], &v[1..]).map(drop)));
}

#[test]
fn counting_with_repeated_variables_is_sound() {
    let harness = Harness::new(3, 0..=2).cases(500).seed(14);
    let cases: [(&str, Post); 6] = [
        ("count with c among the xs", |m, v| m.count(&[v[0], v[1], v[2]], v[1], v[2]).map(drop)),
        ("count with a repeated x", |m, v| m.count(&[v[0], v[0], v[1]], v[1], v[2]).map(drop)),
        ("among with the count among the xs", |m, v| m.among(v[0], &[v[0], v[1], v[2]], &[1, 2]).map(drop)),
        ("at_least with a repeated x", |m, v| m.at_least(2, &[v[0], v[0], v[1]], 1).map(drop)),
        ("global_cardinality with a count among the xs", |m, v| {
            m.global_cardinality(&[v[0], v[1]], &[1, 2], &[v[0], v[2]]).map(drop)
        }),
        ("nvalue with n among the xs", |m, v| m.nvalue(v[0], &[v[0], v[1], v[2]]).map(drop)),
    ];
    for (name, post) in cases {
        assert_holds(name, harness.check(Strength::Sound, post));
    }
}
