//! The zebra puzzle (the 15-clue version printed in Life International in 1962):
//! who drinks water, and who owns the zebra?
//!
//! ```text
//! cargo run --release --example zebra -- [--clues] [--count] [--stats] [strategy options]
//! cargo run --release --example zebra -- --compare [--configs LIST] [comparison options]
//! ```
//!
//! There is one variable per nationality, colour, pet, drink and brand of cigarette,
//! named after it, whose value is the number of the house (1 to 5, from the left)
//! that has it. Each group is `all_different`; each clue is one constraint, labelled
//! with its text, so statistics and traces speak the puzzle's language: "green is
//! right of ivory" is `green.eq(ivory + 1)`, "milk in the middle" `milk.eq(3)`,
//! and "next to", whose distance of one either way is not linear, a table of
//! the neighbouring houses. The clues are
//! data ([`CLUES`]): the model is built from them, and [`Houses::verify`] checks an
//! answer against them without the solver. The options, `--compare` and the exit
//! codes come from [`csp_cli::gallery`].

use std::io::Write;

use clap::Args;
use csp::{Model, ModelError, Solution};
use csp_cli::Io;
use csp_cli::gallery::{self, NoOptions, Puzzle};

fn main() -> std::process::ExitCode {
    gallery::main::<Zebra>()
}

/// The five groups of attributes, in the order the table prints them.
const GROUPS: [(&str, [&str; 5]); 5] = [
    ("nationality", ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"]),
    ("colour", ["red", "green", "ivory", "yellow", "blue"]),
    ("pet", ["dog", "snails", "fox", "horse", "zebra"]),
    ("drink", ["coffee", "tea", "milk", "orange juice", "water"]),
    ("smoke", ["Old Gold", "Kools", "Chesterfields", "Lucky Strike", "Parliaments"]),
];

/// What a clue states about two attributes (or an attribute and a house).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Statement {
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
struct Clue {
    /// The clue as the puzzle words it.
    text: &'static str,
    /// What it states.
    statement: Statement,
}

const fn clue(text: &'static str, statement: Statement) -> Clue {
    Clue { text, statement }
}

/// Clues 2 to 15 (clue 1 says there are five houses).
const CLUES: [Clue; 14] = [
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
fn model() -> Result<Model, ModelError> {
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
            Statement::RightOf(a, b) => model.add(model.var(a)?.eq(model.var(b)? + 1))?,
            Statement::NextTo(a, b) => model.table(&[model.var(a)?, model.var(b)?], &neighbours)?,
            Statement::At(a, house) => model.add(model.var(a)?.eq(house))?,
        };
        model.set_label(id, clue.text)?;
    }
    Ok(model)
}

/// An answer: for each house, its attribute of each group (in the order of [`GROUPS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Houses([[&'static str; 5]; 5]);

impl Houses {
    /// Reads an answer off a solution of [`model`].
    fn from_solution(solution: &Solution<'_>) -> Houses {
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
    fn house_of(&self, attribute: &str) -> Option<i64> {
        self.0.iter().position(|house| house.contains(&attribute)).map(|i| i as i64 + 1)
    }

    /// The nationality of the person in the house with this attribute.
    fn who(&self, attribute: &str) -> Option<&'static str> {
        self.house_of(attribute).map(|h| self.0[(h - 1) as usize][0])
    }

    /// Checks the answer against the rules and every clue, without the solver.
    fn verify(&self) -> Result<(), String> {
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

/// The puzzle: it has no instances to choose, and one option of its own.
#[derive(Debug)]
struct Zebra;

/// The zebra's solving option.
#[derive(Args, Clone, Copy, Debug, Default)]
struct ZebraOptions {
    /// Also print the clues.
    #[arg(long)]
    clues: bool,
}

impl Puzzle for Zebra {
    type Args = NoOptions;
    type Options = ZebraOptions;
    const NAME: &'static str = "zebra";
    const ABOUT: &'static str = "Solves the zebra puzzle: who drinks water, and who owns the zebra?";
    const WHAT: &'static str = "the zebra puzzle";
    const GOAL_HELP: &'static str = "count (the puzzle has one solution)";

    fn load(_: &NoOptions, _: &mut Io<'_>) -> anyhow::Result<(String, Zebra)> {
        Ok(("zebra".to_string(), Zebra))
    }

    fn model(&self, _: &ZebraOptions) -> Result<Model, ModelError> {
        model()
    }

    fn introduce(&self, options: &ZebraOptions, out: &mut dyn Write) -> anyhow::Result<()> {
        if options.clues {
            writeln!(out, "1. There are five houses.")?;
            for clue in CLUES {
                writeln!(out, "{}", clue.text)?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// A table of the houses, then the answer.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
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
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use csp::{Propagation, SolveConfig, Solver};

    use super::*;

    use crate::support::{Case, check_compare, run, table_rows};

    const TOOL: csp_cli::app::Tool = gallery::run::<Zebra>;

    #[test]
    fn the_japanese_owns_the_zebra_and_the_norwegian_drinks_water() {
        let model = model().unwrap();
        let mut solver = Solver::new(&model, SolveConfig::default()).unwrap();
        let solution = solver.solve().into_solution().expect("the puzzle has a solution");
        let houses = Houses::from_solution(&solution);
        houses.verify().unwrap();
        assert_eq!(houses.who("zebra"), Some("Japanese"));
        assert_eq!(houses.who("water"), Some("Norwegian"));
        for level in Propagation::ALL {
            let count = Solver::new(&model, SolveConfig::default().with_propagation(*level)).unwrap().count(None);
            assert!(count.is_unique(), "{level}: {count:?}");
        }
        let result = run(TOOL, &[]);
        assert_eq!(result.code, 0);
        assert!(
            result.stdout.contains("The Norwegian drinks water. The Japanese owns the zebra."),
            "{}",
            result.stdout
        );
    }

    #[test]
    fn every_zebra_variable_has_a_name_and_every_clue_a_label() {
        let model = model().unwrap();
        assert_eq!(model.num_vars(), 25);
        assert!(model.vars().all(|v| model.name(v).is_some()));
        assert!(model.constraints().all(|(id, _)| model.label(id).is_some()));
        // The verifier is independent of the solver: a wrong answer is rejected.
        let solution = model.solve().unwrap().unwrap();
        let mut houses = Houses::from_solution(&solution);
        houses.0.swap(0, 1);
        assert!(houses.verify().is_err());
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            // (`/ac2001` would change nothing here: every constraint has its own propagator.)
            configs: "bt+input,fc+mrv,mac+domwdeg",
            goal: "count",
            answer: 1,
        });
        let counted = run(TOOL, &["--compare", "--count"]);
        assert_eq!(counted.code, 2);
        assert!(counted.stderr.contains("--goal replaces --count"), "{}", counted.stderr);
    }

    #[test]
    fn compare_options_are_in_the_help() {
        let help = run(TOOL, &["--help"]);
        assert_eq!(help.code, 0);
        assert!(help.stdout.contains("--compare") && help.stdout.contains("--count"), "{}", help.stdout);
    }

    #[test]
    fn compare_plots_an_svg_bar_chart() {
        let path = std::env::temp_dir().join(format!("gallery-compare-{}.svg", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let result = run(TOOL, &["--compare", "--configs", "fc+mrv,mac+mrv", "--plot", path.to_str().unwrap()]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        let svg = std::fs::read_to_string(&path).expect("the plot was written");
        std::fs::remove_file(&path).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
        assert!(svg.contains("fc+mrv") && svg.contains("mac+mrv"));
        assert_eq!(table_rows(&result.stdout).len(), 2);
    }
}
