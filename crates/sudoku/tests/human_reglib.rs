//! HoDoKu's regression library (`reglib-1.3.txt`, in the shared data folder):
//! every case of every implemented technique sets up a board of pencil marks
//! and says exactly which eliminations or placements one instance of the
//! technique finds. The test passes when, for every case, some instance that
//! the technique finds on that board has exactly those eliminations and
//! placements (the library's rule: no other instance leads to different ones
//! for the case's candidates), and, for a case marked `-x`, when nothing is
//! found.
//!
//! `cargo test -p csp-sudoku --release --test human_reglib -- --nocapture`
//! prints the table per technique; `REGLIB_VERBOSE=1` also prints each
//! failing case with what was found.

use std::collections::BTreeMap;
use std::path::Path;

use csp_sudoku::human::{Candidate, PencilMarks, Technique, find_all};
use csp_sudoku::{Grid, Shape};

fn shared(name: &str) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sudoku/hodoku").join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(_) => {
            println!("skipped: {} is absent (the shared data folder is not beside the repository)", path.display());
            None
        }
    }
}

/// A case of the library.
struct Case {
    line: usize,
    code: String,
    fail_case: bool,
    marks: PencilMarks,
    eliminations: Vec<Candidate>,
    placements: Vec<Candidate>,
}

/// `<digit><row><col>` tokens as candidates of a 9x9.
fn candidates(field: &str) -> Result<Vec<Candidate>, String> {
    field
        .split_whitespace()
        .map(|token| {
            let b = token.as_bytes();
            if b.len() != 3 || !b.iter().all(|c| (b'1'..=b'9').contains(c)) {
                return Err(format!("'{token}' is not <digit><row><col>"));
            }
            let (d, r, c) = (b[0] - b'0', usize::from(b[1] - b'1'), usize::from(b[2] - b'1'));
            Ok(Candidate::new(r * 9 + c, d))
        })
        .collect()
}

fn parse_case(line: usize, text: &str) -> Result<Case, String> {
    let fields: Vec<&str> = text.split(':').collect();
    if fields.len() < 7 {
        return Err(format!("line {line}: {} fields", fields.len()));
    }
    let (code, variant) = match fields[1].split_once('-') {
        Some((code, variant)) => (code, variant),
        None => (fields[1], ""),
    };
    let shape = Shape::new(3, 3).map_err(|e| e.to_string())?;
    let (mut givens, mut placed) = (vec![0u8; 81], vec![0u8; 81]);
    let mut cell = 0;
    let mut plus = false;
    for ch in fields[3].chars() {
        match ch {
            '+' => plus = true,
            '.' | '0' | '1'..='9' => {
                if cell >= 81 {
                    return Err(format!("line {line}: more than 81 cells"));
                }
                let v = if ch == '.' { 0 } else { ch as u8 - b'0' };
                if plus {
                    placed[cell] = v
                } else {
                    givens[cell] = v
                }
                plus = false;
                cell += 1;
            }
            _ => return Err(format!("line {line}: '{ch}' in the givens")),
        }
    }
    let givens = Grid::from_cells(shape, givens).map_err(|e| e.to_string())?;
    let placed = Grid::from_cells(shape, placed).map_err(|e| e.to_string())?;
    let deleted: Vec<(usize, u8)> = candidates(fields[4])?.into_iter().map(|c| (c.cell, c.digit)).collect();
    let marks = PencilMarks::from_progress(&givens, &placed)
        .and_then(|m| m.without(&deleted))
        .map_err(|e| format!("line {line}: {e}"))?;
    Ok(Case {
        line,
        code: code.to_string(),
        fail_case: variant == "x",
        marks,
        eliminations: candidates(fields[5])?,
        placements: candidates(fields[6])?,
    })
}

fn technique_of(code: &str) -> Option<Technique> {
    Technique::ALL.iter().copied().find(|t| t.hodoku_code() == Some(code))
}

fn sorted(mut list: Vec<Candidate>) -> Vec<Candidate> {
    list.sort_unstable();
    list.dedup();
    list
}

/// The cases known to fail, by line, with the reason (docs/sudoku.md, "Tested
/// against HoDoKu's regression library"): none since the ALS chain search goes
/// both ways. The test fails when one of them passes (update the list) as when
/// any other case fails.
const KNOWN_FAILURES: &[(usize, &str)] = &[];

#[derive(Default)]
struct Tally {
    name: String,
    cases: usize,
    passed: usize,
    implemented: bool,
}

#[test]
fn every_case_of_every_implemented_technique_passes() {
    let Some(text) = shared("reglib-1.3.txt") else { return };
    let verbose = std::env::var_os("REGLIB_VERBOSE").is_some();
    let mut table: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if !line.starts_with(':') {
            continue;
        }
        let case = parse_case(index + 1, line).unwrap_or_else(|e| panic!("{e}"));
        let technique = technique_of(&case.code);
        let tally = table.entry(case.code.clone()).or_default();
        tally.cases += 1;
        let Some(technique) = technique else { continue };
        tally.implemented = true;
        tally.name = technique.name().to_string();
        let found = find_all(technique, &case.marks);
        let pass = if case.fail_case {
            found.is_empty()
        } else {
            let (want_e, want_p) = (sorted(case.eliminations.clone()), sorted(case.placements.clone()));
            found.iter().any(|step| {
                sorted(step.eliminations().to_vec()) == want_e && sorted(step.placements().to_vec()) == want_p
            })
        };
        let known = KNOWN_FAILURES.iter().find(|(line, _)| *line == case.line);
        if pass {
            tally.passed += 1;
            if let Some((line, why)) = known {
                failures.push(format!("line {line}: {} passes but is listed as failing ({why})", case.code));
            }
        } else if known.is_none() {
            failures.push(format!("line {}: {} ({})", case.line, case.code, technique.name()));
            if verbose {
                println!("FAIL line {}: {line}", case.line);
                for step in found.iter().take(8) {
                    println!("    found: {step}");
                }
            }
        }
    }
    println!("| code | technique | cases | passed | failed |");
    println!("| --- | --- | --- | --- | --- |");
    let (mut cases, mut passed, mut other) = (0, 0, 0);
    for (code, tally) in &table {
        if tally.implemented {
            println!(
                "| {code} | {} | {} | {} | {} |",
                tally.name,
                tally.cases,
                tally.passed,
                tally.cases - tally.passed
            );
            cases += tally.cases;
            passed += tally.passed;
        } else {
            other += tally.cases;
        }
    }
    println!("| | implemented, in all | {cases} | {passed} | {} |", cases - passed);
    let unimplemented: Vec<String> =
        table.iter().filter(|(_, t)| !t.implemented).map(|(code, t)| format!("{code} ({})", t.cases)).collect();
    println!("not implemented ({other} cases): {}", unimplemented.join(", "));
    println!(
        "known failures: {}",
        KNOWN_FAILURES.iter().map(|(line, why)| format!("line {line} ({why})")).collect::<Vec<_>>().join(", ")
    );
    assert!(failures.is_empty(), "{} cases failed:\n{}", failures.len(), failures.join("\n"));
}
