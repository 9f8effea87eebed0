//! Flawed values and flawed variables (Achlioptas, Kirousis, Kranakis,
//! Krizanc, Molloy & Stamatiou 1997).
//!
//! A value `a` of a variable `x` is *flawed* when some binary constraint on
//! `x` and another variable `y` allows no pair `(a, b)` for any value `b` of
//! `y`: `a` can be in no solution, and arc consistency removes it at the root.
//! A variable all of whose values are flawed makes the instance insoluble
//! for that trivial reason. In model B with a fixed tightness and growing
//! `n`, almost every instance has such a variable, which is why flawless
//! model B and model RB were proposed. With `d = 10`, a constraint of
//! tightness 0.8 forbids 80 of the 100 pairs, and flaws are everywhere.

use crate::ids::VarId;
use crate::model::Model;

/// The flaws of an instance.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flaws {
    /// How many values (of all variables) are flawed.
    pub values: usize,
    /// The variables whose every value is flawed, in order: each makes the
    /// instance insoluble.
    pub variables: Vec<VarId>,
}

impl Flaws {
    /// Whether a variable has only flawed values (the instance is then trivially insoluble).
    pub fn has_flawed_variable(&self) -> bool {
        !self.variables.is_empty()
    }
}

/// The flaws of `model`'s binary constraints (on two distinct variables),
/// found by checking every value pair against the domains of the model.
/// Constraints of other arities are ignored.
pub fn flaws(model: &Model) -> Flaws {
    let domain = |var| model.domain(var).expect("a variable of the model");
    // Per variable, per position in its domain: flawed yet?
    let mut flawed: Vec<Vec<bool>> = model.vars().map(|var| vec![false; domain(var).size() as usize]).collect();
    for (_, constraint) in model.constraints() {
        let scope = constraint.scope();
        if scope.len() != 2 || scope[0] == scope[1] {
            continue;
        }
        for side in 0..2 {
            let (x, y) = (scope[side], scope[1 - side]);
            for (position, a) in domain(x).iter().enumerate() {
                let supported = domain(y).iter().any(|b| {
                    let tuple = if side == 0 { [a, b] } else { [b, a] };
                    constraint.is_satisfied(&tuple)
                });
                if !supported {
                    flawed[x.index()][position] = true;
                }
            }
        }
    }
    Flaws {
        values: flawed.iter().map(|values| values.iter().filter(|&&f| f).count()).sum(),
        variables: model
            .vars()
            .filter(|var| !flawed[var.index()].is_empty() && flawed[var.index()].iter().all(|&f| f))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_without_support_is_flawed_and_a_variable_of_such_values_too() {
        let mut model = Model::new();
        let x = model.new_var(0..=2).unwrap();
        let y = model.new_var(0..=2).unwrap();
        let z = model.new_var(0..=1).unwrap();
        // x = 0 has no support in y; every other value has one.
        model.predicate(&[x, y], |v| v[0] != 0).unwrap();
        assert_eq!(flaws(&model), Flaws { values: 1, variables: vec![] });
        // z forbids everything with x on its own side: both of z's values are flawed.
        model.predicate(&[x, z], |_| false).unwrap();
        let found = flaws(&model);
        assert_eq!(found.variables, vec![x, z]);
        assert_eq!(found.values, 3 + 2);
        assert!(found.has_flawed_variable());
        // Constraints of other arities are not looked at.
        let mut model = Model::new();
        let v = model.new_vars(3, 0..=1).unwrap();
        model.predicate(&v, |_| false).unwrap();
        assert_eq!(flaws(&model), Flaws::default());
    }
}
