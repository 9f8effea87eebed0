//! Comments and the box shapes they give: `#` starts a comment that runs to
//! the end of its line; `# box RxC` on a line of its own gives the shape of
//! the grids of side `R * C` that follow, after a puzzle the shape of that
//! puzzle; `--box` must agree with both.

use std::io::BufRead;

use super::{ParseError, ParseErrorKind, PuzzleReader, is_blank};
use crate::grid::Shape;

impl<R: BufRead> PuzzleReader<R> {
    /// Cuts the comment that starts at byte `hash` off the current line,
    /// keeping what a `# box` comment says: on a line of its own, the shape
    /// of the grids of its side from now on; after a puzzle, the shape of
    /// that puzzle. A JSON line keeps its `#`s, which may be inside strings.
    pub(super) fn strip_comment(&mut self, hash: usize) -> Result<(), ParseError> {
        let first = self.line.iter().position(|&b| !is_blank(b)).unwrap_or(hash);
        if self.line[first] == b'{' {
            return Ok(());
        }
        let shape = self.box_comment(hash)?;
        if first == hash {
            if let Some(shape) = shape {
                match self.declared.iter_mut().find(|(side, _)| *side == shape.side()) {
                    Some(entry) => entry.1 = shape,
                    None => self.declared.push((shape.side(), shape)),
                }
            }
        } else {
            self.line_shape = shape;
            self.line.truncate(hash);
        }
        Ok(())
    }

    /// The shape of a `# box RxC` comment starting at byte `hash` (`None` for
    /// any other comment; a comment `box` followed by numbers around an `x`
    /// that make no shape is an error).
    fn box_comment(&self, hash: usize) -> Result<Option<Shape>, ParseError> {
        let text = std::str::from_utf8(&self.line[hash + 1..]).unwrap_or_default();
        let mut words = text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|w| !w.is_empty());
        if !words.next().is_some_and(|word| word.eq_ignore_ascii_case("box")) {
            return Ok(None);
        }
        let Some(word) = words.next() else { return Ok(None) };
        let numbers = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        match word.split_once(['x', 'X']) {
            Some((rows, cols)) if numbers(rows) && numbers(cols) => match word.parse::<Shape>() {
                Ok(shape) => Ok(Some(shape)),
                Err(err) => Err(self.error(Some(self.column(hash)), err.into())),
            },
            _ => Ok(None),
        }
    }

    /// The shape for a puzzle of side `side`: the one its own line gives
    /// (`trailing`), else a `# box` line's for its side, else `--box`'s (which
    /// must agree with the input's), else the side's default.
    pub(super) fn shape_for(&self, side: usize, trailing: Option<Shape>) -> Result<Shape, ParseErrorKind> {
        let declared = trailing.or_else(|| self.declared.iter().find(|(s, _)| *s == side).map(|&(_, shape)| shape));
        match (self.shape, declared) {
            (Some(given), Some(declared)) => {
                let given = given.fit(side)?;
                if given != declared {
                    return Err(ParseErrorKind::ShapeConflict { declared, given });
                }
                Ok(given)
            }
            (Some(given), None) => Ok(given.fit(side)?),
            (None, Some(declared)) => Ok(declared.fit(side)?),
            (None, None) => Ok(Shape::for_side(side)?),
        }
    }
}
