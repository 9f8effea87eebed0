//! `mzn-bench`: the MiniZinc Challenge instances with fzn-csp and Gecode,
//! scored with the Challenge's Borda rule. A benchmark, not a test.
//!
//! ```text
//! cargo run --release -p csp-flatzinc --bin mzn-bench -- [--years 2019,2020] [--problems accap,amaze]
//!     [--instances N] [--time-limit 60] [--jobs 1] [--results target/mzn-bench] [--solvers gecode]
//! ```
//!
//! Every instance of `../shared/data/minizinc/challenge/YEAR/PROBLEM/` (its
//! `.meta` files, else one model with each data file, else each model alone)
//! runs through MiniZinc with each solver on one thread (`-p 1`) under the
//! same time limit (MiniZinc's `--time-limit`, which counts compilation too;
//! the process is killed 30 s later). `--jobs 2` runs two at once on two
//! cores: faster, but the two runs share the machine, so the times (and the
//! time-split points) are noisier. Results are cached in
//! `RESULTS/cache.jsonl`, keyed by the solver's name and binary hash, the
//! instance and the limit: an interrupted run resumes, and a rebuilt fzn-csp
//! runs again. The report (Markdown on stdout) has a table per problem and the
//! totals, and lists every contradiction (a solution where the other solver
//! proved unsatisfiability, a better objective than the other's proved
//! optimum); `RESULTS/results.csv` and `results.json` hold every run.

mod score;

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser;
use csp_cli::app::{self, Io};

pub use score::{Answer, Method, borda, contradiction};

use crate::process;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "mzn-bench",
    about = "Runs the MiniZinc Challenge instances with fzn-csp and Gecode and scores them (Borda)."
)]
struct Cli {
    /// The challenge folder (YEAR/PROBLEM/ inside).
    #[arg(long, default_value = "../shared/data/minizinc/challenge")]
    challenge: PathBuf,
    /// Only these years (comma-separated).
    #[arg(long, value_delimiter = ',')]
    years: Vec<String>,
    /// Only the problems whose folder name contains one of these (comma-separated).
    #[arg(long, value_delimiter = ',')]
    problems: Vec<String>,
    /// At most this many instances per problem.
    #[arg(long)]
    instances: Option<usize>,
    /// Seconds per run (the same for both solvers).
    #[arg(long, default_value_t = 60)]
    time_limit: u64,
    /// Runs at once (2 uses both cores, and makes the times noisier).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Where the cache and the raw results go.
    #[arg(long, default_value = "target/mzn-bench")]
    results: PathBuf,
    /// The fzn-csp binary (default: the one beside this program).
    #[arg(long)]
    fzn_csp: Option<PathBuf>,
    /// Run only these solvers (`csp`, `gecode`; comma-separated): the other's
    /// cached results still make the report. Gecode's results do not depend
    /// on fzn-csp, so they can be gathered once, ahead of time.
    #[arg(long, value_delimiter = ',', value_parser = ["csp", "gecode"])]
    solvers: Vec<String>,
}

/// One instance: a model and its data.
#[derive(Clone, Debug)]
struct Instance {
    year: String,
    problem: String,
    name: String,
    model: PathBuf,
    data: Option<PathBuf>,
    /// From the `.meta` file, when there is one.
    method: Option<Method>,
}

impl Instance {
    fn id(&self) -> String {
        format!("{}/{}/{}", self.year, self.problem, self.name)
    }
}

/// A solver under test.
struct Contender {
    name: &'static str,
    msc: PathBuf,
    hash: u64,
}

/// One run's cached result.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Run {
    key: String,
    instance: String,
    solver: String,
    method: Method,
    answer: Answer,
}

/// The tool: see the module docs.
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let cli: Cli = app::parse(args, io)?;
    if !cli.challenge.is_dir() {
        writeln!(io.stderr, "mzn-bench: {} is absent: nothing to run", cli.challenge.display())?;
        return Ok(app::EXIT_OK);
    }
    process::which("minizinc").context("minizinc is not installed (apt-get install -y minizinc flatzinc)")?;
    let fzn_csp = match &cli.fzn_csp {
        Some(path) => path.clone(),
        None => {
            process::sibling_binary("fzn-csp").context("no fzn-csp beside mzn-bench: build it, or give --fzn-csp")?
        }
    };
    let scratch = process::scratch_dir("mzn-bench")?;
    let gecode_binary = process::which("fzn-gecode").context("fzn-gecode is not installed")?;
    let contenders = [
        Contender { name: "csp", msc: process::csp_solver(&scratch, &fzn_csp)?, hash: file_hash(&fzn_csp)? },
        Contender { name: "gecode", msc: process::gecode_solver(&scratch)?, hash: file_hash(&gecode_binary)? },
    ];
    let challenge = cli.challenge.canonicalize()?;
    let instances = discover(&cli, &challenge)?;
    std::fs::create_dir_all(&cli.results)?;
    let cache_path = cli.results.join("cache.jsonl");
    let mut cache: HashMap<String, Run> = std::fs::read_to_string(&cache_path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Run>(line).ok())
        .map(|run| (run.key.clone(), run))
        .collect();
    let limit = Duration::from_secs(cli.time_limit);
    let key = |contender: &Contender, instance: &Instance| {
        format!("{}:{:016x}:{}:{}s", contender.name, contender.hash, instance.id(), cli.time_limit)
    };
    let selected: Vec<(&Instance, &Contender)> = instances
        .iter()
        .flat_map(|i| contenders.iter().map(move |c| (i, c)))
        .filter(|(_, c)| cli.solvers.is_empty() || cli.solvers.iter().any(|s| s == c.name))
        .collect();
    let todo: Vec<(&Instance, &Contender)> =
        selected.iter().copied().filter(|(i, c)| !cache.contains_key(&key(c, i))).collect();
    writeln!(
        io.stderr,
        "mzn-bench: {} instances, {} runs to do ({} cached), {} s each, {} at once",
        instances.len(),
        todo.len(),
        selected.len() - todo.len(),
        cli.time_limit,
        cli.jobs
    )?;
    let mut cache_file = std::fs::OpenOptions::new().create(true).append(true).open(&cache_path)?;
    let mut done = 0;
    process::parallel(
        cli.jobs,
        &todo,
        |_, &(instance, contender)| Run {
            key: key(contender, instance),
            instance: instance.id(),
            solver: contender.name.to_string(),
            method: instance.method.unwrap_or_else(|| method_of(instance)),
            answer: run(contender, instance, limit),
        },
        |run| {
            writeln!(cache_file, "{}", serde_json::to_string(&run)?)?;
            done += 1;
            let a = &run.answer;
            let error = a.error.as_deref().map(|e| format!(" ({e})")).unwrap_or_default();
            writeln!(
                io.stderr,
                "[{done}/{}] {} {}: {} {:?} in {:.1} s{error}",
                todo.len(),
                run.solver,
                run.instance,
                a.status,
                a.objective,
                a.seconds
            )?;
            cache.insert(run.key.clone(), run);
            Ok(())
        },
    )?;
    let _ = std::fs::remove_dir_all(&scratch);

    let runs: Vec<[&Run; 2]> = instances
        .iter()
        .filter_map(|i| Some([cache.get(&key(&contenders[0], i))?, cache.get(&key(&contenders[1], i))?]))
        .collect();
    write_raw(&cli.results, &runs)?;
    let (markdown, contradictions) = report(&instances, &runs);
    io.stdout.write_all(markdown.as_bytes())?;
    Ok(if contradictions > 0 { app::EXIT_NO_SOLUTION } else { app::EXIT_OK })
}

/// FNV-1a over a file's bytes: the cache key of a solver binary.
fn file_hash(path: &Path) -> std::io::Result<u64> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)))
}

fn files_with(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for folder in [dir.to_path_buf(), dir.join("data")] {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn discover(cli: &Cli, challenge: &Path) -> anyhow::Result<Vec<Instance>> {
    let mut instances = Vec::new();
    let mut years: Vec<PathBuf> = std::fs::read_dir(challenge)?.flatten().map(|e| e.path()).collect();
    years.sort();
    for year_dir in years.iter().filter(|p| p.is_dir()) {
        let year = year_dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
        if !cli.years.is_empty() && !cli.years.contains(&year) {
            continue;
        }
        let mut problems: Vec<PathBuf> = std::fs::read_dir(year_dir)?.flatten().map(|e| e.path()).collect();
        problems.sort();
        for dir in problems.iter().filter(|p| p.is_dir()) {
            let problem = dir.file_name().unwrap_or_default().to_string_lossy().into_owned();
            if !cli.problems.is_empty() && !cli.problems.iter().any(|p| problem.contains(p.as_str())) {
                continue;
            }
            let mut found = instances_of(dir, &year, &problem);
            if let Some(limit) = cli.instances {
                found.truncate(limit);
            }
            instances.extend(found);
        }
    }
    Ok(instances)
}

/// A problem folder's instances: its `.meta` files (MODEL=, DATA=, METHOD=),
/// else its one model with each data file, else each model alone.
fn instances_of(dir: &Path, year: &str, problem: &str) -> Vec<Instance> {
    let instance = |name: String, model: PathBuf, data: Option<PathBuf>, method| Instance {
        year: year.to_string(),
        problem: problem.to_string(),
        name,
        model,
        data,
        method,
    };
    let metas = files_with(dir, &["meta"]);
    if !metas.is_empty() {
        return metas
            .iter()
            .filter_map(|meta| {
                let text = std::fs::read_to_string(meta).ok()?;
                let field = |name: &str| text.lines().find_map(|l| l.strip_prefix(name)).map(str::trim);
                let model = dir.join(field("MODEL=")?);
                let data = field("DATA=").filter(|d| !d.is_empty()).map(|d| {
                    let path = dir.join(d);
                    if path.exists() { path } else { dir.join("data").join(d) }
                });
                let method = match field("METHOD=") {
                    Some("min") => Some(Method::Minimize),
                    Some("max") => Some(Method::Maximize),
                    Some("sat") => Some(Method::Satisfy),
                    _ => None,
                };
                let name = meta.file_stem()?.to_string_lossy().into_owned();
                Some(instance(name, model, data, method))
            })
            .collect();
    }
    let models = files_with(dir, &["mzn"]);
    let data = files_with(dir, &["dzn", "json"]);
    match (models.as_slice(), data.is_empty()) {
        ([model], false) => data
            .into_iter()
            .map(|d| {
                instance(d.file_stem().unwrap_or_default().to_string_lossy().into_owned(), model.clone(), Some(d), None)
            })
            .collect(),
        _ => models
            .into_iter()
            .map(|m| instance(m.file_stem().unwrap_or_default().to_string_lossy().into_owned(), m, None, None))
            .collect(),
    }
}

/// The method, from MiniZinc's model interface (`satisfy` when it cannot tell).
fn method_of(instance: &Instance) -> Method {
    let mut command = std::process::Command::new("minizinc");
    command.arg("--model-interface-only").arg(&instance.model).args(&instance.data);
    let method = process::run(&mut command, Duration::from_secs(120))
        .ok()
        .and_then(|done| serde_json::from_str::<serde_json::Value>(&done.stdout).ok())
        .and_then(|json| json["method"].as_str().map(str::to_string));
    match method.as_deref() {
        Some("min") => Method::Minimize,
        Some("max") => Method::Maximize,
        _ => Method::Satisfy,
    }
}

/// One solver on one instance, through MiniZinc.
fn run(contender: &Contender, instance: &Instance, limit: Duration) -> Answer {
    let mut command = std::process::Command::new("minizinc");
    command.arg("--solver").arg(&contender.msc).args(["--json-stream", "--output-mode", "json"]);
    command.args(["--output-objective", "--output-time", "-i", "-p", "1", "--time-limit"]);
    command.arg(limit.as_millis().to_string()).arg(&instance.model).args(&instance.data);
    if let Some(dir) = instance.model.parent() {
        command.current_dir(dir);
    }
    let unanswered = |status: &str, error: Option<String>| Answer {
        status: status.to_string(),
        objective: None,
        solutions: 0,
        seconds: limit.as_secs_f64(),
        error,
    };
    let done = match process::run(&mut command, limit + Duration::from_secs(30)) {
        Ok(done) => done,
        Err(error) => return unanswered("ERROR", Some(error.to_string())),
    };
    let mut answer = unanswered("", None);
    let mut last_time = None;
    for line in done.stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        match message["type"].as_str() {
            Some("solution") => {
                answer.solutions += 1;
                answer.objective = message.pointer("/output/json/_objective").and_then(|o| o.as_i64());
                last_time = message["time"].as_f64().map(|ms| ms / 1e3);
            }
            Some("status") => answer.status = message["status"].as_str().unwrap_or_default().to_string(),
            Some("error") if answer.error.is_none() => answer.error = message["message"].as_str().map(str::to_string),
            _ => {}
        }
    }
    if done.killed {
        answer.status = "UNKNOWN".to_string();
    }
    if answer.status.is_empty() {
        answer.status = if answer.solutions > 0 { "SATISFIED" } else { "UNKNOWN" }.to_string();
    }
    if answer.status == "ERROR" || (done.code != Some(0) && !done.killed) {
        answer.status = "ERROR".to_string();
        let line = done.stderr.lines().find(|l| l.contains("rror") || l.contains("not supported")).map(str::trim);
        answer.error = answer.error.or(line.map(str::to_string));
    }
    let proved = matches!(answer.status.as_str(), "OPTIMAL_SOLUTION" | "UNSATISFIABLE" | "ALL_SOLUTIONS");
    answer.seconds = match (proved, last_time) {
        (true, _) => done.elapsed.as_secs_f64().min(limit.as_secs_f64()),
        (false, Some(time)) => time,
        (false, None) => limit.as_secs_f64(),
    };
    answer
}

fn write_raw(dir: &Path, runs: &[[&Run; 2]]) -> anyhow::Result<()> {
    let all: Vec<&Run> = runs.iter().flatten().copied().collect();
    std::fs::write(dir.join("results.json"), serde_json::to_string_pretty(&all)?)?;
    let mut csv = String::from("instance,method,solver,status,objective,solutions,seconds,error\n");
    for run in all {
        let a = &run.answer;
        let error = a.error.as_deref().unwrap_or("").replace('"', "'");
        let _ = writeln!(
            csv,
            "{},{:?},{},{},{},{},{:.3},\"{error}\"",
            run.instance,
            run.method,
            run.solver,
            a.status,
            a.objective.map(|o| o.to_string()).unwrap_or_default(),
            a.solutions,
            a.seconds
        );
    }
    std::fs::write(dir.join("results.csv"), csv)?;
    Ok(())
}

/// The Markdown report and the number of contradictions.
fn report(instances: &[Instance], runs: &[[&Run; 2]]) -> (String, usize) {
    #[derive(Default)]
    struct Row {
        instances: usize,
        points: [f64; 2],
        answered: [usize; 2],
        proved: [usize; 2],
        errors: [usize; 2],
        skipped: usize,
    }
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut contradictions = Vec::new();
    let mut not_run = Vec::new();
    for [a, b] in runs {
        let problem = a.instance.rsplit_once('/').map_or(a.instance.as_str(), |(p, _)| p).to_string();
        let row = rows.entry(problem).or_default();
        row.instances += 1;
        // The reference cannot run it (it does not compile under MiniZinc
        // 2.6.4, or Gecode fails): no points either way.
        if b.answer.status == "ERROR" {
            row.skipped += 1;
            not_run.push(format!("- `{}`: {}", a.instance, b.answer.error.as_deref().unwrap_or("error")));
            continue;
        }
        let method = a.method;
        let (pa, pb) = borda(&a.answer, &b.answer, method);
        row.points[0] += pa;
        row.points[1] += pb;
        for (i, answer) in [&a.answer, &b.answer].into_iter().enumerate() {
            row.answered[i] += usize::from(answer.solutions > 0 || answer.status == "UNSATISFIABLE");
            row.proved[i] +=
                usize::from(matches!(answer.status.as_str(), "OPTIMAL_SOLUTION" | "UNSATISFIABLE" | "ALL_SOLUTIONS"));
            row.errors[i] += usize::from(answer.status == "ERROR");
        }
        if let Some(why) = contradiction(&a.answer, &b.answer, method) {
            contradictions.push(format!("- `{}`: {why} (first: csp, second: gecode)", a.instance));
        }
    }
    let mut text = format!(
        "{} instances.\n\n| problem | instances | Gecode cannot run | csp points | gecode points | \
         csp solved / proved / errors | gecode solved / proved / errors |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        instances.len()
    );
    let mut total = Row::default();
    for (problem, row) in &rows {
        let _ = writeln!(
            text,
            "| {problem} | {} | {} | {:.2} | {:.2} | {} / {} / {} | {} / {} / {} |",
            row.instances,
            row.skipped,
            row.points[0],
            row.points[1],
            row.answered[0],
            row.proved[0],
            row.errors[0],
            row.answered[1],
            row.proved[1],
            row.errors[1]
        );
        total.instances += row.instances;
        total.skipped += row.skipped;
        for i in 0..2 {
            total.points[i] += row.points[i];
            total.answered[i] += row.answered[i];
            total.proved[i] += row.proved[i];
            total.errors[i] += row.errors[i];
        }
    }
    let _ = writeln!(
        text,
        "| **total** | {} | {} | {:.2} | {:.2} | {} / {} / {} | {} / {} / {} |",
        total.instances,
        total.skipped,
        total.points[0],
        total.points[1],
        total.answered[0],
        total.proved[0],
        total.errors[0],
        total.answered[1],
        total.proved[1],
        total.errors[1]
    );
    let _ = writeln!(text, "\nNot scored, Gecode cannot run them: {}", not_run.len());
    for line in &not_run {
        let _ = writeln!(text, "{line}");
    }
    let _ = writeln!(text, "\nContradictions: {}", contradictions.len());
    for line in &contradictions {
        let _ = writeln!(text, "{line}");
    }
    (text, contradictions.len())
}
