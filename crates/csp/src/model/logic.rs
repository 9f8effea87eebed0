//! Booleans, logic over literals, and reification: the model's methods that
//! take [`Lit`]s and [`Condition`]s, and the one place where a condition is
//! turned into constraints (`Model::lower`).
//!
//! A condition is lowered to the most specific relation first (a linear
//! comparison of one variable is set membership, of two a binary
//! constraint; `and` is a linear sum of 0/1 values), and then posted plain
//! ([`Model::add`]), reified ([`Model::reify`]) or half-reified
//! ([`Model::implies`]). Disjunctions and parities take the literal in
//! instead, where that is one constraint of their own kind: `b -> (l1 ∨ l2)`
//! is the clause `!b ∨ l1 ∨ l2`, `b <-> (l1 ⊕ l2)` the parity
//! `l1 ⊕ l2 ⊕ !b`.

use super::expr::{Condition, Form, LinearExpr};
use super::{Model, ModelError};
use crate::constraints::{Clause, InSet, ReifiableRelation, Reified, Relation, Xor};
use crate::domain::Domain;
use crate::ids::{ConstraintId, Lit};

/// A condition checked against the model and reduced to what is posted.
pub(super) enum Lowered {
    /// A relation that can be posted plain or reified.
    Relation(ReifiableRelation),
    /// At least one literal is true (there is at least one).
    Or(Vec<Lit>),
    /// The parity of the literals (at least one).
    Xor { literals: Vec<Lit>, odd: bool },
    /// A condition over no variable, always true or always false.
    Constant(bool),
}

impl Model {
    // ---- booleans ----

    /// A new boolean variable (domain `{0, 1}`), as its positive literal:
    /// `b.var()` is the variable, `!b` its negation.
    pub fn new_bool(&mut self) -> Lit {
        let var = self.new_var(0..=1).expect("0..=1 is a valid domain");
        Lit::positive(var)
    }

    /// `count` new boolean variables.
    pub fn new_bools(&mut self, count: usize) -> Vec<Lit> {
        (0..count).map(|_| self.new_bool()).collect()
    }

    /// A new boolean variable with a name.
    pub fn new_named_bool(&mut self, name: impl Into<String>) -> Result<Lit, ModelError> {
        self.new_named_var(name, 0..=1).map(Lit::positive)
    }

    // ---- conditions ----

    /// Posts a condition: a linear comparison (`(x + 2 * y).le(z)`), set
    /// membership ([`Condition::in_set`]), or logic over literals. The model
    /// chooses the most specific constraint: `x.eq(y + 1)` is an
    /// [`Equal`](crate::constraints::Equal), `(2 * x).le(7)` an
    /// [`InSet`](crate::constraints::InSet), a longer sum a
    /// [`Linear`](crate::constraints::Linear).
    ///
    /// A condition without variables (`LinearExpr::constant(1).le(2)`, an
    /// empty `or`) has no constraint to post: it is a
    /// [`ModelError::EmptyScope`].
    pub fn add(&mut self, condition: impl Into<Condition>) -> Result<ConstraintId, ModelError> {
        match self.lower(condition.into())? {
            Lowered::Relation(ReifiableRelation::Linear(linear)) => self.post_linear(linear),
            Lowered::Relation(relation) => self.post_boxed(relation.into_constraint()),
            Lowered::Or(literals) => self.post(Clause::new(&literals)),
            Lowered::Xor { literals, odd } => self.post(Xor::new(&literals, odd)),
            Lowered::Constant(_) => Err(ModelError::EmptyScope { constraint: "condition".to_string() }),
        }
    }

    /// `literal <-> condition`: the literal is true exactly when the condition
    /// holds (reification). "The cage holds a 6 or the row sum is 12":
    /// reify each side, then post the `or` of the two literals.
    pub fn reify(&mut self, literal: Lit, condition: impl Into<Condition>) -> Result<ConstraintId, ModelError> {
        self.check_literals("reify", &[literal])?;
        let lowered = self.lower(condition.into())?;
        self.post_reified(literal, lowered, false)
    }

    /// `literal -> condition`: the condition holds when the literal is true
    /// (half-reification; nothing is said when it is false). With a literal
    /// for the condition, the implication `a -> b` between literals.
    pub fn implies(&mut self, literal: Lit, condition: impl Into<Condition>) -> Result<ConstraintId, ModelError> {
        self.check_literals("implies", &[literal])?;
        let lowered = self.lower(condition.into())?;
        self.post_reified(literal, lowered, true)
    }

    /// A new boolean that is true exactly when `condition` holds (a new
    /// literal `b` and [`reify`](Model::reify)`(b, condition)`). If the
    /// condition is refused, no variable is added.
    pub fn reified(&mut self, condition: impl Into<Condition>) -> Result<Lit, ModelError> {
        let lowered = self.lower(condition.into())?;
        let literal = self.new_bool();
        self.post_reified(literal, lowered, false)?;
        Ok(literal)
    }

    /// Posts `literal <-> lowered` (or `->` when `implication`).
    fn post_reified(&mut self, literal: Lit, lowered: Lowered, implication: bool) -> Result<ConstraintId, ModelError> {
        match lowered {
            Lowered::Relation(relation) => self.post(Reified::new(literal, relation, implication)),
            Lowered::Or(mut literals) if implication => {
                literals.insert(0, !literal);
                self.post(Clause::new(&literals))
            }
            // b <-> l1 ∨ ... ∨ ln is b <-> (l1 + ... + ln >= 1).
            Lowered::Or(literals) => {
                let at_least_one = self.lower_linear(LinearExpr::sum(literals) - 1, Relation::Ge)?;
                self.post_reified(literal, at_least_one, false)
            }
            Lowered::Xor { literals, odd } if implication => {
                self.post(Reified::new(literal, ReifiableRelation::Xor(Xor::new(&literals, odd)), true))
            }
            // b <-> (p = odd) is p ⊕ !b = odd.
            Lowered::Xor { mut literals, odd } => {
                literals.push(!literal);
                self.post(Xor::new(&literals, odd))
            }
            // b -> true holds always: a clause b ∨ !b keeps b in the scope.
            Lowered::Constant(true) if implication => self.post(Clause::new(&[literal, !literal])),
            Lowered::Constant(truth) if implication => {
                debug_assert!(!truth);
                self.post(InSet::new(literal.var(), [literal.value_for(false)]))
            }
            Lowered::Constant(truth) => self.post(InSet::new(literal.var(), [literal.value_for(truth)])),
        }
    }

    /// Checks a condition against the model and reduces it (see the module docs).
    fn lower(&self, condition: Condition) -> Result<Lowered, ModelError> {
        match condition.0 {
            Form::Compare { expr, relation } => self.lower_linear(expr, relation),
            Form::InSet { var, set, negated } => {
                self.check_var("in_set", 0, var)?;
                let in_set = if negated { InSet::not_in(var, set) } else { InSet::new(var, set) };
                Ok(Lowered::Relation(ReifiableRelation::InSet(in_set)))
            }
            Form::Or(literals) => {
                self.check_literals("or", &literals)?;
                Ok(if literals.is_empty() { Lowered::Constant(false) } else { Lowered::Or(literals) })
            }
            Form::And(literals) => {
                self.check_literals("and", &literals)?;
                // Every literal is true: their sum is their number.
                let count = literals.len() as i64;
                self.lower_linear(LinearExpr::sum(literals) - count, Relation::Ge)
            }
            Form::Xor { literals, odd } => {
                self.check_literals("xor", &literals)?;
                Ok(if literals.is_empty() { Lowered::Constant(!odd) } else { Lowered::Xor { literals, odd } })
            }
        }
    }

    /// The error of a constraint over literals given none: named by its own
    /// name (`at_most_one`), not as the condition it posts.
    fn check_some(kind: &str, literals: &[Lit]) -> Result<(), ModelError> {
        if literals.is_empty() { Err(ModelError::EmptyScope { constraint: kind.to_string() }) } else { Ok(()) }
    }

    /// Checks that each literal's variable is of this model and boolean.
    fn check_literals(&self, kind: &str, literals: &[Lit]) -> Result<(), ModelError> {
        for (position, literal) in literals.iter().enumerate() {
            let var = literal.var();
            self.check_var(kind, position, var)?;
            let domain: &Domain = &self.domains[var.index()];
            if domain.min().is_some_and(|min| min < 0) || domain.max().is_some_and(|max| max > 1) {
                return Err(ModelError::NotBoolean {
                    constraint: kind.to_string(),
                    position,
                    var: self.display_name(var).into_owned(),
                    domain: domain.clone(),
                });
            }
        }
        Ok(())
    }

    // ---- logic over literals ----

    /// At least one of the literals is true (a clause).
    pub fn or(&mut self, literals: &[Lit]) -> Result<ConstraintId, ModelError> {
        Self::check_some("or", literals)?;
        self.add(Condition::or(literals))
    }

    /// At least one of `positive` is true or one of `negative` is false: the
    /// clause `p1 ∨ ... ∨ !n1 ∨ ...` (FlatZinc's `bool_clause`).
    pub fn clause(&mut self, positive: &[Lit], negative: &[Lit]) -> Result<ConstraintId, ModelError> {
        let literals: Vec<Lit> = positive.iter().copied().chain(negative.iter().map(|&l| !l)).collect();
        self.or(&literals)
    }

    /// Every one of the literals is true.
    pub fn and(&mut self, literals: &[Lit]) -> Result<ConstraintId, ModelError> {
        Self::check_some("and", literals)?;
        self.add(Condition::and(literals))
    }

    /// An odd number of the literals are true (`xor([a, b])` is `a != b`).
    pub fn xor(&mut self, literals: &[Lit]) -> Result<ConstraintId, ModelError> {
        Self::check_some("xor", literals)?;
        self.add(Condition::xor(literals))
    }

    /// At most one of the literals is true.
    pub fn at_most_one(&mut self, literals: &[Lit]) -> Result<ConstraintId, ModelError> {
        Self::check_some("at_most_one", literals)?;
        self.check_literals("at_most_one", literals)?;
        self.add(self.sum(literals).le(1))
    }

    /// Exactly one of the literals is true.
    pub fn exactly_one(&mut self, literals: &[Lit]) -> Result<ConstraintId, ModelError> {
        Self::check_some("exactly_one", literals)?;
        self.check_literals("exactly_one", literals)?;
        self.add(self.sum(literals).eq(1))
    }
}
