//! A short, seeded run of the differential tester
//! (`benches/generators/xcsp_diff.py`, docs/xcsp3.md): small random XCSP3
//! instances through this build's csp-xcsp and ACE, which must agree on the
//! status, the optimum and the number of solutions, with every solution
//! accepted by the official checker. Skipped, saying why, without python3,
//! Java or pycsp3's ACE jar. And a short run of the brute-force tester near
//! `±2^62` (`benches/generators/huge_diff.py --xcsp`), which needs python3 only.

use std::path::PathBuf;
use std::process::Command;

use super::corpus::checker;

#[test]
fn random_instances_agree_with_ace() {
    if !Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()) {
        println!("skipped: the differential tester needs python3");
        return;
    }
    if let Err(reason) = checker() {
        println!("skipped: {reason}");
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/generators/xcsp_diff.py");
    let keep = std::env::temp_dir().join(format!("csp-xcsp-diff-{}", std::process::id()));
    let output = Command::new("python3")
        .arg(&script)
        .args(["--count", "10", "--seed", SEED, "--jobs", "2", "--timeout", "10"])
        .args(["--csp-xcsp", env!("CARGO_BIN_EXE_csp-xcsp"), "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("instances 10:") && stdout.contains("disagree 0"), "{stdout}");
    // Most instances are compared, not skipped (ACE refuses some forms), and
    // some of them have solutions counted or an optimum.
    let count = |verdict: &str| {
        let after = stdout.split(&format!("{verdict} ")).nth(1);
        after.and_then(|rest| rest.split([',', ';', '\n']).next()).and_then(|n| n.parse::<u32>().ok()).unwrap_or(0)
    };
    let agreed = ["agree: unsatisfiable", "agree: solutions", "agree: optimum"].map(count);
    assert!(agreed.iter().sum::<u32>() >= 6 && agreed[1] + agreed[2] >= 3, "{agreed:?}: {stdout}");
    let _ = std::fs::remove_dir_all(keep);
}

/// 30 random instances whose values sit near the ends of the range (sums,
/// products and powers past `2^63`) under four configurations: every answer
/// is brute force's, or a refusal that names its line.
#[test]
fn instances_near_the_ends_of_the_range_agree_with_brute_force() {
    if !Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success()) {
        println!("skipped: the brute-force differential tester needs python3");
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../benches/generators/huge_diff.py");
    let keep = std::env::temp_dir().join(format!("csp-xcsp-huge-diff-{}", std::process::id()));
    let output = Command::new("python3")
        .arg(&script)
        .args(["--xcsp", "--count", "30", "--seed", "1", "--csp-xcsp", env!("CARGO_BIN_EXE_csp-xcsp"), "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("models 30 ") && stdout.contains(", 0 disagree"), "{stdout}");
    // Most runs are answered, not refused.
    let agree = stdout.split(": ").nth(1).and_then(|rest| rest.split(' ').next()).and_then(|n| n.parse::<u32>().ok());
    assert!(agree.is_some_and(|n| n >= 60), "{stdout}");
    let _ = std::fs::remove_dir_all(keep);
}

/// The first seed of the run: ten instances that ACE accepts (of the
/// 2,000 at scale, seeds 1745-1754 have no skip: 4 unsatisfiable, 3 optima,
/// 2 counts compared, 1 satisfiable where ACE adds auxiliary variables).
const SEED: &str = "1745";
