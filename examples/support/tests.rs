//! Helpers for the tests of the gallery examples, included by each example's
//! `tests` module (`#[path = "support/tests.rs"]`): running a tool in-process,
//! counting under every propagation level, the fixtures, and the checks of
//! `--compare` that every example passes.

#![allow(dead_code, reason = "each example uses the helpers it needs")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use csp_cli::app::{self, Captured, Tool};
use csp_cli::documented::{self, DocCommand};

/// Runs `tool` in-process on `args` (without the program name), with an empty stdin.
pub(crate) fn run(tool: Tool, args: &[&str]) -> Captured {
    app::capture(tool, std::iter::once("tool").chain(args.iter().copied()), "")
}

/// The first word a run printed (the count, with `--count`).
pub(crate) fn first_word(run: &Captured) -> &str {
    run.stdout.split_whitespace().next().unwrap_or("")
}

/// A fixture shipped with the examples (`examples/data/`).
pub(crate) fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name).display().to_string()
}

/// The project's shared data (`../shared/data` from the repository root), if present.
pub(crate) fn shared_data() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("skipped: the shared data folder {} is missing", dir.display());
        None
    }
}

/// The propagation levels.
pub(crate) const LEVELS: [&str; 3] = ["none", "forward-checking", "mac"];

/// Counts with `args` under every propagation level; all must give `expected`.
pub(crate) fn assert_count_everywhere(tool: Tool, args: &[&str], expected: u64) {
    for level in LEVELS {
        let mut all = args.to_vec();
        all.extend(["--count", "--propagation", level]);
        let result = run(tool, &all);
        assert_eq!(result.code, 0, "{args:?} under {level}: {}", result.stderr);
        assert_eq!(first_word(&result), expected.to_string(), "{args:?} under {level}: {}", result.stdout);
    }
}

/// The built-in puzzle is solved with statistics, and has one solution (under
/// the default configuration, and with pairwise all-different and MRV).
pub(crate) fn assert_built_in_is_unique(tool: Tool) {
    let result = run(tool, &["--stats"]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stderr.starts_with("stats: nodes"), "statistics on stderr: {}", result.stderr);
    assert!(!result.stdout.contains("stats:"), "stdout holds the answer alone: {}", result.stdout);
    assert_eq!(first_word(&run(tool, &["--count"])), "1");
    assert_eq!(first_word(&run(tool, &["--count", "--alldiff", "pairwise", "--var-order", "mrv"])), "1");
}

/// A puzzle file (a fixture) gives what the built-in puzzle gives: the same puzzle.
pub(crate) fn assert_file_reads_like_the_built_in_one(tool: Tool, name: &str) {
    let from_file = run(tool, &[&fixture(name)]);
    assert_eq!(from_file.code, 0, "{name}: {}", from_file.stderr);
    assert_eq!(from_file.stdout, run(tool, &[]).stdout, "{name}");
}

/// Each malformed fixture exits 2 with `error: FILE: LOCATION...` on stderr.
pub(crate) fn assert_malformed(tool: Tool, cases: &[(&str, &str)]) {
    for (name, location) in cases {
        let file = fixture(name);
        let result = run(tool, &[&file]);
        assert_eq!(result.code, 2, "{name}: {}", result.stdout);
        assert!(result.stderr.contains(&format!("error: {file}: {location}")), "{name}: {}", result.stderr);
    }
}

/// The rows of the aligned comparison tables of `text`, as maps from column name to cell.
pub(crate) fn table_rows(text: &str) -> Vec<HashMap<String, String>> {
    let mut rows = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("config ") {
            continue;
        }
        let header: Vec<String> = line.split_whitespace().map(String::from).collect();
        assert!(lines.next().is_some_and(|rule| rule.starts_with("---")), "a rule under the header: {text}");
        for row in lines.by_ref().take_while(|row| !row.trim().is_empty()) {
            rows.push(header.iter().cloned().zip(row.split_whitespace().map(String::from)).collect());
        }
    }
    rows
}

/// A tool's `--compare` on one puzzle.
pub(crate) struct Case<'a> {
    /// The tool.
    pub(crate) tool: Tool,
    /// The options that say which puzzle.
    pub(crate) puzzle: Vec<&'a str>,
    /// Configurations that finish at once in a debug build.
    pub(crate) configs: &'static str,
    /// The goal `--compare` picks by default.
    pub(crate) goal: &'static str,
    /// The answer all configurations must agree on.
    pub(crate) answer: u64,
}

impl Case<'_> {
    /// The puzzle's options, `--compare`, `--configs` and `extra`.
    fn args<'b>(&'b self, configs: &'b str, extra: &[&'b str]) -> Vec<&'b str> {
        let mut args = self.puzzle.clone();
        args.extend(["--compare", "--configs", configs]);
        args.extend(extra);
        args
    }
}

/// What every tool's `--compare` does: the default goal, one row per
/// configuration, all agreeing on the answer; CSV and JSON with a record per
/// configuration; unknown configuration words refused with exit status 2.
pub(crate) fn check_compare(case: &Case<'_>) {
    let Case { tool, configs, goal, answer, .. } = *case;
    let result = run(tool, &case.args(configs, &[]));
    assert_eq!(result.code, 0, "{}", result.stderr);
    let title = result.stdout.lines().next().unwrap_or("");
    let goal_words = if goal == "count" { "counting the solutions" } else { "the first solution" };
    assert!(title.starts_with("instance '") && title.contains(goal_words), "{}", result.stdout);
    let rows = table_rows(&result.stdout);
    let names: Vec<&str> = rows.iter().map(|row| row["config"].as_str()).collect();
    // Each configuration is printed in full (`fc+mrv` is `fc+mrv+pairwise`).
    let full: Vec<String> = configs.split(',').map(|c| c.parse::<csp::SolveConfig>().unwrap().to_string()).collect();
    assert_eq!(names, full);
    for row in &rows {
        assert_eq!(row["solutions"], answer.to_string(), "{row:?}");
        assert_eq!((row["solved"].as_str(), row["limited"].as_str()), ("1", "0"), "{row:?}");
    }
    assert!(result.stderr.is_empty(), "{}", result.stderr);

    let csv = run(tool, &case.args(configs, &["--format", "csv"]));
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + configs.split(',').count(), "{}", csv.stdout);
    assert!(lines[0].starts_with("config,instance,solved,limited,solutions,nodes,"), "{}", lines[0]);
    let json = run(tool, &case.args(configs, &["--format", "json"]));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(doc["goal"], goal);
    let records = doc["configs"].as_array().unwrap();
    assert_eq!(records.len(), configs.split(',').count());
    for (record, config) in records.iter().zip(&full) {
        assert_eq!(record["config"], config.as_str());
        assert_eq!(record["solutions"], answer, "{record}");
    }

    let result = run(tool, &case.args("fc+mrv,mac+fastest", &[]));
    assert_eq!(result.code, 2, "{}", result.stdout);
    assert!(result.stderr.contains("unknown word 'fastest' in configuration 'mac+fastest'"), "{}", result.stderr);
    assert!(result.stdout.is_empty());
}

/// Runs the commands of `README.md` and `docs/*.md` that run the example `name`
/// (`cargo run --release --example NAME -- ...`) in-process with `tool`, and
/// checks that each runs as written and prints what its transcript shows: the
/// convention of docs/tools.md, as `crates/cli/tests/docs.rs` checks it for
/// the tools (which cannot call an example). `CSP_DOCS_BLESS=1` writes the
/// actual outputs into the transcripts instead.
pub(crate) fn assert_documented_commands_run(name: &str, tool: Tool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let runs_this = |command: &DocCommand| {
        let words: Vec<&str> = command.text.split_whitespace().collect();
        words.windows(2).any(|pair| pair == ["--example", name])
    };
    let checked = documented::check(&root, &[(name, tool)], runs_this).expect("the documents and a scratch folder");
    for skipped in &checked.skipped {
        println!("skipped: {skipped}");
    }
    let failures = &checked.failures;
    assert!(failures.is_empty(), "{} documented commands fail:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(
        !checked.ran.is_empty() || !checked.skipped.is_empty(),
        "no command of the documents runs the example {name}"
    );
}
