//! What every tool shares around its work: the standard streams ([`Io`]), the
//! parsing of the command line ([`parse`], [`standard`]), and the wrapper that
//! turns a tool's result into an exit status ([`run`] in-process, [`main`] for
//! a process).
//!
//! A tool is a function `fn(args, &mut Io) -> anyhow::Result<u8>` (a [`Tool`]): it
//! parses its arguments with [`parse`], does its work, writes to `io.stdout`, and
//! returns [`EXIT_OK`], [`EXIT_NO_SOLUTION`] or [`EXIT_BAD_INPUT`]. The wrapper
//! does the rest, the same way for every binary and every gallery example:
//!
//! - help and version go to stdout and exit 0; a usage error goes to stderr and
//!   exits 2 (clap's message, unchanged; coloured only where [`color_allowed`]);
//! - an error is printed on stderr as `error: ...` (with its causes) and exits 2;
//! - writing to a closed pipe (`tool | head`) is not an error: the tool stops
//!   quietly with status 0;
//! - stdout is flushed at the end, and a failure to flush is treated the same way.
//!
//! # The conventions of every tool
//!
//! `docs/tools.md` says the same for users; each rule is tested for every tool
//! (`crates/cli/tests/tools/conventions.rs`).
//!
//! **Exit status.** One rule for every binary, subcommand and gallery example:
//!
//! | status | meaning |
//! | --- | --- |
//! | 0 ([`EXIT_OK`]) | done, and the answer is positive: every puzzle solved, a solution found, a count of at least one solution, every grid valid, a table printed |
//! | 1 ([`EXIT_NO_SOLUTION`]) | done, and the answer is negative or incomplete: some instance has no solution (a count of zero solutions too), a node, time or step limit stopped a search before its answer (a count stopped by such a limit is a lower bound), a grid is invalid (`sudoku check`), or two configurations disagreed (`compare`, the lab: a bug, reported on stderr) |
//! | 2 ([`EXIT_BAD_INPUT`]) | not done: bad usage, unreadable or malformed input, an output that cannot be written (a closed pipe excepted), an internal error |
//!
//! A count that stops at a limit the user asked for (`--limit K`) is complete:
//! it answers the question asked.
//!
//! **Streams.** Results go to stdout, and nothing else does: statistics,
//! notes, warnings, progress and errors go to stderr, so that piped or
//! redirected results stay clean. Before writing statistics after results, a
//! tool flushes stdout, so that a terminal shows them in order.
//!
//! **Quiet and verbose.** Tools and commands with statistics take
//! [`Verbosity`]: `-q` leaves only errors on stderr, `-v` adds the statistics
//! (as `--stats`). Those with notes or progress but no statistics to ask for
//! take [`Quiet`], `-q` alone: a `-v` that changed nothing would be an option
//! silently ignored.
//!
//! **Version, completions, manual.** [`standard`] gives every tool with
//! subcommands `--version`, `completions SHELL` (bash, zsh, fish, elvish,
//! powershell) and `man` (a roff manual page), all generated from the same clap
//! definitions as the parser; [`versioned`] gives `--version` alone (the
//! gallery examples, whose positional argument is a file name).
//!
//! **Colour** only where [`Terminal::color`] says so: on a terminal, without
//! `NO_COLOR` (<https://no-color.org>), and not on `TERM=dumb`, unless
//! `--color always|never` says otherwise; cursor movement (animations,
//! progress bars) only where [`Terminal::redraw`] does: on a terminal that is
//! not dumb.
//!
//! ```
//! use csp_app::{self as app, Io};
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
//! let version = app::capture(hello, ["hello", "--version"], "");
//! assert_eq!(version.stdout, format!("hello {}\n", env!("CARGO_PKG_VERSION")));
//! let completions = app::capture(hello, ["hello", "completions", "bash"], "");
//! assert!(completions.stdout.contains("complete -F _hello"), "{}", completions.stdout);
//! ```

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::{ArgMatches, Args, Command};

/// Exit status: done, and the answer is positive (see [the rule](self#the-conventions-of-every-tool)).
pub const EXIT_OK: u8 = 0;
/// Exit status: done, and the answer is negative or incomplete: no solution (a
/// count of zero too), a limit reached first, an invalid grid, a disagreement.
pub const EXIT_NO_SOLUTION: u8 = 1;
/// Exit status: not done: bad input or bad usage, or an error.
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

impl Io<'_> {
    /// The same streams, borrowed for a shorter time: to hand a tool's helper
    /// an `Io` with one stream replaced (`Io { stderr: &mut other, ..io.reborrow() }`).
    pub fn reborrow(&mut self) -> Io<'_> {
        Io {
            stdin: &mut *self.stdin,
            stdin_is_terminal: self.stdin_is_terminal,
            stdout: &mut *self.stdout,
            stdout_is_terminal: self.stdout_is_terminal,
            stderr: &mut *self.stderr,
            stderr_is_terminal: self.stderr_is_terminal,
        }
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

/// Parses the arguments (the program name first) into `C`, on the command line
/// of [`standard`]`(C::command())`. Help and version are printed on stdout, a
/// usage error on stderr, `completions` and `man` answered on stdout; each
/// of these ends the tool with an [`Exit`] error (status 0, or 2 for bad
/// usage), which `?` hands to [`run`].
pub fn parse<C: clap::Parser>(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<C> {
    let matches = parse_matches(standard(C::command()), args, io)?;
    C::from_arg_matches(&matches).map_err(|err| Exit(report_usage(&err, io)).into())
}

/// The name of the subcommand that prints a shell completion script.
pub const COMPLETIONS: &str = "completions";
/// The name of the subcommand that prints the manual page.
pub const MAN: &str = "man";

/// What every tool's command line has, added to `command`: `--version` (`-V`,
/// on the subcommands too), and the subcommands `completions SHELL` and `man`,
/// which [`parse_matches`] answers. The completion script and the manual page are
/// generated from `command` itself, so they list exactly what the parser takes.
///
/// Top-level arguments that are required are not required with a subcommand
/// (so that `tool completions bash` works for any tool).
pub fn standard(command: Command) -> Command {
    versioned(command).propagate_version(true).subcommand_negates_reqs(true).subcommands([
        Command::new(COMPLETIONS)
            .about("Print a shell completion script on stdout (bash, zsh, fish, elvish, powershell)")
            .long_about(
                "Print a shell completion script for this tool on stdout. For bash, for example:\n  \
                 TOOL completions bash > ~/.local/share/bash-completion/completions/TOOL\n\
                 zsh: put the output of `TOOL completions zsh` as `_TOOL` in a directory of $fpath; \
                 fish: `TOOL completions fish > ~/.config/fish/completions/TOOL.fish`.",
            )
            .arg(
                clap::Arg::new("shell")
                    .value_name("SHELL")
                    .required(true)
                    .value_parser(clap::value_parser!(clap_complete::Shell)),
            ),
        Command::new(MAN)
            .about("Print the manual page on stdout, in roff (save it as TOOL.1, read it with man ./TOOL.1)"),
    ])
}

/// `command` with `--version` (`-V`) giving the version of the tools, and
/// with negative numbers taken as values everywhere ([`negatives_as_values`]).
pub fn versioned(command: Command) -> Command {
    negatives_as_values(command.version(env!("CARGO_PKG_VERSION")))
}

/// `command` with every argument that takes a value, in every subcommand,
/// taking a negative number as its value: `--node-limit -1`, `-n -5` or
/// `queens -3` reach the argument's own parser, which refuses them naming the
/// option and saying what it wants (`invalid value '-5' for '--num-solutions
/// <N>'`, `'-1' is not a non-negative number of seconds`), not clap's
/// `unexpected argument '-5'` with its tip to write `-- -5` (which would
/// make it a file name). One place for every tool, so that no option is
/// forgotten.
///
/// An argument whose values are integers (`u8` to `u64`, `usize`, `i8` to
/// `i64`, `isize`: a count, a limit, a seed) also says, when it refuses a
/// value, which whole numbers it takes ([`whole_numbers`]): `invalid value
/// '-5' for '--num-solutions <N>': must be a whole number, 0 or more`, not
/// Rust's `invalid digit found in string`.
pub fn negatives_as_values(command: Command) -> Command {
    command
        .mut_args(|arg| {
            if !arg.get_action().takes_values() {
                return arg;
            }
            let arg = arg.allow_negative_numbers(true);
            let parser = arg.get_value_parser().clone();
            macro_rules! integers {
                ($($t:ty),*) => {
                    $(if parser.type_id() == std::any::TypeId::of::<$t>() {
                        return arg.value_parser(whole_numbers::<$t>(parser));
                    })*
                };
            }
            integers!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);
            arg
        })
        .mut_subcommands(negatives_as_values)
}

/// The value parser `parser` of an integer argument (of type `T`), with
/// the refusals that were Rust's (`invalid digit found in string`, `number
/// too large to fit in target type`) or clap's (`-5 is not in 1..=256`)
/// saying instead which whole numbers it takes: `must be a whole number, 0
/// or more`, `... 1 or more`, `... from 1 to 256` (as `parser` takes them,
/// found by asking it). A refusal of the argument's own words (`N must be at
/// least 1, got -4`) is kept; every value it accepts, it parses as before.
pub fn whole_numbers<T>(parser: clap::builder::ValueParser) -> impl clap::builder::TypedValueParser<Value = T>
where
    T: Clone + Send + Sync + 'static,
{
    move |text: &str| -> Result<T, String> {
        let own_words = match parse_with(&parser, text) {
            Ok(value) => return Ok(value),
            Err(own_words) => own_words,
        };
        if let Some(reason) = own_words {
            return Err(reason);
        }
        let accepts = |value: i128| parse_with::<T>(&parser, &value.to_string()).is_ok();
        let Some((low, high)) = accepted_range(&accepts) else {
            return Err(format!("'{text}' is not a value it takes"));
        };
        // A whole number beyond the range is told its ends, not "or more".
        let beyond = text.trim().parse::<i128>().map_or((false, false), |value| (value < low, value > high));
        Err(format!("must be a whole number, {}", describe_range(low, high, beyond)))
    }
}

/// `parser`'s value of `text`, as the lone value of an argument of its own;
/// or its refusal: `None` when it is Rust's or clap's about integers (which
/// [`whole_numbers`] words better), else the parser's own words.
fn parse_with<T: Clone + Send + Sync + 'static>(
    parser: &clap::builder::ValueParser,
    text: &str,
) -> Result<T, Option<String>> {
    let probe = Command::new("probe")
        .no_binary_name(true)
        .arg(clap::Arg::new("value").required(true).allow_hyphen_values(true).value_parser(parser.clone()));
    let refusal = |err: clap::Error| {
        let source = std::error::Error::source(&err)?;
        let integers = source.downcast_ref::<std::num::ParseIntError>().is_some()
            || source.downcast_ref::<std::num::TryFromIntError>().is_some()
            || source.to_string().contains(" is not in ");
        (!integers).then(|| source.to_string())
    };
    let matches = probe.try_get_matches_from([text]).map_err(refusal)?;
    matches.get_one::<T>("value").cloned().ok_or(None)
}

/// The interval of whole numbers that `accepts` takes, when it takes 0 or 1
/// (searched in `i128`, beyond every integer type's range on either side).
fn accepted_range(accepts: &dyn Fn(i128) -> bool) -> Option<(i128, i128)> {
    let inside = [0, 1].into_iter().find(|&value| accepts(value))?;
    // The last value taken, going from `inside` towards `limit` (all taken up to it).
    let edge = |limit: i128| {
        let (mut taken, mut refused) = (inside, limit);
        while taken.abs_diff(refused) > 1 {
            let middle = taken + (refused - taken) / 2;
            if accepts(middle) {
                taken = middle;
            } else {
                refused = middle;
            }
        }
        taken
    };
    Some((edge(-(1 << 64) - 1), edge(1 << 64)))
}

/// `0 or more`, `from 1 to 256`, or `from -128 to 127`: the interval as a
/// user reads it. The whole upper range of an integer type of 32 bits or more
/// is "or more", and the whole range of a 64-bit one "positive, negative or
/// 0", unless the value refused was `beyond` them (below, above).
fn describe_range(low: i128, high: i128, (below, above): (bool, bool)) -> String {
    if low >= 0 && high >= i128::from(u32::MAX) && !above {
        format!("{low} or more")
    } else if low <= i128::from(i64::MIN) && high >= i128::from(i64::MAX) && !below && !above {
        "positive, negative or 0".to_string()
    } else {
        format!("from {low} to {high}")
    }
}

/// Parses `args` (the program name first) with `command` (usually made by
/// [`standard`]). Help and version go to stdout, a usage error to stderr;
/// `completions SHELL` and `man` print their text on stdout, for the program
/// name of `args`. Each of these ends the tool: the result is then an [`Exit`]
/// error with the status (0, or 2 for bad usage). Otherwise, the matches.
pub fn parse_matches(mut command: Command, args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<ArgMatches> {
    let program = args
        .first()
        .and_then(|arg| Path::new(arg).file_name())
        .map_or_else(|| command.get_name().to_string(), |name| name.to_string_lossy().into_owned());
    // `--version` says the program's name as it was run (`csp-queens`, or `queens` as an example).
    command = command.display_name(program.clone());
    let matches = command.try_get_matches_from_mut(args).map_err(|err| Exit(report_usage(&err, io)))?;
    let text = match matches.subcommand() {
        Some((COMPLETIONS, sub)) => {
            let shell = *sub.get_one::<clap_complete::Shell>("shell").expect("the shell is required");
            // Generated into memory first: the generator panics on a write error,
            // and a closed pipe must end the tool quietly.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command, program, &mut script);
            script
        }
        Some((MAN, _)) => {
            let mut page = Vec::new();
            let source = format!("{program} {}", env!("CARGO_PKG_VERSION"));
            clap_mangen::Man::new(command.bin_name(program)).source(source).render(&mut page)?;
            page
        }
        _ => return Ok(matches),
    };
    io.stdout.write_all(&text)?;
    io.stdout.flush()?;
    Err(Exit(EXIT_OK).into())
}

/// Prints a clap error where it belongs (help and version on stdout, the rest on
/// stderr) and returns the exit status: 0 for help and version, 2 for bad usage.
/// The message is coloured only where [`color_allowed`] for its stream.
pub fn report_usage(err: &clap::Error, io: &mut Io<'_>) -> u8 {
    let (stream, is_terminal, code): (&mut dyn Write, bool, u8) = if err.use_stderr() {
        (&mut *io.stderr, io.stderr_is_terminal, EXIT_BAD_INPUT)
    } else {
        (&mut *io.stdout, io.stdout_is_terminal, EXIT_OK)
    };
    let text = err.render();
    let _ = if color_allowed(is_terminal) { write!(stream, "{}", text.ansi()) } else { write!(stream, "{text}") };
    code
}

/// Whether a tool may colour what it writes to a stream: only when the stream
/// is a terminal, `NO_COLOR` is unset or empty (<https://no-color.org>), and
/// `TERM` is not `dumb`. [`Terminal::color`] with [`ColorChoice::Auto`] on the
/// process's environment: for clap's messages and anything else without a
/// `--color` option.
pub fn color_allowed(stream_is_terminal: bool) -> bool {
    Terminal::from_env().color(stream_is_terminal, ColorChoice::Auto)
}

/// What the environment says a terminal may be sent: the one decision about
/// colour and cursor movement, for every tool and stream (clap's help and
/// errors, `sudoku hint --board`, `sudoku trace --animate`, progress bars).
///
/// Colour goes only to a terminal, never with `NO_COLOR` set to anything but
/// the empty string (<https://no-color.org>), and never on `TERM=dumb`, unless
/// an explicit `--color always` asks for it (or `never` forbids it). Cursor
/// movement (a frame redrawn in place, a progress bar) goes only to a terminal
/// that is not `TERM=dumb`; `NO_COLOR` is about colour alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    /// `NO_COLOR` is set and not empty.
    no_color: bool,
    /// `TERM=dumb`: a terminal that can neither colour nor move its cursor.
    dumb: bool,
}

impl Terminal {
    /// The process's environment: `NO_COLOR` and `TERM`.
    pub fn from_env() -> Terminal {
        Terminal::from_values(std::env::var_os("NO_COLOR").as_deref(), std::env::var_os("TERM").as_deref())
    }

    /// The environment with these values of `NO_COLOR` and `TERM` (`None`
    /// when unset), so that the rule can be tested without touching the
    /// process's environment.
    pub fn from_values(no_color: Option<&OsStr>, term: Option<&OsStr>) -> Terminal {
        Terminal { no_color: no_color.is_some_and(|value| !value.is_empty()), dumb: term == Some(OsStr::new("dumb")) }
    }

    /// Whether to colour a stream: as `choice` says when it is `always` or
    /// `never`; otherwise only on a terminal, without `NO_COLOR`, not dumb.
    pub fn color(self, stream_is_terminal: bool, choice: ColorChoice) -> bool {
        match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => stream_is_terminal && !self.no_color && !self.dumb,
        }
    }

    /// Whether a stream may take cursor movement: a frame redrawn in place, a
    /// progress bar. Only a terminal that is not dumb.
    pub fn redraw(self, stream_is_terminal: bool) -> bool {
        stream_is_terminal && !self.dumb
    }
}

/// `--color WHEN`, for tools that colour what they print on stdout: `auto`
/// leaves the decision to [`Terminal::color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// When the stream is a terminal, `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
    #[default]
    Auto,
    /// Always, even into a file or a pipe.
    Always,
    /// Never.
    Never,
}

/// Opens an input file, refusing a directory up front (reading one fails
/// with a less helpful message) and saying the common failures in words:
/// `is a directory, not a puzzle file`, `cannot open: no such file`,
/// `cannot open: permission denied`. The message does not name the file: the
/// caller puts it first.
pub fn open_input(path: &Path) -> Result<std::fs::File, String> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err("is a directory, not a puzzle file".to_string()),
        Ok(_) => std::fs::File::open(path).map_err(cannot_open),
        Err(err) => Err(cannot_open(err)),
    }
}

/// Why a file cannot be opened, in words: `cannot open: no such file`.
fn cannot_open(err: io::Error) -> String {
    match err.kind() {
        io::ErrorKind::NotFound => "cannot open: no such file".to_string(),
        io::ErrorKind::PermissionDenied => "cannot open: permission denied".to_string(),
        _ => format!("cannot open: {err}"),
    }
}

/// Reads a whole file, or standard input for `-`, as UTF-8 text: the model
/// files of `fzn-csp` and `csp-xcsp`, which are parsed as a whole. The errors
/// name the file and say what is wrong in words, as [`open_input`]'s do:
/// `cannot read f: is a directory, not a model file`, `cannot read f: not a
/// text file (line 3, column 9: byte 0xe9 is not UTF-8)`; standard input's
/// the same way (`cannot read standard input: not a text file (line 3, ...)`).
/// A byte order mark opening the text is dropped ([`without_byte_order_mark`]).
pub fn read_text(file: &Path, io: &mut Io<'_>) -> anyhow::Result<String> {
    use anyhow::Context as _;
    let (bytes, name) = if file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        let read = io.stdin.read_to_end(&mut bytes).map(|_| bytes).map_err(|err| format!("{err}"));
        (read, "standard input".to_string())
    } else {
        let read = match std::fs::metadata(file) {
            Ok(meta) if meta.is_dir() => Err("is a directory, not a model file".to_string()),
            _ => std::fs::read(file).map_err(cannot_open),
        };
        (read, file.display().to_string())
    };
    let text = bytes.and_then(|bytes| {
        String::from_utf8(bytes).map_err(|err| not_utf8(err.as_bytes(), err.utf8_error().valid_up_to()))
    });
    text.map(without_byte_order_mark).map_err(anyhow::Error::msg).with_context(|| format!("cannot read {name}"))
}

/// Why `bytes`, valid UTF-8 up to `valid_up_to`, are not text, naming the
/// place as an editor shows it: `not a text file (line 3, column 9: byte 0xe9
/// is not UTF-8)`, the column counted in characters (a byte order mark
/// opening the file is no column).
///
/// ```
/// assert_eq!(csp_app::not_utf8(b"ab\nc\xffd", 4), "not a text file (line 2, column 2: byte 0xff is not UTF-8)");
/// ```
pub fn not_utf8(bytes: &[u8], valid_up_to: usize) -> String {
    let valid = &bytes[..valid_up_to.min(bytes.len())];
    let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
    let before = std::str::from_utf8(&valid[line_start..]).unwrap_or_default();
    let column = before.trim_start_matches('\u{feff}').chars().count() + 1;
    match bytes.get(valid_up_to) {
        Some(byte) => format!("not a text file (line {line}, column {column}: byte 0x{byte:02x} is not UTF-8)"),
        None => format!("not a text file (line {line}, column {column}: the last character is cut short)"),
    }
}

/// `text` without the byte order mark (U+FEFF) that opens it, if one does:
/// Windows' Notepad starts the UTF-8 files it saves with one, and it is not
/// part of the text (nor of a line's columns).
pub fn without_byte_order_mark(mut text: String) -> String {
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    text
}

/// Parses a number of seconds such as `2`, `0.5` or `1e-3`, for the time
/// options of every tool (a clap `value_parser`): not negative, not `inf` or
/// `NaN`, and short enough for a `Duration`; the error quotes the text.
pub fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("'{text}' is not a non-negative number of seconds"));
    }
    std::time::Duration::try_from_secs_f64(seconds).map_err(|_| format!("'{text}' seconds is too long"))
}

/// A number as a tool echoes it in a message, short and exact: the shortest
/// spelling that reads back as the same `f64`, as `{}` writes it (`0.38`,
/// `20`, `1234567`), unless that is longer than 12 characters and the
/// exponent form is shorter (`1e308`, not 309 digits; `2.5e-11`, not
/// `0.000000000025`). Both read back with `str::parse`.
pub fn short_float(value: f64) -> String {
    let plain = value.to_string();
    let exponent = format!("{value:e}");
    if plain.len() > 12 && exponent.len() < plain.len() { exponent } else { plain }
}

/// `count` and the noun that agrees with it: `1 solution`, `2 solutions`,
/// `0 solutions`, `1 vertex`, `3 vertices`. For every count a tool writes in words.
pub fn counted(count: u64, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

/// `-q` and `-v`, for tools that print statistics or notes on stderr. Flatten it
/// into the tool's arguments with `#[command(flatten)]`.
///
/// `-q` leaves only errors on stderr (no statistics, notes, warnings or
/// progress); `-v` asks for the statistics, as `--stats` does. Neither changes
/// stdout or the exit status.
#[derive(Args, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verbosity {
    /// Print nothing on stderr but errors: no statistics, notes, warnings or progress.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Print the search statistics on stderr (as --stats).
    #[arg(short, long)]
    pub verbose: bool,
}

impl Verbosity {
    /// Whether to print statistics, given the tool's own `--stats`: with `-v`
    /// or `--stats`, never with `-q`.
    pub fn stats(self, stats_option: bool) -> bool {
        !self.quiet && (self.verbose || stats_option)
    }

    /// Whether to print notes, warnings and progress: unless `-q`.
    pub fn notes(self) -> bool {
        !self.quiet
    }
}

/// `-q` alone, for tools and commands that print notes, warnings or progress
/// on stderr but have no statistics for a `-v` to ask for. Flatten it with
/// `#[command(flatten)]`.
#[derive(Args, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quiet {
    /// Print nothing on stderr but errors: no notes, warnings or progress.
    #[arg(short, long)]
    pub quiet: bool,
}

impl Quiet {
    /// Whether to print notes, warnings and progress: unless `-q`.
    pub fn notes(self) -> bool {
        !self.quiet
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
    fn colour_needs_a_terminal_and_no_no_color_and_a_terminal_that_is_not_dumb() {
        let os = |s: &'static str| Some(OsStr::new(s));
        let auto = |terminal, no_color, term| Terminal::from_values(no_color, term).color(terminal, ColorChoice::Auto);
        assert!(auto(true, None, os("xterm-256color")));
        assert!(auto(true, None, None));
        assert!(auto(true, os(""), None), "an empty NO_COLOR does not count (no-color.org)");
        assert!(!auto(false, None, os("xterm")), "a file or a pipe gets no escapes");
        assert!(!auto(true, os("1"), os("xterm")));
        assert!(!auto(true, os("0"), os("xterm")), "any non-empty value disables colour");
        assert!(!auto(true, None, os("dumb")));
    }

    #[test]
    fn an_explicit_color_choice_wins_and_only_dumb_terminals_stop_redrawing() {
        let os = |s: &'static str| Some(OsStr::new(s));
        let plain = Terminal::from_values(None, os("xterm"));
        let no_color = Terminal::from_values(os("1"), os("xterm"));
        let dumb = Terminal::from_values(None, os("dumb"));
        assert!(plain.color(false, ColorChoice::Always), "--color always: colours even into a pipe");
        assert!(no_color.color(true, ColorChoice::Always) && dumb.color(false, ColorChoice::Always));
        assert!(!plain.color(true, ColorChoice::Never));
        assert!(plain.redraw(true) && no_color.redraw(true), "NO_COLOR is about colour: the cursor still moves");
        assert!(!dumb.redraw(true), "TERM=dumb: no cursor movement");
        assert!(!plain.redraw(false), "a file or a pipe: frames one after the other");
    }

    #[test]
    fn help_is_coloured_on_a_terminal_only_where_colour_is_allowed() {
        let help = |stdout_is_terminal: bool| {
            let (mut stdin, mut stdout, mut stderr) = (&b""[..], Vec::new(), Vec::new());
            let mut io = Io::piped(&mut stdin, &mut stdout, &mut stderr);
            io.stdout_is_terminal = stdout_is_terminal;
            assert_eq!(run(counter, ["csp-counter", "--help"], &mut io), EXIT_OK);
            String::from_utf8(stdout).unwrap()
        };
        assert!(!help(false).contains('\x1b'), "never into a pipe or a file");
        // On a terminal, as the environment of the test (NO_COLOR, TERM) allows.
        assert_eq!(help(true).contains('\x1b'), color_allowed(true));
    }

    #[test]
    fn floats_are_echoed_short_and_exact() {
        let cases = [
            (0.38, "0.38"),
            (20.0, "20"),
            (1234567.0, "1234567"),
            (-0.5, "-0.5"),
            (1e308, "1e308"),
            (-1e300, "-1e300"),
            (2.5e-11, "2.5e-11"),
            (0.1 + 0.2, "0.30000000000000004"),
            (f64::MAX, "1.7976931348623157e308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (f64::INFINITY, "inf"),
        ];
        for (value, text) in cases {
            assert_eq!(short_float(value), text);
            assert_eq!(text.parse::<f64>().unwrap(), value, "{text} reads back");
        }
        assert_eq!(short_float(f64::NAN), "NaN");
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(counted(1, "solution", "solutions"), "1 solution");
        assert_eq!(counted(0, "solution", "solutions"), "0 solutions");
        assert_eq!(counted(3, "vertex", "vertices"), "3 vertices");
    }

    #[test]
    fn verbosity_quiet_wins_and_verbose_means_stats() {
        let quiet = Verbosity { quiet: true, verbose: false };
        let verbose = Verbosity { quiet: false, verbose: true };
        assert!(!quiet.stats(true) && !quiet.notes());
        assert!(verbose.stats(false) && verbose.notes());
        assert!(Verbosity::default().stats(true) && !Verbosity::default().stats(false));
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            verbosity: Verbosity,
        }
        let parse = |args: &[&str]| <Cli as clap::Parser>::try_parse_from(args).map(|cli| cli.verbosity);
        assert_eq!(parse(&["x", "-q"]).unwrap(), quiet);
        assert_eq!(parse(&["x", "--verbose"]).unwrap(), verbose);
        assert!(parse(&["x", "-q", "-v"]).is_err());
    }

    #[test]
    fn quiet_alone_takes_no_verbose() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            quiet: Quiet,
        }
        let parse = |args: &[&str]| <Cli as clap::Parser>::try_parse_from(args).map(|cli| cli.quiet);
        assert!(!parse(&["x", "--quiet"]).unwrap().notes());
        assert!(parse(&["x"]).unwrap().notes());
        assert!(parse(&["x", "-v"]).is_err(), "no -v where there are no statistics to ask for");
    }

    #[derive(clap::Parser)]
    #[command(name = "counter")]
    struct Counter {
        #[arg(long)]
        count: Option<u32>,
        #[command(subcommand)]
        command: Option<CounterCommand>,
    }

    #[derive(clap::Subcommand)]
    enum CounterCommand {
        /// Count down.
        Down {
            /// Steps.
            #[arg(long)]
            steps: Option<u32>,
        },
    }

    fn counter(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
        let cli: Counter = parse(args, io)?;
        writeln!(io.stdout, "{:?} {}", cli.count, cli.command.is_some())?;
        Ok(EXIT_OK)
    }

    #[test]
    fn every_tool_has_version_completions_and_a_manual_page() {
        let version = capture(counter, ["csp-counter", "--version"], "");
        assert_eq!(
            (version.code, version.stdout.as_str()),
            (0, concat!("csp-counter ", env!("CARGO_PKG_VERSION"), "\n"))
        );
        assert_eq!(capture(counter, ["csp-counter", "down", "-V"], "").code, 0, "on the subcommands too");
        for (shell, mark) in [
            ("bash", "complete -F _csp__counter"),
            ("zsh", "#compdef csp-counter"),
            ("fish", "complete -c csp-counter"),
        ] {
            let script = capture(counter, ["csp-counter", "completions", shell], "");
            assert_eq!(script.code, 0, "{shell}: {}", script.stderr);
            assert!(script.stdout.contains(mark), "{shell}: {}", script.stdout);
            assert!(script.stdout.contains("count") && script.stdout.contains("down"), "{shell}: {}", script.stdout);
        }
        let bad = capture(counter, ["csp-counter", "completions", "cmd.exe"], "");
        assert_eq!(bad.code, 2);
        assert!(bad.stderr.contains("invalid value 'cmd.exe'") && bad.stderr.contains("bash"), "{}", bad.stderr);
        let page = capture(counter, ["csp-counter", "man"], "");
        assert_eq!(page.code, 0, "{}", page.stderr);
        assert!(page.stdout.starts_with(".ie \\n(.g .ds Aq"), "roff: {}", page.stdout);
        assert!(page.stdout.contains(".TH csp-counter 1") && page.stdout.contains("\\-\\-count"), "{}", page.stdout);
        let ordinary = capture(counter, ["csp-counter", "--count", "3", "down"], "");
        assert_eq!(ordinary.stdout, "Some(3) true\n");
    }

    #[test]
    fn a_negative_number_reaches_the_options_parser_in_every_subcommand() {
        // Not clap's "unexpected argument '-3'" and its tip to write `-- -3`.
        for args in [&["csp-counter", "--count", "-3"][..], &["csp-counter", "down", "--steps", "-3"]] {
            let bad = capture(counter, args, "");
            assert_eq!((bad.code, bad.stdout.as_str()), (2, ""), "{args:?}");
            assert!(bad.stderr.contains("invalid value '-3' for '--"), "{args:?}: {}", bad.stderr);
            assert!(!bad.stderr.contains("unexpected argument"), "{args:?}: {}", bad.stderr);
        }
        assert_eq!(capture(counter, ["csp-counter", "down", "--steps", "3"], "").stdout, "None true\n");
    }

    #[derive(clap::Parser)]
    #[command(name = "numbers")]
    struct Numbers {
        #[arg(long)]
        count: Option<u64>,
        #[arg(long)]
        small: Option<u32>,
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        jobs: Option<u16>,
        #[arg(long)]
        seed: Option<i64>,
        #[arg(long)]
        tiny: Option<i8>,
        #[arg(long, value_parser = at_least_one)]
        size: Option<usize>,
        #[arg(long, value_delimiter = ',')]
        list: Vec<usize>,
    }

    fn at_least_one(text: &str) -> Result<usize, String> {
        text.parse().ok().filter(|&n| n >= 1).ok_or_else(|| format!("N must be at least 1, got {text}"))
    }

    fn numbers(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
        let cli: Numbers = parse(args, io)?;
        let Numbers { count, small, jobs, seed, tiny, size, list } = cli;
        writeln!(io.stdout, "{count:?} {small:?} {jobs:?} {seed:?} {tiny:?} {size:?} {list:?}")?;
        Ok(EXIT_OK)
    }

    #[test]
    fn an_integer_option_refused_says_which_whole_numbers_it_takes() {
        // Rust's "invalid digit found in string" and clap's "-5 is not in
        // 1..=256" said nothing a user could act on.
        for (args, reason) in [
            (&["--count", "-5"][..], "invalid value '-5' for '--count <COUNT>': must be a whole number, 0 or more\n"),
            (&["--count", "five"], "'five' for '--count <COUNT>': must be a whole number, 0 or more\n"),
            (&["--count", ""], "'' for '--count <COUNT>': must be a whole number, 0 or more\n"),
            (&["--count", "18446744073709551616"], "must be a whole number, from 0 to 18446744073709551615\n"),
            (&["--small", "-1"], "'-1' for '--small <SMALL>': must be a whole number, 0 or more\n"),
            (&["--small", "4294967296"], "must be a whole number, from 0 to 4294967295\n"),
            (&["--jobs", "0"], "'0' for '--jobs <JOBS>': must be a whole number, from 1 to 256\n"),
            (&["--jobs", "-5"], "must be a whole number, from 1 to 256\n"),
            (&["--seed", "1.5"], "'1.5' for '--seed <SEED>': must be a whole number, positive, negative or 0\n"),
            (&["--seed", "9223372036854775808"], "from -9223372036854775808 to 9223372036854775807\n"),
            (&["--tiny", "200"], "'200' for '--tiny <TINY>': must be a whole number, from -128 to 127\n"),
            (&["--list", "1,-2"], "'-2' for '--list <LIST>': must be a whole number, 0 or more\n"),
            // A parser's own words are kept.
            (&["--size", "0"], "'0' for '--size <SIZE>': N must be at least 1, got 0\n"),
        ] {
            let bad = capture(numbers, [&["numbers"][..], args].concat(), "");
            assert_eq!((bad.code, bad.stdout.as_str()), (2, ""), "{args:?}");
            let first = bad.stderr.lines().next().unwrap_or_default();
            assert!(format!("{first}\n").ends_with(reason), "{args:?}: {}", bad.stderr);
        }
        let args = ["--count", "7", "--small", "0", "--jobs", "256", "--seed", "-3", "--tiny", "-128", "--size", "2"];
        let good = capture(numbers, [&["numbers"][..], &args, &["--list", "0,4"]].concat(), "");
        assert_eq!(good.stdout, "Some(7) Some(0) Some(256) Some(-3) Some(-128) Some(2) [0, 4]\n", "{}", good.stderr);
    }

    #[test]
    fn a_byte_order_mark_opening_a_model_file_is_dropped() {
        let file = std::env::temp_dir().join(format!("csp-app-bom-{}.txt", std::process::id()));
        std::fs::write(&file, "\u{feff}int: x;\n").unwrap();
        let (mut stdin, mut stdout, mut stderr) = ("\u{feff}a\u{feff}\n".as_bytes(), Vec::new(), Vec::new());
        let mut io = Io::piped(&mut stdin, &mut stdout, &mut stderr);
        assert_eq!(read_text(&file, &mut io).unwrap(), "int: x;\n");
        assert_eq!(read_text(Path::new("-"), &mut io).unwrap(), "a\u{feff}\n", "only the first is a mark");
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn bytes_that_are_not_utf8_on_standard_input_are_named_by_line_and_column() {
        let (mut stdin, mut stdout, mut stderr) = (&b"int: x;\nab\xffc\n"[..], Vec::new(), Vec::new());
        let mut io = Io::piped(&mut stdin, &mut stdout, &mut stderr);
        let err = read_text(Path::new("-"), &mut io).unwrap_err();
        assert_eq!(
            format!("{err:#}"),
            "cannot read standard input: not a text file (line 2, column 3: byte 0xff is not UTF-8)"
        );
    }

    #[test]
    fn completions_into_a_closed_pipe_end_quietly() {
        let (mut stdin, mut stdout, mut stderr) = (&b""[..], ClosedPipe, Vec::new());
        let mut io = Io::piped(&mut stdin, &mut stdout, &mut stderr);
        assert_eq!(run(counter, ["csp-counter", "completions", "bash"], &mut io), EXIT_OK);
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
