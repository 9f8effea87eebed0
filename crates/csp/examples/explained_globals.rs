//! What sharp explanations of the globals do to search that learns: counts
//! every solution of 20 random models under `mac+learn`, and prints the
//! solutions, nodes, nogoods learnt and time. The models (the argument):
//! `extremum` (the default), 14 variables over `0..=7`, six minima and
//! maxima of four variables, an all-different, a `≠`; `abs`, 6 variables
//! over `-4..=4` and 4 over `0..=4`, each of these the `|x|` of one of the
//! former, the former pairwise `x ≤ y + 1` on a random chain and the latter
//! all different; `counting`, 7 variables over `0..=3`, three `count`s of
//! four of them (a variable value, a count in `1..=2`), a
//! `global_cardinality` of five over `{0, 1}` (counts in `0..=2`), an
//! `among` of four in `{2, 3}` (a count in `1..=2`), the first three all
//! different (the first 2,000 solutions of each).
//!
//! ```sh
//! cargo run --release -p csp --example explained_globals -- abs
//! cargo run --release -p csp --example explained_globals -- counting
//! ```

use csp::{Model, Solver, VarId};

fn main() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut nodes, mut learnt, mut solutions) = (0, 0, 0);
    let start = std::time::Instant::now();
    let mode = std::env::args().nth(1).unwrap_or_default();
    let abs = mode == "abs";
    for _ in 0..20 {
        if mode == "counting" {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(7, 0..=3).unwrap();
            let mut window = |n: usize| -> Vec<VarId> {
                let start = (next() % 7) as usize;
                (0..n).map(|k| x[(start + k) % 7]).collect()
            };
            for _ in 0..3 {
                let (y, c) = (model.new_var(0..=3).unwrap(), model.new_var(1..=2).unwrap());
                model.count(&window(4), y, c).unwrap();
            }
            let counts: Vec<VarId> = model.new_vars(2, 0..=2).unwrap();
            model.global_cardinality(&window(5), &[0, 1], &counts).unwrap();
            let c = model.new_var(1..=2).unwrap();
            model.among(c, &window(4), &[2, 3]).unwrap();
            model.all_different(&x[..3]).unwrap();
            let mut solver = Solver::new(&model, "mac+learn".parse().unwrap()).unwrap();
            solutions += solver.count(Some(2000)).solutions;
            nodes += solver.stats().nodes;
            learnt += solver.stats().learnt;
            continue;
        }
        if abs {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(6, -4..=4).unwrap();
            let z: Vec<VarId> = model.new_vars(4, 0..=4).unwrap();
            for &zk in &z {
                model.abs(x[(next() % 6) as usize], zk).unwrap();
            }
            for _ in 0..6 {
                let (a, b) = (x[(next() % 6) as usize], x[(next() % 6) as usize]);
                if a != b {
                    model.add(a.le(b + 1)).unwrap();
                }
            }
            model.all_different(&z).unwrap();
            let mut solver = Solver::new(&model, "mac+learn".parse().unwrap()).unwrap();
            solutions += solver.count(None).solutions;
            nodes += solver.stats().nodes;
            learnt += solver.stats().learnt;
            continue;
        }
        let mut model = Model::new();
        let x: Vec<VarId> = model.new_vars(14, 0..=7).unwrap();
        for k in 0..6 {
            let first = (next() % 14) as usize;
            let s: Vec<VarId> = (0..4).map(|j| x[(first + j) % 14]).collect();
            if k % 2 == 0 {
                model.minimum(s[0], &s[1..]).unwrap();
            } else {
                model.maximum(s[0], &s[1..]).unwrap();
            }
        }
        model.all_different(&x[..7]).unwrap();
        let (a, b) = (x[(next() % 14) as usize], x[(next() % 14) as usize]);
        if a != b {
            model.not_equal(a, b).unwrap();
        }
        let mut solver = Solver::new(&model, "mac+learn".parse().unwrap()).unwrap();
        solutions += solver.count(None).solutions;
        nodes += solver.stats().nodes;
        learnt += solver.stats().learnt;
    }
    println!("solutions {solutions} nodes {nodes} learnt {learnt} time {:?}", start.elapsed());
}
