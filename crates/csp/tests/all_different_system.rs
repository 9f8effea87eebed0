//! The all-different system (several `all_different`s propagated by one
//! propagator, the default under mac with matching strength) against the
//! same constraints propagated separately (`SolveConfig::separate_all_different`):
//! the same fixpoint at the root, the same search tree, the same solutions in
//! the same order, and the pruning attributed to the same kinds of constraints.

use std::collections::BTreeSet;

use csp::{Domain, Model, SearchEvent, SolveConfig, Solver, ValueOrder, VarId, VarOrder};
use proptest::prelude::*;

/// A random model: variables with small domains (with holes, not all with the
/// same smallest value), overlapping all-differents, and now and then a sum
/// or an all-different of another strength, which the system leaves alone.
#[derive(Clone, Debug)]
struct Spec {
    domains: Vec<Vec<i64>>,
    groups: Vec<Vec<usize>>,
    sum: Option<(Vec<usize>, i64)>,
    pairwise: Option<Vec<usize>>,
    assumptions: Vec<(usize, usize)>,
}

fn subset(n: usize, min: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<usize>>())
        .prop_shuffle()
        .prop_flat_map(move |order| (min..=n).prop_map(move |k| order[..k].to_vec()))
}

fn spec() -> impl Strategy<Value = Spec> {
    (3usize..=7).prop_flat_map(|n| {
        let domain = (-2i64..=2, prop::collection::btree_set(0i64..=5, 1..=5))
            .prop_map(|(base, set)| set.into_iter().map(|v| base + v).collect::<Vec<i64>>());
        (
            prop::collection::vec(domain, n),
            prop::collection::vec(subset(n, 2), 2..=5),
            prop::option::of((subset(n, 2), 0i64..=12)),
            prop::option::of(subset(n, 2)),
            prop::collection::vec((0..n, 0usize..5), 0..=2),
        )
            .prop_map(|(domains, groups, sum, pairwise, assumptions)| Spec {
                domains,
                groups,
                sum,
                pairwise,
                assumptions,
            })
    })
}

fn build(spec: &Spec) -> (Model, Vec<VarId>) {
    let mut model = Model::new();
    let vars: Vec<VarId> = spec.domains.iter().map(|d| model.new_var(d.clone()).unwrap()).collect();
    let scope = |indices: &[usize]| indices.iter().map(|&i| vars[i]).collect::<Vec<VarId>>();
    for group in &spec.groups {
        model.all_different(&scope(group)).unwrap();
    }
    if let Some((terms, total)) = &spec.sum {
        let terms: Vec<(i64, VarId)> = terms.iter().map(|&i| (1, vars[i])).collect();
        model.linear(&terms, csp::Relation::Le, *total).unwrap();
    }
    if let Some(group) = &spec.pairwise {
        model.all_different_with(&scope(group), csp::AllDifferentStrength::Pairwise).unwrap();
    }
    (model, vars)
}

fn separate(config: &SolveConfig) -> SolveConfig {
    SolveConfig { separate_all_different: true, ..config.clone() }
}

/// A solver with the spec's assumptions (a value of the domain, by index).
fn solver<'m>(model: &'m Model, vars: &[VarId], spec: &Spec, config: SolveConfig) -> Solver<'m> {
    let mut solver = Solver::new(model, config).unwrap();
    for &(var, index) in &spec.assumptions {
        let values = &spec.domains[var];
        solver.assume(vars[var], values[index % values.len()]).unwrap();
    }
    solver
}

/// The solutions in the order found, and the search statistics that do not
/// depend on how propagation is organised.
fn run(solver: &mut Solver<'_>) -> (Vec<Vec<i64>>, [u64; 4]) {
    let solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.values().to_vec()).collect();
    let stats = solver.stats();
    (solutions, [stats.nodes, stats.backtracks, stats.failures, stats.solutions])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(300) as u32, ..ProptestConfig::default() })]

    #[test]
    fn the_system_searches_like_separate_propagators(spec in spec()) {
        let (model, vars) = build(&spec);
        // The root fixpoint: the same domains, or the same failure.
        let config = SolveConfig::default();
        let merged_root = solver(&model, &vars, &spec, config.clone()).root_domains();
        let separate_root = solver(&model, &vars, &spec, separate(&config)).root_domains();
        prop_assert_eq!(&merged_root, &separate_root);
        // Every ordering whose choices do not depend on which constraint
        // failed: the same tree and the same solutions in the same order.
        for var_order in [VarOrder::Input, VarOrder::Mrv, VarOrder::MrvDegree, VarOrder::DomDeg] {
            for value_order in [ValueOrder::Ascending, ValueOrder::Descending, ValueOrder::LeastConstraining] {
                let config = SolveConfig::default().with_var_order(var_order).with_value_order(value_order);
                let merged = run(&mut solver(&model, &vars, &spec, config.clone()));
                let apart = run(&mut solver(&model, &vars, &spec, separate(&config)));
                prop_assert_eq!(&merged, &apart, "{}", config);
                for values in &merged.0 {
                    prop_assert!(model.is_solution(values));
                }
            }
        }
        // dom/wdeg weighs the constraint that failed, which may differ when
        // several would: the same solutions, perhaps in another order.
        let config = SolveConfig::default().with_var_order(VarOrder::DomWdeg);
        let merged: BTreeSet<Vec<i64>> = run(&mut solver(&model, &vars, &spec, config.clone())).0.into_iter().collect();
        let apart: BTreeSet<Vec<i64>> = run(&mut solver(&model, &vars, &spec, separate(&config))).0.into_iter().collect();
        prop_assert_eq!(merged, apart);
    }

    /// Intersections prune more but keep every solution: the root domains
    /// shrink or stay, and every ordering finds the same solutions.
    #[test]
    fn intersections_keep_every_solution(spec in spec()) {
        let (model, vars) = build(&spec);
        let plain = SolveConfig::default();
        let intersect = SolveConfig { all_different_intersections: true, ..plain.clone() };
        let expected: BTreeSet<Vec<i64>> = run(&mut solver(&model, &vars, &spec, plain.clone())).0.into_iter().collect();
        match (solver(&model, &vars, &spec, intersect.clone()).root_domains(), solver(&model, &vars, &spec, plain).root_domains()) {
            (Some(strong), Some(weak)) => {
                for (s, w) in strong.iter().zip(&weak) {
                    prop_assert!(s.iter().all(|v| w.contains(v)), "{:?} is not within {:?}", s, w);
                }
            }
            (Some(_), None) => prop_assert!(false, "intersections kept a root that fails without them"),
            (None, _) => prop_assert!(expected.is_empty()),
        }
        for var_order in [VarOrder::Mrv, VarOrder::DomWdeg] {
            let config = intersect.clone().with_var_order(var_order);
            let (solutions, _) = run(&mut solver(&model, &vars, &spec, config));
            for values in &solutions {
                prop_assert!(model.is_solution(values));
            }
            prop_assert_eq!(&solutions.into_iter().collect::<BTreeSet<_>>(), &expected);
        }
    }
}

/// A sudoku of `rows x cols` boxes with the givens of `line` ('.' or '0' for empty).
fn sudoku(rows: usize, cols: usize, line: &str) -> (Model, Vec<VarId>) {
    let n = rows * cols;
    let mut model = Model::new();
    let cells: Vec<VarId> = line
        .bytes()
        .map(|b| match b {
            b'1'..=b'9' => {
                let v = i64::from(b - b'0');
                model.new_var(Domain::range(v, v)).unwrap()
            }
            _ => model.new_var(Domain::range(1, n as i64)).unwrap(),
        })
        .collect();
    assert_eq!(cells.len(), n * n);
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let column: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        let (r0, c0) = (i / rows * rows, i % rows * cols);
        let block: Vec<VarId> = (0..n).map(|j| cells[(r0 + j / cols) * n + c0 + j % cols]).collect();
        model.all_different(&row).unwrap();
        model.all_different(&column).unwrap();
        model.all_different(&block).unwrap();
    }
    (model, cells)
}

/// The three hardest puzzles of Norvig's top95 under mac (286, 212 and 186
/// decisions to prove the solution unique), and a 6x6 with many solutions.
const PUZZLES: [(usize, usize, &str); 4] = [
    (3, 3, "1.....7.9.4...72..8.........7..1..6.3.......5.6..4..2.........8..53...7.7.2....46"),
    (3, 3, "..5...987.4..5...1..7......2...48....9.1.....6..2.....3..6..2.......9.7.......5.."),
    (3, 3, "...5.3.......6.7..5.8....1636..2.......4.1.......3...567....2.8..4.7.......2..5.."),
    (2, 3, "..6..35......134.......6..1....5..64"),
];

#[test]
fn sudoku_searches_are_the_same_tree() {
    for (rows, cols, line) in PUZZLES {
        let (model, _) = sudoku(rows, cols, line);
        let config = SolveConfig::default().with_limits(csp::Limits::none().with_solutions(50));
        let merged = run(&mut Solver::new(&model, config.clone()).unwrap());
        let apart = run(&mut Solver::new(&model, separate(&config)).unwrap());
        assert_eq!(merged, apart, "{line}");
        assert!(!merged.0.is_empty(), "{line}");
        assert!(merged.0.iter().all(|values| model.is_solution(values)));
    }
}

#[test]
fn one_solver_many_puzzles_keeps_its_state_straight() {
    // As the sudoku tool does: one solver over the blank grid, each puzzle's
    // givens as assumptions; the system then starts each run from the last
    // one's domains.
    let (blank, cells) = sudoku(3, 3, &".".repeat(81));
    let mut merged = Solver::new(&blank, SolveConfig::default()).unwrap();
    let mut apart = Solver::new(&blank, separate(&SolveConfig::default())).unwrap();
    for (_, _, line) in PUZZLES.iter().take(3).chain(PUZZLES.iter().take(3)) {
        for solver in [&mut merged, &mut apart] {
            solver.clear_assumptions();
            for (cell, b) in line.bytes().enumerate() {
                if b.is_ascii_digit() && b != b'0' {
                    solver.assume(cells[cell], i64::from(b - b'0')).unwrap();
                }
            }
        }
        assert_eq!(run(&mut merged), run(&mut apart), "{line}");
    }
}

#[test]
fn branches_deeper_than_the_fixpoints_kept_search_the_same_tree() {
    // The system starts each call from the newest of its last successful
    // calls on the branch (each under a reversible id; 64 of them, the
    // fewest kept, until the big-grids session, whose memory budget keeps
    // them all here): a blank 16x16 grid goes deeper than 64, and
    // backtracks across that depth while enumerating, with the same tree as
    // separate propagators. The cap itself is tested in `kernel::fixpoints`.
    let (model, _) = sudoku(4, 4, &".".repeat(256));
    let limits = csp::Limits::none().with_solutions(30);
    for order in [VarOrder::DomWdeg, VarOrder::Input] {
        let config = SolveConfig::default().with_var_order(order).with_limits(limits);
        let mut merged = Solver::new(&model, config.clone()).unwrap();
        let found = run(&mut merged);
        assert!(merged.stats().max_depth > 64, "{order:?}: depth {}", merged.stats().max_depth);
        assert_eq!(found, run(&mut Solver::new(&model, separate(&config)).unwrap()), "{order:?}");
        assert_eq!(found.0.len(), 30);
        assert!(found.0.iter().all(|values| model.is_solution(values)));
        // Again on the same solver, from the fixpoints of the first run.
        assert_eq!(run(&mut merged), found, "{order:?}, again");
    }
}

#[test]
fn traces_name_the_unit_that_removed_each_value() {
    let (model, _) = sudoku(3, 3, PUZZLES[0].2);
    let trace = |config: SolveConfig| {
        let mut events = Vec::new();
        let mut record = |event: &SearchEvent| events.push(*event);
        let mut solver = Solver::new(&model, config).unwrap();
        solver.observe(&mut record);
        assert!(solver.solve().is_solved());
        let attribution = solver.attribution();
        drop(solver);
        (events, attribution)
    };
    let (merged, attribution) = trace(SolveConfig::default());
    let (apart, _) = trace(separate(&SolveConfig::default()));
    let decisions = |events: &[SearchEvent]| {
        events.iter().filter(|e| matches!(e, SearchEvent::Decision { .. } | SearchEvent::Backtrack { .. })).count()
    };
    let decided = |events: &[SearchEvent]| {
        events.iter().filter(|e| matches!(e, SearchEvent::Decision { .. })).copied().collect::<Vec<_>>()
    };
    assert_eq!(decided(&merged), decided(&apart));
    assert_eq!(decisions(&merged), decisions(&apart));
    // Every removal by propagation names a unit, and the counts per unit
    // agree with the attribution.
    let mut per_constraint = vec![0u64; model.num_constraints()];
    for event in &merged {
        if let SearchEvent::Removed { constraint: Some(c), .. } = event {
            per_constraint[c.index()] += 1;
        }
    }
    let attributed: Vec<u64> = attribution.by_constraint.iter().map(|e| e.pruned).collect();
    assert_eq!(per_constraint, attributed);
    assert!(per_constraint.iter().filter(|&&n| n > 0).count() > 10, "the work is spread over the units");
}

#[test]
fn each_removal_is_named_after_a_unit_of_its_cell_or_one_crossing_it() {
    // The system writes each step's changes under the unit that acted (it
    // tracks the cells a step changed): a value is reported removed by a
    // unit holding the cell, or, with intersections, by a box or line
    // crossing one that does (pointing and claiming). Units are numbered
    // row, column, box for each i, as `sudoku` posts them.
    let (rows, cols, line) = PUZZLES[0];
    let n = rows * cols;
    let (model, cells) = sudoku(rows, cols, line);
    let unit_cells = |u: usize| -> BTreeSet<usize> {
        let i = u / 3;
        let (r0, c0) = (i / rows * rows, i % rows * cols);
        (0..n)
            .map(|j| match u % 3 {
                0 => i * n + j,
                1 => j * n + i,
                _ => (r0 + j / cols) * n + c0 + j % cols,
            })
            .collect()
    };
    let units: Vec<BTreeSet<usize>> = (0..3 * n).map(unit_cells).collect();
    for config in ["mac+domwdeg+intersect", "mac+learn+domwdeg+intersect", "mac+learn+domwdeg"] {
        let config: SolveConfig = config.parse().unwrap();
        let intersections = config.all_different_intersections;
        let mut events = Vec::new();
        let mut record = |event: &SearchEvent| events.push(*event);
        let mut solver = Solver::new(&model, config).unwrap();
        solver.observe(&mut record);
        assert!(solver.solve().is_solved());
        drop(solver);
        let mut removals = 0;
        for event in &events {
            let SearchEvent::Removed { var, constraint: Some(c), .. } = event else { continue };
            let cell = cells.iter().position(|x| x == var).unwrap();
            let named = &units[c.index()];
            let crossing = |w: &BTreeSet<usize>| w.contains(&cell) && w.intersection(named).count() >= 2;
            assert!(
                named.contains(&cell) || (intersections && units.iter().any(crossing)),
                "cell {cell} named after unit {}",
                c.index()
            );
            removals += 1;
        }
        assert!(removals > 100, "{removals} removals");
    }
}

#[test]
fn models_the_system_cannot_take_are_propagated_separately() {
    // The system runs once per wave where separate propagators run once per
    // constraint woken: fewer calls tell that it is in use.
    let calls = |model: &Model, config: SolveConfig| {
        let mut solver = Solver::new(model, config).unwrap();
        let found = run(&mut solver);
        (found, solver.stats().propagations)
    };
    let config = SolveConfig::default();
    let (model, _) = sudoku(2, 2, "1..2..1..1.4...1");
    let ((merged, merged_calls), (apart, apart_calls)) =
        (calls(&model, config.clone()), calls(&model, separate(&config)));
    assert_eq!(merged, apart);
    assert!(merged_calls < apart_calls, "{merged_calls} vs {apart_calls}");
    // Values more than 64 apart: no system, the same calls.
    let mut model = Model::new();
    let xs: Vec<VarId> = (0..4).map(|_| model.new_var(Domain::values([0, 1, 2, 100])).unwrap()).collect();
    model.all_different(&xs[..3]).unwrap();
    model.all_different(&xs[1..]).unwrap();
    assert_eq!(calls(&model, config.clone()), calls(&model, separate(&config)));
    // Offsets, or a single all-different: no system either.
    let mut model = Model::new();
    let xs: Vec<VarId> = (0..4).map(|_| model.new_var(Domain::range(0, 3)).unwrap()).collect();
    model.all_different(&xs).unwrap();
    model.all_different_offset(&xs, &[0, 1, 2, 3]).unwrap();
    assert_eq!(calls(&model, config.clone()), calls(&model, separate(&config)));
}

/// Values 2^62 apart: the span of the system's value space overflowed an
/// i64 (found by the property tests, on an inverse and a circuit over
/// fixed variables at -2^62, 0 and 2^62); the system now declines, and each
/// all-different gets its own propagator.
#[test]
fn values_at_both_ends_of_the_range_leave_the_system_out() {
    let mut model = Model::new();
    let top = model.new_var(1i64 << 62..=1i64 << 62).unwrap();
    let bottom = model.new_var(-(1i64 << 62)..=-(1i64 << 62)).unwrap();
    let middle = model.new_var(0..=1).unwrap();
    model.all_different(&[top, middle]).unwrap();
    model.all_different(&[bottom, middle]).unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    assert_eq!(solver.count(None).solutions, 2);
}
