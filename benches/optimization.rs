//! Branch and bound: the time to find the best solution and prove it optimal.
//!
//! - `knapsack/p07`: Burkardt's P07, the gallery's knapsack (15 items, optimum
//!   1458), one 0/1 variable per item, the total value maximised;
//! - `ft06/...`: Fisher & Thompson's 6x6 job shop (optimum makespan 55), the
//!   start times over `0..=197` (the sum of the durations), precedences as
//!   `linear`, and on each machine a pairwise disjunction `a + da <= b or b +
//!   db <= a` for every two tasks: a small custom constraint here, with bounds
//!   propagation (one disjunct impossible, the other holds). The makespan is
//!   minimised. (A `disjunctive` global with edge finding prunes much more; this
//!   is the decomposition.)
//!
//! Models are built outside the timed loop and every optimum is checked once
//! before timing.
//!
//! Run: `cargo bench --bench optimization -- --warm-up-time 1 --measurement-time 3`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::{
    Branching, Constraint, Context, Event, LinearExpr, Model, OptimizationOutcome, PropagationResult, Propagator,
    PropagatorOptions, Relation, SolveConfig, Solver, VarId, VarOrder,
};

/// ft06: per job, its tasks in order as (machine, duration).
const FT06: [[(usize, i64); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// Two tasks of one machine do not overlap: `a + da <= b` or `b + db <= a`.
struct NoOverlap {
    starts: [VarId; 2],
    durations: [i64; 2],
}

impl Constraint for NoOverlap {
    fn scope(&self) -> &[VarId] {
        &self.starts
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        values[0] + self.durations[0] <= values[1] || values[1] + self.durations[1] <= values[0]
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(NoOverlapPropagator { starts: self.starts, durations: self.durations }))
    }
}

struct NoOverlapPropagator {
    starts: [VarId; 2],
    durations: [i64; 2],
}

impl Propagator for NoOverlapPropagator {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let ([a, b], [da, db]) = (self.starts, self.durations);
        let a_first = ctx.min(a) + da <= ctx.max(b);
        let b_first = ctx.min(b) + db <= ctx.max(a);
        match (a_first, b_first) {
            (false, false) => Err(csp::Conflict),
            (true, false) => {
                ctx.set_min(b, ctx.min(a) + da)?;
                ctx.set_max(a, ctx.max(b) - da)?;
                Ok(())
            }
            (false, true) => {
                ctx.set_min(a, ctx.min(b) + db)?;
                ctx.set_max(b, ctx.max(a) - db)?;
                Ok(())
            }
            (true, true) => Ok(()),
        }
    }

    fn interest(&self) -> Event {
        Event::Bounds
    }
}

/// The ft06 model: the start of every task, and the makespan, minimised.
fn ft06() -> (Model, VarId) {
    let horizon: i64 = FT06.iter().flatten().map(|&(_, d)| d).sum();
    let mut model = Model::new();
    let starts: Vec<Vec<VarId>> =
        FT06.iter().map(|job| job.iter().map(|_| model.new_var(0..=horizon).unwrap()).collect()).collect();
    let makespan = model.new_var(0..=horizon).unwrap();
    for (job, tasks) in FT06.iter().enumerate() {
        for k in 0..5 {
            // start[k] + d[k] <= start[k + 1]
            model.linear(&[(1, starts[job][k]), (-1, starts[job][k + 1])], Relation::Le, -tasks[k].1).unwrap();
        }
        model.linear(&[(1, starts[job][5]), (-1, makespan)], Relation::Le, -tasks[5].1).unwrap();
    }
    let tasks: Vec<(usize, VarId, i64)> = FT06
        .iter()
        .enumerate()
        .flat_map(|(job, tasks)| tasks.iter().enumerate().map(move |(k, &(machine, d))| (machine, (job, k), d)))
        .map(|(machine, (job, k), d)| (machine, starts[job][k], d))
        .collect();
    for (i, &(machine, a, da)) in tasks.iter().enumerate() {
        for &(other, b, db) in &tasks[i + 1..] {
            if machine == other {
                model.post(NoOverlap { starts: [a, b], durations: [da, db] }).unwrap();
            }
        }
    }
    model.minimize(makespan).unwrap();
    (model, makespan)
}

/// Burkardt's P07 knapsack (see `examples/knapsack.rs`).
fn knapsack() -> Model {
    const ITEMS: [(i64, i64); 15] = [
        (70, 135),
        (73, 139),
        (77, 149),
        (80, 150),
        (82, 156),
        (87, 163),
        (90, 173),
        (94, 184),
        (98, 192),
        (106, 201),
        (110, 210),
        (113, 214),
        (115, 221),
        (118, 229),
        (120, 240),
    ];
    let mut model = Model::new();
    let take = model.new_vars(ITEMS.len(), 0..=1).unwrap();
    let weight: Vec<(i64, VarId)> = ITEMS.iter().zip(&take).map(|(&(w, _), &x)| (w, x)).collect();
    model.linear(&weight, Relation::Le, 750).unwrap();
    model.maximize(ITEMS.iter().zip(&take).map(|(&(_, v), &x)| v * x).sum::<LinearExpr>()).unwrap();
    model
}

fn optimum(model: &Model, config: &SolveConfig) -> i64 {
    match Solver::new(model, config.clone()).unwrap().optimize() {
        OptimizationOutcome::Optimal { objective, .. } => objective,
        other => panic!("{config}: {other:?}"),
    }
}

fn bench_optimization(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimize");
    let model = knapsack();
    let config = SolveConfig::default();
    assert_eq!(optimum(&model, &config), 1458);
    group.bench_function(BenchmarkId::new("mac+mrv", "knapsack/p07"), |b| b.iter(|| optimum(&model, &config)));
    let (model, _) = ft06();
    for (name, config) in [
        (
            "mac+domwdeg+binary",
            SolveConfig::default().with_var_order(VarOrder::DomWdeg).with_branching(Branching::Binary),
        ),
        ("mac+domwdeg", SolveConfig::default().with_var_order(VarOrder::DomWdeg)),
    ] {
        assert_eq!(optimum(&model, &config), 55, "{name}");
        group.bench_function(BenchmarkId::new(name, "ft06/pairwise-disjunctions"), |b| {
            b.iter(|| optimum(&model, &config))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_optimization);
criterion_main!(benches);
