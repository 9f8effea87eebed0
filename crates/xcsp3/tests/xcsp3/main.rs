//! The XCSP3 reader and lowering: against brute force on tiny instances,
//! errors with their line and column, and hostile input. The tool csp-xcsp
//! (the shipped corpus solved and checked against ACE, docs/xcsp3.md) is
//! tested in csp-cli, where it lives (`crates/cli/tests/tools/xcsp/`).

mod brute_force;
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
