//! The puzzle gallery: every tool's known answers, its counts under every
//! propagation level, its bad-input reports, the custom constraint's soundness, and
//! one end-to-end run of a real example binary.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use csp::testing::{Harness, Strength};
use csp::{Propagation, SolveConfig, Solver, VarOrder};
use csp_examples::gallery::custom_constraint::{Form, Grid};
use csp_examples::gallery::killer_sudoku::KillerSudoku;
use csp_examples::gallery::no_three_equal::{NoThreeEqual, NoThreeEqualCheck, no_three_equal};
use csp_examples::gallery::{self, Tool, dimacs, futoshiki, kakuro, killer_sudoku, magic_square, map_coloring, zebra};

/// What a tool printed and returned.
struct Run {
    code: u8,
    stdout: String,
    stderr: String,
}

impl Run {
    fn first_word(&self) -> &str {
        self.stdout.split_whitespace().next().unwrap_or("")
    }
}

fn run(tool: Tool, args: &[&str]) -> Run {
    let args: Vec<OsString> = std::iter::once("tool").chain(args.iter().copied()).map(OsString::from).collect();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = tool(args, &mut stdout, &mut stderr);
    Run { code, stdout: String::from_utf8(stdout).unwrap(), stderr: String::from_utf8(stderr).unwrap() }
}

/// A fixture shipped with the examples.
fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name).display().to_string()
}

/// The project's shared data (`../shared/data` from the repository root), if present.
fn shared_data() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("skipped: the shared data folder {} is missing", dir.display());
        None
    }
}

const LEVELS: [&str; 3] = ["none", "forward-checking", "mac"];

/// Counts with `args` under every propagation level; all must give `expected`.
fn assert_count_everywhere(tool: Tool, args: &[&str], expected: u64) {
    for level in LEVELS {
        let mut all = args.to_vec();
        all.extend(["--count", "--propagation", level]);
        let result = run(tool, &all);
        assert_eq!(result.code, 0, "{args:?} under {level}: {}", result.stderr);
        assert_eq!(result.first_word(), expected.to_string(), "{args:?} under {level}: {}", result.stdout);
    }
}

// ---- SEND + MORE = MONEY ----

#[test]
fn send_more_money_has_the_unique_answer() {
    let result = run(gallery::send_more_money::run, &["--stats"]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let lines: Vec<&str> = result.stdout.lines().map(str::trim).collect();
    assert_eq!(&lines[..3], &["9567", "+  1085", "= 10652"]);
    assert!(result.stdout.contains("stats: nodes"), "{}", result.stdout);
    assert_count_everywhere(gallery::send_more_money::run, &[], 1);
}

#[test]
fn other_additions_of_words_are_solved_and_checked() {
    // TO + GO = OUT: 21 + 81 = 102 is the only answer.
    let result = run(gallery::send_more_money::run, &["--puzzle", "to + go = out"]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert!(result.stdout.contains("= 102"), "{}", result.stdout);
    assert_eq!(run(gallery::send_more_money::run, &["--puzzle", "A + A = A", "--count"]).first_word(), "1");
    let impossible = run(gallery::send_more_money::run, &["--puzzle", "AB + AB = C"]);
    assert_eq!((impossible.code, impossible.stdout.trim()), (1, "no solution"));
    let bad = run(gallery::send_more_money::run, &["--puzzle", "SEND + M0RE = MONEY"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--puzzle: line 1, column 9: expected a letter"), "{}", bad.stderr);
}

// ---- the zebra puzzle ----

#[test]
fn the_japanese_owns_the_zebra_and_the_norwegian_drinks_water() {
    let model = zebra::model().unwrap();
    let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
    let solution = solver.solve().into_solution().expect("the puzzle has a solution");
    let houses = zebra::Houses::from_solution(&solution);
    houses.verify().unwrap();
    assert_eq!(houses.who("zebra"), Some("Japanese"));
    assert_eq!(houses.who("water"), Some("Norwegian"));
    for level in Propagation::ALL {
        let count = Solver::new(&model, SolveConfig::default().with_propagation(*level)).unwrap().count(None);
        assert!(count.is_unique(), "{level}: {count:?}");
    }
    let result = run(zebra::run, &[]);
    assert_eq!(result.code, 0);
    assert!(result.stdout.contains("The Norwegian drinks water. The Japanese owns the zebra."), "{}", result.stdout);
}

#[test]
fn every_zebra_variable_has_a_name_and_every_clue_a_label() {
    let model = zebra::model().unwrap();
    assert_eq!(model.num_vars(), 25);
    assert!(model.vars().all(|v| model.name(v).is_some()));
    assert!(model.constraints().all(|(id, _)| model.label(id).is_some()));
    // The verifier is independent of the solver: a wrong answer is rejected.
    let solution = model.solve().unwrap().unwrap();
    let mut houses = zebra::Houses::from_solution(&solution);
    houses.0.swap(0, 1);
    assert!(houses.verify().is_err());
}

// ---- map colouring ----

#[test]
fn australia_has_eighteen_three_colourings() {
    let result = run(map_coloring::run, &["--count"]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(result.first_word(), "18");
    assert_count_everywhere(map_coloring::run, &[], 18);
    for order in ["input", "mrv-degree", "dom-wdeg"] {
        assert_eq!(run(map_coloring::run, &["--count", "--var-order", order]).first_word(), "18");
    }
    assert_eq!(run(map_coloring::run, &["--count", "--colors", "2"]).first_word(), "0");
    let shown = run(map_coloring::run, &[]);
    assert_eq!(shown.code, 0);
    assert!(shown.stdout.starts_with("WA "), "{}", shown.stdout);
    assert_eq!(shown.stdout.lines().count(), 7);
}

#[test]
fn fixture_graphs_have_their_known_colourings() {
    let petersen = fixture("graphs/petersen.col");
    assert_count_everywhere(map_coloring::run, &["--graph", &petersen, "--colors", "3"], 120);
    assert_eq!(run(map_coloring::run, &["--graph", &petersen, "--colors", "2"]).code, 1);
    let wheel = fixture("graphs/wheel6.col");
    let three = run(map_coloring::run, &["--graph", &wheel, "--colors", "3"]);
    assert_eq!((three.code, three.stdout.trim()), (1, "no solution"));
    assert!(three.stderr.contains("announces 12 edges, the file lists 10"), "{}", three.stderr);
    let four = run(map_coloring::run, &["--graph", &wheel, "--colors", "4"]);
    assert_eq!(four.code, 0, "{}", four.stderr);
    // The clique constraint is implied: it must not change the count.
    assert_eq!(run(map_coloring::run, &["--graph", &wheel, "--colors", "4", "--count"]).first_word(), "120");
    assert_eq!(
        run(map_coloring::run, &["--graph", &wheel, "--colors", "4", "--count", "--clique"]).first_word(),
        "120"
    );
}

#[test]
fn shared_benchmark_graphs_have_their_chromatic_numbers() {
    let Some(data) = shared_data() else { return };
    // (file, chromatic number, whether proving one colour fewer impossible is fast)
    for (name, chromatic, prove) in
        [("myciel3", 4, true), ("myciel4", 5, true), ("queen5_5", 5, true), ("huck", 11, true), ("jean", 10, true)]
    {
        let file = data.join("graphs").join(format!("{name}.col")).display().to_string();
        let enough = run(map_coloring::run, &["--graph", &file, "--colors", &chromatic.to_string()]);
        assert_eq!(enough.code, 0, "{name} with {chromatic} colours: {}{}", enough.stdout, enough.stderr);
        if prove {
            let fewer = (chromatic - 1).to_string();
            let result = run(map_coloring::run, &["--graph", &file, "--colors", &fewer, "--clique"]);
            assert_eq!((result.code, result.stdout.trim()), (1, "no solution"), "{name} with {fewer} colours");
        }
    }
}

#[test]
fn malformed_graphs_are_reported_with_line_and_column() {
    for (name, location) in [
        ("bad/vertex_out_of_range.col", "line 4, column 5: vertex 4 is out of range"),
        ("bad/no_header.col", "line 2, column 1: missing the 'p edge N M' line before the first edge"),
        ("bad/not_a_number.col", "line 3, column 5: expected vertex (a whole number), found 'x'"),
    ] {
        let file = fixture(name);
        let result = run(map_coloring::run, &["--graph", &file, "--colors", "3"]);
        assert_eq!(result.code, 2, "{name}");
        assert!(result.stderr.contains(&format!("{file}: {location}")), "{name}: {}", result.stderr);
        assert!(result.stdout.is_empty());
    }
    let missing = run(map_coloring::run, &["--graph", "no/such/file.col", "--colors", "3"]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("cannot read no/such/file.col"), "{}", missing.stderr);
    let no_colours = run(map_coloring::run, &["--graph", &fixture("graphs/petersen.col")]);
    assert_eq!(no_colours.code, 2);
    assert!(no_colours.stderr.contains("--graph needs --colors"), "{}", no_colours.stderr);
    let usage = run(map_coloring::run, &["--colors", "many"]);
    assert_eq!(usage.code, 2);
    let parsed = dimacs::parse(&std::fs::read_to_string(fixture("graphs/wheel6.col")).unwrap(), "wheel6.col").unwrap();
    assert_eq!((parsed.vertices, parsed.edges.len()), (6, 10));
}

// ---- magic squares ----

#[test]
fn magic_squares_of_order_three_number_eight() {
    assert_count_everywhere(magic_square::run, &["--order", "3"], 8);
    let result = run(magic_square::run, &[]);
    assert_eq!(result.code, 0);
    let square: Vec<i64> =
        result.stdout.lines().take(3).flat_map(|l| l.split_whitespace()).map(|w| w.parse().unwrap()).collect();
    magic_square::verify(3, &square).unwrap();
    assert_eq!(run(magic_square::run, &["--order", "2", "--count"]).first_word(), "0");
}

/// About 2 s in a debug build with the default configuration and the implied sums.
#[test]
fn magic_squares_of_order_four_number_7040() {
    let result = run(magic_square::run, &["--order", "4", "--count"]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    assert_eq!(result.first_word(), "7040");
}

#[test]
fn the_implied_sums_hold_in_every_order_four_square() {
    let (model, cells) = magic_square::model(4, false).unwrap();
    let mut solver = Solver::new(&model, magic_square::default_config()).unwrap();
    for solution in solver.solutions().take(300) {
        let square: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
        for group in magic_square::implied_sums(4) {
            assert_eq!(group.iter().map(|&i| square[i]).sum::<i64>(), 34, "{square:?}");
        }
    }
}

// ---- killer sudoku, futoshiki, kakuro ----

#[test]
fn the_built_in_puzzles_have_unique_checked_solutions() {
    for tool in [killer_sudoku::run as Tool, futoshiki::run, kakuro::run] {
        let result = run(tool, &["--stats"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert!(result.stdout.contains("stats: nodes"));
        assert_eq!(run(tool, &["--count"]).first_word(), "1");
        assert_eq!(run(tool, &["--count", "--alldiff", "pairwise", "--var-order", "mrv"]).first_word(), "1");
    }
    // Every level on the small ones (the killer sudoku takes 467,000 nodes under
    // forward checking, too many for a debug build).
    assert_count_everywhere(futoshiki::run, &[], 1);
    assert_count_everywhere(kakuro::run, &[], 1);
}

#[test]
fn puzzle_answers_pass_the_independent_checks() {
    let puzzle = KillerSudoku::parse(killer_sudoku::BUILT_IN, "built-in").unwrap();
    let (model, cells) = puzzle.model().unwrap();
    let solution = model.solve().unwrap().unwrap();
    let mut grid: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
    puzzle.verify(&grid).unwrap();
    grid.swap(0, 1);
    assert!(puzzle.verify(&grid).is_err(), "the verifier must catch a broken grid");

    let puzzle = futoshiki::Futoshiki::parse(futoshiki::BUILT_IN, "built-in").unwrap();
    let (model, cells) = puzzle.model().unwrap();
    let solution = model.solve().unwrap().unwrap();
    let mut grid: Vec<i64> = cells.iter().map(|&v| solution[v]).collect();
    puzzle.verify(&grid).unwrap();
    grid.swap(0, 5);
    assert!(puzzle.verify(&grid).is_err());

    let puzzle = kakuro::Kakuro::parse(kakuro::BUILT_IN, "built-in").unwrap();
    let (model, vars) = puzzle.model().unwrap();
    let solution = model.solve().unwrap().unwrap();
    let mut digits: Vec<Option<i64>> = vars.iter().map(|v| v.map(|v| solution[v])).collect();
    puzzle.verify(&digits).unwrap();
    let first = digits.iter().position(Option::is_some).unwrap();
    digits[first] = digits[first].map(|d| d % 9 + 1);
    assert!(puzzle.verify(&digits).is_err());
}

#[test]
fn puzzle_files_are_read_like_the_built_in_ones() {
    for (tool, file) in [
        (killer_sudoku::run as Tool, "killer_sudoku.txt"),
        (futoshiki::run, "futoshiki.txt"),
        (kakuro::run, "kakuro.txt"),
    ] {
        let from_file = run(tool, &[&fixture(file)]);
        assert_eq!(from_file.code, 0, "{file}: {}", from_file.stderr);
        assert_eq!(from_file.stdout, run(tool, &[]).stdout, "{file}");
    }
}

#[test]
fn malformed_puzzles_exit_two_with_file_line_and_column() {
    for (tool, name, location) in [
        (killer_sudoku::run as Tool, "bad/killer_missing_sum.txt", "line 4, column 1: missing the sum of cage 'h'"),
        (killer_sudoku::run, "bad/killer_short_row.txt", "line 3, column 4: this row has 3 cells, the first has 4"),
        (killer_sudoku::run, "bad/killer_bad_sum.txt", "line 12, column 5: expected sum (a whole number), found 'one'"),
        (killer_sudoku::run, "bad/empty.txt", "line 1, column 1: missing the grid"),
        (futoshiki::run, "bad/futoshiki_bad_sign.txt", "line 4, column 3: expected '^', 'v' or a space, found '?'"),
        (futoshiki::run, "bad/futoshiki_bad_digit.txt", "line 3, column 3: expected a digit 1 to 3 or '.', found '7'"),
        (futoshiki::run, "bad/futoshiki_missing_rows.txt", "line 4, column 1: missing the line of signs"),
        (kakuro::run, "bad/kakuro_no_clue.txt", "line 2, column 3: this run of white cells has no across sum"),
        (kakuro::run, "bad/kakuro_bad_clue.txt", "line 3, column 6: expected sum (a whole number), found 'x'"),
    ] {
        let file = fixture(name);
        let result = run(tool, &[&file]);
        assert_eq!(result.code, 2, "{name}: {}", result.stdout);
        assert!(result.stderr.contains(&format!("error: {file}: {location}")), "{name}: {}", result.stderr);
    }
    let binary = run(killer_sudoku::run, &[&fixture("bad/not_utf8.txt")]);
    assert_eq!(binary.code, 2);
    assert!(binary.stderr.contains("cannot read"), "{}", binary.stderr);
}

#[test]
fn help_and_usage_errors_have_their_exit_codes() {
    let help = run(kakuro::run, &["--help"]);
    assert_eq!(help.code, 0);
    assert!(
        help.stdout.contains("--propagation") && help.stdout.contains("--stats") && help.stdout.contains("--count")
    );
    let unknown = run(futoshiki::run, &["--propagation", "magic"]);
    assert_eq!(unknown.code, 2);
    assert!(unknown.stderr.contains("unknown propagation level 'magic'"), "{}", unknown.stderr);
}

#[test]
fn a_node_limit_makes_an_incomplete_count_that_says_so() {
    let result = run(magic_square::run, &["--order", "4", "--count", "--node-limit", "100"]);
    assert_eq!(result.code, 1);
    assert!(result.stdout.contains("node limit stopped the search (incomplete)"), "{}", result.stdout);
}

// ---- the custom constraint ----

#[test]
fn both_forms_give_the_same_solutions_under_every_propagation_level() {
    let grid = Grid::empty(4);
    let mut reference: Option<Vec<Vec<i64>>> = None;
    for form in Form::ALL {
        let (model, _) = grid.model(form).unwrap();
        for &level in Propagation::ALL {
            for order in [VarOrder::Input, VarOrder::Mrv] {
                let config = SolveConfig::default().with_propagation(level).with_var_order(order);
                let mut solver = Solver::new(&model, config).unwrap();
                let mut solutions: Vec<Vec<i64>> = solver.solutions().map(|s| s.into_values()).collect();
                solutions.sort();
                assert_eq!(solutions.len(), 90, "{form:?} {level} {order}");
                for s in &solutions {
                    grid.verify(s).unwrap();
                }
                match &reference {
                    None => reference = Some(solutions),
                    Some(expected) => assert_eq!(&solutions, expected, "{form:?} {level} {order}"),
                }
            }
        }
    }
    let compare = run(gallery::custom_constraint::run, &["--compare"]);
    assert_eq!(compare.code, 0, "{}", compare.stdout);
    assert!(compare.stdout.contains("all 6 runs agree: 1 solution"), "{}", compare.stdout);
}

#[test]
fn the_propagator_is_sound_by_the_harness() {
    for arity in 2..=6 {
        let harness = Harness::new(arity, 1..=3).cases(400).seed(arity as u64);
        let result = harness.check(Strength::Sound, |m, v| m.post(NoThreeEqual::new(v.to_vec())).map(drop));
        assert!(result.is_ok(), "arity {arity}: {result:?}");
        // The check-only form gets generic arc consistency: it is domain consistent.
        let result =
            harness.check(Strength::DomainConsistent, |m, v| m.post(NoThreeEqualCheck::new(v.to_vec())).map(drop));
        assert!(result.is_ok(), "check only, arity {arity}: {result:?}");
    }
    // Five variables over two values, each at most twice: no room, and the
    // pigeonhole count sees it before any search.
    let mut model = csp::Model::new();
    let vars = model.new_vars(5, 1..=2).unwrap();
    model.post(NoThreeEqual::new(vars)).unwrap();
    assert!(Solver::new(&model, SolveConfig::default()).unwrap().root_domains().is_none());
}

#[test]
fn the_propagator_prunes_what_the_check_alone_cannot_under_forward_checking() {
    let grid = Grid::parse(&std::fs::read_to_string(fixture("no_three.txt")).unwrap(), "no_three.txt").unwrap();
    let nodes = |form| {
        let (model, _) = grid.model(form).unwrap();
        let mut solver =
            Solver::new(&model, SolveConfig::default().with_propagation(Propagation::ForwardChecking)).unwrap();
        assert!(solver.count(None).is_unique());
        solver.stats().nodes
    };
    assert!(nodes(Form::Propagator) < nodes(Form::CheckOnly));
    assert!(no_three_equal(&[1, 2, 1, 2, 3]) && !no_three_equal(&[1, 2, 1, 2, 1]) && no_three_equal(&[]));
}

// ---- a real binary ----

/// The example binaries that `cargo test` builds sit in `target/<profile>/examples`,
/// next to the `deps` folder of this test.
fn example_binary(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let profile_dir = exe.parent()?.parent()?;
    let path = profile_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if path.is_file() {
        Some(path)
    } else {
        println!("skipped: {} is not built (cargo test builds the examples)", path.display());
        None
    }
}

#[test]
fn the_map_coloring_binary_counts_and_reports_bad_input() {
    let Some(binary) = example_binary("map_coloring") else { return };
    let output = std::process::Command::new(&binary).arg("--count").output().unwrap();
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout).split_whitespace().next(), Some("18"));
    let bad = fixture("bad/vertex_out_of_range.col");
    let output = std::process::Command::new(&binary).args(["--graph", &bad, "--colors", "3"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("line 4, column 5"));
}

// ---- --compare ----

/// The rows of the aligned comparison tables of `text`, as maps from column name to cell.
fn table_rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut rows = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("config ") {
            continue;
        }
        let header: Vec<String> = line.split_whitespace().map(String::from).collect();
        assert!(lines.next().is_some_and(|rule| rule.starts_with("---")), "a rule under the header: {text}");
        for row in lines.by_ref().take_while(|row| !row.trim().is_empty()) {
            rows.push(header.iter().cloned().zip(row.split_whitespace().map(String::from)).collect());
        }
    }
    rows
}

/// A tool's `--compare` on one puzzle.
struct Case {
    name: &'static str,
    tool: Tool,
    /// The options that say which puzzle.
    puzzle: Vec<String>,
    /// Configurations that finish at once in a debug build.
    configs: &'static str,
    /// The goal `--compare` picks by default.
    goal: &'static str,
    /// The answer all configurations must agree on.
    answer: u64,
}

impl Case {
    /// The puzzle's options, `--compare`, `--configs` and `extra`.
    fn args<'a>(&'a self, extra: &[&'a str]) -> Vec<&'a str> {
        let mut args: Vec<&str> = self.puzzle.iter().map(String::as_str).collect();
        args.extend(["--compare", "--configs", self.configs]);
        args.extend(extra);
        args
    }
}

/// Every tool, on a puzzle it solves at once.
fn compare_cases() -> Vec<Case> {
    let petersen = fixture("graphs/petersen.col");
    let case = |name, tool, puzzle: &[&str], configs, goal, answer| Case {
        name,
        tool,
        puzzle: puzzle.iter().map(|w| w.to_string()).collect(),
        configs,
        goal,
        answer,
    };
    vec![
        case("send_more_money", gallery::send_more_money::run, &[], "fc+mrv,fc-cbj+mrv,mac+domwdeg", "count", 1),
        case("zebra", zebra::run, &[], "bt+input,fc+mrv,mac/ac2001+domwdeg", "count", 1),
        case("map_coloring", map_coloring::run, &[], "bt+input,bt-cbj+input,fc+mrv,mac+domwdeg", "count", 18),
        case(
            "map_coloring --graph",
            map_coloring::run,
            &["--graph", &petersen, "--colors", "3"],
            "bt+input,fc+mrv,mac+mrv",
            "first",
            1,
        ),
        case("magic_square", magic_square::run, &["--order", "3"], "bt+input,fc-cbj+mrv,mac+mrv+lcv", "count", 8),
        case("killer_sudoku", killer_sudoku::run, &[], "mac+mrv,mac+domwdeg,mac/ac2001+mrv+pairwise", "first", 1),
        case("futoshiki", futoshiki::run, &[&fixture("futoshiki.txt")], "bt+input,fc+mrv,mac+domwdeg", "count", 1),
        case("kakuro", kakuro::run, &[], "fc+mrv,fc-cbj+mrv,mac+domwdeg+lcv", "count", 1),
    ]
}

#[test]
fn every_tool_compares_configurations_that_all_agree() {
    for case in compare_cases() {
        let Case { name, tool, configs, goal, answer, .. } = case;
        let result = run(tool, &case.args(&[]));
        assert_eq!(result.code, 0, "{name}: {}", result.stderr);
        let title = result.stdout.lines().next().unwrap_or("");
        let goal_words = if goal == "count" { "counting the solutions" } else { "the first solution" };
        assert!(title.starts_with("instance '") && title.contains(goal_words), "{name}: {}", result.stdout);
        let rows = table_rows(&result.stdout);
        let names: Vec<&str> = rows.iter().map(|row| row["config"].as_str()).collect();
        assert_eq!(names, configs.split(',').collect::<Vec<_>>(), "{name}");
        for row in &rows {
            assert_eq!(row["solutions"], answer.to_string(), "{name}: {row:?}");
            assert_eq!((row["solved"].as_str(), row["limited"].as_str()), ("1", "0"), "{name}: {row:?}");
        }
        assert!(result.stderr.is_empty(), "{name}: {}", result.stderr);
    }
    // An explicit goal overrides the default: the 120 3-colourings of the Petersen graph.
    let petersen = fixture("graphs/petersen.col");
    let counted = run(
        map_coloring::run,
        &["--graph", &petersen, "--colors", "3", "--compare", "--goal", "count", "--configs", "fc+mrv,mac+domwdeg"],
    );
    assert_eq!(counted.code, 0, "{}", counted.stderr);
    assert!(table_rows(&counted.stdout).iter().all(|row| row["solutions"] == "120"), "{}", counted.stdout);
}

#[test]
fn every_tool_writes_csv_and_json_with_a_record_per_configuration() {
    for case in compare_cases() {
        let Case { name, tool, configs, goal, answer, .. } = case;
        let csv = run(tool, &case.args(&["--format", "csv"]));
        assert_eq!(csv.code, 0, "{name}: {}", csv.stderr);
        let lines: Vec<&str> = csv.stdout.lines().collect();
        assert_eq!(lines.len(), 1 + configs.split(',').count(), "{name}: {}", csv.stdout);
        assert!(lines[0].starts_with("config,instances,solved,limited,solutions,nodes,"), "{name}: {}", lines[0]);
        let json = run(tool, &case.args(&["--format", "json"]));
        assert_eq!(json.code, 0, "{name}: {}", json.stderr);
        let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc["goal"], goal, "{name}");
        let records = doc["configs"].as_array().unwrap();
        assert_eq!(records.len(), configs.split(',').count(), "{name}");
        for (record, config) in records.iter().zip(configs.split(',')) {
            assert_eq!(record["config"], config, "{name}");
            assert_eq!(record["solutions"], answer, "{name}: {record}");
        }
    }
}

#[test]
fn compare_refuses_unknown_words_and_solving_options_with_exit_two() {
    for case in compare_cases() {
        let (name, tool) = (case.name, case.tool);
        let mut args: Vec<&str> = case.puzzle.iter().map(String::as_str).collect();
        args.extend(["--compare", "--configs", "fc+mrv,mac+fastest"]);
        let result = run(tool, &args);
        assert_eq!(result.code, 2, "{name}: {}", result.stdout);
        assert!(
            result.stderr.contains("unknown word 'fastest' in configuration 'mac+fastest'"),
            "{name}: {}",
            result.stderr
        );
        assert!(result.stdout.is_empty(), "{name}");
    }
    let counted = run(zebra::run, &["--compare", "--count"]);
    assert_eq!(counted.code, 2);
    assert!(counted.stderr.contains("--goal replaces --count"), "{}", counted.stderr);
    let strategy = run(futoshiki::run, &["--compare", "--propagation", "fc"]);
    assert_eq!(strategy.code, 2, "the configurations say the strategy: {}", strategy.stdout);
    let check_only = run(gallery::custom_constraint::run, &["--compare", "--check-only"]);
    assert_eq!(check_only.code, 2, "--compare runs both forms: {}", check_only.stdout);
    // Bad puzzles are reported as when solving.
    let bad = run(kakuro::run, &[&fixture("bad/kakuro_bad_clue.txt"), "--compare"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("line 3, column 6: expected sum"), "{}", bad.stderr);
    let no_colours = run(map_coloring::run, &["--compare", "--graph", &fixture("graphs/petersen.col")]);
    assert_eq!(no_colours.code, 2);
    assert!(no_colours.stderr.contains("--graph needs --colors"), "{}", no_colours.stderr);
    // After `--`, `--compare` is a file name.
    assert_eq!(run(killer_sudoku::run, &["--", "--compare"]).code, 2);
}

#[test]
fn compare_options_are_in_the_help() {
    let help = run(zebra::run, &["--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("--compare") && help.stdout.contains("--count"), "{}", help.stdout);
    let help = run(magic_square::run, &["--compare", "--help"]);
    assert_eq!(help.code, 0);
    for option in
        ["--order", "--configs", "--goal", "--repeats", "--format", "--plot", "count up to order 3, first above"]
    {
        assert!(help.stdout.contains(option), "{option}: {}", help.stdout);
    }
    assert!(!help.stdout.contains("--propagation"), "{}", help.stdout);
    // Order 4 is not counted by default.
    let first = run(magic_square::run, &["--order", "4", "--compare", "--configs", "fc+mrv", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&first.stdout).unwrap();
    assert_eq!((doc["goal"].as_str(), doc["instances"][0].as_str()), (Some("first"), Some("order 4")));
}

#[test]
fn compare_plots_an_svg_bar_chart() {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("gallery-compare-{}.svg", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let result = run(zebra::run, &["--compare", "--configs", "fc+mrv,mac+mrv", "--plot", path.to_str().unwrap()]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert!(svg.contains("fc+mrv") && svg.contains("mac+mrv"));
    assert_eq!(table_rows(&result.stdout).len(), 2);
    // The custom constraint's chart has a bar per configuration and form.
    let path = dir.join(format!("gallery-compare-forms-{}.svg", std::process::id()));
    let result = run(gallery::custom_constraint::run, &["--compare", "--plot", path.to_str().unwrap()]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.contains("fc+mrv (check only)") && svg.contains("mac+mrv (propagator)"), "{svg}");
}

#[test]
fn the_custom_constraint_compares_both_forms_in_every_format() {
    let table = run(gallery::custom_constraint::run, &["--compare"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    let rows = table_rows(&table.stdout);
    assert_eq!(rows.len(), 6, "two forms, three levels: {}", table.stdout);
    assert!(rows.iter().all(|row| row["solutions"] == "1"), "{}", table.stdout);
    assert!(table.stdout.contains("instance 'built-in puzzle, check only'"), "{}", table.stdout);
    assert!(table.stdout.contains("instance 'built-in puzzle, propagator'"), "{}", table.stdout);
    // The propagator needs fewer nodes than the check alone under plain backtracking.
    let nodes = |i: usize| rows[i]["nodes"].parse::<u64>().unwrap();
    assert!(nodes(3) < nodes(0), "{}", table.stdout);
    let configs = ["--compare", "--size", "4", "--goal", "all", "--configs", "fc+mrv,mac/ac2001+domwdeg"];
    let csv = run(gallery::custom_constraint::run, &[&configs[..], &["--format", "csv"]].concat());
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "a record per form and configuration: {}", csv.stdout);
    assert!(lines[0].starts_with("constraint,config,"), "{}", lines[0]);
    assert!(lines[1].starts_with("check only,fc+mrv,") && lines[4].starts_with("propagator,mac/ac2001+domwdeg,"));
    let json = run(gallery::custom_constraint::run, &[&configs[..], &["--format", "json"]].concat());
    assert_eq!(json.code, 0, "{}", json.stderr);
    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let forms = doc["forms"].as_array().unwrap();
    assert_eq!(forms.len(), 2);
    for (form, name) in forms.iter().zip(["check only", "propagator"]) {
        assert_eq!((form["constraint"].as_str(), form["goal"].as_str()), (Some(name), Some("all")));
        assert!(form["configs"].as_array().unwrap().iter().all(|c| c["solutions"] == 90), "{form}");
    }
}
