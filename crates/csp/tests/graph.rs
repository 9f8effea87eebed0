//! The graph constraints: `circuit`, `subcircuit` and `inverse`, against brute
//! force (the soundness harness, and counts of random graphs' cycles under
//! every propagation level), at the edges of the value range, and their
//! argument errors.

use csp::constraints::Circuit;
use csp::rng::Rng;
use csp::testing::{Failure, Harness, Strength};
use csp::{Domain, MAX_VALUE, Model, ModelError, Propagation, SolveConfig, Solver, VarId, VarOrder};

fn assert_holds(name: &str, result: Result<usize, Vec<Failure>>) {
    if let Err(failures) = result {
        let lines: Vec<String> = failures.iter().map(|f| format!("  {f}")).collect();
        panic!("{name} broke its promise:\n{}", lines.join("\n"));
    }
}

/// The number of solutions under every propagation level (all must agree).
fn count_everywhere(model: &Model) -> u64 {
    let mut counts = Vec::new();
    for &level in Propagation::ALL {
        for order in [VarOrder::Input, VarOrder::Mrv] {
            let config = SolveConfig::default().with_propagation(level).with_var_order(order);
            let mut solver = Solver::new(model, config.clone()).unwrap();
            for solution in solver.solutions() {
                assert!(model.is_solution(solution.values()), "{level}: a non-solution {:?}", solution.values());
            }
            counts.push(Solver::new(model, config).unwrap().count(None).solutions);
        }
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "the levels disagree: {counts:?}");
    counts[0]
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

#[test]
fn circuit_is_sound_on_small_domains() {
    for n in 2..=5usize {
        for base in [0i64, 1, -3] {
            // One value beyond the nodes on each side, so that the propagator
            // has values naming no node to remove.
            let values = Domain::range(base - 1, base + n as i64);
            let harness = Harness::new(n, values).cases(300).seed(n as u64 * 7 + base.unsigned_abs());
            assert_holds("circuit", harness.check(Strength::Sound, |m, v| m.circuit(v, base).map(drop)));
            assert_holds("subcircuit", harness.check(Strength::Sound, |m, v| m.subcircuit(v, base).map(drop)));
        }
    }
}

#[test]
fn circuits_of_complete_graphs_are_counted() {
    for n in 1..=6u64 {
        let mut model = Model::new();
        let next = model.new_vars(n as usize, 1..=n as i64).unwrap();
        model.circuit(&next, 1).unwrap();
        // A single node has no circuit (it would follow itself).
        let expected = if n == 1 { 0 } else { factorial(n - 1) };
        assert_eq!(count_everywhere(&model), expected, "circuit on {n} nodes");
    }
}

#[test]
fn subcircuits_of_complete_graphs_are_counted() {
    for n in 1..=6u64 {
        let mut model = Model::new();
        let next = model.new_vars(n as usize, 0..n as i64).unwrap();
        model.subcircuit(&next, 0).unwrap();
        // The empty circuit, and a cycle through each subset of two or more nodes.
        let binomial = |k: u64| factorial(n) / (factorial(k) * factorial(n - k));
        let expected = 1 + (2..=n).map(|k| binomial(k) * factorial(k - 1)).sum::<u64>();
        assert_eq!(count_everywhere(&model), expected, "subcircuit on {n} nodes");
    }
}

/// The successor functions of `arcs` (one list of successors per node) that
/// satisfy `accept`, by enumeration.
fn brute_force(arcs: &[Vec<i64>], accept: impl Fn(&[i64]) -> bool) -> u64 {
    let mut count = 0;
    let mut odometer = vec![0usize; arcs.len()];
    loop {
        let values: Vec<i64> = odometer.iter().zip(arcs).map(|(&k, a)| a[k]).collect();
        count += u64::from(accept(&values));
        let mut i = arcs.len();
        loop {
            if i == 0 {
                return count;
            }
            i -= 1;
            odometer[i] += 1;
            if odometer[i] < arcs[i].len() {
                break;
            }
            odometer[i] = 0;
        }
    }
}

/// Whether the successors (nodes `0..n`) are one cycle through the nodes
/// that do not follow themselves (all of them unless `sub`), written
/// independently of the constraint.
fn is_cycle(next: &[i64], sub: bool) -> bool {
    let n = next.len();
    if next.iter().any(|&j| j < 0 || j >= n as i64) {
        return false;
    }
    let inside: Vec<usize> = (0..n).filter(|&i| next[i] != i as i64).collect();
    if inside.is_empty() {
        return sub;
    }
    if !sub && inside.len() != n {
        return false;
    }
    let mut length = 0;
    let mut node = inside[0];
    loop {
        node = next[node] as usize;
        length += 1;
        if node == inside[0] || length > n {
            break;
        }
    }
    node == inside[0] && length == inside.len()
}

#[test]
fn cycles_of_random_graphs_are_counted() {
    let mut rng = Rng::new(2024);
    for round in 0..60 {
        let n = 3 + (round % 4);
        let sub = round % 2 == 1;
        // Each node keeps each other node (and itself, for a subcircuit) as a
        // successor with probability 2/3, and at least one.
        let arcs: Vec<Vec<i64>> = (0..n)
            .map(|i| {
                let mut out: Vec<i64> =
                    (0..n as i64).filter(|&j| (sub || j != i as i64) && rng.below(3) != 0).collect();
                if out.is_empty() {
                    out.push(((i + 1) % n) as i64);
                }
                out
            })
            .collect();
        let expected = brute_force(&arcs, |next| is_cycle(next, sub));
        let mut model = Model::new();
        let next: Vec<VarId> = arcs.iter().map(|a| model.new_var(a.clone()).unwrap()).collect();
        if sub {
            model.subcircuit(&next, 0).unwrap();
        } else {
            model.circuit(&next, 0).unwrap();
        }
        assert_eq!(count_everywhere(&model), expected, "round {round}: {arcs:?}, sub {sub}");
    }
}

#[test]
fn a_closed_sub_tour_fails_at_once() {
    // 0 -> 1 -> 0 is fixed: a circuit through 4 nodes cannot close that early.
    let mut model = Model::new();
    let next = model.new_vars(4, 0..=3).unwrap();
    model.circuit(&next, 0).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    assert!(solver.root_domains().is_some());
    let mut model = Model::new();
    let a = model.new_var(1..=1).unwrap();
    let b = model.new_var(0..=0).unwrap();
    let rest = model.new_vars(2, 0..=3).unwrap();
    model.circuit(&[a, b, rest[0], rest[1]], 0).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    assert!(solver.root_domains().is_none(), "the sub-tour 0 -> 1 -> 0 must fail at the root");
    // The chain 0 -> 1 may not close: 1's successor loses 0, though the
    // all-different alone would keep it.
    let mut model = Model::new();
    let a = model.new_var(1..=1).unwrap();
    let rest = model.new_vars(3, 0..=3).unwrap();
    model.circuit(&[a, rest[0], rest[1], rest[2]], 0).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert!(!domains[rest[0].index()].contains(0), "{:?}", domains[rest[0].index()]);
}

/// The strongly connected components, seen through the circuit's own
/// propagator (posted without the all-different, whose matching would find
/// these cases first).
#[test]
fn a_graph_in_two_pieces_has_no_circuit() {
    // {0, 1} leads into {2, 3, 4}, and nothing leads back.
    let mut model = Model::new();
    let domains = [vec![1, 2], vec![0, 3], vec![3, 4], vec![2, 4], vec![2, 3]];
    let next: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
    model.post(Circuit::new(next.clone(), 0, false)).unwrap();
    assert!(Solver::new(&model, SolveConfig::default()).unwrap().root_domains().is_none());
    // As a subcircuit: node 2 must be in, and {0, 1} cannot reach it and
    // come back, so both are out.
    let mut model = Model::new();
    let domains = [vec![0, 1, 2], vec![0, 1], vec![3], vec![2, 4], vec![2, 4]];
    let next: Vec<VarId> = domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
    model.post(Circuit::new(next.clone(), 0, true)).unwrap();
    let left = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    assert_eq!(left[next[0].index()].iter().collect::<Vec<_>>(), vec![0]);
    assert_eq!(left[next[1].index()].iter().collect::<Vec<_>>(), vec![1]);
}

#[test]
fn circuits_work_at_the_edges_of_the_value_range() {
    for base in [MAX_VALUE - 3, -MAX_VALUE] {
        let mut model = Model::new();
        let next = model.new_vars(4, Domain::range(base, base + 3)).unwrap();
        model.circuit(&next, base).unwrap();
        assert_eq!(count_everywhere(&model), 6, "base {base}");
        let mut model = Model::new();
        let next = model.new_vars(3, Domain::range(base, base + 2)).unwrap();
        model.subcircuit(&next, base).unwrap();
        assert_eq!(count_everywhere(&model), 1 + 3 + 2, "base {base}");
    }
    // Values far from the nodes are removed, not wrapped around.
    let mut model = Model::new();
    let next = model.new_vars(3, Domain::values([-MAX_VALUE, 0, 1, 2, MAX_VALUE])).unwrap();
    model.circuit(&next, 0).unwrap();
    assert_eq!(count_everywhere(&model), 2);
}

#[test]
fn inverse_is_domain_consistent() {
    for n in 1..=3usize {
        for (f_base, invf_base) in [(0i64, 0i64), (1, 1), (1, -1)] {
            let low = f_base.min(invf_base) - 1;
            let high = f_base.max(invf_base) + n as i64;
            let harness = Harness::new(2 * n, low..=high).cases(300).seed(n as u64 + 40);
            assert_holds(
                "inverse",
                harness
                    .check(Strength::DomainConsistent, |m, v| m.inverse(&v[..n], f_base, &v[n..], invf_base).map(drop)),
            );
        }
    }
}

/// Every range an interval (bitset limit 0): the harness's random ranges
/// become intervals (kept as their bounds), the others stay bitsets.
fn intervals() -> SolveConfig {
    SolveConfig::default().with_bitset_limit(0)
}

/// Over interval domains, circuits and inverse are sound and check their
/// fixed values: a self-loop inside an interval stays until it is fixed, and
/// a value the all-different of `inverse` rules out inside an interval stays
/// too, and still supports its partner in the channeling.
#[test]
fn circuits_and_inverse_keep_their_promises_on_interval_domains() {
    for n in 2..=5usize {
        for base in [0i64, -3] {
            let values = Domain::range(base - 1, base + n as i64);
            let harness = Harness::new(n, values).cases(300).seed(n as u64 + 90).config(intervals());
            assert_holds("circuit over intervals", harness.check(Strength::Sound, |m, v| m.circuit(v, base).map(drop)));
            assert_holds(
                "subcircuit over intervals",
                harness.check(Strength::Sound, |m, v| m.subcircuit(v, base).map(drop)),
            );
        }
    }
    for n in 1..=3usize {
        let harness = Harness::new(2 * n, 0..=n as i64 + 1).cases(300).seed(n as u64 + 95).config(intervals());
        assert_holds(
            "inverse over intervals",
            harness.check(Strength::Sound, |m, v| m.inverse(&v[..n], 1, &v[n..], 0).map(drop)),
        );
    }
    let base = MAX_VALUE - 3;
    let harness = Harness::new(4, Domain::range(base, MAX_VALUE)).cases(300).seed(99).config(intervals());
    assert_holds(
        "circuit over intervals at the edge",
        harness.check(Strength::Sound, |m, v| m.circuit(v, base).map(drop)),
    );
}

#[test]
fn inverse_counts_permutations() {
    for n in 1..=5usize {
        let mut model = Model::new();
        let f = model.new_vars(n, 1..=n as i64).unwrap();
        let invf = model.new_vars(n, 0..n as i64).unwrap();
        model.inverse(&f, 0, &invf, 1).unwrap();
        assert_eq!(count_everywhere(&model), factorial(n as u64), "inverse of {n}");
    }
    // An involution: a permutation that is its own inverse. Of 4 elements: 10.
    let mut model = Model::new();
    let x = model.new_vars(4, 0..=3).unwrap();
    model.inverse(&x, 0, &x, 0).unwrap();
    assert_eq!(count_everywhere(&model), 10);
    // Arrays of different lengths cannot be inverse of each other: refused
    // (a modelling mistake, like the other parallel arrays), naming both.
    let mut model = Model::new();
    let f = model.new_vars(2, 0..=2).unwrap();
    let invf = model.new_vars(3, 0..=2).unwrap();
    let error = model.inverse(&f, 0, &invf, 0).unwrap_err();
    assert_eq!(error.to_string(), "inverse: invf has 3 entries, expected 2 (one per entry of f)");
    assert_eq!(model.num_constraints(), 0);
    // At the edge of the value range.
    let mut model = Model::new();
    let f = model.new_vars(3, Domain::range(MAX_VALUE - 2, MAX_VALUE)).unwrap();
    let invf = model.new_vars(3, Domain::range(-MAX_VALUE, -MAX_VALUE + 2)).unwrap();
    model.inverse(&f, -MAX_VALUE, &invf, MAX_VALUE - 2).unwrap();
    assert_eq!(count_everywhere(&model), 6);
}

#[test]
fn bad_graph_arguments_are_typed_errors() {
    let mut model = Model::new();
    let x = model.new_vars(3, 0..=2).unwrap();
    assert!(matches!(model.circuit(&[], 0), Err(ModelError::EmptyScope { .. })));
    assert!(matches!(model.circuit(&x, MAX_VALUE - 1), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.subcircuit(&x, i64::MIN), Err(ModelError::ValueOutOfRange { .. })));
    assert!(matches!(model.inverse(&[], 0, &[], 0), Err(ModelError::EmptyScope { .. })));
    assert!(matches!(
        model.inverse(&x, 0, &[], 0),
        Err(ModelError::LengthMismatch { what: "invf", expected: 3, found: 0, .. })
    ));
    let mut other = Model::new();
    let y = other.new_var(0..=2).unwrap();
    assert!(matches!(model.inverse(&x, 0, &[y, x[0], x[1]], 0), Err(ModelError::ForeignVariable { .. })));
    // A variable twice is allowed (the circuit then has no solution).
    let mut model = Model::new();
    let x = model.new_vars(2, 0..=2).unwrap();
    model.circuit(&[x[0], x[1], x[0]], 0).unwrap();
    assert_eq!(count_everywhere(&model), 0);
}

/// Local search counts these constraints' violations by recomputing them
/// (0 or 1): what it returns must still be a solution.
#[test]
fn local_search_solves_graph_models() {
    use csp::{LocalSearch, LocalSearchConfig, Solution};
    let mut circuit = Model::new();
    let next = circuit.new_vars(5, 0..=4).unwrap();
    circuit.circuit(&next, 0).unwrap();
    let mut involution = Model::new();
    let x = involution.new_vars(4, 1..=4).unwrap();
    involution.inverse(&x, 1, &x, 1).unwrap();
    for model in [&circuit, &involution] {
        for seed in 0..3 {
            let config = LocalSearchConfig { seed, max_steps: Some(100_000), ..LocalSearchConfig::default() };
            let mut search = LocalSearch::new(model, config);
            let values = search.solve().into_solution().map(Solution::into_values).expect("an easy model is solved");
            assert!(model.is_solution(&values), "seed {seed}: {values:?}");
        }
    }
}

/// The constraint types can be built by hand, bypassing the model's checks:
/// bases beyond the value range and empty arrays are no solutions, never a
/// panic or an overflow.
#[test]
fn hand_built_graph_constraints_do_not_overflow() {
    use csp::constraints::Inverse;
    for base in [i64::MIN, i64::MAX - 1, MAX_VALUE + 1] {
        let mut model = Model::new();
        let next = model.new_vars(3, 0..=2).unwrap();
        model.post(Circuit::new(next.clone(), base, false)).unwrap();
        model.post(Circuit::new(next, base, true)).unwrap();
        assert_eq!(count_everywhere(&model), 0, "base {base}");
        let mut model = Model::new();
        let f = model.new_vars(2, 0..=1).unwrap();
        model.post(Inverse::new(&f, base, &f, base)).unwrap();
        assert_eq!(count_everywhere(&model), 0, "base {base}");
    }
    let mut model = Model::new();
    let f = model.new_vars(2, 0..=1).unwrap();
    model.post(Inverse::new(&f, 0, &[], 0)).unwrap();
    assert_eq!(count_everywhere(&model), 0);
}
