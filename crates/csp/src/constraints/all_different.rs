//! `all_different`: pairwise value elimination, and domain consistency by
//! bipartite matching (Régin 1994).

use crate::config::{AllDifferentStrength, Propagation, SolveConfig};
use crate::constraint::{Constraint, Propagator};
use crate::ids::VarId;
use crate::kernel::Context;
use crate::kernel::{Conflict, Cost, PropagationResult};
use crate::kernel::{Event, ReversibleInt};

use super::small_matching::SmallMatching;

/// The values `vars[i] + offsets[i]` are pairwise different (offsets default to 0).
#[derive(Clone, Debug)]
pub struct AllDifferent {
    vars: Vec<VarId>,
    offsets: Vec<i64>,
    strength: Option<AllDifferentStrength>,
}

impl AllDifferent {
    /// The constraint; `offsets` (one per variable) default to 0, and `strength`
    /// to the solver's configuration. Prefer [`Model::all_different`](crate::Model::all_different),
    /// which checks the arguments.
    pub fn new(vars: Vec<VarId>, offsets: Option<Vec<i64>>, strength: Option<AllDifferentStrength>) -> AllDifferent {
        let offsets = offsets.unwrap_or_else(|| vec![0; vars.len()]);
        AllDifferent { vars, offsets, strength }
    }

    /// The offsets, one per variable.
    pub fn offsets(&self) -> &[i64] {
        &self.offsets
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        // Inline storage: plain backtracking calls this at every full scope.
        let mut shifted: smallvec::SmallVec<[i64; 64]> = values.iter().zip(&self.offsets).map(|(v, o)| v + o).collect();
        shifted.sort_unstable();
        shifted.windows(2).all(|w| w[0] != w[1])
    }

    fn kind(&self) -> &str {
        "all_different"
    }

    fn violation_counter(&self) -> Option<Box<dyn crate::local_search::ViolationCounter + '_>> {
        Some(Box::new(AllDifferentCounter::new(&self.vars, &self.offsets)))
    }

    fn propagator(&self, config: &SolveConfig) -> Option<Box<dyn Propagator + '_>> {
        // Plain backtracking only checks, and checks pair by pair whatever the strength.
        if config.propagation == Propagation::None {
            return Some(Box::new(Pairwise::new(&self.vars, &self.offsets)));
        }
        Some(match self.strength.unwrap_or(config.all_different) {
            AllDifferentStrength::Pairwise => Box::new(Pairwise::new(&self.vars, &self.offsets)),
            AllDifferentStrength::Matching => Box::new(Matching::new(&self.vars, &self.offsets)),
        })
    }

    /// The number of pairs of variables with the same (shifted) value.
    fn violation(&self, values: &[i64]) -> u64 {
        let mut shifted: Vec<i64> = values.iter().zip(&self.offsets).map(|(v, o)| v + o).collect();
        shifted.sort_unstable();
        let mut pairs = 0u64;
        let mut run = 1u64;
        for w in shifted.windows(2) {
            if w[0] == w[1] {
                pairs += run;
                run += 1;
            } else {
                run = 1;
            }
        }
        pairs
    }
}

/// Pairwise value elimination, the propagation of the clique of `x_i + o_i !=
/// x_j + o_j`: when a variable is assigned, its shifted value is removed from
/// the others.
///
/// The positions are kept in a sparse set: `order[..done]` are assigned and
/// already propagated, `index[p]` is where `p` sits in `order`, and only `done`
/// is trailed (swaps inside `order[done..]` need no undo). The positions not
/// done are also threaded, in scope order, on a doubly linked list (Knuth's
/// dancing links): a done position is unlinked, and after a backtrack the
/// positions that are no longer done are linked back in reverse order. Scans
/// walk that list, so they touch only the positions not done, in the order
/// their domains lie in memory.
struct Pairwise<'c> {
    vars: &'c [VarId],
    offsets: &'c [i64],
    order: Vec<u32>,
    index: Vec<u32>,
    done: Option<ReversibleInt>,
    /// When every variable's values are consecutive: `offsets[p]` plus the value
    /// of `p`'s position 0, so that a shifted value maps to a position by one
    /// subtraction; and each variable's number of positions.
    dense: Option<(Vec<i64>, Vec<u32>)>,
    /// The scope position of each model variable from `first_var` on (`NONE`
    /// if not in the scope), when the scope's variables are close together.
    first_var: u32,
    position_of: Vec<u32>,
    /// Scratch: the `(variable, value position)` pairs to remove.
    hits: Vec<(u32, u32)>,
    /// Whether the scope is model variables `k, k+1, ...` in a word-major state.
    consecutive: bool,
    /// The list of positions not done: `next`/`prev` with the head at index `n`.
    next: Vec<u32>,
    prev: Vec<u32>,
    /// How many positions are unlinked: exactly `order[..unlinked]`.
    unlinked: usize,
}

impl<'c> Pairwise<'c> {
    fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        let n = vars.len() as u32;
        Pairwise {
            vars,
            offsets,
            order: (0..n).collect(),
            index: (0..n).collect(),
            done: None,
            dense: None,
            first_var: 0,
            position_of: Vec::new(),
            hits: Vec::new(),
            consecutive: false,
            // A circular list through the head `n`: 0, 1, ..., n-1.
            next: (1..=n).chain(std::iter::once(0)).collect(),
            prev: std::iter::once(n).chain(0..n).collect(),
            unlinked: 0,
        }
    }

    /// Links back the positions a backtrack made not done (`done` fell below
    /// `unlinked`), in the reverse of the order they were unlinked.
    fn sync(&mut self, done: usize) {
        while self.unlinked > done {
            self.unlinked -= 1;
            let p = self.order[self.unlinked] as usize;
            let (before, after) = (self.prev[p] as usize, self.next[p] as usize);
            self.next[before] = p as u32;
            self.prev[after] = p as u32;
        }
    }

    /// Moves position `p` to the end of the done part, and off the list.
    fn mark_done(&mut self, p: usize, done: &mut usize) {
        let at = self.index[p] as usize;
        let other = self.order[*done] as usize;
        self.order.swap(at, *done);
        self.index[other] = at as u32;
        self.index[p] = *done as u32;
        *done += 1;
        debug_assert_eq!(self.unlinked + 1, *done);
        let (before, after) = (self.prev[p] as usize, self.next[p] as usize);
        self.next[before] = after as u32;
        self.prev[after] = before as u32;
        self.unlinked = *done;
    }

    /// The positions not done, in scope order, starting after `from` (the head
    /// `n` for the first).
    #[inline]
    fn after(&self, from: usize) -> usize {
        self.next[from] as usize
    }

    /// The scope position of model variable `x`, if the lookup table covers it.
    fn position(&self, x: u32) -> Option<usize> {
        let p = *self.position_of.get(x.checked_sub(self.first_var)? as usize)?;
        (p != NONE).then_some(p as usize)
    }

    /// Marks the assigned position `p` done and removes its value from the
    /// positions not done. Returns whether that assigned another variable.
    fn eliminate(&mut self, ctx: &mut Context<'_>, p: usize, done: &mut usize) -> Result<bool, Conflict> {
        self.mark_done(p, done);
        let done = *done;
        let n = self.vars.len();
        let value = ctx.assigned_value(self.vars[p]).expect("an assigned variable");
        let target = value + self.offsets[p];
        // The positions already done cannot hold `target`: it was removed from
        // `p` when they were done, so only the others need a look.
        ctx.count_checks((n - done) as u64);
        let mut fixed_another = false;
        if let Some((shifts, lens)) = &self.dense {
            // The hot loop of forward checking on N-queens. First, reading only:
            // one subtraction and a bounds check find the position, one bit test
            // whether it is there. Then the removals, which are fewer.
            // Positions already done cannot hold `target` (nor is `p` to lose it).
            let state = ctx.state();
            // Branch-free compaction: every candidate is written at `found`,
            // which only moves on when the value is present (a coin flip the
            // branch predictor cannot learn).
            // Sized once: resizing after each call's truncation would rewrite
            // the whole buffer, a cost linear in the scope on every call.
            if self.hits.len() < n {
                self.hits.resize(n, (0, 0));
            }
            let mut found = 0;
            let consecutive = self.consecutive;
            let first = self.vars[0].index as usize;
            let mut row: (u32, &[u64]) = (u32::MAX, &[]);
            let mut q = self.after(n);
            while q != n {
                let here = q;
                q = self.after(q);
                let q = here;
                let pos = target - shifts[q];
                if pos < 0 || pos >= i64::from(lens[q]) {
                    continue;
                }
                let (k, bit) = ((pos / 64) as u32, pos % 64);
                let present = if consecutive {
                    // Word `k` of consecutive variables is contiguous: keep the
                    // row while `k` stays the same (all of the column
                    // constraint, runs of 64 on the diagonals).
                    if row.0 != k {
                        row = (k, state.row(k).expect("word-major layout"));
                    }
                    row.1[first + q] >> bit & 1 != 0
                } else {
                    state.contains_pos(self.vars[q].index, pos as u32)
                };
                self.hits[found] = (self.vars[q].index, pos as u32);
                found += usize::from(present);
            }
            let hits = &self.hits[..found];
            if ctx.decision.is_some() {
                // Forward checking: removals assign nothing (only decisions do).
                ctx.remove_many(hits)?;
            } else {
                for &(x, pos) in hits {
                    ctx.remove_pos(x, pos)?;
                    fixed_another |= ctx.state().size(x) == 1;
                }
            }
        } else {
            let mut q = self.after(n);
            while q != n {
                let var = self.vars[q];
                if ctx.remove(var, target - self.offsets[q])? && ctx.is_assigned(var) {
                    fixed_another = true;
                }
                q = self.after(q);
            }
        }
        Ok(fixed_another)
    }
}

impl Propagator for Pairwise<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.done = Some(ctx.new_reversible_int(0));
        let state = ctx.state();
        let bases: Option<Vec<i64>> = self.vars.iter().map(|v| state.dense_base(v.index)).collect();
        self.dense = bases.map(|bases| {
            let shifts = bases.iter().zip(self.offsets).map(|(b, o)| b + o).collect();
            let lens = self.vars.iter().map(|v| ctx.size(*v) as u32).collect();
            (shifts, lens)
        });
        self.consecutive = state.row(0).is_some()
            && self.vars.iter().enumerate().all(|(q, v)| v.index as usize == self.vars[0].index as usize + q);
        let lo = self.vars.iter().map(|v| v.index).min().unwrap_or(0);
        let hi = self.vars.iter().map(|v| v.index).max().unwrap_or(0);
        if ((hi - lo) as usize) < 4 * self.vars.len() + 64 {
            self.first_var = lo;
            self.position_of = vec![NONE; (hi - lo) as usize + 1];
            for (p, v) in self.vars.iter().enumerate() {
                self.position_of[(v.index - lo) as usize] = p as u32;
            }
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let done_cell = self.done.expect("initialised");
        let mut done = ctx.get(done_cell) as usize;
        self.sync(done);
        // Forward checking: the decision is the only new assignment, and what
        // this propagator prunes assigns nothing (only decisions assign).
        if let Some(p) = ctx.decision.and_then(|x| self.position(x)) {
            if self.index[p] as usize >= done {
                self.eliminate(ctx, p, &mut done)?;
                ctx.set(done_cell, done as i64);
            }
            return Ok(());
        }
        let head = self.vars.len();
        let mut p = self.after(head);
        while p != head {
            let following = self.after(p);
            if ctx.is_assigned(self.vars[p]) {
                let fixed_another = self.eliminate(ctx, p, &mut done)?;
                // A variable fixed by this removal may sit before `p`: look again.
                p = if fixed_another { self.after(head) } else { following };
            } else {
                p = following;
            }
        }
        ctx.set(done_cell, done as i64);
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Fixed
    }

    fn is_idempotent(&self) -> bool {
        true
    }

    fn has_partial_check(&self) -> bool {
        true
    }

    fn check_partial(&mut self, ctx: &mut Context<'_>) -> bool {
        // Plain backtracking: compare each newly assigned variable with the
        // assigned ones before it, pair by pair, as the binary decomposition would.
        let done_cell = self.done.expect("initialised");
        let mut done = ctx.get(done_cell) as usize;
        self.sync(done);
        let head = self.vars.len();
        let mut p = self.after(head);
        while p != head {
            let following = self.after(p);
            if !ctx.is_assigned(self.vars[p]) {
                p = following;
                continue;
            }
            let target = ctx.assigned_value(self.vars[p]).expect("an assigned variable") + self.offsets[p];
            // In scope order, so the checks counted do not depend on `order`.
            for q in (0..self.vars.len()).filter(|&q| (self.index[q] as usize) < done) {
                ctx.count_checks(1);
                // Done positions are fixed: decided, or fixed by root propagation.
                let other = ctx.fixed_value(self.vars[q]).expect("done positions are fixed");
                if other + self.offsets[q] == target {
                    return false;
                }
            }
            self.mark_done(p, &mut done);
            p = following;
        }
        ctx.set(done_cell, done as i64);
        true
    }
}

const NONE: u32 = u32::MAX;

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
struct Matching<'c> {
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
}

/// The shifted values `x_i + o_i` the constraint can see, numbered from 0.
#[derive(Debug)]
enum LocalValues {
    /// Ids are `value - base`.
    Dense { base: i64, span: usize },
    /// Ids are positions in a sorted list (for scattered values).
    Sparse(Vec<i64>),
}

impl LocalValues {
    fn len(&self) -> usize {
        match self {
            LocalValues::Dense { span, .. } => *span,
            LocalValues::Sparse(values) => values.len(),
        }
    }

    #[inline]
    fn id(&self, shifted: i64) -> u32 {
        match self {
            LocalValues::Dense { base, .. } => (shifted - base) as u32,
            LocalValues::Sparse(values) => values.binary_search(&shifted).expect("a value of an initial domain") as u32,
        }
    }

    #[inline]
    fn value(&self, id: u32) -> i64 {
        match self {
            LocalValues::Dense { base, .. } => base + i64::from(id),
            LocalValues::Sparse(values) => values[id as usize],
        }
    }
}

/// A directed graph in compressed rows, rebuilt at each call without allocating.
#[derive(Debug, Default)]
struct Graph {
    start: Vec<u32>,
    edges: Vec<u32>,
}

impl Graph {
    #[inline]
    fn out(&self, node: u32) -> &[u32] {
        &self.edges[self.start[node as usize] as usize..self.start[node as usize + 1] as usize]
    }
}

/// Iterative Tarjan strongly connected components, with reusable buffers.
#[derive(Debug, Default)]
struct Tarjan {
    index: Vec<u32>,
    low: Vec<u32>,
    component: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<u32>,
    call: Vec<(u32, u32)>,
}

impl Tarjan {
    fn run(&mut self, graph: &Graph) {
        let nodes = graph.start.len() - 1;
        for buffer in [&mut self.index, &mut self.component] {
            buffer.clear();
            buffer.resize(nodes, NONE);
        }
        self.low.clear();
        self.low.resize(nodes, 0);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.stack.clear();
        let mut next_index = 0u32;
        let mut next_component = 0u32;
        for root in 0..nodes as u32 {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.visit(root, &mut next_index);
            while let Some(&mut (node, ref mut k)) = self.call.last_mut() {
                let out = graph.out(node);
                if let Some(&next) = out.get(*k as usize) {
                    *k += 1;
                    if self.index[next as usize] == NONE {
                        self.visit(next, &mut next_index);
                    } else if self.on_stack[next as usize] {
                        let low = self.low[node as usize].min(self.index[next as usize]);
                        self.low[node as usize] = low;
                    }
                    continue;
                }
                self.call.pop();
                if self.low[node as usize] == self.index[node as usize] {
                    loop {
                        let member = self.stack.pop().expect("the root is on the stack");
                        self.on_stack[member as usize] = false;
                        self.component[member as usize] = next_component;
                        if member == node {
                            break;
                        }
                    }
                    next_component += 1;
                }
                if let Some(&(parent, _)) = self.call.last() {
                    let low = self.low[parent as usize].min(self.low[node as usize]);
                    self.low[parent as usize] = low;
                }
            }
        }
    }

    fn visit(&mut self, node: u32, next_index: &mut u32) {
        self.index[node as usize] = *next_index;
        self.low[node as usize] = *next_index;
        *next_index += 1;
        self.stack.push(node);
        self.on_stack[node as usize] = true;
        self.call.push((node, 0));
    }
}

impl<'c> Matching<'c> {
    fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
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
        }
    }

    /// Reads the current domains as local value ids.
    fn load(&mut self, ctx: &Context<'_>) {
        self.dom_start.clear();
        self.dom.clear();
        for (&var, &offset) in self.vars.iter().zip(self.offsets) {
            self.dom_start.push(self.dom.len() as u32);
            let values = &self.values;
            self.dom.extend(ctx.values(var).map(|v| values.id(v + offset)));
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

impl Propagator for Matching<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        // The local value space holds every shifted value of the initial domains;
        // it is dense unless those values are scattered.
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        let mut total: u64 = 0;
        for (&var, &offset) in self.vars.iter().zip(self.offsets) {
            lo = lo.min(ctx.min(var) + offset);
            hi = hi.max(ctx.max(var) + offset);
            total += ctx.size(var) as u64;
        }
        let span = (hi as i128 - lo as i128 + 1) as u128;
        self.values = if span <= u128::from(2 * total + 64) {
            LocalValues::Dense { base: lo, span: span as usize }
        } else {
            let mut all: Vec<i64> = Vec::new();
            for (&var, &offset) in self.vars.iter().zip(self.offsets) {
                all.extend(ctx.values(var).map(|v| v + offset));
            }
            all.sort_unstable();
            all.dedup();
            LocalValues::Sparse(all)
        };
        self.val_match = vec![NONE; self.values.len()];
        self.visited = vec![0; self.values.len()];
        self.small = SmallMatching::new(self.vars, self.offsets, ctx);
        if let Some(small) = &mut self.small {
            small.complete_next = Some(ctx.new_reversible_int(0));
        }
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
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
                    let value = self.values.value(a) - self.offsets[p];
                    ctx.remove(self.vars[p], value)?;
                }
            }
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        // The bitset version starts with a cheap pass and reschedules itself.
        if self.small.is_some() { Cost::Cheap } else { Cost::Expensive }
    }

    fn is_idempotent(&self) -> bool {
        true
    }
}

/// The violation counter of [`AllDifferent`] for min-conflicts local search
/// ([`crate::local_search`]): for each shifted value `x_i + o_i`, how many
/// positions take it, and the exclusive or of those positions, which names the
/// position when it is alone (so that a move onto it can report it as newly in
/// conflict). When the variables nearly fill the values (N-queens columns), it
/// also keeps the list of empty buckets, the values free for any position. The
/// violation is the number of equal pairs, the sum of
/// `count * (count - 1) / 2`; moving a position from bucket `a` to bucket `b`
/// changes it by `count[b] - (count[a] - 1)`, so a range of candidate values is
/// scored by one pass over a slice of counts.
pub(crate) struct AllDifferentCounter<'c> {
    offsets: &'c [i64],
    vars: &'c [VarId],
    counts: Counts,
    violation: u64,
}

/// The counts, in an array over the range of shifted values when it is at most
/// a few times the scope's length (N-queens: `2N - 1` diagonals), else in a map.
enum Counts {
    Dense { base: i128, counts: Vec<u32>, members: Vec<u32>, empty: Option<EmptyBuckets> },
    Sparse(std::collections::HashMap<i128, (u32, u32)>),
}

/// The empty buckets of dense counts, as a sparse set: `list` holds them, and
/// `index[b]` is where bucket `b` sits in `list` (`NONE` when it is not empty).
struct EmptyBuckets {
    list: Vec<u32>,
    index: Vec<u32>,
}

impl EmptyBuckets {
    fn all(width: usize) -> Self {
        EmptyBuckets { list: (0..width as u32).collect(), index: (0..width as u32).collect() }
    }

    fn insert(&mut self, bucket: usize) {
        if self.index[bucket] == NONE {
            self.index[bucket] = self.list.len() as u32;
            self.list.push(bucket as u32);
        }
    }

    fn remove(&mut self, bucket: usize) {
        let at = self.index[bucket];
        if at != NONE {
            let last = *self.list.last().expect("the bucket is listed");
            self.list.swap_remove(at as usize);
            if last as usize != bucket {
                self.index[last as usize] = at;
            }
            self.index[bucket] = NONE;
        }
    }
}

impl Counts {
    fn get(&self, shifted: i128) -> u32 {
        match self {
            Counts::Dense { base, counts, .. } => {
                usize::try_from(shifted - base).ok().and_then(|i| counts.get(i)).copied().unwrap_or(0)
            }
            Counts::Sparse(map) => map.get(&shifted).map_or(0, |e| e.0),
        }
    }

    /// Adds `position` to the bucket of `shifted`; returns the count before.
    fn enter(&mut self, shifted: i128, position: usize) -> (u32, u32) {
        let (count, members, bucket) = self.slot(shifted);
        let before = (*count, *members);
        *count += 1;
        *members ^= position as u32;
        if let (0, Some(bucket), Counts::Dense { empty: Some(empty), .. }) = (before.0, bucket, &mut *self) {
            empty.remove(bucket);
        }
        before
    }

    /// Takes `position` out of the bucket of `shifted`; returns the count after.
    fn leave(&mut self, shifted: i128, position: usize) -> u32 {
        let (count, members, bucket) = self.slot(shifted);
        *count -= 1;
        *members ^= position as u32;
        let after = *count;
        if let (0, Some(bucket), Counts::Dense { empty: Some(empty), .. }) = (after, bucket, &mut *self) {
            empty.insert(bucket);
        }
        after
    }

    /// The count and the exclusive or of the positions of a bucket, and its
    /// index when the counts are dense.
    fn slot(&mut self, shifted: i128) -> (&mut u32, &mut u32, Option<usize>) {
        if let Counts::Dense { base, counts, members, .. } = self {
            if usize::try_from(shifted - *base).map_or(true, |i| i >= counts.len()) {
                // A value outside the domains (local search makes none): go sparse.
                let map =
                    (0..counts.len()).filter(|&i| counts[i] > 0).map(|i| (*base + i as i128, (counts[i], members[i])));
                *self = Counts::Sparse(map.collect());
            }
        }
        match self {
            Counts::Dense { base, counts, members, .. } => {
                let i = (shifted - *base) as usize;
                (&mut counts[i], &mut members[i], Some(i))
            }
            Counts::Sparse(map) => {
                let (count, members) = map.entry(shifted).or_insert((0, 0));
                (count, members, None)
            }
        }
    }
}

impl<'c> AllDifferentCounter<'c> {
    pub(crate) fn new(vars: &'c [VarId], offsets: &'c [i64]) -> Self {
        AllDifferentCounter { offsets, vars, counts: Counts::Sparse(Default::default()), violation: 0 }
    }

    fn shifted(&self, position: usize, value: i64) -> i128 {
        i128::from(value) + i128::from(self.offsets[position])
    }

    /// How many others share `from`'s bucket (0 when there is no `from`): the
    /// violation a move away from it removes.
    fn leaving(&self, position: usize, from: Option<i64>) -> i64 {
        from.map_or(0, |from| i64::from(self.counts.get(self.shifted(position, from))) - 1)
    }
}

impl crate::local_search::ViolationCounter for AllDifferentCounter<'_> {
    fn clear(&mut self, model: &crate::Model) {
        let mut low = i128::MAX;
        let mut high = i128::MIN;
        for (p, &var) in self.vars.iter().enumerate() {
            let domain = model.domain(var);
            let (Some(min), Some(max)) = (domain.min(), domain.max()) else { continue };
            low = low.min(self.shifted(p, min));
            high = high.max(self.shifted(p, max));
        }
        let width = (high - low + 1).max(0) as u128;
        let dense_limit = (8 * self.vars.len() as u128).max(1 << 16);
        self.counts = if width <= dense_limit {
            let (mut counts, mut members) =
                match std::mem::replace(&mut self.counts, Counts::Sparse(Default::default())) {
                    Counts::Dense { counts, members, .. } => (counts, members),
                    Counts::Sparse(_) => (Vec::new(), Vec::new()),
                };
            counts.clear();
            counts.resize(width as usize, 0);
            members.clear();
            members.resize(width as usize, 0);
            // Free values are worth listing when few will be left: at most a
            // quarter more values than variables.
            let tight = width <= self.vars.len() as u128 + self.vars.len() as u128 / 4 && width < u128::from(NONE);
            let empty = tight.then(|| EmptyBuckets::all(width as usize));
            Counts::Dense { base: low, counts, members, empty }
        } else {
            Counts::Sparse(Default::default())
        };
        self.violation = 0;
    }

    fn violation(&self) -> u64 {
        self.violation
    }

    fn conflicts(&self, position: usize, value: i64) -> u64 {
        u64::from(self.counts.get(self.shifted(position, value)).saturating_sub(1))
    }

    fn delta(&mut self, position: usize, from: Option<i64>, to: i64) -> i64 {
        if from == Some(to) {
            return 0;
        }
        i64::from(self.counts.get(self.shifted(position, to))) - self.leaving(position, from)
    }

    fn add_deltas(&mut self, position: usize, from: Option<i64>, first: i64, scores: &mut [i64]) {
        let Counts::Dense { base, counts, .. } = &self.counts else {
            for (k, score) in scores.iter_mut().enumerate() {
                *score += self.delta(position, from, first + k as i64);
            }
            return;
        };
        let leave = self.leaving(position, from);
        // scores[k] is for bucket index `start + k`; buckets outside the array are empty.
        let start = self.shifted(position, first) - base;
        let len = scores.len() as i128;
        let low = start.max(0);
        let high = (start + len).min(counts.len() as i128);
        if low < high {
            let (a, b) = ((low - start) as usize, (high - start) as usize);
            for score in &mut scores[..a] {
                *score -= leave;
            }
            for (score, &count) in scores[a..b].iter_mut().zip(&counts[low as usize..high as usize]) {
                *score += i64::from(count) - leave;
            }
            for score in &mut scores[b..] {
                *score -= leave;
            }
        } else {
            for score in scores.iter_mut() {
                *score -= leave;
            }
        }
        // Staying put changes nothing: undo the `count[from] - leave = 1` added there.
        if let Some(from) = from {
            let k = i128::from(from) - i128::from(first);
            if (0..len).contains(&k) {
                scores[k as usize] -= 1;
            }
        }
    }

    fn free_values(&self, position: usize) -> Option<crate::local_search::ValueList<'_>> {
        let Counts::Dense { base, empty: Some(empty), .. } = &self.counts else { return None };
        let base = i64::try_from(*base - i128::from(self.offsets[position])).ok()?;
        Some(crate::local_search::ValueList { base, offsets: &empty.list })
    }

    fn apply(&mut self, position: usize, from: Option<i64>, to: i64, newly_conflicted: &mut Vec<usize>) {
        if from == Some(to) {
            return;
        }
        if let Some(from) = from {
            let after = self.counts.leave(self.shifted(position, from), position);
            self.violation -= u64::from(after);
        }
        let (before, members) = self.counts.enter(self.shifted(position, to), position);
        if before == 1 {
            // The position alone there gets company.
            newly_conflicted.push(members as usize);
        }
        self.violation += u64::from(before);
    }
}
