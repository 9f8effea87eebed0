//! The `sudoku` tool, run in-process through `app::run`, and as the real
//! `csp-sudoku` process. Every solution it prints is checked with the engine-free verifier
//! (`csp_sudoku::check::verify_solution`) against the puzzle it came from.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common::{ClosedPipe, table_rows};

use csp_cli::{Io, app, sudoku};
use csp_sudoku::check::verify_solution;
use csp_sudoku::parse::{self, PuzzleReader};
use csp_sudoku::{Grid, Shape};

pub(crate) struct Run {
    pub(crate) code: u8,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
}

/// Runs the tool with `stdin` as piped input (or a terminal when `None`).
pub(crate) fn run_with(args: &[&str], stdin: Option<&str>) -> Run {
    run_on(args, stdin.unwrap_or(""), stdin.is_none(), false)
}

/// Runs the tool in-process on these streams: `stdin`'s text, and whether
/// stdin and stdout (and stderr, as stdout) are terminals.
fn run_on(args: &[&str], stdin: &str, stdin_is_terminal: bool, stdout_is_terminal: bool) -> Run {
    let mut input = stdin.as_bytes();
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let io = Io {
        stdin: &mut input,
        stdin_is_terminal,
        stdout: &mut stdout,
        stdout_is_terminal,
        stderr: &mut stderr,
        stderr_is_terminal: stdout_is_terminal,
    };
    let code = app::run(sudoku::main, std::iter::once("sudoku").chain(args.iter().copied()), &mut { io });
    Run { code, stdout: String::from_utf8(stdout).unwrap(), stderr: String::from_utf8(stderr).unwrap() }
}

pub(crate) fn run(args: &[&str]) -> Run {
    run_with(args, None)
}

pub(crate) fn shared(name: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku").join(name);
    if path.is_file() {
        Some(path.display().to_string())
    } else {
        println!("skipped: {} is absent (the shared data folder is not beside the repository)", path.display());
        None
    }
}

pub(crate) fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../sudoku/tests/data").join(name).display().to_string()
}

/// A file in the test scratch directory with these contents.
pub(crate) fn temp_file(name: &str, contents: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("sudoku-cli-{name}"));
    std::fs::write(&path, contents).unwrap();
    path.display().to_string()
}

pub(crate) fn puzzles_of(text: &str) -> Vec<Grid> {
    parse::puzzles(text).map(|p| p.unwrap().grid).collect()
}

const SEEDS: &str = "\
1.42421321343421
1..2..1..1.4...1
..6..35......134.......6..1....5..64
53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79
";

const HARD: &str = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

#[test]
fn no_arguments_on_a_terminal_show_the_example_beside_its_solution() {
    let r = run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "A sudoku (30 givens)     and its solution");
    // The puzzle on the left, its solution on the right, row by row.
    let (left, right): (Vec<&str>, Vec<&str>) = lines[1..].iter().map(|line| line.split_at(25)).unzip();
    let puzzle = parse::one(&left.join("\n")).unwrap();
    assert_eq!(puzzle, parse::one(sudoku::BUILTIN_PUZZLE).unwrap());
    verify_solution(&puzzle, &parse::one(&right.join("\n")).unwrap()).unwrap();
    // And how to solve one's own, on stderr (the tool does not wait for input).
    assert!(r.stderr.contains("sudoku solve -          type (or paste) puzzles"), "{}", r.stderr);
    // `solve` alone does the same.
    assert_eq!(run(&["solve"]).stdout, r.stdout);
}

#[test]
fn no_arguments_and_an_empty_stdin_solve_the_built_in_example() {
    // As under a CI job or `< /dev/null`: stdin is not a terminal and ends at once.
    let r = run_with(&[], Some(""));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("# <example>:1: solved (9x9, 3x3 boxes, 30 givens"), "{}", r.stdout);
    verify_solution(&parse::one(sudoku::BUILTIN_PUZZLE).unwrap(), &parse::one(&r.stdout).unwrap()).unwrap();
    assert!(r.stderr.contains("nothing on stdin: solving the built-in example"), "{}", r.stderr);
    // Something on stdin is input, even if it holds no puzzle; an explicit `-`
    // that is empty is an error like an empty file.
    assert_bad(&run_with(&["solve"], Some("\n")), "<stdin>: no puzzle found");
    assert_bad(&run_with(&["solve", "-"], Some("")), "<stdin>: no puzzle found");
    // The other commands take the example on a terminal too.
    let r = run(&["count"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "unique\t<example>:1\n"));
}

#[test]
fn line_output_is_one_verified_line_per_puzzle_in_order() {
    let r = run_with(&["solve", "--output", "line"], Some(SEEDS));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let puzzles = puzzles_of(SEEDS);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (puzzle, line) in puzzles.iter().zip(lines) {
        let solution = PuzzleReader::new(line.as_bytes()).shape(Some(puzzle.shape())).next().unwrap().unwrap().grid;
        verify_solution(puzzle, &solution).unwrap();
    }
}

#[test]
fn bands_solve_and_count_as_the_all_differents_do() {
    // A 9x9 Latin square (boxes of one row) whose solution breaks 3x3 boxes:
    // the band propagator (the default for 9x9 of 3x3 boxes, and --bands)
    // must leave it to the all-differents, which solve it.
    let latin: String =
        (0..81).map(|i| if i == 40 { '.' } else { char::from(b'1' + ((i / 9 + i % 9) % 9) as u8) }).collect();
    let input = format!("{SEEDS}{HARD}\n# box 1x9\n{latin}\n");
    for command in [&["solve", "--output", "line"][..], &["count"][..], &["count", "--limit", "5"][..]] {
        let plain = run_with(&[command, &["--no-bands"]].concat(), Some(&input));
        let default = run_with(command, Some(&input));
        assert_eq!((default.code, default.stdout.as_str()), (plain.code, plain.stdout.as_str()), "{command:?}");
        let bands = run_with(&[command, &["--bands"]].concat(), Some(&input));
        assert_eq!(plain.code, 0, "{command:?}: {}", plain.stderr);
        assert_eq!(
            (bands.code, bands.stdout.as_str()),
            (plain.code, plain.stdout.as_str()),
            "{command:?}: {}",
            bands.stderr
        );
    }
}

/// `--fish` adds the fish propagator: the same answers and counts, with and
/// without the band propagator (which keeps its grids) and under `--learn`;
/// `compare --fish` and `compare --dual` agree with plain `compare` on every
/// puzzle's answer.
#[test]
fn fish_solves_and_counts_as_the_units_alone() {
    let latin: String =
        (0..81).map(|i| if i == 40 { '.' } else { char::from(b'1' + ((i / 9 + i % 9) % 9) as u8) }).collect();
    let input = format!("{SEEDS}{HARD}\n# box 1x9\n{latin}\n");
    for command in [&["solve", "--output", "line"][..], &["count", "--limit", "5"][..]] {
        let plain = run_with(&[command, &["--no-bands"]].concat(), Some(&input));
        assert_eq!(plain.code, 0, "{command:?}: {}", plain.stderr);
        for options in [&["--fish"][..], &["--fish", "--no-bands"], &["--fish", "--no-bands", "--learn"]] {
            let fish = run_with(&[command, options].concat(), Some(&input));
            assert_eq!(
                (fish.code, fish.stdout.as_str()),
                (plain.code, plain.stdout.as_str()),
                "{options:?}: {}",
                fish.stderr
            );
        }
    }
    for units in ["--fish", "--dual"] {
        let r = run_with(&["compare", "--configs", "mac+mrv,mac+domwdeg", "--format", "csv", units], Some(&input));
        assert_eq!(r.code, 0, "{units}: {}", r.stderr);
    }
    let both = run_with(&["compare", "--fish", "--dual"], Some(&input));
    assert_eq!(both.code, 2, "{}", both.stderr);
}

/// The options' help says what each option does, as a noun phrase or an
/// imperative like its neighbours' (`Also run ...`), never "Adds ...":
/// `--fish` and `--dual` once began so.
#[test]
fn option_help_says_what_the_option_does_as_its_neighbours_do() {
    for command in ["solve", "count", "compare"] {
        let help = run(&[command, "--help"]).stdout;
        let lines: Vec<&str> = help.lines().map(str::trim).collect();
        let options = lines.iter().enumerate().filter(|(_, line)| line.starts_with('-'));
        for (k, line) in options {
            // Short help: the text follows on the option's line; long help: on the next.
            let says = match line.split_once("  ") {
                Some((_, rest)) => rest.trim(),
                None => lines.get(k + 1).copied().unwrap_or(""),
            };
            assert!(!says.starts_with("Adds "), "{command} {line}: {says}");
        }
    }
    let solve = run(&["solve", "--help"]).stdout;
    assert!(solve.contains("Also propagate fish (X-wing"), "{solve}");
    let compare = run(&["compare", "--help"]).stdout;
    assert!(compare.contains("Also state the dual viewpoint"), "{compare}");
    assert!(compare.contains("Also propagate fish in every puzzle's model"), "{compare}");
}

/// The band propagator is the default for 9x9 grids of 3x3 boxes; `--no-bands`,
/// `--alldiff` and `--intersections` take the all-differents (`--bands` the
/// band propagator again): told apart by their node counts.
#[test]
fn bands_are_the_default_unless_an_all_different_option_is_given() {
    let input = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\n";
    let nodes = |options: &[&str]| {
        let r =
            run_with(&[&["solve", "--output", "line", "--stats", "--jobs", "1"][..], options].concat(), Some(input));
        assert_eq!(r.code, 0, "{options:?}: {}", r.stderr);
        let line = r.stderr.lines().chain(r.stdout.lines()).find(|l| l.starts_with("per puzzle")).map(str::to_owned);
        line.unwrap_or_else(|| panic!("{options:?}: no node count in {}", r.stderr))
    };
    let (bands, all_differents) = (nodes(&[]), nodes(&["--no-bands"]));
    assert_ne!(bands, all_differents);
    assert_eq!(nodes(&["--bands"]), bands);
    assert_eq!(nodes(&["--alldiff", "matching"]), all_differents);
    assert_eq!(nodes(&["--intersections"]), nodes(&["--intersections", "--no-bands"]));
    assert_eq!(nodes(&["--alldiff", "pairwise", "--bands"]), bands);
    assert_eq!(nodes(&["--bands", "--no-bands"]), all_differents);
}

#[test]
fn pretty_and_grid_outputs_read_back_and_check() {
    for output in ["pretty", "grid"] {
        let r = run_with(&["solve", "--output", output], Some(SEEDS));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let solutions = puzzles_of(&r.stdout);
        assert_eq!(solutions.len(), 4, "{output}");
        for (puzzle, solution) in puzzles_of(SEEDS).iter().zip(&solutions) {
            verify_solution(puzzle, solution).unwrap();
        }
        let checked = run_with(&["check"], Some(&r.stdout));
        assert_eq!(checked.code, 0, "{}", checked.stdout);
        assert_eq!(checked.stdout.matches(": valid").count(), 4);
    }
}

#[test]
fn json_output_is_one_object_per_puzzle() {
    let input = format!("{SEEDS}12.4\n");
    let r = run_with(&["solve", "--output", "json"], Some(&input));
    assert_eq!(r.code, 2, "the last line is bad input");
    let objects: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objects.len(), 5);
    for (object, puzzle) in objects.iter().zip(puzzles_of(SEEDS)) {
        assert_eq!(object["status"], "solved");
        let rows: Vec<Vec<u8>> = serde_json::from_value(object["solution"].clone()).unwrap();
        let solution = Grid::from_cells(puzzle.shape(), rows.concat()).unwrap();
        verify_solution(&puzzle, &solution).unwrap();
    }
    assert_eq!(objects[2]["box"], "2x3");
    assert_eq!(objects[4]["status"], "invalid");
    assert_eq!(objects[4]["line"], 5);
    assert!(objects[4]["message"].as_str().unwrap().contains("<stdin>:5:"), "{}", objects[4]);
}

#[test]
fn seeds_file_solves_and_counts_as_documented() {
    let Some(seeds) = shared("seeds.txt") else { return };
    let r = run(&["solve", &seeds, "--output", "line"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 11);
    let r = run(&["count", &seeds]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let words: Vec<&str> = r.stdout.lines().map(|l| l.split('\t').next().unwrap()).collect();
    let mut expected = vec!["unique"; 11];
    expected[4] = "multiple";
    assert_eq!(words, expected);
    let r = run(&["count", &seeds, "--limit", "10"]);
    assert_eq!(r.stdout.lines().nth(4).unwrap().split('\t').next(), Some("3"));
    assert!(r.stdout.lines().nth(4).unwrap().ends_with("seeds.txt:7"), "{}", r.stdout);
}

#[test]
fn parallel_jobs_keep_the_input_order() {
    let generated = fixture("generated.txt");
    let one = run(&["solve", &generated, "--output", "line", "--jobs", "1"]);
    let four = run(&["solve", &generated, "--output", "line", "--jobs", "4"]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(one.stdout.lines().count(), 15);
    let counted = run(&["count", &generated, "--jobs", "3"]);
    assert_eq!(counted.stdout.lines().filter(|l| l.starts_with("unique\t")).count(), 15, "{}", counted.stdout);
}

#[test]
fn stats_summarise_the_batch_on_stderr() {
    let input = format!("{SEEDS}{HARD}\n");
    let r = run_with(&["solve", "--output", "line", "--stats"], Some(&input));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 5);
    for expected in [
        "puzzles         5 (solved 5, unsatisfiable 0, limit reached 0, bad input 0)",
        "puzzles/s",
        "time per puzzle median ",
        "p90",
        "max",
        "nodes (max",
        "backtracks",
        "% solved by propagation alone",
    ] {
        assert!(r.stderr.contains(expected), "{expected:?} missing from\n{}", r.stderr);
    }
    // The share solved without a decision matches the per-puzzle node counts.
    let json = run_with(&["solve", "--output", "json"], Some(&input));
    let nodes: Vec<u64> = json
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["nodes"].as_u64().unwrap())
        .collect();
    assert!(nodes[1] > 0, "the second puzzle has three solutions: propagation alone cannot decide it");
    let share = 100.0 * nodes.iter().filter(|&&n| n == 0).count() as f64 / 5.0;
    assert!(r.stderr.contains(&format!("no guessing     {share:.1}%")), "{share} in {}", r.stderr);
}

#[test]
fn a_bad_puzzle_does_not_stop_the_batch() {
    let input = "1.42421321343421\n1.4242132134342\n12345678.............................................9...........................\n1.42421321.43421\n";
    let r = run_with(&["solve", "--output", "line"], Some(input));
    assert_eq!(r.code, 2, "bad input wins over no solution");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", r.stdout);
    assert_eq!(lines[0], "1342421321343421");
    assert!(lines[1].starts_with("# bad input: <stdin>:2: a line of 15 cells"), "{}", lines[1]);
    assert_eq!(lines[2], "# no solution (<stdin>:3)");
    assert_eq!(lines[3], "1342421321343421");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

// ---- bad input: each case gets a clear error and exit status 2 ----

pub(crate) fn assert_bad(r: &Run, message: &str) {
    assert_eq!(r.code, 2, "stdout: {}\nstderr: {}", r.stdout, r.stderr);
    assert!(r.stderr.contains(message), "{message:?} not in stderr:\n{}", r.stderr);
}

#[test]
fn wrong_line_length() {
    let file = temp_file("length.txt", b"# header\n1.4242132134342\n");
    assert_bad(&run(&["solve", &file]), "length.txt:2: a line of 15 cells is not a puzzle");
}

#[test]
fn character_outside_the_alphabet() {
    let file = temp_file("alphabet.txt", b"1.42421321$43421\n");
    assert_bad(
        &run(&["solve", &file]),
        "alphabet.txt:1:11: '$' is not a digit, a letter or an empty cell ('.', '0', '-', '_', '*')",
    );
}

#[test]
fn value_larger_than_the_side() {
    let file = temp_file("large.txt", b"1.42421321343491\n");
    assert_bad(&run(&["solve", &file]), "large.txt:1:15: '9' (9) is larger than the grid's side, 4");
}

#[test]
fn side_that_is_not_a_product_of_a_box_shape() {
    let file = temp_file("prime.txt", ".".repeat(25).as_bytes());
    assert_bad(&run(&["solve", &file]), "prime.txt:1: side 5 cannot be cut into boxes");
    // With an explicit shape, a side-5 Latin square is fine.
    assert_eq!(run(&["solve", &file, "--box", "1x5"]).code, 0);
}

#[test]
fn box_that_does_not_match_the_grid() {
    assert_bad(&run_with(&["solve", "--box", "2x3"], Some(SEEDS)), "boxes of 2x3 do not fit a grid of side 4");
    assert_bad(&run(&["solve", "--box", "3"]), "'3' is not a box shape");
}

#[test]
fn conflicting_givens() {
    let r = run_with(&["solve", "--output", "line"], Some("11.2..1..1.4...1\n"));
    assert_bad(&r, "<stdin>:1: conflicting givens: r1c1 and r1c2 are both 1 in row 1");
    assert!(r.stdout.starts_with("# bad input: "), "{}", r.stdout);
}

#[test]
fn empty_file() {
    let file = temp_file("empty.txt", b"");
    assert_bad(&run(&["solve", &file]), "empty.txt: no puzzle found");
    let file = temp_file("comments.txt", b"# nothing but comments\n\n");
    assert_bad(&run(&["count", &file]), "comments.txt: no puzzle found");
}

#[test]
fn binary_garbage() {
    let bytes: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let file = temp_file("garbage.bin", &bytes);
    let r = run(&["solve", &file, "--output", "line"]);
    assert_bad(&r, "garbage.bin:1:");
    assert!(r.stderr.contains("is not a text file"), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 1, "one error, not one per line: {}", r.stdout);
}

#[test]
fn missing_file() {
    let r = run(&["solve", "/no/such/puzzles.txt", "-"]);
    assert_bad(&r, "/no/such/puzzles.txt: cannot open: no such file");
}

#[test]
fn a_puzzle_written_as_an_argument_is_read_as_it_is() {
    let puzzle = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....";
    let r = run(&["solve", puzzle, "--output", "line"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "487312695593684271126597384735849162914265837268731549851476923379128456642953718\n");
    // Messages name it by its place among the arguments.
    let r = run(&["rate", "/no/such/puzzles.txt", puzzle]);
    assert_bad(&r, "/no/such/puzzles.txt: cannot open: no such file");
    assert!(r.stdout.starts_with("<argument 2>:1\t"), "{}", r.stdout);
}

#[test]
fn a_missing_file_named_like_a_puzzle_says_why_it_is_not_one() {
    let short = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...";
    let r = run(&["solve", short]);
    assert_bad(
        &r,
        &format!("{short}: cannot open: no such file, nor is it a puzzle: a line of 80 cells is not a puzzle"),
    );
    // A name with letters is a file name, whatever the reader would make of it.
    let r = run(&["solve", "puzzles.txt"]);
    assert_bad(&r, "puzzles.txt: cannot open: no such file");
    assert!(!r.stderr.contains("nor is it a puzzle"), "{}", r.stderr);
}

#[test]
fn directory_given_as_a_file() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    assert_bad(&run(&["solve", dir]), "is a directory, not a puzzle file");
}

#[test]
fn puzzle_with_no_solution_exits_with_one() {
    let unsolvable = format!("12345678.{}9{}", ".".repeat(44), ".".repeat(27));
    let r = run_with(&["solve"], Some(&unsolvable));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout, "# no solution (<stdin>:1)\n\n");
    let r = run_with(&["count"], Some(&unsolvable));
    assert_eq!((r.code, r.stdout.as_str()), (1, "none\t<stdin>:1\n"));
}

#[test]
fn limits_are_reported_per_puzzle() {
    let r = run_with(&["solve", "--output", "line", "--node-limit", "1", "--propagation", "fc"], Some(HARD));
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "# node limit reached (<stdin>:1)\n");
}

#[test]
fn a_million_puzzles_stream_through_in_constant_memory() {
    // The in-process half: the driver sees every puzzle and gives one line each.
    let input = "1342421321343421\n".repeat(20_000);
    let r = run_with(&["check"], Some(&input));
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.lines().count(), 20_000);
    // The million and the memory are measured on the real process below.
}

#[test]
fn bad_usage_exits_with_two() {
    let r = run(&["solve", "--jobs", "0"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--jobs"), "{}", r.stderr);
    assert_eq!(run(&["--propagation", "fastest"]).code, 2);
    assert_eq!(run(&["frobnicate", "--now"]).code, 2);
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("solve") && r.stdout.contains("generate"), "{}", r.stdout);
}

// ---- the other commands ----

#[test]
fn every_strategy_solves_the_seeds() {
    for propagation in ["none", "forward-checking", "mac"] {
        for alldiff in ["pairwise", "matching"] {
            let args = ["solve", "--output", "line", "--propagation", propagation, "--alldiff", alldiff];
            let r = run_with(&args, Some(SEEDS));
            assert_eq!(r.code, 0, "{propagation} {alldiff}: {}", r.stderr);
            assert_eq!(r.stdout, run_with(&["solve", "--output", "line"], Some(SEEDS)).stdout);
        }
    }
    // Box-line reasoning (the engine's intersections, which replaced the
    // redundant constraints of `--box-line`) changes no answer and no count.
    let plain = run_with(&["count", "--limit", "5"], Some(SEEDS));
    let with = run_with(&["count", "--limit", "5", "--intersections"], Some(SEEDS));
    assert_eq!((with.code, &with.stdout), (0, &plain.stdout));
    assert!(plain.stdout.starts_with("1\t<stdin>:1\n3\t<stdin>:2\n"), "{}", plain.stdout);
    let with = run_with(&["solve", "--output", "line", "--intersections"], Some(SEEDS));
    assert_eq!(with.stdout, run_with(&["solve", "--output", "line"], Some(SEEDS)).stdout);
    assert_eq!(run_with(&["solve", "--box-line"], Some(SEEDS)).code, 2, "--box-line was removed");
}

#[test]
fn learning_changes_no_answer_and_no_count() {
    // 6x6 puzzles with 5 and 224 solutions: complete counts, under every
    // all-different strength, with and without nogoods.
    let puzzles = "......5......134.......6..1....5..64\n..............34.......6..1....5..64\n";
    let json = |args: &[&str]| -> Vec<serde_json::Value> {
        let args = [["count", "--limit", "1000", "--output", "json"].as_slice(), args].concat();
        let r = run_with(&args, Some(puzzles));
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        r.stdout.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    };
    let mut learnt = 0;
    for alldiff in ["pairwise", "matching"] {
        let plain = json(&["--alldiff", alldiff]);
        let learning = json(&["--alldiff", alldiff, "--learn"]);
        for (plain, learning) in plain.iter().zip(&learning) {
            assert_eq!(plain["verdict"], learning["verdict"], "{alldiff}: {plain} {learning}");
            assert_eq!(learning["complete"], true);
            assert!(plain.get("learnt").is_none(), "a search that does not learn has no learnt field");
            learnt += learning["learnt"].as_u64().expect("the learnt field of a search that learns");
            for field in ["reductions", "nogoods_deleted", "nogoods_alive", "glue_alive", "lbd_lowered"] {
                assert!(plain.get(field).is_none(), "a search that does not learn has no {field}: {plain}");
                assert!(learning[field].is_u64(), "the {field} of a search that learns: {learning}");
            }
        }
        assert_eq!(plain.iter().map(|record| record["solutions"].as_u64().unwrap()).collect::<Vec<_>>(), [5, 224]);
    }
    assert!(learnt > 0, "the counts learnt from their failures");
    // Solving learns too, with the same (verified) answers.
    let plain = run_with(&["solve", "--output", "line"], Some(SEEDS));
    let learning = run_with(&["solve", "--output", "line", "--learn", "--alldiff", "pairwise"], Some(SEEDS));
    assert_eq!((learning.code, &learning.stdout), (0, &plain.stdout), "{}", learning.stderr);
    let r = run_with(&["trace", "--learn"], Some(HARD));
    assert!(r.stdout.lines().next().unwrap().ends_with(", binary branching, learning"), "{}", &r.stdout[..200]);
    // Learning is mac with binary decisions: another level or branching is refused.
    for other in [["--propagation", "fc"], ["--branching", "enumerate"]] {
        let r = run_with(&["count", "--learn", other[0], other[1]], Some(SEEDS));
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains("'--learn' cannot be used with"), "{}", r.stderr);
    }
}

#[test]
fn trace_names_cells_constraints_and_backtracks() {
    let r = run_with(&["trace", "--propagation", "fc"], Some(HARD));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("# trace of <stdin>:1: 9x9 with 3x3 boxes, 17 givens; forward-checking"),
        "{}",
        &r.stdout[..200]
    );
    assert!(r.stdout.contains("\ndecide r"), "a decision");
    assert!(r.stdout.contains(" ≠ ") && r.stdout.contains("(box "), "a removal by a box");
    assert!(r.stdout.contains("backtrack r"), "a backtrack");
    let tail = r.stdout.rsplit("solution 1\n").next().unwrap();
    verify_solution(&parse::one(HARD).unwrap(), &parse::one(tail).unwrap()).unwrap();
}

#[test]
fn trace_as_json_lines() {
    let r = run_with(&["trace", "--format", "jsonl", "--propagation", "fc"], Some(HARD));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let events: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(events[0]["event"], "start");
    let kinds = ["decision", "removed", "backtrack", "solution"];
    for kind in kinds {
        assert!(events.iter().any(|e| e["event"] == kind), "no {kind} event");
    }
    let removed = events.iter().find(|e| e["event"] == "removed").unwrap();
    assert!(removed["by"].as_str().unwrap().starts_with("row ") || removed["by"] == "refuted", "{removed}");
    let end = events.last().unwrap();
    assert_eq!(end["status"], "solved");
    let rows: Vec<Vec<u8>> = serde_json::from_value(end["solution"].clone()).unwrap();
    let solution = Grid::from_cells(Shape::new(3, 3).unwrap(), rows.concat()).unwrap();
    verify_solution(&parse::one(HARD).unwrap(), &solution).unwrap();
}

#[test]
fn trace_why_gives_each_removal_its_reason() {
    let r = run_with(&["trace", "--why"], Some("1...........4..2\n"));
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in ["r4c2 ≠ 2 because r4c4 = 2 (row 4)", "  r1c2 ≠ 3 because r1c4 = 3 (row 1)"] {
        assert!(r.stdout.contains(&format!("\n{line}\n")), "{line}:\n{}", r.stdout);
    }
    // The same removals as without --why (but those that emptied a domain,
    // which were taken back and have no reason), each with its reason.
    let events = |args: &[&str]| -> Vec<serde_json::Value> {
        let r = run_with(args, Some(HARD));
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect()
    };
    let plain = events(&["trace", "--format", "jsonl"]);
    let why = events(&["trace", "--format", "jsonl", "--why"]);
    let removals = |events: &[serde_json::Value]| {
        let mut removed: Vec<String> = events
            .iter()
            .filter(|e| e["event"] == "removed")
            .map(|e| format!("{} {} {}", e["cell"], e["value"], e["by"]))
            .collect();
        removed.sort();
        removed
    };
    let (all, explained) = (removals(&plain), removals(&why));
    assert!(explained.len() * 10 >= all.len() * 9, "{} of {} removals explained", explained.len(), all.len());
    let mut rest = all.clone();
    for removal in &explained {
        let at = rest.iter().position(|r| r == removal).unwrap_or_else(|| panic!("{removal} was not removed"));
        rest.remove(at);
    }
    let others = |events: &[serde_json::Value]| events.iter().filter(|e| e["event"] != "removed").count();
    assert_eq!(others(&plain), others(&why));
    for e in why.iter().filter(|e| e["event"] == "removed" && e["by"] != "refuted") {
        assert!(e["because"].is_array(), "{e}");
    }
}

/// Runs the tool with stdout on a terminal (stdin piped).
pub(crate) fn run_on_terminal(args: &[&str], stdin: &str) -> Run {
    run_on(args, stdin, false, true)
}

#[test]
fn trace_why_animated_shows_the_reasons_under_each_frame() {
    let puzzle = "1...........4..2\n";
    let r = run_with(&["trace", "--animate", "--why"], Some(puzzle));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let plain = run_with(&["trace", "--why"], Some(puzzle)).stdout;
    let frames: Vec<&str> = r.stdout.split("\n\n").filter(|part| part.contains("    nodes ")).collect();
    assert!(frames.len() >= 3, "{}", r.stdout);
    let mut counted = 0;
    for frame in &frames {
        let lines: Vec<&str> = frame.lines().skip_while(|line| !line.contains("    nodes ")).collect();
        assert_eq!(lines.len(), 5, "the status line, a count and three lines of reasons:\n{frame}");
        let count: usize = match lines[1].strip_prefix("why the ") {
            Some(rest) => rest.split_whitespace().next().unwrap().parse().unwrap(),
            None => {
                assert_eq!(lines[1], "why: no value left since the last frame");
                0
            }
        };
        counted += count;
        // Each reason shown is one of the plain trace's.
        for reason in lines[2..].iter().map(|line| line.trim()).filter(|l| !l.is_empty() && !l.starts_with("...")) {
            assert!(plain.contains(&format!("{reason}\n")), "{reason} is not in:\n{plain}");
        }
        if count > 3 {
            assert_eq!(lines[4], format!("  ... and {} more", count - 2));
        }
    }
    let reasons = plain.lines().filter(|line| line.contains(" because ")).count();
    assert!(counted > 0 && counted <= reasons, "{counted} of {reasons}");
    // A person's steps explain themselves: --why does not go with --human.
    let r = run_with(&["trace", "--animate", "--human", "--why"], Some(puzzle));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be used with") && r.stderr.contains("--why"), "{}", r.stderr);
}

#[test]
fn trace_animation_redraws_the_board_on_a_terminal_only() {
    let args = ["trace", "--animate", "--delay", "0", "--propagation", "fc", "--color", "always"];
    let r = run_on_terminal(&args, HARD);
    assert_eq!(r.code, 0, "{}", r.stderr);
    if std::env::var_os("TERM").is_some_and(|term| term == "dumb") {
        assert!(!r.stdout.contains("\x1b[H"), "TERM=dumb: no cursor movement");
    } else {
        assert!(r.stdout.starts_with("\x1b[2J\x1b[H"), "clears the screen once, then homes the cursor");
        assert!(r.stdout.matches("\x1b[H").count() > 2, "one frame per step");
        // Every line is cleared to its end, so that a shorter status line
        // leaves nothing of a longer one ("backtracks 107ktracks 107").
        let frames = r.stdout.split("\x1b[H").skip(1);
        for frame in frames {
            let body = frame.split("\x1b[J").next().unwrap();
            assert!(body.split('\n').filter(|line| !line.is_empty()).all(|line| line.ends_with("\x1b[K")), "{body:?}");
        }
    }
    assert!(r.stdout.contains("\x1b[1;30;42m"), "the decided cell is highlighted");
    assert!(r.stdout.contains("\x1b[1;37;41m"), "the undone cell is highlighted");
    assert!(r.stdout.contains(": undo r"), "backtracks are shown");
    // Into a pipe (or a file): plain frames one after another, the cell in brackets.
    let r = run_with(&args[..6], Some(HARD));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\x1b'), "no escapes into a pipe");
    let decided = r.stdout.lines().find(|line| line.contains('[')).unwrap();
    assert!(decided.contains(']') && decided.matches('[').count() == 1, "{decided}");
    assert!(r.stdout.contains(": undo r") && r.stdout.contains("\n\ndepth "), "{}", &r.stdout[..600]);
}

#[test]
fn trace_shows_restarts_and_refutations() {
    // A top95 puzzle that takes a few decisions under mac.
    let puzzle = ".524.........7.1..............8.2...3.....6...9.5.....1.6.3...........897........";
    let args = ["trace", "--var-order", "dom-wdeg", "--branching", "binary", "--restarts", "luby=1"];
    let r = run_with(&args, Some(puzzle));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\nrestart 1: back to the root\n"), "{}", &r.stdout[..400]);
    assert!(r.stdout.contains(" (refuted)\n"), "binary branching refutes the values it tried");
    assert!(r.stdout.contains("matching all-different, binary branching, restarts luby=1\n"), "the header says so");
    let tail = r.stdout.rsplit("solution 1\n").next().unwrap();
    verify_solution(&parse::one(puzzle).unwrap(), &parse::one(tail).unwrap()).unwrap();
    let mut args = args.to_vec();
    args.extend(["--format", "jsonl"]);
    let r = run_with(&args, Some(puzzle));
    assert!(r.stdout.contains("{\"event\":\"restart\",\"count\":1}\n"));
    args.truncate(args.len() - 2);
    args.extend(["--animate", "--delay", "0"]);
    let r = run_with(&args, Some(puzzle));
    assert!(r.stdout.contains("restart 1: back to the root"), "the animation shows restarts");
    // Restarts and binary branching change no answer.
    let plain = run_with(&["solve", "--output", "line"], Some(SEEDS));
    let other = run_with(&["solve", "--output", "line", "--branching", "binary", "--restarts", "luby=1"], Some(SEEDS));
    assert_eq!(other.stdout, plain.stdout);
    let counts = run_with(&["count", "--limit", "5", "--branching", "binary", "--restarts", "luby=1"], Some(SEEDS));
    assert_eq!(counts.stdout, run_with(&["count", "--limit", "5"], Some(SEEDS)).stdout);
}

#[test]
fn trace_names_the_box_that_points() {
    // In box 1 the 9 can only be in r1c1 or r1c2, so the rest of row 1 loses it.
    let puzzle = format!(".........123......45.......{}..9......", ".".repeat(45));
    let r = run_with(&["trace", "--intersections"], Some(&puzzle));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("matching all-different with intersections\n"), "{}", &r.stdout[..200]);
    for column in 4..=9 {
        assert!(r.stdout.contains(&format!("\nr1c{column} ≠ 9 (box 1)\n")), "r1c{column}");
    }
    // r1c4 is not in box 1: only the intersection reasoning blames box 1.
    let plain = run_with(&["trace", "--no-intersections"], Some(&puzzle));
    assert!(plain.stdout.contains("solution 1") && !plain.stdout.contains("r1c4 ≠ 9 (box 1)"));
    // The large default reasons on intersections; it can be turned off.
    let big = run_with(&["solve", "--output", "line", "--stats", "--jobs", "1"], Some(&".".repeat(625)));
    assert_eq!(big.code, 0, "{}", big.stderr);
    let off = run_with(&["solve", "--output", "line", "--no-intersections", "--jobs", "1"], Some(&".".repeat(625)));
    assert_eq!(off.stdout, big.stdout);
}

#[test]
fn check_names_every_broken_unit() {
    let input = "1342421321343421\n3142421321343421\n1.42421321343421\n";
    let r = run_with(&["check"], Some(input));
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        "<stdin>:1: valid\n<stdin>:2: invalid\n  column 1: 3 at r1c1, r4c1; missing 1\n  column 2: 1 at r1c2, r3c2; missing 3\n\
         <stdin>:3: invalid\n  1 empty cell: r1c2\n"
    );
}

#[test]
fn generate_is_reproducible_and_unique() {
    let args = ["generate", "--box", "2x3", "--count", "4", "--seed", "7", "--givens", "0.4"];
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, run(&args).stdout, "same seed, same puzzles");
    assert!(r.stdout.contains("# sudoku generate --box 2x3 --count 4 --seed 7 --givens 14"), "{}", r.stdout);
    let puzzles = puzzles_of(&r.stdout);
    assert_eq!(puzzles.len(), 4);
    let counted = run_with(&["count"], Some(&r.stdout));
    assert_eq!(counted.stdout.lines().filter(|l| l.starts_with("unique\t")).count(), 4, "{}", counted.stdout);
    let other = run(&["generate", "--size", "6", "--count", "4", "--seed", "8"]);
    assert_ne!(puzzles, puzzles_of(&other.stdout));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let input = "1.42421321343421\n".repeat(5000);
    let mut stdin = input.as_bytes();
    let mut stderr = Vec::new();
    let io = Io {
        stdin: &mut stdin,
        stdin_is_terminal: false,
        stdout: &mut ClosedPipe { room: 100 },
        stdout_is_terminal: false,
        stderr: &mut stderr,
        stderr_is_terminal: false,
    };
    assert_eq!(app::run(sudoku::main, ["sudoku", "solve", "--output", "line"], &mut { io }), 0);
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
}

// ---- the real process ----

/// The installed binary, built by cargo for this test.
pub(crate) fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_csp-sudoku"))
}

#[test]
fn the_real_binary_solves_a_pipe_and_reports_bad_usage() {
    let mut child = Command::new(binary())
        .args(["solve", "--output", "line"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(SEEDS.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 4);
    verify_solution(&parse::one(SEEDS).unwrap(), &parse::one(&stdout).unwrap()).unwrap();

    let output = Command::new(binary()).args(["solve", "--box", "0x3"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("at least one row and one column"));

    let output = Command::new(binary()).args(["solve", "/no/such/file"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// The peak resident memory of a running process, in kB, from /proc (Linux).
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn the_real_binary_streams_a_million_puzzles_in_constant_memory() {
    const PUZZLES: usize = 1_000_000;
    let mut child = Command::new(binary())
        .arg("check")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = "1342421321343421\n".repeat(10_000);
        for _ in 0..PUZZLES / 10_000 {
            stdin.write_all(chunk.as_bytes()).unwrap();
        }
    });
    // Count the output as it comes, and sample the peak memory meanwhile.
    let mut stdout = io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = 0usize;
    let mut valid = 0usize;
    let mut peak = 0u64;
    let mut line = String::new();
    while io::BufRead::read_line(&mut stdout, &mut line).unwrap() > 0 {
        lines += 1;
        valid += usize::from(line.ends_with(": valid\n"));
        line.clear();
        if lines % 50_000 == 0 {
            peak = peak.max(peak_rss_kb(pid).unwrap_or(0));
        }
    }
    writer.join().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    assert_eq!((lines, valid), (PUZZLES, PUZZLES));
    // 17 MB of input went through; keeping it would take far more than this.
    if peak > 0 {
        assert!(peak < 16 * 1024, "peak resident memory {peak} kB");
    } else {
        println!("skipped the memory check: /proc/<pid>/status is not readable here");
    }
}

// ---- sudoku compare ----

#[test]
fn compare_solves_the_built_in_example_under_every_default_configuration() {
    let r = run(&["compare"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("instance '<example>:1'; the first solution"), "{}", r.stdout);
    let rows = table_rows(&r.stdout);
    let configs: Vec<&str> = rows.iter().map(|row| row["config"].as_str()).collect();
    // Each printed in full (`fc+mrv` is `fc+mrv+pairwise`).
    let full: Vec<String> = sudoku::compare::DEFAULT_CONFIGS
        .split(',')
        .map(|c| c.parse::<csp::SolveConfig>().unwrap().to_string())
        .collect();
    assert_eq!(configs, full);
    assert!(rows.iter().all(|row| row["solved"] == "1" && row["solutions"] == "1"), "{}", r.stdout);
}

#[test]
fn compare_counts_a_batch_alike_under_every_configuration() {
    // The 4x4 and 6x6 seeds (plain backtracking would count the 9x9 one for seconds).
    let small: String = SEEDS.lines().take(3).map(|line| format!("{line}\n")).collect();
    let r = run_with(&["compare", "--goal", "count", "--configs", "bt+input,fc+mrv,mac+domwdeg"], Some(&small));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("3 instances (sums); counting the solutions"), "{}", r.stdout);
    let rows = table_rows(&r.stdout);
    assert_eq!(rows.len(), 3);
    for row in &rows {
        // Two of these seeds are unique, one has three solutions.
        assert_eq!((row["solved"].as_str(), row["solutions"].as_str()), ("3", "5"), "{row:?}");
    }
    let r = run_with(&["compare", "--goal", "count", "--configs", "fc+mrv,mac+mrv"], Some(SEEDS));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(table_rows(&r.stdout).iter().all(|row| row["solutions"] == "6"), "{}", r.stdout);
}

#[test]
fn compare_writes_csv_and_json_with_a_record_per_configuration() {
    let args = ["compare", "-", "--configs", "fc+mrv,fc-cbj+mrv,mac+mrv+pairwise,mac/ac2001+domwdeg"];
    let csv = run_with(&[&args[..], &["--format", "csv"]].concat(), Some(SEEDS));
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 4 * 4, "a record per puzzle and configuration: {}", csv.stdout);
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = |name: &str| header.iter().position(|c| *c == name).unwrap();
    for (i, line) in lines[1..].iter().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), header.len(), "{line}");
        let puzzle = format!("<stdin>:{}", i / 4 + 1);
        assert_eq!((fields[at("instance")], fields[at("solved")]), (puzzle.as_str(), "1"), "{line}");
    }
    let json = run_with(&[&args[..], &["--format", "json"]].concat(), Some(SEEDS));
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON document");
    assert_eq!(doc["goal"], "first");
    assert_eq!(doc["instances"].as_array().unwrap().len(), 4);
    assert_eq!(doc["instances"][3], "<stdin>:4");
    assert_eq!(doc["configs"].as_array().unwrap().len(), 4);
    assert_eq!(doc["configs"][3]["config"], "mac/ac2001+domwdeg+matching");
    // Every puzzle under every configuration.
    assert_eq!(doc["measurements"].as_array().unwrap().len(), 16);
}

#[test]
fn compare_honours_the_box_shape_and_the_intersections() {
    // A 5x5 Latin square with its first row and column given: the 56 reduced
    // Latin squares of order 5. Side 5 has no default box shape.
    let latin = "123452....3....4....5....\n";
    let r =
        run_with(&["compare", "--box", "1x5", "--goal", "count", "--configs", "bt+input,fc+mrv,mac+mrv"], Some(latin));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(table_rows(&r.stdout).iter().all(|row| row["solutions"] == "56"), "{}", r.stdout);
    let r = run_with(&["compare", "--goal", "count"], Some(latin));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("side 5 cannot be cut into boxes"), "{}", r.stderr);
    assert!(r.stderr.contains("nothing was compared") && r.stdout.is_empty(), "{}", r.stderr);
    // Box-line reasoning (the engine's intersections) changes the pruning, never
    // the answer (on a top95 puzzle that takes a few decisions).
    let top95 = ".524.........7.1..............8.2...3.....6...9.5.....1.6.3...........897........";
    let pruned = |config: &str| {
        let r = run_with(&["compare", "--configs", config, "--format", "json"], Some(top95));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(doc["configs"][0]["solutions"], 1);
        (doc["configs"][0]["nodes"].as_u64().unwrap(), doc["configs"][0]["pruned"].as_u64().unwrap())
    };
    assert_ne!(pruned("mac+mrv"), pruned("mac+mrv+intersect"));
    // The redundant box-line constraints of earlier versions are gone: one implementation, the engine's.
    assert_eq!(run_with(&["compare", "--box-line"], Some(HARD)).code, 2);
}

#[test]
fn compare_refuses_bad_input_and_unknown_words_with_exit_two() {
    let r = run_with(&["compare", "--configs", "fc+mrv,mac+sometimes"], Some(SEEDS));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown word 'sometimes' in configuration 'mac+sometimes'"), "{}", r.stderr);
    let r = run_with(&["compare"], Some("11.2..1..1.4...1\n"));
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("<stdin>:1: conflicting givens"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    let r = run(&["compare", "/no/such/puzzles.txt"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot open: no such file"), "{}", r.stderr);
    assert_eq!(run(&["compare", "--output", "line"]).code, 2, "compare has --format, not --output");
}

#[test]
fn compare_plots_an_svg_bar_chart() {
    let path = std::env::temp_dir().join(format!("sudoku-compare-{}.svg", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let r = run(&["compare", "--configs", "fc+mrv,mac+mrv", "--plot", path.to_str().unwrap(), "--format", "markdown"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains("fc+mrv") && svg.contains("mac+mrv"));
    assert!(r.stdout.contains("| config |") && r.stdout.contains("| fc+mrv+pairwise |"), "{}", r.stdout);
}

#[test]
fn every_word_of_the_spelling_is_in_the_configs_help_and_the_grammar_of_compare_md() {
    // The words the parser lists when it meets one it does not know.
    let r = run_with(&["compare", "--configs", "mac+sometimes"], Some(SEEDS));
    let listed = r.stderr.split_once("(after the level come").expect(&r.stderr).1.split(')').next().unwrap();
    let words: Vec<&str> = listed
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '='))
        .filter(|word| !word.is_empty() && !word.chars().all(|c| c.is_ascii_uppercase() || c == '='))
        .filter(|word| word.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .filter(|word| {
            !["separated", "words", "a", "variable", "ordering", "value", "an", "all", "different"].contains(word)
        })
        .filter(|word| !["strength", "or"].contains(word))
        .map(|word| word.split('=').next().unwrap())
        .collect();
    assert!(words.len() > 50 && words.contains(&"fade") && words.contains(&"guided"), "{words:?}");
    let help = run(&["compare", "--help"]).stdout;
    let grammar = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/compare.md")).unwrap();
    let grammar = grammar.split("config    := ").nth(1).unwrap().split("```").next().unwrap();
    let has = |text: &str, word: &str| {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).any(|token| token == word)
    };
    for word in words {
        assert!(has(&help, word), "compare --help lacks '{word}'");
        assert!(has(grammar, word), "docs/compare.md's grammar lacks '{word}'");
    }
}

/// `--portfolio N` solves each puzzle with N workers: puzzles with one
/// solution get that solution, whichever worker answers, with or without
/// `--learn`, `--jobs` and shared nogoods (`--share`); a puzzle without a solution says so; the line
/// output stays one verified line per puzzle in input order.
#[test]
fn a_portfolio_solves_as_one_worker_does() {
    // The puzzles with one solution (SEEDS' second has several, which
    // workers may find in another order), and conflicting givens.
    let unique: String =
        SEEDS.lines().filter(|line| !line.starts_with("1..2")).map(|line| format!("{line}\n")).collect();
    let input = format!("{unique}{HARD}\n11..............\n");
    let alone = run_with(&["solve", "--output", "line"], Some(&input));
    assert_eq!(alone.code, 2, "the conflicting givens are bad input: {}", alone.stderr);
    for extra in [
        &["--portfolio", "2"][..],
        &["--portfolio", "3", "--learn"],
        &["--portfolio", "2", "--jobs", "2"],
        &["--portfolio", "2", "--learn", "--share"],
    ] {
        let r = run_with(&[&["solve", "--output", "line"][..], extra].concat(), Some(&input));
        assert_eq!((r.code, r.stdout.as_str()), (alone.code, alone.stdout.as_str()), "{extra:?}: {}", r.stderr);
    }
    let one = run_with(&["solve", "--output", "json", "--portfolio", "1"], Some(&input));
    let default = run_with(&["solve", "--output", "json"], Some(&input));
    let without_times =
        |text: &str| text.lines().map(|l| l.split("\"time_ms\"").next().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(without_times(&one.stdout), without_times(&default.stdout), "one worker is the solver alone");
    let zero = run_with(&["solve", "--portfolio", "0"], Some(SEEDS));
    assert_eq!(zero.code, 2, "{}", zero.stderr);
}
