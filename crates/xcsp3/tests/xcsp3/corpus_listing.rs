//! The shipped corpus's folder and instances. csp-cli's tests of the
//! csp-xcsp tool read the same corpus and include this file (`#[path]`), so
//! the listing is written once.

use std::path::{Path, PathBuf};

/// The corpus folder, csp-xcsp3's `corpus/`.
pub(crate) fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../xcsp3/corpus")
}

/// The corpus's instances (`*.xml`), sorted by name.
pub(crate) fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("the corpus folder")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "xml"))
        .collect();
    files.sort();
    files
}
