//! Known N-queens counts under every propagation level and variable ordering.

use csp::{AllDifferentStrength, Propagation, SolveConfig, Solver, VarOrder};

const COUNTS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

#[path = "support/queens.rs"]
mod support;

use support::queens;

#[test]
fn queens_counts_under_every_level_and_ordering() {
    for n in 1..=10 {
        let model = queens(n);
        for &propagation in Propagation::ALL {
            for &var_order in VarOrder::ALL {
                for &strength in AllDifferentStrength::ALL {
                    let config = SolveConfig::default()
                        .with_propagation(propagation)
                        .with_var_order(var_order)
                        .with_all_different(strength);
                    let mut solver = Solver::new(&model, config).unwrap();
                    let count = solver.count(None);
                    assert_eq!(
                        count.solutions,
                        COUNTS[n - 1],
                        "n = {n}, {propagation}, {var_order}, {strength}: {}",
                        solver.stats()
                    );
                    assert!(count.is_complete());
                }
            }
        }
    }
}
