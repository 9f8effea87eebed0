//! The zebra puzzle (the 15-clue version printed in Life International in 1962).
//!
//! There is one variable per nationality, colour, pet, drink and brand of cigarette,
//! named after it, whose value is the number of the house (1 to 5, from the left)
//! that has it. Each group is `all_different`; each clue is one constraint, labelled
//! with its text, so statistics and traces speak the puzzle's language. The clues are
//! data ([`CLUES`]): the model is built from them, and [`Houses::verify`] checks an
//! answer against them without the solver.

use std::ffi::OsString;
use std::io::Write;

use clap::{Args, Parser};
use csp::{Model, ModelError, Relation, Solution, SolveConfig};

use super::CommonArgs;
use super::compare::CompareSpec;
use csp_cli::report::{CompareArgs, GoalArg, run_comparison};

/// The five groups of attributes, in the order the table prints them.
pub const GROUPS: [(&str, [&str; 5]); 5] = [
    ("nationality", ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"]),
    ("colour", ["red", "green", "ivory", "yellow", "blue"]),
    ("pet", ["dog", "snails", "fox", "horse", "zebra"]),
    ("drink", ["coffee", "tea", "milk", "orange juice", "water"]),
    ("smoke", ["Old Gold", "Kools", "Chesterfields", "Lucky Strike", "Parliaments"]),
];

/// What a clue states about two attributes (or an attribute and a house).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statement {
    /// In the same house.
    Same(&'static str, &'static str),
    /// The first is in the house immediately to the right of the second.
    RightOf(&'static str, &'static str),
    /// In neighbouring houses.
    NextTo(&'static str, &'static str),
    /// In the given house.
    At(&'static str, i64),
}

/// A clue: its text and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clue {
    /// The clue as the puzzle words it.
    pub text: &'static str,
    /// What it states.
    pub statement: Statement,
}

const fn clue(text: &'static str, statement: Statement) -> Clue {
    Clue { text, statement }
}

/// Clues 2 to 15 (clue 1 says there are five houses).
pub const CLUES: [Clue; 14] = [
    clue("2. The Englishman lives in the red house.", Statement::Same("Englishman", "red")),
    clue("3. The Spaniard owns the dog.", Statement::Same("Spaniard", "dog")),
    clue("4. Coffee is drunk in the green house.", Statement::Same("coffee", "green")),
    clue("5. The Ukrainian drinks tea.", Statement::Same("Ukrainian", "tea")),
    clue("6. The green house is immediately to the right of the ivory house.", Statement::RightOf("green", "ivory")),
    clue("7. The Old Gold smoker owns snails.", Statement::Same("Old Gold", "snails")),
    clue("8. Kools are smoked in the yellow house.", Statement::Same("Kools", "yellow")),
    clue("9. Milk is drunk in the middle house.", Statement::At("milk", 3)),
    clue("10. The Norwegian lives in the first house.", Statement::At("Norwegian", 1)),
    clue(
        "11. The man who smokes Chesterfields lives in the house next to the man with the fox.",
        Statement::NextTo("Chesterfields", "fox"),
    ),
    clue(
        "12. Kools are smoked in the house next to the house where the horse is kept.",
        Statement::NextTo("Kools", "horse"),
    ),
    clue("13. The Lucky Strike smoker drinks orange juice.", Statement::Same("Lucky Strike", "orange juice")),
    clue("14. The Japanese smokes Parliaments.", Statement::Same("Japanese", "Parliaments")),
    clue("15. The Norwegian lives next to the blue house.", Statement::NextTo("Norwegian", "blue")),
];

/// The model: 25 named variables over the houses 1..=5, an `all_different` per group
/// and one labelled constraint per clue.
pub fn model() -> Result<Model, ModelError> {
    let mut model = Model::new();
    for (group, names) in GROUPS {
        let vars = names.iter().map(|name| model.new_named_var(*name, 1..=5)).collect::<Result<Vec<_>, _>>()?;
        let id = model.all_different(&vars)?;
        model.set_label(id, format!("one {group} per house"))?;
    }
    let neighbours: Vec<Vec<i64>> = (1..=5)
        .flat_map(|a| [a - 1, a + 1].into_iter().filter(|b| (1..=5).contains(b)).map(move |b| vec![a, b]))
        .collect();
    for clue in CLUES {
        let id = match clue.statement {
            Statement::Same(a, b) => model.equal(model.var(a)?, model.var(b)?)?,
            Statement::RightOf(a, b) => model.linear(&[(1, model.var(a)?), (-1, model.var(b)?)], Relation::Eq, 1)?,
            Statement::NextTo(a, b) => model.table(&[model.var(a)?, model.var(b)?], &neighbours)?,
            Statement::At(a, house) => model.linear(&[(1, model.var(a)?)], Relation::Eq, house)?,
        };
        model.set_label(id, clue.text)?;
    }
    Ok(model)
}

/// An answer: for each house, its attribute of each group (in the order of [`GROUPS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Houses(pub [[&'static str; 5]; 5]);

impl Houses {
    /// Reads an answer off a solution of [`model`].
    pub fn from_solution(solution: &Solution<'_>) -> Houses {
        let mut houses = [[""; 5]; 5];
        for (g, (_, names)) in GROUPS.iter().enumerate() {
            for name in names {
                let house = solution[*name];
                if (1..=5).contains(&house) {
                    houses[(house - 1) as usize][g] = name;
                }
            }
        }
        Houses(houses)
    }

    /// The house (1 to 5) with this attribute.
    pub fn house_of(&self, attribute: &str) -> Option<i64> {
        self.0.iter().position(|house| house.contains(&attribute)).map(|i| i as i64 + 1)
    }

    /// The nationality of the person in the house with this attribute.
    pub fn who(&self, attribute: &str) -> Option<&'static str> {
        self.house_of(attribute).map(|h| self.0[(h - 1) as usize][0])
    }

    /// Checks the answer against the rules and every clue, without the solver.
    pub fn verify(&self) -> Result<(), String> {
        for (g, (group, names)) in GROUPS.iter().enumerate() {
            for name in names {
                if self.0.iter().filter(|house| house[g] == *name).count() != 1 {
                    return Err(format!("{name} is not in exactly one house ({group})"));
                }
            }
        }
        for clue in CLUES {
            let house = |a: &str| self.house_of(a).unwrap_or(0);
            let holds = match clue.statement {
                Statement::Same(a, b) => house(a) == house(b),
                Statement::RightOf(a, b) => house(a) == house(b) + 1,
                Statement::NextTo(a, b) => (house(a) - house(b)).abs() == 1,
                Statement::At(a, h) => house(a) == h,
            };
            if !holds {
                return Err(format!("clue {} does not hold", clue.text));
            }
        }
        Ok(())
    }
}

#[derive(Debug, Parser)]
#[command(name = "zebra", about = "Solves the zebra puzzle: who drinks water, and who owns the zebra?")]
struct Cli {
    /// Also print the clues.
    #[arg(long)]
    clues: bool,
    #[command(flatten)]
    common: CommonArgs,
}

/// The zebra puzzle has no options of its own: `--compare` takes only the
/// comparison's.
#[derive(Args, Clone, Copy, Debug)]
struct PuzzleArgs {}

/// What `zebra --compare` does by default: count (the puzzle has one solution).
const COMPARE: CompareSpec<PuzzleArgs> = CompareSpec {
    name: "zebra",
    what: "the zebra puzzle",
    goal: |_| GoalArg::Count,
    goal_help: "count (the puzzle has one solution)",
    configs: csp_cli::report::DEFAULT_CONFIGS,
};

/// The tool: `zebra [--clues] [--count] [--stats] [strategy options]`, or
/// `zebra --compare [--configs LIST] [comparison options]`.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    super::compare::run_tool::<Cli, PuzzleArgs>(
        args,
        &COMPARE,
        stdout,
        stderr,
        |cli, out, _| body(cli, out),
        |_, args, out, err| compare(args, out, err),
    )
}

fn compare(args: &CompareArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<u8> {
    let model = model()?;
    Ok(run_comparison(&[("zebra", &model)], args, stdout, stderr))
}

fn body(cli: &Cli, stdout: &mut dyn Write) -> anyhow::Result<u8> {
    let model = model()?;
    if cli.clues {
        writeln!(stdout, "1. There are five houses.")?;
        for clue in CLUES {
            writeln!(stdout, "{}", clue.text)?;
        }
        writeln!(stdout)?;
    }
    let config = cli.common.strategy.config(&SolveConfig::default());
    super::solve_and_show(&model, config, &cli.common, stdout, |solution, out| {
        let houses = Houses::from_solution(solution);
        houses.verify().map_err(|e| anyhow::anyhow!("internal error: the answer is wrong: {e}"))?;
        let width = GROUPS.iter().flat_map(|(_, names)| names.iter()).map(|n| n.len()).max().unwrap_or(0);
        let mut row = format!("{:<12}", "house");
        for h in 1..=5 {
            row.push_str(&format!(" {h:<width$}"));
        }
        writeln!(out, "{}", row.trim_end())?;
        for (g, (group, _)) in GROUPS.iter().enumerate() {
            let mut row = format!("{group:<12}");
            for house in &houses.0 {
                row.push_str(&format!(" {:<width$}", house[g]));
            }
            writeln!(out, "{}", row.trim_end())?;
        }
        let water = houses.who("water").unwrap_or("nobody");
        let zebra = houses.who("zebra").unwrap_or("nobody");
        writeln!(out, "The {water} drinks water. The {zebra} owns the zebra.")?;
        Ok(())
    })
}
