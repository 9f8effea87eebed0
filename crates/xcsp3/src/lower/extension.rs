//! `<extension>`: tables of supports (the engine's `table`, STR) or of
//! conflicts (`negative_table`, STR-N); a unary table is set membership.
//! Tuples with a value outside a variable's domain are dropped (they can
//! never be matched); a `*` stands for every value of its variable's
//! domain and is expanded, up to [`MAX_ROWS`] rows.

use csp::{Condition, VarId};
use roxmltree::Node;

use super::Lowering;
use super::linear::Linear;
use crate::error::Error;
use crate::text::{self, Entry};

/// The most rows a table may have once its `*` are expanded.
pub(super) const MAX_ROWS: usize = 5_000_000;

/// The most values (rows times arity) of a reified table, which gets a
/// literal per row and per value.
const MAX_REIFIED_CELLS: usize = 1_000_000;

impl<'a, 'i> Lowering<'a, 'i> {
    /// `<extension><list>..</list><supports>..</supports></extension>` (or `<conflicts>`).
    pub(super) fn extension(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let list = self.text(self.child(node, "list")?)?;
        let vars = self.vars(&list)?;
        let (tuples_node, supports) =
            match (self.optional_child(node, "supports")?, self.optional_child(node, "conflicts")?) {
                (Some(supports), None) => (supports, true),
                (None, Some(conflicts)) => (conflicts, false),
                _ => return Err(self.invalid("<extension> needs one <supports> or one <conflicts>")),
            };
        let text = self.text(tuples_node)?;
        let symbolic = vars.iter().any(|&var| self.variables.is_symbolic(var));
        if vars.len() == 1 && !text.trim_start().starts_with('(') {
            if symbolic {
                return self.unary_symbols(vars[0], &text, supports);
            }
            return self.unary(vars[0], &text, supports);
        }
        let tuples = if symbolic {
            self.symbolic_tuples(&vars, &text)?
        } else {
            text::tuples(&text).map_err(|m| self.text_error(m))?
        };
        let rows = self.rows(&vars, &tuples)?;
        if vars.is_empty() {
            return Err(self.invalid("an extension constraint over no variable"));
        }
        match (supports, rows.is_empty()) {
            (true, true) => {
                self.fail("a table without a support (within the domains)");
                Ok(())
            }
            (false, true) => Ok(()),
            // A table is not reifiable: a literal for "the tuple is a row".
            (_, false) if self.is_reifying() => self.table_literal(&vars, &rows, supports),
            (true, false) => self.model.table(&vars, &rows).map(drop).map_err(|e| self.model_error(&e)),
            (false, false) => self.model.negative_table(&vars, &rows).map(drop).map_err(|e| self.model_error(&e)),
        }
    }

    /// Requires that the variables form one of the rows (`supports`) or
    /// none of them, through a literal per row for "the variables equal
    /// it" ([`Lowering::equals_some_tuple`]): the table of a reified
    /// extension.
    fn table_literal(&mut self, vars: &[VarId], rows: &[Vec<i64>], supports: bool) -> Result<(), Error> {
        if rows.len().saturating_mul(vars.len()) > MAX_REIFIED_CELLS {
            return Err(self.unsupported(format!("a reified table of more than {MAX_REIFIED_CELLS} values")));
        }
        let tuple: Vec<Linear> = vars.iter().map(|&var| Linear::var(var)).collect();
        let rows: Vec<Vec<Linear>> =
            rows.iter().map(|row| row.iter().map(|&v| Linear::constant(i128::from(v))).collect()).collect();
        match (self.equals_some_tuple(&tuple, &rows)?, supports) {
            (Some(row), true) => self.require(row.into()),
            (Some(row), false) => self.require((!row).into()),
            (None, true) => {
                self.fail("a table without a support (within the domains)");
                Ok(())
            }
            (None, false) => Ok(()),
        }
    }

    /// The tuples of a table over symbolic variables (some or all): a
    /// symbolic column's symbols as their codes, the others' integers.
    fn symbolic_tuples(&mut self, vars: &[VarId], text: &str) -> Result<Vec<Vec<Entry>>, Error> {
        let mut wrong = None;
        let tuples = text::tuples_of(text, &mut |column, token| {
            let Some(&var) = vars.get(column) else { return Ok(0) };
            match self.value_for(var, token) {
                Ok(value) => Ok(value),
                Err(error) => {
                    let message = error.message.clone();
                    wrong = Some(error);
                    Err(message)
                }
            }
        });
        match (tuples, wrong) {
            (Ok(tuples), _) => Ok(tuples),
            (Err(_), Some(error)) => Err(error),
            (Err(message), None) => Err(self.text_error(message)),
        }
    }

    /// A unary table over a symbolic variable: its symbols.
    fn unary_symbols(&mut self, var: VarId, text: &str, supports: bool) -> Result<(), Error> {
        let mut codes = Vec::new();
        for token in text.split_whitespace() {
            codes.push(self.value_for(var, token)?);
        }
        let ranges: Vec<String> = codes.iter().map(ToString::to_string).collect();
        self.unary(var, &ranges.join(" "), supports)
    }

    /// A unary table: values and ranges.
    fn unary(&mut self, var: VarId, text: &str, supports: bool) -> Result<(), Error> {
        let ranges = text::ranges(text).map_err(|m| self.text_error(m))?;
        let domain = self.model.domain(var).cloned().expect("a variable of this model");
        let values: Vec<i64> =
            domain.iter().filter(|&v| ranges.iter().any(|&(low, high)| low <= v && v <= high)).collect();
        if supports && values.is_empty() {
            self.fail(format!("no value of {} is a support", self.model.display_name(var)));
            return Ok(());
        }
        if !supports && values.is_empty() {
            return Ok(());
        }
        let condition = if supports { Condition::in_set(var, values) } else { Condition::not_in_set(var, values) };
        self.require(condition)
    }

    /// The tuples as rows within the domains, `*` expanded.
    fn rows(&self, vars: &[VarId], tuples: &[Vec<Entry>]) -> Result<Vec<Vec<i64>>, Error> {
        let domains: Vec<csp::Domain> =
            vars.iter().map(|&v| self.model.domain(v).cloned().expect("a variable of this model")).collect();
        let mut rows: Vec<Vec<i64>> = Vec::with_capacity(tuples.len());
        for tuple in tuples {
            if tuple.len() != vars.len() {
                return Err(self.invalid(format!(
                    "a tuple of {} values for a list of {} variables",
                    tuple.len(),
                    vars.len()
                )));
            }
            if tuple.iter().zip(&domains).any(|(entry, domain)| entry.is_some_and(|v| !domain.contains(v))) {
                continue;
            }
            let mut expanded: Vec<Vec<i64>> = vec![Vec::with_capacity(vars.len())];
            for (entry, domain) in tuple.iter().zip(&domains) {
                match entry {
                    Some(value) => expanded.iter_mut().for_each(|row| row.push(*value)),
                    None => {
                        let size = usize::try_from(domain.size()).unwrap_or(usize::MAX);
                        if size.saturating_mul(expanded.len()).saturating_add(rows.len()) > MAX_ROWS {
                            return Err(self.unsupported(format!(
                                "a table of more than {MAX_ROWS} rows once its '*' are expanded"
                            )));
                        }
                        expanded = expanded
                            .into_iter()
                            .flat_map(|row| {
                                domain.iter().map(move |value| {
                                    let mut row = row.clone();
                                    row.push(value);
                                    row
                                })
                            })
                            .collect();
                    }
                }
            }
            rows.extend(expanded);
            if rows.len() > MAX_ROWS {
                return Err(self.unsupported(format!("a table of more than {MAX_ROWS} rows")));
            }
        }
        Ok(rows)
    }
}
