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

/// `value` without the keys whose values are times (they differ from run to run).
fn without_times(value: &serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => serde_json::Value::Object(
            map.iter()
                .filter(|(k, _)| !k.contains("cpu") && !k.contains("time"))
                .map(|(k, v)| (k.clone(), without_times(v)))
                .collect(),
        ),
        serde_json::Value::Array(items) => serde_json::Value::Array(items.iter().map(without_times).collect()),
        other => other.clone(),
    }
}

/// The records of a CSV document without the time columns.
fn without_time_columns(text: &str) -> Vec<Vec<String>> {
    let (header, records) = csv(text);
    let keep: Vec<usize> =
        (0..header.len()).filter(|&i| !header[i].contains("cpu") && !header[i].contains("time")).collect();
    std::iter::once(header).chain(records).map(|r| keep.iter().map(|&i| r[i].clone()).collect()).collect()
}

#[test]
fn a_small_sweep_has_a_record_per_point_and_algorithm_and_is_deterministic() {
    let first = small(&["--format", "csv", "--seed", "7"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let (header, records) = csv(&first.stdout);
    let mut expected: Vec<String> = [
        "p2",
        "algorithm",
        "config",
        "instances",
        "satisfiable",
        "sat_fraction",
        "sat_low",
        "sat_high",
        "flawed",
        "limited",
    ]
    .iter()
    .map(|c| c.to_string())
    .collect();
    for statistic in ["checks", "nodes", "cpu_ms"] {
        for quantile in ["p10", "q1", "median", "q3", "p90", "mean"] {
            expected.push(format!("{statistic}_{quantile}"));
        }
    }
    assert_eq!(header, expected);
    assert_eq!(records.len(), 5 * 5);
    let algorithms = ["bt", "bt-cbj", "fc", "fc-cbj", "mac"];
    let configs =
        ["bt+mrv+pairwise", "bt-cbj+mrv+pairwise", "fc+mrv+pairwise", "fc-cbj+mrv+pairwise", "mac+mrv+matching"];
    for (i, record) in records.iter().enumerate() {
        let tightness = ["0.1", "0.3", "0.5", "0.7", "0.9"][i / 5];
        assert_eq!((record[0].as_str(), record[1].as_str()), (tightness, algorithms[i % 5]));
        assert_eq!(record[2], configs[i % 5]);
        assert_eq!(record[3], "8");
        assert_eq!(record[9], "0", "no limit was set");
        let (fraction, low, high): (f64, f64, f64) =
            (record[5].parse().unwrap(), record[6].parse().unwrap(), record[7].parse().unwrap());
        assert!(low <= fraction && fraction <= high, "the interval holds the fraction: {record:?}");
        for field in &record[10..] {
            let value: f64 = field.parse().unwrap();
            assert!(value >= 0.0 && value.is_finite());
        }
        // The quartiles are ordered.
        let at = |name: &str| record[header.iter().position(|c| c == name).unwrap()].parse::<f64>().unwrap();
        assert!(at("nodes_p10") <= at("nodes_q1") && at("nodes_q1") <= at("nodes_median"));
        assert!(at("nodes_median") <= at("nodes_q3") && at("nodes_q3") <= at("nodes_p90"));
    }

    // The same seed gives the same numbers, whatever the number of threads (but for the times).
    let again = small(&["--format", "csv", "--seed", "7", "--jobs", "1"]);
    assert_eq!(without_time_columns(&again.stdout), without_time_columns(&first.stdout));
    // Another seed gives other instances.
    let other = small(&["--format", "csv", "--seed", "8"]);
    assert_eq!(other.code, 0);
    assert_ne!(without_time_columns(&other.stdout), without_time_columns(&first.stdout));

    // The summary says how long it took, CPU time beside wall clock, and checks backjumping against its twins.
    assert!(first.stderr.contains("sweep: 40 instances x 5 algorithms in"), "{}", first.stderr);
    assert!(first.stderr.contains("solver CPU time per algorithm: bt "), "{}", first.stderr);
    assert!(first.stderr.contains(" wall)"), "{}", first.stderr);
    for twins in ["bt-cbj explored no more nodes than bt", "fc-cbj explored no more nodes than fc"] {
        let line = format!("check: {twins} on all 40 instances where both finished");
        assert!(first.stderr.contains(&line), "{}", first.stderr);
    }
}

#[test]
fn the_satisfiable_fraction_falls_from_one_to_zero_and_backjumping_never_costs_nodes() {
    let out = small(&["--format", "json", "--seed", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert_eq!(
        (value["generator"].as_str(), value["parameter"].as_str()),
        (Some("b:n=10,d=5,p1=0.5,p2=0.38"), Some("p2"))
    );
    assert_eq!(value["samples"], 8);
    let critical = value["critical"]["value"].as_f64().unwrap();
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
        let mean_nodes = |i: usize| costs[i]["nodes"]["mean"]["value"].as_f64().unwrap();
        assert!(mean_nodes(1) <= mean_nodes(0), "bt-cbj <= bt at {}", point["value"]);
        assert!(mean_nodes(3) <= mean_nodes(2), "fc-cbj <= fc at {}", point["value"]);
        let satisfiable = point["satisfiable"].as_u64().unwrap();
        assert_eq!(point["sat_fraction"].as_f64().unwrap(), satisfiable as f64 / 8.0);
    }
    let checks = value["backjumping_checks"].as_array().unwrap();
    assert_eq!(checks.len(), 2);
    assert!(checks.iter().all(|c| c["more_nodes"] == 0 && c["compared"] == 40), "{checks:?}");
    // Every run is there too.
    let runs = value["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 40 * 5);
    assert!(runs.iter().all(|r| r["cpu_ms"].as_f64().is_some() && r["limited"] == 0));
}

#[test]
fn the_text_and_markdown_tables_show_quartiles_per_value() {
    let out = small(&["--algorithms", "bt+input,fc+input"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let tables: Vec<&str> = out.stdout.split("\n\n").collect();
    assert_eq!(tables.len(), 5);
    let titles = ["constraint checks", "mean constraint checks", "nodes", "mean nodes", "CPU time (ms)"];
    for (table, title) in tables.iter().zip(titles) {
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            lines[0].starts_with(&format!("{title}: model B <n=10, d=5, p1=0.5>, 8 instances per p2, seed 1")),
            "{}",
            lines[0]
        );
        assert!(lines[0].contains("; predicted p2 = 0.511"), "{}", lines[0]);
        assert!(lines[1].trim_start().starts_with("p2  sat (95% interval)  flawed"), "{}", lines[1]);
        assert!(
            lines[1].split_whitespace().rev().take(2).eq(["fc+input+pairwise", "bt+input+pairwise"]),
            "{}",
            lines[1]
        );
        assert_eq!(lines.len(), 3 + 5);
        // p2 = 0.1: all satisfiable, the interval from the Wilson score.
        assert!(lines[3].starts_with("0.10  1.000 (0.68-1.00)"), "{}", lines[3]);
        assert!(lines[7].starts_with("0.90  0.000 (0.00-0.32)"), "{}", lines[7]);
    }
    // Medians come with their quartiles.
    let row: Vec<&str> = tables[2].lines().nth(3).unwrap().split_whitespace().collect();
    // p2, sat and its interval, flawed, then a median and its quartiles per algorithm.
    assert_eq!(row.len(), 1 + 2 + 1 + 2 * 2, "{row:?}");
    assert!(row[5].starts_with('(') && row[5].ends_with(')') && row[5].contains('-'), "{row:?}");
    let out = small(&["--algorithms", "fc", "--format", "markdown"]);
    assert_eq!(out.code, 0);
    let first: Vec<&str> = out.stdout.lines().take(4).collect();
    assert!(first[0].starts_with("**constraint checks"));
    assert_eq!(first[2], "| p2 | sat (95% interval) | flawed | fc+mrv+pairwise |");
    assert_eq!(first[3], "| ---: | --- | ---: | --- |");
}

#[test]
fn sweep_is_the_default_command_and_its_defaults_are_the_classic_experiment() {
    // One trivial point (everything is unsatisfiable at p2 = 0.95), so the run is quick.
    let implicit = run(&["--tightness", "0.95", "--samples", "2", "--format", "json"]);
    assert_eq!(implicit.code, 0, "{}", implicit.stderr);
    let explicit = run(&["sweep", "--sweep", "p2=0.95", "--samples", "2", "--format", "json"]);
    let parse = |text: &str| without_times(&serde_json::from_str::<serde_json::Value>(text).unwrap());
    assert_eq!(parse(&implicit.stdout), parse(&explicit.stdout));
    let value: serde_json::Value = serde_json::from_str(&implicit.stdout).unwrap();
    assert_eq!(value["generator"], "b:n=20,d=10,p1=0.5,p2=0.38");
    assert_eq!(value["seed"], 1);
    let critical = value["critical"]["value"].as_f64().unwrap();
    assert!((critical - 0.3844).abs() < 1e-3, "{critical}");
    let names: Vec<&str> =
        value["algorithms"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bt", "bt-cbj", "fc", "fc-cbj", "mac"]);
    assert_eq!(value["points"][0]["sat_fraction"], 0.0);
    // At p2 = 0.95 with d = 10 every instance has a variable of flawed values only.
    assert_eq!(value["points"][0]["flawed"], 2);

    let help = run(&["--help"]);
    assert_eq!(help.code, 0);
    for text in ["sweep", "one", "rtd", "b-flawless", "rb: model RB", "qwh", "colouring", "alpha=0.8"] {
        assert!(help.stdout.contains(text), "{text}: {}", help.stdout);
    }
    let help = run(&["sweep", "--help"]);
    assert!(help.stdout.contains("0.05..0.95:0.05") && help.stdout.contains("bt,bt-cbj,fc,fc-cbj,mac"));
}

#[test]
fn bad_words_and_bad_parameters_are_usage_errors() {
    let cases: [(&[&str], &str); 31] = [
        (&["sweep", "--algorithms", "bt,quick"], "unknown level 'quick'"),
        (&["sweep", "--algorithms", "fc+fastest"], "unknown word 'fastest'"),
        (&["sweep", "--algorithms", "mac/ac4"], "unknown arc-consistency algorithm 'ac4'"),
        (&["one", "--configs", "fc+mrv,fc+best"], "unknown word 'best'"),
        (&["sweep", "--tightness", "0.1..0.5"], "has no step"),
        (&["sweep", "--tightness", "0.1..0.5:0"], "the step must be positive"),
        (&["sweep", "--tightness", "0.5..0.1:0.1"], "is empty"),
        (&["sweep", "--tightness", "0.2,1.5"], "between 0 and 1"),
        (&["sweep", "--tightness", "x"], "'x' is not a number"),
        (&["sweep", "--samples", "0", "--tightness", "0.5"], "'--samples <K>': must be a whole number, 1 or more"),
        (&["sweep", "--vars", "1"], "n of b must be a whole number from 2 to 2000, not 1"),
        // One message for every value refused, not "0 or more" for -1 and then "from 2" for 0.
        (&["sweep", "--vars", "-1"], "n of b must be a whole number from 2 to 2000, not -1"),
        (&["one", "--vars", "2.5"], "n of b must be a whole number from 2 to 2000, not 2.5"),
        (&["one", "--values", "0"], "d of b must be a whole number from 1 to 1000, not 0"),
        (&["one", "--values", "-3"], "d of b must be a whole number from 1 to 1000, not -3"),
        (&["sweep", "--density", "1.5"], "p1 of b must be between 0 and 1, not 1.5"),
        (&["one", "--vars", "100000"], "from 2 to 2000"),
        (&["sweep", "--model", "ab"], "unknown generator 'ab'"),
        (&["sweep", "--model", "rb", "--sweep", "q=0.1"], "rb has no parameter 'q'"),
        (&["sweep", "--model", "rb", "--tightness", "0.1"], "--tightness is model B's"),
        (&["sweep", "--model", "qwh", "--vars", "10"], "--vars, --values, --density and --tightness are model B's"),
        (&["sweep", "--model", "b-flawless:d=4", "--sweep", "0.5,0.8"], "above 0.7500"),
        (
            &["sweep", "--model", "colouring:n=5", "--sweep", "degree=3,6"],
            "degree of colouring must be at most n - 1 = 4 (n = 5 vertices), not 6",
        ),
        (&["one", "--model", "rb:n=20,p=0.3,n=30"], "parameter 'n' is given twice in generator 'rb:n=20,p=0.3,n=30'"),
        (
            &["sweep", "--model", "b:n=20", "--vars", "30"],
            "parameter 'n' is given twice: in --model b:n=20 and as --vars",
        ),
        (&["one", "--model", "b:p2=0.3", "--tightness", "0.4"], "parameter 'p2' is given twice"),
        (
            &["sweep", "--model", "qwh", "--sweep", "holes=0.5..1.5:0.5"],
            "holes of qwh must be between 0 and 1, not 1.5",
        ),
        // Huge values are echoed as typed, not with their 309 digits.
        (&["one", "--model", "rb:alpha=1e308"], "model RB <n=20, alpha=1e308, r=2, p="),
        (&["sweep", "--tightness", "1e300..1e-300:0.1"], "is empty: 1e300 is above 1e-300"),
        (&["sweep", "--tightness", "0.1,1e300"], "a tightness is between 0 and 1, not 1e300\n"),
        (&["sweep", "--model", "rb", "--sweep", "r=1e300"], "model RB <n=20, alpha=0.8, r=1e300, p=0.33> is too large"),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        if args.iter().any(|arg| arg.contains("e30")) {
            assert!(out.stderr.len() < 200, "{args:?}: {} bytes: {}", out.stderr.len(), out.stderr);
        }
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
    assert_eq!(header[..2], ["config", "instance"]);
    assert_eq!(records.len(), 6, "the default configurations");
    assert!(records.iter().all(|r| r[1] == "b:n=12,d=6,p1=0.5,p2=0.3 seed 5"), "{records:?}");
    let solved: Vec<&str> = records.iter().map(|r| r[2].as_str()).collect();
    assert!(solved.iter().all(|s| *s == solved[0]), "they agree on satisfiability: {solved:?}");

    let out = run(&["one", "--vars", "8", "--values", "4", "--configs", "bt+input,mac+mrv", "--goal", "count"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The default tightness is the predicted phase transition, to two decimals.
    let critical = 1.0 - 4f64.powf(-2.0 / (0.5 * 7.0));
    let name = format!("b:n=8,d=4,p1=0.5,p2={} seed 1", (critical * 100.0).round() / 100.0);
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
fn one_runs_every_generator() {
    // An empty quasigroup of order 4: the 576 Latin squares, under every configuration.
    let out = run(&[
        "one",
        "--model",
        "qwh:n=4,holes=1",
        "--goal",
        "count",
        "--configs",
        "fc+mrv,mac+mrv",
        "--format",
        "csv",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, records) = csv(&out.stdout);
    assert!(records.iter().all(|r| r[4] == "576"), "{records:?}");
    // Model RB at its threshold, and colouring: /ac2001 changes nothing on not-equals.
    let out = run(&["one", "--model", "rb:n=12", "--configs", "fc+mrv,mac/ac2001+mrv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let p = 1.0 - (-0.4f64).exp();
    assert!(
        out.stdout.contains(&format!("rb:n=12,alpha=0.8,r=2,p={} seed 1", (p * 100.0).round() / 100.0)),
        "{}",
        out.stdout
    );
    assert!(!out.stderr.contains("changes nothing"), "{}", out.stderr);
    let out = run(&["one", "--model", "colouring:n=30,k=3", "--configs", "fc+mrv,mac/ac2001+mrv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("colouring:n=30,k=3,degree=5.42 seed 1"), "{}", out.stdout);
    assert!(out.stderr.contains("note: mac/ac2001+mrv+matching: /ac2001 changes nothing here"), "{}", out.stderr);
}

#[test]
fn sweeps_run_every_generator_and_flawless_instances_have_no_flaw() {
    let sweep = |args: &[&str]| {
        let mut all = vec!["sweep", "--samples", "4", "--algorithms", "fc,mac", "--format", "json"];
        all.extend(args);
        let out = run(&all);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        serde_json::from_str::<serde_json::Value>(&out.stdout).unwrap()
    };
    let b = sweep(&["--model", "b:n=12,d=5", "--sweep", "0.8,0.9"]);
    let flawed = |v: &serde_json::Value| -> Vec<u64> {
        v["points"].as_array().unwrap().iter().map(|p| p["flawed"].as_u64().unwrap()).collect()
    };
    assert!(flawed(&b).iter().sum::<u64>() > 0, "model B at p2 >= 0.8 is flawed: {:?}", flawed(&b));
    let flawless = sweep(&["--model", "b-flawless:n=12,d=5", "--sweep", "0.6,0.8"]);
    assert_eq!(flawed(&flawless), [0, 0]);
    let rb = sweep(&["--model", "rb:n=10", "--sweep", "p=0.1,0.6"]);
    assert_eq!(rb["parameter"], "p");
    assert_eq!(rb["critical"]["kind"], "exact threshold");
    let fractions: Vec<f64> =
        rb["points"].as_array().unwrap().iter().map(|p| p["sat_fraction"].as_f64().unwrap()).collect();
    assert_eq!(fractions, [1.0, 0.0]);
    let r = sweep(&["--model", "rb:n=10,p=0.25", "--sweep", "r=0.5,1"]);
    assert_eq!(r["parameter"], "r");
    let qwh = sweep(&["--model", "qwh:n=6", "--sweep", "0.3,0.6"]);
    assert!(
        qwh["points"].as_array().unwrap().iter().all(|p| p["sat_fraction"] == 1.0),
        "a QWH instance is satisfiable"
    );
    assert!(qwh["points"][0]["flawed"].is_null());
    let colouring = sweep(&["--model", "colouring:n=20", "--sweep", "1,9"]);
    assert_eq!(colouring["critical"]["kind"], "first-moment estimate");
    let fractions: Vec<f64> =
        colouring["points"].as_array().unwrap().iter().map(|p| p["sat_fraction"].as_f64().unwrap()).collect();
    assert_eq!(fractions, [1.0, 0.0]);
}

#[test]
fn records_have_a_line_per_run_in_csv_or_json() {
    let dir = std::env::temp_dir();
    let csv_path = dir.join(format!("csp-lab-records-{}.csv", std::process::id()));
    let json_path = dir.join(format!("csp-lab-records-{}.json", std::process::id()));
    for path in [&csv_path, &json_path] {
        let out = small(&["--records", path.to_str().unwrap(), "--node-limit", "30", "--format", "csv"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let text = std::fs::read_to_string(&csv_path).unwrap();
    std::fs::remove_file(&csv_path).unwrap();
    let (header, records) = csv(&text);
    assert_eq!(
        header,
        [
            "p2",
            "sample",
            "seed",
            "algorithm",
            "config",
            "satisfiable",
            "flawed",
            "solved",
            "limited",
            "nodes",
            "checks",
            "failures",
            "backtracks",
            "cpu_ms",
            "time_ms"
        ]
    );
    assert_eq!(records.len(), 40 * 5);
    assert!(records.iter().any(|r| r[8] == "1"), "the node limit stopped some runs");
    for r in &records {
        let nodes: u64 = r[9].parse().unwrap();
        assert!(nodes <= 31, "{r:?}");
        if r[7] == "1" {
            assert_eq!(r[5], "1", "a run that solved the instance makes it satisfiable: {r:?}");
        }
    }
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
    std::fs::remove_file(&json_path).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 40 * 5);
    assert_eq!(json[0]["p2"], 0.1);
}

#[test]
fn limited_runs_are_marked_as_lower_bounds_and_nothing_compared_is_not_a_check() {
    let out = small(&["--node-limit", "1", "--algorithms", "bt,bt-cbj", "--plot", "/nonexistent-dir/x.svg"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let path = std::env::temp_dir().join(format!("csp-lab-bounds-{}.svg", std::process::id()));
    let out = small(&["--node-limit", "1", "--algorithms", "bt,bt-cbj", "--plot", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains(">="), "lower bounds are marked: {}", out.stdout);
    assert!(!out.stderr.contains("on all 0 instances"), "{}", out.stderr);
    assert!(
        out.stderr.contains("note: bt-cbj against bt: a limit stopped one of them on every instance"),
        "{}",
        out.stderr
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(svg.contains("a lower bound: a limit stopped some of its runs"), "the plot marks them too");
}

#[test]
fn rtd_draws_the_run_time_distribution_of_random_configurations() {
    let path = std::env::temp_dir().join(format!("csp-lab-rtd-{}.svg", std::process::id()));
    // A satisfiable instance below the transition: where the first solution lies depends on the values' order.
    let args =
        ["rtd", "--model", "b:n=15,d=6,p2=0.3", "--seed", "2", "--runs", "20", "--configs", "fc+mrv+random,fc+mrv"];
    let out = run(&[&args[..], &["--plot", path.to_str().unwrap()]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("run-time distribution on instance 'b:n=15,d=6,p1=0.5,p2=0.3 seed 2'"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("fc+mrv+random") && out.stdout.contains("\nfc+mrv+pairwise "), "{}", out.stdout);
    assert!(
        out.stderr.contains("note: fc+mrv+pairwise makes no random choice: its 20 runs are the same search"),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("fc+mrv+random+pairwise makes"), "{}", out.stderr);
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    for text in ["run-time distribution", "survival", "nodes", "fc+mrv+random"] {
        assert!(svg.contains(text), "{text} is not in the plot");
    }
    let out = run(&[&args[..], &["--format", "csv"]].concat());
    let (header, records) = csv(&out.stdout);
    assert_eq!(header[..5], ["config", "seed", "solved", "limited", "nodes"]);
    assert_eq!(records.len(), 40);
    // The random configuration explores different trees; the other always the same one.
    let nodes =
        |config: &str| -> Vec<&str> { records.iter().filter(|r| r[0] == config).map(|r| r[4].as_str()).collect() };
    let fixed = nodes("fc+mrv+pairwise");
    assert_eq!(fixed.len(), 20);
    assert!(fixed.iter().all(|n| *n == fixed[0]), "{fixed:?}");
    let random = nodes("fc+mrv+random+pairwise");
    assert_eq!(random.len(), 20);
    assert!(random.iter().any(|n| *n != random[0]), "{random:?}");
    assert_eq!(
        records.iter().filter(|r| r[0] == "fc+mrv+random+pairwise").map(|r| r[1].as_str()).collect::<Vec<_>>()[..3],
        ["1", "2", "3"]
    );
}

#[test]
fn the_plot_has_the_curves_the_fraction_and_the_predicted_point() {
    let path = std::env::temp_dir().join(format!("csp-lab-test-{}.svg", std::process::id()));
    let out = small(&["--plot", path.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for text in [
        "median constraint checks",
        "median nodes",
        "median CPU time (ms)",
        "fraction satisfiable",
        "predicted p2 = 0.511",
        "bt-cbj",
        "mac",
    ] {
        assert!(svg.contains(text), "{text} is not in the plot");
    }
    let bad = small(&["--plot", "/nonexistent-directory/x.svg"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("cannot write the plot"), "{}", bad.stderr);
    assert!(bad.stderr.contains("there is no directory /nonexistent-directory"), "{}", bad.stderr);
    // The records file is named as such, before the sweep runs.
    let directory = std::env::temp_dir();
    let bad = small(&["--records", directory.to_str().unwrap()]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("cannot write the records to") && bad.stderr.contains("it is a directory"),
        "{}",
        bad.stderr
    );
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
    assert_eq!(header[0], "p2");
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

#[test]
fn learn_runs_each_learning_twin_in_sweeps_and_distributions() {
    // A sweep: fc cannot learn, mac's twin follows it; the nogoods have their table, quantiles and records.
    let plain = small(&["--algorithms", "fc,mac", "--format", "csv"]);
    assert!(!plain.stdout.contains("learnt"), "no learnt column when nothing learns: {}", plain.stdout);
    let out = small(&["--algorithms", "fc,mac,fc-cbj", "--learn", "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (header, records) = csv(&out.stdout);
    let algorithms: Vec<&str> = records.iter().take(4).map(|r| r[1].as_str()).collect();
    assert_eq!(algorithms, ["fc", "mac", "mac+learn", "fc-cbj"], "each twin just after its algorithm");
    // The algorithms without a twin are named, with the reason; mac is not.
    let notes: Vec<&str> = out.stderr.lines().filter(|l| l.contains("has no learning twin")).collect();
    assert_eq!(notes.len(), 2, "{}", out.stderr);
    assert!(notes[0].starts_with("note: --learn: fc+mrv+pairwise has no learning twin: learning without"), "{notes:?}");
    assert!(notes[1].starts_with("note: --learn: fc-cbj+mrv+pairwise has no learning twin: "), "{notes:?}");
    assert!(!plain.stderr.contains("learning twin"), "no note without --learn: {}", plain.stderr);
    let at = |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name} in {header:?}"));
    let (learnt, nodes) = (at("learnt_mean"), at("nodes_median"));
    assert!(at("learnt_median") > nodes && at("learnt_median") < at("cpu_ms_median"));
    let learnt_of = |algorithm: &str| -> f64 {
        records.iter().filter(|r| r[1] == algorithm).map(|r| r[learnt].parse::<f64>().unwrap()).sum()
    };
    assert_eq!(learnt_of("mac"), 0.0);
    assert!(learnt_of("mac+learn") > 0.0, "mac+learn learns near the transition");
    let table = small(&["--algorithms", "mac", "--learn"]);
    assert!(table.stdout.contains("\nnogoods learnt: "), "{}", table.stdout);
    assert!(table.stdout.contains("mac+learn+mrv+matching"), "{}", table.stdout);
    let json: serde_json::Value =
        serde_json::from_str(&small(&["--algorithms", "mac", "--learn", "--format", "json"]).stdout).unwrap();
    assert_eq!(json["algorithms"][1]["name"], "mac+learn");
    assert!(json["points"][0]["algorithms"][1]["learnt"]["median"]["value"].is_number(), "{}", json["points"][0]);
    assert!(json["runs"][0]["learnt"].is_number());
    // The answers agree (the sweep checks it) and learning changes no satisfiable fraction.
    let sat = |text: &str| -> Vec<String> { csv(text).1.iter().map(|r| r[4].clone()).collect() };
    let without = small(&["--algorithms", "mac", "--format", "csv"]);
    let with = small(&["--algorithms", "mac", "--learn", "--format", "csv"]);
    assert_eq!(
        sat(&with.stdout).iter().step_by(2).collect::<Vec<_>>(),
        sat(&without.stdout).iter().collect::<Vec<_>>()
    );

    // A run-time distribution: a learnt column in the summary and the records.
    let args = [
        "rtd",
        "--model",
        "b:n=15,d=6,p2=0.45",
        "--seed",
        "2",
        "--runs",
        "5",
        "--configs",
        "fc+mrv+random,mac+mrv+random",
    ];
    let out = run(&[&args[..], &["--learn"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("note: --learn: fc+mrv+random+pairwise has no learning twin: "), "{}", out.stderr);
    assert!(!out.stderr.contains("note: --learn: mac"), "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[1].ends_with("learnt median"), "{}", out.stdout);
    let configs: Vec<&str> = lines[3..].iter().map(|line| line.split_whitespace().next().unwrap()).collect();
    assert_eq!(configs, ["fc+mrv+random+pairwise", "mac+mrv+random+matching", "mac+learn+mrv+random+matching"]);
    let out = run(&[&args[..], &["--learn", "--format", "csv"]].concat());
    let (header, records) = csv(&out.stdout);
    let learnt = header.iter().position(|h| h == "learnt").expect("a learnt column");
    assert_eq!(records.len(), 15);
    assert!(records.iter().filter(|r| r[0].contains("+learn")).all(|r| r[learnt].parse::<u64>().unwrap() > 0));
    assert!(!run(&args).stdout.contains("learnt"), "no learnt column when nothing learns");
}

#[test]
fn a_sweep_killed_part_way_keeps_the_records_of_the_instances_it_finished() {
    // The records file fills as the instances finish: seen while the sweep
    // runs (no time is asserted; the sweep would take a quarter of an hour,
    // written at its end it would be seen by no deadline), then killed.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let path = std::env::temp_dir().join(format!("csp-lab-killed-{}.csv", std::process::id()));
    let child = Command::new(env!("CARGO_BIN_EXE_csp-lab"))
        .args(["sweep", "--vars", "12", "--values", "6", "--tightness", "0.1..0.9:0.2", "--samples", "200000"])
        .args(["--algorithms", "bt,fc", "--jobs", "1", "--records", path.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut child = Killed(child);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let text = loop {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        // The header and three instances' pairs of records.
        const SEEN: usize = 1 + 2 * 3;
        if text.lines().count() >= SEEN {
            break text;
        }
        assert!(child.0.try_wait().unwrap().is_none(), "the sweep ended before its records were seen");
        assert!(std::time::Instant::now() < deadline, "no records after a minute: {text:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(child.0.try_wait().unwrap().is_none(), "the sweep is still running");
    drop(child);
    let text = std::fs::read_to_string(&path).unwrap_or(text);
    std::fs::remove_file(&path).unwrap();
    // Whole records only, a pair per instance (bt and fc), each naming its instance.
    let complete = &text[..=text.rfind('\n').unwrap()];
    let (header, records) = csv(complete);
    assert_eq!(header[..4], ["p2", "sample", "seed", "algorithm"]);
    assert!(records.len() >= 2 * 3 && records.len() % 2 == 0, "{text}");
    for pair in records.chunks(2) {
        assert_eq!((pair[0][3].as_str(), pair[1][3].as_str()), ("bt", "fc"), "{pair:?}");
        assert_eq!(pair[0][..3], pair[1][..3], "{pair:?}");
    }
}

#[test]
fn sweep_rtd_and_one_say_when_an_ordering_cannot_act_on_the_family() {
    // Model B has no all-different: places is mrv there, and rotate without
    // restarts is dom/wdeg; a quasigroup's rows and columns are all-differents.
    let places = "note: mac+places+matching: +places changes nothing here: it reads the all-differents";
    let rotate = "+rotate changes nothing here: it takes its orderings in turn at restarts";
    let out = small(&["--algorithms", "fc,mac+places,mac+rotate,mac+rotate+luby"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains(places) && out.stderr.ends_with("it is domwdeg throughout\n"), "{}", out.stderr);
    assert_eq!(out.stderr.matches("changes nothing here").count(), 2, "{}", out.stderr);
    let qwh = ["sweep", "--model", "qwh:n=6", "--sweep", "holes=0.4", "--samples", "2", "--algorithms"];
    let out = run(&[&qwh[..], &["mac+places,mac+aplaces+luby"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains("changes nothing"), "{}", out.stderr);
    let out = run(&["rtd", "--runs", "2", "--configs", "mac+places+random"]);
    assert!(out.stderr.contains("note: mac+places+random+matching: +places changes nothing here"), "{}", out.stderr);
    let out = run(&["one", "--configs", "mac+rotate"]);
    assert!(out.stderr.contains(rotate), "{}", out.stderr);
    let out = run(&["sweep", "-q", "--samples", "1", "--tightness", "0.3", "--algorithms", "mac+places"]);
    assert_eq!(out.stderr, "", "-q: no notes");
}
