//! Every constraint is safe at the ends of the value range: values of
//! `±MAX_VALUE = ±2^62` are kept when they satisfy the constraint and removed
//! when they do not, without overflow.

use csp::{MAX_VALUE, Model, Relation};

#[test]
fn linear_bounds_at_the_ends_of_the_range_keep_their_values() {
    for (coefficient, value, relation, rhs) in [
        (1, MAX_VALUE, Relation::Le, MAX_VALUE),
        (1, -MAX_VALUE, Relation::Ge, -MAX_VALUE),
        (-1, MAX_VALUE, Relation::Ge, -MAX_VALUE),
        (1, MAX_VALUE, Relation::Eq, MAX_VALUE),
        (-1, -MAX_VALUE, Relation::Le, MAX_VALUE),
    ] {
        let mut model = Model::new();
        let x = model.new_var(value..=value).unwrap();
        model.linear(&[(coefficient, x)], relation, rhs).unwrap();
        assert!(model.solve().unwrap().is_some(), "{coefficient} * {value} {relation} {rhs}");
    }
}
