//! An XCSP3 front end for the csp engine: the instances of the XCSP
//! competitions solved by csp.
//!
//! [`lower`] reads an XCSP3 file (XML) and lowers it into a csp
//! [`Model`](csp::Model), with the declared [`Variables`] for the output and
//! the [`Goal`]; [`output`] writes the competition's `s`, `v` and `o` lines.
//! This crate is a library only: the tool `csp-xcsp`, which solves an
//! instance, lives with the other tools in csp-cli (`csp_cli::xcsp`), and
//! `csp-lab compare` compares the engine's configurations on XCSP3 files.
//!
//! ```
//! let xml = r#"
//! <instance format="XCSP3" type="COP">
//!   <variables>
//!     <var id="x"> 0..9 </var>
//!     <var id="y"> 0..9 </var>
//!   </variables>
//!   <constraints>
//!     <intension> eq(add(x,y),10) </intension>
//!     <intension> lt(x,y) </intension>
//!   </constraints>
//!   <objectives> <maximize> mul(x,y) </maximize> </objectives>
//! </instance>"#;
//! let lowered = csp_xcsp3::lower(xml).unwrap();
//! let mut solver = csp::Solver::new(&lowered.model, csp::SolveConfig::default()).unwrap();
//! let best = solver.optimize();
//! assert_eq!(best.objective(), Some(24)); // x = 4, y = 6
//! let values = best.solution().unwrap().values();
//! assert_eq!(
//!     lowered.variables.instantiation(values, None),
//!     "<instantiation type=\"solution\"> <list> x y </list> <values> 4 6 </values> </instantiation>"
//! );
//! ```
//!
//! What is lowered: integer variables and arrays of any dimension (with
//! per-cell domains and undefined cells), symbolic ones (each symbol a
//! code, shown as the symbol in the instantiation; in `intension` by `eq`,
//! `ne`, `in`, `notin`, `extension`, `allDifferent`, `allEqual` and
//! `instantiation` only), `extension` (supports and
//! conflicts, `*` included), `intension` (the whole functional syntax over
//! integers), `allDifferent` (with `except`, over several lists, with
//! excepted tuples),
//! `allEqual`, `sum`, `count` (with variable values), `nValues`,
//! `cardinality` (with variable values), `minimum`, `maximum`, `element`
//! (with a rank, for a value or an `(eq,v)` condition; without an index,
//! over a list or a matrix, for a value or a condition), `channel` (one list, two lists, a
//! list and a value), `ordered` (with lengths), `lex`, `instantiation`, `regular`, `mdd`,
//! `circuit` (with a size), `noOverlap` (one dimension, or boxes in
//! several), `cumulative` (with ends), the meta-constraints `group`,
//! `block` and `slide` (over one list or several), reified constraints
//! (`reifiedBy`, `hreifiedFrom`, `hreifiedTo` on `intension`, `extension`,
//! `allDifferent`, `allEqual`, `sum`, `count`, `nValues`, `minimum`,
//! `maximum`, `element` over a list, `ordered` and `instantiation`), and one objective (a variable, an expression, or
//! the sum, minimum, maximum or number of values of a list). Anything else
//! is an [`Error`] that names it ([`Error::is_unsupported`]), never an
//! approximation. docs/xcsp3.md has the details.

mod error;
pub mod expression;
mod lower;
pub mod output;
mod text;
mod variables;

pub use error::{Error, ErrorKind, Position};
pub use lower::{Goal, Lowered, lower};
pub use variables::Variables;
