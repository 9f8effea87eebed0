//! Quasigroups with holes (Achlioptas, Gomes, Kautz & Selman 2000): the
//! classic structured benchmark of satisfiable instances.
//!
//! A quasigroup of order `n` is a Latin square: an `n x n` grid of the
//! symbols `0..n` with each symbol once in every row and every column. The
//! generator draws a random Latin square with the Markov chain of Jacobson
//! & Matthews (1996), whose stationary distribution is uniform over all
//! Latin squares of the order, then punches `round(h n^2)` holes in cells
//! drawn uniformly. Completing the square (quasigroup completion, Gomes &
//! Selman 1997) is NP-complete, and since the hidden square completes it
//! every instance is satisfiable. The cost of completing it peaks near
//! `h = 0.42` for the orders studied (Achlioptas et al. 2000).
//!
//! The model has a variable per cell, row-major, named `c{row}_{column}`:
//! a given cell has its symbol as its only value, a hole the symbols `0..n`;
//! each row and each column is an `all_different`.
//!
//! With [`QuasigroupWithHoles::generate_balanced`] the holes are *balanced*
//! (Kautz, Ruan, Achlioptas, Gomes, Selman & Stickel 2001): every row and
//! every column has `floor(h n)` or `ceil(h n)` of them, the instances
//! those authors found much harder than with uniform holes. The pattern
//! starts as a circulant one (row `i` empties the cells `(i, i + j mod n)`,
//! `j < k`, with one more cell in the first `round(h n^2) - k n` rows),
//! its rows and columns are permuted at random, and `20 h n^2` switches
//! (two holes `(r1, c1)`, `(r2, c2)` move to `(r1, c2)`, `(r2, c1)` when
//! those are filled), the Markov chain whose stationary distribution is
//! uniform over the patterns with the same row and column counts, mix it;
//! as for the square, the budget is customary, not a proven mixing time.

use std::fmt;

use crate::ids::VarId;
use crate::model::Model;
use crate::rng::Rng;

use super::{RandomCspError, fraction};

/// The parameters of a quasigroup-with-holes instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuasigroupWithHoles {
    /// `n`, the order: the square is `n x n` over the symbols `0..n`.
    pub order: usize,
    /// `h`, the fraction of the cells emptied.
    pub holes: f64,
    /// The seed: equal parameters and seeds give equal instances.
    pub seed: u64,
}

/// The most cells of a square the generator builds (its incidence cube has `n^3` entries).
const MAX_ORDER: usize = 200;

/// Fails unless `order` is a square's order the generator builds (1 to
/// [`MAX_ORDER`]).
pub(super) fn check_order(order: usize) -> Result<(), RandomCspError> {
    if order == 0 || order > MAX_ORDER {
        return Err(RandomCspError::Invalid {
            what: "order",
            reason: format!("must be between 1 and {MAX_ORDER}, not {order}"),
        });
    }
    Ok(())
}

impl QuasigroupWithHoles {
    /// The number of holes: `round(h n^2)`.
    pub fn hole_count(&self) -> usize {
        (self.holes * (self.order * self.order) as f64).round() as usize
    }

    fn validate(&self) -> Result<(), RandomCspError> {
        fraction("holes", self.holes)?;
        check_order(self.order)
    }

    /// The hidden Latin square, row-major (`square[r * n + c]` is the symbol
    /// of row `r`, column `c`), and the holes, as cell indices in increasing order.
    pub fn square_and_holes(&self) -> Result<(Vec<usize>, Vec<usize>), RandomCspError> {
        self.validate()?;
        let n = self.order;
        let mut rng = Rng::new(self.seed);
        let square = random_latin_square(n, &mut rng);
        let mut cells: Vec<usize> = (0..n * n).collect();
        rng.shuffle(&mut cells);
        cells.truncate(self.hole_count());
        cells.sort_unstable();
        Ok((square, cells))
    }

    /// Draws the instance (see the module documentation).
    pub fn generate(&self) -> Result<Model, RandomCspError> {
        let (square, holes) = self.square_and_holes()?;
        Ok(latin_square_model(self.order, &with_holes(&square, &holes))?)
    }

    /// The hidden Latin square, as [`square_and_holes`](Self::square_and_holes)
    /// gives it, and balanced holes (see the module documentation), in
    /// increasing order.
    pub fn square_and_balanced_holes(&self) -> Result<(Vec<usize>, Vec<usize>), RandomCspError> {
        self.validate()?;
        let n = self.order;
        let mut rng = Rng::new(self.seed);
        let square = random_latin_square(n, &mut rng);
        Ok((square, balanced_pattern(n, self.hole_count(), &mut rng)))
    }

    /// Draws the instance with balanced holes (see the module documentation).
    pub fn generate_balanced(&self) -> Result<Model, RandomCspError> {
        let (square, holes) = self.square_and_balanced_holes()?;
        Ok(latin_square_model(self.order, &with_holes(&square, &holes))?)
    }
}

/// The cells of `square`, the `holes` emptied (`None`).
fn with_holes(square: &[usize], holes: &[usize]) -> Vec<Option<usize>> {
    let mut cells: Vec<Option<usize>> = square.iter().copied().map(Some).collect();
    for &cell in holes {
        cells[cell] = None;
    }
    cells
}

/// The model of completing a partial Latin square of order `n` whose cells,
/// row-major, hold a symbol or are empty (`None`): a variable per cell named
/// `c{row}_{column}`, with the given symbol as its only value or all of
/// `0..n`, and an `all_different` per row and per column.
pub(super) fn latin_square_model(n: usize, cells: &[Option<usize>]) -> Result<Model, crate::model::ModelError> {
    let mut model = Model::new();
    let mut vars: Vec<VarId> = Vec::with_capacity(n * n);
    for (cell, symbol) in cells.iter().enumerate() {
        let name = format!("c{}_{}", cell / n, cell % n);
        let var = match *symbol {
            Some(symbol) => model.new_named_var(name, symbol as i64..=symbol as i64)?,
            None => model.new_named_var(name, 0..n as i64)?,
        };
        vars.push(var);
    }
    for line in 0..n {
        let row: Vec<VarId> = (0..n).map(|c| vars[line * n + c]).collect();
        let column: Vec<VarId> = (0..n).map(|r| vars[r * n + line]).collect();
        model.all_different(&row)?;
        model.all_different(&column)?;
    }
    Ok(model)
}

/// `holes` cells of an `n x n` grid, in increasing order, with `floor` or
/// `ceil` of `holes / n` in every row and every column (see the module
/// documentation).
fn balanced_pattern(n: usize, holes: usize, rng: &mut Rng) -> Vec<usize> {
    let (k, extra) = (holes / n, holes % n);
    // Row i empties columns i, i + 1, ..., i + k - 1 (mod n), and i + k in
    // the first `extra` rows: column c is then emptied by the k rows just
    // before it, and by at most one of the extra cells, whose columns differ.
    let mut rows: Vec<usize> = (0..n).collect();
    let mut columns: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut rows);
    rng.shuffle(&mut columns);
    let mut is_hole = vec![false; n * n];
    let mut cells: Vec<(usize, usize)> = Vec::with_capacity(holes);
    for i in 0..n {
        for j in 0..k + usize::from(i < extra) {
            let (r, c) = (rows[i], columns[(i + j) % n]);
            is_hole[r * n + c] = true;
            cells.push((r, c));
        }
    }
    // Switches keep every row's and column's count.
    if cells.len() >= 2 {
        for _ in 0..20 * holes {
            let a = rng.below(cells.len() as u64) as usize;
            let b = rng.below(cells.len() as u64) as usize;
            let ((r1, c1), (r2, c2)) = (cells[a], cells[b]);
            if r1 != r2 && c1 != c2 && !is_hole[r1 * n + c2] && !is_hole[r2 * n + c1] {
                is_hole[r1 * n + c1] = false;
                is_hole[r2 * n + c2] = false;
                is_hole[r1 * n + c2] = true;
                is_hole[r2 * n + c1] = true;
                cells[a] = (r1, c2);
                cells[b] = (r2, c1);
            }
        }
    }
    let mut pattern: Vec<usize> = cells.iter().map(|&(r, c)| r * n + c).collect();
    pattern.sort_unstable();
    pattern
}

impl fmt::Display for QuasigroupWithHoles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "QWH <n={}, holes={}> ({} holes) seed {}", self.order, self.holes, self.hole_count(), self.seed)
    }
}

/// A Latin square of order `n`, row-major, drawn by Jacobson & Matthews'
/// Markov chain from the cyclic square: `n^3` moves (at least 100), then
/// moves until the incidence cube is proper again. The chain is
/// irreducible and its stationary distribution is uniform (Jacobson &
/// Matthews 1996); `n^3` moves is the customary mixing budget, not a proven
/// mixing time.
fn random_latin_square(n: usize, rng: &mut Rng) -> Vec<usize> {
    // The incidence cube: cube[(r * n + c) * n + s] is 1 when cell (r, c)
    // holds s; in an improper cube exactly one entry is -1.
    let at = |r: usize, c: usize, s: usize| (r * n + c) * n + s;
    let mut cube = vec![0i8; n * n * n];
    for r in 0..n {
        for c in 0..n {
            cube[at(r, c, (r + c) % n)] = 1;
        }
    }
    if n >= 2 {
        let mut improper: Option<(usize, usize, usize)> = None;
        let moves = (n * n * n).max(100);
        let mut done = 0;
        while done < moves || improper.is_some() {
            // The cell (r, c, s) to raise, and the rows, columns and symbols it pairs with.
            let (r, c, s, r2, c2, s2) = match improper {
                None => {
                    let (r, c, s) = loop {
                        let (r, c, s) = (rng.below(n as u64), rng.below(n as u64), rng.below(n as u64));
                        let (r, c, s) = (r as usize, c as usize, s as usize);
                        if cube[at(r, c, s)] == 0 {
                            break (r, c, s);
                        }
                    };
                    let r2 = (0..n).find(|&x| cube[at(x, c, s)] == 1).expect("a proper line has a one");
                    let c2 = (0..n).find(|&x| cube[at(r, x, s)] == 1).expect("a proper line has a one");
                    let s2 = (0..n).find(|&x| cube[at(r, c, x)] == 1).expect("a proper line has a one");
                    (r, c, s, r2, c2, s2)
                }
                Some((r, c, s)) => {
                    // Through the -1 entry each line has two ones: pick one of each.
                    let mut pick = |ones: Vec<usize>| ones[rng.below(ones.len() as u64) as usize];
                    let r2 = pick((0..n).filter(|&x| cube[at(x, c, s)] == 1).collect());
                    let c2 = pick((0..n).filter(|&x| cube[at(r, x, s)] == 1).collect());
                    let s2 = pick((0..n).filter(|&x| cube[at(r, c, x)] == 1).collect());
                    (r, c, s, r2, c2, s2)
                }
            };
            for (dr, dc, ds, change) in [
                (r, c, s, 1),
                (r, c2, s2, 1),
                (r2, c, s2, 1),
                (r2, c2, s, 1),
                (r, c, s2, -1),
                (r, c2, s, -1),
                (r2, c, s, -1),
                (r2, c2, s2, -1),
            ] {
                cube[at(dr, dc, ds)] += change;
            }
            improper = (cube[at(r2, c2, s2)] < 0).then_some((r2, c2, s2));
            done += 1;
        }
    }
    (0..n * n).map(|cell| (0..n).find(|&s| cube[cell * n + s] == 1).expect("a proper cube")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_latin(square: &[usize], n: usize) -> bool {
        (0..n).all(|line| {
            let mut row: Vec<usize> = (0..n).map(|c| square[line * n + c]).collect();
            let mut column: Vec<usize> = (0..n).map(|r| square[r * n + line]).collect();
            row.sort_unstable();
            column.sort_unstable();
            row == (0..n).collect::<Vec<_>>() && column == (0..n).collect::<Vec<_>>()
        })
    }

    #[test]
    fn the_hidden_square_is_latin_and_a_solution_with_the_holes_asked_for() {
        for (order, holes) in [(1, 1.0), (5, 0.42), (10, 0.42), (12, 0.0), (7, 1.0)] {
            let spec = QuasigroupWithHoles { order, holes, seed: 11 };
            let (square, hole_cells) = spec.square_and_holes().unwrap();
            assert!(is_latin(&square, order), "{square:?}");
            assert_eq!(hole_cells.len(), spec.hole_count());
            let model = spec.generate().unwrap();
            assert_eq!((model.num_vars(), model.num_constraints()), (order * order, 2 * order));
            let values: Vec<i64> = square.iter().map(|&s| s as i64).collect();
            assert!(model.is_solution(&values), "the hidden square completes the instance");
            let open = model.vars().filter(|&v| model.domain(v).unwrap().size() == order as u64).count();
            assert_eq!(open, if order == 1 { 1 } else { spec.hole_count() });
            for &cell in &hole_cells {
                assert_eq!(model.domain(model.var_at(cell).unwrap()).unwrap().size(), order as u64);
            }
        }
        assert_eq!(QuasigroupWithHoles { order: 10, holes: 0.42, seed: 1 }.hole_count(), 42);
    }

    #[test]
    fn an_empty_square_of_order_three_has_the_twelve_latin_squares_as_solutions() {
        // Every assignment of the 9 cells, by brute force (the lab's tests
        // count the 576 of order 4 with the solver).
        let model = QuasigroupWithHoles { order: 3, holes: 1.0, seed: 5 }.generate().unwrap();
        let solutions = (0..3usize.pow(9))
            .map(|code| (0..9).map(|cell| (code / 3usize.pow(cell) % 3) as i64).collect::<Vec<i64>>())
            .filter(|values| model.is_solution(values))
            .count();
        assert_eq!(solutions, 12);
    }

    #[test]
    fn the_chain_reaches_every_latin_square_of_order_three() {
        // Jacobson & Matthews' chain is uniform: 600 draws of the 12 squares
        // of order 3 find every one, none fewer than 20 times (about 50 expected).
        let mut seen = std::collections::BTreeMap::new();
        for seed in 0..600 {
            let (square, _) = QuasigroupWithHoles { order: 3, holes: 0.0, seed }.square_and_holes().unwrap();
            *seen.entry(square).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 12);
        assert!(seen.values().all(|&count| count >= 20), "{seen:?}");
    }

    #[test]
    fn balanced_holes_are_spread_evenly_over_rows_and_columns() {
        for (order, holes, seed) in [(10, 0.42, 1), (7, 0.5, 2), (15, 0.3, 3), (5, 1.0, 4), (6, 0.0, 5), (1, 1.0, 6)] {
            let spec = QuasigroupWithHoles { order, holes, seed };
            let (square, cells) = spec.square_and_balanced_holes().unwrap();
            assert!(is_latin(&square, order));
            assert_eq!(cells.len(), spec.hole_count(), "{spec}");
            assert!(cells.windows(2).all(|pair| pair[0] < pair[1]), "distinct cells, in order");
            let (low, high) = (spec.hole_count() / order, spec.hole_count().div_ceil(order));
            for line in 0..order {
                let in_row = cells.iter().filter(|&&cell| cell / order == line).count();
                let in_column = cells.iter().filter(|&&cell| cell % order == line).count();
                assert!((low..=high).contains(&in_row) && (low..=high).contains(&in_column), "{spec}: line {line}");
            }
            let model = spec.generate_balanced().unwrap();
            let values: Vec<i64> = square.iter().map(|&s| s as i64).collect();
            assert!(model.is_solution(&values), "the hidden square completes the instance");
        }
        // The switches move the pattern away from its circulant start: two
        // seeds give different patterns of the same counts.
        let pattern = |seed| QuasigroupWithHoles { order: 12, holes: 0.4, seed }.square_and_balanced_holes().unwrap().1;
        assert_ne!(pattern(1), pattern(2));
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(QuasigroupWithHoles { order: 0, holes: 0.5, seed: 0 }.generate().is_err());
        assert!(QuasigroupWithHoles { order: 5, holes: 1.5, seed: 0 }.generate().is_err());
        assert!(QuasigroupWithHoles { order: 500, holes: 0.5, seed: 0 }.generate().is_err());
        assert!(QuasigroupWithHoles { order: 5, holes: -0.1, seed: 0 }.generate_balanced().is_err());
    }
}
