//! Bad input never crashes: truncated and mutated fixtures, random token
//! soup, and a large generated model all end in an answer or a clear error.
//!
//! The seeded mutation tests draw new cases with `CSP_TEST_SEED=S` (default 21)
//! and more of them with `CSP_TEST_SCALE=N` (N times as many), e.g.
//! `CSP_TEST_SEED=7 CSP_TEST_SCALE=40 cargo test --release -p csp-flatzinc --test flatzinc seeded_mutations`.

use proptest::prelude::*;

use super::text_mutation::mutate_characters;
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
        (binary, "not a text file (line 2, column 1: byte 0xff is not UTF-8)"),
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

// ---- seeded mutations: an error naming the place, or a correct answer ----

/// Integer texts at and beyond the edges of `i64` and of the engine's
/// `±2^62` domains.
const EXTREME_INTEGERS: [&str; 8] = [
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "-9223372036854775809",
    "4611686018427387904",
    "-4611686018427387904",
    "4611686018427387903",
    "0",
];

/// Ranges that are huge, empty or at the edges.
const ODD_RANGES: [&str; 6] = [
    "0..9223372036854775807",
    "-9223372036854775808..9223372036854775807",
    "-4611686018427387904..4611686018427387904",
    "5..1",
    "9223372036854775807..9223372036854775807",
    "1..1",
];

/// Lines that are wrong on their own: huge domains, floats, undefined
/// names, builtins with too few or too many arguments, or arguments of the
/// wrong kind.
const ODD_LINES: [&str; 14] = [
    "var 0..9223372036854775807: huge;",
    "var -9223372036854775808..9223372036854775807: wide;",
    "var 1.5..2.5: f;",
    "array [1..0] of var int: nothing = [];",
    "constraint int_le(undefined_name, 3);",
    "constraint int_le(1);",
    "constraint int_le(1, 2, 3);",
    "constraint int_lin_eq([1, 2], [], 3);",
    "constraint int_lin_le([], [], -1);",
    "constraint all_different_int([]);",
    "constraint fzn_all_different_int(1);",
    "constraint int_times(9223372036854775807, 9223372036854775807, 1);",
    "constraint int_div(1, 0, 1);",
    "constraint array_bool_and([], true);",
];

/// The tokens of `text` with their byte ranges: names, numbers (with a
/// sign and `..` kept apart), and single punctuation characters.
fn tokens(text: &str) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
        found.push(start..i);
    }
    found
}

/// One mutation of `source`, chosen by `rng`: a truncation, a line deleted,
/// duplicated or added, tokens swapped, an integer made extreme or a float,
/// a range made huge or empty, an array emptied, a name undefined, an
/// argument dropped or added.
fn mutate(source: &str, rng: &mut csp::rng::Rng) -> String {
    let pick = |rng: &mut csp::rng::Rng, n: usize| rng.below(n.max(1) as u64) as usize;
    let lines: Vec<&str> = source.lines().collect();
    let tokens = tokens(source);
    let splice =
        |range: std::ops::Range<usize>, with: &str| format!("{}{with}{}", &source[..range.start], &source[range.end..]);
    let integers: Vec<_> = tokens.iter().filter(|t| source.as_bytes()[t.start].is_ascii_digit()).cloned().collect();
    let names: Vec<_> = tokens.iter().filter(|t| source.as_bytes()[t.start].is_ascii_alphabetic()).cloned().collect();
    match rng.below(10) {
        0 => {
            let ends: Vec<usize> = (0..=source.len()).filter(|&i| source.is_char_boundary(i)).collect();
            source[..ends[pick(rng, ends.len())]].to_string()
        }
        1 => {
            let mut lines = lines;
            if !lines.is_empty() {
                lines.remove(pick(rng, lines.len()));
            }
            lines.join("\n")
        }
        2 => {
            let mut lines = lines;
            if !lines.is_empty() {
                let at = pick(rng, lines.len());
                lines.insert(at, lines[at]);
            }
            lines.join("\n")
        }
        3 if tokens.len() >= 2 => {
            let at = pick(rng, tokens.len() - 1);
            let (a, b) = (tokens[at].clone(), tokens[at + 1].clone());
            format!(
                "{}{}{}{}{}",
                &source[..a.start],
                &source[b.clone()],
                &source[a.end..b.start],
                &source[a],
                &source[b.end..]
            )
        }
        4 if !integers.is_empty() => {
            splice(integers[pick(rng, integers.len())].clone(), EXTREME_INTEGERS[pick(rng, EXTREME_INTEGERS.len())])
        }
        5 if !integers.is_empty() => {
            let with = ["1.5", "-0.0", "1e300", "2.0"][pick(rng, 4)];
            splice(integers[pick(rng, integers.len())].clone(), with)
        }
        6 => {
            // A range `a..b` (its first bound) made huge or empty.
            let ranges: Vec<usize> = source.match_indices("..").map(|(i, _)| i).collect();
            if ranges.is_empty() {
                return source.to_string();
            }
            let dots = ranges[pick(rng, ranges.len())];
            let start = tokens.iter().rev().find(|t| t.end <= dots).map_or(dots, |t| {
                // Take a minus sign before the bound along.
                if t.start > 0 && source.as_bytes()[t.start - 1] == b'-' { t.start - 1 } else { t.start }
            });
            let end = tokens.iter().find(|t| t.start > dots + 1).map_or(dots + 2, |t| {
                if &source[t.clone()] == "-" {
                    tokens.iter().find(|u| u.start > t.start).map_or(t.end, |u| u.end)
                } else {
                    t.end
                }
            });
            splice(start..end, ODD_RANGES[pick(rng, ODD_RANGES.len())])
        }
        7 => {
            // An array literal emptied.
            let opens: Vec<usize> = source.match_indices('[').map(|(i, _)| i).collect();
            if opens.is_empty() {
                return source.to_string();
            }
            let open = opens[pick(rng, opens.len())];
            match source[open..].find(']') {
                Some(close) => splice(open..open + close + 1, "[]"),
                None => source.to_string(),
            }
        }
        8 if !names.is_empty() => splice(names[pick(rng, names.len())].clone(), "zz_undefined"),
        8 => source.to_string(),
        _ => {
            // A constraint's argument dropped or one added, or an odd line.
            let calls: Vec<usize> =
                (0..lines.len()).filter(|&i| lines[i].trim_start().starts_with("constraint")).collect();
            let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            if calls.is_empty() || rng.below(3) == 0 {
                let at = pick(rng, lines.len() + 1);
                lines.insert(at, ODD_LINES[pick(rng, ODD_LINES.len())].to_string());
            } else {
                let line = &mut lines[calls[pick(rng, calls.len())]];
                if let Some(close) = line.rfind(')') {
                    if rng.below(2) == 0 {
                        // Drop the last argument (a `[...]` is one).
                        let cut = line[..close].rfind(',').unwrap_or(close);
                        line.replace_range(cut..close, "");
                    } else {
                        line.insert_str(close, ", 1");
                    }
                }
            }
            lines.join("\n")
        }
    }
}

/// What a mutated model gave: an error (checked to name its place), or the
/// answer of a search that stopped at its node limit or completed.
#[derive(Debug, PartialEq)]
enum Verdict {
    Error,
    Inconsistent,
    /// Completed: whether a solution exists, and the optimum if optimising.
    Complete {
        solutions: bool,
        optimum: Option<i64>,
    },
    Stopped,
}

/// Parses, lowers and (if that works) searches `source` with and without
/// learning under a node limit; every error must name its line (or line and
/// column), every solution must satisfy the model and print, and two
/// searches that complete must agree.
fn check_mutant(source: &str) -> Verdict {
    let lines = source.split('\n').count();
    let named = |error: String| {
        // `line 3: ...` or `line 3, column 7: ...`, a line of the model.
        let line = error.strip_prefix("line ").and_then(|rest| rest.split([':', ',']).next()?.parse::<usize>().ok());
        assert!(
            line.is_some_and(|line| (1..=lines).contains(&line)),
            "an error without its place: {error}\n--- the model:\n{source}"
        );
        Verdict::Error
    };
    let fzn = match csp_flatzinc::parse(source) {
        Ok(fzn) => fzn,
        Err(error) => return named(error.to_string()),
    };
    let lowered = match csp_flatzinc::lower(&fzn) {
        Ok(lowered) => lowered,
        Err(error) => return named(error.to_string()),
    };
    if lowered.inconsistent.is_some() {
        return Verdict::Inconsistent;
    }
    let optimising = !matches!(lowered.objective, csp_flatzinc::Objective::Satisfy);
    let mut verdicts = Vec::new();
    for search in [csp::Search::Learning, csp::SolveConfig::default().search] {
        // A time limit far above what 300 nodes take: if it stops the
        // search, that is a hang, reported below.
        let limits = csp::Limits::none().with_nodes(300).with_time(std::time::Duration::from_secs(20));
        let config = csp::SolveConfig::default()
            .with_search(search)
            .with_var_order(csp::VarOrder::DomWdeg)
            .with_branching(csp::Branching::Binary)
            .with_phases(lowered.search.engine_phases())
            .with_limits(limits);
        // fzn-csp's message for a model the solver refuses names no line:
        // a lowered model must always be accepted.
        let mut solver = csp::Solver::new(&lowered.model, config)
            .unwrap_or_else(|error| panic!("the solver refuses a lowered model: {error}\n{source}"));
        let mut found = false;
        let mut best = None;
        let check = |values: &[i64]| {
            assert!(lowered.model.violated(values).is_empty(), "a solution that violates the model:\n{source}");
            assert!(lowered.model.is_solution(values), "a solution outside a domain:\n{source}");
            let _ = lowered.output.to_dzn(values);
        };
        if optimising {
            for improvement in solver.improvements() {
                check(improvement.solution.values());
                best = Some(improvement.objective);
                found = true;
            }
        } else if let Some(solution) = solver.solutions().next() {
            check(solution.values());
            found = true;
        }
        let status = solver.status();
        assert!(
            !matches!(status, csp::Status::LimitReached(csp::Limit::Time)),
            "300 nodes took 20 s (a hang):\n{source}"
        );
        let complete = status == csp::Status::Complete || (found && !optimising);
        verdicts.push(if complete {
            Verdict::Complete { solutions: found, optimum: best.filter(|_| optimising) }
        } else {
            Verdict::Stopped
        });
    }
    let (learning, plain) = (&verdicts[0], &verdicts[1]);
    if let (Verdict::Complete { .. }, Verdict::Complete { .. }) = (learning, plain) {
        assert_eq!(learning, plain, "learning and plain search disagree on:\n{source}");
    }
    verdicts.swap_remove(0)
}

/// Small FlatZinc files of MiniZinc's spec suite (its compilation tests
/// ship their expected FlatZinc), when the shared data is there.
fn spec_suite_fzn() -> Vec<std::path::PathBuf> {
    let spec = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/minizinc/spec/unit");
    let mut files = Vec::new();
    for folder in ["compilation", "regression", "types"] {
        let Ok(entries) = std::fs::read_dir(spec.join(folder)) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let small = entry.metadata().is_ok_and(|m| m.len() > 0 && m.len() < 1500);
            if path.extension().is_some_and(|e| e == "fzn") && small {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn seeded_mutations_give_an_error_naming_the_place_or_a_correct_answer() {
    let mut sources: Vec<(String, String, usize)> = Vec::new();
    for name in [
        "queens.fzn",
        "send_more_money.fzn",
        "booleans.fzn",
        "knapsack01.fzn",
        "annotated.fzn",
        "defined.fzn",
        "cycle.fzn",
        "unsat.fzn",
    ] {
        sources.push((name.to_string(), std::fs::read_to_string(fixture(name)).unwrap(), csp::testing::scaled(60)));
    }
    let spec = spec_suite_fzn();
    if spec.is_empty() {
        eprintln!("the spec suite's FlatZinc is absent: the fixtures only");
    }
    for path in spec {
        sources.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap(), csp::testing::scaled(12)));
    }
    let mut rng = csp::rng::Rng::new(csp::testing::seed(21));
    let mut tally: std::collections::BTreeMap<String, usize> = Default::default();
    for (name, source, mutants) in &sources {
        for _ in 0..*mutants {
            let mut mutant = mutate(source, &mut rng);
            if rng.below(3) == 0 {
                mutant = mutate(&mutant, &mut rng);
            }
            if rng.below(4) == 0 {
                mutant = mutate_characters(&mutant, &mut rng);
            }
            let verdict = std::panic::catch_unwind(|| check_mutant(&mutant))
                .unwrap_or_else(|_| panic!("{name}: a panic on this mutant:\n{mutant}"));
            let kind = format!("{verdict:?}");
            *tally.entry(kind.split([' ', '{']).next().unwrap().to_string()).or_default() += 1;
        }
    }
    // The mutants reach every stage: some fail, some lower and search.
    eprintln!("mutants: {tally:?}");
    assert!(tally.get("Error").is_some_and(|&n| n > 50), "{tally:?}");
    assert!(tally.get("Complete").is_some_and(|&n| n > 50), "{tally:?}");
}

/// The lowering's error for `source`.
fn lowering_error(source: &str) -> String {
    match csp_flatzinc::lower(&csp_flatzinc::parse(source).unwrap()) {
        Ok(_) => panic!("lowered:\n{source}"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn the_mutation_tests_errors_read_well() {
    // A constant beyond the engine's range was said of the fixed variable it
    // was to become (`variable x1`), which the file does not have.
    let error = lowering_error("var 1..3: x;\nconstraint int_times(x, 9223372036854775807, 1);\nsolve satisfy;\n");
    assert_eq!(
        error,
        "line 2: constraint int_times: the constant 9223372036854775807 is outside the supported range -2^62..=2^62"
    );
    // Counts in words: not `1 arguments, expected [2]`.
    let error = lowering_error("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;\n");
    assert_eq!(error, "line 2: constraint int_le: 1 argument, expected 2");
    let error = lowering_error("var 1..3: x;\nconstraint array_int_element(x, [1, 2]);\nsolve satisfy;\n");
    assert!(error.ends_with(": 2 arguments, expected 3"), "{error}");
    let error = lowering_error("array [1..2] of var 1..3: a = [1];\nsolve satisfy;\n");
    assert_eq!(error, "line 1: array a has 1 element, its type says 2");
}
