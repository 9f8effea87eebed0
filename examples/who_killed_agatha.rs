//! Who killed Agatha? (The Dreadsbury Mansion murder, Pelletier's problem 55,
//! 1986; a classic of automated reasoning.)
//!
//! ```text
//! cargo run --release --example who_killed_agatha -- [--statements] [--count] [--stats] [strategy options]
//! cargo run --release --example who_killed_agatha -- --compare [--configs LIST] [comparison options]
//! ```
//!
//! Someone who lives in Dreadsbury Mansion killed Aunt Agatha. Agatha, the
//! butler and Charles live there, and are the only ones who do. A killer always
//! hates his victim, and is never richer than his victim. Charles hates no one
//! that Aunt Agatha hates. Agatha hates everyone except the butler. The butler
//! hates everyone not richer than Aunt Agatha. The butler hates everyone Aunt
//! Agatha hates. No one hates everyone. Agatha is not the butler. Who killed
//! Aunt Agatha?
//!
//! The model is logic over booleans: `hates(a,b)` and `richer(a,b)` for every
//! pair of people, and the killer as a number, tied to the booleans by
//! reification (`is_killer[i] <-> killer = i`). Each statement is a handful
//! of implications and sums, labelled with its text. Some of the relations are
//! left open by the statements (whether the butler is richer than Charles, say),
//! so the model has several solutions: the answer is the same in all of them,
//! which the test checks. The options, `--compare` and the exit codes come from
//! [`csp_cli::gallery`].

use std::io::Write;

use clap::Args;
use csp::{Lit, Model, ModelError, Solution, VarId};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<Agatha>()
}

/// The people of the mansion, in the order of the variables.
const PEOPLE: [&str; 3] = ["Agatha", "butler", "Charles"];
const AGATHA: usize = 0;
const BUTLER: usize = 1;
const CHARLES: usize = 2;

/// The statements of the puzzle, in the order the model posts them.
const STATEMENTS: [&str; 8] = [
    "A killer always hates his victim.",
    "A killer is never richer than his victim.",
    "Charles hates no one that Aunt Agatha hates.",
    "Agatha hates everyone except the butler.",
    "The butler hates everyone not richer than Aunt Agatha.",
    "The butler hates everyone Aunt Agatha hates.",
    "No one hates everyone.",
    "Of two different people, exactly one is richer; no one is richer than himself.",
];

/// The model's variables: the killer (a person's number) and the two relations.
struct Mansion {
    killer: VarId,
    /// `hates[a][b]`: `a` hates `b`.
    hates: [[Lit; 3]; 3],
    /// `richer[a][b]`: `a` is richer than `b`.
    richer: [[Lit; 3]; 3],
}

impl Mansion {
    /// The variables of a model built by [`model`], found by their names.
    fn of(model: &Model) -> Result<Mansion, ModelError> {
        let find = |relation: &str| -> Result<[[Lit; 3]; 3], ModelError> {
            let mut lits = Vec::with_capacity(9);
            for a in PEOPLE {
                for b in PEOPLE {
                    lits.push(Lit::from(model.var(&format!("{relation}({a},{b})"))?));
                }
            }
            Ok([0, 1, 2].map(|a| [0, 1, 2].map(|b| lits[3 * a + b])))
        };
        Ok(Mansion { killer: model.var("killer")?, hates: find("hates")?, richer: find("richer")? })
    }
}

/// The model: the killer, `hates(a,b)` and `richer(a,b)` for every pair, and
/// one or more labelled constraints per statement.
fn model() -> Result<Model, ModelError> {
    let mut model = Model::new();
    model.new_named_var("killer", 0..=2)?;
    for relation in ["hates", "richer"] {
        for a in PEOPLE {
            for b in PEOPLE {
                model.new_named_bool(format!("{relation}({a},{b})"))?;
            }
        }
    }
    let Mansion { killer, hates, richer } = Mansion::of(&model)?;
    // is_killer[i] <-> killer = i: reification ties the number to booleans.
    let is_killer: Vec<Lit> = (0..3).map(|i| model.reified(killer.eq(i))).collect::<Result<_, _>>()?;
    // (statement, constraint) pairs, labelled at the end.
    let mut posted = Vec::new();
    for i in 0..3 {
        posted.push((0, model.implies(is_killer[i], hates[i][AGATHA])?));
        posted.push((1, model.implies(is_killer[i], !richer[i][AGATHA])?));
    }
    for (&agatha_hates, &charles_hates) in hates[AGATHA].iter().zip(&hates[CHARLES]) {
        posted.push((2, model.implies(agatha_hates, !charles_hates)?));
    }
    posted.push((3, model.and(&[hates[AGATHA][AGATHA], !hates[AGATHA][BUTLER], hates[AGATHA][CHARLES]])?));
    for j in 0..3 {
        posted.push((4, model.implies(!richer[j][AGATHA], hates[BUTLER][j])?));
        posted.push((5, model.implies(hates[AGATHA][j], hates[BUTLER][j])?));
    }
    for row in &hates {
        posted.push((6, model.add(model.sum(row).le(2))?));
    }
    for (a, row) in richer.iter().enumerate() {
        posted.push((7, model.add(!row[a])?));
        for (b, other) in richer.iter().enumerate().skip(a + 1) {
            posted.push((7, model.xor(&[row[b], other[a]])?));
        }
    }
    for (statement, id) in posted {
        model.set_label(id, STATEMENTS[statement])?;
    }
    Ok(model)
}

/// An answer: the killer and the two relations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    killer: usize,
    hates: [[bool; 3]; 3],
    richer: [[bool; 3]; 3],
}

impl Answer {
    /// Reads an answer off a solution of [`model`].
    fn from_solution(mansion: &Mansion, solution: &Solution<'_>) -> Answer {
        let read = |lits: &[[Lit; 3]; 3]| lits.map(|row| row.map(|lit| solution.is_true(lit)));
        Answer {
            killer: usize::try_from(solution[mansion.killer]).unwrap_or(usize::MAX),
            hates: read(&mansion.hates),
            richer: read(&mansion.richer),
        }
    }

    /// Checks the answer against every statement, without the solver.
    fn verify(&self) -> Result<(), &'static str> {
        let (hates, richer) = (&self.hates, &self.richer);
        let everyone = 0..3;
        let checks = [
            self.killer < 3 && hates[self.killer][AGATHA],
            self.killer < 3 && !richer[self.killer][AGATHA],
            everyone.clone().all(|j| !hates[AGATHA][j] || !hates[CHARLES][j]),
            hates[AGATHA][AGATHA] && !hates[AGATHA][BUTLER] && hates[AGATHA][CHARLES],
            everyone.clone().all(|j| richer[j][AGATHA] || hates[BUTLER][j]),
            everyone.clone().all(|j| !hates[AGATHA][j] || hates[BUTLER][j]),
            hates.iter().all(|row| row.iter().any(|&h| !h)),
            everyone.clone().all(|a| !richer[a][a] && everyone.clone().all(|b| a == b || richer[a][b] != richer[b][a])),
        ];
        match checks.iter().position(|&holds| !holds) {
            Some(broken) => Err(STATEMENTS[broken]),
            None => Ok(()),
        }
    }
}

/// The puzzle: no instances to choose, and one option of its own.
#[derive(Debug)]
struct Agatha;

/// The puzzle's solving option.
#[derive(Args, Clone, Copy, Debug, Default)]
struct AgathaOptions {
    /// Also print the statements.
    #[arg(long)]
    statements: bool,
}

impl Puzzle for Agatha {
    type Args = NoOptions;
    type Options = AgathaOptions;
    const NAME: &'static str = "who_killed_agatha";
    const ABOUT: &'static str = "Solves the Dreadsbury Mansion murder: who killed Aunt Agatha?";
    const WHAT: &'static str = "the Dreadsbury Mansion murder";

    fn load(_: &NoOptions, _: &mut Io<'_>) -> anyhow::Result<(String, Agatha)> {
        Ok(("who killed Agatha".to_string(), Agatha))
    }

    fn model(&self, _: &AgathaOptions) -> Result<Model, ModelError> {
        model()
    }

    fn introduce(&self, options: &AgathaOptions, out: &mut dyn Write) -> anyhow::Result<()> {
        if options.statements {
            for statement in STATEMENTS {
                writeln!(out, "{statement}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// The two relations as tables, then the answer.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        let answer = Answer::from_solution(&Mansion::of(solution.model())?, solution);
        answer.verify().map_err(|broken| anyhow::anyhow!("internal error: the answer breaks \"{broken}\""))?;
        for (name, relation) in [("hates", &answer.hates), ("richer than", &answer.richer)] {
            writeln!(out, "{name:<12} {:<8} {:<8} {}", PEOPLE[0], PEOPLE[1], PEOPLE[2])?;
            for (person, row) in PEOPLE.iter().zip(relation) {
                let cells: Vec<&str> = row.iter().map(|&r| if r { "yes" } else { "no" }).collect();
                writeln!(out, "{person:<12} {:<8} {:<8} {}", cells[0], cells[1], cells[2])?;
            }
            writeln!(out)?;
        }
        match answer.killer {
            AGATHA => writeln!(out, "Aunt Agatha killed herself.")?,
            killer => writeln!(out, "The {} killed Aunt Agatha.", PEOPLE[killer])?,
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use csp::{Propagation, SolveConfig, Solver};

    use super::*;

    use crate::support::{Case, check_compare, run};

    const TOOL: csp_cli::app::Tool = gallery::run::<Agatha>;

    /// Every answer that satisfies the statements, by brute force over the
    /// killer and the 18 booleans, without the solver.
    fn brute_force() -> Vec<Answer> {
        let mut answers = Vec::new();
        for killer in 0..3 {
            for bits in 0u32..1 << 18 {
                let bit = |k: usize| bits >> k & 1 == 1;
                let hates = [0, 1, 2].map(|a| [0, 1, 2].map(|b| bit(3 * a + b)));
                let richer = [0, 1, 2].map(|a| [0, 1, 2].map(|b| bit(9 + 3 * a + b)));
                let answer = Answer { killer, hates, richer };
                if answer.verify().is_ok() {
                    answers.push(answer);
                }
            }
        }
        answers
    }

    #[test]
    fn agatha_killed_herself() {
        let expected = brute_force();
        assert!(!expected.is_empty());
        assert!(expected.iter().all(|answer| answer.killer == AGATHA), "the statements leave one killer");
        let model = model().unwrap();
        let mansion = Mansion::of(&model).unwrap();
        for level in Propagation::ALL {
            let mut solver = Solver::new(&model, SolveConfig::default().with_propagation(*level)).unwrap();
            let mut found: Vec<Answer> = solver.solutions().map(|s| Answer::from_solution(&mansion, &s)).collect();
            found.sort_by_key(|a| format!("{a:?}"));
            let mut expected = expected.clone();
            expected.sort_by_key(|a| format!("{a:?}"));
            assert_eq!(found, expected, "{level}");
        }
        let result = run(TOOL, &["--statements"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert!(result.stdout.contains("No one hates everyone."), "{}", result.stdout);
        assert!(result.stdout.ends_with("Aunt Agatha killed herself.\n"), "{}", result.stdout);
        let counted = run(TOOL, &["--count"]);
        assert_eq!(counted.stdout, format!("{} solutions\n", expected.len()));
    }

    #[test]
    fn every_statement_is_a_labelled_constraint() {
        let model = model().unwrap();
        let labels: Vec<&str> = model.constraints().filter_map(|(id, _)| model.label(id)).collect();
        for statement in STATEMENTS {
            assert!(labels.contains(&statement), "{statement}");
        }
        // The verifier is independent of the solver: a wrong answer is rejected.
        let solution = model.solve().unwrap().unwrap();
        let mut answer = Answer::from_solution(&Mansion::of(&model).unwrap(), &solution);
        answer.killer = CHARLES;
        assert!(answer.verify().is_err());
    }

    #[test]
    fn compare_configurations_agree() {
        let count = brute_force().len() as u64;
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "bt+input,fc+mrv,mac+domwdeg",
            goal: "count",
            answer: count,
        });
    }
}
