//! SEND + MORE = MONEY: give each letter a different digit so that the sum is right
//! (the unique answer is 9567 + 1085 = 10652). The tool solves any such addition of
//! words given with `--puzzle`, with one [`linear`](csp::Model::linear) equation whose
//! coefficients are the place values of the letters, and one `all_different`.
//!
//! ```text
//! cargo run --release --example send_more_money -- [--puzzle "TO + GO = OUT"] [--count] [--stats] [strategy options]
//! cargo run --release --example send_more_money -- [--puzzle ...] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The options, `--compare` and the exit codes come from [`csp_cli::gallery`].

use std::collections::BTreeMap;
use std::io::Write;

use clap::Args;
use csp::{Model, ModelError, Relation, Solution, VarId};
use csp_cli::Io;
use csp_cli::gallery::text::{Problem, Source};
use csp_cli::gallery::{self, NoOptions, ParseError, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<Cryptarithm>()
}

/// The words of an addition `A + B + ... = TOTAL`, in capital letters.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cryptarithm {
    /// The words added.
    addends: Vec<String>,
    /// The word they add up to.
    total: String,
}

/// The longest word: its leading place value 10^17 keeps every sum far from overflow.
const MAX_WORD: usize = 18;

impl Cryptarithm {
    /// Parses `SEND + MORE = MONEY` (letters, `+`, one `=`, spaces anywhere; lowercase
    /// letters are read as capitals). `source` names the text in errors.
    fn parse(text: &str, source: &str) -> Result<Cryptarithm, ParseError> {
        let source = Source::new(source);
        let error = |column: usize, problem: Problem| source.error(1, column, problem);
        let mut words: Vec<(String, usize)> = Vec::new();
        let mut total: Option<usize> = None; // index in `words` of the total
        let mut current = String::new();
        let mut start = 0;
        let mut expect_word = true;
        let end = text.chars().count() + 1;
        for (i, c) in text.chars().chain(std::iter::once('\n')).enumerate() {
            let column = i + 1;
            if c.is_ascii_alphabetic() {
                if current.is_empty() {
                    if !expect_word {
                        return Err(error(column, Problem::unexpected("'+' or '='", &c.to_string())));
                    }
                    start = column;
                }
                current.push(c.to_ascii_uppercase());
                continue;
            }
            if !current.is_empty() {
                if current.len() > MAX_WORD {
                    return Err(error(
                        start,
                        Problem::invalid(format!("the word {current} is longer than {MAX_WORD} letters")),
                    ));
                }
                words.push((std::mem::take(&mut current), start));
                expect_word = false;
            }
            match c {
                '+' | '=' if expect_word => {
                    return Err(error(column, Problem::unexpected("a word", &c.to_string())));
                }
                '+' if total.is_some() => {
                    return Err(error(column, Problem::invalid("'+' after '=': the total is a single word")));
                }
                '=' if total.is_some() => return Err(error(column, Problem::invalid("a second '='"))),
                '+' => expect_word = true,
                '=' => {
                    total = Some(words.len());
                    expect_word = true;
                }
                '\n' if i + 1 == end => {}
                c if c.is_whitespace() => {}
                c => return Err(error(column, Problem::unexpected("a letter, '+' or '='", &c.to_string()))),
            }
        }
        if expect_word {
            let what = if words.is_empty() { "a word" } else { "a word after the last '+' or '='" };
            return Err(error(end, Problem::end_of_line(what)));
        }
        let Some(total) = total else {
            return Err(error(end, Problem::Missing { what: "'=' and the total".to_string() }));
        };
        let distinct: std::collections::BTreeSet<char> = words.iter().flat_map(|(w, _)| w.chars()).collect();
        if distinct.len() > 10 {
            return Err(error(
                1,
                Problem::invalid(format!("{} different letters, but there are 10 digits", distinct.len())),
            ));
        }
        let total_word = words.pop().expect("the total").0;
        debug_assert_eq!(total, words.len());
        Ok(Cryptarithm { addends: words.into_iter().map(|(w, _)| w).collect(), total: total_word })
    }

    /// The letters in order of first appearance.
    fn letters(&self) -> Vec<char> {
        let mut letters = Vec::new();
        for c in self.addends.iter().chain([&self.total]).flat_map(|w| w.chars()) {
            if !letters.contains(&c) {
                letters.push(c);
            }
        }
        letters
    }

    /// The number a word stands for under `digits`.
    fn value(word: &str, digits: &BTreeMap<char, i64>) -> i64 {
        word.chars().fold(0, |n, c| n * 10 + digits[&c])
    }

    /// Checks an answer by the rules, without the solver: every letter a digit, the
    /// letters different, no leading zero, and the sum right.
    fn verify(&self, digits: &BTreeMap<char, i64>) -> Result<(), String> {
        let letters = self.letters();
        if let Some(c) = letters.iter().find(|c| !digits.get(c).is_some_and(|d| (0..=9).contains(d))) {
            return Err(format!("letter {c} has no digit"));
        }
        let used: std::collections::BTreeSet<i64> = letters.iter().map(|c| digits[c]).collect();
        if used.len() != letters.len() {
            return Err("two letters share a digit".to_string());
        }
        for word in self.addends.iter().chain([&self.total]) {
            if word.len() > 1 && word.chars().next().is_some_and(|c| digits[&c] == 0) {
                return Err(format!("{word} starts with a zero"));
            }
        }
        let sum: i64 = self.addends.iter().map(|w| Self::value(w, digits)).sum();
        let total = Self::value(&self.total, digits);
        if sum != total {
            return Err(format!("the words add up to {sum}, not {total}"));
        }
        Ok(())
    }
}

/// The option that says which addition to solve (or compare on).
#[derive(Args, Clone, Debug)]
struct PuzzleArgs {
    /// The puzzle: words joined by '+', then '=' and the total.
    #[arg(long, default_value = "SEND + MORE = MONEY")]
    puzzle: String,
}

/// The fastest configuration measured is the engine's default (arc
/// consistency, MRV), so [`Puzzle::default_config`] is not overridden.
impl Puzzle for Cryptarithm {
    type Args = PuzzleArgs;
    type Options = NoOptions;
    const NAME: &'static str = "send_more_money";
    const ABOUT: &'static str = "Solves SEND + MORE = MONEY, or another addition of words.";
    const WHAT: &'static str = "an addition of words";
    // Without --goal, --compare counts: such puzzles have few solutions, and a
    // count proves there are no others.

    fn load(args: &PuzzleArgs, _: &mut Io<'_>) -> anyhow::Result<(String, Cryptarithm)> {
        Ok((args.puzzle.trim().to_string(), Cryptarithm::parse(&args.puzzle, "--puzzle")?))
    }

    /// The model: one variable per letter (named by the letter, in the order of
    /// [`letters`](Cryptarithm::letters), which [`show`](Puzzle::show) relies on), leading letters of longer words nonzero, all
    /// letters different, and the sum as one linear equation over place values.
    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        let mut model = Model::new();
        let letters = self.letters();
        let leading: Vec<char> =
            self.addends.iter().chain([&self.total]).filter(|w| w.len() > 1).filter_map(|w| w.chars().next()).collect();
        let mut vars = Vec::with_capacity(letters.len());
        for &letter in &letters {
            let low = if leading.contains(&letter) { 1 } else { 0 };
            vars.push(model.new_named_var(letter.to_string(), low..=9)?);
        }
        if vars.len() > 1 {
            model.all_different(&vars)?;
        }
        let var_of = |c: char| vars[letters.iter().position(|&l| l == c).expect("a letter of the puzzle")];
        let mut terms: Vec<(i64, VarId)> = Vec::new();
        for (word, sign) in self.addends.iter().map(|w| (w, 1)).chain([(&self.total, -1)]) {
            let mut place = 1i64;
            for c in word.chars().rev() {
                terms.push((sign * place, var_of(c)));
                place *= 10;
            }
        }
        model.linear(&terms, Relation::Eq, 0)?;
        Ok(model)
    }

    /// The addition with the digits, then the letters' digits.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        // The variables are the letters, in the order of `letters`.
        let digits: BTreeMap<char, i64> = self.letters().into_iter().zip(solution.values().iter().copied()).collect();
        self.verify(&digits).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        let numbers: Vec<String> =
            self.addends.iter().chain([&self.total]).map(|w| Cryptarithm::value(w, &digits).to_string()).collect();
        let width = numbers.iter().map(String::len).max().unwrap_or(0);
        let last = numbers.len() - 1;
        for (i, number) in numbers.iter().enumerate() {
            let sign = match i {
                0 => ' ',
                i if i == last => '=',
                _ => '+',
            };
            writeln!(out, "{sign} {number:>width$}")?;
        }
        let mapping: Vec<String> = self.letters().iter().map(|c| format!("{c}={}", digits[c])).collect();
        writeln!(out, "{}", mapping.join(" "))?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::support::{Case, assert_count_everywhere, check_compare, first_word, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<Cryptarithm>;

    #[test]
    fn send_more_money_has_the_unique_answer() {
        let result = run(TOOL, &["--stats"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        let lines: Vec<&str> = result.stdout.lines().map(str::trim).collect();
        assert_eq!(&lines[..3], &["9567", "+  1085", "= 10652"]);
        assert!(result.stderr.contains("stats: nodes"), "statistics on stderr: {}", result.stderr);
        assert_count_everywhere(TOOL, &[], 1);
    }

    #[test]
    fn other_additions_of_words_are_solved_and_checked() {
        // TO + GO = OUT: 21 + 81 = 102 is the only answer.
        let result = run(TOOL, &["--puzzle", "to + go = out"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert!(result.stdout.contains("= 102"), "{}", result.stdout);
        assert_eq!(first_word(&run(TOOL, &["--puzzle", "A + A = A", "--count"])), "1");
        let impossible = run(TOOL, &["--puzzle", "AB + AB = C"]);
        assert_eq!((impossible.code, impossible.stdout.trim()), (1, "no solution"));
        let bad = run(TOOL, &["--puzzle", "SEND + M0RE = MONEY"]);
        assert_eq!(bad.code, 2);
        assert!(bad.stderr.contains("--puzzle: line 1, column 9: expected a letter"), "{}", bad.stderr);
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "fc+mrv,fc-cbj+mrv,mac+domwdeg",
            goal: "count",
            answer: 1,
        });
    }

    #[test]
    fn puzzles_parse_and_mistakes_have_columns() {
        let p = Cryptarithm::parse("send+more = money", "--puzzle").unwrap();
        assert_eq!(p.addends, vec!["SEND", "MORE"]);
        assert_eq!(p.total, "MONEY");
        let err = |text: &str| Cryptarithm::parse(text, "--puzzle").unwrap_err();
        assert_eq!(err("SEND + MORE").problem, Problem::Missing { what: "'=' and the total".into() });
        assert_eq!(err("SEND + 4 = X").column, 8);
        assert_eq!(err("SEND ++ MORE = MONEY").column, 7);
        assert_eq!(err("A = B = C").column, 7);
        assert_eq!(
            err("A + B =").to_string(),
            "--puzzle: line 1, column 8: expected a word after the last '+' or '=', found the end of the line"
        );
        assert!(err("ABCDE + FGHIJ = K").to_string().contains("11 different letters"));
    }
}
