//! csp-xcsp end to end: the shipped corpus of csp-xcsp3 (every instance
//! solves, agrees with ACE's recorded answers, and each solution passes the
//! official XCSP3 solution checker when Java and pycsp3's ACE jar are
//! there), and what the tool says of files it cannot take. docs/xcsp3.md is
//! run by `tests/docs.rs` with the other documents.

mod corpus;
mod errors;

use std::path::{Path, PathBuf};

use csp_cli::app::{self, Captured};

/// The corpus folder, csp-xcsp3's.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../xcsp3/corpus")
}

/// The corpus's instances, sorted by name.
fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("the corpus folder")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
}

/// Runs csp-xcsp in-process.
fn run(args: &[&str], stdin: &str) -> Captured {
    let args: Vec<&str> = std::iter::once("csp-xcsp").chain(args.iter().copied()).collect();
    app::capture(csp_cli::xcsp::main, args, stdin)
}

/// The `s` line of an output, without `s `.
fn status(stdout: &str) -> Option<&str> {
    stdout.lines().find_map(|line| line.strip_prefix("s "))
}

/// The instantiation of the `v` line.
fn instantiation(stdout: &str) -> Option<&str> {
    stdout.lines().find_map(|line| line.strip_prefix("v "))
}

/// The last `o` value.
fn objective(stdout: &str) -> Option<i64> {
    stdout.lines().filter_map(|line| line.strip_prefix("o ")).next_back().map(|v| v.parse().expect("an integer"))
}
