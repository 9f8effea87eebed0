//! `mzn-bench`: the MiniZinc Challenge instances with fzn-csp and Gecode,
//! scored with the Challenge's Borda rule. A benchmark, not a test.
//!
//! ```text
//! cargo run --release -p csp-flatzinc --bin mzn-bench -- [--years 2019,2020] [--problems accap,amaze]
//!     [--instances N] [--time-limit 60] [--cpu-timeout SECONDS] [--jobs 1] [--results target/mzn-bench]
//!     [--solvers gecode]
//! ```
//!
//! Every instance of `../shared/data/minizinc/challenge/YEAR/PROBLEM/` (its
//! `.meta` files, else one model with each data file, else each model alone)
//! runs through MiniZinc with each solver on one thread (`-p 1`; `csp-p2` on two) under the
//! same time limit (MiniZinc's `--time-limit`, which counts compilation too;
//! the process is killed 30 s later). `--cpu-timeout SECONDS` also gives
//! every fzn-csp run that much CPU time of its search thread (fzn-csp's own
//! `--cpu-timeout`); Gecode has no such limit (`fzn-gecode -time` is wall
//! time, and MiniZinc's `--time-limit` too), so with it the two sides are
//! not limited alike: fzn-csp stops at whichever comes first. `--jobs 2` runs two at once on two
//! cores: faster, but the two runs share the machine, so the times (and the
//! time-split points) are noisier. `--contenders` chooses who is scored
//! (default `csp,gecode`; also `csp-plain`, fzn-csp with `--no-learn`,
//! `csp-learn`, with `--learn`, the default search since learning became
//! fzn-csp's default, kept for the commands recorded in BENCHMARKS.md, and
//! `csp-free`, fzn-csp with `-f`, and `csp-p2`, fzn-csp's portfolio of two
//! workers, `-p 2`, the one contender given two threads, so that its CPU
//! time is up to twice its wall time): each contender scores the Borda points of
//! its pairings with every other one. Results are cached in
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
use csp_app::{self as app, Io};

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
    /// Also stop each fzn-csp run after this many seconds of its search
    /// thread's CPU time (fzn-csp's `--cpu-timeout`; fractions allowed).
    /// Gecode has only wall-clock limits: it is not given one.
    #[arg(long = "cpu-timeout", value_name = "SECONDS", value_parser = app::parse_seconds)]
    cpu_timeout: Option<Duration>,
    /// Runs at once (2 uses both cores, and makes the times noisier).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Where the cache and the raw results go.
    #[arg(long, default_value = "target/mzn-bench")]
    results: PathBuf,
    /// The fzn-csp binary (default: the one beside this program).
    #[arg(long)]
    fzn_csp: Option<PathBuf>,
    /// The contenders scored against each other (comma-separated): `csp`
    /// (fzn-csp as MiniZinc runs it: learning), `csp-plain` (with
    /// `--no-learn`), `csp-learn` (with `--learn`, the default search),
    /// `csp-free` (with `-f`, free search), `csp-p2` (a portfolio of two
    /// workers, `-p 2`: two threads), `gecode`.
    #[arg(long, value_delimiter = ',', default_value = "csp,gecode", value_parser = CONTENDERS)]
    contenders: Vec<String>,
    /// Run only these contenders (comma-separated): the others' cached
    /// results still make the report. Gecode's results do not depend on
    /// fzn-csp, so they can be gathered once, ahead of time.
    #[arg(long, value_delimiter = ',', value_parser = CONTENDERS)]
    solvers: Vec<String>,
}

/// The contenders `--contenders` and `--solvers` know.
const CONTENDERS: [&str; 6] = ["csp", "csp-plain", "csp-learn", "csp-free", "csp-p2", "gecode"];

/// The threads a contender of that name runs on (MiniZinc's `-p`): two for
/// the portfolio `csp-p2`, one for every other.
fn threads(name: &str) -> u32 {
    if name == "csp-p2" { 2 } else { 1 }
}

/// fzn-csp's flags for a contender of that name, with `--cpu-timeout` when
/// there is a CPU limit.
fn csp_flags(name: &str, cpu_timeout: Option<Duration>) -> Vec<String> {
    let search: &[&str] = match name {
        "csp-plain" => &["--no-learn"],
        "csp-learn" => &["--learn"],
        "csp-free" => &["-f"],
        _ => &[],
    };
    let mut flags: Vec<String> = search.iter().map(|flag| flag.to_string()).collect();
    if let Some(limit) = cpu_timeout {
        flags.extend(["--cpu-timeout".to_string(), limit.as_secs_f64().to_string()]);
    }
    flags
}

/// The part of a run's cache key that says its limits: the seconds of
/// `--time-limit`, and those of `--cpu-timeout` when the contender has one
/// (so that the keys of the runs without it are those of earlier versions).
fn limits_key(time_limit: u64, cpu_timeout: Option<Duration>) -> String {
    match cpu_timeout {
        Some(cpu) => format!("{time_limit}s:cpu{}s", cpu.as_secs_f64()),
        None => format!("{time_limit}s"),
    }
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
    name: String,
    msc: PathBuf,
    /// Passed to MiniZinc after `--solver`, which hands them to the solver.
    flags: Vec<String>,
    hash: u64,
    /// The CPU-time limit it is given (`--cpu-timeout`, fzn-csp only).
    cpu_timeout: Option<Duration>,
    /// MiniZinc's `-p`: the threads it may use.
    threads: u32,
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
    let mut contenders = Vec::new();
    for name in &cli.contenders {
        if contenders.iter().any(|c: &Contender| &c.name == name) {
            continue;
        }
        contenders.push(if name == "gecode" {
            let gecode_binary = process::which("fzn-gecode").context("fzn-gecode is not installed")?;
            Contender {
                name: name.clone(),
                msc: process::gecode_solver(&scratch)?,
                flags: Vec::new(),
                hash: file_hash(&gecode_binary)?,
                cpu_timeout: None,
                threads: threads(name),
            }
        } else {
            Contender {
                name: name.clone(),
                msc: process::csp_solver(&scratch, &fzn_csp)?,
                flags: csp_flags(name, cli.cpu_timeout),
                hash: file_hash(&fzn_csp)?,
                cpu_timeout: cli.cpu_timeout,
                threads: threads(name),
            }
        });
    }
    let challenge = cli.challenge.canonicalize()?;
    let instances = discover(&cli, &challenge)?;
    // Whether each instance minimises, maximises or satisfies, asked of
    // MiniZinc with csp's library (Debian's default solver, Gecode, cannot
    // read models that include globals.mzn); it overrides the cached runs'
    // method, which earlier versions of this tool got wrong that way.
    let interface = process::csp_solver(&scratch, &fzn_csp)?;
    let methods: HashMap<String, Method> =
        instances.iter().map(|i| (i.id(), i.method.unwrap_or_else(|| method_of(i, &interface)))).collect();
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
        let limits = limits_key(cli.time_limit, contender.cpu_timeout);
        format!("{}:{:016x}:{}:{limits}", contender.name, contender.hash, instance.id())
    };
    let selected: Vec<(&Instance, &Contender)> = instances
        .iter()
        .flat_map(|i| contenders.iter().map(move |c| (i, c)))
        .filter(|(_, c)| cli.solvers.is_empty() || cli.solvers.contains(&c.name))
        .collect();
    let todo: Vec<(&Instance, &Contender)> =
        selected.iter().copied().filter(|(i, c)| !cache.contains_key(&key(c, i))).collect();
    writeln!(
        io.stderr,
        "mzn-bench: {} instances, {} runs to do ({} cached), {} s each{}, {} at once",
        instances.len(),
        todo.len(),
        selected.len() - todo.len(),
        cli.time_limit,
        cli.cpu_timeout.map(|cpu| format!(" (fzn-csp: {} s of CPU time)", cpu.as_secs_f64())).unwrap_or_default(),
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
            solver: contender.name.clone(),
            method: methods[&instance.id()],
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

    // The instances every contender has run.
    let runs: Vec<Vec<&Run>> = instances
        .iter()
        .filter_map(|i| contenders.iter().map(|c| cache.get(&key(c, i))).collect::<Option<Vec<&Run>>>())
        .collect();
    write_raw(&cli.results, &methods, &runs)?;
    let names: Vec<&str> = contenders.iter().map(|c| c.name.as_str()).collect();
    let (markdown, contradictions) = report(&instances, &names, &methods, &runs);
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

/// The method, from MiniZinc's model interface with the solver configuration
/// `msc` (`satisfy` when it cannot tell).
fn method_of(instance: &Instance, msc: &Path) -> Method {
    let mut command = std::process::Command::new("minizinc");
    command.arg("--solver").arg(msc).arg("--model-interface-only").arg(&instance.model).args(&instance.data);
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
    command.arg("--solver").arg(&contender.msc).args(&contender.flags).args(["--json-stream", "--output-mode", "json"]);
    command.args(["--output-objective", "--output-time", "-i", "-p"]).arg(contender.threads.to_string());
    command.arg("--time-limit");
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
        let line = done.stderr.lines().find(|l| error_line(l)).map(str::trim);
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

/// Whether a line of MiniZinc's stderr says why a run failed: an error, a
/// feature not supported, or MiniZinc's own failed assertion (2.6.4 aborts
/// on 2021's peacable_queens: `flatten.cpp:1146: ... Assertion ... failed`,
/// which the report showed as an error without a reason).
fn error_line(line: &str) -> bool {
    line.contains("rror") || line.contains("not supported") || line.contains("Assertion")
}

fn write_raw(dir: &Path, methods: &HashMap<String, Method>, runs: &[Vec<&Run>]) -> anyhow::Result<()> {
    let all: Vec<Run> = runs
        .iter()
        .flatten()
        .map(|&run| Run { method: methods.get(&run.instance).copied().unwrap_or(run.method), ..run.clone() })
        .collect();
    std::fs::write(dir.join("results.json"), serde_json::to_string_pretty(&all)?)?;
    let mut csv = String::from("instance,method,solver,status,objective,solutions,seconds,error\n");
    for run in &all {
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

/// The Markdown report and the number of contradictions. `runs` holds, per
/// instance, one run of each contender of `names`, in that order.
fn report(
    instances: &[Instance],
    names: &[&str],
    methods: &HashMap<String, Method>,
    runs: &[Vec<&Run>],
) -> (String, usize) {
    #[derive(Clone, Default)]
    struct Row {
        instances: usize,
        points: Vec<f64>,
        answered: Vec<usize>,
        proved: Vec<usize>,
        errors: Vec<usize>,
        skipped: usize,
    }
    let n = names.len();
    let empty =
        Row { points: vec![0.0; n], answered: vec![0; n], proved: vec![0; n], errors: vec![0; n], ..Row::default() };
    let reference = names.iter().position(|&name| name == "gecode");
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut contradictions = Vec::new();
    let mut not_run = Vec::new();
    for instance_runs in runs {
        let Some(first) = instance_runs.first() else { continue };
        let problem = first.instance.rsplit_once('/').map_or(first.instance.as_str(), |(p, _)| p).to_string();
        let row = rows.entry(problem).or_insert_with(|| empty.clone());
        row.instances += 1;
        // The reference cannot run it (it does not compile under MiniZinc
        // 2.6.4, or Gecode fails): no points for anyone.
        if let Some(gecode) = reference.map(|r| instance_runs[r]).filter(|g| g.answer.status == "ERROR") {
            row.skipped += 1;
            not_run.push(format!("- `{}`: {}", first.instance, gecode.answer.error.as_deref().unwrap_or("error")));
            continue;
        }
        let method = methods.get(&first.instance).copied().unwrap_or(first.method);
        for (i, a) in instance_runs.iter().enumerate() {
            for (j, b) in instance_runs.iter().enumerate().skip(i + 1) {
                let (pa, pb) = borda(&a.answer, &b.answer, method);
                row.points[i] += pa;
                row.points[j] += pb;
                if let Some(why) = contradiction(&a.answer, &b.answer, method) {
                    contradictions
                        .push(format!("- `{}`: {why} (first: {}, second: {})", first.instance, names[i], names[j]));
                }
            }
            let answer = &a.answer;
            row.answered[i] += usize::from(answer.solutions > 0 || answer.status == "UNSATISFIABLE");
            row.proved[i] +=
                usize::from(matches!(answer.status.as_str(), "OPTIMAL_SOLUTION" | "UNSATISFIABLE" | "ALL_SOLUTIONS"));
            row.errors[i] += usize::from(answer.status == "ERROR");
        }
    }
    let mut text =
        format!("{} instances; every contender scores its Borda points against each other one.\n\n", instances.len());
    text.push_str("| problem | instances | Gecode cannot run |");
    for name in names {
        let _ = write!(text, " {name} points |");
    }
    for name in names {
        let _ = write!(text, " {name} solved / proved / errors |");
    }
    text.push_str("\n| --- | ---: | ---: |");
    text.push_str(&" ---: |".repeat(2 * n));
    text.push('\n');
    let line = |text: &mut String, label: &str, row: &Row| {
        let _ = write!(text, "| {label} | {} | {} |", row.instances, row.skipped);
        for points in &row.points {
            let _ = write!(text, " {points:.2} |");
        }
        for i in 0..n {
            let _ = write!(text, " {} / {} / {} |", row.answered[i], row.proved[i], row.errors[i]);
        }
        text.push('\n');
    };
    let mut total = empty.clone();
    for (problem, row) in &rows {
        line(&mut text, problem, row);
        total.instances += row.instances;
        total.skipped += row.skipped;
        for i in 0..n {
            total.points[i] += row.points[i];
            total.answered[i] += row.answered[i];
            total.proved[i] += row.proved[i];
            total.errors[i] += row.errors[i];
        }
    }
    line(&mut text, "**total**", &total);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cpu_limit_is_passed_to_fzn_csp_and_keys_its_runs_apart() {
        assert_eq!(csp_flags("csp", None), Vec::<String>::new());
        assert_eq!(csp_flags("csp-plain", Some(Duration::from_millis(2500))), ["--no-learn", "--cpu-timeout", "2.5"]);
        assert_eq!(csp_flags("csp-free", Some(Duration::from_secs(10))), ["-f", "--cpu-timeout", "10"]);
        assert!(error_line("minizinc: ./lib/flatten.cpp:1146: bool ...: Assertion `t1 == t2' failed."));
        assert!(!error_line("% Generated FlatZinc statistics:"));
        // The portfolio: fzn-csp's own flags, two threads through MiniZinc's `-p`.
        assert_eq!(csp_flags("csp-p2", None), Vec::<String>::new());
        assert_eq!(CONTENDERS.map(threads), [1, 1, 1, 1, 2, 1]);
        // Without it, the keys of earlier versions: their cache stays valid.
        assert_eq!(limits_key(60, None), "60s");
        assert_eq!(limits_key(60, Some(Duration::from_secs(30))), "60s:cpu30s");
        // Through the tool's own command line (app::parse's), which takes negative numbers as values.
        let parse = |args: [&str; 3]| {
            use clap::{CommandFactory as _, FromArgMatches as _};
            app::standard(Cli::command()).try_get_matches_from(args).and_then(|m| Cli::from_arg_matches(&m))
        };
        let cli = parse(["mzn-bench", "--cpu-timeout", "0.5"]).unwrap();
        assert_eq!(cli.cpu_timeout, Some(Duration::from_millis(500)));
        for bad in ["-1", "soon", "inf"] {
            let error = parse(["mzn-bench", "--cpu-timeout", bad]).unwrap_err().to_string();
            assert!(error.contains("--cpu-timeout") && error.contains(bad), "{error}");
        }
    }

    fn run(solver: &str, status: &str, objective: Option<i64>, seconds: f64) -> Run {
        Run {
            key: String::new(),
            instance: "2021/p/i".to_string(),
            solver: solver.to_string(),
            // Cached as the old tool guessed it: the report's method wins.
            method: Method::Satisfy,
            answer: Answer {
                status: status.to_string(),
                objective,
                solutions: u64::from(objective.is_some()),
                seconds,
                error: None,
            },
        }
    }

    #[test]
    fn every_contender_scores_against_every_other_with_the_method_found_now() {
        let instance = Instance {
            year: "2021".to_string(),
            problem: "p".to_string(),
            name: "i".to_string(),
            model: PathBuf::from("p.mzn"),
            data: None,
            method: None,
        };
        let runs = [
            run("csp", "SATISFIED", Some(10), 1.0),
            run("csp-learn", "OPTIMAL_SOLUTION", Some(8), 2.0),
            run("gecode", "SATISFIED", Some(12), 3.0),
        ];
        let methods = HashMap::from([("2021/p/i".to_string(), Method::Minimize)]);
        let (text, contradictions) =
            report(&[instance], &["csp", "csp-learn", "gecode"], &methods, &[runs.iter().collect()]);
        assert_eq!(contradictions, 0, "{text}");
        // The proof beats both, 10 beats 12: 1, 2 and 0 points (as a
        // satisfaction problem, the fastest solution would have won).
        assert!(text.contains("| 2021/p | 1 | 0 | 1.00 | 2.00 | 0.00 | 1 / 0 / 0 | 1 / 1 / 0 | 1 / 0 / 0 |"), "{text}");
        let wrong = [run("csp", "SATISFIED", Some(7), 1.0), runs[1].clone()];
        let (text, contradictions) = report(&[], &["csp", "csp-learn"], &methods, &[wrong.iter().collect()]);
        assert_eq!(contradictions, 1, "{text}");
        assert!(text.contains("(first: csp, second: csp-learn)"), "{text}");
    }
}
