//! Bad input never crashes: truncated and mutated fixtures, random token
//! soup, and a large generated model all end in an answer or a clear error.

use proptest::prelude::*;

use super::{fixture, run};

/// Parses and lowers; any outcome but a panic is fine.
fn survive(source: &str) {
    if let Ok(fzn) = csp_flatzinc::parse(source) {
        let _ = csp_flatzinc::lower(&fzn);
    }
}

#[test]
fn every_truncation_of_the_fixtures_parses_or_fails_cleanly() {
    for name in ["queens.fzn", "send_more_money.fzn", "booleans.fzn", "knapsack01.fzn"] {
        let source = std::fs::read_to_string(fixture(name)).unwrap();
        for end in (0..source.len()).filter(|&i| source.is_char_boundary(i)) {
            survive(&source[..end]);
        }
    }
}

#[test]
fn mutated_fixtures_parse_or_fail_cleanly() {
    let source = std::fs::read_to_string(fixture("booleans.fzn")).unwrap();
    let replacements =
        ["", "[", "]", "(", ")", ";", "::", "..", "-", "9999999999999999999", "x", "{", "}", "1.5", "\""];
    for (i, _) in source.char_indices() {
        for replacement in replacements {
            let mut mutated = String::with_capacity(source.len() + 20);
            mutated.push_str(&source[..i]);
            mutated.push_str(replacement);
            let next = source[i..].chars().next().map_or(i, |c| i + c.len_utf8());
            mutated.push_str(&source[next..]);
            survive(&mutated);
        }
    }
}

#[test]
fn a_large_model_is_read_and_solved() {
    let n = 20_000;
    let mut source = String::new();
    for i in 0..n {
        source.push_str(&format!("var 0..1: x{i};\n"));
    }
    for i in 1..n {
        source.push_str(&format!("constraint int_le(x{}, x{i});\n", i - 1));
    }
    source.push_str("solve satisfy;\n");
    let fzn = csp_flatzinc::parse(&source).unwrap();
    let lowered = csp_flatzinc::lower(&fzn).unwrap();
    assert_eq!(lowered.model.num_constraints(), n - 1);
    assert!(lowered.model.solve().unwrap().is_some());
}

#[test]
fn an_empty_file_is_an_error_with_its_place() {
    let dir = std::env::temp_dir().join(format!("fzn-csp-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("empty.fzn");
    std::fs::write(&path, "").unwrap();
    let captured = run(&[path.to_str().unwrap()]);
    assert_eq!(captured.code, 2);
    assert!(captured.stderr.contains("line 1, column 1: the model has no solve item"), "{}", captured.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The lowering's error for an array whose `output_array` ranges are `ranges`.
fn output_array_error(ranges: &str, elements: &str) -> String {
    let source = format!(
        "var 0..1: x;\narray [1..2] of var int: a :: output_array([{ranges}]) = [{elements}];\nsolve satisfy;\n"
    );
    let fzn = csp_flatzinc::parse(&source).unwrap();
    match csp_flatzinc::lower(&fzn) {
        Ok(_) => panic!("lowered output_array([{ranges}])"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn output_array_ranges_that_do_not_fit_say_why() {
    // Ranges as wide as i64: their product overflowed 128 bits (a panic in a
    // debug build; in a release build a wrapped product could match).
    let wide = "-9223372036854775807..9223372036854775807";
    let error = output_array_error(&format!("{wide}, {wide}, 0..1, 0..1"), "x, x");
    assert!(
        error.contains("line 2")
            && error.contains("a: output_array ranges hold more than 2^128 elements, the array has 2"),
        "{error}"
    );
    let error = output_array_error("1..5", "x, x");
    assert!(error.contains("a: output_array ranges hold 5 elements, the array has 2"), "{error}");
    let error = output_array_error("", "x, x");
    assert!(error.contains("a: output_array has no range"), "{error}");
    let error = output_array_error("{1, 2}", "x, x");
    assert!(error.contains("a: output_array takes ranges `lo..hi` only"), "{error}");
    // An empty range makes the product 0, whatever the others.
    let source =
        format!("array [1..0] of var int: a :: output_array([{wide}, {wide}, {wide}, 1..0]) = [];\nsolve satisfy;\n");
    assert!(csp_flatzinc::lower(&csp_flatzinc::parse(&source).unwrap()).is_ok());
}

#[test]
fn an_array_of_variables_without_elements_is_an_error_that_says_so() {
    let source = "array [1..2] of var int: a :: output_array([1..2]);\nsolve satisfy;\n";
    let fzn = csp_flatzinc::parse(source).unwrap();
    let error = match csp_flatzinc::lower(&fzn) {
        Ok(_) => panic!("lowered an array without elements"),
        Err(error) => error.to_string(),
    };
    assert!(error.contains("line 1") && error.contains("array a of variables has no value"), "{error}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(csp::testing::scaled(512) as u32))]

    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(
        prop::sample::select(vec![
            "var", "array", "[", "]", "1..3", "of", "int", "bool", ":", "x", "y", "=", ";", "constraint",
            "int_le", "(", ")", ",", "solve", "satisfy", "minimize", "::", "output_var", "{", "}", "-7",
            "int_lin_ne", "[1,-1]", "bool_clause", "true", "set", "float", "1.5", "predicate",
        ]),
        0..40,
    )) {
        survive(&tokens.join(" "));
    }
}

#[test]
fn files_that_are_not_models_are_named_in_words() {
    // Not `Is a directory (os error 21)` or `invalid utf-8 sequence of 1 bytes`.
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let binary = dir.join("fzn-csp-binary.fzn");
    std::fs::write(&binary, b"var 1..3: x;\n\xff\xfe\n").unwrap();
    let cases = [
        (dir.clone(), "is a directory, not a model file"),
        (dir.join("no-such-model.fzn"), "cannot open: no such file"),
        (binary, "not a text file (byte 13 is not UTF-8)"),
    ];
    for (file, reason) in cases {
        let file = file.display().to_string();
        let r = run(&[&file]);
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{file}");
        assert_eq!(r.stderr, format!("error: cannot read {file}: {reason}\n"));
    }
}

#[test]
fn a_negative_count_is_refused_naming_the_option() {
    // Not clap's "unexpected argument '-5'" with its tip to write `-- -5`,
    // nor Rust's "invalid digit found in string": what the option takes.
    for (args, option) in [
        (["-n", "-5"], "'--num-solutions <N>': must be a whole number, 0 or more"),
        (["-p", "-2"], "'--parallel <N>': must be a whole number, 0 or more"),
        (["-r", "x"], "'--random-seed <SEED>': must be a whole number, positive, negative or 0"),
    ] {
        let r = run(&[args[0], args[1], "model.fzn"]);
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{args:?}");
        assert!(
            r.stderr.starts_with(&format!("error: invalid value '{}' for {option}\n", args[1])),
            "{args:?}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("unexpected argument"), "{args:?}: {}", r.stderr);
    }
}
