//! The character-level mutations the readers' robustness tests share
//! (included with `#[path]` by csp-sudoku's, csp-flatzinc's and csp-xcsp3's
//! tests): what editors, other systems and damaged files put in text.

use csp::rng::Rng;

/// One mutation of `text`, as `rng` chooses: a NUL or another control
/// character, a byte order mark (at the start or inside), a lone carriage
/// return, every line end made CRLF, a tab, a non-ASCII letter, a line of
/// 100,000 spaces, or the text cut inside the last character of a line.
pub(crate) fn mutate_characters(text: &str, rng: &mut Rng) -> String {
    let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
    let at = boundaries[rng.below(boundaries.len() as u64) as usize];
    let insert = |with: &str| format!("{}{with}{}", &text[..at], &text[at..]);
    match rng.below(9) {
        0 => insert("\0"),
        1 => insert(["\u{1}", "\u{7f}", "\u{1b}[0m", "\u{c}"][rng.below(4) as usize]),
        2 if rng.below(2) == 0 => format!("\u{feff}{text}"),
        2 => insert("\u{feff}"),
        3 => insert("\r"),
        4 => text.replace("\r\n", "\n").replace('\n', "\r\n"),
        5 => insert("\t"),
        6 => insert(["é", "☃", "\u{a0}", "\u{200b}"][rng.below(4) as usize]),
        7 => insert(&format!("\n{}\n", " ".repeat(100_000))),
        _ => text[..at].to_string(),
    }
}
