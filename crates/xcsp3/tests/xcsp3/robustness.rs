//! Hostile input never crashes the reader: every prefix of each corpus
//! file, and files with bytes changed at random, give a model or an error.

use csp::rng::Rng;

use super::corpus_files;

#[test]
fn truncated_files_give_errors_not_panics() {
    for file in corpus_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let step = (text.len() / 97).max(1);
        for end in (0..text.len()).step_by(step) {
            if text.is_char_boundary(end) {
                let _ = csp_xcsp3::lower(&text[..end]);
            }
        }
    }
}

#[test]
fn mutated_files_give_models_or_errors() {
    let replacements = [
        "",
        "<",
        ">",
        "(",
        ")",
        ",",
        "%",
        "%9",
        "%...",
        "[",
        "]",
        "[]",
        "..",
        "-",
        "0",
        "99999999999999999999",
        "x",
        " ",
        "\"",
        "*",
        "le",
        "1..0",
        "-4611686018427387905",
        "4611686018427387904",
        "mul(",
        "[0..99]",
    ];
    let mut rng = Rng::new(5);
    for file in corpus_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let chars: Vec<char> = text.chars().collect();
        for _ in 0..60 {
            let mut mutated: Vec<char> = chars.clone();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(mutated.len() as u64) as usize;
                let cut = (at + rng.below(4) as usize).min(mutated.len());
                let with = replacements[rng.below(replacements.len() as u64) as usize];
                mutated.splice(at..cut, with.chars());
            }
            let mutated: String = mutated.into_iter().collect();
            if let Ok(lowered) = csp_xcsp3::lower(&mutated) {
                // What lowers must also solve without a panic (briefly).
                let limits = csp::Limits::none().with_nodes(200);
                let config = csp::SolveConfig::default().with_limits(limits);
                if lowered.inconsistent.is_none() {
                    if let Ok(mut solver) = csp::Solver::new(&lowered.model, config) {
                        let _ = solver.solve();
                    }
                }
            }
        }
    }
}

#[test]
fn deep_and_huge_inputs_are_refused() {
    let deep = format!(
        "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"x\"> 0..1 </var></variables><constraints>\
         <intension> {}x{} </intension></constraints></instance>",
        "not(".repeat(10_000),
        ")".repeat(10_000)
    );
    assert!(csp_xcsp3::lower(&deep).unwrap_err().is_unsupported());
    let huge = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[1000000000][1000000000]\"> 0..1 \
                </array></variables></instance>";
    assert!(csp_xcsp3::lower(huge).unwrap_err().is_unsupported());
    let nested = format!("{}{}", "<a>".repeat(100_000), "</a>".repeat(100_000));
    assert!(csp_xcsp3::lower(&nested).is_err());
}
