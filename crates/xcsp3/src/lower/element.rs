//! `<element>`: `list[index] = value` (or a condition) by the engine's
//! element, with a rank (`first`, `last`) as clauses over the positions
//! before or after the index, over a matrix through the position of its
//! cell, without an index as a clause of one literal per entry; reified,
//! a clause of "the index is j and entry j holds" per position.

use csp::{Relation, VarId};
use roxmltree::Node;

use super::Lowering;
use super::linear::Linear;
use crate::error::Error;

/// What an entry of an element must do: equal a value, or meet a condition.
pub(super) enum Target {
    /// Equal this value.
    Value(Linear),
    /// Meet this XCSP3 condition `(operator,operand)`.
    Condition(String),
}

impl<'a, 'i> Lowering<'a, 'i> {
    /// What the entries of an element must do: its `<value>` (as a
    /// variable when `as_var`) or its `<condition>`. Symbolic entries
    /// (`entries`: their number and whether they are symbolic) take a
    /// symbolic value and no condition; integer entries an integer value.
    fn element_target(&mut self, node: Node<'a, 'i>, entries: (usize, bool), as_var: bool) -> Result<Target, Error> {
        let symbolic = entries.1;
        match (self.optional_child(node, "value")?, self.optional_child(node, "condition")?) {
            (Some(value), None) => {
                let text = self.text(value)?;
                let (item, symbolic_value) = self.sorted_item(&text, "element")?;
                self.same_sort(entries, (1, symbolic_value), "element")?;
                let value = if as_var { Linear::var(self.item_var(item)?) } else { self.item_linear(item)? };
                Ok(Target::Value(value))
            }
            (None, Some(_)) if symbolic => {
                Err(self.unsupported("element over symbolic variables with a condition (symbols are not ordered)"))
            }
            (None, Some(condition)) => Ok(Target::Condition(self.text(condition)?)),
            _ => Err(self.invalid("element needs one <value> or one <condition>")),
        }
    }

    /// A literal for `entry` doing what `target` says; `None` when it
    /// cannot, over constants.
    fn target_literal(&mut self, entry: &Linear, target: &Target) -> Result<Option<csp::Lit>, Error> {
        match target {
            Target::Value(value) => self.compare_literal(entry.clone().minus(value), Relation::Eq),
            Target::Condition(condition) => self.condition_literal(entry, condition),
        }
    }

    /// `element`: `list[index - startIndex] = value` (or compared by a
    /// condition); over a `<matrix>`, `matrix[i - startRowIndex][j -
    /// startColIndex]`, lowered onto its cells in row-major order
    /// ([`Self::matrix_position`]).
    pub(super) fn element(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "matrix", "index", "value", "condition"])?;
        let Some(index) = self.optional_child(node, "index")? else {
            return self.member(node);
        };
        let rank = match index.attribute("rank") {
            None | Some("any") => None,
            Some(rank @ ("first" | "last")) => Some(rank),
            Some(other) => return Err(self.invalid(format!("rank=\"{other}\" is none of any, first and last"))),
        };
        if rank.is_some() && self.optional_child(node, "matrix")?.is_some() {
            // XCSP3 gives a rank to the index of a list; a matrix's cells have no order to rank them by.
            return Err(self.unsupported("element with a rank over a matrix"));
        }
        if self.optional_child(node, "matrix")?.is_some() && self.optional_child(node, "list")?.is_some() {
            return Err(self.invalid("element needs one <list> or one <matrix>"));
        }
        let index_text = self.text(index)?;
        self.integer_items(&index_text, "element's index")?;
        let (entries, symbolic, index, start) = match self.optional_child(node, "matrix")? {
            Some(matrix) => {
                let (entries, position) = self.matrix_position(matrix, &index_text)?;
                let symbolic = self.all_symbolic(&entries, "element")?;
                (entries, symbolic, position, 0)
            }
            None => {
                let list = self.child(node, "list")?;
                let start = match list.attribute("startIndex") {
                    None => 0,
                    Some(text) => crate::text::integer(text).map_err(|m| self.text_error(m))?,
                };
                let list_text = self.text(list)?;
                let (entries, symbolic) = self.sorted_linears(&list_text, "element")?;
                (entries, symbolic, self.single_var(&index_text)?, start)
            }
        };
        if entries.is_empty() {
            return Err(self.invalid("element over an empty list"));
        }
        let target = self.element_target(node, (entries.len(), symbolic), true)?;
        if let (Some(_), Target::Condition(condition)) = (rank, &target) {
            // For (eq,v) the two readings of a rank agree: the first (last)
            // position holding v. For another operator, "the first position
            // meeting the condition" and "the first position holding the
            // value chosen" differ, and the specification does not say.
            let (operator, _) = crate::text::condition(condition).map_err(|m| self.invalid(m))?;
            if operator != "eq" {
                return Err(self.unsupported(format!("element with a rank and the condition operator '{operator}'")));
            }
        }
        if self.is_reifying() {
            // The engine's element is not reifiable: a clause of "the index
            // is j and entry j is the value (meets the condition)", and the
            // rank's clauses, all collected.
            self.element_by_positions(&entries, index, start, &target)?;
            if let Some(rank) = rank {
                self.element_rank(&entries, index, start, &target, rank == "first")?;
            }
            return Ok(());
        }
        let value = match &target {
            Target::Value(value) => self.var_of(value)?,
            Target::Condition(_) => {
                let bounds = entries.iter().map(|e| self.bounds(e)).collect::<Result<Vec<_>, Error>>()?;
                let low = bounds.iter().map(|b| b.0).min().unwrap_or(0);
                let high = bounds.iter().map(|b| b.1).max().unwrap_or(0);
                self.auxiliary(low, high)?
            }
        };
        self.post_element(&entries, index, value, start)?;
        if let Target::Condition(condition) = &target {
            self.post_condition(Linear::var(value), condition)?;
        }
        if let Some(rank) = rank {
            self.element_rank(&entries, index, start, &target, rank == "first")?;
        }
        Ok(())
    }

    /// `element` as a clause over the positions: for some `j`, `index` is
    /// `start + j` and `entries[j]` equals the value or meets the condition
    /// (the form of a reified element).
    pub(super) fn element_by_positions(
        &mut self,
        entries: &[Linear],
        index: VarId,
        start: i64,
        target: &Target,
    ) -> Result<(), Error> {
        let mut literals = Vec::with_capacity(entries.len());
        for (position, entry) in entries.iter().enumerate() {
            let at = Linear::var(index).minus(&Linear::constant(i128::from(start) + position as i128));
            let Some(here) = self.compare_literal(at, Relation::Eq)? else { continue };
            let holds = self.target_literal(entry, target)?;
            let Some(holds) = holds else { continue };
            let both = self.model.reified(csp::Condition::and(&[here, holds])).map_err(|e| self.model_error(&e))?;
            literals.push(both);
        }
        if literals.is_empty() {
            self.fail("element: no position can hold the value or meet the condition");
            return Ok(());
        }
        self.require(csp::Condition::or(&literals))
    }

    /// `entries[index - start] = value`, by the engine's element over
    /// constants when every entry is one, over variables otherwise.
    pub(super) fn post_element(
        &mut self,
        entries: &[Linear],
        index: VarId,
        value: VarId,
        start: i64,
    ) -> Result<(), Error> {
        let posted = match entries.iter().map(Linear::as_constant).collect::<Option<Vec<i128>>>() {
            Some(constants) => {
                let constants = constants.into_iter().map(super::terms::in_range).collect::<Option<Vec<i64>>>();
                let constants = constants.ok_or_else(|| self.unsupported("an element entry beyond ±2^62"))?;
                self.model.element(index, &constants, value, start)
            }
            None => {
                let vars = entries.iter().map(|e| self.var_of(e)).collect::<Result<Vec<VarId>, Error>>()?;
                self.model.element_var(index, &vars, value, start)
            }
        };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// `rank="first"` (`"last"`): no entry before (after) the index equals
    /// the value, or the condition's `(eq,v)` operand: for each position
    /// `j`, `index <= j` (`>=`) or `list[j]` does not equal it.
    pub(super) fn element_rank(
        &mut self,
        entries: &[Linear],
        index: VarId,
        start: i64,
        target: &Target,
        first: bool,
    ) -> Result<(), Error> {
        for (position, entry) in entries.iter().enumerate() {
            let meets = self.target_literal(entry, target)?;
            // An entry that never meets it does not constrain the index.
            let Some(meets) = meets else { continue };
            let j = Linear::constant(i128::from(start) + position as i128);
            let relation = if first { Relation::Le } else { Relation::Ge };
            let mut either = vec![!meets];
            either.extend(self.compare_literal(Linear::var(index).minus(&j), relation)?);
            self.require(csp::Condition::or(&either))?;
        }
        Ok(())
    }

    /// `element` without an index (member): some entry of the list, or
    /// cell of the matrix, equals the value or meets the condition: a
    /// clause of one literal per entry.
    fn member(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let (entries, symbolic) = match (self.optional_child(node, "list")?, self.optional_child(node, "matrix")?) {
            (Some(list), None) => {
                let text = self.text(list)?;
                self.sorted_linears(&text, "element")?
            }
            (None, Some(matrix)) => {
                let entries = self.matrix_cells(matrix)?.concat();
                let symbolic = self.all_symbolic(&entries, "element")?;
                (entries, symbolic)
            }
            _ => return Err(self.invalid("element needs one <list> or one <matrix>")),
        };
        let target = self.element_target(node, (entries.len(), symbolic), false)?;
        let mut literals = Vec::with_capacity(entries.len());
        for entry in &entries {
            literals.extend(self.target_literal(entry, &target)?);
        }
        if literals.is_empty() {
            self.fail("element without an index: no entry can equal the value or meet the condition");
            return Ok(());
        }
        self.require(csp::Condition::or(&literals))
    }

    /// The cells of an element's `<matrix>` in row-major order, and a
    /// variable for the position of `[i][j]` among them: `columns * (i -
    /// startRowIndex) + (j - startColIndex)`, with `i` and `j` each held
    /// within its dimension, so that no pair outside the matrix lands on a
    /// cell.
    fn matrix_position(&mut self, matrix: Node<'a, 'i>, index_text: &str) -> Result<(Vec<Linear>, VarId), Error> {
        let mut starts = [0i64; 2];
        for (start, attribute) in starts.iter_mut().zip(["startRowIndex", "startColIndex"]) {
            if let Some(text) = matrix.attribute(attribute) {
                *start = crate::text::integer(text).map_err(|m| self.text_error(m))?;
            }
        }
        let rows = self.matrix_cells(matrix)?;
        let columns = rows[0].len();
        let mut indices = self.items(index_text)?;
        if indices.len() != 2 {
            return Err(self.invalid(format!("an element over a matrix takes two indices, found {}", indices.len())));
        }
        let column = self.item_var(indices.pop().expect("two indices"))?;
        let row = self.item_var(indices.pop().expect("two indices"))?;
        let mut position = Linear::constant(0);
        for ((var, start), size) in [row, column].into_iter().zip(starts).zip([rows.len(), columns]) {
            let last = i128::from(start) + size as i128 - 1;
            self.post_condition(Linear::var(var), &format!("(in,{start}..{last})"))?;
            position = position
                .times(size as i128)
                .and_then(|p| p.plus(&Linear::var(var)))
                .and_then(|p| p.minus(&Linear::constant(i128::from(start))))
                .ok_or_else(|| self.unsupported("a matrix position beyond 128 bits"))?;
        }
        let position = self.var_of(&position)?;
        Ok((rows.concat(), position))
    }
}
