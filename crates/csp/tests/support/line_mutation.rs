//! The line mutations the readers' robustness tests share (included with
//! `#[path]` by csp-sudoku's and csp-xcsp3's tests): a line deleted,
//! duplicated, or one of the test's hostile lines inserted.

use csp::rng::Rng;

/// A number below `n` (0 when `n` is 0).
pub(crate) fn pick(rng: &mut Rng, n: usize) -> usize {
    rng.below(n.max(1) as u64) as usize
}

/// Deletes or duplicates a line of `lines`, or inserts one of `hostile`, as
/// `rng` chooses (an empty input always gets a hostile line).
pub(crate) fn mutate_a_line(lines: &mut Vec<String>, hostile: &[&str], rng: &mut Rng) {
    let at = pick(rng, lines.len());
    match rng.below(3) {
        0 if !lines.is_empty() => drop(lines.remove(at)),
        1 if !lines.is_empty() => lines.insert(at, lines[at].clone()),
        _ => lines.insert(pick(rng, lines.len() + 1), hostile[pick(rng, hostile.len())].to_string()),
    }
}
