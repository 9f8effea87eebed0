//! The soundness harness on the vocabulary of booleans, logic, expressions
//! and reification: every propagator is sound everywhere, and complete where
//! it claims domain consistency, on small domains and on values near
//! `±2^62`; the model picks the expected constraint for each shape of
//! expression, and refuses bad arguments with typed errors.

use csp::testing::{Failure, Harness, Strength};
use csp::{
    Condition, Domain, LinearExpr, Lit, LocalSearch, LocalSearchConfig, MAX_VALUE, Model, ModelError, Relation,
    SolveConfig, Solver, VarId,
};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

/// Booleans only.
fn booleans(arity: usize) -> Harness {
    Harness::new(arity, 0..=1).cases(300)
}

/// The literals of `vars` with the signs of `mask` (bit `i` negates literal `i`).
fn literals(vars: &[VarId], mask: u32) -> Vec<Lit> {
    vars.iter().enumerate().map(|(i, &v)| if mask >> i & 1 == 1 { !Lit::from(v) } else { Lit::from(v) }).collect()
}

/// Values near both ends of the range, and around 0.
fn extremes() -> Domain {
    Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, MAX_VALUE - 1, MAX_VALUE])
}

#[test]
fn clauses_are_domain_consistent() {
    for arity in 1..=5 {
        for mask in [0, 1, 0b10110, u32::MAX] {
            assert_holds(
                "clause",
                booleans(arity)
                    .seed(u64::from(mask) + arity as u64)
                    .check(Strength::DomainConsistent, |m, v| m.or(&literals(v, mask)).map(drop)),
            );
        }
    }
    // Repeated variables: a repeat counts once, a literal and its negation
    // make the clause hold always.
    assert_holds(
        "clause with repeats",
        booleans(3).check(Strength::DomainConsistent, |m, v| {
            let [a, b, c] = [v[0], v[1], v[2]].map(Lit::from);
            m.or(&[a, !b, a, c, !b]).map(drop)
        }),
    );
    assert_holds(
        "tautology",
        booleans(2).check(Strength::DomainConsistent, |m, v| {
            let [a, b] = [v[0], v[1]].map(Lit::from);
            m.or(&[a, b, !a]).map(drop)
        }),
    );
    assert_holds(
        "clause(positive, negative)",
        booleans(4).check(Strength::DomainConsistent, |m, v| {
            let l = literals(v, 0);
            m.clause(&l[..2], &l[2..]).map(drop)
        }),
    );
    assert_holds(
        "implies between literals",
        booleans(2).check(Strength::DomainConsistent, |m, v| m.implies(Lit::from(v[0]), !Lit::from(v[1])).map(drop)),
    );
}

#[test]
fn cardinalities_are_domain_consistent() {
    for arity in 1..=5 {
        for mask in [0, 0b101, u32::MAX] {
            let h = booleans(arity).seed(arity as u64 * 7 + u64::from(mask & 7));
            assert_holds("and", h.check(Strength::DomainConsistent, |m, v| m.and(&literals(v, mask)).map(drop)));
            assert_holds(
                "at_most_one",
                h.check(Strength::DomainConsistent, |m, v| m.at_most_one(&literals(v, mask)).map(drop)),
            );
            assert_holds(
                "exactly_one",
                h.check(Strength::DomainConsistent, |m, v| m.exactly_one(&literals(v, mask)).map(drop)),
            );
            assert_holds(
                "exactly two",
                h.check(Strength::DomainConsistent, |m, v| m.add(m.sum(&literals(v, mask)).eq(2)).map(drop)),
            );
        }
    }
}

#[test]
fn parity_is_domain_consistent() {
    for arity in 1..=5 {
        for mask in [0, 1, 0b1011] {
            assert_holds(
                "xor",
                booleans(arity)
                    .seed(arity as u64 + 40)
                    .check(Strength::DomainConsistent, |m, v| m.xor(&literals(v, mask)).map(drop)),
            );
        }
    }
    // A variable twice cancels out; with its negation it flips the parity.
    assert_holds(
        "xor with repeats",
        booleans(3).check(Strength::DomainConsistent, |m, v| {
            let [a, b, c] = [v[0], v[1], v[2]].map(Lit::from);
            m.xor(&[a, b, a, !c, b, c, c]).map(drop)
        }),
    );
    assert_holds(
        "bool_eq as a condition",
        booleans(2).check(Strength::DomainConsistent, |m, v| m.add(Lit::from(v[0]).eq(!Lit::from(v[1]))).map(drop)),
    );
}

/// A condition over two integer variables and a constant.
type BinaryCondition = (&'static str, fn(VarId, VarId, i64) -> Condition);

/// The comparisons of two integer variables `x`, `y` that reification
/// covers, with a constant `c`; all are domain consistent, plain or reified.
const COMPARISONS: &[BinaryCondition] = &[
    ("x = y + c", |x, y, c| x.eq(y + c)),
    ("x != y + c", |x, y, c| x.ne(y + c)),
    ("x <= y + c", |x, y, c| x.le(y + c)),
    ("x < y + c", |x, y, c| x.lt(y + c)),
    ("x >= y - c", |x, y, c| x.ge(y - c)),
    ("x > y", |x, y, _| x.gt(y)),
    ("x = c", |x, _, c| x.eq(c)),
    ("x != c", |x, _, c| x.ne(c)),
    ("2x <= c", |x, _, c| (2 * x).le(c)),
    ("-3y > c", |_, y, c| (-3 * y).gt(c)),
    ("x in S", |x, _, _| Condition::in_set(x, [-2, 0, 1, 3])),
    ("y not in S", |_, y, _| Condition::not_in_set(y, 0..=2)),
    ("x + 2y <= c", |x, y, c| (x + 2 * y).le(c)),
    ("2x + y > c", |x, y, c| (2 * x + y).gt(c)),
    ("2x - 3y >= c", |x, y, c| (2 * x - 3 * y).ge(c)),
];

/// Reifies (or half-reifies) `condition` on the literal of `v[0]` (negated
/// or not) in every combination, and checks the promise.
fn check_reified(harness: &Harness, strength: Strength, conditions: &[BinaryCondition], c: i64) {
    for &(name, condition) in conditions {
        for negated in [false, true] {
            for implication in [false, true] {
                let check = harness.check(strength, |m, v| {
                    let b = if negated { !Lit::from(v[0]) } else { Lit::from(v[0]) };
                    let condition = condition(v[1], v[2], c);
                    if implication { m.implies(b, condition) } else { m.reify(b, condition) }.map(drop)
                });
                let how = if implication { "->" } else { "<->" };
                let sign = if negated { "!" } else { "" };
                assert_holds(&format!("{sign}b {how} ({name}) with c = {c}"), check);
            }
        }
    }
}

#[test]
fn reified_comparisons_are_domain_consistent() {
    for c in [-1i64, 0, 2] {
        let harness = Harness::with_domains([Domain::range(0, 1), Domain::range(-3, 3), Domain::range(-3, 3)])
            .cases(250)
            .seed(c.unsigned_abs() + 5);
        check_reified(&harness, Strength::DomainConsistent, COMPARISONS, c);
    }
}

#[test]
fn reified_comparisons_are_domain_consistent_near_the_ends_of_the_range() {
    for c in [0, 1, MAX_VALUE, -MAX_VALUE] {
        let harness =
            Harness::with_domains([Domain::range(0, 1), extremes(), extremes()]).cases(150).seed(c.unsigned_abs());
        // Coefficients other than ±1 would overflow the model's bound on sums
        // (a typed error, tested below); these are the unit ones.
        let unit: Vec<BinaryCondition> =
            COMPARISONS.iter().copied().filter(|(name, _)| !name.contains('2') && !name.contains('3')).collect();
        check_reified(&harness, Strength::DomainConsistent, &unit, c);
    }
}

/// Reified linear `=` and `!=` (with other coefficients than `x - y`) are
/// only sound: an equation is propagated on bounds, and it is the
/// negation of the other.
#[test]
fn reified_linear_equality_is_sound() {
    const EQUALITIES: &[BinaryCondition] = &[
        ("x + 2y = c", |x, y, c| (x + 2 * y).eq(c)),
        ("3x - 2y = c", |x, y, c| (3 * x - 2 * y).eq(c)),
        ("x - 2y != c", |x, y, c| (x - 2 * y).ne(c)),
    ];
    for c in [-2i64, 0, 3] {
        let harness = Harness::with_domains([Domain::range(0, 1), Domain::range(-3, 3), Domain::range(-3, 3)])
            .cases(250)
            .seed(c.unsigned_abs() + 50);
        check_reified(&harness, Strength::Sound, EQUALITIES, c);
    }
}

#[test]
fn reified_logic_is_domain_consistent() {
    for arity in 1..=4 {
        for mask in [0, 0b101, u32::MAX] {
            let harness = booleans(arity + 1).seed(arity as u64 * 3 + u64::from(mask & 3));
            for (name, build) in
                [("or", Condition::or as fn(&[Lit]) -> Condition), ("and", Condition::and), ("xor", Condition::xor)]
            {
                for implication in [false, true] {
                    let check = harness.check(Strength::DomainConsistent, |m, v| {
                        let condition = build(&literals(&v[1..], mask));
                        let b = Lit::from(v[0]);
                        if implication { m.implies(b, condition) } else { m.reify(b, condition) }.map(drop)
                    });
                    assert_holds(&format!("b -> / <-> {name} of {arity} (mask {mask})"), check);
                }
                let check =
                    harness.check(Strength::DomainConsistent, |m, v| m.add(!build(&literals(&v[1..], mask))).map(drop));
                assert_holds(&format!("not {name}"), check);
            }
        }
    }
    // Comparisons of booleans, with negations: sums of 0/1 values with unit
    // coefficients, whose bounds are exact, so even `=` and `!=` are complete.
    for mask in 0..4 {
        for which in 0..5 {
            for implication in [false, true] {
                let check = booleans(4).seed(u64::from(mask) + 90).check(Strength::DomainConsistent, |m, v| {
                    let l = literals(&v[1..], mask);
                    let b = Lit::from(v[0]);
                    let condition = match which {
                        0 => l[0].eq(l[1]),
                        1 => l[0].ne(l[1]),
                        2 => l[0].le(l[1]),
                        3 => m.sum(&l).eq(2),
                        _ => m.sum(&l).ne(1),
                    };
                    if implication { m.implies(b, condition) } else { m.reify(b, condition) }.map(drop)
                });
                assert_holds(
                    &format!("comparison {which} of booleans (mask {mask}, implication {implication})"),
                    check,
                );
            }
        }
    }
    // The literal inside its own condition.
    assert_holds(
        "b <-> (b or c)",
        booleans(2).check(Strength::Sound, |m, v| {
            let [b, c] = [v[0], v[1]].map(Lit::from);
            m.reify(b, Condition::or(&[b, c])).map(drop)
        }),
    );
}

#[test]
fn plain_comparisons_are_domain_consistent() {
    for c in [-2i64, 0, 1] {
        let harness = Harness::new(2, -3..=3).cases(250).seed(c.unsigned_abs() + 70);
        for &(name, condition) in COMPARISONS {
            let check = harness.check(Strength::DomainConsistent, |m, v| m.add(condition(v[0], v[1], c)).map(drop));
            assert_holds(&format!("{name} with c = {c}"), check);
        }
    }
    let harness = Harness::new(2, -3..=3).cases(250).seed(72);
    let check = harness.check(Strength::DomainConsistent, |m, v| m.add((v[0] - 2 * v[1]).ne(1)).map(drop));
    assert_holds("x - 2y != 1", check);
    let harness = Harness::new(2, extremes()).cases(200).seed(71);
    for &(name, condition) in &COMPARISONS[..8] {
        for c in [0, MAX_VALUE, -MAX_VALUE] {
            let check = harness.check(Strength::DomainConsistent, |m, v| m.add(condition(v[0], v[1], c)).map(drop));
            assert_holds(&format!("{name} with c = {c} near the ends of the range"), check);
        }
    }
}

#[test]
fn linear_relations_keep_their_promises() {
    let harness = Harness::new(3, -3..=3).cases(250);
    for relation in [Relation::Le, Relation::Lt, Relation::Ge, Relation::Gt, Relation::Ne, Relation::Eq] {
        let strength = if relation == Relation::Eq { Strength::Sound } else { Strength::DomainConsistent };
        for (terms, rhs) in [([1, 1, 1], 2i64), ([2, -3, 1], 1), ([-1, 4, 0], -2), ([5, 5, -7], 3), ([1, 1, 1], 9)] {
            let check = harness.clone().seed(rhs.unsigned_abs() + 9).check(strength, |m, v| {
                let terms: Vec<(i64, VarId)> = terms.iter().copied().zip(v.iter().copied()).collect();
                m.linear(&terms, relation, rhs).map(drop)
            });
            assert_holds(&format!("linear {terms:?} {relation} {rhs}"), check);
        }
    }
    let harness = Harness::new(3, extremes()).cases(200).seed(3);
    for relation in [Relation::Le, Relation::Gt, Relation::Ne, Relation::Eq] {
        let strength = if relation == Relation::Eq { Strength::Sound } else { Strength::DomainConsistent };
        for rhs in [0, MAX_VALUE, -MAX_VALUE] {
            let check =
                harness.check(strength, |m, v| m.linear(&[(1, v[0]), (-1, v[1]), (1, v[2])], relation, rhs).map(drop));
            assert_holds(&format!("x - y + z {relation} {rhs} near the ends of the range"), check);
        }
    }
}

/// Every range an interval (bitset limit 0): booleans and the harness's
/// random ranges become intervals (kept as their bounds), the others stay
/// bitsets.
fn intervals() -> SolveConfig {
    SolveConfig::default().with_bitset_limit(0)
}

/// Over interval domains, which keep no holes, the logic over booleans stays
/// domain consistent (a boolean interval is its two bounds), and comparisons,
/// set membership and their reifications are bounds consistent.
#[test]
fn logic_and_reification_keep_their_promises_on_interval_domains() {
    for arity in 1..=4 {
        for mask in [0, 0b101, u32::MAX] {
            let h = booleans(arity).seed(arity as u64 + u64::from(mask & 7)).config(intervals());
            assert_holds(
                "clause over intervals",
                h.check(Strength::DomainConsistent, |m, v| m.or(&literals(v, mask)).map(drop)),
            );
            assert_holds(
                "xor over intervals",
                h.check(Strength::DomainConsistent, |m, v| m.xor(&literals(v, mask)).map(drop)),
            );
            assert_holds(
                "exactly_one over intervals",
                h.check(Strength::DomainConsistent, |m, v| m.exactly_one(&literals(v, mask)).map(drop)),
            );
        }
    }
    for c in [-1i64, 0, 2] {
        let harness = Harness::new(2, -3..=3).cases(250).seed(c.unsigned_abs() + 170).config(intervals());
        for &(name, condition) in COMPARISONS {
            let check = harness.check(Strength::BoundsConsistent, |m, v| m.add(condition(v[0], v[1], c)).map(drop));
            assert_holds(&format!("{name} with c = {c} over intervals"), check);
        }
        let harness = Harness::with_domains([Domain::range(0, 1), Domain::range(-3, 3), Domain::range(-3, 3)])
            .cases(200)
            .seed(c.unsigned_abs() + 105)
            .config(intervals());
        check_reified(&harness, Strength::BoundsConsistent, COMPARISONS, c);
    }
    // Sparse sets beside intervals, and values near the ends of the range.
    let sets: &[BinaryCondition] = &[
        ("x in S", |x, _, _| Condition::in_set(x, [-MAX_VALUE, -3, -1, 0, 2, 3, MAX_VALUE - 1])),
        ("y not in S", |_, y, _| Condition::not_in_set(y, [-MAX_VALUE + 1, -2, 0, 1, 3, MAX_VALUE])),
        ("x not in a range", |x, _, _| Condition::not_in_set(x, -MAX_VALUE..=MAX_VALUE - 3)),
        ("x = y + c", |x, y, c| x.eq(y + c)),
        ("x <= y + c", |x, y, c| x.le(y + c)),
    ];
    let near_ends =
        [Domain::range(0, 1), Domain::range(MAX_VALUE - 3, MAX_VALUE), Domain::range(-MAX_VALUE, -MAX_VALUE + 3)];
    for c in [0, MAX_VALUE, -MAX_VALUE] {
        let harness = Harness::with_domains(near_ends.clone()).cases(150).seed(c.unsigned_abs()).config(intervals());
        check_reified(&harness, Strength::BoundsConsistent, sets, c);
    }
    let harness = Harness::with_domains([Domain::range(0, 1), Domain::range(-3, 4), Domain::values([-3, -1, 2, 4])])
        .cases(200)
        .seed(77)
        .config(intervals());
    check_reified(&harness, Strength::BoundsConsistent, sets, 1);
}

/// The constraint kind the model chose for a condition.
fn kind_of(model: &mut Model, condition: Condition) -> String {
    let id = model.add(condition).unwrap();
    model.constraint(id).unwrap().kind().to_string()
}

#[test]
fn each_shape_of_expression_gets_the_most_specific_constraint() {
    let mut model = Model::new();
    let [x, y, z] = [0, 1, 2].map(|_| model.new_var(0..=9).unwrap());
    let b = model.new_bool();
    assert_eq!(kind_of(&mut model, x.eq(y + 1)), "equal");
    assert_eq!(kind_of(&mut model, (x - y).ne(3)), "not_equal");
    assert_eq!(kind_of(&mut model, x.lt(y)), "less_than");
    assert_eq!(kind_of(&mut model, (y - x).ge(-4)), "less_or_equal");
    assert_eq!(kind_of(&mut model, (2 * x).le(7)), "in_set");
    assert_eq!(kind_of(&mut model, (3 * x + y - y).ne(6)), "not_in_set");
    assert_eq!(kind_of(&mut model, (x + y + z).eq(12)), "linear");
    assert_eq!(kind_of(&mut model, (x + y - x - y).le(1)), "linear"); // a constant relation, over x and y
    assert_eq!(kind_of(&mut model, Condition::or(&[b, !b])), "clause");
    assert_eq!(kind_of(&mut model, Condition::xor(&[b])), "xor");
    assert_eq!(kind_of(&mut model, Condition::and(&[b])), "in_set");
    let reified = model.reify(b, (x + y).le(z)).unwrap();
    assert_eq!(model.constraint(reified).unwrap().kind(), "reified");
    let implied = model.implies(b, x.eq(2)).unwrap();
    assert_eq!(model.constraint(implied).unwrap().kind(), "implied");
}

#[test]
fn expressions_fold_constants_and_merge_variables() {
    let mut model = Model::new();
    let x = model.new_var(0..=5).unwrap();
    let y = model.new_var(0..=5).unwrap();
    let b = model.new_bool();
    let e = 3 * (x + 2) - (y - x) * 2 + !b - 4 + -y;
    assert_eq!(e.to_string(), "3*x0 - 2*x1 + 2*x0 - x2 - x1 + 3");
    let mut sum = LinearExpr::constant(1);
    sum += x;
    sum -= 2 * y;
    sum += LinearExpr::sum([b, !b]);
    assert_eq!(sum.to_string(), "x0 - 2*x1 + x2 - x2 + 2");
    // 5x - 3y - b + 3 = 0: (x, y) = (0, 1) with b = 0, (2, 4) with b = 1.
    model.add(e.eq(0)).unwrap();
    let solutions: Vec<Vec<i64>> =
        Solver::new(&model, SolveConfig::default()).unwrap().solutions().map(|s| s.into_values()).collect();
    assert_eq!(solutions, vec![vec![0, 1, 0], vec![2, 4, 1]]);
}

#[test]
fn bad_conditions_are_typed_errors() {
    let mut model = Model::new();
    let mut other = Model::new();
    let x = model.new_named_var("x", 0..=5).unwrap();
    let stranger = other.new_var(0..=1).unwrap();
    let b = model.new_bool();
    assert!(matches!(model.add(x.eq(stranger)), Err(ModelError::ForeignVariable { .. })));
    assert!(matches!(model.or(&[b, Lit::from(stranger)]), Err(ModelError::ForeignVariable { position: 1, .. })));
    assert_eq!(
        model.or(&[b, Lit::from(x)]).unwrap_err().to_string(),
        "or: the literal at position 1 is over x, whose domain 0..=5 is not within {0, 1}"
    );
    assert!(matches!(model.reify(Lit::from(x), b.eq(1)), Err(ModelError::NotBoolean { .. })));
    assert!(matches!(model.add(LinearExpr::constant(1).le(2)), Err(ModelError::EmptyScope { .. })));
    assert!(matches!(model.or(&[]), Err(ModelError::EmptyScope { .. })));
    // Each named by its own name, not as the condition it posts.
    for (kind, posted) in [
        ("or", model.or(&[])),
        ("and", model.and(&[])),
        ("xor", model.xor(&[])),
        ("at_most_one", model.at_most_one(&[])),
        ("exactly_one", model.exactly_one(&[])),
    ] {
        assert_eq!(posted.unwrap_err(), ModelError::EmptyScope { constraint: kind.to_string() });
    }
    // Coefficients beyond i128 while building, and beyond MAX_COEFFICIENT
    // (2^68) once merged. (Between 2^62 and 2^68 a merged coefficient is
    // kept as several in-range terms: tests/edge_cases.rs.)
    let huge = (0..3).fold(LinearExpr::from(x), |e, _| e * MAX_VALUE);
    assert!(matches!(model.add(huge.le(1)), Err(ModelError::LinearOverflow { .. })));
    let past = LinearExpr::sum((0..65).map(|_| x * MAX_VALUE)); // 65 * 2^62 x
    assert!(matches!(model.add(past.le(1)), Err(ModelError::LinearOverflow { .. })));
    let big = x * MAX_VALUE * MAX_VALUE; // 2^124 x fits i128 ...
    let merged = LinearExpr::sum((0..8).map(|_| big.clone())); // ... 2^127 x, once merged, does not
    assert!(matches!(model.add(merged.le(1)), Err(ModelError::LinearOverflow { .. })));
    let wide = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
    let sum = LinearExpr::sum((0..9).map(|_| MAX_VALUE * model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap()));
    assert!(matches!(model.add(sum.le(wide)), Err(ModelError::LinearOverflow { .. })));
    // A refused condition adds no variable.
    let before = model.num_vars();
    assert!(model.reified(x.eq(stranger)).is_err());
    assert_eq!(model.num_vars(), before);
}

#[test]
fn local_search_counts_the_new_constraints_by_recomputing() {
    // Ten booleans, exactly three true, no two neighbours both true, the
    // first true exactly when the last is.
    let mut model = Model::new();
    let b = model.new_bools(10);
    model.add(model.sum(&b).eq(3)).unwrap();
    for pair in b.windows(2) {
        model.or(&[!pair[0], !pair[1]]).unwrap();
    }
    model.reify(b[0], b[9].eq(1)).unwrap();
    model.xor(&[b[2], b[5]]).unwrap();
    let config = LocalSearchConfig { seed: 3, max_steps: Some(100_000), ..LocalSearchConfig::default() };
    let mut search = LocalSearch::new(&model, config);
    let solution = search.solve().into_solution().expect("local search finds one");
    assert!(model.is_solution(solution.values()));
}

#[test]
fn a_model_reads_like_the_puzzle() {
    // "Exactly two of these statements are true", "if the Norwegian lives in
    // house 1 then the blue house is house 2", "the cage holds a 6 or the
    // row sum is 12".
    let mut model = Model::new();
    let norwegian = model.new_named_var("norwegian", 1..=5).unwrap();
    let blue = model.new_named_var("blue", 1..=5).unwrap();
    let cage = model.new_vars(2, 1..=9).unwrap();
    let row = model.new_vars(3, 1..=9).unwrap();
    let first = model.reified(norwegian.eq(1)).unwrap();
    model.implies(first, blue.eq(2)).unwrap();
    let sixes = [model.reified(cage[0].eq(6)).unwrap(), model.reified(cage[1].eq(6)).unwrap()];
    let six = model.reified(Condition::or(&sixes)).unwrap();
    let twelve = model.reified(model.sum(&row).eq(12)).unwrap();
    model.or(&[six, twelve]).unwrap();
    let statements = [first, six, twelve, model.reified(blue.gt(norwegian)).unwrap()];
    model.add(model.sum(&statements).eq(2)).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    let mut count = 0;
    for solution in solver.solutions().take(200) {
        let truths = statements.iter().filter(|&&s| solution.is_true(s)).count();
        assert_eq!(truths, 2);
        let (n, bl) = (solution[norwegian], solution[blue]);
        assert!(n != 1 || bl == 2);
        let six = solution[cage[0]] == 6 || solution[cage[1]] == 6;
        let twelve = row.iter().map(|&r| solution[r]).sum::<i64>() == 12;
        assert!(six || twelve);
        count += 1;
    }
    assert_eq!(count, 200);
}
