//! A portfolio: one model, several solvers of different configurations (the
//! workers), one thread each; the first definitive answer wins and the
//! others are stopped.
//!
//! Search orderings disagree wildly on hard single instances: on a 25x25
//! sudoku one takes twenty times another's time, and on the next puzzle the
//! other way round. A portfolio runs several at once on the machine's cores
//! and stops at the first answer, as Gecode, Chuffed and CP-SAT do with
//! their parallel flags: it shortens the wall time to about the best
//! worker's, at the cost of the CPU time of every worker until then.
//!
//! - **Satisfaction** ([`Portfolio::solve`]): the first worker to find a
//!   solution or to prove the model unsatisfiable wins; its outcome is the
//!   portfolio's, and the others are stopped by a [`StopSignal`].
//! - **Optimisation** ([`Portfolio::optimize`], [`Portfolio::improvements`]):
//!   the workers share the incumbent. A worker that finds a solution better
//!   than every worker's so far keeps it (under a lock) and publishes its
//!   objective value in an atomic; every worker's branch and bound imposes
//!   the better of its own best and that shared one, where it imposes its own
//!   (before each variable choice and when a frame is undone: the sibling
//!   module `optimize`). The proof: the shared best only improves, and a
//!   worker excludes, at any moment, only solutions no better than the bound
//!   it imposes then, itself no better than the portfolio's final best; so a
//!   worker that exhausts its tree has proved that no solution beats the
//!   portfolio's best, which the portfolio keeps whichever worker found it.
//!   The solutions reported as they improve come in the order the lock
//!   kept them, each better than the one before.
//!
//! **Shared nogoods** ([`Portfolio::with_sharing`], off by default): the
//! learning workers publish the short nogoods they learn (a [`Sharing`]
//! selects them) in a pool, and each adds the others' at its root, after a
//! restart, one lock per visit (the submodule `share`, whose docs argue why
//! this is sound under branch and bound too: a worker imports a nogood only
//! once it has read a shared best at least as good as the bound the
//! nogood was learnt under). Workers that do not learn take no part.
//!
//! **Limits** are per worker: each worker runs under its own configuration's
//! [`Limits`](crate::Limits): nodes and CPU time count its own work, and
//! wall time runs from its own start (the workers start together, so a time
//! limit also bounds the whole).
//!
//! **Determinism**: with one worker the portfolio is exactly [`Solver`] on
//! the calling thread (the same solution, the same statistics). With more,
//! which worker answers first depends on the threads' timing, so the
//! solution found (and under a limit, the best found) may vary from run to
//! run; an optimum's objective value and unsatisfiability do not.
//!
//! ```
//! use csp::portfolio::{self, Portfolio};
//! use csp::{Model, SolveConfig};
//!
//! let mut model = Model::new();
//! let x = model.new_vars(4, 0..=3).unwrap();
//! model.all_different(&x).unwrap();
//! model.maximize(x[0] - x[3]).unwrap();
//! let configs = portfolio::diversify(&SolveConfig::default(), 2);
//! let run = Portfolio::new(&model, configs).unwrap().optimize().unwrap();
//! assert!(run.outcome.is_optimal());
//! assert_eq!(run.outcome.objective(), Some(3));
//! assert_eq!(run.stats.len(), 2, "each worker's statistics");
//! ```

use std::cell::RefCell;
use std::panic;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, mpsc};
use std::thread;

pub(super) mod share;

pub use share::Sharing;

use super::clock::StopSignal;
use super::config::{Branching, Limit, Probing, Propagation, Search, SolveConfig, ValueOrder, VarOrder};
use super::outcome::{Improvement, OptimizationOutcome, Outcome, Status};
use super::restart::Restarts;
use super::stats::Stats;
use super::{SolveError, Solver};
use crate::model::{Model, Sense, Solution};

/// The configurations of `workers` diverse workers made from one: a
/// general default (nothing in it is specific to a kind of model; a tool may
/// choose its own list).
///
/// - worker 0: `config` itself;
/// - worker 1: `config` with learning switched: with [`Search::Learning`]
///   when `config` does not learn (what it cannot learn with, probing and
///   nogoods from restarts, dropped), and without it when `config` learns
///   (maintained arc consistency with binary decisions, the same orderings;
///   Glucose's restarts, which follow the learnt nogoods, become Luby's);
/// - worker 2: search that learns with [`VarOrder::AlternatePlaces`] (dom/wdeg
///   weighed with exact cover's place sets, and literal VSIDS, in turn at
///   Luby restarts unless `config` restarts otherwise);
/// - workers 3 and on: workers 0, 1 and 2 in turn, each with another seed
///   and [`ValueOrder::Random`], so that they differ from their model.
///
/// Why these: on the twelve 25x25 sudokus of an outside generator
/// (BENCHMARKS.md, "Exact cover's choice"), learning on and off are the pair
/// that disagree most and cover each other best: the default without
/// learning takes 20.5 s on one where learning takes 2.06 s, and learning
/// takes 19.5 s on another where the default takes 2.86 s; the better of
/// the two is at most 4.1 s on every one of the twelve. Learning with
/// `aplaces` is the third: 0.60 s on the puzzle where learning alone takes
/// 19.5 s. Without an all-different, `aplaces` is `alternate`, so the third
/// worker is then learning with dom/wdeg and literal VSIDS in turn.
/// Beyond three, seeds and random values are the cheap diversity left.
pub fn diversify(config: &SolveConfig, workers: usize) -> Vec<SolveConfig> {
    let [own, switched, third] = diverse(config);
    extend(&[own, switched, third], workers)
}

/// [`diversify`]'s workers for a portfolio whose learning workers share
/// their nogoods ([`Portfolio::with_sharing`]): when `config` learns,
/// learning with [`VarOrder::AlternatePlaces`] comes second and `config`
/// without learning third, so that two workers learn and have nogoods to
/// share; otherwise [`diversify`]'s order.
pub fn diversify_sharing(config: &SolveConfig, workers: usize) -> Vec<SolveConfig> {
    let [own, switched, third] = diverse(config);
    if config.learning() { extend(&[own, third, switched], workers) } else { extend(&[own, switched, third], workers) }
}

/// `config`, `config` with learning switched, and learning with
/// [`VarOrder::AlternatePlaces`] (see [`diversify`]).
fn diverse(config: &SolveConfig) -> [SolveConfig; 3] {
    let switched = switch_learning(config);
    let learner = if config.learning() { config } else { &switched };
    let mut third = learner.clone().with_var_order(VarOrder::AlternatePlaces);
    if third.restarts == Restarts::Never {
        third.restarts = Restarts::Luby { scale: Restarts::LUBY_SCALE };
    }
    [config.clone(), switched, third]
}

/// The configurations of `workers` workers from `bases`: the bases in
/// order, then (beyond them) the bases in turn, each with another seed and
/// [`ValueOrder::Random`], so that they differ from their model. A tool
/// that chooses its own workers ([`diversify`]'s are the engine's) extends
/// its list so. No base, no worker.
pub fn extend(bases: &[SolveConfig], workers: usize) -> Vec<SolveConfig> {
    if bases.is_empty() {
        return Vec::new();
    }
    (0..workers)
        .map(|worker| {
            let base = bases[worker % bases.len()].clone();
            if worker < bases.len() {
                base
            } else {
                let seed = base.seed.wrapping_add(worker as u64);
                base.with_seed(seed).with_value_order(ValueOrder::Random)
            }
        })
        .collect()
}

/// `config` with learning switched on or off, and what the other search
/// cannot do dropped.
fn switch_learning(config: &SolveConfig) -> SolveConfig {
    let mut switched = config.clone();
    if config.learning() {
        switched.search = Search::Chronological { propagation: Propagation::Mac, branching: Branching::Binary };
        if matches!(switched.restarts, Restarts::Glucose { .. }) {
            switched.restarts = Restarts::Luby { scale: Restarts::LUBY_SCALE };
        }
    } else {
        switched.search = Search::Learning;
        switched.probing = Probing::Off;
        switched.restart_nogoods = false;
    }
    switched
}

/// Several solvers of different configurations on one model (see the
/// module docs).
#[derive(Clone, Debug)]
pub struct Portfolio<'m> {
    model: &'m Model,
    configs: Vec<SolveConfig>,
    /// Which learnt nogoods the learning workers share, if they do.
    sharing: Option<Sharing>,
    /// Whether each worker checks its nogoods (`Solver::check_nogoods`).
    #[cfg(feature = "testing")]
    check_nogoods: bool,
}

/// What a portfolio found, and what each worker did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortfolioRun<T> {
    /// The portfolio's answer.
    pub outcome: T,
    /// The worker whose answer is definitive: it found the solution, proved
    /// the model unsatisfiable or proved the best solution optimal. `None`
    /// when every worker stopped at a limit.
    pub winner: Option<usize>,
    /// The worker that found the outcome's solution, if there is one (under
    /// optimisation, maybe not the one that proved it optimal).
    pub found_by: Option<usize>,
    /// Each worker's statistics, by worker.
    pub stats: Vec<Stats>,
    /// How each worker's run ended, by worker: the workers stopped after
    /// another's answer end with [`Limit::Stopped`].
    pub statuses: Vec<Status>,
}

impl<T> PortfolioRun<T> {
    /// The work of every worker: their counters summed (the time too: CPU
    /// spent in all, not the wall time; the maximum depth is the deepest).
    pub fn summed_stats(&self) -> Stats {
        let mut total = Stats::default();
        for worker in &self.stats {
            total.accumulate(worker);
        }
        total
    }
}

/// The best objective value of a portfolio's workers, for their branch and
/// bound (see the module docs).
#[derive(Debug)]
pub(super) struct Incumbent {
    sense: Sense,
    /// The best value, or `none(sense)` before the first solution (objective
    /// values lie within -2^62..=2^62, so neither end of `i64` is one).
    best: AtomicI64,
}

impl Incumbent {
    fn new(sense: Sense) -> Incumbent {
        Incumbent { sense, best: AtomicI64::new(Incumbent::none(sense)) }
    }

    fn none(sense: Sense) -> i64 {
        match sense {
            Sense::Minimize => i64::MAX,
            Sense::Maximize => i64::MIN,
        }
    }

    /// The shared best, once a worker has found a solution.
    pub(super) fn get(&self) -> Option<i64> {
        let best = self.best.load(Ordering::Acquire);
        (best != Incumbent::none(self.sense)).then_some(best)
    }

    fn publish(&self, objective: i64) {
        match self.sense {
            Sense::Minimize => self.best.fetch_min(objective, Ordering::AcqRel),
            Sense::Maximize => self.best.fetch_max(objective, Ordering::AcqRel),
        };
    }
}

/// What a worker's thread gives back.
type WorkerResult<R> = Result<(R, Stats, Status), SolveError>;

/// Raises the stop signal if the worker's thread unwinds, so that the
/// others stop and the portfolio can join them and pass the panic on.
struct StopOnPanic(StopSignal);

impl Drop for StopOnPanic {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
}

impl<'m> Portfolio<'m> {
    /// A portfolio of one worker per configuration, worker `i` running
    /// `configs[i]`. [`SolveError::NoWorkers`] without a configuration; a
    /// configuration a [`Solver`] refuses is refused when the portfolio
    /// runs, with the same error.
    pub fn new(model: &'m Model, configs: Vec<SolveConfig>) -> Result<Portfolio<'m>, SolveError> {
        if configs.is_empty() {
            return Err(SolveError::NoWorkers);
        }
        Ok(Portfolio {
            model,
            configs,
            sharing: None,
            #[cfg(feature = "testing")]
            check_nogoods: false,
        })
    }

    /// This portfolio with its learning workers sharing the learnt nogoods
    /// `sharing` selects (`None`: each learns alone, the default). See the
    /// module `share`'s docs in the source: a worker publishes its short
    /// nogoods and adds the others' at its root, after a restart; workers
    /// that do not learn take no part, and with one worker it changes
    /// nothing.
    pub fn with_sharing(mut self, sharing: Option<Sharing>) -> Portfolio<'m> {
        self.sharing = sharing;
        self
    }

    /// Which nogoods the learning workers share, if they do.
    pub fn sharing(&self) -> Option<Sharing> {
        self.sharing
    }

    /// This portfolio with every worker checking its nogoods, its own and
    /// those it imports, against the brute-force solutions of small models
    /// ([`Solver::check_nogoods`]; feature `testing`).
    #[cfg(feature = "testing")]
    pub fn check_nogoods(mut self, on: bool) -> Portfolio<'m> {
        self.check_nogoods = on;
        self
    }

    /// The workers' configurations.
    pub fn configs(&self) -> &[SolveConfig] {
        &self.configs
    }

    /// Finds a solution, or proves there is none, with every worker at once:
    /// the first definitive answer wins and the other workers are stopped.
    /// The outcome is [`Outcome::LimitReached`] only when every worker
    /// reached a limit (the first worker's limit).
    pub fn solve(&self) -> Result<PortfolioRun<Outcome<'m>>, SolveError> {
        let winner = OnceLock::new();
        let results = self.run(
            None,
            |()| true,
            |index, solver, stop, _: &dyn Fn(()) -> bool| {
                let outcome = solver.solve();
                if !matches!(outcome, Outcome::LimitReached(_)) && winner.set(index).is_ok() {
                    stop.stop();
                }
                outcome
            },
        )?;
        let winner = winner.into_inner();
        let (mut outcomes, stats, statuses) = unzip(results);
        let outcome = match winner {
            Some(index) => outcomes.swap_remove(index),
            None => Outcome::LimitReached(first_limit(&statuses)),
        };
        let found_by = winner.filter(|_| outcome.is_solved());
        Ok(PortfolioRun { outcome, winner, found_by, stats, statuses })
    }

    /// Finds the best solution of the model's objective by branch and bound,
    /// with every worker at once and the incumbent shared (see the module
    /// docs), and proves it optimal unless every worker stops at a limit.
    pub fn optimize(&self) -> Result<PortfolioRun<OptimizationOutcome<'m>>, SolveError> {
        self.improvements(|_, _| true)
    }

    /// As [`optimize`](Portfolio::optimize), calling `on_improvement` on the
    /// calling thread with each solution better than every earlier one of
    /// any worker, and the worker that found it, in order (never a worse
    /// one after a better one). When it returns false the workers are
    /// stopped ([`Limit::Stopped`]); a worker may still have found a better
    /// solution meanwhile, which the outcome then holds.
    pub fn improvements(
        &self,
        mut on_improvement: impl FnMut(usize, &Improvement<'m>) -> bool,
    ) -> Result<PortfolioRun<OptimizationOutcome<'m>>, SolveError> {
        let objective = self.model.objective();
        let incumbent = objective.map(|objective| Arc::new(Incumbent::new(objective.sense)));
        // The best solution of any worker: its objective value, the
        // solution and its worker.
        let kept: Mutex<Option<(i64, Solution<'m>, usize)>> = Mutex::new(None);
        let winner = OnceLock::new();
        let on_message = |(worker, improvement): (usize, Improvement<'m>)| on_improvement(worker, &improvement);
        let results = self.run(incumbent.clone(), on_message, |index, solver, stop, send| {
            let mut improvements = solver.improvements();
            for improvement in improvements.by_ref() {
                let mut best = kept.lock().unwrap_or_else(PoisonError::into_inner);
                let better = match (&*best, objective) {
                    (None, _) => true,
                    (Some((value, ..)), Some(objective)) => objective.improves(improvement.objective, *value),
                    // Without an objective the first solution is optimal.
                    (Some(_), None) => false,
                };
                if better {
                    *best = Some((improvement.objective, improvement.solution.clone(), index));
                    if let Some(incumbent) = &incumbent {
                        incumbent.publish(improvement.objective);
                    }
                    // Sent under the lock: they arrive in this order.
                    if !send((index, improvement)) {
                        break;
                    }
                }
            }
            if improvements.status() == Status::Complete && winner.set(index).is_ok() {
                stop.stop();
            }
        })?;
        let winner = winner.into_inner();
        let (_, stats, statuses) = unzip(results);
        let kept = kept.into_inner().unwrap_or_else(PoisonError::into_inner);
        let found_by = kept.as_ref().map(|(.., worker)| *worker);
        let outcome = match (winner, kept) {
            (Some(_), Some((objective, solution, _))) => OptimizationOutcome::Optimal { solution, objective },
            (Some(_), None) => OptimizationOutcome::Unsatisfiable,
            (None, Some((objective, solution, _))) => {
                OptimizationOutcome::BestFound { solution, objective, limit: first_limit(&statuses) }
            }
            (None, None) => OptimizationOutcome::LimitReached(first_limit(&statuses)),
        };
        Ok(PortfolioRun { outcome, winner, found_by, stats, statuses })
    }

    /// Runs `work` with one solver per configuration: on the calling thread
    /// when there is one (exactly [`Solver`], no signal, no incumbent), else
    /// one thread each, the solvers watching one stop signal and sharing
    /// `incumbent`. What the workers send (`work`'s last argument, which
    /// returns false once the messages are no longer wanted) goes to
    /// `on_message` on the calling thread, as it comes (with one worker, at
    /// once), until it returns false (the workers are then stopped). A
    /// worker's error stops the others and is returned (the first worker's,
    /// by index); a worker's panic stops the others and is passed on once
    /// they are joined.
    fn run<R: Send, M: Send>(
        &self,
        incumbent: Option<Arc<Incumbent>>,
        mut on_message: impl FnMut(M) -> bool,
        work: impl Fn(usize, &mut Solver<'m>, &StopSignal, &dyn Fn(M) -> bool) -> R + Sync,
    ) -> Result<Vec<(R, Stats, Status)>, SolveError> {
        let stop = StopSignal::new();
        if let [config] = self.configs.as_slice() {
            let mut solver = Solver::new(self.model, config.clone())?;
            #[cfg(feature = "testing")]
            solver.check_nogoods(self.check_nogoods);
            let on_message = RefCell::new(on_message);
            let send = |message| (on_message.borrow_mut())(message);
            let result = work(0, &mut solver, &stop, &send);
            return Ok(vec![(result, solver.stats().clone(), solver.status())]);
        }
        let (sender, receiver) = mpsc::channel();
        let model = self.model;
        let work = &work;
        let mut exchanges = self.exchanges().into_iter();
        #[cfg(feature = "testing")]
        let check_nogoods = self.check_nogoods;
        let results: Vec<thread::Result<WorkerResult<R>>> = thread::scope(|scope| {
            let handles: Vec<_> = self
                .configs
                .iter()
                .enumerate()
                .map(|(index, config)| {
                    let (stop, incumbent, sender) = (stop.clone(), incumbent.clone(), sender.clone());
                    let exchange = exchanges.next().flatten();
                    scope.spawn(move || {
                        let _guard = StopOnPanic(stop.clone());
                        let mut solver = match Solver::new(model, config.clone()) {
                            Ok(solver) => solver,
                            Err(error) => {
                                stop.stop();
                                return Err(error);
                            }
                        };
                        solver.stop_on(stop.clone());
                        solver.incumbent = incumbent;
                        solver.share = exchange.map(Box::new);
                        #[cfg(feature = "testing")]
                        solver.check_nogoods(check_nogoods);
                        // The receiver outlives every worker: a send fails
                        // only if the calling thread panicked.
                        let send = |message| sender.send(message).is_ok();
                        let result = work(index, &mut solver, &stop, &send);
                        Ok((result, solver.stats().clone(), solver.status()))
                    })
                })
                .collect();
            // The workers hold the other senders: the messages end when the
            // last worker does.
            drop(sender);
            let mut listening = true;
            for message in receiver {
                if listening && !on_message(message) {
                    listening = false;
                    stop.stop();
                }
            }
            handles.into_iter().map(|handle| handle.join()).collect()
        });
        let mut collected = Vec::with_capacity(results.len());
        let mut first_error = None;
        for result in results {
            match result {
                Ok(Ok(result)) => collected.push(result),
                Ok(Err(error)) => {
                    first_error.get_or_insert(error);
                }
                // A worker panicked (a bug, not bad input): the others were
                // stopped and joined; the panic goes on.
                Err(payload) => panic::resume_unwind(payload),
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(collected),
        }
    }
}

impl Portfolio<'_> {
    /// Each worker's side of the shared nogoods, by worker: under
    /// [`with_sharing`](Portfolio::with_sharing), the learning workers of
    /// one bitset limit (whose literals mean the same, see the module
    /// `share`) share a pool when they are two or more; the others get
    /// none.
    fn exchanges(&self) -> Vec<Option<share::Exchange>> {
        let mut exchanges: Vec<Option<share::Exchange>> = self.configs.iter().map(|_| None).collect();
        let Some(sharing) = self.sharing else { return exchanges };
        let mut limits: Vec<u64> = self.configs.iter().filter(|c| c.learning()).map(|c| c.bitset_limit).collect();
        limits.sort_unstable();
        limits.dedup();
        for limit in limits {
            let members: Vec<usize> = (0..self.configs.len())
                .filter(|&i| self.configs[i].learning() && self.configs[i].bitset_limit == limit)
                .collect();
            if members.len() < 2 {
                continue;
            }
            let pool = Arc::new(share::Pool::new(members.len()));
            for (slot, &worker) in members.iter().enumerate() {
                exchanges[worker] = Some(share::Exchange::new(pool.clone(), slot, sharing));
            }
        }
        exchanges
    }
}

/// The workers' results, their statistics and their statuses apart.
fn unzip<R>(results: Vec<(R, Stats, Status)>) -> (Vec<R>, Vec<Stats>, Vec<Status>) {
    let mut outcomes = Vec::with_capacity(results.len());
    let mut stats = Vec::with_capacity(results.len());
    let mut statuses = Vec::with_capacity(results.len());
    for (outcome, stat, status) in results {
        outcomes.push(outcome);
        stats.push(stat);
        statuses.push(status);
    }
    (outcomes, stats, statuses)
}

/// The limit to report when no worker answered: the first worker's own
/// limit that is not the portfolio's stop signal, else the stop signal.
fn first_limit(statuses: &[Status]) -> Limit {
    statuses
        .iter()
        .find_map(|status| match status {
            Status::LimitReached(limit) if *limit != Limit::Stopped => Some(*limit),
            _ => None,
        })
        .unwrap_or(Limit::Stopped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_bound_bounds_a_worker_as_its_own_would() {
        // The largest x + y with x < y over 0..=9: 8 + 9.
        let mut model = Model::new();
        let x = model.new_var(0..=9).unwrap();
        let y = model.new_var(0..=9).unwrap();
        model.less_than(x, y).unwrap();
        model.maximize(x + y).unwrap();
        for config in [SolveConfig::default(), SolveConfig::default().with_search(Search::Learning)] {
            let incumbent = Arc::new(Incumbent::new(Sense::Maximize));
            let mut solver = Solver::new(&model, config.clone()).unwrap();
            solver.incumbent = Some(incumbent.clone());
            let alone: Vec<i64> = solver.improvements().map(|i| i.objective).collect();
            assert_eq!(alone.first(), Some(&1), "{config}: nothing published, the worker's own bound");
            // Another worker found 15: only better solutions are looked for.
            incumbent.publish(15);
            let bounded: Vec<i64> = solver.improvements().map(|i| i.objective).collect();
            assert!(bounded.iter().all(|&objective| objective > 15), "{config}: {bounded:?}");
            assert_eq!(bounded.last(), Some(&17), "{config}");
            assert_eq!(solver.status(), Status::Complete);
            // Another worker found the optimum: this one proves it, finding nothing.
            incumbent.publish(17);
            assert_eq!(solver.improvements().count(), 0, "{config}");
            assert_eq!(solver.status(), Status::Complete);
            // A worse value published later does not loosen the bound.
            incumbent.publish(3);
            assert_eq!(incumbent.get(), Some(17));
        }
    }

    #[test]
    fn the_shared_best_only_improves_by_the_sense() {
        let minimizing = Incumbent::new(Sense::Minimize);
        assert_eq!(minimizing.get(), None);
        minimizing.publish(5);
        minimizing.publish(6);
        assert_eq!(minimizing.get(), Some(5));
        let maximizing = Incumbent::new(Sense::Maximize);
        maximizing.publish(5);
        maximizing.publish(4);
        assert_eq!(maximizing.get(), Some(5));
    }
}
