//! fzn-csp end to end: the shipped FlatZinc fixtures byte for byte, every
//! builtin against brute force, hostile input, and MiniZinc itself (skipped
//! with a message when `minizinc` is not installed).

mod builtins;
mod fixtures;
mod minizinc;
mod robustness;
#[path = "../../../csp/tests/support/text_mutation.rs"]
mod text_mutation;

use std::path::PathBuf;

/// A file of `tests/fixtures/`.
fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("fixtures").join(name)
}

/// Runs fzn-csp in-process.
fn run(args: &[&str]) -> csp_app::Captured {
    let args: Vec<&str> = std::iter::once("fzn-csp").chain(args.iter().copied()).collect();
    csp_app::capture(csp_flatzinc::tool::main, args, "")
}
