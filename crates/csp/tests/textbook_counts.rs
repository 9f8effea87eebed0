//! The statistics count what the textbooks count, on instances worked by
//! hand. Constraints posted with `predicate` have no propagator of their
//! own: generic support checking runs them, one check per tuple tried.
//!
//! - Plain backtracking checks a decision against the earlier decisions
//!   from the first (Prosser 1993), stopping at the first conflict.
//! - Forward checking checks the decided variable's value against each
//!   value of the future variables it shares a constraint with (Haralick &
//!   Elliott 1980), never against the past ones: they filtered it already.
//! - MAC revises arcs as Mackworth's AC-3: the values of `x` against `y`
//!   when `y` changed, and not again for `x`'s own removals.

use csp::{Model, Solver, Stats, VarId};

/// `x, y, z` over {0, 1, 2} with `x < y`, `y < z` and `x + z = 2`, posted
/// in that order: the one solution is `(0, 1, 2)`.
fn chain() -> (Model, [VarId; 3]) {
    let mut model = Model::new();
    let v = model.new_vars(3, 0..=2).unwrap();
    model.predicate(&[v[0], v[1]], |t| t[0] < t[1]).unwrap();
    model.predicate(&[v[1], v[2]], |t| t[0] < t[1]).unwrap();
    model.predicate(&[v[0], v[2]], |t| t[0] + t[1] == 2).unwrap();
    (model, [v[0], v[1], v[2]])
}

/// `x, y, z` over {0, 1}, pairwise different (posted as `x ≠ y`, `y ≠ z`,
/// `x ≠ z`): a triangle with two colours, unsatisfiable, though arc
/// consistent.
fn triangle() -> Model {
    let mut model = Model::new();
    let v = model.new_vars(3, 0..=1).unwrap();
    for (a, b) in [(0, 1), (1, 2), (0, 2)] {
        model.predicate(&[v[a], v[b]], |t| t[0] != t[1]).unwrap();
    }
    model
}

/// The statistics of counting every solution under `spelling`.
fn count(model: &Model, spelling: &str) -> (u64, Stats) {
    let mut solver = Solver::new(model, spelling.parse().unwrap()).unwrap();
    let count = solver.count(None);
    assert!(count.is_complete());
    (count.solutions, solver.stats().clone())
}

/// FC on the chain: `x = 0` filters `y` (3 checks, {1, 2}) and `z` (3,
/// {2}); `y = 1` filters `z` (1), its constraint with `x` unchecked; `z = 2`
/// is a solution without a check. `y = 2` wipes out `z` (1). `x = 1`
/// filters `y` (3, {2}) and `z` (3, {1}); `y = 2` wipes out `z` (1). `x = 2`
/// wipes out `y` (3). 7 nodes, 18 checks, 3 failures: 11 checks fewer than
/// a count that also checks each constraint once both its variables are
/// decided.
#[test]
fn forward_checking_counts_only_checks_against_future_variables() {
    let (model, _) = chain();
    let (solutions, stats) = count(&model, "fc+input");
    assert_eq!(solutions, 1);
    assert_eq!((stats.nodes, stats.checks, stats.failures), (7, 18, 3));
    // The first solution: 3 + 3 + 1.
    let mut solver = Solver::new(&model, "fc+input".parse().unwrap()).unwrap();
    solver.solve();
    assert_eq!((solver.stats().nodes, solver.stats().checks), (3, 7));
}

/// MAC on the chain, the root only: `x < y` revises `x` against `y`
/// (2 + 3 + 3 checks, removing `x = 2`), then `y` against the new `x` (2 + 1 + 1,
/// removing `y = 0`): 12. `y < z`: `y` (3 + 3, removing `y = 2`), `z` (3,
/// leaving 2): 9. `x + z = 2` (first run, both arcs): `x` (1 + 1, removing
/// `x = 1`), `z` (1): 3. `x < y` again, both its variables having changed:
/// 1 + 1. Every variable is fixed: a solution without a node, 26 checks.
#[test]
fn mac_revises_arcs_as_ac3_does() {
    let (model, _) = chain();
    let (solutions, stats) = count(&model, "mac+input");
    assert_eq!(solutions, 1);
    assert_eq!((stats.nodes, stats.checks, stats.failures), (0, 26, 0));
    // One call per constraint, and `x < y` once more: its own removals do
    // not wake it.
    assert_eq!(stats.propagations, 4);
}

/// AC-2001 keeps each value's last support: on the chain's root it checks
/// no more than AC-3 (here the same: each value's first support search
/// starts from scratch, and the second revision of `x < y` finds the last
/// supports still there, without a check).
#[test]
fn ac2001_checks_no_more_than_ac3() {
    let (model, _) = chain();
    let (_, ac3) = count(&model, "mac+input");
    let (_, ac2001) = count(&model, "mac/ac2001+input");
    assert_eq!(ac2001.checks, 24);
    assert!(ac2001.checks <= ac3.checks);
}

/// The triangle. BT (checks against the earlier decisions from the
/// first): `x = 0`; `y = 0` fails (1); `y = 1` (1); `z = 0` fails on `x`
/// (1); `z = 1` passes `x`, fails on `y` (2); and symmetrically under
/// `x = 1`: 10 nodes, 10 checks. FC: `x = 0` filters `y` and `z` (2 + 2);
/// `y = 1` wipes out `z` (1); under `x = 1` the same: 4 nodes, 10 checks.
/// MAC: the root revises both arcs of each constraint (3 x 6 checks, no
/// removal); `x = 0` revises `y` (2, leaving 1) and `z` (2, leaving 1),
/// then `y` against `z` (1, a wipe-out); `x = 1` the same: 2 nodes, 28
/// checks.
#[test]
fn the_triangle_counts_as_by_hand_at_every_level() {
    let model = triangle();
    for (spelling, nodes, checks, failures) in
        [("bt+input", 10, 10, 6), ("fc+input", 4, 10, 2), ("mac+input", 2, 28, 2)]
    {
        let (solutions, stats) = count(&model, spelling);
        assert_eq!(solutions, 0, "{spelling}");
        assert_eq!((stats.nodes, stats.checks, stats.failures), (nodes, checks, failures), "{spelling}");
    }
}
