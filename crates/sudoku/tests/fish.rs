//! The fish propagator ([`csp_sudoku::fish::Fish`], [`Units::Fish`]) against
//! the dual viewpoint stated with the engine's constraints ([`Units::Dual`]),
//! against the plain units on solution sets, and under learning with every
//! learnt nogood checked by brute force.

use std::path::{Path, PathBuf};

use csp::rng::Rng;
use csp::{Domain, Limits, Model, SolveConfig, Solver};
use csp_sudoku::fish::Fish;
use csp_sudoku::generate::{blank_cells, shuffled_grid};
use csp_sudoku::model::{SudokuModel, Units};
use csp_sudoku::parse::PuzzleReader;
use csp_sudoku::{Grid, Shape, default_config, learning_config};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn read_puzzles(path: &Path) -> Vec<Grid> {
    let file = std::fs::File::open(path).unwrap();
    PuzzleReader::new(std::io::BufReader::new(file)).map(|p| p.unwrap().grid).collect()
}

/// The cells' root domains under `units` (the dual variables left out).
fn root(puzzle: &Grid, units: Units, config: &SolveConfig) -> Option<Vec<Domain>> {
    let model = SudokuModel::unlabelled_with(puzzle, units).unwrap();
    let mut domains = Solver::new(model.model(), config.clone()).unwrap().root_domains()?;
    domains.truncate(puzzle.shape().num_cells());
    Some(domains)
}

/// Fish removes exactly what the dual viewpoint's matchings remove: the
/// same root domains on every puzzle, with and without the intersections,
/// and more than the units alone on several.
#[test]
fn fish_prunes_like_the_dual_viewpoint_at_the_root() {
    let mut puzzles = read_puzzles(&fixture("generated.txt"));
    for name in ["bench-16x16.txt", "bench-25x25-hardest.txt", "bench-25x25-outside.txt"] {
        puzzles.extend(read_puzzles(&fixture(name)).into_iter().take(4));
    }
    let mut acted = 0;
    for puzzle in &puzzles {
        for config in [default_config(puzzle.side()), default_config(25).with_var_order(csp::VarOrder::Mrv)] {
            let fish = root(puzzle, Units::Fish, &config);
            assert_eq!(fish, root(puzzle, Units::Dual, &config), "{puzzle:?}");
            acted += usize::from(fish != root(puzzle, Units::AllDifferents, &config));
        }
    }
    assert!(acted >= 4, "fish acted at the root of only {acted}");
}

/// An X-wing on a 4x4 Latin square: the 1s of rows 1 and 2 can only be in
/// columns 1 and 2, so rows 3 and 4 lose their 1 there, which no row or
/// column on its own shows (each of those still has two places for 1).
#[test]
fn an_x_wing_is_found() {
    let mut model = Model::new();
    let without_one = Domain::values([2, 3, 4]);
    let cells: Vec<_> = (0..16)
        .map(|i| model.new_var(if i < 8 && i % 4 >= 2 { without_one.clone() } else { Domain::range(1, 4) }).unwrap())
        .collect();
    model.post(Fish::new(&cells, 4).unwrap()).unwrap();
    let domains = Solver::new(&model, SolveConfig::default()).unwrap().root_domains().unwrap();
    let ones: Vec<usize> = (0..16).filter(|&i| domains[i].contains(1)).collect();
    assert_eq!(ones, [0, 1, 4, 5, 10, 11, 14, 15]);
}

/// All solutions (up to `limit`), sorted, and whether the search was complete.
fn solutions(puzzle: &Grid, units: Units, config: &SolveConfig, limit: u64) -> (Vec<Vec<i64>>, bool) {
    let model = SudokuModel::unlabelled_with(puzzle, units).unwrap();
    let config = config.clone().with_limits(Limits::none().with_solutions(limit));
    let mut solver = Solver::new(model.model(), config).unwrap();
    let n = puzzle.shape().num_cells();
    let mut all: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()[..n].to_vec()).collect();
    all.sort();
    let complete = (all.len() as u64) < limit;
    (all, complete)
}

/// Puzzles on 4x4, 6x6 (2x3 boxes) and 9x9 with many solutions: the same
/// solution sets with the fish propagator, the dual viewpoint and the plain
/// units, with and without learning.
#[test]
fn the_same_solutions_on_small_grids() {
    let mut rng = Rng::new(18);
    let cases = [((2, 2), 16, 4), ((2, 3), 22, 6), ((3, 2), 20, 6), ((3, 3), 52, 4)];
    let mut counted = 0;
    for ((r, c), blanks, tries) in cases {
        let shape = Shape::new(r, c).unwrap();
        for _ in 0..csp::testing::scaled(tries) {
            let puzzle = blank_cells(&shuffled_grid(shape, &mut rng), blanks, &mut rng);
            for config in [default_config(shape.side()), learning_config(shape.side()), learning_config(25)] {
                let expected = solutions(&puzzle, Units::AllDifferents, &config, 400);
                assert!(!expected.0.is_empty());
                for units in [Units::Fish, Units::Dual] {
                    let found = solutions(&puzzle, units, &config, 400);
                    if expected.1 && found.1 {
                        assert_eq!(found, expected, "{units:?} on {puzzle:?} under {config}");
                        counted += 1;
                    } else {
                        assert_eq!(found.0.len(), expected.0.len(), "{units:?} on {puzzle:?} under {config}");
                    }
                }
            }
        }
    }
    assert!(counted >= 20, "only {counted} complete comparisons");
}

/// Latin squares with the fish propagator alone (no all-different): every
/// removal and failure is the fish's, so every learnt nogood rests on its
/// explanations, and each is checked against the brute-force solutions;
/// the counts match the rows' and columns' all-differents.
#[test]
fn learnt_nogoods_from_fish_explanations_hold() {
    let mut rng = Rng::new(9002);
    let mut learnt = 0;
    for case in 0..csp::testing::scaled(40) {
        let n = 4 + case % 2;
        // Random domains, at most 2^20 assignments in all (check_nogoods' limit).
        let mut domains: Vec<Vec<i64>> = Vec::new();
        let mut log2 = 0.0;
        for _ in 0..n * n {
            let mut values: Vec<i64> = (1..=n as i64).filter(|_| rng.below(3) != 0).collect();
            if values.is_empty() || log2 + (values.len() as f64).log2() > 20.0 {
                values = vec![1 + rng.below(n as u64) as i64];
            }
            log2 += (values.len() as f64).log2();
            domains.push(values);
        }
        let build = |fish: bool| {
            let mut model = Model::new();
            let cells: Vec<_> =
                domains.iter().map(|d| model.new_var(Domain::values(d.iter().copied())).unwrap()).collect();
            if fish {
                model.post(Fish::new(&cells, n).unwrap()).unwrap();
            } else {
                for i in 0..n {
                    let row: Vec<_> = (0..n).map(|j| cells[i * n + j]).collect();
                    let column: Vec<_> = (0..n).map(|j| cells[j * n + i]).collect();
                    model.all_different(&row).unwrap();
                    model.all_different(&column).unwrap();
                }
            }
            model
        };
        let (with_fish, oracle) = (build(true), build(false));
        let expected = Solver::new(&oracle, "mac".parse().unwrap()).unwrap().count(None).solutions;
        for spelling in ["mac", "mac+learn", "mac+learn+domwdeg", "mac+learn+alternate+phase+glucose"] {
            let mut solver = Solver::new(&with_fish, spelling.parse().unwrap()).unwrap();
            solver.check_nogoods(true);
            assert_eq!(solver.count(None).solutions, expected, "{spelling}, case {case}: {domains:?}");
            learnt += solver.stats().learnt;
        }
    }
    assert!(learnt >= 40, "only {learnt} nogoods learnt");
}

/// A shape's solver over the blank model with the dual variables or the fish
/// answers as the plain one: the grid is read from the cells' variables only.
#[test]
fn shape_solvers_with_fish_or_dual_answer_as_the_plain_one() {
    use csp_sudoku::model::ShapeSolver;
    let shape = Shape::new(2, 3).unwrap();
    let puzzle = csp_sudoku::parse::one("..6..35......134.......6..1....5..64").unwrap();
    let config = default_config(6);
    let answer = |units: Units| {
        let blank = SudokuModel::blank_with(shape, units).unwrap();
        let mut solver = ShapeSolver::new(&blank, config.clone()).unwrap();
        (solver.solve(&puzzle).unwrap().0, solver.count(&puzzle, None).unwrap().0.solutions)
    };
    let plain = answer(Units::AllDifferents);
    assert!(matches!(plain.0, csp_sudoku::model::Answer::Solved(_)));
    assert_eq!(answer(Units::Fish), plain);
    assert_eq!(answer(Units::Dual), plain);
}
