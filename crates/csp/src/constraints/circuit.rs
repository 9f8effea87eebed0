//! `circuit` and `subcircuit`, MiniZinc's Hamiltonian-cycle constraints in the
//! successor representation: `x[i] = j` says node `j` follows node `i`. Nodes
//! are numbered from an index base (MiniZinc's arrays count from 1), so `x[i]`
//! names node `base + i`.
//!
//! - `circuit(x)`: the successors form one cycle through every node (so no
//!   node is its own successor, and one node alone has no circuit).
//! - `subcircuit(x)`: the nodes with `x[i] != base + i` form one cycle, or
//!   there are none; a node that is its own successor is out of the circuit.
//!
//! Strength: the propagator here is sound and checks fixed values; it removes
//! the values that name no node (and, for `circuit`, the self-loops), and
//! reasons on the successor graph in two tiers. Cheap: Caseau and Laburthe's
//! chains (Caseau & Laburthe, "Solving small TSPs with constraints", ICLP 1997):
//! the fixed successors form paths, and the last node of a path may not close
//! it into a cycle too short (for `subcircuit`: while a node outside the path
//! must be in the circuit); a fixed cycle that is too short fails. Expensive,
//! rescheduled after the cheap propagators: the graph of the domains must be
//! strongly connected (for `subcircuit`, the nodes that must be in must share
//! one strongly connected component of the graph without self-loops, and
//! every node outside it is taken out of the circuit). Tarjan's algorithm
//! finds the components in time linear in the domains.
//!
//! [`Model::circuit`](crate::Model::circuit) and
//! [`Model::subcircuit`](crate::Model::subcircuit) post an `all_different`
//! of matching strength (Régin 1994) over the successors as well: the
//! successors of a circuit are a permutation, and the matching finds every
//! Hall set of it.
//!
//! A successor variable is first narrowed to the nodes' values, so an interval
//! domain (a range wider than the bitset limit, kept as its bounds) is walked
//! over at most the number of nodes; its inner removals are no-ops, which
//! keeps the reasoning sound (weaker), and a fixed circuit is still checked.
//!
//! Explanations: a value naming no node (or a circuit's self-loop) needs no
//! reason; a value `j` that another node is fixed to precede (`x[p] = j`)
//! is explained by that link alone (for a subcircuit's self-loop `j = i`:
//! `i` is in), which covers a chain through every node, whose last node
//! may only close it, and a path that was closed off while a longer chain
//! formed around it in the same call; a chain's closing value by the
//! chain's fixed successors (`x[a] = b` for each link; for a subcircuit,
//! with one node off the chain that could not be out); a subcircuit's node
//! sent out by the closed cycle's links; two nodes followed by one (or a
//! value naming no node), whatever it was asked, by those fixed values; a
//! circuit's cycle too short by its links; a circuit's graph that is not
//! strongly connected by the absent values that would leave the nodes
//! node 0 reaches (or enter those that reach it), and a subcircuit's node
//! that the components sent out, by a node that could not be out and the
//! absent values that would lead out of the nodes it reaches (or into
//! those that reach it), `i` not among them.
//!
//! Two of these answers are never asked for, and no test reaches them: a
//! removal of values naming no node only, and a fixed value naming no node
//! (in [`CircuitPropagator::fixed_links`]). Only `restrict` removes such
//! values, before anything else the propagator does, and learning (which
//! needs `mac`, under which every propagator runs at the root) never
//! explains the root's facts, so when an explanation is asked every value
//! already names a node. (A search observer that asks for reasons is
//! answered at the root too, where `restrict`'s removals name no node or
//! are a circuit's self-loops: the first line of `explain_values`.) The
//! answers are kept, sound, for a state the engine does not reach: a value
//! naming no node breaks the constraint, so it implies anything.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::graph::{Graph, Tarjan};
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Cost, Explained, Explanation, PropagationResult, ReversibleInt};

/// No node.
const NONE: u32 = u32::MAX;

/// The successors `x` (node `base + i` is followed by node `x[i]`) form one
/// circuit through every node, or (for a subcircuit) through the nodes that
/// are not their own successors.
#[derive(Clone, Debug)]
pub struct Circuit {
    vars: Vec<VarId>,
    base: i64,
    sub: bool,
}

impl Circuit {
    /// A circuit, or a subcircuit when `sub`, over nodes numbered from `base`.
    /// Prefer [`Model::circuit`](crate::Model::circuit) and
    /// [`Model::subcircuit`](crate::Model::subcircuit), which check the
    /// arguments and add the all-different of the successors.
    pub fn new(vars: Vec<VarId>, base: i64, sub: bool) -> Circuit {
        Circuit { vars, base, sub }
    }

    /// The node that `value` names, if any.
    fn node(&self, value: i64) -> Option<usize> {
        let offset = i128::from(value) - i128::from(self.base);
        (0..self.vars.len() as i128).contains(&offset).then_some(offset as usize)
    }
}

impl Constraint for Circuit {
    fn scope(&self) -> &[VarId] {
        &self.vars
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let Some(next) = values.iter().map(|&v| self.node(v)).collect::<Option<Vec<usize>>>() else {
            return false;
        };
        let inside: Vec<usize> = (0..next.len()).filter(|&i| next[i] != i).collect();
        if self.sub && inside.is_empty() {
            return true;
        }
        if !self.sub && inside.len() < next.len() {
            return false;
        }
        // Follow the successors from a node in the circuit: every step must
        // land on a node of the circuit not seen yet, until it comes back.
        let Some(&start) = inside.first() else { return false };
        let mut seen = vec![false; next.len()];
        let mut node = start;
        for _ in 0..inside.len() {
            if seen[node] || next[node] == node {
                return false;
            }
            seen[node] = true;
            node = next[node];
        }
        node == start
    }

    fn kind(&self) -> &str {
        if self.sub { "subcircuit" } else { "circuit" }
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        let n = self.vars.len();
        Some(Box::new(CircuitPropagator {
            constraint: self,
            successor: vec![NONE; n],
            predecessor: vec![NONE; n],
            on_path: vec![false; n],
            graph: Graph::default(),
            tarjan: Tarjan::default(),
            graph_next: None,
            restricted: None,
        }))
    }
}

struct CircuitPropagator<'c> {
    constraint: &'c Circuit,
    /// Scratch, per node: its fixed successor and the node fixed to precede it.
    successor: Vec<u32>,
    predecessor: Vec<u32>,
    /// Scratch: the nodes already walked.
    on_path: Vec<bool>,
    graph: Graph,
    tarjan: Tarjan,
    /// 1 when the next call is the rescheduled one that reasons on the
    /// components. Reversible, so that a conflict (which empties the queue)
    /// leaves the propagator in a state that depends on the domains only.
    graph_next: Option<ReversibleInt>,
    /// 1 once [`restrict`](CircuitPropagator::restrict) has run: domains only
    /// shrink below that point, so it need not run again (reversible, so that
    /// it runs again if the search undoes it).
    restricted: Option<ReversibleInt>,
}

impl CircuitPropagator<'_> {
    fn var(&self, node: usize) -> VarId {
        self.constraint.vars[node]
    }

    /// The value naming `node`. Model time checks that it is within
    /// `-2^62..=2^62`; a constraint built by hand beyond that saturates
    /// instead of overflowing (no domain holds such a value).
    fn value(&self, node: usize) -> i64 {
        self.constraint.base.saturating_add(node as i64)
    }

    /// Removes the values that name no node, and the self-loops of a circuit.
    fn restrict(&self, ctx: &mut Context<'_>) -> PropagationResult {
        let n = self.constraint.vars.len();
        for i in 0..n {
            let var = self.var(i);
            ctx.set_min(var, self.value(0))?;
            ctx.set_max(var, self.value(n - 1))?;
            if !self.constraint.sub {
                ctx.remove(var, self.value(i))?;
            }
        }
        Ok(())
    }

    /// Caseau and Laburthe's chains: see the module docs.
    fn chains(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let n = self.constraint.vars.len();
        let sub = self.constraint.sub;
        self.successor.fill(NONE);
        self.predecessor.fill(NONE);
        self.on_path.fill(false);
        // Nodes that must be in the circuit: every node of a circuit; the
        // nodes that cannot be their own successor in a subcircuit.
        let mut must_in = 0usize;
        for i in 0..n {
            let var = self.var(i);
            if let Some(value) = ctx.fixed_value(var) {
                let j = self.constraint.node(value).ok_or(Conflict)?;
                if self.predecessor[j] != NONE {
                    return Err(Conflict); // two nodes followed by one
                }
                self.successor[i] = j as u32;
                self.predecessor[j] = i as u32;
            }
            if !sub || !ctx.contains(var, self.value(i)) {
                must_in += 1;
            }
        }
        ctx.count_checks(n as u64);
        // Paths: from each node that starts one (a fixed successor, no fixed
        // predecessor) to its last node, whose successor is not fixed. A walk
        // cannot loop: a node reached twice would have two predecessors.
        for start in 0..n {
            if self.predecessor[start] != NONE || self.successor[start] == NONE {
                continue;
            }
            let (mut last, mut length, mut must_in_path) = (start, 1usize, 0usize);
            loop {
                self.on_path[last] = true;
                if !sub || !ctx.contains(self.var(last), self.value(last)) {
                    must_in_path += 1;
                }
                match self.successor[last] {
                    NONE => break,
                    next => {
                        last = next as usize;
                        length += 1;
                    }
                }
            }
            let closing = self.value(start);
            if length == n {
                ctx.fix(self.var(last), closing)?;
            } else if !sub || must_in > must_in_path {
                // Closing the path now would leave out a node that must be in.
                ctx.remove(self.var(last), closing)?;
            }
        }
        // The nodes left on no path lie on cycles of fixed successors.
        for start in 0..n {
            if self.on_path[start] || self.successor[start] == NONE {
                continue;
            }
            let mut length = 0usize;
            let mut node = start;
            while !self.on_path[node] {
                self.on_path[node] = true;
                length += 1;
                node = self.successor[node] as usize;
            }
            if length == n || (sub && length == 1) {
                continue;
            }
            if !sub {
                return Err(Conflict); // a sub-tour
            }
            // The circuit is closed: every node off this cycle is out of it.
            self.on_path.fill(false);
            let mut node = start;
            loop {
                self.on_path[node] = true;
                node = self.successor[node] as usize;
                if node == start {
                    break;
                }
            }
            for other in 0..n {
                if !self.on_path[other] {
                    ctx.fix(self.var(other), self.value(other))?;
                }
            }
            return Ok(());
        }
        Ok(())
    }

    /// The components of the successor graph (without self-loops): see the
    /// module docs.
    fn components(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let n = self.constraint.vars.len();
        self.graph.clear();
        let mut first_must_in = None;
        for i in 0..n {
            self.graph.open_node();
            let var = self.var(i);
            let own = self.value(i);
            for value in ctx.values(var) {
                if value != own {
                    // `restrict` ran first: every value names a node.
                    self.graph.edges.push((i128::from(value) - i128::from(self.constraint.base)) as u32);
                }
            }
            if first_must_in.is_none() && !ctx.contains(var, own) {
                first_must_in = Some(i);
            }
        }
        self.graph.finish();
        ctx.count_checks(self.graph.edges.len() as u64);
        let Some(anchor) = first_must_in else {
            // Only in a subcircuit: every node may still be out.
            return Ok(());
        };
        self.tarjan.run(&self.graph);
        let home = self.tarjan.component[anchor];
        if !self.constraint.sub {
            // Every node must be on one cycle with the anchor.
            return if self.tarjan.components == 1 { Ok(()) } else { Err(Conflict) };
        }
        for (i, &component) in self.tarjan.component.iter().enumerate() {
            if component != home {
                // Node i cannot be on a cycle with the anchor, which is in
                // the circuit: it is out.
                ctx.fix(self.constraint.vars[i], self.value(i))?;
            }
        }
        Ok(())
    }
}

impl CircuitPropagator<'_> {
    /// Fills `successor` and `predecessor` from the fixed values as they
    /// were. `Err` when those values already break the constraint, with
    /// the atoms that do: a value naming no node, or two nodes followed by
    /// one (such a state implies anything the propagator did in it). The
    /// first is never asked (see the module docs).
    fn fixed_links(&mut self, why: &Explanation<'_>) -> Result<(), Vec<Atom>> {
        self.successor.fill(NONE);
        self.predecessor.fill(NONE);
        for i in 0..self.constraint.vars.len() {
            if let Some(value) = why.fixed_value(self.var(i)) {
                let Some(j) = self.constraint.node(value) else {
                    return Err(vec![Atom::Equal(self.var(i), value)]);
                };
                if self.predecessor[j] != NONE {
                    let other = self.var(self.predecessor[j] as usize);
                    return Err(vec![Atom::Equal(other, value), Atom::Equal(self.var(i), value)]);
                }
                self.successor[i] = j as u32;
                self.predecessor[j] = i as u32;
            }
        }
        Ok(())
    }

    /// The link of `node` to its fixed successor.
    fn link(&self, node: usize) -> Atom {
        Atom::Equal(self.var(node), self.value(self.successor[node] as usize))
    }

    /// The fixed cycle through `node`, if it is on one (its nodes in order).
    fn cycle(&self, node: usize) -> Option<Vec<usize>> {
        let mut nodes = vec![node];
        let mut at = self.successor[node];
        while at != NONE && at as usize != node && nodes.len() <= self.successor.len() {
            nodes.push(at as usize);
            at = self.successor[at as usize];
        }
        (at as usize == node).then_some(nodes)
    }

    /// The failure chains found: two nodes followed by one, or a circuit's
    /// fixed cycle too short.
    fn explain_failure(&mut self, why: &Explanation<'_>, atoms: &mut Vec<Atom>) -> bool {
        let n = self.constraint.vars.len();
        if let Err(clash) = self.fixed_links(why) {
            atoms.extend(clash);
            return true;
        }
        if self.constraint.sub {
            return false;
        }
        if let Some(cycle) = (0..n).find_map(|i| self.cycle(i).filter(|cycle| cycle.len() < n)) {
            atoms.extend(cycle.iter().map(|&a| self.link(a)));
            return true;
        }
        self.explain_disconnected(why, atoms)
    }

    /// A circuit's graph not strongly connected: the nodes that node 0
    /// reaches, or those that reach it, are not all, and the absent values
    /// that would lead out of (into) them are the reason.
    fn explain_disconnected(&mut self, why: &Explanation<'_>, atoms: &mut Vec<Atom>) -> bool {
        let n = self.constraint.vars.len();
        if n == 0 {
            return false;
        }
        for forward in [true, false] {
            self.reach(why, 0, forward);
            if self.on_path.iter().all(|&reached| reached) {
                continue;
            }
            self.cut(forward, atoms);
            return true;
        }
        false
    }

    /// A subcircuit's node `i` sent out by the components: a node `m` that
    /// could not be out (`x[m] != m`) does not reach `i`, or `i` does not
    /// reach it, and the absent values that would lead out of the nodes `m`
    /// reaches (into those that reach it) are the reason with `x[m] != m`:
    /// the circuit through `m` stays within them.
    fn explain_sent_out(&mut self, why: &Explanation<'_>, i: usize, atoms: &mut Vec<Atom>) -> bool {
        let n = self.constraint.vars.len();
        for m in 0..n {
            if m == i || why.contains(self.var(m), self.value(m)) {
                continue;
            }
            for forward in [true, false] {
                self.reach(why, m, forward);
                if !self.on_path[i] {
                    atoms.push(Atom::NotEqual(self.var(m), self.value(m)));
                    self.cut(forward, atoms);
                    return true;
                }
            }
        }
        false
    }

    /// Marks in `on_path` the nodes that `root` reaches (`forward`) or that
    /// reach it, through the values as they were.
    fn reach(&mut self, why: &Explanation<'_>, root: usize, forward: bool) {
        let n = self.constraint.vars.len();
        self.on_path.fill(false);
        self.on_path[root] = true;
        let mut stack = vec![root];
        while let Some(a) = stack.pop() {
            for b in 0..n {
                let edge = if forward { (a, b) } else { (b, a) };
                if !self.on_path[b] && why.contains(self.var(edge.0), self.value(edge.1)) {
                    self.on_path[b] = true;
                    stack.push(b);
                }
            }
        }
    }

    /// The absent values that would lead out of the nodes marked in
    /// `on_path` (`forward`), or into them.
    fn cut(&self, forward: bool, atoms: &mut Vec<Atom>) {
        let n = self.constraint.vars.len();
        for a in (0..n).filter(|&a| self.on_path[a]) {
            for b in (0..n).filter(|&b| !self.on_path[b]) {
                let (from, to) = if forward { (a, b) } else { (b, a) };
                atoms.push(Atom::NotEqual(self.var(from), self.value(to)));
            }
        }
    }

    /// Why the values `asked` (the explained ones that name a node) left
    /// node `i`'s successor: see the module docs.
    fn explain_values(&mut self, why: &Explanation<'_>, i: usize, asked: &[usize], atoms: &mut Vec<Atom>) -> bool {
        let (n, sub) = (self.constraint.vars.len(), self.constraint.sub);
        if asked.iter().all(|&j| j == i && !sub) {
            return true; // values naming no node, a circuit's self-loop
        }
        if let Err(clash) = self.fixed_links(why) {
            atoms.extend(clash);
            return true;
        }
        // The chain that ends at `i`, walked back to its first node.
        let mut chain = vec![i];
        while self.predecessor[*chain.last().expect("a node")] != NONE && chain.len() <= n {
            chain.push(self.predecessor[*chain.last().expect("a node")] as usize);
        }
        let start = *chain.last().expect("a node");
        let closed = self.predecessor[start] != NONE;
        // Whether `i` being out is explained (once for all its other values).
        let mut sent_out = false;
        for &j in asked {
            if j == i && !sub {
                continue; // a circuit's self-loop
            }
            let before = self.predecessor[j];
            if before != NONE && before as usize != i {
                // Node `before` is followed by `j` (for `j == i`: `i` is in).
                atoms.push(self.link(before as usize));
            } else if !closed && (2..n).contains(&chain.len()) && j == start {
                // Closing the chain would make a cycle too short.
                atoms.extend(chain[1..].iter().map(|&a| self.link(a)));
                if sub {
                    // A node off the chain that could not be out.
                    let off = (0..n).find(|&o| !chain.contains(&o) && !why.contains(self.var(o), self.value(o)));
                    let Some(o) = off else { return false };
                    atoms.push(Atom::NotEqual(self.var(o), self.value(o)));
                }
            } else if sub && j != i {
                // A closed cycle elsewhere, or the components, send `i` out.
                if sent_out {
                    continue;
                }
                match (0..n).find_map(|k| self.cycle(k).filter(|cycle| cycle.len() > 1 && !cycle.contains(&i))) {
                    Some(cycle) => atoms.extend(cycle.iter().map(|&a| self.link(a))),
                    None if self.explain_sent_out(why, i, atoms) => {}
                    None => return false,
                }
                sent_out = true;
            } else {
                return false;
            }
        }
        true
    }
}

impl Propagator for CircuitPropagator<'_> {
    fn initialise(&mut self, ctx: &mut Context<'_>) {
        self.graph_next = Some(ctx.new_reversible_int(0));
        self.restricted = Some(ctx.new_reversible_int(0));
    }

    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        let restricted = self.restricted.expect("initialised");
        if ctx.get(restricted) == 0 {
            self.restrict(ctx)?;
            ctx.set(restricted, 1);
        }
        self.chains(ctx)?;
        let cell = self.graph_next.expect("initialised");
        if ctx.can_reschedule() && ctx.get(cell) == 0 {
            // The components once the cheap propagators are done.
            ctx.set(cell, 1);
            ctx.reschedule(Cost::Expensive);
            return Ok(());
        }
        ctx.set(cell, 0);
        self.components(ctx)
    }

    /// See the module docs.
    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let n = self.constraint.vars.len();
        let mut atoms = Vec::new();
        let (var, low, high) = match why.explained() {
            Explained::Failure => {
                let answered = self.explain_failure(why, &mut atoms);
                if answered {
                    why.because_each(atoms);
                }
                return answered;
            }
            Explained::Removed(var) => (var, None, None),
            Explained::AtLeast(var, bound) => (var, Some(bound), None),
            Explained::AtMost(var, bound) => (var, None, Some(bound)),
        };
        let Some(i) = self.constraint.vars.iter().position(|&x| x == var) else { return false };
        if self.constraint.vars[i + 1..].contains(&var) {
            return false;
        }
        // The nodes the explained values name; a bound also by its own
        // bound when it started within the nodes.
        let named: Vec<usize> = match (low, high) {
            (Some(bound), _) => {
                let min = why.min(var);
                if min > self.value(0) {
                    atoms.push(Atom::AtLeast(var, min));
                }
                (0..n).filter(|&j| (min..bound).contains(&self.value(j))).collect()
            }
            (_, Some(bound)) => {
                let max = why.max(var);
                if max < self.value(n - 1) {
                    atoms.push(Atom::AtMost(var, max));
                }
                (0..n).filter(|&j| (bound + 1..=max).contains(&self.value(j))).collect()
            }
            _ => why.removed_values().filter_map(|value| self.constraint.node(value)).collect(),
        };
        let answered = self.explain_values(why, i, &named, &mut atoms);
        if answered {
            why.because_each(atoms);
        }
        answered
    }
}
