//! The solver library and the solver configuration that make
//! `minizinc --solver csp` work.
//!
//! The library's files are compiled into the binary (`include_str!`), so an
//! installed `fzn-csp` needs no source tree: `fzn-csp --install-msc` writes
//! them to a data directory of the user's
//! (`$XDG_DATA_HOME/csp/fzn-csp-VERSION/mznlib`, by default
//! `~/.local/share/...`) and the configuration to
//! `~/.minizinc/solvers/csp.msc`; `fzn-csp --print-msc` writes the library
//! the same way and prints the configuration instead.

use csp::SolveConfig;
use std::path::{Path, PathBuf};

/// The solver library: file names and contents.
pub const FILES: &[(&str, &str)] = &[
    ("fzn_all_different_int.mzn", include_str!("../mznlib/fzn_all_different_int.mzn")),
    ("fzn_among.mzn", include_str!("../mznlib/fzn_among.mzn")),
    ("fzn_at_least_int.mzn", include_str!("../mznlib/fzn_at_least_int.mzn")),
    ("fzn_at_most_int.mzn", include_str!("../mznlib/fzn_at_most_int.mzn")),
    ("fzn_bin_packing.mzn", include_str!("../mznlib/fzn_bin_packing.mzn")),
    ("fzn_bin_packing_capa.mzn", include_str!("../mznlib/fzn_bin_packing_capa.mzn")),
    ("fzn_bin_packing_load.mzn", include_str!("../mznlib/fzn_bin_packing_load.mzn")),
    ("fzn_circuit.mzn", include_str!("../mznlib/fzn_circuit.mzn")),
    ("fzn_count_eq.mzn", include_str!("../mznlib/fzn_count_eq.mzn")),
    ("fzn_cumulative.mzn", include_str!("../mznlib/fzn_cumulative.mzn")),
    ("fzn_decreasing_bool.mzn", include_str!("../mznlib/fzn_decreasing_bool.mzn")),
    ("fzn_decreasing_int.mzn", include_str!("../mznlib/fzn_decreasing_int.mzn")),
    ("fzn_diffn.mzn", include_str!("../mznlib/fzn_diffn.mzn")),
    ("fzn_diffn_nonstrict.mzn", include_str!("../mznlib/fzn_diffn_nonstrict.mzn")),
    ("fzn_disjunctive.mzn", include_str!("../mznlib/fzn_disjunctive.mzn")),
    ("fzn_disjunctive_strict.mzn", include_str!("../mznlib/fzn_disjunctive_strict.mzn")),
    ("fzn_exactly_int.mzn", include_str!("../mznlib/fzn_exactly_int.mzn")),
    ("fzn_global_cardinality.mzn", include_str!("../mznlib/fzn_global_cardinality.mzn")),
    ("fzn_global_cardinality_closed.mzn", include_str!("../mznlib/fzn_global_cardinality_closed.mzn")),
    ("fzn_global_cardinality_low_up.mzn", include_str!("../mznlib/fzn_global_cardinality_low_up.mzn")),
    ("fzn_global_cardinality_low_up_closed.mzn", include_str!("../mznlib/fzn_global_cardinality_low_up_closed.mzn")),
    ("fzn_increasing_bool.mzn", include_str!("../mznlib/fzn_increasing_bool.mzn")),
    ("fzn_increasing_int.mzn", include_str!("../mznlib/fzn_increasing_int.mzn")),
    ("fzn_inverse.mzn", include_str!("../mznlib/fzn_inverse.mzn")),
    ("fzn_lex_less_bool.mzn", include_str!("../mznlib/fzn_lex_less_bool.mzn")),
    ("fzn_lex_less_int.mzn", include_str!("../mznlib/fzn_lex_less_int.mzn")),
    ("fzn_lex_lesseq_bool.mzn", include_str!("../mznlib/fzn_lex_lesseq_bool.mzn")),
    ("fzn_lex_lesseq_int.mzn", include_str!("../mznlib/fzn_lex_lesseq_int.mzn")),
    ("fzn_nvalue.mzn", include_str!("../mznlib/fzn_nvalue.mzn")),
    ("fzn_regular.mzn", include_str!("../mznlib/fzn_regular.mzn")),
    ("fzn_strictly_decreasing_int.mzn", include_str!("../mznlib/fzn_strictly_decreasing_int.mzn")),
    ("fzn_strictly_increasing_int.mzn", include_str!("../mznlib/fzn_strictly_increasing_int.mzn")),
    ("fzn_subcircuit.mzn", include_str!("../mznlib/fzn_subcircuit.mzn")),
    ("fzn_table_bool.mzn", include_str!("../mznlib/fzn_table_bool.mzn")),
    ("fzn_table_int.mzn", include_str!("../mznlib/fzn_table_int.mzn")),
    ("redefinitions-2.0.mzn", include_str!("../mznlib/redefinitions-2.0.mzn")),
    ("redefinitions-2.2.1.mzn", include_str!("../mznlib/redefinitions-2.2.1.mzn")),
    ("redefinitions.mzn", include_str!("../mznlib/redefinitions.mzn")),
];

/// The solver's id in MiniZinc (`minizinc --solver csp` finds it by name).
pub const SOLVER_ID: &str = "org.csp.csp";

/// Writes the library into `dir` (created if needed); files already there
/// with the same content are left alone.
pub fn write_mznlib(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, content) in FILES {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(*content) {
            std::fs::write(&path, content)?;
        }
    }
    Ok(())
}

/// The solver configuration (`.msc`, JSON) for the binary `executable` and
/// the library in `mznlib`, both absolute paths.
pub fn msc(executable: &Path, mznlib: &Path) -> String {
    msc_with_id(SOLVER_ID, executable, mznlib)
}

/// The id of the configurations written for one run into a scratch folder
/// ([`msc_with_id`]): not [`SOLVER_ID`], because MiniZinc 2.6.4 takes
/// `--solver FILE.msc` to mean the solver of that file's id, and runs an
/// installed `~/.minizinc/solvers/csp.msc` (another binary, maybe an older
/// one) in its place when the ids are the same.
pub const SCRATCH_SOLVER_ID: &str = "org.csp.csp-scratch";

/// [`msc`] with the solver's id `id`: [`SCRATCH_SOLVER_ID`] for a
/// configuration that runs this binary whatever is installed.
pub fn msc_with_id(id: &str, executable: &Path, mznlib: &Path) -> String {
    let configuration = serde_json::json!({
        "id": id,
        "name": "csp",
        "description": "The csp constraint-satisfaction engine through its FlatZinc front end fzn-csp",
        "version": env!("CARGO_PKG_VERSION"),
        "executable": executable.to_string_lossy(),
        "mznlib": mznlib.to_string_lossy(),
        "tags": ["cp", "int"],
        "stdFlags": ["-a", "-f", "-i", "-n", "-p", "-r", "-s", "-t", "-v"],
        "extraFlags": [
            ["--no-learn", "Search without learning from failures (plain mac)", "bool", "false"],
            ["--learn", "Learn a nogood from each failure (lazy clause generation; the default)", "bool", "false"],
            ["--cpu-timeout", "Stop searching after this many seconds of the search thread's CPU time", "float", "0"],
            ["--vivify", "With learning, vivify the learnt nogoods at restarts (+vivify)", "bool", "false"],
            ["--target", "With learning, target phases (+phase+target)", "bool", "false"],
            [
                "--rephase",
                "With learning, rephasing every UNIT x k conflicts (+phase+rephase=UNIT)",
                "int",
                SolveConfig::REPHASE_UNIT.to_string()
            ],
            [
                "--stable",
                "With learning, stable and focused modes, the first UNIT conflicts long (+phase+stable=UNIT)",
                "int",
                SolveConfig::STABLE_UNIT.to_string()
            ],
            ["--share", "With -p N: the learning workers share their short learnt nogoods", "bool", "false"]
        ],
        "supportsMzn": false,
        "supportsFzn": true,
        "needsSolns2Out": true,
        "needsMznExecutable": false,
        "needsStdlibDir": false,
        "isGUIApplication": false,
    });
    let mut text = serde_json::to_string_pretty(&configuration).unwrap_or_default();
    text.push('\n');
    text
}

/// Where the library is written by default:
/// `$XDG_DATA_HOME/csp/fzn-csp-VERSION/mznlib`, else under `~/.local/share`.
pub fn default_mznlib_dir() -> Option<PathBuf> {
    let data = match std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => home()?.join(".local").join("share"),
    };
    Some(data.join("csp").join(concat!("fzn-csp-", env!("CARGO_PKG_VERSION"))).join("mznlib"))
}

/// Where MiniZinc looks for a user's solver configurations: `~/.minizinc/solvers`.
pub fn default_solvers_dir() -> Option<PathBuf> {
    Some(home()?.join(".minizinc").join("solvers"))
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// The predicates the library declares without a body (`predicate
/// name(...);`), which MiniZinc therefore hands to fzn-csp as FlatZinc
/// builtins, file by file. (A predicate defined with a body, such as
/// `fzn_circuit` calling `csp_circuit`, is MiniZinc's to expand.)
pub fn declared_predicates() -> Vec<String> {
    let mut declared = Vec::new();
    for (_, content) in FILES {
        // Comments dropped; then the items, each up to its `;`. (The
        // library's items hold no string with a `;` or a `%`.)
        let code: Vec<&str> = content.lines().map(|line| line.split('%').next().unwrap_or("")).collect();
        let code = code.join("\n");
        for item in code.split(';').map(str::trim) {
            if let Some(rest) = item.strip_prefix("predicate ").filter(|_| !item.contains('=')) {
                declared.push(rest.split('(').next().unwrap_or("").trim().to_string());
            }
        }
    }
    declared
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_predicate_is_lowered() {
        let declared = declared_predicates();
        assert!(declared.iter().any(|name| name == "fzn_all_different_int"), "{declared:?}");
        assert!(declared.iter().any(|name| name == "csp_circuit"), "{declared:?}");
        assert!(!declared.iter().any(|name| name == "fzn_circuit"), "fzn_circuit has a body: {declared:?}");
        for name in declared {
            assert!(crate::is_supported(&name), "the mznlib declares {name}, which the lowering does not know");
        }
    }

    #[test]
    fn every_file_of_the_library_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("mznlib");
        let mut on_disk: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let embedded: Vec<&str> = FILES.iter().map(|(name, _)| *name).collect();
        assert_eq!(on_disk, embedded);
    }

    #[test]
    fn the_configuration_names_the_paths() {
        let text = msc(Path::new("/opt/bin/fzn-csp"), Path::new("/opt/share/mznlib"));
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["executable"], "/opt/bin/fzn-csp");
        assert_eq!(json["mznlib"], "/opt/share/mznlib");
        assert_eq!(json["supportsFzn"], true);
    }
}
