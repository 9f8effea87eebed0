//! Every command of `README.md` and `docs/*.md` runs as written, and every
//! transcript shows what its command prints (`csp_cli::documented`; the
//! convention for authors is in docs/tools.md). The tools run in-process; the
//! commands of a gallery example are run by that example's own tests, and this
//! test checks that the example has such a test. The longest documents have
//! a test each, so that the harness runs them side by side.
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

/// The documents whose commands take longest (docs/compare.md's `sudoku
/// compare` on 500 puzzles is most of this binary's time), each checked by
/// a test of its own, so that the harness runs them side by side; every
/// other document is checked by [`the_other_documents_commands_run_as_written`].
const ALONE: [&str; 3] = ["docs/compare.md", "docs/sudoku.md", "docs/xcsp3.md"];

/// Runs the commands of the documents `wanted` selects (by their path from
/// the workspace root) and asserts that they run as written.
fn assert_documented_commands_run(wanted: impl Fn(&Path) -> bool) {
    let checked = documented::check(&root(), &TOOLS, |command| wanted(&command.file))
        .expect("the documents and a scratch folder");
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
    assert!(!checked.ran.is_empty(), "the documents' commands were found: {:?}", checked.ran);
}

#[test]
fn the_commands_of_compare_md_run_as_written() {
    assert_documented_commands_run(|file| file == Path::new(ALONE[0]));
}

#[test]
fn the_commands_of_sudoku_md_run_as_written() {
    assert_documented_commands_run(|file| file == Path::new(ALONE[1]));
}

#[test]
fn the_commands_of_xcsp3_md_run_as_written() {
    assert_documented_commands_run(|file| file == Path::new(ALONE[2]));
}

#[test]
fn the_other_documents_commands_run_as_written() {
    assert_documented_commands_run(|file| !ALONE.iter().any(|alone| file == Path::new(alone)));
}

/// The tests above check every document once: those of [`ALONE`] exist and
/// have commands to run (a renamed one would otherwise be checked by no
/// test), and the documents hold as many commands as when one test ran them.
#[test]
fn every_document_is_checked_by_one_test() {
    let commands = documented::commands(&root()).expect("the documents");
    for alone in ALONE {
        let run = commands.iter().filter(|c| c.run && c.file == Path::new(alone)).count();
        assert!(run > 0, "{alone} has no command to run: a test of its own checks nothing");
    }
    let alone = |file: &Path| ALONE.iter().filter(|alone| file == Path::new(alone)).count();
    assert!(commands.iter().all(|c| alone(&c.file) <= 1));
    assert!(commands.iter().filter(|c| c.run).count() >= 10, "the documents' commands were found: {commands:?}");
}
