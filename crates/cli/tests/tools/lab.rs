//! The random-CSP lab, run in-process through `app::run` on small sweeps, and
//! once as the real `csp-lab` process.

use std::process::Command;

use csp_cli::{app, lab};

struct Run {
    code: u8,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let argv = std::iter::once("lab").chain(args.iter().copied());
    let app::Captured { code, stdout, stderr } = app::capture(lab::main, argv, "");
    Run { code, stdout, stderr }
}

/// A small sweep: 10 variables, 5 values, 5 tightness values, 8 instances each.
const SMALL: [&str; 10] =
    ["--vars", "10", "--values", "5", "--density", "0.5", "--tightness", "0.1..0.9:0.2", "--samples", "8"];

fn small(extra: &[&str]) -> Run {
    let args: Vec<&str> = ["sweep"].iter().chain(SMALL.iter()).chain(extra).copied().collect();
    run(&args)
}

/// The fields of a CSV line, quotes removed (RFC 4180: a quoted field may hold commas and doubled quotes).
fn fields(line: &str) -> Vec<String> {
    let (mut fields, mut field, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    fields.push(field);
    fields
}

/// A CSV document as a header and records.
fn csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = text.lines().map(fields);
    let header = lines.next().expect("a header");
    let records: Vec<Vec<String>> = lines.collect();
    assert!(records.iter().all(|r| r.len() == header.len()), "every record has every field");
    (header, records)
}

#[test]
fn a_small_sweep_has_a_record_per_point_and_algorithm_and_is_deterministic() {
    let first = small(&["--format", "csv", "--seed", "7"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let (header, records) = csv(&first.stdout);
    assert_eq!(
        header,
        [
            "tightness",
            "algorithm",
            "config",
            "instances",
            "satisfiable",
            "sat_fraction",
            "limited",
            "median_checks",
            "mean_checks",
            "median_nodes",
            "mean_nodes"
        ]
    );
    assert_eq!(records.len(), 5 * 5);
    let algorithms = ["bt", "bt-cbj", "fc", "fc-cbj", "mac"];
    let configs = ["bt+mrv", "bt-cbj+mrv", "fc+mrv", "fc-cbj+mrv", "mac+mrv"];
    for (i, record) in records.iter().enumerate() {
        let tightness = ["0.1", "0.3", "0.5", "0.7", "0.9"][i / 5];
        assert_eq!((record[0].as_str(), record[1].as_str()), (tightness, algorithms[i % 5]));
        assert_eq!(record[2], configs[i % 5]);
        assert_eq!(record[3], "8");
        assert_eq!(record[6], "0", "no limit was set");
        for field in &record[7..] {
            let value: f64 = field.parse().unwrap();
            assert!(value >= 0.0 && value.is_finite());
        }
    }

    // The same seed gives the same numbers, whatever the number of threads.
    let again = small(&["--format", "csv", "--seed", "7", "--jobs", "1"]);
    assert_eq!(again.stdout, first.stdout);
    // Another seed gives other instances.
    let other = small(&["--format", "csv", "--seed", "8"]);
    assert_eq!(other.code, 0);
    assert_ne!(other.stdout, first.stdout);

    // The summary says how long it took and checks backjumping against its twins.
    assert!(first.stderr.contains("sweep: 40 instances x 5 algorithms in"), "{}", first.stderr);
    assert!(
        first.stderr.contains("check: bt-cbj explored no more nodes than bt on all 40 instances"),
        "{}",
        first.stderr
    );
    assert!(
        first.stderr.contains("check: fc-cbj explored no more nodes than fc on all 40 instances"),
        "{}",
        first.stderr
    );
}

#[test]
fn the_satisfiable_fraction_falls_from_one_to_zero_and_backjumping_never_costs_nodes() {
    let out = small(&["--format", "json", "--seed", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert_eq!(
        (value["variables"].as_u64(), value["values"].as_u64(), value["samples"].as_u64()),
        (Some(10), Some(5), Some(8))
    );
    let critical = value["critical_tightness"].as_f64().unwrap();
    assert!((critical - (1.0 - 5f64.powf(-2.0 / 4.5))).abs() < 1e-9);
    let points = value["points"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    let fractions: Vec<f64> = points.iter().map(|p| p["sat_fraction"].as_f64().unwrap()).collect();
    assert_eq!(fractions[0], 1.0, "{fractions:?}");
    assert_eq!(fractions[4], 0.0, "{fractions:?}");
    assert!(fractions.windows(2).all(|w| w[1] <= w[0]), "the fraction never rises: {fractions:?}");
    for point in points {
        let costs = point["algorithms"].as_array().unwrap();
        let names: Vec<&str> = costs.iter().map(|c| c["algorithm"].as_str().unwrap()).collect();
        assert_eq!(names, ["bt", "bt-cbj", "fc", "fc-cbj", "mac"]);
        let mean_nodes = |i: usize| costs[i]["mean_nodes"].as_f64().unwrap();
        assert!(mean_nodes(1) <= mean_nodes(0), "bt-cbj <= bt at {}", point["tightness"]);
        assert!(mean_nodes(3) <= mean_nodes(2), "fc-cbj <= fc at {}", point["tightness"]);
        let satisfiable = point["satisfiable"].as_u64().unwrap();
        assert_eq!(point["sat_fraction"].as_f64().unwrap(), satisfiable as f64 / 8.0);
    }
    let checks = value["backjumping_checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(|c| c["more_nodes"] == 0 && c["compared"] == 40), "{checks:?}");
}

#[test]
fn the_text_and_markdown_tables_show_each_statistic_per_tightness() {
    let out = small(&["--algorithms", "bt+input,fc+input"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let tables: Vec<&str> = out.stdout.split("\n\n").collect();
    assert_eq!(tables.len(), 4);
    let titles = ["median constraint checks", "mean constraint checks", "median nodes", "mean nodes"];
    for (table, title) in tables.iter().zip(titles) {
        let lines: Vec<&str> = table.lines().collect();
        assert!(lines[0].starts_with(&format!("{title}: model B <n=10, d=5, p1=0.5>")), "{}", lines[0]);
        assert_eq!(lines[1].split_whitespace().collect::<Vec<_>>(), ["p2", "sat", "bt+input", "fc+input"]);
        assert_eq!(lines.len(), 3 + 5);
        let first: Vec<&str> = lines[3].split_whitespace().collect();
        let last: Vec<&str> = lines[7].split_whitespace().collect();
        assert_eq!((first[0], first[1].parse::<f64>().unwrap()), ("0.10", 1.0), "{}", lines[3]);
        assert_eq!((last[0], last[1].parse::<f64>().unwrap()), ("0.90", 0.0), "{}", lines[7]);
    }
    let out = small(&["--algorithms", "fc", "--format", "markdown"]);
    assert_eq!(out.code, 0);
    let first: Vec<&str> = out.stdout.lines().take(4).collect();
    assert!(first[0].starts_with("**median constraint checks"));
    assert_eq!(first[2], "| p2 | sat | fc |");
    assert_eq!(first[3], "| ---: | ---: | ---: |");
}

#[test]
fn sweep_is_the_default_command_and_its_defaults_are_the_classic_experiment() {
    // One trivial point (everything is unsatisfiable at p2 = 0.95), so the run is quick.
    let implicit = run(&["--tightness", "0.95", "--samples", "2", "--format", "json"]);
    assert_eq!(implicit.code, 0, "{}", implicit.stderr);
    let explicit = run(&["sweep", "--tightness", "0.95", "--samples", "2", "--format", "json"]);
    assert_eq!(implicit.stdout, explicit.stdout);
    let value: serde_json::Value = serde_json::from_str(&implicit.stdout).unwrap();
    assert_eq!(value["variables"], 20);
    assert_eq!(value["values"], 10);
    assert_eq!(value["density"], 0.5);
    assert_eq!(value["seed"], 1);
    let critical = value["critical_tightness"].as_f64().unwrap();
    assert!((critical - 0.3844).abs() < 1e-3, "{critical}");
    let names: Vec<&str> =
        value["algorithms"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bt", "bt-cbj", "fc", "fc-cbj", "mac"]);
    assert_eq!(value["points"][0]["sat_fraction"], 0.0);

    let help = run(&["--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("sweep") && help.stdout.contains("one"), "{}", help.stdout);
    let help = run(&["sweep", "--help"]);
    assert!(help.stdout.contains("0.05..0.95:0.05") && help.stdout.contains("bt,bt-cbj,fc,fc-cbj,mac"));
}

#[test]
fn bad_words_and_bad_parameters_are_usage_errors() {
    let cases: [(&[&str], &str); 13] = [
        (&["sweep", "--algorithms", "bt,quick"], "unknown level 'quick'"),
        (&["sweep", "--algorithms", "fc+fastest"], "unknown word 'fastest'"),
        (&["sweep", "--algorithms", "mac/ac4"], "unknown arc-consistency algorithm 'ac4'"),
        (&["one", "--configs", "fc+mrv,fc+best"], "unknown word 'best'"),
        (&["sweep", "--tightness", "0.1..0.5"], "has no step"),
        (&["sweep", "--tightness", "0.1..0.5:0"], "the step must be positive"),
        (&["sweep", "--tightness", "0.5..0.1:0.1"], "is empty"),
        (&["sweep", "--tightness", "0.2,1.5"], "between 0 and 1"),
        (&["sweep", "--tightness", "x"], "'x' is not a number"),
        (&["sweep", "--samples", "0", "--tightness", "0.5"], "--samples must be at least 1"),
        (&["sweep", "--vars", "1"], "--vars must be at least 2"),
        (&["sweep", "--density", "1.5"], "--density must be between 0 and 1"),
        (&["one", "--vars", "100000"], "at most 2000 variables"),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
        assert_eq!(out.stdout, "", "{args:?}");
    }
    // A subcommand's options do not mix with the top-level sweep options.
    assert_eq!(run(&["--samples", "3", "one"]).code, 2);
}

#[test]
fn one_compares_configurations_on_one_instance() {
    let args = ["one", "--vars", "12", "--values", "6", "--tightness", "0.3", "--seed", "5", "--format", "csv"];
    let out = run(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (header, records) = csv(&out.stdout);
    assert_eq!(header[0], "config");
    assert_eq!(records.len(), 6, "the default configurations");
    let solved: Vec<&str> = records.iter().map(|r| r[2].as_str()).collect();
    assert!(solved.iter().all(|s| *s == solved[0]), "they agree on satisfiability: {solved:?}");
    assert_eq!(run(&args).stdout.lines().count(), out.stdout.lines().count());

    let out = run(&["one", "--vars", "8", "--values", "4", "--configs", "bt+input,mac+mrv", "--goal", "count"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The default tightness is the predicted phase transition, to two decimals.
    let critical = 1.0 - 4f64.powf(-2.0 / (0.5 * 7.0));
    let name = format!("<8, 4, 0.5, {}> seed 1", (critical * 100.0).round() / 100.0);
    assert!(out.stdout.starts_with(&format!("instance '{name}'")), "{}", out.stdout);
    let counts: Vec<&str> = out
        .stdout
        .lines()
        .skip(3)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(counts.len(), 2);
    assert_eq!(counts[0], counts[1]);
    // Then the pruning attribution: model B posts its constraints as forbidden pairs.
    assert!(out.stdout.contains("\nvalues pruned by each kind of constraint"), "{}", out.stdout);
    assert!(out.stdout.lines().any(|l| l.starts_with("forbidden_pairs ")), "{}", out.stdout);
}

#[test]
fn the_plot_has_the_curves_the_fraction_and_the_predicted_point() {
    let path = std::env::temp_dir().join(format!("csp-lab-test-{}.svg", std::process::id()));
    let out = small(&["--plot", path.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for text in
        ["median constraint checks", "median nodes", "fraction satisfiable", "predicted p2 = 0.511", "bt-cbj", "mac"]
    {
        assert!(svg.contains(text), "{text} is not in the plot");
    }
    let bad = small(&["--plot", "/nonexistent-directory/x.svg"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("cannot write the plot"), "{}", bad.stderr);
}

#[test]
fn the_lab_binary_runs_a_sweep_end_to_end() {
    let binary = env!("CARGO_BIN_EXE_csp-lab");
    let output = Command::new(binary)
        .args(["sweep", "--vars", "8", "--values", "4", "--tightness", "0.2,0.8", "--samples", "3", "--format", "csv"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let (header, records) = csv(&String::from_utf8(output.stdout).unwrap());
    assert_eq!(header[0], "tightness");
    assert_eq!(records.len(), 2 * 5);
    assert!(String::from_utf8_lossy(&output.stderr).contains("sweep: 6 instances x 5 algorithms"));

    let output = Command::new(binary).args(["sweep", "--algorithms", "bt,nope"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown level 'nope'"));
    assert!(output.stdout.is_empty());
}

#[test]
fn tightness_values_and_fractions_are_shown_exactly() {
    let tightness = "0.375,0.4,0.45,0.5,0.55";
    let args =
        ["sweep", "--vars", "10", "--values", "5", "--tightness", tightness, "--samples", "3", "--algorithms", "fc"];
    let out = run(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<Vec<&str>> = out.stdout.lines().skip(3).take(5).map(|l| l.split_whitespace().collect()).collect();
    let shown: Vec<&str> = rows.iter().map(|row| row[0]).collect();
    assert_eq!(shown, ["0.375", "0.400", "0.450", "0.500", "0.550"]);
    // The fractions are thirds: shown to three decimals.
    for row in &rows {
        assert!(["0.000", "0.333", "0.667", "1.000"].contains(&row[1]), "{row:?}");
    }
    assert!(rows.iter().any(|row| row[1] == "0.333" || row[1] == "0.667"), "{rows:?}");
}
