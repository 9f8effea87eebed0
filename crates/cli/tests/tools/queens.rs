//! The `queens` tool, run in-process through `app::run`, and once as the real
//! `csp-queens` process. Every placement it prints is checked with the independent
//! verifier (`csp_queens::verify`), which knows nothing of the engine.

use std::process::Command;

use crate::common::{ClosedPipe, table_rows};

use csp_cli::{Io, app, queens};

/// The number of solutions of N-queens for N = 1..=12.
const COUNTS: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

struct Run {
    code: u8,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let argv = std::iter::once("queens").chain(args.iter().copied());
    let app::Captured { code, stdout, stderr } = app::capture(queens::main, argv, "");
    Run { code, stdout, stderr }
}

/// The 0-based columns of a line of 1-based columns.
fn parse_line(line: &str) -> Vec<i64> {
    line.split_whitespace().map(|c| c.parse::<i64>().expect("a column number") - 1).collect()
}

/// The 0-based columns of a board drawn with `queen` for the queens.
fn parse_board(board: &str, queen: &str) -> Vec<i64> {
    board
        .lines()
        .map(|row| {
            let squares: Vec<&str> = row.split(' ').collect();
            let at: Vec<usize> = (0..squares.len()).filter(|&c| squares[c] == queen).collect();
            assert_eq!(at.len(), 1, "one queen per row: {row:?}");
            at[0] as i64
        })
        .collect()
}

/// The number printed at the start of `--count`'s output.
fn count_of(out: &str) -> u64 {
    out.split_whitespace().next().and_then(|w| w.parse().ok()).unwrap_or_else(|| panic!("no count in {out:?}"))
}

#[test]
fn no_arguments_draw_the_first_of_the_eight_queens_with_statistics_on_stderr() {
    let r = run(&[]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().next(), Some("♛ · · · · · · ·"));
    let columns = parse_board(&r.stdout, "♛");
    assert_eq!(columns.len(), 8, "stdout holds the board and nothing else: {}", r.stdout);
    csp_queens::verify(&columns).unwrap();
    let stats = &r.stderr;
    assert!(stats.contains("nodes") && stats.contains("backtracks") && stats.contains("ms"), "{stats}");
    // -q keeps stderr for errors; the board is the same.
    let quiet = run(&["-q"]);
    assert_eq!((quiet.code, quiet.stdout.as_str(), quiet.stderr.as_str()), (0, r.stdout.as_str(), ""));
}

#[test]
fn statistics_go_to_stderr_with_stats_or_verbose_and_never_with_quiet() {
    for args in [&["8", "--output", "line", "--stats"][..], &["8", "--output", "line", "-v"], &["8", "--count", "-v"]] {
        let r = run(args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout.lines().count(), 1, "{args:?}: results alone on stdout: {}", r.stdout);
        assert!(r.stderr.contains("nodes"), "{args:?}: {}", r.stderr);
    }
    let r = run(&["8", "--output", "line"]);
    assert!(r.stderr.is_empty(), "no statistics unless asked: {}", r.stderr);
    let r = run(&["8", "--all", "--stats", "-q"]);
    assert_eq!((r.stdout.lines().count(), r.stderr.as_str()), (92, ""), "-q wins over --stats");
    let r = run(&["8", "--local-search", "--output", "line", "--verbose"]);
    assert!(r.stderr.contains("min-conflicts: steps"), "{}", r.stderr);
    assert_eq!(run(&["8", "-q", "-v"]).code, 2, "-q and -v contradict each other");
}

#[test]
fn ascii_boards_and_json() {
    let r = run(&["6", "--ascii"]);
    assert_eq!(r.code, 0);
    let board = r.stdout.split("\n\n").next().unwrap();
    csp_queens::verify(&parse_board(board, "Q")).unwrap();
    assert!(!r.stdout.contains('♛'));

    let r = run(&["10", "--output", "json"]);
    assert_eq!(r.code, 0);
    let value: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(value["n"], 10);
    let columns: Vec<i64> = value["columns"].as_array().unwrap().iter().map(|c| c.as_i64().unwrap() - 1).collect();
    csp_queens::verify(&columns).unwrap();
}

#[test]
fn counts_for_n_up_to_ten_under_every_level_and_ordering() {
    for propagation in ["none", "forward-checking", "mac"] {
        for order in ["input", "mrv", "mrv-degree", "dom-deg", "dom-wdeg"] {
            for (n, &expected) in COUNTS.iter().enumerate().take(10) {
                let n = (n + 1).to_string();
                let r = run(&[&n, "--count", "--propagation", propagation, "--var-order", order]);
                assert_eq!(count_of(&r.stdout), expected, "N = {n}, {propagation}, {order}: {}", r.stdout);
                assert!(r.stdout.starts_with(&format!("{expected} solution")), "{}", r.stdout);
                assert_eq!(r.code, if expected == 0 { 1 } else { 0 }, "N = {n}");
            }
        }
    }
}

#[test]
fn counts_for_eleven_and_twelve_with_the_default_strategy() {
    // The full matrix for N = 11 and 12 is in the release-only test below (plain
    // backtracking with input order takes seconds in a debug build).
    for n in [11usize, 12] {
        let r = run(&[&n.to_string(), "--count"]);
        assert_eq!(r.code, 0);
        assert!(r.stdout.starts_with(&format!("{} solutions", COUNTS[n - 1])), "{}", r.stdout);
    }
}

/// Run with `cargo test --release -p csp-cli --test tools`.
#[cfg(not(debug_assertions))]
#[test]
fn counts_for_eleven_and_twelve_under_every_level_and_ordering() {
    for propagation in ["none", "forward-checking", "mac"] {
        for order in ["input", "mrv", "mrv-degree", "dom-deg", "dom-wdeg"] {
            for alldiff in ["pairwise", "matching"] {
                for n in [11usize, 12] {
                    let size = n.to_string();
                    let args =
                        [&*size, "--count", "--propagation", propagation, "--var-order", order, "--alldiff", alldiff];
                    let r = run(&args);
                    assert_eq!(count_of(&r.stdout), COUNTS[n - 1], "N = {n}, {propagation}, {order}, {alldiff}");
                }
            }
        }
    }
}

#[test]
fn all_prints_every_solution_once_and_each_is_verified() {
    for n in [4usize, 6, 8] {
        let r = run(&[&n.to_string(), "--all"]);
        assert_eq!(r.code, 0);
        let mut seen: Vec<Vec<i64>> = r.stdout.lines().map(parse_line).collect();
        for columns in &seen {
            assert_eq!(columns.len(), n);
            csp_queens::verify(columns).unwrap_or_else(|e| panic!("{columns:?}: {e}"));
        }
        let printed = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), printed, "no solution twice");
        assert_eq!(printed as u64, COUNTS[n - 1]);
    }
    // Boards too, separated by blank lines, and JSON lines.
    let r = run(&["5", "--all", "--output", "board", "--ascii"]);
    let boards: Vec<&str> = r.stdout.split("\n\n").collect();
    assert_eq!(boards.len(), 10);
    for board in boards {
        csp_queens::verify(&parse_board(board, "Q")).unwrap();
    }
    let r = run(&["6", "--all", "--output", "json"]);
    assert_eq!(r.stdout.lines().count(), 4);
    for line in r.stdout.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let columns: Vec<i64> = value["columns"].as_array().unwrap().iter().map(|c| c.as_i64().unwrap() - 1).collect();
        csp_queens::verify(&columns).unwrap();
    }
}

#[test]
fn counts_as_json_say_whether_they_are_complete() {
    let json = |args: &[&str]| {
        let r = run(args);
        let value: serde_json::Value =
            serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}{}", r.stdout, r.stderr));
        (r.code, value)
    };
    assert_eq!(
        json(&["8", "--count", "--output", "json"]),
        (0, serde_json::json!({"n": 8, "solutions": 92, "complete": true}))
    );
    assert_eq!(
        json(&["3", "--count", "--output", "json"]),
        (1, serde_json::json!({"n": 3, "solutions": 0, "complete": true})),
        "a count of zero is a negative answer: exit 1"
    );
    assert_eq!(
        json(&["8", "--count", "--limit", "10", "--output", "json"]),
        (0, serde_json::json!({"n": 8, "solutions": 10, "complete": false, "stopped_by": "solution limit"}))
    );
    let (code, value) = json(&["12", "--count", "--node-limit", "10", "--output", "json"]);
    assert_eq!((code, &value["complete"], &value["stopped_by"]), (1, &false.into(), &"node limit".into()));
}

#[test]
fn json_output_says_no_solution_in_a_record() {
    // As the sudoku tool does: one record with a status and a message, on
    // stdout alone, also with -q.
    let impossible = serde_json::json!({
        "n": 3, "status": "unsatisfiable", "message": "no solution: 3 queens cannot be placed without attacks"
    });
    for args in [&["3", "--output", "json"][..], &["3", "--all", "--output", "json"], &["3", "--output", "json", "-q"]]
    {
        let r = run(args);
        let value: serde_json::Value =
            serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}{}", r.stdout, r.stderr));
        assert_eq!((r.code, value, r.stdout.lines().count()), (1, impossible.clone(), 1), "{args:?}");
        assert_eq!(r.stderr, "", "{args:?}");
    }
    // A limit that stops the search before any placement.
    let limit =
        serde_json::json!({"n": 3, "status": "limit", "message": "no solution found: stopped by the node limit"});
    for args in
        [&["3", "--node-limit", "0", "--output", "json"][..], &["3", "--all", "--node-limit", "0", "--output", "json"]]
    {
        let r = run(args);
        let value: serde_json::Value =
            serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}{}", r.stdout, r.stderr));
        assert_eq!((r.code, value), (1, limit.clone()), "{args:?}");
    }
    // Local search that runs out of steps.
    let r = run(&["3", "--local-search", "--max-steps", "10", "--output", "json"]);
    let value: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!((r.code, &value["n"], &value["status"]), (1, &3.into(), &"limit".into()), "{}", r.stdout);
    // People still read the message on stdout.
    let r = run(&["3", "--output", "line"]);
    assert_eq!((r.code, r.stdout.as_str()), (1, "no solution: 3 queens cannot be placed without attacks\n"));
}

#[test]
fn a_limit_note_counts_its_solutions_in_good_english() {
    // The smallest node limit that lets exactly one solution through.
    let one = (1..=1000)
        .map(|limit| run(&["8", "--all", "--node-limit", &limit.to_string()]))
        .find(|r| r.stdout.lines().count() == 1)
        .expect("a node limit after the first solution and before the second");
    assert_eq!(one.code, 1, "a limit stopped the enumeration: {}", one.stderr);
    assert!(one.stderr.ends_with("after 1 solution\n"), "{}", one.stderr);
}

#[test]
fn limit_stops_after_k_solutions() {
    let r = run(&["8", "--all", "--limit", "5"]);
    assert_eq!(r.code, 0);
    assert_eq!(r.stdout.lines().count(), 5);
    let r = run(&["8", "--count", "--limit", "10"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("10 solutions (stopped by the solution limit"), "{}", r.stdout);
    // Alone, --limit prints the first K solutions.
    let r = run(&["8", "--limit", "3", "--output", "line"]);
    assert_eq!(r.stdout.lines().count(), 3);
}

#[test]
fn large_boards_by_backtracking_are_verified() {
    // The default first-solution strategy (random values above N = 30) finds these at once.
    for n in ["31", "200", "1000"] {
        let r = run(&[n, "--stats", "--output", "line"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let columns = parse_line(r.stdout.trim());
        assert_eq!(columns.len().to_string(), n);
        csp_queens::verify(&columns).unwrap();
        assert!(r.stderr.contains("random values"), "{}", r.stderr);
    }
}

#[test]
fn learning_finds_verified_boards_and_the_same_counts() {
    for n in ["8", "12", "30"] {
        let r = run(&[n, "--learn", "--stats", "--output", "line"]);
        assert_eq!(r.code, 0, "N = {n}: {}", r.stderr);
        csp_queens::verify(&parse_line(r.stdout.trim())).unwrap();
        assert!(r.stderr.contains(" + learning: ") && r.stderr.contains(", learnt "), "{}", r.stderr);
    }
    for n in ["6", "8"] {
        let plain = run(&[n, "--count"]);
        assert_eq!(run(&[n, "--count", "--learn"]).stdout, plain.stdout, "N = {n}");
    }
    let r = run(&["8", "--local-search", "--learn"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--learn applies to backtracking search"), "{}", r.stderr);
}

#[test]
fn local_search_answers_are_verified() {
    for (n, seed) in [("1", "1"), ("8", "2"), ("50", "3"), ("20000", "4")] {
        let r = run(&[n, "--local-search", "--seed", seed, "--output", "line", "--stats"]);
        assert_eq!(r.code, 0, "N = {n}: {}", r.stderr);
        let columns = parse_line(r.stdout.trim());
        assert_eq!(columns.len().to_string(), n);
        csp_queens::verify(&columns).unwrap();
        assert!(r.stderr.contains("min-conflicts: steps"), "{}", r.stderr);
    }
    let r = run(&["12", "--local-search"]);
    csp_queens::verify(&parse_board(&r.stdout, "♛")).unwrap();
    assert!(r.stderr.contains("min-conflicts: steps"), "statistics below a board, on stderr: {}", r.stderr);
}

#[test]
fn no_solution_exits_with_one() {
    for n in ["2", "3"] {
        let r = run(&[n]);
        assert_eq!(r.code, 1);
        assert!(r.stdout.starts_with("no solution"), "{}", r.stdout);
        let r = run(&[n, "--count"]);
        assert_eq!(r.code, 1);
        assert!(r.stdout.starts_with("0 solutions"), "{}", r.stdout);
        let r = run(&[n, "--local-search", "--max-steps", "2000"]);
        assert_eq!(r.code, 1);
        assert!(r.stdout.contains("step limit"), "{}", r.stdout);
        // Not a limit that more steps would lift.
        assert!(r.stdout.contains(&format!("{n} queens cannot be placed without attacks")), "{}", r.stdout);
    }
    let r = run(&["8", "--local-search", "--max-steps", "1"]);
    assert!(r.code == 0 || !r.stdout.contains("cannot be placed"), "{}", r.stdout);
    // A node limit that stops the search first is not a solution either.
    let r = run(&[
        "20",
        "--var-order",
        "input",
        "--propagation",
        "none",
        "--value-order",
        "descending",
        "--node-limit",
        "5",
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("node limit"), "{}", r.stdout);
}

#[test]
fn bad_usage_exits_with_two_and_says_why() {
    let cases: &[(&[&str], &str)] = &[
        (&["0"], "N must be at least 1, got 0"),
        (&["-3"], "N must be at least 1, got -3"),
        (&["eight"], "N must be a whole number of queens, got 'eight'"),
        (&["2.5"], "N must be a whole number"),
        (&["10001"], "backtracking search handles N up to 10000 (--local-search handles up to 10000000)"),
        (&["99999999999999999999999999999999999999999"], "too large"),
        (&["10000001", "--local-search"], "local search handles N up to 10000000"),
        (&["200", "--output", "board"], "a board is drawn only up to N = 100"),
        (&["8", "--limit", "0"], "invalid value '0' for '--limit <K>': must be a whole number, 1 or more"),
        (&["8", "--max-steps", "10"], "--local-search"),
        (&["8", "--local-search", "--max-steps", "0"], "'--max-steps <S>': must be a whole number, 1 or more"),
        (&["8", "--local-search", "--propagation", "mac"], "--propagation applies to backtracking search"),
        (&["8", "--count", "--all"], "cannot be used with"),
        (&["8", "--var-order", "best"], "unknown variable ordering 'best'"),
        (&["8", "--output", "svg"], "invalid value 'svg'"),
        (&["8", "--frobnicate"], "unexpected argument"),
        (&["--table", "--propagation", "mac"], "leave out --propagation"),
        (&["--table", "--sizes", "4,x"], "got 'x'"),
        (&["--table", "--output", "board"], "--table is written as markdown, csv or json, not board"),
        (&["8", "--output", "csv"], "--output csv applies to --table"),
        (&["8", "--count", "--output", "board"], "--count prints a line or json"),
    ];
    for (args, message) in cases {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains(message), "{args:?}: {:?} lacks {message:?}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
    }
}

#[test]
fn help_is_an_answer() {
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    for option in
        ["--count", "--all", "--limit", "--local-search", "--max-steps", "--output", "--propagation", "--seed"]
    {
        assert!(r.stdout.contains(option), "{option}");
    }
}

#[test]
fn the_table_has_a_row_per_ordering_and_level() {
    let r = run(&["--table", "--sizes", "4,6", "--node-limit", "50"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rows: Vec<&str> =
        r.stdout.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| ordering")).skip(1).collect();
    assert_eq!(rows.len(), 9, "{}", r.stdout);
    assert!(r.stdout.contains("| N = 4 | N = 6 |"));
    assert!(rows.iter().any(|row| row.starts_with("| dom-wdeg | mac |")));
    // Plain backtracking in input order needs more than 50 nodes for N = 6.
    assert!(rows[0].contains("limit"), "{}", rows[0]);
    // Without --node-limit the table's own limit (a million nodes) applies.
    let r = run(&["--table", "--sizes", "5", "--output", "markdown"]);
    assert!(r.stdout.contains("node limit 1000000"), "{}", r.stdout);
    assert!(rows[1..].iter().all(|row| row.contains("nodes")), "{}", r.stdout);
}

#[test]
fn the_table_is_also_csv_and_json_with_a_record_per_run() {
    let csv = run(&["--table", "--sizes", "4,6", "--node-limit", "50", "--output", "csv"]);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines[0], "ordering,propagation,n,outcome,nodes,time_ms");
    assert_eq!(lines.len(), 1 + 9 * 2, "{}", csv.stdout);
    assert!(lines[1].starts_with("input,none,4,solved,"), "{}", lines[1]);
    assert!(lines[2].starts_with("input,none,6,node limit,"), "{}", lines[2]);
    assert!(lines.iter().skip(1).all(|line| line.split(',').count() == 6), "{}", csv.stdout);

    let json = run(&["--table", "--sizes", "4,6", "--node-limit", "50", "--output", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON document");
    assert_eq!((doc["node_limit"].as_u64(), doc["sizes"].clone()), (Some(50), serde_json::json!([4, 6])));
    let runs = doc["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 18);
    let last = &runs[17];
    assert_eq!(
        (last["ordering"].as_str(), last["propagation"].as_str(), last["n"].as_u64()),
        (Some("dom-wdeg"), Some("mac"), Some(6))
    );
    assert_eq!(last["outcome"], "solved");
    assert!(last["nodes"].as_u64().is_some() && last["time_ms"].as_f64().is_some(), "{last}");
    // The nodes agree with the Markdown table's.
    let markdown = run(&["--table", "--sizes", "4,6", "--node-limit", "50"]);
    assert!(
        markdown.stdout.contains(&format!("| dom-wdeg | mac | {} nodes,", runs[16]["nodes"])),
        "{}",
        markdown.stdout
    );
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let (mut stdin, mut stdout, mut stderr) = (&b""[..], ClosedPipe { room: 40 }, Vec::new());
    let code = app::run(queens::main, ["queens", "8", "--all"], &mut Io::piped(&mut stdin, &mut stdout, &mut stderr));
    assert_eq!(code, 0);
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
}

#[test]
fn the_real_binary_counts_and_reports_bad_usage() {
    let binary = env!("CARGO_BIN_EXE_csp-queens");

    let output = Command::new(binary).args(["8", "--count"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("92 solutions"));

    let output = Command::new(binary).args(["1000", "--local-search", "--output", "line"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    csp_queens::verify(&parse_line(&String::from_utf8_lossy(&output.stdout))).unwrap();

    let output = Command::new(binary).arg("0").output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("N must be at least 1"));

    let output = Command::new(binary).arg("3").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
}

// ---- queens compare ----

#[test]
fn compare_counts_six_queens_alike_under_every_configuration() {
    let r = run(&["compare", "6", "--configs", "bt+input,fc+mrv,mac+domwdeg"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("instance '6-queens'; counting the solutions"), "{}", r.stdout);
    let rows = table_rows(&r.stdout);
    let configs: Vec<&str> = rows.iter().map(|row| row["config"].as_str()).collect();
    assert_eq!(configs, ["bt+input+pairwise", "fc+mrv+pairwise", "mac+domwdeg+matching"]);
    for row in &rows {
        assert_eq!((row["solutions"].as_str(), row["limited"].as_str()), ("4", "0"), "{row:?}");
    }
    // Plain backtracking explores more of the tree than forward checking.
    let nodes = |i: usize| rows[i]["nodes"].parse::<u64>().unwrap();
    assert!(nodes(0) > nodes(1), "{}", r.stdout);
    // N defaults to 8 and is counted: 92 solutions in every row.
    let r = run(&["compare", "--configs", "fc+mrv,mac+mrv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(table_rows(&r.stdout).iter().all(|row| row["solutions"] == "92"), "{}", r.stdout);
}

#[test]
fn compare_writes_csv_and_json_with_a_record_per_configuration() {
    let args = ["compare", "5", "--configs", "bt-cbj+input,fc-cbj+mrv,mac/ac2001+mrv+lcv"];
    let csv = run(&[&args[..], &["--format", "csv"]].concat());
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", csv.stdout);
    let header: Vec<&str> = lines[0].split(',').collect();
    let column = header.iter().position(|c| *c == "solutions").expect("a solutions column");
    for line in &lines[1..] {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), header.len(), "{line}");
        assert_eq!(fields[column], "10", "{line}");
    }
    let json = run(&[&args[..], &["--format", "json", "--repeats", "2"]].concat());
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON document");
    assert_eq!(doc["goal"], "count");
    assert_eq!(doc["repeats"], 2);
    assert_eq!(doc["instances"], serde_json::json!(["5-queens"]));
    let configs = doc["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 3);
    for (record, name) in
        configs.iter().zip(["bt-cbj+input+pairwise", "fc-cbj+mrv+pairwise", "mac/ac2001+mrv+lcv+matching"])
    {
        assert_eq!((record["config"].as_str(), record["solutions"].as_u64()), (Some(name), Some(10)), "{record}");
    }
}

#[test]
fn compare_goal_defaults_to_counting_small_boards_only() {
    let small = run(&["compare", "4", "--configs", "fc+mrv", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&small.stdout).unwrap();
    assert_eq!((doc["goal"].as_str(), doc["configs"][0]["solutions"].as_u64()), (Some("count"), Some(2)));
    let large = run(&["compare", "13", "--configs", "fc+mrv,mac+mrv", "--format", "json"]);
    assert_eq!(large.code, 0, "{}", large.stderr);
    let doc: serde_json::Value = serde_json::from_str(&large.stdout).unwrap();
    assert_eq!(doc["goal"], "first");
    assert!(doc["configs"].as_array().unwrap().iter().all(|c| c["solutions"] == 1), "{doc}");
    // An explicit goal wins.
    let first = run(&["compare", "4", "--goal", "first", "--configs", "fc+mrv", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!((doc["goal"].as_str(), doc["configs"][0]["solutions"].as_u64()), (Some("first"), Some(1)));
    let help = run(&["compare", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("count up to N = 12, first above"), "{}", help.stdout);
}

#[test]
fn compare_refuses_unknown_words_and_bad_boards_with_exit_two() {
    let r = run(&["compare", "6", "--configs", "fc+mrv,fc+fastest"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("unknown word 'fastest' in configuration 'fc+fastest'"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let r = run(&["compare", "0"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("N must be at least 1"), "{}", r.stderr);
    let r = run(&["compare", "6", "--count"]);
    assert_eq!(r.code, 2, "the configurations and --goal say what to do: {}", r.stdout);
}

#[test]
fn compare_plots_an_svg_bar_chart() {
    let path = std::env::temp_dir().join(format!("queens-compare-{}.svg", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let r = run(&["compare", "6", "--configs", "bt+input,mac+mrv", "--plot", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    // The title says what was run; instance names (file names, for other tools) stay out of charts.
    assert!(svg.contains("bt+input") && svg.contains("mac+mrv") && svg.contains("counting the solutions, 1 instance"));
    // The table is printed as well.
    assert_eq!(table_rows(&r.stdout).len(), 2);
}
