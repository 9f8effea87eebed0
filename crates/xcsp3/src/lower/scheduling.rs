//! `<circuit>`, `<noOverlap>` and `<cumulative>`: the engine's
//! `subcircuit` (XCSP3's circuit lets a node loop on itself, out of the
//! circuit, but has at least one arc that is not a loop), `disjunctive` (`disjunctive_strict` with
//! `zeroIgnored="false"`) and `cumulative`.

use csp::{Operand, VarId};
use roxmltree::Node;

use super::linear::Linear;
use super::{Lowering, elements};
use crate::error::Error;

impl<'a, 'i> Lowering<'a, 'i> {
    /// `circuit`: `list[i] = j` is an arc from node `i` to node `j` (both
    /// counted from `startIndex`); the arcs that are not loops form one circuit.
    pub(super) fn circuit(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let (text, start) = match self.optional_child(node, "list")? {
            Some(list) => {
                let start = match list.attribute("startIndex") {
                    None => 0,
                    Some(text) => crate::text::integer(text).map_err(|m| self.text_error(m))?,
                };
                (self.text(list)?, start)
            }
            None if elements(node).next().is_none() => (self.text(node)?, 0),
            None => return Err(self.invalid("<circuit> needs a <list>")),
        };
        let successors = self.vars(&text)?;
        let size = match self.optional_child(node, "size")? {
            Some(size) => {
                let text = self.text(size)?;
                Some(self.single_var(&text)?)
            }
            None => None,
        };
        if successors.is_empty() {
            if let Some(size) = size {
                self.post_compare(Linear::var(size), csp::Relation::Eq)?;
            }
            return Ok(());
        }
        if self.is_reifying() {
            return self.circuit_by_powers(&successors, start, size);
        }
        self.model.subcircuit(&successors, start).map_err(|e| self.model_error(&e))?;
        // XCSP3's circuit has at least one arc that is not a loop (ACE finds
        // no solution where every node loops, and the official checker fails on one).
        let mut moves = Vec::with_capacity(successors.len());
        for (position, &successor) in successors.iter().enumerate() {
            let node = start.checked_add(position as i64).ok_or_else(|| self.overflow())?;
            moves.push(self.model.reified(successor.ne(node)).map_err(|e| self.model_error(&e))?);
        }
        self.model.or(&moves).map_err(|e| self.model_error(&e))?;
        if let Some(size) = size {
            // The size is the number of nodes on the circuit: those that do not loop.
            let on = Linear::sum(moves.into_iter().map(Linear::literal)).ok_or_else(|| self.overflow())?;
            self.post_compare(on.minus(&Linear::var(size)).ok_or_else(|| self.overflow())?, csp::Relation::Eq)?;
        }
        Ok(())
    }

    /// Whether a constant is negative or a variable can be.
    fn can_be_negative(&self, operand: Operand) -> bool {
        match operand {
            Operand::Const(value) => value < 0,
            Operand::Var(var) => self.model.domain(var).and_then(|d| d.min()).is_some_and(|min| min < 0),
        }
    }

    /// `max(operand, 0)`: the operand itself when it cannot be negative.
    fn at_least_zero(&mut self, operand: Operand) -> Result<Operand, Error> {
        if !self.can_be_negative(operand) {
            return Ok(operand);
        }
        let Operand::Var(var) = operand else { return Ok(Operand::Const(0)) };
        let high = self.model.domain(var).and_then(|d| d.max()).unwrap_or(0).max(0);
        let clipped = self.auxiliary(0, high)?;
        let zero = self.auxiliary(0, 0)?;
        self.model.maximum(clipped, &[var, zero]).map_err(|e| self.model_error(&e))?;
        Ok(Operand::Var(clipped))
    }

    /// The operands of a list of integers or variables (one per task).
    fn operands(&mut self, node: Node<'a, 'i>, name: &str) -> Result<Vec<Operand>, Error> {
        let text = self.text(self.child(node, name)?)?;
        let values = self.linears(&text)?;
        values.iter().map(|value| self.operand(value)).collect()
    }

    /// An integer or variable (or expression, as a variable) as an operand.
    fn operand(&mut self, value: &Linear) -> Result<Operand, Error> {
        match value.as_constant() {
            Some(constant) => super::terms::in_range(constant)
                .map(Operand::Const)
                .ok_or_else(|| self.unsupported(format!("the value {constant}, beyond ±2^62"))),
            None => self.var_of(value).map(Operand::Var),
        }
    }

    /// `noOverlap` in one dimension: tasks `(origin, length)` that do not overlap.
    pub(super) fn no_overlap(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let strict = match node.attribute("zeroIgnored") {
            None | Some("true") => false,
            Some("false") => true,
            Some(other) => return Err(self.invalid(format!("zeroIgnored=\"{other}\" is neither true nor false"))),
        };
        let origins_text = self.text(self.child(node, "origins")?)?;
        if origins_text.trim_start().starts_with('(') {
            return self.no_overlap_boxes(node, &origins_text, strict);
        }
        let starts = self.vars(&origins_text)?;
        let lengths = self.operands(node, "lengths")?;
        if lengths.len() != starts.len() {
            return Err(self.invalid(format!("{} origins but {} lengths", starts.len(), lengths.len())));
        }
        // The engine's tasks have lengths of at least 0; XCSP3's pairwise
        // definition gives a negative length a meaning of its own.
        if lengths.iter().any(|&length| self.can_be_negative(length)) {
            return Err(self.unsupported("noOverlap with a length that can be negative"));
        }
        if starts.len() < 2 {
            return Ok(());
        }
        if self.is_reifying() {
            // The engine's disjunctive is not reifiable: a clause per pair.
            let starts: Vec<Vec<VarId>> = starts.into_iter().map(|start| vec![start]).collect();
            let lengths: Vec<Vec<Linear>> = lengths.into_iter().map(|length| vec![operand_linear(length)]).collect();
            return self.boxes_apart(&starts, &lengths, strict);
        }
        let posted = if strict {
            self.model.disjunctive_strict(&starts, &lengths)
        } else {
            self.model.disjunctive(&starts, &lengths)
        };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// `noOverlap` in several dimensions: boxes `(origins)`, `(lengths)`,
    /// each pair apart in some dimension, a box with a length 0 ignored
    /// unless `strict` (`zeroIgnored="false"`). Two dimensions are the
    /// engine's `diffn` (`diffn_nonstrict` when zeros are ignored); others,
    /// for each pair, a clause of the comparisons.
    fn no_overlap_boxes(&mut self, node: Node<'a, 'i>, origins_text: &str, strict: bool) -> Result<(), Error> {
        let origins = self.matrix_rows(origins_text)?;
        let lengths_text = self.text(self.child(node, "lengths")?)?;
        if !lengths_text.trim_start().starts_with('(') {
            return Err(self.invalid("noOverlap's origins are boxes '(x,y,...)' but its lengths are not"));
        }
        let lengths = self.matrix_rows(&lengths_text)?;
        let dimensions = origins.first().map_or(0, Vec::len);
        if lengths.len() != origins.len() {
            return Err(self.invalid(format!("{} origins but {} lengths", origins.len(), lengths.len())));
        }
        if let Some(row) = origins.iter().chain(&lengths).find(|row| row.len() != dimensions) {
            return Err(self.invalid(format!("boxes of {dimensions} and of {} dimensions", row.len())));
        }
        let mut operands = Vec::with_capacity(lengths.len());
        for row in &lengths {
            let mut box_lengths = Vec::with_capacity(row.len());
            for length in row {
                let operand = self.operand(length)?;
                if self.can_be_negative(operand) {
                    return Err(self.unsupported("noOverlap with a length that can be negative"));
                }
                box_lengths.push(operand);
            }
            operands.push(box_lengths);
        }
        let mut starts = Vec::with_capacity(origins.len());
        for row in &origins {
            starts.push(row.iter().map(|origin| self.var_of(origin)).collect::<Result<Vec<_>, Error>>()?);
        }
        if starts.len() < 2 {
            return Ok(());
        }
        if dimensions == 2 && !self.is_reifying() {
            let (x, y) = (column(&starts, 0), column(&starts, 1));
            let (dx, dy) = (column(&operands, 0), column(&operands, 1));
            let posted =
                if strict { self.model.diffn(&x, &y, &dx, &dy) } else { self.model.diffn_nonstrict(&x, &y, &dx, &dy) };
            posted.map_err(|e| self.model_error(&e))?;
            return Ok(());
        }
        self.boxes_apart(&starts, &lengths, strict)
    }

    /// Each pair of boxes apart in some dimension (one ends before the
    /// other starts), or, unless `strict`, one of them with a length 0: a
    /// clause per pair, each a requirement.
    fn boxes_apart(&mut self, starts: &[Vec<VarId>], lengths: &[Vec<Linear>], strict: bool) -> Result<(), Error> {
        let dimensions = starts.first().map_or(0, Vec::len);
        for j in 0..starts.len() {
            for i in 0..j {
                let mut either = Vec::new();
                for d in 0..dimensions {
                    for (a, b) in [(i, j), (j, i)] {
                        // a ends before b starts: start_a + length_a - start_b <= 0.
                        let ends = Linear::var(starts[a][d]).plus(&lengths[a][d]);
                        let gap = ends.and_then(|e| e.minus(&Linear::var(starts[b][d])));
                        either.extend(self.compare_literal(gap, csp::Relation::Le)?);
                    }
                }
                if !strict {
                    for length in lengths[i].iter().chain(&lengths[j]) {
                        either.extend(self.compare_literal(Some(length.clone()), csp::Relation::Eq)?);
                    }
                }
                if either.is_empty() {
                    self.fail("noOverlap over two boxes that always overlap");
                    return Ok(());
                }
                self.require(csp::Condition::or(&either))?;
            }
        }
        Ok(())
    }

    /// `cumulative`: tasks `(origin, length, height)` whose heights summed
    /// at any time satisfy the condition (`le` or `lt` a capacity).
    pub(super) fn cumulative(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let origins = self.text(self.child(node, "origins")?)?;
        let starts = self.vars(&origins)?;
        let lengths = self.operands(node, "lengths")?;
        let heights = self.operands(node, "heights")?;
        if lengths.len() != starts.len() || heights.len() != starts.len() {
            return Err(self.invalid(format!(
                "{} origins, {} lengths and {} heights",
                starts.len(),
                lengths.len(),
                heights.len()
            )));
        }
        if let Some(ends) = self.optional_child(node, "ends")? {
            // Each task's end is its origin plus its length (the length as written).
            let ends = self.linears(&self.text(ends)?)?;
            if ends.len() != starts.len() {
                return Err(self.invalid(format!("{} origins but {} ends", starts.len(), ends.len())));
            }
            for ((&start, &length), end) in starts.iter().zip(&lengths).zip(&ends) {
                let difference = Linear::var(start).plus(&operand_linear(length)).and_then(|sum| sum.minus(end));
                self.post_compare(difference.ok_or_else(|| self.overflow())?, csp::Relation::Eq)?;
            }
        }
        if heights.iter().any(|&height| self.can_be_negative(height)) {
            return Err(self.unsupported("cumulative with a height that can be negative"));
        }
        // A task of negative length covers no time, as one of length 0 (the
        // official checker accepts it; the engine's lengths are at least 0).
        let lengths = lengths.into_iter().map(|length| self.at_least_zero(length)).collect::<Result<Vec<_>, _>>()?;
        let condition = self.text(self.child(node, "condition")?)?;
        let (operator, operand) = crate::text::condition(&condition).map_err(|m| self.invalid(m))?;
        let items = self.linears(operand)?;
        let [capacity] = items.as_slice() else {
            return Err(self.invalid(format!("the capacity '{operand}' is not one value or variable")));
        };
        let capacity = match operator {
            "le" => capacity.clone(),
            // Heights are integers: below c is at most c - 1.
            "lt" => capacity.clone().minus(&Linear::constant(1)).ok_or_else(|| self.overflow())?,
            other => return Err(self.unsupported(format!("cumulative with the condition operator '{other}'"))),
        };
        if self.is_reifying() {
            return self.cumulative_by_starts(&starts, &lengths, &heights, &capacity);
        }
        let capacity = match capacity.as_constant() {
            Some(value) => Operand::Const(
                super::terms::in_range(value).ok_or_else(|| self.unsupported("a capacity beyond ±2^62"))?,
            ),
            None => Operand::Var(self.var_of(&capacity)?),
        };
        if starts.is_empty() {
            return Ok(());
        }
        self.model.cumulative(&starts, &lengths, &heights, capacity).map_err(|e| self.model_error(&e))?;
        Ok(())
    }
}

/// The most nodes of a reified circuit (its decomposition has about `n^3`
/// terms).
const MOST_REIFIED_NODES: usize = 64;

impl Lowering<'_, '_> {
    /// Reified (the engine's subcircuit is not reifiable), as requirements:
    /// each successor a node, the successors pairwise distinct (a
    /// permutation, whose fixed points are the loops), at least one node
    /// that moves, the size the number of those, and each node that moves
    /// back to itself after no fewer than that many steps, so that its cycle
    /// holds every node that moves. The `k`-th successor of each node is an
    /// auxiliary variable, by the engine's element over the successors
    /// (held within the nodes, so that each is a total function).
    fn circuit_by_powers(&mut self, successors: &[VarId], start: i64, size: Option<VarId>) -> Result<(), Error> {
        let n = successors.len();
        if n > MOST_REIFIED_NODES {
            return Err(self.unsupported(format!("a reified circuit over more than {MOST_REIFIED_NODES} nodes")));
        }
        let last = start.checked_add(n as i64 - 1).ok_or_else(|| self.overflow())?;
        let mut moves = Vec::with_capacity(n);
        let mut within = Vec::with_capacity(n);
        for (position, &successor) in successors.iter().enumerate() {
            let node = start + position as i64;
            moves.push(self.model.reified(successor.ne(node)).map_err(|e| self.model_error(&e))?);
            let inside = self.model.reified(csp::Condition::in_set(successor, start..=last));
            within.push(inside.map_err(|e| self.model_error(&e))?);
            self.require(csp::Condition::from(within[position]))?;
        }
        for j in 0..n {
            for i in 0..j {
                let difference = Linear::var(successors[i]).minus(&Linear::var(successors[j]));
                self.post_compare(difference.ok_or_else(|| self.overflow())?, csp::Relation::Ne)?;
            }
        }
        self.require(csp::Condition::or(&moves))?;
        let moving = Linear::sum(moves.iter().map(|&m| Linear::literal(m))).ok_or_else(|| self.overflow())?;
        let moving = self.var_of(&moving)?;
        if let Some(size) = size {
            self.post_compare(
                Linear::var(moving).minus(&Linear::var(size)).ok_or_else(|| self.overflow())?,
                csp::Relation::Eq,
            )?;
        }
        // Each successor held within the nodes: itself when it is one.
        let mut held = Vec::with_capacity(n);
        for (&successor, &inside) in successors.iter().zip(&within) {
            let value = self.if_then_else(inside, &Linear::var(successor), &Linear::constant(i128::from(start)))?;
            held.push(self.var_of(&value)?);
        }
        // after[i]: the node k steps after node i.
        let mut after = held.clone();
        for k in 1..n {
            let short = self.model.reified(moving.ge(k as i64 + 1)).map_err(|e| self.model_error(&e))?;
            for (position, &reached) in after.iter().enumerate() {
                let back = self.model.reified(reached.eq(start + position as i64)).map_err(|e| self.model_error(&e))?;
                // A node that moves is not back after k steps while k < the number that move.
                self.require(csp::Condition::or(&[!moves[position], !back, !short]))?;
            }
            if k + 1 < n {
                let mut next = Vec::with_capacity(n);
                for &reached in &after {
                    let step = self.auxiliary(start, last)?;
                    self.model.element_var(reached, &held, step, start).map_err(|e| self.model_error(&e))?;
                    next.push(step);
                }
                after = next;
            }
        }
        Ok(())
    }

    /// Reified (the engine's cumulative is not reifiable): at each task's
    /// start, the heights of the tasks running then (started at or before
    /// it, not yet ended) sum to at most `capacity`, each a requirement.
    /// The load over time is highest at the start of some task of positive
    /// length, and these sums are loads at some time, so they are exactly
    /// the cumulative's condition.
    fn cumulative_by_starts(
        &mut self,
        starts: &[VarId],
        lengths: &[Operand],
        heights: &[Operand],
        capacity: &Linear,
    ) -> Result<(), Error> {
        for &at in starts {
            let mut load = Vec::with_capacity(starts.len());
            for ((&start, &length), &height) in starts.iter().zip(lengths).zip(heights) {
                // start <= at < start + length
                let begun = self.compare_literal(Linear::var(start).minus(&Linear::var(at)), csp::Relation::Le)?;
                let ends = Linear::var(start).plus(&operand_linear(length)).and_then(|end| end.minus(&Linear::var(at)));
                let running = self.compare_literal(ends, csp::Relation::Gt)?;
                let (Some(begun), Some(running)) = (begun, running) else { continue };
                let runs =
                    self.model.reified(csp::Condition::and(&[begun, running])).map_err(|e| self.model_error(&e))?;
                load.push(match height {
                    Operand::Const(height) => {
                        Linear::literal(runs).times(i128::from(height)).ok_or_else(|| self.overflow())?
                    }
                    Operand::Var(_) => self.if_then_else(runs, &operand_linear(height), &Linear::constant(0))?,
                });
            }
            let excess = Linear::sum(load).and_then(|load| load.minus(capacity)).ok_or_else(|| self.overflow())?;
            self.post_compare(excess, csp::Relation::Le)?;
        }
        Ok(())
    }
}

/// An operand as a linear expression.
fn operand_linear(operand: Operand) -> Linear {
    match operand {
        Operand::Const(value) => Linear::constant(i128::from(value)),
        Operand::Var(var) => Linear::var(var),
    }
}

/// Item `d` of each row.
fn column<T: Copy>(rows: &[Vec<T>], d: usize) -> Vec<T> {
    rows.iter().map(|row| row[d]).collect()
}
