//! What the reader says of files it cannot take: malformed XML and XCSP3
//! with their line and column, unsupported features named. (What the tool
//! csp-xcsp does with them is tested with it, in csp-cli.)

use csp_xcsp3::{ErrorKind, lower};

fn instance(variables: &str, constraints: &str) -> String {
    format!(
        "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n{variables}\n</variables>\n<constraints>\n{constraints}\n</constraints>\n</instance>\n"
    )
}

/// An optimisation instance over one variable `x` with these objectives.
fn objectives(objectives: &str) -> String {
    let x = "<var id=\"x\"> 0..3 </var>";
    format!(
        "<instance format=\"XCSP3\" type=\"COP\">\n<variables>\n{x}\n</variables>\n<constraints>\n</constraints>\n<objectives>\n{objectives}\n</objectives>\n</instance>\n"
    )
}

#[test]
fn errors_say_where_and_what() {
    let x = "<var id=\"x\"> 0..3 </var>";
    let group = |args: &str| format!("<group>\n<intension> ne(%0,%1) </intension>{args}</group>");
    let cases: [(String, ErrorKind, (u32, u32), &str); 23] = [
        (
            "<instance><variables>".to_string(),
            ErrorKind::Xml,
            (1, 22),
            "the file ends before its root element is closed",
        ),
        ("<instance>\n<variables>\n  ".to_string(), ErrorKind::Xml, (3, 3), "cut short, or a closing tag is missing"),
        (
            format!("{}<objectives/>\n", instance(x, "")),
            ErrorKind::Xml,
            (9, 1),
            "everything belongs inside the one root",
        ),
        (instance(x, "<intension> eq(x,y) </intension>"), ErrorKind::Invalid, (6, 1), "'y' is not a declared variable"),
        (instance(x, "<intension> eq(x, </intension>"), ErrorKind::Invalid, (6, 1), "an expression is missing"),
        (instance(x, "<intension> foo(x) </intension>"), ErrorKind::Invalid, (6, 1), "the operator 'foo'"),
        (instance(x, "<knapsack/>"), ErrorKind::Unsupported, (6, 1), "the constraint <knapsack> is not supported"),
        (
            instance("<var id=\"s\" type=\"set\"> a b </var>", ""),
            ErrorKind::Unsupported,
            (3, 1),
            "a variable of type set is not supported",
        ),
        (instance("<var id=\"x\"> 0..a </var>", ""), ErrorKind::Invalid, (3, 1), "'a' is not an integer"),
        (instance("<var id=\"x\"> -infinity..+infinity </var>", ""), ErrorKind::Unsupported, (3, 1), "unbounded value"),
        (
            instance(x, "<extension><list> x x </list><supports> (1,2,3) </supports></extension>"),
            ErrorKind::Invalid,
            (6, 1),
            "a tuple of 3 values",
        ),
        (
            instance(x, "<block reifiedBy=\"b\"><intension> eq(x,1) </intension></block>"),
            ErrorKind::Unsupported,
            (6, 1),
            "a reified <block> (reifiedBy) is not supported",
        ),
        (
            instance(
                "<array id=\"q\" size=\"[3]\"> 0..2 </array>",
                "<element><matrix> q[] </matrix><index> q[0] q[1] </index><value> 1 </value></element>",
            ),
            ErrorKind::Invalid,
            (6, 1),
            "'q[]' is not a matrix: it leaves 1 dimension(s) open",
        ),
        (
            instance(x, "<element><matrix> (x,1)(2) </matrix><index> x x </index><value> 1 </value></element>"),
            ErrorKind::Invalid,
            (6, 1),
            "rows of one length",
        ),
        (
            instance(x, "<sum><list> x </list><coeffs> 1x0 </coeffs><condition> (eq,1) </condition></sum>"),
            ErrorKind::Invalid,
            (6, 1),
            "repeats a value 0 times",
        ),
        // The specification: a group is its template and a sequence of
        // <args>, each with one argument per parameter; sizes are at least 1.
        (instance(x, &group("\n")), ErrorKind::Invalid, (6, 1), "<group> has no <args>: a group is a template"),
        (
            instance(x, &group("\n<args> x </args>")),
            ErrorKind::Invalid,
            (8, 1),
            "<args> has 1 argument but the template has 2 parameters, %0 to %1",
        ),
        (
            instance(x, &group("\n<args> x 1 </args>\n<args> x 1 2 </args>")),
            ErrorKind::Invalid,
            (9, 1),
            "<args> has 3 arguments but the template has 2 parameters, %0 to %1",
        ),
        // A compact list in <args> is expanded (as the official parser
        // does), so one that names nothing is an error at its <args>.
        (
            instance(x, &group("\n<args> x[] 1 </args>")),
            ErrorKind::Invalid,
            (8, 1),
            "'x' is not an array, so 'x[]' names nothing",
        ),
        (
            instance("<array id=\"q\" size=\"[0]\"> 0..2 </array>", ""),
            ErrorKind::Invalid,
            (3, 1),
            "size=\"[0]\": a dimension of size 0 (XCSP3 sizes are strictly positive",
        ),
        (
            instance("<array id=\"q\" size=\"[2][0]\"> 0..2 </array>", ""),
            ErrorKind::Invalid,
            (3, 1),
            "size=\"[2][0]\": a dimension of size 0",
        ),
        (objectives(""), ErrorKind::Invalid, (7, 1), "<objectives> holds no objective"),
        (
            objectives("<minimize> x </minimize>\n<maximize> x </maximize>"),
            ErrorKind::Unsupported,
            (7, 1),
            "more than one objective (2) is not supported",
        ),
    ];
    for (text, kind, (line, column), message) in cases {
        let error = lower(&text).expect_err(&text);
        assert_eq!(error.kind, kind, "{error}\n{text}");
        assert_eq!((error.position.line, error.position.column), (line, column), "{error}\n{text}");
        assert!(error.message.contains(message), "{error}\n{text}");
        assert!(error.to_string().starts_with(&format!("line {line}, column {column}: ")), "{error}");
        assert!(!error.message.ends_with(&format!(" at {line}:{column}")), "the place once: {error}");
    }
}

#[test]
fn attributes_that_would_change_the_meaning_are_refused_not_ignored() {
    // Each would give a wrong answer if ignored: positions counted from 0
    // where the file counts from 1, a matrix's start on a constraint that
    // has none, a slide option on a list it does not apply to.
    let x = "<array id=\"x\" size=\"[3]\"> 0..3 </array>";
    let refused = [
        (
            "<element><list> x[] </list><index startIndex=\"1\"> x[0] </index><value> 1 </value></element>",
            "startIndex=\"1\" on <index>",
        ),
        ("<allDifferent><list startIndex=\"1\"> x[] </list></allDifferent>", "startIndex=\"1\" on <list>"),
        (
            "<extension><list offset=\"2\"> x[] </list><supports> (0,1,2) </supports></extension>",
            "offset=\"2\" on <list>",
        ),
        (
            "<allDifferent><matrix startRowIndex=\"1\"> (x[0],x[1])(x[1],x[2]) </matrix></allDifferent>",
            "startRowIndex=\"1\" on <matrix>",
        ),
        ("<sum><list> x[] </list><condition scale=\"2\"> (eq,1) </condition></sum>", "scale=\"2\" on <condition>"),
        ("<allDifferent weight=\"3\"> x[] </allDifferent>", "weight=\"3\" on <allDifferent>"),
        (
            "<intension> eq(x[0],1) </intension><block><intension reified=\"no\"> eq(x[1],1) </intension></block>",
            "reified=\"no\" on <intension>",
        ),
    ];
    for (constraints, message) in refused {
        let text = instance(x, constraints);
        let error = lower(&text).expect_err(&text);
        assert_eq!(error.kind, ErrorKind::Unsupported, "{error}\n{text}");
        assert!(error.message.contains(&format!("the attribute {message} is not supported")), "{error}\n{text}");
        assert_eq!(error.position.line, 6, "{error}");
    }
    // The line of the element itself, deep in the file.
    let deep = instance(
        x,
        "<allDifferent> x[] </allDifferent>\n<block>\n<channel>\n<list> x[] </list>\n<list startIndex=\"1\" bogus=\"t\"> x[] </list>\n</channel>\n</block>",
    );
    let error = lower(&deep).unwrap_err();
    assert_eq!((error.position.line, error.position.column), (10, 1), "{error}");
    assert!(error.message.contains("the attribute bogus=\"t\" on <list>"), "{error}");
    // Honoured where the specification gives them a meaning; cosmetic ones anywhere.
    let accepted = [
        "<element id=\"e\" class=\"c\" note=\"n\"><list startIndex=\"1\"> x[] </list><index rank=\"any\"> x[0] </index><value> 2 </value></element>",
        "<channel><list startIndex=\"1\"> x[] </list><list startIndex=\"1\"> x[] </list></channel>",
        "<circuit><list startIndex=\"0\"> x[] </list></circuit>",
        "<minimumArg rank=\"last\"><list startIndex=\"0\"> x[] </list><condition> (eq,x[0]) </condition></minimumArg>",
        "<allDifferent><list startIndex=\"0\"> x[] </list></allDifferent>",
        "<slide circular=\"true\"><list offset=\"1\" collect=\"2\"> x[] </list><intension> ne(%0,%1) </intension></slide>",
    ];
    for constraints in accepted {
        let text = instance(x, constraints);
        assert!(lower(&text).is_ok(), "{:?}\n{text}", lower(&text).err());
    }
}

#[test]
fn malformed_forms_of_the_newer_globals_are_invalid_at_their_line() {
    let arrays = "<array id=\"x\" size=\"[3]\"> 0..3 </array>\n<array id=\"y\" size=\"[2]\"> 0..3 </array>";
    let cases = [
        ("<channel><list> x[] </list><list> y[] </list></channel>", "first list is longer than its second (3 > 2)"),
        ("<channel><list> x[] </list><list> y[] </list><value> x[0] </value></channel>", "found 2 lists and a <value>"),
        ("<channel><list> y[] </list><list> x[] </list><list> x[] </list></channel>", "found 3 lists"),
        ("<channel><value> x[0] </value></channel>", "found 0 lists and a <value>"),
        ("<channel><list> x[] </list><value> y[] </value></channel>", "expected one variable or value, found 2"),
        ("<allDifferent><list> x[] </list><list> y[] </list></allDifferent>", "lists of lengths 3 and 2"),
        (
            "<cumulative><origins> x[] </origins><lengths> 1 1 1 </lengths><ends> y[] </ends><heights> 1 1 1 </heights><condition> (le,1) </condition></cumulative>",
            "3 origins but 2 ends",
        ),
        (
            "<element><list> x[] </list><index rank=\"middle\"> y[0] </index><value> 1 </value></element>",
            "rank=\"middle\"",
        ),
        (
            "<cardinality><list> x[] </list><values> y[] </values><occurs> 1 </occurs></cardinality>",
            "2 values but 1 occurrences",
        ),
        (
            "<noOverlap><origins> (x[0],x[1])(x[2],y[0]) </origins><lengths> 1 1 </lengths></noOverlap>",
            "its lengths are not",
        ),
        (
            "<noOverlap><origins> (x[0],x[1])(x[2],y[0]) </origins><lengths> (1,1)(1) </lengths></noOverlap>",
            "boxes of 2 and of 1",
        ),
        ("<circuit><list> x[] </list><size> y[] </size></circuit>", "expected one variable or value, found 2"),
        (
            "<ordered><list> x[] </list><lengths> 1 </lengths><operator> le </operator></ordered>",
            "takes 2 lengths, not 1",
        ),
        (
            "<allDifferent><list> x[0] x[1] </list><list> x[2] y[0] </list><except> (0,0,0) </except></allDifferent>",
            "lists of length 2 with an excepted tuple of length 3",
        ),
        (
            "<allDifferent><list> x[0] x[1] </list><list> x[2] y[0] </list><except> 0 0 </except></allDifferent>",
            "expected a row '(a,b,...)'",
        ),
        (
            "<slide><list> x[] </list><list> y[] </list><intension> eq(%0,add(%1,%2)) </intension></slide>",
            "collect 2 items per window but its template takes 3 parameters",
        ),
        (
            "<element><list> x[] </list><matrix> (x[0],x[1]) </matrix><value> 1 </value></element>",
            "element needs one <list> or one <matrix>",
        ),
        ("<element><list> x[] </list></element>", "element needs one <value> or one <condition>"),
        (
            "<element><list> x[] </list><matrix> (x[0],x[1]) </matrix><index> y[0] </index><value> 1 </value></element>",
            "element needs one <list> or one <matrix>",
        ),
        (
            "<slide><list> x[] </list><list> </list><intension> ne(%0,%1) </intension></slide>",
            "a slide over an empty list",
        ),
        (
            "<minimumArg rank=\"middle\"><list> x[] </list><condition> (eq,y[0]) </condition></minimumArg>",
            "rank=\"middle\" is none of any, first and last",
        ),
        (
            "<maximumArg><list> </list><condition> (eq,y[0]) </condition></maximumArg>",
            "the position of the minimum or maximum of an empty list",
        ),
        ("<maximumArg><list> x[] </list></maximumArg>", "<condition>"),
        (
            "<minimumArg><list> x[] </list><condition> (eq,y[]) </condition></minimumArg>",
            "expected one variable or value, found 2",
        ),
    ];
    assert_refused_on_line_8(arrays, &cases, ErrorKind::Invalid);
}

#[test]
fn the_forms_still_refused_are_named() {
    // Each has no reading in the specification this reader could follow
    // exactly: a rank orders a list's positions, not a matrix's cells; with
    // a condition other than (eq,v), a rank could order the positions that
    // meet it or those that hold the value chosen; a template is one
    // constraint, not a group or slide.
    let arrays = "<array id=\"x\" size=\"[3]\"> 0..3 </array>\n<array id=\"y\" size=\"[2]\"> 0..3 </array>";
    let cases = [
        (
            "<element><matrix> (x[0],x[1])(x[2],y[0]) </matrix><index rank=\"first\"> y[0] y[1] </index><value> 1 </value></element>",
            "element with a rank over a matrix",
        ),
        (
            "<element><list> x[] </list><index rank=\"last\"> y[0] </index><condition> (ne,y[1]) </condition></element>",
            "element with a rank and the condition operator 'ne'",
        ),
        (
            // The official parser and ACE 2.6 number the positions from 0 whatever it says.
            "<maximumArg><list startIndex=\"1\"> x[] </list><condition> (eq,y[0]) </condition></maximumArg>",
            "the attribute startIndex=\"1\" on <list>",
        ),
        (
            "<group><group><intension> ne(%0,%1) </intension><args> x[0] x[1] </args></group><args> x[0] x[1] </args></group>",
            "a group inside a group or slide",
        ),
        (
            "<group><slide><list> x[] </list><intension> ne(%0,%1) </intension></slide><args> x[0] x[1] </args></group>",
            "a slide inside a group or slide",
        ),
    ];
    assert_refused_on_line_8(arrays, &cases, ErrorKind::Unsupported);
}

/// Each constraint, after one on line 7 of an instance over `arrays`, is
/// refused on its line 8 with an error of `kind` saying its message.
fn assert_refused_on_line_8(arrays: &str, cases: &[(&str, &str)], kind: ErrorKind) {
    for (constraint, message) in cases {
        let text = instance(arrays, &format!("<intension> ne(x[0],1) </intension>\n{constraint}"));
        let error = lower(&text).expect_err(&text);
        assert_eq!(error.kind, kind, "{error}\n{text}");
        assert!(error.message.contains(message), "{error}\n{text}");
        assert_eq!(error.position.line, 8, "{error}\n{text}");
    }
}
