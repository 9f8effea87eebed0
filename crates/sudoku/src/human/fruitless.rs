//! A solve's memory of the per-digit searches that found nothing.
//!
//! Some searches read only one digit's candidates at a time: the fish
//! ([`super::fish`], [`super::general_fish`]), the single-digit patterns
//! ([`super::single_digit`]: skyscraper, 2-string kite, turbot fish, empty
//! rectangle), simple and multi-colors ([`super::coloring`]) and X-chains
//! ([`super::chains`]) search digit by digit, and what they find on a digit
//! depends on nothing but the cells that still have it.
//! When such a search finds nothing on a digit, it finds nothing again while
//! that digit's candidates stay the same; a step changes few digits, so the
//! solver's next pass over the techniques searches again only the digits a
//! step touched. The steps are the same: a digit is skipped only where its
//! search would find nothing, and the others are searched in the same order.

use std::collections::HashMap;

use super::PencilMarks;
use super::candidates::bit;
use super::step::Technique;

/// For each technique and digit, the digit's candidates when the technique's
/// search of the digit last found nothing.
#[derive(Debug, Default)]
pub(crate) struct Fruitless {
    /// A bit per cell, 64 cells a word.
    planes: HashMap<(Technique, u8), Vec<u64>>,
}

impl Fruitless {
    /// Whether `technique`'s search of `digit` found nothing on the digit's
    /// candidates as `marks` has them.
    pub(crate) fn knows(&self, technique: Technique, marks: &PencilMarks, digit: u8) -> bool {
        self.planes.get(&(technique, digit)).is_some_and(|plane| same_plane(plane, marks, digit))
    }

    /// Notes that `technique`'s search of `digit` found nothing on `marks`.
    pub(crate) fn remember(&mut self, technique: Technique, marks: &PencilMarks, digit: u8) {
        let plane = self.planes.entry((technique, digit)).or_default();
        plane.clear();
        let b = bit(digit);
        for chunk in marks.candidate_sets().chunks(64) {
            plane.push(chunk.iter().enumerate().fold(0, |w, (i, &set)| w | u64::from(set & b != 0) << i));
        }
    }
}

/// Whether `plane` holds exactly the cells of `marks` with `digit`.
fn same_plane(plane: &[u64], marks: &PencilMarks, digit: u8) -> bool {
    let b = bit(digit);
    let sets = marks.candidate_sets();
    plane.len() == sets.len().div_ceil(64)
        && sets.chunks(64).zip(plane).all(|(chunk, &word)| {
            chunk.iter().enumerate().fold(0, |w, (i, &set)| w | u64::from(set & b != 0) << i) == word
        })
}
