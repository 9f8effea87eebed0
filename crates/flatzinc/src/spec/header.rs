//! The YAML header of a spec test (`/*** ... ***/` at the top of the `.mzn`):
//! one `!Test` document per test, as libminizinc's test driver reads them
//! (`tests/minizinc_testing/spec.py`): `type` (solve, compile, output-model),
//! `expected` (one or a list of `!Result`, `!Error`, `!FlatZinc`, ...),
//! `options` (`all_solutions: true`, `-G: std`, ...), `extra_files`,
//! `solvers` and `check_against` (which this runner does not need: it
//! checks every unlisted solution with Gecode).

use serde::Deserialize as _;
use serde_yaml::Value;

/// One `!Test` document.
#[derive(Clone, Debug)]
pub(crate) struct SpecTest {
    /// Its `name`, or its index in the file.
    pub(crate) name: String,
    /// `solve` (the default), `compile`, `output-model`, ...
    pub(crate) kind: String,
    /// The acceptable results.
    pub(crate) expected: Vec<Value>,
    /// The MiniZinc options, as written.
    pub(crate) options: Vec<(String, Value)>,
    /// Data or model files to add, relative to the test's folder.
    pub(crate) extra_files: Vec<String>,
}

/// The YAML text of the header, if the file starts with one.
pub(crate) fn header_text(source: &str) -> Option<&str> {
    let body = source.strip_prefix("/***\n")?;
    let end = body.find("\n***/")?;
    Some(&body[..end])
}

/// The tests of a header.
pub(crate) fn parse_tests(yaml: &str) -> Result<Vec<SpecTest>, String> {
    let mut tests = Vec::new();
    for (index, document) in serde_yaml::Deserializer::from_str(yaml).enumerate() {
        let value = Value::deserialize(document).map_err(|e| e.to_string())?;
        let Value::Tagged(tagged) = value else {
            return Err(format!("document {index} is not a !Test"));
        };
        if tagged.tag != "!Test" {
            return Err(format!("document {index} is {}, not a !Test", tagged.tag));
        }
        let field = |name: &str| tagged.value.get(name).cloned();
        let name = match field("name") {
            Some(Value::String(name)) => name,
            _ => index.to_string(),
        };
        let kind = match field("type") {
            Some(Value::String(kind)) => kind,
            _ => "solve".to_string(),
        };
        let expected = match field("expected") {
            Some(Value::Sequence(items)) => items,
            Some(Value::Null) | None => Vec::new(),
            Some(other) => vec![other],
        };
        let options = match field("options") {
            Some(Value::Mapping(map)) => map
                .into_iter()
                .map(|(key, value)| (key.as_str().map_or_else(|| format!("{key:?}"), str::to_string), value))
                .collect(),
            _ => Vec::new(),
        };
        let strings = |value: Option<Value>| match value {
            Some(Value::Sequence(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
            _ => Vec::new(),
        };
        tests.push(SpecTest { name, kind, expected, options, extra_files: strings(field("extra_files")) });
    }
    Ok(tests)
}

/// The tag of a YAML value, if it has one (`!Result`, `!Error`).
pub(crate) fn tag(value: &Value) -> Option<String> {
    match value {
        Value::Tagged(tagged) => Some(tagged.tag.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_with_several_tests_are_read() {
        let source = "/***\n!Test\nsolvers: [gecode]\noptions:\n  all_solutions: true\nexpected: !Result\n  status: \
                      ALL_SOLUTIONS\n  solution: !SolutionSet\n  - !Solution\n    x: 1\n---\n!Test\nname: two\ntype: \
                      compile\nexpected:\n- !Error\n  type: TypeError\n***/\nvar 1..3: x;\n";
        let tests = parse_tests(header_text(source).unwrap()).unwrap();
        assert_eq!(tests.len(), 2);
        assert_eq!((tests[0].name.as_str(), tests[0].kind.as_str()), ("0", "solve"));
        assert_eq!(tests[0].options[0].0, "all_solutions");
        assert_eq!(tag(&tests[0].expected[0]).as_deref(), Some("!Result"));
        assert_eq!((tests[1].name.as_str(), tests[1].kind.as_str()), ("two", "compile"));
        assert_eq!(tag(&tests[1].expected[0]).as_deref(), Some("!Error"));
    }
}
