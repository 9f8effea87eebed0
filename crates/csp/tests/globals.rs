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
