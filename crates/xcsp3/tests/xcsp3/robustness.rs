//! Hostile input never crashes the reader: every prefix of each corpus
//! file, and files with bytes changed at random, give a model or an error.
//!
//! The seeded mutation tests draw new cases with `CSP_TEST_SEED=S` (default 21)
//! and more of them with `CSP_TEST_SCALE=N` (N times as many), e.g.
//! `CSP_TEST_SEED=7 CSP_TEST_SCALE=40 cargo test --release -p csp-xcsp3 --test xcsp3 line_mutations`.

use csp::rng::Rng;

use super::corpus_files;
use super::line_mutation::{mutate_a_line, pick};
use super::text_mutation::mutate_characters;

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
    // Inside <instance> (and inside <constraints>), where the lowering walks
    // the elements: it overflowed the stack; now an error at the element
    // one level too deep.
    for (open, close) in [("", ""), ("<constraints>", "</constraints>")] {
        let nested = format!(
            "<instance format=\"XCSP3\" type=\"CSP\">{open}\n{}{}{close}</instance>",
            "<a>".repeat(100_000),
            "</a>".repeat(100_000)
        );
        let error = csp_xcsp3::lower(&nested).unwrap_err();
        assert!(error.to_string().contains("elements nested more than 256 deep"), "{error}");
        assert_eq!(error.position.line, 2, "{error}");
    }
}

/// Elements that are wrong on their own, for the line mutations below:
/// huge and empty domains, undefined names, operators with too few or too
/// many arguments, empty lists, integers beyond 64 bits.
const HOSTILE_ELEMENTS: [&str; 16] = [
    "<var id=\"h\"> 0..9223372036854775807 </var>",
    "<var id=\"h\"> -9223372036854775808..9223372036854775807 </var>",
    "<var id=\"h\"> 5..1 </var>",
    "<var id=\"h\"> 1.5..2.5 </var>",
    "<array id=\"h\" size=\"[0]\"> 0..1 </array>",
    "<array id=\"h\" size=\"[4611686018427387904]\"> 0..1 </array>",
    "<intension> eq(undefined_name,1) </intension>",
    "<intension> eq(1) </intension>",
    "<intension> not(1,2,3) </intension>",
    "<intension> if(1,2) </intension>",
    "<intension> le(mul(4611686018427387904,4611686018427387904),1) </intension>",
    "<intension> eq(9223372036854775808,1) </intension>",
    "<allDifferent> </allDifferent>",
    "<sum> <list> </list> <condition> (le,-1) </condition> </sum>",
    "<extension> <list> </list> <supports> () </supports> </extension>",
    "<element> <list> </list> <index> 0 </index> <value> 1 </value> </element>",
];

/// One line-level mutation of `text`: a line deleted, duplicated or
/// hostile, two adjacent tokens swapped, an integer made extreme, an
/// argument dropped from a call.
fn mutate_lines(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = pick(rng, lines.len());
    match rng.below(4) {
        0 => mutate_a_line(&mut lines, &HOSTILE_ELEMENTS, rng),
        1 if !lines.is_empty() => {
            let words: Vec<&str> = lines[at].split_inclusive([' ', ',', '(', ')', '<', '>']).collect();
            if words.len() >= 2 {
                let mut words = words.clone();
                let i = pick(rng, words.len() - 1);
                words.swap(i, i + 1);
                lines[at] = words.concat();
            }
        }
        2 if !lines.is_empty() => {
            let line = &lines[at];
            let digits: Vec<usize> = line
                .char_indices()
                .filter(|&(i, c)| c.is_ascii_digit() && !line[..i].ends_with(|p: char| p.is_ascii_digit()))
                .map(|(i, _)| i)
                .collect();
            if !digits.is_empty() {
                let start = digits[pick(rng, digits.len())];
                let end = line[start..].find(|c: char| !c.is_ascii_digit()).map_or(line.len(), |n| start + n);
                let with = ["9223372036854775807", "9223372036854775808", "4611686018427387904", "0"][pick(rng, 4)];
                lines[at] = format!("{}{with}{}", &line[..start], &line[end..]);
            }
        }
        _ if !lines.is_empty() => {
            // A call's last argument dropped: `eq(a,b)` becomes `eq(a)`.
            let line = &lines[at];
            if let Some(close) = line.find(')') {
                if let Some(comma) = line[..close].rfind(',') {
                    lines[at] = format!("{}{}", &line[..comma], &line[close..]);
                }
            }
        }
        _ => {}
    }
    lines.join("\n")
}

#[test]
fn line_mutations_give_errors_with_their_place_or_correct_answers() {
    let mut rng = Rng::new(csp::testing::seed(21));
    let (mut errors, mut complete) = (0, 0);
    for file in corpus_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for _ in 0..csp::testing::scaled(40) {
            let mut mutated = mutate_lines(&text, &mut rng);
            if rng.below(3) == 0 {
                mutated = mutate_lines(&mutated, &mut rng);
            }
            if rng.below(4) == 0 {
                mutated = mutate_characters(&mutated, &mut rng);
            }
            let lines = mutated.split('\n').count() as u32;
            let lowered = match csp_xcsp3::lower(&mutated) {
                Ok(lowered) => lowered,
                Err(error) => {
                    let line = error.position.line;
                    assert!(line >= 1 && line <= lines + 1, "{}: {error}\n{mutated}", file.display());
                    errors += 1;
                    continue;
                }
            };
            if lowered.inconsistent.is_some() {
                continue;
            }
            // With and without learning, briefly: each solution satisfies
            // the model, and two searches that complete agree.
            let mut answers = Vec::new();
            for search in [csp::Search::Learning, csp::SolveConfig::default().search] {
                let limits = csp::Limits::none().with_nodes(300);
                let config = csp::SolveConfig::default().with_search(search).with_limits(limits);
                let mut solver = csp::Solver::new(&lowered.model, config)
                    .unwrap_or_else(|error| panic!("the solver refuses a lowered model: {error}\n{mutated}"));
                let mut best = None;
                for improvement in solver.improvements() {
                    assert!(lowered.model.is_solution(improvement.solution.values()), "{mutated}");
                    best = Some(improvement.objective);
                }
                answers.push((solver.status() == csp::Status::Complete).then_some(best));
            }
            if let [Some(learning), Some(plain)] = answers[..] {
                assert_eq!(learning, plain, "learning and plain search disagree on:\n{mutated}");
                complete += 1;
            }
        }
    }
    assert!(errors > 100 && complete > 100, "{errors} errors, {complete} complete");
}
