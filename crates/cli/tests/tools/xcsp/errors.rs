//! What csp-xcsp says of files it cannot take: malformed XML and XCSP3
//! with their line and column, unsupported features named (with `s
//! UNSUPPORTED` on stdout), and instances that fail before search.

use csp_xcsp3::lower;

use super::{run, status};

fn instance(variables: &str, constraints: &str) -> String {
    format!(
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n{variables}\n</variables>\n<constraints>\n{constraints}\n</constraints>\n</instance>\n"
    )
}

#[test]
fn the_tool_prints_unsupported_and_exits_2() {
    let text = instance("<var id=\"x\"> 0..3 </var>", "<knapsack/>");
    let out = run(&["-"], &text);
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(status(&out.stdout), Some("UNSUPPORTED"), "{out:?}");
    assert!(out.stderr.contains("line 6, column 1: the constraint <knapsack> is not supported"), "{}", out.stderr);
    let out = run(&["-"], "<instance");
    assert_eq!((out.code, out.stdout.as_str()), (2, ""), "{out:?}");
    assert!(out.stderr.starts_with("error: -: line 1"), "{}", out.stderr);
    let out = run(&["/nonexistent/file.xml"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("cannot read /nonexistent/file.xml"), "{}", out.stderr);
}

#[test]
fn instances_that_fail_before_search_are_unsatisfiable() {
    for text in [
        instance("<var id=\"x\"> </var>", ""),
        instance("<var id=\"x\"> 0..3 </var>", "<intension> gt(3,4) </intension>"),
        instance("<var id=\"x\"> 0..3 </var>", "<extension><list> x </list><supports> 7 9 </supports></extension>"),
        instance("<var id=\"x\"> 0..3 </var>", "<sum><list> 1 2 </list><condition> (eq,4) </condition></sum>"),
        instance("<var id=\"x\"> 0..3 </var>", "<allDifferent> x x </allDifferent>"),
    ] {
        let lowered = lower(&text).unwrap();
        assert!(lowered.inconsistent.is_some(), "{text}");
        let out = run(&["-"], &text);
        assert_eq!((out.code, out.stdout.as_str()), (1, "s UNSATISFIABLE\n"), "{text}");
    }
}

#[test]
fn limits_give_unknown_and_timeouts_are_honoured() {
    let queens = std::fs::read_to_string(super::corpus_dir().join("pigeons-6.xml")).unwrap();
    let out = run(&["--node-limit", "3", "--config", "fc+input", "-"], &queens);
    assert_eq!((out.code, out.stdout.as_str()), (1, "s UNKNOWN\n"), "{out:?}");
    let golomb = std::fs::read_to_string(super::corpus_dir().join("golomb-6.xml")).unwrap();
    let out = run(&["--node-limit", "2", "--config", "bt+input", "-"], &golomb);
    assert!(out.stdout == "s UNKNOWN\n" || out.stdout.contains("s SATISFIABLE\n"), "{out:?}");
    assert_eq!(out.code, 1);
    // The thread's CPU time, as every other tool has it: 0 stops before the
    // first decision.
    let out = run(&["--cpu-timeout", "0", "--config", "fc+input", "-"], &queens);
    assert_eq!((out.code, out.stdout.as_str()), (1, "s UNKNOWN\n"), "{out:?}");
    let out = run(&["--cpu-timeout", "60", "--config", "fc+input", "-"], &queens);
    assert_eq!((out.code, out.stdout.as_str()), (1, "s UNSATISFIABLE\n"), "{out:?}");
    let out = run(&["--cpu-timeout", "-1", "-"], &queens);
    assert!(out.code == 2 && out.stderr.contains("'--cpu-timeout <SECS>'"), "{out:?}");
}
