//! Known N-queens counts under every propagation level and variable ordering.

use csp::{AllDifferentStrength, Model, Propagation, SolveConfig, Solver, VarOrder};

const COUNTS: [u64; 10] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];

fn queens(n: usize) -> Model {
    let mut model = Model::new();
    let q = model.new_vars(n, 0..n as i64).unwrap();
    let up: Vec<i64> = (0..n as i64).collect();
    let down: Vec<i64> = (0..n as i64).map(|i| -i).collect();
    model.all_different(&q).unwrap();
    model.all_different_offset(&q, &up).unwrap();
    model.all_different_offset(&q, &down).unwrap();
    model
}

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
