//! Domain consistency by bipartite matching (Régin 1994), for any domains.

use crate::constraint::Propagator;
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Cost, Explanation, PropagationResult};

use super::NONE;
use super::bitset::SmallMatching;
use super::bounds::BoundsConsistency;
use super::pairwise::{self, Done, Pairwise};
use super::values::LocalValues;
use crate::constraints::graph::{Graph, Tarjan};

/// Domain consistency by bipartite matching (Régin 1994).
///
/// A value `a` of variable `x` has a support exactly when the edge `x - a`
/// belongs to some maximum matching of the variable-value graph. With a
/// matching covering every variable in hand, orient matching edges from variable
/// to value and the others from value to variable, and add a sink reachable from
/// every free value and reached from every matched value. An edge outside the
/// matching is then in some maximum matching iff its two ends lie in the same
/// strongly connected component (an even alternating cycle, or an even
/// alternating path from a free value through the sink).
///
/// The matching is kept between calls and repaired (Régin's incremental
/// version): after a removal only the variables that lost their matched value
/// need an augmenting path.
///
/// When a variable's domain is an interval (a range too wide for a bitset),
/// the graph would have millions of value nodes: the propagator is then
/// bounds consistency, the hull of domain consistency over intervals. When
/// the graph would have more than [`MATCHING_EDGES`] edges (10^4 variables
/// over 10^4 values each: 10^8, every call walking them all), it is bounds
/// consistency and pairwise value elimination (Gecode's default `distinct`
/// is the latter alone).
pub(super) struct Matching<'c> {
    vars: &'c [VarId],
    offsets: &'c [i64],
    values: LocalValues,
    /// The matched local value of each variable, or `NONE`.
    var_match: Vec<u32>,
    /// The matched variable of each local value, or `NONE`.
    val_match: Vec<u32>,
    /// The current domains as local value ids, in compressed rows.
    dom_start: Vec<u32>,
    dom: Vec<u32>,
    graph: Graph,
    fill: Vec<u32>,
    visited: Vec<u32>,
    stamp: u32,
    path: Vec<(u32, u32)>,
    tarjan: Tarjan,
    /// The bitset version, when every domain is one word of consecutive values
    /// and the shifted values span at most 64.
    small: Option<Box<SmallMatching>>,
    /// Bounds consistency instead, when some domain is an interval or the
    /// graph is too large; with value elimination (`values`) in the latter case.
    wide: Option<Box<BoundsConsistency<'c>>>,
    values_too: Option<Box<Pairwise<'c>>>,
    /// The positions plain backtracking has checked (see [`pairwise::check_partial`]).
    checked: Done,
}

impl<'c> Matching<'c> {
    pub(super) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        Matching {
            vars,
            offsets,
            values: LocalValues::Dense { base: 0, span: 0 },
            var_match: vec![NONE; vars.len()],
            val_match: Vec::new(),
            dom_start: Vec::new(),
            dom: Vec::new(),
            graph: Graph::default(),
            fill: Vec::new(),
            visited: Vec::new(),
            stamp: 0,
            path: Vec::new(),
            tarjan: Tarjan::default(),
            small: None,
            wide: None,
            values_too: None,
            checked: Done::new(vars.len()),
        }
    }

    /// Reads the current domains as local value ids.
    fn load(&mut self, ctx: &Context<'_>) {
        self.dom_start.clear();
        self.dom.clear();
        for (&var, &offset) in self.vars.iter().zip(self.offsets) {
            self.dom_start.push(self.dom.len() as u32);
            let values = &self.values;
            self.dom.extend(ctx.values(var).map(|v| values.id(i128::from(v) + i128::from(offset))));
        }
        self.dom_start.push(self.dom.len() as u32);
    }

    fn domain(&self, p: usize) -> &[u32] {
        &self.dom[self.dom_start[p] as usize..self.dom_start[p + 1] as usize]
    }

    /// Finds an augmenting path from variable `root` (depth first, iterative) and
    /// flips it. Returns false when `root` cannot be matched.
    fn augment(&mut self, root: usize) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.visited.iter_mut().for_each(|v| *v = 0);
            self.stamp = 1;
        }
        self.path.clear();
        self.path.push((root as u32, self.dom_start[root]));
        while let Some(&mut (p, ref mut cursor)) = self.path.last_mut() {
            if *cursor == self.dom_start[p as usize + 1] {
                self.path.pop();
                continue;
            }
            let a = self.dom[*cursor as usize];
            *cursor += 1;
            if self.visited[a as usize] == self.stamp {
                continue;
            }
            self.visited[a as usize] = self.stamp;
            let owner = self.val_match[a as usize];
            if owner == NONE {
                // Flip the path: every variable on it takes the value it was
                // exploring (the one just before its cursor).
                for &(q, cursor) in &self.path {
                    let value = self.dom[cursor as usize - 1];
                    self.var_match[q as usize] = value;
                    self.val_match[value as usize] = q;
                }
                return true;
            }
            self.path.push((owner, self.dom_start[owner as usize]));
        }
        false
    }

    /// Builds the oriented graph described on [`Matching`]. Nodes: variables
    /// `0..n`, values `n..n+m`, the sink `n+m`.
    fn build_graph(&mut self) {
        let n = self.vars.len();
        let m = self.values.len();
        let sink = (n + m) as u32;
        let g = &mut self.graph;
        g.start.clear();
        g.edges.clear();
        for p in 0..n {
            g.start.push(g.edges.len() as u32);
            g.edges.push(n as u32 + self.var_match[p]);
        }
        // Value nodes: the other variables holding the value, then the sink if
        // the value is matched. A matched value's owner holds it, so either way a
        // value has as many out-edges as variables hold it.
        let fill = &mut self.fill;
        fill.clear();
        fill.resize(m, 0);
        for &a in &self.dom {
            fill[a as usize] += 1;
        }
        let mut at = g.edges.len() as u32;
        for slot in fill.iter_mut() {
            g.start.push(at);
            let degree = *slot;
            *slot = at;
            at += degree;
        }
        g.start.push(at); // the sink's edges follow the values' edges
        g.edges.resize(at as usize, 0);
        for p in 0..n {
            for &a in &self.dom[self.dom_start[p] as usize..self.dom_start[p + 1] as usize] {
                if self.val_match[a as usize] != p as u32 {
                    g.edges[fill[a as usize] as usize] = p as u32;
                    fill[a as usize] += 1;
                }
            }
        }
        for (&owner, &slot) in self.val_match.iter().zip(fill.iter()) {
            if owner != NONE {
                g.edges[slot as usize] = sink;
            }
        }
        // The sink reaches every free value.
        for a in 0..m {
            if self.val_match[a] == NONE {
                g.edges.push((n + a) as u32);
            }
        }
        g.start.push(g.edges.len() as u32);
    }
}

/// The most edges a variable-value graph may have for [`Matching`] to walk it
/// on every call (2^20: 1,024 variables over 1,024 values each).
const MATCHING_EDGES: u64 = 1 << 20;

impl Propagator for Matching<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        // An interval's size may be near 2^64: the sum saturates.
        let edges = self.vars.iter().fold(0u64, |sum, &var| sum.saturating_add(ctx.size(var) as u64));
        let interval = self.vars.iter().any(|&var| ctx.is_interval(var));
        if interval || edges > MATCHING_EDGES {
            let mut wide = Box::new(BoundsConsistency::new(self.vars, self.offsets));
            wide.initialise(ctx);
            self.wide = Some(wide);
            if !interval {
                let mut values = Box::new(Pairwise::new(self.vars, self.offsets));
                values.initialise(ctx);
                self.values_too = Some(values);
            }
            return;
        }
        self.checked.initialise(ctx);
        self.values = LocalValues::of(self.vars, self.offsets, ctx);
        self.val_match = vec![NONE; self.values.len()];
        self.visited = vec![0; self.values.len()];
        self.small = SmallMatching::new(self.vars, self.offsets, ctx);
        if let Some(small) = &mut self.small {
            small.complete_next = Some(ctx.new_reversible_int(0));
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        if let Some(wide) = &mut self.wide {
            if let Some(values) = &mut self.values_too {
                values.propagate(ctx)?;
            }
            return wide.propagate(ctx);
        }
        let n = self.vars.len();
        if n > self.values.len() {
            return Err(Conflict);
        }
        if let Some(small) = &mut self.small {
            // Gecode's scheme for domain-consistent distinct: a cheap pass first,
            // then the matching once the cheap propagators are done.
            // The flag is reversible so that a conflict, which empties the queue,
            // leaves every propagator in a state that only depends on the domains.
            let cell = small.complete_next.expect("initialised");
            // A cheap call (a probe's) stops after the cheap pass, and
            // leaves the flag to the full calls.
            if ctx.is_cheap() {
                small.cheap(self.vars, ctx)?;
                return Ok(());
            }
            if ctx.can_reschedule() && ctx.get(cell) == 0 {
                if small.cheap(self.vars, ctx)? {
                    ctx.set(cell, 1);
                    ctx.reschedule(Cost::Expensive);
                }
                return Ok(());
            }
            ctx.set(cell, 0);
            return small.propagate(self.vars, ctx);
        }
        self.load(ctx);
        ctx.count_checks(n as u64);
        // Keep the matched edges that are still in the domains.
        for p in 0..n {
            let a = self.var_match[p];
            if a != NONE && self.domain(p).binary_search(&a).is_err() {
                self.var_match[p] = NONE;
                self.val_match[a as usize] = NONE;
            }
        }
        // A free value of its own first (the first call's matching greedy):
        // a path from each variable through all the earlier ones (n^3/6
        // steps on a permutation of 10^4) only where none is free. The
        // values pruned do not depend on which maximum matching is found.
        for p in 0..n {
            if self.var_match[p] == NONE {
                let range = self.dom_start[p] as usize..self.dom_start[p + 1] as usize;
                if let Some(&a) = self.dom[range].iter().find(|&&a| self.val_match[a as usize] == NONE) {
                    self.var_match[p] = a;
                    self.val_match[a as usize] = p as u32;
                }
            }
        }
        for p in 0..n {
            if self.var_match[p] == NONE && !self.augment(p) {
                return Err(Conflict);
            }
        }
        self.build_graph();
        self.tarjan.run(&self.graph);
        let component = &self.tarjan.component;
        for p in 0..n {
            let matched = self.var_match[p];
            let mine = component[p];
            for i in self.dom_start[p] as usize..self.dom_start[p + 1] as usize {
                let a = self.dom[i];
                if a != matched && component[n + a as usize] != mine {
                    // A shifted value of variable `p`, so the value fits `i64`.
                    let value = self.values.value(a) - i128::from(self.offsets[p]);
                    ctx.remove(self.vars[p], value as i64)?;
                }
            }
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        // The bitset version starts with a cheap pass and reschedules itself.
        if self.small.is_some() || self.wide.is_some() { Cost::Cheap } else { Cost::Expensive }
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn has_partial_check(&self) -> bool {
        true
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        super::explain::answer(self.vars, self.offsets, why)
    }

    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        if let Some(wide) = &mut self.wide {
            return wide.check_partial(ctx);
        }
        pairwise::check_partial(self.vars, self.offsets, &mut self.checked, ctx)
    }
}
