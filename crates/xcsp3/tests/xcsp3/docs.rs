//! docs/xcsp3.md runs as written: its `csp-xcsp` commands, in-process, with
//! the runner of every document (`csp_cli::documented`; the convention is in
//! docs/tools.md). csp-cli's own document test leaves this file to this one,
//! since csp-cli cannot call csp-xcsp (csp-xcsp3 depends on csp-cli).
//!
//! After a deliberate change of output: `CSP_DOCS_BLESS=1 cargo test -p
//! csp-xcsp3 --test xcsp3 docs`, then review the diff of the document.

use std::path::Path;

use csp_cli::app::Tool;
use csp_cli::documented;

/// The document this test runs.
const DOCUMENT: &str = "docs/xcsp3.md";

#[test]
fn the_xcsp3_document_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tools: [(&str, Tool); 1] = [("csp-xcsp", csp_xcsp3::tool::main)];
    let checked = documented::check(&root, &tools, |command| command.file == Path::new(DOCUMENT))
        .expect("the documents and a scratch folder");
    for skipped in &checked.skipped {
        println!("skipped: {skipped}");
    }
    for (place, took) in &checked.ran {
        println!("{:>8.2} s  {place}", took.as_secs_f64());
    }
    assert!(checked.elsewhere.is_empty(), "commands of other programs: {:?}", checked.elsewhere);
    let failures = &checked.failures;
    assert!(failures.is_empty(), "{} documented commands fail:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(checked.ran.len() >= 6, "the document's commands were found: {:?}", checked.ran);
}
