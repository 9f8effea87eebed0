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
//! - [`LinearExpr`] and [`Condition`]: `model.add((x + 2 * y).le(z))`;
//!   booleans as literals ([`Lit`], `!b`) with logic (`or`, `xor`,
//!   `exactly_one`, ...) and reification (`model.reify(b, x.eq(3))`).
//! - [`Solver`]: search under a [`SolveConfig`] (propagation level, variable and
//!   value ordering, restarts, search that learns nogoods from its conflicts
//!   ([`Search::Learning`]), limits), giving an [`Outcome`], all [`Solution`]s or a
//!   [`Count`], with [`Stats`], and [`SearchEvent`]s for an [`Observer`].
//! - [`Constraint`]: how to write a constraint, from a plain check to a propagator.
//! - [`LocalSearch`]: min-conflicts local search, for one solution of a large model.
//! - [`portfolio`]: several solvers of different configurations on one
//!   model, one thread each; the first answer wins.
//!
//! Besides the root items, a few modules: [`constraints`] (the built-in
//! relation types, which the [`Model`] methods post), [`portfolio`] (parallel
//! search: [`portfolio::Portfolio`]), [`rng`] (the engine's
//! small seeded generator), and behind cargo features `testing` (the soundness harness for
//! propagators) and `random` (random CSPs: binary models, quasigroups,
//! graph colouring).

mod constraint;
pub mod constraints;
mod domain;
mod ids;
mod kernel;
mod local_search;
mod model;
mod observer;
#[cfg(feature = "random")]
pub mod random;
pub mod rng;
mod search;
#[cfg(feature = "testing")]
pub mod testing;

pub use constraint::{AllDifferentStrength, Constraint, Inequality, Propagator, PropagatorOptions};
pub use constraints::arithmetic::ArithmeticStrength;
pub use constraints::generic::ArcConsistency;
pub use constraints::linear::Relation;
pub use constraints::operand::Operand;
pub use constraints::regular::Dfa;
pub use domain::Domain;
pub use ids::{Atom, ConstraintId, Lit, VarId};
pub use kernel::{
    Conflict, Context, Cost, Event, Explained, Explanation, Fixpoints, PropagationResult, ReversibleInt, WordSlot,
};
pub use local_search::{
    LocalSearch, LocalSearchConfig, LocalSearchOutcome, LocalSearchStats, ValueList, ViolationCounter,
};
pub use model::{Condition, LinearExpr, MAX_COEFFICIENT, MAX_VALUE, Model, ModelError, Objective, Sense, Solution};
pub use observer::{Observer, Reason, SearchEvent};
pub use search::portfolio;
pub use search::{
    Attribution, Backjumping, Branching, ConfigSyntaxError, Count, Effect, Jumps, Limit, Limits, Outcome, Probing,
    Propagation, Restarts, Search, SearchPhase, Solutions, SolveConfig, SolveError, Solver, Stats, Status, StopSignal,
    UnknownOption, ValueOrder, VarOrder,
};
pub use search::{Improvement, Improvements, OptimizationOutcome};

/// The README's code blocks, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
