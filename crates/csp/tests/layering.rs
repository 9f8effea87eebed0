//! The engine's modules form layers, and no import goes up or around: the
//! table below is the layering ARCHITECTURE.md describes, in an order where
//! every module comes after what it may use. The test reads every source file,
//! collects the `crate::` paths its code names (comments are skipped), and
//! checks each against the table, so an import loop cannot come back.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `src/` and the modules it may use, in layer order.
const LAYERS: &[(&str, &[&str])] = &[
    ("ids", &[]),
    ("domain", &[]),
    ("rng", &[]),
    ("observer", &["ids"]),
    ("kernel", &["ids", "domain", "observer"]),
    ("constraint", &["ids", "kernel"]),
    ("constraints", &["ids", "domain", "rng", "kernel", "constraint"]),
    ("model", &["ids", "domain", "constraint", "constraints"]),
    ("search", &["ids", "domain", "rng", "observer", "kernel", "constraint", "constraints", "model"]),
    ("local_search", &["ids", "domain", "rng", "constraint", "constraints", "model"]),
    ("random", &["ids", "domain", "rng", "constraint", "model"]),
    ("testing", &["ids", "domain", "rng", "kernel", "constraint", "model", "search"]),
];

/// The code of a source file without its comments (line comments, doc
/// comments included; the engine has no block comments).
fn code(text: &str) -> String {
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The first segments of the `crate::` paths in `code`: `crate::a::B` and
/// `crate::{a::B, c}` give `a` (and `c`).
fn crate_paths(code: &str) -> BTreeSet<String> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let heads = match rest.strip_prefix('{') {
            Some(group) => group_items(group),
            None => vec![rest],
        };
        for head in heads {
            let name: String = head.trim_start().chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() {
                found.insert(name);
            }
        }
    }
    found
}

/// The items of a `{a::B, c::{D, E}}` group (after its `{`), split at its
/// top-level commas.
fn group_items(group: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// Every `.rs` file under `dir`, with its path relative to `root`.
fn sources(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("the source directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).expect("under src").to_string_lossy().replace('\\', "/");
            out.push((relative, std::fs::read_to_string(&path).expect("a readable file")));
        }
    }
}

#[test]
fn the_path_reader_finds_single_and_grouped_imports_and_skips_comments() {
    let text = "use crate::kernel::{Context, State};\n// use crate::search::Solver;\nuse crate::{ids::VarId, model::{Model, Solution}, domain::Domain};\nlet x = crate::rng::Rng::new(1); /// crate::testing\n";
    let found: Vec<String> = crate_paths(&code(text)).into_iter().collect();
    assert_eq!(found, ["domain", "ids", "kernel", "model", "rng"]);
}

#[test]
fn the_layers_are_in_order() {
    for (k, (module, uses)) in LAYERS.iter().enumerate() {
        for used in *uses {
            let position = LAYERS.iter().position(|(m, _)| m == used);
            assert!(position.is_some_and(|p| p < k), "{module} may use {used}, which is not a layer below it");
        }
    }
}

#[test]
fn no_module_imports_from_above_its_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    let allowed: BTreeMap<&str, &[&str]> = LAYERS.iter().copied().collect();
    let mut problems = Vec::new();
    for (path, text) in &files {
        if path == "lib.rs" {
            continue;
        }
        let module = path.split('/').next().expect("a path").trim_end_matches(".rs");
        let Some(uses) = allowed.get(module) else {
            problems.push(format!("{path}: module {module} is not in the layer table"));
            continue;
        };
        for used in crate_paths(&code(text)) {
            if used == module {
                continue;
            }
            if used.starts_with(char::is_uppercase) {
                problems.push(format!("{path}: names crate::{used}, a root re-export; name its module instead"));
            } else if !uses.contains(&used.as_str()) {
                problems.push(format!("{path}: {module} uses {used}, which its layer may not"));
            }
        }
    }
    assert!(problems.is_empty(), "layering broken:\n{}", problems.join("\n"));
    assert!(files.len() > 40, "the sources were found ({} files)", files.len());
}
