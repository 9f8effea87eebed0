//! Whether a command printed what its transcript shows: line by line, word by
//! word, where times and rates may differ.

/// `actual` as a transcript shows it: terminal escapes removed, no trailing
/// spaces, no blank lines at the end.
pub fn normalize(actual: &str) -> String {
    let mut text = String::with_capacity(actual.len());
    let mut chars = actual.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // CSI sequences: ESC [ parameters final-byte.
            if chars.next_if_eq(&'[').is_some() {
                while chars.next().is_some_and(|c| !c.is_ascii_alphabetic()) {}
            }
            continue;
        }
        text.push(c);
    }
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let end = lines.iter().rposition(|line| !line.is_empty()).map_or(0, |i| i + 1);
    lines[..end].join("\n")
}

/// Whether `actual` (what a command printed) matches `expected` (the lines a
/// transcript shows): the same lines, each with the same words, where runs of
/// spaces count as one and a number written with a decimal point, or followed
/// by `/s` or a unit of time, matches any number (times and rates vary
/// between runs). Otherwise
/// the first line that differs, as a message.
pub fn output_matches(expected: &[String], actual: &str) -> Result<(), String> {
    let actual = normalize(actual);
    let actual: Vec<&str> = actual.lines().collect();
    let expected_text = normalize(&expected.join("\n"));
    let expected: Vec<&str> = expected_text.lines().collect();
    for (i, (want, got)) in expected.iter().zip(&actual).enumerate() {
        if !line_matches(want, got) {
            return Err(format!("output line {} differs:\n  expected: {want}\n  actual:   {got}", i + 1));
        }
    }
    if expected.len() != actual.len() {
        let (which, extra) =
            if expected.len() > actual.len() { ("missing", &expected) } else { ("unexpected", &actual) };
        let first = extra[expected.len().min(actual.len())];
        return Err(format!(
            "{} output lines shown, {} printed; the first {which}: {first}",
            expected.len(),
            actual.len()
        ));
    }
    Ok(())
}

/// Whether two lines match (see [`output_matches`]).
fn line_matches(expected: &str, actual: &str) -> bool {
    let want: Vec<&str> = expected.split_whitespace().collect();
    let got: Vec<&str> = actual.split_whitespace().collect();
    // A number before a word such as `puzzles/s` is a rate, before `ms` a
    // time (`max 156 ms,` has no decimal point, yet varies).
    let rate = |i: usize| want.get(i + 1).is_some_and(|&next| next.ends_with("/s") || is_time_unit(next));
    // A time's unit may change with it (`582 µs`, `12.3 ms`).
    let same = |i: usize, w: &str, g: &str| word_matches(w, g, rate(i)) || (is_time_unit(w) && is_time_unit(g));
    want.len() == got.len() && want.iter().zip(&got).enumerate().all(|(i, (w, g))| same(i, w, g))
}

/// Whether `word` is a unit of time (`s`, `ms`, `µs`, `ns`), perhaps with
/// the punctuation that follows it (`ms,`, `µs)`).
fn is_time_unit(word: &str) -> bool {
    matches!(word.trim_end_matches([',', ';', ')']), "s" | "ms" | "µs" | "us" | "ns")
}

/// A piece of a word: a number, or the text between numbers.
#[derive(Debug, PartialEq)]
enum Piece<'a> {
    Number(&'a str),
    Text(&'a str),
}

/// `12.5ms,` is the number `12.5` and the text `ms,`.
fn pieces(word: &str) -> Vec<Piece<'_>> {
    let bytes = word.as_bytes();
    let mut pieces = Vec::new();
    let (mut i, mut text_start) = (0, 0);
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        if text_start < start {
            pieces.push(Piece::Text(&word[text_start..start]));
        }
        pieces.push(Piece::Number(&word[start..i]));
        text_start = i;
    }
    if text_start < word.len() {
        pieces.push(Piece::Text(&word[text_start..]));
    }
    pieces
}

/// Whether two words match: the same text between their numbers, and each
/// number equal or free (written with a decimal point, or followed by `/s`;
/// `rate` says that the next word is a rate's unit, which frees the last number).
fn word_matches(expected: &str, actual: &str, rate: bool) -> bool {
    if expected == actual {
        return true;
    }
    let (want, got) = (pieces(expected), pieces(actual));
    want.len() == got.len()
        && want.iter().zip(&got).enumerate().all(|(i, pair)| match pair {
            (Piece::Text(w), Piece::Text(g)) => w == g,
            (Piece::Number(w), Piece::Number(g)) => {
                let per_second = match want.get(i + 1) {
                    Some(Piece::Text(t)) => t.starts_with("/s"),
                    None => rate,
                    Some(Piece::Number(_)) => false,
                };
                w == g || w.contains('.') || per_second
            }
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn times_and_rates_are_free_counts_are_not() {
        let shown = lines("stats: nodes 64, checks 128, time 0.110 ms\nwall time 0.014 s, 6610 puzzles/s (2 jobs)");
        assert_eq!(
            output_matches(
                &shown,
                "stats: nodes 64, checks 128, time 12.5 ms\nwall time 1.2 s, 83 puzzles/s (2 jobs)\n"
            ),
            Ok(())
        );
        assert!(
            output_matches(
                &shown,
                "stats: nodes 65, checks 128, time 0.110 ms\nwall time 0.014 s, 6610 puzzles/s (2 jobs)"
            )
            .is_err()
        );
        assert!(
            output_matches(
                &shown,
                "stats: nodes 64, checks 128, time 0.110 ms\nwall time 0.014 s, 6610 puzzles/s (1 job)"
            )
            .is_err()
        );
        assert!(
            output_matches(&shown, "stats: nodes 64, checks 128, time 0.110 ms")
                .unwrap_err()
                .contains("the first missing")
        );
    }

    #[test]
    fn aligned_tables_may_be_padded_differently() {
        let shown = lines("config   nodes  time\nfc+mrv      36  0.03");
        assert_eq!(output_matches(&shown, "config  nodes  time\nfc+mrv     36  12.75"), Ok(()));
        assert!(output_matches(&shown, "config  nodes  time\nfc+mrv     37  12.75").is_err());
        assert!(output_matches(&shown, "config nodes time extra\nfc+mrv 36 0.03").is_err());
    }

    #[test]
    fn words_are_cut_into_numbers_and_text() {
        assert_eq!(pieces("(0.73),"), [Piece::Text("("), Piece::Number("0.73"), Piece::Text("),")]);
        assert_eq!(
            pieces("0.05..0.95:0.05"),
            [Piece::Number("0.05"), Piece::Text(".."), Piece::Number("0.95"), Piece::Text(":"), Piece::Number("0.05")]
        );
        assert_eq!(pieces("r1c5"), [Piece::Text("r"), Piece::Number("1"), Piece::Text("c"), Piece::Number("5")]);
        assert!(word_matches("15.8%", "3%", false));
        assert!(word_matches("250/s", "12/s", false));
        assert!(line_matches("median 101 µs, max 156 ms", "median 91.1 µs, max 8.47 ms"));
        assert!(line_matches("max 582 µs (model)", "max 12.3 ms (model)"));
        assert!(!line_matches("101 nodes", "91 nodes"));
        assert!(!word_matches("r1c5", "r1c6", false));
        assert!(!word_matches("256,387", "262,979", false), "integers with separators are counts");
    }

    #[test]
    fn escapes_trailing_spaces_and_final_blank_lines_are_ignored() {
        assert_eq!(normalize("\x1b[1;32mok\x1b[0m  \n\n"), "ok");
        assert_eq!(output_matches(&lines("ok\n"), "\x1b[2Jok\n\n"), Ok(()));
    }
}
