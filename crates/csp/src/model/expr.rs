//! Linear expressions and conditions, so that a model reads like its puzzle:
//! `model.add((x + 2 * y - z).le(10))`, `model.reify(b, x.eq(3))`.
//!
//! A [`LinearExpr`] is built with `+ - *` and unary `-` over variables,
//! literals (a literal is its 0/1 value, `!b` is `1 - b`), `i64` constants
//! and other expressions, and summed over iterators. Its relation methods
//! (`eq ne lt le gt ge`, also on [`VarId`] and [`Lit`]) give a [`Condition`],
//! which [`Model::add`] posts, and [`Model::reify`] and [`Model::implies`]
//! tie to a literal. Building never overflows silently: coefficients are
//! kept in `i128`, and one beyond even that marks the expression, which the
//! model then refuses with a typed error. Repeated variables are merged and
//! constants folded once, when the condition is posted (`Model::lower_linear`).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, Neg, Not, Sub, SubAssign};

use indexmap::IndexMap;

use super::logic::Lowered;
use super::{MAX_COEFFICIENT, MAX_VALUE, Model, ModelError};
use crate::constraints::{Equal, InSet, Less, Linear, NotEqual, ReifiableRelation, Relation};
use crate::domain::Domain;
use crate::ids::{Lit, VarId};

/// A linear expression `a_1 x_1 + ... + a_n x_n + c` over variables and
/// literals, built with operators.
///
/// ```
/// use csp::{LinearExpr, Model};
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=9).unwrap();
/// let y = model.new_var(0..=9).unwrap();
/// let b = model.new_bool();
/// let e: LinearExpr = 2 * x - y + 3 * !b - 1; // !b counts as 1 - b
/// assert_eq!(e.to_string(), "2*x0 - x1 - 3*x2 + 2");
/// let xs = model.new_vars(3, 0..=5).unwrap();
/// let total: LinearExpr = xs.iter().sum(); // or model.sum(&xs)
/// model.add(total.eq(x + y)).unwrap();
/// model.add(e.ge(4)).unwrap();
/// ```
#[derive(Clone, Default)]
#[must_use]
pub struct LinearExpr {
    /// `(coefficient, variable)`, not merged: merged once, when posted.
    terms: Vec<(i128, VarId)>,
    constant: i128,
    /// A coefficient or the constant went beyond `i128` while building.
    overflow: bool,
}

impl LinearExpr {
    /// The constant `value`.
    pub fn constant(value: i64) -> LinearExpr {
        LinearExpr { constant: i128::from(value), ..LinearExpr::default() }
    }

    /// The constant `value` wider than `i64`, as a front end that folds its
    /// expressions in `i128` has it: a right-hand side beyond `±2^62` that a
    /// sum of several values near `2^62` can reach.
    pub fn wide_constant(value: i128) -> LinearExpr {
        LinearExpr { constant: value, ..LinearExpr::default() }
    }

    /// `coefficient * var`.
    pub fn term(coefficient: i64, var: VarId) -> LinearExpr {
        LinearExpr { terms: vec![(i128::from(coefficient), var)], ..LinearExpr::default() }
    }

    /// `coefficient * var` with a coefficient wider than `i64`, as a front
    /// end that folds its expressions in `i128` has it. Posted, a coefficient
    /// (after merging) beyond `±MAX_VALUE` and up to
    /// [`MAX_COEFFICIENT`](crate::MAX_COEFFICIENT) is kept as several terms
    /// over the variable, each in range; beyond that the model refuses it.
    pub fn wide_term(coefficient: i128, var: VarId) -> LinearExpr {
        LinearExpr { terms: vec![(coefficient, var)], ..LinearExpr::default() }
    }

    /// The sum of `items` (variables, literals, expressions or constants).
    pub fn sum<T: Into<LinearExpr>>(items: impl IntoIterator<Item = T>) -> LinearExpr {
        items.into_iter().fold(LinearExpr::default(), |sum, item| sum + item)
    }

    /// `self == rhs`.
    pub fn eq(self, rhs: impl Into<LinearExpr>) -> Condition {
        self.compare(Relation::Eq, rhs.into())
    }

    /// `self != rhs`.
    pub fn ne(self, rhs: impl Into<LinearExpr>) -> Condition {
        self.compare(Relation::Ne, rhs.into())
    }

    /// `self < rhs`.
    pub fn lt(self, rhs: impl Into<LinearExpr>) -> Condition {
        self.compare(Relation::Lt, rhs.into())
    }

    /// `self <= rhs`.
    pub fn le(self, rhs: impl Into<LinearExpr>) -> Condition {
        self.compare(Relation::Le, rhs.into())
    }

    /// `self > rhs`.
    pub fn gt(self, rhs: impl Into<LinearExpr>) -> Condition {
        self.compare(Relation::Gt, rhs.into())
    }

    /// `self >= rhs`.
    pub fn ge(self, rhs: impl Into<LinearExpr>) -> Condition {
        self.compare(Relation::Ge, rhs.into())
    }

    /// `self relation rhs`, kept as `self - rhs relation 0`.
    pub fn compare(self, relation: Relation, rhs: impl Into<LinearExpr>) -> Condition {
        Condition(Form::Compare { expr: self - rhs.into(), relation })
    }

    /// The terms (not merged) and the constant, or the error of an
    /// expression whose building overflowed.
    pub(super) fn into_parts(self) -> Result<(Vec<(i128, VarId)>, i128), ModelError> {
        if self.overflow {
            return Err(ModelError::LinearOverflow { terms: self.terms.len() });
        }
        Ok((self.terms, self.constant))
    }

    fn plus(mut self, other: LinearExpr) -> LinearExpr {
        self.terms.extend(other.terms);
        match self.constant.checked_add(other.constant) {
            Some(constant) => self.constant = constant,
            None => self.overflow = true,
        }
        self.overflow |= other.overflow;
        self
    }

    fn times(mut self, factor: i64) -> LinearExpr {
        let factor = i128::from(factor);
        for (coefficient, _) in &mut self.terms {
            match coefficient.checked_mul(factor) {
                Some(product) => *coefficient = product,
                None => self.overflow = true,
            }
        }
        match self.constant.checked_mul(factor) {
            Some(constant) => self.constant = constant,
            None => self.overflow = true,
        }
        self
    }
}

impl From<i64> for LinearExpr {
    fn from(value: i64) -> LinearExpr {
        LinearExpr::constant(value)
    }
}

impl From<VarId> for LinearExpr {
    fn from(var: VarId) -> LinearExpr {
        LinearExpr::term(1, var)
    }
}

impl From<&VarId> for LinearExpr {
    fn from(var: &VarId) -> LinearExpr {
        LinearExpr::from(*var)
    }
}

/// A literal is its 0/1 value: `b`, or `1 - b` for `!b`.
impl From<Lit> for LinearExpr {
    fn from(literal: Lit) -> LinearExpr {
        if literal.is_negated() {
            LinearExpr { terms: vec![(-1, literal.var())], constant: 1, overflow: false }
        } else {
            LinearExpr::from(literal.var())
        }
    }
}

impl From<&Lit> for LinearExpr {
    fn from(literal: &Lit) -> LinearExpr {
        LinearExpr::from(*literal)
    }
}

impl From<&LinearExpr> for LinearExpr {
    fn from(expr: &LinearExpr) -> LinearExpr {
        expr.clone()
    }
}

impl<T: Into<LinearExpr>> Sum<T> for LinearExpr {
    fn sum<I: Iterator<Item = T>>(iter: I) -> LinearExpr {
        LinearExpr::sum(iter)
    }
}

impl<T: Into<LinearExpr>> AddAssign<T> for LinearExpr {
    fn add_assign(&mut self, rhs: T) {
        *self = std::mem::take(self).plus(rhs.into());
    }
}

impl<T: Into<LinearExpr>> SubAssign<T> for LinearExpr {
    fn sub_assign(&mut self, rhs: T) {
        *self = std::mem::take(self).plus(rhs.into().times(-1));
    }
}

/// The arithmetic of expressions, variables and literals, with each other and
/// with `i64` constants on either side.
macro_rules! arithmetic {
    ($($operand:ty),*) => {$(
        impl<T: Into<LinearExpr>> Add<T> for $operand {
            type Output = LinearExpr;
            fn add(self, rhs: T) -> LinearExpr {
                LinearExpr::from(self).plus(rhs.into())
            }
        }

        impl<T: Into<LinearExpr>> Sub<T> for $operand {
            type Output = LinearExpr;
            fn sub(self, rhs: T) -> LinearExpr {
                LinearExpr::from(self).plus(rhs.into().times(-1))
            }
        }

        impl Mul<i64> for $operand {
            type Output = LinearExpr;
            fn mul(self, factor: i64) -> LinearExpr {
                LinearExpr::from(self).times(factor)
            }
        }

        impl Mul<$operand> for i64 {
            type Output = LinearExpr;
            fn mul(self, operand: $operand) -> LinearExpr {
                LinearExpr::from(operand).times(self)
            }
        }

        impl Add<$operand> for i64 {
            type Output = LinearExpr;
            fn add(self, operand: $operand) -> LinearExpr {
                LinearExpr::from(operand).plus(LinearExpr::constant(self))
            }
        }

        impl Sub<$operand> for i64 {
            type Output = LinearExpr;
            fn sub(self, operand: $operand) -> LinearExpr {
                LinearExpr::from(operand).times(-1).plus(LinearExpr::constant(self))
            }
        }

        impl Neg for $operand {
            type Output = LinearExpr;
            fn neg(self) -> LinearExpr {
                LinearExpr::from(self).times(-1)
            }
        }
    )*};
}

arithmetic!(LinearExpr, VarId, Lit);

/// The relation methods of variables and literals (as 0/1 values), which
/// shadow the comparison methods of `PartialEq` and `PartialOrd` (`==` and
/// `<` still compare ids).
macro_rules! relations {
    ($operand:ty, $what:literal) => {
        impl $operand {
            #[doc = concat!("`", $what, " == rhs`, a [`Condition`] to post with [`Model::add`] or reify.")]
            pub fn eq(self, rhs: impl Into<LinearExpr>) -> Condition {
                LinearExpr::from(self).eq(rhs)
            }

            #[doc = concat!("`", $what, " != rhs`.")]
            pub fn ne(self, rhs: impl Into<LinearExpr>) -> Condition {
                LinearExpr::from(self).ne(rhs)
            }

            #[doc = concat!("`", $what, " < rhs`.")]
            pub fn lt(self, rhs: impl Into<LinearExpr>) -> Condition {
                LinearExpr::from(self).lt(rhs)
            }

            #[doc = concat!("`", $what, " <= rhs`.")]
            pub fn le(self, rhs: impl Into<LinearExpr>) -> Condition {
                LinearExpr::from(self).le(rhs)
            }

            #[doc = concat!("`", $what, " > rhs`.")]
            pub fn gt(self, rhs: impl Into<LinearExpr>) -> Condition {
                LinearExpr::from(self).gt(rhs)
            }

            #[doc = concat!("`", $what, " >= rhs`.")]
            pub fn ge(self, rhs: impl Into<LinearExpr>) -> Condition {
                LinearExpr::from(self).ge(rhs)
            }
        }
    };
}

relations!(VarId, "x");
relations!(Lit, "b");

/// `2*x0 - x1 + 3`.
impl fmt::Display for LinearExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.overflow {
            return f.write_str("(an expression beyond i128)");
        }
        let mut first = true;
        for &(coefficient, var) in &self.terms {
            let sign = if coefficient < 0 { "-" } else { "+" };
            match (first, coefficient.unsigned_abs()) {
                (true, 1) if coefficient < 0 => write!(f, "-{var}")?,
                (true, 1) => write!(f, "{var}")?,
                (true, _) => write!(f, "{coefficient}*{var}")?,
                (false, 1) => write!(f, " {sign} {var}")?,
                (false, magnitude) => write!(f, " {sign} {magnitude}*{var}")?,
            }
            first = false;
        }
        match (first, self.constant) {
            (true, constant) => write!(f, "{constant}"),
            (false, 0) => Ok(()),
            (false, constant) if constant < 0 => write!(f, " - {}", constant.unsigned_abs()),
            (false, constant) => write!(f, " + {constant}"),
        }
    }
}

impl fmt::Debug for LinearExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Something that holds or does not, over the values of some variables: a
/// linear comparison, set membership, or logic over literals. A condition
/// does nothing until it is posted ([`Model::add`]), tied to a literal
/// ([`Model::reify`], [`Model::implies`], [`Model::reified`]), or negated
/// (`!condition`) first.
///
/// ```
/// use csp::{Condition, Model, SolveConfig, Solver};
///
/// let mut model = Model::new();
/// let x = model.new_var(0..=9).unwrap();
/// let y = model.new_var(0..=9).unwrap();
/// let small = model.reified(x.lt(3)).unwrap(); // small <-> x < 3
/// model.implies(small, (x + y).eq(10)).unwrap(); // if small then x + y = 10
/// model.add(!Condition::in_set(y, [8, 9])).unwrap(); // y not in {8, 9}
/// model.add(Condition::or(&[small, !small])).unwrap();
/// let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
/// // x in 0..=2 would need y = 10 - x, in 8..=10: no y is left for it.
/// // x in 3..=9 leaves y free in 0..=7.
/// assert_eq!(solver.count(None).solutions, 7 * 8);
/// ```
#[derive(Clone, Debug)]
#[must_use = "a condition does nothing until it is posted (Model::add) or tied to a literal (Model::reify, Model::implies)"]
pub struct Condition(pub(super) Form);

/// What a condition says.
#[derive(Clone, Debug)]
pub(super) enum Form {
    /// `expr relation 0`.
    Compare { expr: LinearExpr, relation: Relation },
    /// `var ∈ set`, or `var ∉ set`.
    InSet { var: VarId, set: Domain, negated: bool },
    /// At least one literal is true (none: false).
    Or(Vec<Lit>),
    /// Every literal is true (none: true).
    And(Vec<Lit>),
    /// An odd number of the literals are true (`odd`), or an even number.
    Xor { literals: Vec<Lit>, odd: bool },
}

impl Condition {
    /// `var ∈ values` (a range such as `1..=5` or a list of values).
    pub fn in_set(var: VarId, values: impl Into<Domain>) -> Condition {
        Condition(Form::InSet { var, set: values.into(), negated: false })
    }

    /// `var ∉ values`.
    pub fn not_in_set(var: VarId, values: impl Into<Domain>) -> Condition {
        Condition(Form::InSet { var, set: values.into(), negated: true })
    }

    /// At least one of the literals is true (false when there are none).
    pub fn or(literals: &[Lit]) -> Condition {
        Condition(Form::Or(literals.to_vec()))
    }

    /// Every one of the literals is true (true when there are none).
    pub fn and(literals: &[Lit]) -> Condition {
        Condition(Form::And(literals.to_vec()))
    }

    /// An odd number of the literals are true.
    pub fn xor(literals: &[Lit]) -> Condition {
        Condition(Form::Xor { literals: literals.to_vec(), odd: true })
    }
}

/// A literal as a condition: it is true.
impl From<Lit> for Condition {
    fn from(literal: Lit) -> Condition {
        Condition(Form::Or(vec![literal]))
    }
}

/// The negation: holds exactly when the condition does not.
impl Not for Condition {
    type Output = Condition;

    fn not(self) -> Condition {
        let negate = |literals: Vec<Lit>| literals.into_iter().map(|l| !l).collect();
        Condition(match self.0 {
            Form::Compare { expr, relation } => Form::Compare { expr, relation: relation.negation() },
            Form::InSet { var, set, negated } => Form::InSet { var, set, negated: !negated },
            Form::Or(literals) => Form::And(negate(literals)),
            Form::And(literals) => Form::Or(negate(literals)),
            Form::Xor { literals, odd } => Form::Xor { literals, odd: !odd },
        })
    }
}

impl Model {
    /// The sum of the variables (or literals, or expressions): `model.sum(&xs).eq(10)`.
    pub fn sum<T: Copy + Into<LinearExpr>>(&self, items: &[T]) -> LinearExpr {
        LinearExpr::sum(items.iter().copied())
    }

    /// Merges repeated variables of `sum(terms) relation rhs` and checks the
    /// result: every variable of this model (the right-hand side may be any
    /// `i128`: beyond `±MAX_VALUE` a sum can still reach it), each merged coefficient within `±MAX_COEFFICIENT`, and
    /// sums that `i128` holds with room to spare (what the propagator adds
    /// up). The one place where linear terms are merged and checked, for
    /// [`Model::linear`] and for expressions.
    ///
    /// A merged coefficient beyond `±MAX_VALUE` (two in-range coefficients
    /// of one variable can sum past it) is kept as the fewest terms over
    /// the variable whose coefficients are in range: `2^63 x` as
    /// `2^62 x + 2^62 x`. The sum is the same, and the linear constraint is
    /// exact with a variable repeated (it propagates the relaxation in which
    /// each term is a variable of its own, and checks the sum once fixed).
    pub(super) fn normalize_linear(
        &self,
        terms: impl IntoIterator<Item = (i128, VarId)>,
        rhs: i128,
    ) -> Result<(Vec<(i64, VarId)>, i128), ModelError> {
        const KIND: &str = "linear";
        let mut merged: IndexMap<VarId, i128> = IndexMap::new();
        for (position, (coefficient, var)) in terms.into_iter().enumerate() {
            self.check_var(KIND, position, var)?;
            let sum = merged.entry(var).or_insert(0);
            *sum = sum.checked_add(coefficient).ok_or(ModelError::LinearOverflow { terms: position + 1 })?;
        }
        let mut terms: Vec<(i64, VarId)> = Vec::with_capacity(merged.len());
        for (&var, &coefficient) in &merged {
            if coefficient.unsigned_abs() > MAX_COEFFICIENT.unsigned_abs() {
                return Err(ModelError::LinearOverflow { terms: merged.len() });
            }
            // In range: one term (a zero one too). Beyond: terms of MAX_VALUE,
            // then the rest; at most MAX_COEFFICIENT / MAX_VALUE of them.
            let sign = coefficient.signum();
            let mut left = coefficient.unsigned_abs();
            loop {
                let part = left.min(u128::from(MAX_VALUE.unsigned_abs()));
                // |sign * part| <= MAX_VALUE fits in i64.
                terms.push(((sign * part as i128) as i64, var));
                left -= part;
                if left == 0 {
                    break;
                }
            }
        }
        // |coefficient * value| <= 2^124, and we bound the sum of magnitudes
        // well below i128's 2^127 so that the propagator's sums never overflow.
        let magnitude: u128 = terms
            .iter()
            .map(|&(c, v)| {
                let d = &self.domains[v.index()];
                let m = d.min().unwrap_or(0).unsigned_abs().max(d.max().unwrap_or(0).unsigned_abs());
                u128::from(c.unsigned_abs()) * u128::from(m)
            })
            .fold(0u128, u128::saturating_add);
        if magnitude > (1u128 << 125) {
            return Err(ModelError::LinearOverflow { terms: terms.len() });
        }
        // Every sum lies within ±2^125: a right-hand side beyond one past it
        // means the same clamped there (no sum reaches it, and `k ± 1` of a
        // strict relation is still past every sum), and leaves the
        // propagator's `k - sum` room in i128.
        let reach = (1i128 << 125) + 1;
        Ok((terms, rhs.clamp(-reach, reach)))
    }

    /// The most specific relation for `expr relation 0`: `a*x rel k` is set
    /// membership, `x - y rel k` a binary constraint, anything else a linear
    /// sum (without its zero terms); a comparison of constants when no
    /// variable is left.
    pub(super) fn lower_linear(&self, expr: LinearExpr, relation: Relation) -> Result<Lowered, ModelError> {
        if expr.overflow {
            return Err(ModelError::LinearOverflow { terms: expr.terms.len() });
        }
        if expr.terms.is_empty() {
            return Ok(Lowered::Constant(relation.holds(expr.constant, 0)));
        }
        // `-i128::MIN` saturates: past every sum either way.
        let rhs = expr.constant.saturating_neg();
        let (terms, rhs) = self.normalize_linear(expr.terms, rhs)?;
        let nonzero: Vec<(i64, VarId)> = terms.iter().copied().filter(|&(c, _)| c != 0).collect();
        Ok(Lowered::Relation(match *nonzero.as_slice() {
            // Only zero coefficients: a constant relation, over the variables still.
            [] => ReifiableRelation::Linear(Linear::new(terms, relation, rhs)),
            [(a, x)] => ReifiableRelation::InSet(single_term(a, x, relation, rhs)),
            // An offset beyond ±2^62 (`x - y` reaches ±2^63): the sum below.
            [(1, x), (-1, y)] | [(-1, y), (1, x)] if rhs.unsigned_abs() <= u128::from(MAX_VALUE.unsigned_abs()) => {
                difference(x, y, relation, rhs as i64)
            }
            _ => ReifiableRelation::Linear(Linear::new(nonzero, relation, rhs)),
        }))
    }
}

/// `a * x relation k` (`a != 0`) as `x ∈ S`.
fn single_term(a: i64, x: VarId, relation: Relation, k: i128) -> InSet {
    // Divide by a positive coefficient: `a x rel k` is `-a x rel' -k`.
    let (a, k, relation) = if a < 0 { (-i128::from(a), -k, relation.swapped()) } else { (i128::from(a), k, relation) };
    let value = |v: i128| v.clamp(-i128::from(MAX_VALUE) - 1, i128::from(MAX_VALUE) + 1) as i64;
    let at_most = |k: i128| Domain::range(-MAX_VALUE, value(k.div_euclid(a)));
    let at_least = |k: i128| Domain::range(value(-((-k).div_euclid(a))), MAX_VALUE);
    let exactly = || if k % a == 0 { Domain::values([value(k / a)]) } else { Domain::range(1, 0) };
    match relation {
        Relation::Eq => InSet::new(x, exactly()),
        Relation::Ne => InSet::not_in(x, exactly()),
        Relation::Le => InSet::new(x, at_most(k)),
        Relation::Lt => InSet::new(x, at_most(k - 1)),
        Relation::Ge => InSet::new(x, at_least(k)),
        Relation::Gt => InSet::new(x, at_least(k + 1)),
    }
}

/// `x - y relation k` as a binary constraint.
fn difference(x: VarId, y: VarId, relation: Relation, k: i64) -> ReifiableRelation {
    // |k| <= 2^62, so k ± 1 fits.
    match relation {
        Relation::Eq => ReifiableRelation::Equal(Equal::with_offset(x, y, k)),
        Relation::Ne => ReifiableRelation::NotEqual(NotEqual::new(x, y, k)),
        // x - y <= k  <=>  x - k <= y
        Relation::Le => ReifiableRelation::Less(Less::with_gap(x, y, -k)),
        Relation::Lt => ReifiableRelation::Less(Less::with_gap(x, y, 1 - k)),
        // x - y >= k  <=>  y + k <= x
        Relation::Ge => ReifiableRelation::Less(Less::with_gap(y, x, k)),
        Relation::Gt => ReifiableRelation::Less(Less::with_gap(y, x, k + 1)),
    }
}
