//! Techniques and steps: what a person did, as data and as one line of text.

use std::borrow::Borrow;
use std::fmt;

use crate::grid::{Shape, Unit};

use super::PencilMarks;
use super::candidates::digits;
use super::rating::Level;

/// A digit in a cell: a placement or an eliminated candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The cell, row by row from 0.
    pub cell: usize,
    /// The digit, from 1.
    pub digit: u8,
}

impl Candidate {
    /// The digit `digit` in `cell`.
    pub fn new(cell: usize, digit: u8) -> Candidate {
        Candidate { cell, digit }
    }

    /// Every candidate of `cells`, cell by cell (a step's pattern).
    pub(crate) fn all_of(marks: &PencilMarks, cells: &[usize]) -> Vec<Candidate> {
        cells.iter().flat_map(|&c| digits(marks.candidates(c)).map(move |d| Candidate::new(c, d))).collect()
    }
}

macro_rules! techniques {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $code:literal, $score:literal, $level:ident; )*) => {
        /// A solving technique, easiest first in [`Technique::ALL`].
        ///
        /// Each has a name (as in HoDoKu and Andrew Stuart's sudokuwiki), the
        /// code of HoDoKu's regression library, a score and a level (see
        /// [`super::rating`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Technique {
            $( $(#[$doc])* $variant, )*
        }

        impl Technique {
            /// Every technique, in the order the solver tries them.
            pub const ALL: &'static [Technique] = &[ $( Technique::$variant, )* ];

            /// The technique's name, lowercase: `hidden single`.
            pub fn name(self) -> &'static str {
                match self { $( Technique::$variant => $name, )* }
            }

            /// The code of the technique in HoDoKu's regression library
            /// (`0002` hidden single); `None` for the last resort.
            pub fn hodoku_code(self) -> Option<&'static str> {
                let code = match self { $( Technique::$variant => $code, )* };
                (!code.is_empty()).then_some(code)
            }

            /// The score of one use (see [`super::rating`]).
            pub fn score(self) -> u32 {
                match self { $( Technique::$variant => $score, )* }
            }

            /// The level a puzzle reaches when it needs this technique.
            pub fn level(self) -> Level {
                match self { $( Technique::$variant => Level::$level, )* }
            }
        }
    };
}

techniques! {
    /// The last empty cell of a unit.
    FullHouse => "full house", "0000", 4, Easy;
    /// A cell with one candidate left.
    NakedSingle => "naked single", "0003", 4, Easy;
    /// A digit with one place left in a unit.
    HiddenSingle => "hidden single", "0002", 14, Easy;
    /// Two cells of a box and a line with the same two candidates.
    LockedPair => "locked pair", "0110", 40, Medium;
    /// Three cells of a box and a line with three candidates between them.
    LockedTriple => "locked triple", "0111", 60, Medium;
    /// Locked candidates type 1: a box's candidates of a digit all in one line.
    Pointing => "pointing", "0100", 50, Medium;
    /// Locked candidates type 2: a line's candidates of a digit all in one box.
    Claiming => "claiming", "0101", 50, Medium;
    /// Two cells of a unit with the same two candidates.
    NakedPair => "naked pair", "0200", 60, Medium;
    /// Three cells of a unit with three candidates between them.
    NakedTriple => "naked triple", "0201", 80, Medium;
    /// Two digits with the same two places in a unit.
    HiddenPair => "hidden pair", "0210", 70, Medium;
    /// Three digits with three places between them in a unit.
    HiddenTriple => "hidden triple", "0211", 100, Medium;
    /// Four cells of a unit with four candidates between them.
    NakedQuad => "naked quad", "0202", 120, Hard;
    /// Four digits with four places between them in a unit.
    HiddenQuad => "hidden quad", "0212", 150, Hard;
    /// A digit's candidates in two lines lie in two crossing lines.
    XWing => "x-wing", "0300", 140, Hard;
    /// Three lines, three crossing lines.
    Swordfish => "swordfish", "0301", 150, Hard;
    /// Four lines, four crossing lines.
    Jellyfish => "jellyfish", "0302", 160, Hard;
    /// A chain of bivalue cells with the same two digits.
    RemotePair => "remote pair", "0703", 110, Hard;
    /// All cells bivalue but one: the digit that appears three times in a
    /// unit of that cell goes there.
    BugPlusOne => "bug+1", "0610", 100, Medium;
    /// Two conjugate pairs of a digit in parallel lines sharing one end line.
    Skyscraper => "skyscraper", "0400", 130, Hard;
    /// A conjugate pair in a row and one in a column joined in a box.
    TwoStringKite => "2-string kite", "0401", 150, Hard;
    /// Two 2-string kites joined by the same two cells of a box, as one step
    /// (HoDoKu reports it only when asked for duals; the kite's score).
    DualTwoStringKite => "dual 2-string kite", "0404", 150, Hard;
    /// Two conjugate pairs of a digit joined by a weak link.
    TurbotFish => "turbot fish", "0403", 120, Hard;
    /// A box whose candidates of a digit lie in one row and one column,
    /// with a conjugate pair outside it.
    EmptyRectangle => "empty rectangle", "0402", 120, Hard;
    /// Two empty rectangles of one box and digit, as one step (HoDoKu reports
    /// it only when asked for duals; the empty rectangle's score).
    DualEmptyRectangle => "dual empty rectangle", "0405", 120, Hard;
    /// Two bivalue cells with the same digits joined by a strong link.
    WWing => "w-wing", "0803", 150, Hard;
    /// A bivalue pivot and two bivalue pincers.
    XyWing => "xy-wing", "0800", 160, Hard;
    /// A trivalue pivot and two bivalue pincers.
    XyzWing => "xyz-wing", "0801", 180, Hard;
    /// Uniqueness test type 1: three corners of a rectangle hold only the same
    /// two digits, so the fourth cannot be either.
    UniqueRectangle1 => "unique rectangle type 1", "0600", 100, Hard;
    /// Uniqueness test type 2: the two other corners hold the same one extra
    /// digit, which cells seeing both lose.
    UniqueRectangle2 => "unique rectangle type 2", "0601", 100, Hard;
    /// Uniqueness test type 3: the extra digits of two corners make a naked
    /// subset with other cells of a unit they share.
    UniqueRectangle3 => "unique rectangle type 3", "0602", 100, Hard;
    /// Uniqueness test type 4: one of the two digits is locked in the two
    /// other corners, which therefore lose the other digit.
    UniqueRectangle4 => "unique rectangle type 4", "0603", 100, Hard;
    /// Uniqueness test type 5: two diagonal or three corners hold the same
    /// one extra digit, which cells seeing all of them lose.
    UniqueRectangle5 => "unique rectangle type 5", "0604", 100, Hard;
    /// Uniqueness test type 6: a digit of the rectangle lies in its rows and
    /// columns only in its corners; the two diagonal corners with extra digits
    /// lose it.
    UniqueRectangle6 => "unique rectangle type 6", "0605", 100, Hard;
    /// A rectangle with one bivalue corner (or two, diagonal) where a digit is
    /// in the row and the column of the opposite corner only in the
    /// rectangle: that corner loses the other digit.
    HiddenRectangle => "hidden rectangle", "0606", 100, Hard;
    /// Three corners of a rectangle placed (not given) as a deadly pattern:
    /// the fourth loses the digit that would complete it.
    AvoidableRectangle1 => "avoidable rectangle type 1", "0607", 100, Hard;
    /// Two corners placed (not given), the two others holding the completing
    /// digit and the same extra digit, which cells seeing both lose.
    AvoidableRectangle2 => "avoidable rectangle type 2", "0608", 100, Hard;
    /// An X-wing with fins in one box.
    FinnedXWing => "finned x-wing", "0310", 130, Hard;
    /// A finned X-wing whose body lost a corner.
    SashimiXWing => "sashimi x-wing", "0320", 150, Hard;
    /// A swordfish with fins in one box.
    FinnedSwordfish => "finned swordfish", "0311", 200, Unfair;
    /// Two finned swordfish on the same base lines with different
    /// eliminations, one step (HoDoKu's Siamese fish; off by default there).
    SiameseFinnedSwordfish => "siamese finned swordfish", "03111", 200, Unfair;
    /// A finned swordfish with a line of one body candidate.
    SashimiSwordfish => "sashimi swordfish", "0321", 240, Unfair;
    /// Two swordfish on the same base lines, one of them sashimi.
    SiameseSashimiSwordfish => "siamese sashimi swordfish", "03211", 240, Unfair;
    /// A jellyfish with fins in one box.
    FinnedJellyfish => "finned jellyfish", "0312", 250, Unfair;
    /// Two finned jellyfish on the same base lines.
    SiameseFinnedJellyfish => "siamese finned jellyfish", "03121", 250, Unfair;
    /// A finned jellyfish with a line of one body candidate.
    SashimiJellyfish => "sashimi jellyfish", "0322", 260, Unfair;
    /// Two jellyfish on the same base lines, one of them sashimi.
    SiameseSashimiJellyfish => "siamese sashimi jellyfish", "03221", 260, Unfair;
    /// Two or three cells of a line and a box with a set of the line and a
    /// set of the box: every digit is locked in one of them (HoDoKu's name,
    /// code, score and level).
    SueDeCoq => "sue de coq", "1101", 250, Unfair;
    /// The conjugate pairs of a digit coloured in two colours.
    SimpleColorsTrap => "simple colors trap", "0500", 150, Hard;
    /// A colour that sees itself is false.
    SimpleColorsWrap => "simple colors wrap", "0501", 150, Hard;
    /// Two clusters of a digit's conjugate pairs: a colour of one sees a
    /// colour of the other, so cells seeing both other colours lose the digit.
    MultiColors1 => "multi-colors 1", "0502", 200, Hard;
    /// Two clusters of a digit's conjugate pairs: a colour of one sees both
    /// colours of the other, so it is false.
    MultiColors2 => "multi-colors 2", "0503", 200, Hard;
    /// An alternating chain of strong and weak links on one digit.
    XChain => "x-chain", "0701", 260, Unfair;
    /// A chain of bivalue cells.
    XyChain => "xy-chain", "0702", 260, Unfair;
    /// A loop of alternating strong and weak links: every weak link is
    /// strong too (HoDoKu's "Continuous Nice Loop", its score and level).
    ContinuousNiceLoop => "continuous nice loop", "0706", 280, Unfair;
    /// A loop back to its start cell that breaks the alternation there: the
    /// start candidate goes, or is set (HoDoKu's "Discontinuous Nice Loop").
    DiscontinuousNiceLoop => "discontinuous nice loop", "0707", 280, Unfair;
    /// An alternating inference chain: one of its two ends is true (HoDoKu's
    /// "AIC").
    Aic => "aic", "0708", 280, Unfair;
    /// A continuous nice loop through a group node (HoDoKu's "Grouped
    /// Continuous Nice Loop").
    GroupedContinuousNiceLoop => "grouped continuous nice loop", "0709", 300, Unfair;
    /// A discontinuous nice loop through a group node (HoDoKu's "Grouped
    /// Discontinuous Nice Loop").
    GroupedDiscontinuousNiceLoop => "grouped discontinuous nice loop", "0710", 300, Unfair;
    /// An AIC through a group node (HoDoKu's "Grouped AIC").
    GroupedAic => "grouped aic", "0711", 300, Unfair;
    /// Two almost locked sets joined by a restricted common (HoDoKu's name,
    /// code, score and level).
    AlsXz => "als-xz", "0901", 300, Unfair;
    /// Two almost locked sets joined to a pivot ALS by different restricted
    /// commons (HoDoKu's name, code, score and level).
    AlsXyWing => "als-xy-wing", "0902", 320, Unfair;
    /// A chain of almost locked sets joined by restricted commons (HoDoKu's
    /// name, code, score and level).
    AlsChain => "als chain", "0903", 340, Unfair;
    /// A stem cell with an almost locked set for each of its digits (HoDoKu's
    /// name, code, score and level; HoDoKu's solver leaves it off by default).
    DeathBlossom => "death blossom", "0904", 360, Unfair;
    /// Two units of rows and boxes whose candidates of a digit lie in two of
    /// columns and boxes (or the other way round).
    FrankenXWing => "franken x-wing", "0330", 300, Unfair;
    /// A Franken fish of three units.
    FrankenSwordfish => "franken swordfish", "0331", 350, Unfair;
    /// A Franken fish of four units (off by default in HoDoKu).
    FrankenJellyfish => "franken jellyfish", "0332", 370, Unfair;
    /// A Franken x-wing with fins.
    FinnedFrankenXWing => "finned franken x-wing", "0340", 390, Unfair;
    /// A Franken swordfish with fins.
    FinnedFrankenSwordfish => "finned franken swordfish", "0341", 410, Unfair;
    /// Two finned Franken swordfish on the same base units (off by default).
    SiameseFinnedFrankenSwordfish => "siamese finned franken swordfish", "03411", 410, Unfair;
    /// A Franken jellyfish with fins (off by default in HoDoKu).
    FinnedFrankenJellyfish => "finned franken jellyfish", "0342", 430, Unfair;
    /// Two finned Franken jellyfish on the same base units (off by default).
    SiameseFinnedFrankenJellyfish => "siamese finned franken jellyfish", "03421", 430, Unfair;
    /// A fish of four units of any kinds with fins (off by default in HoDoKu).
    FinnedMutantJellyfish => "finned mutant jellyfish", "0362", 470, Extreme;
    /// Two finned mutant jellyfish on the same base units (off by default).
    SiameseFinnedMutantJellyfish => "siamese finned mutant jellyfish", "03621", 470, Extreme;
    /// A finned mutant fish of five units (off by default in HoDoKu).
    FinnedMutantSquirmbag => "finned mutant squirmbag", "0363", 470, Extreme;
    /// A finned mutant fish of six units (off by default in HoDoKu).
    FinnedMutantWhale => "finned mutant whale", "0364", 470, Extreme;
    /// Assuming a candidate leads, by singles alone, to a contradiction.
    ForcingChain => "forcing chain", "", 500, Extreme;
    /// Cells every placement of a digit that fits the board uses hold it
    /// (off by default in HoDoKu).
    TemplateSet => "template set", "1201", 10000, Extreme;
    /// Candidates no placement of a digit that fits the board uses are false
    /// (off by default in HoDoKu).
    TemplateDelete => "template delete", "1202", 10000, Extreme;
    /// No technique applies: a digit of the engine's solution is placed.
    Guess => "guess", "", 10000, Extreme;
}

impl Technique {
    /// Whether the technique is only sound on puzzles with one solution (the
    /// unique, hidden and avoidable rectangles and BUG+1).
    pub fn assumes_uniqueness(self) -> bool {
        matches!(
            self,
            Technique::UniqueRectangle1
                | Technique::UniqueRectangle2
                | Technique::UniqueRectangle3
                | Technique::UniqueRectangle4
                | Technique::UniqueRectangle5
                | Technique::UniqueRectangle6
                | Technique::HiddenRectangle
                | Technique::AvoidableRectangle1
                | Technique::AvoidableRectangle2
                | Technique::BugPlusOne
        )
    }
}

impl Technique {
    /// Whether the solver tries the technique unless asked otherwise
    /// ([`super::HumanSolver::new`]): HoDoKu's default solving order leaves
    /// out the Siamese fish, Franken jellyfish, mutant fish and templates,
    /// which [`super::find_all`] and [`super::HumanSolver::with_techniques`]
    /// still reach.
    pub fn on_by_default(self) -> bool {
        !matches!(
            self,
            Technique::SiameseFinnedSwordfish
                | Technique::SiameseSashimiSwordfish
                | Technique::SiameseFinnedJellyfish
                | Technique::SiameseSashimiJellyfish
                | Technique::FrankenJellyfish
                | Technique::SiameseFinnedFrankenSwordfish
                | Technique::FinnedFrankenJellyfish
                | Technique::SiameseFinnedFrankenJellyfish
                | Technique::FinnedMutantJellyfish
                | Technique::SiameseFinnedMutantJellyfish
                | Technique::FinnedMutantSquirmbag
                | Technique::FinnedMutantWhale
                | Technique::TemplateSet
                | Technique::TemplateDelete
        )
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step of a human-style solution: the technique, what it placed or
/// removed, and the pattern that justifies it.
///
/// `Display` writes the one-line text, e.g. `hidden single: r3c5 = 7 (the
/// only 7 in box 2)`. The fields are plain data for other outputs (JSON lines,
/// highlighting): cells are indices row by row from 0 (see
/// [`crate::Shape::cell_name`]), digits count from 1, and digits above 9 are
/// written as numbers, as the pretty and grid formats write them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub(crate) technique: Technique,
    pub(crate) shape: Shape,
    pub(crate) placements: Vec<Candidate>,
    pub(crate) eliminations: Vec<Candidate>,
    pub(crate) units: Vec<Unit>,
    pub(crate) cells: Vec<usize>,
    pub(crate) pattern: Vec<Candidate>,
    pub(crate) digits: Vec<u8>,
    pub(crate) reason: String,
}

impl Step {
    pub(crate) fn new(technique: Technique, shape: Shape) -> Step {
        Step {
            technique,
            shape,
            placements: Vec::new(),
            eliminations: Vec::new(),
            units: Vec::new(),
            cells: Vec::new(),
            pattern: Vec::new(),
            digits: Vec::new(),
            reason: String::new(),
        }
    }

    pub(crate) fn place(mut self, cell: usize, digit: u8) -> Step {
        self.placements.push(Candidate::new(cell, digit));
        self
    }

    pub(crate) fn eliminating(mut self, mut eliminations: Vec<Candidate>) -> Step {
        eliminations.sort_unstable_by_key(|c| (c.digit, c.cell));
        eliminations.dedup();
        self.eliminations = eliminations;
        self
    }

    pub(crate) fn units(mut self, units: Vec<Unit>) -> Step {
        self.units = units;
        self
    }

    pub(crate) fn cells(mut self, cells: Vec<usize>) -> Step {
        self.cells = cells;
        self
    }

    pub(crate) fn pattern(mut self, pattern: Vec<Candidate>) -> Step {
        self.pattern = pattern;
        self
    }

    pub(crate) fn digits(mut self, digits: Vec<u8>) -> Step {
        self.digits = digits;
        self
    }

    pub(crate) fn reason(mut self, reason: String) -> Step {
        self.reason = reason;
        self
    }

    /// The technique.
    pub fn technique(&self) -> Technique {
        self.technique
    }

    /// The box shape of the board, for naming cells.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The digits placed (singles place one; the last resort may place one).
    pub fn placements(&self) -> &[Candidate] {
        &self.placements
    }

    /// The candidates removed, by digit then cell.
    pub fn eliminations(&self) -> &[Candidate] {
        &self.eliminations
    }

    /// The units the pattern lives in (base and cover sets of a fish, the
    /// unit of a single or a subset).
    pub fn units_involved(&self) -> &[Unit] {
        &self.units
    }

    /// The cells that make the pattern.
    pub fn pattern_cells(&self) -> &[usize] {
        &self.cells
    }

    /// The candidates that make the pattern (to highlight), e.g. the links of
    /// a chain in order, the fins of a fish after its body.
    pub fn pattern_candidates(&self) -> &[Candidate] {
        &self.pattern
    }

    /// The digits the pattern is about.
    pub fn digits_involved(&self) -> &[u8] {
        &self.digits
    }

    /// Why the step holds, in words (the part of the text in parentheses).
    pub fn reason_text(&self) -> &str {
        &self.reason
    }

    /// Whether the step changes the board.
    pub fn makes_progress(&self) -> bool {
        !self.placements.is_empty() || !self.eliminations.is_empty()
    }

    /// The name of a cell of this board.
    pub fn cell_name(&self, cell: usize) -> String {
        self.shape.cell_name(cell).to_string()
    }

    /// What the step does, e.g. `r3c5 = 7` or `r1c4, r1c6 <> 2; r2c2 <> 5`.
    pub fn effect_text(&self) -> String {
        let mut out = String::new();
        for (i, p) in self.placements.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("{} = {}", self.cell_name(p.cell), p.digit));
        }
        // Eliminations by digit; digits that leave the same cells are merged:
        // `r6c6, r6c9 <> 5, 7`.
        let mut groups: Vec<(Vec<usize>, Vec<u8>)> = Vec::new();
        let mut i = 0;
        while i < self.eliminations.len() {
            let digit = self.eliminations[i].digit;
            let mut cells = Vec::new();
            while i < self.eliminations.len() && self.eliminations[i].digit == digit {
                cells.push(self.eliminations[i].cell);
                i += 1;
            }
            match groups.iter_mut().find(|(c, _)| *c == cells) {
                Some((_, digits)) => digits.push(digit),
                None => groups.push((cells, vec![digit])),
            }
        }
        for (cells, digits) in groups {
            if !out.is_empty() {
                out.push_str("; ");
            }
            let names: Vec<String> = cells.iter().map(|&c| self.cell_name(c)).collect();
            let digits: Vec<String> = digits.iter().map(|d| d.to_string()).collect();
            out.push_str(&format!("{} <> {}", names.join(", "), digits.join(", ")));
        }
        out
    }
}

impl Step {
    /// Appends the step as one JSON object, without a newline (for a
    /// `--format jsonl` printer): see the [`serde::Serialize`] impl.
    ///
    /// ```
    /// use csp_sudoku::human::{self, PencilMarks};
    /// let puzzle = csp_sudoku::parse::one("1.42421321.43421").unwrap();
    /// let step = human::hint(&PencilMarks::from_givens(&puzzle).unwrap()).unwrap().unwrap();
    /// let mut json = String::new();
    /// step.write_json(&mut json);
    /// // r1c2 is the last empty cell of row 1.
    /// assert!(json.starts_with(r#"{"technique":"full house","code":"0000","placements":[{"cell":1,"name":"r1c2","digit":3}]"#));
    /// assert!(json.ends_with(r#""text":"full house: r1c2 = 3 (the last empty cell of box 1)"}"#));
    /// ```
    pub fn write_json(&self, out: &mut String) {
        // Plain data: serialising it to a string cannot fail.
        out.push_str(&serde_json::to_string(self).unwrap_or_default());
    }
}

/// One JSON object: `technique`, `code` (HoDoKu's, or null), `placements` and
/// `eliminations` (each `{"cell","name","digit"}`: the cell's index row by row
/// from 0, its name `r3c5`, the digit), `units` (`"box 2"`), `cells` (the
/// pattern's cell indices), `pattern` (candidates, as the eliminations),
/// `digits`, and `text` (the step's line); a tool can flatten it into records
/// of its own.
impl serde::Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(serde::Serialize)]
        struct JsonCandidate {
            cell: usize,
            name: String,
            digit: u8,
        }
        #[derive(serde::Serialize)]
        struct JsonStep<'a> {
            technique: &'a str,
            code: Option<&'a str>,
            placements: Vec<JsonCandidate>,
            eliminations: Vec<JsonCandidate>,
            units: Vec<String>,
            cells: &'a [usize],
            pattern: Vec<JsonCandidate>,
            digits: &'a [u8],
            text: String,
        }
        let list = |items: &[Candidate]| -> Vec<JsonCandidate> {
            items.iter().map(|c| JsonCandidate { cell: c.cell, name: self.cell_name(c.cell), digit: c.digit }).collect()
        };
        JsonStep {
            technique: self.technique.name(),
            code: self.technique.hodoku_code(),
            placements: list(&self.placements),
            eliminations: list(&self.eliminations),
            units: self.units.iter().map(|unit| unit.to_string()).collect(),
            cells: &self.cells,
            pattern: list(&self.pattern),
            digits: &self.digits,
            text: self.to_string(),
        }
        .serialize(serializer)
    }
}

/// `technique: effect (reason)`.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.technique, self.effect_text())?;
        if !self.reason.is_empty() {
            write!(f, " ({})", self.reason)?;
        }
        Ok(())
    }
}

/// Names a list of cells: `r1c2, r1c5 and r3c3`.
pub(crate) fn cell_list(shape: Shape, cells: &[usize]) -> String {
    let names: Vec<String> = cells.iter().map(|&c| shape.cell_name(c).to_string()).collect();
    and_list(&names)
}

/// `a`, `a and b`, `a, b and c`.
pub(crate) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Digits as `{2,5}`.
pub(crate) fn digit_set_text<D: Borrow<u8>>(digits: impl IntoIterator<Item = D>) -> String {
    let parts: Vec<String> = digits.into_iter().map(|d| d.borrow().to_string()).collect();
    format!("{{{}}}", parts.join(","))
}
