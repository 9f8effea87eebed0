//! A constraint-satisfaction engine: integer variables over finite domains,
//! constraints with propagators of known strength, and backtracking search
//! with plain backtracking, forward checking or maintained arc consistency.
//!
//! ```
//! use csp::{Model, SolveConfig, Solver};
//!
//! // Four queens, one per row: q[i] is the column of the queen in row i.
//! let n = 4;
//! let mut model = Model::new();
//! let q: Vec<_> = (0..n).map(|i| model.new_named_var(format!("q{i}"), 0..n).unwrap()).collect();
//! let up: Vec<i64> = (0..n).collect();
//! let down: Vec<i64> = (0..n).map(|i| -i).collect();
//! model.all_different(&q).unwrap(); // columns
//! model.all_different_offset(&q, &up).unwrap(); // one diagonal
//! model.all_different_offset(&q, &down).unwrap(); // the other
//!
//! let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
//! let solution = solver.solve().into_solution().expect("4-queens has solutions");
//! assert_eq!(solution.values(), &[1, 3, 0, 2]);
//! assert_eq!(solver.count(None).solutions, 2);
//! ```
//!
//! The pieces:
//!
//! - [`Model`]: variables ([`VarId`]) with [`Domain`]s, and constraints: the
//!   built-ins ([`constraints`]) or your own [`Constraint`].
//! - [`Solver`]: search under a [`SolveConfig`] (propagation level, variable and
//!   value ordering, limits), giving an [`Outcome`], all [`Solution`]s or a
//!   [`Count`], with [`Stats`], and [`SearchEvent`]s for an [`Observer`].
//! - [`constraint`]: how to write a constraint, from a plain check to a propagator.

#![expect(missing_docs, unreachable_pub, reason = "fixed on the engine branch")]

mod backjump;
pub mod config;
pub mod constraint;
pub mod constraints;
mod context;
pub mod local_search;
mod model;
pub mod observer;
mod queue;
pub mod random;
pub mod rng;
mod solution;
mod solver;
mod state;
mod stats;
pub mod testing;
mod var;

pub use config::{
    AllDifferentStrength, ArcConsistency, Branching, ConfigSyntaxError, Limit, Limits, Propagation, Restarts,
    SolveConfig, UnknownOption, ValueOrder, VarOrder,
};
pub use constraint::{Conflict, Constraint, Cost, PropagationResult, Propagator};
pub use constraints::Relation;
pub use context::Context;
pub use local_search::{LocalSearch, LocalSearchConfig, LocalSearchOutcome, LocalSearchStats, ViolationCounter};
pub use model::{MAX_VALUE, Model, ModelError};
pub use observer::{Observer, SearchEvent};
pub use solution::{Count, Outcome, Solution, Status};
pub use solver::{Attribution, Effect, Solutions, SolveError, Solver};
pub use state::{Event, ReversibleInt};
pub use stats::Stats;
pub use var::{ConstraintId, Domain, VarId};

/// The README's code blocks, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
