//! The terminal, for boards drawn for people (`hint --board`, `trace
//! --animate`): whether a frame fits, how it is drawn, and the colours.
//!
//! Whether to colour and whether a frame may be redrawn in place is the one
//! decision of every tool, [`app::Terminal`] (`--color`, `NO_COLOR`,
//! `TERM=dumb`): escapes go only where they work, and anything else (a file,
//! a pipe) gets plain text, one frame after the other.

use anyhow::bail;

use super::Io;
use crate::app::{self, ColorChoice};

/// What the standard output can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Screen {
    /// Colour escapes are wanted.
    pub(super) color: bool,
    /// A terminal that moves its cursor: an animation redraws in place, with
    /// delays between frames (otherwise frames follow each other at once).
    pub(super) redraw: bool,
    /// The terminal's rows and columns, when known.
    pub(super) size: Option<(usize, usize)>,
}

impl Screen {
    /// The screen of `io`'s stdout under `--color choice` and the environment.
    pub(super) fn detect(io: &Io<'_>, choice: ColorChoice) -> Screen {
        let terminal = io.stdout_is_terminal;
        let size = if terminal {
            console::Term::stdout().size_checked().map(|(rows, cols)| (usize::from(rows), usize::from(cols)))
        } else {
            None
        };
        let environment = app::Terminal::from_env();
        Screen { color: environment.color(terminal, choice), redraw: environment.redraw(terminal), size }
    }

    /// An error when a frame of `rows` lines of at most `cols` characters
    /// does not fit the terminal that redraws it.
    pub(super) fn check_fits(&self, rows: usize, cols: usize, what: &str) -> anyhow::Result<()> {
        if let (true, Some((height, width))) = (self.redraw, self.size) {
            if rows > height || cols > width {
                bail!(
                    "{what} needs a terminal of at least {cols} columns and {rows} rows, and this one has {width} \
                     columns and {height} rows: enlarge it (or make the font smaller), or leave out --animate for \
                     the text"
                );
            }
        }
        Ok(())
    }

    /// `body` (lines ending in `\n`) as a frame: on a redrawing terminal from
    /// the top-left corner, every line cleared to its end and the rest of the
    /// screen below (the first frame clears the screen); otherwise the lines
    /// as they are, then a blank line.
    pub(super) fn frame(&self, body: &str, first: bool) -> String {
        let mut out = String::with_capacity(body.len() + 64);
        if self.redraw {
            if first {
                out.push_str(CLEAR_SCREEN);
            }
            out.push_str(HOME);
            for line in body.lines() {
                out.push_str(line);
                out.push_str(CLEAR_LINE);
                out.push('\n');
            }
            out.push_str(CLEAR_BELOW);
        } else {
            out.push_str(body);
            out.push('\n');
        }
        out
    }

    /// `(before, after)` for text in `style`, or nothing without colours.
    pub(super) fn paint(&self, style: &'static str) -> (&'static str, &'static str) {
        if self.color && !style.is_empty() { (style, RESET) } else { ("", "") }
    }
}

/// The cursor to the top-left corner.
const HOME: &str = "\x1b[H";
/// Clears the whole screen.
const CLEAR_SCREEN: &str = "\x1b[2J";
/// Clears from the cursor to the end of its line (what a shorter status line
/// would otherwise leave of the longer one before it).
const CLEAR_LINE: &str = "\x1b[K";
/// Clears from the cursor to the end of the screen.
const CLEAR_BELOW: &str = "\x1b[J";
/// Back to plain text.
pub(super) const RESET: &str = "\x1b[0m";
/// A decision, a placed digit: bold black on green.
pub(super) const GREEN: &str = "\x1b[1;30;42m";
/// An undone decision, a removed candidate: bold white on red.
pub(super) const RED: &str = "\x1b[1;37;41m";
/// A given: bold.
pub(super) const BOLD: &str = "\x1b[1m";
/// A digit found by propagation; the candidates of a pattern: cyan.
pub(super) const CYAN: &str = "\x1b[1;36m";

/// `text` wrapped at spaces into lines of at most `width` characters (a
/// longer word stays whole), each line after the first indented by `indent`
/// (which does not count in `width`).
pub(super) fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    // The characters of text on the current line, the indent left out.
    let mut line = 0;
    for word in text.split(' ') {
        let length = word.chars().count();
        if line > 0 && line + 1 + length > width {
            out.push('\n');
            out.push_str(indent);
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += length;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of characters of `text` once its escapes are left out.
    fn visible_width(text: &str) -> usize {
        let mut width = 0;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                // An SGR or cursor escape: `ESC [` parameters, then a letter.
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                width += 1;
            }
        }
        width
    }

    #[test]
    fn frames_redraw_in_place_only_on_a_terminal() {
        let plain = Screen { color: false, redraw: false, size: None };
        assert_eq!(plain.frame("a\nbb\n", true), "a\nbb\n\n");
        let terminal = Screen { color: true, redraw: true, size: Some((24, 80)) };
        let drawn = terminal.frame("a\nbb\n", false);
        assert_eq!(drawn, "\x1b[Ha\x1b[K\nbb\x1b[K\n\x1b[J");
        assert!(terminal.frame("a\n", true).starts_with("\x1b[2J\x1b[H"));
        assert_eq!(visible_width(&drawn), 5);
    }

    #[test]
    fn a_frame_too_large_is_refused_with_what_it_needs() {
        let terminal = Screen { color: false, redraw: true, size: Some((24, 80)) };
        assert!(terminal.check_fits(24, 80, "the board").is_ok());
        let err = terminal.check_fits(31, 77, "a 25x25 board").unwrap_err().to_string();
        assert!(err.starts_with("a 25x25 board needs a terminal of at least 77 columns and 31 rows, and this one has 80 columns and 24 rows"), "{err}");
        // Frames that follow each other in a file or a pipe may be of any size.
        assert!(Screen { redraw: false, ..terminal }.check_fits(1000, 1000, "x").is_ok());
        assert_eq!(Screen { color: false, ..terminal }.paint(RED), ("", ""));
    }

    #[test]
    fn long_texts_wrap_at_spaces() {
        assert_eq!(wrap("one two three four", 9, "  "), "one two\n  three\n  four");
        assert_eq!(wrap("short", 80, ""), "short");
        assert_eq!(wrap("aaa bbb ccc ddd", 7, "    "), "aaa bbb\n    ccc ddd", "the indent does not count");
    }
}
