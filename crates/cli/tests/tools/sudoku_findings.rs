//! What a careful user of the sudoku tool hit (issue #16), one test per
//! finding, each failing before its fix.

use std::cell::RefCell;
use std::io::{self, BufRead, Read, Write};
use std::process::Command;
use std::rc::Rc;

use crate::sudoku::{assert_bad, binary, puzzles_of, run, run_with, temp_file};

use csp_cli::{Io, app, sudoku};

const HARD: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// Every output the tools write reads back with its box shape: generate ->
/// solve -> check, for every shape, in every output format.
#[test]
fn every_box_shape_round_trips_through_generate_solve_and_check() {
    for shape in ["2x2", "2x3", "3x2", "2x4", "4x2", "3x3", "1x7", "2x5", "5x2", "3x4", "4x3"] {
        let made = run(&["generate", "--box", shape, "--count", "3", "--seed", "5"]);
        assert_eq!(made.code, 0, "{shape}: {}", made.stderr);
        assert!(puzzles_of(&made.stdout).iter().all(|p| p.shape().to_string() == shape), "{shape}: {}", made.stdout);
        for output in ["line", "pretty", "grid", "json"] {
            let solved = run_with(&["solve", "--output", output], Some(&made.stdout));
            assert_eq!(solved.code, 0, "{shape} {output}: {}", solved.stderr);
            let checked = run_with(&["check"], Some(&solved.stdout));
            assert_eq!(checked.code, 0, "{shape} {output}: {}\n{}", checked.stdout, solved.stdout);
            assert_eq!(checked.stdout.matches(": valid").count(), 3, "{shape} {output}: {}", checked.stdout);
        }
    }
    // `solve --box 3x2 FILE > s; check s`: the solutions say their shape.
    let made = run(&["generate", "--box", "3x2", "--count", "2"]);
    let bare: String = made.stdout.lines().map(|l| format!("{}\n", l.split(" # ").next().unwrap())).collect();
    let file = temp_file("bare-3x2.txt", bare.as_bytes());
    assert_eq!(run(&["solve", &file]).code, 2, "read as 2x3 boxes, the givens clash");
    let solved = run(&["solve", "--box", "3x2", &file]);
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(solved.stdout.contains("# box 3x2\n"), "{}", solved.stdout);
    assert_eq!(run_with(&["check"], Some(&solved.stdout)).code, 0);
    // A file's shape and --box must agree.
    assert_bad(&run_with(&["solve", "--box", "2x3"], Some(&made.stdout)), "the input gives boxes of 3x2");
}

#[test]
fn generated_json_is_json_lines_and_solve_reads_json() {
    let made = run(&["generate", "--box", "3x2", "--count", "3", "--output", "json"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert_eq!(made.stdout.lines().count(), 3);
    for line in made.stdout.lines() {
        let record: serde_json::Value = serde_json::from_str(line).expect("every line is a JSON object");
        assert_eq!((record["box"].as_str(), record["seed"].is_u64()), (Some("3x2"), true));
    }
    // solve takes JSON, and check takes solve's JSON.
    let solved = run_with(&["solve", "--output", "json"], Some(&made.stdout));
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let checked = run_with(&["check", "--output", "json"], Some(&solved.stdout));
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    for line in checked.stdout.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!((record["status"].as_str(), record["valid"].as_bool()), (Some("checked"), Some(true)), "{record}");
    }
}

#[test]
fn options_before_the_command_go_to_the_command() {
    let file = temp_file("options-first.txt", format!("{HARD}\n").as_bytes());
    let first = run(&["--output", "line", "solve", &file]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.stdout, run(&["solve", "--output", "line", &file]).stdout);
    let counted = run(&["--limit", "5", "-j", "1", "count", &file]);
    assert_eq!((counted.code, counted.stdout.trim_end()), (0, format!("1\t{file}:1").as_str()));
    // An option the command does not take is a usage error that names it.
    let r = run(&["--stats", "generate", "--size", "4"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unexpected argument '--stats'"), "{}", r.stderr);
}

#[test]
fn generate_says_why_it_kept_more_givens_than_asked() {
    let r = run(&["generate", "--size", "9", "--givens", "17", "--count", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let kept: Vec<usize> = puzzles_of(&r.stdout).iter().map(|p| p.num_givens()).collect();
    assert!(kept.iter().all(|&k| k > 17), "{kept:?}");
    assert!(
        r.stderr.starts_with("note: 2 of 2 puzzles kept ")
            && r.stderr.contains("givens, not the 17 wanted: removing any other given"),
        "{}",
        r.stderr
    );
    let r = run(&["generate", "--size", "9", "--givens", "17", "--check-nodes", "1"]);
    assert!(r.stderr.contains("proving it unique took more than --check-nodes 1 nodes"), "{}", r.stderr);
    assert!(run(&["generate", "--size", "9"]).stderr.is_empty(), "0.4 of the cells are reached");
    assert!(run(&["generate", "--size", "9", "--count", "1"]).stdout.starts_with("# 1 generated puzzle,"));
}

/// `--minimal` claims minimality only where every proof was decided, and
/// `--check-config` (a portfolio) is echoed in the command of the header.
#[test]
fn generate_minimal_says_which_puzzles_are_not_proved_minimal() {
    let r = run(&["generate", "--size", "9", "--minimal", "--count", "2", "-j", "1", "--check-nodes", "1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(puzzles_of(&r.stdout).len(), 2);
    assert!(r.stdout.contains("# seed 1: not proved minimal: ") && r.stdout.contains("undecided at --check-nodes 1"));
    let json = run(&["generate", "--size", "9", "--minimal", "--output", "json", "--check-nodes", "100000"]);
    assert!(json.stdout.contains("\"undecided\":0"), "{}", json.stdout);
    let portfolio = ["generate", "--size", "9", "--minimal", "--check-config", "mac+mrv,mac+learn+domwdeg"];
    let r = run(&portfolio);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("--check-config mac+mrv+matching,mac+learn+domwdeg+matching\n"), "{}", r.stdout);
    assert!(!r.stdout.contains(": not proved minimal"), "{}", r.stdout);
    let r = run(&["generate", "--size", "9", "--minimal", "--check-config", "mac+fastest"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("fastest"), "{}", r.stderr);
}

#[test]
fn a_comment_after_a_puzzle_is_a_comment() {
    let r = run_with(&["solve", "--output", "line"], Some(&format!("{HARD} # hard\n{HARD}\t#\n")));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 2);
    let r = run_with(&["count"], Some(&format!("{HARD}   # from top95, 17 givens\n")));
    assert_eq!((r.code, r.stdout.as_str()), (0, "unique\t<stdin>:1\n"));
}

#[test]
fn count_check_and_solve_write_json_with_times_and_givens() {
    let input = format!("{HARD}\n1..2..1..1.4...1\n1.4242132134342\n");
    let r = run_with(&["count", "--output", "json"], Some(&input));
    assert_eq!(r.code, 2, "the last line is bad input");
    let records: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((records[0]["verdict"].as_str(), records[0]["solutions"].as_u64()), (Some("unique"), Some(1)));
    assert_eq!((records[1]["verdict"].as_str(), records[1]["complete"].as_bool()), (Some("multiple"), Some(false)));
    assert!(records[0]["time_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(records[2]["status"], "invalid");
    let r = run_with(&["check", "--output", "json"], Some("1342421321343421\n3142421321343421\n1.42421321343421\n"));
    assert_eq!(r.code, 1);
    let records: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records[0]["valid"], true);
    assert_eq!(records[1]["broken"][0]["text"], "column 1: 3 at r1c1, r4c1; missing 1");
    assert_eq!(records[1]["broken"][0]["repeated"][0]["cells"][1], "r4c1");
    assert_eq!(records[2]["empty"][0], "r1c2");
    let r = run_with(&["solve", "--output", "json"], Some(HARD));
    let record: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(record["givens"], 17);
    assert!(record["time_ms"].as_f64().unwrap() > 0.0, "{record}");
}

/// Stdin typed by a person: a line at a time, and a check, before each new
/// line is handed out, that the answer to the line before is already out.
struct Typist {
    lines: Vec<String>,
    next: usize,
    buffer: Vec<u8>,
    at: usize,
    printed: Rc<RefCell<Vec<u8>>>,
}

impl Read for Typist {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Typist {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at == self.buffer.len() && self.next < self.lines.len() {
            // Before the next line is typed, the previous one was answered.
            let answers = String::from_utf8_lossy(&self.printed.borrow()).lines().count();
            assert_eq!(answers, self.next, "puzzle {} was not solved before the next was typed", self.next);
            self.buffer = format!("{}\n", self.lines[self.next]).into_bytes();
            self.at = 0;
            self.next += 1;
        }
        Ok(&self.buffer[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at += amount;
    }
}

/// A writer into a shared buffer.
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn puzzles_typed_on_a_terminal_are_solved_as_they_are_entered() {
    let printed = Rc::new(RefCell::new(Vec::new()));
    let lines =
        vec![HARD.to_string(), "1.42421321.43421".to_string(), "..6..35......134.......6..1....5..64".to_string()];
    let mut typist = Typist { lines, next: 0, buffer: Vec::new(), at: 0, printed: Rc::clone(&printed) };
    let (mut stdout, mut stderr) = (Shared(Rc::clone(&printed)), Vec::new());
    let io = Io {
        stdin: &mut typist,
        stdin_is_terminal: true,
        stdout: &mut stdout,
        stdout_is_terminal: true,
        stderr: &mut stderr,
        stderr_is_terminal: true,
    };
    let args = ["sudoku", "solve", "-", "--output", "line", "--jobs", "2"];
    assert_eq!(app::run(sudoku::main, args, &mut { io }), 0, "{}", String::from_utf8_lossy(&stderr));
    assert_eq!(String::from_utf8_lossy(&printed.borrow()).lines().count(), 3);
}

#[test]
fn gzipped_puzzles_are_read_as_they_are() {
    let text = format!("# two puzzles\n{HARD}\n1.42421321.43421\n");
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    let file = temp_file("puzzles.txt.gz", &gz);
    let r = run(&["solve", &file, "--output", "line"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let plain = run_with(&["solve", "--output", "line"], Some(&text));
    assert_eq!(r.stdout, plain.stdout);
    let r = run(&["count", &file]);
    assert!(r.stdout.ends_with("puzzles.txt.gz:3\n"), "line numbers are the text's: {}", r.stdout);
    // A damaged file says so and ends.
    let cut = temp_file("cut.txt.gz", &gz[..gz.len() / 2]);
    assert_bad(&run(&["solve", &cut]), "cut.txt.gz:");
    assert!(run(&["solve", &cut]).stderr.contains(": cannot read: damaged gzip data ("), "the gzip data is at fault");
    // A file named .gz that is not gzip is read as it is, with a note; binary garbage is then an error.
    let text = temp_file("text.txt.gz", text.as_bytes());
    let r = run(&["solve", &text, "--output", "line"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, plain.stdout.as_str()), "{}", r.stderr);
    assert!(r.stderr.ends_with("text.txt.gz: not gzip data (no gzip header), though named .gz: read as it is\n"));
    let garbage = temp_file("garbage.gz", &[0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x00, 0xff]);
    let r = run(&["solve", &garbage]);
    assert_bad(&r, "garbage.gz:1:10: this is not a text file (byte 0x00)");
    assert!(r.stderr.contains("not gzip data"), "{}", r.stderr);
    assert!(run(&["solve", &text, "-q"]).stderr.is_empty(), "-q: no note");
}

/// Runs the real binary under a pseudo-terminal of 80 columns and 24 rows
/// (util-linux's `script`), with these environment variables.
fn on_a_terminal(args: &str, environment: &[(&str, &str)]) -> Option<(i32, String)> {
    let script = Command::new("script").arg("--version").output();
    if !script.is_ok_and(|output| output.status.success()) {
        println!("skipped: util-linux's script (a pseudo-terminal) is not installed");
        return None;
    }
    let command = format!("stty cols 80 rows 24; {} {args}", binary().display());
    let mut child = Command::new("script");
    child.args(["-qec", &command, "/dev/null"]).stdin(std::process::Stdio::null());
    for (name, value) in environment {
        child.env(name, value);
    }
    let output = child.output().unwrap();
    Some((output.status.code().unwrap_or(-1), String::from_utf8_lossy(&output.stdout).into_owned()))
}

#[test]
fn animations_on_a_real_terminal_fit_it_and_follow_no_color_and_term() {
    let puzzle = temp_file("animate.txt", format!("{HARD}\n").as_bytes());
    let animate = format!("trace --animate --delay 0 --propagation fc {puzzle}");
    let Some((code, shown)) = on_a_terminal(&animate, &[("TERM", "xterm")]) else { return };
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("\x1b[H") && shown.contains("\x1b[1;30;42m"), "redrawn, in colour");
    let (_, no_color) = on_a_terminal(&animate, &[("TERM", "xterm"), ("NO_COLOR", "1")]).unwrap();
    assert!(no_color.contains("\x1b[H") && !no_color.contains("\x1b[1;30;42m"), "NO_COLOR: redrawn, no colours");
    let (_, dumb) = on_a_terminal(&animate, &[("TERM", "dumb")]).unwrap();
    assert!(!dumb.contains('\x1b'), "TERM=dumb: plain frames");
    // A 25x25 board does not fit 80x24: refused, saying what it needs.
    let big = temp_file("animate-25.txt", ".".repeat(625).as_bytes());
    let (code, shown) = on_a_terminal(&format!("trace --animate {big}"), &[("TERM", "xterm")]).unwrap();
    assert_eq!(code, 2, "{shown}");
    assert!(
        shown.contains("needs a terminal of at least 84 columns and 31 rows, and this one has 80 columns and 24 rows"),
        "{shown}"
    );
}

/// `--output json` everywhere: `trace` and `explain` say `--format jsonl`,
/// the other commands `--output json`; each takes the other spelling too.
#[test]
fn every_command_takes_json_output_under_either_spelling() {
    let puzzle = Some("1.42421321.43421\n");
    for (command, spelling) in [
        ("trace", &["--output", "json"][..]),
        ("trace", &["--format", "jsonl"]),
        ("explain", &["--output", "json"]),
        ("explain", &["--format", "json"]),
        ("count", &["--output", "jsonl"]),
        ("check", &["--output", "jsonl"]),
        ("rate", &["--output", "jsonl"]),
        ("hint", &["--output", "jsonl"]),
    ] {
        let args: Vec<&str> = [command].into_iter().chain(spelling.iter().copied()).collect();
        let r = run_with(&args, puzzle);
        assert!(r.code <= 1, "{args:?}: {}", r.stderr);
        for line in r.stdout.lines() {
            let record: Result<serde_json::Value, _> = serde_json::from_str(line);
            assert!(record.is_ok_and(|record| record.is_object()), "{args:?}: {line}");
        }
    }
}

/// `--help` of every command says what its exit status means and shows an example.
#[test]
fn every_command_help_gives_its_exit_status_and_examples() {
    for command in ["solve", "count", "trace", "check", "generate", "explain", "hint", "rate", "compare"] {
        let r = run(&[command, "--help"]);
        assert_eq!(r.code, 0, "{command}");
        assert!(r.stdout.contains("Exit status: 0 "), "{command} --help: {}", r.stdout);
        assert!(r.stdout.contains("Example"), "{command} --help: {}", r.stdout);
    }
}

/// The smallest grids: the 1x1 grid is generated (it was refused for an
/// empty domain, said twice), side 0 is named as such (not "give --box 1x0"),
/// and one given is "1 given".
#[test]
fn the_smallest_grids_are_generated_solved_and_described() {
    let made = run(&["generate", "--box", "1x1"]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stdout.ends_with("\n. # box 1x1\n"), "{}", made.stdout);
    let solved = run_with(&["solve"], Some(&made.stdout));
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(solved.stdout.contains("(1x1, 1x1 boxes, 0 givens, 0 nodes)"), "{}", solved.stdout);
    let r = run(&["generate", "--size", "0"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("not 0x0") && !r.stderr.contains("--box 1x0"), "{}", r.stderr);
    for command in ["solve", "trace", "explain"] {
        let r = run_with(&[command, "--box", "1x2"], Some("1...\n"));
        assert_eq!(r.code, 0, "{command}: {}", r.stderr);
        assert!(r.stdout.contains(" 1 given") && !r.stdout.contains(" 1 givens"), "{command}: {}", r.stdout);
    }
}

/// `count --output json` carries its puzzles, as `solve` and `rate` do: the
/// records read back, so a batch can be filtered by verdict and solved.
#[test]
fn counted_records_read_back_into_solve() {
    let made = run(&["generate", "--box", "3x2", "--count", "2", "--output", "json"]);
    let counted = run_with(&["count", "--output", "json"], Some(&made.stdout));
    assert_eq!(counted.code, 0, "{}", counted.stderr);
    for line in counted.stdout.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!((record["box"].as_str(), record["verdict"].as_str()), (Some("3x2"), Some("unique")), "{record}");
    }
    let solved = run_with(&["solve", "--output", "line"], Some(&counted.stdout));
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let expected = run_with(&["solve", "--output", "line"], Some(&made.stdout)).stdout;
    assert_eq!(solved.stdout, expected);
    // The JSON of trace and explain reads back as the puzzles they were given.
    for command in ["trace", "explain"] {
        let written = run_with(&[command, "--output", "json"], Some(&made.stdout));
        let solved = run_with(&["solve", "--output", "line"], Some(&written.stdout));
        assert_eq!((solved.code, solved.stderr.as_str()), (0, ""), "{command}");
        assert_eq!(solved.stdout, expected, "{command}");
    }
}
