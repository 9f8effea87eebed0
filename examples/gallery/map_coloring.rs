//! Map colouring: neighbouring regions get different colours. The built-in map is
//! Australia's seven regions with three colours (18 colourings); `--graph FILE` reads
//! any graph in DIMACS `.col` format, so the standard colouring benchmarks load as
//! they are.
//!
//! The model is the textbook one: a variable per region with the colours `1..=K` as
//! its domain, and `not_equal` on every border.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser};
use csp::{Model, ModelError, SolveConfig, VarId};

use super::CommonArgs;
use super::compare::CompareSpec;
use super::dimacs::{self, Graph};
use csp_cli::report::{CompareArgs, GoalArg, run_comparison};

/// Australia's mainland states and territories, and Tasmania.
pub const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];

/// Their borders (Tasmania has none).
pub const BORDERS: [(&str, &str); 9] = [
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
pub fn australia() -> Graph {
    let index = |name: &str| REGIONS.iter().position(|&r| r == name).expect("a region");
    let edges = BORDERS.iter().map(|&(a, b)| (index(a).min(index(b)), index(a).max(index(b)))).collect::<Vec<_>>();
    Graph { vertices: REGIONS.len(), declared_edges: edges.len(), edges }
}

/// The colouring model: one variable per vertex (named by `names`, or `v1`, `v2`, ...
/// after the file's numbering) over the colours `1..=colours`, and `not_equal` on
/// every edge.
pub fn model(graph: &Graph, colours: u32, names: Option<&[&str]>) -> Result<(Model, Vec<VarId>), ModelError> {
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
pub fn greedy_clique(graph: &Graph) -> Vec<usize> {
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
pub fn verify(graph: &Graph, colours: u32, colouring: &[i64]) -> Result<(), String> {
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

/// The configuration used unless options say otherwise: the defaults, arc
/// consistency with MRV. On the shared benchmark graphs MRV finds colourings fastest
/// (`queen8_8` with 9 colours: 25,000 nodes and 0.1 s, where MRV with degree ties,
/// dom/deg and dom/wdeg have not found one after 10 s); dom/deg proves
/// "not `k`-colourable" in fewer nodes (`myciel4` with 4 colours: 1,900 nodes against
/// 8,800), so try `--var-order dom-deg` for proofs.
pub fn default_config() -> SolveConfig {
    SolveConfig::default()
}

#[derive(Debug, Parser)]
#[command(
    name = "map_coloring",
    about = "Colours the map of Australia, or any graph in DIMACS .col format, so that neighbours differ."
)]
struct Cli {
    #[command(flatten)]
    map: MapArgs,
    #[command(flatten)]
    common: CommonArgs,
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

/// A map to colour, as the options say, and its model.
struct Instance {
    /// `Australia, 3 colours` or `FILE, K colours`.
    name: String,
    graph: Graph,
    colours: u32,
    /// The regions' names (Australia's), or `None` for a graph's numbered vertices.
    names: Option<&'static [&'static str]>,
    model: Model,
    vars: Vec<VarId>,
}

impl MapArgs {
    /// Reads the graph (warning on `stderr` when its header announces another
    /// number of edges) and builds the model.
    fn instance(&self, stderr: &mut dyn Write) -> anyhow::Result<Instance> {
        let (graph, colours, names, what) = match &self.graph {
            None => (australia(), self.colors.unwrap_or(3), Some(&REGIONS as &[&str]), "Australia".to_string()),
            Some(path) => {
                let Some(colours) = self.colors else {
                    anyhow::bail!("--graph needs --colors K, the number of colours to use");
                };
                let graph = dimacs::parse(&super::read_input(path)?, &path.display().to_string())?;
                if graph.declared_edges != graph.edges.len() {
                    writeln!(
                        stderr,
                        "warning: {}: the 'p' line announces {} edges, the file lists {} different ones",
                        path.display(),
                        graph.declared_edges,
                        graph.edges.len()
                    )?;
                }
                (graph, colours, None, path.display().to_string())
            }
        };
        let (mut model, vars) = model(&graph, colours, names)?;
        if self.clique {
            let clique = greedy_clique(&graph);
            if clique.len() > 2 {
                let members: Vec<VarId> = clique.iter().map(|&v| vars[v]).collect();
                let id = model.all_different(&members)?;
                model.set_label(id, format!("a clique of {} vertices", clique.len()))?;
            }
        }
        let noun = if colours == 1 { "colour" } else { "colours" };
        let clique = if self.clique { ", clique" } else { "" };
        Ok(Instance { name: format!("{what}, {colours} {noun}{clique}"), graph, colours, names, model, vars })
    }
}

/// What `map_coloring --compare` does by default: count Australia's 18
/// colourings, look for one colouring of a graph (benchmark graphs have far too
/// many to count).
const COMPARE: CompareSpec<MapArgs> = CompareSpec {
    name: "map_coloring",
    what: "a map or graph colouring",
    goal: |map| if map.graph.is_none() { GoalArg::Count } else { GoalArg::First },
    goal_help: "count for Australia, first with --graph",
    configs: csp_cli::report::DEFAULT_CONFIGS,
};

/// The tool: `map_coloring [--graph FILE --colors K] [--count] [--stats] [strategy options]`,
/// or `map_coloring [--graph FILE --colors K] --compare [--configs LIST] [comparison options]`.
pub fn run(args: Vec<OsString>, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    super::compare::run_tool::<Cli, MapArgs>(args, &COMPARE, stdout, stderr, body, compare)
}

fn compare(map: &MapArgs, args: &CompareArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<u8> {
    let instance = map.instance(stderr)?;
    Ok(run_comparison(&[(&instance.name, &instance.model)], args, stdout, stderr))
}

fn body(cli: &Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> anyhow::Result<u8> {
    let config = cli.common.strategy.config(&default_config());
    let Instance { graph, colours, names, model, vars, .. } = cli.map.instance(stderr)?;
    super::solve_and_show(&model, config, &cli.common, stdout, |solution, out| {
        let colouring: Vec<i64> = vars.iter().map(|&v| solution[v]).collect();
        verify(&graph, colours, &colouring)
            .map_err(|e| anyhow::anyhow!("internal error: the colouring is wrong: {e}"))?;
        let colour_name = |c: i64| match COLOUR_NAMES.get((c - 1) as usize) {
            Some(name) if colours as usize <= COLOUR_NAMES.len() => (*name).to_string(),
            _ => format!("colour {c}"),
        };
        match names {
            Some(names) => {
                let width = names.iter().map(|n| n.len()).max().unwrap_or(0);
                for (name, &c) in names.iter().zip(&colouring) {
                    writeln!(out, "{name:<width$} {}", colour_name(c))?;
                }
            }
            None => {
                writeln!(
                    out,
                    "{} vertices, {} edges, {colours} colours; the vertices of each colour:",
                    graph.vertices,
                    graph.edges.len()
                )?;
                for c in 1..=i64::from(colours) {
                    let members: Vec<String> =
                        (0..graph.vertices).filter(|&v| colouring[v] == c).map(|v| (v + 1).to_string()).collect();
                    writeln!(out, "{}: {}", colour_name(c), members.join(" "))?;
                }
            }
        }
        Ok(())
    })
}
