//! Where puzzles come from, and the streaming driver every batch command uses:
//! it reads one source after the other, hands the puzzles to a worker (in
//! parallel chunks with `--jobs`), and gives the results back in input order.
//! Memory stays constant: at most one chunk of puzzles is alive at a time.
//! Gzipped input (a file or stdin that starts with gzip's magic bytes) is
//! read through a decoder; puzzles typed on a terminal are handled one at a
//! time, as each is entered. A puzzle written out on the command line, in
//! place of a file that does not exist, is read as it is.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context as _;
use clap::Args;
use csp_sudoku::parse::{ParseError, Puzzle, PuzzleReader};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use super::{BUILTIN_PUZZLE, InputArgs, Io, default_jobs};
use crate::app::{self, Verbosity};

/// One input.
#[derive(Clone, Debug)]
enum Source {
    Stdin,
    File(PathBuf),
    Builtin,
    /// A puzzle given as the `n`th argument (counting from 1) instead of a
    /// file: see [`inline_puzzle`].
    Inline {
        n: usize,
        text: String,
    },
}

impl Source {
    fn name(&self) -> Arc<str> {
        match self {
            Source::Stdin => "<stdin>".into(),
            Source::File(path) => path.display().to_string().into(),
            Source::Builtin => "<example>".into(),
            Source::Inline { n, .. } => format!("<argument {n}>").into(),
        }
    }
}

/// Whether a file argument is a puzzle itself (`sudoku solve 53..7....6..`):
/// only when no file of that name exists and the reader, with the command's
/// settings, reads the argument as exactly one puzzle without an error. Any
/// other argument stays a file name, and a missing one is reported as such
/// (with [`not_a_puzzle`]'s reason when it looks like a mistyped puzzle).
fn inline_puzzle(arg: &Path, input: &InputArgs) -> Option<String> {
    let text = arg.to_str()?;
    if text.contains(['/', '\\', '\n']) || arg.symlink_metadata().is_ok() {
        return None;
    }
    let mut puzzles = PuzzleReader::new(text.as_bytes()).shape(input.shape).notation(input.notation);
    match (puzzles.next(), puzzles.next()) {
        (Some(Ok(_)), None) => Some(text.to_string()),
        _ => None,
    }
}

/// Why a missing file's name, written like a 9x9-style puzzle line (at least
/// 16 digits and empty-cell marks, nothing else), is not a puzzle either: the
/// reader's error, for `error: NAME: cannot open: no such file, nor is it a
/// puzzle: ...`. `None` for a name that does not look like a puzzle.
fn not_a_puzzle(arg: &Path, input: &InputArgs) -> Option<String> {
    let text = arg.to_str()?;
    if text.len() < 16 || !text.bytes().all(|b| b.is_ascii_digit() || b".-_*".contains(&b)) {
        return None;
    }
    let mut puzzles = PuzzleReader::new(text.as_bytes()).shape(input.shape).notation(input.notation);
    puzzles.find_map(Result::err).map(|err| match err.column {
        Some(column) => format!("column {column}: {}", err.kind),
        None => err.kind.to_string(),
    })
}

/// The sources named on the command line: `-` is stdin; none means stdin, or
/// the built-in example when stdin is a terminal (nobody is typing puzzles)
/// or turns out to be empty (see [`for_each_puzzle`]).
fn sources(input: &InputArgs, stdin_is_terminal: bool) -> Vec<Source> {
    if input.files.is_empty() {
        return vec![if stdin_is_terminal { Source::Builtin } else { Source::Stdin }];
    }
    let source = |(i, file): (usize, &PathBuf)| {
        if file.as_os_str() == "-" {
            Source::Stdin
        } else if let Some(text) = inline_puzzle(file, input) {
            Source::Inline { n: i + 1, text }
        } else {
            Source::File(file.clone())
        }
    };
    input.files.iter().enumerate().map(source).collect()
}

/// Where a puzzle came from, for messages: `file:line`, or
/// `file:line:column` for a puzzle the reader rejected at one place (as its
/// error on stderr says).
#[derive(Clone, Debug)]
pub(super) struct Location {
    pub file: Arc<str>,
    pub line: usize,
    /// The column the reader's error names, counting from 1.
    pub column: Option<usize>,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)?;
        match self.column {
            Some(column) => write!(f, ":{column}"),
            None => Ok(()),
        }
    }
}

/// What the driver hands to a command's `emit` for each input puzzle.
pub(super) enum Item<'a, R> {
    /// The worker's result for a puzzle that was read.
    Done(&'a Puzzle, R),
    /// A puzzle that could not be read (already reported on stderr).
    Bad(&'a ParseError),
}

/// Totals the driver keeps.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Totals {
    /// Inputs that could not be opened or held no puzzle.
    pub bad_sources: u64,
    /// Puzzles that could not be read.
    pub bad_puzzles: u64,
}

/// The options of every batch command (`solve`, `count`, `rate`): the
/// summary, how much goes to stderr, and the threads. Flatten it with
/// `#[command(flatten)]`.
#[derive(Args, Debug, Clone)]
pub(super) struct BatchArgs {
    /// Print a summary of the batch on stderr: counts, time per puzzle and the command's own totals.
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub verbosity: Verbosity,
    #[command(flatten)]
    jobs: JobsArgs,
}

/// `--jobs N`: the puzzles worked on in parallel, of every batch command
/// ([`BatchArgs`]) and of `explain` and `hint`, which have no summary.
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct JobsArgs {
    /// Work on this many puzzles in parallel (output stays in input order) [default: the number of cores].
    // No `default_value_t`: clap would print the number of cores of the
    // machine that shows the help (or made the manual page) as the default.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
}

impl JobsArgs {
    /// The workers: `--jobs`, or one per core.
    pub(super) fn jobs(self) -> u16 {
        self.jobs.unwrap_or_else(default_jobs)
    }
}

impl BatchArgs {
    /// How the driver runs the batch.
    pub(super) fn options(&self) -> BatchOptions {
        BatchOptions { jobs: self.jobs(), notes: self.verbosity.notes() }
    }

    /// The workers: `--jobs`, or one per core.
    pub(super) fn jobs(&self) -> u16 {
        self.jobs.jobs()
    }

    /// Whether to print the summary: with `--stats` or `-v`, never with `-q`.
    pub(super) fn stats(&self) -> bool {
        self.verbosity.stats(self.stats)
    }
}

/// How a batch runs: on how many threads, and whether notes and progress
/// go to stderr (not with `-q`; errors always do).
#[derive(Clone, Copy, Debug)]
pub(super) struct BatchOptions {
    /// Worker threads (1: the calling thread alone).
    pub jobs: u16,
    /// Notes and the progress bar on stderr.
    pub notes: bool,
}

/// The output buffer and stderr, as `emit` sees them.
pub(super) struct Sink<'a> {
    /// Text for stdout, flushed by the driver.
    pub out: String,
    pub stderr: &'a mut dyn Write,
}

/// Reads every puzzle of the inputs, runs `work` on each (on `options.jobs`
/// threads), and calls `emit` on the results in input order. Unreadable
/// inputs and puzzles are reported on stderr as `error: file:line:column: ...`.
pub(super) fn for_each_puzzle<R: Send>(
    input: &InputArgs,
    options: BatchOptions,
    io: &mut Io<'_>,
    work: impl Fn(&Puzzle) -> R + Sync,
    mut emit: impl FnMut(&mut Sink<'_>, &Location, Item<'_, R>) -> anyhow::Result<()>,
) -> anyhow::Result<Totals> {
    let sources = sources(input, io.stdin_is_terminal);
    let jobs = options.jobs;
    let pool = if jobs > 1 {
        Some(rayon::ThreadPoolBuilder::new().num_threads(usize::from(jobs)).build().context("cannot start threads")?)
    } else {
        None
    };
    let batch_chunk = if jobs > 1 { 256 * usize::from(jobs) } else { 1 };
    let progress = if options.notes { progress_bar(&sources, io) } else { None };
    let mut totals = Totals::default();
    let mut done_bytes = 0u64;
    let mut sink = Sink { out: String::with_capacity(1 << 16), stderr: &mut *io.stderr };
    let mut chunk: Vec<Result<Puzzle, ParseError>> = Vec::with_capacity(batch_chunk);
    for source in &sources {
        // Without a file, stdin that ends before its first byte (`< /dev/null`,
        // a script or a CI job with nothing piped in) means no input was given:
        // the built-in example then, as on a terminal. An explicit `-` that is
        // empty stays an error, like an empty file.
        let implicit_empty = matches!(source, Source::Stdin)
            && input.files.is_empty()
            && !io.stdin_is_terminal
            && io.stdin.fill_buf().is_ok_and(|bytes| bytes.is_empty());
        let source = if implicit_empty {
            if options.notes {
                writeln!(sink.stderr, "note: no file and nothing on stdin: solving the built-in example")?;
            }
            &Source::Builtin
        } else {
            source
        };
        let name = source.name();
        let (reader, interactive): (Box<dyn BufRead + '_>, bool) = match source {
            Source::Stdin => (gunzipped(&mut *io.stdin).0, true),
            Source::Builtin => (Box::new(BUILTIN_PUZZLE.as_bytes()), false),
            Source::Inline { text, .. } => (Box::new(text.as_bytes()), false),
            Source::File(path) => match app::open_input(path) {
                Ok(file) => {
                    let (reader, gzip) = gunzipped(BufReader::with_capacity(1 << 16, file));
                    let named_gz = path.extension().is_some_and(|extension| extension.eq_ignore_ascii_case("gz"));
                    if named_gz && !gzip && options.notes {
                        writeln!(
                            sink.stderr,
                            "note: {name}: not gzip data (no gzip header), though named .gz: read as it is"
                        )?;
                    }
                    (reader, false)
                }
                Err(message) => {
                    match not_a_puzzle(path, input) {
                        Some(why) => writeln!(sink.stderr, "error: {name}: {message}, nor is it a puzzle: {why}")?,
                        None => writeln!(sink.stderr, "error: {name}: {message}")?,
                    }
                    totals.bad_sources += 1;
                    continue;
                }
            },
        };
        // Someone typing puzzles wants each answer as the puzzle is entered,
        // not after a chunk of hundreds or the end of the input.
        // For the same reason a line of 16 symbols is a 4x4 puzzle, not
        // judged by the sixteen lines after it (which may be a 16x16's rows).
        let typed = matches!(source, Source::Stdin) && io.stdin_is_terminal;
        let chunk_size = if typed { 1 } else { batch_chunk };
        let mut reader = PuzzleReader::new(reader)
            .file(Arc::clone(&name))
            .shape(input.shape)
            .notation(input.notation)
            .read_ahead(!typed);
        let mut count = 0u64;
        loop {
            chunk.clear();
            chunk.extend(reader.by_ref().take(chunk_size));
            if chunk.is_empty() {
                break;
            }
            count += chunk.len() as u64;
            let results: Vec<Option<R>> = match &pool {
                Some(pool) => pool.install(|| chunk.par_iter().map(|p| p.as_ref().ok().map(&work)).collect()),
                None => chunk.iter().map(|p| p.as_ref().ok().map(&work)).collect(),
            };
            for (puzzle, result) in chunk.iter().zip(results) {
                match (puzzle, result) {
                    (Ok(puzzle), Some(result)) => {
                        let location = Location { file: Arc::clone(&name), line: puzzle.line, column: None };
                        emit(&mut sink, &location, Item::Done(puzzle, result))?;
                    }
                    (Err(err), _) => {
                        writeln!(sink.stderr, "error: {err}")?;
                        totals.bad_puzzles += 1;
                        let location = Location { file: Arc::clone(&name), line: err.line, column: err.column };
                        emit(&mut sink, &location, Item::Bad(err))?;
                    }
                    // The worker runs on every puzzle that was read.
                    (Ok(_), None) => {}
                }
            }
            if interactive || sink.out.len() >= 1 << 15 {
                io.stdout.write_all(sink.out.as_bytes())?;
                sink.out.clear();
                if interactive {
                    io.stdout.flush()?;
                }
            }
            if let Some(bar) = &progress {
                bar.set_position(done_bytes + reader.bytes_read());
            }
        }
        done_bytes += reader.bytes_read();
        if count == 0 {
            writeln!(sink.stderr, "error: {name}: no puzzle found")?;
            totals.bad_sources += 1;
        }
    }
    io.stdout.write_all(sink.out.as_bytes())?;
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    Ok(totals)
}

/// The input itself, or its decompression when it starts with gzip's magic
/// bytes (`1f 8b`, which no text starts with), and whether it was gzip.
/// Several gzip members one after the other (`cat a.gz b.gz`) decompress as
/// one stream.
fn gunzipped<'a, R: BufRead + 'a>(mut input: R) -> (Box<dyn BufRead + 'a>, bool) {
    let gzip = input.fill_buf().is_ok_and(|bytes| bytes.starts_with(&[0x1f, 0x8b]));
    if gzip {
        let decoder = Gunzip(flate2::bufread::MultiGzDecoder::new(input));
        (Box::new(BufReader::with_capacity(1 << 16, decoder)), true)
    } else {
        (Box::new(input), false)
    }
}

/// A gzip decoder whose errors say that the gzip data is at fault (`damaged
/// gzip data (incomplete deflate stream)`), not the reading of the file.
struct Gunzip<R>(flate2::bufread::MultiGzDecoder<R>);

impl<R: BufRead> std::io::Read for Gunzip<R> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buffer).map_err(|err| std::io::Error::new(err.kind(), format!("damaged gzip data ({err})")))
    }
}

/// A progress bar on stderr for long batches, when stderr is a terminal
/// that can redraw ([`app::Terminal::redraw`]) and stdout is not a terminal (so
/// the bar does not tear the output): by bytes for files, a spinner for stdin.
fn progress_bar(sources: &[Source], io: &Io<'_>) -> Option<ProgressBar> {
    if !app::Terminal::from_env().redraw(io.stderr_is_terminal) || io.stdout_is_terminal {
        return None;
    }
    let mut total = 0u64;
    for source in sources {
        match source {
            // The bar counts the bytes read, which for a gzipped file are
            // not the file's: a spinner then.
            Source::File(path) if path.extension().is_none_or(|extension| extension != "gz") => {
                total += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            }
            Source::File(_) | Source::Stdin => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                bar.set_style(ProgressStyle::with_template("{spinner} {bytes} read ({bytes_per_sec})").ok()?);
                return Some(bar);
            }
            Source::Builtin | Source::Inline { .. } => {}
        }
    }
    // Small batches finish before a bar would be worth drawing.
    if total < 1 << 20 {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {percent:>3}% {bytes}/{total_bytes} ({bytes_per_sec}, eta {eta})")
            .ok()?,
    );
    Some(bar)
}
