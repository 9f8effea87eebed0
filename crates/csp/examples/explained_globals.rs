//! What sharp explanations of the globals do to search that learns: counts
//! every solution of 20 random models under `mac+learn`, and prints the
//! solutions, nodes, nogoods learnt (with their mean length) and time, under
//! the configuration of the second argument (`mac+learn` by default). The
//! models (the first argument):
//! `extremum` (the default), 14 variables over `0..=7`, six minima and
//! maxima of four variables, an all-different, a `≠`; `abs`, 6 variables
//! over `-4..=4` and 4 over `0..=4`, each of these the `|x|` of one of the
//! former, the former pairwise `x ≤ y + 1` on a random chain and the latter
//! all different; `counting`, 7 variables over `0..=3`, three `count`s of
//! four of them (a variable value, a count in `1..=2`), a
//! `global_cardinality` of five over `{0, 1}` (counts in `0..=2`), an
//! `among` of four in `{2, 3}` (a count in `1..=2`), the first three all
//! different (the first 2,000 solutions of each); `inverse`, 8 successors
//! over `0..=7` and their inverse, 6 random `f[a] <= g[b] + 1`; `lex`, 6
//! rows of 4 variables over `0..=2`, each row `lex_less` than the next,
//! each column's sum a random `4..=6`, 6 random `≠`; `regular`, 12 variables over
//! `0..=2`, four random automata (6 states, 80% of the transitions) over
//! windows of 6 from every other variable, 4 random `≠`;
//! `circuit`, 8 successors over `0..=7` in one circuit, 8 random
//! `x[a] <= x[b] + 1` (`subcircuit`: the same in a subcircuit); `nvalue`,
//! 10 variables over `0..=4`, three windows of 5 with 1 or 2 distinct
//! values, 4 random `≠`; `arithmetic`, 8 variables over `-20..=20` all
//! different and 8 over `-8..=8` all different, each of the latter a
//! `div`, `mod` or `pow` (in turn) of two of the former, 8 random
//! `x ≤ y + 1` among the former (`arithmetic-wide`: the former over
//! `-60..=60`, so that the bounds reasoning acts before the support
//! enumeration) (the first 2,000 solutions of each model).
//!
//! ```sh
//! cargo run --release -p csp --example explained_globals -- abs
//! cargo run --release -p csp --example explained_globals -- counting
//! cargo run --release -p csp --example explained_globals -- inverse
//! cargo run --release -p csp --example explained_globals -- subcircuit
//! cargo run --release -p csp --example explained_globals -- arithmetic-wide
//! ```

#[path = "support/xorshift.rs"]
mod xorshift;

use xorshift::xorshift;

use csp::{Dfa, Model, SolveConfig, Solver, VarId};

fn main() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let (mut nodes, mut learnt, mut literals, mut solutions) = (0, 0, 0, 0);
    let start = std::time::Instant::now();
    let mode = std::env::args().nth(1).unwrap_or_default();
    let config: SolveConfig = std::env::args().nth(2).unwrap_or_else(|| "mac+learn".to_string()).parse().unwrap();
    let abs = mode == "abs";
    for _ in 0..20 {
        if let Some(model) = structural(&mode, &mut next) {
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solutions += solver.count(Some(2000)).solutions;
            nodes += solver.stats().nodes;
            learnt += solver.stats().learnt;
            literals += solver.stats().learnt_literals;
            continue;
        }
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
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solutions += solver.count(Some(2000)).solutions;
            nodes += solver.stats().nodes;
            learnt += solver.stats().learnt;
            literals += solver.stats().learnt_literals;
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
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solutions += solver.count(None).solutions;
            nodes += solver.stats().nodes;
            learnt += solver.stats().learnt;
            literals += solver.stats().learnt_literals;
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
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        solutions += solver.count(None).solutions;
        nodes += solver.stats().nodes;
        learnt += solver.stats().learnt;
        literals += solver.stats().learnt_literals;
    }
    let each = literals as f64 / learnt.max(1) as f64;
    println!(
        "solutions {solutions} nodes {nodes} learnt {learnt} ({each:.1} literals each) time {:?}",
        start.elapsed()
    );
}

/// One of `xs`, at random.
fn pick(next: &mut impl FnMut() -> u64, xs: &[VarId]) -> VarId {
    xs[(next() % xs.len() as u64) as usize]
}

/// The models of `inverse`, `lex`, `regular`, the circuits, `nvalue` and
/// the arithmetic ones (see the module docs); `None` for the other modes.
fn structural(mode: &str, next: &mut impl FnMut() -> u64) -> Option<Model> {
    let mut model = Model::new();
    match mode {
        "inverse" => {
            let f: Vec<VarId> = model.new_vars(8, 0..=7).unwrap();
            let g: Vec<VarId> = model.new_vars(8, 0..=7).unwrap();
            model.inverse(&f, 0, &g, 0).unwrap();
            for _ in 0..6 {
                let (a, b) = (pick(next, &f), pick(next, &g));
                model.add(a.le(b + 1)).unwrap();
            }
        }
        "lex" => {
            let rows: Vec<Vec<VarId>> = (0..6).map(|_| model.new_vars(4, 0..=2).unwrap()).collect();
            for pair in rows.windows(2) {
                model.lex_less(&pair[0], &pair[1]).unwrap();
            }
            for column in 0..4 {
                let column: Vec<VarId> = rows.iter().map(|row| row[column]).collect();
                let sum = column.iter().fold(csp::LinearExpr::from(0), |sum, &x| sum + x);
                model.add(sum.eq(4 + (next() % 3) as i64)).unwrap();
            }
            let all: Vec<VarId> = rows.concat();
            for _ in 0..6 {
                let (a, b) = (pick(next, &all), pick(next, &all));
                if a != b {
                    model.not_equal(a, b).unwrap();
                }
            }
        }
        "regular" => {
            let x: Vec<VarId> = model.new_vars(12, 0..=2).unwrap();
            for k in 0..4 {
                let (states, mut transitions) = (6, Vec::new());
                for q in 0..states {
                    for symbol in 0..3 {
                        if next() % 5 != 0 {
                            transitions.push((q, symbol, (next() % states as u64) as usize));
                        }
                    }
                }
                let accepting: Vec<usize> = (0..states).filter(|_| next() % 2 == 0).collect();
                let dfa = Dfa::new(states, 0, &accepting, &transitions).unwrap();
                let start = 2 * k;
                model.regular(&x[start..start + 6], &dfa).unwrap();
            }
            for _ in 0..4 {
                let (a, b) = (pick(next, &x), pick(next, &x));
                if a != b {
                    model.not_equal(a, b).unwrap();
                }
            }
        }
        "circuit" | "subcircuit" => {
            let x: Vec<VarId> = model.new_vars(8, 0..=7).unwrap();
            if mode == "circuit" {
                model.circuit(&x, 0).unwrap();
            } else {
                model.subcircuit(&x, 0).unwrap();
            }
            for _ in 0..8 {
                let (a, b) = (pick(next, &x), pick(next, &x));
                if a != b {
                    model.add(a.le(b + 1)).unwrap();
                }
            }
        }
        "arithmetic" | "arithmetic-wide" => {
            let width = if mode == "arithmetic" { 20 } else { 60 };
            let x: Vec<VarId> = model.new_vars(8, -width..=width).unwrap();
            let z: Vec<VarId> = model.new_vars(8, -8..=8).unwrap();
            for (k, &zk) in z.iter().enumerate() {
                let (a, b) = (pick(next, &x), pick(next, &x));
                match k % 3 {
                    0 => model.div(a, b, zk).unwrap(),
                    1 => model.modulo(a, b, zk).unwrap(),
                    _ => model.pow(a, b, zk).unwrap(),
                };
            }
            for _ in 0..8 {
                let (a, b) = (pick(next, &x), pick(next, &x));
                if a != b {
                    model.add(a.le(b + 1)).unwrap();
                }
            }
            model.all_different(&z).unwrap();
            model.all_different(&x).unwrap();
        }
        "nvalue" => {
            let x: Vec<VarId> = model.new_vars(10, 0..=4).unwrap();
            for _ in 0..3 {
                let start = (next() % 10) as usize;
                let window: Vec<VarId> = (0..5).map(|k| x[(start + k) % 10]).collect();
                let n = model.new_var(1..=2).unwrap();
                model.nvalue(n, &window).unwrap();
            }
            for _ in 0..4 {
                let (a, b) = (pick(next, &x), pick(next, &x));
                if a != b {
                    model.not_equal(a, b).unwrap();
                }
            }
        }
        _ => return None,
    }
    Some(model)
}
