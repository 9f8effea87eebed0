//! The global constraints against brute force (the soundness harness):
//! element, the counting family, the negative table and regular, domain
//! consistent where they claim it, sound everywhere, with repeated variables
//! and at the ends of the value range.

use csp::testing::{Failure, Harness, Strength};
use csp::{Dfa, Domain, MAX_VALUE, Model, ModelError, SolveConfig, Solver, VarId};

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
    // Longer than a dozen entries per index left: the entries left are
    // read in order of value, filtered by the indices left.
    let long: Vec<i64> = (0..40).map(|k| (k * 7 + k / 5) % 9 - 2).collect();
    for first in [0i64, -3] {
        let harness = Harness::with_domains([Domain::range(first - 1, first + 40), Domain::range(-3, 7)]).cases(400);
        assert_holds(
            "element over a long array",
            harness.check(Strength::DomainConsistent, |m, v| m.element(v[0], &long, v[1], first).map(drop)),
        );
    }
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
    // Posted by hand, bypassing the checks: no index has an entry, no solution.
    model.post(csp::constraints::Element::new(i, Vec::new(), z, i64::MIN)).unwrap();
    model.post(csp::constraints::ElementVar::new(i, &[], z, 0)).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 0);
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
        // Counts outside 0..=n are accepted and fail (or hold) at solve time.
        for k in [-1, 0, 1, 2, n as i64, n as i64 + 2] {
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

// ---- negative table ----

#[test]
fn negative_table_is_domain_consistent() {
    let rows =
        vec![vec![1, 2, 3], vec![1, 1, 1], vec![2, 3, 1], vec![3, 3, 3], vec![1, 2, 3], vec![2, 1, 4], vec![1, 2, 4]];
    let harness = Harness::new(3, 1..=4).cases(600).seed(5);
    assert_holds(
        "negative_table",
        harness.check(Strength::DomainConsistent, |m, v| m.negative_table(v, &rows).map(drop)),
    );
    // Tight: all but one tuple of small domains forbidden, so counts reach the products.
    let mut all: Vec<Vec<i64>> = Vec::new();
    for a in 0..=2 {
        for b in 0..=2 {
            if (a, b) != (1, 2) && (a + b) % 3 != 0 {
                all.push(vec![a, b]);
            }
        }
    }
    let harness = Harness::new(2, 0..=2).cases(500).seed(6);
    assert_holds(
        "tight negative_table",
        harness.check(Strength::DomainConsistent, |m, v| m.negative_table(v, &all).map(drop)),
    );
    let edge_rows = vec![vec![MAX_VALUE, -MAX_VALUE], vec![0, 0], vec![MAX_VALUE, MAX_VALUE], vec![-1, MAX_VALUE]];
    let harness = Harness::new(2, edges()).cases(400).seed(7);
    assert_holds(
        "negative_table at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.negative_table(v, &edge_rows).map(drop)),
    );
}

#[test]
fn negative_table_with_repeated_variables_is_sound() {
    let rows = vec![vec![0, 0, 1], vec![1, 1, 0], vec![1, 0, 1], vec![0, 1, 1], vec![2, 2, 2]];
    let harness = Harness::new(2, 0..=2).cases(400).seed(8);
    assert_holds(
        "negative_table on x, x, y",
        harness.check(Strength::Sound, |m, v| m.negative_table(&[v[0], v[0], v[1]], &rows).map(drop)),
    );
    let mut model = Model::new();
    let xs = model.new_vars(2, 0..=2).unwrap();
    assert!(matches!(model.negative_table(&xs, &[vec![1]]), Err(ModelError::TableArity { row: 0, .. })));
}

#[test]
fn table_with_repeated_variables_is_sound() {
    let rows = vec![vec![0, 0, 1], vec![1, 1, 0], vec![1, 0, 1], vec![0, 1, 2], vec![2, 2, 2]];
    let harness = Harness::new(2, 0..=2).cases(400).seed(9);
    assert_holds(
        "table on x, x, y",
        harness.check(Strength::Sound, |m, v| m.table(&[v[0], v[0], v[1]], &rows).map(drop)),
    );
}

/// Across a search, a table keeps its columns' sizes from one call to the
/// next (STR2) and reads only the columns that changed: with a variable in
/// two columns, or in two tables, every strategy still finds exactly the
/// brute-force solutions.
#[test]
fn tables_with_repeated_variables_find_every_solution() {
    let mut rng = csp::rng::Rng::new(csp::testing::seed(4242));
    for case in 0..60 {
        let mut model = Model::new();
        let xs = model.new_vars(4, 0..=3).unwrap();
        for _ in 0..3 {
            let scope: Vec<VarId> = (0..3).map(|_| xs[rng.below(4) as usize]).collect();
            let rows: Vec<Vec<i64>> =
                (0..4 + rng.below(20)).map(|_| (0..3).map(|_| rng.below(4) as i64).collect()).collect();
            model.table(&scope, &rows).unwrap();
        }
        let domains: Vec<Vec<i64>> = model.vars().map(|x| model.domain(x).unwrap().iter().collect()).collect();
        let mut expected = 0u64;
        csp::testing::for_each_assignment(&domains, |values| expected += u64::from(model.is_solution(values)));
        for spelling in ["mac", "mac+mrv", "fc", "mac+learn+mrv", "mac+learn+vsids+seed=5"] {
            let config: SolveConfig = spelling.parse().unwrap();
            let mut solver = Solver::new(&model, config).unwrap();
            assert_eq!(solver.count(None).solutions, expected, "case {case}, {spelling}");
        }
    }
}

// ---- regular ----

/// Words over {1, 2, 3}: no two equal symbols in a row, and the word ends in 3.
fn no_repeat_ending_in_three() -> Dfa {
    // State 0: start; state s in 1..=3: the last symbol was s.
    let mut transitions = Vec::new();
    for from in 0..=3usize {
        for symbol in 1..=3i64 {
            if from as i64 != symbol {
                transitions.push((from, symbol, symbol as usize));
            }
        }
    }
    Dfa::new(4, 0, &[3], &transitions).unwrap()
}

#[test]
fn regular_is_domain_consistent() {
    for arity in 1..=5 {
        let harness = Harness::new(arity, 0..=3).cases(400).seed(100 + arity as u64);
        let dfa = no_repeat_ending_in_three();
        assert_holds("regular", harness.check(Strength::DomainConsistent, |m, v| m.regular(v, &dfa).map(drop)));
        for runs in [vec![], vec![1], vec![2, 1], vec![1, 1, 1]] {
            let line = Dfa::from_runs(&runs).unwrap();
            let harness = Harness::new(arity, 0..=1).cases(200).seed(arity as u64);
            assert_holds(
                "regular (nonogram line)",
                harness.check(Strength::DomainConsistent, |m, v| m.regular(v, &line).map(drop)),
            );
        }
    }
    // Symbols at the ends of the range.
    let dfa = Dfa::new(2, 0, &[1], &[(0, -MAX_VALUE, 1), (1, MAX_VALUE, 0), (1, 0, 1)]).unwrap();
    let harness = Harness::new(4, edges()).cases(300).seed(9);
    assert_holds(
        "regular at the edges",
        harness.check(Strength::DomainConsistent, |m, v| m.regular(v, &dfa).map(drop)),
    );
}

#[test]
fn regular_with_repeated_variables_is_sound() {
    let dfa = no_repeat_ending_in_three();
    let harness = Harness::new(2, 1..=3).cases(400).seed(10);
    assert_holds(
        "regular on x, y, x",
        harness.check(Strength::Sound, |m, v| m.regular(&[v[0], v[1], v[0]], &dfa).map(drop)),
    );
}

#[test]
fn nonogram_lines_accept_exactly_their_clues() {
    // Every 0/1 word of length 7 whose blocks are the runs is accepted, and no other.
    for runs in [vec![], vec![7], vec![3, 1], vec![1, 1, 1, 1], vec![2, 3], vec![0, 2]] {
        let dfa = Dfa::from_runs(&runs).unwrap();
        let expected: Vec<usize> = runs.iter().copied().filter(|&r| r > 0).collect();
        for bits in 0u32..128 {
            let word: Vec<i64> = (0..7).map(|i| i64::from(bits >> i & 1)).collect();
            let blocks: Vec<usize> = word.split(|&c| c == 0).map(<[i64]>::len).filter(|&len| len > 0).collect();
            assert_eq!(dfa.accepts(&word), blocks == expected, "{runs:?} on {word:?}");
        }
    }
    assert_eq!(Dfa::from_runs(&[3, 1]).unwrap().num_states(), 1 + 4 + 2);
    assert!(matches!(Dfa::from_runs(&[usize::MAX, 1]), Err(ModelError::InvalidArgument { .. })));
    assert!(matches!(Dfa::from_runs(&[1 << 30]), Err(ModelError::InvalidArgument { .. })));
}

#[test]
fn minizinc_automata_are_checked_and_equivalent() {
    // fzn_regular's form of "no two equal symbols in a row, ends in 3" (states shifted by one).
    let (q, s) = (4, 3);
    let d = [2, 3, 4, 0, 3, 4, 2, 0, 4, 2, 3, 0];
    let from_table = Dfa::from_minizinc(q, s, &d, 1, &[4]).unwrap();
    let reference = no_repeat_ending_in_three();
    for length in 0..=4u32 {
        for code in 0..4i64.pow(length) {
            let word: Vec<i64> = (0..length).map(|i| code / 4i64.pow(i) % 4).collect();
            assert_eq!(from_table.accepts(&word), reference.accepts(&word), "{word:?}");
        }
    }
    let mut model = Model::new();
    let xs = model.new_vars(4, 1..=3).unwrap();
    model.regular_minizinc(&xs, q, s, &d, 1, &[4]).unwrap();
    let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions;
    assert_eq!(count, 8, "words of four symbols without repeats ending in 3: 3 * 2 * 2 * 2 / 3");
    let bad = |result: Result<Dfa, ModelError>| matches!(result, Err(ModelError::InvalidArgument { .. }));
    assert!(bad(Dfa::from_minizinc(q, s, &d[1..], 1, &[4])));
    assert!(bad(Dfa::from_minizinc(q, s, &d, 0, &[4])));
    assert!(bad(Dfa::from_minizinc(q, s, &d, 1, &[5])));
    let mut wrong = d;
    wrong[3] = 9;
    assert!(bad(Dfa::from_minizinc(q, s, &wrong, 1, &[4])));
    assert!(bad(Dfa::new(0, 0, &[], &[])));
    assert!(bad(Dfa::new(usize::MAX, 0, &[], &[])));
    assert!(bad(Dfa::from_minizinc(usize::MAX, 0, &[], 1, &[])));
    assert!(bad(Dfa::new(2, 0, &[], &[(0, 1, 2)])));
    assert!(matches!(Dfa::new(2, 0, &[], &[(0, i64::MAX, 1)]), Err(ModelError::ValueOutOfRange { .. })));
    // A symbol without transitions is still one of the alphabet.
    assert_eq!(Dfa::from_minizinc(1, 3, &[1, 0, 0], 1, &[1]).unwrap().symbols(), &[1, 2, 3]);
}

// ---- interval domains ----

/// Every range an interval (bitset limit 0): the harness's random domains
/// that are ranges become intervals (kept as their bounds), the others stay
/// bitsets, so both meet in one constraint.
fn intervals() -> SolveConfig {
    SolveConfig::default().with_bitset_limit(0)
}

/// Ranges near both ends of the value range, one per position: intervals at
/// the edges.
fn edge_ranges(arity: usize) -> Vec<Domain> {
    (0..arity)
        .map(|k| {
            if k % 2 == 0 { Domain::range(MAX_VALUE - 3, MAX_VALUE) } else { Domain::range(-MAX_VALUE, -MAX_VALUE + 3) }
        })
        .collect()
}

#[test]
fn element_is_bounds_consistent_on_interval_domains() {
    let array = [3, -1, 3, 0, 7, 2];
    for first in [0i64, 1, -2] {
        let harness = Harness::new(2, -3..=7).cases(500).seed(first.unsigned_abs()).config(intervals());
        assert_holds(
            "element over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.element(v[0], &array, v[1], first).map(drop)),
        );
    }
    for len in 1..=4 {
        let harness = Harness::new(len + 2, -1..=3).cases(400).seed(len as u64 + 50).config(intervals());
        assert_holds(
            "element_var over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.element_var(v[0], &v[2..], v[1], 0).map(drop)),
        );
    }
    let harness = Harness::new(3, 0..=3).cases(500).seed(8).config(intervals());
    assert_holds(
        "element_var over intervals, the index in the array",
        harness.check(Strength::Sound, |m, v| m.element_var(v[0], &[v[1], v[0], v[2]], v[2], 0).map(drop)),
    );
    let big = [MAX_VALUE, -MAX_VALUE, MAX_VALUE - 1];
    let harness = Harness::with_domains([Domain::range(0, 3), Domain::range(MAX_VALUE - 3, MAX_VALUE)])
        .cases(300)
        .config(intervals());
    assert_holds(
        "element over intervals at the edges",
        harness.check(Strength::BoundsConsistent, |m, v| m.element(v[0], &big, v[1], 0).map(drop)),
    );
}

#[test]
fn counting_is_sound_on_interval_domains_and_among_bounds_consistent() {
    for arity in 3..=5 {
        let n = arity - 2;
        let harness = Harness::new(arity, 0..=3).cases(400).seed(arity as u64 + 30).config(intervals());
        assert_holds(
            "count over intervals",
            harness.check(Strength::Sound, move |m, v| m.count(&v[..n], v[n], v[n + 1]).map(drop)),
        );
        assert_holds(
            "among over intervals",
            harness.check(Strength::BoundsConsistent, move |m, v| m.among(v[n + 1], &v[..=n], &[0, 2, 3]).map(drop)),
        );
        for k in [0, 1, 2] {
            assert_holds(
                "at_least over intervals",
                harness.check(Strength::BoundsConsistent, |m, v| m.at_least(k, v, 1).map(drop)),
            );
            assert_holds(
                "exactly over intervals",
                harness.check(Strength::BoundsConsistent, |m, v| m.exactly(k, v, 0).map(drop)),
            );
        }
        for closed in [false, true] {
            assert_holds(
                "global_cardinality over intervals",
                harness.check(Strength::Sound, move |m, v| {
                    if closed {
                        m.global_cardinality_closed(&v[..n], &[1, 2], &v[n..]).map(drop)
                    } else {
                        m.global_cardinality(&v[..n], &[1, 2], &v[n..]).map(drop)
                    }
                }),
            );
        }
        assert_holds(
            "global_cardinality_low_up_closed over intervals",
            harness.check(Strength::Sound, |m, v| {
                m.global_cardinality_low_up_closed(v, &[0, 1, 3], &[0, 1, 0], &[2, 2, 1]).map(drop)
            }),
        );
        assert_holds("nvalue over intervals", harness.check(Strength::Sound, |m, v| m.nvalue(v[0], &v[1..]).map(drop)));
    }
    let harness = Harness::new(3, 0..=2).cases(500).seed(14).config(intervals());
    assert_holds(
        "count with c among the xs, over intervals",
        harness.check(Strength::Sound, |m, v| m.count(&[v[0], v[1], v[2]], v[1], v[2]).map(drop)),
    );
    let harness = Harness::with_domains(edge_ranges(4)).cases(300).seed(15).config(intervals());
    assert_holds(
        "count over intervals at the edges",
        harness.check(Strength::Sound, |m, v| m.count(&v[..2], v[2], v[3]).map(drop)),
    );
    assert_holds(
        "among over intervals at the edges",
        harness.check(Strength::BoundsConsistent, |m, v| {
            m.among(v[3], &v[..3], &[-MAX_VALUE + 1, MAX_VALUE - 2, MAX_VALUE]).map(drop)
        }),
    );
    assert_holds(
        "nvalue over intervals at the edges",
        harness.check(Strength::Sound, |m, v| m.nvalue(v[0], &v[1..]).map(drop)),
    );
}

#[test]
fn negative_table_and_regular_are_bounds_consistent_on_interval_domains() {
    let rows =
        vec![vec![1, 2, 3], vec![1, 1, 1], vec![2, 3, 1], vec![3, 3, 3], vec![1, 2, 3], vec![2, 1, 4], vec![1, 2, 4]];
    let harness = Harness::new(3, 1..=4).cases(600).seed(5).config(intervals());
    assert_holds(
        "negative_table over intervals",
        harness.check(Strength::BoundsConsistent, |m, v| m.negative_table(v, &rows).map(drop)),
    );
    let mut all: Vec<Vec<i64>> = Vec::new();
    for a in 0..=2 {
        for b in 0..=2 {
            if (a, b) != (1, 2) && (a + b) % 3 != 0 {
                all.push(vec![a, b]);
            }
        }
    }
    let harness = Harness::new(2, 0..=2).cases(500).seed(6).config(intervals());
    assert_holds(
        "tight negative_table over intervals",
        harness.check(Strength::BoundsConsistent, |m, v| m.negative_table(v, &all).map(drop)),
    );
    let edge_rows =
        vec![vec![MAX_VALUE, -MAX_VALUE], vec![MAX_VALUE - 3, -MAX_VALUE + 3], vec![MAX_VALUE, -MAX_VALUE + 1]];
    let harness = Harness::with_domains(edge_ranges(2)).cases(400).seed(7).config(intervals());
    assert_holds(
        "negative_table over intervals at the edges",
        harness.check(Strength::BoundsConsistent, |m, v| m.negative_table(v, &edge_rows).map(drop)),
    );
    for arity in 1..=4 {
        let harness = Harness::new(arity, 0..=3).cases(400).seed(100 + arity as u64).config(intervals());
        let dfa = no_repeat_ending_in_three();
        assert_holds(
            "regular over intervals",
            harness.check(Strength::BoundsConsistent, |m, v| m.regular(v, &dfa).map(drop)),
        );
    }
    let harness = Harness::new(2, 1..=3).cases(400).seed(10).config(intervals());
    assert_holds(
        "regular on x, y, x over intervals",
        harness.check(Strength::Sound, |m, v| m.regular(&[v[0], v[1], v[0]], &no_repeat_ending_in_three()).map(drop)),
    );
}

// ---- local search ----

/// Local search knows none of these constraints: it recomputes their
/// violations, and what it returns as a solution is one.
#[test]
fn local_search_solves_models_of_the_new_constraints() {
    let mut model = Model::new();
    let xs = model.new_vars(6, 0..=5).unwrap();
    let (x, y, z) = (xs[0], xs[1], xs[2]);
    model.times(x, y, z).unwrap();
    model.element(xs[3], &[4, 0, 3, 5, 1, 2], xs[4], 0).unwrap();
    model.among(xs[5], &xs[..5], &[1, 2]).unwrap();
    model.nvalue(xs[5], &[x, y]).unwrap();
    model.minimum(xs[4], &[x, xs[5]]).unwrap();
    model.regular(&[x, y, z], &no_repeat_ending_in_three()).unwrap();
    model.negative_table(&[x, y], &[vec![1, 3], vec![2, 1]]).unwrap();
    let expected = Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions;
    // x * y = z spelled without repeats ending in 3 is 3 1 3; then n = 2
    // values, m = min(3, 2) = 2 at index 5, and y and m are the two in {1, 2}.
    assert_eq!(expected, 1);
    for seed in 0..5 {
        let config = csp::LocalSearchConfig { seed, max_steps: Some(100_000), ..csp::LocalSearchConfig::default() };
        let mut search = csp::LocalSearch::new(&model, config);
        let solution = search.solve().into_solution().unwrap_or_else(|| panic!("seed {seed}: not solved"));
        assert!(model.is_solution(solution.values()), "seed {seed}: {:?}", solution.values());
        assert_eq!(solution.values(), &[3, 1, 3, 5, 2, 2]);
    }
}

#[test]
fn a_negative_table_over_interval_domains_rejects_a_forbidden_fixed_tuple() {
    // With every range an interval, the forbidden value 0 has no position:
    // the propagator checks the fixed tuple instead (it used to accept it).
    let mut model = Model::new();
    let x = model.new_var(-2..=0).unwrap();
    model.negative_table(&[x], &[vec![0]]).unwrap();
    for config in ["mac", "mac+binary", "fc"] {
        let config = config.parse::<SolveConfig>().unwrap().with_bitset_limit(2);
        let values: Vec<i64> =
            Solver::new(&model, config.clone()).unwrap().solutions().map(|s| s.values()[0]).collect();
        assert_eq!(values, [-2, -1], "{config}");
    }
}
