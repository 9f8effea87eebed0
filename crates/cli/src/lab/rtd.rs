//! `lab rtd`: the run-time distribution of randomised configurations on one
//! instance. Run `i` of each configuration uses `seed=i`, so a configuration
//! with random choices (the `random` value order) explores a different tree
//! each time. Gomes, Selman, Crato & Kautz (2000) found such distributions
//! heavy-tailed near the phase transition: the survival function `P(X > x)`
//! falls like a power of `x`, a straight line on log-log axes, and restarts
//! pay off. The plot draws exactly that, per configuration.

use std::io::Write;

use anyhow::Context as _;
use csp::SolveConfig;
use rayon::prelude::*;

use super::RtdArgs;
use super::stats::{Estimate, Sample, Summary};
use super::sweep_report::estimate;
use crate::report::compare::{CompareOptions, Goal, Measurement, Repeats, check_agreement, measure};
use crate::report::plot::{self, Axis, Series, XyChart};
use crate::report::{self, Cell, Report, Table, millis};
use crate::{EXIT_BAD_INPUT, EXIT_NO_SOLUTION, EXIT_OK};

/// The runs of every configuration on one instance.
#[derive(Clone, Debug)]
pub(super) struct Distribution {
    /// The instance's name.
    pub(super) instance: String,
    /// The configurations, in order, each with its runs in seed order (seed `i + 1` at index `i`).
    pub(super) configs: Vec<(SolveConfig, Vec<Measurement>)>,
}

pub(super) fn run(args: &RtdArgs, out: &mut dyn Write, err: &mut dyn Write) -> anyhow::Result<u8> {
    let built = args.instance.build().and_then(|(generator, model)| {
        let pool = args.limits.thread_pool()?;
        if let Some(path) = &args.plot {
            report::plot::check_destination("the plot", path).map_err(|e| format!("{e:#}"))?;
        }
        Ok((generator, model, pool))
    });
    let (generator, model, pool) = match built {
        Ok(built) => built,
        Err(error) => {
            let _ = writeln!(err, "error: {error}");
            return Ok(EXIT_BAD_INPUT);
        }
    };
    let provenance = report::provenance::Provenance::start();
    let instance = format!("{generator} seed {}", args.instance.seed);
    let configs = args.configs_to_run();
    let options = CompareOptions { goal: Goal::First, repeats: Repeats::Exactly(1), limits: args.limits.limits() };
    let runs = u64::from(args.runs);
    let jobs: Vec<(usize, u64)> = (0..configs.len()).flat_map(|c| (1..=runs).map(move |seed| (c, seed))).collect();
    let measured: Result<Vec<Measurement>, _> = pool.install(|| {
        jobs.par_iter()
            .with_max_len(1)
            .map(|&(c, seed)| measure(&instance, &model, &configs[c].clone().with_seed(seed), &options))
            .collect()
    });
    let mut measured = match measured {
        Ok(measured) => measured,
        Err(error) => return Ok(report::report_failure(&error, err)),
    };
    if let Err(error) = check_agreement(&instance, Goal::First, &measured) {
        report::report_bug(&error, err);
        return Ok(EXIT_NO_SOLUTION);
    }
    let mut runs_of = Vec::with_capacity(configs.len());
    for config in configs.iter().rev() {
        let tail = measured.split_off(measured.len() - runs as usize);
        runs_of.push((config.clone(), tail));
    }
    runs_of.reverse();
    let distribution = Distribution { instance, configs: runs_of };
    if let Some(path) = &args.plot {
        if let Err(error) = plot::xy_chart(&distribution.survival()).and_then(|svg| plot::write_svg(path, &svg)) {
            let _ = writeln!(err, "error: {error:#}");
            return Ok(EXIT_BAD_INPUT);
        }
    }
    report::write_cited_report(&distribution, args.format, &provenance, out)
        .and_then(|()| out.flush())
        .context("cannot write the table")?;
    for config in configs.iter().filter(|_| args.quiet.notes()) {
        if !config.draws_at_random() {
            let _ = writeln!(
                err,
                "note: {config} makes no random choice: its {runs} runs are the same search (add +random)"
            );
        }
    }
    if args.quiet.notes() {
        report::write_inert_notes(&[&model], &configs, err);
        if args.learn {
            report::write_no_twin_notes(&args.configs, err);
        }
    }
    Ok(EXIT_OK)
}

impl RtdArgs {
    /// `--configs`, each followed by its learning twin with `--learn`.
    fn configs_to_run(&self) -> Vec<SolveConfig> {
        if !self.learn {
            return self.configs.clone();
        }
        report::with_learning_twins(&self.configs, |config| config, |_, twin| twin)
    }
}

impl Distribution {
    /// Whether a configuration learns: the tables then have the nogoods learnt.
    fn learns(&self) -> bool {
        self.configs.iter().any(|(config, _)| config.learning())
    }

    /// The nodes of each run, those a limit stopped as lower bounds.
    fn nodes(runs: &[Measurement]) -> Vec<Sample> {
        runs.iter().map(|m| Sample { value: m.stats.nodes as f64, lower_bound: !m.is_complete() }).collect()
    }

    /// The survival plot: per configuration, the fraction of runs still
    /// going after `x` nodes, both axes logarithmic. A run a limit stopped
    /// never finishes, so its configuration's curve ends above zero.
    pub(super) fn survival(&self) -> XyChart {
        let series = self
            .configs
            .iter()
            .map(|(config, runs)| {
                let total = runs.len() as f64;
                let mut finished: Vec<f64> =
                    runs.iter().filter(|m| m.is_complete()).map(|m| m.stats.nodes as f64).collect();
                finished.sort_by(f64::total_cmp);
                let mut points = Vec::with_capacity(finished.len() + 1);
                if let Some(&first) = finished.first() {
                    points.push((first, 1.0));
                }
                for (i, &nodes) in finished.iter().enumerate() {
                    points.push((nodes, (total - (i + 1) as f64) / total));
                }
                Series::new(config.to_string(), points)
            })
            .collect();
        let runs = self.configs.first().map_or(0, |(_, runs)| runs.len());
        XyChart {
            title: format!("run-time distribution: {runs} seeds per configuration, one instance"),
            x_axis: Axis::log("nodes"),
            y_axis: Axis::log("fraction of runs not finished (survival)"),
            series,
            steps: true,
        }
    }
}

impl Report for Distribution {
    fn tables(&self) -> Vec<Table> {
        let runs = self.configs.first().map_or(0, |(_, runs)| runs.len());
        let mut columns = vec![
            "config",
            "runs",
            "finished",
            "nodes p10",
            "q1",
            "median",
            "q3",
            "p90",
            "max",
            "mean",
            "cpu_ms median",
        ];
        if self.learns() {
            columns.push("learnt median");
        }
        let mut table = Table::new(columns).with_title(format!(
            "run-time distribution on instance '{}': {runs} runs per configuration (seeds 1 to {runs}); nodes, \
             >= a lower bound (a limit stopped runs)",
            self.instance
        ));
        for (config, measurements) in &self.configs {
            let nodes = Summary::of(&Self::nodes(measurements));
            let cpu: Vec<Sample> = measurements
                .iter()
                .map(|m| Sample { value: millis(m.cpu_time.unwrap_or(m.time)), lower_bound: !m.is_complete() })
                .collect();
            let max = measurements.iter().map(|m| m.stats.nodes).max().unwrap_or(0);
            let bound = |e: Estimate| Cell::text(estimate(e));
            let limited = measurements.iter().any(|m| !m.is_complete());
            let mut row = vec![
                Cell::text(config.to_string()),
                Cell::Int(measurements.len() as u64),
                Cell::Int(measurements.iter().filter(|m| m.is_complete()).count() as u64),
                bound(nodes.p10),
                bound(nodes.q1),
                bound(nodes.median),
                bound(nodes.q3),
                bound(nodes.p90),
                bound(Estimate { value: max as f64, lower_bound: limited }),
                bound(nodes.mean),
                bound(Summary::of(&cpu).median),
            ];
            if self.learns() {
                let learnt: Vec<Sample> = measurements
                    .iter()
                    .map(|m| Sample { value: m.stats.learnt as f64, lower_bound: !m.is_complete() })
                    .collect();
                row.push(bound(Summary::of(&learnt).median));
            }
            table.push(row);
        }
        vec![table]
    }

    fn records(&self) -> Table {
        let learns = self.learns();
        let mut columns = vec!["config", "seed", "solved", "limited", "nodes", "checks", "failures", "backtracks"];
        if learns {
            columns.push("learnt");
        }
        columns.extend(["cpu_ms", "time_ms"]);
        let mut table = Table::new(columns);
        for (config, measurements) in &self.configs {
            for (i, m) in measurements.iter().enumerate() {
                let mut row = vec![
                    Cell::text(config.to_string()),
                    Cell::Int(i as u64 + 1),
                    Cell::Int(u64::from(m.solved)),
                    Cell::Int(u64::from(m.is_limited())),
                    Cell::Int(m.stats.nodes),
                    Cell::Int(m.stats.checks),
                    Cell::Int(m.stats.failures),
                    Cell::Int(m.stats.backtracks),
                ];
                if learns {
                    row.push(Cell::Int(m.stats.learnt));
                }
                row.extend([
                    m.cpu_time.map_or(Cell::Empty, |cpu| Cell::Float(millis(cpu), 3)),
                    Cell::Float(millis(m.time), 3),
                ]);
                table.push(row);
            }
        }
        table
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "instance": self.instance,
            "summary": self.tables()[0].records(),
            "runs": self.records().records(),
        })
    }
}
