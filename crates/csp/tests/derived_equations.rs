//! The equations the model derives from linear equations over wide domains
//! (`model/derived.rs`: windows turned into equations, and the system of
//! equations reduced by exact integer Gauss-Jordan elimination): each one is
//! implied by the constraints posted, checked by brute force over a box of
//! points around a planted one on small random systems (near ±2^62 too);
//! and the systems they decide are decided at the root.

use std::time::Duration;

use csp::rng::Rng;
use csp::{Domain, MAX_VALUE, Model, Outcome, Relation, SolveConfig, Solver, VarId};

/// How far from the planted point the brute force looks, per variable.
const BOX: i64 = 2;

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u64) as usize]
}

/// A value in `lo..=hi` (a span below 2^63).
fn between(rng: &mut Rng, lo: i64, hi: i64) -> i64 {
    lo + rng.below((hi - lo) as u64 + 1) as i64
}

/// A random system and the brute force around its planted point: every
/// point of the box that satisfies the constraints posted satisfies the
/// derived ones too. Returns how many constraints were derived, and how
/// many points of the box satisfy the posted ones.
fn check_system(rng: &mut Rng, case: usize) -> (usize, usize) {
    let mut model = Model::new();
    let n = 2 + rng.below(4) as usize;
    let mut vars: Vec<VarId> = Vec::new();
    let mut centre: Vec<i64> = Vec::new();
    let edge = MAX_VALUE - BOX;
    for i in 0..n {
        let v = match rng.below(4) {
            0 => between(rng, -64, 64),
            1 => pick(rng, &[-edge, edge, -edge + 3, edge - 5]),
            2 => between(rng, -edge, edge),
            _ => between(rng, -(1 << 40), 1 << 40),
        };
        // Wide but for some of the last variables (narrow: the box itself).
        let (lo, hi) = if i >= 2 && rng.below(3) == 0 {
            (v - BOX, v + BOX)
        } else {
            let reach = pick(rng, &[1i64 << 17, 1 << 30, MAX_VALUE]);
            (v.saturating_sub(reach).max(-MAX_VALUE), v.saturating_add(reach).min(MAX_VALUE))
        };
        vars.push(model.new_var(lo..=hi).unwrap());
        centre.push(v);
    }
    // The planted point: the centre moved within the box.
    let planted: Vec<i64> = centre.iter().map(|&v| v + between(rng, -BOX, BOX)).collect();
    let mut posted = Vec::new();
    let mut text = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let big = rng.below(5) == 0;
        let mut terms = Vec::new();
        for &x in &vars {
            if rng.below(3) != 0 {
                let a = if big {
                    pick(rng, &[1i64, -1, 3, 1 << 20, -(1 << 31), 1 << 40, MAX_VALUE, -MAX_VALUE])
                } else {
                    pick(rng, &[1i64, -1, 2, -2, 3, -3, 4, 6])
                };
                terms.push((a, x));
            }
        }
        if terms.is_empty() {
            terms.push((1, vars[0]));
        }
        let sum: i128 = terms.iter().map(|&(a, x)| i128::from(a) * i128::from(planted[x.index()])).sum();
        // Now and then a right-hand side one off: perhaps no solution.
        let sum = sum + i128::from(rng.below(6) == 0);
        let Ok(k) = i64::try_from(sum) else { continue };
        let relations: &[Relation] = match rng.below(4) {
            0 => &[Relation::Le, Relation::Ge],
            1 => &[Relation::Ge, Relation::Le],
            _ => &[Relation::Eq],
        };
        for &relation in relations {
            if let Ok(id) = model.linear(&terms, relation, k) {
                posted.push(id.index());
                text.push(format!("{terms:?} {relation:?} {k}"));
            }
        }
    }
    let derived: Vec<usize> = (0..model.num_constraints()).filter(|i| !posted.contains(i)).collect();
    // Every point of the box around the centre.
    let mut offsets = vec![-BOX; n];
    let mut solutions = 0;
    loop {
        let values: Vec<i64> = centre.iter().zip(&offsets).map(|(&v, &d)| v + d).collect();
        let violated: Vec<usize> = model.violated(&values).iter().map(|id| id.index()).collect();
        if violated.iter().all(|i| derived.contains(i)) && !violated.is_empty() {
            let equations: Vec<String> = violated
                .iter()
                .map(|&i| {
                    let c = model.constraint(model.constraint_at(i).unwrap()).unwrap();
                    format!("{} over {:?}", c.kind(), c.scope())
                })
                .collect();
            panic!("case {case}: {values:?} satisfies the posted {text:?} but not the derived {equations:?}");
        }
        solutions += usize::from(violated.is_empty());
        let Some(i) = offsets.iter().position(|&d| d < BOX) else { break };
        offsets[i] += 1;
        offsets[..i].iter_mut().for_each(|d| *d = -BOX);
    }
    (derived.len(), solutions)
}

#[test]
fn derived_equations_hold_at_every_solution_in_a_box_near_the_edges() {
    let mut rng = Rng::new(csp::testing::seed(29));
    let cases = csp::testing::scaled(400);
    let (mut derived, mut solutions) = (0, 0);
    for case in 0..cases {
        let (d, s) = check_system(&mut rng, case);
        (derived, solutions) = (derived + d, solutions + s);
    }
    println!("{cases} systems, {derived} derived equations, {solutions} solutions in the boxes");
    assert!(derived >= cases / 2, "only {derived} derived equations in {cases} systems");
}

/// Solves `model` under `spelling` within a guard: the solution's values
/// (`Ok(None)`: unsatisfiable; `Err`: the limit reached) and the nodes.
fn solve(model: &Model, spelling: &str) -> (Result<Option<Vec<i64>>, String>, u64) {
    let limits = csp::Limits::none().with_time(Duration::from_secs(20));
    let config: SolveConfig = spelling.parse().unwrap();
    let mut solver = Solver::new(model, config.with_limits(limits)).unwrap();
    let outcome = match solver.solve() {
        Outcome::Solved(solution) => Ok(Some(solution.values().to_vec())),
        Outcome::Unsatisfiable => Ok(None),
        Outcome::LimitReached(limit) => Err(format!("{limit:?}")),
    };
    (outcome, solver.stats().nodes)
}

/// MiniZinc's spec suite, `defines_var_cycle_breaking.fzn`: four unbounded
/// variables tied in a cycle (`w = x + y`, `x = y + z`, `y = z + w`,
/// `z = w + x`), whose only solution is all zeros. Each equation alone moves the
/// bounds a few values a round; the reduced system fixes every variable.
#[test]
fn a_cycle_of_four_equations_is_solved_at_the_root() {
    let mut model = Model::new();
    let [w, x, y, z] = [0; 4].map(|_| model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap());
    for [a, b, c] in [[w, x, y], [x, y, z], [y, z, w], [z, w, x]] {
        model.linear(&[(1, a), (-1, b), (-1, c)], Relation::Eq, 0).unwrap();
    }
    for spelling in ["mac", "mac+learn", "mac+domwdeg+binary"] {
        let (outcome, nodes) = solve(&model, spelling);
        assert_eq!(outcome, Ok(Some(vec![0, 0, 0, 0])), "{spelling}: after {nodes} nodes");
        assert!(nodes <= 1, "{spelling}: {nodes} nodes");
    }
}

/// Contradictions the rows find: a second right-hand side of the same
/// expression (`0 = 1` once reduced), and a combination whose coefficients'
/// gcd does not divide its right-hand side (`x + y = 1`, `x - y = 0`: `2x =
/// 1`).
#[test]
fn systems_without_an_integer_solution_fail_at_the_root() {
    let systems: [&[([i64; 2], i64)]; 3] =
        [&[([1, 1], 0), ([1, 1], 1)], &[([1, 1], 1), ([1, -1], 0)], &[([3, 1], 7), ([-1, 2], 5), ([2, 3], 13)]];
    for (case, equations) in systems.into_iter().enumerate() {
        let mut model = Model::new();
        let x = model.new_var(-MAX_VALUE..=MAX_VALUE).unwrap();
        let y = model.new_var(Domain::range(-MAX_VALUE, MAX_VALUE)).unwrap();
        for &([a, b], k) in equations {
            model.linear(&[(a, x), (b, y)], Relation::Eq, k).unwrap();
        }
        for spelling in ["mac", "mac+learn", "mac+domwdeg+binary"] {
            let (outcome, nodes) = solve(&model, spelling);
            assert_eq!(outcome, Ok(None), "case {case}, {spelling}");
            assert!(nodes <= 1, "case {case}, {spelling}: {nodes} nodes");
        }
    }
}

/// Seed 7, system case 1891 of `linear_stress.rs` at `CSP_TEST_SCALE=50`:
/// the third equation is the first with `2x0` more and a right-hand side
/// odd more, so the rows end in `2x0 = odd`; on the way, the first row
/// scaled by the second's coefficients has a right-hand side beyond `2^62`.
/// A first version refused such a combination: the third equation was left
/// out, and the root propagation crept (0 nodes in 20 s).
#[test]
fn a_row_whose_right_hand_side_leaves_the_range_still_ends_in_a_contradiction() {
    let mut model = Model::new();
    let x0 = model.new_var(-MAX_VALUE..=1 << 40).unwrap();
    let x1 = model.new_var(-MAX_VALUE..=1 << 40).unwrap();
    let x2 = model.new_var(0..=MAX_VALUE - 1).unwrap();
    let x3 = model.new_var(-100..=99).unwrap();
    let x4 = model.new_var(-100..=99).unwrap();
    let first = [(-8192, x0), (-8192, x1), (12288, x2), (-3, x3), (12, x4)];
    model.linear(&first, Relation::Eq, 1_470_432_189_519_828).unwrap();
    model.linear(&[(3, x0), (1, x1), (5, x4)], Relation::Eq, 324_425_576_244).unwrap();
    let third = [(-8190, x0), (-8192, x1), (12288, x2), (-3, x3), (12, x4)];
    model.linear(&third, Relation::Le, 1_470_597_319_330_441).unwrap();
    model.linear(&third, Relation::Ge, 1_470_597_319_330_441).unwrap();
    for spelling in ["mac", "mac+learn", "mac+domwdeg+binary"] {
        let (outcome, nodes) = solve(&model, spelling);
        assert_eq!(outcome, Ok(None), "{spelling}");
        assert!(nodes <= 1, "{spelling}: {nodes} nodes");
    }
}
