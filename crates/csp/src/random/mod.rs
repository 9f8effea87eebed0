//! Random CSP generators, the test beds of the lab (feature `random`): each
//! draws a [`Model`] from its parameters and a seed, and equal parameters and
//! seeds give equal instances.
//!
//! | generator | what | citation |
//! | --- | --- | --- |
//! | [`RandomCsp`] | model B: `round(p1 n(n-1)/2)` constrained pairs, `round(p2 d^2)` forbidden value pairs each | Smith 1994; Prosser 1996 |
//! | [`RandomCsp::generate_flawless`] | flawless model B: no value without a support | Gent, MacIntyre, Prosser, Smith & Walsh 2001 |
//! | [`ModelRb`] | model RB: `d = n^α` values, `r n ln n` constraints, an exact threshold | Xu & Li 2000 |
//! | [`QuasigroupWithHoles`] | a random Latin square with holes punched: satisfiable, with a hardness peak | Achlioptas, Gomes, Kautz & Selman 2000 |
//! | [`QuasigroupWithHoles::generate_balanced`] | the same with as many holes in every row and column | Kautz, Ruan, Achlioptas, Gomes, Selman & Stickel 2001 |
//! | [`QuasigroupCompletion`] | a random partial Latin square, which may have no completion | Gomes & Selman 1997 |
//! | [`RandomColouring`] | k-colouring of a random graph `G(n, m)` | Cheeseman, Kanefsky & Taylor 1991 |
//!
//! [`flaws`] finds the values that some constraint leaves without support,
//! and the variables left with no other (Achlioptas et al. 1997).
//!
//! ```
//! use csp::random::RandomCsp;
//! let spec = RandomCsp { variables: 10, values: 5, density: 0.5, tightness: 0.3, seed: 1 };
//! let model = spec.generate().unwrap();
//! assert_eq!(model.num_vars(), 10);
//! assert_eq!(model.num_constraints(), spec.constraint_count());
//! ```

mod colouring;
mod flaws;
mod forbidden_pairs;
mod model_b;
mod quasigroup;
mod quasigroup_completion;
mod rb;

pub use colouring::RandomColouring;
pub use flaws::{Flaws, flaws};
pub use forbidden_pairs::ForbiddenPairs;
pub use model_b::RandomCsp;
pub use quasigroup::QuasigroupWithHoles;
pub use quasigroup_completion::QuasigroupCompletion;
pub use rb::ModelRb;

#[cfg(doc)]
use crate::model::Model;
use crate::model::ModelError;

/// Parameters that describe no instance.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RandomCspError {
    /// A fraction (density, tightness, holes) outside `0..=1`, or not a number.
    #[error("{what} must be between 0 and 1, not {value}")]
    OutOfRange {
        /// "density", "tightness", ...
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// No variables or no values.
    #[error("a random CSP needs at least one variable and one value")]
    Empty,
    /// Another parameter that describes no instance.
    #[error("{what}: {reason}")]
    Invalid {
        /// The parameter.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// The model could not be built (too large).
    #[error(transparent)]
    Model(#[from] ModelError),
}

/// Fails unless `value` is a fraction (between 0 and 1).
fn fraction(what: &'static str, value: f64) -> Result<(), RandomCspError> {
    if (0.0..=1.0).contains(&value) { Ok(()) } else { Err(RandomCspError::OutOfRange { what, value }) }
}

/// Fails unless `value` is a finite positive number.
fn positive(what: &'static str, value: f64) -> Result<(), RandomCspError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(RandomCspError::Invalid { what, reason: format!("must be a positive number, not {value}") })
    }
}

/// All pairs `(i, j)` with `i < j < n`, in order.
fn all_pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
}
