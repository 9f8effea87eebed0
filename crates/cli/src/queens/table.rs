//! `queens --table`: nodes and time to the first solution for every variable
//! ordering of interest and every propagation level, on several board sizes,
//! as a Markdown table (the default, one row written as soon as it is known),
//! CSV or JSON (one record per ordering, level and size).

use std::fmt::Write as _;
use std::io::Write;

use anyhow::{Context as _, bail};
use csp::{AllDifferentStrength, Limit, Outcome, Propagation, SolveConfig, Solver, ValueOrder, VarOrder};
use csp_queens::{DEFAULT_SEED, Queens};

use super::{Cli, Format, MAX_BACKTRACKING_N, parse_n};
use crate::EXIT_OK;

/// The board sizes of `--table` when `--sizes` is not given.
const TABLE_SIZES: [usize; 4] = [8, 20, 50, 100];

/// The node limit of `--table` when `--node-limit` is not given.
const TABLE_NODE_LIMIT: u64 = 1_000_000;

/// The variable orderings of the table: the static one and the two dynamic
/// ones that matter for queens (the others order rows like MRV).
const ORDERINGS: [VarOrder; 3] = [VarOrder::Input, VarOrder::Mrv, VarOrder::DomWdeg];

/// The columns of the CSV and JSON records.
const COLUMNS: [&str; 6] = ["ordering", "propagation", "n", "outcome", "nodes", "time_ms"];

/// One search of the table: an ordering and a level on one board.
struct Run {
    outcome: &'static str,
    nodes: u64,
    /// Milliseconds.
    time: f64,
}

impl Run {
    /// The Markdown cell.
    fn cell(&self) -> String {
        match self.outcome {
            "solved" => format!("{} nodes, {:.2} ms", self.nodes, self.time),
            "unsatisfiable" => format!("no solution ({} nodes)", self.nodes),
            limit => format!("limit ({limit}, {:.0} ms)", self.time),
        }
    }

    /// The record's values after the ordering, the level and N.
    fn csv_fields(&self) -> String {
        format!("{},{},{:.3}", self.outcome, self.nodes, self.time)
    }

    /// Milliseconds rounded to microseconds, as a JSON number.
    fn json_time(&self) -> serde_json::Value {
        serde_json::Number::from_f64((self.time * 1e3).round() / 1e3).map_or(serde_json::Value::Null, Into::into)
    }
}

/// Runs the table and writes it to `out` in the format of `--output`.
pub(super) fn table(cli: &Cli, out: &mut dyn Write) -> anyhow::Result<u8> {
    let s = &cli.strategy;
    if s.propagation.is_some() || s.var_order.is_some() {
        bail!("--table tries every propagation level and variable ordering; leave out --propagation and --var-order");
    }
    if cli.n.is_some() || cli.count || cli.all || cli.limit.is_some() {
        bail!("--table takes no N, --count, --all or --limit (use --sizes)");
    }
    let format = match cli.output {
        None | Some(Format::Markdown) => Format::Markdown,
        Some(format @ (Format::Csv | Format::Json)) => format,
        Some(other) => bail!("--table is written as markdown, csv or json, not {}", other.name()),
    };
    let sizes = if cli.sizes.is_empty() {
        TABLE_SIZES.to_vec()
    } else {
        cli.sizes.iter().map(|text| parse_n(text, false, MAX_BACKTRACKING_N)).collect::<anyhow::Result<Vec<_>>>()?
    };
    let defaults = SolveConfig::default()
        .with_value_order(ValueOrder::Ascending)
        .with_all_different(AllDifferentStrength::Pairwise)
        .with_seed(DEFAULT_SEED);
    let mut base = s.config(&defaults);
    // The shared options leave the node limit unset when --node-limit is absent.
    base.limits.nodes = Some(s.node_limit.unwrap_or(TABLE_NODE_LIMIT));
    let node_limit = base.limits.nodes.map_or("none".to_string(), |n| n.to_string());
    let models = sizes.iter().map(|&n| Queens::new(n)).collect::<Result<Vec<_>, _>>()?;

    match format {
        Format::Markdown => {
            let mut header = String::from("| ordering | propagation |");
            let mut rule = String::from("| --- | --- |");
            for n in &sizes {
                write!(header, " N = {n} |")?;
                rule.push_str(" ---: |");
            }
            writeln!(out, "{header}\n{rule}")?;
        }
        Format::Csv => writeln!(out, "{}", COLUMNS.join(","))?,
        _ => {}
    }
    let mut records = Vec::new();
    for var_order in ORDERINGS {
        for propagation in Propagation::ALL.iter().copied() {
            let config = base.clone().with_var_order(var_order).with_propagation(propagation);
            let runs =
                models.iter().map(|queens| first_solution(queens, config.clone())).collect::<Result<Vec<_>, _>>()?;
            match format {
                Format::Markdown => {
                    let mut row = format!("| {var_order} | {propagation} |");
                    for run in &runs {
                        write!(row, " {} |", run.cell())?;
                    }
                    writeln!(out, "{row}")?;
                }
                Format::Csv => {
                    for (n, run) in sizes.iter().zip(&runs) {
                        writeln!(out, "{var_order},{propagation},{n},{}", run.csv_fields())?;
                    }
                }
                _ => records.extend(sizes.iter().zip(&runs).map(|(n, run)| {
                    serde_json::json!({
                        "ordering": var_order.to_string(),
                        "propagation": propagation.to_string(),
                        "n": n,
                        "outcome": run.outcome,
                        "nodes": run.nodes,
                        "time_ms": run.json_time(),
                    })
                })),
            }
            // Each row takes up to seconds: show it as soon as it is known.
            out.flush()?;
        }
    }
    match format {
        Format::Markdown => writeln!(
            out,
            "\nvalues {}, all-different {}, node limit {node_limit}",
            base.value_order, base.all_different
        )?,
        Format::Json => {
            let document = serde_json::json!({
                "value_order": base.value_order.to_string(),
                "all_different": base.all_different.to_string(),
                "node_limit": base.limits.nodes,
                "sizes": sizes,
                "runs": records,
            });
            serde_json::to_writer_pretty(&mut *out, &document)?;
            writeln!(out)?;
        }
        _ => {}
    }
    Ok(EXIT_OK)
}

/// The first solution of `queens` under `config`, checked.
fn first_solution(queens: &Queens, config: SolveConfig) -> anyhow::Result<Run> {
    let mut solver = Solver::new(queens.model(), config)?;
    let outcome = solver.solve();
    let stats = solver.stats();
    let (nodes, time) = (stats.nodes, stats.elapsed.as_secs_f64() * 1e3);
    let outcome = match outcome {
        Outcome::Solved(solution) => {
            csp_queens::verify(queens.columns(&solution)).context("internal error")?;
            "solved"
        }
        Outcome::Unsatisfiable => "unsatisfiable",
        Outcome::LimitReached(Limit::Nodes) => "node limit",
        Outcome::LimitReached(Limit::Time) => "time limit",
        Outcome::LimitReached(Limit::CpuTime) => "CPU time limit",
        Outcome::LimitReached(Limit::Stopped) => "stopped",
        Outcome::LimitReached(Limit::Solutions) => "solution limit",
    };
    Ok(Run { outcome, nodes, time })
}
