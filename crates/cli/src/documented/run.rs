//! Running a documented command: its tools in-process, other programs of a
//! pipeline in `sh`, cargo commands checked, all in a scratch folder that
//! mirrors the workspace.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{DocCommand, Pipeline};
use crate::app::{self, Io, Tool};

/// The cargo subcommands a document may show but a test does not run.
const CARGO_NOT_RUN: [&str; 8] = ["build", "test", "bench", "install", "doc", "fmt", "clippy", "check"];

/// Where shared data lives, relative to the workspace root (`../shared/data`).
const SHARED: &str = "../shared/";

/// What a program of a pipeline is.
#[derive(Clone, Debug)]
pub enum Program {
    /// One of the runner's tools, with its arguments (without the program name).
    Tool {
        /// The name it was called by (`csp-queens`, `queens`, an example's name).
        name: String,
        /// The tool.
        tool: Tool,
        /// The arguments.
        args: Vec<String>,
    },
    /// `cargo run --example NAME` of an example the runner does not have (a
    /// gallery example, which runs the commands naming it in its own tests).
    Example(String),
    /// `cargo build`, `test`, `bench`, `install`, ...: checked, not run.
    Cargo,
    /// Anything else: run by `sh`.
    Other,
}

/// What running a command gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ran {
    /// It ran: the exit status of each program, and what a terminal would show
    /// (the last program's output unless redirected, then every error output).
    Done {
        /// The exit status of each program of the pipeline, in order.
        codes: Vec<i32>,
        /// The output shown.
        shown: String,
    },
    /// A cargo command whose names were checked.
    Checked,
    /// Not run, for this reason (shared data that is not there).
    Skipped(String),
    /// A gallery example's command: its own tests run it.
    Elsewhere(String),
}

/// Runs documented commands with a set of tools, in a scratch folder: a
/// folder of links to the workspace's files (and `../shared` beside it),
/// where redirected output is written. Removed when dropped.
#[derive(Debug)]
pub struct Runner {
    root: PathBuf,
    base: PathBuf,
    scratch: PathBuf,
    tools: Vec<(String, Tool)>,
    packages: Vec<(String, PathBuf)>,
}

impl Runner {
    /// A runner for the workspace at `root` with `tools`, each under the names
    /// a document calls it by (`("csp-queens", queens::main)`, `("queens", ...)`;
    /// `cargo run --example NAME` calls the tool named `NAME`).
    pub fn new(root: &Path, tools: &[(&str, Tool)]) -> std::io::Result<Runner> {
        static RUNNERS: AtomicUsize = AtomicUsize::new(0);
        let root = root.canonicalize()?;
        let base = std::env::temp_dir().join(format!(
            "csp-docs-{}-{}",
            std::process::id(),
            RUNNERS.fetch_add(1, Ordering::Relaxed)
        ));
        let scratch = base.join("ws");
        std::fs::create_dir_all(&scratch)?;
        for entry in std::fs::read_dir(&root)? {
            let entry = entry?;
            let name = entry.file_name();
            if name != "target" && name != ".git" {
                link(&entry.path(), &scratch.join(&name))?;
            }
        }
        if let Ok(shared) = root.join(SHARED).canonicalize() {
            link(&shared, &base.join("shared"))?;
        }
        let packages = packages(&root)?;
        let tools = tools.iter().map(|(name, tool)| (name.to_string(), *tool)).collect();
        Ok(Runner { root, base, scratch, tools, packages })
    }

    /// The scratch folder, the working directory of every command.
    pub fn scratch(&self) -> &Path {
        &self.scratch
    }

    /// What the program with these words is.
    pub fn program(&self, words: &[String]) -> Result<Program, String> {
        let tool = |name: &str, args: &[String]| {
            self.tools.iter().find(|(n, _)| n == name).map(|(name, tool)| Program::Tool {
                name: name.clone(),
                tool: *tool,
                args: args.to_vec(),
            })
        };
        let (first, rest) = words.split_first().ok_or("an empty command")?;
        if first != "cargo" {
            return Ok(tool(first, rest).unwrap_or(Program::Other));
        }
        let subcommand = rest.first().map(String::as_str).unwrap_or("");
        let (options, args) = match rest.iter().position(|w| w == "--") {
            Some(i) => (&rest[1..i], &rest[i + 1..]),
            None => (rest.get(1..).unwrap_or(&[]), &[][..]),
        };
        self.check_cargo_names(options)?;
        if CARGO_NOT_RUN.contains(&subcommand) {
            return Ok(Program::Cargo);
        }
        if subcommand != "run" {
            return Err(format!("cargo {subcommand} is not something the documents' test knows how to run"));
        }
        let target = option_value(options, "--example").or_else(|| option_value(options, "--bin"));
        let target = target.ok_or("cargo run without --example or --bin")?;
        Ok(tool(target, args).unwrap_or_else(|| Program::Example(target.to_string())))
    }

    /// Checks that the packages, examples, benches, tests and paths that cargo
    /// options name exist.
    fn check_cargo_names(&self, options: &[String]) -> Result<(), String> {
        let package = option_value(options, "-p").or_else(|| option_value(options, "--package"));
        let package_dir = match package {
            Some(name) => Some(
                self.packages
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, dir)| dir.clone())
                    .ok_or_else(|| format!("there is no package '{name}'"))?,
            ),
            None => None,
        };
        let exists = |path: PathBuf| path.exists();
        if let Some(example) = option_value(options, "--example") {
            let dir = self.root.join("examples");
            if !exists(dir.join(format!("{example}.rs"))) && !exists(dir.join(example).join("main.rs")) {
                return Err(format!("there is no example '{example}' in examples/"));
            }
        }
        if let Some(bench) = option_value(options, "--bench") {
            if !exists(self.root.join("benches").join(format!("{bench}.rs"))) {
                return Err(format!("there is no bench '{bench}' in benches/"));
            }
        }
        if let Some(test) = option_value(options, "--test") {
            let dirs: Vec<PathBuf> = match &package_dir {
                Some(dir) => vec![dir.clone()],
                None => self.packages.iter().map(|(_, dir)| dir.clone()).collect(),
            };
            let found = dirs.iter().any(|dir| {
                exists(dir.join("tests").join(format!("{test}.rs")))
                    || exists(dir.join("tests").join(test).join("main.rs"))
            });
            if !found {
                return Err(format!(
                    "there is no test '{test}' in the tests/ folder of {}",
                    package.unwrap_or("any package")
                ));
            }
        }
        if let Some(path) = option_value(options, "--path") {
            if !exists(self.root.join(path).join("Cargo.toml")) {
                return Err(format!("there is no package at '{path}'"));
            }
        }
        Ok(())
    }

    /// Checks a command without running it: it parses, and the examples,
    /// benches, tests and packages that its cargo commands name exist.
    pub fn check(&self, command: &DocCommand) -> Result<(), String> {
        for words in Pipeline::parse(&command.text)?.stages {
            self.program(&words)?;
        }
        Ok(())
    }

    /// Runs a command (see the module's conventions), or says why it cannot be
    /// run as written.
    pub fn run(&self, command: &DocCommand) -> Result<Ran, String> {
        let pipeline = Pipeline::parse(&command.text)?;
        let mut programs = Vec::new();
        for words in &pipeline.stages {
            programs.push(self.program(words)?);
        }
        if let Some(name) = programs.iter().find_map(|p| if let Program::Example(n) = p { Some(n) } else { None }) {
            return Ok(Ran::Elsewhere(name.clone()));
        }
        if programs.iter().any(|p| matches!(p, Program::Cargo)) {
            if programs.len() > 1 || pipeline.output.is_some() {
                return Err("a cargo command in a pipeline or redirected: mark the block not-run".into());
            }
            return Ok(Ran::Checked);
        }
        let words = pipeline.stages.iter().flatten().chain(&pipeline.input);
        if let Some(missing) = words.filter(|w| w.starts_with(SHARED)).find(|w| !self.scratch.join(w).exists()) {
            return Ok(Ran::Skipped(format!("the shared data {missing} is not there")));
        }
        // Where the output goes is settled before anything runs.
        let output_file = pipeline.output.as_deref().map(|file| self.destination(file)).transpose()?;
        let errors_file = pipeline.errors.as_deref().map(|file| self.destination(file)).transpose()?;
        let mut input: Option<Vec<u8>> = match &pipeline.input {
            Some(file) => Some(std::fs::read(self.scratch.join(file)).map_err(|e| format!("cannot read {file}: {e}"))?),
            None => None,
        };
        let (mut codes, mut errors) = (Vec::new(), Vec::new());
        for (words, program) in pipeline.stages.iter().zip(programs) {
            let (code, out, err) = match program {
                Program::Tool { name, tool, args } => self.run_tool(&name, tool, &args, input.take()),
                Program::Other => self.run_shell(words, input.take())?,
                Program::Example(_) | Program::Cargo => unreachable!("handled above"),
            };
            codes.push(code);
            errors.extend(err);
            input = Some(out);
        }
        let mut output = input.unwrap_or_default();
        if pipeline.errors_to_output {
            output.append(&mut errors);
        }
        if let Some(file) = &errors_file {
            std::fs::write(file, &errors).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            errors.clear();
        }
        if let Some(file) = &output_file {
            std::fs::write(file, &output).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            output.clear();
        }
        output.extend(errors);
        let shown = String::from_utf8_lossy(&output).replace(&format!("{}/", self.scratch.display()), "");
        Ok(Ran::Done { codes, shown })
    }

    /// Where a redirection writes: in the scratch folder. A path into the
    /// source tree is refused; one into the home folder or elsewhere (a
    /// completion script's place) lands in the scratch folder under its name.
    fn destination(&self, file: &str) -> Result<PathBuf, String> {
        if file == "/dev/null" {
            return Ok(PathBuf::from(file));
        }
        let path = Path::new(file);
        if file.starts_with("~/") || path.is_absolute() {
            return Ok(self.scratch.join(path.file_name().ok_or("a redirection to a folder")?));
        }
        if path.components().count() > 1 {
            return Err(format!("the command writes into the source tree ({file}): mark the block not-run"));
        }
        Ok(self.scratch.join(path))
    }

    /// Runs a tool in-process; its stdin is a terminal when nothing is piped
    /// or redirected into it, as for a person typing the command.
    fn run_tool(&self, name: &str, tool: Tool, args: &[String], stdin: Option<Vec<u8>>) -> (i32, Vec<u8>, Vec<u8>) {
        let mut argv = vec![name.to_string()];
        let mut plot = false;
        for arg in args {
            let path = self.scratch.join(arg);
            // Paths in the workspace, and the files --plot and --cactus write, in the scratch folder.
            if plot || (!arg.starts_with('-') && path.exists()) {
                argv.push(path.display().to_string());
            } else {
                argv.push(arg.clone());
            }
            plot = arg == "--plot" || arg == "--cactus";
        }
        let stdin_is_terminal = stdin.is_none();
        let input = stdin.unwrap_or_default();
        let (mut reader, mut out, mut err) = (&input[..], Vec::new(), Vec::new());
        let mut io = Io::piped(&mut reader, &mut out, &mut err);
        io.stdin_is_terminal = stdin_is_terminal;
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| app::run(tool, argv, &mut io)));
        let code = match ran {
            Ok(code) => i32::from(code),
            Err(_) => {
                err.extend_from_slice(b"the tool panicked\n");
                101
            }
        };
        (code, out, err)
    }

    /// Runs a program with `sh` in the scratch folder.
    fn run_shell(&self, words: &[String], stdin: Option<Vec<u8>>) -> Result<(i32, Vec<u8>, Vec<u8>), String> {
        if words.iter().any(|w| w == "cargo" || self.tools.iter().any(|(name, _)| name == w)) {
            return Err(format!("'{}' would run cargo or a tool through sh: write it plainly", words.join(" ")));
        }
        let script = words.iter().map(|w| format!("'{}'", w.replace('\'', r"'\''"))).collect::<Vec<_>>().join(" ");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .current_dir(&self.scratch)
            .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run sh: {e}"))?;
        let writer = match (child.stdin.take(), stdin) {
            // A program may stop reading early (`head`): that is not an error.
            (Some(mut pipe), Some(bytes)) => Some(std::thread::spawn(move || drop(pipe.write_all(&bytes)))),
            _ => None,
        };
        // Reads stdout and stderr together, so that neither pipe fills up.
        let output = child.wait_with_output().map_err(|e| format!("sh: {e}"))?;
        if let Some(writer) = writer {
            let _ = writer.join();
        }
        Ok((output.status.code().unwrap_or(128), output.stdout, output.stderr))
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.base);
    }
}

/// The value of `--name VALUE` or `--name=VALUE` among `options`.
fn option_value<'a>(options: &'a [String], name: &str) -> Option<&'a str> {
    options.iter().enumerate().find_map(|(i, option)| {
        if option == name {
            options.get(i + 1).map(String::as_str)
        } else {
            option.strip_prefix(name).and_then(|rest| rest.strip_prefix('='))
        }
    })
}

/// The workspace's packages: name and folder, from each member's `Cargo.toml`.
fn packages(root: &Path) -> std::io::Result<Vec<(String, PathBuf)>> {
    let mut dirs: Vec<PathBuf> = vec![root.join("examples"), root.join("benches")];
    for entry in std::fs::read_dir(root.join("crates"))? {
        dirs.push(entry?.path());
    }
    let mut packages = Vec::new();
    for dir in dirs {
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else { continue };
        let name = manifest.lines().find_map(|line| {
            let value = line.trim().strip_prefix("name")?.trim_start().strip_prefix('=')?;
            Some(value.trim().trim_matches('"').to_string())
        });
        if let Some(name) = name {
            packages.push((name, dir));
        }
    }
    Ok(packages)
}

/// A symbolic link at `link` to `target`.
fn link(target: &Path, link: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::symlink(target, link);
    #[cfg(not(unix))]
    return Err(std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        format!("the documented commands run on Unix only ({} -> {})", link.display(), target.display()),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Echoes its arguments and its input's line count; exits 1 with `no`.
    fn echo(args: Vec<std::ffi::OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
        let mut input = String::new();
        if !io.stdin_is_terminal {
            io.stdin.read_to_string(&mut input)?;
        }
        let words: Vec<String> = args[1..].iter().map(|a| a.to_string_lossy().into_owned()).collect();
        writeln!(
            io.stdout,
            "{} | {} lines | terminal {}",
            words.join(" "),
            input.lines().count(),
            io.stdin_is_terminal
        )?;
        writeln!(io.stderr, "note")?;
        Ok(u8::from(words.first().is_some_and(|w| w == "no")))
    }

    fn runner() -> Runner {
        // The echo tool stands for `queens` too, so that `cargo run --example queens` runs it.
        Runner::new(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."), &[("echo-tool", echo), ("queens", echo)])
            .unwrap()
    }

    fn command(text: &str) -> DocCommand {
        DocCommand { file: "t.md".into(), line: 1, text: text.into(), output: None, run: true }
    }

    fn done(ran: Result<Ran, String>) -> (Vec<i32>, String) {
        match ran {
            Ok(Ran::Done { codes, shown }) => (codes, shown),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn tools_run_in_process_with_paths_in_the_scratch_folder() {
        let runner = runner();
        let (codes, shown) = done(runner.run(&command("echo-tool a README.md --plot out.svg")));
        assert_eq!(codes, [0]);
        // Paths are shown as the document wrote them.
        assert_eq!(shown, "a README.md --plot out.svg | 0 lines | terminal true\nnote\n");
        let (codes, _) = done(runner.run(&command("cargo run --release --example queens -- no")));
        assert_eq!(codes, [1]);
    }

    #[test]
    fn pipelines_mix_sh_and_tools_and_redirections_land_in_the_scratch_folder() {
        let runner = runner();
        let (codes, shown) = done(runner.run(&command("printf 'x\\ny\\nz\\n' | head -2 | echo-tool > two.txt")));
        assert_eq!((codes, shown.as_str()), (vec![0, 0, 0], "note\n"));
        let written = std::fs::read_to_string(runner.scratch().join("two.txt")).unwrap();
        assert_eq!(written, " | 2 lines | terminal false\n");
        let (_, shown) = done(runner.run(&command("echo-tool < two.txt 2>&1")));
        assert_eq!(shown, " | 1 lines | terminal false\nnote\n");
        assert!(runner.run(&command("echo-tool > crates/x.txt")).unwrap_err().contains("not-run"));
        assert!(runner.run(&command("echo-tool && ls")).is_err());
        assert!(runner.run(&command("/usr/bin/time cargo run --example sudoku")).unwrap_err().contains("cargo"));
    }

    #[test]
    fn cargo_commands_are_checked_not_run() {
        let runner = runner();
        for ok in [
            "cargo test --workspace",
            "cargo install --path crates/cli",
            "cargo bench --bench queens -- --warm-up-time 1",
            "cargo test -p csp-cli --test docs",
            "cargo build --release --example sudoku",
        ] {
            assert_eq!(runner.run(&command(ok)), Ok(Ran::Checked), "{ok}");
        }
        for (bad, why) in [
            ("cargo bench --bench nothing", "no bench 'nothing'"),
            ("cargo test -p csp-nothing", "no package 'csp-nothing'"),
            ("cargo test -p csp --test nothing", "no test 'nothing'"),
            ("cargo run --example nothing", "no example 'nothing'"),
            ("cargo install --path crates/nothing", "no package at"),
        ] {
            let error = runner.run(&command(bad)).unwrap_err();
            assert!(error.contains(why), "{bad}: {error}");
        }
        assert_eq!(runner.run(&command("cargo run --example zebra")), Ok(Ran::Elsewhere("zebra".into())));
        assert!(matches!(runner.run(&command("echo-tool ../shared/nothing.txt")), Ok(Ran::Skipped(_))));
    }
}
