//! AC-3 and AC-2001 reach the same fixpoint, along the same propagation, with
//! AC-2001 never using more constraint checks.

use csp::random::RandomCsp;
use csp::{ArcConsistency, Propagation, SolveConfig, Solver, VarOrder};

fn config(algorithm: ArcConsistency) -> SolveConfig {
    let mut config = SolveConfig::default().with_propagation(Propagation::Mac).with_var_order(VarOrder::DomWdeg);
    config.arc_consistency = algorithm;
    config
}

#[test]
fn same_fixpoint_at_the_root_with_no_more_checks() {
    let mut fewer = 0;
    for seed in 0..60 {
        let tightness = 0.1 + 0.6 * (seed % 7) as f64 / 7.0;
        let model = RandomCsp { variables: 15, values: 8, density: 0.4, tightness, seed }.generate().unwrap();
        let mut ac3 = Solver::new(&model, config(ArcConsistency::Ac3)).unwrap();
        let mut ac2001 = Solver::new(&model, config(ArcConsistency::Ac2001)).unwrap();
        assert_eq!(ac3.root_domains(), ac2001.root_domains(), "seed {seed}");
        assert!(ac2001.stats().checks <= ac3.stats().checks, "seed {seed}");
        assert_eq!(ac2001.stats().pruned, ac3.stats().pruned);
        fewer += u32::from(ac2001.stats().checks < ac3.stats().checks);
    }
    assert!(fewer > 0, "AC-2001 should save checks somewhere");
}

#[test]
fn same_search_with_no_more_checks() {
    for seed in 0..20 {
        let model = RandomCsp { variables: 12, values: 6, density: 0.5, tightness: 0.3, seed }.generate().unwrap();
        let mut ac3 = Solver::new(&model, config(ArcConsistency::Ac3)).unwrap();
        let mut ac2001 = Solver::new(&model, config(ArcConsistency::Ac2001)).unwrap();
        let a: Vec<Vec<i64>> = ac3.solutions().map(|s| s.into_values()).collect();
        let b: Vec<Vec<i64>> = ac2001.solutions().map(|s| s.into_values()).collect();
        assert_eq!(a, b, "seed {seed}");
        let (s3, s2001) = (ac3.stats(), ac2001.stats());
        assert_eq!((s3.nodes, s3.failures, s3.pruned), (s2001.nodes, s2001.failures, s2001.pruned), "seed {seed}");
        assert!(s2001.checks <= s3.checks, "seed {seed}: {} > {}", s2001.checks, s3.checks);
    }
}
