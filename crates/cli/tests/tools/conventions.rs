//! The conventions every tool keeps (`csp_cli::app`, docs/tools.md), checked on
//! every tool: the one exit-code rule, `--version`, shell completions and the
//! manual page, results alone on stdout, `-q` and `-v`, and no colour in a pipe.

use std::io::Write;

use clap::Args;
use csp::{Model, ModelError, Solution};
use csp_cli::app::{self, Captured, Tool};
use csp_cli::gallery::{self, NoOptions, Puzzle};
use csp_cli::{Io, lab, queens, sudoku, xcsp};

/// Two different digits `a < b` that add up to `--sum`: a small gallery puzzle
/// whose answers are known (4 for 10, 1 for 17, none for 30).
struct Sum(i64);

#[derive(Args, Clone, Debug)]
struct SumArgs {
    /// The sum.
    #[arg(long, default_value_t = 10)]
    sum: i64,
    /// Warn on stderr while loading (as a puzzle file with a harmless mistake does).
    #[arg(long)]
    warn: bool,
}

impl Puzzle for Sum {
    type Args = SumArgs;
    type Options = NoOptions;
    const NAME: &'static str = "sum";
    const ABOUT: &'static str = "Two different digits with a given sum.";
    const WHAT: &'static str = "a sum of two digits";

    fn load(args: &SumArgs, io: &mut Io<'_>) -> anyhow::Result<(String, Sum)> {
        if args.warn {
            writeln!(io.stderr, "warning: this is a warning")?;
        }
        Ok((format!("sum {}", args.sum), Sum(args.sum)))
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        let mut model = Model::new();
        let a = model.new_named_var("a", 0..=9)?;
        let b = model.new_named_var("b", 0..=9)?;
        model.linear(&[(1, a), (1, b)], csp::Relation::Eq, self.0)?;
        model.less_than(a, b)?;
        Ok(model)
    }

    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        writeln!(out, "{} + {} = {}", solution["a"], solution["b"], self.0)?;
        Ok(())
    }
}

const GALLERY: Tool = gallery::run::<Sum>;

/// Runs `tool` on `args` (the program name first) with `stdin`.
fn run(tool: Tool, args: &[&str], stdin: &str) -> Captured {
    app::capture(tool, args.iter().copied(), stdin)
}

/// Asserts the exit status of each case, naming the case when it differs.
fn assert_codes(tool: Tool, cases: &[(&[&str], &str, u8)]) {
    for (args, stdin, code) in cases {
        let r = run(tool, args, stdin);
        assert_eq!(r.code, *code, "{args:?}: stdout {:?}, stderr {:?}", r.stdout, r.stderr);
    }
}

/// A 4x4 sudoku whose first cell has no candidate left (row 1 has 2 and 3,
/// column 1 has 1 and 4), though no two givens clash.
const NO_SOLUTION_4X4: &str = ".23.1...4.......\n";

#[test]
fn every_tool_exits_zero_for_yes_one_for_no_and_two_for_bad_input() {
    assert_codes(
        sudoku::main,
        &[
            (&["sudoku", "solve"], "1...............\n", 0),
            (&["sudoku", "solve"], NO_SOLUTION_4X4, 1),
            (&["sudoku", "count"], NO_SOLUTION_4X4, 1),
            (&["sudoku", "check"], "1234341221434321\n", 0),
            (&["sudoku", "check"], "1234341221433412\n", 1),
            (&["sudoku", "solve"], "11..............\n", 2),
            (&["sudoku", "solve", "--frobnicate"], "", 2),
        ],
    );
    assert_codes(
        queens::main,
        &[
            (&["queens", "8"], "", 0),
            (&["queens", "8", "--count"], "", 0),
            (&["queens", "3"], "", 1),
            (&["queens", "3", "--count"], "", 1),
            (&["queens", "3", "--all"], "", 1),
            (&["queens", "12", "--count", "--node-limit", "10"], "", 1),
            (&["queens", "8", "--count", "--limit", "5"], "", 0),
            (&["queens", "0"], "", 2),
            (&["queens", "--frobnicate"], "", 2),
            (&["queens", "compare", "6", "--seeds", "10-1"], "", 2),
            (&["queens", "compare", "6", "--configs", "fc+mrv,mac+random+seed=3", "--seeds", "1-2"], "", 2),
        ],
    );
    assert_codes(
        lab::main,
        &[
            (&["lab", "one", "--vars", "5", "--values", "3", "--configs", "fc+mrv,mac+mrv"], "", 0),
            (
                &["lab", "one", "--vars", "5", "--values", "3", "--configs", "fc+mrv,mac+random", "--seeds", "1-3"],
                "",
                0,
            ),
            (&["lab", "one", "--vars", "5", "--values", "3", "--seeds", ""], "", 2),
            (&["lab", "--samples", "0"], "", 2),
            (&["lab", "--frobnicate"], "", 2),
            (&["lab", "compare", "--configs", "fc+mrv", "model.txt"], "", 2),
        ],
    );
    // A satisfiable instance, an unsatisfiable one, a malformed one (from stdin).
    let instance = |constraint: &str| {
        format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[3]\"> 1..2 </array>\
             </variables><constraints>{constraint}</constraints></instance>"
        )
    };
    assert_codes(
        xcsp::main,
        &[
            (&["csp-xcsp", "-"], &instance("<allEqual> x[] </allEqual>"), 0),
            (&["csp-xcsp", "-"], &instance("<allDifferent> x[] </allDifferent>"), 1),
            (&["csp-xcsp", "-"], "<instance", 2),
            (&["csp-xcsp", "--frobnicate"], "", 2),
        ],
    );
    assert_codes(
        GALLERY,
        &[
            (&["sum"], "", 0),
            (&["sum", "--count"], "", 0),
            (&["sum", "--sum", "30"], "", 1),
            (&["sum", "--sum", "30", "--count"], "", 1),
            (&["sum", "--count", "--node-limit", "1"], "", 1),
            (&["sum", "--compare", "--configs", "fc+mrv,mac+mrv"], "", 0),
            (&["sum", "--compare", "--configs", "fc+mrv+random", "--seeds", "3-1"], "", 2),
            (&["sum", "--sum", "x"], "", 2),
        ],
    );
}

#[test]
fn a_gallery_count_of_zero_says_so_and_exits_one() {
    let r = run(GALLERY, &["sum", "--sum", "30", "--count"], "");
    assert_eq!((r.code, r.stdout.as_str()), (1, "0 solutions\n"));
    let r = run(GALLERY, &["sum", "--sum", "17", "--count"], "");
    assert_eq!((r.code, r.stdout.as_str()), (0, "1 solution\n"));
}

#[test]
fn every_tool_says_its_version() {
    let expected = |name: &str| format!("{name} {}\n", env!("CARGO_PKG_VERSION"));
    let tools = [
        (sudoku::main as Tool, "csp-sudoku"),
        (queens::main, "csp-queens"),
        (lab::main, "csp-lab"),
        (xcsp::main, "csp-xcsp"),
    ];
    for (tool, name) in tools {
        for flag in ["--version", "-V"] {
            let r = run(tool, &[name, flag], "");
            assert_eq!(
                (r.code, r.stdout.as_str(), r.stderr.as_str()),
                (0, expected(name).as_str(), ""),
                "{name} {flag}"
            );
        }
    }
    // Run as an example, a tool says the example's name.
    assert_eq!(run(queens::main, &["queens", "--version"], "").stdout, expected("queens"));
    // Subcommands and gallery examples have it too.
    assert_eq!(run(queens::main, &["csp-queens", "compare", "--version"], "").code, 0);
    assert_eq!(run(sudoku::main, &["csp-sudoku", "count", "--version"], "").code, 0);
    assert_eq!(run(GALLERY, &["sum", "--version"], "").stdout, expected("sum"));
    assert_eq!(run(GALLERY, &["sum", "--compare", "--version"], "").stdout, expected("sum"));
}

#[test]
fn every_tool_writes_shell_completions_and_a_manual_page() {
    let tools = [
        (sudoku::main as Tool, "csp-sudoku", &["solve", "generate", "--propagation", "--box"][..]),
        (queens::main, "csp-queens", &["compare", "--local-search", "--output"]),
        (lab::main, "csp-lab", &["sweep", "one", "compare", "--tightness"]),
        (xcsp::main, "csp-xcsp", &["compare", "--config", "--node-limit"]),
    ];
    for (tool, name, words) in tools {
        for (shell, mark) in [
            ("bash", format!("-o bashdefault -o default {name}")),
            ("zsh", format!("#compdef {name}")),
            ("fish", format!("complete -c {name}")),
            ("elvish", format!("edit:completion:arg-completer[{name}]")),
            ("powershell", format!("Register-ArgumentCompleter -Native -CommandName '{name}'")),
        ] {
            let r = run(tool, &[name, "completions", shell], "");
            assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{name} completions {shell}");
            assert!(r.stdout.contains(&mark), "{name} {shell}: {}", r.stdout);
            for word in words {
                assert!(r.stdout.contains(word.trim_start_matches('-')), "{name} {shell} lacks {word}");
            }
        }
        let page = run(tool, &[name, "man"], "");
        assert_eq!(page.code, 0, "{name}: {}", page.stderr);
        assert!(page.stdout.contains(&format!(".TH {name} 1")), "{name}: {}", page.stdout);
        assert!(page.stdout.contains(".SH SUBCOMMANDS") && page.stdout.contains("completions"), "{name}");
        let bad = run(tool, &[name, "completions", "tcsh"], "");
        assert_eq!(bad.code, 2, "{name}: an unknown shell is bad usage");
        assert!(bad.stderr.contains("[possible values: bash, elvish, fish, powershell, zsh]"), "{}", bad.stderr);
    }
}

#[test]
fn results_alone_on_stdout_statistics_on_stderr() {
    let r = run(GALLERY, &["sum", "--stats"], "");
    assert_eq!(r.stdout, "1 + 9 = 10\n");
    assert!(r.stderr.starts_with("stats: nodes ") && r.stderr.contains("\npruned by: "), "{}", r.stderr);
    let r = run(GALLERY, &["sum", "--count", "-v"], "");
    assert_eq!(r.stdout, "4 solutions\n");
    assert!(r.stderr.starts_with("stats: nodes "), "-v asks for the statistics: {}", r.stderr);
    let r = run(queens::main, &["queens", "6", "--output", "line", "--stats"], "");
    assert_eq!(r.stdout.lines().count(), 1);
    assert!(r.stderr.contains("nodes"), "{}", r.stderr);
    let r = run(sudoku::main, &["sudoku", "solve", "--output", "line", "--stats"], "1...............\n");
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    assert!(r.stderr.contains("puzzles"), "{}", r.stderr);
}

#[test]
fn quiet_leaves_only_errors_on_stderr() {
    let r = run(GALLERY, &["sum", "--warn", "--stats"], "");
    assert!(r.stderr.starts_with("warning: this is a warning\nstats: "), "{}", r.stderr);
    let r = run(GALLERY, &["sum", "--warn", "--stats", "-q"], "");
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "1 + 9 = 10\n", ""));
    let r = run(GALLERY, &["sum", "--sum", "x", "-q"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("invalid value 'x'"), "errors stay: {}", r.stderr);
    let r = run(queens::main, &["queens", "6", "--quiet"], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(r.stdout.lines().count(), 6, "the board alone: {}", r.stdout);
}

/// A FlatZinc model with an objective (csp-flatzinc's test fixture).
const KNAPSACK_FZN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../flatzinc/tests/fixtures/knapsack01.fzn");

/// Each case: a command that writes notes or statistics on stderr, and the
/// same with `-q`, which leaves stdout and the exit status as they were.
#[test]
fn quiet_silences_every_note_of_the_sudoku_tool_and_the_lab() {
    let cases: [(Tool, &[&str], &str); 10] = [
        // The built-in example, with a note that nothing came on stdin.
        (sudoku::main, &["sudoku", "solve", "--stats"], ""),
        (sudoku::main, &["sudoku", "count", "--stats"], ""),
        (sudoku::main, &["sudoku", "rate", "--stats"], ""),
        (sudoku::main, &["sudoku", "check"], ""),
        // 17 givens cannot be reached: a note says why.
        (sudoku::main, &["sudoku", "generate", "--size", "9", "--givens", "17"], ""),
        // A limit stops runs: a note says their counts are lower bounds.
        (sudoku::main, &["sudoku", "compare", "--configs", "bt+input", "--node-limit", "1", "--repeats", "1"], ""),
        (lab::main, &["lab", "--samples", "1", "--sweep", "0.3", "--algorithms", "fc"], ""),
        (lab::main, &["lab", "rtd", "--vars", "6", "--values", "3", "--runs", "2", "--configs", "fc+mrv"], ""),
        // A model file's objective is ignored unless --goal optimize: a note says so.
        (lab::main, &["lab", "compare", "--configs", "fc+mrv", "--repeats", "1", KNAPSACK_FZN], ""),
        (GALLERY, &["sum", "--compare", "--configs", "bt+input", "--node-limit", "1", "--repeats", "1"], ""),
    ];
    for (tool, args, stdin) in cases {
        let loud = run(tool, args, stdin);
        assert!(!loud.stderr.is_empty(), "{args:?} writes something on stderr without -q");
        assert!(!loud.stderr.contains("error"), "{args:?}: {}", loud.stderr);
        let quiet_args: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
        let quiet = run(tool, &quiet_args, stdin);
        assert_eq!(quiet.stderr, "", "{quiet_args:?}");
        assert_eq!(quiet.code, loud.code, "{quiet_args:?}");
        // Compare tables and the lab's output hold times, which differ from run to run.
        if !args.contains(&"compare") && !args.contains(&"--compare") && args[0] != "lab" {
            assert_eq!(quiet.stdout, loud.stdout, "{quiet_args:?}: -q changes stderr alone");
        }
    }
    // Errors stay.
    let r = run(sudoku::main, &["sudoku", "solve", "-q"], "11..............\n");
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with("error: <stdin>:1: conflicting givens"), "{}", r.stderr);
}

#[test]
fn verbose_asks_for_the_statistics_where_there_are_some_and_is_refused_elsewhere() {
    for command in ["solve", "count", "rate"] {
        let r = run(sudoku::main, &["sudoku", command, "-v"], "1.42421321.43421\n");
        assert_eq!(r.code, 0, "{command}: {}", r.stderr);
        assert!(r.stderr.starts_with("puzzles         1 "), "{command} -v is --stats: {}", r.stderr);
        assert!(run(sudoku::main, &["sudoku", command], "1.42421321.43421\n").stderr.is_empty(), "{command}");
        assert_eq!(run(sudoku::main, &["sudoku", command, "-q", "-v"], "").code, 2, "{command}: -q or -v");
    }
    for args in [&["sudoku", "check", "-v"][..], &["sudoku", "trace", "-v"], &["lab", "one", "-v"]] {
        let tool = if args[0] == "lab" { lab::main as Tool } else { sudoku::main };
        let r = run(tool, args, "");
        assert_eq!(r.code, 2, "{args:?}: no statistics for -v to ask for");
        assert!(r.stderr.contains("unexpected argument '-v'"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn help_and_errors_in_a_pipe_have_no_colour() {
    for (tool, args) in [
        (sudoku::main as Tool, &["sudoku", "--help"][..]),
        (sudoku::main, &["sudoku", "--frobnicate"]),
        (queens::main, &["queens", "--help"]),
        (lab::main, &["lab", "sweep", "--help"]),
        (GALLERY, &["sum", "--help"]),
        (GALLERY, &["sum", "--frobnicate"]),
    ] {
        let r = run(tool, args, "");
        assert!(!r.stdout.contains('\x1b') && !r.stderr.contains('\x1b'), "{args:?}: {r:?}");
        assert!(!(r.stdout.is_empty() && r.stderr.is_empty()), "{args:?}");
    }
}

/// A tool that reads its one file as a gallery example does and prints its length.
fn read_one(args: Vec<std::ffi::OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let text = gallery::read_input(std::path::Path::new(&args[1]), io)?;
    writeln!(io.stdout, "{}", text.len())?;
    Ok(app::EXIT_OK)
}

/// The gallery's inputs fail as the sudoku tool's do: in words, naming the
/// file, with status 2 (not `Is a directory (os error 21)` or `stream did not
/// contain valid UTF-8`).
#[test]
fn gallery_inputs_that_are_not_puzzle_files_are_named_in_words() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let binary = dir.join("gallery-binary.txt");
    std::fs::write(&binary, b"3 4\n\xff\xfe\n").unwrap();
    let long = dir.join("gallery-long-line.txt");
    std::fs::write(&long, format!("3 4\n{}\n", "1 ".repeat(gallery::MAX_LINE_BYTES))).unwrap();
    let text = dir.join("gallery-text.txt");
    std::fs::write(&text, "3 4\n").unwrap();
    let path = |p: &std::path::Path| p.display().to_string();
    let cases = [
        (path(&dir), "is a directory, not a puzzle file"),
        (path(&dir.join("no-such-file.txt")), "cannot open: no such file"),
        (path(&binary), "not a text file (line 2, column 1: byte 0xff is not UTF-8)"),
        (path(&long), "line 2 is longer than 65536 bytes, far more than any puzzle's"),
    ];
    for (file, reason) in cases {
        let r = run(read_one, &["read", &file], "");
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{file}");
        assert_eq!(r.stderr, format!("error: cannot read {file}: {reason}\n"));
    }
    assert_eq!(run(read_one, &["read", &path(&text)], "").stdout, "4\n");
    assert_eq!(run(read_one, &["read", "-"], "12345").stdout, "5\n");
    // A byte order mark (Windows' Notepad) is not part of the text, from a file or stdin.
    let marked = dir.join("gallery-byte-order-mark.txt");
    std::fs::write(&marked, "\u{feff}3 4\n").unwrap();
    assert_eq!(run(read_one, &["read", &path(&marked)], "").stdout, "4\n");
    assert_eq!(run(read_one, &["read", "-"], "\u{feff}12345").stdout, "5\n");
}

#[test]
fn a_negative_limit_is_refused_naming_the_option_on_every_tool() {
    // Not clap's "unexpected argument '-1'" with its tip to write `-- -1`
    // (which would make it a file name): the option and what it wants.
    let cases: [(Tool, &[&str], &str); 15] = [
        (sudoku::main, &["sudoku", "solve", "--timeout", "-1"], "'-1' is not a non-negative number of seconds"),
        (sudoku::main, &["sudoku", "solve", "--node-limit", "-1"], "--node-limit"),
        (sudoku::main, &["sudoku", "compare", "--cpu-timeout", "-0.5"], "'-0.5' is not a non-negative number"),
        (sudoku::main, &["sudoku", "hint", "--timeout", "-2"], "'-2' is not a non-negative number of seconds"),
        (queens::main, &["queens", "8", "--timeout", "-1"], "'-1' is not a non-negative number of seconds"),
        (queens::main, &["queens", "8", "--local-search", "--max-steps", "-1"], "--max-steps"),
        (lab::main, &["lab", "sweep", "--cpu-timeout", "-1"], "'-1' is not a non-negative number of seconds"),
        (lab::main, &["lab", "one", "--node-limit", "-3"], "--node-limit"),
        (xcsp::main, &["csp-xcsp", "-t", "-1", "x.xml"], "'-1' is not a non-negative number of seconds"),
        // Every option that takes a number, not only the limits.
        // Each says which whole numbers it takes (not Rust's "invalid digit found in string").
        (
            sudoku::main,
            &["sudoku", "generate", "--count", "-2"],
            "'-2' for '--count <K>': must be a whole number, 0 or more",
        ),
        (
            sudoku::main,
            &["sudoku", "solve", "--node-limit", "x"],
            "'x' for '--node-limit <N>': must be a whole number, 0 or more",
        ),
        (sudoku::main, &["sudoku", "solve", "-j", "0"], "'0' for '--jobs <N>': must be a whole number, from 1 to 256"),
        (
            lab::main,
            &["lab", "sweep", "--samples", "-5"],
            "'-5' for '--samples <K>': must be a whole number, 1 or more",
        ),
        (queens::main, &["queens", "-4"], "N must be at least 1, got -4"),
        (queens::main, &["queens", "8", "--limit", "-1"], "'-1' for '--limit <K>': must be a whole number, 1 or more"),
    ];
    for (tool, args, expected) in cases {
        let r = run(tool, args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(expected), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("unexpected argument"), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{args:?}");
    }
}

#[test]
fn model_files_that_are_not_models_are_named_in_words() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let binary = dir.join("xcsp-binary.xml");
    std::fs::write(&binary, b"<instance>\xff</instance>\n").unwrap();
    let cases = [
        (dir.display().to_string(), "is a directory, not a model file"),
        (dir.join("no-such-instance.xml").display().to_string(), "cannot open: no such file"),
        (binary.display().to_string(), "not a text file (line 1, column 11: byte 0xff is not UTF-8)"),
    ];
    for (file, reason) in &cases {
        let r = run(xcsp::main, &["csp-xcsp", file], "");
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{file}");
        assert_eq!(r.stderr, format!("error: cannot read {file}: {reason}\n"));
    }
    // `lab compare` reads them the same way.
    let (file, reason) = &cases[2];
    let r = run(lab::main, &["lab", "compare", file], "");
    assert_eq!((r.code, r.stderr.clone()), (2, format!("error: cannot read {file}: {reason}\n")));
}

#[test]
fn a_default_of_the_running_machine_is_shown_in_words_not_as_its_number() {
    // The workers default to the cores of the machine that runs the tool: a
    // number in the help (or in a manual page made elsewhere) would be wrong
    // on every other machine.
    let helps = [
        (sudoku::main as Tool, &["sudoku", "solve", "--help"][..]),
        (sudoku::main, &["sudoku", "count", "-h"]),
        (sudoku::main, &["sudoku", "rate", "--help"]),
        (sudoku::main, &["sudoku", "generate", "--help"]),
        (sudoku::main, &["sudoku", "--help"]),
        (lab::main, &["lab", "sweep", "--help"]),
        (lab::main, &["lab", "rtd", "-h"]),
    ];
    for (tool, args) in helps {
        let r = run(tool, args, "");
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        // The option's lines: from the line that opens with `--jobs` (or
        // `-j, --jobs`; other options' help may name it) to the next option.
        let opens_the_line = |at: usize| {
            let line = r.stdout[..at].rfind('\n').map_or(0, |newline| newline + 1);
            matches!(r.stdout[line..at].trim(), "" | "-j,")
        };
        let at = r.stdout.match_indices("--jobs").map(|(at, _)| at).find(|&at| opens_the_line(at));
        let at = at.unwrap_or_else(|| panic!("{args:?}: {}", r.stdout));
        let block = r.stdout[at..].split("\n  -").next().unwrap();
        assert!(block.contains("[default: the number of cores]"), "{args:?}: {block}");
        assert_eq!(block.matches("default").count(), 1, "{args:?}: {block}");
    }
    let page = run(sudoku::main, &["sudoku", "man"], "");
    assert!(page.stdout.contains("[default: the number of cores]"), "{}", page.stdout);
}
