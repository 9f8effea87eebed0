//! Difficulty: a score per technique use, summed over a solution, and a level.
//!
//! The scheme is HoDoKu's (its default step configuration): every use of a
//! technique adds its score ([`Technique::score`]), and the puzzle's level is
//! the harder of the level its total reaches and the level of the hardest
//! technique it needed ([`Technique::level`]). HoDoKu's totals are for 9x9,
//! where a puzzle of singles alone scores a few hundred; on other sides the
//! level thresholds scale with the number of cells (`cells / 81`), so a 16x16
//! of singles is still easy.
//!
//! | level   | 9x9 total up to | also needs a technique of this level |
//! | ------- | --------------- | ------------------------------------ |
//! | easy    | 800             | singles |
//! | medium  | 1000            | locked candidates, locked pairs and triples, naked and hidden pairs and triples, BUG+1 |
//! | hard    | 1600            | quads, basic fish, remote pairs, skyscraper, 2-string kite, turbot fish, empty rectangle, wings, unique rectangles, finned and sashimi X-wing, simple colours |
//! | unfair  | 1800            | finned and sashimi swordfish and jellyfish, X-chains, XY-chains |
//! | extreme | more            | forcing chains, guesses |
//!
//! The score of each technique is in the table of [`super`]'s module docs.

use std::fmt;
use std::str::FromStr;

use super::step::Technique;
use crate::grid::Shape;

/// A difficulty level, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Singles only, and not too many of the harder ones.
    Easy,
    /// Intersections, pairs and triples.
    Medium,
    /// Quads, basic fish, the single-digit patterns, wings, colours.
    Hard,
    /// Finned fish beyond the X-wing, chains.
    Unfair,
    /// Trial and error.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [Level::Easy, Level::Medium, Level::Hard, Level::Unfair, Level::Extreme];

    /// The level's name, lowercase.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Unfair => "unfair",
            Level::Extreme => "extreme",
        }
    }

    /// The largest 9x9 total of this level (`None` for extreme: no limit).
    pub fn max_score_9x9(self) -> Option<u64> {
        match self {
            Level::Easy => Some(800),
            Level::Medium => Some(1000),
            Level::Hard => Some(1600),
            Level::Unfair => Some(1800),
            Level::Extreme => None,
        }
    }

    /// The largest total of this level for a shape: the 9x9 threshold scaled
    /// by `cells / 81`.
    pub fn max_score(self, shape: Shape) -> Option<u64> {
        self.max_score_9x9().map(|max| max * shape.num_cells() as u64 / 81)
    }

    /// The level a total reaches on a shape.
    pub fn of_score(score: u64, shape: Shape) -> Level {
        Level::ALL
            .into_iter()
            .find(|level| level.max_score(shape).is_none_or(|max| score <= max))
            .unwrap_or(Level::Extreme)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of the five.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown difficulty '{0}' (expected one of: easy, medium, hard, unfair, extreme)")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(text: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownLevel(text.to_string()))
    }
}

/// The rating of a solution: its total, its level, the hardest technique and
/// how often each technique was used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    /// The sum of the scores of every step.
    pub score: u64,
    /// The level (see the module docs).
    pub level: Level,
    /// The technique with the highest score among those used.
    pub hardest: Option<Technique>,
    /// How many steps each technique made, in [`Technique::ALL`] order, only
    /// those used.
    pub uses: Vec<(Technique, usize)>,
    /// The number of steps.
    pub steps: usize,
    /// Whether the steps solved the board.
    pub solved: bool,
}

impl Rating {
    /// Rates a list of steps on a shape.
    pub fn of_steps<'s>(shape: Shape, steps: impl IntoIterator<Item = &'s super::Step>, solved: bool) -> Rating {
        let mut counts = vec![0usize; Technique::ALL.len()];
        let mut score = 0u64;
        let mut total = 0;
        for step in steps {
            let t = step.technique();
            score += u64::from(t.score());
            total += 1;
            if let Some(i) = Technique::ALL.iter().position(|&x| x == t) {
                counts[i] += 1;
            }
        }
        let uses: Vec<(Technique, usize)> =
            Technique::ALL.iter().zip(&counts).filter(|&(_, &c)| c > 0).map(|(&t, &c)| (t, c)).collect();
        let hardest = uses.iter().map(|&(t, _)| t).max_by_key(|t| (t.score(), t.level()));
        let by_technique = uses.iter().map(|&(t, _)| t.level()).max().unwrap_or(Level::Easy);
        let level = Level::of_score(score, shape).max(by_technique);
        Rating { score, level, hardest, uses, steps: total, solved }
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (score {}", self.level, self.score)?;
        if let Some(hardest) = self.hardest {
            write!(f, ", hardest: {hardest}")?;
        }
        write!(f, ")")
    }
}
