//! Regression tests for wrong answers found at the edges: values at the ends
//! of the documented range (`±MAX_VALUE`, that is `±2^62`), ids of another
//! model, and a count limit of zero. Each case is solved under every
//! propagation level and both all-different strengths, and compared with the
//! count that brute force over `Model::is_solution` gives.

use csp::{AllDifferentStrength, ConstraintId, Domain, MAX_VALUE, Model, Propagation, Relation, SolveConfig, Solver};

/// Every propagation level with both all-different strengths, d-way and binary.
fn configs() -> Vec<SolveConfig> {
    let mut configs = Vec::new();
    for &propagation in Propagation::ALL {
        for &strength in AllDifferentStrength::ALL {
            let config = SolveConfig::default().with_propagation(propagation).with_all_different(strength);
            configs.push(config.clone().with_branching(csp::Branching::Binary));
            configs.push(config);
        }
    }
    configs
}

/// The number of complete assignments that `Model::is_solution` accepts.
fn brute_force(model: &Model) -> u64 {
    let domains: Vec<Vec<i64>> = model.vars().map(|v| model.domain(v).expect("a variable").iter().collect()).collect();
    let mut count = 0;
    csp::testing::for_each_assignment(&domains, |values| count += u64::from(model.is_solution(values)));
    count
}

/// Every configuration counts `expected` solutions, as brute force does.
fn assert_count(model: &Model, expected: u64) {
    assert_eq!(brute_force(model), expected, "the expected count itself");
    for config in configs() {
        let count = Solver::new(model, config.clone()).unwrap().count(None);
        assert_eq!(count.solutions, expected, "{config:?}");
        assert!(count.is_complete());
    }
}

#[test]
fn linear_keeps_the_largest_value() {
    let mut model = Model::new();
    let x = model.new_var(vec![0, MAX_VALUE]).unwrap();
    model.linear(&[(1, x)], Relation::Le, MAX_VALUE).unwrap();
    assert_count(&model, 2);
}

#[test]
fn linear_reaches_the_largest_value_with_a_sum() {
    let mut model = Model::new();
    let x = model.new_var(MAX_VALUE - 1..=MAX_VALUE).unwrap();
    let y = model.new_var(0..=1).unwrap();
    model.linear(&[(1, x), (1, y)], Relation::Eq, MAX_VALUE).unwrap();
    assert_count(&model, 2);
}

#[test]
fn linear_with_the_largest_coefficients() {
    let mut model = Model::new();
    let x = model.new_var(-1..=1).unwrap();
    let y = model.new_var(-1..=1).unwrap();
    model.linear(&[(MAX_VALUE, x), (MAX_VALUE, y)], Relation::Eq, 0).unwrap();
    assert_count(&model, 3);
    let mut model = Model::new();
    let x = model.new_var(vec![-MAX_VALUE, 0, MAX_VALUE]).unwrap();
    let y = model.new_var(vec![-MAX_VALUE, -1, 0, 1, MAX_VALUE]).unwrap();
    model.linear(&[(1, x), (-1, y)], Relation::Ge, 0).unwrap();
    model.linear(&[(-1, x), (-1, y)], Relation::Le, MAX_VALUE).unwrap();
    assert_count(&model, 8);
}

#[test]
fn all_different_offset_does_not_wrap_at_the_ends_of_the_range() {
    // x + 2^62 = 2^63 and y - 2^62 = -2^63 are different, though both are
    // i64::MIN after wrapping.
    let mut model = Model::new();
    let x = model.new_var(vec![MAX_VALUE]).unwrap();
    let y = model.new_var(vec![-MAX_VALUE]).unwrap();
    model.all_different_offset(&[x, y], &[MAX_VALUE, -MAX_VALUE]).unwrap();
    assert_count(&model, 1);
    // More values, so that the propagators have something to remove.
    let mut model = Model::new();
    let values = vec![-MAX_VALUE, -MAX_VALUE + 1, 0, MAX_VALUE - 1, MAX_VALUE];
    let x = model.new_var(values.clone()).unwrap();
    let y = model.new_var(values.clone()).unwrap();
    let z = model.new_var(values).unwrap();
    model.all_different_offset(&[x, y, z], &[MAX_VALUE, -MAX_VALUE, 0]).unwrap();
    let expected = brute_force(&model);
    assert!(expected > 0);
    assert_count(&model, expected);
}

#[test]
fn not_equal_offset_does_not_overflow() {
    for (offset, x_values, y_values) in [
        (-MAX_VALUE, vec![MAX_VALUE], vec![-MAX_VALUE, 0, MAX_VALUE]),
        (MAX_VALUE, vec![-MAX_VALUE, 0, MAX_VALUE], vec![MAX_VALUE]),
        (MAX_VALUE, vec![0, MAX_VALUE], vec![-MAX_VALUE, 0, MAX_VALUE]),
        (-MAX_VALUE, vec![-MAX_VALUE, 0], vec![-MAX_VALUE, 0, MAX_VALUE]),
    ] {
        let mut model = Model::new();
        let x = model.new_var(x_values).unwrap();
        let y = model.new_var(y_values).unwrap();
        model.not_equal_offset(x, y, offset).unwrap();
        let expected = brute_force(&model);
        assert_count(&model, expected);
    }
}

#[test]
fn a_count_limit_of_zero_counts_nothing() {
    let mut model = Model::new();
    model.new_vars(2, 1..=3).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    let count = solver.count(Some(0));
    assert_eq!(count.solutions, 0);
    assert_eq!(count.status, csp::Status::LimitReached(csp::Limit::Solutions));
    assert_eq!(solver.count(Some(1)).solutions, 1);
    assert_eq!(solver.count(None).solutions, 9);
    // The configured solution limit too.
    let limits = csp::Limits::none().with_solutions(0);
    let mut solver = Solver::new(&model, SolveConfig::default().with_limits(limits)).unwrap();
    assert_eq!(solver.count(None).solutions, 0);
    assert_eq!(solver.solutions().count(), 0);
    assert!(!solver.solve().is_solved());
}

#[test]
fn ids_of_another_model_are_refused() {
    let mut model = Model::new();
    let mut other = Model::new();
    let x = model.new_var(1..=2).unwrap();
    let stranger = other.new_var(5..=9).unwrap();
    let their_constraint = other.not_equal(stranger, stranger).unwrap();
    assert_eq!(model.domain(x), Some(&Domain::range(1, 2)));
    assert_eq!(model.domain(stranger), None);
    assert_eq!(model.name(stranger), None);
    assert!(matches!(model.set_label(their_constraint, "theirs"), Err(csp::ModelError::UnknownConstraint { .. })));
    assert_eq!(model.label(their_constraint), None);
    assert!(model.constraint(their_constraint).is_none());
    let mine: ConstraintId = model.not_equal(x, x).unwrap();
    assert!(model.set_label(mine, "mine").is_ok());
    assert_eq!(model.label(mine), Some("mine"));
}

#[test]
#[should_panic(expected = "belongs to another model")]
fn a_solution_indexed_by_a_variable_of_another_model_panics_clearly() {
    let mut model = Model::new();
    let mut other = Model::new();
    model.new_var(1..=2).unwrap();
    let stranger = other.new_var(5..=9).unwrap();
    let solution = model.solve().unwrap().unwrap();
    let _ = solution[stranger];
}

#[test]
fn a_solution_answers_for_its_own_variables_only() {
    let mut model = Model::new();
    let mut other = Model::new();
    let x = model.new_var(1..=1).unwrap();
    let stranger = other.new_var(5..=9).unwrap();
    let solution = model.solve().unwrap().unwrap();
    assert_eq!(solution.get_value(x), Some(1));
    assert_eq!(solution.get_value(stranger), None);
}

/// Pairwise elimination over intervals: an interval cannot lose a value
/// between its bounds, so a variable fixed earlier may still be a later one's
/// value (once, the search produced `w1 + 1 = w0 = 0` as a solution).
#[test]
fn pairwise_all_different_over_intervals_compares_with_the_variables_fixed_before() {
    let mut model = Model::new();
    let x = model.new_var([0, 2, 3]).unwrap();
    let w0 = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    let w1 = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    model.linear(&[(1, w0), (-1, x)], Relation::Eq, -2).unwrap();
    model.linear(&[(1, w1)], Relation::Eq, -1).unwrap();
    model.all_different_offset_with(&[w1, w0], &[1, 0], AllDifferentStrength::Pairwise).unwrap();
    for spelling in ["mac", "mac+learn", "fc"] {
        let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
        let found: Vec<i64> = solver.solutions().map(|s| s.value(x)).collect();
        assert_eq!(found, [0, 3], "{spelling}");
    }
}

#[test]
fn coefficients_that_merge_past_the_range_keep_the_sum_exact() {
    // 2^62 x + 2^62 x merges to 2^63 x, and -2^62 y - 2^62 y - y to
    // -(2^63 + 1) y: beyond ±2^62 (and beyond i64), kept as in-range terms.
    let relations = [Relation::Eq, Relation::Ne, Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt];
    let holds = |relation: Relation, sum: i128, rhs: i128| match relation {
        Relation::Eq => sum == rhs,
        Relation::Ne => sum != rhs,
        Relation::Le => sum <= rhs,
        Relation::Lt => sum < rhs,
        Relation::Ge => sum >= rhs,
        Relation::Gt => sum > rhs,
    };
    let big = i128::from(MAX_VALUE);
    for relation in relations {
        for rhs in [-1, 0, 1, MAX_VALUE, -MAX_VALUE, MAX_VALUE - 1] {
            // The count by hand, in i128, over x in -2..=2 and y in -2..=2.
            let expected = (-2..=2i128)
                .flat_map(|x| (-2..=2i128).map(move |y| (x, y)))
                .filter(|&(x, y)| holds(relation, 2 * big * x - (2 * big + 1) * y, i128::from(rhs)))
                .count() as u64;
            let mut model = Model::new();
            let x = model.new_var(-2..=2).unwrap();
            let y = model.new_var(-2..=2).unwrap();
            let terms = [(MAX_VALUE, x), (-MAX_VALUE, y), (MAX_VALUE, x), (-MAX_VALUE, y), (-1, y)];
            model.linear(&terms, relation, rhs).unwrap_or_else(|e| panic!("{relation:?} {rhs}: {e}"));
            assert_count(&model, expected);
            // The same through an expression, reified: b <-> sum rel rhs.
            let mut model = Model::new();
            let x = model.new_var(-2..=2).unwrap();
            let y = model.new_var(-2..=2).unwrap();
            let b = model.new_bool();
            let sum = csp::LinearExpr::wide_term(2 * big, x) - csp::LinearExpr::wide_term(2 * big + 1, y);
            model.reify(b, sum.compare(relation, rhs)).unwrap();
            assert_count(&model, 25);
            let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
            let true_ones = solver.solutions().filter(|s| s.value(b.var()) == 1).count() as u64;
            assert_eq!(true_ones, expected, "{relation:?} {rhs}");
        }
    }
    // Beyond MAX_COEFFICIENT the model refuses the sum with a typed error.
    let mut model = Model::new();
    let x = model.new_var(0..=1).unwrap();
    let too_wide = csp::LinearExpr::wide_term(csp::MAX_COEFFICIENT + 1, x);
    assert!(matches!(model.add(too_wide.le(0)), Err(csp::ModelError::LinearOverflow { .. })));
    let widest = csp::LinearExpr::wide_term(-csp::MAX_COEFFICIENT, x);
    model.add(widest.ge(-MAX_VALUE)).unwrap();
    assert_count(&model, 1);
}

/// A count out of reach is accepted (as MiniZinc, Gecode and CP-SAT accept
/// it) and decided at solve time: `exactly(-1)` and `exactly(4)` of three
/// variables never hold, `at_least(-1)` and `at_most(3)` always do.
#[test]
fn counts_out_of_reach_are_accepted_and_decided_at_solve_time() {
    type Post = fn(&mut Model, &[csp::VarId]) -> Result<ConstraintId, csp::ModelError>;
    let cases: [(&str, Post, u64); 10] = [
        ("exactly(-1)", |m, xs| m.exactly(-1, xs, 1), 0),
        ("exactly(4)", |m, xs| m.exactly(4, xs, 1), 0),
        ("exactly(3)", |m, xs| m.exactly(3, xs, 1), 1),
        ("at_least(-1)", |m, xs| m.at_least(-1, xs, 1), 8),
        ("at_least(4)", |m, xs| m.at_least(4, xs, 1), 0),
        ("at_most(-1)", |m, xs| m.at_most(-1, xs, 1), 0),
        ("at_most(3)", |m, xs| m.at_most(3, xs, 1), 8),
        ("low_up with low > up", |m, xs| m.global_cardinality_low_up(xs, &[1], &[2], &[1]), 0),
        ("low_up with up < 0", |m, xs| m.global_cardinality_low_up(xs, &[0, 1], &[0, -2], &[3, -1]), 0),
        ("low_up with low > n", |m, xs| m.global_cardinality_low_up(xs, &[0], &[4], &[5]), 0),
    ];
    for (name, post, expected) in cases {
        let mut model = Model::new();
        let xs = model.new_vars(3, 0..=1).unwrap();
        post(&mut model, &xs).unwrap_or_else(|e| panic!("{name} refused: {e}"));
        assert_eq!(brute_force(&model), expected, "{name}: the expected count itself");
        for config in configs() {
            let count = Solver::new(&model, config.clone()).unwrap().count(None);
            assert_eq!(count.solutions, expected, "{name} under {config:?}");
        }
    }
}

/// Every constructor taking parallel arrays refuses arrays of different
/// lengths with a typed error whose message names both lengths; `lex_less`
/// and `lex_lesseq` are the exception by design (a proper prefix is smaller).
#[test]
fn parallel_arrays_of_different_lengths_are_refused_naming_both_lengths() {
    use csp::ModelError;
    type Post = fn(&mut Model, &[csp::VarId]) -> Result<ConstraintId, ModelError>;
    let cases: [(&str, Post, &str); 15] = [
        ("inverse, invf short", |m, v| m.inverse(&v[..4], 1, &v[4..7], 1), "invf has 3 entries, expected 4"),
        ("inverse, invf long", |m, v| m.inverse(&v[..2], 1, &v[2..5], 1), "invf has 3 entries, expected 2"),
        ("all_different_offset", |m, v| m.all_different_offset(&v[..3], &[0, 1]), "offsets has 2 entries, expected 3"),
        (
            "cumulative durations",
            |m, v| m.cumulative(&v[..3], &[1, 1], &[1, 1, 1], 2),
            "durations has 2 entries, expected 3",
        ),
        ("cumulative resources", |m, v| m.cumulative(&v[..2], &[1, 1], &[1], 2), "resources has 1 entries, expected 2"),
        ("disjunctive", |m, v| m.disjunctive(&v[..2], &[1, 1, 1]), "durations has 3 entries, expected 2"),
        (
            "bin_packing_load",
            |m, v| m.bin_packing_load(&[3, 3], &v[..3], &[1, 2], 0),
            "sizes has 2 entries, expected 3",
        ),
        ("diffn y", |m, v| m.diffn(&v[..2], &v[2..5], &[1, 1], &[1, 1]), "y has 3 entries, expected 2"),
        ("diffn dx", |m, v| m.diffn(&v[..2], &v[2..4], &[1], &[1, 1]), "dx has 1 entries, expected 2"),
        ("table", |m, v| m.table(&v[..2], &[vec![0, 1], vec![1]]), "row 1 has 1 values, expected 2"),
        ("negative_table", |m, v| m.negative_table(&v[..2], &[vec![0, 1, 1]]), "row 0 has 3 values, expected 2"),
        (
            "global_cardinality",
            |m, v| m.global_cardinality(&v[..2], &[0, 1], &v[2..5]),
            "counts has 3 entries, expected 2",
        ),
        (
            "low_up low",
            |m, v| m.global_cardinality_low_up(&v[..2], &[0, 1], &[0], &[1, 1]),
            "low has 1 entries, expected 2",
        ),
        ("low_up up", |m, v| m.global_cardinality_low_up(&v[..2], &[0], &[0], &[1, 1]), "up has 2 entries, expected 1"),
        (
            "regular_minizinc",
            |m, v| m.regular_minizinc(&v[..2], 2, 2, &[1, 2, 2], 1, &[2]),
            "3 entries, expected 2 x 2",
        ),
    ];
    for (name, post, message) in cases {
        let mut model = Model::new();
        let vars = model.new_vars(8, 0..=3).unwrap();
        match post(&mut model, &vars) {
            Ok(_) => panic!("{name}: accepted"),
            Err(error) => assert!(error.to_string().contains(message), "{name}: {error}"),
        }
        assert_eq!(model.num_constraints(), 0, "{name}: a refused constraint was posted");
    }
    // Lex compares vectors of different lengths: [0] < [0, 0] as a proper prefix.
    let mut model = Model::new();
    let x = model.new_vars(1, 0..=0).unwrap();
    let y = model.new_vars(2, 0..=0).unwrap();
    model.lex_less(&x, &y).unwrap();
    assert_count(&model, 1);
}
