//! Learnt nogoods shared between a portfolio's learning workers, as
//! Plingeling, Glucose-syrup and CP-SAT share short learnt clauses (Audemard,
//! Hoessen, Jabbour & Piette 2014, "Dolius"; Audemard & Simon 2014, "Lazy
//! clause exchange policy for parallel SAT solvers").
//!
//! A worker that learns a short nogood (of at most [`Sharing::max_length`]
//! literals or a literal block distance of at most [`Sharing::max_lbd`])
//! keeps a copy in its outbox. At the root, after a restart or a backjump
//! to level 0, it takes the [`Pool`]'s lock once: it appends its outbox and
//! reads the nogoods the other workers appended since its last visit, which
//! it adds to its own store (the parent module's `Solver::add_root_nogood`
//! on the learning side): one dropped when it is already satisfied at the
//! root, one with a single literal left made true there, one with none left
//! a conflict at the root (the search is over), and the others kept as
//! learnt nogoods with the exporter's distance, in the same tier and under
//! the same reduction as the worker's own (glue, distance two or less, is
//! kept for good). No lock is taken per conflict.
//!
//! # What a nogood may say
//!
//! A learnt nogood's literals are facts about the model's variables: a
//! solver's state has one variable per model variable, in the model's
//! order, and no other (no propagator keeps literals of its own, none is
//! created lazily). A bitset literal names positions in the variable's
//! word; the positions are the model's values in order, the same in every
//! solver of the model, unless their bitset limits differ (a domain wider
//! than the limit is an interval): nogoods go only between workers of the
//! same limit.
//!
//! # Why sharing is sound
//!
//! In satisfaction a learnt nogood is implied by the model alone (a
//! portfolio's solvers have no assumptions, and `Portfolio::solve` stops at
//! the first solution, so none is excluded by a nogood): a solution of the
//! model satisfies every nogood of every worker, and adding them to another
//! worker removes no solution. An imported nogood false at the root
//! therefore proves the model unsatisfiable.
//!
//! Under branch and bound a nogood is implied by the model and the bound in
//! force when it was learnt: "the objective is better than `b`", `b` the
//! better of the worker's own best and the shared one it last read. Every
//! such `b` is a value the portfolio's shared best has already reached when
//! the nogood is learnt: a worker's own best is published (under the lock
//! of the kept solution, or it is no better than one already published)
//! before the worker searches on, and the shared best only improves. A
//! worker that imports reads the pool first, then the shared best, which
//! the exporter's publication happened before (the pool's lock orders them):
//! so the bound it then imposes is at least as good as every imported
//! nogood's `b`, and each imported nogood is implied by the model and its
//! own bound, as its own nogoods are. The portfolio's proof argument then
//! holds unchanged: a worker excludes only solutions no better than a bound
//! it imposed, itself no better than the portfolio's final best, so a
//! worker that exhausts its tree has proved that no solution beats that
//! best; and a nogood false at its root proves the same.
//!
//! With `Solver::check_nogoods` (feature `testing`) each imported nogood is
//! checked, as the worker's own are, against the brute-force solutions of
//! small models better than the worker's bound.

use std::sync::{Mutex, PoisonError};

use super::super::Solver;
use super::super::propagate::Failure;
use crate::kernel::Literal;

/// Which nogoods a learning worker shares with the others of a portfolio
/// ([`Portfolio::with_sharing`](super::Portfolio::with_sharing)): those
/// of at most `max_length` literals, and those of a literal block distance
/// of at most `max_lbd` (the number of decision levels among their literals
/// when learnt), whatever their length up to [`Sharing::LONGEST`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sharing {
    /// Shared whatever the distance: nogoods of at most this many literals.
    pub max_length: usize,
    /// Shared whatever the length (up to [`Sharing::LONGEST`]): nogoods of
    /// at most this literal block distance.
    pub max_lbd: u32,
}

impl Sharing {
    /// No nogood longer than this is shared, whatever its distance.
    pub const LONGEST: usize = 32;

    /// Whether a nogood of `length` literals and distance `lbd` is shared.
    #[inline]
    pub(crate) fn wants(&self, length: usize, lbd: u32) -> bool {
        length <= self.max_length || (lbd <= self.max_lbd && length <= Sharing::LONGEST)
    }
}

impl Default for Sharing {
    /// Nogoods of at most 8 literals, and glue (distance two or less).
    fn default() -> Sharing {
        Sharing { max_length: 8, max_lbd: 2 }
    }
}

/// A nogood on its way from one worker to the others.
#[derive(Clone, Debug)]
pub(in crate::search) struct Shared {
    /// The pool's slot of the worker that learnt it.
    pub(in crate::search) from: usize,
    /// The clause (the negation of the nogood's facts), as learnt.
    pub(in crate::search) literals: Box<[Literal]>,
    /// Its literal block distance when learnt.
    pub(in crate::search) lbd: u32,
}

/// The most nogoods the pool holds: beyond it the oldest are dropped, and
/// a worker that has not read them (one that has not been at the root
/// since) never sees them.
const CAPACITY: usize = 1 << 16;

/// The nogoods the workers published, in order, and how far each has read.
#[derive(Debug, Default)]
struct Log {
    nogoods: std::collections::VecDeque<Shared>,
    /// The number in the whole log of `nogoods`' first.
    base: u64,
    /// Per slot, the number of the next nogood it reads.
    cursors: Vec<u64>,
}

/// The nogoods a portfolio's learning workers share: one per portfolio run,
/// each sharing worker with a slot of its own.
#[derive(Debug)]
pub(in crate::search) struct Pool {
    log: Mutex<Log>,
}

impl Pool {
    /// A pool for `slots` workers.
    pub(in crate::search) fn new(slots: usize) -> Pool {
        Pool { log: Mutex::new(Log { cursors: vec![0; slots], ..Log::default() }) }
    }

    /// Appends `outbox` (emptied) as slot `slot`'s, and moves into `inbox`
    /// the other slots' nogoods that `slot` has not read yet.
    fn exchange(&self, slot: usize, outbox: &mut Vec<Shared>, inbox: &mut Vec<Shared>) {
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let log = &mut *log;
        let start = log.cursors[slot].max(log.base);
        let first = (start - log.base) as usize;
        inbox.extend(log.nogoods.iter().skip(first).filter(|nogood| nogood.from != slot).cloned());
        log.nogoods.extend(outbox.drain(..));
        log.cursors[slot] = log.base + log.nogoods.len() as u64;
        // What every slot has read goes; beyond the capacity, the oldest too.
        let read = log.cursors.iter().copied().min().unwrap_or(0).max(log.base);
        let drop = ((read - log.base) as usize).max(log.nogoods.len().saturating_sub(CAPACITY));
        log.nogoods.drain(..drop);
        log.base += drop as u64;
    }
}

/// A worker's side of the sharing: its slot, what it shares, its outbox.
#[derive(Debug)]
pub(in crate::search) struct Exchange {
    pool: std::sync::Arc<Pool>,
    slot: usize,
    sharing: Sharing,
    outbox: Vec<Shared>,
    /// The last visit's imports (kept for its buffer).
    pub(in crate::search) inbox: Vec<Shared>,
}

impl Exchange {
    pub(in crate::search) fn new(pool: std::sync::Arc<Pool>, slot: usize, sharing: Sharing) -> Exchange {
        Exchange { pool, slot, sharing, outbox: Vec::new(), inbox: Vec::new() }
    }

    /// A nogood learnt (`literals`, of distance `lbd`): kept in the outbox
    /// when it is short enough to share.
    #[inline]
    pub(in crate::search) fn offer(&mut self, literals: &[Literal], lbd: u32) {
        if self.sharing.wants(literals.len(), lbd) {
            self.outbox.push(Shared { from: self.slot, literals: literals.into(), lbd });
        }
    }

    /// Publishes the outbox and fills the inbox with the others' nogoods
    /// not read yet; returns how many it published.
    pub(in crate::search) fn visit(&mut self) -> usize {
        let published = self.outbox.len();
        self.inbox.clear();
        self.pool.exchange(self.slot, &mut self.outbox, &mut self.inbox);
        published
    }
}

impl Solver<'_> {
    /// At the root of a learning worker that shares its nogoods (after a
    /// restart or a backjump to level 0): publishes its short nogoods and
    /// adds the others' (see the module docs), then propagates. `Err` when
    /// the root fails: the search is over. Does nothing when the worker
    /// does not share.
    pub(in crate::search) fn share_at_root(&mut self) -> Result<(), Failure> {
        let Some(mut exchange) = self.share.take() else { return Ok(()) };
        let published = exchange.visit();
        self.run.stats.nogoods_exported += published as u64;
        // The shared best, read after the pool: at least as good as the
        // bound of every nogood read (see the module docs).
        self.read_shared_best();
        let mut result = Ok(());
        let mut added = 0;
        for nogood in &exchange.inbox {
            match self.add_root_nogood(&nogood.literals, nogood.lbd) {
                Ok(kept) => added += u64::from(kept),
                Err(failure) => {
                    added += 1;
                    result = Err(failure);
                    break;
                }
            }
        }
        self.run.stats.nogoods_imported += added;
        self.share = Some(exchange);
        if result.is_ok() && added > 0 {
            result = self.propagate_queue(None);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nogood(from: usize, var: u32) -> Shared {
        Shared { from, literals: vec![Literal::AtLeast { var, value: 1 }].into(), lbd: 1 }
    }

    fn vars(nogoods: &[Shared]) -> Vec<u32> {
        nogoods.iter().map(|n| n.literals[0].var()).collect()
    }

    #[test]
    fn each_slot_reads_the_others_nogoods_once_and_the_read_ones_go() {
        let pool = Pool::new(3);
        let mut inbox = Vec::new();
        pool.exchange(0, &mut vec![nogood(0, 0), nogood(0, 1)], &mut inbox);
        assert!(inbox.is_empty(), "nothing from the others yet");
        pool.exchange(1, &mut vec![nogood(1, 2)], &mut inbox);
        assert_eq!(vars(&inbox), [0, 1]);
        inbox.clear();
        pool.exchange(0, &mut Vec::new(), &mut inbox);
        assert_eq!(vars(&inbox), [2], "its own are not read back");
        inbox.clear();
        pool.exchange(1, &mut Vec::new(), &mut inbox);
        assert!(inbox.is_empty(), "read once");
        assert_eq!(pool.log.lock().unwrap().nogoods.len(), 3, "slot 2 has read nothing yet");
        pool.exchange(2, &mut Vec::new(), &mut inbox);
        assert_eq!(vars(&inbox), [0, 1, 2]);
        let log = pool.log.lock().unwrap();
        assert_eq!((log.nogoods.len(), log.base), (0, 3), "read by every slot: gone");
    }

    #[test]
    fn the_pool_keeps_at_most_its_capacity() {
        let pool = Pool::new(2);
        let mut inbox = Vec::new();
        let mut many: Vec<Shared> = (0..CAPACITY as u32 + 10).map(|var| nogood(0, var)).collect();
        pool.exchange(0, &mut many, &mut inbox);
        pool.exchange(1, &mut Vec::new(), &mut inbox);
        assert_eq!(inbox.len(), CAPACITY, "the oldest ten were dropped unread");
        assert_eq!(inbox[0].literals[0].var(), 10);
    }

    #[test]
    fn a_worker_adds_what_another_published_and_still_proves_the_answer() {
        // Pigeonhole, 7 pigeons in 6 holes without the matching: hundreds of
        // conflicts; the workers restart after every one or two, at the root.
        let mut model = crate::model::Model::new();
        let x = model.new_vars(7, 0..=5).unwrap();
        for (i, &a) in x.iter().enumerate() {
            for &b in &x[i + 1..] {
                model.not_equal(a, b).unwrap();
            }
        }
        let config = crate::search::config::SolveConfig::default()
            .with_search(crate::search::config::Search::Learning)
            .with_restarts(crate::search::restart::Restarts::Luby { scale: 1 });
        let pool = std::sync::Arc::new(Pool::new(2));
        let all = Sharing { max_length: 32, max_lbd: 32 };
        // One after the other on this thread: the second reads all the
        // first published, at its first restart.
        let mut first = Solver::new(&model, config.clone()).unwrap();
        first.share = Some(Box::new(Exchange::new(pool.clone(), 0, all)));
        assert_eq!(first.solve(), crate::search::outcome::Outcome::Unsatisfiable);
        assert!(first.stats().nogoods_exported > 0, "{}", first.stats());
        assert_eq!(first.stats().nogoods_imported, 0);
        let mut second = Solver::new(&model, config.with_seed(5)).unwrap();
        second.share = Some(Box::new(Exchange::new(pool, 1, all)));
        #[cfg(feature = "testing")]
        second.check_nogoods(true);
        assert_eq!(second.solve(), crate::search::outcome::Outcome::Unsatisfiable);
        assert!(second.stats().nogoods_imported > 0, "{}", second.stats());
    }

    #[test]
    fn short_nogoods_or_glue_are_shared() {
        let sharing = Sharing::default();
        assert!(sharing.wants(8, 7));
        assert!(!sharing.wants(9, 3));
        assert!(sharing.wants(20, 2));
        assert!(!sharing.wants(Sharing::LONGEST + 1, 1));
    }
}
