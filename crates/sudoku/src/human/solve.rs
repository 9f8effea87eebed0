//! The human-style solver: apply the easiest technique that makes progress,
//! record the step, repeat.

use std::time::{Duration, Instant};

use super::candidates::{PencilMarkError, PencilMarks};
use super::fruitless::Fruitless;
use super::last_resort::{self, EngineAnswer};
use super::rating::Rating;
use super::step::{Step, Technique};
use super::{past, search};
use crate::grid::Grid;
use crate::model::EngineError;

/// Why the human solver could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HumanError {
    /// The board could not be built.
    #[error(transparent)]
    PencilMarks(#[from] PencilMarkError),
    /// The engine failed (for the last resort).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The board has no solution: no technique applies and the engine finds
    /// none either.
    #[error("the board has no solution")]
    NoSolution,
    /// The time limit ([`HumanSolver::with_time_limit`]) ran out before the
    /// board was solved or no technique applied: on the largest grids a
    /// single pass over the techniques can take seconds.
    #[error("the time limit of {} s ran out after {steps} steps", limit.as_secs_f64())]
    TimeLimit {
        /// The limit.
        limit: Duration,
        /// The steps taken before it ran out.
        steps: usize,
    },
    /// A step contradicted the known solution (only with
    /// [`HumanSolver::solve_checked`]): a bug, or a puzzle with several solutions.
    #[error("step {index} contradicts the solution: {step}")]
    WrongStep {
        /// The step's number, from 1.
        index: usize,
        /// The step's text.
        step: String,
    },
}

/// A human-style solver: which techniques it may use, in order.
///
/// ```
/// use csp_sudoku::human::{HumanSolver, Technique};
/// use csp_sudoku::parse;
///
/// let puzzle = parse::one("..6..35......134.......6..1....5..64").unwrap();
/// let solution = HumanSolver::new().solve(&puzzle).unwrap();
/// assert!(solution.is_solved());
/// assert!(solution.steps().iter().all(|s| s.technique() != Technique::Guess));
/// println!("{}", solution.steps()[0]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HumanSolver {
    techniques: Vec<Technique>,
    /// How long one solve (or one next step) may take.
    time_limit: Option<Duration>,
}

impl Default for HumanSolver {
    fn default() -> HumanSolver {
        HumanSolver::new()
    }
}

impl HumanSolver {
    /// Every technique on by default ([`Technique::on_by_default`]), easiest
    /// first, with the last resorts.
    pub fn new() -> HumanSolver {
        let techniques = Technique::ALL.iter().copied().filter(|t| t.on_by_default()).collect();
        HumanSolver { techniques, time_limit: None }
    }

    /// Only these techniques, tried in [`Technique::ALL`] order. Without
    /// [`Technique::Guess`] the solver may stop before the board is solved.
    pub fn with_techniques(techniques: &[Technique]) -> HumanSolver {
        let techniques = Technique::ALL.iter().copied().filter(|t| techniques.contains(t)).collect();
        HumanSolver { techniques, time_limit: None }
    }

    /// The same solver, stopping with [`HumanError::TimeLimit`] when a solve
    /// (or a next step) takes longer than `limit`. Its steps then depend on
    /// the machine's speed; without a limit they never do.
    pub fn with_time_limit(mut self, limit: Duration) -> HumanSolver {
        self.time_limit = Some(limit);
        self
    }

    /// The same solver without the last resorts (forcing chains and guesses):
    /// logic only, so it may stop before the board is solved.
    pub fn without_last_resort(mut self) -> HumanSolver {
        self.techniques.retain(|&t| t != Technique::Guess && t != Technique::ForcingChain);
        self
    }

    /// The techniques, in the order they are tried.
    pub fn techniques(&self) -> &[Technique] {
        &self.techniques
    }

    /// The next step on a board (a hint): the easiest technique that makes
    /// progress. `None` when the board is solved, or when no allowed technique
    /// applies.
    pub fn next_step(&self, marks: &PencilMarks) -> Result<Option<Step>, HumanError> {
        self.next_step_with(marks, marks, &mut None, self.deadline(), None)
    }

    /// When a solve or a next step started now must stop.
    fn deadline(&self) -> Option<Instant> {
        self.time_limit.map(|limit| Instant::now() + limit)
    }

    /// The next step; `solution` keeps the engine's solution between guesses,
    /// found for the board `origin` the steps started from (the puzzle's
    /// givens: on a 36x36 the engine solves them in a second where a board
    /// some hundred steps on can take it minutes); `fruitless` the searches
    /// of the steps before that found nothing.
    /// Past the `deadline`, [`HumanError::TimeLimit`] with no steps counted.
    fn next_step_with(
        &self,
        marks: &PencilMarks,
        origin: &PencilMarks,
        solution: &mut Option<Grid>,
        deadline: Option<Instant>,
        mut fruitless: Option<&mut Fruitless>,
    ) -> Result<Option<Step>, HumanError> {
        if marks.is_solved() {
            return Ok(None);
        }
        for &technique in &self.techniques {
            if past(deadline) {
                return Err(self.out_of_time());
            }
            if technique == Technique::Guess {
                if solution.is_none() {
                    *solution = Some(self.engine_solution(origin, deadline)?);
                }
                // The board moved away from that solution (only on a puzzle
                // with several): the board's own.
                if solution.as_ref().is_none_or(|known| !last_resort::agrees(marks, known)) {
                    *solution = Some(self.engine_solution(marks, deadline)?);
                }
                let known = solution.as_ref().ok_or(HumanError::NoSolution)?;
                return last_resort::guess(marks, known).map(Some).ok_or(HumanError::NoSolution);
            }
            if let Some(step) = search(technique, marks, true, deadline, fruitless.as_deref_mut()).into_iter().next() {
                return Ok(Some(step));
            }
        }
        // A search the deadline cut short found nothing: not "no technique applies".
        if past(deadline) {
            return Err(self.out_of_time());
        }
        Ok(None)
    }

    /// The engine's solution of a board, searched until `deadline`.
    fn engine_solution(&self, marks: &PencilMarks, deadline: Option<Instant>) -> Result<Grid, HumanError> {
        match last_resort::engine_solution(marks, deadline)? {
            EngineAnswer::Solution(grid) => Ok(grid),
            EngineAnswer::NoSolution => Err(HumanError::NoSolution),
            EngineAnswer::OutOfTime => Err(self.out_of_time()),
        }
    }

    /// The time limit ran out (the steps taken are counted by the caller).
    fn out_of_time(&self) -> HumanError {
        HumanError::TimeLimit { limit: self.time_limit.unwrap_or_default(), steps: 0 }
    }

    /// Solves a puzzle from its givens, step by step. On a puzzle with several
    /// solutions, when the uniqueness techniques cut every solution away, the
    /// solution is computed again without them.
    pub fn solve(&self, puzzle: &Grid) -> Result<Solution, HumanError> {
        self.solve_marks(PencilMarks::from_givens(puzzle)?)
    }

    /// Solves from a board of pencil marks, step by step, until it is solved
    /// or no allowed technique applies.
    pub fn solve_marks(&self, marks: PencilMarks) -> Result<Solution, HumanError> {
        self.run(marks, None)
    }

    /// Like [`HumanSolver::solve`], checking after every step that no
    /// eliminated candidate is the digit of `solution` and no placement differs
    /// from it: the soundness check of the tests.
    pub fn solve_checked(&self, puzzle: &Grid, solution: &Grid) -> Result<Solution, HumanError> {
        self.run(PencilMarks::from_givens(puzzle)?, Some(solution))
    }

    fn run(&self, start: PencilMarks, check: Option<&Grid>) -> Result<Solution, HumanError> {
        // One deadline for the whole solve, the second attempt included.
        let deadline = self.deadline();
        match self.run_once(start.clone(), check, deadline) {
            // The uniqueness techniques assume one solution; on a puzzle with
            // several they can cut every solution away. If the board itself
            // has one, solve again without them.
            Err(HumanError::NoSolution) if self.techniques.iter().any(|t| t.assumes_uniqueness()) => {
                self.engine_solution(&start, deadline)?;
                let mut without = self.clone();
                without.techniques.retain(|t| !t.assumes_uniqueness());
                without.run_once(start, check, deadline)
            }
            other => other,
        }
    }

    fn run_once(
        &self,
        start: PencilMarks,
        check: Option<&Grid>,
        deadline: Option<Instant>,
    ) -> Result<Solution, HumanError> {
        let mut marks = start.clone();
        let mut steps = Vec::new();
        let mut known = check.cloned();
        let mut fruitless = Fruitless::default();
        while let Some(step) = self.next_step_with(&marks, &start, &mut known, deadline, Some(&mut fruitless)).map_err(
            |err| match err {
                HumanError::TimeLimit { limit, .. } => HumanError::TimeLimit { limit, steps: steps.len() },
                err => err,
            },
        )? {
            if let Some(solution) = check {
                let wrong = step.placements().iter().any(|p| solution.cells()[p.cell] != p.digit)
                    || step.eliminations().iter().any(|e| solution.cells()[e.cell] == e.digit);
                if wrong {
                    return Err(HumanError::WrongStep { index: steps.len() + 1, step: step.to_string() });
                }
            }
            marks.apply(&step);
            steps.push(step);
        }
        Ok(Solution { start, steps, end: marks })
    }
}

/// The steps of a human-style solution, the board they started from and the
/// board they reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    start: PencilMarks,
    steps: Vec<Step>,
    end: PencilMarks,
}

impl Solution {
    /// The steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The board before the first step.
    pub fn start(&self) -> &PencilMarks {
        &self.start
    }

    /// The board after the last step.
    pub fn end(&self) -> &PencilMarks {
        &self.end
    }

    /// Whether the steps filled every cell.
    pub fn is_solved(&self) -> bool {
        self.end.is_solved()
    }

    /// The filled grid, when solved.
    pub fn grid(&self) -> Option<Grid> {
        self.is_solved().then(|| self.end.grid())
    }

    /// Whether a last resort (forcing chain or guess) was needed.
    pub fn used_last_resort(&self) -> bool {
        self.steps.iter().any(|s| matches!(s.technique(), Technique::Guess | Technique::ForcingChain))
    }

    /// The rating of these steps.
    pub fn rating(&self) -> Rating {
        Rating::of_steps(self.start.shape(), &self.steps, self.is_solved())
    }

    /// The board before each step and after the last (for a replay): `steps + 1`
    /// boards.
    pub fn boards(&self) -> impl Iterator<Item = PencilMarks> + '_ {
        let mut board = Some(self.start.clone());
        let mut next = 0;
        std::iter::from_fn(move || {
            let current = board.take()?;
            if next < self.steps.len() {
                let mut after = current.clone();
                after.apply(&self.steps[next]);
                next += 1;
                board = Some(after);
            }
            Some(current)
        })
    }
}
