//! The constructors of element constraints: MiniZinc's `array_int_element`,
//! `array_bool_element`, `array_var_int_element` and `array_var_bool_element`,
//! one call each (a boolean is a variable over `{0, 1}`).

use super::{Model, ModelError};
use crate::constraints::{Element, ElementVar};
use crate::ids::{ConstraintId, VarId};

impl Model {
    /// `array[index - first_index] = value`: indexing an array of constants by
    /// a variable, domain consistent. MiniZinc's arrays start at 1, so
    /// `array_int_element(i, as, z)` is `element(i, &as, z, 1)`.
    ///
    /// ```
    /// use csp::Model;
    ///
    /// // The cost of the chosen item is `costs[item]`.
    /// let costs = [30, 10, 20];
    /// let mut model = Model::new();
    /// let item = model.new_var(0..=2).unwrap();
    /// let cost = model.new_var(0..=25).unwrap();
    /// model.element(item, &costs, cost, 0).unwrap();
    /// assert_eq!(model.solve().unwrap().expect("items 1 and 2 are cheap")[item], 1);
    /// ```
    pub fn element(
        &mut self,
        index: VarId,
        array: &[i64],
        value: VarId,
        first_index: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.check_indices(array.len(), first_index)?;
        for &entry in array {
            Self::check_value(|| "element entry".to_string(), entry)?;
        }
        self.post(Element::new(index, array.to_vec(), value, first_index))
    }

    /// `xs[index - first_index] = value`: indexing an array of variables by a
    /// variable (MiniZinc's `array_var_int_element(i, xs, z)` is
    /// `element_var(i, &xs, z, 1)`). Domain consistent when the index, the value
    /// and the array's variables are distinct; sound otherwise.
    pub fn element_var(
        &mut self,
        index: VarId,
        xs: &[VarId],
        value: VarId,
        first_index: i64,
    ) -> Result<ConstraintId, ModelError> {
        self.check_indices(xs.len(), first_index)?;
        self.post(ElementVar::new(index, xs, value, first_index))
    }

    /// An array of `len` entries indexed from `first_index` must have
    /// entries, and indices in the value range.
    fn check_indices(&self, len: usize, first_index: i64) -> Result<(), ModelError> {
        if len == 0 {
            return Err(ModelError::InvalidArgument {
                constraint: "element".to_string(),
                message: "the array is empty, so no index has an entry".to_string(),
            });
        }
        Self::check_value(|| "element first index".to_string(), first_index)?;
        let last = i64::try_from(i128::from(first_index) + len as i128 - 1).unwrap_or(i64::MAX);
        Self::check_value(|| "element last index".to_string(), last)
    }
}
