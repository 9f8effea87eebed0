//! The fixtures (FlatZinc as MiniZinc 2.6.4 writes it for the csp library,
//! `minizinc -c -I mznlib models/NAME.mzn`) and their expected output, byte
//! for byte. Each expected output was checked against Gecode's (the same
//! solutions, in another order: Gecode prints names alphabetically).

use csp::SolveConfig;

use super::{fixture, run};

fn expect(args: &[&str], expected: &str) {
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let file = args.pop().unwrap();
    let path = fixture(&file);
    args.push(path.to_string_lossy().into_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let captured = run(&args);
    let expected = std::fs::read_to_string(fixture(expected)).unwrap();
    assert_eq!((captured.code, captured.stderr.as_str()), (0, ""), "{args:?}");
    assert_eq!(captured.stdout, expected, "{args:?}");
}

#[test]
fn all_solutions_are_printed_then_the_search_is_complete() {
    expect(&["-a", "queens.fzn"], "queens.expected");
    expect(&["-a", "send_more_money.fzn"], "send_more_money.expected");
    expect(&["-a", "sudoku.fzn"], "sudoku.expected");
}

#[test]
fn every_output_shape_prints_as_fzn_gecode_prints_it() {
    expect(&["-a", "booleans.fzn"], "booleans.expected");
}

#[test]
fn an_unsatisfiable_model_says_so() {
    expect(&["-a", "unsat.fzn"], "unsat.expected");
    expect(&["unsat.fzn"], "unsat.expected");
}

#[test]
fn a_slow_cycle_of_linear_constraints_is_unsatisfiable_at_once() {
    // Until #18's cycle cut, 2^62 propagator calls: the time limit is a
    // guard only (it would print UNKNOWN, not hang the test).
    for flags in [&[][..], &["--no-learn"], &["-f"], &["-f", "--no-learn"]] {
        let args: Vec<&str> = flags.iter().copied().chain(["-t", "60000", "cycle.fzn"]).collect();
        expect(&args, "unsat.expected");
    }
}

#[test]
fn n_solutions_stop_without_claiming_completeness() {
    expect(&["-n", "3", "queens.fzn"], "queens-n3.expected");
    let one = run(&[fixture("queens.fzn").to_str().unwrap()]);
    assert_eq!(one.stdout.matches("----------").count(), 1);
    assert!(!one.stdout.contains("=========="), "{}", one.stdout);
}

#[test]
fn statistics_follow_the_solutions() {
    let captured = run(&["-s", "-p", "2", "-r", "7", "-f", "-i", fixture("send_more_money.fzn").to_str().unwrap()]);
    assert_eq!(captured.code, 0, "{}", captured.stderr);
    let stats: Vec<&str> = captured.stdout.lines().skip_while(|l| !l.starts_with("%%%mzn-stat")).collect();
    assert!(stats.contains(&"%%%mzn-stat: solutions=1"), "{stats:?}");
    assert!(stats.iter().any(|l| l.starts_with("%%%mzn-stat: nodes=")));
    assert_eq!(stats.last(), Some(&"%%%mzn-stat-end"));
}

#[test]
fn verbose_says_which_search_annotations_are_followed() {
    let captured = run(&["-v", "-p", "2", fixture("queens.fzn").to_str().unwrap()]);
    assert_eq!(captured.code, 0);
    assert!(captured.stderr.contains("the search annotations' phases first"), "{}", captured.stderr);
    assert!(captured.stderr.contains("int_search over 8 variables: FirstFail, Min"), "{}", captured.stderr);
    assert!(captured.stderr.contains("-p 2: a portfolio of 2 workers, the first answer wins:"), "{}", captured.stderr);
    assert!(captured.stderr.contains("worker 1: "), "{}", captured.stderr);
    let free = run(&["-v", "-f", fixture("queens.fzn").to_str().unwrap()]);
    assert!(free.stderr.contains("free search (-f): the search annotations are ignored"), "{}", free.stderr);
    // Free search that optimises is guided by the incumbent, with restarts
    // (the knapsack has no annotation); satisfaction and annotated search
    // are not.
    let guided = "solution-guided values (the incumbent's value first) and Luby restarts";
    let knapsack = run(&["-v", "-s", fixture("knapsack01.fzn").to_str().unwrap()]);
    assert!(knapsack.stderr.contains(guided), "{}", knapsack.stderr);
    assert!(knapsack.stdout.contains("%%%mzn-stat: objectiveBound=220"), "{}", knapsack.stdout);
    assert!(!captured.stderr.contains(guided) && !free.stderr.contains(guided), "{}", free.stderr);
}

#[test]
fn search_annotations_are_followed_unless_free_search() {
    // y first, largest value first; then x, its median first (the lower of
    // 1..4, once y = 5 leaves x < 5).
    let file = fixture("annotated.fzn");
    let annotated = run(&["-v", file.to_str().unwrap()]);
    assert_eq!(annotated.stdout, "x = 2;\ny = 5;\n----------\n", "{}", annotated.stderr);
    assert!(annotated.stderr.contains("ignored annotation: restart_luby"), "{}", annotated.stderr);
    let free = run(&["-f", file.to_str().unwrap()]);
    assert_eq!(free.stdout, "x = 1;\ny = 2;\n----------\n");
}

#[test]
fn after_the_annotations_the_variables_no_constraint_defines_go_first() {
    // The annotation decides y; then x (declared) goes before b (defined by
    // the reification), though b's domain is smaller: x = 1, so b = true.
    // Deciding b first (b = false, so x >= 2) is how kidney-exchange's search
    // thrashed on its half-reified booleans (issue #14).
    let file = fixture("defined.fzn");
    let annotated = run(&["-v", file.to_str().unwrap()]);
    assert_eq!(annotated.stdout, "y = 1;\nx = 1;\n----------\n", "{}", annotated.stderr);
    assert!(annotated.stderr.contains("then the 2 variables no constraint defines"), "{}", annotated.stderr);
    // The free search is the engine's default over every variable, as before.
    let free = run(&["-f", file.to_str().unwrap()]);
    assert_eq!(free.stdout, "y = 1;\nx = 2;\n----------\n");
}

#[test]
fn optimisation_prints_each_improving_solution_then_proves_the_optimum() {
    // Capacity 50, weights 10, 20, 30, values 60, 100, 120: the optimum,
    // 220, takes the second and third items.
    let captured = run(&["-s", fixture("knapsack01.fzn").to_str().unwrap()]);
    assert_eq!((captured.code, captured.stderr.as_str()), (0, ""));
    let (solutions, statistics) = captured.stdout.split_once("%%%mzn-stat").unwrap();
    assert!(solutions.ends_with("take = array1d(1..3, [false, true, true]);\n----------\n==========\n"), "{solutions}");
    let statistics: Vec<&str> = statistics.lines().collect();
    assert!(statistics.contains(&"%%%mzn-stat: objective=220"), "{statistics:?}");
    assert!(statistics.contains(&"%%%mzn-stat: objectiveBound=220"), "{statistics:?}");
    // -n 1: the first solution, with no claim that it is optimal.
    let first = run(&["-n", "1", fixture("knapsack01.fzn").to_str().unwrap()]);
    assert_eq!(first.stdout.matches("----------").count(), 1, "{}", first.stdout);
    assert!(!first.stdout.contains("=========="), "{}", first.stdout);
}

/// The solutions of an `-a` run, each its lines, sorted: learning may find
/// them in another order.
fn solution_set(stdout: &str) -> Vec<&str> {
    let mut solutions: Vec<&str> = stdout.split("----------\n").filter(|s| !s.is_empty()).collect();
    solutions.sort_unstable();
    solutions
}

#[test]
fn learning_on_and_off_find_the_same_solutions_and_optimum() {
    for (model, expected) in [
        ("queens.fzn", "queens.expected"),
        ("send_more_money.fzn", "send_more_money.expected"),
        ("sudoku.fzn", "sudoku.expected"),
    ] {
        let expected = std::fs::read_to_string(fixture(expected)).unwrap();
        for flag in ["--learn", "--no-learn"] {
            let found = run(&["-a", flag, fixture(model).to_str().unwrap()]);
            assert_eq!((found.code, found.stderr.as_str()), (0, ""), "{model} {flag}");
            assert_eq!(solution_set(&found.stdout), solution_set(&expected), "{model} {flag}");
        }
    }
    for flags in [&[][..], &["--no-learn"][..]] {
        let captured = run(&[flags, &["-s", fixture("knapsack01.fzn").to_str().unwrap()]].concat());
        assert_eq!((captured.code, captured.stderr.as_str()), (0, ""), "{flags:?}");
        assert!(
            captured.stdout.contains("take = array1d(1..3, [false, true, true]);\n----------\n==========\n"),
            "{flags:?}: {}",
            captured.stdout
        );
        assert!(captured.stdout.contains("%%%mzn-stat: objectiveBound=220"), "{}", captured.stdout);
        // MiniZinc's standard name, which the IDE shows (not `learnt`).
        let learnt = captured.stdout.lines().find_map(|l| l.strip_prefix("%%%mzn-stat: nogoods=")).unwrap();
        assert!(captured.stdout.contains("%%%mzn-stat: backjumps="), "{}", captured.stdout);
        if !flags.is_empty() {
            assert_eq!(learnt, "0", "--no-learn learns nothing");
        }
    }
    // Learning is the default; -v says so, and says --no-learn.
    let verbose = run(&["-v", fixture("annotated.fzn").to_str().unwrap()]);
    assert_eq!(verbose.stdout, "x = 2;\ny = 5;\n----------\n", "the annotations are followed while learning");
    assert!(verbose.stderr.contains("the search learns a nogood from each failure"), "{}", verbose.stderr);
    let plain = run(&["-v", "--no-learn", fixture("annotated.fzn").to_str().unwrap()]);
    assert_eq!(plain.stdout, verbose.stdout);
    assert!(plain.stderr.contains("--no-learn: the search does not learn"), "{}", plain.stderr);
    // Both at once is a usage error.
    let both = run(&["--learn", "--no-learn", fixture("annotated.fzn").to_str().unwrap()]);
    assert_eq!(both.code, 2, "{}", both.stderr);
    assert!(both.stderr.contains("--no-learn"), "{}", both.stderr);
}

/// The opt-in learning words of `compare` (`target`, `rephase=UNIT`,
/// `stable=UNIT`), alone and together, with and without free search: the
/// same solutions and optimum as the default search, what `-v` says, and
/// the refusals (a unit that is none, or learning words with `--no-learn`)
/// naming the flag.
#[test]
fn the_learning_words_solve_and_bad_units_are_refused() {
    let words: [&[&str]; 6] = [
        &["--target"],
        &["--rephase"],
        &["--rephase=1"],
        &["--stable", "1"],
        &["--stable=2", "-f"],
        &["--target", "--rephase=1", "--stable=1", "--vivify"],
    ];
    for flags in words {
        for (model, expected) in [("queens.fzn", "queens.expected"), ("sudoku.fzn", "sudoku.expected")] {
            let expected = std::fs::read_to_string(fixture(expected)).unwrap();
            let found = run(&[flags, &["-a", fixture(model).to_str().unwrap()]].concat());
            assert_eq!((found.code, found.stderr.as_str()), (0, ""), "{model} {flags:?}");
            assert_eq!(solution_set(&found.stdout), solution_set(&expected), "{model} {flags:?}");
        }
        expect(&[flags, &["-a", "unsat.fzn"]].concat(), "unsat.expected");
        let knapsack = run(&[flags, &["-s", fixture("knapsack01.fzn").to_str().unwrap()]].concat());
        assert_eq!((knapsack.code, knapsack.stderr.as_str()), (0, ""), "{flags:?}");
        assert!(knapsack.stdout.contains("%%%mzn-stat: objectiveBound=220"), "{flags:?}: {}", knapsack.stdout);
    }
    // The spelling's words and default units, phase saving for the values.
    let verbose = run(&["-v", "--target", "--rephase", "--stable=7", fixture("queens.fzn").to_str().unwrap()]);
    assert!(verbose.stderr.contains("+phase+matching+target+rephase+stable=7\n"), "{}", verbose.stderr);
    let default_unit = run(&["-v", "--rephase", "1000", fixture("queens.fzn").to_str().unwrap()]);
    assert!(default_unit.stderr.contains("+phase+matching+rephase\n"), "{}", default_unit.stderr);
    for (flags, flag) in [
        (&["--rephase=0"][..], "--rephase"),
        (&["--stable=abc"], "--stable"),
        (&["--rephase", "-1"], "--rephase"),
        (&["--stable="], "--stable"),
        (&["--rephase=4294967296"], "--rephase"),
    ] {
        let refused = run(&[flags, &[fixture("queens.fzn").to_str().unwrap()]].concat());
        assert_eq!((refused.code, refused.stdout.as_str()), (2, ""), "{flags:?}: {}", refused.stderr);
        assert!(refused.stderr.contains(flag), "{flags:?}: {}", refused.stderr);
        assert!(refused.stderr.contains(SolveConfig::CONFLICTS_UNIT), "{flags:?}: {}", refused.stderr);
    }
    // A bare flag before the file takes the file as its unit, and says so.
    let bare = run(&["--stable", fixture("queens.fzn").to_str().unwrap()]);
    assert_eq!(bare.code, 2, "{}", bare.stdout);
    assert!(bare.stderr.contains("--stable") && bare.stderr.contains("put the file first"), "{}", bare.stderr);
    // Without learning they are refused, as `compare` refuses `mac+phase+target`.
    for flag in ["--target", "--rephase=5", "--stable=3"] {
        let refused = run(&["--no-learn", flag, fixture("queens.fzn").to_str().unwrap()]);
        assert_eq!((refused.code, refused.stdout.as_str()), (2, ""), "{flag}: {}", refused.stderr);
        let name = flag.split('=').next().unwrap();
        assert!(refused.stderr.contains(name) && refused.stderr.contains("--no-learn"), "{}", refused.stderr);
    }
    // The help gives the spelling's default units.
    let help = run(&["--help"]).stdout;
    let units = [SolveConfig::REPHASE_UNIT, SolveConfig::STABLE_UNIT];
    assert!(units.iter().all(|unit| help.contains(&format!("default {unit}"))), "{help}");
}

#[test]
fn a_time_limit_stops_optimisation_without_a_claim() {
    let dir = std::env::temp_dir().join(format!("fzn-csp-optimisation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Minimising over an unsatisfiable pigeonhole would never end: 12 pigeons,
    // 11 holes, all-different as pairwise not-equals.
    let mut source = String::new();
    for i in 0..12 {
        source.push_str(&format!("var 1..11: p{i};\n"));
    }
    for i in 0..12 {
        for j in i + 1..12 {
            source.push_str(&format!("constraint int_ne(p{i}, p{j});\n"));
        }
    }
    source.push_str("solve minimize p0;\n");
    let path = dir.join("pigeons.fzn");
    std::fs::write(&path, source).unwrap();
    let captured = run(&["-t", "300", path.to_str().unwrap()]);
    assert_eq!((captured.code, captured.stdout.as_str()), (0, "=====UNKNOWN=====\n"), "{}", captured.stderr);
    // MiniZinc passes a negative limit when compilation took all of its own.
    let spent = run(&["-t", "-1", path.to_str().unwrap()]);
    assert_eq!((spent.code, spent.stdout.as_str()), (0, "=====UNKNOWN=====\n"), "{}", spent.stderr);
    // The CPU-time limit of the search thread, alone or beside -t, with or
    // without learning: no claim either.
    for flags in [
        &["--cpu-timeout", "0"][..],
        &["--cpu-timeout", "0.2", "-t", "60000"],
        &["--cpu-timeout", "0.05", "--no-learn"],
    ] {
        let args: Vec<&str> = flags.iter().copied().chain([path.to_str().unwrap()]).collect();
        let stopped = run(&args);
        assert_eq!(
            (stopped.code, stopped.stdout.as_str()),
            (0, "=====UNKNOWN=====\n"),
            "{flags:?}: {}",
            stopped.stderr
        );
    }
    // With statistics: a CPU limit of zero stops before the first decision.
    let zero = run(&["--cpu-timeout", "0", "-s", path.to_str().unwrap()]);
    assert!(zero.stdout.contains("%%%mzn-stat: nodes=0\n"), "{}", zero.stdout);
    // Values that are no limit are refused, naming the option.
    for bad in ["-1", "ten", "NaN", "1e400", ""] {
        let refused = run(&["--cpu-timeout", bad, path.to_str().unwrap()]);
        assert_eq!(refused.code, 2, "{bad}: {}", refused.stdout);
        assert!(refused.stderr.contains("--cpu-timeout"), "{bad}: {}", refused.stderr);
        assert_eq!(refused.stdout, "", "{bad}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_the_file_line_and_builtin() {
    let dir = std::env::temp_dir().join(format!("fzn-csp-errors-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 40 terms of i64::MAX over one variable merge past 2^68, beyond what the
    // engine keeps exact: refused unless the sum's bounds decide it.
    let past = format!(
        "var 0..1: a;\nvar 1..3: b;\nconstraint int_lin_le([{}, 1], [{}, b], 5);\nsolve satisfy;\n",
        vec!["9223372036854775807"; 40].join(", "),
        vec!["a"; 40].join(", ")
    );
    let cases = [
        (
            "var 1..3: x;\nvar 1..3: y;\nconstraint float_times(x, y, 2);\nsolve satisfy;\n",
            "line 3: constraint float_times is not supported by fzn-csp yet",
        ),
        (
            "var 1..3: x;\nvar 0.0..1.0: f;\nsolve satisfy;\n",
            "line 2: this model uses float variables (f), which fzn-csp does not support",
        ),
        (
            "var set of 1..3: s;\nsolve satisfy;\n",
            "line 1: this model uses set variables (s), which fzn-csp does not support",
        ),
        ("var 1..3: x;\nconstraint int_le(x, y);\nsolve satisfy;\n", "line 2, column 22: 'y' is not declared"),
        // A float where an integer goes is named where it stands, not as a
        // constraint called "float".
        (
            "var 1..3: x;\nconstraint int_le(x, 1.5);\nsolve satisfy;\n",
            "line 2, column 22: the float 1.5 is not supported: fzn-csp has integer and boolean values only",
        ),
        (
            "var 1..3: x;\nconstraint int_lin_le([1], [x], 2.0);\nsolve satisfy;\n",
            "line 2, column 33: the float 2.0 is not supported",
        ),
        (
            "var 1..3: x;\nconstraint int_eq(x, 1.0..2.5);\nsolve satisfy;\n",
            "line 2, column 22: the float 1.0..2.5 is not supported",
        ),
        ("var 1..3: x;\nsolve minimize 2.5;\n", "line 2: a float objective is not supported"),
        // MiniZinc's `--keep-paths` says where an item comes from: named too.
        (
            "var 1..3: x;\nvar 0.0..1.0: f :: mzn_path(\"/m/a.mzn|7|14|7|14|id|f;/m/a.mzn|7|1|7|16|vd;\");\nsolve satisfy;\n",
            "(flattened from /m/a.mzn, line 7, columns 1-16): line 2: this model uses float variables (f)",
        ),
        (
            "var 1..3: x;\nvar 1..3: y;\nconstraint float_times(x, y, 2) :: defines_var(y) \
             :: mzn_path(\"/m/b.mzn|3|12|4|2|bin|'*';/m/b.mzn|3|12|3|20|ca|float_times;\");\nsolve satisfy;\n",
            "(flattened from /m/b.mzn, lines 3-4): line 3: constraint float_times is not supported",
        ),
        ("var 1..3: x\nsolve satisfy;\n", "line 2, column 1: expected ';', found 'solve'"),
        ("", "line 1, column 1: the model has no solve item"),
        (
            // a = 0 satisfies it and a = 1 does not: the sum's bounds do not decide it.
            past.as_str(),
            "line 3: constraint int_lin_le is not supported by fzn-csp yet (a coefficient beyond 2^68 that does not decide",
        ),
    ];
    for (i, (source, message)) in cases.iter().enumerate() {
        let path = dir.join(format!("case{i}.fzn"));
        std::fs::write(&path, source).unwrap();
        let captured = run(&[path.to_str().unwrap()]);
        assert_eq!(captured.code, 2, "{source}");
        assert!(captured.stdout.is_empty(), "{source}");
        assert!(captured.stderr.starts_with("error: ") && captured.stderr.contains(message), "{}", captured.stderr);
    }
    // With a >= 1 the huge coefficient puts the sum beyond 5 whatever b is:
    // decided at lowering, the model is unsatisfiable (not an error).
    let decided = dir.join("decided.fzn");
    std::fs::write(
        &decided,
        "var 1..3: a;\nvar 1..3: b;\nconstraint int_lin_le([9223372036854775807, 1], [a, b], 5);\nsolve satisfy;\n",
    )
    .unwrap();
    let captured = run(&[decided.to_str().unwrap()]);
    assert_eq!((captured.code, captured.stdout.as_str()), (0, "=====UNSATISFIABLE=====\n"), "{}", captured.stderr);
    // A coefficient beyond 2^62 but within 2^68 is exact (kept as in-range
    // terms): a = 0 (with b = 1, 2, 3) is the answer, a = 1 is not.
    let exact = dir.join("exact.fzn");
    std::fs::write(
        &exact,
        "var 0..1: a :: output_var;\nvar 1..3: b;\nconstraint int_lin_le([9223372036854775807, 1], [a, b], 5);\n\
         solve satisfy;\n",
    )
    .unwrap();
    let captured = run(&["-a", exact.to_str().unwrap()]);
    assert_eq!(
        (captured.code, captured.stdout.as_str()),
        (0, format!("{}==========\n", "a = 0;\n----------\n".repeat(3)).as_str()),
        "{}",
        captured.stderr
    );
    let missing = run(&[dir.join("absent.fzn").to_str().unwrap()]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("cannot read"), "{}", missing.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_real_binary_reads_standard_input_and_exits_zero_on_unsatisfiable() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
        .arg("-")
        .stdin(std::fs::File::open(fixture("unsat.fzn")).unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "=====UNSATISFIABLE=====\n");
}

#[test]
fn print_msc_writes_the_library_and_names_absolute_paths() {
    let dir = std::env::temp_dir().join(format!("fzn-csp-msc-{}", std::process::id()));
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_fzn-csp"))
            .env("XDG_DATA_HOME", dir.join("data"))
            .args(args)
            .output()
            .unwrap()
    };
    let printed = run(&["--print-msc"]);
    assert_eq!(printed.status.code(), Some(0));
    let msc: serde_json::Value = serde_json::from_slice(&printed.stdout).unwrap();
    let mznlib = std::path::PathBuf::from(msc["mznlib"].as_str().unwrap());
    assert!(mznlib.is_absolute() && mznlib.starts_with(dir.join("data")), "{mznlib:?}");
    assert!(mznlib.join("fzn_all_different_int.mzn").is_file());
    let executable = std::path::PathBuf::from(msc["executable"].as_str().unwrap());
    assert!(executable.is_absolute() && executable.is_file(), "{executable:?}");

    let installed = run(&["--install-msc", dir.join("solvers").to_str().unwrap()]);
    assert_eq!(installed.status.code(), Some(0));
    let written = std::fs::read(dir.join("solvers").join("csp.msc")).unwrap();
    assert_eq!(written, printed.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_worker_is_the_search_without_a_portfolio() {
    for file in ["knapsack01.fzn", "queens.fzn", "send_more_money.fzn", "unsat.fzn"] {
        let path = fixture(file);
        let alone = run(&["-a", path.to_str().unwrap()]);
        let one = run(&["-a", "-p", "1", path.to_str().unwrap()]);
        assert_eq!((one.code, &one.stdout, &one.stderr), (alone.code, &alone.stdout, &alone.stderr), "{file}");
    }
}

#[test]
fn a_portfolio_answers_as_one_worker_does() {
    // Satisfaction: the first answer of any worker, checked; unsatisfiable
    // proved by whichever worker; all solutions by worker 0 alone.
    for workers in ["2", "3"] {
        let solved = run(&["-p", workers, fixture("queens.fzn").to_str().unwrap()]);
        assert_eq!(solved.code, 0, "{}", solved.stderr);
        assert_eq!(solved.stdout.matches("----------").count(), 1, "{}", solved.stdout);
        assert!(!solved.stdout.contains("=========="), "{}", solved.stdout);
        expect(&["-p", workers, "unsat.fzn"], "unsat.expected");
        expect(&["-p", workers, "-a", "queens.fzn"], "queens.expected");
        // Optimisation: the improving solutions of any worker, each better
        // than the one before, then the optimum proved.
        let knapsack = run(&["-s", "-p", workers, fixture("knapsack01.fzn").to_str().unwrap()]);
        assert_eq!(knapsack.code, 0, "{}", knapsack.stderr);
        let stats: Vec<&str> = knapsack.stdout.lines().filter(|l| l.starts_with("%%%mzn-stat")).collect();
        assert!(stats.contains(&"%%%mzn-stat: objective=220"), "{stats:?}");
        assert!(stats.contains(&"%%%mzn-stat: objectiveBound=220"), "{stats:?}");
        assert!(stats.contains(&format!("%%%mzn-stat: workers={workers}").as_str()), "{stats:?}");
        assert!(stats.iter().any(|l| l.starts_with("%%%mzn-stat: winner=")), "{stats:?}");
        // take = array1d(1..3, [...]) per solution: its value 60, 100, 120
        // per item taken.
        let values: Vec<i64> = knapsack
            .stdout
            .lines()
            .filter_map(|line| line.strip_prefix("take = array1d(1..3, [")?.strip_suffix("]);"))
            .map(|taken| taken.split(',').zip([60, 100, 120]).filter(|(t, _)| t.trim() == "true").map(|(_, v)| v).sum())
            .collect();
        assert!(values.windows(2).all(|pair| pair[0] < pair[1]), "{values:?}");
        assert_eq!(values.last(), Some(&220));
        let before_stats = knapsack.stdout.split("%%%mzn-stat").next().unwrap();
        assert!(before_stats.ends_with("----------\n==========\n"), "{}", knapsack.stdout);
    }
}

#[test]
fn a_portfolio_that_shares_nogoods_answers_as_one_worker_does() {
    // `--share`: the learning workers (0 and 1, learning with `aplaces`)
    // share their short nogoods; the answers are those of one worker, and
    // `-s` counts what they shared.
    let knapsack = run(&["-s", "-p", "2", "--share", fixture("knapsack01.fzn").to_str().unwrap()]);
    assert_eq!(knapsack.code, 0, "{}", knapsack.stderr);
    let stats: Vec<&str> = knapsack.stdout.lines().filter(|l| l.starts_with("%%%mzn-stat")).collect();
    assert!(stats.contains(&"%%%mzn-stat: objectiveBound=220"), "{stats:?}");
    assert!(stats.iter().any(|l| l.starts_with("%%%mzn-stat: nogoodsExported=")), "{stats:?}");
    assert!(stats.iter().any(|l| l.starts_with("%%%mzn-stat: nogoodsImported=")), "{stats:?}");
    expect(&["-p", "2", "--share", "unsat.fzn"], "unsat.expected");
    let verbose = run(&["-v", "-p", "2", "--share", fixture("queens.fzn").to_str().unwrap()]);
    assert!(verbose.stderr.contains("worker 1: ") && verbose.stderr.contains("aplaces"), "{}", verbose.stderr);
}
