//! Quasigroup completion instances, solved: unlike quasigroups with holes,
//! some have no completion.

use csp::random::QuasigroupCompletion;
use csp::{SolveConfig, Solver};

#[test]
fn some_instances_have_no_completion() {
    // Around the peak, some partial squares of order 6 are completable
    // and some are not: what quasigroups with holes never are.
    let (mut completable, mut not) = (0, 0);
    for seed in 0..40 {
        let model = QuasigroupCompletion { order: 6, preassigned: 0.5, seed }.generate().unwrap();
        let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
        match solver.solve().into_solution() {
            Some(solution) => {
                assert!(model.is_solution(solution.values()));
                completable += 1;
            }
            None => not += 1,
        }
    }
    assert!(completable > 0 && not > 0, "{completable} completable, {not} not");
}
