//! Reading the documents: fenced code blocks into [`DocCommand`]s, and a
//! command line into a [`Pipeline`] (the small part of the shell language
//! the documents use: words, quotes, `|`, `<`, `>`, `2>`, `2>&1`).

use std::path::Path;

use super::{DocCommand, Output};

/// The info-string word that keeps a block from being run.
const NOT_RUN: &str = "not-run";

/// The commands of one Markdown document called `file` (relative to the
/// workspace root): every line of a `sh` block, every `$ ` line of a `text`
/// or `console` block (with the output under it).
pub fn parse_markdown(file: &Path, text: &str) -> Vec<DocCommand> {
    let mut commands = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].trim_start().strip_prefix("```") else {
            i += 1;
            continue;
        };
        let fence_line = i;
        let end = (i + 1..lines.len()).find(|&j| lines[j].trim() == "```").unwrap_or(lines.len());
        let words: Vec<&str> = info.split([' ', ',', '\t']).filter(|w| !w.is_empty()).collect();
        let run = !words.contains(&NOT_RUN);
        let body = (fence_line + 1..end).map(|j| (j + 1, lines[j]));
        match words.first().copied() {
            Some("sh" | "bash" | "shell") => commands.extend(script(file, body, run)),
            Some("text" | "console") => commands.extend(transcript(file, body, run)),
            _ => {}
        }
        i = end + 1;
    }
    commands
}

/// The commands of a `sh` block, numbered lines in.
fn script<'a>(file: &Path, body: impl Iterator<Item = (usize, &'a str)>, run: bool) -> Vec<DocCommand> {
    let mut commands = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (number, line) in body {
        let (start, mut text) = pending.take().unwrap_or((number, String::new()));
        let line = strip_comment(line);
        match line.trim_end().strip_suffix('\\') {
            Some(continued) => {
                text.push_str(continued.trim_end());
                text.push(' ');
                pending = Some((start, text));
            }
            None => {
                text.push_str(line.trim());
                let text = text.trim().to_string();
                if !text.is_empty() {
                    commands.push(DocCommand { file: file.to_path_buf(), line: start, text, output: None, run });
                }
            }
        }
    }
    commands
}

/// The commands of a transcript: `$ ` lines, each with the lines under it.
fn transcript<'a>(file: &Path, body: impl Iterator<Item = (usize, &'a str)>, run: bool) -> Vec<DocCommand> {
    let mut commands: Vec<DocCommand> = Vec::new();
    let mut continuing = false;
    for (number, line) in body {
        if continuing {
            let command = commands.last_mut().expect("a command is being continued");
            let text = strip_comment(line);
            continuing = text.trim_end().ends_with('\\');
            command.text.push(' ');
            command.text.push_str(text.trim().trim_end_matches('\\').trim());
            command.output.as_mut().expect("a transcript's output").first_line = number + 1;
            continue;
        }
        if let Some(text) = line.strip_prefix("$ ") {
            let text = strip_comment(text);
            continuing = text.trim_end().ends_with('\\');
            commands.push(DocCommand {
                file: file.to_path_buf(),
                line: number,
                text: text.trim().trim_end_matches('\\').trim().to_string(),
                output: Some(Output { lines: Vec::new(), first_line: number + 1 }),
                run,
            });
        } else if let Some(command) = commands.last_mut() {
            command.output.as_mut().expect("a transcript's output").lines.push(line.to_string());
        }
    }
    commands
}

/// The line without its comment: from an unquoted `#` that starts a word.
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// A command line: programs joined by `|`, with the redirections of the whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pipeline {
    /// The programs, each as its words (quotes removed).
    pub stages: Vec<Vec<String>>,
    /// `< FILE`: the first program's input.
    pub input: Option<String>,
    /// `> FILE`: where the last program's output goes.
    pub output: Option<String>,
    /// `2> FILE`: where error output goes.
    pub errors: Option<String>,
    /// `2>&1`: error output goes with the output.
    pub errors_to_output: bool,
}

impl Pipeline {
    /// Parses a command line, or says which part of the shell language it
    /// uses that is not supported (`&&`, `;`, `$`, backquotes, `>>`, ...).
    pub fn parse(text: &str) -> Result<Pipeline, String> {
        #[derive(PartialEq)]
        enum Redirect {
            Input,
            Output,
            Errors,
        }
        let mut pipeline = Pipeline { stages: vec![Vec::new()], ..Pipeline::default() };
        let mut redirect: Option<Redirect> = None;
        let mut chars = text.chars().peekable();
        loop {
            while chars.next_if(|c| c.is_whitespace()).is_some() {}
            let Some(&c) = chars.peek() else { break };
            let word = match c {
                '|' => {
                    chars.next();
                    if chars.peek() == Some(&'|') || redirect.is_some() {
                        return Err("'||' and a '|' after a redirection are not supported".into());
                    }
                    pipeline.stages.push(Vec::new());
                    continue;
                }
                '<' | '>' => {
                    chars.next();
                    if chars.peek() == Some(&'>') || chars.peek() == Some(&'&') || redirect.is_some() {
                        return Err(format!("'{c}{}' is not supported", chars.peek().copied().unwrap_or(' ')));
                    }
                    redirect = Some(if c == '<' { Redirect::Input } else { Redirect::Output });
                    continue;
                }
                ';' | '&' | '`' | '$' | '(' | ')' => return Err(format!("'{c}' is not supported")),
                _ => read_word(&mut chars)?,
            };
            if word == "2>&1" {
                pipeline.errors_to_output = true;
                continue;
            }
            if let Some(file) = word.strip_prefix("2>") {
                if redirect.is_some() {
                    return Err("a redirection without a file".into());
                }
                match file {
                    "" => redirect = Some(Redirect::Errors),
                    file => pipeline.errors = Some(file.to_string()),
                }
                continue;
            }
            match redirect.take() {
                Some(Redirect::Input) => pipeline.input = Some(word),
                Some(Redirect::Output) => pipeline.output = Some(word),
                Some(Redirect::Errors) => pipeline.errors = Some(word),
                None => pipeline.stages.last_mut().expect("a stage").push(word),
            }
        }
        if redirect.is_some() {
            return Err("a redirection without a file".into());
        }
        if pipeline.stages.iter().any(Vec::is_empty) {
            return Err("an empty command in the pipeline".into());
        }
        Ok(pipeline)
    }
}

/// One word: up to unquoted whitespace or an operator; quotes removed.
fn read_word(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Result<String, String> {
    let mut word = String::new();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => break,
            '|' | '<' | ';' | '`' | '(' | ')' => break,
            '>' if word != "2" => break,
            '&' if word != "2>" => break,
            '$' => return Err("'$' (a variable or a substitution) is not supported".into()),
            '\'' => {
                chars.next();
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("an unterminated quote".into()),
                    }
                }
                continue;
            }
            '"' => {
                chars.next();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("an unterminated quote".into()),
                        },
                        Some('$' | '`') => return Err("'$' and '`' are not supported".into()),
                        Some(c) => word.push(c),
                        None => return Err("an unterminated quote".into()),
                    }
                }
                continue;
            }
            '\\' => {
                chars.next();
                if let Some(c) = chars.next() {
                    word.push(c);
                }
                continue;
            }
            c => word.push(c),
        }
        chars.next();
    }
    Ok(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pipeline(text: &str) -> Pipeline {
        Pipeline::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn words_quotes_pipes_and_redirections() {
        let p = pipeline(r#"echo '4..5 # x' | csp-sudoku trace --puzzle "A + B" > out.txt 2>&1"#);
        assert_eq!(p.stages, [vec!["echo", "4..5 # x"], vec!["csp-sudoku", "trace", "--puzzle", "A + B"]]);
        assert_eq!((p.output.as_deref(), p.errors_to_output), (Some("out.txt"), true));
        let p = pipeline("grep -v '^#' ../data/17.txt|head -500 >17-500.txt");
        assert_eq!(p.stages, [vec!["grep", "-v", "^#", "../data/17.txt"], vec!["head", "-500"]]);
        assert_eq!(p.output.as_deref(), Some("17-500.txt"));
        let p = pipeline("queens < in.txt 2> errors.txt");
        assert_eq!((p.input.as_deref(), p.errors.as_deref()), (Some("in.txt"), Some("errors.txt")));
        assert_eq!(pipeline(r"a\ b").stages, [vec!["a b"]]);
        for bad in ["a && b", "a; b", "echo $HOME", "a >> f", "a |", "a >", "echo 'x", "a || b", "x=$(y)"] {
            assert!(Pipeline::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn scripts_transcripts_and_blocks_not_run() {
        let doc = "text\n\n```sh\ncargo run --example queens   # the eight queens\ncsp-lab sweep \\\n  --samples 2\n\n```\n\
                   ```text\n$ queens 3 --count\n0 solutions (N = 3)\n$ queens 1\n```\n```sh not-run\ncargo bench\n```\n\
                   ```text\nno dollar here\n```\n```rust\nlet x = 1; // $ not a command\n```\n";
        let commands = parse_markdown(Path::new("d.md"), doc);
        let summary: Vec<(usize, &str, bool)> = commands.iter().map(|c| (c.line, c.text.as_str(), c.run)).collect();
        assert_eq!(
            summary,
            [
                (4, "cargo run --example queens", true),
                (5, "csp-lab sweep --samples 2", true),
                (10, "queens 3 --count", true),
                (12, "queens 1", true),
                (15, "cargo bench", false),
            ]
        );
        assert_eq!(commands[0].output, None);
        assert_eq!(commands[2].output, Some(Output { lines: vec!["0 solutions (N = 3)".into()], first_line: 11 }));
        assert_eq!(commands[3].output, Some(Output { lines: vec![], first_line: 13 }));
        assert_eq!(commands[2].location(), "d.md:10");
    }

    #[test]
    fn a_transcript_command_may_be_continued() {
        let doc = "```text\n$ lab sweep \\\n    --samples 2\nout\n```\n";
        let commands = parse_markdown(Path::new("d.md"), doc);
        assert_eq!(commands[0].text, "lab sweep --samples 2");
        assert_eq!(commands[0].output, Some(Output { lines: vec!["out".into()], first_line: 4 }));
    }
}
