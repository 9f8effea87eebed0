//! The 9x9 band propagator ([`Units::Bands`]) against an engine-free
//! brute-force enumeration on random partial grids (some with a wrong given,
//! so with no solution), under several searches (learning among them; not
//! plain backtracking, which would check the one constraint only once all 81
//! cells are assigned); its explanations against every solution of such
//! grids; and, when the shared data folder is there, against
//! `mac+mrv+matching` on whole collections (`--ignored`, in release:
//! `cargo test --release -p csp-sudoku --test bands -- --ignored`).

use std::path::{Path, PathBuf};

use csp::rng::Rng;
use csp::{SolveConfig, Solver};
use csp_sudoku::bands::Grid9;
use csp_sudoku::check::verify_solution;
use csp_sudoku::generate::{blank_cells, shuffled_grid};
use csp_sudoku::model::{Answer, EngineError, ShapeSolver, SudokuModel, Units};
use csp_sudoku::{Grid, PuzzleReader, Shape, default_config};
use proptest::prelude::*;

fn nine() -> Shape {
    Shape::new(3, 3).unwrap()
}

/// Every solution of a 9x9 grid (0 for a blank), by plain backtracking with
/// row, column and box masks, on the empty cell with the fewest values
/// first; `None` beyond `limit` of them.
fn brute_force(cells: &[u8], limit: usize) -> Option<Vec<Vec<u8>>> {
    fn unit_ids(c: usize) -> [usize; 3] {
        let (r, k) = (c / 9, c % 9);
        [r, 9 + k, 18 + (r / 3) * 3 + k / 3]
    }
    fn go(cells: &mut [u8], used: &mut [u16; 27], found: &mut Vec<Vec<u8>>, limit: usize) -> bool {
        let free = |c: usize| !unit_ids(c).iter().fold(0, |m, &u| m | used[u]) & 0x3fe;
        let Some(c) = (0..81).filter(|&c| cells[c] == 0).min_by_key(|&c| free(c).count_ones()) else {
            found.push(cells.to_vec());
            return found.len() <= limit;
        };
        let values = free(c);
        for v in 1..=9u8 {
            if values >> v & 1 != 0 {
                cells[c] = v;
                unit_ids(c).iter().for_each(|&u| used[u] |= 1 << v);
                let go_on = go(cells, used, found, limit);
                unit_ids(c).iter().for_each(|&u| used[u] &= !(1 << v));
                cells[c] = 0;
                if !go_on {
                    return false;
                }
            }
        }
        true
    }
    let mut used = [0u16; 27];
    for (c, &v) in cells.iter().enumerate() {
        if v != 0 {
            if unit_ids(c).iter().any(|&u| used[u] >> v & 1 != 0) {
                return Some(Vec::new());
            }
            unit_ids(c).iter().for_each(|&u| used[u] |= 1 << v);
        }
    }
    let mut found = Vec::new();
    let mut cells = cells.to_vec();
    go(&mut cells, &mut used, &mut found, limit).then_some(found)
}

/// Every solution the engine finds for the grid's givens, with the units as
/// `units` says, sorted.
fn engine_solutions(cells: &[u8], units: Units, config: &SolveConfig) -> Vec<Vec<u8>> {
    let blank = SudokuModel::blank_with(nine(), units).unwrap();
    let mut solver = Solver::new(blank.model(), config.clone()).unwrap();
    for (c, &v) in cells.iter().enumerate() {
        if v != 0 {
            solver.assume(blank.var(c).unwrap(), i64::from(v)).unwrap();
        }
    }
    let mut all: Vec<Vec<u8>> =
        solver.solutions().map(|s| s.values().iter().map(|&v| u8::try_from(v).unwrap()).collect()).collect();
    all.sort();
    all
}

/// A random partial grid: a full grid with `blanks` cells emptied, and with
/// `wrong` one given changed to another value (mostly no solution then).
fn partial(seed: u64, blanks: usize, wrong: bool) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let full = shuffled_grid(nine(), &mut rng);
    let mut cells = blank_cells(&full, blanks, &mut rng).cells().to_vec();
    if wrong {
        let givens: Vec<usize> = (0..81).filter(|&c| cells[c] != 0).collect();
        if let Some(&c) = givens.get(rng.below(givens.len().max(1) as u64) as usize) {
            cells[c] = cells[c] % 9 + 1;
        }
    }
    cells
}

fn same_as_brute_force(cells: &[u8], configs: &[&str]) -> Result<(), TestCaseError> {
    // (Beyond 300 solutions the case is skipped: about one in seven.)
    let Some(mut expected) = brute_force(cells, 300) else { return Ok(()) };
    expected.sort();
    for spelling in configs {
        let config: SolveConfig = spelling.parse().unwrap();
        let found = engine_solutions(cells, Units::Bands, &config);
        prop_assert_eq!(&found, &expected, "{} on {:?}", spelling, cells);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: csp::testing::scaled(64) as u32, ..ProptestConfig::default() })]

    #[test]
    fn bands_find_exactly_the_brute_force_solutions(seed in any::<u64>(), blanks in 20usize..=58, wrong in any::<bool>()) {
        let cells = partial(seed, blanks, wrong);
        same_as_brute_force(&cells, &["mac+mrv", "fc+mrv", "mac+learn+mrv", "mac+mrv+sac", "mac+mrv+probe+binary"])?;
    }

    #[test]
    fn bands_under_learning_and_other_orders(seed in any::<u64>(), blanks in 30usize..=60, wrong in any::<bool>()) {
        let cells = partial(seed, blanks, wrong);
        same_as_brute_force(
            &cells,
            &["mac+learn+domwdeg", "mac+learn+vsids+phase+luby", "mac+domwdeg", "fc+domwdeg", "mac+domwdeg+probe+luby"],
        )?;
    }
}

/// The constraint on its own, over cells whose domains reach outside
/// `1..=9` (wide, or with gaps): those values go, the solutions are the
/// brute force's, and the explanations hold in each of them.
#[test]
fn domains_wider_than_the_grid_lose_the_values_outside() {
    for seed in 0..40u64 {
        let cells = partial(seed, 12 + (seed as usize % 30), seed % 3 == 0);
        let Some(mut expected) = brute_force(&cells, 300) else { continue };
        expected.sort();
        let mut model = csp::Model::new();
        let vars: Vec<csp::VarId> = cells
            .iter()
            .enumerate()
            .map(|(c, &v)| {
                let domain = match (v, c % 3) {
                    (0, 0) => csp::Domain::range(-3, 12),
                    (0, 1) => csp::Domain::values([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 70]),
                    (0, _) => csp::Domain::range(1, 9),
                    (v, _) => csp::Domain::values([i64::from(v), 100]),
                };
                model.new_var(domain).unwrap()
            })
            .collect();
        model.post(Grid9::new(&vars).unwrap()).unwrap();
        let mut found: Vec<Vec<u8>> = Solver::new(&model, "mac+mrv".parse().unwrap())
            .unwrap()
            .solutions()
            .map(|s| s.values().iter().map(|&v| u8::try_from(v).unwrap()).collect())
            .collect();
        found.sort();
        assert_eq!(found, expected, "seed {seed}");
        // The explanations too (the values outside need no reason).
        for spelling in ["mac+mrv", "mac+learn"] {
            assert_reasons_hold(&model, &[], spelling, &expected, &format!("wide domains, seed {seed}"));
        }
    }
}

#[test]
fn bands_take_9x9_grids_of_3x3_boxes_only() {
    // Not 9x9, or 9x9 with boxes of one row or one column (a Latin square,
    // whose units are not the bands' boxes).
    for (rows, cols) in [(2, 2), (1, 9), (9, 1), (2, 3)] {
        let err = SudokuModel::blank_with(Shape::new(rows, cols).unwrap(), Units::Bands).unwrap_err();
        assert!(matches!(err, EngineError::Bands { .. }), "{rows}x{cols}: {err}");
    }
    assert!(SudokuModel::blank_with(Shape::new(2, 2).unwrap(), Units::AllDifferents).is_ok());
}

#[test]
fn an_empty_grid_and_a_full_one() {
    let empty = [0u8; 81];
    let blank = SudokuModel::blank_with(nine(), Units::Bands).unwrap();
    let mut solver = ShapeSolver::new(&blank, default_config(9)).unwrap();
    let (answer, _) = solver.solve(&Grid::from_cells(nine(), empty.to_vec()).unwrap()).unwrap();
    let Answer::Solved(solution) = answer else { panic!("{answer:?}") };
    verify_solution(&Grid::empty(nine()), &solution).unwrap();
    let (count, _) = solver.count(&solution, None).unwrap();
    assert_eq!(count.solutions, 1);
    // Two equal values in a row of an otherwise full grid.
    let mut broken = solution.cells().to_vec();
    broken[1] = broken[0];
    let (answer, _) = solver.solve(&Grid::from_cells(nine(), broken).unwrap()).unwrap();
    assert_eq!(answer, Answer::Unsatisfiable);
}

fn shared(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku").join(name);
    path.is_file().then_some(path).or_else(|| {
        eprintln!("skipped: {name} is absent from the shared data folder");
        None
    })
}

/// Every puzzle of a collection: the same count up to two as
/// `mac+mrv+matching`, and the first solution verified.
fn same_counts(name: &str) {
    let Some(path) = shared(name) else { return };
    let file = std::fs::File::open(path).unwrap();
    let puzzles: Vec<Grid> = PuzzleReader::new(std::io::BufReader::new(file)).map(|p| p.unwrap().grid).collect();
    let (plain, bands) = (SudokuModel::blank(nine()).unwrap(), SudokuModel::blank_with(nine(), Units::Bands).unwrap());
    let mut reference = ShapeSolver::new(&plain, default_config(9)).unwrap();
    let mut ours = ShapeSolver::new(&bands, default_config(9)).unwrap();
    for puzzle in &puzzles {
        let expected = reference.count(puzzle, Some(2)).unwrap().0.solutions;
        assert_eq!(ours.count(puzzle, Some(2)).unwrap().0.solutions, expected, "{puzzle:?}");
        match ours.solve(puzzle).unwrap().0 {
            Answer::Solved(solution) => verify_solution(puzzle, &solution).unwrap(),
            other => assert_eq!(expected, 0, "{puzzle:?}: {other:?}"),
        }
    }
    eprintln!("{name}: {} puzzles, the same counts", puzzles.len());
}

#[test]
#[ignore = "whole collections: run in release"]
fn the_same_counts_as_matching_on_17clue() {
    same_counts("17clue.txt");
}

#[test]
#[ignore = "whole collections: run in release"]
fn the_same_counts_as_matching_on_top1465_top95_and_euler96() {
    for name in ["top1465.txt", "top95.txt", "euler96.txt"] {
        same_counts(name);
    }
}

/// Every reason the propagators give, for an observer that asks.
#[derive(Default)]
struct Reasons(Vec<(Vec<csp::Atom>, Vec<csp::Atom>)>);

impl csp::Observer for Reasons {
    fn on_event(&mut self, _: &csp::SearchEvent) {}

    fn wants_reasons(&self) -> bool {
        true
    }

    fn on_reason(&mut self, reason: &csp::Reason<'_>) {
        self.0.push((reason.facts.to_vec(), reason.because.to_vec()));
    }
}

/// The band propagator's explanations (a replay of its rules from the
/// domains as they were, see `bands/explain.rs`) hold in every solution:
/// on random partial grids with up to 300 solutions, every reason given
/// along the search (the engine's observer asks after each propagator
/// call, as learning asks after a conflict) is checked against each of
/// them: where the reason's atoms hold, so do its facts. Nogoods learnt
/// from them keep every solution (the counts under `mac+learn` above).
#[test]
fn band_explanations_hold_in_every_solution() {
    let (mut checked, mut sharp) = (0, 0);
    for seed in 0..40u64 {
        let cells = partial(seed, 50 + seed as usize % 11, seed % 5 == 0);
        let Some(solutions) = brute_force(&cells, 300) else { continue };
        let blank = SudokuModel::blank_with(nine(), Units::Bands).unwrap();
        let givens: Vec<(csp::VarId, i64)> =
            (0..81).filter(|&c| cells[c] != 0).map(|c| (blank.var(c).unwrap(), i64::from(cells[c]))).collect();
        for spelling in ["mac+mrv", "mac+domwdeg+binary", "mac+learn"] {
            let (all, short) =
                assert_reasons_hold(blank.model(), &givens, spelling, &solutions, &format!("seed {seed}"));
            checked += all;
            sharp += short;
        }
    }
    assert!(checked > 1000 && sharp * 10 > checked * 9, "{sharp} sharp of {checked}");
}

/// Counts the solutions of `model` with the givens `assumed` under
/// `spelling`, with an observer that asks for reasons; checks the count
/// against `solutions`, and each reason against each of them: where its
/// atoms hold, so do its facts. Returns how many reasons there were, and
/// how many named fewer than 40 atoms (the generic answer names every
/// other cell's domain).
fn assert_reasons_hold(
    model: &csp::Model,
    assumed: &[(csp::VarId, i64)],
    spelling: &str,
    solutions: &[Vec<u8>],
    what: &str,
) -> (usize, usize) {
    let mut reasons = Reasons::default();
    let counted = {
        let mut solver = Solver::new(model, spelling.parse().unwrap()).unwrap();
        for &(x, v) in assumed {
            solver.assume(x, v).unwrap();
        }
        solver.observe(&mut reasons);
        solver.count(None).solutions
    };
    assert_eq!(counted, solutions.len() as u64, "{spelling}, {what}");
    let holds = |atom: &csp::Atom, s: &[u8]| atom.holds_at(i64::from(s[atom.var().index()]));
    for (facts, because) in &reasons.0 {
        for s in solutions {
            if because.iter().all(|atom| holds(atom, s)) {
                assert!(facts.iter().all(|atom| holds(atom, s)), "{spelling}, {what}: {facts:?} because {because:?}");
            }
        }
    }
    (reasons.0.len(), reasons.0.iter().filter(|(_, because)| because.len() < 40).count())
}
