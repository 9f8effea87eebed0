//! The comparison report, run the way a tool's `compare` subcommand runs it:
//! options parsed by clap, models handed to `run_comparison`, output captured.

use clap::Parser;
use csp::{Model, SolveConfig};

use super::compare::test_models::queens;
use crate::report::compare::{AUTO_MIN_RUNS, Repeats};
use crate::report::{self, CompareArgs, Format, GoalArg};
use csp::testing::PlantedBug;

#[derive(Parser, Debug)]
struct Cli {
    #[command(flatten)]
    compare: CompareArgs,
}

/// Parses as the tools do ([`crate::app::negatives_as_values`]: `--timeout -1`
/// reaches the option's own parser).
fn parse(args: &[&str]) -> Result<CompareArgs, clap::Error> {
    use clap::{CommandFactory as _, FromArgMatches as _};
    let command = crate::app::negatives_as_values(Cli::command());
    let matches = command.try_get_matches_from(std::iter::once("tool").chain(args.iter().copied()))?;
    Cli::from_arg_matches(&matches).map(|cli| cli.compare)
}

struct Output {
    code: u8,
    stdout: String,
    stderr: String,
}

fn run(instances: &[(&str, &Model)], args: &[&str]) -> Output {
    let args = parse(args).expect("valid options");
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let code = report::run_comparison(instances, &args, &mut stdout, &mut stderr).expect("the table is written");
    Output { code, stdout: String::from_utf8(stdout).unwrap(), stderr: String::from_utf8(stderr).unwrap() }
}

fn default_names() -> Vec<String> {
    report::DEFAULT_CONFIGS.split(',').map(|c| c.parse::<SolveConfig>().unwrap().to_string()).collect()
}

/// A unique path in the temporary directory.
fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("csp-report-test-{}-{name}", std::process::id()))
}

#[test]
fn the_options_have_documented_defaults() {
    let args = parse(&[]).unwrap();
    assert_eq!(args, CompareArgs::default());
    let names: Vec<String> = args.configs.iter().map(|c| c.to_string()).collect();
    assert_eq!(
        names,
        [
            "bt+input+pairwise",
            "bt-cbj+input+pairwise",
            "fc+mrv+pairwise",
            "fc-cbj+mrv+pairwise",
            "mac+mrv+matching",
            "mac/ac2001+domwdeg+matching"
        ]
    );
    assert_eq!((args.goal, args.repeats, args.format), (GoalArg::First, Repeats::Auto, Format::Table));
    assert_eq!(parse(&["--repeats", "7"]).unwrap().repeats, Repeats::Exactly(7));
    assert_eq!(parse(&["--repeats", "AUTO"]).unwrap().repeats, Repeats::Auto);

    let args = parse(&["--configs", "fc+lcv,mac/ac2001", "--goal", "all", "--format", "md", "--timeout", "2"]).unwrap();
    assert_eq!(args.configs.len(), 2);
    assert_eq!(args.configs[1].to_string(), "mac/ac2001+mrv+matching");
    assert_eq!(args.format, Format::Markdown);
    let options = args.options();
    assert_eq!(options.goal, report::compare::Goal::All);
    assert_eq!(options.limits.time, Some(std::time::Duration::from_secs(2)));
}

#[test]
fn unknown_configuration_words_are_bad_usage_with_the_grammar() {
    let err = parse(&["--configs", "fc+mrv,fc+fastest"]).unwrap_err();
    assert_eq!(err.exit_code(), 2);
    let message = err.to_string();
    assert!(message.contains("unknown word 'fastest' in configuration 'fc+fastest'"), "{message}");
    assert!(message.contains("domwdeg"), "the message lists the words: {message}");

    let err = parse(&["--configs", "ac3+mrv"]).unwrap_err().to_string();
    assert!(err.contains("unknown level 'ac3'"), "{err}");
    assert!(parse(&["--configs", ""]).is_err());
    assert!(parse(&["--repeats", "0"]).is_err());
    assert!(parse(&["--repeats", "1001"]).is_err());
    assert!(parse(&["--repeats", "often"]).unwrap_err().to_string().contains("neither 'auto' nor a number"));
    assert!(parse(&["--goal", "best"]).is_err());
    assert!(parse(&["--format", "xml"]).is_err());
    assert!(parse(&["--timeout", "-1"]).unwrap_err().to_string().contains("not a non-negative number of seconds"));
}

#[test]
fn the_table_has_a_row_per_configuration_and_the_agreed_counts() {
    let six = queens(6);
    let out = run(&[("6-queens", &six)], &["--goal", "count"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "instance '6-queens'; counting the solutions; median time of warm runs");
    let header: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(header[..4], ["config", "solved", "limited", "solutions"]);
    assert!(lines[2].starts_with("----"));
    let end = lines.iter().position(|line| line.is_empty()).expect("a blank line before the pruning table");
    let rows = &lines[3..end];
    assert_eq!(rows.len(), 6);
    // The pruning attribution follows: one row per constraint kind, one
    // column per configuration.
    assert!(lines[end + 1].starts_with("values pruned by each kind of constraint"), "{}", out.stdout);
    let kinds: Vec<&str> = lines[end + 2].split_whitespace().collect();
    assert_eq!(kinds[0], "kind");
    assert_eq!(kinds[1..], default_names()[..], "{}", out.stdout);
    assert!(lines[end + 4].starts_with("all_different "), "{}", out.stdout);
    assert_eq!(lines.len(), end + 5, "{}", out.stdout);
    for (row, name) in rows.iter().zip(default_names()) {
        let fields: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(fields[0], name);
        assert_eq!(fields[3], "4", "6-queens has 4 solutions: {row}");
        // The numbers are right-aligned: every row is as long as the rule.
        assert_eq!(row.len(), lines[2].len(), "{row}");
    }
}

#[test]
fn csv_has_a_header_and_one_record_per_instance_and_configuration() {
    let (five, six) = (queens(5), queens(6));
    let out = run(&[("5-queens", &five), ("6-queens", &six)], &["--goal", "count", "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "config,instance,solved,limited,solutions,nodes,backtracks,backjumps,failures,checks,propagations,pruned,\
         max_depth,time_ms,cpu_ms,runs,time_min_ms,time_max_ms,cpu_min_ms,cpu_max_ms"
    );
    assert_eq!(lines.len(), 1 + 2 * 6, "a record per instance and configuration");
    let names = default_names();
    for (i, line) in lines[1..].iter().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 20, "{line}");
        let (instance, solutions) = if i < 6 { ("5-queens", "10") } else { ("6-queens", "4") };
        assert_eq!(
            (fields[0], fields[1], fields[2], fields[3], fields[4]),
            (names[i % 6].as_str(), instance, "1", "0", solutions)
        );
        assert!(fields[5].parse::<u64>().unwrap() > 0);
        for time in [fields[13], fields[14], fields[16], fields[17], fields[18], fields[19]] {
            let ms: f64 = time.parse().unwrap();
            assert!(ms >= 0.0 && ms.is_finite(), "{line}");
            // No float noise: at most nanosecond precision in milliseconds.
            assert!(time.split('.').nth(1).is_none_or(|decimals| decimals.len() <= 6), "{line}");
        }
        assert!(fields[15].parse::<u64>().unwrap() >= 1, "{line}");
        // The medians lie within the range of the timed runs.
        let at = |i: usize| fields[i].parse::<f64>().unwrap();
        assert!(at(16) <= at(13) && at(13) <= at(17), "{line}");
        assert!(at(18) <= at(14) && at(14) <= at(19), "{line}");
    }
}

#[test]
fn json_has_the_totals_and_every_measurement() {
    let (five, six) = (queens(5), queens(6));
    let out = run(&[("5-queens", &five), ("6-queens", &six)], &["--goal", "all", "--format", "json", "--repeats", "3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    assert_eq!(value["goal"], "all");
    assert_eq!(value["repeats"], 3);
    assert_eq!(value["instances"], serde_json::json!(["5-queens", "6-queens"]));
    let configs = value["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 6);
    for (config, name) in configs.iter().zip(default_names()) {
        assert_eq!(config["config"], name.as_str());
        assert_eq!(config["solutions"], 14);
        assert!(config["nodes"].as_u64().unwrap() > 0);
        assert!(config["time_ms"].as_f64().is_some());
    }
    // Pruning attribution per configuration: queens has one kind of
    // constraint, and it made every removal.
    let pruning = value["pruning"].as_array().unwrap();
    assert_eq!(pruning.len(), 6);
    for (entry, config) in pruning.iter().zip(configs) {
        assert_eq!(entry["config"], config["config"]);
        let kinds = entry["kinds"].as_array().unwrap();
        assert_eq!(kinds.len(), 1);
        assert_eq!(kinds[0]["kind"], "all_different");
        assert_eq!(kinds[0]["pruned"], config["pruned"]);
    }
    let measurements = value["measurements"].as_array().unwrap();
    assert_eq!(measurements.len(), 12);
    assert_eq!(measurements[0]["instance"], "5-queens");
    assert_eq!(measurements[0]["solutions"], 10);
    assert_eq!(measurements[11]["instance"], "6-queens");
    assert_eq!(measurements[11]["solutions"], 4);
    assert!(measurements.iter().all(|m| m["limited"] == 0 && m["runs"] == 3));
    // The spread of the three timed runs around their median.
    for m in measurements {
        let at = |field: &str| m[field].as_f64().unwrap();
        assert!(at("time_min_ms") <= at("time_ms") && at("time_ms") <= at("time_max_ms"), "{m}");
    }
    assert!(measurements.iter().all(|m| m["cpu_ms"].as_f64().is_some_and(|ms| ms >= 0.0)));
    assert!(configs.iter().all(|c| c["cpu_ms"].as_f64().is_some()));
    // Where the numbers came from (report::provenance).
    assert_eq!(value["provenance"]["version"], env!("CARGO_PKG_VERSION"));
    assert!(value["provenance"]["started_utc"].is_string() && value["provenance"]["cores"].as_u64() >= Some(1));
}

#[test]
fn repeats_default_to_a_warm_up_and_enough_timed_runs() {
    let six = queens(6);
    let out = run(&[("6-queens", &six)], &["--format", "json", "--configs", "fc+mrv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(value["repeats"], "auto");
    // 6-queens takes microseconds: a warm-up, then at least three timed runs.
    let runs = value["measurements"][0]["runs"].as_u64().unwrap();
    assert!(runs >= AUTO_MIN_RUNS as u64, "{runs}");
    let out = run(&[("6-queens", &six)], &["--format", "json", "--configs", "fc+mrv", "--repeats", "1"]);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!((value["repeats"].as_u64(), value["measurements"][0]["runs"].as_u64()), (Some(1), Some(1)));
    let out = run(&[("6-queens", &six)], &["--configs", "fc+mrv"]);
    assert!(
        out.stdout.starts_with("instance '6-queens'; the first solution; median time of warm runs"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_switch_that_changes_nothing_is_said_on_stderr() {
    let six = queens(6);
    let out = run(&[("6-queens", &six)], &["--configs", "mac+mrv,mac/ac2001+mrv", "--goal", "count"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "note: mac/ac2001+mrv+matching: /ac2001 changes nothing here: it is how generic support checking"
        ),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("note: mac+mrv:"), "{}", out.stderr);
}

#[test]
fn the_cactus_plot_has_a_line_per_configuration() {
    let (five, six) = (queens(5), queens(6));
    let path = temp_path("cactus.svg");
    let out = run(
        &[("/some/dir/five.txt:1", &five), ("/some/dir/six.txt:1", &six)],
        &["--configs", "fc+mrv,mac+mrv", "--cactus", path.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let svg = std::fs::read_to_string(&path).expect("the cactus plot was written");
    std::fs::remove_file(&path).unwrap();
    for text in ["cactus plot", "fc+mrv", "mac+mrv", "instances finished", "CPU time per instance (ms)"] {
        assert!(svg.contains(text), "{text} is not in the plot");
    }
    assert!(!svg.contains("/some/dir"), "no file names in a chart's title");
    // Two points per configuration: each finished both instances.
    assert_eq!(svg.matches("<circle").count(), 4, "{svg}");
}

#[test]
fn markdown_is_a_table_with_numeric_columns_right_aligned() {
    let six = queens(6);
    let out = run(&[("6-queens", &six)], &["--format", "markdown", "--configs", "fc+mrv,mac+mrv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with("**instance '6-queens'"), "{}", lines[0]);
    assert_eq!(lines[1], "");
    assert!(lines[2].starts_with("| config | solved |"));
    assert!(lines[3].starts_with("| --- | ---: |"));
    assert!(lines[4].starts_with("| fc+mrv+pairwise | 1 |") && lines[5].starts_with("| mac+mrv+matching | 1 |"));
    let columns = lines[2].matches('|').count();
    assert!(lines[2..6].iter().all(|line| line.matches('|').count() == columns));
    // Then the pruning attribution, a second table.
    assert_eq!(lines[6], "");
    assert!(lines[7].starts_with("**values pruned by each kind"), "{}", lines[7]);
    assert_eq!(lines[9], "| kind | fc+mrv+pairwise | mac+mrv+matching |");
    assert!(lines[11].starts_with("| all_different | "), "{}", lines[11]);
    assert_eq!(lines.len(), 12);
}

fn planted() -> Model {
    let mut model = Model::new();
    let x = model.new_var(0..=3).unwrap();
    let y = model.new_var(0..=3).unwrap();
    model.post(PlantedBug([x, y])).unwrap();
    model
}

#[test]
fn a_planted_disagreement_prints_no_table_and_exits_1() {
    let model = planted();
    for format in ["table", "csv", "json", "markdown"] {
        let out = run(&[("planted", &model)], &["--goal", "count", "--format", format]);
        assert_eq!(out.code, 1, "{format}: {}", out.stderr);
        if format == "csv" {
            // Records are written as the runs finish: the four configurations
            // without maintained arc consistency agree (12 solutions), then
            // mac+mrv disagrees, and neither it nor anything after is written.
            let lines: Vec<&str> = out.stdout.lines().collect();
            assert_eq!(lines.len(), 1 + 4, "{}", out.stdout);
            assert!(lines[0].starts_with("config,instance,"), "{}", out.stdout);
            assert!(lines[1..].iter().all(|line| line.contains(",planted,1,0,12,")), "{}", out.stdout);
            assert!(!out.stdout.contains("mac"), "{}", out.stdout);
        } else {
            assert_eq!(out.stdout, "", "{format}: no table after a disagreement");
        }
        assert!(out.stderr.contains("DISAGREEMENT"), "{}", out.stderr);
        assert!(out.stderr.contains("disagree on instance 'planted'"), "{}", out.stderr);
        assert!(out.stderr.contains("12 solutions"), "plain backtracking counts all 12: {}", out.stderr);
    }
    // Without maintained arc consistency the broken propagator never runs: no disagreement.
    let out = run(&[("planted", &model)], &["--goal", "count", "--configs", "bt+input,fc+mrv,fc-cbj+input"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // No plot is written either.
    let path = temp_path("planted.svg");
    let out = run(&[("planted", &model)], &["--goal", "all", "--plot", path.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    assert!(!path.exists());
}

#[test]
fn csv_keeps_the_records_of_the_instances_before_a_disagreement() {
    // What a comparison killed part way keeps: every record written before.
    let (six, planted) = (queens(6), planted());
    let out = run(&[("6-queens", &six), ("planted", &planted)], &["--goal", "count", "--format", "csv"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 1 + 6 + 4, "{}", out.stdout);
    for (line, name) in lines[1..7].iter().zip(default_names()) {
        assert!(line.starts_with(&format!("{name},6-queens,1,0,4,")), "{line}");
    }
    assert!(lines[7..].iter().all(|line| line.contains(",planted,1,0,12,")), "{}", out.stdout);
}

#[test]
fn csv_written_record_by_record_is_the_csv_of_the_whole_comparison() {
    let (five, six) = (queens(5), queens(6));
    let instances = [("5-queens", &five), ("6-queens", &six)];
    for goal in ["count", "optimize"] {
        let args = parse(&["--goal", goal, "--repeats", "1", "--configs", "bt+input,mac+mrv,mac+mrv+learn"]).unwrap();
        let options = args.options();
        let records =
            super::MeasurementRecords { goal: options.goal, optional: super::OptionalColumns::of(&args.configs) };
        let mut streamed = Vec::new();
        records.table().write_csv_header(&mut streamed).unwrap();
        let mut each = |instance: &str, m: &super::Measurement| {
            super::Table::write_csv_record(&records.cells(instance, m), &mut streamed).unwrap();
            true
        };
        let comparison =
            super::compare_each(&instances, &args.configs, &options, &mut each).unwrap().expect("not stopped");
        let mut whole = Vec::new();
        let report =
            super::ComparisonReport { comparison: &comparison, options: &options, baseline: None, seeded: false };
        super::write_report(&report, Format::Csv, &mut whole).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), String::from_utf8(whole).unwrap(), "{goal}");
    }
}

#[test]
fn a_failed_write_of_a_record_stops_the_comparison_with_the_error() {
    /// Takes the header, then fails as a closed pipe does.
    struct ClosedAfterOneLine(usize);
    impl std::io::Write for ClosedAfterOneLine {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 > 0 {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            self.0 += buf.iter().filter(|&&b| b == b'\n').count();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let six = queens(6);
    let args = parse(&["--goal", "count", "--format", "csv"]).unwrap();
    let mut stderr = Vec::new();
    let error = report::run_comparison(&[("6-queens", &six)], &args, &mut ClosedAfterOneLine(0), &mut stderr)
        .expect_err("the pipe is closed");
    let io = error.downcast_ref::<std::io::Error>().or_else(|| error.root_cause().downcast_ref::<std::io::Error>());
    assert_eq!(io.map(std::io::Error::kind), Some(std::io::ErrorKind::BrokenPipe), "{error:#}");
    assert!(stderr.is_empty(), "{}", String::from_utf8_lossy(&stderr));
}

#[test]
fn the_plot_is_an_svg_bar_chart_of_every_configuration() {
    let six = queens(6);
    let path = temp_path("six.svg");
    let out = run(&[("6-queens", &six)], &["--plot", path.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let svg = std::fs::read_to_string(&path).expect("the plot was written");
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    for text in default_names().iter().map(String::as_str).chain(["nodes (log scale)", "milliseconds (log scale)"]) {
        assert!(svg.contains(text), "{text} is not in the plot");
    }
    assert!(svg.matches("<rect").count() > 6, "a bar per configuration and panel");
    assert!(!svg.contains("'6-queens'"), "the chart's title names no instance");
    // The table is still printed.
    assert!(out.stdout.contains("mac/ac2001+domwdeg"));
}

#[test]
fn an_unwritable_plot_is_bad_usage_and_prints_no_table() {
    let six = queens(6);
    let path = temp_path("no-such-directory").join("plot.svg");
    let out = run(&[("6-queens", &six)], &["--plot", path.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.contains("cannot write the plot to"), "{}", out.stderr);
}

#[test]
fn limited_runs_are_tabulated_with_a_note() {
    let eight = queens(8);
    let out = run(&[("8-queens", &eight)], &["--goal", "count", "--node-limit", "5", "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for line in out.stdout.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields[3], "1", "every run was limited: {line}");
        assert!(fields[5].parse::<u64>().unwrap() <= 6, "{line}");
    }
    assert!(out.stderr.contains("a limit stopped 6 runs"), "{}", out.stderr);
}

#[test]
fn a_cpu_timeout_of_zero_stops_every_run_at_once() {
    // The thread's CPU clock, not the wall clock: zero is reached at the
    // first check, whatever the load; no timing is asserted.
    let eight = queens(8);
    let out = run(&[("8-queens", &eight)], &["--goal", "count", "--cpu-timeout", "0", "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for line in out.stdout.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!((fields[2], fields[3], fields[5]), ("0", "1", "0"), "every run stopped before a decision: {line}");
    }
    assert!(out.stderr.contains("a limit stopped 6 runs"), "{}", out.stderr);
    let json = run(&[("8-queens", &eight)], &["--cpu-timeout", "0.5", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["cpu_timeout_s"], 0.5);
    assert!(parse(&["--cpu-timeout", "-1"]).unwrap_err().to_string().contains("not a non-negative number of seconds"));
}

#[test]
fn a_model_the_solver_refuses_and_no_instances_are_bad_usage() {
    // Bitsets of 2^16 values each, more than 2 GiB together (a single wide
    // range is an interval, which the solver takes).
    let mut huge = Model::new();
    huge.new_vars(300_000, 1..=1 << 16).unwrap();
    let out = run(&[("huge", &huge)], &[]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert!(out.stderr.starts_with("error: instance 'huge' under bt+input+pairwise:"), "{}", out.stderr);

    let out = run(&[], &[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no instances"), "{}", out.stderr);
}

#[test]
fn learn_adds_each_configurations_learning_twin_after_it() {
    let args = parse(&["--configs", "fc+mrv,mac+mrv,mac+domwdeg,mac+learn", "--learn"]).unwrap();
    let names: Vec<String> = args.configs_to_run().unwrap().iter().map(|c| c.to_string()).collect();
    // fc cannot learn; mac+learn learns already (and is mac+mrv's twin).
    assert_eq!(
        names,
        [
            "fc+mrv+pairwise",
            "mac+mrv+matching",
            "mac+domwdeg+matching",
            "mac+learn+domwdeg+matching",
            "mac+learn+mrv+matching"
        ]
    );
    let without: Vec<String> =
        parse(&["--configs", "mac+mrv"]).unwrap().configs_to_run().unwrap().iter().map(|c| c.to_string()).collect();
    assert_eq!(without, ["mac+mrv+matching"]);
    // Learning branches binary: a binary configuration's twin is its d-way form's.
    let binary = parse(&["--configs", "mac+domwdeg+binary", "--learn"]).unwrap();
    let names: Vec<String> = binary.configs_to_run().unwrap().iter().map(|c| c.to_string()).collect();
    assert_eq!(names, ["mac+domwdeg+matching+binary", "mac+learn+domwdeg+matching"]);
}

/// `--learn` names the configurations it gave no twin, with the reason, as
/// the other notes do; those that learn already, or have their twin, are not named.
#[test]
fn learn_notes_the_configurations_without_a_learning_twin() {
    let model = queens(6);
    let args = ["--goal", "first", "--repeats", "1", "--learn", "--configs"];
    let out =
        run(&[("queens 6", &model)], &[&args[..], &["fc+mrv,mac+mrv,mac-cbj+mrv,mac+learn,mac+luby+nld"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let notes: Vec<&str> = out.stderr.lines().filter(|line| line.starts_with("note: --learn: ")).collect();
    assert_eq!(notes.len(), 3, "{}", out.stderr);
    assert!(notes[0].starts_with("note: --learn: fc+mrv+pairwise has no learning twin: learning without maintained"));
    assert!(
        notes[1].starts_with("note: --learn: mac-cbj+mrv+matching has no learning twin: learning with backjumping")
    );
    assert!(notes[2].starts_with(
        "note: --learn: mac+mrv+matching+luby+nld has no learning twin: nogoods from restarts with learning"
    ));
    assert!(notes.iter().all(|note| note.contains("is not implemented (")), "{notes:?}");
    // Without --learn, or with -q, nothing is said.
    let plain = run(&[("queens 6", &model)], &["--goal", "first", "--repeats", "1", "--configs", "fc+mrv"]);
    assert!(!plain.stderr.contains("learning twin"), "{}", plain.stderr);
    let quiet = run(&[("queens 6", &model)], &[&args[..], &["fc+mrv", "-q"]].concat());
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
}

/// The restarts are counted where the other counters are: a `restarts`
/// column (CSV) and field (JSON) when some configuration restarts, none
/// otherwise.
#[test]
fn the_restarts_column_is_shown_when_a_configuration_restarts() {
    let model = queens(30);
    let args = |configs: &'static str, format: &'static str| {
        ["--goal", "first", "--repeats", "1", "--configs", configs, "--format", format]
    };
    let out = run(&[("30-queens", &model)], &args("mac+mrv", "csv"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stdout.lines().next().unwrap().split(',').any(|c| c == "restarts"), "{}", out.stdout);
    let out = run(&[("30-queens", &model)], &args("mac+mrv,mac+domwdeg+random+luby=1+seed=1", "csv"));
    let lines: Vec<&str> = out.stdout.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header.iter().position(|&c| c == "restarts").expect("a restarts column in the CSV");
    assert_eq!(header[at - 1], "failures");
    let restarts: Vec<u64> = lines[1..].iter().map(|line| line.split(',').nth(at).unwrap().parse().unwrap()).collect();
    assert_eq!(restarts.len(), 2);
    assert_eq!(restarts[0], 0, "mac+mrv never restarts");
    assert!(restarts[1] > 0, "luby=1 restarts on 30-queens: {}", out.stdout);
    let out = run(&[("30-queens", &model)], &args("mac+mrv,mac+domwdeg+random+luby=1+seed=1", "json"));
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    for records in ["configs", "measurements"] {
        let counted: Vec<u64> =
            json[records].as_array().unwrap().iter().map(|record| record["restarts"].as_u64().unwrap()).collect();
        assert_eq!(counted, restarts, "{records}");
    }
}

#[test]
fn the_learnt_column_is_shown_when_a_configuration_learns() {
    let six = queens(6);
    let header = |args: &[&str]| {
        let out = run(&[("6-queens", &six)], args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout.lines().nth(1).unwrap().split_whitespace().map(str::to_string).collect::<Vec<_>>()
    };
    let plain = header(&["--goal", "count", "--repeats", "1", "--configs", "mac+mrv"]);
    assert!(!plain.contains(&"learnt".to_string()), "{plain:?}");
    let learning = header(&["--goal", "count", "--repeats", "1", "--configs", "mac+mrv", "--learn"]);
    let at = learning.iter().position(|c| c == "learnt").expect("a learnt column");
    assert_eq!(learning[at - 1], "failures");
    let out = run(
        &[("6-queens", &six)],
        &["--goal", "count", "--repeats", "1", "--configs", "mac+mrv", "--learn", "--format", "csv"],
    );
    let lines: Vec<&str> = out.stdout.lines().collect();
    let column = lines[0].split(',').position(|c| c == "learnt").expect("a learnt column in the CSV");
    let learnt: Vec<u64> =
        lines[1..].iter().map(|line| line.split(',').nth(column).unwrap().parse().unwrap()).collect();
    assert_eq!(learnt.len(), 2);
    assert_eq!(learnt[0], 0, "mac+mrv learns nothing");
    assert!(learnt[1] > 0, "mac+learn learns from 6-queens' failures");
}

#[test]
fn an_optimisation_has_each_runs_objective_in_the_records() {
    // The largest sum of the first two rows' columns over the four 6-queens solutions: 2 + 5.
    let mut six = queens(6);
    let first_two = csp::LinearExpr::sum(six.vars().take(2));
    six.maximize(first_two).unwrap();
    let out = run(&[("6-queens", &six)], &["--goal", "optimize", "--repeats", "1", "--format", "csv"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with("config,instance,solved,limited,solutions,objective,nodes,"), "{}", lines[0]);
    for line in &lines[1..] {
        assert_eq!(line.split(',').nth(5), Some("7"), "{line}");
    }
    let json = run(&[("6-queens", &six)], &["--goal", "optimize", "--repeats", "1", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    for record in value["measurements"].as_array().unwrap() {
        assert_eq!(record["objective"], 7, "{record}");
    }
}

/// The CSV of counting 6-queens' solutions once under `configs`.
fn six_queens_csv(configs: &str) -> String {
    let out = run(
        &[("6-queens", &queens(6))],
        &["--goal", "count", "--repeats", "1", "--configs", configs, "--format", "csv"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn the_probe_columns_are_shown_when_a_configuration_probes() {
    let csv = six_queens_csv;
    let plain = csv("mac+mrv");
    assert!(!plain.lines().next().unwrap().contains("probe"), "{plain}");
    let probing = csv("mac+mrv,mac+mrv+sac");
    let lines: Vec<&str> = probing.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header.iter().position(|&c| c == "probes").expect("a probes column");
    assert_eq!(header[at + 1], "probe_removals");
    let probes: Vec<u64> = lines[1..].iter().map(|line| line.split(',').nth(at).unwrap().parse().unwrap()).collect();
    assert_eq!(probes.len(), 2);
    assert_eq!(probes[0], 0, "mac+mrv does not probe");
    assert!(probes[1] > 0, "mac+mrv+sac probes");
}

#[test]
fn the_database_columns_are_shown_when_a_configuration_keeps_its_nogoods_otherwise() {
    let header = |configs: &str| {
        let csv = six_queens_csv(configs);
        csv.lines().next().unwrap().split(',').map(str::to_string).collect::<Vec<_>>()
    };
    let learning = header("mac+mrv+learn");
    assert!(!learning.iter().any(|c| c == "glue_alive"), "{learning:?}");
    for configs in ["mac+mrv+learn,mac+learn+mrv+dynlbd+expire", "mac+learn+mrv+tiers"] {
        let columns = header(configs);
        let at = columns.iter().position(|c| c == "reductions").expect("a reductions column");
        assert_eq!(
            columns[at..at + 5],
            ["reductions", "nogoods_deleted", "nogoods_alive", "glue_alive", "lbd_lowered"],
            "{columns:?}"
        );
    }
}

#[test]
fn the_vivification_columns_are_shown_when_a_configuration_vivifies() {
    let csv = six_queens_csv("mac+mrv+learn,mac+learn+domwdeg+luby=1+vivify");
    let lines: Vec<&str> = csv.lines().collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let at = header.iter().position(|&c| c == "vivify_removed").expect("a vivify_removed column");
    let removed: Vec<u64> = lines[1..].iter().map(|line| line.split(',').nth(at).unwrap().parse().unwrap()).collect();
    assert_eq!(removed[0], 0, "mac+mrv+learn does not vivify");
    assert!(removed[1] > 0, "with restarts every failure it does: {csv}");
    assert!(!six_queens_csv("mac+mrv+learn").contains("vivify_removed"));
}

#[test]
fn a_baseline_adds_its_summary_to_the_table_and_the_json_only() {
    let (six, seven) = (queens(6), queens(7));
    let instances = [("6-queens", &six), ("7-queens", &seven)];
    let options = ["--configs", "fc+mrv,mac+mrv", "--goal", "count", "--repeats", "1", "--cpu-timeout", "5"];
    let plain = run(&instances, &options);
    let with = |extra: &[&'static str]| run(&instances, &[&options[..], &["--baseline", "FC+mrv"], extra].concat());
    let table = with(&[]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    // The tables before it are unchanged; the summary comes last.
    let (before, summary) = table.stdout.split_once("\nagainst the baseline fc+mrv+pairwise: ").expect(&table.stdout);
    let same = |text: &str| {
        text.lines().map(|line| line.split_whitespace().next().unwrap_or("").to_string()).collect::<Vec<_>>()
    };
    assert_eq!(same(before), same(plain.stdout.trim_end()));
    assert!(summary.starts_with("finished of 2 instances; PAR2 and PAR10 in seconds of CPU time"), "{summary}");
    assert!(summary.contains("over the 2 instances every configuration finished"), "{summary}");
    let header: Vec<&str> = summary.lines().nth(1).unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        [
            "config",
            "finished",
            "par2_s",
            "par10_s",
            "nodes_ratio",
            "nodes_wins",
            "nodes_ties",
            "nodes_losses",
            "nodes_p",
            "time_ratio",
            "time_p",
            "nodes_p_holm",
            "time_p_holm"
        ]
    );
    // One configuration tested against the baseline: Holm's family of one leaves the p-value as it is.
    assert!(summary.contains("adjusted by Holm's method for the 1 test of each"), "{summary}");
    let mac: Vec<&str> = summary.lines().nth(4).unwrap().split_whitespace().collect();
    // MAC needs fewer nodes on both boards; two pairs give p = 2 / 4 = 0.5 at best.
    assert_eq!((mac[0], mac[1], &mac[5..9]), ("mac+mrv+matching", "2", &["2", "0", "0", "0.5000"][..]));
    assert_eq!(mac[11], "0.5000");
    // CSV is the measurements, as ever; JSON has the summary as `baseline`.
    assert_eq!(with(&["--format", "csv"]).stdout.lines().count(), 5);
    let json: serde_json::Value = serde_json::from_str(&with(&["--format", "json"]).stdout).unwrap();
    assert_eq!(json["baseline"]["config"], "fc+mrv+pairwise");
    assert_eq!(json["baseline"]["configs"][1]["nodes_wins"], 2);
    assert_eq!(json["baseline"]["configs"][1]["nodes_p"], 0.5);
    assert_eq!(json["baseline"]["configs"][1]["nodes_p_holm"], 0.5);
    assert!(json["baseline"]["configs"][0]["nodes_p_holm"].is_null(), "the baseline has no test against itself");
    let json: serde_json::Value =
        serde_json::from_str(&run(&instances, &[&options[..], &["--format", "json"]].concat()).stdout).unwrap();
    assert!(json.get("baseline").is_none());
}

#[test]
fn a_baseline_that_is_not_run_is_bad_usage() {
    let six = queens(6);
    let out = run(&[("6-queens", &six)], &["--configs", "fc+mrv", "--baseline", "mac+mrv"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr.contains("error: the baseline mac+mrv+matching is not among the configurations run"),
        "{}",
        out.stderr
    );
}

#[test]
fn provenance_comments_come_only_with_the_flag_and_leave_the_data_as_it_was() {
    let six = queens(6);
    let options = ["--configs", "fc+mrv,mac+mrv", "--goal", "count", "--repeats", "1"];
    for format in ["table", "csv", "markdown", "json"] {
        let plain = run(&[("6-queens", &six)], &[&options[..], &["--format", format]].concat());
        let cited = run(&[("6-queens", &six)], &[&options[..], &["--format", format, "--provenance"]].concat());
        assert_eq!((plain.code, cited.code), (0, 0), "{}", cited.stderr);
        assert!(!plain.stdout.contains("# version: "), "{format}: only with the flag");
        let comment = |line: &str| line.starts_with("# ");
        match format {
            "table" | "csv" => {
                let lines: Vec<&str> = cited.stdout.lines().collect();
                assert!(lines[0].starts_with("# version: ") && lines[1].starts_with("# command: "), "{lines:?}");
                assert!(lines.last().unwrap().starts_with("# finished: "), "{lines:?}");
                // Without the comment lines, the same lines as without the flag (the times aside).
                let data: Vec<&str> = lines.iter().copied().filter(|line| !comment(line)).collect();
                assert_eq!(data.len(), plain.stdout.lines().count(), "{format}");
                if format == "csv" {
                    assert_eq!(data[0], plain.stdout.lines().next().unwrap());
                }
            }
            "markdown" => {
                assert!(cited.stdout.starts_with("<!--\nversion: "), "{}", cited.stdout);
                assert!(cited.stdout.trim_end().ends_with("-->"), "{}", cited.stdout);
            }
            _ => {
                // JSON has its provenance object either way, and nothing else.
                let value: serde_json::Value = serde_json::from_str(&cited.stdout).expect("pure JSON");
                assert!(value["provenance"]["version"].is_string());
            }
        }
    }
}

#[test]
fn seeds_run_randomised_configurations_once_per_seed_and_summarise_them() {
    let (six, seven) = (queens(6), queens(7));
    let instances = [("6-queens", &six), ("7-queens", &seven)];
    let options = ["--configs", "fc+mrv,mac+mrv+random", "--repeats", "1", "--seeds", "1-3,7"];
    let out = run(&instances, &[&options[..], &["--format", "json"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&str> = json["configs"].as_array().unwrap().iter().map(|c| c["config"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "fc+mrv+pairwise",
            "mac+mrv+random+matching+seed=1",
            "mac+mrv+random+matching+seed=2",
            "mac+mrv+random+matching+seed=3",
            "mac+mrv+random+matching+seed=7"
        ],
        "the deterministic configuration runs once"
    );
    // Per instance, the seeds' nodes: their median (type 7) and range.
    let measurements = json["measurements"].as_array().unwrap();
    let rows = json["seeds"]["instances"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "one row per randomised configuration and instance");
    for (row, instance) in rows.iter().zip(["6-queens", "7-queens"]) {
        assert_eq!(
            (row["config"].as_str(), row["instance"].as_str()),
            (Some("mac+mrv+random+matching"), Some(instance))
        );
        assert_eq!(
            (row["seeds"].as_u64(), row["solved"].as_u64(), row["limited"].as_u64()),
            (Some(4), Some(4), Some(0))
        );
        let mut nodes: Vec<f64> = measurements
            .iter()
            .filter(|m| m["instance"] == instance && m["config"].as_str().unwrap().contains("+seed="))
            .map(|m| m["nodes"].as_f64().unwrap())
            .collect();
        nodes.sort_by(f64::total_cmp);
        assert_eq!(nodes.len(), 4);
        assert_eq!(row["nodes_median"].as_f64(), Some((nodes[1] + nodes[2]) / 2.0), "{row}");
        assert_eq!((row["nodes_min"].as_f64(), row["nodes_max"].as_f64()), (Some(nodes[0]), Some(nodes[3])));
    }
    let solved = &json["seeds"]["solved"][0];
    assert_eq!(
        (solved["seed=1"].as_u64(), solved["seed=7"].as_u64(), solved["median"].as_f64()),
        (Some(2), Some(2), Some(2.0))
    );
    // The text table has the two summaries; without --seeds neither is there.
    let table = run(&instances, &options);
    assert!(
        table.stdout.contains("\nacross seeds: ") && table.stdout.contains("\ninstances solved under each seed, of 2")
    );
    let plain = run(&instances, &options[..4]);
    assert!(!plain.stdout.contains("across seeds"), "{}", plain.stdout);
    let json: serde_json::Value =
        serde_json::from_str(&run(&instances, &[&options[..4], &["--format", "json"]].concat()).stdout).unwrap();
    assert!(json.get("seeds").is_none());
}

#[test]
fn seeds_that_make_no_sense_are_refused_as_bad_usage() {
    for (list, message) in [
        ("10-1", "the range of seeds 10-1 is reversed: write 1-10"),
        ("", "the list of seeds is empty"),
        ("1,x", "'x' is not a seed"),
        ("1-3,3", "the seed 3 is named twice"),
    ] {
        let error = parse(&["--seeds", list]).unwrap_err();
        assert_eq!(error.kind(), clap::error::ErrorKind::ValueValidation, "{list}");
        assert!(error.to_string().contains(message), "{list}: {error}");
    }
    let six = queens(6);
    let out = run(&[("6-queens", &six)], &["--configs", "fc+mrv,mac+random+seed=4", "--seeds", "1-2"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.is_empty());
    assert!(out.stderr.contains("error: mac+mrv+random+matching+seed=4 names its seed already"), "{}", out.stderr);
    // A randomised baseline is one of its seeds.
    let out = run(&[("6-queens", &six)], &["--configs", "mac+random", "--seeds", "1-2", "--baseline", "mac+random"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("name one of them"), "{}", out.stderr);
    let out = run(
        &[("6-queens", &six)],
        &["--configs", "fc+mrv,mac+random", "--seeds", "1-2", "--baseline", "mac+random+seed=2", "--repeats", "1"],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
}
