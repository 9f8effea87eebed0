//! What every tool shares around its work: the standard streams ([`Io`]), the
//! parsing of the command line ([`parse`]), and the wrapper that turns a tool's
//! result into an exit status ([`run`] in-process, [`main`] for a process).
//!
//! A tool is a function `fn(args, &mut Io) -> anyhow::Result<u8>` (a [`Tool`]): it
//! parses its arguments with [`parse`], does its work, writes to `io.stdout`, and
//! returns [`EXIT_OK`], [`EXIT_NO_SOLUTION`] or [`EXIT_BAD_INPUT`]. The wrapper
//! does the rest, the same way for every binary and every gallery example:
//!
//! - help and version go to stdout and exit 0; a usage error goes to stderr and
//!   exits 2 (clap's message, unchanged);
//! - an error is printed on stderr as `error: ...` (with its causes) and exits 2;
//! - writing to a closed pipe (`tool | head`) is not an error: the tool stops
//!   quietly with status 0;
//! - stdout is flushed at the end, and a failure to flush is treated the same way.
//!
//! ```
//! use csp_cli::app::{self, Io};
//!
//! fn hello(args: Vec<std::ffi::OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
//!     #[derive(clap::Parser)]
//!     struct Cli {
//!         name: String,
//!     }
//!     let cli: Cli = app::parse(args, io)?;
//!     writeln!(io.stdout, "hello, {}", cli.name)?;
//!     Ok(app::EXIT_OK)
//! }
//!
//! let captured = app::capture(hello, ["hello", "world"], "");
//! assert_eq!((captured.code, captured.stdout.as_str()), (0, "hello, world\n"));
//! let captured = app::capture(hello, ["hello"], "");
//! assert_eq!(captured.code, 2);
//! assert!(captured.stderr.contains("required"), "{}", captured.stderr);
//! ```

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::process::ExitCode;

/// Exit status: every puzzle solved (or the requested answer printed).
pub const EXIT_OK: u8 = 0;
/// Exit status: some instance had no solution, or a limit stopped the search.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit status: bad input or bad usage.
pub const EXIT_BAD_INPUT: u8 = 2;

/// The signature of every tool: the arguments (the program name first) and the
/// streams; returns the exit status, or an error that [`run`] reports.
pub type Tool = fn(Vec<OsString>, &mut Io<'_>) -> anyhow::Result<u8>;

/// A tool's standard streams, so that tests run it in-process with their own.
pub struct Io<'a> {
    /// Where input is read from when no file (or `-`) is given.
    pub stdin: &'a mut dyn BufRead,
    /// Whether stdin is a terminal (then nobody is typing input: the sudoku tool
    /// solves its built-in example).
    pub stdin_is_terminal: bool,
    /// Results.
    pub stdout: &'a mut dyn Write,
    /// Whether stdout is a terminal (then no progress bar is drawn over the output).
    pub stdout_is_terminal: bool,
    /// Errors, statistics and progress.
    pub stderr: &'a mut dyn Write,
    /// Whether stderr is a terminal (then long runs show a progress bar).
    pub stderr_is_terminal: bool,
}

impl<'a> Io<'a> {
    /// Streams that are not terminals: piped `stdin`, captured `stdout` and `stderr`.
    pub fn piped(stdin: &'a mut dyn BufRead, stdout: &'a mut dyn Write, stderr: &'a mut dyn Write) -> Io<'a> {
        Io { stdin, stdin_is_terminal: false, stdout, stdout_is_terminal: false, stderr, stderr_is_terminal: false }
    }
}

impl fmt::Debug for Io<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Io")
            .field("stdin_is_terminal", &self.stdin_is_terminal)
            .field("stdout_is_terminal", &self.stdout_is_terminal)
            .field("stderr_is_terminal", &self.stderr_is_terminal)
            .finish_non_exhaustive()
    }
}

/// An early, already reported end of a tool with this exit status: `--help`,
/// `--version` or a usage error from [`parse`]. [`run`] returns the status and
/// prints nothing more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exit(pub u8);

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "exit status {}", self.0)
    }
}

impl std::error::Error for Exit {}

/// Parses the arguments (the program name first) into `C`. Help and version are
/// printed on stdout, a usage error on stderr; either way the result is an
/// [`Exit`] error with status 0 or 2, which `?` hands to [`run`].
pub fn parse<C: clap::Parser>(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<C> {
    C::try_parse_from(args).map_err(|err| Exit(report_usage(&err, io)).into())
}

/// Prints a clap error where it belongs (help and version on stdout, the rest on
/// stderr) and returns the exit status: 0 for help and version, 2 for bad usage.
pub fn report_usage(err: &clap::Error, io: &mut Io<'_>) -> u8 {
    if err.use_stderr() {
        let _ = write!(io.stderr, "{}", err.render());
        EXIT_BAD_INPUT
    } else {
        let _ = write!(io.stdout, "{}", err.render());
        EXIT_OK
    }
}

/// Whether an error is (caused by) writing to a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

/// Runs `tool` in-process and returns its exit status: stdout is flushed, an
/// [`Exit`] gives its status, a closed output pipe ends quietly with
/// [`EXIT_OK`], and any other error is printed on stderr as `error: ...` and
/// gives [`EXIT_BAD_INPUT`].
pub fn run<I, T>(tool: Tool, args: I, io: &mut Io<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let result = tool(args.into_iter().map(Into::into).collect(), io).and_then(|code| {
        io.stdout.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        Err(err) => {
            if let Some(Exit(code)) = err.downcast_ref::<Exit>() {
                return *code;
            }
            if is_broken_pipe(&err) {
                return EXIT_OK;
            }
            let _ = writeln!(io.stderr, "error: {err:#}");
            let _ = io.stderr.flush();
            EXIT_BAD_INPUT
        }
    }
}

/// The `main` of a binary: runs `tool` on the process's arguments and standard
/// streams (stdout buffered), and exits with its status.
pub fn main(tool: Tool) -> ExitCode {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let stderr = io::stderr();
    let (stdin_is_terminal, stdout_is_terminal, stderr_is_terminal) =
        (stdin.is_terminal(), stdout.is_terminal(), stderr.is_terminal());
    let mut stdin = stdin.lock();
    let mut stdout = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut stderr = stderr.lock();
    let mut io = Io {
        stdin: &mut stdin,
        stdin_is_terminal,
        stdout: &mut stdout,
        stdout_is_terminal,
        stderr: &mut stderr,
        stderr_is_terminal,
    };
    ExitCode::from(run(tool, std::env::args_os(), &mut io))
}

/// Whether the environment lets a tool colour its output: `NO_COLOR` is unset
/// or empty (<https://no-color.org>) and the terminal is not `TERM=dumb`. A
/// tool also asks whether the stream is a terminal ([`Io`]), and lets an
/// explicit `--color always` or `never` win.
pub fn color_allowed_by_env() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty()) && !terminal_is_dumb()
}

/// Whether `TERM=dumb`: a terminal that cannot move the cursor or colour.
pub fn terminal_is_dumb() -> bool {
    std::env::var_os("TERM").is_some_and(|term| term == "dumb")
}

/// What a tool run by [`capture`] printed and returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Captured {
    /// The exit status.
    pub code: u8,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

/// Runs `tool` in-process on `args` (the program name first) with `stdin` as
/// piped input, and captures its output: how the tests run the tools.
///
/// # Panics
///
/// If the tool writes something that is not UTF-8: every tool writes text.
pub fn capture<I, T>(tool: Tool, args: I, stdin: &str) -> Captured
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let mut input = stdin.as_bytes();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = run(tool, args, &mut Io::piped(&mut input, &mut stdout, &mut stderr));
    Captured {
        code,
        stdout: String::from_utf8(stdout).expect("the tool writes UTF-8 on stdout"),
        stderr: String::from_utf8(stderr).expect("the tool writes UTF-8 on stderr"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader went away.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn talk(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
        match args.get(1).and_then(|a| a.to_str()) {
            Some("fail") => anyhow::bail!("it went wrong"),
            Some("none") => Ok(EXIT_NO_SOLUTION),
            _ => {
                for _ in 0..1000 {
                    writeln!(io.stdout, "a line")?;
                }
                Ok(EXIT_OK)
            }
        }
    }

    #[test]
    fn errors_exit_two_and_results_keep_their_status() {
        let failed = capture(talk, ["talk", "fail"], "");
        assert_eq!((failed.code, failed.stderr.as_str()), (2, "error: it went wrong\n"));
        assert_eq!(capture(talk, ["talk", "none"], "").code, 1);
        assert_eq!(capture(talk, ["talk"], "").stdout.lines().count(), 1000);
    }

    #[test]
    fn a_closed_pipe_ends_quietly_with_success() {
        let (mut stdin, mut stdout, mut stderr) = (&b""[..], ClosedPipe, Vec::new());
        let mut io = Io::piped(&mut stdin, &mut stdout, &mut stderr);
        assert_eq!(run(talk, ["talk"], &mut io), EXIT_OK);
        assert!(stderr.is_empty());
    }

    #[test]
    fn help_goes_to_stdout_and_usage_errors_to_stderr() {
        fn tool(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
            #[derive(clap::Parser)]
            #[command(version)]
            struct Cli {
                #[arg(long)]
                count: u32,
            }
            let cli: Cli = parse(args, io)?;
            Ok(u8::try_from(cli.count).unwrap_or(EXIT_OK))
        }
        let help = capture(tool, ["tool", "--help"], "");
        assert_eq!(help.code, 0);
        assert!(help.stdout.contains("--count") && help.stderr.is_empty());
        let version = capture(tool, ["tool", "--version"], "");
        assert_eq!((version.code, version.stderr.as_str()), (0, ""));
        let bad = capture(tool, ["tool", "--count", "x"], "");
        assert_eq!(bad.code, 2);
        assert!(bad.stdout.is_empty() && bad.stderr.contains("invalid value 'x'"), "{}", bad.stderr);
        assert_eq!(capture(tool, ["tool", "--count", "1"], "").code, 1);
    }
}
