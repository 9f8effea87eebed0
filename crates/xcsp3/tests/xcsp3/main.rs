//! csp-xcsp end to end: the shipped corpus (every instance solves, agrees
//! with ACE's recorded answers, and each solution passes the official
//! XCSP3 solution checker when Java and pycsp3's ACE jar are there), the
//! lowering against brute force on tiny instances, errors with their line
//! and column, hostile input, and the commands of docs/xcsp3.md.

mod brute_force;
mod corpus;
mod docs;
mod errors;
mod robustness;

use std::path::{Path, PathBuf};

/// The corpus folder.
fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
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
fn run(args: &[&str], stdin: &str) -> csp_cli::app::Captured {
    let args: Vec<&str> = std::iter::once("csp-xcsp").chain(args.iter().copied()).collect();
    csp_cli::app::capture(csp_xcsp3::tool::main, args, stdin)
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
