//! csp-xcsp end to end: the shipped corpus of csp-xcsp3 (every instance
//! solves, agrees with ACE's recorded answers, and each solution passes the
//! official XCSP3 solution checker when Java and pycsp3's ACE jar are
//! there), and what the tool says of files it cannot take. docs/xcsp3.md is
//! run by `tests/docs.rs` with the other documents.

mod corpus;
mod errors;
mod random;

#[path = "../../../../xcsp3/tests/xcsp3/corpus_listing.rs"]
mod corpus_listing;

use corpus_listing::{corpus_dir, corpus_files};

use csp_cli::app::{self, Captured};

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
