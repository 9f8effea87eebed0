//! What sharp explanations of the scheduling propagators do to search that
//! learns: minimises the makespan of 20 random instances, proving each
//! optimum, and prints the sum of the optima, nodes, nogoods learnt (with
//! their mean length) and time.
//! The families (the first argument): `jobshop` (the default), 8 jobs of 8
//! operations on 8 machines (each job visits every machine in a random
//! order), durations in `1..=9`, a `disjunctive` per machine and the jobs'
//! precedences as `linear`; `rcpsp`, 10 tasks of durations in `1..=6` on two
//! resources of capacity 5 (each task uses `0..=4` of each), a random
//! precedence from an earlier task to each task one time in two, a
//! `cumulative` per resource. The configuration (the second argument) is
//! `mac+learn` by default.
//!
//! ```sh
//! cargo run --release -p csp --example explained_scheduling -- jobshop
//! cargo run --release -p csp --example explained_scheduling -- rcpsp mac+learn+vsids+phase+luby=100
//! ```

#[path = "support/xorshift.rs"]
mod xorshift;

use xorshift::xorshift;

use csp::{Model, OptimizationOutcome, Relation, SolveConfig, Solver, VarId};

/// A random job shop: for each job, `(machine, duration)` in order.
fn job_shop(next: &mut impl FnMut() -> u64) -> Vec<Vec<(usize, i64)>> {
    (0..8)
        .map(|_| {
            let mut machines: Vec<usize> = (0..8).collect();
            for k in (1..machines.len()).rev() {
                machines.swap(k, (next() % (k as u64 + 1)) as usize);
            }
            machines.into_iter().map(|m| (m, 1 + (next() % 9) as i64)).collect()
        })
        .collect()
}

/// The job shop's model, its makespan minimised.
fn job_shop_model(jobs: &[Vec<(usize, i64)>]) -> Model {
    let horizon: i64 = jobs.iter().flatten().map(|&(_, d)| d).sum();
    let mut model = Model::new();
    let makespan = model.new_var(0..=horizon).unwrap();
    let mut on: Vec<Vec<(VarId, i64)>> = vec![Vec::new(); 8];
    for job in jobs {
        let starts: Vec<VarId> = job.iter().map(|_| model.new_var(0..=horizon).unwrap()).collect();
        for (k, &(machine, duration)) in job.iter().enumerate() {
            on[machine].push((starts[k], duration));
            let next = starts.get(k + 1).copied().unwrap_or(makespan);
            // s[k] + d[k] <= s[k + 1] (or the makespan)
            model.linear(&[(1, starts[k]), (-1, next)], Relation::Le, -duration).unwrap();
        }
    }
    for tasks in on {
        let (starts, durations): (Vec<VarId>, Vec<i64>) = tasks.into_iter().unzip();
        model.disjunctive(&starts, &durations).unwrap();
    }
    model.minimize(makespan).unwrap();
    model
}

/// A random resource-constrained project's model, its makespan minimised.
fn project_model(next: &mut impl FnMut() -> u64) -> Model {
    let n = 10;
    let durations: Vec<i64> = (0..n).map(|_| 1 + (next() % 6) as i64).collect();
    let horizon: i64 = durations.iter().sum();
    let mut model = Model::new();
    let makespan = model.new_var(0..=horizon).unwrap();
    let starts: Vec<VarId> = (0..n).map(|_| model.new_var(0..=horizon).unwrap()).collect();
    for i in 0..n {
        // s[i] + d[i] <= makespan
        model.linear(&[(1, starts[i]), (-1, makespan)], Relation::Le, -durations[i]).unwrap();
        if i > 0 && next() % 2 == 0 {
            let before = (next() % i as u64) as usize;
            model.linear(&[(1, starts[before]), (-1, starts[i])], Relation::Le, -durations[before]).unwrap();
        }
    }
    for _ in 0..2 {
        let uses: Vec<i64> = (0..n).map(|_| (next() % 5) as i64).collect();
        model.cumulative(&starts, &durations, &uses, 5).unwrap();
    }
    model.minimize(makespan).unwrap();
    model
}

fn main() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mode = std::env::args().nth(1).unwrap_or_else(|| "jobshop".to_string());
    let config: SolveConfig = std::env::args().nth(2).unwrap_or_else(|| "mac+learn".to_string()).parse().unwrap();
    let (mut optima, mut nodes, mut learnt, mut literals) = (0, 0, 0, 0);
    let start = std::time::Instant::now();
    for _ in 0..20 {
        let model = if mode == "rcpsp" { project_model(&mut next) } else { job_shop_model(&job_shop(&mut next)) };
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        match solver.optimize() {
            OptimizationOutcome::Optimal { objective, .. } => optima += objective,
            other => panic!("{mode}: {other:?}"),
        }
        nodes += solver.stats().nodes;
        learnt += solver.stats().learnt;
        literals += solver.stats().learnt_literals;
    }
    let each = literals as f64 / learnt.max(1) as f64;
    println!(
        "{mode} {config}: optima {optima} nodes {nodes} learnt {learnt} ({each:.1} literals each) time {:?}",
        start.elapsed()
    );
}
