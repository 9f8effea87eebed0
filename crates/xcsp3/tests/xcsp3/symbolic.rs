//! Symbolic variables against brute force: symbols stand for codes in the
//! order the file first names them, so each instance's solutions are
//! compared with the assignments of codes that the constraints' definitions
//! accept, and the instantiation shows the symbols.

use csp::rng::Rng;
use csp::{SolveConfig, Solver};
use csp_xcsp3::expression::{Expr, Operator};
use csp_xcsp3::{ErrorKind, lower};

use crate::brute_force::{assert_exact, brute_force, engine_solutions};

/// `s` over `a b c` (codes 0 1 2), `t` over `b c d` (1 2 3), the integer `u` over 0..2, then `constraints`.
fn instance(constraints: &str) -> String {
    format!(
        "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"s\" type=\"symbolic\"> a b c </var>\
         <var id=\"t\" type=\"symbolic\"> b c d </var><var id=\"u\"> 0..2 </var></variables>\
         <constraints>{constraints}</constraints></instance>"
    )
}

/// A constraint's definition over the codes of `s`, `t` and `u`.
type Holds<'a> = &'a dyn Fn(&[i64]) -> bool;

const SYMBOLS: [&str; 4] = ["a", "b", "c", "d"];

fn domains() -> Vec<Vec<i64>> {
    vec![vec![0, 1, 2], vec![1, 2, 3], vec![0, 1, 2]]
}

fn leaf(rng: &mut Rng) -> Expr {
    match rng.below(3) {
        0 => Expr::Var("s".to_string()),
        1 => Expr::Var("t".to_string()),
        _ => Expr::Var(SYMBOLS[rng.below(4) as usize].to_string()),
    }
}

fn random_condition(rng: &mut Rng, depth: u32) -> Expr {
    use Operator::*;
    if depth == 0 || rng.below(3) == 0 {
        return match rng.below(5) {
            0 => Expr::Call(Eq, vec![leaf(rng), leaf(rng)]),
            1 => Expr::Call(Ne, vec![leaf(rng), leaf(rng)]),
            2 => Expr::Call(Le, vec![Expr::Var("u".to_string()), Expr::Int(rng.below(3) as i64)]),
            k => {
                let members = (0..rng.below(3) + 1).map(|_| leaf(rng)).collect();
                Expr::Call(if k == 3 { In } else { NotIn }, vec![leaf(rng), Expr::Call(Set, members)])
            }
        };
    }
    match rng.below(4) {
        0 => Expr::Call(Not, vec![random_condition(rng, depth - 1)]),
        1 => Expr::Call(And, vec![random_condition(rng, depth - 1), random_condition(rng, depth - 1)]),
        2 => Expr::Call(Or, vec![random_condition(rng, depth - 1), random_condition(rng, depth - 1)]),
        _ => Expr::Call(Iff, vec![random_condition(rng, depth - 1), random_condition(rng, depth - 1)]),
    }
}

#[test]
fn random_intensions_over_symbols_have_exactly_their_solutions() {
    let mut rng = Rng::new(3838);
    let mut satisfiable = 0;
    for round in 0..300 {
        let expr = random_condition(&mut rng, 3);
        let xml = instance(&format!("<intension> {expr} </intension>"));
        let accepts = |values: &[i64]| {
            let lookup = |name: &str| match name {
                "s" => Some(values[0]),
                "t" => Some(values[1]),
                "u" => Some(values[2]),
                symbol => SYMBOLS.iter().position(|s| *s == symbol).map(|code| code as i64),
            };
            expr.evaluate(&lookup) == Some(1)
        };
        let expected = brute_force(&domains(), &accepts);
        satisfiable += usize::from(!expected.is_empty());
        let found = engine_solutions(&xml, if round % 2 == 0 { "mac+mrv" } else { "fc+domwdeg+binary" });
        assert_eq!(found, expected, "round {round}: {expr}");
    }
    assert!(satisfiable > 100, "{satisfiable} satisfiable");
}

#[test]
fn symbolic_tables_orders_and_instantiations_follow_their_definitions() {
    let cases: [(&str, Holds<'_>); 12] = [
        // A mixed table, a star, a symbol no domain holds (never matched).
        ("<extension><list> s t u </list><supports> (a,b,0)(c,*,2)(e,b,1)(b,d,1) </supports></extension>", &|v| {
            matches!(v, [0, 1, 0] | [2, _, 2] | [1, 3, 1])
        }),
        ("<extension><list> s t </list><conflicts> (a,b)(b,*) </conflicts></extension>", &|v| {
            !(v[0] == 0 && v[1] == 1) && v[0] != 1
        }),
        ("<extension><list> t </list><supports> b d e </supports></extension>", &|v| v[1] != 2),
        ("<extension><list> s </list><conflicts> a </conflicts></extension>", &|v| v[0] != 0),
        ("<allDifferent> s t </allDifferent>", &|v| v[0] != v[1]),
        ("<allEqual> s t </allEqual>", &|v| v[0] == v[1]),
        ("<instantiation><list> s u </list><values> c 1 </values></instantiation>", &|v| v[0] == 2 && v[2] == 1),
        ("<instantiation><list> t </list><values> a </values></instantiation>", &|_| false),
        ("<intension> or(eq(s,t),in(t,set(d))) </intension>", &|v| v[0] == v[1] || v[1] == 3),
        // Two expressions over the same variables.
        ("<intension> ne(s,a) </intension><intension> eq(s,t) </intension>", &|v| v[0] != 0 && v[0] == v[1]),
        // A symbol no domain holds: no variable takes it.
        ("<intension> ne(s,zz) </intension>", &|_| true),
        ("<intension> or(eq(t,zz),eq(s,a)) </intension>", &|v| v[0] == 0),
    ];
    for (constraint, holds) in cases {
        assert_exact(&instance(constraint), &domains(), holds);
    }
}

#[test]
fn symbolic_counts_values_cardinalities_and_elements_follow_their_definitions() {
    let count = |v: &[i64], k: i64| v.iter().filter(|&&a| a == k).count() as i64;
    let cases: [(&str, Holds<'_>); 12] = [
        ("<count><list> s t </list><values> b </values><condition> (eq,u) </condition></count>", &|v| {
            count(&v[..2], 1) == v[2]
        }),
        ("<count><list> s t </list><values> s </values><condition> (ge,2) </condition></count>", &|v| v[0] == v[1]),
        ("<count><list> s t </list><values> a d </values><condition> (lt,1) </condition></count>", &|v| {
            ![0, 3].contains(&v[0]) && ![0, 3].contains(&v[1])
        }),
        ("<nValues><list> s t </list><condition> (eq,u) </condition></nValues>", &|v| {
            (if v[0] == v[1] { 1 } else { 2 }) == v[2]
        }),
        ("<nValues><list> s t </list><except> b </except><condition> (eq,1) </condition></nValues>", &|v| {
            let kept: std::collections::BTreeSet<i64> = v[..2].iter().copied().filter(|&a| a != 1).collect();
            kept.len() == 1
        }),
        ("<cardinality><list> s t </list><values> b c </values><occurs> u 1 </occurs></cardinality>", &|v| {
            count(&v[..2], 1) == v[2] && count(&v[..2], 2) == 1
        }),
        (
            "<cardinality><list> s t </list><values closed=\"true\"> b c </values><occurs> 0..2 1..2 </occurs></cardinality>",
            &|v| v[..2].iter().all(|a| [1, 2].contains(a)) && count(&v[..2], 2) >= 1,
        ),
        ("<cardinality><list> s </list><values> t </values><occurs> u </occurs></cardinality>", &|v| {
            i64::from(v[0] == v[1]) == v[2]
        }),
        ("<element><list> s t </list><index> u </index><value> c </value></element>", &|v| {
            v[2] <= 1 && [v[0], v[1]][v[2] as usize] == 2
        }),
        ("<element><list> a t d </list><index> u </index><value> s </value></element>", &|v| {
            [0, v[1], 3][v[2] as usize] == v[0]
        }),
        ("<element><list> s t </list><value> b </value></element>", &|v| v[0] == 1 || v[1] == 1),
        ("<element><list> s t b </list><index rank=\"last\"> u </index><value> b </value></element>", &|v| {
            let list = [v[0], v[1], 1];
            list[v[2] as usize] == 1 && list[v[2] as usize + 1..].iter().all(|&e| e != 1)
        }),
    ];
    for (constraint, holds) in cases {
        assert_exact(&instance(constraint), &domains(), holds);
    }
}

#[test]
fn the_instantiation_shows_the_symbols() {
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables>\
               <array id=\"x\" size=\"[3]\" type=\"symbolic\"> blue green red </array>\
               <var id=\"y\" type=\"symbolic\"> a b </var><var id=\"n\"> 0..1 </var></variables><constraints>\
               <allDifferent> x[] </allDifferent><intension> eq(x[0],red) </intension>\
               <extension><list> x[1] y </list><supports> (blue,b)(green,a)(red,a) </supports></extension>\
               <intension> eq(y,b) </intension><intension> eq(n,1) </intension></constraints></instance>";
    let lowered = lower(xml).unwrap();
    let mut solver = Solver::new(&lowered.model, SolveConfig::default()).unwrap();
    let solutions: Vec<String> =
        solver.solutions().map(|s| lowered.variables.instantiation(s.values(), None)).collect();
    assert_eq!(
        solutions,
        [
            "<instantiation type=\"solution\"> <list> x[] y n </list> <values> red blue green b 1 </values> </instantiation>"
        ]
    );
}

#[test]
fn symbols_are_refused_where_they_would_be_numbers() {
    let with_objective = |objective: &str| {
        format!(
            "<instance format=\"XCSP3\" type=\"COP\"><variables><var id=\"s\" type=\"symbolic\"> a b </var>\
             <var id=\"u\"> 0..2 </var></variables><constraints/><objectives>{objective}</objectives></instance>"
        )
    };
    let cases = [
        (instance("<sum><list> s u </list><condition> (eq,1) </condition></sum>"), ErrorKind::Unsupported, "the symbolic variable s in <sum>"),
        (instance("<intension> lt(s,t) </intension>"), ErrorKind::Unsupported, "the operator lt over the symbol or symbolic variable 's'"),
        (instance("<intension> eq(s,1) </intension>"), ErrorKind::Unsupported, "'1' compared with a symbol by eq"),
        (instance("<intension> eq(s,u) </intension>"), ErrorKind::Unsupported, "'u' compared with a symbol by eq"),
        (instance("<intension> eq(add(s,1),u) </intension>"), ErrorKind::Unsupported, "the operator add over"),
        (instance("<intension> eq(u,a) </intension>"), ErrorKind::Unsupported, "'u' compared with a symbol"),
        (instance("<intension> eq(u,zz) </intension>"), ErrorKind::Unsupported, "'u' compared with a symbol"),
        (instance("<intension> s </intension>"), ErrorKind::Unsupported, "'s' as a condition"),
        (instance("<allDifferent> s u </allDifferent>"), ErrorKind::Unsupported, "allDifferent over symbolic variables and other items"),
        (instance("<minimum><list> s t </list><condition> (eq,u) </condition></minimum>"), ErrorKind::Unsupported, "the symbolic variable s in <minimum>"),
        (instance("<count><list> s t </list><values> 1 </values><condition> (eq,1) </condition></count>"), ErrorKind::Unsupported, "count over symbols and integers together"),
        (instance("<count><list> s u </list><values> a </values><condition> (eq,1) </condition></count>"), ErrorKind::Unsupported, "count over symbols and integers together"),
        (instance("<count><list> s t </list><values> a </values><condition> (eq,s) </condition></count>"), ErrorKind::Unsupported, "a symbol or symbolic variable in the condition (eq,s)"),
        (instance("<count><list> add(u,s) </list><values> 1 </values><condition> (eq,1) </condition></count>"), ErrorKind::Unsupported, "'s' in the expression"),
        (instance("<nValues><list> s t </list><except> 0 </except><condition> (eq,1) </condition></nValues>"), ErrorKind::Unsupported, "nValues with except over symbols and integers together"),
        (instance("<cardinality><list> s t </list><values> a </values><occurs> s </occurs></cardinality>"), ErrorKind::Unsupported, "in cardinality's occurrences"),
        (instance("<element><list> s t </list><index> u </index><condition> (eq,a) </condition></element>"), ErrorKind::Unsupported, "element over symbolic variables with a condition"),
        (instance("<element><list> u u </list><index> s </index><value> 1 </value></element>"), ErrorKind::Unsupported, "in element's index"),
        (instance("<element><list> s t </list><index> u </index><value> 1 </value></element>"), ErrorKind::Unsupported, "element over symbols and integers together"),
                (instance("<instantiation><list> s u </list><values> a b </values></instantiation>"), ErrorKind::Invalid, "the symbol 'b' for the integer variable u"),
        (instance("<instantiation><list> s t </list><values> a 1 </values></instantiation>"), ErrorKind::Invalid, "'1' for the symbolic variable t"),
        (instance("<extension><list> s u </list><supports> (a,b) </supports></extension>"), ErrorKind::Invalid, "the symbol 'b' for the integer variable u"),
        (instance("<intension reifiedBy=\"s\"> eq(u,1) </intension>"), ErrorKind::Invalid, "names a symbolic variable"),
        (with_objective("<minimize> s </minimize>"), ErrorKind::Unsupported, "the symbolic variable s as the objective"),
        (with_objective("<minimize type=\"sum\"> s u </minimize>"), ErrorKind::Unsupported, "the symbolic variable s in the objective"),
        (
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"s\" type=\"symbolic\"> a 1b </var></variables></instance>".to_string(),
            ErrorKind::Invalid,
            "'1b' is not a symbol",
        ),
        (
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"a\"> 0 1 </var><var id=\"s\" type=\"symbolic\"> a b </var>\
             </variables><constraints><intension> eq(s,a) </intension></constraints></instance>".to_string(),
            ErrorKind::Invalid,
            "'a' is both a variable and a symbol",
        ),
        (
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"s\" type=\"real\"> 0..1 </var></variables></instance>".to_string(),
            ErrorKind::Unsupported,
            "a variable of type real",
        ),
    ];
    for (xml, kind, message) in cases {
        let error = lower(&xml).expect_err(&xml);
        assert_eq!(error.kind, kind, "{xml}: {error}");
        assert!(error.message.contains(message), "{xml}: {error}");
    }
}
