//! Search that learns from its failures (`mac+learn`): known answers, and
//! the debug check of every learnt nogood against brute force.

#[path = "support/latin_square.rs"]
mod latin;
#[path = "support/queens.rs"]
mod support;
#[path = "../examples/support/xorshift.rs"]
mod xorshift;

use csp::{Lit, Model, SolveConfig, Solver, VarId};
use latin::latin_square;
use support::queens;
use xorshift::xorshift;

#[test]
fn learning_counts_the_queens() {
    for (n, count) in [(4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
        let spellings = [
            "mac+learn",
            "mac+learn+vsids+phase+luby=5",
            "mac+learn+domwdeg+pairwise",
            "mac+learn+bounds",
            "mac+learn+domwdeg+glucose=2",
        ];
        for spelling in spellings {
            let config: SolveConfig = spelling.parse().unwrap();
            let model = queens(n as usize);
            let mut solver = Solver::new(&model, config).unwrap();
            solver.check_nogoods(true);
            let counted = solver.count(None);
            assert_eq!(counted.solutions, count, "{spelling} on {n} queens");
            assert!(counted.is_complete());
        }
    }
}

/// `pigeons` variables over `holes` values, pairwise `≠`.
fn pigeonhole(pigeons: usize, holes: i64) -> Model {
    let mut model = Model::new();
    let xs: Vec<VarId> = (0..pigeons).map(|_| model.new_var(0..=holes - 1).unwrap()).collect();
    for (i, &p) in xs.iter().enumerate() {
        for &q in &xs[i + 1..] {
            model.not_equal(p, q).unwrap();
        }
    }
    model
}

/// Glucose's restarts follow the learnt nogoods: on the pigeonhole problem
/// (7 pigeons, 6 holes, pairwise `≠`), whose proof learns thousands of
/// them, the search restarts and still proves it unsatisfiable; without
/// learning the policy is refused.
#[test]
fn glucose_restarts_when_the_nogoods_get_worse() {
    let model = pigeonhole(7, 6);
    for spelling in ["mac+learn+domwdeg+glucose=1", "mac+learn+vsids+phase+glucose=5"] {
        let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
        solver.check_nogoods(true);
        assert_eq!(solver.solve(), csp::Outcome::Unsatisfiable, "{spelling}");
        assert!(solver.stats().restarts > 0, "{spelling}: {}", solver.stats());
    }
    let glucose = SolveConfig::default().with_restarts(csp::Restarts::Glucose { window: 50 });
    assert!(Solver::new(&model, glucose).is_err());
}

/// The reduction of the nogoods, by halves or by tiers, with or without
/// dynamic distances, their protection, recounted glue and glue that expires (weighed by activity or not) or is
/// capped, and with the nogoods vivified at restarts (which shortens them), deletes only nogoods that
/// no entry on the trail needs: on
/// the pigeonhole problem, reduced every 50 conflicts and more, every
/// nogood checked, the proof still ends in unsatisfiable. Each option
/// changes which nogoods are kept, so the proof (the first three share
/// their ordering).
#[test]
fn reducing_the_nogoods_by_halves_or_by_tiers_keeps_the_proof() {
    let model = pigeonhole(7, 6);
    let mut proofs = Vec::new();
    for spelling in [
        "mac+learn+domwdeg",
        "mac+learn+domwdeg+tiers",
        "mac+learn+domwdeg+dynlbd",
        "mac+learn+alternate+phase+glucose=5+tiers+dynlbd",
        "mac+learn+lvsids+active+luby=2+tiers",
        "mac+learn+domwdeg+dynlbd+protect",
        "mac+learn+alternate+phase+glucose=5+tiers+dynlbd+protect",
        "mac+learn+domwdeg+dynlbd+noglue",
        "mac+learn+domwdeg+dynlbd+expire",
        "mac+learn+domwdeg+dynlbd+gluecap",
        "mac+learn+alternate+phase+glucose=5+tiers+dynlbd+expire+gluecap",
        "mac+learn+domwdeg+dynlbd+expire+fade",
        "mac+learn+rotate+phase+glucose=5+dynlbd+expire+fade",
        "mac+learn+domwdeg+luby=2",
        "mac+learn+domwdeg+luby=2+vivify",
        "mac+learn+alternate+phase+glucose=5+dynlbd+expire+vivify",
    ] {
        let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
        solver.reduce_nogoods_after(50);
        solver.check_nogoods(true);
        assert_eq!(solver.solve(), csp::Outcome::Unsatisfiable, "{spelling}");
        let stats = solver.stats();
        assert!(stats.learnt > 500, "{spelling}: {stats}");
        // The database's counters: reduced every 50 conflicts and more.
        assert!(stats.reductions >= 3 && stats.nogoods_deleted > 0, "{spelling}: {stats}");
        assert!(stats.glue_alive <= stats.nogoods_alive, "{spelling}: {stats}");
        assert_eq!(stats.lbd_lowered > 0, spelling.contains("dynlbd"), "{spelling}: {stats}");
        assert_eq!(stats.vivify_removed > 0, spelling.contains("vivify"), "{spelling}: {stats}");
        proofs.push(stats.learnt);
    }
    assert!(proofs[0] != proofs[1] && proofs[0] != proofs[2], "the same proofs: {proofs:?}");
    assert!(proofs[2] != proofs[5], "protection changed no proof: {proofs:?}");
    assert!(proofs[2] != proofs[7], "no recounted glue changed no proof: {proofs:?}");
    assert!(proofs[2] != proofs[8], "expiring glue changed no proof: {proofs:?}");
    assert!(proofs[2] != proofs[9], "the glue cap changed no proof: {proofs:?}");
    assert!(proofs[3] != proofs[10], "expiring and capped glue changed no proof: {proofs:?}");
    assert!(proofs[8] != proofs[11], "faded glue changed no proof: {proofs:?}");
    assert!(proofs[13] != proofs[14], "vivification changed no proof: {proofs:?}");
}

/// Chronological replay (`chrono`): every nogood checked, the queens and
/// latin squares still counted in full (every solution found, none
/// twice), with the decisions a backjump skipped made again after every
/// backjump (`chrono=1`, some of them replayed) or after longer ones; with
/// a threshold above every jump nothing is replayed and the search is the
/// one without the word.
#[test]
fn replaying_the_skipped_decisions_keeps_every_solution() {
    let givens = [(0, 0, 0), (1, 2, 1), (2, 4, 2), (3, 1, 3), (4, 3, 4)];
    let mut models: Vec<(Model, u64, String)> =
        [(6, 4), (7, 40), (8, 92)].into_iter().map(|(n, count)| (queens(n), count, format!("{n} queens"))).collect();
    for (n, givens) in [(4, &[][..]), (5, &givens[..])] {
        let model = latin_square(n, givens);
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        models.push((model, expected, format!("a latin square of side {n}")));
    }
    let mut replayed = 0;
    for (model, expected, name) in &models {
        for base in [
            "mac+learn+domwdeg",
            "mac+learn+vsids+phase+luby=1",
            "mac+learn+alternate+phase+glucose=2+dynlbd+expire",
            "mac+learn+domwdeg+glucose=1+desc",
        ] {
            let count = |spelling: &str| {
                let mut solver = Solver::new(model, spelling.parse().unwrap()).unwrap();
                solver.check_nogoods(true);
                let counted = solver.count(None);
                assert_eq!(counted.solutions, *expected, "{spelling} on {name}");
                assert!(counted.is_complete(), "{spelling} on {name}");
                solver.stats().clone()
            };
            let plain = count(base);
            replayed += count(&format!("{base}+chrono=1")).replayed;
            count(&format!("{base}+chrono=2"));
            let never = count(&format!("{base}+chrono=1000"));
            assert_eq!(never.without_time(), plain.without_time(), "{base} on {name}");
        }
    }
    assert!(replayed > 0, "no decision replayed");
}

/// The shrunk case of a property test: a negative table over an interval
/// (a bitset limit of 2 makes every range of three values an interval).
#[test]
fn learning_with_a_negative_table_over_an_interval() {
    let mut model = Model::new();
    model.new_var([0]).unwrap();
    let x = model.new_var([-2, -1, 0]).unwrap();
    model.new_var(0..=1).unwrap();
    model.new_var(0..=1).unwrap();
    model.negative_table(&[x], &[vec![0]]).unwrap();
    let config = "mac+learn+mrv+seed=3".parse::<SolveConfig>().unwrap().with_bitset_limit(2);
    let mut solver = Solver::new(&model, config).unwrap();
    solver.check_nogoods(true);
    let mut count = 0;
    for solution in solver.solutions() {
        assert!(model.is_solution(solution.values()));
        assert_ne!(solution.value(x), 0);
        count += 1;
    }
    assert_eq!(count, 8);
}

/// The all-different system reasons over all its constraints at once: the
/// explanation of its work must name all their variables, not only those
/// of the constraint it blames (a nogood learnt from a blamed row alone once
/// excluded the only solution of a 25x25 sudoku).
#[test]
fn learning_through_the_all_different_system_keeps_every_solution() {
    let givens = [(0, 0, 0), (1, 2, 1), (2, 4, 2), (3, 1, 3), (4, 3, 4)];
    for (n, givens) in [(4, &[][..]), (5, &givens[..])] {
        let model = latin_square(n, givens);
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        // Both value orders (phase saving picks its own), as in `assert_learning_counts`.
        let spellings = [
            "mac+learn+domwdeg",
            "mac+learn+domwdeg+desc",
            "mac+learn+domwdeg+intersect",
            "mac+learn+domwdeg+intersect+desc",
            "mac+learn+vsids+phase+luby=1",
            "mac+learn+glucose=1",
            "mac+learn+glucose=1+desc",
        ];
        for spelling in spellings {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            let counted = solver.count(None);
            assert_eq!(counted.solutions, expected, "{spelling} on a latin square of side {n}");
        }
    }
}

/// Minimisation drops a fact of a learnt nogood that its other facts imply.
/// `x → a`, and `x ∧ a ∧ y` forces both `z` and `¬z`: deciding `x` (level
/// 1, which makes `a` true) then `y` (level 2) fails, and the analysis
/// learns `¬x ∨ ¬a ∨ ¬y`, where `a` is implied by `x`: minimised, `¬x ∨ ¬y`.
/// Solutions and checks are the same either way.
#[test]
fn minimisation_drops_a_fact_the_others_imply() {
    let mut model = Model::new();
    let [x, a, y, z] = model.new_bools(4)[..] else { unreachable!() };
    model.or(&[!x, a]).unwrap();
    model.or(&[!x, !a, !y, z]).unwrap();
    model.or(&[!x, !a, !y, !z]).unwrap();
    let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
    let mut literals = Vec::new();
    for spelling in ["mac+learn+input+desc+minimize", "mac+learn+input+desc"] {
        let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
        solver.check_nogoods(true);
        assert_eq!(solver.count(None).solutions, expected, "{spelling}");
        let stats = solver.stats();
        assert_eq!(stats.learnt, 1, "{spelling}: {stats}");
        literals.push(stats.learnt_literals);
    }
    assert_eq!(literals, [2, 3]);
}

/// Minimised nogoods keep every solution, and are shorter: on queens and
/// the pigeonhole problem, with and without minimisation, every nogood
/// checked against every solution.
#[test]
fn minimised_nogoods_are_shorter_and_keep_every_solution() {
    let models =
        [(queens(6), "6 queens"), (queens(7), "7 queens"), (queens(8), "8 queens"), (pigeonhole(7, 6), "pigeonhole")];
    let (mut minimised, mut analysed) = ((0, 0), (0, 0));
    for (model, what) in &models {
        let expected = Solver::new(model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        for (spelling, sums) in [("mac+learn+domwdeg+minimize", &mut minimised), ("mac+learn+domwdeg", &mut analysed)] {
            let mut solver = Solver::new(model, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            assert_eq!(solver.count(None).solutions, expected, "{spelling} on {what}");
            sums.0 += solver.stats().learnt_literals;
            sums.1 += solver.stats().learnt;
        }
    }
    assert!(minimised.1 > 100 && analysed.1 > 100, "the searches learnt little: {minimised:?} {analysed:?}");
    let mean = |(literals, learnt): (u64, u64)| literals as f64 / learnt as f64;
    assert!(mean(minimised) < mean(analysed), "{minimised:?} against {analysed:?}");
}

/// A sudoku-like grid of side `n` with boxes of `rows` x `n / rows` cells
/// (rows, columns and boxes: the system with crossings under `+intersect`),
/// each cell's domain the range `range(cell)` (ranges, so that the
/// all-differents are propagated as one system).
fn grid(n: usize, rows: usize, mut range: impl FnMut(usize) -> std::ops::RangeInclusive<i64>) -> Model {
    let mut model = Model::new();
    let cells: Vec<VarId> = (0..n * n).map(|c| model.new_var(range(c)).unwrap()).collect();
    let cols = n / rows;
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| cells[i * n + j]).collect();
        let col: Vec<VarId> = (0..n).map(|j| cells[j * n + i]).collect();
        let (r, c) = (i / rows * rows, i % rows * cols);
        let cage: Vec<VarId> = (0..n).map(|k| cells[(r + k / cols) * n + c + k % cols]).collect();
        model.all_different(&row).unwrap();
        model.all_different(&col).unwrap();
        model.all_different(&cage).unwrap();
    }
    model
}

/// The system's explanations (singles, hidden singles, Hall sets, the
/// intersections of boxes and lines, failures) are each checked against
/// every solution by `check_nogoods` (the root domains of these grids hold
/// at most 2^20 assignments), and the nogoods learnt from them keep every
/// solution.
#[test]
fn the_all_different_systems_explanations_imply_what_they_explain() {
    let spellings = [
        "mac+learn+domwdeg+intersect",
        "mac+learn+domwdeg+intersect+desc",
        "mac+learn+vsids+phase+luby=1",
        "mac+learn+lex+intersect",
        "mac+learn+separate",
        "mac+learn+separate+desc",
    ];
    let learnt = learning_counts_on_small_grids(&spellings, 20);
    assert!(learnt > 20, "the searches learnt little: {learnt}");
}

/// On 200 random 6x6 grids (2x3 boxes) with some cells given and `lost`
/// percent of the cells without their last value, as many without their
/// first (a unit that lost a value is no permutation), each spelling, with
/// its nogoods checked (`check_nogoods`), counts the solutions plain MAC
/// counts. Grids with over 300 solutions are skipped (the check is slow
/// there, and the search learns little). Returns the nogoods learnt.
fn learning_counts_on_small_grids(spellings: &[&str], lost: u64) -> u64 {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut learnt = 0;
    for case in 0..200 {
        let (n, given) = (6, [20, 25, 30, 35][case % 4]);
        let model = grid(n, 2, |_| {
            let (r, v) = (next() % 100, (next() % n as u64) as i64);
            match r {
                _ if r < given => v..=v,
                _ if r < given + lost => 1..=n as i64 - 1,
                _ if r < given + 2 * lost => 0..=n as i64 - 2,
                _ => 0..=n as i64 - 1,
            }
        });
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        if expected > 300 {
            continue;
        }
        for spelling in spellings {
            let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            assert_eq!(solver.count(None).solutions, expected, "{spelling} on grid {case}");
            learnt += solver.stats().learnt;
        }
    }
    learnt
}

/// The cover strength's explanations (fixed peers; a hidden single by
/// the other variables' `≠ v`; a value with no place left) are each checked
/// against every solution by `check_nogoods`, on the small grids (each row,
/// column and box a permutation, or not when a cell lost a value), and on
/// permutations shifted by offsets near `±2^62` whose values are one word,
/// several words or a sorted list apart.
#[test]
fn the_cover_strengths_explanations_imply_what_they_explain() {
    let spellings = [
        "mac+learn+cover",
        "mac+learn+domwdeg+cover+desc",
        "mac+learn+vsids+phase+cover+luby=1",
        "mac+learn+cover+glucose=2",
    ];
    let mut learnt = learning_counts_on_small_grids(&spellings, 10);
    let max = csp::MAX_VALUE;
    for (case, step) in [1i64, 40, 1 << 40].into_iter().enumerate() {
        for target in [0, max - 8 * step, -max] {
            // Three permutations of `target + k * step`, each variable
            // shifted from its own values: `xs`, `ws`, and two of `xs` with
            // the rest of `ws`; one value of `xs[0]` forbidden.
            let mut model = Model::new();
            let n = 4;
            let bases: Vec<i64> = (0..2 * n)
                .map(|i| [0, 5, -3][i % 3])
                .map(|b| if (i128::from(target) - i128::from(b)).abs() <= i128::from(max) { b } else { 0 })
                .collect();
            let vars: Vec<VarId> = bases
                .iter()
                .map(|&b| model.new_var(csp::Domain::values((0..n as i64).map(|k| b + k * step))).unwrap())
                .collect();
            let offsets: Vec<i64> = bases.iter().map(|&b| target - b).collect();
            let cover = csp::AllDifferentStrength::Cover;
            for group in [(0..n).collect::<Vec<usize>>(), (n..2 * n).collect(), vec![0, 1, n + 2, n + 3]] {
                let scope: Vec<VarId> = group.iter().map(|&i| vars[i]).collect();
                let shifts: Vec<i64> = group.iter().map(|&i| offsets[i]).collect();
                model.all_different_offset_with(&scope, &shifts, cover).unwrap();
            }
            model.add(csp::Condition::not_in_set(vars[0], vec![bases[0] + step])).unwrap();
            learnt += assert_learning_counts(&model, 1 << 16, &format!("permutation {case}, target {target}"));
        }
    }
    assert!(learnt > 20, "the searches learnt little: {learnt}");
}

/// Partial 9x9 sudokus (some cells given, some values forbidden by unary
/// constraints, so that every domain stays a range and the all-differents
/// are one system) under learning with restarts and intersections count as
/// many solutions as plain MAC. Too large for the brute-force check, they
/// exercise backjumps, restarts and nogood propagation through the system
/// (whose tier 3 asserts, in debug builds, that tier 1 left no fixed
/// variable's value in a peer's domain).
#[test]
fn learning_on_partial_sudokus_counts_every_solution() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let (mut learnt, mut compared) = (0, 0);
    for case in 0..120 {
        // A solved grid with its digits permuted.
        let mut digits: Vec<i64> = (1..=9).collect();
        for i in (1..9).rev() {
            digits.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let solved = |cell: usize| digits[(cell / 9 * 3 + cell / 27 + cell % 9) % 9];
        let givens = 17 + case % 12;
        let mut forbidden = Vec::new();
        let mut model = grid(9, 3, |cell| {
            if next() % 81 < givens {
                return solved(cell)..=solved(cell);
            }
            if next() % 4 == 0 {
                forbidden.extend((1..=9).filter(|&v| v != solved(cell) && next() % 3 == 0).map(|v| (cell, v)));
            }
            1..=9
        });
        let cells: Vec<VarId> = model.vars().collect();
        for (cell, value) in forbidden {
            model.add(csp::Condition::not_in_set(cells[cell], vec![value])).unwrap();
        }
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(Some(500)).solutions;
        if expected >= 500 {
            continue;
        }
        compared += 1;
        let spellings = [
            "mac+learn",
            "mac+learn+domwdeg+intersect",
            "mac+learn+vsids+phase+luby=1",
            "mac+learn+vsids+phase+luby=2+intersect",
            "mac+learn+domwdeg+random+luby=3",
            "mac+learn+domwdeg+phase+glucose=3+intersect",
        ];
        for spelling in spellings {
            let config = spelling.parse::<SolveConfig>().unwrap().with_seed(case);
            let mut solver = Solver::new(&model, config).unwrap();
            assert_eq!(solver.count(None).solutions, expected, "{spelling} on sudoku {case}");
            learnt += solver.stats().learnt;
        }
    }
    assert!(compared > 40 && learnt > 1000, "the searches learnt little: {compared} grids, {learnt} nogoods");
}

/// A 6x6 puzzle with 8,064 solutions: counting with learning excludes each
/// solution found by a permanent nogood of its decisions, thousands of them
/// over the same 36 variables, watched through the store's blockers and
/// its lists of one-value literals (`BENCHMARKS.md`, "Counting with
/// learning"). Each solution is still counted once, with and without
/// restarts.
#[test]
fn learning_counts_thousands_of_solutions_once_each() {
    let puzzle = b"........................3..62.2..5.3";
    let model = grid(6, 2, |cell| match puzzle[cell] {
        b'.' => 1..=6,
        digit => {
            let value = i64::from(digit - b'0');
            value..=value
        }
    });
    let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
    assert_eq!(expected, 8064);
    for spelling in ["mac+learn", "mac+learn+domwdeg+intersect", "mac+learn+vsids+phase+luby=1"] {
        let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
        let counted = solver.count(None);
        assert!(counted.is_complete(), "{spelling}");
        assert_eq!(counted.solutions, expected, "{spelling}");
    }
}

/// Linear sums explain their bounds reasoning by the other terms' bounds
/// (and `≠` by the fixed terms); each explanation is checked against every
/// solution, on small domains and near ±2^62, both value orders, as
/// bitsets and as intervals.
#[test]
fn linear_explanations_imply_what_they_explain() {
    use csp::Relation;
    let big = 1i64 << 62;
    for (lo, hi) in [(0, 4), (big - 4, big), (-big, -big + 4)] {
        let mut model = Model::new();
        let x: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
        // y = x shifted to 0..=4 (few enough assignments for the check).
        let y: Vec<VarId> = model.new_vars(4, 0..=4).unwrap();
        for i in 0..4 {
            model.linear(&[(1, x[i]), (-1, y[i])], Relation::Eq, lo).unwrap();
        }
        model.linear(&[(2, y[0]), (3, y[1]), (-1, y[2]), (1, y[3])], Relation::Le, 7).unwrap();
        model.linear(&[(1, y[0]), (1, y[1]), (1, y[2]), (1, y[3])], Relation::Eq, 7).unwrap();
        model.linear(&[(1, y[2]), (-2, y[3])], Relation::Ge, -3).unwrap();
        model.linear(&[(1, y[1]), (1, y[3])], Relation::Ne, 5).unwrap();
        model.all_different(&y).unwrap();
        let expected = Solver::new(&model, "mac+mrv".parse().unwrap()).unwrap().count(None).solutions;
        assert!(expected > 0);
        assert_learning_counts_both_ways(&model, &format!("the sums over {lo}..={hi}"));
    }
}

/// The solvers that learn, each with its explanations checked against every
/// solution by `check_nogoods`, count as many solutions as plain MAC.
/// Returns how many nogoods they learnt. The check knows only the solutions
/// a run has not found yet, so the runs go through the values both ways
/// (`+desc`): an explanation given late in one order is early in the other.
fn assert_learning_counts(model: &Model, bitset_limit: u64, what: &str) -> u64 {
    let config = |spelling: &str| spelling.parse::<csp::SolveConfig>().unwrap().with_bitset_limit(bitset_limit);
    let expected = Solver::new(model, config("mac+mrv")).unwrap().count(None).solutions;
    let mut learnt = 0;
    for spelling in ["mac+learn", "mac+learn+desc", "mac+learn+vsids+phase+luby=1", "mac+learn+lex"] {
        let mut solver = Solver::new(model, config(spelling)).unwrap();
        solver.check_nogoods(true);
        assert_eq!(solver.count(None).solutions, expected, "{spelling} on {what}");
        learnt += solver.stats().learnt;
    }
    learnt
}

/// [`assert_learning_counts`] with the domains as bitsets and as intervals
/// (bitset limits 2^16 and 1), a failure named by `what` and the limit.
/// Returns how many nogoods the searches learnt in all.
fn assert_learning_counts_both_ways(model: &Model, what: &str) -> u64 {
    [1 << 16, 1].into_iter().map(|limit| assert_learning_counts(model, limit, &format!("{what}, limit {limit}"))).sum()
}

/// Random models, each with what a failure names it by.
type Models = Vec<(Model, String)>;

/// How many tests share each long family of random models (its models
/// function, `NAME_models`, builds the same models from the same seeds as
/// when the family was one test): the harness runs them on every core.
const SHARDS: usize = 4;

/// The positions of shard `shard` among `len` models: every `SHARDS`-th, so
/// that each shard has some of every value range and every case's variant.
fn shard_of(len: usize, shard: usize) -> impl Iterator<Item = usize> {
    (shard..len).step_by(SHARDS)
}

/// [`assert_learning_counts_both_ways`] on the models of shard `shard`
/// ([`shard_of`]). The family's searches learnt more than `least` nogoods in
/// all when it was one test; each shard asserts more than its share,
/// `least / SHARDS`, which implies it.
fn assert_learning_counts_on_shard(models: &[(Model, String)], shard: usize, least: u64) {
    let learnt: u64 =
        shard_of(models.len(), shard).map(|i| assert_learning_counts_both_ways(&models[i].0, &models[i].1)).sum();
    assert!(learnt > least / SHARDS as u64, "the searches of shard {shard} learnt little: {learnt}");
}

/// A module `NAME` of one test per shard of a family of models,
/// `NAME::shard_0` to `NAME::shard_3` ([`assert_learning_counts_on_shard`];
/// [`SHARDS`] of them, which [`the_shards_cover_every_model_once`] checks).
macro_rules! shards {
    ($name:ident: $models:ident, the searches learning more than $least:literal in all $(,)?) => {
        mod $name {
            use super::*;

            #[test]
            fn shard_0() {
                assert_learning_counts_on_shard(&$models(), 0, $least);
            }

            #[test]
            fn shard_1() {
                assert_learning_counts_on_shard(&$models(), 1, $least);
            }

            #[test]
            fn shard_2() {
                assert_learning_counts_on_shard(&$models(), 2, $least);
            }

            #[test]
            fn shard_3() {
                assert_learning_counts_on_shard(&$models(), 3, $least);
            }
        }
    };
}

/// The shards of every family cover each of its models once, and the
/// families have as many models as their loops make.
#[test]
fn the_shards_cover_every_model_once() {
    let families: [(fn() -> Models, usize); 5] = [
        (count_and_among_models, 3 * 20),
        (times_models, 3 * 20),
        (div_mod_pow_models, 10 * 8),
        (element_over_variables_models, 3 * 20),
        (subcircuit_components_models, 4 * 40),
    ];
    assert_eq!(SHARDS, 4, "shards! writes four tests a family");
    for (models, len) in families {
        let models = models();
        assert_eq!(models.len(), len, "{}", models[0].1);
        let mut positions: Vec<usize> = (0..SHARDS).flat_map(|shard| shard_of(len, shard)).collect();
        positions.sort_unstable();
        assert_eq!(positions, (0..len).collect::<Vec<_>>(), "{}", models[0].1);
    }
}

/// One of the `xs`, picked by the next number of `next`.
fn one_of(xs: &[VarId], next: &mut impl FnMut() -> u64) -> VarId {
    rotation(xs, next(), 1)[0]
}

/// `p != q` for two of the `xs` picked in turn ([`one_of`]); none when the
/// same one is picked twice.
fn not_equal_at_random(model: &mut Model, xs: &[VarId], next: &mut impl FnMut() -> u64) {
    let (p, q) = (one_of(xs, next), one_of(xs, next));
    if p != q {
        model.not_equal(p, q).unwrap();
    }
}

/// `p <= q + offset` for two of the `xs` picked in turn ([`one_of`]); none
/// when the same one is picked twice.
fn le_at_random(model: &mut Model, xs: &[VarId], next: &mut impl FnMut() -> u64, offset: i64) {
    let (p, q) = (one_of(xs, next), one_of(xs, next));
    if p != q {
        model.add(p.le(q + offset)).unwrap();
    }
}

/// Clauses and parities explain a literal they fix by the other literals'
/// values, and reified conjunctions, disjunctions and parities explain
/// through their relation; each explanation is checked against every
/// solution, over bitset booleans and interval ones.
#[test]
fn logic_explanations_imply_what_they_explain() {
    use csp::Condition;
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    for case in 0..80 {
        let mut model = Model::new();
        let b = model.new_bools(8);
        // Three literals of consecutive variables (distinct), with random signs.
        let mut lits = |n: usize| -> Vec<Lit> {
            let start = next() as usize % 8;
            (0..n).map(|k| if next() % 2 == 0 { b[(start + k) % 8] } else { !b[(start + k) % 8] }).collect()
        };
        for _ in 0..5 {
            model.or(&lits(3)).unwrap();
        }
        model.xor(&lits(3)).unwrap();
        let [l, m] = [lits(1)[0], lits(1)[0]];
        model.reify(l, Condition::and(&lits(2))).unwrap();
        model.reify(m, Condition::or(&lits(3))).unwrap();
        model.implies(lits(1)[0], Condition::xor(&lits(2))).unwrap();
        model.reify(lits(1)[0], Condition::xor(&lits(3))).unwrap();
        assert_learning_counts_both_ways(&model, &format!("logic model {case}"));
    }
}

/// Binary comparisons (`x < y + c`, `x = y + c`, `x ≠ y + c`) explain
/// by the bound or the values they used, and reified ones through their
/// relation (a literal fixed because the relation, or its negation, could
/// not hold); checked against every solution on small domains and near ±2^62,
/// as bitsets and as intervals.
#[test]
fn binary_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    for (lo, hi) in [(0, 5), (big - 5, big), (-big, -big + 5)] {
        for case in 0..12 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
            let b = model.new_bools(4);
            let mut r = |n: u64| next() % n;
            let mut pair = || (x[r(4) as usize], x[r(4) as usize], r(5) as i64 - 2);
            let (p, q, c) = pair();
            if p != q {
                model.add(p.le(q + c)).unwrap();
            }
            let (p, q, c) = pair();
            if p != q {
                model.not_equal_offset(p, q, c).unwrap();
            }
            let (p, q, c) = pair();
            model.reify(b[0], p.lt(q + c)).unwrap();
            let (p, q, c) = pair();
            model.reify(b[1], p.eq(q + c)).unwrap();
            let (p, q, c) = pair();
            model.reify(b[2], p.ne(q + c)).unwrap();
            let (p, q, c) = pair();
            model.implies(b[3], p.ge(q + c)).unwrap();
            model.add(b[0].eq(b[3])).unwrap();
            model.add(b[1].ne(b[2])).unwrap();
            model.or(&[b[0], !b[1], b[2]]).unwrap();
            assert_learning_counts_both_ways(&model, &format!("binary model {case} over {lo}..={hi}"));
        }
    }
}

/// Element over a constant array explains a removed index by its entry's
/// absence from the value, and a removed value by the absence of every index
/// whose entry it is; checked against every solution on small domains and
/// near ±2^62, as bitsets and as intervals (at most 6^4 * 5^4 assignments:
/// few enough for the check).
#[test]
fn element_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x0123_4567_89ab_cdef);
    for (lo, hi) in [(0, 4), (big - 4, big), (-big, -big + 4)] {
        for case in 0..40 {
            let mut model = Model::new();
            let index: Vec<VarId> = model.new_vars(4, 0..=5).unwrap();
            let value: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
            for k in 0..4 {
                // Entries of the value's range and a little beyond it (within ±2^62).
                let array: Vec<i64> = (0..6).map(|_| (lo - 1 + (next() % 7) as i64).clamp(-big, big)).collect();
                model.element(index[k], &array, value[k], (next() % 2) as i64).unwrap();
            }
            model.less_than(value[0], value[1]).unwrap();
            model.add(value[2].le(value[1] + 1)).unwrap();
            model.not_equal(value[2], value[3]).unwrap();
            model.all_different(&index).unwrap();
            assert_learning_counts_both_ways(&model, &format!("element model {case} over {lo}..={hi}"));
        }
    }
}

/// Element over an array longer than a dozen entries per index left: its
/// propagator lists the entries left by reading them in order of value
/// while many indices are left and by sorting them once few are (a fixed
/// index), and its explanations find the indices of an entry by value.
/// Counted against every assignment, and with learning both ways, on small
/// domains and near ±2^62.
#[test]
fn element_over_long_arrays_counts_and_explains() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    for (lo, hi) in [(0, 4), (big - 4, big), (-big, -big + 4)] {
        for case in 0..6 {
            let mut model = Model::new();
            let first = (next() % 2) as i64;
            let index: Vec<VarId> = model.new_vars(2, first..=first + 39).unwrap();
            let value: Vec<VarId> = model.new_vars(2, lo..=hi).unwrap();
            for k in 0..2 {
                // Entries of the value's range and a little beyond it (within ±2^62).
                let array: Vec<i64> = (0..40).map(|_| (lo - 1 + (next() % 7) as i64).clamp(-big, big)).collect();
                model.element(index[k], &array, value[k], first).unwrap();
            }
            model.less_than(value[0], value[1]).unwrap();
            model.not_equal(index[0], index[1]).unwrap();
            let domains: Vec<Vec<i64>> =
                model.vars().map(|x| model.domain(x).expect("a variable").iter().collect()).collect();
            let mut expected = 0;
            csp::testing::for_each_assignment(&domains, |values| expected += u64::from(model.is_solution(values)));
            let what = format!("long element model {case} over {lo}..={hi}");
            let plain = Solver::new(&model, "mac+mrv".parse::<SolveConfig>().unwrap()).unwrap().count(None).solutions;
            assert_eq!(plain, expected, "{what}");
            assert_learning_counts_both_ways(&model, &what);
        }
    }
}

/// Tables explain a removed value, or a bound moved, by a value lost from
/// each row that had it (shared between rows where one does), and a failure
/// by a value lost from each row; checked against every solution on small
/// domains and near ±2^62, as bitsets and as intervals.
#[test]
fn table_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x5851_f42d_4c95_7f2d);
    let mut learnt = 0;
    for (lo, hi) in [(0, 4), (big - 4, big), (-big, -big + 4)] {
        for case in 0..30 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(6, lo..=hi).unwrap();
            for _ in 0..5 {
                let arity = 2 + (next() % 2) as usize;
                let start = (next() % 6) as usize;
                let scope: Vec<VarId> = (0..arity).map(|k| x[(start + k) % 6]).collect();
                // Values of the domain and one beyond each end (within ±2^62).
                let rows: Vec<Vec<i64>> = (0..12 + next() % 12)
                    .map(|_| (0..arity).map(|_| (lo - 1 + (next() % 7) as i64).clamp(-big, big)).collect())
                    .collect();
                model.table(&scope, &rows).unwrap();
            }
            model.all_different(&x[..4]).unwrap();
            model.add(x[4].le(x[5] + 1)).unwrap();
            learnt += assert_learning_counts_both_ways(&model, &format!("table model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 100, "the searches learnt little: {learnt}");
}

/// Tables and element over variables whose domains span several words
/// (192 values, three words as bitsets): the tables' rows and the element's
/// asked values fall in every word, near ±2^62 too, so that their
/// explanations' reading of the domains as they were (the table's copy of
/// each column, element's absence of a range of values) is checked beyond
/// word 0. Counted with learning against plain search, as bitsets and as
/// intervals, each nogood checked.
#[test]
fn tables_and_element_over_several_words_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut learnt = 0;
    for lo in [0, big - 191, -big] {
        for case in 0..12 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(6, lo..=lo + 191).unwrap();
            // Seven values spread over the three words, and one beyond the
            // domain (a row that can never be used).
            let spread: Vec<i64> = (0..7).map(|k| lo + (k * 29 + (next() % 3) as i64) % 192).collect();
            let pick = |r: u64| if r == 7 { (lo - 1).max(-big) } else { spread[r as usize] };
            for t in 0..4 {
                let scope: Vec<VarId> = (0..3).map(|k| x[(t + k) % 6]).collect();
                let rows: Vec<Vec<i64>> =
                    (0..10 + next() % 10).map(|_| (0..3).map(|_| pick(next() % 8)).collect()).collect();
                model.table(&scope, &rows).unwrap();
            }
            let index = model.new_var(0..=3).unwrap();
            model.element_var(index, &x[..4], x[4], 0).unwrap();
            model.not_equal(x[0], x[1]).unwrap();
            model.less_than(x[2], x[5]).unwrap();
            learnt += assert_learning_counts_both_ways(&model, &format!("wide table model {case} from {lo}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// Element over an array of variables explains a removed index by its
/// variable's disjointness from the value, a value (or bound) of the value
/// by each index gone or its variable without it, the indexed variable's
/// values by the fixed index and the value's absences, and a failure by
/// each index gone or disjoint; checked against every solution on small
/// domains and near ±2^62, as bitsets and as intervals.
fn element_over_variables_models() -> Models {
    let big = 1i64 << 62;
    let mut next = xorshift(0x2545_f491_4f6c_dd1d ^ 0xff);
    let mut models = Vec::new();
    for (lo, hi) in [(0, 3), (big - 3, big), (-big, -big + 3)] {
        for case in 0..20 {
            let mut model = Model::new();
            let xs: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
            let index: Vec<VarId> = model.new_vars(2, 0..=4).unwrap();
            let value: Vec<VarId> = model.new_vars(2, lo..=hi).unwrap();
            for k in 0..2 {
                // The four variables rotated (the second reversed), or,
                // for one case in four, one of them twice.
                let start = (next() % 4) as usize;
                let mut array: Vec<VarId> =
                    (0..4).map(|j| xs[if k == 1 { start + 4 - j } else { start + j } % 4]).collect();
                if case % 4 == 0 {
                    array[3] = array[0];
                }
                model.element_var(index[k], &array, value[k], (next() % 2) as i64).unwrap();
            }
            model.not_equal(value[0], value[1]).unwrap();
            model.not_equal(index[0], index[1]).unwrap();
            model.add(xs[(next() % 4) as usize].le(xs[(next() % 4) as usize] + 1)).unwrap();
            model.add(value[0].le(xs[(next() % 4) as usize])).unwrap();
            model.not_equal(xs[(next() % 4) as usize], value[1]).unwrap();
            models.push((model, format!("element model {case} over {lo}..={hi}")));
        }
    }
    models
}

shards! {
    element_over_variables_explanations_imply_what_they_explain: element_over_variables_models,
    the searches learning more than 100 in all
}

/// `x ∈ S` and `x ∉ S` explain a bound by the bound it moved from, and,
/// reified, a literal fixed because the relation could not hold by the
/// absence of the values that would have satisfied it (an interval by its
/// bounds); checked against every solution on small domains and near ±2^62,
/// as bitsets and as intervals.
#[test]
fn in_set_explanations_imply_what_they_explain() {
    use csp::Condition;
    let big = 1i64 << 62;
    let mut next = xorshift(0x1234_5678_9abc_def1);
    let mut learnt = 0;
    for (lo, hi) in [(0, 5), (big - 5, big), (-big, -big + 5)] {
        for case in 0..25 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
            let b = model.new_bools(4);
            let mut set =
                || -> Vec<i64> { (lo - 1..=hi + 1).filter(|_| next() % 2 == 0).map(|v| v.clamp(-big, big)).collect() };
            model.reify(b[0], Condition::in_set(x[0], set())).unwrap();
            model.reify(b[1], Condition::not_in_set(x[1], set())).unwrap();
            model.implies(b[2], Condition::in_set(x[2], set())).unwrap();
            model.reify(b[3], Condition::in_set(x[3], (lo + 1)..=(hi - 2))).unwrap();
            model.add(Condition::not_in_set(x[(case % 4) as usize], set())).unwrap();
            model.or(&[b[0], b[1], !b[2]]).unwrap();
            model.or(&[!b[0], b[3]]).unwrap();
            model.xor(&[b[1], b[2], b[3]]).unwrap();
            model.all_different(&x).unwrap();
            learnt += assert_learning_counts_both_ways(&model, &format!("in_set model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `m = min(xs)` and `m = max(xs)` explain by the bounds and the absences
/// they used (see `constraints/extremum.rs`); checked against every solution
/// on small domains and near ±2^62, as bitsets and as intervals.
#[test]
fn extremum_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x3c6e_f372_fe94_f82b);
    let mut learnt = 0;
    for (lo, hi) in [(0, 4), (big - 4, big), (-big, -big + 4)] {
        for case in 0..25 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(6, lo..=hi).unwrap();
            let mut pick = |n: usize| -> Vec<VarId> {
                let start = (next() % 6) as usize;
                (0..n).map(|k| x[(start + k) % 6]).collect()
            };
            let a = pick(4);
            model.minimum(a[0], &a[1..]).unwrap();
            let b = pick(3);
            model.maximum(b[0], &b[1..]).unwrap();
            let c = pick(2);
            model.not_equal(c[0], c[1]).unwrap();
            let d = pick(2);
            if case % 2 == 0 {
                model.add(d[0].le(d[1] + 1)).unwrap();
            } else {
                model.all_different(&x[..4]).unwrap();
            }
            learnt += assert_learning_counts_both_ways(&model, &format!("extremum model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `z = |x|` explains a value of `z` by the absence of both its roots from
/// `x` (a bound by `x`'s bounds), and a value of `x` by the absence of its
/// magnitude from `z`; checked against every solution on small domains and
/// near ±2^62, as bitsets and as intervals.
#[test]
fn abs_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x6a09_e667_f3bc_c908);
    let mut learnt = 0;
    for ((xlo, xhi), (zlo, zhi)) in
        [((-3, 3), (0, 4)), ((big - 4, big), (big - 4, big)), ((-big, -big + 4), (big - 5, big))]
    {
        for case in 0..25 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(4, xlo..=xhi).unwrap();
            let z: Vec<VarId> = model.new_vars(2, zlo..=zhi).unwrap();
            model.abs(one_of(&x, &mut next), z[0]).unwrap();
            model.abs(one_of(&x, &mut next), z[1]).unwrap();
            not_equal_at_random(&mut model, &x, &mut next);
            model.not_equal(z[0], z[1]).unwrap();
            le_at_random(&mut model, &x, &mut next, (case % 3) as i64 - 1);
            // (Unlike `le_at_random`, also when it picks one variable twice.)
            model.add(one_of(&z, &mut next).le(one_of(&z, &mut next) + 1)).unwrap();
            learnt += assert_learning_counts_both_ways(&model, &format!("abs model {case} over {xlo}..={xhi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `increasing` (strict or not) explains a value by the bound of the
/// neighbour it passed; checked against every solution on small domains and
/// near ±2^62, as bitsets and as intervals.
#[test]
fn increasing_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0xbb67_ae85_84ca_a73b);
    let mut learnt = 0;
    for (lo, hi) in [(0, 4), (big - 4, big), (-big, -big + 4)] {
        for case in 0..25 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(6, lo..=hi).unwrap();
            let start = (next() % 6) as usize;
            let chain: Vec<VarId> = (0..4).map(|k| x[(start + k) % 6]).collect();
            if case % 2 == 0 {
                model.strictly_increasing(&chain).unwrap();
            } else {
                model.increasing(&chain).unwrap();
            }
            not_equal_at_random(&mut model, &x, &mut next);
            model.all_different(&x[..3]).unwrap();
            learnt += assert_learning_counts_both_ways(&model, &format!("increasing model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 20, "the searches learnt little: {learnt}");
}

/// `count` (a variable value), `among` (a count variable or constant
/// bounds) explain by the musts and cannots the count needed and the
/// tally's bound or holes (see `constraints/counting/explain.rs`); checked
/// against every solution on small domains and near ±2^62, as bitsets and
/// as intervals (where `y`, wider than the `xs`, is not walked).
fn count_and_among_models() -> Models {
    let big = 1i64 << 62;
    let mut next = xorshift(0x510e_527f_ade6_82d1);
    let mut models = Vec::new();
    for (lo, hi) in [(0, 3), (big - 3, big), (-big, -big + 3)] {
        for case in 0..20 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(5, lo..=hi).unwrap();
            let y = model.new_var((lo - 1).max(-big)..=(hi + 1).min(big)).unwrap();
            let c: Vec<VarId> = model.new_vars(2, 0..=3).unwrap();
            let (a, b, d) = (rotation(&x, next(), 4), rotation(&x, next(), 4), rotation(&x, next(), 3));
            model.count(&a, y, c[0]).unwrap();
            // Two values, one of them possibly beyond the domain.
            let values: Vec<i64> = (0..2).map(|_| (lo - 1 + (next() % 6) as i64).clamp(-big, big)).collect();
            model.among(c[1], &b, &values).unwrap();
            let value = lo + (next() % 4) as i64;
            match case % 3 {
                0 => model.at_least(2, &d, value).unwrap(),
                1 => model.at_most(1, &d, value).unwrap(),
                _ => model.exactly(1, &d, value).unwrap(),
            };
            model.all_different(&rotation(&x, next(), 3)).unwrap();
            model.add(c[0].le(c[1] + 1)).unwrap();
            not_equal_at_random(&mut model, &x, &mut next);
            models.push((model, format!("count model {case} over {lo}..={hi}")));
        }
    }
    models
}

shards! {
    count_and_among_explanations_imply_what_they_explain: count_and_among_models,
    the searches learning more than 50 in all
}

/// `global_cardinality` (count variables or constant bounds, closed or not)
/// explains by one cover value's among, or by the sum of the counts;
/// checked against every solution on small domains and near ±2^62, as
/// bitsets and as intervals.
#[test]
fn global_cardinality_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x9b05_688c_2b3e_6c1f);
    let mut learnt = 0;
    for (lo, hi) in [(0, 3), (big - 3, big), (-big, -big + 3)] {
        for case in 0..20 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(5, lo..=hi).unwrap();
            let counts: Vec<VarId> = model.new_vars(2, 0..=3).unwrap();
            let (a, b) = (rotation(&x, next(), 4), rotation(&x, next(), 4));
            let first = lo + (next() % 3) as i64;
            let cover = [first, first + 1];
            if case % 2 == 0 {
                model.global_cardinality(&a, &cover, &counts).unwrap();
            } else {
                model.global_cardinality_closed(&a, &cover, &counts).unwrap();
            }
            let cover = [lo + (next() % 2) as i64, hi - (next() % 2) as i64];
            let (low, up) = ([1, 0], [2, 1 + (case % 2) as i64]);
            if cover[0] != cover[1] {
                if case % 3 == 0 {
                    model.global_cardinality_low_up_closed(&b, &cover, &low, &up).unwrap();
                } else {
                    model.global_cardinality_low_up(&b, &cover, &low, &up).unwrap();
                }
            }
            model.all_different(&rotation(&x, next(), 3)).unwrap();
            not_equal_at_random(&mut model, &x, &mut next);
            model.not_equal(counts[0], counts[1]).unwrap();
            learnt +=
                assert_learning_counts_both_ways(&model, &format!("global_cardinality model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `n` of the `xs` from `start` on (modulo their number), cyclically.
fn rotation(xs: &[VarId], start: u64, n: usize) -> Vec<VarId> {
    let start = (start % xs.len() as u64) as usize;
    (0..n).map(|k| xs[(start + k) % xs.len()]).collect()
}

/// `z = x * y` explains by the fewest operand and result bounds under which
/// no product of the values left out is possible (the bounds reasoning's
/// answer; a hole only the support enumeration saw keeps the generic one);
/// checked against every solution on small domains and near ±2^62, as
/// bitsets and as intervals, under both strengths.
fn times_models() -> Models {
    use csp::ArithmeticStrength;
    use csp::constraints::Arithmetic;
    let big = 1i64 << 62;
    let mut next = xorshift(0x3c6e_f372_a54f_f53a);
    let mut models = Vec::new();
    let ranges = [
        ((-3, 3), (-3, 3), (-6, 6)),
        ((big - 4, big), (-1, 1), (big - 4, big)),
        ((-big, -big + 4), (-1, 1), (big - 4, big)),
    ];
    for ((xlo, xhi), (ylo, yhi), (zlo, zhi)) in ranges {
        for case in 0..20 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(3, xlo..=xhi).unwrap();
            let y: Vec<VarId> = model.new_vars(2, ylo..=yhi).unwrap();
            let z: Vec<VarId> = model.new_vars(2, zlo..=zhi).unwrap();
            let strength = if case % 2 == 0 { ArithmeticStrength::Domain } else { ArithmeticStrength::Bounds };
            for &product in &z {
                let (a, b) = (x[(next() % 3) as usize], y[(next() % 2) as usize]);
                model.post(Arithmetic::times(a, b, product).with_strength(strength)).unwrap();
            }
            model.not_equal(z[0], z[1]).unwrap();
            le_at_random(&mut model, &x, &mut next, (case % 3) as i64 - 1);
            model.not_equal(y[0], y[1]).unwrap();
            models.push((model, format!("times model {case} over {xlo}..={xhi}")));
        }
    }
    models
}

shards! {
    times_explanations_imply_what_they_explain: times_models,
    the searches learning more than 20 in all
}

/// `z = x div y`, `z = x mod y` and `z = x ^ y` (a variable exponent or a
/// constant one) explain by the fewest operand and result bounds under which
/// no tuple of the values left out is possible (truncating division, `mod`
/// with `x`'s sign, `y != 0`, negative bases and exponents; a hole only the
/// support enumeration saw keeps the generic answer); checked against every
/// solution on small domains and near ±2^62, as bitsets and as intervals,
/// under both strengths.
fn div_mod_pow_models() -> Models {
    use csp::ArithmeticStrength;
    use csp::constraints::Arithmetic;
    let big = 1i64 << 62;
    let root = 1i64 << 31;
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut models = Vec::new();
    // (operation, x, y, z): at most 7^3 * 5^2 * 11^2 assignments.
    let ranges = [
        ("div", (-3, 3), (-2, 2), (-5, 5)),
        ("div", (big - 4, big), (-1, 1), (big - 4, big)),
        ("div", (-big, -big + 4), (-2, 2), (big / 2 - 2, big / 2 + 2)),
        ("mod", (-3, 3), (-2, 2), (-5, 5)),
        ("mod", (big - 6, big), (big - 4, big), (0, 4)),
        ("mod", (-big, -big + 6), (-big, -big + 4), (-4, 0)),
        ("pow", (-2, 2), (-1, 3), (-5, 5)),
        ("pow", (-root - 2, -root + 2), (1, 3), (big - 4, big)),
        ("pow constant", (-3, 3), (-2, 2), (-5, 5)),
        ("pow constant", (root - 2, root + 2), (2, 2), (big - 4, big)),
    ];
    for (operation, (xlo, xhi), (ylo, yhi), (zlo, zhi)) in ranges {
        for case in 0..8 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(3, xlo..=xhi).unwrap();
            let y: Vec<VarId> = model.new_vars(2, ylo..=yhi).unwrap();
            let z: Vec<VarId> = model.new_vars(2, zlo..=zhi).unwrap();
            let strength = if case % 2 == 0 { ArithmeticStrength::Domain } else { ArithmeticStrength::Bounds };
            for &result in &z {
                let (a, b) = (x[(next() % 3) as usize], y[(next() % 2) as usize]);
                let constraint = match operation {
                    "div" => Arithmetic::div(a, b, result),
                    "mod" => Arithmetic::modulo(a, b, result),
                    "pow" => Arithmetic::pow(a, b, result),
                    _ => Arithmetic::pow_constant(a, ylo + (next() % (yhi - ylo + 1) as u64) as i64, result),
                };
                model.post(constraint.with_strength(strength)).unwrap();
            }
            model.not_equal(z[0], z[1]).unwrap();
            let (a, b) = (x[(next() % 3) as usize], x[(next() % 3) as usize]);
            if a != b {
                model.add(a.le(b + (case % 3) as i64 - 1)).unwrap();
            }
            model.not_equal(y[0], y[1]).unwrap();
            models.push((model, format!("{operation} model {case} over {xlo}..={xhi}")));
        }
    }
    models
}

shards! {
    div_mod_pow_explanations_imply_what_they_explain: div_mod_pow_models,
    the searches learning more than 20 in all
}

/// `pow_constant` whose base is a wide variable tied to a small one: the
/// support enumeration names values of the variables only, never of the
/// constant exponent (it panicked there; found by the property tests at
/// `CSP_TEST_SCALE=10`, shrunk to this model).
#[test]
fn pow_constant_explains_around_its_constant_exponent() {
    let mut model = Model::new();
    let x = model.new_var(csp::Domain::values([-2, 2])).unwrap();
    let y = model.new_var(csp::Domain::values([-3, 0, 1])).unwrap();
    let wide = |model: &mut Model, of: VarId, offset: i64| {
        let var = model.new_var(-csp::MAX_VALUE..=csp::MAX_VALUE).unwrap();
        model.linear(&[(1, var), (-1, of)], csp::Relation::Eq, offset).unwrap();
        var
    };
    let base = wide(&mut model, y, 1);
    wide(&mut model, x, 0);
    model.pow_constant(base, 1, x).unwrap();
    for spelling in ["mac+learn+smallest+median", "mac+learn"] {
        let mut solver = Solver::new(&model, spelling.parse().unwrap()).unwrap();
        solver.check_nogoods(true);
        assert_eq!(solver.count(None).solutions, 2, "{spelling}");
    }
}

/// `inverse` explains a value `j` of `f[i]` by `invf[j] != i` alone (and
/// the other way round), a bound by those of the values it passed; posted
/// alone (channeling only) and through `Model::inverse` (with its
/// all-different); checked against every solution on small domains and
/// near ±2^62, as bitsets and as intervals.
#[test]
fn inverse_explanations_imply_what_they_explain() {
    use csp::constraints::Inverse;
    let big = 1i64 << 62;
    let mut next = xorshift(0x1f83_d9ab_fb41_bd6b);
    let mut learnt = 0;
    for (lo, hi, base) in [(0, 4, 1), (big - 4, big, big - 3), (-big, -big + 4, -big)] {
        for case in 0..25 {
            let mut model = Model::new();
            let f: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
            let g: Vec<VarId> = model.new_vars(4, lo..=hi).unwrap();
            if case % 2 == 0 {
                model.post(Inverse::new(&f, base, &g, base)).unwrap();
            } else {
                model.inverse(&f, base, &g, base).unwrap();
            }
            let all = [&f[..], &g[..]].concat();
            for _ in 0..3 {
                le_at_random(&mut model, &all, &mut next, (case % 3) as i64 - 1);
            }
            let (p, q) = (one_of(&f, &mut next), one_of(&g, &mut next));
            model.not_equal(p, q).unwrap();
            learnt += assert_learning_counts_both_ways(&model, &format!("inverse model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `lex_less` and `lex_lesseq` (vectors of equal or different lengths)
/// explain a bound by the prefix's ties, the other variable's bound and,
/// for a strict step, the rest that was not below; checked against every
/// solution on small domains and near ±2^62, as bitsets and as intervals.
#[test]
fn lex_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let mut learnt = 0;
    for (lo, hi) in [(0, 2), (big - 2, big), (-big, -big + 2)] {
        for case in 0..25 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(8, lo..=hi).unwrap();
            let (a, b, c) = (rotation(&x, next(), 3), rotation(&x, next(), 3), rotation(&x, next(), 2 + case % 2));
            let distinct = |u: &[VarId], v: &[VarId]| u.iter().all(|p| !v.contains(p));
            if distinct(&a, &b) {
                model.lex_less(&a, &b).unwrap();
            }
            if distinct(&b, &c) {
                model.lex_lesseq(&c, &b).unwrap();
            }
            if distinct(&a, &c) {
                if case % 3 == 0 { model.lex_less(&c, &a) } else { model.lex_lesseq(&a, &c) }.unwrap();
            }
            not_equal_at_random(&mut model, &x, &mut next);
            le_at_random(&mut model, &x, &mut next, (case % 3) as i64 - 1);
            learnt += assert_learning_counts_both_ways(&model, &format!("lex model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `regular` explains a symbol that left a variable by the absent values
/// that cut every path through it (and a failure by those that cut
/// acceptance off); random automata over symbols on small domains and near
/// ±2^62, checked against every solution, as bitsets and as intervals.
#[test]
fn regular_explanations_imply_what_they_explain() {
    use csp::Dfa;
    let big = 1i64 << 62;
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut learnt = 0;
    for (lo, hi) in [(0, 2), (big - 2, big), (-big, -big + 2)] {
        for case in 0..25 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(8, lo..=hi).unwrap();
            for k in 0..2 {
                let states = 3 + (next() % 3) as usize;
                let mut transitions = Vec::new();
                for q in 0..states {
                    // Symbols from just below the domain to its top.
                    for symbol in (lo - 1).max(-big)..=hi {
                        if next() % 4 != 0 {
                            transitions.push((q, symbol, (next() % states as u64) as usize));
                        }
                    }
                }
                let accepting: Vec<usize> = (0..states).filter(|_| next() % 2 == 0).collect();
                let dfa = Dfa::new(states, 0, &accepting, &transitions).unwrap();
                model.regular(&rotation(&x, next(), 5 + k), &dfa).unwrap();
            }
            not_equal_at_random(&mut model, &x, &mut next);
            le_at_random(&mut model, &x, &mut next, (case % 3) as i64 - 1);
            learnt += assert_learning_counts_both_ways(&model, &format!("regular model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// `circuit` and `subcircuit` explain a chain's closing value by its links
/// (and a node that could not be out), a subcircuit's node sent out by the
/// closed cycle, and a failure by the links that clash; checked against
/// every solution, nodes numbered from small bases and near ±2^62, as
/// bitsets and as intervals.
#[test]
fn circuit_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0xa54f_f53a_5f1d_36f1);
    let mut learnt = 0;
    for base in [0, 1, big - 5, -big] {
        for case in 0..20 {
            let mut model = Model::new();
            let n = 5 + case % 2;
            let x: Vec<VarId> = model.new_vars(n, (base - 1).max(-big)..=base + n as i64 - 1).unwrap();
            if case % 3 == 0 {
                model.subcircuit(&x, base).unwrap();
            } else {
                model.circuit(&x, base).unwrap();
            }
            for _ in 0..2 {
                // The offset is drawn after the pair, and only for two variables.
                let (p, q) = (one_of(&x, &mut next), one_of(&x, &mut next));
                if p != q {
                    model.add(p.le(q + (next() % 3) as i64)).unwrap();
                }
            }
            let (p, q) = (one_of(&x, &mut next), one_of(&x, &mut next));
            if p != q {
                model.not_equal_offset(p, q, 1).unwrap();
            }
            learnt += assert_learning_counts_both_ways(&model, &format!("circuit model {case} from {base}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// A subcircuit's node that the components send out (no cycle with a node
/// that cannot be out) is explained by that node's `x[m] != m` and the
/// absent values that would lead out of the nodes it reaches (or into those
/// that reach it); a node forced in and random `≤` and `≠` that cut edges as
/// the search goes, checked against every solution, nodes numbered from small bases and near ±2^62,
/// as bitsets and as intervals.
fn subcircuit_components_models() -> Models {
    let big = 1i64 << 62;
    let mut next = xorshift(0x5be0_cd19_137e_2179);
    let mut models = Vec::new();
    for base in [0, 1, big - 5, -big] {
        for case in 0..40 {
            let mut model = Model::new();
            let n = 5 + case % 2;
            let x: Vec<VarId> = model.new_vars(n, base..=base + n as i64 - 1).unwrap();
            model.subcircuit(&x, base).unwrap();
            // A node in, and edges cut as the search goes.
            let m = (next() % n as u64) as usize;
            model.add(x[m].ne(base + m as i64)).unwrap();
            for k in 0..5 {
                let (p, q) = (rotation(&x, next(), 1)[0], rotation(&x, next(), 1)[0]);
                if p == q {
                    continue;
                }
                let c = (next() % 3) as i64 - 1;
                if k % 2 == 0 {
                    model.add(p.le(q + c)).unwrap();
                } else {
                    model.add(p.ne(q + c)).unwrap();
                }
            }
            models.push((model, format!("subcircuit model {case} from {base}")));
        }
    }
    models
}

shards! {
    subcircuit_components_explanations_imply_what_they_explain: subcircuit_components_models,
    the searches learning more than 20 in all
}

/// `nvalue` explains its count's lower bound by disjoint intervals, its
/// upper bound by the values outside the union, and a variable's value by
/// the count's bound and the fixed values; checked against every solution
/// on small domains and near ±2^62, as bitsets and as intervals.
#[test]
fn nvalue_explanations_imply_what_they_explain() {
    let big = 1i64 << 62;
    let mut next = xorshift(0x6c62_272e_07bb_0142);
    let mut learnt = 0;
    for (lo, hi) in [(0, 3), (big - 3, big), (-big, -big + 3)] {
        for case in 0..20 {
            let mut model = Model::new();
            let x: Vec<VarId> = model.new_vars(5, lo..=hi).unwrap();
            let n: Vec<VarId> = model.new_vars(2, 1..=3).unwrap();
            model.nvalue(n[0], &rotation(&x, next(), 4)).unwrap();
            model.nvalue(n[1], &rotation(&x, next(), 3)).unwrap();
            model.not_equal(n[0], n[1]).unwrap();
            for _ in 0..2 {
                le_at_random(&mut model, &x, &mut next, (case % 3) as i64 - 1);
            }
            not_equal_at_random(&mut model, &x, &mut next);
            learnt += assert_learning_counts_both_ways(&model, &format!("nvalue model {case} over {lo}..={hi}"));
        }
    }
    assert!(learnt > 50, "the searches learnt little: {learnt}");
}

/// A cycle that pushes two intervals by one per call: `x >= y + 1`, and
/// `y >= x + 1` unless `b`. Deciding `b = 0` sets it off, hundreds of steps
/// on each variable at one level; those past the first 64 (16,384 outside
/// tests) are folded into one entry explained by the decisions. Every
/// nogood learnt through them, and every explanation, is checked against
/// the brute-force solutions.
#[test]
fn a_slow_cycle_folded_into_the_decisions_learns_sound_nogoods() {
    let cycle = |minimize: bool| {
        let mut model = Model::new();
        let b = model.new_var(0..=1).unwrap();
        let x = model.new_var(0..=600).unwrap();
        let y = model.new_var(0..=600).unwrap();
        model.linear(&[(1, x), (-1, y)], csp::Relation::Ge, 1).unwrap();
        model.linear(&[(1, y), (-1, x), (1000, b)], csp::Relation::Ge, 1).unwrap();
        if minimize {
            model.minimize(b).unwrap();
        }
        (model, b)
    };
    for spelling in ["mac+learn+input+asc", "mac+learn+input+asc+minimize", "mac+learn+lvsids+active"] {
        // Every range an interval.
        let config = spelling.parse::<SolveConfig>().unwrap().with_bitset_limit(0);
        let (model, b) = cycle(false);
        let mut solver = Solver::new(&model, config.clone()).unwrap();
        solver.check_nogoods(true);
        solver.fold_after(64);
        let solution = solver.solve().into_solution().unwrap_or_else(|| panic!("{spelling}: no solution"));
        assert!(model.is_solution(solution.values()) && solution[b] == 1, "{spelling}: {:?}", solution.values());
        if spelling.contains("input") {
            // b = 0 first: the cycle ran, and failed.
            assert!(solver.stats().failures >= 1, "{spelling}: {}", solver.stats());
        }
        let (model, b) = cycle(true);
        let mut solver = Solver::new(&model, config).unwrap();
        solver.check_nogoods(true);
        solver.fold_after(64);
        let outcome = solver.optimize();
        assert!(outcome.is_optimal() && outcome.solution().unwrap()[b] == 1, "{spelling}");
    }
}
