//! Every command of `README.md` and `docs/*.md` runs as written, and every
//! transcript shows what its command prints (`csp_cli::documented`; the
//! convention for authors is in docs/tools.md). The tools run in-process; the
//! commands of a gallery example are run by that example's own tests, and this
//! test checks that the example has such a test.
//!
//! After a deliberate change of output: `CSP_DOCS_BLESS=1 cargo test -p csp-cli
//! --test docs`, then review the diff of the documents.

use std::path::{Path, PathBuf};

use csp_cli::app::Tool;
use csp_cli::{documented, lab, queens, sudoku, xcsp};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The tools, under every name the documents call them by.
const TOOLS: [(&str, Tool); 7] = [
    ("sudoku", sudoku::main),
    ("csp-sudoku", sudoku::main),
    ("queens", queens::main),
    ("csp-queens", queens::main),
    ("lab", lab::main),
    ("csp-lab", lab::main),
    ("csp-xcsp", xcsp::main),
];

/// What an example's tests call to run the commands that name it.
const EXAMPLE_CHECK: &str = "assert_documented_commands_run";

#[test]
fn every_documented_command_runs_as_written() {
    let checked = documented::check(&root(), &TOOLS, |_| true).expect("the documents and a scratch folder");
    for skipped in &checked.skipped {
        println!("skipped: {skipped}");
    }
    for (place, took) in &checked.ran {
        println!("{:>8.2} s  {place}", took.as_secs_f64());
    }
    let mut failures = checked.failures.clone();
    // The gallery examples run their own commands: each one named must have the test that does.
    for (example, place) in &checked.elsewhere {
        let dir = root().join("examples");
        let source = std::fs::read_to_string(dir.join(format!("{example}.rs")))
            .or_else(|_| std::fs::read_to_string(dir.join(example).join("main.rs")))
            .unwrap_or_default();
        if !source.contains(EXAMPLE_CHECK) {
            failures.push(format!(
                "{place}: the example '{example}' has no test that runs its documented commands: add \
                 `#[test] fn documented_commands_run_as_written() {{ support::{EXAMPLE_CHECK}(\"{example}\", TOOL) }}`"
            ));
        }
    }
    assert!(failures.is_empty(), "{} documented commands fail:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(checked.ran.len() >= 10, "the documents' commands were found: {:?}", checked.ran);
}
