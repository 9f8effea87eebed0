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

use csp::{Domain, Outcome, SolveConfig};

use super::Collector;
use super::PencilMarks;
use super::candidates::{bit, digits, full_set};
use super::step::{Candidate, Step, Technique};
use crate::grid::Grid;
use crate::model::{EngineError, SudokuModel};

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

/// The engine's solution of the board (respecting its candidates), or `None`
/// when it has none.
pub(crate) fn engine_solution(marks: &PencilMarks) -> Result<Option<Grid>, EngineError> {
    // An empty cell without candidates has no solution (and no variable domain).
    if (0..marks.shape().num_cells()).any(|c| marks.value(c) == 0 && marks.candidates(c) == 0) {
        return Ok(None);
    }
    let model = SudokuModel::with_domains(marks.shape(), |cell| match marks.value(cell) {
        0 => Domain::values(digits(marks.candidates(cell)).map(i64::from)),
        v => Domain::values([i64::from(v)]),
    })?;
    let mut solver = model.solver(SolveConfig::default())?;
    Ok(match solver.solve() {
        Outcome::Solved(solution) => Some(model.grid(solution.values())),
        _ => None,
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
