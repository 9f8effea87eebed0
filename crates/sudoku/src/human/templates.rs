//! Templates: every way a digit can still fill the board.
//!
//! After HoDoKu ("Templates") and sudokuwiki ("Pattern Overlay Method"). A
//! template of a digit is a placement of it once in every row, column and
//! box that keeps its placed cells and uses only its candidates. The digit's
//! solution is one of its templates: a candidate in no template is false
//! (template delete), a cell in every template holds the digit (template
//! set). As in HoDoKu, the templates are first refined: a template of one
//! digit that takes a cell which every template of another digit needs is
//! impossible, and removing it can make further cells certain, until nothing
//! changes.
//!
//! A digit's templates are enumerated row by row; where there are more than
//! [`MAX_TEMPLATES`] of them (an open 16x16 board has astronomically many;
//! a 9x9 has at most 46,656), that digit is left out: it gives no step and
//! no cell it needs for the refinement, which stays sound.

use super::Collector;
use super::candidates::positions;
use super::step::{Candidate, Step, Technique};

/// The most templates enumerated for one digit.
pub const MAX_TEMPLATES: usize = 50_000;

/// One digit's templates, each `words` words of cell bits, one after another.
struct Templates {
    words: usize,
    all: Vec<u64>,
}

impl Templates {
    fn len(&self) -> usize {
        self.all.len() / self.words.max(1)
    }

    fn get(&self, i: usize) -> &[u64] {
        &self.all[i * self.words..(i + 1) * self.words]
    }
}

/// The templates of `digit`, or `None` past [`MAX_TEMPLATES`].
fn templates_of(marks: &super::PencilMarks, digit: u8) -> Option<Templates> {
    let n = marks.side();
    let geometry = marks.geometry();
    let words = (n * n).div_ceil(64);
    // For each row: the columns the digit may take (its placed cell alone
    // when it is placed there).
    let mut options = vec![0u64; n];
    for (r, option) in options.iter_mut().enumerate() {
        for c in 0..n {
            let cell = r * n + c;
            if marks.value(cell) == digit {
                *option = 1 << c;
                break;
            }
            if marks.has(cell, digit) {
                *option |= 1 << c;
            }
        }
    }
    let mut out = Templates { words, all: Vec::new() };
    let mut current = vec![0u64; words];
    let mut boxes_used = 0u64;
    let ok = enumerate(geometry, n, &options, 0, 0, &mut boxes_used, &mut current, &mut out);
    ok.then_some(out)
}

/// Depth first over the rows; returns false when there are too many.
#[expect(clippy::too_many_arguments, reason = "the state of one enumeration")]
fn enumerate(
    geometry: &super::candidates::Geometry,
    n: usize,
    options: &[u64],
    row: usize,
    cols_used: u64,
    boxes_used: &mut u64,
    current: &mut [u64],
    out: &mut Templates,
) -> bool {
    if row == n {
        if out.len() >= MAX_TEMPLATES {
            return false;
        }
        out.all.extend_from_slice(current);
        return true;
    }
    for c in positions(options[row] & !cols_used) {
        let cell = row * n + c;
        let b = geometry.box_of(cell);
        if *boxes_used >> b & 1 != 0 {
            continue;
        }
        *boxes_used |= 1 << b;
        current[cell / 64] |= 1 << (cell % 64);
        let ok = enumerate(geometry, n, options, row + 1, cols_used | 1 << c, boxes_used, current, out);
        current[cell / 64] &= !(1 << (cell % 64));
        *boxes_used &= !(1 << b);
        if !ok {
            return false;
        }
    }
    true
}

/// For each digit (index `digit - 1`): the cells in every one of its refined
/// templates and the cells in some, or `None` for a digit left out.
fn refined(marks: &super::PencilMarks) -> Vec<Option<(Vec<u64>, Vec<u64>)>> {
    let n = marks.side();
    let words = (n * n).div_ceil(64);
    let mut lists: Vec<Option<(Templates, Vec<bool>)>> = (1..=n as u8)
        .map(|d| {
            templates_of(marks, d).map(|t| {
                let alive = vec![true; t.len()];
                (t, alive)
            })
        })
        .collect();
    let summarise = |list: &Option<(Templates, Vec<bool>)>| -> Option<(Vec<u64>, Vec<u64>)> {
        let (t, alive) = list.as_ref()?;
        // A digit without a template is on a broken board: no step from it.
        if !alive.contains(&true) {
            return None;
        }
        let (mut every, mut some) = (vec![u64::MAX; words], vec![0u64; words]);
        for i in (0..t.len()).filter(|&i| alive[i]) {
            for (w, &bits) in t.get(i).iter().enumerate() {
                every[w] &= bits;
                some[w] |= bits;
            }
        }
        Some((every, some))
    };
    let mut sums: Vec<Option<(Vec<u64>, Vec<u64>)>> = lists.iter().map(summarise).collect();
    loop {
        let mut removed = false;
        for d in 0..n {
            let Some((t, alive)) = lists[d].as_mut() else { continue };
            for (i, live) in alive.iter_mut().enumerate() {
                if !*live {
                    continue;
                }
                let template = t.get(i);
                let clash = sums.iter().enumerate().any(|(k, sum)| {
                    k != d && sum.as_ref().is_some_and(|(every, _)| every.iter().zip(template).any(|(a, b)| a & b != 0))
                });
                if clash {
                    *live = false;
                    removed = true;
                }
            }
            sums[d] = summarise(&lists[d]);
        }
        if !removed {
            break;
        }
    }
    sums
}

/// Template set (`delete` false) or template delete (`delete` true): one
/// step per digit.
pub(crate) fn templates(found: &mut Collector<'_>, delete: bool) {
    let marks = found.marks;
    let n = marks.side();
    let technique = if delete { Technique::TemplateDelete } else { Technique::TemplateSet };
    for (d, sum) in refined(marks).into_iter().enumerate() {
        let Some((every, some)) = sum else { continue };
        let digit = d as u8 + 1;
        let has = |bits: &[u64], cell: usize| bits[cell / 64] >> (cell % 64) & 1 != 0;
        let mut step = Step::new(technique, marks.shape()).digits(vec![digit]);
        let reason;
        if delete {
            let gone: Vec<Candidate> = (0..n * n)
                .filter(|&cell| marks.has(cell, digit) && !has(&some, cell))
                .map(|cell| Candidate::new(cell, digit))
                .collect();
            reason = format!("no way to place the {digit}s once in every row, column and box uses these cells");
            step = step.eliminating(gone);
        } else {
            let cells: Vec<usize> = (0..n * n).filter(|&cell| marks.value(cell) == 0 && has(&every, cell)).collect();
            reason = format!("every way to place the {digit}s once in every row, column and box uses these cells");
            for &cell in &cells {
                step = step.place(cell, digit);
            }
            step = step.cells(cells);
        }
        found.push(step.reason(reason));
        if found.done() {
            return;
        }
    }
}
