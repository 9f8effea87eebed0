//! `lab compare` on model files (XCSP3 and FlatZinc, told by their
//! extension, or on standard input by their text), and `csp-xcsp compare`, the same path with every file read as
//! XCSP3: the configurations compared with the lab's report, files left out
//! with a note, and bad files refused with an error naming the file and the
//! place, exit status 2.

use std::path::{Path, PathBuf};

use csp_cli::app::{self, Captured};
use csp_cli::{lab, xcsp};
use serde_json::Value;

fn lab(args: &[&str]) -> Captured {
    app::capture(lab::main, std::iter::once("lab").chain(args.iter().copied()), "")
}

fn xcsp(args: &[&str]) -> Captured {
    app::capture(xcsp::main, std::iter::once("csp-xcsp").chain(args.iter().copied()), "")
}

/// A file of csp-xcsp3's corpus.
fn xml(name: &str) -> String {
    path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../xcsp3/corpus").join(name))
}

/// A FlatZinc fixture of csp-flatzinc's tests.
fn fzn(name: &str) -> String {
    path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../flatzinc/tests/fixtures").join(name))
}

fn path(path: PathBuf) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}

/// Writes `text` to a scratch file named `name` (prefixed with the process id) and returns its path.
fn scratch(name: &str, text: &str) -> String {
    let file = std::env::temp_dir().join(format!("csp-model-files-{}-{name}", std::process::id()));
    std::fs::write(&file, text).expect("a scratch file");
    path(file)
}

/// The per-instance measurements of a JSON report: (config, instance, solved, solutions).
fn measurements(json: &str) -> Vec<(String, String, u64, u64)> {
    let report: Value = serde_json::from_str(json).expect("a JSON report");
    report["measurements"]
        .as_array()
        .expect("measurements")
        .iter()
        .map(|m| {
            let text = |key: &str| m[key].as_str().expect(key).to_string();
            let count = |key: &str| m[key].as_u64().expect(key);
            (text("config"), text("instance"), count("solved"), count("solutions"))
        })
        .collect()
}

#[test]
fn lab_compare_counts_eight_queens_alike_in_xcsp3_and_flatzinc() {
    let (queens_xml, queens_fzn) = (xml("queens-8.xml"), fzn("queens.fzn"));
    let args = ["compare", "--configs", "fc+mrv,mac+domwdeg", "--goal", "count", "--format", "json"];
    let out = lab(&[&args[..], &[queens_xml.as_str(), queens_fzn.as_str()]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let found = measurements(&out.stdout);
    assert_eq!(found.len(), 4, "two configurations on two files: {found:?}");
    for (config, instance, solved, solutions) in &found {
        assert!(instance == "queens-8" || instance == "queens", "{instance}");
        assert_eq!((*solved, *solutions), (1, 92), "{config} on {instance}");
    }

    // The text table is the lab's: one row per configuration, summed over the files.
    let out = lab(&["compare", "--configs", "fc+mrv,mac+domwdeg", "--goal", "count", &queens_xml, &queens_fzn]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("2 instances (sums); counting the solutions"), "{}", out.stdout);
    let rows = super::common::table_rows(&out.stdout);
    assert_eq!(rows.len(), 2, "{}", out.stdout);
    assert!(rows.iter().all(|row| row["solutions"] == "184"), "{}", out.stdout);
}

#[test]
fn lab_compare_optimizes_the_files_objectives_and_learns_side_by_side() {
    let (knapsack, golomb) = (fzn("knapsack01.fzn"), xml("golomb-6-mini.xml"));
    let args = ["compare", "--configs", "mac+mrv", "--learn", "--goal", "optimize", "--format", "json"];
    let out = lab(&[&args[..], &[knapsack.as_str(), golomb.as_str()]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let found = measurements(&out.stdout);
    let runs: Vec<(&str, &str)> = found.iter().map(|m| (m.1.as_str(), m.0.as_str())).collect();
    assert_eq!(
        runs,
        [
            ("knapsack01", "mac+mrv+matching"),
            ("knapsack01", "mac+learn+mrv+matching"),
            ("golomb-6-mini", "mac+mrv+matching"),
            ("golomb-6-mini", "mac+learn+mrv+matching")
        ]
    );
    assert!(found.iter().all(|m| m.2 == 1), "every optimum proved: {found:?}");
    assert!(!out.stderr.contains("objective is ignored"), "{}", out.stderr);

    // Without --goal optimize the objectives are ignored, with a note (not under -q).
    let out = lab(&["compare", "--configs", "mac+mrv", &knapsack, &golomb]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("note: knapsack01: the objective is ignored"), "{}", out.stderr);
    assert!(out.stderr.contains("note: golomb-6-mini: the objective is ignored"), "{}", out.stderr);
    let out = lab(&["compare", "-q", "--configs", "mac+mrv", &knapsack, &golomb]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
}

#[test]
fn files_the_front_ends_cannot_take_are_left_out_with_a_note() {
    let float = scratch("float.fzn", "var 1.0..3.0: x;\nsolve satisfy;\n");
    let inconsistent = scratch("inconsistent.fzn", "var 1..3: x;\nconstraint int_le(3, 2);\nsolve satisfy;\n");
    let knapsack_xml = scratch(
        "knapsack.xml",
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables> <var id=\"x\"> 0..3 </var> </variables>\n\
         <constraints> <knapsack/> </constraints>\n</instance>\n",
    );
    let queens = fzn("queens.fzn");
    let out = lab(&["compare", "--configs", "fc+mrv", &float, &inconsistent, &knapsack_xml, &queens]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("instance 'queens'"), "{}", out.stdout);
    let note = |name: &str, reason: &str| {
        let expected = format!("note: csp-model-files-{}-{name} left out: {reason}", std::process::id());
        assert!(out.stderr.contains(&expected), "{expected}\n{}", out.stderr);
    };
    note("float", "line 1: this model uses float variables (x)");
    note("inconsistent", "unsatisfiable before search");
    note("knapsack", "line 3, column 15: the constraint <knapsack> is not supported");
    // With nothing left, nothing is compared.
    let out = lab(&["compare", &float]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("error: there are no instances to compare"), "{}", out.stderr);
    for file in [float, inconsistent, knapsack_xml] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn bad_files_are_refused_with_the_file_and_the_place_and_exit_two() {
    let syntax = scratch("syntax.fzn", "var 1..3: x;\nconstraint int_lt(x, ;\nsolve satisfy;\n");
    let undeclared = scratch("undeclared.fzn", "var 1..3: x;\nconstraint int_lt(x, y);\nsolve satisfy;\n");
    let bad_xml = scratch(
        "bad.xml",
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables> <var id=\"x\"> 0..a </var> </variables>\n</instance>\n",
    );
    let queens = xml("queens-8.xml");
    let cases: [(Vec<&str>, String); 6] = [
        (vec![&syntax], format!("error: {syntax}: line 2, column 22: expected an expression")),
        (vec![&undeclared], format!("error: {undeclared}: line 2, column 22: 'y' is not declared")),
        (vec![&queens, &bad_xml], format!("error: {bad_xml}: line 2, column 13: 'a' is not an integer")),
        (vec!["/nonexistent/model.fzn"], "error: cannot read /nonexistent/model.fzn".to_string()),
        (
            vec!["model.mzn"],
            "error: model.mzn: a MiniZinc model; compile it to FlatZinc first: minizinc -c".to_string(),
        ),
        (vec![&queens, "model.txt"], "error: model.txt: cannot tell the model's format".to_string()),
    ];
    for (files, message) in cases {
        let out = lab(&[&["compare", "--configs", "fc+mrv"][..], &files].concat());
        assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{files:?}: {}", out.stderr);
        assert!(out.stderr.starts_with(&message), "{files:?}: expected {message}\n{}", out.stderr);
    }
    // The batch goes on past a bad file: one run names every bad file, then
    // compares nothing.
    let out = lab(&["compare", "--configs", "fc+mrv", &syntax, &queens, &undeclared, &bad_xml]);
    assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{}", out.stderr);
    let errors: Vec<&str> = out.stderr.lines().filter(|line| line.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 4, "{}", out.stderr);
    for (line, file) in errors.iter().zip([&syntax, &undeclared, &bad_xml]) {
        assert!(line.starts_with(&format!("error: {file}: line 2, column ")), "{file}: {}", out.stderr);
    }
    assert_eq!(errors[3], "error: 3 bad inputs (see above): nothing was compared");
    // No file at all is a usage error.
    let out = lab(&["compare", "--configs", "fc+mrv"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("<FILE>"), "{}", out.stderr);
    for file in [syntax, undeclared, bad_xml] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn standard_input_is_read_in_the_format_its_text_shows() {
    let compare = |stdin: &str| {
        let args = ["lab", "compare", "--configs", "fc+mrv", "--goal", "count", "--format", "json", "-"];
        app::capture(lab::main, args, stdin)
    };
    for file in [xml("queens-8.xml"), fzn("queens.fzn")] {
        let out = compare(&std::fs::read_to_string(&file).expect("a fixture"));
        assert_eq!(out.code, 0, "{file}: {}", out.stderr);
        let found = measurements(&out.stdout);
        assert_eq!(found.len(), 1, "{file}: {found:?}");
        assert_eq!((found[0].2, found[0].3), (1, 92), "{file}: {found:?}");
    }
    // A bad text is an error naming `-` and the place, in the format it shows.
    let out = compare("var 1..3: x;\nconstraint int_lt(x, ;\nsolve satisfy;\n");
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.starts_with("error: -: line 2, column 22: expected an expression"), "{}", out.stderr);
    let out = compare(
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables> <var id=\"x\"> 0..a </var> </variables>\n</instance>\n",
    );
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.starts_with("error: -: line 2, column 13: 'a' is not an integer"), "{}", out.stderr);
}

#[test]
fn csp_xcsp_compare_is_the_labs_comparison_with_every_file_read_as_xcsp3() {
    let (queens, golomb) = (xml("queens-8.xml"), xml("golomb-6-mini.xml"));
    let args = ["compare", "--configs", "fc+mrv,mac+mrv", "--goal", "count", "--repeats", "1", "--format", "csv"];
    let ours = xcsp(&[&args[..], &[queens.as_str(), golomb.as_str()]].concat());
    let labs = lab(&[&args[..], &[queens.as_str(), golomb.as_str()]].concat());
    assert_eq!((ours.code, labs.code), (0, 0), "{}\n{}", ours.stderr, labs.stderr);
    let without_times = |csv: &str| -> Vec<String> {
        // config,instance,...,max_depth,time_ms,cpu_ms,runs,time_min_ms,time_max_ms,cpu_min_ms,cpu_max_ms:
        // the last seven fields but the fifth from the end are times.
        csv.lines()
            .map(|line| {
                let fields: Vec<&str> = line.split(',').collect();
                [&fields[..fields.len() - 7], &fields[fields.len() - 5..fields.len() - 4]].concat().join(",")
            })
            .collect()
    };
    assert_eq!(without_times(&ours.stdout), without_times(&labs.stdout));
    assert_eq!(ours.stderr, labs.stderr);

    // Any extension is XCSP3 to csp-xcsp: a FlatZinc file is an XML error there.
    let out = xcsp(&["compare", &fzn("queens.fzn")]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("queens.fzn: line 1, column 1"), "{}", out.stderr);
}
