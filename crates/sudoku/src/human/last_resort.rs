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
use super::candidates::{DigitSet, Geometry, bit, digits, full_set};
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

/// Singles followed from one placement at a time, incrementally, on a copy
/// of a board where no single is pending and nothing contradicts: only
/// whether they end in a contradiction, not where it shows.
///
/// Whether singles end in a contradiction does not depend on the order they
/// are applied in (each placement is a naked or hidden single, which stays
/// one, or turns into a contradiction, as candidates go; so every order
/// reaches the same board, or a contradiction), so this answers as
/// [`follow_singles`] does, at the cost of the cells and units the
/// placements touch instead of sweeps over the whole board.
/// [`forcing_chain`] asks it first and follows singles again only for a
/// trial that does contradict, for the reason.
struct QuickTrials {
    /// The board's values, candidates, digits placed in each unit and
    /// places of each digit in each unit (`u * n + d - 1`).
    values: Vec<u8>,
    candidates: Vec<DigitSet>,
    placed: Vec<DigitSet>,
    places: Vec<u8>,
    /// The same for the trial under way.
    trial_values: Vec<u8>,
    trial_candidates: Vec<DigitSet>,
    trial_placed: Vec<DigitSet>,
    trial_places: Vec<u8>,
    /// Placements that follow and are not yet made.
    pending: Vec<(usize, u8)>,
}

impl QuickTrials {
    /// For a board where singles find nothing and nothing contradicts; `None`
    /// otherwise (then only [`follow_singles`] answers as it does).
    fn new(marks: &PencilMarks) -> Option<QuickTrials> {
        let mut settled = marks.clone();
        if !matches!(follow_singles(&mut settled), Trial::Consistent) || settled != *marks {
            return None;
        }
        let n = marks.side();
        let geometry = marks.geometry();
        let values: Vec<u8> = (0..n * n).map(|cell| marks.value(cell)).collect();
        let candidates = marks.candidate_sets().to_vec();
        let mut placed = vec![0; 3 * n];
        let mut places = vec![0u8; 3 * n * n];
        for (u, cells) in geometry.unit_cells.iter().enumerate() {
            for &cell in cells {
                placed[u] |= if values[cell] == 0 { 0 } else { bit(values[cell]) };
                for d in digits(candidates[cell]) {
                    places[u * n + usize::from(d) - 1] += 1;
                }
            }
        }
        Some(QuickTrials {
            trial_values: values.clone(),
            trial_candidates: candidates.clone(),
            trial_placed: placed.clone(),
            trial_places: places.clone(),
            values,
            candidates,
            placed,
            places,
            pending: Vec::new(),
        })
    }

    /// Whether placing `digit` in `cell` leads, by singles, to a contradiction.
    fn contradicts(&mut self, marks: &PencilMarks, cell: usize, digit: u8) -> bool {
        self.trial_values.copy_from_slice(&self.values);
        self.trial_candidates.copy_from_slice(&self.candidates);
        self.trial_placed.copy_from_slice(&self.placed);
        self.trial_places.copy_from_slice(&self.places);
        self.pending.clear();
        self.pending.push((cell, digit));
        let geometry = marks.geometry();
        while let Some((cell, digit)) = self.pending.pop() {
            match self.trial_values[cell] {
                0 if self.trial_candidates[cell] & bit(digit) != 0 => {}
                v if v == digit => continue,
                _ => return true,
            }
            if self.place(geometry, cell, digit) {
                return true;
            }
        }
        false
    }

    /// Places `digit` in `cell` and notes the singles that follow; whether
    /// that contradicts.
    fn place(&mut self, geometry: &Geometry, cell: usize, digit: u8) -> bool {
        let b = bit(digit);
        self.trial_values[cell] = digit;
        for u in geometry.cell_units[cell] {
            if self.trial_placed[u] & b != 0 {
                return true;
            }
            self.trial_placed[u] |= b;
        }
        let others = self.trial_candidates[cell];
        self.trial_candidates[cell] = 0;
        for d in digits(others) {
            if self.lose_place(geometry, cell, d) {
                return true;
            }
        }
        for peer in geometry.peers(cell) {
            let c = self.trial_candidates[peer];
            if c & b == 0 {
                continue;
            }
            let c = c & !b;
            self.trial_candidates[peer] = c;
            if self.trial_values[peer] == 0 {
                match c.count_ones() {
                    0 => return true,
                    1 => self.pending.push((peer, c.trailing_zeros() as u8 + 1)),
                    _ => {}
                }
            }
            if self.lose_place(geometry, peer, digit) {
                return true;
            }
        }
        false
    }

    /// `cell` no longer holds `digit` as a candidate: in each of its units,
    /// the digit's places fall by one; whether a unit that still needs it
    /// has none left (when one, it follows).
    fn lose_place(&mut self, geometry: &Geometry, cell: usize, digit: u8) -> bool {
        let n = geometry.side;
        let b = bit(digit);
        for u in geometry.cell_units[cell] {
            let at = u * n + usize::from(digit) - 1;
            self.trial_places[at] -= 1;
            if self.trial_placed[u] & b != 0 {
                continue;
            }
            match self.trial_places[at] {
                0 => return true,
                1 => {
                    let candidates = &self.trial_candidates;
                    if let Some(&only) = geometry.unit_cells[u].iter().find(|&&c| candidates[c] & b != 0) {
                        self.pending.push((only, digit));
                    }
                }
                _ => {}
            }
        }
        false
    }
}

/// A candidate that leads, by singles, to a contradiction.
pub(crate) fn forcing_chain(found: &mut Collector<'_>) {
    let marks = found.marks;
    let n = marks.side();
    let mut quick = QuickTrials::new(marks);
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
                if quick.as_mut().is_some_and(|quick| !quick.contradicts(marks, cell, digit)) {
                    continue;
                }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    /// top1465's first five.
    const TOP1465: &str = "\
4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........
7.8...3.....6.1...5.........4.....263...8.......1...9..9.2....4....7.5...........
3.7.4...........918........4.....7.....16.......25..........38..9....5...2.6.....
5..7..6....38...........2..62.4............917............35.8.4.....1......9....
";

    /// The boards of the first puzzles of a text, singles applied.
    fn settled(text: &str, count: usize) -> Vec<PencilMarks> {
        parse::puzzles(text)
            .take(count)
            .map(|puzzle| {
                let puzzle = puzzle.unwrap().grid;
                let mut marks = PencilMarks::from_givens(&puzzle).unwrap();
                assert!(matches!(follow_singles(&mut marks), Trial::Consistent));
                marks
            })
            .collect()
    }

    /// Compares the quick trials with singles followed on a copy, on up to
    /// `limit` candidates of `marks`; returns the boards the consistent
    /// trials reached (quiet boards further on) and the contradictions seen.
    fn compare(marks: &PencilMarks, limit: usize) -> (Vec<PencilMarks>, usize) {
        let mut quick = QuickTrials::new(marks).expect("a settled board is quiet");
        let (mut further, mut contradictions) = (Vec::new(), 0);
        let trials =
            (0..marks.shape().num_cells()).flat_map(|cell| digits(marks.candidates(cell)).map(move |d| (cell, d)));
        for (cell, digit) in trials.take(limit) {
            let mut trial = marks.clone();
            trial.place(cell, digit);
            let slow = follow_singles(&mut trial);
            let contradicts = matches!(slow, Trial::Contradiction(_));
            assert_eq!(quick.contradicts(marks, cell, digit), contradicts, "{} = {digit}", marks.cell_name(cell));
            if contradicts {
                contradictions += 1;
            } else if !trial.is_solved() && further.len() < 3 {
                further.push(trial);
            }
        }
        (further, contradictions)
    }

    /// The first puzzles of a data file, singles applied.
    fn settled_file(name: &str, count: usize) -> Vec<PencilMarks> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name);
        settled(&std::fs::read_to_string(path).unwrap(), count)
    }

    #[test]
    fn quick_trials_contradict_exactly_where_singles_do() {
        let mut boards = settled(TOP1465, 5);
        boards.extend(settled_file("human-12x12.txt", 3));
        boards.extend(settled_file("bench-16x16.txt", 3));
        boards.extend(settled_file("bench-25x25-hard.txt", 1));
        let mut contradictions = 0;
        for marks in boards.iter().filter(|marks| !marks.is_solved()) {
            let (further, seen) = compare(marks, 400);
            contradictions += seen;
            for next in &further {
                contradictions += compare(next, 400).1;
            }
        }
        assert!(contradictions > 100, "only {contradictions} contradictions seen");
    }

    #[test]
    fn a_board_with_a_single_pending_has_no_quick_trials() {
        let puzzle = parse::one("..6..35......134.......6..1....5..64").unwrap();
        assert!(QuickTrials::new(&PencilMarks::from_givens(&puzzle).unwrap()).is_none());
    }
}
