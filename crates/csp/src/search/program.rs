//! What a solver compiles from a model and a configuration, once: the
//! domains widened into bitsets, one propagator per constraint (or the
//! all-different system for several), the watch lists, and the snapshot of
//! the root that every run starts from.

use std::any::Any;

use super::SolveError;
use super::config::{Branching, Propagation, SearchPhase, SolveConfig, ValueOrder, VarOrder};
use crate::constraint::{AllDifferentStrength, Constraint, Propagator, PropagatorOptions};
use crate::constraints::AllDifferent;
use crate::constraints::generic::Generic;
use crate::constraints::system::{Merged, System};
use crate::ids::VarId;
use crate::kernel::{Assigned, Context, Cost, ReversibleInt, Snapshot, State, Watch, Watchers};
use crate::model::Model;

/// The model's constraints as the search runs them.
pub(super) struct Program<'m> {
    pub(super) model: &'m Model,
    pub(super) config: SolveConfig,
    /// The configuration's level and branching, read once.
    pub(super) propagation: Propagation,
    pub(super) branching: Branching,
    pub(super) scopes: Vec<&'m [VarId]>,
    pub(super) constraints: Vec<&'m dyn Constraint>,
    /// Per constraint, its propagator: its own, generic support checking, or
    /// (for all-differents merged into a system) the system or a no-op.
    pub(super) propagators: Vec<Box<dyn Propagator + 'm>>,
    pub(super) idempotent: Vec<bool>,
    /// Which propagators check partial assignments (plain backtracking).
    pub(super) partial_checks: Vec<bool>,
    /// Per constraint, the propagator that does its work: its own, or the
    /// all-different system's (see [`merge_all_different`]).
    pub(super) runs_in: Vec<u32>,
    /// The all-different system's propagator and every variable it reads
    /// (the union of its constraints' scopes): what the generic explanation
    /// of its work must name, since its reasoning crosses its constraints.
    pub(super) system_scope: Option<(u32, Vec<VarId>)>,
    pub(super) watchers: Watchers,
    /// The cost of each propagator, as it chose once it had seen the domains.
    pub(super) costs: Vec<Cost>,
    /// Each variable's degree in the constraint graph (dom/deg).
    pub(super) degrees: Vec<u32>,
    /// The search plan's phases, their variables as indices (see
    /// [`SearchPhase`]), and per variable the value order of its first
    /// phase (both empty without a plan).
    pub(super) phases: Vec<(Vec<u32>, VarOrder)>,
    pub(super) phase_value_order: Vec<Option<ValueOrder>>,
    /// Per variable, its place in the list of its first phase (ties of a
    /// phase's ordering go to the first in the list).
    pub(super) phase_rank: Vec<u32>,
    /// Whether some variable is ordered [`ValueOrder::SolutionGuided`]: the
    /// search then keeps each solution's values.
    pub(super) guided: bool,
    /// Whether an ordering reads the future degrees or dom/wdeg's weights
    /// somewhere (the configuration's order or a phase's, alone or in a
    /// rotating order): the search then counts them (the sibling module `wdeg`).
    pub(super) future_degrees: bool,
    /// Whether literal activities are read somewhere
    /// ([`VarOrder::LiteralVsids`], a rotating order or
    /// [`ValueOrder::Active`], the configuration's or a phase's): the
    /// search then keeps them.
    pub(super) literal_activity: bool,
    /// Whether an ordering reads CHB's scores (the sibling module `chb`).
    pub(super) chb: bool,
    /// Whether an ordering reads LRB's scores (the sibling module `lrb`).
    pub(super) lrb: bool,
    /// The all-differents that an ordering deciding pairs `x = v` reads,
    /// when one is configured (counting-based search, [`VarOrder::MaxSd`],
    /// also in [`VarOrder::Rotate`]'s runs; the places of a value,
    /// [`VarOrder::Places`]), and the pair it chose.
    pub(super) all_differents: Option<super::density::WordAllDifferents>,
    /// The state as built, before any assumption.
    pub(super) initial: Snapshot,
    /// Under touched probing, the reversible integer of the newest sweep
    /// the domains descend from (see `probe::Sweeps`).
    pub(super) newest_sweep: Option<ReversibleInt>,
}

impl<'m> Program<'m> {
    /// Compiles `model` under `config`: the state (with the reversible integer
    /// of the search's free list, returned, allocated first, and touched
    /// probing's), the propagators,
    /// initialised, and the snapshot of the root.
    pub(super) fn compile(
        model: &'m Model,
        config: SolveConfig,
    ) -> Result<(Program<'m>, State, ReversibleInt), SolveError> {
        let mut state = State::new(model.domains(), config.bitset_limit).map_err(|e| SolveError::DomainTooLarge {
            var: model.display_name(model.var_at(e.var).expect("a variable of the model")).into_owned(),
            size: e.size,
        })?;
        let free_count = state.new_int(model.num_vars() as i64);
        let newest_sweep = config.touched_probes.then(|| state.new_int(0));
        let CompiledPhases { phases, value_order: phase_value_order, rank: phase_rank } =
            compile_phases(model, &config.phases)?;
        let options = propagator_options(&config);
        let n = model.num_constraints();
        // All-differents over small domains may be propagated as one system,
        // run by the first of them; the others' propagators never run.
        let mut system = merge_all_different(model, &config, &options, &state);
        let scopes: Vec<&[VarId]> = model.constraints().map(|(_, c)| c.scope()).collect();
        let mut runs_in: Vec<u32> = (0..n as u32).collect();
        let mut system_scope = None;
        if let Some(system) = &system {
            let leader = system.constraints()[0];
            let mut vars: Vec<VarId> = Vec::new();
            for &c in system.constraints() {
                runs_in[c as usize] = leader;
                vars.extend_from_slice(scopes[c as usize]);
            }
            vars.sort_by_key(|v| v.index);
            vars.dedup();
            system_scope = Some((leader, vars));
        }
        let mut propagators: Vec<Box<dyn Propagator + 'm>> = Vec::with_capacity(n);
        let mut pairs: Vec<(u32, Watch)> = Vec::new();
        for (id, constraint) in model.constraints() {
            let propagator: Box<dyn Propagator + 'm> = if runs_in[id.index()] != id.index {
                Box::new(Merged)
            } else if system.as_ref().is_some_and(|s| s.constraints()[0] == id.index) {
                Box::new(system.take().expect("the system is taken once"))
            } else {
                match constraint.propagator(&options) {
                    Some(p) => p,
                    None => Box::new(Generic::new(constraint, config.arc_consistency)),
                }
            };
            let interest = propagator.interest();
            for var in constraint.scope() {
                pairs.push((var.index, Watch { constraint: id.index, interest, propagator: runs_in[id.index()] }));
            }
            propagators.push(propagator);
        }
        let guided = config.value_order == ValueOrder::SolutionGuided
            || config.phases.iter().any(|phase| phase.value_order == ValueOrder::SolutionGuided);
        let reads = |of: &[VarOrder]| of.contains(&config.var_order) || phases.iter().any(|(_, o)| of.contains(o));
        // Counting-based search falls back to dom/wdeg; weighted places weigh by it.
        let future_degrees = reads(&[
            VarOrder::MrvDegree,
            VarOrder::DomDdeg,
            VarOrder::DomWdeg,
            VarOrder::Alternate,
            VarOrder::Rotate,
            VarOrder::MaxSd,
            VarOrder::MaxRelSd,
            VarOrder::WeightedPlaces,
            VarOrder::AlternatePlaces,
            VarOrder::AlternateChb,
            VarOrder::AlternateLrb,
        ]);
        let constraints: Vec<&dyn Constraint> = model.constraints().map(|(_, c)| c).collect();
        let all_differents = reads(&[
            VarOrder::MaxSd,
            VarOrder::MaxRelSd,
            VarOrder::Rotate,
            VarOrder::Places,
            VarOrder::WeightedPlaces,
            VarOrder::AlternatePlaces,
        ])
        .then(|| super::density::WordAllDifferents::new(&constraints, &state))
        .filter(|d| !d.is_empty());
        let literal_activity = reads(&[
            VarOrder::LiteralVsids,
            VarOrder::Alternate,
            VarOrder::Rotate,
            VarOrder::AlternatePlaces,
            VarOrder::ChbLiteral,
        ]) || config.value_order == ValueOrder::Active
            || config.phases.iter().any(|phase| phase.value_order == ValueOrder::Active);
        let chb = reads(&[VarOrder::Chb, VarOrder::AlternateChb, VarOrder::ChbLiteral]);
        let lrb = reads(&[VarOrder::Lrb, VarOrder::AlternateLrb]);
        let mut program = Program {
            model,
            chb,
            lrb,
            guided,
            future_degrees,
            literal_activity,
            degrees: super::var_order::static_degrees(model.num_vars(), &scopes),
            phases,
            phase_value_order,
            phase_rank,
            scopes,
            constraints,
            all_differents,
            idempotent: Vec::new(),
            partial_checks: propagators.iter().map(|p| p.has_partial_check()).collect(),
            propagators,
            runs_in,
            system_scope,
            watchers: Watchers::new(model.num_vars(), &pairs),
            costs: Vec::new(),
            initial: State::new(&[], 0).expect("an empty model").snapshot(),
            newest_sweep,
            propagation: config.propagation(),
            branching: config.branching(),
            config,
        };
        program.initialise(&mut state);
        // A propagator may choose its cost, and know whether it is
        // idempotent, once it has seen the domains.
        program.costs = program.propagators.iter().map(|p| p.cost()).collect();
        program.idempotent = program.propagators.iter().map(|p| p.is_idempotent()).collect();
        program.initial = state.snapshot();
        Ok((program, state, free_count))
    }

    /// Calls every propagator's [`initialise`](Propagator::initialise), where
    /// they allocate their reversible integers.
    fn initialise(&mut self, state: &mut State) {
        let (mut pruned, mut checks) = (0, 0);
        let mut pruned_by = vec![0; self.propagators.len()];
        for (c, propagator) in self.propagators.iter_mut().enumerate() {
            let mut ctx = Context::new(
                state,
                self.model.id(),
                c as u32,
                Assigned::Fixed,
                &mut pruned,
                &mut checks,
                &mut pruned_by,
            );
            propagator.initialise(&mut ctx);
        }
    }
}

/// A search plan as the search reads it (all empty without one).
#[derive(Default)]
struct CompiledPhases {
    /// The phases' variables as indices, with their variable ordering.
    phases: Vec<(Vec<u32>, VarOrder)>,
    /// Per variable, the value order of its first phase.
    value_order: Vec<Option<ValueOrder>>,
    /// Per variable, its place in its first phase's list.
    rank: Vec<u32>,
}

/// Compiles the search plan; an error when a phase names another model's
/// variable.
fn compile_phases(model: &Model, phases: &[SearchPhase]) -> Result<CompiledPhases, SolveError> {
    if phases.is_empty() {
        return Ok(CompiledPhases::default());
    }
    let mut compiled = CompiledPhases {
        phases: Vec::with_capacity(phases.len()),
        value_order: vec![None; model.num_vars()],
        rank: vec![u32::MAX; model.num_vars()],
    };
    for (i, phase) in phases.iter().enumerate() {
        let mut vars = Vec::with_capacity(phase.vars.len());
        for (place, &var) in phase.vars.iter().enumerate() {
            if var.model != model.id() || var.index() >= model.num_vars() {
                return Err(SolveError::PhaseVariable { phase: i });
            }
            if compiled.value_order[var.index()].is_none() {
                compiled.value_order[var.index()] = Some(phase.value_order);
                compiled.rank[var.index()] = place as u32;
            }
            vars.push(var.index);
        }
        compiled.phases.push((vars, phase.var_order));
    }
    Ok(compiled)
}

/// What of the configuration the constraints' propagators may be chosen by.
fn propagator_options(config: &SolveConfig) -> PropagatorOptions {
    PropagatorOptions { all_different: config.all_different, long_sums_from: config.long_sums_from }
}

/// The all-different system of `model`, when the configuration allows one
/// (see [`SolveConfig::separate_all_different`]): under maintained arc
/// consistency without backjumping (whose reasons are one constraint's scope
/// per removal), at least two `all_different`s of matching strength, without
/// offsets, each of at most 64 distinct variables ([`System::new`] then
/// checks their domains).
fn merge_all_different(
    model: &Model,
    config: &SolveConfig,
    options: &PropagatorOptions,
    state: &State,
) -> Option<System> {
    if config.propagation() != Propagation::Mac || config.separate_all_different || config.backjumping() {
        return None;
    }
    // One `stamp` per constraint finds a repeated variable.
    let mut stamp = vec![u32::MAX; model.num_vars()];
    let (constraints, scopes): (Vec<u32>, Vec<&[VarId]>) = model
        .constraints()
        .filter_map(|(id, c)| {
            let all_different = (c as &dyn Any).downcast_ref::<AllDifferent>()?;
            let matching = all_different.strength(options) == AllDifferentStrength::Matching;
            let scope = c.scope();
            let distinct = scope.iter().all(|var| std::mem::replace(&mut stamp[var.index()], id.index) != id.index);
            (matching && all_different.is_plain() && scope.len() <= 64 && distinct).then_some((id.index, scope))
        })
        .unzip();
    if constraints.len() < 2 {
        return None;
    }
    System::new(constraints, &scopes, model.num_vars(), state, config.all_different_intersections)
}
