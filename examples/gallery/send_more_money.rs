//! SEND + MORE = MONEY: give each letter a different digit so that the sum is right
//! (the unique answer is 9567 + 1085 = 10652). The tool solves any such addition of
//! words given with `--puzzle`, with one [`linear`](csp::Model::linear) equation whose
//! coefficients are the place values of the letters, and one `all_different`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;

use clap::{Args, Parser};
use csp::{Model, ModelError, Relation, SolveConfig, VarId};

use super::compare::CompareSpec;
use super::text::{Problem, Source};
use super::{CommonArgs, ParseError};
use csp_cli::report::{CompareArgs, GoalArg, run_comparison};

/// The words of an addition `A + B + ... = TOTAL`, in capital letters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cryptarithm {
    /// The words added.
    pub addends: Vec<String>,
    /// The word they add up to.
    pub total: String,
}

/// The longest word: its leading place value 10^17 keeps every sum far from overflow.
const MAX_WORD: usize = 18;

impl Cryptarithm {
    /// Parses `SEND + MORE = MONEY` (letters, `+`, one `=`, spaces anywhere; lowercase
    /// letters are read as capitals). `source` names the text in errors.
    pub fn parse(text: &str, source: &str) -> Result<Cryptarithm, ParseError> {
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
    pub fn letters(&self) -> Vec<char> {
        let mut letters = Vec::new();
        for c in self.addends.iter().chain([&self.total]).flat_map(|w| w.chars()) {
            if !letters.contains(&c) {
                letters.push(c);
            }
        }
        letters
    }

    /// The model: one variable per letter (named by the letter, in the order of
    /// [`letters`](Cryptarithm::letters)), leading letters of longer words nonzero, all
    /// letters different, and the sum as one linear equation over place values.
    pub fn model(&self) -> Result<(Model, Vec<VarId>), ModelError> {
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
        Ok((model, vars))
    }

    /// The number a word stands for under `digits`.
    pub fn value(word: &str, digits: &BTreeMap<char, i64>) -> i64 {
        word.chars().fold(0, |n, c| n * 10 + digits[&c])
    }

    /// Checks an answer by the rules, without the solver: every letter a digit, the
    /// letters different, no leading zero, and the sum right.
    pub fn verify(&self, digits: &BTreeMap<char, i64>) -> Result<(), String> {
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

#[derive(Debug, Parser)]
#[command(name = "send_more_money", about = "Solves SEND + MORE = MONEY, or another addition of words.")]
struct Cli {
    #[command(flatten)]
    puzzle: PuzzleArgs,
    #[command(flatten)]
    common: CommonArgs,
}

/// The options that say which puzzle to solve (or compare on).
#[derive(Args, Clone, Debug)]
struct PuzzleArgs {
    /// The puzzle: words joined by '+', then '=' and the total.
    #[arg(long, default_value = "SEND + MORE = MONEY")]
    puzzle: String,
}

/// What `send_more_money --compare` does by default: count (such puzzles have
/// few solutions, and a count proves there are no others).
const COMPARE: CompareSpec<PuzzleArgs> = CompareSpec {
    name: "send_more_money",
    what: "an addition of words",
    goal: |_| GoalArg::Count,
    goal_help: "count",
    configs: csp_cli::report::DEFAULT_CONFIGS,
};

/// The fastest configuration measured: the defaults (arc consistency, MRV).
pub fn default_config() -> SolveConfig {
    SolveConfig::default()
}

/// The tool: `send_more_money [--puzzle "SEND + MORE = MONEY"] [--count] [--stats] [strategy options]`,
/// or `send_more_money [--puzzle ...] --compare [--configs LIST] [comparison options]`.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    super::compare::run_tool::<Cli, PuzzleArgs>(args, &COMPARE, stdout, stderr, |cli, out, _| body(cli, out), compare)
}

fn compare(
    puzzle: &PuzzleArgs,
    args: &CompareArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> anyhow::Result<u8> {
    let (model, _) = Cryptarithm::parse(&puzzle.puzzle, "--puzzle")?.model()?;
    Ok(run_comparison(&[(puzzle.puzzle.trim(), &model)], args, stdout, stderr))
}

fn body(cli: &Cli, stdout: &mut dyn Write) -> anyhow::Result<u8> {
    let puzzle = Cryptarithm::parse(&cli.puzzle.puzzle, "--puzzle")?;
    let (model, vars) = puzzle.model()?;
    let letters = puzzle.letters();
    let config = cli.common.strategy.config(&default_config());
    super::solve_and_show(&model, config, &cli.common, stdout, |solution, out| {
        let digits: BTreeMap<char, i64> = letters.iter().zip(&vars).map(|(&c, &v)| (c, solution[v])).collect();
        puzzle.verify(&digits).map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        let numbers: Vec<String> =
            puzzle.addends.iter().chain([&puzzle.total]).map(|w| Cryptarithm::value(w, &digits).to_string()).collect();
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
        let mapping: Vec<String> = letters.iter().map(|c| format!("{c}={}", digits[c])).collect();
        writeln!(out, "{}", mapping.join(" "))?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
