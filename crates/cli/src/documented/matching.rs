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

/// A transcript line that stands for any number of printed lines (none too):
/// what a transcript leaves out of a long output.
pub(super) const ELISION: &str = "...";

/// Whether `actual` (what a command printed) matches `expected` (the lines a
/// transcript shows): the same lines, each with the same words, where runs of
/// spaces count as one and a number written with a decimal point, or followed
/// by `/s`, matches any number, as does a duration (`582 µs` matches `8.51
/// ms`): times and rates vary between runs. A line `...` stands
/// for any number of lines. Otherwise the first line that differs, as a message.
pub fn output_matches(expected: &[String], actual: &str) -> Result<(), String> {
    let actual = normalize(actual);
    let actual: Vec<&str> = actual.lines().collect();
    let expected_text = normalize(&expected.join("\n"));
    let expected: Vec<&str> = expected_text.lines().collect();
    if expected.contains(&ELISION) {
        return elided_matches(&expected, &actual);
    }
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

/// [`output_matches`] for a transcript with [`ELISION`] lines: the runs of
/// lines between them are found in order, the first at the start of the output
/// (unless the transcript starts with `...`) and the last at its end (unless it
/// ends with one). Each run is matched where it first fits, which leaves the
/// most room for the runs after it.
fn elided_matches(expected: &[&str], actual: &[&str]) -> Result<(), String> {
    let runs: Vec<&[&str]> = expected.split(|line| *line == ELISION).collect();
    let fits = |run: &[&str], at: usize| {
        actual.len() >= at + run.len() && run.iter().zip(&actual[at..]).all(|(want, got)| line_matches(want, got))
    };
    let (first, last) = (runs[0], runs[runs.len() - 1]);
    if !fits(first, 0) {
        let (line, want) = first
            .iter()
            .enumerate()
            .find(|&(i, want)| actual.get(i).is_none_or(|got| !line_matches(want, got)))
            .unwrap_or((0, &""));
        let got = actual.get(line).copied().unwrap_or("(the output ends)");
        return Err(format!("output line {} differs:\n  expected: {want}\n  actual:   {got}", line + 1));
    }
    let mut at = first.len();
    for run in &runs[1..runs.len() - 1] {
        match (at..=actual.len()).find(|&start| fits(run, start)) {
            Some(start) => at = start + run.len(),
            None => {
                return Err(format!(
                    "the lines after a '{ELISION}' are not printed after line {at}: {}",
                    run.first().unwrap_or(&"")
                ));
            }
        }
    }
    let end = actual.len().checked_sub(last.len()).filter(|&start| start >= at && fits(last, start));
    if end.is_none() {
        return Err(format!("the output does not end with the lines after the last '{ELISION}': {}", last.join(" / ")));
    }
    Ok(())
}

/// Whether two lines match (see [`output_matches`]).
fn line_matches(expected: &str, actual: &str) -> bool {
    let want: Vec<&str> = expected.split_whitespace().collect();
    let got: Vec<&str> = actual.split_whitespace().collect();
    // A number before a word such as `puzzles/s` is a rate.
    let rate = |i: usize| want.get(i + 1).is_some_and(|next| next.ends_with("/s"));
    want.len() == got.len()
        && want.iter().zip(&got).enumerate().all(|(i, (w, g))| {
            word_matches(w, g, rate(i))
                || is_duration(&want, i) && is_duration(&got, i)
                || i > 0 && is_duration(&want, i - 1) && is_duration(&got, i - 1) && unit_tail(w) == unit_tail(g)
        })
}

/// The units of the durations the tools print (`812 ns`, `16.3 µs`, `1.21 ms`, `3.45 s`).
const TIME_UNITS: [&str; 5] = ["ns", "µs", "us", "ms", "s"];

/// Whether `words[i]` is a number and `words[i + 1]` a time unit (with
/// punctuation after it): a duration, whose number and unit both vary.
fn is_duration(words: &[&str], i: usize) -> bool {
    let number =
        words[i].bytes().all(|b| b.is_ascii_digit() || b == b'.') && words[i].starts_with(|c: char| c.is_ascii_digit());
    number && words.get(i + 1).is_some_and(|unit| TIME_UNITS.contains(&unit_head(unit)))
}

/// A unit word without the punctuation after it: `ms,` is `ms`.
fn unit_head(word: &str) -> &str {
    word.trim_end_matches(|c: char| c.is_ascii_punctuation())
}

/// The punctuation after a unit: `ms,` has `,`.
fn unit_tail(word: &str) -> &str {
    &word[unit_head(word).len()..]
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
        assert!(!word_matches("r1c5", "r1c6", false));
        assert!(!word_matches("256,387", "262,979", false), "integers with separators are counts");
    }

    #[test]
    fn durations_match_any_duration_in_any_unit() {
        let shown = lines("time per puzzle median 101 µs, p90 307 µs, max 582 µs (model)");
        assert_eq!(output_matches(&shown, "time per puzzle median 108 µs, p90 1.2 ms, max 8.51 ms (model)"), Ok(()));
        assert!(output_matches(&shown, "time per puzzle median 108 µs, p90 1.2 ms, max 8.51 ms (search)").is_err());
        assert!(output_matches(&shown, "time per puzzle median 108 µs; p90 1.2 ms, max 8.51 ms (model)").is_err());
        assert!(output_matches(&lines("101 nodes"), "108 nodes").is_err(), "a count is not a duration");
        assert!(output_matches(&lines("in 3 s"), "in 12 s").is_ok());
    }

    #[test]
    fn an_elision_stands_for_any_lines() {
        let shown = lines("header\n...\nstep 3\n...\nlast");
        assert_eq!(output_matches(&shown, "header\na\nb\nstep 3\nc\nlast\n"), Ok(()));
        assert_eq!(output_matches(&shown, "header\nstep 3\nlast"), Ok(()), "... may stand for no line");
        assert!(output_matches(&shown, "header\nstep 4\nlast").unwrap_err().contains("step 3"));
        assert!(output_matches(&shown, "other\nstep 3\nlast").unwrap_err().contains("output line 1 differs"));
        assert!(output_matches(&shown, "header\nstep 3\nlast\nmore").unwrap_err().contains("does not end with"));
        assert!(output_matches(&shown, "header\nlast").is_err(), "step 3 must be there");
        assert!(output_matches(&shown, "header\nstep 3").is_err(), "the end must be there");
        assert_eq!(output_matches(&lines("...\nnote: x"), "table\n\nnote: x"), Ok(()));
        assert_eq!(output_matches(&lines("first\n..."), "first\nand more"), Ok(()));
        assert!(output_matches(&lines("first\n..."), "").is_err());
    }

    #[test]
    fn escapes_trailing_spaces_and_final_blank_lines_are_ignored() {
        assert_eq!(normalize("\x1b[1;32mok\x1b[0m  \n\n"), "ok");
        assert_eq!(output_matches(&lines("ok\n"), "\x1b[2Jok\n\n"), Ok(()));
    }
}
