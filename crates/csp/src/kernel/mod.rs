//! The kernel of the search state: the domains as bitsets or intervals, the trail that
//! undoes their changes, the [`Context`] through which propagators read and
//! narrow them, and the queue of propagators to run.
//!
//! The kernel knows variables only by their ids and domains (the leaf modules
//! `ids` and `domain`); it knows nothing of models, constraints or search.

mod bitset;
mod context;
mod domains;
mod interval;
mod queue;
mod trail;

pub use context::{Conflict, Context, PropagationResult};
pub use domains::Event;
pub use queue::Cost;
pub use trail::ReversibleInt;

pub(crate) use context::{Assigned, Wake};
pub(crate) use domains::{Change, State};
pub(crate) use queue::{Queue, Watch, Watchers};
pub(crate) use trail::{Mark, Snapshot};
