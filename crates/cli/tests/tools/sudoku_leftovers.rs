//! The enthusiast's leftovers (BENCHMARKS.md, "The enthusiast's leftovers"):
//! what the sudoku enthusiast's session recorded and did not fix, one test
//! each, each failing before its fix.

use crate::sudoku::{run, run_with, temp_file};

/// Puzzles of every outcome for a batch: unique (a hard 9x9, a 4x4 and a
/// 6x6), conflicting givens, bad input, several solutions.
const BATCH: &str = "\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
1.42421321.43421
..6..35......134.......6..1....5..64
11..............
1.4x421321.43421
................
";

/// `explain` and `hint` take `--jobs N` as `solve` does: the puzzles are
/// worked on in parallel and the output, in input order, is the same.
#[test]
fn explain_and_hint_work_on_puzzles_in_parallel_in_input_order() {
    for command in [&["explain"][..], &["explain", "--format", "jsonl"], &["hint"], &["hint", "--output", "json"]] {
        let one = run_with(&[command, &["--jobs", "1"]].concat(), Some(BATCH));
        let two = run_with(&[command, &["--jobs", "2"]].concat(), Some(BATCH));
        assert_eq!(one.code, 2, "{command:?}: {}", one.stderr);
        assert!(one.stdout.lines().count() >= 6, "{command:?}: {}", one.stdout);
        assert_eq!((two.code, &two.stdout, &two.stderr), (one.code, &one.stdout, &one.stderr), "{command:?}");
        let default = run_with(command, Some(BATCH));
        assert_eq!(default.stdout, one.stdout, "{command:?}");
    }
}

/// `rate` takes `--timeout` as `explain` and `hint` do (5 s by default):
/// a puzzle whose rating it stops gets a message in explain's words (what
/// was stopped: rate's count of the solutions, explain's solve), status
/// `limit` in JSON, exit status 1, and the batch goes on.
#[test]
fn rate_stops_a_puzzle_at_its_time_limit_as_explain_does() {
    let stopped = |what| format!("stopped: the time limit of 0 s ran out {what} (--timeout gives it more)");
    let explain = run_with(&["explain", "--timeout", "0"], Some("..6..35......134.......6..1....5..64\n"));
    assert!(explain.stdout.contains(&stopped("solving the puzzle")), "{}", explain.stdout);
    let message = stopped("counting the solutions");
    let r = run_with(&["rate", "--timeout", "0", "--stats"], Some("..6..35......134.......6..1....5..64\n"));
    assert_eq!((r.code, r.stdout.as_str()), (1, format!("# <stdin>:1: {message}\n").as_str()), "{}", r.stderr);
    assert!(r.stderr.contains("bad input 0, stopped by --timeout 1)"), "{}", r.stderr);
    let r = run_with(&["rate", "--timeout", "0", "--output", "json"], Some("..6..35......134.......6..1....5..64\n"));
    assert!(r.stdout.contains("\"status\":\"limit\"") && r.stdout.contains(&message), "{}", r.stdout);
    // The default leaves the puzzles of a batch alone, and the summary
    // says nothing of a limit no puzzle hit.
    let r = run_with(&["rate", "--stats", "--jobs", "2"], Some(BATCH));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(!r.stdout.contains("stopped") && !r.stderr.contains("stopped"), "{}{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.lines().filter(|line| !line.starts_with('#')).count(), 3, "{}", r.stdout);
}

/// `-`, `_` and `*` are empty cells (`4-----8-5.3...`), while the grid
/// layout's frames keep working.
#[test]
fn dashes_underscores_and_stars_are_empty_cells() {
    let dots = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let expected = run_with(&["solve", "--output", "line"], Some(dots)).stdout;
    for empty in ["-", "_", "*"] {
        let r = run_with(&["solve", "--output", "line"], Some(&dots.replace('.', empty)));
        assert_eq!((r.code, &r.stdout), (0, &expected), "{empty}: {}", r.stderr);
    }
    let pretty = run_with(&["solve"], Some(&dots.replace('.', "-"))).stdout;
    assert!(pretty.contains("------+-------+------"), "{pretty}");
    let r = run_with(&["solve", "--output", "line"], Some(&pretty));
    assert_eq!((r.code, &r.stdout), (0, &expected), "{}", r.stderr);
}

/// Sixteen rows of sixteen symbols without a header are one 16x16 puzzle,
/// not sixteen 4x4 line puzzles; a file of 4x4 line puzzles still reads as
/// such.
#[test]
fn sixteen_rows_of_sixteen_symbols_are_one_puzzle() {
    let line = "..EC....4....5...B.....D..C8..G1.G41B28....D9..A....4E.........7GC.2..6F8D4..1...43..8..7....6...9.B..23.A1.8.....7.CD..F...A....F...1E4..D.B.......A.9B..E.C..6...63.F.9...5.D.3A172....B.5.E.9.E.9DBC.A.G......6F38......C12.DB.AG...6.....CE...2.F.5AD.....9.";
    let rows: String =
        line.as_bytes().chunks(16).map(|row| format!("{}\n", std::str::from_utf8(row).unwrap())).collect();
    let file = temp_file("sixteen.sdk", rows.as_bytes());
    let r = run(&["solve", &file, "--output", "line"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, run_with(&["solve", "--output", "line"], Some(line)).stdout);
    let file = temp_file("fours.txt", "1.42421321343421\n..........4..2.1\n".repeat(8).as_bytes());
    let r = run(&["solve", &file, "--output", "line"]);
    assert_eq!((r.code, r.stdout.lines().count()), (0, 16), "{}", r.stderr);
}
