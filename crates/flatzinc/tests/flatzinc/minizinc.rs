//! Through MiniZinc itself: `minizinc --solver <msc>` compiles the shipped
//! models with the csp library and runs fzn-csp (the binary of this build).
//! Skipped, with a message, when `minizinc` is not installed.

use std::path::{Path, PathBuf};
use std::process::Command;

use csp_flatzinc::mznlib;

fn minizinc_present() -> bool {
    let present = Command::new("minizinc").arg("--version").output().is_ok_and(|o| o.status.success());
    if !present {
        println!("skipped: minizinc is not installed (apt-get install -y minizinc)");
    }
    present
}

/// A solver configuration for this build's fzn-csp, in a fresh directory.
fn solver_config(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fzn-csp-mzn-{test}-{}", std::process::id()));
    let mznlib = dir.join("mznlib");
    mznlib::write_mznlib(&mznlib).unwrap();
    let msc = dir.join("csp.msc");
    // An id of its own: with the installed one's, MiniZinc would run an
    // installed fzn-csp instead of this build's.
    let text = mznlib::msc_with_id(mznlib::SCRATCH_SOLVER_ID, Path::new(env!("CARGO_BIN_EXE_fzn-csp")), &mznlib);
    std::fs::write(&msc, text).unwrap();
    msc
}

fn model(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("models").join(name)
}

fn minizinc(msc: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new("minizinc").arg("--solver").arg(msc).args(args).output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into(),
        String::from_utf8_lossy(&output.stderr).into(),
    )
}

#[test]
fn an_installed_fzn_csp_does_not_run_in_place_of_this_build() {
    if !minizinc_present() {
        return;
    }
    // A home folder whose installed csp.msc (the installed configuration's
    // id) names a binary that only fails.
    let msc = solver_config("installed");
    let home = msc.parent().unwrap().join("home");
    let solvers = home.join(".minizinc").join("solvers");
    std::fs::create_dir_all(&solvers).unwrap();
    let fake = home.join("fake-fzn-csp");
    std::fs::write(&fake, "#!/bin/sh\necho the installed fzn-csp ran >&2\nexit 3\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let installed = mznlib::msc(&fake, &msc.parent().unwrap().join("mznlib"));
    std::fs::write(solvers.join("csp.msc"), installed).unwrap();
    let output = Command::new("minizinc")
        .env("HOME", &home)
        .arg("--solver")
        .arg(&msc)
        .arg(model("queens.mzn"))
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!stderr.contains("the installed fzn-csp ran"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(stdout.contains("----------"), "{stdout}");
}

#[test]
fn the_models_solve_through_minizinc() {
    if !minizinc_present() {
        return;
    }
    let msc = solver_config("models");
    let queens = model("queens.mzn");
    let (code, stdout, stderr) = minizinc(&msc, &["-a", queens.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout.matches("----------").count(), 92);
    assert!(stdout.starts_with("q = [") && stdout.ends_with("==========\n"), "{stdout}");

    let (code, stdout, _) = minizinc(&msc, &[model("send_more_money.mzn").to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (Some(0), "9567 + 1085 = 10652\n----------\n"));

    let (code, stdout, _) =
        minizinc(&msc, &["-s", model("sudoku.mzn").to_str().unwrap(), model("sudoku.dzn").to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("\n 4 8 3 9 2 1 6 5 7\n 9 6 7 3 4 5 8 2 1\n"), "{stdout}");
    assert!(stdout.contains("%%%mzn-stat: nodes="), "{stdout}");
    std::fs::remove_dir_all(msc.parent().unwrap()).unwrap();
}

#[test]
fn optimisation_through_minizinc_ends_with_the_proved_optimum() {
    if !minizinc_present() {
        return;
    }
    let msc = solver_config("optimum");
    let knapsack = model("knapsack01.mzn");
    // fzn-csp's own flags pass through MiniZinc only as the configuration's
    // extraFlags: without them MiniZinc refuses `--vivify`, `--share` and
    // the learning words (MiniZinc passes an `int` flag's value as the next
    // word: `--rephase 1`).
    for flags in [
        &[][..],
        &["--vivify", "-f"],
        &["-p", "2", "--share"],
        &["--no-learn", "--cpu-timeout", "30"],
        &["--target"],
        &["--rephase", "1"],
        &["--stable", "1", "-f"],
        &["--target", "--rephase", "2", "--stable", "3", "-f", "--vivify"],
    ] {
        let mut args = flags.to_vec();
        args.push(knapsack.to_str().unwrap());
        let (code, stdout, stderr) = minizinc(&msc, &args);
        assert_eq!(code, Some(0), "{flags:?}: {stderr}");
        assert!(stdout.ends_with("value = 220;\n----------\n==========\n"), "{flags:?}: {stdout}");
    }
    std::fs::remove_dir_all(msc.parent().unwrap()).unwrap();
}

#[test]
fn set_variables_reach_fzn_csp_as_booleans() {
    if !minizinc_present() {
        return;
    }
    let msc = solver_config("sets");
    let subsets = model("subsets.mzn");
    for learn in [&[][..], &["--no-learn"][..]] {
        let mut args = learn.to_vec();
        args.extend(["-a", subsets.to_str().unwrap()]);
        let (code, stdout, stderr) = minizinc(&msc, &args);
        assert_eq!(code, Some(0), "{stderr}");
        let mut found: Vec<&str> = stdout.lines().filter(|l| l.starts_with("s = ")).collect();
        found.sort_unstable();
        assert_eq!(found, ["s = {1,3,6};", "s = {1,4,5};", "s = {2,3,5};"], "{stdout}");
        assert!(stdout.ends_with("----------\n==========\n"), "{stdout}");
    }
    // A constant set stays a set_in, and a global's constant-set parameter
    // (regular's final states) stays the global's.
    let dir = msc.parent().unwrap();
    let constant = dir.join("constant_sets.mzn");
    std::fs::write(
        &constant,
        "include \"globals.mzn\";\narray[1..3] of var 1..2: q;\nvar 1..9: x;\nvar set of 1..4: s;\n\
         constraint x in {2, 4, 6} /\\ x in s /\\ card(s) = 2;\n\
         constraint regular(q, 2, 2, [| 1, 2 | 2, 1 |], 1, {2});\nsolve satisfy;\n",
    )
    .unwrap();
    let fzn = dir.join("constant_sets.fzn");
    let (code, _, stderr) = minizinc(&msc, &["-c", constant.to_str().unwrap(), "-o", fzn.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    let flat = std::fs::read_to_string(&fzn).unwrap();
    assert!(flat.contains("fzn_regular(") && !flat.contains("var set"), "{flat}");
    let (code, stdout, stderr) = minizinc(&msc, &["-a", constant.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{stderr}");
    // x is 2 or 4, s holds it and one other of 1..4, q has an odd number of 2s.
    assert_eq!(stdout.matches("----------").count(), 2 * 3 * 4, "{stdout}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// MiniZinc's bin packing globals reach fzn-csp as its native constraint
/// (`csp_bin_packing_load`, with the load array's first index), and the
/// solutions are those of MiniZinc's own decompositions, counted here by hand.
#[test]
fn bin_packing_reaches_fzn_csp_natively() {
    if !minizinc_present() {
        return;
    }
    let msc = solver_config("packing");
    let dir = msc.parent().unwrap();
    // Counted by hand (and by enumeration): items 3, 2, 2, 1 in three bins of
    // at most 4 go as {3,1} {2,2} {}, {3,1} {2} {2}, {3} {2,2} {1} or
    // {3} {2,1} {2} (two ways), each in 3! orders: 30.
    let cases = [
        (
            "load",
            "array[0..2] of var 0..4: l;\narray[1..4] of var 0..2: b;\nconstraint bin_packing_load(l, b, [3, 2, 2, 1]);\n",
            30,
        ),
        // Capacities 4, 4, 1 on bins 5..7: the 1 in bin 7 or not, then 2 ways.
        (
            "capa",
            "array[1..4] of var 5..7: b;\nconstraint bin_packing_capa(array1d(5..7, [4, 4, 1]), b, [3, 2, 2, 1]);\n",
            4,
        ),
        // Capacity 4 over the bins' range 1..3: as the first.
        ("plain", "array[1..4] of var 1..3: b;\nconstraint bin_packing(4, b, [3, 2, 2, 1]);\n", 30),
    ];
    for (name, body, expected) in cases {
        // Each global's own file (globals.mzn would include the others).
        let global = if name == "plain" { "bin_packing".to_string() } else { format!("bin_packing_{name}") };
        let path = dir.join(format!("{name}.mzn"));
        std::fs::write(&path, format!("include \"{global}.mzn\";\n{body}solve satisfy;\n")).unwrap();
        let fzn = dir.join(format!("{name}.fzn"));
        let (code, _, stderr) = minizinc(&msc, &["-c", path.to_str().unwrap(), "-o", fzn.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}: {stderr}");
        let flat = std::fs::read_to_string(&fzn).unwrap();
        assert!(flat.contains("csp_bin_packing_load("), "{name}: {flat}");
        let (code, stdout, stderr) = minizinc(&msc, &["-a", path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}: {stderr}");
        assert_eq!(stdout.matches("----------").count(), expected, "{name}: {stdout}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unsupported_model_is_an_error_for_minizinc() {
    if !minizinc_present() {
        return;
    }
    let msc = solver_config("error");
    let model = msc.parent().unwrap().join("float.mzn");
    std::fs::write(&model, "var 0.0..1.0: f;\nconstraint f > 0.5;\nsolve satisfy;\n").unwrap();
    let (code, stdout, stderr) = minizinc(&msc, &[model.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert_eq!(stdout, "=====ERROR=====\n");
    assert!(stderr.contains("this model uses float variables (f), which fzn-csp does not support"), "{stderr}");
    // The temporary .fzn is named; with --keep-paths, the place in the model too.
    let (code, _, stderr) = minizinc(&msc, &["--keep-paths", model.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let place = format!("(flattened from {}, line 1, columns ", model.display());
    assert!(stderr.contains(&place) && stderr.contains("float variables (f)"), "{stderr}");
    std::fs::remove_dir_all(msc.parent().unwrap()).unwrap();
}

/// A short, seeded run of the differential tester
/// (`benches/generators/mzn_diff.py`, docs/minizinc.md): 20 small random
/// models through this build's fzn-csp and Gecode, which must agree on every
/// solution and optimum. Skipped without minizinc, Gecode or python3.
#[test]
fn random_models_agree_with_gecode() {
    let Some(stdout) = mzn_diff(&["--count", "20", "--seed", "1"], "plain") else { return };
    assert!(stdout.contains("models 20:") && stdout.contains("disagree 0"), "{stdout}");
    // Most models are compared, not skipped (a time limit, an error), and
    // some of them have solutions.
    let count = |verdict: &str| {
        let after = stdout.split(&format!("{verdict} ")).nth(1);
        after.and_then(|rest| rest.split([',', '\n']).next()).and_then(|n| n.parse::<u32>().ok()).unwrap_or(0)
    };
    let agreed = ["agree: unsatisfiable", "agree: solutions", "agree: optimum"].map(count);
    assert!(agreed.iter().sum::<u32>() >= 15 && agreed[1] + agreed[2] >= 5, "{agreed:?}: {stdout}");
}

/// A `--csp-flag` with its value in one word (`--rephase=1`), which MiniZinc
/// refuses, reaches fzn-csp as two words: the models are compared, not all
/// skipped as errors of fzn-csp.
#[test]
fn a_flag_with_its_value_in_one_word_reaches_fzn_csp() {
    let Some(stdout) = mzn_diff(&["--count", "3", "--seed", "1", "--csp-flag=--rephase=1"], "flag") else { return };
    assert!(stdout.contains("models 3:") && !stdout.contains("error"), "{stdout}");
}

/// The output of the differential tester run with `args` on this build's
/// fzn-csp, after checking that it exited with success (no disagreement);
/// `None` (skipped) without minizinc, Gecode or python3.
fn mzn_diff(args: &[&str], name: &str) -> Option<String> {
    let present = |tool: &str, flag: &str| Command::new(tool).arg(flag).output().is_ok_and(|o| o.status.success());
    if !minizinc_present() || !present("fzn-gecode", "-help") || !present("python3", "--version") {
        println!("skipped: the differential tester needs minizinc, fzn-gecode and python3");
        return None;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/generators/mzn_diff.py");
    let keep = std::env::temp_dir().join(format!("fzn-csp-mzn-diff-{name}-{}", std::process::id()));
    let output = Command::new("python3")
        .arg(&script)
        .args(args)
        .args(["--fzn-csp", env!("CARGO_BIN_EXE_fzn-csp"), "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    // A disagreement's model and outputs stay in `keep`, for the failure's message.
    if stdout.contains("disagree 0") {
        std::fs::remove_dir_all(keep).unwrap();
    }
    Some(stdout)
}
