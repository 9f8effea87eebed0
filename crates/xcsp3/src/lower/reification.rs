//! Reified constraints: `reifiedBy="b"` (`b <=> c`), `hreifiedFrom="b"`
//! (`b => c`) and `hreifiedTo="b"` (`c => b`), as XCSP3 defines them, on
//! the constraints whose lowering the engine can reify exactly.
//!
//! Such a constraint is lowered by its usual function with the lowering in
//! a reifying state: what the constraint requires (comparisons, set
//! memberships, clauses, [`Lowering::require`]) is collected instead of
//! posted, and a requirement false over constants marks the constraint
//! false ([`Lowering::fail`]); what defines auxiliary variables (the sum's
//! products, the count's counter, an expression's intermediate values) is
//! still posted, since each is a total function of the constraint's
//! variables that holds whatever `b` is. The conjunction of the collected
//! requirements is then reified onto `b`. A partial operation, which the
//! engine's relation makes hold by removing values (a division by a
//! variable that can be 0, a negative power of a base that can be 0), is
//! refused there: its removal would not depend on `b`. A constraint whose
//! engine propagator is not reifiable is lowered by a decomposition when
//! reifying: `element` as a clause over its positions (with a rank's
//! clauses; over a matrix, its cells), `cardinality` as a count per value,
//! `lex` as a clause over prefixes of agreements, `channel` as literals
//! `x[i] = j` tied pairwise, `regular` and `mdd` as a state variable per
//! symbol defined by a table, `minimumArg` and `maximumArg` as `element`
//! or a clause over the positions, `noOverlap` as a clause per pair,
//! `cumulative` as a sum at each task's start, `circuit` by the powers of
//! its successor function. A group, block or slide is refused, naming it.

use csp::{Condition, Lit};
use roxmltree::Node;

use super::Lowering;
use crate::error::Error;

/// The reification attributes, each a 0/1 variable.
pub(super) const ATTRIBUTES: [&str; 3] = ["reifiedBy", "hreifiedFrom", "hreifiedTo"];

/// The constraints lowered reified: those whose lowering collects what it
/// requires ([`Lowering::require`]) and defines its auxiliary variables
/// totally.
const REIFIABLE: [&str; 22] = [
    "intension",
    "extension",
    "allDifferent",
    "allEqual",
    "sum",
    "count",
    "nValues",
    "minimum",
    "maximum",
    "element",
    "ordered",
    "instantiation",
    "cardinality",
    "channel",
    "lex",
    "regular",
    "mdd",
    "minimumArg",
    "maximumArg",
    "noOverlap",
    "cumulative",
    "circuit",
];

/// What a reified constraint requires, collected while it is lowered.
#[derive(Default)]
pub(super) struct Requirements {
    /// Conditions that must all hold.
    conditions: Vec<Condition>,
    /// A requirement is false whatever the values.
    pub(super) falsified: bool,
}

impl<'a, 'i> Lowering<'a, 'i> {
    /// Requires `condition` of the constraint being lowered: posted, or,
    /// while a reified constraint is lowered, collected.
    pub(super) fn require(&mut self, condition: Condition) -> Result<(), Error> {
        match &mut self.reifying {
            Some(requirements) => requirements.conditions.push(condition),
            None => drop(self.model.add(condition).map_err(|e| self.model_error(&e))?),
        }
        Ok(())
    }

    /// Whether a reified constraint is being lowered.
    pub(super) fn is_reifying(&self) -> bool {
        self.reifying.is_some()
    }

    /// A constraint with one or more reification attributes.
    pub(super) fn reified(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let name = node.tag_name().name();
        let present: Vec<&str> = ATTRIBUTES.into_iter().filter(|&a| node.attribute(a).is_some()).collect();
        if !REIFIABLE.contains(&name) {
            return Err(self.unsupported(format!("a reified <{name}> ({})", present.join(", "))));
        }
        let mut literals = Vec::with_capacity(present.len());
        for attribute in &present {
            literals.push((*attribute, self.reifying_literal(node, attribute)?));
        }
        self.constraints += 1;
        self.reifying = Some(Requirements::default());
        let lowered = self.constraint_body(node);
        let requirements = self.reifying.take().expect("set above");
        lowered?;
        self.at(node);
        let holds = self.all_of(requirements)?;
        for (attribute, literal) in literals {
            // b <=> c; b => c; c => b, which is !b => !c.
            let posted = match (attribute, &holds) {
                ("reifiedBy", Some(condition)) => self.model.reify(literal, condition.clone()),
                ("reifiedBy", None) => self.model.add(Condition::from(!literal)),
                ("hreifiedFrom", Some(condition)) => self.model.implies(literal, condition.clone()),
                ("hreifiedFrom", None) => self.model.add(Condition::from(!literal)),
                (_, Some(condition)) => self.model.implies(!literal, !condition.clone()),
                (_, None) => continue,
            };
            posted.map_err(|e| self.model_error(&e))?;
        }
        Ok(())
    }

    /// The conjunction of the requirements, `None` when it is false; a
    /// constraint that requires nothing holds, as the literal fixed to 1.
    fn all_of(&mut self, requirements: Requirements) -> Result<Option<Condition>, Error> {
        if requirements.falsified {
            return Ok(None);
        }
        let mut conditions = requirements.conditions;
        if conditions.len() <= 1 {
            return match conditions.pop() {
                Some(condition) => Ok(Some(condition)),
                None => self.true_literal().map(|lit| Some(lit.into())),
            };
        }
        let mut literals = Vec::with_capacity(conditions.len());
        for condition in conditions {
            literals.push(self.model.reified(condition).map_err(|e| self.model_error(&e))?);
        }
        Ok(Some(Condition::and(&literals)))
    }

    /// The literal an attribute names: a declared variable within `{0, 1}`
    /// (a group's `%i` replaced by its argument).
    fn reifying_literal(&mut self, node: Node<'a, 'i>, attribute: &str) -> Result<Lit, Error> {
        let written = node.attribute(attribute).unwrap_or_default();
        let name = match &self.arguments {
            Some(arguments) if written.contains('%') => self.substitute(written, arguments)?,
            _ => written.to_string(),
        };
        let name = name.trim();
        let var = self
            .variables
            .single(name)
            .map_err(|m| self.invalid(m))?
            .ok_or_else(|| self.invalid(format!("{attribute}=\"{written}\" does not name a declared variable")))?;
        if self.variables.is_symbolic(var) {
            return Err(self.invalid(format!("{attribute}=\"{written}\" names a symbolic variable")));
        }
        self.boolean_var(var)
    }
}
