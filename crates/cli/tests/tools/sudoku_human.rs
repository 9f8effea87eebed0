//! The sudoku tool's human-style commands (`explain`, `hint`, `rate`,
//! `generate --difficulty`, `trace --animate --human`), in-process and as the
//! real process.

use std::process::Command;

use crate::sudoku::{Run, assert_bad, binary, fixture, puzzles_of, run, run_with, shared};

use csp_sudoku::check::verify_solution;
use csp_sudoku::human::{self, Level, PencilMarks, generate::is_minimal};
use csp_sudoku::parse::{self, PuzzleReader};
use csp_sudoku::{Grid, Shape};

const SIX: &str = "..6..35......134.......6..1....5..64";

fn twelve() -> String {
    std::fs::read_to_string(fixture("human-12x12.txt")).unwrap().lines().next().unwrap().to_string()
}

/// `r12c3` as a cell index on a grid of side `n`.
fn cell(name: &str, n: usize) -> usize {
    let (row, col) = name.trim().trim_start_matches('r').split_once('c').unwrap();
    (row.parse::<usize>().unwrap() - 1) * n + col.parse::<usize>().unwrap() - 1
}

/// The numbered steps of `explain`'s text (`12. hidden single: ...`), without their numbers.
fn numbered_steps(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| line.trim_start().split_once(". "))
        .filter(|(number, _)| number.parse::<u32>().is_ok())
        .map(|(_, step)| step)
        .collect()
}

/// Follows the numbered steps of `explain`'s text on a board of pencil marks,
/// as a person would on paper: every placement must go into an empty cell
/// that has the digit as a candidate, every elimination must remove a
/// candidate that is there. Returns the board reached.
fn follow_on_paper(puzzle: &Grid, text: &str) -> PencilMarks {
    let n = puzzle.side();
    let mut board = PencilMarks::from_givens(puzzle).unwrap();
    let steps = numbered_steps(text);
    for &line in &steps {
        let (_, effect) = line.split_once(": ").unwrap();
        let effect = effect.split(" (").next().unwrap();
        for part in effect.split("; ") {
            if let Some((cells, digits)) = part.split_once(" <> ") {
                for digit in digits.split(", ").map(|d| d.parse::<u8>().unwrap()) {
                    for name in cells.split(", ") {
                        assert!(board.eliminate(cell(name, n), digit), "{line}: {name} has no candidate {digit}");
                    }
                }
            } else {
                for placement in part.split(", ") {
                    let (name, digit) = placement.split_once(" = ").unwrap();
                    let (at, digit) = (cell(name, n), digit.parse::<u8>().unwrap());
                    assert!(board.value(at) == 0 && board.has(at, digit), "{line}: {name} cannot take {digit}");
                    board.place(at, digit);
                }
            }
        }
    }
    assert!(!steps.is_empty(), "no numbered step in\n{text}");
    board
}

#[test]
fn explain_on_6x6_and_12x12_prints_steps_a_person_can_follow_on_paper() {
    for (puzzle, steps_fixture, first) in
        [(SIX.to_string(), "human-6x6-steps.txt", 6), (twelve(), "human-12x12-steps.txt", 8)]
    {
        let r = run_with(&["explain"], Some(&puzzle));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let grid = parse::one(&puzzle).unwrap();
        let n = grid.side();
        assert!(r.stdout.starts_with(&format!(
            "<stdin>:1: {n}x{n} with {} boxes, {} givens\n",
            grid.shape(),
            grid.num_givens()
        )));
        // The first steps, as the library's own fixtures have them.
        let expected = std::fs::read_to_string(fixture(steps_fixture)).unwrap();
        let printed = numbered_steps(&r.stdout);
        assert_eq!(printed[..first], expected.lines().collect::<Vec<_>>()[..]);
        // Following every step on paper reaches the printed solution.
        let reached = follow_on_paper(&grid, &r.stdout);
        assert!(reached.is_solved());
        verify_solution(&grid, &reached.grid()).unwrap();
        let solution = puzzles_of(r.stdout.split("\n\n").nth(2).unwrap());
        assert_eq!(solution, [reached.grid()]);
        // The rating comes last, as `rate` has it.
        let lines: Vec<&str> = r.stdout.trim_end().lines().collect();
        let rating = human::rate(&grid).unwrap();
        assert_eq!(
            lines[lines.len() - 2],
            format!(
                "rating: {} (score {}), hardest technique: {}",
                rating.level,
                rating.score,
                rating.hardest.unwrap()
            )
        );
        assert!(lines[lines.len() - 1].starts_with(&format!("{} steps: ", rating.steps)), "{}", lines[lines.len() - 1]);
    }
}

#[test]
fn explain_jsonl_is_a_start_the_steps_and_an_end() {
    let r = run_with(&["explain", "--format", "jsonl"], Some(SIX));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records[0]["event"], "start");
    assert_eq!((records[0]["box"].as_str(), records[0]["givens"].as_u64()), (Some("2x3"), Some(11)));
    let end = records.last().unwrap();
    assert_eq!((end["event"].as_str(), end["status"].as_str()), (Some("end"), Some("solved")));
    let steps = &records[1..records.len() - 1];
    assert_eq!(steps.len() as u64, end["steps"].as_u64().unwrap());
    for (index, step) in steps.iter().enumerate() {
        assert_eq!((step["event"].as_str(), step["index"].as_u64()), (Some("step"), Some(index as u64 + 1)));
        assert!(step["text"].as_str().unwrap().starts_with(step["technique"].as_str().unwrap()));
    }
    let used: u64 = end["uses"].as_array().unwrap().iter().map(|u| u["count"].as_u64().unwrap()).sum();
    assert_eq!(used, steps.len() as u64);
    // The start record is a puzzle the reader takes back (its "puzzle" rows).
    assert_eq!(parse::one(r.stdout.lines().next().unwrap()).unwrap(), parse::one(SIX).unwrap());
}

#[test]
fn explain_goes_on_past_puzzles_it_cannot_explain() {
    let several = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642";
    let none = format!("12345678.{}9{}", ".".repeat(44), ".".repeat(27));
    let input = format!("{SIX}\n{several}\n1.4242132134342\n{none}\n11.2..1..1.4...1\n{SIX}\n");
    let r = run_with(&["explain"], Some(&input));
    assert_eq!(r.code, 2, "bad input wins: {}", r.stderr);
    assert!(
        r.stdout.contains("<stdin>:2: 9x9 with 3x3 boxes, 77 givens\nnote: the puzzle has several solutions"),
        "{}",
        r.stdout
    );
    // Each line says its place once.
    assert!(r.stdout.contains("\n<stdin>:3: bad input: a line of 15 cells"), "{}", r.stdout);
    assert!(r.stdout.contains("<stdin>:4: no solution\n"), "{}", r.stdout);
    assert!(
        r.stdout.contains("\n<stdin>:5: bad input: conflicting givens: r1c1 and r1c2 are both 1 in row 1"),
        "{}",
        r.stdout
    );
    assert_eq!(r.stdout.matches("rating: ").count(), 3, "{}", r.stdout);
    assert!(r.stderr.contains("error: <stdin>:3: a line of 15 cells"), "{}", r.stderr);
    assert!(r.stderr.contains("error: <stdin>:5: conflicting givens"), "{}", r.stderr);
    let r = run_with(&["explain"], Some(&none));
    assert_eq!((r.code, r.stdout.as_str()), (1, "<stdin>:1: no solution\n\n"));
    let r = run_with(&["hint"], Some("1.42421321.43421\n1.4x421321.43421\n11.2..1..1.4...1\n"));
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "<stdin>:1: full house: r1c2 = 3 (the last empty cell of box 1)\n\
         <stdin>:2:4: bad input: 'x' (33) is larger than the grid's side, 4\n\
         <stdin>:3: bad input: conflicting givens: r1c1 and r1c2 are both 1 in row 1\n"
    );
    // The place on stdout is the place on stderr: file, line and column.
    assert!(r.stderr.contains("error: <stdin>:2:4: 'x' (33) is larger"), "{}", r.stderr);
    let r = run_with(&["explain"], Some("1.4x421321.43421\n"));
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (2, "<stdin>:1:4: bad input: 'x' (33) is larger than the grid's side, 4\n\n")
    );
    let r = run_with(&["hint", "--output", "json"], Some("1.4x421321.43421\n"));
    assert!(
        r.stdout.starts_with("{\"file\":\"<stdin>\",\"line\":1,\"column\":4,\"status\":\"invalid\""),
        "{}",
        r.stdout
    );
}

#[test]
fn a_time_limit_stops_explain_and_hint_with_what_was_stopped_and_status_1() {
    // On a 64x64 the engine's check of the puzzle (a solution, a count to
    // two) and one step can each take many seconds; a limit of 0 stops every
    // puzzle in the check, before its first step.
    let message = "stopped: the time limit of 0 s ran out solving the puzzle (--timeout gives it more)";
    let r = run_with(&["explain", "--timeout", "0"], Some(SIX));
    assert_eq!((r.code, r.stdout.as_str()), (1, format!("<stdin>:1: {message}\n\n").as_str()), "{}", r.stderr);
    assert!(!r.stderr.contains("error:"), "{}", r.stderr);
    let r = run_with(&["explain", "--timeout", "0", "--format", "jsonl"], Some(SIX));
    assert!(r.stdout.contains("\"status\":\"limit\""), "{}", r.stdout);
    let r = run_with(&["hint", "--timeout", "0"], Some(SIX));
    assert_eq!((r.code, r.stdout.as_str()), (1, format!("<stdin>:1: {message}\n").as_str()), "{}", r.stderr);
    let r = run_with(&["hint", "--timeout", "0", "--output", "json"], Some(SIX));
    assert!(r.stdout.contains("\"status\":\"limit\""), "{}", r.stdout);
    // The default leaves a small puzzle alone.
    let r = run_with(&["hint"], Some(SIX));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// A 9x9 board a few steps into a solution, as a pencil-mark grid in HoDoKu's frame.
fn hodoku_board() -> (Grid, PencilMarks, String) {
    let puzzle =
        parse::one("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........").unwrap();
    let solution = human::explain(&puzzle).unwrap();
    let board = solution.boards().nth(12).unwrap();
    let mut text = String::from(".-----------.\n");
    for line in board.marks_grid().lines() {
        if line.starts_with('-') {
            text.push_str(":-----+-----:\n");
        } else {
            text.push_str(&format!("| {line} |\n"));
        }
    }
    text.push_str("'-----------'\n");
    (puzzle, board, text)
}

#[test]
fn hint_continues_from_progress_and_pencil_marks() {
    // Placed digits in HoDoKu's '+' notation.
    let r = run_with(&["hint"], Some("1.+42421321.43421\n"));
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "<stdin>:1: full house: r1c2 = 3 (the last empty cell of box 1)\n"),
        "{}",
        r.stderr
    );
    // A pencil-mark grid: the hint is the step the solver takes next from there.
    let (puzzle, board, text) = hodoku_board();
    let r = run_with(&["hint"], Some(&text));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let read = PuzzleReader::new(text.as_bytes()).notation(parse::Notation::Progress).next().unwrap().unwrap();
    let expected = human::hint(&PencilMarks::from_puzzle(&read).unwrap()).unwrap().unwrap();
    assert_eq!(r.stdout, format!("<stdin>:2: {expected}\n"));
    assert_eq!(
        read.grid.num_givens(),
        puzzle.num_givens() + (0..81).filter(|&c| board.value(c) == 0 && board.candidates(c).count_ones() == 1).count()
    );
    // --board prints the pencil marks again, plain unless colours are asked for.
    let plain = run_with(&["hint", "--board"], Some(&text));
    assert!(plain.stdout.starts_with(&r.stdout) && !plain.stdout.contains('\x1b'), "{}", plain.stdout);
    assert_eq!(plain.stdout.lines().count(), 1 + 11 + 1);
    let colour = run_with(&["hint", "--board", "--color", "always"], Some(&text));
    assert!(colour.stdout.contains("\x1b[1;37;41m") || colour.stdout.contains("\x1b[1;30;42m"), "{}", colour.stdout);
    assert!(!colour.stdout.contains("\x1b[H"), "no cursor movement for a hint");
    assert_eq!(run_with(&["hint", "--color", "always"], Some(&text)).code, 2, "--color goes with --board");
    // A solved board has nothing left to do.
    let r = run_with(&["hint"], Some("1342421321343421"));
    assert_eq!((r.code, r.stdout.as_str()), (0, "<stdin>:1: solved: every cell is filled\n"));
}

#[test]
fn hint_lists_mistakes_instead_of_reasoning_from_them() {
    // r1c3 is 4 in the only solution; r2c2's 8 is removed from its candidates.
    let puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let r = run_with(&["hint"], Some(&puzzle.replacen("4.....8.5", "4.+1...8.5", 1)));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.starts_with("<stdin>:1: 1 mistake:\n  r1c3: the 1 placed there is wrong\n"), "{}", r.stdout);
    // A placed digit that clashes with a given is a mistake too.
    let r = run_with(&["hint", "--output", "json"], Some("1.+32421321.43421"));
    assert_eq!(r.code, 1);
    let record: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(record["status"], "mistakes");
    assert_eq!(record["mistakes"][0], "r1c3 and r2c4 are both 3 in box 2");
    // A removed candidate that is the cell's digit.
    let (_, board, text) = hodoku_board();
    let solution = human::explain(&board.givens()).unwrap().grid().unwrap();
    let victim = (0..81).find(|&c| board.value(c) == 0 && board.candidates(c).count_ones() > 2).unwrap();
    let digit = solution.cells()[victim];
    let mut wrong = board.clone();
    wrong.eliminate(victim, digit);
    let wrong_text = wrong.marks_grid();
    let r = run_with(&["hint"], Some(&wrong_text));
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let name = Shape::new(3, 3).unwrap().cell_name(victim);
    assert!(
        r.stdout.contains(&format!("{name}: the candidate {digit} was removed, but {digit} is {name}'s digit")),
        "{}",
        r.stdout
    );
    assert_eq!(run_with(&["hint"], Some(&text)).code, 0);
}

#[test]
fn hint_json_and_larger_pencil_marks() {
    let r = run_with(&["hint", "--output", "json"], Some(&format!("{SIX}\n1342421321343421\n")));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let records: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records[0]["status"], "step");
    assert_eq!(records[0]["step"]["text"], "naked single: r6c3 = 2 (the only candidate left in r6c3)");
    assert_eq!(records[0]["step"]["placements"][0]["name"], "r6c3");
    assert_eq!((records[1]["status"].as_str(), records[1]["line"].as_u64()), (Some("solved"), Some(2)));
    // A 12x12 board as pencil marks: with --marks, symbols (C = 12) and
    // candidate words; the hint is the library's from that board.
    let grid = parse::one(&twelve()).unwrap();
    let board = human::explain(&grid).unwrap().boards().nth(5).unwrap();
    let text = board.marks_grid();
    let r = run_with(&["hint", "--marks"], Some(&text));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let read = PuzzleReader::new(text.as_bytes()).notation(parse::Notation::PencilMarks).next().unwrap().unwrap();
    let expected = human::hint(&PencilMarks::from_puzzle(&read).unwrap()).unwrap().unwrap();
    assert_eq!(r.stdout, format!("<stdin>:1: {expected}\n"));
    // Without --marks a 12x12 grid is numbers, and its words are not.
    assert_bad(&run_with(&["hint"], Some(&text)), "<stdin>:1:");
}

#[test]
fn rate_prints_one_line_per_puzzle_and_a_summary() {
    let several = "..3456789456789123789123456..4365897365897214897214365531642978642978531978531642";
    let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let input = format!("{SIX}\n{hard}\n{several}\n{}\n", twelve());
    let r = run_with(&["rate", "--stats"], Some(&input));
    assert_eq!(r.code, 1, "several solutions: {}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    for (line, (puzzle, at)) in
        lines.iter().zip([(SIX.to_string(), 1), (hard.to_string(), 2), (String::new(), 3), (twelve(), 4)])
    {
        if at == 3 {
            assert_eq!(*line, "# several solutions (<stdin>:3)");
            continue;
        }
        let rating = human::rate(&parse::one(&puzzle).unwrap()).unwrap();
        let expected = format!("<stdin>:{at}\t{}\t{}\t{}", rating.level, rating.score, rating.hardest.unwrap());
        assert_eq!(*line, expected);
    }
    for expected in [
        "puzzles         4 (rated 3, several solutions 1, no solution 0, bad input 0)",
        "levels          easy ",
        "scores          median ",
        "last resorts    ",
        "time per puzzle median ",
    ] {
        assert!(r.stderr.contains(expected), "{expected:?} missing from\n{}", r.stderr);
    }
    // JSON: a record per puzzle, with the puzzle to read back.
    let r = run_with(&["rate", "--output", "json"], Some(&input));
    let records: Vec<serde_json::Value> = r.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 4);
    assert_eq!((records[1]["status"].as_str(), records[2]["status"].as_str()), (Some("rated"), Some("several")));
    assert_eq!(records[3]["box"], "3x4");
    let reread = run_with(&["rate"], Some(&r.stdout));
    assert_eq!(reread.stdout.lines().count(), 3, "the unrated record is skipped: {}", reread.stdout);
    // Bad input: a line and an error, and the batch goes on.
    let r = run_with(&["rate"], Some(&format!("1.4242132134342\n{SIX}\n")));
    assert_eq!(r.code, 2);
    assert!(
        r.stdout.starts_with("# bad input: <stdin>:1: a line of 15 cells") && r.stdout.lines().count() == 2,
        "{}",
        r.stdout
    );
}

#[test]
fn rating_top95_gives_the_level_counts() {
    let Some(top95) = shared("top95.txt") else { return };
    let r = run(&["rate", &top95, "--stats", "--jobs", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 95);
    assert!(r.stderr.contains("puzzles         95 (rated 95,"), "{}", r.stderr);
}

/// Generates with `args` through the tool and checks, through the tool too,
/// that every puzzle is unique (`count`) and rates `level` (`rate`).
fn generated_in_level(shape: &str, level: Level, extra: &[&str]) -> Vec<Grid> {
    // Two puzzles, one at 16x16 (each takes about a second).
    let count = if shape == "4x4" { "1" } else { "2" };
    let mut args = vec!["generate", "--box", shape, "--difficulty", level.name(), "--count", count, "--seed", "3"];
    args.extend_from_slice(extra);
    let made = run(&args);
    assert_eq!(made.code, 0, "{shape} {level}: {}", made.stderr);
    let counted = run_with(&["count"], Some(&made.stdout));
    let expected: usize = count.parse().unwrap();
    assert_eq!(
        counted.stdout.lines().filter(|l| l.starts_with("unique\t")).count(),
        expected,
        "{shape} {level}: {}",
        counted.stdout
    );
    let rated = run_with(&["rate"], Some(&made.stdout));
    assert_eq!(rated.code, 0, "{}", rated.stderr);
    for line in rated.stdout.lines() {
        assert_eq!(line.split('\t').nth(1), Some(level.name()), "{shape} {level}: {line}");
    }
    let puzzles = puzzles_of(&made.stdout);
    assert!(puzzles.iter().all(|p| p.shape().to_string() == shape), "{shape}: the shape reads back");
    puzzles
}

#[test]
fn generate_difficulty_4x4_reaches_easy_and_says_what_it_cannot_reach() {
    generated_in_level("2x2", Level::Easy, &[]);
    // Every unique 4x4 puzzle rates easy (crates/sudoku/tests/human_corpus.rs).
    let r = run(&["generate", "--box", "2x2", "--difficulty", "medium", "--attempts", "30"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("warning: seed 1: no medium puzzle with 2x2 boxes in 30 attempts (the levels reached: easy x30)"),
        "{}",
        r.stderr
    );
    // A limit, not an error (docs/tools.md: `error:` is for status 2), so -q leaves it out.
    assert!(!r.stderr.contains("error:"), "{}", r.stderr);
    let r = run(&["generate", "--box", "2x2", "--difficulty", "medium", "--attempts", "30", "-q"]);
    assert_eq!((r.code, r.stderr.as_str()), (1, ""));
}

#[test]
fn generate_difficulty_6x6_every_level_both_ways() {
    for level in Level::ALL {
        generated_in_level("2x3", level, &["--attempts", "5000"]);
    }
    for level in [Level::Easy, Level::Medium, Level::Hard] {
        generated_in_level("3x2", level, &["--attempts", "5000"]);
    }
}

#[test]
fn generate_difficulty_8x8_and_9x9_every_level() {
    for level in Level::ALL {
        generated_in_level("2x4", level, &[]);
        generated_in_level("3x3", level, &[]);
    }
}

#[test]
fn generate_difficulty_12x12_and_16x16_every_level() {
    for level in Level::ALL {
        generated_in_level("3x4", level, &[]);
        generated_in_level("4x4", level, &[]);
    }
}

#[test]
fn generate_difficulty_symmetric_and_minimal() {
    for puzzle in generated_in_level("3x3", Level::Hard, &["--symmetric"]) {
        let cells = puzzle.cells();
        assert!((0..81).all(|i| (cells[i] == 0) == (cells[80 - i] == 0)), "{}", csp_sudoku::format::line(&puzzle));
    }
    for puzzle in generated_in_level("3x3", Level::Medium, &["--minimal"]) {
        let solution = human::explain(&puzzle).unwrap().grid().unwrap();
        assert!(is_minimal(&puzzle, &solution).unwrap());
    }
    // The JSON records carry the rating and read back.
    let r = run(&["generate", "--size", "9", "--difficulty", "hard", "--output", "json", "--count", "2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for line in r.stdout.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!((record["level"].as_str(), record["box"].as_str()), (Some("hard"), Some("3x3")));
    }
    assert_eq!(run_with(&["solve", "--output", "line"], Some(&r.stdout)).stdout.lines().count(), 2);
    // Options that go with --difficulty only, and those that do not.
    assert_eq!(run(&["generate", "--size", "9", "--symmetric"]).code, 2);
    assert_eq!(run(&["generate", "--size", "9", "--difficulty", "hard", "--givens", "30"]).code, 2);
    let r = run(&["generate", "--size", "9", "--difficulty", "impossible"]);
    assert!(r.code == 2 && r.stderr.contains("unknown difficulty 'impossible'"), "{}", r.stderr);
}

#[test]
fn trace_animate_human_replays_the_steps_and_animations_stay_plain_in_a_pipe() {
    let r = run_with(&["trace", "--animate", "--human"], Some(SIX));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let steps = human::explain(&parse::one(SIX).unwrap()).unwrap().steps().len();
    assert_eq!(r.stdout.matches("<stdin>:1: 6x6 with 2x3 boxes\n").count(), steps + 1);
    assert!(r.stdout.contains(&format!("step 1 of {steps}: naked single: r6c3 = 2")), "{}", &r.stdout[..400]);
    assert!(r.stdout.contains(&format!("solved in {steps} steps: easy (score 100")), "{}", r.stdout);
    assert!(!r.stdout.contains('\x1b'), "no escapes into a pipe");
    let coloured = run_with(&["trace", "--animate", "--human", "--color", "always"], Some(SIX));
    assert!(coloured.stdout.contains("\x1b[1;30;42m") && !coloured.stdout.contains("\x1b[H"));
    // The search's animation in a pipe: frames one after another, the decided
    // cell in brackets, and the time of the search alone.
    let hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let r = run_with(&["trace", "--animate", "--propagation", "fc"], Some(hard));
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\x1b'));
    assert!(r.stdout.contains("depth 1: try ") && r.stdout.contains('['), "{}", &r.stdout[..600]);
    assert!(r.stdout.trim_end().ends_with("(the search alone: drawing and delays left out)"), "{}", r.stdout);
    // What does not apply is refused, not ignored.
    for args in [
        &["trace", "--animate", "--format", "jsonl"][..],
        &["trace", "--delay", "5"],
        &["trace", "--human"],
        &["trace", "--animate", "--human", "--propagation", "fc"],
        &["trace", "--color", "always"],
    ] {
        let r: Run = run_with(args, Some(SIX));
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout);
        assert!(r.stderr.contains("error:"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn the_real_binary_explains_hints_rates_and_generates() {
    let sudoku = |args: &[&str], input: &str| {
        let mut child = Command::new(binary())
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        (output.status.code(), String::from_utf8(output.stdout).unwrap(), String::from_utf8(output.stderr).unwrap())
    };
    let (code, out, err) = sudoku(&["explain"], SIX);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("rating: easy (score 100)"));
    let (code, out, _) = sudoku(&["hint"], "1.+42421321.43421");
    assert_eq!((code, out.as_str()), (Some(0), "<stdin>:1: full house: r1c2 = 3 (the last empty cell of box 1)\n"));
    let (code, made, err) = sudoku(&["generate", "--box", "3x2", "--difficulty", "medium", "--count", "2"], "");
    assert_eq!(code, Some(0), "{err}");
    let (code, rated, _) = sudoku(&["rate", "-"], &made);
    assert_eq!(code, Some(0));
    assert_eq!(rated.lines().filter(|l| l.split('\t').nth(1) == Some("medium")).count(), 2, "{rated}");
}

#[test]
fn every_human_command_says_several_solutions_or_none_in_words() {
    // Two solutions (r1c1, r1c2, r4c1, r4c2 hold 1 and 2 either way), and
    // bug+1, which assumes one, applies after seven steps.
    let several = "..345678945.78.123789123456..43658.73658.72.48..2.436553.642.786429785319785.1642";
    let none = format!("12345678.{}9{}", ".".repeat(44), ".".repeat(27));
    let note = "  note: the puzzle has several solutions (a sudoku should have one); the steps lead to one of them";
    let r = run_with(&["hint"], Some(several));
    assert_eq!((r.code, r.stdout.lines().nth(1)), (0, Some(note)), "{}", r.stdout);
    let r = run_with(&["hint", "--output", "json"], Some(several));
    let record: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(record["several_solutions"], true, "{}", r.stdout);
    let r = run_with(&["hint", "--output", "json"], Some(SIX));
    assert!(!r.stdout.contains("several_solutions"), "said only when true: {}", r.stdout);
    let r = run_with(&["hint"], Some(&none));
    assert_eq!((r.code, r.stdout.as_str()), (1, "<stdin>:1: no solution\n"));
    // The replay: said in the title, no technique that assumes one solution,
    // no rating.
    let r = run_with(&["trace", "--animate", "--human"], Some(several));
    assert_eq!(r.code, 0, "{}", r.stderr);
    let title = "<stdin>:1: 9x9 with 3x3 boxes, several solutions (the steps reach one of them)\n";
    let frames = r.stdout.matches(title).count();
    assert!(frames > 7, "{}", r.stdout);
    for assumed in ["bug+1", "unique rectangle", "solved in", "score"] {
        assert!(!r.stdout.contains(assumed), "{assumed}: {}", r.stdout);
    }
    let end = format!("reached one of the solutions in {} steps (no rating: the puzzle has several)", frames - 1);
    assert!(r.stdout.contains(&end), "{}", r.stdout);
    let r = run_with(&["trace", "--animate", "--human"], Some(&none));
    assert_eq!((r.code, r.stdout.as_str()), (1, "<stdin>:1: no solution\n"));
    // A placed digit that contradicts the solution is listed, as `hint` does.
    let wrong = "..6+1.35......134.......6..1....5..64";
    let listed = "<stdin>:1: 1 mistake:\n  r1c4: the 1 placed there is wrong\n";
    for command in [&["hint"][..], &["trace", "--animate", "--human"]] {
        let r = run_with(command, Some(wrong));
        assert_eq!((r.code, r.stdout.as_str()), (1, listed), "{command:?}");
    }
    // explain and rate, as they were.
    let r = run_with(&["explain"], Some(several));
    assert!(r.stdout.contains("note: the puzzle has several solutions") && !r.stdout.contains("bug+1"));
    let r = run_with(&["rate"], Some(&format!("{several}\n{none}\n")));
    assert_eq!((r.code, r.stdout.as_str()), (1, "# several solutions (<stdin>:1)\n# no solution (<stdin>:2)\n"));
}
