//! The global constraints of XCSP3-core over lists: `allDifferent`,
//! `allEqual`, `sum`, `count`, `nValues`, `cardinality`, `minimum`,
//! `maximum`, `minimumArg`, `maximumArg`, `ordered`, `lex` and `instantiation` (`element` in `element.rs`),
//! each lowered onto the engine's constraint of the same relation (a
//! comparison on an auxiliary variable where XCSP3 gives a condition).

use csp::{Relation, VarId};
use roxmltree::Node;

use super::element::Target;
use super::linear::Linear;
use super::{Lowering, elements};
use crate::error::Error;

impl<'a, 'i> Lowering<'a, 'i> {
    /// The text of the child `name`, or of the node itself when it has no
    /// element children (the short form `<allDifferent> x[] </allDifferent>`).
    /// A `startIndex` other than 0 on such a list, whose positions mean
    /// nothing, was refused before lowering ([`Lowering::known_attributes`]).
    fn list_text(&self, node: Node<'a, 'i>, name: &str) -> Result<String, Error> {
        match self.optional_child(node, name)? {
            Some(child) => self.text(child),
            None if elements(node).next().is_none() => self.text(node),
            None => Err(self.invalid(format!("<{}> needs a <{name}> element", node.tag_name().name()))),
        }
    }

    /// Refuses child elements other than `allowed`, so that nothing is ignored.
    pub(super) fn only_children(&self, node: Node<'a, 'i>, allowed: &[&str]) -> Result<(), Error> {
        for child in elements(node) {
            let name = child.tag_name().name();
            if !allowed.contains(&name) && name != "annotations" {
                return Err(self.unsupported(format!("<{name}> in <{}>", node.tag_name().name())));
            }
        }
        Ok(())
    }

    /// `allDifferent`: over a list (variables or expressions), with `except`
    /// values; over a `<matrix>`, on each row and each column.
    pub(super) fn all_different(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "matrix", "except"])?;
        let lists: Vec<Node<'a, 'i>> = elements(node).filter(|c| c.tag_name().name() == "list").collect();
        if lists.len() > 1 {
            let except = self.optional_child(node, "except")?;
            return self.all_different_lists(&lists, except);
        }
        let except = match self.optional_child(node, "except")? {
            Some(except) => self.integers(&self.text(except)?)?,
            None => Vec::new(),
        };
        if let Some(matrix) = self.optional_child(node, "matrix")? {
            let rows = self.matrix_cells(matrix)?;
            if self.all_symbolic(&rows.concat(), "allDifferent")? && !except.is_empty() {
                return Err(self.unsupported("allDifferent with except over symbolic variables"));
            }
            for line in rows.iter().cloned().chain(transpose(&rows)) {
                self.all_different_of(&line, &except)?;
            }
            return Ok(());
        }
        let items = self.list_text(node, "list")?;
        let values = self.linears(&items)?;
        if self.all_symbolic(&values, "allDifferent")? && !except.is_empty() {
            return Err(self.unsupported("allDifferent with except over symbolic variables"));
        }
        self.all_different_of(&values, &except)
    }

    /// `allDifferent` over several lists of one length: the lists, as
    /// tuples, pairwise distinct (each pair differs at some position); with
    /// `<except>` tuples `(a,b,...)(c,d,...)`, two lists may be equal when
    /// they equal an excepted tuple: a clause per pair, the disequalities
    /// and the first list's literal for "is an excepted tuple".
    fn all_different_lists(&mut self, lists: &[Node<'a, 'i>], except: Option<Node<'a, 'i>>) -> Result<(), Error> {
        let mut tuples = Vec::with_capacity(lists.len());
        for list in lists {
            let text = self.text(*list)?;
            tuples.push(self.linears(&text)?);
        }
        if self.all_symbolic(&tuples.concat(), "allDifferent")? && except.is_some() {
            return Err(self.unsupported("allDifferent with except over symbolic variables"));
        }
        if let Some(other) = tuples.iter().find(|t| t.len() != tuples[0].len()) {
            return Err(self.invalid(format!(
                "allDifferent over lists of lengths {} and {}",
                tuples[0].len(),
                other.len()
            )));
        }
        let excepted = match except {
            Some(except) => {
                let text = self.text(except)?;
                let rows = if text.trim().is_empty() { Vec::new() } else { self.matrix_rows(&text)? };
                if let Some(row) = rows.iter().find(|row| row.len() != tuples[0].len()) {
                    return Err(self.invalid(format!(
                        "allDifferent over lists of length {} with an excepted tuple of length {}",
                        tuples[0].len(),
                        row.len()
                    )));
                }
                tuples.iter().map(|tuple| self.equals_some_tuple(tuple, &rows)).collect::<Result<Vec<_>, Error>>()?
            }
            None => vec![None; tuples.len()],
        };
        for j in 0..tuples.len() {
            for i in 0..j {
                let mut differ = Vec::with_capacity(tuples[i].len() + 1);
                for (a, b) in tuples[i].iter().zip(&tuples[j]) {
                    differ.extend(self.compare_literal(a.clone().minus(b), Relation::Ne)?);
                }
                differ.extend(excepted[i]);
                if differ.is_empty() {
                    self.fail(format!("allDifferent over lists {i} and {j}, which are equal"));
                    return Ok(());
                }
                self.require(csp::Condition::or(&differ))?;
            }
        }
        Ok(())
    }

    /// A literal for `tuple` equal to one of `rows`; `None` when it cannot be.
    pub(super) fn equals_some_tuple(
        &mut self,
        tuple: &[Linear],
        rows: &[Vec<Linear>],
    ) -> Result<Option<csp::Lit>, Error> {
        let mut equal_rows = Vec::with_capacity(rows.len());
        'rows: for row in rows {
            let mut equalities = Vec::with_capacity(row.len());
            for (item, value) in tuple.iter().zip(row) {
                match self.compare_literal(item.clone().minus(value), Relation::Eq)? {
                    Some(literal) => equalities.push(literal),
                    None => continue 'rows,
                }
            }
            let literal = self.model.reified(csp::Condition::and(&equalities)).map_err(|e| self.model_error(&e))?;
            equal_rows.push(literal);
        }
        match equal_rows.as_slice() {
            [] => Ok(None),
            [literal] => Ok(Some(*literal)),
            _ => self.model.reified(csp::Condition::or(&equal_rows)).map(Some).map_err(|e| self.model_error(&e)),
        }
    }

    /// The values pairwise different, but for the excepted ones.
    fn all_different_of(&mut self, values: &[Linear], except: &[i64]) -> Result<(), Error> {
        if !except.is_empty() || self.is_reifying() {
            return self.all_different_except(values, except);
        }
        // x + c for each item, as the engine's all_different_offset.
        let mut vars = Vec::with_capacity(values.len());
        let mut offsets = Vec::with_capacity(values.len());
        for value in values {
            match value.terms.as_slice() {
                [(1, var)] => {
                    vars.push(*var);
                    offsets.push(super::terms::in_range(value.constant).ok_or_else(|| self.overflow())?);
                }
                _ => {
                    vars.push(self.var_of(value)?);
                    offsets.push(0);
                }
            }
        }
        if vars.len() < 2 {
            return Ok(());
        }
        for j in 0..vars.len() {
            if let Some(i) = (0..j).find(|&i| vars[i] == vars[j] && offsets[i] == offsets[j]) {
                self.fail(format!("allDifferent holds the same term twice (positions {i} and {j})"));
                return Ok(());
            }
        }
        let mut sorted = vars.clone();
        sorted.sort_unstable();
        if sorted.windows(2).any(|pair| pair[0] == pair[1]) {
            // A variable with two offsets: copies keep the engine's scope distinct.
            for (var, offset) in vars.iter_mut().zip(&mut offsets) {
                let value =
                    Linear::var(*var).plus(&Linear::constant(i128::from(*offset))).ok_or_else(|| self.overflow())?;
                let (low, high) = self.bounds(&value)?;
                let copy = self.auxiliary(low, high)?;
                self.define(copy, &value)?;
                (*var, *offset) = (copy, 0);
            }
        }
        let posted = if offsets.iter().all(|&o| o == 0) {
            self.model.all_different(&vars)
        } else {
            self.model.all_different_offset(&vars, &offsets)
        };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// Pairwise: `x_i != x_j` or `x_i` is an excepted value (also the
    /// form of a reified allDifferent, whose propagator cannot be reified).
    fn all_different_except(&mut self, values: &[Linear], except: &[i64]) -> Result<(), Error> {
        let vars = values.iter().map(|v| self.var_of(v)).collect::<Result<Vec<VarId>, Error>>()?;
        for j in 0..vars.len() {
            for i in 0..j {
                let mut either = Vec::with_capacity(2);
                either.extend(self.compare_literal(Linear::var(vars[i]).minus(&Linear::var(vars[j])), Relation::Ne)?);
                if !except.is_empty() {
                    let excepted = self.model.reified(csp::Condition::in_set(vars[i], except.to_vec()));
                    either.push(excepted.map_err(|e| self.model_error(&e))?);
                }
                if either.is_empty() {
                    self.fail(format!("allDifferent holds the same term twice (positions {i} and {j})"));
                    return Ok(());
                }
                self.require(csp::Condition::or(&either))?;
            }
        }
        Ok(())
    }

    /// A literal for `linear relation 0`; `None` when that is false over
    /// constants (true over constants gives a literal fixed to 1).
    pub(super) fn compare_literal(
        &mut self,
        linear: Option<Linear>,
        relation: Relation,
    ) -> Result<Option<csp::Lit>, Error> {
        let linear = linear.ok_or_else(|| self.overflow())?;
        if let Some(value) = linear.as_constant() {
            if !super::terms::holds(value, relation) {
                return Ok(None);
            }
            return self.true_literal().map(Some);
        }
        let condition = self.compare_condition(&linear, relation);
        self.model.reified(condition).map(Some).map_err(|e| self.model_error(&e))
    }

    /// `allEqual`.
    pub(super) fn all_equal(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list"])?;
        let text = self.list_text(node, "list")?;
        let values = self.linears(&text)?;
        self.all_symbolic(&values, "allEqual")?;
        for pair in values.windows(2) {
            let difference = pair[0].clone().minus(&pair[1]).ok_or_else(|| self.overflow())?;
            self.post_compare(difference, Relation::Eq)?;
        }
        Ok(())
    }

    /// `sum`: `sum(coeffs[i] * list[i]) condition`, coefficients integers or variables.
    pub(super) fn sum(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "coeffs", "condition"])?;
        let text = self.list_text(node, "list")?;
        let values = self.linears(&text)?;
        let coefficients: Vec<Linear> = match self.optional_child(node, "coeffs")? {
            Some(coeffs) => {
                let text = self.text(coeffs)?;
                self.linears(&text)?
            }
            None => vec![Linear::constant(1); values.len()],
        };
        if coefficients.len() != values.len() {
            return Err(self.invalid(format!(
                "the sum has {} terms but {} coefficients",
                values.len(),
                coefficients.len()
            )));
        }
        let mut terms = Vec::with_capacity(values.len());
        for (value, coefficient) in values.into_iter().zip(coefficients) {
            terms.push(self.arithmetic(crate::expression::Operator::Mul, vec![coefficient, value])?);
        }
        let total = Linear::sum(terms).ok_or_else(|| self.overflow())?;
        let condition = self.text(self.child(node, "condition")?)?;
        self.post_condition(total, &condition)
    }

    /// A new variable for a count of `n` things, over `0..=n`.
    fn counter(&mut self, n: usize) -> Result<VarId, Error> {
        self.auxiliary(0, n as i64)
    }

    /// `count`: how many of the list take one of the values, compared by the condition.
    pub(super) fn count(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "values", "condition"])?;
        let text = self.list_text(node, "list")?;
        let (vars, symbolic) = self.sorted_vars(&text, "count")?;
        let values_text = self.text(self.child(node, "values")?)?;
        let (values, symbolic_values) = self.sorted_linears(&values_text, "count")?;
        self.same_sort((vars.len(), symbolic), (values.len(), symbolic_values), "count")?;
        let condition = self.text(self.child(node, "condition")?)?;
        let counter = self.counter(vars.len())?;
        if let Some(constants) = values.iter().map(Linear::as_constant).collect::<Option<Vec<i128>>>() {
            let constants: Vec<i64> = constants.into_iter().filter_map(super::terms::in_range).collect();
            self.model.among(counter, &vars, &constants).map_err(|e| self.model_error(&e))?;
        } else if let [value] = values.as_slice() {
            let value = self.var_of(value)?;
            self.model.count(&vars, value, counter).map_err(|e| self.model_error(&e))?;
        } else {
            // Several values, some variables: an item counts when it equals one of them.
            let mut counted = Vec::with_capacity(vars.len());
            for &var in &vars {
                if let Some(literal) = self.equals_some(&Linear::var(var), &values)? {
                    counted.push(Linear::literal(literal));
                }
            }
            let total = Linear::sum(counted).ok_or_else(|| self.overflow())?;
            self.define(counter, &total)?;
        }
        self.post_condition(Linear::var(counter), &condition)
    }

    /// A literal for `item` equal to one of `values`; `None` when it cannot be
    /// (every comparison false over constants).
    fn equals_some(&mut self, item: &Linear, values: &[Linear]) -> Result<Option<csp::Lit>, Error> {
        let mut literals = Vec::with_capacity(values.len());
        for value in values {
            if let Some(literal) = self.compare_literal(item.clone().minus(value), Relation::Eq)? {
                literals.push(literal);
            }
        }
        match literals.as_slice() {
            [] => Ok(None),
            [literal] => Ok(Some(*literal)),
            _ => self.model.reified(csp::Condition::or(&literals)).map(Some).map_err(|e| self.model_error(&e)),
        }
    }

    /// `nValues`: the number of distinct values of the list, compared by the condition.
    /// With `except`, the excepted values are not counted: each variable that
    /// can take one is mapped by a table onto a copy in which every excepted
    /// value is one sentinel, below every domain, and the sentinel, always
    /// present through a fixed variable, is taken off the count.
    pub(super) fn n_values(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "except", "condition"])?;
        let text = self.list_text(node, "list")?;
        let (mut vars, symbolic) = self.sorted_vars(&text, "nValues")?;
        let except = match self.optional_child(node, "except")? {
            Some(except) => {
                let (values, symbolic_values) = self.sorted_linears(&self.text(except)?, "nValues")?;
                self.same_sort((vars.len(), symbolic), (values.len(), symbolic_values), "nValues with except")?;
                let constants = values.iter().map(|value| value.as_constant().and_then(|c| i64::try_from(c).ok()));
                constants
                    .collect::<Option<Vec<i64>>>()
                    .ok_or_else(|| self.invalid("nValues excepts values, not variables"))?
            }
            None => Vec::new(),
        };
        let condition = self.text(self.child(node, "condition")?)?;
        if vars.is_empty() {
            return self.post_condition(Linear::constant(0), &condition);
        }
        let sentinel = if except.is_empty() { None } else { Some(self.map_excepted(&mut vars, &except)?) };
        let counter = self.counter(vars.len())?;
        self.model.nvalue(counter, &vars).map_err(|e| self.model_error(&e))?;
        let counted = match sentinel {
            Some(_) => Linear::var(counter).plus(&Linear::constant(-1)).ok_or_else(|| self.overflow())?,
            None => Linear::var(counter),
        };
        self.post_condition(counted, &condition)
    }

    /// Replaces each variable that can take an excepted value by its copy
    /// with the sentinel for those values, and appends the sentinel, fixed;
    /// returns the sentinel.
    fn map_excepted(&mut self, vars: &mut Vec<VarId>, except: &[i64]) -> Result<i64, Error> {
        /// The most values of a domain copied value by value.
        const MOST: u64 = 1 << 16;
        let mut lowest = i64::MAX;
        for &var in vars.iter() {
            let domain = self.model.domain(var).ok_or_else(|| self.unsupported("an unknown variable in nValues"))?;
            lowest = lowest.min(domain.min().unwrap_or(i64::MAX));
            if except.iter().any(|&e| domain.contains(e)) && domain.size() > MOST {
                return Err(self.unsupported("nValues with except over a domain of more than 65,536 values"));
            }
        }
        let sentinel = lowest.checked_sub(1).ok_or_else(|| self.overflow())?;
        for var in vars.iter_mut() {
            let domain = self.model.domain(*var).expect("a variable of the model").clone();
            if !except.iter().any(|&e| domain.contains(e)) {
                continue;
            }
            let rows: Vec<Vec<i64>> =
                domain.iter().map(|v| vec![v, if except.contains(&v) { sentinel } else { v }]).collect();
            let image = csp::Domain::values(rows.iter().map(|row| row[1]));
            let copy = self.model.new_var(image).map_err(|e| self.model_error(&e))?;
            self.model.table(&[*var, copy], &rows).map_err(|e| self.model_error(&e))?;
            *var = copy;
        }
        let fixed = self.auxiliary(sentinel, sentinel)?;
        vars.push(fixed);
        Ok(sentinel)
    }

    /// `cardinality`: the number of occurrences of each value (variables,
    /// constants, or ranges `a..b` of allowed counts), `closed` or not.
    pub(super) fn cardinality(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "values", "occurs"])?;
        let text = self.list_text(node, "list")?;
        let (vars, symbolic) = self.sorted_vars(&text, "cardinality")?;
        let values_node = self.child(node, "values")?;
        let closed = match values_node.attribute("closed") {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => return Err(self.invalid(format!("closed=\"{other}\" is neither true nor false"))),
        };
        let values_text = self.text(values_node)?;
        let (values, symbolic_values) = self.sorted_linears(&values_text, "cardinality")?;
        self.same_sort((vars.len(), symbolic), (values.len(), symbolic_values), "cardinality")?;
        // Reified, the engine's global cardinality (not reifiable) gives way
        // to a count per value, each compared with its occurrence.
        let constants = values.iter().map(|value| value.as_constant().and_then(|c| i64::try_from(c).ok()));
        let Some(cover) = constants.collect::<Option<Vec<i64>>>().filter(|_| !self.is_reifying()) else {
            let occurs = self.text(self.child(node, "occurs")?)?;
            return self.cardinality_of_variables(&vars, &values, &occurs, closed);
        };
        let occurs = self.text(self.child(node, "occurs")?)?;
        let tokens: Vec<&str> = occurs.split_whitespace().collect();
        if tokens.len() != cover.len() {
            return Err(self.invalid(format!("{} values but {} occurrences", cover.len(), tokens.len())));
        }
        let posted = if tokens.iter().any(|t| t.contains("..")) {
            let mut low = Vec::with_capacity(tokens.len());
            let mut up = Vec::with_capacity(tokens.len());
            for token in &tokens {
                let (a, b) = crate::text::range(token).map_err(|m| self.text_error(m))?;
                low.push(a);
                up.push(b);
            }
            if closed {
                self.model.global_cardinality_low_up_closed(&vars, &cover, &low, &up)
            } else {
                self.model.global_cardinality_low_up(&vars, &cover, &low, &up)
            }
        } else {
            let items = self.integer_items(&occurs, "cardinality's occurrences")?;
            let counts = items.into_iter().map(|item| self.item_var(item)).collect::<Result<Vec<VarId>, Error>>()?;
            if closed {
                self.model.global_cardinality_closed(&vars, &cover, &counts)
            } else {
                self.model.global_cardinality(&vars, &cover, &counts)
            }
        };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// `cardinality` with variable values (or reified): each value's occurrences counted
    /// by the engine's `count` (a value that is a variable), compared with
    /// its occurrence (a constant, a variable or a range); `closed`, each
    /// item equal to one of the values.
    fn cardinality_of_variables(
        &mut self,
        vars: &[VarId],
        values: &[Linear],
        occurs: &str,
        closed: bool,
    ) -> Result<(), Error> {
        let tokens: Vec<&str> = occurs.split_whitespace().collect();
        if tokens.len() != values.len() {
            return Err(self.invalid(format!("{} values but {} occurrences", values.len(), tokens.len())));
        }
        for (value, token) in values.iter().zip(tokens) {
            let value = self.var_of(value)?;
            let counter = self.counter(vars.len())?;
            self.model.count(vars, value, counter).map_err(|e| self.model_error(&e))?;
            if token.contains("..") {
                let (low, high) = crate::text::range(token).map_err(|m| self.text_error(m))?;
                self.post_condition(Linear::var(counter), &format!("(in,{low}..{high})"))?;
            } else {
                let items = self.integer_items(token, "cardinality's occurrences")?;
                let occurrence = items.into_iter().map(|item| self.item_linear(item)).collect::<Result<Vec<_>, _>>()?;
                let [occurrence] = occurrence.as_slice() else {
                    return Err(self.invalid(format!("the occurrence '{token}' is not one value or variable")));
                };
                let difference = Linear::var(counter).minus(occurrence).ok_or_else(|| self.overflow())?;
                self.post_compare(difference, Relation::Eq)?;
            }
        }
        if closed {
            for &var in vars {
                let Some(literal) = self.equals_some(&Linear::var(var), values)? else {
                    self.fail("a closed cardinality with an item equal to none of its values");
                    return Ok(());
                };
                self.require(csp::Condition::from(literal))?;
            }
        }
        Ok(())
    }

    /// `minimum` or `maximum` of the list, compared by the condition.
    pub(super) fn extremum(&mut self, node: Node<'a, 'i>, minimum: bool) -> Result<(), Error> {
        self.only_children(node, &["list", "condition"])?;
        let text = self.list_text(node, "list")?;
        let values = self.linears(&text)?;
        if values.is_empty() {
            return Err(self.invalid("the minimum or maximum of an empty list"));
        }
        let op = if minimum { crate::expression::Operator::Min } else { crate::expression::Operator::Max };
        let extremum = self.arithmetic(op, values)?;
        let condition = self.text(self.child(node, "condition")?)?;
        self.post_condition(extremum, &condition)
    }

    /// `minimumArg` or `maximumArg`: the position (from 0) of the least or greatest entry, compared by the
    /// condition; with `rank="first"` (`"last"`) the first (last) such
    /// position, with `"any"` (or none) some such position. An auxiliary
    /// variable holds the extremum and the engine's element ties it to the
    /// position ([`Self::element_rank`] for the rank). The position is the
    /// condition's operand for `(eq,v)`, an auxiliary variable for another
    /// condition with a rank (it is then a function of the list); for
    /// another condition without a rank, a clause: some position holds the
    /// extremum and meets the condition, so that no free variable
    /// multiplies the solutions.
    pub(super) fn extremum_arg(&mut self, node: Node<'a, 'i>, minimum: bool) -> Result<(), Error> {
        self.only_children(node, &["list", "condition"])?;
        let first = match node.attribute("rank") {
            None | Some("any") => None,
            Some("first") => Some(true),
            Some("last") => Some(false),
            Some(other) => return Err(self.invalid(format!("rank=\"{other}\" is none of any, first and last"))),
        };
        // Positions from 0: a startIndex other than 0 was refused before
        // lowering, as the official parser ignores it.
        let start = 0;
        let text = self.list_text(node, "list")?;
        let entries = self.linears(&text)?;
        if entries.is_empty() {
            return Err(self.invalid("the position of the minimum or maximum of an empty list"));
        }
        let op = if minimum { crate::expression::Operator::Min } else { crate::expression::Operator::Max };
        let extremum = self.arithmetic(op, entries.clone())?;
        let condition = self.text(self.child(node, "condition")?)?;
        let (operator, operand) = crate::text::condition(&condition).map_err(|m| self.invalid(m))?;
        let index = match (operator, first) {
            ("eq", _) => self.single_var(operand)?,
            (_, Some(_)) if !self.is_reifying() => {
                let last = i128::from(start) + entries.len() as i128 - 1;
                let last = super::terms::in_range(last).ok_or_else(|| self.overflow())?;
                self.auxiliary(start, last)?
            }
            // Reified, an auxiliary position would be free when the
            // constraint is false: a clause over the positions instead.
            (_, rank) => return self.some_extremum_position(&entries, &extremum, start, &condition, rank),
        };
        if self.is_reifying() {
            // The engine's element is not reifiable: its clause over the positions.
            let target = Target::Value(extremum);
            self.element_by_positions(&entries, index, start, &target)?;
            if let Some(first) = first {
                self.element_rank(&entries, index, start, &target, first)?;
            }
            return Ok(());
        }
        let value = self.var_of(&extremum)?;
        self.post_element(&entries, index, value, start)?;
        if operator != "eq" {
            self.post_condition(Linear::var(index), &condition)?;
        }
        if let Some(first) = first {
            self.element_rank(&entries, index, start, &Target::Value(Linear::var(value)), first)?;
        }
        Ok(())
    }

    /// Some position `start + p` whose entry equals `extremum` meets the
    /// condition (with a rank, the first or last position holding it: no
    /// entry before or after it does): a clause of one literal per position
    /// that can.
    fn some_extremum_position(
        &mut self,
        entries: &[Linear],
        extremum: &Linear,
        start: i64,
        condition: &str,
        rank: Option<bool>,
    ) -> Result<(), Error> {
        let mut holding = Vec::with_capacity(if rank.is_some() { entries.len() } else { 0 });
        if rank.is_some() {
            for entry in entries {
                holding.push(self.compare_literal(entry.clone().minus(extremum), Relation::Eq)?);
            }
        }
        let mut literals = Vec::with_capacity(entries.len());
        for (position, entry) in entries.iter().enumerate() {
            let at = Linear::constant(i128::from(start) + position as i128);
            let Some(meets) = self.condition_literal(&at, condition)? else { continue };
            let holds = match rank {
                Some(_) => holding[position],
                None => self.compare_literal(entry.clone().minus(extremum), Relation::Eq)?,
            };
            let Some(holds) = holds else { continue };
            let mut parts = vec![meets, holds];
            if let Some(first) = rank {
                let others = if first { &holding[..position] } else { &holding[position + 1..] };
                parts.extend(others.iter().flatten().map(|&other| !other));
            }
            let both = self.model.reified(csp::Condition::and(&parts)).map_err(|e| self.model_error(&e))?;
            literals.push(both);
        }
        if literals.is_empty() {
            self.fail("no position of the minimum or maximum can meet the condition");
            return Ok(());
        }
        self.require(csp::Condition::or(&literals))
    }

    /// The rows of a `<matrix>`: an array reference (`m[][]`) or rows
    /// written out, all of one length, at least one cell.
    pub(super) fn matrix_cells(&mut self, matrix: Node<'a, 'i>) -> Result<Vec<Vec<Linear>>, Error> {
        let text = self.text(matrix)?;
        let rows: Vec<Vec<Linear>> = if text.trim_start().starts_with('(') {
            self.matrix_rows(&text)?
        } else {
            let rows = self.variables.matrix(text.trim()).map_err(|m| self.invalid(m))?;
            rows.into_iter().map(|row| row.into_iter().map(Linear::var).collect()).collect()
        };
        let columns = rows.first().map_or(0, Vec::len);
        if columns == 0 || rows.iter().any(|row| row.len() != columns) {
            return Err(self.invalid("a matrix needs rows of one length, not empty"));
        }
        Ok(rows)
    }

    /// The rows of a matrix written out: `(x,y,3)(z,1,w)`.
    pub(super) fn matrix_rows(&mut self, text: &str) -> Result<Vec<Vec<Linear>>, Error> {
        let mut rows = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let Some((row, after)) = rest.strip_prefix('(').and_then(|r| r.split_once(')')) else {
                return Err(self.invalid(format!("expected a row '(a,b,...)', found '{}'", crate::text::preview(rest))));
            };
            let mut entries = Vec::new();
            for entry in row.split(',') {
                let mut items = self.items(entry)?;
                if items.len() != 1 {
                    return Err(
                        self.invalid(format!("a matrix entry is one variable or integer, not '{}'", entry.trim()))
                    );
                }
                entries.push(self.item_linear(items.remove(0))?);
            }
            rows.push(entries);
            rest = after.trim_start();
        }
        Ok(rows)
    }

    /// One variable (or constant, or expression) as a variable.
    pub(super) fn single_var(&mut self, text: &str) -> Result<VarId, Error> {
        let mut items = self.items(text)?;
        match items.len() {
            1 => self.item_var(items.remove(0)),
            n => Err(self.invalid(format!("expected one variable or value, found {n} in '{}'", text.trim()))),
        }
    }

    /// `ordered`: consecutive items compared by the operator.
    pub(super) fn ordered(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "lengths", "operator"])?;
        let text = self.list_text(node, "list")?;
        let vars = self.vars(&text)?;
        let operator = self.text(self.child(node, "operator")?)?;
        if let Some(lengths) = self.optional_child(node, "lengths")? {
            let lengths = self.linears(&self.text(lengths)?)?;
            return self.ordered_with_lengths(&vars, &lengths, operator.trim());
        }
        if self.is_reifying() {
            // The engine's orders are not reifiable: a comparison per pair.
            let lengths = vec![Linear::constant(0); vars.len().saturating_sub(1)];
            return self.ordered_with_lengths(&vars, &lengths, operator.trim());
        }
        if vars.len() < 2 && matches!(operator.trim(), "le" | "lt" | "ge" | "gt") {
            return Ok(());
        }
        let posted = match operator.trim() {
            "le" => self.model.increasing(&vars),
            "lt" => self.model.strictly_increasing(&vars),
            "ge" => self.model.decreasing(&vars),
            "gt" => self.model.strictly_decreasing(&vars),
            other => return Err(self.invalid(format!("'{other}' is not an operator of ordered"))),
        };
        posted.map_err(|e| self.model_error(&e))?;
        Ok(())
    }

    /// `ordered` with lengths: `x[i] + lengths[i] operator x[i + 1]`.
    fn ordered_with_lengths(&mut self, vars: &[VarId], lengths: &[Linear], operator: &str) -> Result<(), Error> {
        if lengths.len() + 1 != vars.len().max(1) {
            return Err(self.invalid(format!(
                "ordered over {} items takes {} lengths, not {}",
                vars.len(),
                vars.len().saturating_sub(1),
                lengths.len()
            )));
        }
        let relation = match operator {
            "le" => Relation::Le,
            "lt" => Relation::Lt,
            "ge" => Relation::Ge,
            "gt" => Relation::Gt,
            other => return Err(self.invalid(format!("'{other}' is not an operator of ordered"))),
        };
        for (pair, length) in vars.windows(2).zip(lengths) {
            let difference = Linear::var(pair[0]).plus(length).and_then(|sum| sum.minus(&Linear::var(pair[1])));
            self.post_compare(difference.ok_or_else(|| self.overflow())?, relation)?;
        }
        Ok(())
    }

    /// `lex`: consecutive lists ordered lexicographically.
    pub(super) fn lex(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "matrix", "operator"])?;
        let mut lists = Vec::new();
        for list in elements(node).filter(|c| c.tag_name().name() == "list") {
            let text = self.text(list)?;
            lists.push(self.vars(&text)?);
        }
        let operator = self.text(self.child(node, "operator")?)?;
        if let Some(matrix) = self.optional_child(node, "matrix")? {
            // The rows in order, and the columns in order.
            let rows = self.matrix_cells(matrix)?;
            let mut vars = Vec::with_capacity(rows.len());
            for row in &rows {
                vars.push(row.iter().map(|cell| self.var_of(cell)).collect::<Result<Vec<VarId>, Error>>()?);
            }
            self.lex_chain(&vars, &operator)?;
            return self.lex_chain(&transpose(&vars), &operator);
        }
        self.lex_chain(&lists, &operator)
    }

    /// Each list and the next ordered lexicographically by `operator`.
    fn lex_chain(&mut self, lists: &[Vec<VarId>], operator: &str) -> Result<(), Error> {
        for pair in lists.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.len() != b.len() {
                return Err(self.invalid(format!("lex over lists of lengths {} and {}", a.len(), b.len())));
            }
            if a.is_empty() {
                // The empty lists are equal: lt and gt fail, le and ge hold.
                if matches!(operator.trim(), "lt" | "gt") {
                    self.fail("lex orders two empty lists strictly");
                }
                continue;
            }
            if self.is_reifying() {
                // The engine's lexicographic orders are not reifiable.
                match operator.trim() {
                    "lt" => self.lex_by_prefixes(a, b, true)?,
                    "le" => self.lex_by_prefixes(a, b, false)?,
                    "gt" => self.lex_by_prefixes(b, a, true)?,
                    "ge" => self.lex_by_prefixes(b, a, false)?,
                    other => return Err(self.invalid(format!("'{other}' is not an operator of lex"))),
                }
                continue;
            }
            let posted = match operator.trim() {
                "lt" => self.model.lex_less(a, b),
                "le" => self.model.lex_lesseq(a, b),
                "gt" => self.model.lex_less(b, a),
                "ge" => self.model.lex_lesseq(b, a),
                other => return Err(self.invalid(format!("'{other}' is not an operator of lex"))),
            };
            posted.map_err(|e| self.model_error(&e))?;
        }
        Ok(())
    }

    /// `a` before `b` lexicographically (`strict`: and not equal), as one
    /// requirement (the form of a reified lex): the clause "for some `k`,
    /// `a` and `b` agree before `k` and `a[k] < b[k]`" (or "agree
    /// everywhere" when not strict), with a literal per prefix of
    /// agreements.
    fn lex_by_prefixes(&mut self, a: &[VarId], b: &[VarId], strict: bool) -> Result<(), Error> {
        let mut ways = Vec::with_capacity(a.len() + 1);
        // The agreement of the prefix so far: `Some(None)` the empty one,
        // which holds; `None` when it cannot hold.
        let mut prefix: Option<Option<csp::Lit>> = Some(None);
        for (&x, &y) in a.iter().zip(b) {
            let Some(agreed) = prefix else { break };
            let difference = Linear::var(x).minus(&Linear::var(y));
            if let Some(less) = self.compare_literal(difference.clone(), Relation::Lt)? {
                ways.push(self.both(agreed, less)?);
            }
            prefix = match self.compare_literal(difference, Relation::Eq)? {
                Some(equal) => Some(Some(self.both(agreed, equal)?)),
                None => None,
            };
        }
        if let (false, Some(agreed)) = (strict, prefix) {
            ways.push(match agreed {
                Some(literal) => literal,
                None => self.true_literal()?,
            });
        }
        if ways.is_empty() {
            self.fail("lex: the first list cannot come before the second");
            return Ok(());
        }
        self.require(csp::Condition::or(&ways))
    }

    /// A literal for `first and second` (`second` alone without `first`).
    fn both(&mut self, first: Option<csp::Lit>, second: csp::Lit) -> Result<csp::Lit, Error> {
        match first {
            None => Ok(second),
            Some(first) => self.model.reified(csp::Condition::and(&[first, second])).map_err(|e| self.model_error(&e)),
        }
    }

    /// `instantiation`: each variable takes its value.
    pub(super) fn instantiation(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.only_children(node, &["list", "values"])?;
        let text = self.list_text(node, "list")?;
        let vars = self.vars(&text)?;
        let values_text = self.text(self.child(node, "values")?)?;
        let tokens: Vec<&str> = values_text.split_whitespace().collect();
        let values = if vars.iter().any(|&var| self.variables.is_symbolic(var)) {
            if tokens.len() != vars.len() {
                return Err(self.invalid(format!("{} variables but {} values", vars.len(), tokens.len())));
            }
            vars.iter().zip(&tokens).map(|(&var, token)| self.value_for(var, token)).collect::<Result<Vec<_>, _>>()?
        } else {
            self.integers(&values_text)?
        };
        if values.len() != vars.len() {
            return Err(self.invalid(format!("{} variables but {} values", vars.len(), values.len())));
        }
        for (var, value) in vars.into_iter().zip(values) {
            let difference =
                Linear::var(var).minus(&Linear::constant(i128::from(value))).ok_or_else(|| self.overflow())?;
            self.post_compare(difference, Relation::Eq)?;
        }
        Ok(())
    }
}

/// The columns of rows of one length.
fn transpose<T: Clone>(rows: &[Vec<T>]) -> Vec<Vec<T>> {
    let columns = rows.first().map_or(0, Vec::len);
    (0..columns).map(|j| rows.iter().map(|row| row[j].clone()).collect()).collect()
}
