//! Conflict-directed backjumping finds the same solutions as its chronological
//! twin, and with the same static or MRV variable ordering never explores more
//! nodes (Kondrak & van Beek 1997; Chen & van Beek 2001).

use csp::random::RandomCsp;
use csp::{Branching, Model, Propagation, Search, SolveConfig, Solver, VarOrder};

fn run(model: &Model, propagation: Propagation, order: VarOrder, backjumping: bool) -> (Vec<Vec<i64>>, csp::Stats) {
    let search = if backjumping {
        Search::backjumping(propagation).expect("backjumping at bt and fc")
    } else {
        Search::chronological(propagation)
    };
    let config = SolveConfig::default().with_search(search).with_var_order(order);
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

/// Backjumping with `mac` (or with binary branching) is not implemented: the
/// configuration cannot be built, typed or spelled (it used to be refused by
/// `Solver::new`), and changing one option of a backjumping search keeps
/// backjumping only where it works.
#[test]
fn backjumping_with_mac_cannot_be_configured() {
    assert_eq!(Search::backjumping(Propagation::Mac), None);
    let err = "mac-cbj+mrv".parse::<SolveConfig>().unwrap_err();
    assert!(err.to_string().contains("bt-cbj"), "{err}");
    let config: SolveConfig = "fc-cbj+mrv".parse().unwrap();
    let mac = config.clone().with_propagation(Propagation::Mac);
    assert_eq!(mac.search, Search::chronological(Propagation::Mac));
    let binary = config.clone().with_branching(Branching::Binary);
    assert_eq!((binary.backjumping(), binary.propagation()), (false, Propagation::ForwardChecking));
    assert!(config.clone().with_propagation(Propagation::None).backjumping());
    // What can be configured, runs.
    let model = RandomCsp { variables: 4, values: 3, density: 0.5, tightness: 0.3, seed: 1 }.generate().unwrap();
    for config in [config, mac, binary] {
        assert!(Solver::new(&model, config).is_ok());
    }
}
