//! The constraint of random binary CSPs: a list of forbidden value pairs.

use crate::constraint::Constraint;
use crate::domain::Domain;
use crate::ids::VarId;
use crate::rng::Rng;

/// A binary constraint over two variables with domains `0..values` that
/// forbids the listed value pairs. It has no propagator of its own: it is
/// propagated by generic support checking, so that constraint checks are
/// counted the way the classic experiments count them.
#[derive(Clone, Debug)]
pub struct ForbiddenPairs {
    scope: [VarId; 2],
    values: usize,
    /// Bit `a * values + b` set when `(a, b)` is forbidden.
    forbidden: Vec<u64>,
}

impl ForbiddenPairs {
    /// The constraint on `scope` (domains `0..values`) that forbids the value
    /// pairs `cells`, each written `a * values + b`.
    pub(super) fn new(scope: [VarId; 2], values: usize, cells: &[usize]) -> ForbiddenPairs {
        let mut forbidden = vec![0u64; (values * values).div_ceil(64)];
        for &cell in cells {
            forbidden[cell / 64] |= 1u64 << (cell % 64);
        }
        ForbiddenPairs { scope, values, forbidden }
    }

    /// The number of forbidden pairs.
    pub fn forbidden_count(&self) -> usize {
        self.forbidden.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether `(a, b)` is forbidden.
    pub fn forbids(&self, a: i64, b: i64) -> bool {
        let d = self.values as i64;
        if !(0..d).contains(&a) || !(0..d).contains(&b) {
            return false;
        }
        let cell = (a * d + b) as usize;
        self.forbidden[cell / 64] & (1u64 << (cell % 64)) != 0
    }

    /// The domain both variables are meant to have.
    pub fn domain(&self) -> Domain {
        Domain::range(0, self.values as i64 - 1)
    }
}

impl Constraint for ForbiddenPairs {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        !self.forbids(values[0], values[1])
    }

    fn kind(&self) -> &str {
        "forbidden_pairs"
    }
}

/// Draws sets of distinct value pairs (cells `a * d + b` of a `d x d`
/// matrix) uniformly, one set per constraint, by partial Fisher-Yates
/// shuffles of one array kept between draws (so the draws, and every
/// published model-B instance, depend only on the seed).
#[derive(Clone, Debug)]
pub(super) struct CellDraw {
    cells: Vec<usize>,
}

impl CellDraw {
    /// A drawer over the cells `0..count`.
    pub(super) fn new(count: usize) -> CellDraw {
        CellDraw { cells: (0..count).collect() }
    }

    /// A drawer over the given cells.
    pub(super) fn from_cells(cells: Vec<usize>) -> CellDraw {
        CellDraw { cells }
    }

    /// `count` distinct cells, uniformly (`count` at most the number of cells).
    pub(super) fn draw(&mut self, rng: &mut Rng, count: usize) -> &[usize] {
        let total = self.cells.len();
        for k in 0..count {
            let pick = k + rng.below((total - k) as u64) as usize;
            self.cells.swap(k, pick);
        }
        &self.cells[..count]
    }
}
