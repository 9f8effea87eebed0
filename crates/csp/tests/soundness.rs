//! The brute-force soundness harness run on every built-in constraint: no
//! supported value is ever removed, fixed domains are checked, and the
//! propagators that claim domain consistency remove every unsupported value.

use csp::testing::{Harness, PlantedBug, Strength};
use csp::{
    AllDifferentStrength, Constraint, Context, Domain, Model, PropagationResult, Propagator, PropagatorOptions,
    Relation, SolveConfig, Solver, VarId, WordSlot,
};

fn assert_holds(name: &str, result: Result<usize, Vec<csp::testing::Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

fn matching() -> SolveConfig {
    SolveConfig::default().with_all_different(AllDifferentStrength::Matching)
}

fn pairwise() -> SolveConfig {
    SolveConfig::default().with_all_different(AllDifferentStrength::Pairwise)
}

#[test]
fn binary_constraints_are_domain_consistent() {
    let harness = Harness::new(2, -3..=4).cases(600);
    assert_holds("equal", harness.check(Strength::DomainConsistent, |m, v| m.equal(v[0], v[1]).map(drop)));
    assert_holds("not_equal", harness.check(Strength::DomainConsistent, |m, v| m.not_equal(v[0], v[1]).map(drop)));
    for offset in [-2, 0, 3] {
        assert_holds(
            "not_equal_offset",
            harness.check(Strength::DomainConsistent, |m, v| m.not_equal_offset(v[0], v[1], offset).map(drop)),
        );
    }
    assert_holds("less_than", harness.check(Strength::DomainConsistent, |m, v| m.less_than(v[0], v[1]).map(drop)));
    assert_holds(
        "less_or_equal",
        harness.check(Strength::DomainConsistent, |m, v| m.less_or_equal(v[0], v[1]).map(drop)),
    );
}

#[test]
fn sparse_domains_with_holes_and_negative_values() {
    let values = Domain::values([-7, -3, 0, 2, 9, 64, 130]);
    let harness = Harness::new(3, values).cases(400).seed(3);
    assert_holds(
        "all_different (matching) on sparse values",
        harness.config(matching()).check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)),
    );
    let harness = Harness::new(2, Domain::values([-7, -3, 0, 2, 9, 64, 130])).cases(400);
    assert_holds(
        "less_than on sparse values",
        harness.check(Strength::DomainConsistent, |m, v| m.less_than(v[0], v[1]).map(drop)),
    );
}

#[test]
fn matching_all_different_is_domain_consistent() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, 1..=5).cases(400).seed(arity as u64).config(matching());
        assert_holds(
            "all_different (matching)",
            harness.check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)),
        );
        let offsets: Vec<i64> = (0..arity as i64).map(|i| 2 * i - 3).collect();
        assert_holds(
            "all_different_offset (matching)",
            harness.check(Strength::DomainConsistent, |m, v| m.all_different_offset(v, &offsets).map(drop)),
        );
    }
}

/// As many values as variables: the matching's shortcuts for tight
/// constraints with few unfixed variables must keep it domain consistent.
#[test]
fn matching_all_different_is_domain_consistent_when_tight() {
    for arity in 2..=6 {
        let harness = Harness::new(arity, 1..=arity as i64).cases(600).seed(30 + arity as u64).config(matching());
        assert_holds(
            "tight all_different",
            harness.check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)),
        );
    }
    let harness = Harness::new(4, 1..=5).cases(600).seed(77).config(matching());
    assert_holds(
        "nearly tight all_different",
        harness.check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)),
    );
}

#[test]
fn pairwise_all_different_is_sound() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, 1..=4).cases(400).seed(10 + arity as u64).config(pairwise());
        assert_holds("all_different (pairwise)", harness.check(Strength::Sound, |m, v| m.all_different(v).map(drop)));
        let offsets: Vec<i64> = (0..arity as i64).collect();
        assert_holds(
            "all_different_offset (pairwise)",
            harness.check(Strength::Sound, |m, v| m.all_different_offset(v, &offsets).map(drop)),
        );
    }
}

/// Pairwise elimination on two variables is the not-equal constraint, which is
/// domain consistent: a test that the harness can tell strengths apart.
#[test]
fn pairwise_all_different_on_two_variables_is_domain_consistent() {
    let harness = Harness::new(2, 1..=4).cases(400).config(pairwise());
    assert_holds(
        "all_different of two",
        harness.check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)),
    );
    let harness = Harness::new(3, 1..=3).cases(400).config(pairwise());
    assert!(
        harness.check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)).is_err(),
        "pairwise elimination over three variables is weaker than domain consistency, and the harness should see it"
    );
}

#[test]
fn linear_is_sound_for_every_relation() {
    for relation in [Relation::Eq, Relation::Le, Relation::Ge] {
        for (terms, rhs) in [(vec![1, 1, 1], 6), (vec![2, -3, 1], 1), (vec![-1, 4, 0], -2), (vec![5, 5, -7], 3)] {
            let harness = Harness::new(3, -3..=4).cases(300).seed((rhs + 20) as u64);
            assert_holds(
                "linear",
                harness.check(Strength::Sound, |m, v| {
                    let terms: Vec<(i64, VarId)> = terms.iter().copied().zip(v.iter().copied()).collect();
                    m.linear(&terms, relation, rhs).map(drop)
                }),
            );
        }
    }
}

#[test]
fn table_is_domain_consistent() {
    let rows =
        vec![vec![1, 2, 3], vec![1, 1, 1], vec![2, 3, 1], vec![3, 3, 3], vec![2, 1, 4], vec![4, 4, 2], vec![1, 4, 4]];
    let harness = Harness::new(3, 1..=4).cases(600).seed(5);
    assert_holds("table", harness.check(Strength::DomainConsistent, |m, v| m.table(v, &rows).map(drop)));
}

#[test]
fn predicates_get_generic_arc_consistency() {
    let harness = Harness::new(3, 0..=4).cases(500).seed(9);
    assert_holds(
        "predicate (x + y) % 3 == z % 3",
        harness.check(Strength::DomainConsistent, |m, v| m.predicate(v, |t| (t[0] + t[1]) % 3 == t[2] % 3).map(drop)),
    );
    let harness = Harness::new(4, 0..=3).cases(300).seed(2);
    assert_holds(
        "predicate: strictly increasing",
        harness
            .check(Strength::DomainConsistent, |m, v| m.predicate(v, |t| t.windows(2).all(|w| w[0] < w[1])).map(drop)),
    );
}

/// A user constraint with only a check is propagated generically, and is
/// domain consistent.
struct NoThreeEqual(Vec<VarId>);

impl Constraint for NoThreeEqual {
    fn scope(&self) -> &[VarId] {
        &self.0
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        values.iter().all(|v| values.iter().filter(|w| *w == v).count() < 3)
    }
}

#[test]
fn a_check_only_constraint_is_domain_consistent() {
    let harness = Harness::new(4, 1..=3).cases(300).seed(4);
    assert_holds(
        "no three equal",
        harness.check(Strength::DomainConsistent, |m, v| m.post(NoThreeEqual(v.to_vec())).map(drop)),
    );
}

/// A planted bug must be caught: a "not equal" whose propagator also removes
/// the other variable's neighbours is unsound.
#[test]
fn the_harness_catches_an_unsound_propagator() {
    // At the harness's root propagation, to a fixpoint, its propagator is the buggy one.
    let harness = Harness::new(2, 0..=3).cases(300);
    let result = harness.check(Strength::Sound, |m, v| m.post(PlantedBug([v[0], v[1]])).map(drop));
    let failures = result.expect_err("the bug must be found");
    assert!(failures[0].problem.contains("lost the supported value"), "{}", failures[0]);
}

/// `y == x + 1` with a propagator written on whole words: it reads them
/// through `Context::small_domain`, or, when both domains are small from the
/// start, through the word slots it found in `initialise`
/// (`Context::word_slot`, `Context::read_slot`), and narrows them with
/// `Context::retain_small`.
struct Successor([VarId; 2]);

impl Constraint for Successor {
    fn scope(&self) -> &[VarId] {
        &self.0
    }
    fn is_satisfied(&self, values: &[i64]) -> bool {
        values[1] == values[0] + 1
    }
    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(SuccessorPropagator { vars: self.0, slots: None }))
    }
}

struct SuccessorPropagator {
    vars: [VarId; 2],
    slots: Option<[WordSlot; 2]>,
}

impl Propagator for SuccessorPropagator {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        let [x, y] = self.vars;
        self.slots = ctx.word_slot(x).zip(ctx.word_slot(y)).map(|(sx, sy)| [sx, sy]);
    }
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let [x, y] = self.vars;
        let (mut small_x, mut small_y) = (ctx.small_domain(x), ctx.small_domain(y));
        if let Some([sx, sy]) = self.slots {
            // A slot reads what `small_domain` reads, and the propagator
            // takes its words from the slots.
            assert_eq!(small_x.map(|(_, w)| w), Some(ctx.read_slot(sx)));
            assert_eq!(small_y.map(|(_, w)| w), Some(ctx.read_slot(sy)));
            small_x = small_x.map(|(b, _)| (b, ctx.read_slot(sx)));
            small_y = small_y.map(|(b, _)| (b, ctx.read_slot(sy)));
        }
        let (Some((bx, wx)), Some((by, wy))) = (small_x, small_y) else {
            // Sparse domains (the harness makes many): value by value.
            let keep_y: Vec<i64> = ctx.values(y).filter(|&v| ctx.contains(x, v - 1)).collect();
            ctx.retain(y, |v| keep_y.contains(&v))?;
            let keep_x: Vec<i64> = ctx.values(x).filter(|&v| ctx.contains(y, v + 1)).collect();
            ctx.retain(x, |v| keep_x.contains(&v))?;
            return Ok(());
        };
        // Bit i of x stands for bx + i; y must hold bx + i + 1, its bit bx + i + 1 - by.
        let shift = bx + 1 - by;
        let shifted = |w: u64, s: i64| {
            if s >= 0 { w.checked_shl(s as u32).unwrap_or(0) } else { w.checked_shr((-s) as u32).unwrap_or(0) }
        };
        ctx.retain_small(y, shifted(wx, shift))?;
        let wy = match self.slots {
            Some([_, sy]) => ctx.read_slot(sy),
            None => ctx.small_domain(y).map_or(wy, |(_, w)| w),
        };
        ctx.retain_small(x, shifted(wy, -shift))?;
        Ok(())
    }
    fn is_idempotent(&self) -> bool {
        true
    }
}

#[test]
fn word_level_propagators_are_domain_consistent() {
    for domain in [Domain::range(0, 6), Domain::range(-3, 3)] {
        let harness = Harness::new(2, domain).cases(400);
        assert_holds(
            "successor",
            harness.check(Strength::DomainConsistent, |m, v| m.post(Successor([v[0], v[1]])).map(drop)),
        );
    }
}

/// The word-level propagator under search that learns: its narrowings
/// through `retain_small` are recorded in the history, so the nogoods (each
/// checked against brute force) and the counts are those of plain search.
#[test]
fn word_level_propagators_under_learning_count_every_solution() {
    for (n, lo, hi) in [(5, 0, 6), (6, -3, 4), (7, 1, 9)] {
        let mut model = Model::new();
        let vars = model.new_vars(n, lo..=hi).unwrap();
        for pair in vars.windows(2).step_by(2) {
            model.post(Successor([pair[0], pair[1]])).unwrap();
        }
        for (i, &a) in vars.iter().enumerate() {
            for &b in &vars[i + 1..] {
                if (a.index() + b.index()) % 3 == 0 {
                    model.not_equal(a, b).unwrap();
                }
            }
        }
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        assert!(expected > 0);
        for spelling in ["mac+learn", "mac+learn+domwdeg", "mac+learn+vsids+phase+luby=5"] {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            assert_eq!(solver.count(None).solutions, expected, "{spelling}, {n} variables over {lo}..={hi}");
        }
    }
}

fn bounds() -> SolveConfig {
    SolveConfig::default().with_all_different(AllDifferentStrength::Bounds)
}

#[test]
fn bounds_all_different_is_bounds_consistent() {
    for arity in 2..=5 {
        let harness = Harness::new(arity, 1..=5).cases(500).seed(50 + arity as u64).config(bounds());
        assert_holds(
            "all_different (bounds)",
            harness.check(Strength::BoundsConsistent, |m, v| m.all_different(v).map(drop)),
        );
        let offsets: Vec<i64> = (0..arity as i64).map(|i| 3 - 2 * i).collect();
        assert_holds(
            "all_different_offset (bounds)",
            harness.check(Strength::BoundsConsistent, |m, v| m.all_different_offset(v, &offsets).map(drop)),
        );
    }
    // Tight: as many values as variables, where Hall intervals abound.
    for arity in 3..=6 {
        let harness = Harness::new(arity, 1..=arity as i64).cases(500).seed(60 + arity as u64).config(bounds());
        assert_holds(
            "tight all_different (bounds)",
            harness.check(Strength::BoundsConsistent, |m, v| m.all_different(v).map(drop)),
        );
    }
}

/// Bounds consistency keeps inner values: the harness can tell it from
/// domain consistency.
#[test]
fn bounds_all_different_is_weaker_than_domain_consistency() {
    let harness = Harness::new(3, 1..=4).cases(400).config(bounds());
    assert!(harness.check(Strength::DomainConsistent, |m, v| m.all_different(v).map(drop)).is_err());
}

#[test]
fn bounds_all_different_at_the_edges_of_the_value_range() {
    let max = csp::MAX_VALUE;
    let values = Domain::values([-max, -max + 1, -max + 2, max - 2, max - 1, max]);
    // Offsets of ±2^62 are in `all_different_offsets_of_2_62_at_the_edges`.
    for offsets in [[0, 0, 0], [3, -3, 1], [-2, 0, 2]] {
        let harness = Harness::new(3, values.clone()).cases(400).seed(7).config(bounds());
        assert_holds(
            "all_different_offset (bounds) near 2^62",
            harness.check(Strength::Sound, |m, v| m.all_different_offset(v, &offsets).map(drop)),
        );
    }
}

/// Offsets of `±2^62` on values near `±2^62`: the shifted values reach
/// `±2^63`, beyond `i64`, and some pairs meet only there (`2^62 + 2^62` and
/// `(2^62 - 1) + (2^62 + 1)`). Every strength is sound; matching stays
/// domain consistent.
#[test]
fn all_different_offsets_of_2_62_at_the_edges() {
    let max = csp::MAX_VALUE;
    let values = Domain::values([-max, -max + 1, -1, 0, 1, max - 1, max]);
    let offsets = [[max, -max, 0], [max, max - 1, 1], [-max, -max + 1, -max], [max, 1 - max, max - 1]];
    let strengths = [
        (AllDifferentStrength::Matching, Strength::DomainConsistent),
        (AllDifferentStrength::Pairwise, Strength::Sound),
        (AllDifferentStrength::Bounds, Strength::Sound),
        (AllDifferentStrength::Cover, Strength::Sound),
    ];
    for (seed, offsets) in offsets.iter().enumerate() {
        for (strength, promise) in strengths {
            let config = SolveConfig::default().with_all_different(strength);
            let harness = Harness::new(3, values.clone()).cases(300).seed(90 + seed as u64).config(config);
            assert_holds(
                &format!("all_different_offset {offsets:?} ({strength:?}) near 2^62"),
                harness.check(promise, |m, v| m.all_different_offset(v, offsets).map(drop)),
            );
        }
    }
}

fn cover() -> SolveConfig {
    SolveConfig::default().with_all_different(AllDifferentStrength::Cover)
}

#[test]
fn cover_all_different_is_sound() {
    for arity in 2..=5 {
        // Tight (a permutation whenever the random domains cover the values)
        // and loose (one value more: pairwise only).
        for extra in [0, 1] {
            let values = 1..=arity as i64 + extra;
            let harness = Harness::new(arity, values).cases(500).seed(70 + arity as u64).config(cover());
            assert_holds("all_different (cover)", harness.check(Strength::Sound, |m, v| m.all_different(v).map(drop)));
            let offsets: Vec<i64> = (0..arity as i64).map(|i| 1 - i).collect();
            assert_holds(
                "all_different_offset (cover)",
                harness.check(Strength::Sound, |m, v| m.all_different_offset(v, &offsets).map(drop)),
            );
        }
    }
    let max = csp::MAX_VALUE;
    let values = Domain::values([-max, -max + 1, -max + 2, max - 2, max - 1, max]);
    for offsets in [[0, 0, 0], [3, -3, 1], [-2, 0, 2]] {
        let harness = Harness::new(3, values.clone()).cases(400).seed(8).config(cover());
        assert_holds(
            "all_different_offset (cover) near 2^62",
            harness.check(Strength::Sound, |m, v| m.all_different_offset(v, &offsets).map(drop)),
        );
    }
}

/// The cover strength's root fixpoint is exactly that of unit propagation
/// on the exact-cover encoding, computed here by the rules themselves on
/// shifted values: a fixed variable's value leaves the others, and when
/// the initial domains hold as many shifted values as variables, a value
/// with one place is fixed there and a value with none fails. Domains one
/// word apart and near `±2^62`, offsets up to `2^62`, shifted values
/// consecutive (one word) or scattered (several words, or a sorted list).
#[test]
fn cover_all_different_is_unit_propagation_on_the_exact_cover_encoding() {
    let max = csp::MAX_VALUE;
    let mut rng = csp::rng::Rng::new(41);
    let (mut singles, mut failures, mut loose) = (0, 0, 0);
    for case in 0..3000 {
        let n = 2 + rng.below(6) as usize;
        let extra = [0, 0, 0, 1][rng.below(4) as usize];
        let step = [1, 1, 40, 1 << 40][case % 4];
        let target = [0, max - 8 * step, -max][rng.below(3) as usize];
        // Variable `i` holds `base[i] + k * step`, its shifted value `target + k * step`.
        let bases: Vec<i64> = (0..n)
            .map(|_| {
                loop {
                    let base = [0, 5, max - 8 * step, -max, -3][rng.below(5) as usize];
                    if (i128::from(target) - i128::from(base)).abs() <= i128::from(max) {
                        break base;
                    }
                }
            })
            .collect();
        let offsets: Vec<i64> = bases.iter().map(|&b| target - b).collect();
        let domains: Vec<Vec<i64>> = bases
            .iter()
            .map(|&b| {
                let all = (0..(n + extra) as i64).map(|k| b + k * step);
                let picked: Vec<i64> = all.clone().filter(|_| rng.below(5) != 0).collect();
                if picked.is_empty() { vec![b] } else { picked }
            })
            .collect();
        let mut model = Model::new();
        let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        model.all_different_offset(&vars, &offsets).unwrap();
        let got = Solver::new(&model, cover()).unwrap().root_domains();
        let got: Option<Vec<Vec<i64>>> =
            got.map(|left| vars.iter().map(|v| left[v.index()].iter().collect()).collect());
        let expected = unit_propagation(&domains, &offsets);
        assert_eq!(got, expected, "case {case}: domains {domains:?}, offsets {offsets:?}");
        let union: std::collections::BTreeSet<i128> = domains
            .iter()
            .zip(&offsets)
            .flat_map(|(d, &o)| d.iter().map(move |&v| i128::from(v) + i128::from(o)))
            .collect();
        match &expected {
            None => failures += 1,
            Some(_) if union.len() != n => loose += 1,
            Some(left) if left.iter().zip(&domains).any(|(l, d)| l.len() == 1 && d.len() > 1) => singles += 1,
            Some(_) => {}
        }
    }
    assert!(singles > 100 && failures > 20 && loose > 100, "{singles} {failures} {loose}");
}

/// The rules of [`cover_all_different_is_unit_propagation_on_the_exact_cover_encoding`]
/// to their fixpoint, or `None` on a failure.
fn unit_propagation(domains: &[Vec<i64>], offsets: &[i64]) -> Option<Vec<Vec<i64>>> {
    let shift = |p: usize, v: i64| i128::from(v) + i128::from(offsets[p]);
    let mut dom: Vec<Vec<i64>> = domains.to_vec();
    let universe: std::collections::BTreeSet<i128> =
        dom.iter().enumerate().flat_map(|(p, d)| d.iter().map(move |&v| shift(p, v))).collect();
    let permutation = universe.len() == dom.len();
    loop {
        let before = dom.clone();
        for p in 0..dom.len() {
            if let [value] = dom[p][..] {
                for q in (0..dom.len()).filter(|&q| q != p) {
                    dom[q].retain(|&w| shift(q, w) != shift(p, value));
                }
            }
        }
        if dom.iter().any(Vec::is_empty) {
            return None;
        }
        if permutation {
            for &value in &universe {
                let places: Vec<usize> =
                    (0..dom.len()).filter(|&p| dom[p].iter().any(|&w| shift(p, w) == value)).collect();
                match places[..] {
                    [] => return None,
                    [p] => dom[p].retain(|&w| shift(p, w) == value),
                    _ => {}
                }
            }
        }
        if dom == before {
            return Some(dom);
        }
    }
}
