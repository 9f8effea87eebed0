//! The constructors of counting constraints: MiniZinc's `fzn_count_eq`,
//! `fzn_among`, `at_least`, `at_most`, `exactly`, the four
//! `fzn_global_cardinality` forms and `fzn_nvalue`, one call each.

use super::{Model, ModelError};
use crate::constraints::{Among, Count, GlobalCardinality, NValue};
use crate::ids::{ConstraintId, VarId};

impl Model {
    /// `count = #{i : xs[i] = value}`, with `value` and `count` variables
    /// (MiniZinc's `fzn_count_eq(xs, value, count)`). Domain consistent when
    /// the variables are distinct. The other counts (`count_geq`, `count_lt`,
    /// ...) are this with a comparison on `count`.
    ///
    /// ```
    /// use csp::Model;
    ///
    /// // Exactly two of four dice show the value of `face`.
    /// let mut model = Model::new();
    /// let dice = model.new_vars(4, 1..=6).unwrap();
    /// let face = model.new_var(1..=6).unwrap();
    /// let two = model.new_var(2..=2).unwrap();
    /// model.count(&dice, face, two).unwrap();
    /// let solution = model.solve().unwrap().expect("satisfiable");
    /// assert_eq!(dice.iter().filter(|&&d| solution[d] == solution[face]).count(), 2);
    /// ```
    pub fn count(&mut self, xs: &[VarId], value: VarId, count: VarId) -> Result<ConstraintId, ModelError> {
        self.post(Count::new(xs, value, count))
    }

    /// `count = #{i : xs[i] in values}` (MiniZinc's `fzn_among(count, xs,
    /// values)`). Domain consistent when the variables are distinct.
    pub fn among(&mut self, count: VarId, xs: &[VarId], values: &[i64]) -> Result<ConstraintId, ModelError> {
        self.check_counted("among", values)?;
        self.post(Among::new(count, xs, values))
    }

    /// At least `n` of the `xs` equal `value` (MiniZinc's `at_least(n, xs, value)`).
    ///
    /// Any `n` in the value range is accepted, as MiniZinc, Gecode and CP-SAT
    /// accept it: `n <= 0` always holds and `n > xs.len()` never does, so the
    /// model is unsatisfiable at solve time (unsatisfiable is an outcome, not
    /// a modelling error: a count computed from data may be out of reach).
    /// The same holds for [`at_most`](Model::at_most),
    /// [`exactly`](Model::exactly) and the bounds of
    /// [`global_cardinality_low_up`](Model::global_cardinality_low_up).
    pub fn at_least(&mut self, n: i64, xs: &[VarId], value: i64) -> Result<ConstraintId, ModelError> {
        self.count_between("at_least", n, xs.len() as i64, xs, value)
    }

    /// At most `n` of the `xs` equal `value` (MiniZinc's `at_most(n, xs, value)`).
    /// `n < 0` never holds (the model is unsatisfiable, not refused) and
    /// `n >= xs.len()` always does; see [`at_least`](Model::at_least).
    pub fn at_most(&mut self, n: i64, xs: &[VarId], value: i64) -> Result<ConstraintId, ModelError> {
        self.count_between("at_most", 0, n, xs, value)
    }

    /// Exactly `n` of the `xs` equal `value` (MiniZinc's `exactly(n, xs, value)`).
    /// A count outside `0..=xs.len()` is accepted and never holds: the model
    /// is unsatisfiable at solve time (see [`at_least`](Model::at_least)).
    ///
    /// ```
    /// use csp::Model;
    ///
    /// let mut model = Model::new();
    /// let xs = model.new_vars(3, 0..=1).unwrap();
    /// model.exactly(4, &xs, 1).unwrap(); // four of three: accepted ...
    /// assert!(model.solve().unwrap().is_none()); // ... and unsatisfiable
    /// ```
    pub fn exactly(&mut self, n: i64, xs: &[VarId], value: i64) -> Result<ConstraintId, ModelError> {
        self.count_between("exactly", n, n, xs, value)
    }

    fn count_between(
        &mut self,
        kind: &str,
        low: i64,
        high: i64,
        xs: &[VarId],
        value: i64,
    ) -> Result<ConstraintId, ModelError> {
        Self::check_value(|| format!("{kind} count"), low)?;
        Self::check_value(|| format!("{kind} count"), high)?;
        self.check_counted(kind, &[value])?;
        self.check_scope(kind, xs)?;
        self.post(Among::between(low, high, xs, &[value]))
    }

    /// For every `j`, `counts[j] = #{i : xs[i] = cover[j]}` (MiniZinc's
    /// `fzn_global_cardinality(xs, cover, counts)`); other values are free.
    /// Counting propagation: an [`among`](Model::among) per cover value and
    /// the sum of the counts.
    pub fn global_cardinality(
        &mut self,
        xs: &[VarId],
        cover: &[i64],
        counts: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.check_cover(cover, counts.len(), "counts")?;
        self.post(GlobalCardinality::new(xs, cover, counts, false))
    }

    /// [`global_cardinality`](Model::global_cardinality), and every `xs[i]` is
    /// in the cover (`fzn_global_cardinality_closed`).
    pub fn global_cardinality_closed(
        &mut self,
        xs: &[VarId],
        cover: &[i64],
        counts: &[VarId],
    ) -> Result<ConstraintId, ModelError> {
        self.check_cover(cover, counts.len(), "counts")?;
        self.post(GlobalCardinality::new(xs, cover, counts, true))
    }

    /// For every `j`, `low[j] <= #{i : xs[i] = cover[j]} <= up[j]`
    /// (`fzn_global_cardinality_low_up`). `low` and `up` need one entry per
    /// cover value (a typed error otherwise); bounds that no count can meet
    /// (`low[j] > up[j]`, `up[j] < 0`, `low[j] > xs.len()`) are accepted and
    /// make the model unsatisfiable at solve time, as in
    /// [`at_least`](Model::at_least).
    pub fn global_cardinality_low_up(
        &mut self,
        xs: &[VarId],
        cover: &[i64],
        low: &[i64],
        up: &[i64],
    ) -> Result<ConstraintId, ModelError> {
        self.check_low_up(xs, cover, low, up)?;
        self.post(GlobalCardinality::low_up(xs, cover, low, up, false))
    }

    /// [`global_cardinality_low_up`](Model::global_cardinality_low_up), and
    /// every `xs[i]` is in the cover (`fzn_global_cardinality_low_up_closed`).
    pub fn global_cardinality_low_up_closed(
        &mut self,
        xs: &[VarId],
        cover: &[i64],
        low: &[i64],
        up: &[i64],
    ) -> Result<ConstraintId, ModelError> {
        self.check_low_up(xs, cover, low, up)?;
        self.post(GlobalCardinality::low_up(xs, cover, low, up, true))
    }

    /// `n` is the number of distinct values of the `xs` (MiniZinc's
    /// `fzn_nvalue(n, xs)`), with bounds on `n`.
    pub fn nvalue(&mut self, n: VarId, xs: &[VarId]) -> Result<ConstraintId, ModelError> {
        self.post(NValue::new(n, xs))
    }

    fn check_counted(&self, kind: &str, values: &[i64]) -> Result<(), ModelError> {
        for &value in values {
            Self::check_value(|| format!("{kind} value"), value)?;
        }
        Ok(())
    }

    /// A cover of distinct values in range, with one entry of `what` per value.
    fn check_cover(&self, cover: &[i64], entries: usize, what: &str) -> Result<(), ModelError> {
        const KIND: &str = "global_cardinality";
        let invalid = |message: String| ModelError::InvalidArgument { constraint: KIND.to_string(), message };
        if entries != cover.len() {
            return Err(invalid(format!(
                "{what} has {entries} entries, expected {} (one per cover value)",
                cover.len()
            )));
        }
        self.check_counted(KIND, cover)?;
        let mut sorted = cover.to_vec();
        sorted.sort_unstable();
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(invalid(format!("the cover lists the value {} twice", pair[0])));
        }
        Ok(())
    }

    fn check_low_up(&self, xs: &[VarId], cover: &[i64], low: &[i64], up: &[i64]) -> Result<(), ModelError> {
        self.check_cover(cover, low.len(), "low")?;
        self.check_cover(cover, up.len(), "up")?;
        self.check_scope("global_cardinality", xs)?;
        for &bound in low.iter().chain(up) {
            Self::check_value(|| "global_cardinality bound".to_string(), bound)?;
        }
        Ok(())
    }
}
