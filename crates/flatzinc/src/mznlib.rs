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

use std::path::{Path, PathBuf};

/// The solver library: file names and contents.
pub const FILES: &[(&str, &str)] = &[
    ("fzn_all_different_int.mzn", include_str!("../mznlib/fzn_all_different_int.mzn")),
    ("fzn_table_bool.mzn", include_str!("../mznlib/fzn_table_bool.mzn")),
    ("fzn_table_int.mzn", include_str!("../mznlib/fzn_table_int.mzn")),
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
    let configuration = serde_json::json!({
        "id": SOLVER_ID,
        "name": "csp",
        "description": "The csp constraint-satisfaction engine through its FlatZinc front end fzn-csp",
        "version": env!("CARGO_PKG_VERSION"),
        "executable": executable.to_string_lossy(),
        "mznlib": mznlib.to_string_lossy(),
        "tags": ["cp", "int"],
        "stdFlags": ["-a", "-f", "-i", "-n", "-p", "-r", "-s", "-t", "-v"],
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

/// The predicates the library declares (`predicate name(`), file by file.
pub fn declared_predicates() -> Vec<&'static str> {
    FILES
        .iter()
        .flat_map(|(_, content)| content.lines())
        .filter_map(|line| line.strip_prefix("predicate "))
        .filter_map(|rest| rest.split('(').next())
        .map(str::trim)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_predicate_is_lowered() {
        let declared = declared_predicates();
        assert!(declared.contains(&"fzn_all_different_int"), "{declared:?}");
        for name in declared {
            assert!(crate::is_supported(name), "the mznlib declares {name}, which the lowering does not know");
        }
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
