//! Probing (`+probe`, `+sac`, [`Probing`]): the solutions of plain `mac`,
//! what singleton consistency sees that arc consistency does not, the limits
//! and the observer as before, and a typed error where it does not combine.
//! (The property tests run it on random models against brute force.)

use std::collections::BTreeSet;
use std::time::Duration;

use csp::{
    Backjumping, Branching, Limit, Limits, Model, Probing, Propagation, Search, SearchEvent, SolveConfig, SolveError,
    Solver, Status, VarOrder,
};

#[path = "support/queens.rs"]
mod support;

use support::queens;

/// `n + 1` pigeons in `n` holes, as pairwise not-equals (no all-different
/// to see the pigeonhole).
fn pigeons(n: usize) -> Model {
    let mut model = Model::new();
    let x = model.new_vars(n + 1, 0..=n as i64 - 1).unwrap();
    for i in 0..x.len() {
        for j in i + 1..x.len() {
            model.not_equal(x[i], x[j]).unwrap();
        }
    }
    model
}

fn all_solutions(model: &Model, config: &SolveConfig) -> (Vec<Vec<i64>>, csp::Stats) {
    let mut solver = Solver::new(model, config.clone()).unwrap();
    let solutions = solver.solutions().map(|s| s.into_values()).collect();
    (solutions, solver.stats().clone())
}

#[test]
fn probing_finds_the_solutions_of_plain_mac_in_the_same_order_with_no_more_nodes() {
    for n in 4..=8 {
        let model = queens(n);
        // A static order: probing only prunes plain mac's tree.
        let plain = SolveConfig::default().with_var_order(VarOrder::Input);
        let (expected, stats) = all_solutions(&model, &plain);
        for probing in [Probing::Bivalue, Probing::Singleton] {
            // Cheap probes and touched sweeps only probe less: still no
            // more nodes than plain mac.
            for (cheap, touched) in [(false, false), (true, false), (false, true), (true, true)] {
                let mut config = plain.clone().with_probing(probing);
                (config.cheap_probes, config.touched_probes) = (cheap, touched);
                let (found, probed) = all_solutions(&model, &config);
                assert_eq!(found, expected, "{n}-queens, {config}");
                assert!(probed.nodes <= stats.nodes, "{n}-queens, {config}: {} > {}", probed.nodes, stats.nodes);
                let (binary, _) = all_solutions(&model, &config.clone().with_branching(Branching::Binary));
                assert_eq!(binary, expected, "{n}-queens, {config}, binary");
            }
        }
        let (_, sac) = all_solutions(&model, &plain.clone().with_probing(Probing::Singleton));
        assert!(sac.probes > 0 && sac.probe_removals > 0, "{n}-queens: {sac}");
        assert_eq!(stats.probes, 0);
    }
}

/// `x, y` in {0, 1}, `z` in {0, 1, 2}, pairwise different: arc consistency
/// keeps `z`'s three values; singleton consistency sees that `z` = 0 or 1
/// leaves `x` and `y` one value between them. Probing the bivalue `x` and
/// `y` finds nothing.
#[test]
fn singleton_consistency_removes_what_arc_consistency_keeps() {
    let mut model = Model::new();
    let x = model.new_var(0..=1).unwrap();
    let y = model.new_var(0..=1).unwrap();
    let z = model.new_var(0..=2).unwrap();
    for (a, b) in [(x, y), (y, z), (x, z)] {
        model.not_equal(a, b).unwrap();
    }
    let run = |probing: Probing| {
        let mut solver = Solver::new(&model, SolveConfig::default().with_probing(probing)).unwrap();
        let count = solver.count(None);
        assert_eq!(count.solutions, 2);
        solver.stats().clone()
    };
    let sac = run(Probing::Singleton);
    assert_eq!(sac.probe_removals, 2, "{sac}");
    let bivalue = run(Probing::Bivalue);
    assert!(bivalue.probes > 0);
    assert_eq!(bivalue.probe_removals, 0, "{bivalue}");
    // Three pigeons, two holes: every probe fails at the root.
    let three = pigeons(2);
    let mut solver = Solver::new(&three, SolveConfig::default().with_probing(Probing::Bivalue)).unwrap();
    assert!(solver.solve().into_solution().is_none());
    assert_eq!((solver.stats().nodes, solver.stats().failures), (0, 1));
}

/// `a, b, c, d` in 0..=4 all different, and `x` = 1 would leave `a`, `b`
/// and `c` the values 0 and 1 only (a table each): a Hall set that only the
/// matching sees (five values for four variables: no hidden single). A full
/// probe of `x` = 1 fails and fixes `x` to 0; a cheap one skips the
/// matching and removes nothing; both find the same solutions.
#[test]
fn a_cheap_probe_skips_the_matching() {
    let mut model = Model::new();
    let x = model.new_var(0..=1).unwrap();
    let vars = model.new_vars(4, 0..=4).unwrap();
    model.all_different(&vars).unwrap();
    let rows: Vec<Vec<i64>> = (0..=4).map(|a| vec![0, a]).chain((0..=1).map(|a| vec![1, a])).collect();
    for &v in &vars[..3] {
        model.table(&[x, v], &rows).unwrap();
    }
    for spelling in ["mac+input+matching+probe", "mac+input+matching+separate+probe"] {
        let run = |text: String| {
            let config: SolveConfig = text.parse().unwrap();
            let (solutions, stats) = all_solutions(&model, &config);
            assert!(solutions.iter().all(|s| s[0] == 0 && model.is_solution(s)), "{text}");
            (solutions, stats)
        };
        let (full, full_stats) = run(spelling.to_string());
        let (cheap, cheap_stats) = run(format!("{spelling}+cheap"));
        assert_eq!(full, cheap, "{spelling}");
        assert_eq!(full.len(), 5 * 4 * 3 * 2, "{spelling}");
        assert!(full_stats.probe_removals > 0, "{spelling}: {full_stats}");
        assert_eq!(cheap_stats.probe_removals, 0, "{spelling}: {cheap_stats}");
    }
}

#[test]
fn node_and_time_limits_stop_a_probing_search() {
    let config = SolveConfig::default().with_probing(Probing::Singleton);
    let limited = config.clone().with_limits(Limits::none().with_nodes(5));
    let ten = pigeons(9);
    let mut solver = Solver::new(&ten, limited).unwrap();
    let count = solver.count(None);
    assert_eq!(count.status, Status::LimitReached(Limit::Nodes));
    assert!(solver.stats().nodes <= 5);
    // Singleton consistency does not see the pigeonhole either: an
    // exponential search, stopped by the clock.
    let timed = config.with_limits(Limits::none().with_time(Duration::from_millis(100)));
    let thirteen = pigeons(12);
    let mut solver = Solver::new(&thirteen, timed).unwrap();
    let count = solver.count(None);
    assert_eq!(count.status, Status::LimitReached(Limit::Time));
    assert!(solver.stats().elapsed < Duration::from_secs(5), "{}", solver.stats());
}

/// Replays the observer's events on the model's domains (d-way branching):
/// a removal is always of a value still there (the probes' own removals,
/// undone, are not shown), and each solution is what the domains say.
#[test]
fn the_observer_sees_the_probed_removals_and_nothing_of_the_probes() {
    for spelling in
        ["mac+input", "mac+input+probe", "mac+input+sac", "mac+domwdeg+sac", "mac+domwdeg+sac+cheap+touched"]
    {
        let model = queens(7);
        let config: SolveConfig = spelling.parse().unwrap();
        let initial: Vec<BTreeSet<i64>> = model.vars().map(|x| model.domain(x).unwrap().iter().collect()).collect();
        let mut domains = initial.clone();
        // Per level (the root first): the values removed there.
        let mut levels: Vec<Vec<(usize, i64)>> = vec![Vec::new()];
        let mut solutions = Vec::new();
        let mut unknown = 0;
        let mut record = |event: &SearchEvent| match *event {
            SearchEvent::Decision { var, value, depth } => {
                assert_eq!(levels.len() as u32, depth, "{spelling}");
                assert!(domains[var.index()].contains(&value), "{spelling}: {event:?}");
                let others: Vec<i64> = domains[var.index()].iter().copied().filter(|&v| v != value).collect();
                domains[var.index()] = BTreeSet::from([value]);
                levels.push(others.into_iter().map(|v| (var.index(), v)).collect());
            }
            SearchEvent::Removed { var, value, .. } => {
                assert!(domains[var.index()].remove(&value), "{spelling}: {event:?} removes a value already gone");
                levels.last_mut().unwrap().push((var.index(), value));
            }
            SearchEvent::Backtrack { depth, .. } => {
                while levels.len() as u32 > depth {
                    for (x, v) in levels.pop().unwrap() {
                        domains[x].insert(v);
                    }
                }
            }
            SearchEvent::Solution { .. } => {
                assert!(domains.iter().all(|d| d.len() == 1), "{spelling}: a solution with open domains");
                solutions.push(domains.iter().map(|d| *d.first().unwrap()).collect::<Vec<i64>>());
            }
            SearchEvent::WipeOut { .. } => {}
            _ => unknown += 1,
        };
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        solver.observe(&mut record);
        let count = solver.count(None).solutions;
        let stats = solver.stats().clone();
        drop(solver);
        assert_eq!(unknown, 0, "{spelling}");
        assert_eq!(count, 40, "{spelling}");
        assert_eq!(solutions.len(), 40);
        assert!(solutions.iter().all(|s| model.is_solution(s)), "{spelling}");
        assert_eq!(stats.probes > 0, config.probing.is_on(), "{spelling}");
    }
}

#[test]
fn probing_does_not_combine_with_backjumping_or_weaker_levels() {
    let model = queens(4);
    // Learning probes failed literals (each failed probe a conflict it analyses).
    for probing in [Probing::Bivalue, Probing::Singleton] {
        assert!(
            Solver::new(&model, SolveConfig::default().with_search(Search::Learning).with_probing(probing)).is_ok()
        );
    }
    for search in [
        Search::Backjumping(Backjumping::MacCbj),
        Search::Backjumping(Backjumping::FcCbj),
        Search::chronological(Propagation::ForwardChecking),
        Search::chronological(Propagation::None),
    ] {
        for probing in [Probing::Bivalue, Probing::Singleton] {
            let config = SolveConfig::default().with_search(search).with_probing(probing);
            let err = Solver::new(&model, config).unwrap_err();
            assert!(matches!(err, SolveError::Unsupported { .. }), "{search:?}: {err}");
            assert!(err.to_string().contains("probing"), "{err}");
        }
        assert!(Solver::new(&model, SolveConfig::default().with_search(search)).is_ok());
    }
}
