//! A FlatZinc front end for the csp engine: MiniZinc models solved by csp.
//!
//! MiniZinc compiles a model to FlatZinc for a solver; this crate reads that
//! FlatZinc ([`parse`]), lowers it into a csp [`Model`](csp::Model) ([`lower`]),
//! and prints solutions in the FlatZinc output protocol ([`output`]). The
//! binary `fzn-csp` ([`tool`]) is the solver MiniZinc runs, and its solver
//! library ([`mznlib`]) tells MiniZinc which globals the engine has natively.
//!
//! ```
//! let source = "\
//! var 1..3: a;
//! var 1..3: b;
//! var 1..3: c;
//! array [1..3] of var int: q :: output_array([1..3]) = [a, b, c];
//! constraint fzn_all_different_int(q);
//! constraint int_lt(a, b);
//! constraint int_lin_eq([1, -1], [c, b], 1);
//! solve satisfy;
//! ";
//! let fzn = csp_flatzinc::parse(source).unwrap();
//! let lowered = csp_flatzinc::lower(&fzn).unwrap();
//! let solution = lowered.model.solve().unwrap().expect("a solution");
//! assert_eq!(lowered.output.to_dzn(solution.values()), "q = array1d(1..3, [1, 2, 3]);\n");
//! ```
//!
//! What is lowered: integer and boolean variables (a boolean is a `0..1`
//! integer), constants, arrays, and the builtins of [`supported_builtins`];
//! anything else is a [`LowerError`] that names it. The search annotations are
//! read into a [`SearchPlan`], which fzn-csp hands to the engine as its
//! search phases.
//!
//! Besides `fzn-csp`, two tools for developers: `mzn-spec` runs MiniZinc's own
//! specification tests through `fzn-csp` ([`spec`]), and `mzn-bench` runs the
//! MiniZinc Challenge instances with fzn-csp and Gecode and scores them
//! ([`bench`](mod@bench)).

pub mod ast;
pub mod bench;
mod error;
mod lexer;
mod lower;
pub mod mznlib;
pub mod output;
mod parser;
mod process;
mod search_plan;
pub mod spec;
pub mod tool;

pub use error::{LowerError, ParseError};
pub use lower::{Lowered, Objective, Value, is_supported, lower, supported_builtins};
pub use parser::parse;
pub use search_plan::{SearchPhase, SearchPlan, ValueChoice, VariableChoice};
