//! Solving like a person: pencil marks, techniques, explained steps, a
//! difficulty rating.
//!
//! The solver ([`HumanSolver`]) repeatedly applies the easiest technique that
//! makes progress on the pencil marks ([`PencilMarks`]) and records each
//! [`Step`]: which technique, which cells and units, what it placed or
//! removed, and why. Every technique works for any box shape `R x C` where it
//! makes sense (a 4x4 has no swordfish to find, but the search runs). When no
//! technique applies, the last resorts are a forcing chain (a candidate whose
//! consequences by singles contradict themselves) and, failing that, a guess
//! taken from the engine's solution, said plainly in the step's text.
//!
//! ```
//! use csp_sudoku::human::{self, Level};
//! use csp_sudoku::parse;
//!
//! let puzzle = parse::one("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........").unwrap();
//! let solution = human::explain(&puzzle).unwrap();
//! for step in solution.steps().iter().take(3) {
//!     println!("{step}"); // e.g. "hidden single: r2c3 = 4 (the only 4 in box 1)"
//! }
//! let rating = solution.rating();
//! assert!(rating.level >= Level::Easy);
//! ```
//!
//! The techniques, in the order they are tried, with their scores and levels
//! (after HoDoKu's defaults; the definitions follow HoDoKu, Sudoku Explainer
//! and Andrew Stuart's sudokuwiki.com, cited in each module); those marked
//! *off* are off by default, as in HoDoKu ([`Technique::on_by_default`]):
//!
//! | technique | HoDoKu code | score | level | module |
//! | --- | --- | --- | --- | --- |
//! | full house | 0000 | 4 | easy | [`singles`] |
//! | naked single | 0003 | 4 | easy | [`singles`] |
//! | hidden single | 0002 | 14 | easy | [`singles`] |
//! | locked pair | 0110 | 40 | medium | [`intersections`] |
//! | locked triple | 0111 | 60 | medium | [`intersections`] |
//! | pointing (locked candidates 1) | 0100 | 50 | medium | [`intersections`] |
//! | claiming (locked candidates 2) | 0101 | 50 | medium | [`intersections`] |
//! | naked pair | 0200 | 60 | medium | [`subsets`] |
//! | naked triple | 0201 | 80 | medium | [`subsets`] |
//! | hidden pair | 0210 | 70 | medium | [`subsets`] |
//! | hidden triple | 0211 | 100 | medium | [`subsets`] |
//! | naked quad | 0202 | 120 | hard | [`subsets`] |
//! | hidden quad | 0212 | 150 | hard | [`subsets`] |
//! | x-wing | 0300 | 140 | hard | [`fish`] |
//! | swordfish | 0301 | 150 | hard | [`fish`] |
//! | jellyfish | 0302 | 160 | hard | [`fish`] |
//! | remote pair | 0703 | 110 | hard | [`chains`] |
//! | bug+1 | 0610 | 100 | medium | [`uniqueness`] |
//! | skyscraper | 0400 | 130 | hard | [`single_digit`] |
//! | 2-string kite | 0401 | 150 | hard | [`single_digit`] |
//! | dual 2-string kite | 0404 | 150 | hard | [`single_digit`] |
//! | turbot fish | 0403 | 120 | hard | [`single_digit`] |
//! | empty rectangle | 0402 | 120 | hard | [`single_digit`] |
//! | dual empty rectangle | 0405 | 120 | hard | [`single_digit`] |
//! | w-wing | 0803 | 150 | hard | [`wings`] |
//! | xy-wing | 0800 | 160 | hard | [`wings`] |
//! | xyz-wing | 0801 | 180 | hard | [`wings`] |
//! | unique rectangle type 1 | 0600 | 100 | hard | [`uniqueness`] |
//! | unique rectangle type 2 | 0601 | 100 | hard | [`uniqueness`] |
//! | unique rectangle type 3 | 0602 | 100 | hard | [`uniqueness`] |
//! | unique rectangle type 4 | 0603 | 100 | hard | [`uniqueness`] |
//! | unique rectangle type 5 | 0604 | 100 | hard | [`uniqueness`] |
//! | unique rectangle type 6 | 0605 | 100 | hard | [`uniqueness`] |
//! | hidden rectangle | 0606 | 100 | hard | [`uniqueness`] |
//! | avoidable rectangle type 1 | 0607 | 100 | hard | [`uniqueness`] |
//! | avoidable rectangle type 2 | 0608 | 100 | hard | [`uniqueness`] |
//! | finned x-wing | 0310 | 130 | hard | [`fish`] |
//! | sashimi x-wing | 0320 | 150 | hard | [`fish`] |
//! | finned swordfish | 0311 | 200 | unfair | [`fish`] |
//! | siamese finned swordfish (off) | 03111 | 200 | unfair | [`general_fish`] |
//! | sashimi swordfish | 0321 | 240 | unfair | [`fish`] |
//! | siamese sashimi swordfish (off) | 03211 | 240 | unfair | [`general_fish`] |
//! | finned jellyfish | 0312 | 250 | unfair | [`fish`] |
//! | siamese finned jellyfish (off) | 03121 | 250 | unfair | [`general_fish`] |
//! | sashimi jellyfish | 0322 | 260 | unfair | [`fish`] |
//! | siamese sashimi jellyfish (off) | 03221 | 260 | unfair | [`general_fish`] |
//! | sue de coq | 1101 | 250 | unfair | [`sue_de_coq`] |
//! | simple colors trap | 0500 | 150 | hard | [`coloring`] |
//! | simple colors wrap | 0501 | 150 | hard | [`coloring`] |
//! | multi-colors 1 | 0502 | 200 | hard | [`coloring`] |
//! | multi-colors 2 | 0503 | 200 | hard | [`coloring`] |
//! | x-chain | 0701 | 260 | unfair | [`chains`] |
//! | xy-chain | 0702 | 260 | unfair | [`chains`] |
//! | continuous nice loop | 0706 | 280 | unfair | [`nice_loops`] |
//! | discontinuous nice loop | 0707 | 280 | unfair | [`nice_loops`] |
//! | aic | 0708 | 280 | unfair | [`nice_loops`] |
//! | grouped continuous nice loop | 0709 | 300 | unfair | [`nice_loops`] |
//! | grouped discontinuous nice loop | 0710 | 300 | unfair | [`nice_loops`] |
//! | grouped aic | 0711 | 300 | unfair | [`nice_loops`] |
//! | als-xz | 0901 | 300 | unfair | [`als`] |
//! | als-xy-wing | 0902 | 320 | unfair | [`als`] |
//! | als chain | 0903 | 340 | unfair | [`als`] |
//! | death blossom | 0904 | 360 | unfair | [`als`] |
//! | franken x-wing | 0330 | 300 | unfair | [`general_fish`] |
//! | franken swordfish | 0331 | 350 | unfair | [`general_fish`] |
//! | franken jellyfish (off) | 0332 | 370 | unfair | [`general_fish`] |
//! | finned franken x-wing | 0340 | 390 | unfair | [`general_fish`] |
//! | finned franken swordfish | 0341 | 410 | unfair | [`general_fish`] |
//! | siamese finned franken swordfish (off) | 03411 | 410 | unfair | [`general_fish`] |
//! | finned franken jellyfish (off) | 0342 | 430 | unfair | [`general_fish`] |
//! | siamese finned franken jellyfish (off) | 03421 | 430 | unfair | [`general_fish`] |
//! | finned mutant jellyfish (off) | 0362 | 470 | extreme | [`general_fish`] |
//! | siamese finned mutant jellyfish (off) | 03621 | 470 | extreme | [`general_fish`] |
//! | finned mutant squirmbag (off) | 0363 | 470 | extreme | [`general_fish`] |
//! | finned mutant whale (off) | 0364 | 470 | extreme | [`general_fish`] |
//! | forcing chain (singles) | - | 500 | extreme | [`last_resort`] |
//! | template set (off) | 1201 | 10000 | extreme | [`templates`] |
//! | template delete (off) | 1202 | 10000 | extreme | [`templates`] |
//! | guess (the engine's digit) | - | 10000 | extreme | [`last_resort`] |
//!
//! The rating ([`Rating`], [`Level`]) sums the scores of the steps; see
//! [`rating`] for the level thresholds. Cells are named `r3c5` (row, column,
//! from 1), units `row 3`, `column 5`, `box 2`; digits above 9 are written as
//! numbers (`r12c10 = 16`), as the pretty and grid formats write them.

pub mod als;
mod board_text;
pub mod candidates;
pub mod chains;
pub mod coloring;
pub mod fish;
mod fruitless;
pub mod general_fish;
pub mod generate;
pub mod intersections;
pub mod last_resort;
mod links;
mod mistakes;
pub mod nice_loops;
pub mod rating;
pub mod single_digit;
pub mod singles;
pub mod solve;
pub mod step;
pub mod subsets;
pub mod sue_de_coq;
pub mod templates;
pub mod uniqueness;
pub mod wings;

pub use candidates::{DigitSet, PencilMarkError, PencilMarks};
pub use mistakes::{Mistake, mistakes};
pub use rating::{Level, Rating, UnknownLevel};
pub use solve::{HumanError, HumanSolver, Solution};
pub use step::{Candidate, Step, Technique};

use std::cell::Cell;
use std::time::Instant;

use crate::grid::Grid;
use crate::model::EngineError;

/// Where a technique's search puts what it finds.
pub(crate) struct Collector<'a> {
    pub(crate) marks: &'a PencilMarks,
    pub(crate) steps: Vec<Step>,
    first_only: bool,
    /// When the solver's time runs out: every search polls it through
    /// [`Collector::done`] (and the slowest, between their units of work,
    /// through [`Collector::out_of_time`]), stops there, and the solver says so.
    deadline: Option<Instant>,
    /// The per-digit searches of earlier steps that found nothing (a solve's
    /// memory; none for a lone search).
    fruitless: Option<&'a mut fruitless::Fruitless>,
    /// Polls since the clock was last read.
    polls: Cell<u32>,
    /// Whether the deadline was seen to pass.
    expired: Cell<bool>,
}

/// How many polls of the deadline read the clock once (a read costs about
/// 20 ns; a poll, one unit of a search's work).
const POLLS_PER_READ: u32 = 16;

impl Collector<'_> {
    pub(crate) fn push(&mut self, step: Step) {
        if step.makes_progress() {
            self.steps.push(step);
        }
    }

    /// Whether the search can stop: only the first instance is wanted and it
    /// was found, or the solver's time limit has run out.
    pub(crate) fn done(&self) -> bool {
        (self.first_only && !self.steps.is_empty()) || self.out_of_time()
    }

    /// Whether the solver's time limit has run out (the search then stops
    /// with what it found). The clock is read every [`POLLS_PER_READ`]
    /// polls, and at the first.
    pub(crate) fn out_of_time(&self) -> bool {
        if self.deadline.is_none() || self.expired.get() {
            return self.expired.get();
        }
        let polls = self.polls.get();
        self.polls.set(polls.wrapping_add(1));
        if polls % POLLS_PER_READ == 0 && past(self.deadline) {
            self.expired.set(true);
        }
        self.expired.get()
    }

    /// Whether `technique`'s search of `digit` found nothing on the digit's
    /// candidates as they are now (so it would find nothing again). Only
    /// when the first instance is wanted: a search for every instance may
    /// carry what it found on one digit over to the next.
    pub(crate) fn fruitless(&self, technique: Technique, digit: u8) -> bool {
        self.first_only && self.fruitless.as_ref().is_some_and(|memory| memory.knows(technique, self.marks, digit))
    }

    /// Notes that `technique`'s search of `digit`, which pushed no step since
    /// `steps_before` (the number of steps then), found nothing: unless the
    /// search was cut short by the deadline.
    pub(crate) fn searched(&mut self, technique: Technique, digit: u8, steps_before: usize) {
        if !self.first_only || self.steps.len() != steps_before || self.out_of_time() {
            return;
        }
        if let Some(memory) = self.fruitless.as_mut() {
            memory.remember(technique, self.marks, digit);
        }
    }
}

/// Whether `deadline` has passed (never without one).
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|deadline| Instant::now() >= deadline)
}

fn search(
    technique: Technique,
    marks: &PencilMarks,
    first_only: bool,
    deadline: Option<Instant>,
    fruitless: Option<&mut fruitless::Fruitless>,
) -> Vec<Step> {
    let mut found = Collector {
        marks,
        steps: Vec::new(),
        first_only,
        deadline,
        fruitless,
        polls: Cell::new(0),
        expired: Cell::new(false),
    };
    let c = &mut found;
    match technique {
        Technique::FullHouse => singles::full_house(c),
        Technique::NakedSingle => singles::naked_single(c),
        Technique::HiddenSingle => singles::hidden_single(c),
        Technique::LockedPair => intersections::locked_subset(c, 2),
        Technique::LockedTriple => intersections::locked_subset(c, 3),
        Technique::Pointing => intersections::pointing(c),
        Technique::Claiming => intersections::claiming(c),
        Technique::NakedPair => subsets::naked_subset(c, 2),
        Technique::NakedTriple => subsets::naked_subset(c, 3),
        Technique::NakedQuad => subsets::naked_subset(c, 4),
        Technique::HiddenPair => subsets::hidden_subset(c, 2),
        Technique::HiddenTriple => subsets::hidden_subset(c, 3),
        Technique::HiddenQuad => subsets::hidden_subset(c, 4),
        Technique::XWing => fish::fish(c, 2, fish::Kind::Basic),
        Technique::Swordfish => fish::fish(c, 3, fish::Kind::Basic),
        Technique::Jellyfish => fish::fish(c, 4, fish::Kind::Basic),
        Technique::FinnedXWing => fish::fish(c, 2, fish::Kind::Finned),
        Technique::FinnedSwordfish => fish::fish(c, 3, fish::Kind::Finned),
        Technique::FinnedJellyfish => fish::fish(c, 4, fish::Kind::Finned),
        Technique::SashimiXWing => fish::fish(c, 2, fish::Kind::Sashimi),
        Technique::SashimiSwordfish => fish::fish(c, 3, fish::Kind::Sashimi),
        Technique::SashimiJellyfish => fish::fish(c, 4, fish::Kind::Sashimi),
        Technique::UniqueRectangle1 => uniqueness::unique_rectangle(c, 1),
        Technique::UniqueRectangle2 => uniqueness::unique_rectangle(c, 2),
        Technique::UniqueRectangle4 => uniqueness::unique_rectangle(c, 4),
        Technique::UniqueRectangle3
        | Technique::UniqueRectangle5
        | Technique::UniqueRectangle6
        | Technique::HiddenRectangle => uniqueness::rectangle_family(c, technique),
        Technique::AvoidableRectangle1 | Technique::AvoidableRectangle2 => {
            uniqueness::avoidable_rectangle(c, technique)
        }
        Technique::BugPlusOne => uniqueness::bug_plus_one(c),
        Technique::TurbotFish => single_digit::turbot_fish(c),
        Technique::EmptyRectangle => single_digit::empty_rectangle(c),
        Technique::Skyscraper => single_digit::skyscraper(c),
        Technique::TwoStringKite => single_digit::two_string_kite(c),
        Technique::DualTwoStringKite | Technique::DualEmptyRectangle => single_digit::dual(c, technique),
        Technique::RemotePair => chains::remote_pair(c),
        Technique::XChain => chains::x_chain(c),
        Technique::XyChain => chains::xy_chain(c),
        Technique::WWing => wings::w_wing(c),
        Technique::XyWing => wings::xy_wing(c),
        Technique::XyzWing => wings::xyz_wing(c),
        Technique::SimpleColorsTrap => coloring::simple_colors(c, false),
        Technique::SimpleColorsWrap => coloring::simple_colors(c, true),
        Technique::MultiColors1 => coloring::multi_colors(c, false),
        Technique::MultiColors2 => coloring::multi_colors(c, true),
        Technique::ContinuousNiceLoop => nice_loops::nice_loops(c, nice_loops::Kind::Continuous, false),
        Technique::DiscontinuousNiceLoop => nice_loops::nice_loops(c, nice_loops::Kind::Discontinuous, false),
        Technique::Aic => nice_loops::nice_loops(c, nice_loops::Kind::Aic, false),
        Technique::GroupedContinuousNiceLoop => nice_loops::nice_loops(c, nice_loops::Kind::Continuous, true),
        Technique::GroupedDiscontinuousNiceLoop => nice_loops::nice_loops(c, nice_loops::Kind::Discontinuous, true),
        Technique::GroupedAic => nice_loops::nice_loops(c, nice_loops::Kind::Aic, true),
        Technique::SueDeCoq => sue_de_coq::sue_de_coq(c),
        Technique::AlsXz => als::als_xz(c),
        Technique::AlsXyWing => als::als_xy_wing(c),
        Technique::AlsChain => als::als_chain(c),
        Technique::DeathBlossom => als::death_blossom(c),
        Technique::FrankenXWing
        | Technique::FrankenSwordfish
        | Technique::FrankenJellyfish
        | Technique::FinnedFrankenXWing
        | Technique::FinnedFrankenSwordfish
        | Technique::FinnedFrankenJellyfish
        | Technique::FinnedMutantJellyfish
        | Technique::FinnedMutantSquirmbag
        | Technique::FinnedMutantWhale => general_fish::generalised_fish(c, technique),
        Technique::SiameseFinnedSwordfish
        | Technique::SiameseSashimiSwordfish
        | Technique::SiameseFinnedJellyfish
        | Technique::SiameseSashimiJellyfish
        | Technique::SiameseFinnedFrankenSwordfish
        | Technique::SiameseFinnedFrankenJellyfish
        | Technique::SiameseFinnedMutantJellyfish => general_fish::siamese_fish(c, technique),
        Technique::TemplateSet => templates::templates(c, false),
        Technique::TemplateDelete => templates::templates(c, true),
        Technique::ForcingChain => last_resort::forcing_chain(c),
        // A guess needs the engine's solution: see `HumanSolver`.
        Technique::Guess => {}
    }
    found.steps
}

/// Every instance of a technique on a board that makes progress (for a guess:
/// none; it needs the engine, see [`HumanSolver`]).
pub fn find_all(technique: Technique, marks: &PencilMarks) -> Vec<Step> {
    search(technique, marks, false, None, None)
}

/// The first instance of a technique on a board that makes progress.
pub fn find_first(technique: Technique, marks: &PencilMarks) -> Option<Step> {
    search(technique, marks, true, None, None).into_iter().next()
}

/// The full human-style solution of a puzzle, with every technique and the
/// last resorts.
pub fn explain(puzzle: &Grid) -> Result<Solution, HumanError> {
    HumanSolver::new().solve(puzzle)
}

/// The next step on a board of pencil marks (`None` when it is solved).
pub fn hint(marks: &PencilMarks) -> Result<Option<Step>, HumanError> {
    HumanSolver::new().next_step(marks)
}

/// The engine's solution of a board, keeping its placed digits and
/// candidates (`None` when it has none: a placed digit or a removed candidate
/// is wrong, or the puzzle itself has no solution).
pub fn board_solution(marks: &PencilMarks) -> Result<Option<Grid>, EngineError> {
    Ok(match last_resort::engine_solution(marks, None)? {
        last_resort::EngineAnswer::Solution(grid) => Some(grid),
        // Without a deadline the engine does not stop early.
        last_resort::EngineAnswer::NoSolution | last_resort::EngineAnswer::OutOfTime => None,
    })
}

/// The rating of a puzzle: its human-style solution's score and level.
pub fn rate(puzzle: &Grid) -> Result<Rating, HumanError> {
    Ok(explain(puzzle)?.rating())
}
