//! The last resorts: a forcing chain by singles, then a guess checked by the
//! engine.
//!
//! When no pattern applies, a person tries a candidate and follows the
//! consequences: the forcing chain here (HoDoKu's "Forcing Chain
//! Contradiction", limited to singles as sudokuwiki's "Bowman's Bingo") places
//! a candidate of a cell with few candidates, applies naked and hidden singles
//! until nothing more follows, and when that ends in a contradiction (a cell
//! without candidates, a digit without a place in a unit, or a digit twice in
//! a unit) the candidate is false. When no trial shows anything, the step is
//! a plain guess: a digit of the solution the `csp` engine finds for the
//! board, and the step says so.

use std::time::Instant;

use csp::{Domain, Outcome};

use super::Collector;
use super::PencilMarks;
use super::candidates::{bit, digits, full_set};
use super::step::{Candidate, Step, Technique};
use crate::grid::Grid;
use crate::model::{EngineError, SudokuModel, default_config};

/// What following singles from an assumption ended in.
enum Trial {
    /// A contradiction, with the cell or unit where it showed.
    Contradiction(String),
    /// Nothing contradictory; the board after the singles.
    Consistent,
}

/// Applies naked and hidden singles until none is left or the board breaks.
fn follow_singles(marks: &mut PencilMarks) -> Trial {
    let n = marks.side();
    let full = full_set(n);
    loop {
        let mut changed = false;
        for cell in 0..n * n {
            if marks.value(cell) != 0 {
                continue;
            }
            let c = marks.candidates(cell);
            match c.count_ones() {
                0 => return Trial::Contradiction(format!("{} has no candidate left", marks.cell_name(cell))),
                1 => {
                    marks.place(cell, c.trailing_zeros() as u8 + 1);
                    changed = true;
                }
                _ => {}
            }
        }
        for u in 0..3 * n {
            let (mut placed, mut once, mut twice) = (0u64, 0u64, 0u64);
            for &cell in &marks.geometry().unit_cells[u] {
                let v = marks.value(cell);
                if v != 0 {
                    if placed & bit(v) != 0 {
                        let unit = marks.geometry().unit(u);
                        return Trial::Contradiction(format!("{unit} has two {v}s"));
                    }
                    placed |= bit(v);
                } else {
                    let c = marks.candidates(cell);
                    twice |= once & c;
                    once |= c;
                }
            }
            let missing = full & !(placed | once);
            if missing != 0 {
                let unit = marks.geometry().unit(u);
                let d = missing.trailing_zeros() + 1;
                return Trial::Contradiction(format!("{unit} has no place left for {d}"));
            }
            for d in digits(once & !twice & !placed) {
                let cell = marks.geometry().unit_cells[u].iter().copied().find(|&c| marks.has(c, d));
                if let Some(cell) = cell {
                    marks.place(cell, d);
                    changed = true;
                }
            }
        }
        if !changed {
            return Trial::Consistent;
        }
    }
}

/// A candidate that leads, by singles, to a contradiction.
pub(crate) fn forcing_chain(found: &mut Collector<'_>) {
    let marks = found.marks;
    let n = marks.side();
    // Cells with few candidates first: their trials are the shortest to follow.
    for size in 2..=n as u32 {
        for cell in 0..n * n {
            if marks.candidates(cell).count_ones() != size {
                continue;
            }
            // Every trial follows singles over the whole board: on the
            // largest grids the trials take seconds, so the time limit counts.
            if found.out_of_time() {
                return;
            }
            for digit in digits(marks.candidates(cell)) {
                let mut trial = marks.clone();
                trial.place(cell, digit);
                if let Trial::Contradiction(why) = follow_singles(&mut trial) {
                    found.push(
                        Step::new(Technique::ForcingChain, marks.shape())
                            .eliminating(vec![Candidate::new(cell, digit)])
                            .cells(vec![cell])
                            .pattern(vec![Candidate::new(cell, digit)])
                            .digits(vec![digit])
                            .reason(format!(
                                "if {} were {digit}, singles would lead to a contradiction: {why}",
                                marks.cell_name(cell)
                            )),
                    );
                    if found.done() {
                        return;
                    }
                }
            }
        }
        if !found.steps.is_empty() {
            return;
        }
    }
}

/// What the engine said about a board.
pub(crate) enum EngineAnswer {
    /// A solution (respecting the board's candidates).
    Solution(Grid),
    /// None: a placed digit or a removed candidate is wrong, or the puzzle has
    /// no solution.
    NoSolution,
    /// The deadline came first.
    OutOfTime,
}

/// The engine's solution of the board (respecting its candidates), searched
/// with the sudoku tool's configuration for the side
/// ([`crate::model::default_config`]) until `deadline`.
///
/// The engine first solves the placed digits alone, as a puzzle: on a 36x36
/// it does that in a fraction of a second where the same board stated with
/// its candidates as the variables' domains can take it minutes. A solution
/// that fits the candidates (always, when the puzzle has one solution and the
/// steps were sound) is the answer; otherwise the board with its candidates
/// is solved.
pub(crate) fn engine_solution(marks: &PencilMarks, deadline: Option<Instant>) -> Result<EngineAnswer, EngineError> {
    // An empty cell without candidates has no solution (and no variable domain).
    if (0..marks.shape().num_cells()).any(|c| marks.value(c) == 0 && marks.candidates(c) == 0) {
        return Ok(EngineAnswer::NoSolution);
    }
    let placed = SudokuModel::unlabelled(&marks.grid())?;
    match solve(&placed, deadline)? {
        EngineAnswer::Solution(grid) if !agrees(marks, &grid) => {}
        answer => return Ok(answer),
    }
    let model = SudokuModel::with_domains(marks.shape(), |cell| match marks.value(cell) {
        0 => Domain::values(digits(marks.candidates(cell)).map(i64::from)),
        v => Domain::values([i64::from(v)]),
    })?;
    solve(&model, deadline)
}

/// The first solution of a model until `deadline`.
fn solve(model: &SudokuModel, deadline: Option<Instant>) -> Result<EngineAnswer, EngineError> {
    let mut config = default_config(model.shape().side());
    if let Some(deadline) = deadline {
        config.limits = config.limits.with_time(deadline.saturating_duration_since(Instant::now()));
    }
    let mut solver = model.solver(config)?;
    Ok(match solver.solve() {
        Outcome::Solved(solution) => EngineAnswer::Solution(model.grid(solution.values())),
        Outcome::Unsatisfiable => EngineAnswer::NoSolution,
        Outcome::LimitReached(_) => EngineAnswer::OutOfTime,
    })
}

/// Whether a solution fits the board: every placed digit is the solution's,
/// every empty cell has the solution's digit among its candidates.
pub(crate) fn agrees(marks: &PencilMarks, solution: &Grid) -> bool {
    solution.cells().iter().enumerate().all(|(cell, &digit)| match marks.value(cell) {
        0 => marks.has(cell, digit),
        placed => placed == digit,
    })
}

/// Places the solution's digit in the empty cell with the fewest candidates.
pub(crate) fn guess(marks: &PencilMarks, solution: &Grid) -> Option<Step> {
    let cell = (0..marks.shape().num_cells())
        .filter(|&c| marks.value(c) == 0)
        .min_by_key(|&c| marks.candidates(c).count_ones())?;
    let digit = solution.cells()[cell];
    if digit == 0 || marks.candidates(cell) & bit(digit) == 0 {
        return None;
    }
    Some(
        Step::new(Technique::Guess, marks.shape())
            .place(cell, digit)
            .cells(vec![cell])
            .digits(vec![digit])
            .reason(format!(
                "no technique applies: {digit} is taken from the solution the engine found by search, not by logic a person can follow",
            )),
    )
}
