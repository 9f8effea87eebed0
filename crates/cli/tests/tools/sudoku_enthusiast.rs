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
