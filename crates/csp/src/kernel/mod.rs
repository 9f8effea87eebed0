//! The kernel of the search state: the domains as bitsets or intervals, the trail that
//! undoes their changes, the [`Context`] through which propagators read and
//! narrow them, and the queue of propagators to run.
//!
//! The kernel knows variables only by their ids and domains (the leaf modules
//! `ids` and `domain`); it knows nothing of models, constraints or search.
//!
//! What holds of it, for whatever builds on it (ARCHITECTURE.md has the
//! whole list): every change narrows and is trailed, so `State::undo_to` a
//! `Mark` restores exactly the earlier domains (bitset words and single-bit
//! entries on one trail, interval bounds and reversible integers on their
//! own); a domain is a bitset or an interval for the whole life of the
//! solver, and an interval has no positions but 0 and 1 (its bounds) and no
//! holes; the cached size is exact for bitsets and saturates at `u32::MAX`
//! for intervals; events are `Fixed < Bounds < Domain`.

mod bitset;
mod context;
mod domains;
mod explain;
mod fixpoints;
mod history;
mod interval;
mod literal;
mod queue;
mod slots;
mod trail;

pub use context::{Conflict, Context, PropagationResult, WordSlot};
pub use domains::Event;
pub use explain::{Explained, Explanation};
pub use fixpoints::Fixpoints;
pub use queue::Cost;
pub use trail::ReversibleInt;

pub(crate) use context::{Assigned, Step, Wake};
pub(crate) use domains::{Change, State};
pub(crate) use explain::{HeldBounds, Request};
pub(crate) use history::{Cause, Entry, History, INTERVAL, NONE, Rewound};
pub(crate) use interval::Push;
pub(crate) use literal::Literal;
pub(crate) use queue::{Queue, Watch, Watchers};
pub(crate) use slots::Slots;
pub(crate) use trail::{ChangePoint, Mark, Snapshot, TrailPoint};
