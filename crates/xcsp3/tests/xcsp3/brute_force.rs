//! The lowering against brute force: on tiny instances, the engine's
//! solutions (projected on the declared variables) are exactly the
//! assignments that the constraints' definitions accept, enumerated one by
//! one. Intension expressions are drawn at random and judged by the
//! evaluator of `csp_xcsp3::expression`; each global constraint is judged
//! by a closure that spells out its XCSP3 definition.

use std::collections::BTreeSet;

use csp::rng::Rng;
use csp::{SolveConfig, Solver};
use csp_xcsp3::expression::{self, Expr};

/// The solutions of the lowered instance, projected on its first
/// `declared` variables.
pub(crate) fn engine_solutions(xml: &str, config: &str) -> BTreeSet<Vec<i64>> {
    let lowered = csp_xcsp3::lower(xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let declared = lowered.variables.declared();
    if lowered.inconsistent.is_some() {
        return BTreeSet::new();
    }
    let mut solver = Solver::new(&lowered.model, config.parse::<SolveConfig>().unwrap()).unwrap();
    let solutions: BTreeSet<Vec<i64>> =
        solver.solutions().map(|s| declared.iter().map(|&v| s.value(v)).collect()).collect();
    solutions
}

/// Every assignment of the domains that `accepts`.
pub(crate) fn brute_force(domains: &[Vec<i64>], accepts: &dyn Fn(&[i64]) -> bool) -> BTreeSet<Vec<i64>> {
    let mut found = BTreeSet::new();
    let mut values = vec![0; domains.len()];
    fn walk(
        domains: &[Vec<i64>],
        at: usize,
        values: &mut Vec<i64>,
        accepts: &dyn Fn(&[i64]) -> bool,
        found: &mut BTreeSet<Vec<i64>>,
    ) {
        if at == domains.len() {
            if accepts(values) {
                found.insert(values.clone());
            }
            return;
        }
        for &v in &domains[at] {
            values[at] = v;
            walk(domains, at + 1, values, accepts, found);
        }
    }
    walk(domains, 0, &mut values, accepts, &mut found);
    found
}

/// Checks an instance against its definition under a few configurations.
pub(crate) fn assert_exact(xml: &str, domains: &[Vec<i64>], accepts: &dyn Fn(&[i64]) -> bool) {
    let expected = brute_force(domains, accepts);
    for config in ["mac+mrv", "fc+mrv+binary", "bt+input"] {
        let found = engine_solutions(xml, config);
        assert_eq!(found, expected, "under {config}:\n{xml}");
    }
}

// ---- intension, at random ----

const INT_VARS: [&str; 3] = ["x", "y", "z"];
const BOOL_VARS: [&str; 2] = ["a", "b"];

fn random_int(rng: &mut Rng, depth: u32) -> Expr {
    use expression::Operator::*;
    if depth == 0 || rng.below(4) == 0 {
        return match rng.below(3) {
            0 => Expr::Int(rng.below(7) as i64 - 3),
            _ => Expr::Var(INT_VARS[rng.below(3) as usize].to_string()),
        };
    }
    let int = |rng: &mut Rng| random_int(rng, depth - 1);
    match rng.below(14) {
        0 => Expr::Call(Neg, vec![int(rng)]),
        1 => Expr::Call(Abs, vec![int(rng)]),
        2 => Expr::Call(Add, (0..2 + rng.below(2)).map(|_| int(rng)).collect()),
        3 => Expr::Call(Sub, vec![int(rng), int(rng)]),
        4 => Expr::Call(Mul, vec![int(rng), int(rng)]),
        5 => Expr::Call(Div, vec![int(rng), int(rng)]),
        6 => Expr::Call(Mod, vec![int(rng), int(rng)]),
        7 => Expr::Call(Sqr, vec![int(rng)]),
        8 => Expr::Call(Pow, vec![int(rng), Expr::Int(rng.below(4) as i64)]),
        9 => Expr::Call(Min, (0..2 + rng.below(2)).map(|_| int(rng)).collect()),
        10 => Expr::Call(Max, vec![int(rng), int(rng)]),
        11 => Expr::Call(Dist, vec![int(rng), int(rng)]),
        12 => Expr::Call(If, vec![random_bool(rng, depth - 1), int(rng), int(rng)]),
        _ => random_bool(rng, depth - 1),
    }
}

pub(crate) fn random_bool(rng: &mut Rng, depth: u32) -> Expr {
    use expression::Operator::*;
    if depth == 0 || rng.below(5) == 0 {
        return Expr::Var(BOOL_VARS[rng.below(2) as usize].to_string());
    }
    let boolean = |rng: &mut Rng| random_bool(rng, depth - 1);
    match rng.below(13) {
        0 => Expr::Call(Not, vec![boolean(rng)]),
        1 => Expr::Call(And, (0..2 + rng.below(2)).map(|_| boolean(rng)).collect()),
        2 => Expr::Call(Or, vec![boolean(rng), boolean(rng)]),
        3 => Expr::Call(Xor, (0..2 + rng.below(2)).map(|_| boolean(rng)).collect()),
        4 => Expr::Call(Iff, vec![boolean(rng), boolean(rng)]),
        5 => Expr::Call(Imp, vec![boolean(rng), boolean(rng)]),
        6 => {
            let set = (0..rng.below(4)).map(|_| Expr::Int(rng.below(7) as i64 - 3)).collect();
            let op = if rng.below(2) == 0 { In } else { NotIn };
            Expr::Call(op, vec![random_int(rng, depth - 1), Expr::Call(Set, set)])
        }
        7 => Expr::Call(Eq, (0..2 + rng.below(2)).map(|_| random_int(rng, depth - 1)).collect()),
        k => {
            let op = [Lt, Le, Ge, Gt, Ne][(k - 8) as usize];
            Expr::Call(op, vec![random_int(rng, depth - 1), random_int(rng, depth - 1)])
        }
    }
}

#[test]
fn random_intension_constraints_have_exactly_their_solutions() {
    let domains = vec![vec![-2, -1, 0, 1, 2], vec![-1, 0, 1, 3], vec![0, 1, 2], vec![0, 1], vec![0, 1]];
    let names = ["x", "y", "z", "a", "b"];
    let mut rng = Rng::new(17);
    let mut satisfiable = 0;
    for round in 0..400 {
        let expr = random_bool(&mut rng, 3);
        let xml = format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables>\
             <var id=\"x\"> -2..2 </var><var id=\"y\"> -1..1 3 </var><var id=\"z\"> 0..2 </var>\
             <var id=\"a\"> 0 1 </var><var id=\"b\"> 0..1 </var></variables>\
             <constraints><intension> {expr} </intension></constraints></instance>"
        );
        let accepts = |values: &[i64]| {
            let lookup = |name: &str| names.iter().position(|n| *n == name).map(|i| values[i]);
            expr.evaluate(&lookup) == Some(1)
        };
        let expected = brute_force(&domains, &accepts);
        satisfiable += usize::from(!expected.is_empty());
        let found = engine_solutions(&xml, if round % 2 == 0 { "mac+mrv" } else { "fc+domwdeg+binary" });
        assert_eq!(found, expected, "round {round}: {expr}");
    }
    assert!(satisfiable > 100, "the random expressions are not all trivial: {satisfiable} satisfiable");
}

// ---- the globals, one by one ----

/// An instance with `x` as an array of `n` variables over `domain`, and `constraints`.
fn with_array(n: usize, domain: &str, constraints: &str) -> String {
    format!(
        "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[{n}]\"> {domain} </array>\
         </variables><constraints>{constraints}</constraints></instance>"
    )
}

pub(crate) fn domains(n: usize, values: &[i64]) -> Vec<Vec<i64>> {
    vec![values.to_vec(); n]
}

#[test]
fn coefficients_that_merge_past_64_bits_keep_the_sum_exact() {
    // x[0] twice with 2^62 merges to 2^63, x[1] to -(2^63 + 1): beyond the
    // engine's ±2^62 and beyond i64; the engine keeps in-range terms apart.
    const BIG: &str = "4611686018427387904";
    let big = 1i128 << 62;
    let d = domains(2, &[-2, -1, 0, 1, 2]);
    let sum = |v: &[i64]| 2 * big * i128::from(v[0]) - (2 * big + 1) * i128::from(v[1]);
    for (condition, accepts) in [
        ("(le,-2)", &(|s: i128| s <= -2) as &dyn Fn(i128) -> bool),
        ("(eq,-2)", &|s| s == -2),
        ("(ne,-2)", &|s| s != -2),
        ("(gt,4611686018427387904)", &|s| s > big),
        ("(ge,-4611686018427387904)", &|s| s >= -big),
    ] {
        let xml = with_array(
            2,
            "-2..2",
            &format!(
                "<sum><list> x[0] x[1] x[0] x[1] x[1] </list><coeffs> {BIG} -{BIG} {BIG} -{BIG} -1 </coeffs>\
                 <condition> {condition} </condition></sum>"
            ),
        );
        assert_exact(&xml, &d, &|v| accepts(sum(v)));
    }
    // The same merge inside an expression.
    let xml = with_array(
        2,
        "-2..2",
        &format!("<intension> le(add(mul(x[0],{BIG}),mul({BIG},x[0]),neg(x[1])),-2) </intension>"),
    );
    assert_exact(&xml, &d, &|v| 2 * big * i128::from(v[0]) - i128::from(v[1]) <= -2);
}

#[test]
fn sum_count_and_values_follow_their_definitions() {
    let d = domains(4, &[0, 1, 2]);
    let xml = with_array(
        4,
        "0..2",
        "<sum><list> x[] </list><coeffs> 2 -1 1 3 </coeffs><condition> (in,2..4) </condition></sum>",
    );
    assert_exact(&xml, &d, &|v| (2..=4).contains(&(2 * v[0] - v[1] + v[2] + 3 * v[3])));
    // Compact forms vxk (pycsp3 writes runs of three or more so).
    let xml = with_array(
        4,
        "0..2",
        "<sum><list> x[] </list><coeffs> 2x2 -1x2 </coeffs><condition> (eq,1) </condition></sum>",
    );
    assert_exact(&xml, &d, &|v| 2 * v[0] + 2 * v[1] - v[2] - v[3] == 1);
    let xml = with_array(4, "0..2", "<sum><list> x[0] x[1] </list><condition> (ne,x[2]) </condition></sum>");
    assert_exact(&xml, &d, &|v| v[0] + v[1] != v[2]);
    let xml = with_array(
        4,
        "0..2",
        "<count><list> x[0..2] </list><values> 1 2 </values><condition> (eq,x[3]) </condition></count>",
    );
    assert_exact(&xml, &d, &|v| v[..3].iter().filter(|&&a| a == 1 || a == 2).count() as i64 == v[3]);
    let xml = with_array(
        4,
        "0..2",
        "<count><list> x[1..3] </list><values> x[0] </values><condition> (ge,2) </condition></count>",
    );
    assert_exact(&xml, &d, &|v| v[1..].iter().filter(|&&a| a == v[0]).count() >= 2);
    let xml = with_array(4, "0..2", "<nValues><list> x[] </list><condition> (lt,3) </condition></nValues>");
    assert_exact(&xml, &d, &|v| v.iter().collect::<BTreeSet<_>>().len() < 3);
    // With except (xcsp_diff.py's seeds 1097 and 1175 used it): the
    // excepted values are not counted, on a variable that can take them or not.
    for (except, condition) in [("0", "(eq,2)"), ("1 2", "(le,0)"), ("-1", "(eq,x[3])"), ("0 2", "(ge,1)")] {
        let xml = with_array(
            4,
            "0..2",
            &format!(
                "<nValues><list> x[0..2] </list><except> {except} </except><condition> {condition} </condition></nValues>"
            ),
        );
        let excepted: Vec<i64> = except.split_whitespace().map(|t| t.parse().unwrap()).collect();
        let counted = |v: &[i64]| v[..3].iter().filter(|a| !excepted.contains(a)).collect::<BTreeSet<_>>().len() as i64;
        let holds = |v: &[i64]| match condition {
            "(eq,2)" => counted(v) == 2,
            "(le,0)" => counted(v) == 0,
            "(eq,x[3])" => counted(v) == v[3],
            _ => counted(v) >= 1,
        };
        assert_exact(&xml, &d, &holds);
    }
    let xml =
        with_array(4, "0..2", "<minimum><list> x[0] x[1] x[2] </list><condition> (eq,x[3]) </condition></minimum>");
    assert_exact(&xml, &d, &|v| *v[..3].iter().min().unwrap() == v[3]);
    let xml = with_array(4, "0..2", "<maximum><list> x[] </list><condition> (le,1) </condition></maximum>");
    assert_exact(&xml, &d, &|v| *v.iter().max().unwrap() <= 1);
    let xml = with_array(
        4,
        "0..2",
        "<allEqual> x[0] x[2] </allEqual><instantiation><list> x[1] </list><values> 2 </values></instantiation>",
    );
    assert_exact(&xml, &d, &|v| v[0] == v[2] && v[1] == 2);
}

#[test]
fn cardinality_and_all_different_follow_their_definitions() {
    let d = domains(4, &[0, 1, 2]);
    let xml = with_array(
        4,
        "0..2",
        "<cardinality><list> x[] </list><values closed=\"true\"> 0 1 </values><occurs> 1..2 2..3 </occurs></cardinality>",
    );
    let count = |v: &[i64], k: i64| v.iter().filter(|&&a| a == k).count();
    assert_exact(&xml, &d, &|v| {
        v.iter().all(|&a| a <= 1) && (1..=2).contains(&count(v, 0)) && (2..=3).contains(&count(v, 1))
    });
    let xml = with_array(
        4,
        "0..2",
        "<cardinality><list> x[0..2] </list><values> 1 2 </values><occurs> x[3] 1 </occurs></cardinality>",
    );
    assert_exact(&xml, &d, &|v| count(&v[..3], 1) as i64 == v[3] && count(&v[..3], 2) == 1);
    // Over a matrix: each row and each column (a 2x3 array, then rows written out).
    let matrix = |constraint: &str| {
        format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"m\" size=\"[2][3]\"> 0..2 </array>\
             </variables><constraints>{constraint}</constraints></instance>"
        )
    };
    let rows_and_columns = |v: &[i64], holds: &dyn Fn(&[i64]) -> bool| {
        holds(&v[..3]) && holds(&v[3..]) && (0..3).all(|j| holds(&[v[j], v[3 + j]]))
    };
    let distinct = |line: &[i64]| line.iter().collect::<BTreeSet<_>>().len() == line.len();
    let xml = matrix("<allDifferent><matrix> m[][] </matrix></allDifferent>");
    assert_exact(&xml, &domains(6, &[0, 1, 2]), &|v| rows_and_columns(v, &distinct));
    let xml =
        matrix("<allDifferent><matrix> (m[0][0],m[0][1],m[0][2])(m[1][0],m[1][1],m[1][2]) </matrix></allDifferent>");
    assert_exact(&xml, &domains(6, &[0, 1, 2]), &|v| rows_and_columns(v, &distinct));
    let xml = matrix("<lex><matrix> m[][] </matrix><operator> lt </operator></lex>");
    assert_exact(&xml, &domains(6, &[0, 1, 2]), &|v| {
        let columns = [[v[0], v[3]], [v[1], v[4]], [v[2], v[5]]];
        v[..3] < v[3..] && columns.windows(2).all(|pair| pair[0] < pair[1])
    });
    let xml = with_array(4, "0..2", "<allDifferent><list> x[] </list><except> 0 </except></allDifferent>");
    assert_exact(&xml, &d, &|v| (0..4).all(|i| (0..i).all(|j| v[i] != v[j] || v[i] == 0)));
    let xml = with_array(3, "0..2", "<allDifferent> x[0] add(x[1],1) x[1] </allDifferent>");
    assert_exact(&xml, &domains(3, &[0, 1, 2]), &|v| v[0] != v[1] + 1 && v[0] != v[1]);
    let xml = with_array(3, "0..2", "<allDifferent> x[0] x[1] x[0] </allDifferent>");
    assert_exact(&xml, &domains(3, &[0, 1, 2]), &|_| false);
}

#[test]
fn element_channel_and_orders_follow_their_definitions() {
    let d = domains(4, &[0, 1, 2]);
    let xml = with_array(
        4,
        "0..2",
        "<element><list startIndex=\"1\"> x[0] x[1] 2 </list><index> x[2] </index><value> x[3] </value></element>",
    );
    assert_exact(&xml, &d, &|v| {
        let list = [v[0], v[1], 2];
        (1..=3).contains(&v[2]) && list[(v[2] - 1) as usize] == v[3]
    });
    let xml = with_array(
        4,
        "0..2",
        "<element><list> 2 0 1 </list><index> x[0] </index><condition> (gt,x[1]) </condition></element>",
    );
    assert_exact(&xml, &d, &|v| [2, 0, 1][v[0] as usize] > v[1]);
    // Over a matrix: a reference to a 2x3 array, indices that may fall outside it.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"m\" size=\"[2][3]\"> 0..1 </array>\
               <var id=\"r\"> -1..2 </var><var id=\"c\"> 0..3 </var></variables><constraints><element>\
               <matrix> m[][] </matrix><index> r c </index><value> 1 </value></element></constraints></instance>";
    let mut cells_and_indices = domains(6, &[0, 1]);
    cells_and_indices.push(vec![-1, 0, 1, 2]);
    cells_and_indices.push(vec![0, 1, 2, 3]);
    assert_exact(xml, &cells_and_indices, &|v| {
        (0..2).contains(&v[6]) && (0..3).contains(&v[7]) && v[(3 * v[6] + v[7]) as usize] == 1
    });
    // Rows written out, counted from 1 and -1, compared by a condition.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[4]\"> 0..2 </array>\
               </variables><constraints><element><matrix startRowIndex=\"1\" startColIndex=\"-1\"> (x[0],2)(1,x[1]) \
               </matrix><index> x[2] add(x[3],-2) </index><condition> (ge,2) </condition></element></constraints></instance>";
    assert_exact(xml, &domains(4, &[0, 1, 2]), &|v| {
        let (row, column) = (v[2] - 1, v[3] - 2 + 1);
        let cells = [[v[0], 2], [1, v[1]]];
        (0..2).contains(&row) && (0..2).contains(&column) && cells[row as usize][column as usize] >= 2
    });
    // x's positions count from 1, y's from 0: x takes positions of y (0..2), y positions of x (1..3).
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[3]\"> 0..3 </array>\
               <array id=\"y\" size=\"[3]\"> 0..3 </array></variables><constraints><channel>\
               <list startIndex=\"1\"> x[] </list><list> y[] </list></channel></constraints></instance>";
    assert_exact(xml, &domains(6, &[0, 1, 2, 3]), &|v| {
        let (x, y) = (&v[..3], &v[3..]);
        x.iter().all(|&j| (0..3).contains(&j))
            && y.iter().all(|&i| (1..=3).contains(&i))
            && (1..=3).all(|i: i64| (0..3).all(|j: i64| (x[(i - 1) as usize] == j) == (y[j as usize] == i)))
    });
    let xml = with_array(4, "0..2", "<ordered><list> x[] </list><operator> le </operator></ordered>");
    assert_exact(&xml, &d, &|v| v.windows(2).all(|p| p[0] <= p[1]));
    // With lengths, constants or a variable: x[i] + l[i] operator x[i + 1].
    let xml = with_array(
        4,
        "0..2",
        "<ordered><list> x[0] x[1] x[2] </list><lengths> 1 x[3] </lengths><operator> lt </operator></ordered>",
    );
    assert_exact(&xml, &d, &|v| v[0] + 1 < v[1] && v[1] + v[3] < v[2]);
    let xml = with_array(
        4,
        "0..2",
        "<ordered><list> x[0] x[1] x[2] </list><lengths> -1 0 </lengths><operator> ge </operator></ordered>",
    );
    assert_exact(&xml, &d, &|v| v[0] > v[1] && v[1] >= v[2]); // x[0] - 1 >= x[1]
    let xml =
        with_array(4, "0..2", "<lex><list> x[0] x[1] </list><list> x[2] x[3] </list><operator> gt </operator></lex>");
    assert_exact(&xml, &d, &|v| (v[0], v[1]) > (v[2], v[3]));
}

#[test]
fn tables_and_automata_follow_their_definitions() {
    let d = domains(3, &[0, 1, 2]);
    let xml =
        with_array(3, "0..2", "<extension><list> x[] </list><supports> (0,*,1)(2,2,*)(5,0,0) </supports></extension>");
    assert_exact(&xml, &d, &|v| (v[0] == 0 && v[2] == 1) || (v[0] == 2 && v[1] == 2));
    let xml = with_array(3, "0..2", "<extension><list> x[] </list><conflicts> (0,*,1)(1,1,1) </conflicts></extension>");
    assert_exact(&xml, &d, &|v| !((v[0] == 0 && v[2] == 1) || v == [1, 1, 1]));
    let xml = with_array(3, "0..2", "<extension><list> x[1] </list><supports> 0 2..7 </supports></extension>");
    assert_exact(&xml, &d, &|v| v[1] != 1);
    // Non-deterministic: the second-to-last symbol is 1.
    let xml = with_array(
        3,
        "0..2",
        "<regular><list> x[] </list><transitions> (a,0,a)(a,1,a)(a,2,a)(a,1,b)(b,0,c)(b,1,c)(b,2,c) \
                                    </transitions><start> a </start><final> c </final></regular>",
    );
    assert_exact(&xml, &d, &|v| v[1] == 1);
    let xml = with_array(
        3,
        "0..2",
        "<mdd><list> x[] </list><transitions> (r,0,n1)(r,2,n2)(n1,1,t)(n2,0,t)(n2,2,t2)(t2,1,t) \
                                    </transitions></mdd>",
    );
    // Paths of three arcs from r to a terminal: r-n2-t2-t gives (2,2,1); the two-arc paths are too short.
    assert_exact(&xml, &d, &|v| v == [2, 2, 1]);
}

#[test]
fn scheduling_constraints_follow_their_definitions() {
    let d = domains(4, &[1, 2, 3, 4]);
    let xml = with_array(4, "1..4", "<circuit><list startIndex=\"1\"> x[] </list></circuit>");
    assert_exact(&xml, &d, &|v| {
        // One cycle through the nodes that do not loop, at least one arc.
        let moving: Vec<usize> = (0..4).filter(|&i| v[i] != i as i64 + 1).collect();
        if moving.is_empty() || moving.iter().any(|&i| !moving.contains(&((v[i] - 1) as usize))) {
            return false;
        }
        let mut seen = [false; 4];
        let mut at = moving[0];
        for _ in 0..moving.len() {
            if seen[at] {
                return false;
            }
            seen[at] = true;
            at = (v[at] - 1) as usize;
        }
        at == moving[0] && moving.iter().all(|&i| seen[i])
    });
    let d = domains(3, &[0, 1, 2, 3]);
    for (zero_ignored, strict) in [("true", false), ("false", true)] {
        let xml = with_array(
            3,
            "0..3",
            &format!(
                "<noOverlap zeroIgnored=\"{zero_ignored}\"><origins> x[] </origins><lengths> 2 0 1 </lengths></noOverlap>"
            ),
        );
        let lengths = [2, 0, 1];
        assert_exact(&xml, &d, &|v| {
            (0..3).all(|i| {
                (0..i).all(|j| {
                    let apart = v[i] + lengths[i] <= v[j] || v[j] + lengths[j] <= v[i];
                    let zero = lengths[i] == 0 || lengths[j] == 0;
                    apart || (zero && !strict)
                })
            })
        });
    }
    let xml = with_array(
        3,
        "0..3",
        "<cumulative><origins> x[] </origins><lengths> 2 2 1 </lengths><heights> 2 1 2 </heights>\
                                     <condition> (le,3) </condition></cumulative>",
    );
    let (lengths, heights) = ([2, 2, 1], [2, 1, 2]);
    assert_exact(&xml, &d, &|v| {
        (0..6).all(|t| (0..3).filter(|&i| v[i] <= t && t < v[i] + lengths[i]).map(|i| heights[i]).sum::<i64>() <= 3)
    });
    // Variable lengths that can be negative (xcsp_diff.py's seed 1664: a
    // task of length -1 covers no time, as the official checker and ACE
    // say; the engine's lengths are at least 0, and csp-xcsp counted half).
    let xml = with_array(
        4,
        "-2..2",
        "<cumulative><origins> x[0] x[1] </origins><lengths> x[2] x[3] </lengths><heights> 2 2 </heights>\
                                     <condition> (le,3) </condition></cumulative>",
    );
    let d = domains(4, &[-2, -1, 0, 1, 2]);
    assert_exact(&xml, &d, &|v| {
        (-2..5).all(|t| (0..2).filter(|&i| v[i] <= t && t < v[i] + v[i + 2]).map(|_| 2).sum::<i64>() <= 3)
    });
}

#[test]
fn negative_heights_and_no_overlap_lengths_are_refused_not_misread() {
    for constraint in [
        "<cumulative><origins> x[0] x[1] </origins><lengths> 1 1 </lengths><heights> x[2] 1 </heights>\
         <condition> (le,1) </condition></cumulative>",
        "<noOverlap><origins> x[0] x[1] </origins><lengths> x[2] 1 </lengths></noOverlap>",
        "<noOverlap><origins> x[0] x[1] </origins><lengths> -1 1 </lengths></noOverlap>",
    ] {
        let Err(error) = csp_xcsp3::lower(&with_array(3, "-1..1", constraint)) else {
            panic!("accepted: {constraint}")
        };
        assert!(error.to_string().contains("can be negative"), "{error}");
    }
}

#[test]
fn groups_slides_and_blocks_expand_their_templates() {
    let d = domains(4, &[0, 1, 2]);
    let xml = with_array(
        4,
        "0..2",
        "<block><group><intension> lt(%0,%1) </intension><args> x[0] x[1] </args><args> x[2] x[3] </args>\
                                     </group></block><group><sum><list> %... </list><condition> (le,%0) </condition></sum>\
                                     <args> 2 x[1] x[3] </args></group>",
    );
    assert_exact(&xml, &d, &|v| v[0] < v[1] && v[2] < v[3] && v[1] + v[3] <= 2);
    let xml =
        with_array(4, "0..2", "<slide circular=\"true\"><list> x[] </list><intension> ne(%0,%1) </intension></slide>");
    assert_exact(&xml, &d, &|v| (0..4).all(|i| v[i] != v[(i + 1) % 4]));
    let xml = with_array(4, "0..2", "<slide><list offset=\"2\"> x[] </list><intension> le(%0,%1) </intension></slide>");
    assert_exact(&xml, &d, &|v| v[0] <= v[1] && v[2] <= v[3]);
}

#[test]
fn group_args_expand_compact_lists_as_the_official_parser_does() {
    // The official parser (parseSequence of XCSP3-Java-Tools) reads each
    // <args> token that names array cells as those cells, one argument
    // each: `m[0][] y[0]` is three arguments, so %0 %1 %2 and %... see
    // every variable (pycsp3 writes such groups; corpus/group-args.xml).
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"m\" size=\"[2][2]\"> 0..2 </array>\
               <array id=\"y\" size=\"[2]\"> 0..2 </array></variables><constraints>\
               <group><sum><list> %0 %1 </list><condition> (eq,%2) </condition></sum>\
               <args> m[0][] y[0] </args><args> m[][1] y[1] </args></group>\
               <group><allDifferent> %... </allDifferent><args> m[0..1][0] y[1] </args></group>\
               <group><sum><list> %... </list><condition> (ge,%0) </condition></sum><args> y[0] m[1][] </args></group>\
               </constraints></instance>";
    // m00 m01 m10 m11 y0 y1
    assert_exact(xml, &domains(6, &[0, 1, 2]), &|v| {
        v[0] + v[1] == v[4]
            && v[1] + v[3] == v[5]
            && v[0] != v[2]
            && v[0] != v[5]
            && v[2] != v[5]
            && v[2] + v[3] >= v[4]
    });
}

#[test]
fn channel_forms_follow_the_checkers_reading() {
    // One list, from 1, with values outside the positions: x[i] = j <=> x[j] = i,
    // every item a position (the official checker refuses x[2] = 5 of three).
    for (list, start) in [("<list startIndex=\"1\"> x[] </list>", 1), ("x[]", 0)] {
        let xml = with_array(3, "0..4", &format!("<channel> {list} </channel>"));
        assert_exact(&xml, &domains(3, &[0, 1, 2, 3, 4]), &|v| {
            let position = |a: i64| (start..start + 3).contains(&a);
            v.iter().all(|&a| position(a)) && (0..3).all(|i| v[(v[i] - start) as usize] == i as i64 + start)
        });
    }
    // A shorter first list: x[i] = j => y[j] = i, x's items positions of y, y's other items free.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[2]\"> 0..3 </array>\
               <array id=\"y\" size=\"[3]\"> 0..3 </array></variables><constraints><channel>\
               <list startIndex=\"1\"> x[] </list><list> y[] </list></channel></constraints></instance>";
    assert_exact(xml, &domains(5, &[0, 1, 2, 3]), &|v| {
        let (x, y) = (&v[..2], &v[2..]);
        x.iter().all(|&j| (0..3).contains(&j)) && (0..2).all(|i| y[x[i] as usize] == i as i64 + 1)
    });
    // A value: x[i] = 1 <=> value = i, the value a position; items other than 0/1 allowed.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[3]\"> 0..2 </array>\
               <var id=\"v\"> 0..4 </var></variables><constraints><channel>\
               <list startIndex=\"1\"> x[] </list><value> v </value></channel></constraints></instance>";
    let mut d = domains(3, &[0, 1, 2]);
    d.push(vec![0, 1, 2, 3, 4]);
    assert_exact(xml, &d, &|v| (1..=3).contains(&v[3]) && (0..3).all(|i| (v[i] == 1) == (v[3] == i as i64 + 1)));
}

#[test]
fn member_rank_and_variable_values_follow_their_definitions() {
    let d = domains(4, &[0, 1, 2]);
    let count = |v: &[i64], k: i64| v.iter().filter(|&&a| a == k).count() as i64;
    // element without an index: the value is one of the entries.
    let xml = with_array(4, "0..2", "<element><list> x[0] x[1] 2 </list><value> x[3] </value></element>");
    assert_exact(&xml, &d, &|v| [v[0], v[1], 2].contains(&v[3]));
    let xml = with_array(4, "0..2", "<element><list> 0 1 </list><value> 2 </value></element>");
    assert_exact(&xml, &d, &|_| false);
    // A rank: the first (last) position of the value.
    for (rank, first) in [("first", true), ("last", false)] {
        let xml = with_array(
            4,
            "0..2",
            &format!(
                "<element><list startIndex=\"1\"> x[0] x[1] 1 </list><index rank=\"{rank}\"> x[2] </index><value> x[3] </value></element>"
            ),
        );
        assert_exact(&xml, &d, &|v| {
            let list = [v[0], v[1], 1];
            let hits: Vec<i64> = (1..=3).filter(|&i| list[(i - 1) as usize] == v[3]).collect();
            let chosen = if first { hits.first() } else { hits.last() };
            chosen == Some(&v[2])
        });
    }
    // count with several values, one a variable: an item counts when it equals any of them (repeats once).
    let xml = with_array(
        4,
        "0..2",
        "<count><list> x[0] x[1] x[2] </list><values> x[3] 1 1 </values><condition> (eq,2) </condition></count>",
    );
    assert_exact(&xml, &d, &|v| v[..3].iter().filter(|&&a| a == v[3] || a == 1).count() == 2);
    // cardinality with variable values: occurrences constant, variable or range, closed or not.
    let xml = with_array(
        5,
        "0..2",
        "<cardinality><list> x[0] x[1] x[2] </list><values> x[3] 2 </values><occurs> 1..2 x[4] </occurs></cardinality>",
    );
    assert_exact(&xml, &domains(5, &[0, 1, 2]), &|v| {
        (1..=2).contains(&count(&v[..3], v[3])) && count(&v[..3], 2) == v[4]
    });
    let xml = with_array(
        5,
        "0..2",
        "<cardinality><list> x[0] x[1] x[2] </list><values closed=\"true\"> x[3] x[4] </values><occurs> 1 2 </occurs></cardinality>",
    );
    assert_exact(&xml, &domains(5, &[0, 1, 2]), &|v| {
        count(&v[..3], v[3]) == 1 && count(&v[..3], v[4]) == 2 && v[..3].iter().all(|&a| a == v[3] || a == v[4])
    });
}

#[test]
fn all_different_lists_and_cumulative_ends_follow_their_definitions() {
    // Three pairs as tuples pairwise distinct; the third holds a constant.
    let xml = with_array(
        5,
        "0..1",
        "<allDifferent><list> x[0] x[1] </list><list> x[2] x[3] </list><list> x[4] 1 </list></allDifferent>",
    );
    assert_exact(&xml, &domains(5, &[0, 1]), &|v| {
        let tuples = [(v[0], v[1]), (v[2], v[3]), (v[4], 1)];
        (0..3).all(|i| (0..i).all(|j| tuples[i] != tuples[j]))
    });
    let xml = with_array(2, "0..1", "<allDifferent><list> 0 1 </list><list> 0 1 </list></allDifferent>");
    assert_exact(&xml, &domains(2, &[0, 1]), &|_| false);
    // cumulative with ends: end = origin + length (a variable length that can be negative as written).
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"s\" size=\"[2]\"> 0..2 </array>\
               <var id=\"l\"> -1..2 </var><array id=\"e\" size=\"[2]\"> 0..4 </array></variables><constraints>\
               <cumulative><origins> s[] </origins><lengths> l 2 </lengths><ends> e[] </ends><heights> 1 1 </heights>\
               <condition> (le,1) </condition></cumulative></constraints></instance>";
    let mut d = domains(2, &[0, 1, 2]);
    d.push(vec![-1, 0, 1, 2]);
    d.extend(domains(2, &[0, 1, 2, 3, 4]));
    assert_exact(xml, &d, &|v| {
        let (s, l, e) = ([v[0], v[1]], [v[2].max(0), 2], [v[3], v[4]]);
        let apart = s[0] + l[0] <= s[1] || s[1] + l[1] <= s[0] || l[0] == 0;
        e[0] == s[0] + v[2] && e[1] == s[1] + 2 && apart
    });
}

#[test]
fn circuit_sizes_and_boxes_follow_their_definitions() {
    // circuit with a size: the nodes that do not loop, at least one arc, one cycle.
    let xml = with_array(4, "0..3", "<circuit><list> x[0] x[1] x[2] </list><size> x[3] </size></circuit>");
    assert_exact(&xml, &domains(4, &[0, 1, 2, 3]), &|v| {
        let moving: Vec<usize> = (0..3).filter(|&i| v[i] != i as i64).collect();
        if moving.is_empty()
            || v[..3].iter().any(|&a| a > 2)
            || moving.iter().any(|&i| !moving.contains(&(v[i] as usize)))
        {
            return false;
        }
        // Following the arcs from a moving node comes back to it after visiting them all.
        let mut at = moving[0];
        for _ in 0..moving.len() {
            at = v[at] as usize;
        }
        let back = (1..moving.len()).all(|k| (0..k).fold(moving[0], |a, _| v[a] as usize) != moving[0]);
        at == moving[0] && back && v[3] == moving.len() as i64
    });
    // Boxes: each pair apart in some dimension; with zeroIgnored (the default)
    // a box with a length 0 anywhere is ignored (the official checker's reading).
    let apart = |o: &[Vec<i64>], l: &[Vec<i64>], strict: bool| {
        (0..o.len()).all(|j| {
            (0..j).all(|i| {
                let separated = (0..o[i].len()).any(|d| o[i][d] + l[i][d] <= o[j][d] || o[j][d] + l[j][d] <= o[i][d]);
                separated || (!strict && (l[i].contains(&0) || l[j].contains(&0)))
            })
        })
    };
    for (attribute, strict) in [("", false), (" zeroIgnored=\"false\"", true)] {
        // Two dimensions (the engine's diffn), a variable width that can be 0.
        let xml = with_array(
            5,
            "0..2",
            &format!(
                "<noOverlap{attribute}><origins> (x[0],x[1])(x[2],x[3])(1,0) </origins>\
                 <lengths> (2,1)(x[4],2)(1,1) </lengths></noOverlap>"
            ),
        );
        assert_exact(&xml, &domains(5, &[0, 1, 2]), &|v| {
            let o = [vec![v[0], v[1]], vec![v[2], v[3]], vec![1, 0]];
            let l = [vec![2, 1], vec![v[4], 2], vec![1, 1]];
            apart(&o, &l, strict)
        });
        // Three dimensions (pairwise clauses).
        let xml = with_array(
            6,
            "0..1",
            &format!(
                "<noOverlap{attribute}><origins> (x[0],x[1],x[2])(x[3],x[4],0)(0,0,1) </origins>\
                 <lengths> (1,2,1)(1,x[5],1)(1,1,1) </lengths></noOverlap>"
            ),
        );
        assert_exact(&xml, &domains(6, &[0, 1]), &|v| {
            let o = [vec![v[0], v[1], v[2]], vec![v[3], v[4], 0], vec![0, 0, 1]];
            let l = [vec![1, 2, 1], vec![1, v[5], 1], vec![1, 1, 1]];
            apart(&o, &l, strict)
        });
    }
}

#[test]
fn all_different_lists_with_except_follow_their_definition() {
    // Three pairs pairwise distinct, but two may be equal to an excepted pair
    // (the third list holds a constant); the specification's reading: for
    // each pair of lists, they differ or the first is an excepted tuple.
    let xml = with_array(
        5,
        "0..2",
        "<allDifferent><list> x[0] x[1] </list><list> x[2] x[3] </list><list> x[4] 1 </list>\
         <except> (0,0)(2,1) </except></allDifferent>",
    );
    let excepted = [(0, 0), (2, 1)];
    assert_exact(&xml, &domains(5, &[0, 1, 2]), &|v| {
        let tuples = [(v[0], v[1]), (v[2], v[3]), (v[4], 1)];
        (0..3).all(|i| (0..i).all(|j| tuples[i] != tuples[j] || excepted.contains(&tuples[j])))
    });
    // pycsp3's AllDifferentList(..., excepting=(0, 0, 0)) writes one tuple; an
    // excepted tuple no list can equal (a constant differs) changes nothing.
    let xml = with_array(
        6,
        "0..1",
        "<allDifferent><list> x[0] x[1] x[2] </list><list> x[3] x[4] x[5] </list><except> (0,0,0)(1,5,1) </except></allDifferent>",
    );
    assert_exact(&xml, &domains(6, &[0, 1]), &|v| v[..3] != v[3..] || v[..3] == [0, 0, 0]);
    // Equal constant lists are allowed only when excepted.
    let xml = with_array(
        1,
        "0..1",
        "<allDifferent><list> 0 1 </list><list> 0 1 </list><except> (0,1) </except></allDifferent>",
    );
    assert_exact(&xml, &domains(1, &[0, 1]), &|_| true);
    let xml = with_array(
        1,
        "0..1",
        "<allDifferent><list> 0 1 </list><list> 0 1 </list><except> (1,0) </except></allDifferent>",
    );
    assert_exact(&xml, &domains(1, &[0, 1]), &|_| false);
}

#[test]
fn element_without_an_index_over_a_matrix_or_with_a_condition_follows_its_definition() {
    let d = domains(4, &[0, 1, 2]);
    // pycsp3 writes `x[3] in [x[0], x[1], x[2], 1]` so: some entry equals x[3].
    let xml =
        with_array(4, "0..2", "<element><list> x[0] x[1] x[2] 1 </list><condition> (eq,x[3]) </condition></element>");
    assert_exact(&xml, &d, &|v| [v[0], v[1], v[2], 1].contains(&v[3]));
    // Some entry meets a comparison, a range or a set.
    let xml =
        with_array(4, "0..2", "<element><list> x[0] x[1] x[2] </list><condition> (gt,x[3]) </condition></element>");
    assert_exact(&xml, &d, &|v| v[..3].iter().any(|&a| a > v[3]));
    let xml = with_array(
        4,
        "0..2",
        "<element><list> x[0] add(x[1],x[2]) </list><condition> (in,3..4) </condition></element>",
    );
    assert_exact(&xml, &d, &|v| (3..=4).contains(&v[0]) || (3..=4).contains(&(v[1] + v[2])));
    let xml =
        with_array(4, "0..2", "<element><list> x[0] x[1] 1 </list><condition> (notin,{1,2}) </condition></element>");
    assert_exact(&xml, &d, &|v| v[..2].contains(&0));
    // No entry can meet it.
    let xml = with_array(4, "0..2", "<element><list> x[0] 1 </list><condition> (gt,5) </condition></element>");
    assert_exact(&xml, &d, &|_| false);
    // Over a matrix: a cell equals the value, or meets the condition.
    let xml = with_array(4, "0..2", "<element><matrix> (x[0],x[1])(2,x[2]) </matrix><value> x[3] </value></element>");
    assert_exact(&xml, &d, &|v| [v[0], v[1], 2, v[2]].contains(&v[3]));
    let xml = with_array(
        4,
        "0..2",
        "<element><matrix> (x[0],x[1])(x[2],0) </matrix><condition> (ge,add(x[3],1)) </condition></element>",
    );
    assert_exact(&xml, &d, &|v| [v[0], v[1], v[2], 0].iter().any(|&a| a > v[3]));
    let xml = with_array(
        4,
        "0..2",
        "<element><matrix> (x[0],x[1])(x[2],0) </matrix><condition> (lt,x[3]) </condition></element>",
    );
    assert_exact(&xml, &d, &|v| [v[0], v[1], v[2], 0].iter().any(|&a| a < v[3]));
}

#[test]
fn element_with_a_rank_and_a_condition_follows_its_definition() {
    // The index is the first (last) position whose entry equals the
    // condition's operand; other operators are refused (errors.rs).
    let d = domains(4, &[0, 1, 2]);
    for (rank, first) in [("first", true), ("last", false), ("any", false)] {
        for condition in ["(eq,x[3])", "(eq,2)", "(eq,1)"] {
            let xml = with_array(
                4,
                "0..2",
                &format!(
                    "<element><list startIndex=\"1\"> x[0] x[1] 1 </list><index rank=\"{rank}\"> x[2] </index>\
                     <condition> {condition} </condition></element>"
                ),
            );
            let meets = |a: i64, v: &[i64]| match condition {
                "(eq,x[3])" => a == v[3],
                "(eq,2)" => a == 2,
                _ => a == 1,
            };
            assert_exact(&xml, &d, &|v| {
                let list = [v[0], v[1], 1];
                let hits: Vec<i64> = (1..=3).filter(|&i| meets(list[(i - 1) as usize], v)).collect();
                match rank {
                    "any" => hits.contains(&v[2]),
                    _ => (if first { hits.first() } else { hits.last() }) == Some(&v[2]),
                }
            });
        }
    }
}

#[test]
fn minimum_and_maximum_arg_follow_their_definitions() {
    // The position (from 0) of the least (greatest) of x[0],
    // x[1], 1: with rank first (last) the first (last) such position,
    // compared by the condition; with rank any (or none), some such
    // position meets the condition.
    let d = domains(4, &[0, 1, 2]);
    let conditions = ["(eq,x[3])", "(eq,2)", "(ne,x[3])", "(ge,2)", "(in,{1,3})", "(notin,2..3)"];
    let meets = |condition: &str, p: i64, v: &[i64]| match condition {
        "(eq,x[3])" => p == v[3],
        "(eq,2)" => p == 2,
        "(ne,x[3])" => p != v[3],
        "(ge,2)" => p >= 2,
        "(in,{1,3})" => p == 1 || p == 3,
        _ => !(2..=3).contains(&p),
    };
    for (tag, minimum) in [("minimumArg", true), ("maximumArg", false)] {
        for rank in ["", " rank=\"first\"", " rank=\"last\"", " rank=\"any\""] {
            for condition in conditions {
                let xml = with_array(
                    4,
                    "0..2",
                    &format!(
                        "<{tag}{rank}><list> x[0] x[1] 1 </list>\
                         <condition> {condition} </condition></{tag}>"
                    ),
                );
                assert_exact(&xml, &d, &|v| {
                    let list = [v[0], v[1], 1];
                    let extremum = if minimum { *list.iter().min().unwrap() } else { *list.iter().max().unwrap() };
                    let positions: Vec<i64> = (0..3).filter(|&p| list[p as usize] == extremum).collect();
                    match rank {
                        " rank=\"first\"" => meets(condition, positions[0], v),
                        " rank=\"last\"" => meets(condition, positions[positions.len() - 1], v),
                        _ => positions.iter().any(|&p| meets(condition, p, v)),
                    }
                });
            }
        }
    }
    // Over an expression and a constant, no rank, (ne,v).
    let xml = with_array(
        4,
        "0..2",
        "<minimumArg><list> add(x[0],x[1]) 2 x[2] </list><condition> (ne,x[3]) </condition></minimumArg>",
    );
    assert_exact(&xml, &d, &|v| {
        let list = [v[0] + v[1], 2, v[2]];
        let least = *list.iter().min().unwrap();
        (0..3).any(|p| list[p as usize] == least && p != v[3])
    });
    // Over variables only.
    let xml = with_array(
        4,
        "0..2",
        "<maximumArg rank=\"first\"><list> x[0] x[1] x[2] </list><condition> (eq,x[3]) </condition></maximumArg>",
    );
    assert_exact(&xml, &d, &|v| {
        let greatest = v[..3].iter().max().unwrap();
        v[..3].iter().position(|a| a == greatest) == Some(v[3] as usize)
    });
}

#[test]
fn slides_over_several_lists_take_their_items_in_turn() {
    let arrays = |constraints: &str| {
        format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[4]\"> 0..2 </array>\
             <array id=\"y\" size=\"[2]\"> 0..2 </array></variables><constraints>{constraints}</constraints></instance>"
        )
    };
    let d = domains(6, &[0, 1, 2]);
    // One item of each list per window, as the official parser reads it
    // (XSlide.buildScopes): the first list decides the number of windows,
    // the others wrap around their end.
    let xml = arrays("<slide><list> x[] </list><list> y[] </list><intension> le(%0,%1) </intension></slide>");
    assert_exact(&xml, &d, &|v| (0..4).all(|w| v[w] <= v[4 + w % 2]));
    let xml = arrays("<slide><list> y[] </list><list> x[] </list><intension> le(%0,%1) </intension></slide>");
    assert_exact(&xml, &d, &|v| v[4] <= v[0] && v[5] <= v[1]);
    // Circular: as many windows as for the first list alone.
    let xml = arrays(
        "<slide circular=\"true\"><list collect=\"2\" offset=\"2\"> x[] </list><list> y[] </list>\
         <intension> ne(add(%0,%1),%2) </intension></slide>",
    );
    assert_exact(&xml, &d, &|v| v[0] + v[1] != v[4] && v[2] + v[3] != v[5]);
    let xml = arrays(
        "<slide circular=\"true\"><list collect=\"2\"> y[] </list><list> x[] </list>\
         <intension> ne(add(%0,%1),%2) </intension></slide>",
    );
    assert_exact(&xml, &d, &|v| v[4] + v[5] != v[0] && v[5] + v[4] != v[1]);
    // Two items of x moving by two, one of y.
    let xml = arrays(
        "<slide><list offset=\"2\" collect=\"2\"> x[] </list><list> y[] </list><intension> eq(add(%0,%1),%2) </intension></slide>",
    );
    assert_exact(&xml, &d, &|v| v[0] + v[1] == v[4] && v[2] + v[3] == v[5]);
    // x moving by one, y by one, x collecting two: windows while both have items.
    let xml = arrays(
        "<slide><list collect=\"2\"> x[] </list><list> y[] 1 </list><intension> ne(add(%0,%1),%2) </intension></slide>",
    );
    assert_exact(&xml, &d, &|v| {
        let ys = [v[4], v[5], 1];
        (0..3).all(|w| v[w] + v[w + 1] != ys[w])
    });
}

#[test]
fn the_corpus_instance_of_lists_with_except_has_exactly_its_solutions() {
    // corpus/lists-except.xml, as pycsp3 compiled it, without its objective:
    // the rows of p distinct unless (0,0), the last row's sum at least 1;
    // the least sum over the solutions is the optimum recorded in ace.tsv.
    let path = crate::corpus_listing::corpus_dir().join("lists-except.xml");
    let xml = std::fs::read_to_string(path).expect("corpus/lists-except.xml");
    let start = xml.find("<objectives>").expect("an objective");
    let end = xml.find("</objectives>").expect("an objective") + "</objectives>".len();
    let xml = format!("{}{}", &xml[..start], &xml[end..]).replace("type=\"COP\"", "type=\"CSP\"");
    let accepts = |v: &[i64]| {
        let rows = [(v[0], v[1]), (v[2], v[3]), (v[4], v[5])];
        let distinct = (0..3).all(|i| (0..i).all(|j| rows[i] != rows[j] || rows[i] == (0, 0)));
        distinct && v[4] + v[5] >= 1
    };
    assert_exact(&xml, &domains(6, &[0, 1, 2]), &accepts);
    let least = brute_force(&domains(6, &[0, 1, 2]), &accepts).iter().map(|v| v.iter().sum::<i64>()).min();
    assert_eq!(least, Some(1));
}

/// An item of a random list: a variable `x[i]` or a constant.
#[derive(Clone, Copy)]
enum Term {
    X(usize),
    K(i64),
}

impl Term {
    fn random(rng: &mut Rng, n: usize) -> Term {
        if rng.below(4) == 0 { Term::K(rng.below(4) as i64 - 1) } else { Term::X(rng.below(n as u64) as usize) }
    }

    fn text(self) -> String {
        match self {
            Term::X(i) => format!("x[{i}]"),
            Term::K(k) => k.to_string(),
        }
    }

    fn value(self, v: &[i64]) -> i64 {
        match self {
            Term::X(i) => v[i],
            Term::K(k) => k,
        }
    }
}

/// A constraint's definition, judging one assignment.
type Definition = Box<dyn Fn(&[i64]) -> bool>;

fn texts(terms: &[Term]) -> String {
    terms.iter().map(|t| t.text()).collect::<Vec<_>>().join(" ")
}

#[test]
fn random_instances_of_the_forms_lowered_last_have_exactly_their_solutions() {
    // allDifferent over lists with except, element without an index with a
    // condition, element with a rank and (eq,v), slide over two lists; over
    // four variables of -1..2, each judged by its definition.
    const N: usize = 4;
    let d = domains(N, &[-1, 0, 1, 2]);
    let mut rng = Rng::new(2026);
    let mut satisfiable = 0;
    for round in 0..400 {
        let (constraint, accepts): (String, Definition) = match round % 4 {
            0 => {
                let (lists, k) = (2 + rng.below(2) as usize, 1 + rng.below(2) as usize);
                let lists: Vec<Vec<Term>> =
                    (0..lists).map(|_| (0..k).map(|_| Term::random(&mut rng, N)).collect()).collect();
                let excepted: Vec<Vec<i64>> =
                    (0..1 + rng.below(2)).map(|_| (0..k).map(|_| rng.below(4) as i64 - 1).collect()).collect();
                let text = format!(
                    "<allDifferent>{}<except> {} </except></allDifferent>",
                    lists.iter().map(|l| format!("<list> {} </list>", texts(l))).collect::<String>(),
                    excepted
                        .iter()
                        .map(|t| format!("({})", t.iter().map(i64::to_string).collect::<Vec<_>>().join(",")))
                        .collect::<String>()
                );
                let accepts = move |v: &[i64]| {
                    let tuples: Vec<Vec<i64>> = lists.iter().map(|l| l.iter().map(|t| t.value(v)).collect()).collect();
                    (0..tuples.len()).all(|j| (0..j).all(|i| tuples[i] != tuples[j] || excepted.contains(&tuples[i])))
                };
                (text, Box::new(accepts))
            }
            1 => {
                let list: Vec<Term> = (0..2 + rng.below(3)).map(|_| Term::random(&mut rng, N)).collect();
                let operand = Term::random(&mut rng, N);
                let (operator, test): (&str, fn(i64, i64) -> bool) = [
                    ("eq", (|a, b| a == b) as fn(i64, i64) -> bool),
                    ("ne", |a, b| a != b),
                    ("lt", |a, b| a < b),
                    ("le", |a, b| a <= b),
                    ("gt", |a, b| a > b),
                    ("ge", |a, b| a >= b),
                ][rng.below(6) as usize];
                let text = format!(
                    "<element><list> {} </list><condition> ({operator},{}) </condition></element>",
                    texts(&list),
                    operand.text()
                );
                (text, Box::new(move |v: &[i64]| list.iter().any(|t| test(t.value(v), operand.value(v)))))
            }
            2 => {
                let list: Vec<Term> = (0..2 + rng.below(2)).map(|_| Term::random(&mut rng, N - 1)).collect();
                let start = rng.below(2) as i64;
                let value = Term::random(&mut rng, N - 1);
                let rank = ["first", "last", "any"][rng.below(3) as usize];
                let text = format!(
                    "<element><list startIndex=\"{start}\"> {} </list><index rank=\"{rank}\"> x[3] </index>\
                     <condition> (eq,{}) </condition></element>",
                    texts(&list),
                    value.text()
                );
                let accepts = move |v: &[i64]| {
                    let hits: Vec<i64> = (0..list.len())
                        .filter(|&p| list[p].value(v) == value.value(v))
                        .map(|p| p as i64 + start)
                        .collect();
                    match rank {
                        "first" => hits.first() == Some(&v[3]),
                        "last" => hits.last() == Some(&v[3]),
                        _ => hits.contains(&v[3]),
                    }
                };
                (text, Box::new(accepts))
            }
            _ => {
                let a: Vec<Term> = (0..1 + rng.below(4)).map(|_| Term::X(rng.below(N as u64) as usize)).collect();
                let b: Vec<Term> = (0..1 + rng.below(3)).map(|_| Term::random(&mut rng, N)).collect();
                let (collect_a, offset_a, offset_b) =
                    (1 + rng.below(2) as usize, 1 + rng.below(2) as usize, 1 + rng.below(2) as usize);
                let circular = rng.below(3) == 0;
                // The template over collect_a items of a and one of b.
                let (template, holds): (&str, fn(&[i64]) -> bool) = if collect_a == 1 {
                    ("lt(%0,%1)", |w| w[0] < w[1])
                } else {
                    ("ne(add(%0,%1),%2)", |w| w[0] + w[1] != w[2])
                };
                let text = format!(
                    "<slide circular=\"{circular}\"><list offset=\"{offset_a}\" collect=\"{collect_a}\"> {} </list>\
                     <list offset=\"{offset_b}\"> {} </list><intension> {template} </intension></slide>",
                    texts(&a),
                    texts(&b)
                );
                // XSlide.buildScopes: the first list decides the windows, every list wraps.
                let windows = if circular {
                    a.len().div_ceil(offset_a)
                } else if a.len() >= collect_a {
                    (a.len() - collect_a) / offset_a + 1
                } else {
                    0
                };
                let accepts = move |v: &[i64]| {
                    (0..windows).all(|w| {
                        let mut items: Vec<i64> =
                            (0..collect_a).map(|k| a[(w * offset_a + k) % a.len()].value(v)).collect();
                        items.push(b[(w * offset_b) % b.len()].value(v));
                        holds(&items)
                    })
                };
                (text, Box::new(accepts))
            }
        };
        let xml = with_array(N, "-1..2", &constraint);
        let expected = brute_force(&d, &*accepts);
        satisfiable += usize::from(!expected.is_empty());
        let found = engine_solutions(&xml, if round % 2 == 0 { "mac+mrv" } else { "fc+domwdeg+binary" });
        assert_eq!(found, expected, "round {round}: {constraint}");
    }
    assert!(satisfiable > 200, "the random instances are not all unsatisfiable: {satisfiable} satisfiable");
}
