//! Conflict-directed backjumping finds the same solutions as its chronological
//! twin, and with the same static or MRV variable ordering never explores more
//! nodes (Kondrak & van Beek 1997; Chen & van Beek 2001).

use csp::random::RandomCsp;
use csp::{Model, Propagation, SolveConfig, Solver, VarOrder};

fn run(model: &Model, propagation: Propagation, order: VarOrder, backjumping: bool) -> (Vec<Vec<i64>>, csp::Stats) {
    let mut config = SolveConfig::default().with_propagation(propagation).with_var_order(order);
    config.backjumping = backjumping;
    let mut solver = Solver::new(model, config).unwrap();
    let solutions = solver.solutions().map(|s| s.into_values()).collect();
    (solutions, solver.stats().clone())
}

#[test]
fn backjumping_never_explores_more_nodes_than_its_twin() {
    let mut jumped = 0;
    for seed in 0..40 {
        // Around the phase transition (about 0.45 here), where searches are
        // long enough for jumps to matter and solutions are few.
        let tightness = 0.38 + 0.03 * (seed % 8) as f64;
        let model = RandomCsp { variables: 12, values: 6, density: 0.5, tightness, seed }.generate().unwrap();
        for propagation in [Propagation::None, Propagation::ForwardChecking] {
            for order in [VarOrder::Input, VarOrder::Mrv] {
                let (chrono, plain) = run(&model, propagation, order, false);
                let (cbj, jumping) = run(&model, propagation, order, true);
                assert_eq!(cbj, chrono, "seed {seed}, {propagation}, {order}: same solutions in the same order");
                assert!(
                    jumping.nodes <= plain.nodes,
                    "seed {seed}, {propagation}, {order}: {} nodes with backjumping, {} without",
                    jumping.nodes,
                    plain.nodes
                );
                jumped += jumping.backjumps;
            }
        }
    }
    assert!(jumped > 0, "some search should have jumped");
}

#[test]
fn backjumping_with_mac_is_refused() {
    let model = RandomCsp { variables: 4, values: 3, density: 0.5, tightness: 0.3, seed: 1 }.generate().unwrap();
    let config: SolveConfig = "mac+mrv".parse().unwrap();
    let config = SolveConfig { backjumping: true, ..config };
    let err = Solver::new(&model, config).unwrap_err();
    assert!(err.to_string().contains("bt-cbj"), "{err}");
}
