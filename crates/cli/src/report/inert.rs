//! Switches of a configuration that change nothing on the instances at hand.
//!
//! A comparison of `mac` against `mac/ac2001` on N-queens shows two equal
//! rows, and nothing says why: AC-2001 is how *generic support checking*
//! seeks supports, and every queens constraint has a propagator of its own.
//! [`inert_switches`] names each word of a configuration that cannot act on
//! the given models, with the reason, so that a tool can say so beside the
//! table instead of letting the equal rows pass for a finding.
//!
//! The rules follow the engine's documented behaviour (docs/compare.md):
//!
//! - `/ac2001` acts only on binary constraints without a propagator of their
//!   own, and only where arc consistency runs (`mac`, or `rootac`);
//! - `pairwise` acts only on all-different constraints;
//! - `separate` and `intersect` act only on the merged all-different system,
//!   which exists under `mac` with `matching` strength;
//! - `rootac` adds nothing to `mac`, which is arc consistent at the root;
//! - `seed=N` acts only on the `random` value order and on rephasing
//!   ([`csp::SolveConfig::draws_at_random`]);
//! - the orderings that read the all-differents (`places`, `wplaces`,
//!   `aplaces`, `maxsd`, `maxrelsd`) fall back to `mrv`, `domwdeg` or
//!   `alternate` without one;
//! - the orderings taken in turn at restarts (`alternate`, `rotate`,
//!   `aplaces`) are their first ordering throughout without a restart policy.

use csp::{
    AllDifferentStrength, ArcConsistency, Model, Propagation, PropagatorOptions, Restarts, SolveConfig, VarOrder,
};

/// What the models offer the switches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Features {
    /// Some binary constraint (on two distinct variables) has no propagator of
    /// its own, so generic support checking, AC-3 or AC-2001, runs on it.
    generic_binary: bool,
    /// Some constraint is an all-different.
    all_different: bool,
}

impl Features {
    fn of(models: &[&Model]) -> Features {
        let options = PropagatorOptions::default();
        let mut features = Features::default();
        for (_, constraint) in models.iter().flat_map(|model| model.constraints()) {
            let scope = constraint.scope();
            if scope.len() == 2 && scope[0] != scope[1] && constraint.propagator(&options).is_none() {
                features.generic_binary = true;
            }
            if constraint.kind() == "all_different" {
                features.all_different = true;
            }
        }
        features
    }
}

/// The words of `config` that change nothing on `models`, each with the
/// reason, as one sentence (`/ac2001 changes nothing here: ...`); empty when
/// every switch can act.
pub fn inert_switches(models: &[&Model], config: &SolveConfig) -> Vec<String> {
    let features = Features::of(models);
    let mac = config.propagation() == Propagation::Mac;
    let system = mac && config.all_different == AllDifferentStrength::Matching && !config.separate_all_different;
    let mut inert = Vec::new();
    let mut say = |word: &str, reason: &str| inert.push(format!("{word} changes nothing here: {reason}"));
    if config.arc_consistency != ArcConsistency::default() {
        if !features.generic_binary {
            say(
                "/ac2001",
                "it is how generic support checking seeks supports, and every binary constraint of these \
                 instances has a propagator of its own",
            );
        } else if !mac && !config.root_arc_consistency {
            say("/ac2001", "arc consistency runs only under mac or with rootac");
        }
    }
    // The strength is always spelled; only one other than the level's default was asked for.
    if config.all_different != config.propagation().default_all_different() && !features.all_different {
        say(&format!("+{}", config.all_different), "these instances have no all-different constraint");
    }
    if config.separate_all_different && (!features.all_different || !mac) {
        say("+separate", "the all-different system it turns off exists only under mac, with all-differents");
    }
    if config.all_different_intersections && (!features.all_different || !system) {
        say(
            "+intersect",
            "intersections are reasoned on in the all-different system, under mac+matching without separate",
        );
    }
    if config.root_arc_consistency && mac {
        say("+rootac", "mac already makes the root arc consistent");
    }
    if config.seed != 0 && !config.draws_at_random() {
        say("+seed", "only the random value order (and rephasing, with learn) draws from the seed");
    }
    let order = config.var_order;
    let fallback = match order {
        VarOrder::Places => Some("mrv"),
        VarOrder::WeightedPlaces | VarOrder::MaxSd | VarOrder::MaxRelSd => Some("domwdeg"),
        VarOrder::AlternatePlaces => Some("alternate"),
        _ => None,
    };
    if let Some(fallback) = fallback.filter(|_| !features.all_different) {
        let reason = format!("it reads the all-differents, and these instances have none: it is {fallback}");
        say(&format!("+{}", order.short()), &reason);
    }
    if let Some(first) = order.rotation().first().filter(|_| config.restarts == Restarts::Never) {
        let reason = format!(
            "it takes its orderings in turn at restarts, and without a restart policy (luby, geometric, \
             glucose) it is {} throughout",
            first.short()
        );
        say(&format!("+{}", order.short()), &reason);
    }
    inert
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::compare::test_models::queens;

    fn config(text: &str) -> SolveConfig {
        text.parse().unwrap()
    }

    /// Two variables with a constraint that only checks: generic support checking runs on it.
    fn checked_only() -> Model {
        let mut model = Model::new();
        let x = model.new_var(0..=3).unwrap();
        let y = model.new_var(0..=3).unwrap();
        model.predicate(&[x, y], |v| v[0] + v[1] != 3).unwrap();
        model
    }

    #[test]
    fn ac2001_is_inert_where_every_constraint_has_a_propagator() {
        let queens = queens(6);
        let inert = inert_switches(&[&queens], &config("mac/ac2001+mrv"));
        assert_eq!(inert.len(), 1, "{inert:?}");
        assert!(inert[0].starts_with("/ac2001 changes nothing here: "), "{inert:?}");
        assert!(inert[0].contains("propagator of its own"), "{inert:?}");
        // With one generic binary constraint among the instances, it acts.
        let generic = checked_only();
        assert!(inert_switches(&[&queens, &generic], &config("mac/ac2001+mrv")).is_empty());
        // But only where arc consistency runs.
        let inert = inert_switches(&[&generic], &config("fc/ac2001+mrv"));
        assert!(inert[0].contains("only under mac or with rootac"), "{inert:?}");
        assert!(inert_switches(&[&generic], &config("fc/ac2001+mrv+rootac")).is_empty());
        // The defaults are never reported.
        assert!(inert_switches(&[&queens], &config("mac+mrv")).is_empty());
        assert!(inert_switches(&[&generic], &config("bt+input")).is_empty());
    }

    #[test]
    fn all_different_words_are_inert_without_all_differents() {
        let generic = checked_only();
        let words = |text: &str| -> Vec<String> {
            inert_switches(&[&generic], &config(text))
                .iter()
                .map(|line| line.split_whitespace().next().unwrap().to_string())
                .collect()
        };
        assert_eq!(words("mac+mrv+pairwise"), ["+pairwise"]);
        assert_eq!(words("mac+mrv+separate"), ["+separate"]);
        assert_eq!(words("mac+mrv+intersect"), ["+intersect"]);
        let queens = queens(6);
        assert!(inert_switches(&[&queens], &config("mac+mrv+pairwise")).is_empty());
        assert!(inert_switches(&[&queens], &config("mac+mrv+intersect")).is_empty());
        assert_eq!(inert_switches(&[&queens], &config("fc+mrv+intersect")).len(), 1);
        assert_eq!(inert_switches(&[&queens], &config("mac+mrv+pairwise+intersect")).len(), 1);
    }

    #[test]
    fn rootac_under_mac_and_a_seed_without_random_values_are_inert() {
        let queens = queens(6);
        assert_eq!(inert_switches(&[&queens], &config("mac+mrv+rootac")).len(), 1);
        assert!(inert_switches(&[&queens], &config("fc+mrv+rootac")).is_empty());
        let inert = inert_switches(&[&queens], &config("fc+mrv+seed=3"));
        assert!(inert[0].starts_with("+seed changes nothing"), "{inert:?}");
        assert!(inert_switches(&[&queens], &config("fc+mrv+random+seed=3")).is_empty());
    }

    #[test]
    fn orderings_that_read_all_differents_or_turn_at_restarts_say_when_they_cannot() {
        let generic = checked_only();
        let queens = queens(6);
        for (word, fallback) in
            [("places", "mrv"), ("wplaces", "domwdeg"), ("maxsd", "domwdeg"), ("maxrelsd", "domwdeg")]
        {
            let inert = inert_switches(&[&generic], &config(&format!("mac+{word}")));
            assert_eq!(inert.len(), 1, "{inert:?}");
            assert!(inert[0].starts_with(&format!("+{word} changes nothing here: it reads the all-differents")));
            assert!(inert[0].ends_with(&format!("it is {fallback}")), "{inert:?}");
            assert!(inert_switches(&[&queens], &config(&format!("mac+{word}"))).is_empty(), "{word}");
        }
        // A rotating order needs restarts to turn.
        for (word, first) in [("alternate", "domwdeg"), ("rotate", "domwdeg"), ("aplaces", "wplaces")] {
            let inert = inert_switches(&[&queens], &config(&format!("mac+{word}")));
            assert_eq!(inert.len(), 1, "{inert:?}");
            assert!(inert[0].ends_with(&format!("it is {first} throughout")), "{inert:?}");
            for restarts in ["luby", "geometric"] {
                assert!(inert_switches(&[&queens], &config(&format!("mac+{word}+{restarts}"))).is_empty());
            }
            assert!(inert_switches(&[&queens], &config(&format!("mac+learn+{word}+glucose"))).is_empty());
        }
        // aplaces on instances without an all-different: both notes.
        assert_eq!(inert_switches(&[&generic], &config("mac+aplaces")).len(), 2);
        assert_eq!(inert_switches(&[&generic], &config("mac+aplaces+luby")).len(), 1);
    }
}
