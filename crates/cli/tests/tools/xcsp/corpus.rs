//! The shipped corpus: every instance solves under the default
//! configuration and under a few others, its status and optimum agree with
//! ACE's (recorded in corpus/ace.tsv by corpus/compile.sh), and every
//! solution passes the official XCSP3 `SolutionChecker` (in ACE's jar,
//! which pycsp3 bundles; skipped with a message without Java or the jar).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{corpus_dir, corpus_files, instantiation, objective, run, status};

/// ACE's answers: instance, status, objective (`-` for none).
fn ace_answers() -> Vec<(String, String, Option<i64>)> {
    let text = std::fs::read_to_string(corpus_dir().join("ace.tsv")).expect("corpus/ace.tsv");
    text.lines()
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let objective = fields[2].parse().ok();
            (fields[0].to_string(), fields[1].to_string(), objective)
        })
        .collect()
}

fn name(path: &Path) -> String {
    path.file_stem().expect("a file name").to_string_lossy().into_owned()
}

#[test]
fn every_instance_has_an_answer_from_ace() {
    let answers = ace_answers();
    let files = corpus_files();
    assert!(files.len() >= 15, "the corpus: {files:?}");
    for file in &files {
        assert!(answers.iter().any(|(n, status, _)| *n == name(file) && !status.is_empty()), "{}", name(file));
    }
}

#[test]
fn every_instance_solves_and_agrees_with_ace() {
    for (instance, ace_status, ace_objective) in ace_answers() {
        let path = corpus_dir().join(format!("{instance}.xml"));
        for config in ["mac+domwdeg+binary", "mac+mrv", "fc+mrv", "mac+domwdeg+luby"] {
            let out = run(&["--config", config, path.to_str().unwrap()], "");
            let shown = format!("{instance} under {config}: {}{}", out.stdout, out.stderr);
            assert_eq!(status(&out.stdout), Some(ace_status.as_str()), "{shown}");
            assert_eq!(out.code, if ace_status == "UNSATISFIABLE" { 1 } else { 0 }, "{shown}");
            if ace_status == "OPTIMUM FOUND" {
                assert_eq!(objective(&out.stdout), ace_objective, "{shown}");
                let cost = format!("cost=\"{}\"", ace_objective.unwrap());
                assert!(instantiation(&out.stdout).is_some_and(|v| v.contains(&cost)), "{shown}");
            }
            if ace_status != "UNSATISFIABLE" {
                assert!(instantiation(&out.stdout).is_some(), "{shown}");
            }
        }
    }
}

/// The ACE jar: `ACE_JAR`, or the one in the installed pycsp3 package.
fn ace_jar() -> Option<PathBuf> {
    if let Some(jar) = std::env::var_os("ACE_JAR") {
        return Some(PathBuf::from(jar)).filter(|p| p.exists());
    }
    let output = Command::new("python3")
        .args(["-c", "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('pycsp3').origin))"])
        .output()
        .ok()?;
    let dir = String::from_utf8(output.stdout).ok()?;
    let jar = Path::new(dir.trim()).join("solvers").join("ace").join("ACE-2.6.jar");
    (output.status.success() && jar.exists()).then_some(jar)
}

/// Java and the ACE jar, or why not.
pub(crate) fn checker() -> Result<PathBuf, String> {
    let java = Command::new("java").arg("-version").output();
    if !java.is_ok_and(|o| o.status.success()) {
        return Err("java is not installed".to_string());
    }
    ace_jar().ok_or_else(|| "pycsp3's ACE jar is not installed (pip install pycsp3, or set ACE_JAR)".to_string())
}

/// What the official checker says of `solution` for `instance`: `Ok` with
/// the objective value it computed (for an optimisation problem), or its complaint.
pub(crate) fn official_check(jar: &Path, instance: &Path, solution: &str) -> Result<Option<i64>, String> {
    let file = std::env::temp_dir().join(format!(
        "csp-xcsp3-{}-{}.xml",
        std::process::id(),
        instance.file_stem().unwrap().to_string_lossy()
    ));
    std::fs::write(&file, solution).expect("a temporary file");
    let output = Command::new("java")
        .arg("-cp")
        .arg(jar)
        .arg("org.xcsp.parser.callbacks.SolutionChecker")
        .arg(instance)
        .arg(&file)
        .output()
        .expect("java runs");
    let _ = std::fs::remove_file(&file);
    let said = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    // The checker exits 0 either way: a line "OK", or "OK" and the
    // objective's value, means valid.
    let verdict =
        said.lines().map(|line| line.split_whitespace().collect::<Vec<_>>()).find(|w| w.first() == Some(&"OK"));
    match verdict {
        Some(words) => Ok(words.get(1).and_then(|v| v.parse().ok())),
        None => Err(said),
    }
}

#[test]
fn every_solution_passes_the_official_checker() {
    let jar = match checker() {
        Ok(jar) => jar,
        Err(reason) => {
            println!("skipped: {reason}");
            return;
        }
    };
    let mut checked = 0;
    for file in corpus_files() {
        let out = run(&[file.to_str().unwrap()], "");
        let Some(solution) = instantiation(&out.stdout) else { continue };
        match official_check(&jar, &file, solution) {
            Ok(cost) => assert_eq!(cost, objective(&out.stdout), "{}: the checker's objective value", name(&file)),
            Err(complaint) => panic!("{}: the checker refuses {solution}:\n{complaint}", name(&file)),
        }
        checked += 1;
    }
    assert!(checked >= 14, "{checked} solutions checked");
}

/// Opt-in (`CSP_XCSP3_ACE=1`): runs ACE again on every instance and checks
/// its answers against corpus/ace.tsv (a few seconds per instance).
#[test]
fn ace_still_gives_the_recorded_answers() {
    if std::env::var_os("CSP_XCSP3_ACE").is_none() {
        println!("skipped: set CSP_XCSP3_ACE=1 to run ACE on the corpus");
        return;
    }
    let jar = checker().expect("Java and the ACE jar");
    for (instance, ace_status, ace_objective) in ace_answers() {
        let path = corpus_dir().join(format!("{instance}.xml"));
        let output = Command::new("java").arg("-jar").arg(&jar).arg(&path).output().expect("java runs");
        let text = String::from_utf8_lossy(&output.stdout);
        let plain: String = strip_escapes(&text);
        assert_eq!(status(&plain).map(str::trim), Some(ace_status.as_str()), "{instance}: {plain}");
        if ace_objective.is_some() {
            let last = plain.lines().filter_map(|l| l.strip_prefix("o ")).next_back();
            let value = last.and_then(|l| l.split_whitespace().next()).and_then(|v| v.parse().ok());
            assert_eq!(value, ace_objective, "{instance}");
        }
    }
}

/// ACE colours its output: the text without terminal escapes.
fn strip_escapes(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}
