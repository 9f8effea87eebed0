//! `<channel>` in its three XCSP3-core forms: two lists of one length
//! (the engine's `inverse`), two lists where the first is shorter (an
//! `element` per item of the first), one list (an `inverse` with a copy of
//! itself), and a list with a `<value>` (each item's `= 1` reified against
//! the value's `= i`). Positions count from each list's `startIndex`.
//!
//! The official checker's reading, which these follow (each form tried on
//! hand-made assignments): an item of a list that gives positions of the
//! other lies within those positions, the value lies within the list's
//! positions, and with a shorter first list the second list's items that
//! no item of the first points at are free.

use csp::VarId;
use roxmltree::Node;

use super::{Lowering, elements};
use crate::error::Error;

impl<'a, 'i> Lowering<'a, 'i> {
    /// `channel`: `x[i] = j <=> y[j] = i` over two lists of one length;
    /// `x[i] = j => y[j] = i` when `x` is shorter; `x[i] = j <=> x[j] = i`
    /// over one list; `x[i] = 1 <=> value = i` with a `<value>`.
    pub(super) fn channel(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "value"])?;
        let lists: Vec<Node<'a, 'i>> = elements(node).filter(|c| c.tag_name().name() == "list").collect();
        let value = self.optional_child(node, "value")?;
        let mut sides = Vec::with_capacity(2);
        for list in &lists {
            let start = match list.attribute("startIndex") {
                None => 0,
                Some(text) => crate::text::integer(text).map_err(|m| self.text_error(m))?,
            };
            let text = self.text(*list)?;
            sides.push((self.vars(&text)?, start));
        }
        if lists.is_empty() && elements(node).next().is_none() {
            // The short form `<channel> x[] </channel>`: one list from 0.
            let text = self.text(node)?;
            sides.push((self.vars(&text)?, 0));
        }
        match (sides.as_slice(), value) {
            ([(x, x_start)], Some(value)) => {
                let text = self.text(value)?;
                let value = self.single_var(&text)?;
                self.channel_value(x, *x_start, value)
            }
            ([(x, start)], None) if self.is_reifying() => self.inverse_by_literals(x, *start, x, *start, true),
            ([(x, start)], None) => self.channel_one(x, *start),
            ([(x, x_start), (y, y_start)], None) => {
                if x.len() > y.len() {
                    return Err(self.invalid(format!(
                        "channel's first list is longer than its second ({} > {})",
                        x.len(),
                        y.len()
                    )));
                }
                if self.is_reifying() {
                    return self.inverse_by_literals(x, *x_start, y, *y_start, x.len() == y.len());
                }
                if x.len() == y.len() {
                    // XCSP3: x[i] = j <-> y[j] = i, positions counted from each list's startIndex.
                    self.model.inverse(x, *x_start, y, *y_start).map_err(|e| self.model_error(&e))?;
                    return Ok(());
                }
                self.channel_shorter(x, *x_start, y, *y_start)
            }
            (sides, value) => Err(self.invalid(format!(
                "channel takes one or two <list> and, with one, an optional <value>; found {} lists{}",
                sides.len(),
                if value.is_some() { " and a <value>" } else { "" }
            ))),
        }
    }

    /// One list: `x[i] = j <=> x[j] = i`, as `inverse(x, copy of x)`.
    fn channel_one(&mut self, x: &[VarId], start: i64) -> Result<(), Error> {
        if x.is_empty() {
            return Ok(());
        }
        let mut copy = Vec::with_capacity(x.len());
        for &var in x {
            let domain =
                self.model.domain(var).ok_or_else(|| self.unsupported("an unknown variable in channel"))?.clone();
            let twin = self.model.new_var(domain).map_err(|e| self.model_error(&e))?;
            self.model.equal(var, twin).map_err(|e| self.model_error(&e))?;
            copy.push(twin);
        }
        self.model.inverse(x, start, &copy, start).map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// A first list shorter than the second: `x[i]` is a position of `y`
    /// and `y[x[i]] = i`.
    fn channel_shorter(&mut self, x: &[VarId], x_start: i64, y: &[VarId], y_start: i64) -> Result<(), Error> {
        for (position, &var) in x.iter().enumerate() {
            let i = self.fixed(i128::from(x_start) + position as i128)?;
            self.model.element_var(var, y, i, y_start).map_err(|e| self.model_error(&e))?;
        }
        Ok(())
    }

    /// With a value: `value` is a position of `x` and `x[i] = 1` exactly
    /// at `i = value`.
    fn channel_value(&mut self, x: &[VarId], start: i64, value: VarId) -> Result<(), Error> {
        if x.is_empty() {
            self.fail("channel with a value over an empty list");
            return Ok(());
        }
        let last = i128::from(start) + x.len() as i128 - 1;
        self.post_condition(super::linear::Linear::var(value), &format!("(in,{start}..{last})"))?;
        for (position, &var) in x.iter().enumerate() {
            let i = start.checked_add(position as i64).ok_or_else(|| self.overflow())?;
            let here = self.model.reified(value.eq(i)).map_err(|e| self.model_error(&e))?;
            if self.is_reifying() {
                // Reified: `here` equal to `x[i] = 1`, collected.
                let one = self.model.reified(var.eq(1)).map_err(|e| self.model_error(&e))?;
                self.require(csp::Condition::xor(&[here, !one]))?;
            } else {
                self.model.reify(here, var.eq(1)).map_err(|e| self.model_error(&e))?;
            }
        }
        Ok(())
    }

    /// Reified (the engine's `inverse` and `element` are not reifiable):
    /// each item of `x` within the positions of `y`, and `x[i] = j` equal to
    /// `y[j] = i` (`both_ways`, the items of `y` then within the positions of
    /// `x`) or implying it, each a requirement. With `y` the list `x`
    /// itself, `x[i] = j <=> x[j] = i`.
    fn inverse_by_literals(
        &mut self,
        x: &[VarId],
        x_start: i64,
        y: &[VarId],
        y_start: i64,
        both_ways: bool,
    ) -> Result<(), Error> {
        self.within_positions(x, y_start, y.len())?;
        if both_ways {
            self.within_positions(y, x_start, x.len())?;
        }
        for (i, &item) in x.iter().enumerate() {
            let i_at = x_start.checked_add(i as i64).ok_or_else(|| self.overflow())?;
            for (j, &other) in y.iter().enumerate() {
                let j_at = y_start.checked_add(j as i64).ok_or_else(|| self.overflow())?;
                let points = self.model.reified(item.eq(j_at)).map_err(|e| self.model_error(&e))?;
                let back = self.model.reified(other.eq(i_at)).map_err(|e| self.model_error(&e))?;
                let tie = if both_ways {
                    csp::Condition::xor(&[points, !back])
                } else {
                    csp::Condition::or(&[!points, back])
                };
                self.require(tie)?;
            }
        }
        Ok(())
    }

    /// Requires each of `vars` within the `count` positions from `start`.
    fn within_positions(&mut self, vars: &[VarId], start: i64, count: usize) -> Result<(), Error> {
        if vars.is_empty() {
            return Ok(());
        }
        if count == 0 {
            self.fail("channel: an item points into an empty list");
            return Ok(());
        }
        let last = start.checked_add(count as i64 - 1).ok_or_else(|| self.overflow())?;
        for &var in vars {
            self.require(csp::Condition::in_set(var, start..=last))?;
        }
        Ok(())
    }
}
