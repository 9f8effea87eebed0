//! The N-queens problem on the csp engine: place N queens on an N x N board so
//! that no two share a row, a column or a diagonal.
//!
//! ```
//! use csp::{SolveConfig, Solver};
//! use csp_queens::{Queens, Style};
//!
//! let queens = Queens::new(8).unwrap();
//! let mut solver = Solver::new(queens.model(), SolveConfig::default()).unwrap();
//! let solution = solver.solve().into_solution().expect("eight queens can be placed");
//! let columns = queens.columns(&solution);
//! csp_queens::verify(&columns).expect("the solver's answer is checked independently");
//! assert_eq!(csp_queens::Line(&columns).to_string(), "1 5 8 6 3 7 2 4");
//! assert!(csp_queens::Board::new(&columns, Style::Ascii).to_string().starts_with("Q . . . . . . .\n"));
//! assert_eq!(solver.count(None).solutions, 92);
//! ```
//!
//! - [`Queens`]: the model, one variable per row holding its queen's column,
//!   with three `all_different` constraints (columns, and columns shifted by `+row`
//!   and by `-row` for the two diagonals); their strength is the solver's
//!   [`SolveConfig::all_different`](csp::SolveConfig::all_different).
//! - [`verify`]: an independent check of a placement, which knows nothing of the
//!   engine.
//! - Rendering: [`Board`] (Unicode or ASCII), [`Line`] (1-based columns), [`Json`].
//! - [`default_config`]: the configuration the tool uses (forward checking, MRV,
//!   pairwise all-different; random values for a first solution of a large board).

use std::fmt;

use csp::{AllDifferentStrength, Model, ModelError, Propagation, Solution, SolveConfig, ValueOrder, VarId, VarOrder};

/// The largest board the crate builds a model for. The engine's variables are
/// numbered with `u32`; binaries set their own, lower limits for the search they run.
pub const MAX_N: usize = 1 << 30;

/// Why a queens model cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueensError {
    /// N was 0: there is no board.
    #[error("N must be at least 1 (got 0)")]
    Zero,
    /// N is larger than [`MAX_N`].
    #[error("N = {n} is too large (at most {max})")]
    TooLarge {
        /// The requested N.
        n: usize,
        /// The limit.
        max: usize,
    },
    /// The engine refused the model (not expected for valid N).
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// The N-queens model: variable `i` is the column (0-based) of the queen in row
/// `i`, and the model has no other variables, so a solution's values are the
/// placement.
#[derive(Debug)]
pub struct Queens {
    n: usize,
    model: Model,
}

impl Queens {
    /// The model for an N x N board (`1 <= n <= MAX_N`).
    pub fn new(n: usize) -> Result<Queens, QueensError> {
        if n == 0 {
            return Err(QueensError::Zero);
        }
        if n > MAX_N {
            return Err(QueensError::TooLarge { n, max: MAX_N });
        }
        let mut model = Model::new();
        let size = n as i64;
        let rows = model.new_vars(n, 0..size)?;
        debug_assert!(rows.iter().enumerate().all(|(i, v)| v.index() == i));
        // Queens i and j share a diagonal when q[i] - q[j] = +-(i - j), that is
        // when q[i] + i = q[j] + j or q[i] - i = q[j] - j.
        let up: Vec<i64> = (0..size).collect();
        let down: Vec<i64> = (0..size).map(|i| -i).collect();
        let columns = model.all_different(&rows)?;
        model.set_label(columns, "columns")?;
        let diagonals = model.all_different_offset(&rows, &up)?;
        model.set_label(diagonals, "diagonals (q + row)")?;
        let anti = model.all_different_offset(&rows, &down)?;
        model.set_label(anti, "anti-diagonals (q - row)")?;
        Ok(Queens { n, model })
    }

    /// N.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The model, to hand to a solver.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The variable of row `row` (counting from 0), if the board has that row.
    pub fn row(&self, row: usize) -> Option<VarId> {
        self.model.var_at(row)
    }

    /// The queens' columns (0-based), row by row, of a solution of this model:
    /// its values, borrowed (a million queens are not copied).
    pub fn columns<'s>(&self, solution: &'s Solution<'_>) -> &'s [i64] {
        debug_assert!(std::ptr::eq(solution.model(), &self.model), "a solution of another model");
        solution.values()
    }
}

/// Why a placement is not a solution: the first problem found, rows and columns
/// counted from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Attack {
    /// A queen stands off the board.
    #[error("row {row}: column {column} is off a board of {n} columns")]
    OffBoard {
        /// The row.
        row: usize,
        /// The column given.
        column: i64,
        /// The board's size.
        n: usize,
    },
    /// Two queens share a column.
    #[error("rows {first} and {second} share column {column}")]
    Column {
        /// The upper queen's row.
        first: usize,
        /// The lower queen's row.
        second: usize,
        /// The column.
        column: usize,
    },
    /// Two queens share a diagonal (row - column constant, running down to the right).
    #[error("rows {first} and {second} share a diagonal")]
    Diagonal {
        /// The upper queen's row.
        first: usize,
        /// The lower queen's row.
        second: usize,
    },
    /// Two queens share an anti-diagonal (row + column constant, running down to the left).
    #[error("rows {first} and {second} share an anti-diagonal")]
    AntiDiagonal {
        /// The upper queen's row.
        first: usize,
        /// The lower queen's row.
        second: usize,
    },
}

/// Checks that `columns` (one 0-based column per row, so one queen per row) is a
/// solution: every column on the board, and no two queens on a column or
/// diagonal. It knows nothing of the engine, so it can check the engine's
/// answers. It takes O(N) time and 5N bits (a second pass names the first
/// queen of an attack).
pub fn verify(columns: &[i64]) -> Result<(), Attack> {
    let n = columns.len();
    let mut on_column = Bits::new(n);
    let mut on_diagonal = Bits::new(2 * n);
    let mut on_anti = Bits::new(2 * n);
    for (row, &column) in columns.iter().enumerate() {
        let column = match usize::try_from(column) {
            Ok(c) if c < n => c,
            _ => return Err(Attack::OffBoard { row, column, n }),
        };
        if on_column.test_and_set(column) {
            let first = columns[..row].iter().position(|&c| c as usize == column).unwrap_or(0);
            return Err(Attack::Column { first, second: row, column });
        }
        if on_diagonal.test_and_set(row + n - 1 - column) {
            let first = (0..row).find(|&r| r + n - 1 - columns[r] as usize == row + n - 1 - column).unwrap_or(0);
            return Err(Attack::Diagonal { first, second: row });
        }
        if on_anti.test_and_set(row + column) {
            let first = (0..row).find(|&r| r + columns[r] as usize == row + column).unwrap_or(0);
            return Err(Attack::AntiDiagonal { first, second: row });
        }
    }
    Ok(())
}

/// A fixed-size bitset.
struct Bits(Vec<u64>);

impl Bits {
    fn new(len: usize) -> Self {
        Bits(vec![0; len.div_ceil(64)])
    }

    /// Sets bit `i`; returns whether it was set already.
    fn test_and_set(&mut self, i: usize) -> bool {
        let word = &mut self.0[i / 64];
        let was = *word >> (i % 64) & 1 == 1;
        *word |= 1 << (i % 64);
        was
    }
}

/// Above this N, the first solution is searched with random value ordering (see
/// [`default_config`]).
pub const RANDOM_VALUES_FROM_N: usize = 30;

/// The seed of the default random value ordering and of local search.
pub const DEFAULT_SEED: u64 = 1;

/// The configuration the queens tool, the benchmarks and the tests use unless
/// options override it, chosen by measurement (docs/queens.md): forward checking, MRV and pairwise
/// all-different, which counts 12-queens about twice as fast as maintained arc
/// consistency with matching. For a first solution of more than
/// [`RANDOM_VALUES_FROM_N`] queens the values are tried in a seeded random order:
/// in ascending order MRV runs into long fruitless subtrees (N = 2,000 does not
/// finish in 20 s), while the random order finds N = 1,000 and N = 10,000 with
/// almost no backtracking.
pub fn default_config(n: usize, first_solution_only: bool) -> SolveConfig {
    let value_order =
        if first_solution_only && n > RANDOM_VALUES_FROM_N { ValueOrder::Random } else { ValueOrder::Ascending };
    SolveConfig::default()
        .with_propagation(Propagation::ForwardChecking)
        .with_var_order(VarOrder::Mrv)
        .with_value_order(value_order)
        .with_all_different(AllDifferentStrength::Pairwise)
        .with_seed(DEFAULT_SEED)
}

/// How a [`Board`] is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Style {
    /// `♛` for a queen, `·` for an empty square.
    #[default]
    Unicode,
    /// `Q` and `.`.
    Ascii,
}

/// A placement drawn as a board, one line per row, squares separated by spaces.
///
/// ```
/// use csp_queens::{Board, Style};
/// assert_eq!(Board::new(&[1, 3, 0, 2], Style::Unicode).to_string(), "· ♛ · ·\n· · · ♛\n♛ · · ·\n· · ♛ ·\n");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Board<'a> {
    columns: &'a [i64],
    style: Style,
}

impl<'a> Board<'a> {
    /// The board of `columns` (0-based, one per row). A column off the board
    /// leaves its row empty.
    pub fn new(columns: &'a [i64], style: Style) -> Board<'a> {
        Board { columns, style }
    }
}

impl fmt::Display for Board<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (queen, empty) = match self.style {
            Style::Unicode => ("♛", "·"),
            Style::Ascii => ("Q", "."),
        };
        let n = self.columns.len();
        for &column in self.columns {
            for c in 0..n {
                if c > 0 {
                    f.write_str(" ")?;
                }
                f.write_str(if usize::try_from(column) == Ok(c) { queen } else { empty })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// A placement as one line of 1-based columns, row by row: `1 5 8 6 3 7 2 4`.
#[derive(Clone, Copy, Debug)]
pub struct Line<'a>(pub &'a [i64]);

impl fmt::Display for Line<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (row, column) in self.0.iter().enumerate() {
            if row > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", column + 1)?;
        }
        Ok(())
    }
}

/// A placement as a JSON object: `{"n":4,"columns":[2,4,1,3]}`, with 1-based
/// columns row by row, as [`Line`] prints them.
#[derive(Clone, Copy, Debug)]
pub struct Json<'a>(pub &'a [i64]);

impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

impl serde::Serialize for Json<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        /// The 1-based columns, without copying them.
        struct Columns<'a>(&'a [i64]);
        impl serde::Serialize for Columns<'_> {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.0.iter().map(|column| column + 1))
            }
        }
        let mut object = serializer.serialize_struct("Json", 2)?;
        object.serialize_field("n", &self.0.len())?;
        object.serialize_field("columns", &Columns(self.0))?;
        object.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp::{AllDifferentStrength, Propagation, SolveConfig, Solver, VarOrder};
    use proptest::prelude::*;

    /// All solutions by brute force over permutations, independent of the engine.
    fn brute_force(n: usize) -> Vec<Vec<i64>> {
        fn extend(n: usize, placed: &mut Vec<i64>, out: &mut Vec<Vec<i64>>) {
            if placed.len() == n {
                out.push(placed.clone());
                return;
            }
            let row = placed.len() as i64;
            for column in 0..n as i64 {
                let safe = placed.iter().enumerate().all(|(r, &c)| c != column && (c - column).abs() != row - r as i64);
                if safe {
                    placed.push(column);
                    extend(n, placed, out);
                    placed.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, &mut Vec::new(), &mut out);
        out
    }

    #[test]
    fn bad_sizes_are_typed_errors() {
        assert_eq!(Queens::new(0).unwrap_err(), QueensError::Zero);
        assert_eq!(Queens::new(MAX_N + 1).unwrap_err(), QueensError::TooLarge { n: MAX_N + 1, max: MAX_N });
        assert_eq!(QueensError::Zero.to_string(), "N must be at least 1 (got 0)");
    }

    #[test]
    fn the_model_has_a_variable_per_row_and_three_all_different() {
        let queens = Queens::new(6).unwrap();
        assert_eq!(queens.n(), 6);
        assert_eq!(queens.model().num_vars(), 6);
        assert_eq!(queens.row(5).map(|v| v.index()), Some(5));
        assert_eq!(queens.row(6), None);
        assert_eq!(queens.model().num_constraints(), 3);
        assert!(queens.model().constraints().all(|(_, c)| c.kind() == "all_different"));
    }

    #[test]
    fn solutions_are_those_of_brute_force_under_every_configuration() {
        for n in 1..=7 {
            let queens = Queens::new(n).unwrap();
            let mut expected = brute_force(n);
            expected.sort();
            for &propagation in Propagation::ALL {
                for &var_order in VarOrder::ALL {
                    for &strength in AllDifferentStrength::ALL {
                        let config = SolveConfig::default()
                            .with_propagation(propagation)
                            .with_var_order(var_order)
                            .with_all_different(strength);
                        let mut solver = Solver::new(queens.model(), config).unwrap();
                        let mut found: Vec<Vec<i64>> =
                            solver.solutions().map(|s| queens.columns(&s).to_vec()).collect();
                        for columns in &found {
                            verify(columns).unwrap_or_else(|e| panic!("{columns:?}: {e}"));
                        }
                        found.sort();
                        assert_eq!(found, expected, "n = {n}, {propagation}, {var_order}, {strength}");
                    }
                }
            }
        }
    }

    #[test]
    fn verify_names_the_attack() {
        assert_eq!(verify(&[]), Ok(()));
        assert_eq!(verify(&[0]), Ok(()));
        assert_eq!(verify(&[1, 3, 0, 2]), Ok(()));
        assert_eq!(verify(&[1, 3, 1, 2]), Err(Attack::Column { first: 0, second: 2, column: 1 }));
        assert_eq!(verify(&[0, 1]), Err(Attack::Diagonal { first: 0, second: 1 }));
        assert_eq!(verify(&[3, 0, 0, 1]).unwrap_err().to_string(), "rows 1 and 2 share column 0");
        assert_eq!(verify(&[2, 0, 1]), Err(Attack::Diagonal { first: 1, second: 2 }));
        assert_eq!(verify(&[3, 1, 0, 2]), Err(Attack::AntiDiagonal { first: 1, second: 2 }));
        assert_eq!(verify(&[0, 4, 1, 3]), Err(Attack::OffBoard { row: 1, column: 4, n: 4 }));
        assert_eq!(verify(&[-1]), Err(Attack::OffBoard { row: 0, column: -1, n: 1 }));
    }

    #[test]
    fn renderings() {
        let columns = [1, 3, 0, 2];
        assert_eq!(Board::new(&columns, Style::Ascii).to_string(), ". Q . .\n. . . Q\nQ . . .\n. . Q .\n");
        assert_eq!(Line(&columns).to_string(), "2 4 1 3");
        assert_eq!(Json(&columns).to_string(), r#"{"n":4,"columns":[2,4,1,3]}"#);
        assert_eq!(Json(&[]).to_string(), r#"{"n":0,"columns":[]}"#);
    }

    proptest! {
        /// The verifier agrees with the pairwise definition on random placements.
        #[test]
        fn verify_agrees_with_the_definition(columns in proptest::collection::vec(-1i64..9, 0..9)) {
            let n = columns.len() as i64;
            let on_board = columns.iter().all(|&c| (0..n).contains(&c));
            let attacked = (0..columns.len()).any(|i| (i + 1..columns.len()).any(|j| {
                let (a, b) = (columns[i], columns[j]);
                a == b || (a - b).abs() == (j - i) as i64
            }));
            prop_assert_eq!(verify(&columns).is_ok(), on_board && !attacked);
        }
    }
}
