//! Backjumping (Gaschnig's, graph-based, conflict-directed; at `bt`, `fc`
//! and `mac` where implemented) finds the same solutions as its
//! chronological twin and, with the same static or MRV variable ordering,
//! never explores more nodes (Kondrak & van Beek 1997; Chen & van Beek
//! 2001); conflict-directed backjumping never explores more than Gaschnig's
//! or the graph-based. And the counts of small instances worked by hand.

use csp::random::RandomCsp;
use csp::{
    Backjumping, Branching, Jumps, Model, Propagation, Search, SolveConfig, Solver, Stats, ValueOrder, VarOrder,
};

fn config(search: Search, order: VarOrder) -> SolveConfig {
    SolveConfig::default().with_search(search).with_var_order(order)
}

/// Every solution, in order, and the statistics of that run; then the
/// statistics of a run to the first solution.
fn run(model: &Model, config: &SolveConfig) -> (Vec<Vec<i64>>, Stats, Stats) {
    let mut solver = Solver::new(model, config.clone()).unwrap();
    let solutions = solver.solutions().map(|s| s.into_values()).collect();
    let all = solver.stats().clone();
    solver.solve();
    (solutions, all, solver.stats().clone())
}

/// The backjumping search that must never explore more nodes than `b`, if
/// any besides its chronological twin: CBJ's conflict sets are subsets of
/// Gaschnig's conflicts (at leaf dead ends) and of the graph's ancestors.
fn sharper(b: Backjumping) -> Option<Backjumping> {
    match b.jumps() {
        Jumps::Gaschnig | Jumps::GraphBased => Backjumping::new(b.propagation(), Jumps::ConflictDirected),
        Jumps::ConflictDirected => None,
    }
}

#[test]
fn backjumping_never_explores_more_nodes_than_its_twin() {
    let mut jumped = [0u64; 6];
    let mut instances = 0;
    for seed in 0..40 {
        // Around the phase transition (about 0.45 here), where searches are
        // long enough for jumps to matter and solutions are few.
        let tightness = 0.38 + 0.03 * (seed % 8) as f64;
        let model = RandomCsp { variables: 12, values: 6, density: 0.5, tightness, seed }.generate().unwrap();
        instances += 1;
        for order in [VarOrder::Input, VarOrder::Mrv] {
            for (i, &backjumping) in Backjumping::ALL.iter().enumerate() {
                let jumping = config(Search::Backjumping(backjumping), order);
                let twin = config(jumping.search.without_backjumping(), order);
                let (solutions, all, first) = run(&model, &jumping);
                let (expected, twin_all, twin_first) = run(&model, &twin);
                assert_eq!(solutions, expected, "seed {seed}, {jumping}: same solutions in the same order");
                for (what, mine, theirs) in [("all", &all, &twin_all), ("first", &first, &twin_first)] {
                    assert!(
                        mine.nodes <= theirs.nodes,
                        "seed {seed}, {jumping} ({what} solutions): {} nodes, {} for {twin}",
                        mine.nodes,
                        theirs.nodes
                    );
                }
                if let Some(sharper) = sharper(backjumping) {
                    let sharper = config(Search::Backjumping(sharper), order);
                    let (_, sharper_all, sharper_first) = run(&model, &sharper);
                    assert!(sharper_all.nodes <= all.nodes, "seed {seed}: {sharper} against {jumping}");
                    assert!(sharper_first.nodes <= first.nodes, "seed {seed}: {sharper} against {jumping}");
                }
                jumped[i] += all.backjumps;
            }
        }
    }
    assert_eq!(instances, 40);
    for (backjumping, jumps) in Backjumping::ALL.iter().zip(jumped) {
        assert!(jumps > 0, "{backjumping:?} never jumped over a level");
    }
}

/// Four variables over {0, 1} decided in input order, values ascending:
/// `x1 = 0` leaves `x3` only 0 and `x4` only 1, which `x3 = 0` forbids, and
/// `x2` takes no part; `x1 = 1` has the solution `(1, 0, 0, 0)`. With
/// `irrelevant`, a constraint that forbids nothing links `x2` and `x4`.
fn four_variables(irrelevant: bool) -> Model {
    let mut model = Model::new();
    let x = model.new_vars(4, 0..=1).unwrap();
    model.predicate(&[x[0], x[2]], |v| !(v[0] == 0 && v[1] == 1)).unwrap();
    model.predicate(&[x[0], x[3]], |v| !(v[0] == 0 && v[1] == 0)).unwrap();
    model.predicate(&[x[2], x[3]], |v| !(v[0] == 0 && v[1] == 1)).unwrap();
    if irrelevant {
        model.predicate(&[x[1], x[3]], |_| true).unwrap();
    }
    model
}

/// (nodes, checks, failures, backjumps) of the first solution.
fn counts(model: &Model, spelling: &str) -> (u64, u64, u64, u64) {
    let mut solver = Solver::new(model, spelling.parse().unwrap()).unwrap();
    assert_eq!(solver.solve().into_solution().unwrap().values(), [1, 0, 0, 0], "{spelling}");
    let stats = solver.stats();
    (stats.nodes, stats.checks, stats.failures, stats.backjumps)
}

/// Worked by hand. BT checks each decision against the earlier ones from
/// the first: `x1 = 0, x2 = 0, x3 = 0` pass (1 check), `x4 = 0` fails on
/// `x1` (1 check), `x4 = 1` on `x3` (3 checks with the irrelevant
/// constraint, else 2), `x3 = 1` on `x1` (1); the same again under `x2 = 1`;
/// then `x1 = 1, x2 = 0, x3 = 0 (1), x4 = 0 (3 or 2)`: 15 nodes.
///
/// BJ: `x4` is a leaf dead end whose values fail on `x1` and `x3`: it jumps
/// to `x3`, the deepest, where BT would go anyway; `x3` had a value that
/// passed, so it goes back one level: as BT. CBJ: `x3`'s conflicts, its own
/// (`x1`) and those `x4` handed on (`x1`), send it to `x1`: 10 nodes. GBJ:
/// `x4`'s earlier neighbours are `x1` and `x3` (and `x2` with the irrelevant
/// constraint): like CBJ without it, like BT with it.
#[test]
fn backtracking_and_its_backjumpings_count_as_by_hand() {
    let relevant = four_variables(false);
    assert_eq!(counts(&relevant, "bt+input"), (15, 13, 6, 0));
    assert_eq!(counts(&relevant, "bt-bj+input"), (15, 13, 6, 0));
    assert_eq!(counts(&relevant, "bt-cbj+input"), (10, 8, 3, 1));
    assert_eq!(counts(&relevant, "bt-gbj+input"), (10, 8, 3, 1));
    let irrelevant = four_variables(true);
    assert_eq!(counts(&irrelevant, "bt+input"), (15, 16, 6, 0));
    assert_eq!(counts(&irrelevant, "bt-bj+input"), (15, 16, 6, 0));
    assert_eq!(counts(&irrelevant, "bt-cbj+input"), (10, 10, 3, 1));
    assert_eq!(counts(&irrelevant, "bt-gbj+input"), (15, 16, 6, 0));
}

/// Worked by hand. FC: `x1 = 0` filters `x3` to {0} and `x4` to {1} (4
/// checks); `x2 = 0` (no constraint); `x3 = 0` wipes out `x4` (1 check, the
/// constraint with `x1` not checked: both decided); again under `x2 = 1`
/// (1); then `x1 = 1` (4), `x2 = 0`, `x3 = 0` filters `x4` to {0} (2),
/// `x4 = 0`: 9 nodes, 12 checks. FC-BJ and FC-CBJ jump from `x3`, whose
/// conflicts (the levels that pruned `x4` and `x3`) are `x1` alone.
///
/// MAC with arc-oriented AC-3: the root revises every arc (16 checks: 5 on
/// `x1, x3`, 6 on `x1, x4`, 5 on `x3, x4`, no removal); `x1 = 0` revises
/// `x3` (2) and `x4` (2) against it and then `x3` against `x4`, whose value
/// has no support (1): a failure. `x1 = 1` revises `x3` and `x4` (4),
/// `x2 = 0`, `x3 = 0` revises `x1` (1) and `x4` (2, fixing it to 0), and
/// then `x1` against `x4` (1): 4 nodes, 29 checks.
#[test]
fn forward_checking_and_mac_and_their_backjumpings_count_as_by_hand() {
    let model = four_variables(false);
    assert_eq!(counts(&model, "fc+input"), (9, 12, 2, 0));
    assert_eq!(counts(&model, "fc-bj+input"), (7, 11, 1, 1));
    assert_eq!(counts(&model, "fc-cbj+input"), (7, 11, 1, 1));
    assert_eq!(counts(&model, "mac+input"), (4, 29, 1, 0));
    assert_eq!(counts(&model, "mac-cbj+input"), (4, 29, 1, 0));
}

/// Backjumping where it is not implemented (Gaschnig's under `mac`,
/// graph-based under `fc` or `mac`, any with binary branching) cannot be
/// configured: the type has no such value and the spelling is refused; and
/// changing one option of a backjumping search keeps backjumping only where
/// it works.
#[test]
fn unimplemented_backjumping_cannot_be_configured() {
    assert_eq!(Search::backjumping(Propagation::Mac, Jumps::Gaschnig), None);
    assert_eq!(Search::backjumping(Propagation::ForwardChecking, Jumps::GraphBased), None);
    for text in ["mac-bj+mrv", "fc-gbj", "mac-gbj"] {
        let err = text.parse::<SolveConfig>().unwrap_err();
        assert!(err.to_string().contains("mac-cbj"), "{err}");
    }
    let config: SolveConfig = "fc-bj+mrv".parse().unwrap();
    let mac = config.clone().with_propagation(Propagation::Mac);
    assert_eq!(mac.search, Search::chronological(Propagation::Mac));
    assert_eq!(config.clone().with_propagation(Propagation::None).search, Search::Backjumping(Backjumping::Bj));
    let cbj: SolveConfig = "fc-cbj".parse().unwrap();
    assert_eq!(cbj.with_propagation(Propagation::Mac).search, Search::Backjumping(Backjumping::MacCbj));
    let binary = config.clone().with_branching(Branching::Binary);
    assert_eq!((binary.backjumping(), binary.propagation()), (false, Propagation::ForwardChecking));
    // What can be configured, runs.
    let model = RandomCsp { variables: 4, values: 3, density: 0.5, tightness: 0.3, seed: 1 }.generate().unwrap();
    for config in [config, mac, binary] {
        assert!(Solver::new(&model, config).is_ok());
    }
}

/// MAC-CBJ, which propagates every all-different on its own (each removal
/// then has one constraint's scope as its reason), finds what MAC finds on
/// Latin squares.
#[test]
fn mac_cbj_agrees_with_mac_on_latin_squares() {
    let mut model = Model::new();
    let n = 6;
    let cells = model.new_vars(n * n, 0..=(n as i64 - 1)).unwrap();
    for i in 0..n {
        let row: Vec<_> = (0..n).map(|j| cells[i * n + j]).collect();
        let column: Vec<_> = (0..n).map(|j| cells[j * n + i]).collect();
        model.all_different(&row).unwrap();
        model.all_different(&column).unwrap();
    }
    // A few givens that leave several completions.
    for (cell, value) in [(0, 0), (7, 2), (14, 4), (21, 1)] {
        model.linear(&[(1, cells[cell])], csp::Relation::Eq, value).unwrap();
    }
    let mac = SolveConfig::default().with_value_order(ValueOrder::Random).with_seed(3);
    let mac_cbj = mac.clone().with_search(Search::Backjumping(Backjumping::MacCbj));
    let limit = Some(50);
    let count = |config: &SolveConfig| Solver::new(&model, config.clone()).unwrap().count(limit).solutions;
    assert_eq!(count(&mac_cbj), count(&mac));
    let first = |config: &SolveConfig| {
        Solver::new(&model, config.clone()).unwrap().solve().into_solution().map(|s| s.into_values())
    };
    assert_eq!(first(&mac_cbj), first(&mac));
}
