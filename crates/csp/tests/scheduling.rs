//! The scheduling constraints: `cumulative`, `disjunctive` and
//! `disjunctive_strict`, against brute force (the soundness harness, with
//! durations, uses and capacities as constants and as variables, and counts
//! of random instances under every propagation level), at the edges of the
//! value range, and their argument errors.

use csp::rng::Rng;
use csp::testing::{Failure, Harness, Strength};
use csp::{
    Domain, MAX_VALUE, Model, ModelError, Operand, OptimizationOutcome, Propagation, Relation, SolveConfig, Solver,
    VarId, VarOrder,
};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

/// Values at both ends of the range and around 0.
fn wide_values() -> Domain {
    Domain::values([-MAX_VALUE, -MAX_VALUE + 1, -1, 0, 1, 2, MAX_VALUE - 1, MAX_VALUE])
}

#[test]
fn cumulative_with_constant_durations_and_uses_is_sound() {
    let shapes: [(&[i64], &[i64], i64); 5] = [
        (&[2, 1, 3], &[1, 2, 1], 2),
        (&[1, 1, 1], &[1, 1, 1], 1),
        (&[2, 0, 2], &[2, 3, 1], 2),
        (&[3, 2, 2], &[0, 1, 1], 1),
        (&[2, 2, 1, 1], &[1, 1, 1, 2], 2),
    ];
    for (k, (durations, uses, capacity)) in shapes.into_iter().enumerate() {
        let harness = Harness::new(durations.len(), -1..=4).cases(400).seed(k as u64);
        assert_holds(
            "cumulative (constants)",
            harness.check(Strength::Sound, |m, v| m.cumulative(v, durations, uses, capacity).map(drop)),
        );
    }
}

#[test]
fn cumulative_with_variable_durations_uses_and_capacity_is_sound() {
    // Two tasks: starts, durations, uses and the capacity are all variables,
    // negative values included (which violate the constraint).
    let harness = Harness::new(7, -1..=2).cases(500).seed(11);
    assert_holds(
        "cumulative (variables)",
        harness.check(Strength::Sound, |m, v| m.cumulative(&v[0..2], &v[2..4], &v[4..6], v[6]).map(drop)),
    );
    // The same variable as a duration and a use, and as the capacity.
    let harness = Harness::new(3, -1..=3).cases(400).seed(12);
    assert_holds(
        "cumulative (shared variables)",
        harness.check(Strength::Sound, |m, v| {
            m.cumulative(&v[0..2], &[v[2], v[2]], &[Operand::from(v[2]), Operand::from(1)], v[2]).map(drop)
        }),
    );
}

#[test]
fn disjunctive_is_sound_in_both_forms() {
    for (k, durations) in [[2i64, 1, 3], [1, 0, 2], [0, 0, 3], [2, 2, 2]].into_iter().enumerate() {
        let harness = Harness::new(3, -1..=5).cases(400).seed(20 + k as u64);
        assert_holds("disjunctive", harness.check(Strength::Sound, |m, v| m.disjunctive(v, &durations).map(drop)));
        assert_holds(
            "disjunctive_strict",
            harness.check(Strength::Sound, |m, v| m.disjunctive_strict(v, &durations).map(drop)),
        );
    }
    // Durations as variables, 0 and negative values included.
    let harness = Harness::new(6, -1..=3).cases(500).seed(30);
    assert_holds(
        "disjunctive (variables)",
        harness.check(Strength::Sound, |m, v| m.disjunctive(&v[..3], &v[3..]).map(drop)),
    );
    assert_holds(
        "disjunctive_strict (variables)",
        harness.check(Strength::Sound, |m, v| m.disjunctive_strict(&v[..3], &v[3..]).map(drop)),
    );
    // Four tasks: enough for edge-finding to act.
    let harness = Harness::new(4, 0..=6).cases(400).seed(31);
    assert_holds(
        "disjunctive of four",
        harness.check(Strength::Sound, |m, v| m.disjunctive(v, &[3, 2, 2, 1]).map(drop)),
    );
}

#[test]
fn scheduling_is_sound_at_the_edges_of_the_value_range() {
    // Starts and durations near 2^62: their sums pass 2^63.
    let harness = Harness::new(4, wide_values()).cases(500).seed(40);
    assert_holds(
        "disjunctive (wide)",
        harness.check(Strength::Sound, |m, v| m.disjunctive(&v[..2], &v[2..]).map(drop)),
    );
    assert_holds(
        "disjunctive_strict (wide)",
        harness.check(Strength::Sound, |m, v| m.disjunctive_strict(&v[..2], &v[2..]).map(drop)),
    );
    let harness = Harness::new(5, wide_values()).cases(500).seed(41);
    assert_holds(
        "cumulative (wide)",
        harness.check(Strength::Sound, |m, v| m.cumulative(&v[..2], &v[2..4], &[v[4], v[4]], MAX_VALUE).map(drop)),
    );
    // Uses near 2^62 whose sum passes 2^63, against a capacity of 2^62.
    let harness = Harness::new(3, wide_values()).cases(500).seed(42);
    assert_holds(
        "cumulative (wide uses)",
        harness.check(Strength::Sound, |m, v| {
            m.cumulative(&v[..3], &[MAX_VALUE; 3], &[MAX_VALUE, MAX_VALUE - 1, 1], MAX_VALUE).map(drop)
        }),
    );
}

/// The peak load of fixed tasks `(start, duration, use)`, time by time (the
/// instances are small), written independently of the constraint.
fn overloads(tasks: &[(i64, i64, i64)], capacity: i64) -> bool {
    let first = tasks.iter().map(|t| t.0).min().unwrap_or(0);
    let last = tasks.iter().map(|t| t.0 + t.1).max().unwrap_or(0);
    (first..last)
        .any(|time| tasks.iter().filter(|t| t.0 <= time && time < t.0 + t.1).map(|t| t.2).sum::<i64>() > capacity)
}

/// Counts with every propagation level and two variable orders; all must agree,
/// and every solution must satisfy `check`.
fn count_everywhere(model: &Model, check: impl Fn(&[i64]) -> bool) -> u64 {
    let mut counts = Vec::new();
    for &level in Propagation::ALL {
        for order in [VarOrder::Input, VarOrder::Mrv] {
            let config = SolveConfig::default().with_propagation(level).with_var_order(order);
            let mut solver = Solver::new(model, config.clone()).unwrap();
            let mut found = 0;
            for solution in solver.solutions() {
                assert!(check(solution.values()), "{level}: a wrong solution {:?}", solution.values());
                found += 1;
            }
            assert_eq!(found, Solver::new(model, config).unwrap().count(None).solutions);
            counts.push(found);
        }
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "the levels disagree: {counts:?}");
    counts[0]
}

/// Every assignment of the starts' domains that `accept` takes.
fn brute_force(domains: &[Vec<i64>], accept: impl Fn(&[i64]) -> bool) -> u64 {
    let mut count = 0;
    csp::testing::for_each_assignment(domains, |values| count += u64::from(accept(values)));
    count
}

#[test]
fn random_cumulative_instances_are_counted() {
    let mut rng = Rng::new(7);
    for round in 0..40 {
        let n = 2 + round % 3;
        let durations: Vec<i64> = (0..n).map(|_| rng.below(4) as i64).collect();
        let uses: Vec<i64> = (0..n).map(|_| rng.below(3) as i64).collect();
        let capacity = 1 + rng.below(3) as i64;
        let domains: Vec<Vec<i64>> =
            (0..n).map(|_| (0..6).filter(|_| rng.below(3) != 0).collect::<Vec<i64>>()).map(non_empty).collect();
        let tasks = |starts: &[i64]| -> Vec<(i64, i64, i64)> {
            starts.iter().zip(&durations).zip(&uses).map(|((&s, &d), &r)| (s, d, r)).collect()
        };
        let expected = brute_force(&domains, |starts| !overloads(&tasks(starts), capacity));
        let mut model = Model::new();
        let starts: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        model.cumulative(&starts, &durations, &uses, capacity).unwrap();
        let found = count_everywhere(&model, |starts| !overloads(&tasks(starts), capacity));
        assert_eq!(found, expected, "round {round}: {durations:?} {uses:?} capacity {capacity}, {domains:?}");
    }
}

fn non_empty(mut values: Vec<i64>) -> Vec<i64> {
    if values.is_empty() {
        values.push(0);
    }
    values
}

/// Whether fixed tasks `(start, duration)` are pairwise apart, the strict or
/// the non-strict way, written independently of the constraint.
fn apart(tasks: &[(i64, i64)], strict: bool) -> bool {
    tasks.iter().enumerate().all(|(i, a)| {
        tasks[i + 1..].iter().all(|b| {
            let zero = a.1 == 0 || b.1 == 0;
            let inside = |point: &(i64, i64), task: &(i64, i64)| task.0 < point.0 && point.0 < task.0 + task.1;
            if zero {
                // A point may sit anywhere, or (strict) not strictly inside another.
                !strict || !(inside(a, b) || inside(b, a))
            } else {
                a.0 + a.1 <= b.0 || b.0 + b.1 <= a.0
            }
        })
    })
}

#[test]
fn random_disjunctive_instances_are_counted() {
    let mut rng = Rng::new(8);
    for round in 0..60 {
        let n = 2 + round % 4;
        let strict = round % 2 == 1;
        let durations: Vec<i64> = (0..n).map(|_| rng.below(4) as i64).collect();
        let domains: Vec<Vec<i64>> =
            (0..n).map(|_| (0..8).filter(|_| rng.below(2) != 0).collect::<Vec<i64>>()).map(non_empty).collect();
        let tasks =
            |starts: &[i64]| -> Vec<(i64, i64)> { starts.iter().copied().zip(durations.iter().copied()).collect() };
        let expected = brute_force(&domains, |starts| apart(&tasks(starts), strict));
        let mut model = Model::new();
        let starts: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        if strict {
            model.disjunctive_strict(&starts, &durations).unwrap();
        } else {
            model.disjunctive(&starts, &durations).unwrap();
        }
        let found = count_everywhere(&model, |starts| apart(&tasks(starts), strict));
        assert_eq!(found, expected, "round {round}: {durations:?}, strict {strict}, {domains:?}");
    }
}

#[test]
fn orders_on_one_machine_are_counted() {
    // n tasks of lengths 1..=n fill [0, n(n+1)/2) exactly: n! orders.
    for n in 1..=5i64 {
        let total = n * (n + 1) / 2;
        let durations: Vec<i64> = (1..=n).collect();
        let mut model = Model::new();
        let starts: Vec<VarId> = durations.iter().map(|d| model.new_var(0..=total - d).unwrap()).collect();
        model.disjunctive(&starts, &durations).unwrap();
        let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
        assert_eq!(count.solutions, (1..=n as u64).product::<u64>(), "{n} tasks");
        // One unit less and they cannot fit: edge-finding's overload check
        // sees it at the root.
        if n >= 2 {
            let mut model = Model::new();
            let starts: Vec<VarId> = durations.iter().map(|d| model.new_var(0..=total - 1 - d).unwrap()).collect();
            model.disjunctive(&starts, &durations).unwrap();
            assert!(Solver::new(&model, SolveConfig::default()).unwrap().root_domains().is_none(), "{n} tasks");
        }
    }
}

#[test]
fn edge_finding_moves_a_task_that_cannot_go_first() {
    // A and B fill [0, 11) but for 2 units; C (length 3) cannot fit before or
    // between them, so it starts at 9 or later (time-tabling alone sees no
    // compulsory part to push it).
    let mut model = Model::new();
    let a = model.new_var(0..=6).unwrap();
    let b = model.new_var(1..=7).unwrap();
    let c = model.new_var(4..=27).unwrap();
    model.disjunctive(&[a, b, c], &[5, 4, 3]).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert_eq!(domains[c.index()].min(), Some(9));
}

#[test]
fn the_capacity_grows_to_the_compulsory_peak() {
    let mut model = Model::new();
    let s = model.new_vars(2, 0..=1).unwrap();
    let capacity = model.new_var(0..=10).unwrap();
    // Both tasks run during [1, 3) whatever their starts: a load of 5.
    model.cumulative(&s, &[3, 3], &[2, 3], capacity).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert_eq!(domains[capacity.index()].min(), Some(5));
    // A variable use is capped by what the others leave.
    let mut model = Model::new();
    let s = model.new_vars(2, 0..=0).unwrap();
    let uses = model.new_var(0..=9).unwrap();
    model.cumulative(&s, &[2, 2], &[Operand::from(3), Operand::from(uses)], 4).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert_eq!(domains[uses.index()].max(), Some(1));
}

#[test]
fn bad_scheduling_arguments_are_typed_errors() {
    let mut model = Model::new();
    let s = model.new_vars(2, 0..=5).unwrap();
    assert!(matches!(
        model.cumulative(&s, &[1], &[1, 1], 1),
        Err(ModelError::LengthMismatch { what: "durations", .. })
    ));
    assert!(matches!(
        model.cumulative(&s, &[1, 1], &[1], 1),
        Err(ModelError::LengthMismatch { what: "resources", .. })
    ));
    assert!(matches!(model.disjunctive(&s, &[1, 2, 3]), Err(ModelError::LengthMismatch { .. })));
    assert!(matches!(model.disjunctive(&s, &[1, i64::MAX]), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.cumulative(&s, &[1, 1], &[1, 1], i64::MIN), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.disjunctive::<i64>(&[], &[]), Err(ModelError::EmptyScope { .. })));
    let mut other = Model::new();
    let t = other.new_var(0..=5).unwrap();
    assert!(matches!(model.disjunctive_strict(&[s[0], t], &[1, 1]), Err(ModelError::ForeignVariable { .. })));
    // Negative constants are allowed, and make the constraint unsatisfiable.
    model.cumulative(&s, &[1, -1], &[1, 1], 1).unwrap();
    assert!(Solver::new(&model, SolveConfig::default()).unwrap().root_domains().is_none());
}

/// Local search counts these constraints' violations by recomputing them
/// (0 or 1): what it returns must still be a solution.
#[test]
fn local_search_solves_scheduling_models() {
    use csp::{LocalSearch, LocalSearchConfig, Solution};
    let mut model = Model::new();
    let starts = model.new_vars(4, 0..=4).unwrap();
    model.disjunctive(&starts, &[2, 1, 1, 1]).unwrap();
    let more = model.new_vars(3, 0..=3).unwrap();
    model.cumulative(&more, &[2, 2, 2], &[1, 2, 1], 2).unwrap();
    for seed in 0..3 {
        let config = LocalSearchConfig { seed, max_steps: Some(100_000), ..LocalSearchConfig::default() };
        let mut search = LocalSearch::new(&model, config);
        let values = search.solve().into_solution().map(Solution::into_values).expect("an easy model is solved");
        assert!(model.is_solution(&values), "seed {seed}: {values:?}");
    }
}

/// Without tasks, `cumulative` holds whatever the capacity (MiniZinc's
/// decomposition is `true`), even a negative one.
#[test]
fn cumulative_without_tasks_holds_for_any_capacity() {
    let mut model = Model::new();
    let capacity = model.new_var(-3..=2).unwrap();
    model.cumulative::<i64, i64>(&[], &[], &[], capacity).unwrap();
    assert_eq!(count_everywhere(&model, |_| true), 6);
    // With a task, even one of no duration, the capacity is at least 0.
    let mut model = Model::new();
    let capacity = model.new_var(-3..=2).unwrap();
    let start = model.new_var(0..=0).unwrap();
    model.cumulative(&[start], &[0], &[5], capacity).unwrap();
    assert_eq!(count_everywhere(&model, |values| values[0] >= 0), 3);
}

/// Every range an interval (bitset limit 0): the harness's random ranges
/// become intervals (kept as their bounds), the others stay bitsets.
fn intervals() -> SolveConfig {
    SolveConfig::default().with_bitset_limit(0)
}

/// The scheduling propagators reason on start bounds only: sound over
/// interval domains too, at the edges of the value range included.
#[test]
fn scheduling_is_sound_on_interval_domains() {
    for (k, durations) in [[2i64, 1, 3], [1, 0, 2], [0, 0, 3]].into_iter().enumerate() {
        let harness = Harness::new(3, -1..=5).cases(300).seed(50 + k as u64).config(intervals());
        assert_holds(
            "disjunctive over intervals",
            harness.check(Strength::Sound, |m, v| m.disjunctive(v, &durations).map(drop)),
        );
        assert_holds(
            "disjunctive_strict over intervals",
            harness.check(Strength::Sound, |m, v| m.disjunctive_strict(v, &durations).map(drop)),
        );
        assert_holds(
            "cumulative over intervals",
            harness.check(Strength::Sound, |m, v| m.cumulative(v, &durations, &[1, 2, 1], 2).map(drop)),
        );
    }
    let harness = Harness::new(7, -1..=2).cases(400).seed(51).config(intervals());
    assert_holds(
        "cumulative (variables) over intervals",
        harness.check(Strength::Sound, |m, v| m.cumulative(&v[0..2], &v[2..4], &v[4..6], v[6]).map(drop)),
    );
    let edges = [Domain::range(MAX_VALUE - 3, MAX_VALUE), Domain::range(-MAX_VALUE, -MAX_VALUE + 3)];
    let harness = Harness::with_domains([edges[0].clone(), edges[1].clone(), edges[0].clone(), Domain::range(0, 3)])
        .cases(300)
        .seed(52)
        .config(intervals());
    assert_holds(
        "disjunctive (variables) over intervals at the edges",
        harness.check(Strength::Sound, |m, v| m.disjunctive(&v[..2], &v[2..]).map(drop)),
    );
    assert_holds(
        "cumulative over intervals at the edges",
        harness.check(Strength::Sound, |m, v| m.cumulative(&v[..3], &[MAX_VALUE, 2, 1], &[1, 1, 1], v[3]).map(drop)),
    );
}

/// The configurations that learn, each with the debug check of every nogood
/// and every explanation against brute force (feature `testing`): a
/// scheduling propagator's answer that some solution contradicts panics.
const LEARNING: [&str; 3] = ["mac+learn", "mac+learn+vsids+phase+luby=1", "mac+learn+mrv+seed=5"];

/// Counts under every learning configuration, over bitsets and (bitset limit
/// 2) intervals; all must agree.
fn count_learning(model: &Model) -> u64 {
    let mut counts = Vec::new();
    for spelling in LEARNING {
        for limit in [None, Some(2)] {
            let mut config: SolveConfig = spelling.parse().unwrap();
            if let Some(limit) = limit {
                config = config.with_bitset_limit(limit);
            }
            let mut solver = Solver::new(model, config).unwrap();
            solver.check_nogoods(true);
            let counted = solver.count(None);
            assert!(counted.is_complete());
            counts.push(counted.solutions);
        }
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "the configurations disagree: {counts:?}");
    counts[0]
}

/// Whether tasks `(start, duration, use)` fit within `capacity`: no negative
/// duration, use or (with tasks) capacity, and at each task's start (where
/// the load peaks) the tasks running use at most the capacity; in 128 bits,
/// for starts near `2^62`.
fn fits(tasks: &[(i64, i64, i64)], capacity: i64) -> bool {
    let running = |time: i128| {
        tasks
            .iter()
            .filter(|t| i128::from(t.0) <= time && time < i128::from(t.0) + i128::from(t.1))
            .map(|t| i128::from(t.2))
            .sum::<i128>()
    };
    tasks.iter().all(|t| t.1 >= 0 && t.2 >= 0)
        && capacity >= 0
        && tasks.iter().all(|t| running(i128::from(t.0)) <= i128::from(capacity))
}

/// A domain for an operand: a constant (two times in three) or a variable
/// over a few of `values`.
fn operand_domain(rng: &mut Rng, values: std::ops::RangeInclusive<i64>) -> Vec<i64> {
    let all: Vec<i64> = values.collect();
    if rng.below(3) != 0 {
        return vec![all[rng.below(all.len() as u64) as usize]];
    }
    non_empty(all.into_iter().filter(|_| rng.below(2) != 0).collect())
}

/// Start domains: a few small times, or (one round in four) times near both
/// ends of the range.
fn start_domain(rng: &mut Rng, round: usize, span: i64) -> Vec<i64> {
    if round % 4 == 3 {
        let edges = [-MAX_VALUE, -MAX_VALUE + 1, -MAX_VALUE + 2, MAX_VALUE - 2, MAX_VALUE - 1, MAX_VALUE];
        return non_empty(edges.into_iter().filter(|_| rng.below(2) != 0).collect());
    }
    non_empty((0..span).filter(|_| rng.below(3) != 0).collect())
}

/// `cumulative` with starts, durations, uses and capacity each a variable or
/// a constant: search that learns (from the propagator's own explanations)
/// counts what brute force counts.
#[test]
fn learning_counts_random_cumulative_instances_with_variable_operands() {
    let mut rng = Rng::new(21);
    for round in 0..80 {
        let n = 2 + round % 3;
        let mut domains: Vec<Vec<i64>> = (0..n).map(|_| start_domain(&mut rng, round, 6)).collect();
        domains.extend((0..n).map(|_| operand_domain(&mut rng, 0..=3)));
        domains.extend((0..n).map(|_| operand_domain(&mut rng, 0..=2)));
        domains.push(operand_domain(&mut rng, 0..=3));
        let accept = |v: &[i64]| {
            let tasks: Vec<(i64, i64, i64)> = (0..n).map(|i| (v[i], v[n + i], v[2 * n + i])).collect();
            fits(&tasks, v[3 * n])
        };
        let expected = brute_force(&domains, accept);
        let mut model = Model::new();
        let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        model.cumulative(&vars[..n], &vars[n..2 * n], &vars[2 * n..3 * n], vars[3 * n]).unwrap();
        assert_eq!(count_learning(&model), expected, "round {round}: {domains:?}");
    }
}

/// `disjunctive` and `disjunctive_strict` with variable durations, under
/// search that learns, against brute force.
#[test]
fn learning_counts_random_disjunctive_instances_with_variable_durations() {
    let mut rng = Rng::new(22);
    for round in 0..60 {
        let n = 2 + round % 3;
        let strict = round % 2 == 1;
        let mut domains: Vec<Vec<i64>> = (0..n).map(|_| start_domain(&mut rng, round, 8)).collect();
        domains.extend((0..n).map(|_| operand_domain(&mut rng, 0..=3)));
        let accept = |v: &[i64]| {
            let tasks: Vec<(i64, i64)> = (0..n).map(|i| (v[i], v[n + i])).collect();
            tasks.iter().all(|t| t.1 >= 0) && apart(&tasks, strict)
        };
        let expected = brute_force(&domains, accept);
        let mut model = Model::new();
        let vars: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
        if strict {
            model.disjunctive_strict(&vars[..n], &vars[n..]).unwrap();
        } else {
            model.disjunctive(&vars[..n], &vars[n..]).unwrap();
        }
        assert_eq!(count_learning(&model), expected, "round {round}, strict {strict}: {domains:?}");
    }
}

/// Small random projects shaped as `explained_scheduling rcpsp`'s (four
/// tasks, random precedences, two `cumulative`s of capacity 3, the makespan
/// minimised):
/// every learning configuration, under the debug check of every nogood and
/// explanation against brute force, proves the optimum brute force finds.
#[test]
fn learning_minimises_small_projects_under_the_nogood_check() {
    let mut rng = Rng::new(23);
    let mut learnt = 0;
    for round in 0..80 {
        let n = 4;
        let durations: Vec<i64> = (0..n).map(|_| 1 + rng.below(2) as i64).collect();
        let horizon: i64 = durations.iter().sum();
        let mut precedences: Vec<(usize, usize)> = Vec::new();
        for i in 1..n {
            if rng.below(2) == 0 {
                precedences.push((rng.below(i as u64) as usize, i));
            }
        }
        let uses: Vec<Vec<i64>> = (0..2).map(|_| (0..n).map(|_| 1 + rng.below(3) as i64).collect()).collect();
        let feasible = |starts: &[i64]| {
            precedences.iter().all(|&(a, b)| starts[a] + durations[a] <= starts[b])
                && uses.iter().all(|u| {
                    let tasks: Vec<(i64, i64, i64)> = (0..n).map(|i| (starts[i], durations[i], u[i])).collect();
                    fits(&tasks, 3)
                })
        };
        let best = std::cell::Cell::new(i64::MAX);
        let domains = vec![(0..=horizon).collect::<Vec<i64>>(); n];
        brute_force(&domains, |starts| {
            if feasible(starts) {
                best.set(best.get().min((0..n).map(|i| starts[i] + durations[i]).max().unwrap()));
            }
            false
        });
        let best = best.get();
        let mut model = Model::new();
        let makespan = model.new_var(0..=horizon).unwrap();
        let starts: Vec<VarId> = (0..n).map(|_| model.new_var(0..=horizon).unwrap()).collect();
        for i in 0..n {
            model.linear(&[(1, starts[i]), (-1, makespan)], Relation::Le, -durations[i]).unwrap();
        }
        for &(a, b) in &precedences {
            model.linear(&[(1, starts[a]), (-1, starts[b])], Relation::Le, -durations[a]).unwrap();
        }
        for u in &uses {
            model.cumulative(&starts, &durations, u, 3).unwrap();
        }
        model.minimize(makespan).unwrap();
        for spelling in LEARNING.iter().chain(&["mac+learn+mrv+matching"]) {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            match solver.optimize() {
                OptimizationOutcome::Optimal { objective, .. } => {
                    assert_eq!(objective, best, "round {round}, {spelling}: {durations:?} {precedences:?} {uses:?}")
                }
                other => panic!("round {round}, {spelling}: {other:?}"),
            }
            learnt += solver.stats().learnt;
        }
    }
    // 1,280 with seed 23: the check sees enough to mean something.
    assert!(learnt > 500, "the check saw only {learnt} nogoods");
}
