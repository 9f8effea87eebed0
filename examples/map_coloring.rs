//! Map colouring: neighbouring regions get different colours. The built-in map is
//! Australia's seven regions with three colours (18 colourings); `--graph FILE` reads
//! any graph in DIMACS `.col` format ([`csp_cli::gallery::dimacs`]), so the standard
//! colouring benchmarks load as they are.
//!
//! ```text
//! cargo run --release --example map_coloring -- [--graph FILE --colors K] [--clique] [--count] [--stats] [strategy options]
//! cargo run --release --example map_coloring -- [--graph FILE --colors K] --compare [--configs LIST] [comparison options]
//! ```
//!
//! The model is the textbook one: a variable per region with the colours `1..=K` as
//! its domain, and `not_equal` on every border. The options, `--compare` and the
//! exit codes come from [`csp_cli::gallery`].

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use csp::{Model, ModelError, Solution, VarId};
use csp_cli::Io;
use csp_cli::app::counted;
use csp_cli::gallery::dimacs::{self, Graph};
use csp_cli::gallery::{self, NoOptions, Puzzle};
use csp_cli::report::GoalArg;

fn main() -> std::process::ExitCode {
    gallery::main::<MapColouring>()
}

/// Australia's mainland states and territories, and Tasmania.
const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];

/// Their borders (Tasmania has none).
const BORDERS: [(&str, &str); 9] = [
    ("WA", "NT"),
    ("WA", "SA"),
    ("NT", "SA"),
    ("NT", "Q"),
    ("SA", "Q"),
    ("SA", "NSW"),
    ("SA", "V"),
    ("Q", "NSW"),
    ("NSW", "V"),
];

/// The names of the first colours; further colours print as numbers.
const COLOUR_NAMES: [&str; 6] = ["red", "green", "blue", "yellow", "purple", "orange"];

/// The map of Australia as a graph (vertices in the order of [`REGIONS`]).
fn australia() -> Graph {
    let index = |name: &str| REGIONS.iter().position(|&r| r == name).expect("a region");
    let edges = BORDERS.iter().map(|&(a, b)| (index(a).min(index(b)), index(a).max(index(b)))).collect::<Vec<_>>();
    Graph { vertices: REGIONS.len(), declared_edges: edges.len(), edges }
}

/// The colouring model: one variable per vertex (named by `names`, or `v1`, `v2`, ...
/// after the file's numbering) over the colours `1..=colours`, and `not_equal` on
/// every edge.
fn model(graph: &Graph, colours: u32, names: Option<&[&str]>) -> Result<(Model, Vec<VarId>), ModelError> {
    let mut model = Model::new();
    let vars = (0..graph.vertices)
        .map(|v| match names {
            Some(names) => model.new_named_var(names[v], 1..=i64::from(colours)),
            None => model.new_named_var(format!("v{}", v + 1), 1..=i64::from(colours)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    for &(u, v) in &graph.edges {
        model.not_equal(vars[u], vars[v])?;
    }
    Ok((model, vars))
}

/// A large clique of the graph, found greedily: from each of the 64 vertices of
/// highest degree, add vertices joined to all those taken so far, highest degree
/// first; the largest clique found. A clique's vertices must all differ, so
/// `all_different` on it is an implied constraint: it changes no solution, but its
/// matching propagator sees at once that `k` colours cannot colour a clique of more
/// than `k` vertices, which `not_equal` on each edge never notices.
fn greedy_clique(graph: &Graph) -> Vec<usize> {
    let mut neighbours = vec![Vec::new(); graph.vertices];
    for &(u, v) in &graph.edges {
        neighbours[u].push(v);
        neighbours[v].push(u);
    }
    for list in &mut neighbours {
        list.sort_unstable();
    }
    let mut by_degree: Vec<usize> = (0..graph.vertices).collect();
    by_degree.sort_by_key(|&v| (std::cmp::Reverse(neighbours[v].len()), v));
    let mut best = Vec::new();
    for &start in by_degree.iter().take(64) {
        let mut clique = vec![start];
        for &v in &neighbours[start] {
            if clique.iter().all(|&u| neighbours[u].binary_search(&v).is_ok()) {
                clique.push(v);
            }
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best.sort_unstable();
    best
}

/// Checks a colouring without the solver: every colour in `1..=colours`, and the ends
/// of every edge coloured differently.
fn verify(graph: &Graph, colours: u32, colouring: &[i64]) -> Result<(), String> {
    if colouring.len() != graph.vertices {
        return Err(format!("{} colours for {} vertices", colouring.len(), graph.vertices));
    }
    if let Some(v) = colouring.iter().position(|&c| !(1..=i64::from(colours)).contains(&c)) {
        return Err(format!("vertex {} has colour {}, not one of 1..={colours}", v + 1, colouring[v]));
    }
    match graph.edges.iter().find(|&&(u, v)| colouring[u] == colouring[v]) {
        Some(&(u, v)) => {
            Err(format!("vertices {} and {} are joined and both have colour {}", u + 1, v + 1, colouring[u]))
        }
        None => Ok(()),
    }
}

/// The options that say which map to colour (or compare on).
#[derive(Args, Clone, Debug)]
struct MapArgs {
    /// A graph in DIMACS .col format to colour instead of Australia ('-' reads standard input).
    #[arg(long, value_name = "FILE")]
    graph: Option<PathBuf>,
    /// The number of colours (3 for Australia; required with --graph).
    #[arg(long, alias = "colours", value_name = "K", value_parser = clap::value_parser!(u32).range(1..=4096))]
    colors: Option<u32>,
    /// Also post all_different on a large clique found greedily (an implied
    /// constraint: the solutions and the count do not change).
    #[arg(long)]
    clique: bool,
}

/// A map to colour, as the options say.
#[derive(Debug)]
struct MapColouring {
    graph: Graph,
    colours: u32,
    /// The regions' names (Australia's), or `None` for a graph's numbered vertices.
    names: Option<&'static [&'static str]>,
    /// Whether to post `all_different` on a greedy clique too.
    clique: bool,
}

/// The configuration is the engine's default, arc consistency with MRV, so
/// [`Puzzle::default_config`] is not overridden. On the shared benchmark graphs MRV finds colourings fastest
/// (`queen8_8` with 9 colours: 25,000 nodes and 0.1 s, where MRV with degree ties,
/// dom/deg and dom/wdeg have not found one after 10 s); dom/deg proves
/// "not `k`-colourable" in fewer nodes (`myciel4` with 4 colours: 1,900 nodes against
/// 8,800), so try `--var-order dom-deg` for proofs.
impl Puzzle for MapColouring {
    type Args = MapArgs;
    type Options = NoOptions;
    const NAME: &'static str = "map_coloring";
    const ABOUT: &'static str =
        "Colours the map of Australia, or any graph in DIMACS .col format, so that neighbours differ.";
    const WHAT: &'static str = "a map or graph colouring";
    const GOAL_HELP: &'static str = "count for Australia, first with --graph";

    /// Reads the graph (warning on stderr when its header announces another
    /// number of edges).
    fn load(args: &MapArgs, io: &mut Io<'_>) -> anyhow::Result<(String, MapColouring)> {
        let (graph, colours, names, what) = match &args.graph {
            None => (australia(), args.colors.unwrap_or(3), Some(&REGIONS as &[&str]), "Australia".to_string()),
            Some(path) => {
                let Some(colours) = args.colors else {
                    anyhow::bail!("--graph needs --colors K, the number of colours to use");
                };
                let graph = dimacs::parse(&gallery::read_input(path, io)?, &path.display().to_string())?;
                if graph.declared_edges != graph.edges.len() {
                    writeln!(
                        io.stderr,
                        "warning: {}: the 'p' line announces {}, the file lists {} different",
                        path.display(),
                        counted(graph.declared_edges as u64, "edge", "edges"),
                        graph.edges.len()
                    )?;
                }
                (graph, colours, None, path.display().to_string())
            }
        };
        let noun = if colours == 1 { "colour" } else { "colours" };
        let clique = if args.clique { ", clique" } else { "" };
        let name = format!("{what}, {colours} {noun}{clique}");
        Ok((name, MapColouring { graph, colours, names, clique: args.clique }))
    }

    fn model(&self, _: &NoOptions) -> Result<Model, ModelError> {
        let (mut model, vars) = model(&self.graph, self.colours, self.names)?;
        if self.clique {
            let clique = greedy_clique(&self.graph);
            if clique.len() > 2 {
                let members: Vec<VarId> = clique.iter().map(|&v| vars[v]).collect();
                let id = model.all_different(&members)?;
                model.set_label(id, format!("a clique of {} vertices", clique.len()))?;
            }
        }
        Ok(model)
    }

    /// The colour of each region, or the vertices of each colour.
    fn show(&self, solution: &Solution<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
        let (graph, colours) = (&self.graph, self.colours);
        // The variables are the vertices, in order.
        let colouring: Vec<i64> = solution.values()[..graph.vertices].to_vec();
        verify(graph, colours, &colouring)
            .map_err(|e| anyhow::anyhow!("internal error: the colouring is wrong: {e}"))?;
        let colour_name = |c: i64| match COLOUR_NAMES.get((c - 1) as usize) {
            Some(name) if colours as usize <= COLOUR_NAMES.len() => (*name).to_string(),
            _ => format!("colour {c}"),
        };
        match self.names {
            Some(names) => {
                let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
                for (name, &c) in names.iter().zip(&colouring) {
                    writeln!(out, "{name:<width$} {}", colour_name(c))?;
                }
            }
            None => {
                writeln!(
                    out,
                    "{}, {}, {}; the vertices of each colour:",
                    counted(graph.vertices as u64, "vertex", "vertices"),
                    counted(graph.edges.len() as u64, "edge", "edges"),
                    counted(u64::from(colours), "colour", "colours")
                )?;
                for c in 1..=i64::from(colours) {
                    let members: Vec<String> =
                        (0..graph.vertices).filter(|&v| colouring[v] == c).map(|v| (v + 1).to_string()).collect();
                    writeln!(out, "{}: {}", colour_name(c), members.join(" "))?;
                }
            }
        }
        Ok(())
    }

    /// Australia's 18 colourings are counted; a benchmark graph has far too many
    /// to count, so one colouring is looked for.
    fn compare_goal(args: &MapArgs) -> GoalArg {
        if args.graph.is_none() { GoalArg::Count } else { GoalArg::First }
    }
}

#[cfg(test)]
#[path = "support/tests.rs"]
mod support;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::support::{
        Case, assert_count_everywhere, check_compare, first_word, fixture, run, shared_data, table_rows,
    };

    const TOOL: csp_cli::app::Tool = gallery::run::<MapColouring>;

    #[test]
    fn australia_has_eighteen_three_colourings() {
        let result = run(TOOL, &["--count"]);
        assert_eq!(result.code, 0, "{}", result.stderr);
        assert_eq!(first_word(&result), "18");
        assert_count_everywhere(TOOL, &[], 18);
        for order in ["input", "mrv-degree", "dom-wdeg"] {
            assert_eq!(first_word(&run(TOOL, &["--count", "--var-order", order])), "18");
        }
        assert_eq!(first_word(&run(TOOL, &["--count", "--colors", "2"])), "0");
        let shown = run(TOOL, &[]);
        assert_eq!(shown.code, 0);
        assert!(shown.stdout.starts_with("WA "), "{}", shown.stdout);
        assert_eq!(shown.stdout.lines().count(), 7);
    }

    #[test]
    fn fixture_graphs_have_their_known_colourings() {
        let petersen = fixture("graphs/petersen.col");
        assert_count_everywhere(TOOL, &["--graph", &petersen, "--colors", "3"], 120);
        assert_eq!(run(TOOL, &["--graph", &petersen, "--colors", "2"]).code, 1);
        let wheel = fixture("graphs/wheel6.col");
        let three = run(TOOL, &["--graph", &wheel, "--colors", "3"]);
        assert_eq!((three.code, three.stdout.trim()), (1, "no solution"));
        assert!(three.stderr.contains("announces 12 edges, the file lists 10"), "{}", three.stderr);
        let four = run(TOOL, &["--graph", &wheel, "--colors", "4"]);
        assert_eq!(four.code, 0, "{}", four.stderr);
        // The clique constraint is implied: it must not change the count.
        assert_eq!(first_word(&run(TOOL, &["--graph", &wheel, "--colors", "4", "--count"])), "120");
        assert_eq!(first_word(&run(TOOL, &["--graph", &wheel, "--colors", "4", "--count", "--clique"])), "120");
    }

    #[test]
    fn counts_in_messages_agree_with_their_nouns() {
        let path = std::env::temp_dir().join(format!("map-coloring-one-{}.col", std::process::id()));
        std::fs::write(&path, "p edge 1 1\n").unwrap();
        let one = run(TOOL, &["--graph", path.to_str().unwrap(), "--colors", "1"]);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(one.code, 0, "{}", one.stderr);
        assert!(one.stdout.starts_with("1 vertex, 0 edges, 1 colour;"), "{}", one.stdout);
        assert!(one.stderr.contains("announces 1 edge, the file lists 0 different"), "{}", one.stderr);
    }

    #[test]
    fn shared_benchmark_graphs_have_their_chromatic_numbers() {
        let Some(data) = shared_data() else { return };
        // (file, chromatic number, whether proving one colour fewer impossible is fast)
        for (name, chromatic, prove) in
            [("myciel3", 4, true), ("myciel4", 5, true), ("queen5_5", 5, true), ("huck", 11, true), ("jean", 10, true)]
        {
            let file = data.join("graphs").join(format!("{name}.col")).display().to_string();
            let enough = run(TOOL, &["--graph", &file, "--colors", &chromatic.to_string()]);
            assert_eq!(enough.code, 0, "{name} with {chromatic} colours: {}{}", enough.stdout, enough.stderr);
            if prove {
                let fewer = (chromatic - 1).to_string();
                let result = run(TOOL, &["--graph", &file, "--colors", &fewer, "--clique"]);
                assert_eq!((result.code, result.stdout.trim()), (1, "no solution"), "{name} with {fewer} colours");
            }
        }
    }

    #[test]
    fn malformed_graphs_are_reported_with_line_and_column() {
        for (name, location) in [
            ("bad/vertex_out_of_range.col", "line 4, column 5: vertex 4 is out of range"),
            ("bad/no_header.col", "line 2, column 1: missing the 'p edge N M' line before the first edge"),
            ("bad/not_a_number.col", "line 3, column 5: expected vertex (a whole number), found 'x'"),
        ] {
            let file = fixture(name);
            let result = run(TOOL, &["--graph", &file, "--colors", "3"]);
            assert_eq!(result.code, 2, "{name}");
            assert!(result.stderr.contains(&format!("{file}: {location}")), "{name}: {}", result.stderr);
            assert!(result.stdout.is_empty());
        }
        let missing = run(TOOL, &["--graph", "no/such/file.col", "--colors", "3"]);
        assert_eq!(missing.code, 2);
        assert!(missing.stderr.contains("cannot read no/such/file.col"), "{}", missing.stderr);
        let no_colours = run(TOOL, &["--graph", &fixture("graphs/petersen.col")]);
        assert_eq!(no_colours.code, 2);
        assert!(no_colours.stderr.contains("--graph needs --colors"), "{}", no_colours.stderr);
        let usage = run(TOOL, &["--colors", "many"]);
        assert_eq!(usage.code, 2);
        let parsed =
            dimacs::parse(&std::fs::read_to_string(fixture("graphs/wheel6.col")).unwrap(), "wheel6.col").unwrap();
        assert_eq!((parsed.vertices, parsed.edges.len()), (6, 10));
    }

    /// What the real process does: the example's `main` is `gallery::main`,
    /// which is `app::main(gallery::run)` (the `csp-*` binaries' tests run
    /// `app::main` end to end); here `gallery::run` under `app::run`.
    #[test]
    fn the_tool_counts_and_reports_bad_input_with_its_exit_codes() {
        let output = run(TOOL, &["--count"]);
        assert_eq!(output.code, 0);
        assert_eq!(first_word(&output), "18");
        let bad = fixture("bad/vertex_out_of_range.col");
        let output = run(TOOL, &["--graph", &bad, "--colors", "3"]);
        assert_eq!(output.code, 2);
        assert!(output.stderr.contains("line 4, column 5"));
    }

    #[test]
    fn compare_configurations_agree_in_every_format() {
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec![],
            configs: "bt+input,bt-cbj+input,fc+mrv,mac+domwdeg",
            goal: "count",
            answer: 18,
        });
        let petersen = fixture("graphs/petersen.col");
        check_compare(&Case {
            tool: TOOL,
            puzzle: vec!["--graph", &petersen, "--colors", "3"],
            configs: "bt+input,fc+mrv,mac+mrv",
            goal: "first",
            answer: 1,
        });
        // An explicit goal overrides the default: the 120 3-colourings of the Petersen graph.
        let counted = run(
            TOOL,
            &["--graph", &petersen, "--colors", "3", "--compare", "--goal", "count", "--configs", "fc+mrv,mac+domwdeg"],
        );
        assert_eq!(counted.code, 0, "{}", counted.stderr);
        assert!(table_rows(&counted.stdout).iter().all(|row| row["solutions"] == "120"), "{}", counted.stdout);
        let no_colours = run(TOOL, &["--compare", "--graph", &petersen]);
        assert_eq!(no_colours.code, 2);
        assert!(no_colours.stderr.contains("--graph needs --colors"), "{}", no_colours.stderr);
    }
}
