//! What a sudoku enthusiast's session found (BENCHMARKS.md, "A sudoku
//! enthusiast's session"), one test per finding, each failing before its fix.

use crate::sudoku::{run, temp_file};

/// `generate` needs a size or a box shape; the usage error names both, not
/// only `--size` (the help offers `--box` as the other way).
#[test]
fn generate_without_a_size_names_size_and_box() {
    let r = run(&["generate"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--size <N>") && r.stderr.contains("--box <RxC>"), "{}", r.stderr);
    assert_eq!(run(&["generate", "--box", "2x2"]).code, 0);
    assert_eq!(run(&["generate", "--size", "4", "--box", "2x2"]).code, 2);
}

/// A puzzle file whose comments were saved in Latin-1 (an old file, a
/// Windows editor) is read: the comments are not puzzles. A puzzle line in
/// Latin-1 is refused once, saying that the encoding may be the cause.
#[test]
fn comments_in_latin1_do_not_cost_the_file() {
    let file = temp_file(
        "latin1.txt",
        b"# Grille n\xb01 : tr\xe8s difficile\n1.42421321343421 # facile, caf\xe9\n..........4..2.1\n",
    );
    let r = run(&["solve", &file, "--output", "line"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    let file = temp_file("latin1-puzzle.txt", b"1.42421321343421\xb0\n..........4..2.1\n");
    let r = run(&["solve", &file, "--output", "line"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("latin1-puzzle.txt:1:17: this is not a text file, or not one saved as UTF-8 (byte 0xb0)"),
        "{}",
        r.stderr
    );
}

/// A puzzle saved as nine rows of nine symbols, without Project Euler's
/// `Grid NN` header (the `.sdk` files of many sudoku programs), is one
/// puzzle, not nine errors about 3x3 grids.
#[test]
fn nine_rows_of_nine_symbols_are_one_puzzle() {
    let rows = "53..7....\n6..195...\n.98....6.\n8...6...3\n4..8.3..1\n7...2...6\n.6....28.\n...419..5\n....8..79\n";
    let file = temp_file("puzzle.sdk", rows.as_bytes());
    let r = run(&["solve", &file, "--output", "line"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "534678912672195348198342567859761423426853791713924856961537284287419635345286179\n");
    for command in ["count", "rate", "explain", "hint"] {
        assert!(run(&[command, &file]).stderr.is_empty(), "{command}");
    }
}
