//! The commands of the documentation, as a test runs them: every command of
//! `README.md` and `docs/*.md`, so that what the documents say cannot drift
//! from what the tools do.
//!
//! The convention (`docs/tools.md` says it for authors):
//!
//! - a ` ```sh ` (or `bash`, `shell`) block holds commands, one per line (`\`
//!   continues a line, `#` starts a comment); each must run as written from
//!   the workspace root and exit with 0 or 1;
//! - a ` ```text ` (or `console`) block whose lines start with `$ ` is a
//!   transcript: each `$ ` line is a command and the lines under it its
//!   output, which must [match](output_matches) what the command prints (stdout
//!   unless redirected, then stderr; a line `...` stands for any lines); a
//!   `$ ` line with nothing under it is only run;
//! - a block whose info string carries the word `not-run` is not run.
//!
//! [`commands`] reads the documents; a [`Runner`] runs a command: the tools it
//! is given in-process (through [`crate::app::capture`]'s machinery), other
//! programs of a pipeline in `sh`, `cargo build|test|bench|install` checked
//! for the names they use but not run, in a scratch folder that mirrors the
//! workspace, so that nothing is written into the source tree. [`bless`]
//! writes actual outputs back into the transcripts.
//!
//! The test of the tools is `crates/cli/tests/docs.rs`; the gallery examples
//! run the commands that name them in their own tests (an example is a program
//! of its own, which the tools' test cannot call).

mod matching;
mod parse;
mod run;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::app::Tool;

pub use matching::{normalize, output_matches};
pub use parse::{Pipeline, parse_markdown};
pub use run::{Program, Ran, Runner};

/// A command found in a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocCommand {
    /// The document, relative to the workspace root.
    pub file: PathBuf,
    /// The line of the command (counting from 1); its first line when continued.
    pub line: usize,
    /// The command as written, continuation lines joined, comments removed.
    pub text: String,
    /// For a transcript: the output it shows.
    pub output: Option<Output>,
    /// Whether it is to be run (its block is not marked `not-run`).
    pub run: bool,
}

/// The output a transcript shows under a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// The lines, without their line ends (an empty list: output not shown).
    pub lines: Vec<String>,
    /// The line of the document where they start (counting from 1).
    pub first_line: usize,
}

impl DocCommand {
    /// `docs/queens.md:12`, for messages.
    pub fn location(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }
}

/// The documents whose commands are tested: `README.md` and `docs/*.md`, in
/// order of name, relative to `root`.
pub fn documents(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))?
        .filter_map(Result::ok)
        .map(|entry| PathBuf::from("docs").join(entry.file_name()))
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    Ok(files)
}

/// Every command of the documents under `root` ([`documents`]), in order.
pub fn commands(root: &Path) -> std::io::Result<Vec<DocCommand>> {
    let mut all = Vec::new();
    for file in documents(root)? {
        let text = std::fs::read_to_string(root.join(&file))?;
        all.extend(parse_markdown(&file, &text));
    }
    Ok(all)
}

/// Writes `actual` outputs into the transcripts they belong to, in place of
/// what the documents show: `(command, output)` pairs, output as printed.
/// A line that still [matches](output_matches) is kept as the document has it (its
/// times measured on a release build, say); commands whose transcript shows
/// no output are left alone, and so are transcripts that leave lines out
/// (`...`) and still match.
pub fn bless(root: &Path, results: &[(DocCommand, String)]) -> std::io::Result<()> {
    let mut files: Vec<&Path> = results.iter().map(|(command, _)| command.file.as_path()).collect();
    files.sort();
    files.dedup();
    for file in files {
        let path = root.join(file);
        let text = std::fs::read_to_string(&path)?;
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        // From the bottom up, so that the line numbers above stay true.
        let mut edits: Vec<(&Output, &String)> = results
            .iter()
            .filter(|(command, _)| command.file == file)
            .filter_map(|(command, actual)| command.output.as_ref().map(|output| (output, actual)))
            .filter(|(output, _)| !output.lines.is_empty())
            .collect();
        edits.sort_by_key(|(output, _)| std::cmp::Reverse(output.first_line));
        for (output, actual) in edits {
            // A transcript that leaves lines out and still matches stays as
            // written; one that no longer matches gets the whole output, to
            // be cut again by hand.
            let elided = output.lines.iter().any(|line| line.trim() == matching::ELISION);
            if elided && output_matches(&output.lines, actual).is_ok() {
                continue;
            }
            let start = output.first_line - 1;
            let new: Vec<String> = normalize(actual)
                .lines()
                .enumerate()
                .map(|(i, line)| match output.lines.get(i) {
                    Some(shown) if output_matches(std::slice::from_ref(shown), line).is_ok() => shown.clone(),
                    _ => line.to_string(),
                })
                .collect();
            lines.splice(start..start + output.lines.len(), new);
        }
        let mut joined = lines.join("\n");
        if text.ends_with('\n') {
            joined.push('\n');
        }
        if joined != text {
            std::fs::write(&path, joined)?;
        }
    }
    Ok(())
}

/// The environment variable that makes [`check`] write the actual outputs
/// into the transcripts instead of comparing them.
pub const BLESS: &str = "CSP_DOCS_BLESS";

/// What [`check`] found.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// What does not run as written, or prints something else than shown:
    /// one message per command, with its place in the documents.
    pub failures: Vec<String>,
    /// Commands not run, and why (shared data that is not there).
    pub skipped: Vec<String>,
    /// Commands of gallery examples the runner did not have: the example, and
    /// where the command is.
    pub elsewhere: Vec<(String, String)>,
    /// Commands run, with the time each took.
    pub ran: Vec<(String, Duration)>,
}

/// Runs every command of the documents under `root` that `wanted` selects and
/// is not marked `not-run` (of those, only the names are checked:
/// [`Runner::check`]), with `tools` (see [`Runner::new`]), and reports what
/// does not run as written. With [`BLESS`] set in the environment, the
/// actual outputs are written into the transcripts instead of being compared.
pub fn check(root: &Path, tools: &[(&str, Tool)], wanted: impl Fn(&DocCommand) -> bool) -> std::io::Result<Checked> {
    let runner = Runner::new(root, tools)?;
    let bless_wanted = std::env::var_os(BLESS).is_some_and(|value| !value.is_empty());
    let mut checked = Checked::default();
    let mut outputs = Vec::new();
    for command in commands(root)?.into_iter().filter(|c| wanted(c)) {
        let place = format!("{}: `{}`", command.location(), command.text);
        if !command.run {
            // Not run, but its programs must exist: examples, benches, packages.
            if let Err(message) = runner.check(&command) {
                checked.failures.push(format!("{place}: names something that does not exist: {message}"));
            }
            continue;
        }
        let began = Instant::now();
        let ran = runner.run(&command);
        match ran {
            Err(message) => checked.failures.push(format!("{place}: cannot be run as written: {message}")),
            Ok(Ran::Skipped(reason)) => checked.skipped.push(format!("{place}: {reason}")),
            Ok(Ran::Elsewhere(example)) => checked.elsewhere.push((example, place)),
            Ok(Ran::Checked) => {}
            Ok(Ran::Done { codes, shown }) => {
                checked.ran.push((place.clone(), began.elapsed()));
                let shows_output = command.output.as_ref().is_some_and(|output| !output.lines.is_empty());
                if shows_output {
                    let expected = &command.output.as_ref().expect("a transcript").lines;
                    if let Err(difference) = output_matches(expected, &shown) {
                        if !bless_wanted {
                            checked.failures.push(format!(
                                "{place}: prints something else than the document shows ({difference}); \
                                 after a deliberate change, regenerate with {BLESS}=1"
                            ));
                        }
                    }
                    outputs.push((command, shown));
                } else if codes.iter().any(|&code| !(0..=1).contains(&code)) {
                    checked.failures.push(format!("{place}: exit status {codes:?}:\n{}", normalize(&shown)));
                }
            }
        }
    }
    if bless_wanted {
        bless(root, &outputs)?;
    }
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bless_rewrites_what_differs_and_keeps_what_still_matches() {
        let root = std::env::temp_dir().join(format!("csp-docs-bless-{}", std::process::id()));
        std::fs::create_dir_all(root.join("docs")).unwrap();
        let text = "# T\n\n```text\n$ queens 8 --count\n92 solutions (N = 8)\ntime 0.51 ms\n$ queens 3\n$ queens 4\n...\nend\n```\nend\n";
        std::fs::write(root.join("docs/t.md"), text).unwrap();
        let commands = parse_markdown(Path::new("docs/t.md"), text);
        let results = vec![
            (commands[0].clone(), "93 solutions (N = 8)\ntime 12.5 ms\nextra\n".to_string()),
            (commands[1].clone(), "no solution\n".to_string()),
            (commands[2].clone(), "a\nb\nend\n".to_string()),
        ];
        bless(&root, &results).unwrap();
        let blessed = std::fs::read_to_string(root.join("docs/t.md")).unwrap();
        std::fs::remove_dir_all(&root).unwrap();
        // The time still matches and keeps the document's number; a command shown
        // without output stays so.
        assert_eq!(
            blessed,
            "# T\n\n```text\n$ queens 8 --count\n93 solutions (N = 8)\ntime 0.51 ms\nextra\n$ queens 3\n$ queens 4\n...\nend\n```\nend\n"
        );
    }
}
