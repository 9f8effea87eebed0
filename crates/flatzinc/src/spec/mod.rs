//! `mzn-spec`: MiniZinc's own specification tests, run through fzn-csp.
//!
//! ```text
//! cargo run --release -p csp-flatzinc --bin mzn-spec -- [--spec DIR] [--filter TEXT] [--jobs N] [--json FILE]
//! ```
//!
//! Each `.mzn` of the spec folder (default `../shared/data/minizinc/spec`)
//! that starts with a YAML header holds one or more `!Test`s. Each test is:
//!
//! - **skipped** when it is not about a solver (a compiler test, an expected
//!   MiniZinc error, an option `-G` that replaces the solver's library), uses
//!   an option or an expected value this runner does not know, does not
//!   compile under MiniZinc 2.6.4, needs float or set variables, or when
//!   MiniZinc 2.6.4 with Gecode gives the same unexpected answer as with
//!   fzn-csp (the test expects a newer MiniZinc);
//! - **unsupported** when fzn-csp stops with its clear error (a builtin it
//!   does not lower, optimisation of a kind it cannot do);
//! - **pass** when MiniZinc's result through fzn-csp matches an expected
//!   result;
//! - **other solution, checked** when it does not, but Gecode accepts every
//!   solution fzn-csp gave as a solution of the model (many tests list the
//!   solutions of one solver's search), or gives the same solution itself
//!   (MiniZinc 2.6.4 sometimes compiles a model with a solution as data
//!   differently from the model alone);
//! - **fail** otherwise: a wrong answer, a wrong status, a crash, a time
//!   limit. Every failure is a bug or a documented gap.
//!
//! The report is Markdown on stdout (a table per folder, the unsupported
//! builtins by the number of tests they block, the failures); progress goes to
//! stderr; `--json FILE` writes every test's outcome. The exit status is 1
//! when a test failed.

mod compare;
mod header;
mod literal;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context as _;
use clap::Parser;
use csp_app::{self as app, Io};
use serde_yaml::Value as Yaml;

use crate::process;
use compare::Obtained;
use header::SpecTest;

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "mzn-spec",
    about = "Runs MiniZinc's spec tests through fzn-csp and reports pass/fail/unsupported/skipped."
)]
struct Cli {
    /// The spec folder (libminizinc's tests/spec).
    #[arg(long, default_value = "../shared/data/minizinc/spec")]
    spec: PathBuf,
    /// Only the test files whose path (relative to the spec folder) contains this; repeatable.
    #[arg(long)]
    filter: Vec<String>,
    /// Seconds per test (MiniZinc's --time-limit; the process is killed 10 s later).
    #[arg(long, default_value_t = 20)]
    timeout: u64,
    /// Tests run at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The fzn-csp binary (default: the one beside this program).
    #[arg(long)]
    fzn_csp: Option<PathBuf>,
    /// Write every test's outcome as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Run fzn-csp with `--no-learn`: the search without learning (fzn-csp
    /// learns from its failures by default).
    #[arg(long)]
    no_learn: bool,
}

/// A test's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Pass,
    /// Not one of the listed solutions (tests often list the solutions of
    /// one solver's search), but Gecode accepts it as a solution of the model.
    Checked,
    Fail,
    Unsupported,
    Skipped,
}

/// One test and what became of it.
#[derive(Clone, Debug, serde::Serialize)]
struct Record {
    file: String,
    test: String,
    verdict: Verdict,
    reason: String,
    seconds: f64,
}

/// Where the tests run: the solver configurations and a scratch folder.
struct Setup {
    spec: PathBuf,
    csp: PathBuf,
    /// Passed to MiniZinc with the csp configuration (`--no-learn`).
    csp_flags: Vec<String>,
    gecode: Option<PathBuf>,
    scratch: PathBuf,
    timeout: Duration,
}

/// The tool: see the module docs.
pub fn main(args: Vec<OsString>, io: &mut Io<'_>) -> anyhow::Result<u8> {
    let cli: Cli = app::parse(args, io)?;
    if !cli.spec.is_dir() {
        writeln!(io.stderr, "mzn-spec: {} is absent: nothing to run", cli.spec.display())?;
        return Ok(app::EXIT_OK);
    }
    if process::which("minizinc").is_none() {
        anyhow::bail!("minizinc is not installed (apt-get install -y minizinc flatzinc)");
    }
    let fzn_csp = match &cli.fzn_csp {
        Some(path) => path.clone(),
        None => {
            process::sibling_binary("fzn-csp").context("no fzn-csp beside mzn-spec: build it, or give --fzn-csp")?
        }
    };
    let scratch = process::scratch_dir("mzn-spec")?;
    let csp = process::csp_solver(&scratch, &fzn_csp)?;
    let gecode = match process::gecode_solver(&scratch) {
        Ok(msc) => Some(msc),
        Err(error) => {
            writeln!(io.stderr, "mzn-spec: no Gecode reference ({error}): unlisted solutions count as failures")?;
            None
        }
    };
    let spec = cli.spec.canonicalize()?;
    let csp_flags = if cli.no_learn { vec!["--no-learn".to_string()] } else { Vec::new() };
    let setup =
        Setup { spec: spec.clone(), csp, csp_flags, gecode, scratch, timeout: Duration::from_secs(cli.timeout) };

    let mut files = Vec::new();
    collect_models(&spec, &mut files)?;
    files.sort();
    files.retain(|f| cli.filter.is_empty() || cli.filter.iter().any(|text| relative(&spec, f).contains(text)));
    let mut work: Vec<(PathBuf, Result<SpecTest, String>)> = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap_or_default();
        let Some(yaml) = header::header_text(&source) else { continue };
        match header::parse_tests(yaml) {
            Ok(tests) => work.extend(tests.into_iter().map(|t| (file.clone(), Ok(t)))),
            Err(error) => work.push((file.clone(), Err(error))),
        }
    }
    writeln!(io.stderr, "mzn-spec: {} tests in {} files", work.len(), files.len())?;

    // Workers send their records to this thread, which alone writes to
    // stderr (the tool's `Io` holds the stream's lock).
    let mut records = Vec::with_capacity(work.len());
    process::parallel(
        cli.jobs,
        &work,
        |index, (file, test)| run_test(&setup, index, file, test),
        |record| {
            let done = records.len() + 1;
            let (verdict, file, test, reason) = (record.verdict, &record.file, &record.test, &record.reason);
            writeln!(io.stderr, "[{done}/{}] {verdict:?} {file}:{test} {reason}", work.len())?;
            records.push(record);
            Ok(())
        },
    )?;
    records.sort_by(|a, b| (&a.file, &a.test).cmp(&(&b.file, &b.test)));
    let _ = std::fs::remove_dir_all(&setup.scratch);
    if let Some(path) = &cli.json {
        std::fs::write(path, serde_json::to_string_pretty(&records)?)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    io.stdout.write_all(report(&records).as_bytes())?;
    let failed = records.iter().any(|r| r.verdict == Verdict::Fail);
    Ok(if failed { app::EXIT_NO_SOLUTION } else { app::EXIT_OK })
}

fn collect_models(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_models(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "mzn") {
            files.push(path);
        }
    }
    Ok(())
}

fn relative(base: &Path, path: &Path) -> String {
    path.strip_prefix(base).unwrap_or(path).to_string_lossy().into_owned()
}

fn run_test(setup: &Setup, index: usize, file: &Path, test: &Result<SpecTest, String>) -> Record {
    let start = std::time::Instant::now();
    let (verdict, reason, name) = match test {
        Err(error) => (Verdict::Skipped, format!("the header does not parse: {error}"), "-".to_string()),
        Ok(test) => {
            let (verdict, reason) = judge(setup, index, file, test);
            (verdict, reason, test.name.clone())
        }
    };
    Record { file: relative(&setup.spec, file), test: name, verdict, reason, seconds: start.elapsed().as_secs_f64() }
}

/// The MiniZinc flags of a test's options, and whether it asks for all
/// solutions; `Err` names an option this runner does not know.
fn flags(test: &SpecTest) -> Result<(Vec<String>, bool), String> {
    let mut flags = Vec::new();
    let mut all_solutions = false;
    for (key, value) in &test.options {
        let text = match value {
            Yaml::String(s) => s.clone(),
            Yaml::Number(n) => n.to_string(),
            Yaml::Bool(b) => b.to_string(),
            _ => return Err(format!("option {key}")),
        };
        match key.as_str() {
            "all_solutions" => all_solutions = text == "true",
            "intermediate_solutions" | "free_search" if text == "true" => {
                flags.push(if key == "free_search" { "-f" } else { "-i" }.to_string())
            }
            "intermediate_solutions" | "free_search" | "timeout" => {}
            "random_seed" => flags.extend(["-r".to_string(), text]),
            "nr_solutions" => flags.extend(["-n".to_string(), text]),
            "processes" => flags.extend(["-p".to_string(), text]),
            "optimisation_level" => flags.push(format!("-O{text}")),
            "-G" | "--stdlib-dir" => return Err(format!("option {key}, which replaces the solver's library")),
            key if key.starts_with('-') => {
                flags.push(key.to_string());
                if text != "true" {
                    flags.push(text);
                }
            }
            other => return Err(format!("option {other}")),
        }
    }
    if all_solutions {
        flags.push("-a".to_string());
    }
    Ok((flags, all_solutions))
}

fn judge(setup: &Setup, index: usize, file: &Path, test: &SpecTest) -> (Verdict, String) {
    if test.kind != "solve" {
        return (Verdict::Skipped, format!("compiler test: type {}", test.kind));
    }
    let tags: Vec<Option<String>> = test.expected.iter().map(header::tag).collect();
    if test.expected.is_empty() {
        return (Verdict::Skipped, "no expected result".to_string());
    }
    if tags.iter().all(|t| t.as_deref() == Some("!Error")) {
        return (Verdict::Skipped, "compiler test: expects a MiniZinc error".to_string());
    }
    if let Some(tag) = test.expected.iter().flat_map(compare::unknown_tags).next() {
        return (Verdict::Skipped, format!("expectation this runner cannot compare: {tag}"));
    }
    let (flags, all_solutions) = match flags(test) {
        Ok(flags) => flags,
        Err(option) => return (Verdict::Skipped, format!("runner does not know the {option}")),
    };
    if test.extra_files.iter().any(|f| f.ends_with(".mpc")) {
        return (Verdict::Skipped, "driver test: a parameter file (.mpc)".to_string());
    }
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut inputs: Vec<PathBuf> = vec![file.to_path_buf()];
    inputs.extend(test.extra_files.iter().map(|extra| dir.join(extra)));

    // Compile with the csp library, and lower in-process: the classification.
    let fzn = setup.scratch.join(format!("test{index}.fzn"));
    let mut compile = std::process::Command::new("minizinc");
    compile.arg("-c").arg("--solver").arg(&setup.csp).args(&flags).args(&inputs).arg("-o").arg(&fzn);
    compile.arg("--no-output-ozn").current_dir(dir);
    let compiled = match process::run(&mut compile, setup.timeout + Duration::from_secs(60)) {
        Ok(done) => done,
        Err(error) => return (Verdict::Fail, format!("cannot run minizinc: {error}")),
    };
    if compiled.code != Some(0) {
        let first = compiled.stderr.lines().find(|l| !l.trim().is_empty() && !l.starts_with("Warning")).unwrap_or("");
        return (Verdict::Skipped, format!("does not compile under MiniZinc 2.6.4: {}", first.trim()));
    }
    let source = std::fs::read_to_string(&fzn).unwrap_or_default();
    let _ = std::fs::remove_file(&fzn);
    let parsed = match crate::parse(&source) {
        Ok(parsed) => parsed,
        Err(error) => return (Verdict::Fail, format!("fzn-csp cannot parse MiniZinc's FlatZinc: {error}")),
    };
    let optimising = match crate::lower(&parsed) {
        Err(error) if error.is_unsupported_type() => {
            let kind = if error.to_string().contains("float") { "float" } else { "set" };
            return (Verdict::Skipped, format!("{kind} variables"));
        }
        Err(error) if error.is_unsupported() => return (Verdict::Unsupported, unsupported_reason(&error)),
        Err(error) => {
            // MiniZinc 2.6.4 sometimes writes FlatZinc that names an undeclared
            // variable: not fzn-csp's fault when Gecode's run fails too.
            if let Some(gecode) = &setup.gecode {
                if let Err((_, reason)) = solve(setup, gecode, &flags, &inputs, dir, all_solutions) {
                    return (Verdict::Skipped, format!("MiniZinc 2.6.4 fails with Gecode too: {reason}"));
                }
            }
            return (Verdict::Fail, format!("lowering error: {error}"));
        }
        Ok(lowered) => lowered.objective != crate::Objective::Satisfy,
    };

    // Solve through MiniZinc, as a user would.
    // What Gecode answers through the same MiniZinc, when fzn-csp's answer
    // is not an expected one: many tests expect a newer MiniZinc.
    let reference = || setup.gecode.as_ref().map(|gecode| solve(setup, gecode, &flags, &inputs, dir, all_solutions));
    let obtained = match solve(setup, &setup.csp, &flags, &inputs, dir, all_solutions) {
        Ok(obtained) => obtained,
        Err((Verdict::Fail, reason)) => {
            if let Some(Err((_, gecode_reason))) = reference() {
                return (Verdict::Skipped, format!("MiniZinc 2.6.4 fails with Gecode too: {gecode_reason}"));
            }
            return (Verdict::Fail, reason);
        }
        Err((verdict, reason)) => return (verdict, reason),
    };
    let results: Vec<&Yaml> = test
        .expected
        .iter()
        .filter_map(|e| match e {
            Yaml::Tagged(t) if t.tag == "!Result" => Some(&t.value),
            _ => None,
        })
        .collect();
    if results.iter().any(|expected| compare::result_matches(expected, &obtained)) {
        return (Verdict::Pass, String::new());
    }
    if obtained.status == "UNKNOWN" {
        return (Verdict::Fail, format!("time limit ({} s): UNKNOWN", setup.timeout.as_secs()));
    }
    if optimising {
        // Gecode's check below accepts any solution, not only an optimal
        // one: an unlisted optimum must first be Gecode's optimum too.
        if let Err(reason) = same_optimum(&obtained, reference()) {
            return (Verdict::Fail, reason);
        }
    }
    if let Some(Ok(gecode)) = reference() {
        if gecode.status == obtained.status && same_solutions(&gecode, &obtained) {
            return (
                Verdict::Skipped,
                format!(
                    "MiniZinc 2.6.4 answers otherwise than the test expects, with Gecode too: {}",
                    summary(&obtained)
                ),
            );
        }
    }
    // Another answer than the listed ones: a different solution of the same
    // model is right, so let Gecode judge each one (with its values as data).
    if !obtained.solutions.is_empty() {
        if let Some(gecode) = &setup.gecode {
            let mut checker = "Gecode";
            for solution in &obtained.solutions {
                // Gecode's integers stop at ±(2^31 - 2), MiniZinc's at ±2^63:
                // such values are checked by MiniZinc's compiler, which
                // evaluates the model's constraints on them, and fzn-csp on
                // whatever the compiler leaves.
                let check = if beyond_gecode(solution) {
                    checker = "MiniZinc (values beyond Gecode's range)";
                    check_as_constraints(setup, &setup.csp, &inputs, dir, index, solution)
                } else {
                    check_with(setup, gecode, &inputs, dir, index, solution)
                };
                match check {
                    Check::Accepted => {}
                    // MiniZinc sometimes compiles a model with its solution as
                    // data differently from the model alone; when Gecode's own
                    // answer has the same solution, the fault is not fzn-csp's.
                    Check::Rejected if gives(setup, gecode, &flags, &inputs, dir, all_solutions, solution) => {}
                    Check::Rejected => {
                        return (
                            Verdict::Fail,
                            format!("wrong answer: {checker} rejects a solution: {}", summary(&obtained)),
                        );
                    }
                    Check::Unknown(why) => {
                        return (
                            Verdict::Fail,
                            format!("unlisted solution that {checker} could not check ({why}): {}", summary(&obtained)),
                        );
                    }
                }
            }
            return (
                Verdict::Checked,
                format!("not a listed solution; {checker} accepts it, or gives it too: {}", summary(&obtained)),
            );
        }
    }
    (Verdict::Fail, format!("no expected result matches: {}", summary(&obtained)))
}

fn unsupported_reason(error: &crate::LowerError) -> String {
    match error {
        crate::LowerError::UnsupportedConstraint { name, detail: Some(detail), .. } => format!("{name} ({detail})"),
        crate::LowerError::UnsupportedConstraint { name, .. } => name.clone(),
        // One reason for every float value, wherever it is, as before the
        // error named its place.
        crate::LowerError::UnsupportedFloat { .. } => "float (float values are not supported)".to_string(),
        other => other.to_string(),
    }
}

fn summary(obtained: &Obtained) -> String {
    let mut text = format!("got {} with {} solutions", obtained.status, obtained.solutions.len());
    if let Some(last) = obtained.solutions.last() {
        let json = last.to_string();
        let _ = write!(text, ", last {}", if json.len() > 200 { &json[..200] } else { &json });
    }
    text
}

/// Runs a model through MiniZinc with `solver` and reads its JSON stream.
fn solve(
    setup: &Setup,
    solver: &Path,
    flags: &[String],
    inputs: &[PathBuf],
    dir: &Path,
    all_solutions: bool,
) -> Result<Obtained, (Verdict, String)> {
    let mut command = std::process::Command::new("minizinc");
    command.arg("--solver").arg(solver).args(["--json-stream", "--output-mode", "json", "--output-objective"]);
    command.arg("--output-output-item").arg("--time-limit").arg((setup.timeout.as_millis()).to_string());
    if solver == setup.csp {
        command.args(&setup.csp_flags);
    }
    command.args(flags).args(inputs).current_dir(dir);
    let done = process::run(&mut command, setup.timeout + Duration::from_secs(10))
        .map_err(|e| (Verdict::Fail, format!("cannot run minizinc: {e}")))?;
    if done.killed {
        return Err((Verdict::Fail, "killed at the hard time limit".to_string()));
    }
    let mut obtained = Obtained { all_solutions, ..Obtained::default() };
    let mut errors = Vec::new();
    for line in done.stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else { continue };
        match message.get("type").and_then(|t| t.as_str()) {
            Some("solution") => {
                if let Some(json) = message.pointer("/output/json") {
                    obtained.solutions.push(json.clone());
                }
            }
            Some("status") => obtained.status = message["status"].as_str().unwrap_or_default().to_string(),
            Some("error") => errors.push(message["message"].as_str().unwrap_or_default().to_string()),
            _ => {}
        }
    }
    if obtained.status.is_empty() {
        obtained.status = if obtained.solutions.is_empty() { "UNKNOWN" } else { "SATISFIED" }.to_string();
    }
    if obtained.status == "ERROR" || done.code != Some(0) {
        let stderr = done.stderr.lines().filter(|l| l.contains("rror") || l.contains("not supported"));
        let message = errors.iter().map(String::as_str).chain(stderr).next();
        let message = message.unwrap_or("no message").trim().to_string();
        if message.contains("not supported by fzn-csp") || message.contains("too many for backtracking") {
            return Err((Verdict::Unsupported, message));
        }
        return Err((Verdict::Fail, format!("solver error: {message}")));
    }
    Ok(obtained)
}

/// `Ok` when `obtained` proves an optimum and Gecode proves the same one;
/// otherwise why not (a time limit, a wrong optimum, no reference).
fn same_optimum(obtained: &Obtained, gecode: Option<Result<Obtained, (Verdict, String)>>) -> Result<(), String> {
    let objective = |o: &Obtained| o.solutions.last().and_then(|s| s.get("_objective")).cloned();
    if obtained.status != "OPTIMAL_SOLUTION" {
        return Err(format!("not proved optimal ({}): {}", obtained.status, summary(obtained)));
    }
    match gecode {
        Some(Ok(gecode)) if gecode.status == "OPTIMAL_SOLUTION" => {
            // Gecode's integers stop at ±(2^31 - 2): an optimum it finds at
            // that limit is its range's, and fzn-csp's may lie beyond (the
            // solution is then checked without Gecode).
            let value = |o: &Obtained| objective(o).and_then(|o| o.as_i64());
            let beyond_the_limit = match (value(&gecode), value(obtained)) {
                (Some(limit), Some(ours)) => {
                    limit.unsigned_abs() == (1 << 31) - 2
                        && ours.signum() == limit.signum()
                        && ours.unsigned_abs() > limit.unsigned_abs()
                }
                _ => false,
            };
            if (objective(&gecode) == objective(obtained) && objective(obtained).is_some()) || beyond_the_limit {
                Ok(())
            } else {
                Err(format!("wrong optimum: fzn-csp proves {:?}, Gecode {:?}", objective(obtained), objective(&gecode)))
            }
        }
        _ => Err(format!("an unlisted optimum that Gecode does not confirm: {}", summary(obtained))),
    }
}

/// Whether two runs gave the same solutions (in any order; the `_` entries aside).
fn same_solutions(a: &Obtained, b: &Obtained) -> bool {
    let set = |o: &Obtained| -> Vec<String> {
        let mut all: Vec<String> = o
            .solutions
            .iter()
            .map(|s| match s.as_object() {
                Some(object) => {
                    object.iter().filter(|(name, _)| !name.starts_with('_')).map(|(n, v)| format!("{n}={v}")).collect()
                }
                None => s.to_string(),
            })
            .collect();
        all.sort();
        all
    };
    set(a) == set(b)
}

/// Whether Gecode, on the model itself, gives `solution` (all but the `_` entries) too.
fn gives(
    setup: &Setup,
    gecode: &Path,
    flags: &[String],
    inputs: &[PathBuf],
    dir: &Path,
    all_solutions: bool,
    solution: &serde_json::Value,
) -> bool {
    let values = |json: &serde_json::Value| -> Vec<(String, serde_json::Value)> {
        let Some(object) = json.as_object() else { return Vec::new() };
        object.iter().filter(|(name, _)| !name.starts_with('_')).map(|(n, v)| (n.clone(), v.clone())).collect()
    };
    let wanted = values(solution);
    match solve(setup, gecode, flags, inputs, dir, all_solutions) {
        Ok(reference) => reference.solutions.iter().any(|other| values(other) == wanted),
        Err(_) => false,
    }
}

/// What Gecode says of a solution given as data.
/// Whether a solution holds an integer beyond Gecode's `Int::Limits`
/// (`±(2^31 - 2)`), which Gecode cannot take as data.
fn beyond_gecode(solution: &serde_json::Value) -> bool {
    match solution {
        serde_json::Value::Number(n) => n.as_i64().is_some_and(|v| v.unsigned_abs() > (1 << 31) - 2),
        serde_json::Value::Array(items) => items.iter().any(beyond_gecode),
        serde_json::Value::Object(fields) => {
            fields.iter().any(|(name, value)| !name.starts_with('_') && beyond_gecode(value))
        }
        _ => false,
    }
}

#[derive(PartialEq, Eq)]
enum Check {
    Accepted,
    Rejected,
    /// The check itself failed (MiniZinc cannot read the solution back, a time limit).
    Unknown(String),
}

/// Runs the model with `solution`'s values as data (a JSON data file) on Gecode.
fn check_with(
    setup: &Setup,
    gecode: &Path,
    inputs: &[PathBuf],
    dir: &Path,
    index: usize,
    solution: &serde_json::Value,
) -> Check {
    let mut data = solution.clone();
    if let Some(object) = data.as_object_mut() {
        object.retain(|name, _| !name.starts_with('_'));
    }
    let path = setup.scratch.join(format!("check{index}.json"));
    if let Err(error) = std::fs::write(&path, data.to_string()) {
        return Check::Unknown(error.to_string());
    }
    let checked = solve(setup, gecode, &[], &[inputs, std::slice::from_ref(&path)].concat(), dir, false);
    let _ = std::fs::remove_file(&path);
    match checked {
        // A model that gives a variable in part as data: state the values as
        // constraints instead.
        Err((_, why)) if why.contains("multiple assignment") => {
            check_as_constraints(setup, gecode, inputs, dir, index, solution)
        }
        checked => verdict_of(checked),
    }
}

/// Runs the model with `solution`'s values as equality constraints on
/// `solver`. (Unlike a JSON data file, which MiniZinc reads through
/// doubles, the constraints keep 64-bit values exact.)
fn check_as_constraints(
    setup: &Setup,
    solver: &Path,
    inputs: &[PathBuf],
    dir: &Path,
    index: usize,
    solution: &serde_json::Value,
) -> Check {
    let Some(constraints) = literal::constraints(solution) else {
        return Check::Unknown("a value that cannot be written as a constraint".to_string());
    };
    let path = setup.scratch.join(format!("check{index}.mzn"));
    if let Err(error) = std::fs::write(&path, constraints) {
        return Check::Unknown(error.to_string());
    }
    let checked = solve(setup, solver, &[], &[inputs, std::slice::from_ref(&path)].concat(), dir, false);
    let _ = std::fs::remove_file(&path);
    verdict_of(checked)
}

fn verdict_of(checked: Result<Obtained, (Verdict, String)>) -> Check {
    match checked {
        Ok(obtained) if !obtained.solutions.is_empty() => Check::Accepted,
        Ok(obtained) if obtained.status == "UNSATISFIABLE" => Check::Rejected,
        Ok(obtained) => Check::Unknown(format!("status {}", obtained.status)),
        Err((_, why)) => Check::Unknown(why),
    }
}

/// The Markdown report.
fn report(records: &[Record]) -> String {
    let mut text = String::new();
    let mut by_folder: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    for record in records {
        let folder: Vec<&str> = record.file.split('/').collect();
        let folder = folder[..folder.len().saturating_sub(1).min(2)].join("/");
        by_folder.entry(if folder.is_empty() { ".".to_string() } else { folder }).or_default()
            [record.verdict as usize] += 1;
    }
    let _ = writeln!(
        text,
        "| folder | tests | pass | other solution, checked | fail | unsupported | skipped |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    let mut total = [0usize; 5];
    for (folder, counts) in &by_folder {
        let sum: usize = counts.iter().sum();
        let [pass, checked, fail, unsupported, skipped] = counts;
        let _ = writeln!(text, "| {folder} | {sum} | {pass} | {checked} | {fail} | {unsupported} | {skipped} |");
        for (t, c) in total.iter_mut().zip(counts) {
            *t += c;
        }
    }
    let sum: usize = total.iter().sum();
    let [pass, checked, fail, unsupported, skipped] = total;
    let _ = writeln!(text, "| **total** | {sum} | {pass} | {checked} | {fail} | {unsupported} | {skipped} |");
    for (verdict, title) in [(Verdict::Unsupported, "Unsupported, by reason"), (Verdict::Skipped, "Skipped, by reason")]
    {
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        for record in records.iter().filter(|r| r.verdict == verdict) {
            let category = match verdict {
                Verdict::Skipped => record.reason.split(": ").next().unwrap_or("").to_string(),
                _ => record.reason.clone(),
            };
            *reasons.entry(category).or_default() += 1;
        }
        let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let _ = writeln!(text, "\n{title}:\n\n| tests | reason |\n| ---: | --- |");
        for (reason, count) in reasons {
            let _ = writeln!(text, "| {count} | {} |", reason.replace('|', "\\|"));
        }
    }
    let failures: Vec<&Record> = records.iter().filter(|r| r.verdict == Verdict::Fail).collect();
    let _ = writeln!(text, "\nFailures ({}):\n", failures.len());
    for record in failures {
        let _ = writeln!(text, "- `{}` test {}: {}", record.file, record.test, record.reason);
    }
    text
}
