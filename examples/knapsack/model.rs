//! The knapsack model, shared by the example and `benches/optimization.rs`:
//! P07's items and capacity, and one 0/1 variable per item whose weighted sum
//! fits the capacity while the total value is maximised.

use csp::{LinearExpr, Model, ModelError, Relation, VarId};

/// P07's items: weight and value.
pub(crate) const ITEMS: [(i64, i64); 15] = [
    (70, 135),
    (73, 139),
    (77, 149),
    (80, 150),
    (82, 156),
    (87, 163),
    (90, 173),
    (94, 184),
    (98, 192),
    (106, 201),
    (110, 210),
    (113, 214),
    (115, 221),
    (118, 229),
    (120, 240),
];

/// P07's capacity.
pub(crate) const CAPACITY: i64 = 750;

/// The instance: the items (weight and value) and the capacity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Knapsack {
    pub(crate) items: Vec<(i64, i64)>,
    pub(crate) capacity: i64,
}

impl Knapsack {
    /// P07's items in a knapsack of `capacity`.
    pub(crate) fn p07(capacity: i64) -> Knapsack {
        Knapsack { items: ITEMS.to_vec(), capacity }
    }

    /// The model: `take[i]` (named `item{i + 1}`) is 1 when item `i` is
    /// packed; the total weight is at most the capacity; the total value is
    /// maximised. Returns the item variables too.
    pub(crate) fn model(&self) -> Result<(Model, Vec<VarId>), ModelError> {
        let mut model = Model::new();
        let take = (0..self.items.len())
            .map(|i| model.new_named_var(format!("item{}", i + 1), 0..=1))
            .collect::<Result<Vec<_>, _>>()?;
        let weight: Vec<(i64, VarId)> = self.items.iter().zip(&take).map(|(&(w, _), &x)| (w, x)).collect();
        model.linear(&weight, Relation::Le, self.capacity)?;
        model.maximize(self.items.iter().zip(&take).map(|(&(_, v), &x)| v * x).sum::<LinearExpr>())?;
        Ok((model, take))
    }
}
