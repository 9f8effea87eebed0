//! Reusing solvers across the puzzles of a batch.
//!
//! Building a model and a solver costs about as much as solving a 17-clue
//! 9x9 by propagation, so every thread keeps one [`ShapeSolver`] per box
//! shape and configuration and hands it each puzzle's givens as assumptions.
//!
//! A solver borrows its model. The blank model of a shape is immutable and
//! small (a 9x9 one is a few kilobytes, a 64x64 one a few hundred), and a
//! process meets few shapes, so each is built once and kept for the life of
//! the process (leaked on purpose); solvers on any thread can then borrow it
//! as `'static`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};

use csp::SolveConfig;
use csp_sudoku::Shape;
use csp_sudoku::model::{EngineError, ShapeSolver, SudokuModel, Units};

/// The blank model of a shape with its units stated as `units` says, built
/// on first use.
fn blank_model(shape: Shape, units: Units) -> Result<&'static SudokuModel, EngineError> {
    type Models = HashMap<(Shape, Units), &'static SudokuModel>;
    static MODELS: OnceLock<Mutex<Models>> = OnceLock::new();
    let mut models = MODELS.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(model) = models.get(&(shape, units)) {
        return Ok(model);
    }
    let model: &'static SudokuModel = Box::leak(Box::new(SudokuModel::blank_with(shape, units)?));
    models.insert((shape, units), model);
    Ok(model)
}

/// The solvers of the current thread; a handful at most (a batch rarely mixes
/// shapes), the least recently used dropped first.
const KEPT: usize = 8;

thread_local! {
    static SOLVERS: RefCell<Vec<ShapeSolver<'static>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's solver for `shape`, its units stated as
/// `units` says, under `config`.
pub(super) fn with_solver<R>(
    shape: Shape,
    units: Units,
    config: &SolveConfig,
    f: impl FnOnce(&mut ShapeSolver<'static>) -> R,
) -> Result<R, EngineError> {
    let blank = blank_model(shape, units)?;
    SOLVERS.with(|cell| {
        let mut solvers = cell.borrow_mut();
        let found = solvers.iter().position(|s| std::ptr::eq(s.model(), blank) && s.config() == config);
        let index = match found {
            Some(index) => index,
            None => {
                if solvers.len() == KEPT {
                    solvers.remove(0);
                }
                solvers.push(ShapeSolver::new(blank, config.clone())?);
                solvers.len() - 1
            }
        };
        // Most recently used last (a solver is large: move it only when it
        // is not already there, which is every puzzle of a one-shape batch).
        let last = solvers.len() - 1;
        if index != last {
            let solver = solvers.remove(index);
            solvers.push(solver);
        }
        Ok(f(&mut solvers[last]))
    })
}
