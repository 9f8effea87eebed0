//! `bin_packing_load` against brute force: the soundness harness (loads as
//! variables and constants, bins out of range, sizes of every sign, values at
//! the edges of the range, interval domains), and the solutions of random
//! instances, native and as MiniZinc's decomposition, under bt, fc, mac and
//! learning, compared with every assignment that satisfies the relation.

use std::collections::BTreeSet;

use csp::rng::Rng;
use csp::testing::{Failure, Harness, Strength};
use csp::{Domain, MAX_VALUE, Model, ModelError, Operand, Relation, SolveConfig, Solver, VarId};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

/// The relation, written independently of the constraint: every item in one
/// of the bins `base..base + loads.len()`, each load the sum of its items' sizes.
fn packed(loads: &[i64], bins: &[i64], sizes: &[i64], base: i64) -> bool {
    let mut sums = vec![0i128; loads.len()];
    for (&bin, &size) in bins.iter().zip(sizes) {
        let b = i128::from(bin) - i128::from(base);
        if b < 0 || b >= loads.len() as i128 {
            return false;
        }
        sums[b as usize] += i128::from(size);
    }
    loads.iter().zip(&sums).all(|(&load, &sum)| i128::from(load) == sum)
}

#[test]
fn bin_packing_is_sound_with_variable_loads() {
    // Two bins numbered from 0, three items; bins -1 and 3 are out of range.
    for (k, sizes) in [[2i64, 1, 3], [1, 1, 1], [0, 2, 2], [3, -1, 2]].into_iter().enumerate() {
        let harness = Harness::new(5, -1..=4).cases(500).seed(k as u64);
        assert_holds(
            "bin_packing_load",
            harness.check(Strength::Sound, |m, v| m.bin_packing_load(&v[..2], &v[2..], &sizes, 0).map(drop)),
        );
    }
    // Three bins numbered from 1, with a shared variable: a load that is also a bin.
    let harness = Harness::new(4, 0..=4).cases(500).seed(10);
    assert_holds(
        "bin_packing_load (shared)",
        harness.check(Strength::Sound, |m, v| {
            m.bin_packing_load(&[v[0], v[1], v[2]], &[v[3], v[3], v[0]], &[1, 2, 1], 1).map(drop)
        }),
    );
}

#[test]
fn bin_packing_is_sound_with_constant_loads() {
    let harness = Harness::new(4, 0..=3).cases(500).seed(20);
    assert_holds(
        "bin_packing_load (constant loads)",
        harness.check(Strength::Sound, |m, v| {
            m.bin_packing_load(&[Operand::from(3), Operand::from(v[3]), Operand::from(2)], &v[..3], &[2, 1, 2], 1)
                .map(drop)
        }),
    );
}

#[test]
fn bin_packing_is_sound_at_the_edges_of_the_value_range() {
    let wide = Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, 2, MAX_VALUE - 1, MAX_VALUE]);
    // Sizes near 2^62 whose sums pass 2^63, in both directions.
    let harness = Harness::new(5, wide.clone()).cases(500).seed(30);
    assert_holds(
        "bin_packing_load (wide)",
        harness.check(Strength::Sound, |m, v| {
            m.bin_packing_load(&v[..2], &v[2..], &[MAX_VALUE, MAX_VALUE, 1], 1).map(drop)
        }),
    );
    assert_holds(
        "bin_packing_load (wide, negative)",
        harness.check(Strength::Sound, |m, v| {
            m.bin_packing_load(&v[..2], &v[2..], &[-MAX_VALUE, -MAX_VALUE, MAX_VALUE], -1).map(drop)
        }),
    );
    // Bins numbered from the top of the range.
    let harness = Harness::new(4, wide).cases(500).seed(31);
    assert_holds(
        "bin_packing_load (base at the top)",
        harness.check(Strength::Sound, |m, v| {
            m.bin_packing_load(&v[..2], &v[2..], &[2, MAX_VALUE], MAX_VALUE - 1).map(drop)
        }),
    );
}

#[test]
fn bin_packing_is_sound_on_interval_domains() {
    let config = SolveConfig::default().with_bitset_limit(0);
    let harness = Harness::new(5, -1..=4).cases(400).seed(40).config(config.clone());
    assert_holds(
        "bin_packing_load over intervals",
        harness.check(Strength::Sound, |m, v| m.bin_packing_load(&v[..2], &v[2..], &[2, 1, 3], 0).map(drop)),
    );
    let edges = Domain::range(MAX_VALUE - 3, MAX_VALUE);
    let harness = Harness::with_domains([edges.clone(), edges, Domain::range(0, 2), Domain::range(0, 2)])
        .cases(300)
        .seed(41)
        .config(config);
    assert_holds(
        "bin_packing_load over intervals at the edges",
        harness.check(Strength::Sound, |m, v| m.bin_packing_load(&v[..2], &v[2..], &[MAX_VALUE - 1, 2], 0).map(drop)),
    );
}

/// MiniZinc's decomposition (`fzn_bin_packing_load.mzn`): every bin within
/// the loads' numbers, and each load the sum of `size * (bin = b)`.
fn decompose(model: &mut Model, loads: &[VarId], bins: &[VarId], sizes: &[i64], base: i64) {
    let last = base + loads.len() as i64 - 1;
    for &bin in bins {
        model.linear(&[(1, bin)], Relation::Ge, base).unwrap();
        model.linear(&[(1, bin)], Relation::Le, last).unwrap();
    }
    for (b, &load) in loads.iter().enumerate() {
        let mut terms = vec![(-1, load)];
        for (&bin, &size) in bins.iter().zip(sizes) {
            let inside = model.reified(bin.eq(base + b as i64)).unwrap();
            terms.push((size, inside.var()));
        }
        model.linear(&terms, Relation::Eq, 0).unwrap();
    }
}

/// The search configurations every count is made under.
const SPELLINGS: [&str; 7] = ["bt", "fc", "fc+mrv", "mac", "mac+domwdeg", "mac+learn", "mac+learn+vsids+phase+luby=1"];

/// Every solution of the model, projected on its first `n` variables.
fn solutions(model: &Model, n: usize, spelling: &str) -> BTreeSet<Vec<i64>> {
    let config = spelling.parse::<SolveConfig>().unwrap();
    let learning = config.learning();
    let mut solver = Solver::new(model, config).unwrap();
    // Under learning, every nogood and every propagator's own explanation
    // is checked against brute force (feature `testing`).
    solver.check_nogoods(learning);
    let mut found = BTreeSet::new();
    for solution in solver.solutions() {
        assert!(found.insert(solution.values()[..n].to_vec()), "{spelling}: a solution found twice");
    }
    found
}

/// Every assignment of the domains that `accept` takes.
fn brute_force(domains: &[Vec<i64>], accept: impl Fn(&[i64]) -> bool) -> BTreeSet<Vec<i64>> {
    let mut found = BTreeSet::new();
    csp::testing::for_each_assignment(domains, |values| {
        if accept(values) {
            found.insert(values.to_vec());
        }
    });
    found
}

fn random_subset(rng: &mut Rng, values: std::ops::RangeInclusive<i64>) -> Vec<i64> {
    let mut subset: Vec<i64> = values.clone().filter(|_| rng.below(3) != 0).collect();
    if subset.is_empty() {
        subset.push(*values.start());
    }
    subset
}

#[test]
fn random_bin_packing_instances_have_every_solution() {
    let mut rng = Rng::new(14);
    for round in 0..60 {
        let m = 1 + round % 3;
        let n = 1 + rng.below(4) as usize;
        let base = rng.below(3) as i64 - 1;
        // Mostly sizes of at least 0, as MiniZinc asks; sometimes a negative one.
        let sizes: Vec<i64> = (0..n).map(|_| if rng.below(6) == 0 { -1 } else { rng.below(4) as i64 }).collect();
        let mut domains: Vec<Vec<i64>> = (0..m).map(|_| random_subset(&mut rng, -1..=5)).collect();
        // Bin numbers one beyond each end too.
        domains.extend((0..n).map(|_| random_subset(&mut rng, base - 1..=base + m as i64)));
        let accept = |values: &[i64]| packed(&values[..m], &values[m..], &sizes, base);
        let expected = brute_force(&domains, accept);
        for native in [true, false] {
            let mut model = Model::new();
            let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
            let (loads, bins) = vars.split_at(m);
            if native {
                model.bin_packing_load(loads, bins, &sizes, base).unwrap();
            } else {
                decompose(&mut model, loads, bins, &sizes, base);
            }
            for spelling in SPELLINGS {
                let found = solutions(&model, m + n, spelling);
                assert_eq!(
                    found,
                    expected,
                    "round {round} ({}, {spelling}): sizes {sizes:?}, base {base}, {domains:?}",
                    if native { "native" } else { "decomposition" }
                );
            }
        }
    }
}

#[test]
fn loads_follow_the_items() {
    // Items 4, 3, 3 into bins 1..=3 of capacity 5: the 4 goes alone, the 3s
    // apart, and the loads are 4, 3, 3 in some order.
    let mut model = Model::new();
    let bins = [model.new_var(1..=1).unwrap(), model.new_var(1..=3).unwrap(), model.new_var(1..=3).unwrap()];
    let loads = model.new_vars(3, 0..=5).unwrap();
    model.bin_packing_load(&loads, &bins, &[4, 3, 3], 1).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    // Bin 1 holds the 4: no 3 fits beside it.
    assert_eq!(domains[loads[0].index()].iter().collect::<Vec<_>>(), vec![4]);
    assert!(!domains[bins[1].index()].contains(1));
    assert!(!domains[bins[2].index()].contains(1));
    // The loads add up to 10: with bin 1 at 4, bins 2 and 3 hold 6 within 0..=5 each.
    assert_eq!(domains[loads[1].index()].min(), Some(1));
}

#[test]
fn an_item_goes_into_the_bin_that_needs_it() {
    // Bin 0 must reach 5: only with item 1 (size 5) can it.
    let mut model = Model::new();
    let bins = model.new_vars(3, 0..=1).unwrap();
    let loads = [model.new_var(5..=5).unwrap(), model.new_var(0..=10).unwrap()];
    model.bin_packing_load(&loads, &bins, &[2, 5, 2], 0).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert_eq!(domains[bins[1].index()].iter().collect::<Vec<_>>(), vec![0]);
    assert_eq!(domains[loads[1].index()].iter().collect::<Vec<_>>(), vec![4]);
}

#[test]
fn without_loads_no_item_can_be_placed() {
    let mut model = Model::new();
    let bin = model.new_var(0..=3).unwrap();
    model.bin_packing_load::<i64>(&[], &[bin], &[1], 0).unwrap();
    assert!(Solver::new(&model, SolveConfig::default()).unwrap().root_domains().is_none());
    // Without items every load is 0.
    let mut model = Model::new();
    let loads = model.new_vars(2, -2..=2).unwrap();
    model.bin_packing_load(&loads, &[], &[], 5).unwrap();
    assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 1);
}

#[test]
fn bad_bin_packing_arguments_are_typed_errors() {
    let mut model = Model::new();
    let bins = model.new_vars(2, 0..=1).unwrap();
    let loads = model.new_vars(2, 0..=9).unwrap();
    assert!(matches!(
        model.bin_packing_load(&loads, &bins, &[1], 0),
        Err(ModelError::LengthMismatch { what: "sizes", .. })
    ));
    assert!(matches!(
        model.bin_packing_load(&loads, &bins, &[1, i64::MAX], 0),
        Err(ModelError::ValueOutOfRange { .. })
    ));
    assert!(matches!(
        model.bin_packing_load(&loads, &bins, &[1, 1], i64::MIN),
        Err(ModelError::ValueOutOfRange { .. })
    ));
    assert!(matches!(model.bin_packing_load(&[i64::MAX], &bins, &[1, 1], 0), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.bin_packing_load::<i64>(&[1, 2], &[], &[], 0), Err(ModelError::EmptyScope { .. })));
    let mut other = Model::new();
    let foreign = other.new_var(0..=1).unwrap();
    assert!(matches!(
        model.bin_packing_load(&loads, &[bins[0], foreign], &[1, 1], 0),
        Err(ModelError::ForeignVariable { .. })
    ));
}

/// Local search counts the violation by recomputing the relation (0 or 1):
/// what it returns must still be a solution.
#[test]
fn local_search_solves_a_packing() {
    use csp::{LocalSearch, LocalSearchConfig, Solution};
    let mut model = Model::new();
    let bins = model.new_vars(5, 0..=2).unwrap();
    let loads = model.new_vars(3, 0..=4).unwrap();
    model.bin_packing_load(&loads, &bins, &[3, 2, 2, 1, 1], 0).unwrap();
    for seed in 0..3 {
        let config = LocalSearchConfig { seed, max_steps: Some(100_000), ..LocalSearchConfig::default() };
        let mut search = LocalSearch::new(&model, config);
        let values = search.solve().into_solution().map(Solution::into_values).expect("an easy model is solved");
        assert!(model.is_solution(&values), "seed {seed}: {values:?}");
    }
}

/// MiniZinc's diffn, written independently of the constraint: every pair
/// apart in `x` or `y` (non-strict: or one of the pair has a size 0).
fn apart(boxes: &[[i64; 4]], nonstrict: bool) -> bool {
    let before = |a: i64, d: i64, b: i64| i128::from(a) + i128::from(d) <= i128::from(b);
    boxes.iter().enumerate().all(|(i, a)| {
        boxes[i + 1..].iter().all(|b| {
            (nonstrict && [a[2], a[3], b[2], b[3]].contains(&0))
                || before(a[0], a[2], b[0])
                || before(a[1], a[3], b[1])
                || before(b[0], b[2], a[0])
                || before(b[1], b[3], a[1])
        })
    })
}

#[test]
fn diffn_is_sound_in_both_forms() {
    // Two rectangles, everything a variable, negative and zero sizes included.
    let harness = Harness::new(8, -1..=2).cases(600).seed(60);
    for nonstrict in [false, true] {
        assert_holds(
            "diffn (variables)",
            harness.check(Strength::Sound, |m, v| {
                if nonstrict {
                    m.diffn_nonstrict(&v[0..2], &v[2..4], &v[4..6], &v[6..8]).map(drop)
                } else {
                    m.diffn(&v[0..2], &v[2..4], &v[4..6], &v[6..8]).map(drop)
                }
            }),
        );
    }
    // Three rectangles of constant sizes, a zero width among them.
    for (k, (dx, dy)) in
        [([2i64, 1, 2], [1i64, 2, 2]), ([0, 2, 1], [2, 1, 1]), ([3, 1, 1], [1, 3, 1])].into_iter().enumerate()
    {
        let harness = Harness::new(6, 0..=3).cases(500).seed(61 + k as u64);
        assert_holds("diffn", harness.check(Strength::Sound, |m, v| m.diffn(&v[..3], &v[3..], &dx, &dy).map(drop)));
        assert_holds(
            "diffn_nonstrict",
            harness.check(Strength::Sound, |m, v| m.diffn_nonstrict(&v[..3], &v[3..], &dx, &dy).map(drop)),
        );
    }
    // A variable shared between an origin and a size.
    let harness = Harness::new(3, 0..=3).cases(400).seed(65);
    assert_holds(
        "diffn (shared)",
        harness.check(Strength::Sound, |m, v| m.diffn(&[v[0], v[1]], &[v[2], v[2]], &[v[1], v[0]], &[1, 1]).map(drop)),
    );
}

#[test]
fn diffn_is_sound_at_the_edges_and_over_intervals() {
    let wide = Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, 2, MAX_VALUE - 1, MAX_VALUE]);
    let harness = Harness::new(6, wide).cases(600).seed(70);
    assert_holds(
        "diffn (wide)",
        harness.check(Strength::Sound, |m, v| m.diffn(&v[0..2], &v[2..4], &v[4..6], &[MAX_VALUE, 1]).map(drop)),
    );
    assert_holds(
        "diffn_nonstrict (wide)",
        harness.check(Strength::Sound, |m, v| {
            m.diffn_nonstrict(&v[0..2], &v[2..4], &[MAX_VALUE, -MAX_VALUE], &v[4..6]).map(drop)
        }),
    );
    let config = SolveConfig::default().with_bitset_limit(0);
    let harness = Harness::new(6, -1..=4).cases(400).seed(71).config(config);
    assert_holds(
        "diffn over intervals",
        harness.check(Strength::Sound, |m, v| m.diffn(&v[..3], &v[3..], &[2, 1, 2], &[1, 2, 2]).map(drop)),
    );
    assert_holds(
        "diffn_nonstrict over intervals",
        harness.check(Strength::Sound, |m, v| m.diffn_nonstrict(&v[..2], &v[2..4], &v[4..6], &[1, 2]).map(drop)),
    );
}

/// MiniZinc's decomposition of diffn, over the engine's clauses and reified
/// linear comparisons.
fn decompose_diffn(model: &mut Model, boxes: &[[VarId; 4]], nonstrict: bool) {
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let mut literals = vec![
                model.reified((a[0] + a[2]).le(b[0])).unwrap(),
                model.reified((a[1] + a[3]).le(b[1])).unwrap(),
                model.reified((b[0] + b[2]).le(a[0])).unwrap(),
                model.reified((b[1] + b[3]).le(a[1])).unwrap(),
            ];
            if nonstrict {
                for size in [a[2], a[3], b[2], b[3]] {
                    literals.push(model.reified(size.eq(0)).unwrap());
                }
            }
            model.or(&literals).unwrap();
        }
    }
}

#[test]
fn random_diffn_instances_have_every_solution() {
    let mut rng = Rng::new(15);
    for round in 0..40 {
        let n = 2 + round % 2;
        let nonstrict = round % 4 >= 2;
        // Per rectangle: x, y, dx, dy; sizes mostly constant, sometimes variable.
        let mut domains = Vec::new();
        for _ in 0..n {
            domains.push(random_subset(&mut rng, 0..=3));
            domains.push(random_subset(&mut rng, 0..=2));
            for _ in 0..2 {
                domains.push(if rng.below(3) == 0 {
                    random_subset(&mut rng, 0..=2)
                } else {
                    vec![1 + rng.below(2) as i64]
                });
            }
        }
        let boxes_of =
            |values: &[i64]| -> Vec<[i64; 4]> { values.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect() };
        let expected = brute_force(&domains, |values| apart(&boxes_of(values), nonstrict));
        for native in [true, false] {
            let mut model = Model::new();
            let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
            let boxes: Vec<[VarId; 4]> = vars.chunks(4).map(|c| [c[0], c[1], c[2], c[3]]).collect();
            if native {
                let column = |k: usize| boxes.iter().map(|b| b[k]).collect::<Vec<_>>();
                if nonstrict {
                    model.diffn_nonstrict(&column(0), &column(1), &column(2), &column(3)).unwrap();
                } else {
                    model.diffn(&column(0), &column(1), &column(2), &column(3)).unwrap();
                }
            } else {
                decompose_diffn(&mut model, &boxes, nonstrict);
            }
            for spelling in SPELLINGS {
                let found = solutions(&model, vars.len(), spelling);
                assert_eq!(
                    found,
                    expected,
                    "round {round} ({}, {spelling}, nonstrict {nonstrict}): {domains:?}",
                    if native { "native" } else { "decomposition" }
                );
            }
        }
    }
}

#[test]
fn diffn_places_the_last_square() {
    // A 3x3 square at the origin of a 4x3 box leaves one column for a 1x3 bar.
    let mut model = Model::new();
    let x = [model.new_var(0..=0).unwrap(), model.new_var(0..=3).unwrap()];
    let y = [model.new_var(0..=0).unwrap(), model.new_var(0..=0).unwrap()];
    model.diffn(&x, &y, &[3, 1], &[3, 3]).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert_eq!(domains[x[1].index()].iter().collect::<Vec<_>>(), vec![3]);
}

#[test]
fn bad_diffn_arguments_are_typed_errors() {
    let mut model = Model::new();
    let v = model.new_vars(4, 0..=3).unwrap();
    assert!(matches!(
        model.diffn(&v[..2], &v[2..3], &[1, 1], &[1, 1]),
        Err(ModelError::LengthMismatch { what: "y", .. })
    ));
    assert!(matches!(
        model.diffn_nonstrict(&v[..2], &v[2..], &[1, 1], &[1]),
        Err(ModelError::LengthMismatch { what: "dy", .. })
    ));
    assert!(matches!(model.diffn(&v[..2], &v[2..], &[1, i64::MIN], &[1, 1]), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.diffn::<i64, i64>(&[], &[], &[], &[]), Err(ModelError::EmptyScope { .. })));
}

/// Bin packing under search that learns, on larger instances than above
/// (up to six items, some load constant), with the debug check of every
/// explanation: the solutions are brute force's.
#[test]
fn learning_packs_random_instances_as_brute_force_does() {
    let mut rng = Rng::new(16);
    for round in 0..40 {
        let m = 2 + round % 2;
        let n = 6 + rng.below(2) as usize;
        let base = rng.below(3) as i64;
        let sizes: Vec<i64> = (0..n).map(|_| if rng.below(8) == 0 { -1 } else { 1 + rng.below(3) as i64 }).collect();
        let mut domains: Vec<Vec<i64>> = (0..m)
            .map(|_| if rng.below(4) == 0 { vec![rng.below(5) as i64] } else { random_subset(&mut rng, 0..=9) })
            .collect();
        let every_bin: Vec<i64> = (base..base + m as i64).collect();
        domains.extend((0..n).map(|_| {
            if rng.below(3) == 0 { random_subset(&mut rng, base..=base + m as i64) } else { every_bin.clone() }
        }));
        let accept = |values: &[i64]| packed(&values[..m], &values[m..], &sizes, base);
        let expected = brute_force(&domains, accept);
        let mut model = Model::new();
        let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        let (loads, bins) = vars.split_at(m);
        model.bin_packing_load(loads, bins, &sizes, base).unwrap();
        for spelling in ["mac+learn", "mac+learn+vsids+phase+luby=1", "mac+learn+mrv+seed=3"] {
            let found = solutions(&model, m + n, spelling);
            assert_eq!(found, expected, "round {round} ({spelling}): sizes {sizes:?}, base {base}, {domains:?}");
        }
    }
}

/// Bins as intervals over more than 64 bin numbers: an item fixed into the
/// one bin that needs it moves its bin's bound past dozens of bins at once,
/// explained by that need (the bins passed that name no load need nothing),
/// checked against brute force under learning, from small bases and near
/// ±2^62.
#[test]
fn learning_explains_wide_interval_bins() {
    let mut rng = Rng::new(18);
    for base in [0, -3, MAX_VALUE - 80, -MAX_VALUE] {
        for round in 0..6 {
            let m = 66 + round % 5;
            let sizes: Vec<i64> = (0..2).map(|_| 1 + rng.below(3) as i64).collect();
            // The first, a middle and the last load may take items; the others stay empty.
            let open = [0, m / 2, m - 1];
            let mut domains: Vec<Vec<i64>> =
                (0..m).map(|b| if open.contains(&b) { (0..=3).collect() } else { vec![0] }).collect();
            // Items over every bin number and a few beyond.
            domains.extend((0..2).map(|_| (base.max(-MAX_VALUE + 2) - 2..=base + m as i64 + 1).collect()));
            // The items close: a conflict once one is fixed at an end asks
            // why it left the other bins.
            let accept = |values: &[i64]| {
                packed(&values[..m], &values[m..], &sizes, base) && (values[m] - values[m + 1]).abs() <= 40
            };
            let expected = brute_force(&domains, accept);
            let mut model = Model::new();
            let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d[0]..=d[d.len() - 1]).unwrap()).collect();
            let (loads, bins) = vars.split_at(m);
            model.bin_packing_load(loads, bins, &sizes, base).unwrap();
            model.add(vars[m].le(vars[m + 1] + 40)).unwrap();
            model.add(vars[m + 1].le(vars[m] + 40)).unwrap();
            for limit in [1 << 16, 1] {
                for spelling in
                    ["mac+learn", "mac+learn+desc", "mac+learn+random+seed=3", "mac+learn+vsids+phase+luby=1"]
                {
                    let config = spelling.parse::<SolveConfig>().unwrap().with_bitset_limit(limit);
                    let mut solver = Solver::new(&model, config).unwrap();
                    solver.check_nogoods(true);
                    let found: BTreeSet<Vec<i64>> =
                        solver.solutions().map(|solution| solution.values()[..m + 2].to_vec()).collect();
                    assert_eq!(
                        found, expected,
                        "round {round} from {base}, limit {limit} ({spelling}): sizes {sizes:?}"
                    );
                }
            }
        }
    }
}
