//! The XCSP3 reader and lowering: against brute force on tiny instances,
//! errors with their line and column, and hostile input. The tool csp-xcsp
//! (the shipped corpus solved and checked against ACE, docs/xcsp3.md) is
//! tested in csp-cli, where it lives (`crates/cli/tests/tools/xcsp/`).

mod brute_force;
mod errors;
mod reification;
mod robustness;
mod symbolic;

mod corpus_listing;
#[path = "../../../csp/tests/support/line_mutation.rs"]
mod line_mutation;
#[path = "../../../csp/tests/support/text_mutation.rs"]
mod text_mutation;

use corpus_listing::corpus_files;
