//! Does an obtained result satisfy an expected `!Result`? The rules of
//! libminizinc's `spec.py`: the status, when given, must be equal; a
//! `!Solution` must match the (last) solution, each of its variables equal
//! (the solution may have more); a list of solutions must match the obtained
//! list one for one; a `!SolutionSet` must contain every obtained solution.
//! Values compare as MiniZinc's JSON output writes them: sets as
//! `{"set": [...]}` (with `[lo, hi]` ranges), enums as `{"e": "A"}`, the
//! output item's text as `_output`.

use std::collections::BTreeSet;

use serde_json::Value as Json;
use serde_yaml::Value as Yaml;

/// What a run produced.
#[derive(Clone, Debug, Default)]
pub(crate) struct Obtained {
    /// `SATISFIED`, `ALL_SOLUTIONS`, `OPTIMAL_SOLUTION`, `UNSATISFIABLE`, `UNKNOWN`, `ERROR`.
    pub(crate) status: String,
    /// Every solution, as MiniZinc's JSON objects.
    pub(crate) solutions: Vec<Json>,
    /// Whether all solutions were asked for (then the result is the list).
    pub(crate) all_solutions: bool,
}

/// Whether `obtained` satisfies the expected `!Result` (its mapping).
pub(crate) fn result_matches(expected: &Yaml, obtained: &Obtained) -> bool {
    if let Some(status) = expected.get("status").and_then(Yaml::as_str) {
        if status != obtained.status {
            return false;
        }
    }
    let Some(solution) = expected.get("solution").filter(|s| !s.is_null()) else {
        return true;
    };
    match solution {
        Yaml::Sequence(required) => {
            obtained.all_solutions
                && required.len() == obtained.solutions.len()
                && required.iter().zip(&obtained.solutions).all(|(r, o)| solution_matches(r, o))
        }
        Yaml::Tagged(tagged) if tagged.tag == "!SolutionSet" => {
            let Yaml::Sequence(items) = &tagged.value else { return false };
            let candidates: &[Json] = if obtained.all_solutions {
                &obtained.solutions
            } else {
                obtained.solutions.last().map(std::slice::from_ref).unwrap_or_default()
            };
            !candidates.is_empty() && candidates.iter().all(|o| items.iter().any(|item| solution_matches(item, o)))
        }
        single => {
            !obtained.all_solutions && obtained.solutions.last().is_some_and(|last| solution_matches(single, last))
        }
    }
}

/// A `!Solution` (a mapping of names to values) against one JSON solution.
fn solution_matches(expected: &Yaml, obtained: &Json) -> bool {
    let mapping = match expected {
        Yaml::Tagged(tagged) if tagged.tag == "!Solution" => &tagged.value,
        other => other,
    };
    let Yaml::Mapping(mapping) = mapping else { return false };
    mapping.iter().all(|(name, value)| {
        let Some(name) = name.as_str() else { return false };
        let key = if name == "_output_item" { "_output" } else { name };
        obtained.get(key).is_some_and(|o| value_matches(value, o))
    })
}

/// One expected value against one obtained JSON value.
pub(crate) fn value_matches(expected: &Yaml, obtained: &Json) -> bool {
    match expected {
        Yaml::Null => obtained.is_null(),
        Yaml::Bool(b) => obtained.as_bool() == Some(*b),
        Yaml::Number(n) => match (n.as_i64(), obtained.as_i64()) {
            (Some(a), Some(b)) => a == b,
            _ => n.as_f64().is_some_and(|a| obtained.as_f64() == Some(a)),
        },
        Yaml::String(s) => match obtained {
            Json::String(o) => o == s,
            Json::Object(object) => object.get("e").and_then(Json::as_str) == Some(s.as_str()),
            _ => false,
        },
        Yaml::Sequence(items) => obtained.as_array().is_some_and(|array| {
            array.len() == items.len() && items.iter().zip(array).all(|(e, o)| value_matches(e, o))
        }),
        // serde_yaml resolves `!!set {1, 3}` to a mapping whose values are null.
        Yaml::Mapping(map) => {
            map.values().all(Yaml::is_null)
                && map
                    .keys()
                    .map(Yaml::as_i64)
                    .collect::<Option<BTreeSet<i64>>>()
                    .is_some_and(|set| Some(set) == json_set(obtained))
        }
        Yaml::Tagged(tagged) => {
            let tag = tagged.tag.to_string();
            match tag.as_str() {
                "!!set" | "!set" | "tag:yaml.org,2002:set" => {
                    let expected: Option<BTreeSet<i64>> = match &tagged.value {
                        Yaml::Mapping(map) => map.keys().map(Yaml::as_i64).collect(),
                        Yaml::Sequence(items) => items.iter().map(Yaml::as_i64).collect(),
                        _ => None,
                    };
                    expected.is_some() && expected == json_set(obtained)
                }
                "!Range" => {
                    tagged.value.as_str().and_then(parse_range).is_some_and(|range| Some(range) == json_set(obtained))
                }
                "!Approx" => match (tagged.value.as_f64(), obtained.as_f64()) {
                    (Some(a), Some(b)) => (a - b).abs() <= 1e-6 * a.abs().max(1.0),
                    _ => false,
                },
                "!Trim" => match (tagged.value.as_str(), obtained.as_str()) {
                    (Some(a), Some(b)) => a.trim() == b.trim(),
                    _ => false,
                },
                "!Unordered" => {
                    let (Yaml::Sequence(items), Some(array)) = (&tagged.value, obtained.as_array()) else {
                        return false;
                    };
                    let mut left: Vec<&Json> = array.iter().collect();
                    items.len() == array.len()
                        && items.iter().all(|item| match left.iter().position(|o| value_matches(item, o)) {
                            Some(i) => {
                                left.swap_remove(i);
                                true
                            }
                            None => false,
                        })
                }
                _ => false,
            }
        }
    }
}

/// `{"set": [1, [3, 5]]}` as its values.
fn json_set(value: &Json) -> Option<BTreeSet<i64>> {
    let items = value.get("set")?.as_array()?;
    let mut set = BTreeSet::new();
    for item in items {
        match item {
            Json::Array(pair) if pair.len() == 2 => {
                let (lo, hi) = (pair[0].as_i64()?, pair[1].as_i64()?);
                if hi.saturating_sub(lo) > 1_000_000 {
                    return None;
                }
                set.extend(lo..=hi);
            }
            other => {
                set.insert(other.as_i64()?);
            }
        }
    }
    Some(set)
}

/// `"1..3"` as its values.
fn parse_range(text: &str) -> Option<BTreeSet<i64>> {
    let (lo, hi) = text.split_once("..")?;
    let (lo, hi): (i64, i64) = (lo.trim().parse().ok()?, hi.trim().parse().ok()?);
    (hi.saturating_sub(lo) <= 1_000_000).then(|| (lo..=hi).collect())
}

/// The tags an expectation uses that this comparison does not know
/// (`!ConstrEnum`, `!AnonEnum`, Python objects): such a test is skipped.
pub(crate) fn unknown_tags(value: &Yaml) -> Vec<String> {
    const KNOWN: [&str; 11] = [
        "!Result",
        "!Solution",
        "!SolutionSet",
        "!Error",
        "!!set",
        "!set",
        "tag:yaml.org,2002:set",
        "!Range",
        "!Approx",
        "!Trim",
        "!Unordered",
    ];
    let mut found = Vec::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Yaml::Tagged(tagged) => {
                let tag = tagged.tag.to_string();
                if !KNOWN.contains(&tag.as_str()) {
                    found.push(tag);
                }
                stack.push(&tagged.value);
            }
            Yaml::Sequence(items) => stack.extend(items),
            Yaml::Mapping(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Yaml {
        serde_yaml::from_str(text).unwrap()
    }

    #[test]
    fn values_compare_as_minizinc_writes_them() {
        assert!(value_matches(&yaml("[1, [2, 3]]"), &serde_json::json!([1, [2, 3]])));
        assert!(value_matches(&yaml("!!set {1, 3}"), &serde_json::json!({"set": [1, 3]})));
        assert!(value_matches(&yaml("!!set {}"), &serde_json::json!({"set": []})));
        assert!(value_matches(&yaml("!Range 1..3"), &serde_json::json!({"set": [[1, 3]]})));
        assert!(value_matches(&yaml("A"), &serde_json::json!({"e": "A"})));
        assert!(!value_matches(&yaml("[1, 2]"), &serde_json::json!([2, 1])));
        assert!(value_matches(&yaml("!Unordered [1, 2]"), &serde_json::json!([2, 1])));
    }

    #[test]
    fn results_follow_the_drivers_rules() {
        let obtained = |solutions: Vec<Json>, all_solutions| Obtained {
            status: if all_solutions { "ALL_SOLUTIONS" } else { "SATISFIED" }.to_string(),
            solutions,
            all_solutions,
        };
        let one = yaml("!Result\nsolution: !Solution\n  x: 1\n");
        let Yaml::Tagged(one) = one else { panic!() };
        assert!(result_matches(&one.value, &obtained(vec![serde_json::json!({"x": 1, "y": 2})], false)));
        assert!(!result_matches(&one.value, &obtained(vec![serde_json::json!({"x": 2})], false)));
        let set =
            yaml("!Result\nstatus: ALL_SOLUTIONS\nsolution: !SolutionSet\n- !Solution\n  x: 1\n- !Solution\n  x: 2\n");
        let Yaml::Tagged(set) = set else { panic!() };
        let both = vec![serde_json::json!({"x": 2}), serde_json::json!({"x": 1})];
        assert!(result_matches(&set.value, &obtained(both, true)));
        assert!(!result_matches(&set.value, &obtained(vec![serde_json::json!({"x": 3})], true)));
    }
}
