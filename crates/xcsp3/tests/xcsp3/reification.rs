//! Reified constraints (`reifiedBy`, `hreifiedFrom`, `hreifiedTo`) against
//! brute force: each constraint's definition, and the three readings of
//! the literal `r`, `r <=> c`, `r => c` and `c => r`, over every
//! assignment of tiny domains, with `r` free. ACE 2.6 and the official
//! checker read these attributes as if the constraint were posted plainly
//! (the checker refuses a solution with `r = 0` and `c` false), so brute
//! force is the only judge.

use csp::rng::Rng;
use csp_xcsp3::{ErrorKind, lower};

use crate::brute_force::{assert_exact, brute_force, domains, engine_solutions, random_bool};

/// What an attribute says of the literal `r` and the constraint's truth `c`.
type Reading = fn(bool, bool) -> bool;

/// A constraint's text and its definition over `x`.
type Case<'a> = (&'static str, Box<dyn Fn(&[i64]) -> bool + 'a>);

/// The three attributes and their readings.
const MODES: [(&str, Reading); 3] =
    [("reifiedBy", |r, c| r == c), ("hreifiedFrom", |r, c| !r || c), ("hreifiedTo", |r, c| !c || r)];

/// An instance with an array `x` of `n` variables over `domain`, a 0/1 variable `r` (declared
/// last), and `constraint`, whose opening tag `<name` gets `attribute="r"`.
fn reified(n: usize, domain: &str, constraint: &str, attribute: &str) -> String {
    let (open, rest) = constraint.split_at(constraint.find([' ', '>']).expect("a tag"));
    format!(
        "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[{n}]\"> {domain} </array>\
         <var id=\"r\"> 0 1 </var></variables><constraints>{open} {attribute}=\"r\"{rest}</constraints></instance>"
    )
}

/// Checks `constraint` over `x` (`n` variables of `values`) reified by each
/// attribute: the solutions are those where the attribute's reading of `r`
/// and `holds(x)` is true.
fn assert_reified(n: usize, values: &[i64], constraint: &str, holds: &dyn Fn(&[i64]) -> bool) {
    let domain = values.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    let mut all = domains(n, values);
    all.push(vec![0, 1]);
    for (attribute, reading) in MODES {
        let xml = reified(n, &domain, constraint, attribute);
        assert_exact(&xml, &all, &|v| reading(v[n] == 1, holds(&v[..n])));
    }
}

#[test]
fn random_reified_intensions_have_exactly_their_solutions() {
    let names = ["x", "y", "z", "a", "b", "r"];
    let domains = vec![vec![-2, -1, 0, 1, 2], vec![-1, 0, 1, 3], vec![0, 1, 2], vec![0, 1], vec![0, 1], vec![0, 1]];
    let mut rng = Rng::new(38);
    let (mut checked, mut refused, mut constant) = (0, 0, 0);
    for round in 0..450 {
        let expr = random_bool(&mut rng, 3);
        let (attribute, reading) = MODES[round % 3];
        let xml = format!(
            "<instance format=\"XCSP3\" type=\"CSP\"><variables>\
             <var id=\"x\"> -2..2 </var><var id=\"y\"> -1..1 3 </var><var id=\"z\"> 0..2 </var>\
             <var id=\"a\"> 0 1 </var><var id=\"b\"> 0..1 </var><var id=\"r\"> 0 1 </var></variables>\
             <constraints><intension {attribute}=\"r\"> {expr} </intension></constraints></instance>"
        );
        let text = expr.to_string();
        match lower(&xml) {
            Err(e) => {
                // Only a partial operation is refused, and so named.
                assert!(e.is_unsupported() && e.message.contains("undefined"), "round {round}: {e}\n{expr}");
                assert!(["div(", "mod(", "pow("].iter().any(|op| text.contains(op)), "round {round}: {e}\n{expr}");
                refused += 1;
                continue;
            }
            Ok(lowered) => constant += usize::from(lowered.inconsistent.is_some()),
        }
        let accepts = |values: &[i64]| {
            let lookup = |name: &str| names.iter().position(|n| *n == name).map(|i| values[i]);
            reading(values[5] == 1, expr.evaluate(&lookup) == Some(1))
        };
        let expected = brute_force(&domains, &accepts);
        let found = engine_solutions(&xml, if round % 2 == 0 { "mac+mrv" } else { "fc+domwdeg+binary" });
        assert_eq!(found, expected, "round {round}, {attribute}: {expr}");
        checked += 1;
    }
    assert!(checked > 300 && refused > 10, "{checked} checked, {refused} refused, {constant} inconsistent");
}

#[test]
fn reified_globals_follow_their_definitions() {
    let count = |v: &[i64], k: i64| v.iter().filter(|&&a| a == k).count() as i64;
    let distinct = |v: &[i64]| v.iter().collect::<std::collections::BTreeSet<_>>().len() as i64;
    let cases: Vec<Case<'_>> = vec![
        ("<intension> and(lt(x[0],x[1]),ne(x[2],1)) </intension>", Box::new(|v| v[0] < v[1] && v[2] != 1)),
        ("<intension> imp(eq(x[0],0),eq(x[1],x[2])) </intension>", Box::new(|v| v[0] != 0 || v[1] == v[2])),
        ("<intension> eq(x[0],3) </intension>", Box::new(|_| false)),
        ("<intension> le(x[0],2) </intension>", Box::new(|_| true)),
        ("<intension> eq(div(x[0],2),x[1]) </intension>", Box::new(|v| v[0] / 2 == v[1])),
        (
            "<extension><list> x[] </list><supports> (0,*,1)(2,2,*)(5,0,0) </supports></extension>",
            Box::new(|v| (v[0] == 0 && v[2] == 1) || (v[0] == 2 && v[1] == 2)),
        ),
        (
            "<extension><list> x[] </list><conflicts> (0,*,1)(1,1,1) </conflicts></extension>",
            Box::new(|v| !((v[0] == 0 && v[2] == 1) || v == [1, 1, 1])),
        ),
        ("<extension><list> x[0] x[1] </list><supports> (5,5) </supports></extension>", Box::new(|_| false)),
        ("<extension><list> x[0] x[1] </list><conflicts> (5,5) </conflicts></extension>", Box::new(|_| true)),
        ("<extension><list> x[1] </list><supports> 0 2..7 </supports></extension>", Box::new(|v| v[1] != 1)),
        ("<extension><list> x[1] </list><conflicts> 0 2..7 </conflicts></extension>", Box::new(|v| v[1] == 1)),
        ("<allDifferent> x[] </allDifferent>", Box::new(|v| distinct(v) == 3)),
        ("<allDifferent> x[0] add(x[1],1) x[2] </allDifferent>", Box::new(|v| distinct(&[v[0], v[1] + 1, v[2]]) == 3)),
        ("<allDifferent> x[0] x[1] x[0] </allDifferent>", Box::new(|_| false)),
        (
            "<allDifferent><list> x[] </list><except> 0 </except></allDifferent>",
            Box::new(|v| (0..3).all(|i| (0..i).all(|j| v[i] != v[j] || v[i] == 0))),
        ),
        (
            "<allDifferent><list> x[0] x[1] </list><list> x[1] x[2] </list></allDifferent>",
            Box::new(|v| [v[0], v[1]] != [v[1], v[2]]),
        ),
        ("<allEqual> x[] </allEqual>", Box::new(|v| v[0] == v[1] && v[1] == v[2])),
        (
            "<sum><list> x[] </list><coeffs> 2 -1 1 </coeffs><condition> (in,1..2) </condition></sum>",
            Box::new(|v| (1..=2).contains(&(2 * v[0] - v[1] + v[2]))),
        ),
        (
            "<sum><list> x[0] x[1] </list><coeffs> x[2] x[1] </coeffs><condition> (gt,2) </condition></sum>",
            Box::new(|v| v[2] * v[0] + v[1] * v[1] > 2),
        ),
        (
            "<sum><list> x[0] x[1] </list><condition> (notin,{1,3}) </condition></sum>",
            Box::new(|v| ![1, 3].contains(&(v[0] + v[1]))),
        ),
        (
            "<count><list> x[0] x[1] </list><values> 1 2 </values><condition> (eq,x[2]) </condition></count>",
            Box::new(|v| count(&v[..2], 1) + count(&v[..2], 2) == v[2]),
        ),
        (
            "<count><list> x[1] x[2] </list><values> x[0] </values><condition> (ge,1) </condition></count>",
            Box::new(|v| count(&v[1..], v[0]) >= 1),
        ),
        (
            "<count><list> x[1] x[2] </list><values> x[0] 0 </values><condition> (lt,2) </condition></count>",
            Box::new(|v| v[1..].iter().filter(|&&a| a == v[0] || a == 0).count() < 2),
        ),
        ("<nValues><list> x[] </list><condition> (eq,2) </condition></nValues>", Box::new(|v| distinct(v) == 2)),
        (
            "<nValues><list> x[] </list><except> 0 </except><condition> (le,1) </condition></nValues>",
            Box::new(|v| v.iter().filter(|&&a| a != 0).collect::<std::collections::BTreeSet<_>>().len() <= 1),
        ),
        (
            "<minimum><list> x[0] x[1] </list><condition> (eq,x[2]) </condition></minimum>",
            Box::new(|v| v[0].min(v[1]) == v[2]),
        ),
        (
            "<maximum><list> x[] </list><condition> (ne,1) </condition></maximum>",
            Box::new(|v| v[0].max(v[1]).max(v[2]) != 1),
        ),
        (
            "<element><list> 2 0 1 </list><index> x[0] </index><value> x[1] </value></element>",
            Box::new(|v| [2, 0, 1][v[0] as usize] == v[1]),
        ),
        (
            "<element><list startIndex=\"1\"> x[1] x[2] </list><index> x[0] </index><value> 1 </value></element>",
            Box::new(|v| (1..=2).contains(&v[0]) && [v[1], v[2]][v[0] as usize - 1] == 1),
        ),
        (
            "<element><list> x[1] x[2] 0 </list><index> x[0] </index><condition> (gt,x[1]) </condition></element>",
            Box::new(|v| [v[1], v[2], 0][v[0] as usize] > v[1]),
        ),
        ("<element><list> 5 6 </list><index> x[0] </index><value> x[1] </value></element>", Box::new(|_| false)),
        (
            "<element><list> x[0] x[1] </list><value> x[2] </value></element>",
            Box::new(|v| v[2] == v[0] || v[2] == v[1]),
        ),
        (
            "<element><list> x[0] x[1] </list><condition> (ge,2) </condition></element>",
            Box::new(|v| v[0] >= 2 || v[1] >= 2),
        ),
        ("<ordered><list> x[] </list><operator> lt </operator></ordered>", Box::new(|v| v[0] < v[1] && v[1] < v[2])),
        ("<ordered><list> x[] </list><operator> ge </operator></ordered>", Box::new(|v| v[0] >= v[1] && v[1] >= v[2])),
        (
            "<ordered><list> x[] </list><lengths> 1 -1 </lengths><operator> le </operator></ordered>",
            Box::new(|v| v[0] < v[1] && v[1] <= v[2] + 1),
        ),
        (
            "<instantiation><list> x[0] x[2] </list><values> 1 0 </values></instantiation>",
            Box::new(|v| v[0] == 1 && v[2] == 0),
        ),
        ("<instantiation><list> x[0] </list><values> 7 </values></instantiation>", Box::new(|_| false)),
        (
            "<element><list> x[1] x[2] 1 </list><index rank=\"first\"> x[0] </index><value> 1 </value></element>",
            Box::new(|v| ranked(&[v[1], v[2], 1], v[0], &|e| e == 1, true)),
        ),
        (
            "<element><list> x[1] x[2] 0 </list><index rank=\"last\"> x[0] </index><condition> (eq,x[2]) </condition></element>",
            Box::new(|v| ranked(&[v[1], v[2], 0], v[0], &|e| e == v[2], false)),
        ),
        (
            "<element><list startIndex=\"1\"> x[1] x[2] </list><index rank=\"first\"> x[0] </index><value> 2 </value></element>",
            Box::new(|v| ranked(&[v[1], v[2]], v[0] - 1, &|e| e == 2, true)),
        ),
        (
            "<element><matrix> (x[0],1)(2,x[1]) </matrix><index> x[1] x[2] </index><value> x[0] </value></element>",
            Box::new(|v| v[1] <= 1 && v[2] <= 1 && [[v[0], 1], [2, v[1]]][v[1] as usize][v[2] as usize] == v[0]),
        ),
        (
            "<element><matrix startRowIndex=\"1\"> (x[0],1)(2,x[1]) </matrix><index> x[1] x[2] </index><condition> (ge,2) </condition></element>",
            Box::new(|v| v[1] >= 1 && v[2] <= 1 && [[v[0], 1], [2, v[1]]][v[1] as usize - 1][v[2] as usize] >= 2),
        ),
        (
            "<cardinality><list> x[] </list><values> 0 1 </values><occurs> 1 x[2] </occurs></cardinality>",
            Box::new(|v| count(v, 0) == 1 && count(v, 1) == v[2]),
        ),
        (
            "<cardinality><list> x[0] x[1] </list><values closed=\"true\"> 1 2 </values><occurs> 0..1 1..2 </occurs></cardinality>",
            Box::new(|v| v[..2].iter().all(|&a| a == 1 || a == 2) && count(&v[..2], 1) <= 1 && count(&v[..2], 2) >= 1),
        ),
        (
            "<cardinality><list> x[0] x[1] </list><values> x[2] </values><occurs> 1 </occurs></cardinality>",
            Box::new(|v| count(&v[..2], v[2]) == 1),
        ),
        (
            "<cardinality><list> x[0] x[1] </list><values closed=\"true\"> x[2] 0 </values><occurs> 1..2 0..2 </occurs></cardinality>",
            Box::new(|v| v[..2].iter().all(|&a| a == v[2] || a == 0) && count(&v[..2], v[2]) >= 1),
        ),
        (
            "<channel> x[] </channel>",
            Box::new(|v| (0..3).all(|i| (0..3).all(|j| (v[i] == j) == (v[j as usize] == i as i64)))),
        ),
        (
            "<channel><list> x[0] x[1] </list><list> x[1] x[2] </list></channel>",
            Box::new(|v| {
                let (a, b) = ([v[0], v[1]], [v[1], v[2]]);
                a.iter().chain(&b).all(|&e| e <= 1)
                    && (0..2).all(|i| (0..2).all(|j| (a[i] == j as i64) == (b[j] == i as i64)))
            }),
        ),
        (
            "<channel><list> x[0] </list><list startIndex=\"1\"> x[1] x[2] </list></channel>",
            Box::new(|v| v[0] >= 1 && [v[1], v[2]][v[0] as usize - 1] == 0),
        ),
        (
            "<channel><list> x[0] x[1] </list><value> x[2] </value></channel>",
            Box::new(|v| v[2] <= 1 && (0..2).all(|i| (v[i] == 1) == (v[2] == i as i64))),
        ),
        (
            "<lex><list> x[0] x[1] </list><list> x[1] x[2] </list><operator> lt </operator></lex>",
            Box::new(|v| [v[0], v[1]] < [v[1], v[2]]),
        ),
        (
            "<lex><list> x[0] x[1] </list><list> x[2] x[0] </list><operator> ge </operator></lex>",
            Box::new(|v| [v[0], v[1]] >= [v[2], v[0]]),
        ),
        (
            "<lex><matrix> (x[0],x[1])(x[2],1) </matrix><operator> le </operator></lex>",
            Box::new(|v| [v[0], v[1]] <= [v[2], 1] && [v[0], v[2]] <= [v[1], 1]),
        ),
        (
            "<lex><list> x[0] </list><list> x[1] </list><list> x[2] </list><operator> gt </operator></lex>",
            Box::new(|v| v[0] > v[1] && v[1] > v[2]),
        ),
        ("<lex><list> x[0] x[0] </list><list> x[0] x[0] </list><operator> lt </operator></lex>", Box::new(|_| false)),
        (
            "<regular><list> x[] </list><transitions> (a,0,a)(a,1,b)(b,2,b)(b,0,a) </transitions>\
             <start> a </start><final> b </final></regular>",
            Box::new(|v| accepts(&[("a", 0, "a"), ("a", 1, "b"), ("b", 2, "b"), ("b", 0, "a")], "a", &["b"], v)),
        ),
        (
            "<regular><list> x[] </list><transitions> (a,0,a)(a,1,a)(a,1,b)(b,0,c)(b,2,c) </transitions>\
             <start> a </start><final> c </final></regular>",
            Box::new(|v| {
                accepts(&[("a", 0, "a"), ("a", 1, "a"), ("a", 1, "b"), ("b", 0, "c"), ("b", 2, "c")], "a", &["c"], v)
            }),
        ),
        (
            "<mdd><list> x[] </list><transitions> (r,0,n1)(r,1,n2)(n1,2,n3)(n2,0,n3)(n2,1,n3)(n3,1,t)(n3,2,t) </transitions></mdd>",
            Box::new(|v| (v[0] == 0 && v[1] == 2 || v[0] == 1 && v[1] <= 1) && v[2] >= 1),
        ),
        (
            "<noOverlap><origins> x[0] x[1] </origins><lengths> 2 x[2] </lengths></noOverlap>",
            Box::new(|v| v[0] + 2 <= v[1] || v[1] + v[2] <= v[0] || v[2] == 0),
        ),
        (
            "<noOverlap zeroIgnored=\"false\"><origins> x[] </origins><lengths> 2 0 1 </lengths></noOverlap>",
            Box::new(|v| apart(v, &[2, 0, 1])),
        ),
        (
            "<noOverlap><origins> (x[0],x[1])(x[2],1) </origins><lengths> (1,2)(2,1) </lengths></noOverlap>",
            Box::new(|v| v[0] < v[2] || v[2] + 2 <= v[0] || v[1] + 2 <= 1 || 1 < v[1]),
        ),
        (
            "<cumulative><origins> x[] </origins><lengths> 2 1 x[1] </lengths><heights> 1 2 1 </heights>\
             <condition> (le,2) </condition></cumulative>",
            Box::new(|v| peak(v, &[2, 1, v[1]], &[1, 2, 1]) <= 2),
        ),
        (
            "<cumulative><origins> x[0] x[1] </origins><lengths> 1 2 </lengths><heights> x[2] 1 </heights>\
             <condition> (lt,x[2]) </condition></cumulative>",
            Box::new(|v| peak(&v[..2], &[1, 2], &[v[2], 1]) < v[2]),
        ),
        (
            "<cumulative><origins> x[0] x[1] </origins><lengths> 1 1 </lengths><ends> x[1] x[2] </ends>\
             <heights> 1 1 </heights><condition> (le,1) </condition></cumulative>",
            Box::new(|v| v[0] + 1 == v[1] && v[1] + 1 == v[2]),
        ),
        (
            "<minimumArg><list> x[] </list><condition> (eq,1) </condition></minimumArg>",
            Box::new(|v| v[1] == *v.iter().min().unwrap()),
        ),
        (
            "<maximumArg rank=\"first\"><list> x[0] x[1] </list><condition> (eq,x[2]) </condition></maximumArg>",
            Box::new(|v| extreme_at(&v[..2], false, Some(true)).contains(&v[2])),
        ),
        (
            "<minimumArg rank=\"first\"><list> x[] </list><condition> (ge,1) </condition></minimumArg>",
            Box::new(|v| extreme_at(v, true, Some(true)).iter().any(|&p| p >= 1)),
        ),
        (
            "<maximumArg rank=\"last\"><list> x[] </list><condition> (lt,2) </condition></maximumArg>",
            Box::new(|v| extreme_at(v, false, Some(false)).iter().any(|&p| p < 2)),
        ),
        (
            "<maximumArg><list> x[] </list><condition> (ne,0) </condition></maximumArg>",
            Box::new(|v| extreme_at(v, false, None).iter().any(|&p| p != 0)),
        ),
    ];
    for (constraint, holds) in &cases {
        assert_reified(3, &[0, 1, 2], constraint, holds.as_ref());
    }
    // Circuits over four nodes: two cycles of two are not one.
    assert_reified(4, &[0, 1, 2, 3], "<circuit> x[] </circuit>", &|v| circuit(v, 0).is_some());
    assert_reified(4, &[0, 1, 2, 3], "<circuit><list> x[] </list><size> 3 </size></circuit>", &|v| {
        circuit(v, 0) == Some(3)
    });
    assert_reified(3, &[0, 1, 2, 3], "<circuit><list startIndex=\"1\"> x[] </list></circuit>", &|v| {
        circuit(v, 1).is_some()
    });
}

/// The number of nodes on the circuit that `successors` (nodes from
/// `start`) form, or `None` when they form none: a permutation whose nodes
/// that do not loop form one cycle, at least one of them.
fn circuit(successors: &[i64], start: i64) -> Option<usize> {
    let n = successors.len() as i64;
    let next = |node: i64| successors[(node - start) as usize];
    if successors.iter().any(|&s| s < start || s >= start + n) {
        return None;
    }
    let mut sorted = successors.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != successors.len() {
        return None;
    }
    let moving: Vec<i64> = (start..start + n).filter(|&node| next(node) != node).collect();
    let first = *moving.first()?;
    let (mut node, mut length) = (next(first), 1);
    while node != first {
        node = next(node);
        length += 1;
    }
    (length == moving.len()).then_some(length)
}

/// Whether `index` is a position of `list` whose entry `meets`, the first
/// (`first`) or the last such.
fn ranked(list: &[i64], index: i64, meets: &dyn Fn(i64) -> bool, first: bool) -> bool {
    let Ok(at) = usize::try_from(index) else { return false };
    at < list.len()
        && meets(list[at])
        && list.iter().enumerate().all(|(p, &e)| !meets(e) || if first { p >= at } else { p <= at })
}

/// Whether tasks at `starts` of `lengths` overlap in no pair (XCSP3's
/// definition: one ends before the other starts).
fn apart(starts: &[i64], lengths: &[i64]) -> bool {
    (0..starts.len())
        .all(|j| (0..j).all(|i| starts[i] + lengths[i] <= starts[j] || starts[j] + lengths[j] <= starts[i]))
}

/// The greatest sum of the heights of the tasks running at one time.
fn peak(starts: &[i64], lengths: &[i64], heights: &[i64]) -> i64 {
    (-10..20)
        .map(|t| (0..starts.len()).filter(|&i| starts[i] <= t && t < starts[i] + lengths[i]).map(|i| heights[i]).sum())
        .max()
        .unwrap_or(0)
}

/// The positions of the least (`minimum`) or greatest entry: all of them,
/// or the first or last only (`rank`).
fn extreme_at(list: &[i64], minimum: bool, rank: Option<bool>) -> Vec<i64> {
    let best = if minimum { list.iter().min() } else { list.iter().max() };
    let all: Vec<i64> = (0..list.len()).filter(|&p| Some(&list[p]) == best).map(|p| p as i64).collect();
    match rank {
        None => all,
        Some(true) => all[..1].to_vec(),
        Some(false) => all[all.len() - 1..].to_vec(),
    }
}

/// Whether the automaton (non-deterministic too) accepts `word`.
fn accepts(transitions: &[(&str, i64, &str)], start: &str, finals: &[&str], word: &[i64]) -> bool {
    let mut states = vec![start];
    for &symbol in word {
        states = transitions.iter().filter(|t| states.contains(&t.0) && t.1 == symbol).map(|t| t.2).collect();
    }
    states.iter().any(|q| finals.contains(q))
}

#[test]
fn reification_inside_groups_and_on_several_attributes() {
    // The literal named by a group's parameter.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"x\" size=\"[2]\"> 0..2 </array>\
               <array id=\"b\" size=\"[2]\"> 0 1 </array></variables><constraints><group>\
               <intension reifiedBy=\"%0\"> eq(%1,1) </intension><args> b[0] x[0] </args><args> b[1] x[1] </args>\
               </group></constraints></instance>";
    assert_exact(
        xml,
        &domains(4, &[0, 1, 2]).into_iter().take(2).chain([vec![0, 1], vec![0, 1]]).collect::<Vec<_>>(),
        &|v| (v[2] == 1) == (v[0] == 1) && (v[3] == 1) == (v[1] == 1),
    );
    // hreifiedFrom and hreifiedTo on one constraint, by two literals.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><var id=\"x\"> 0..3 </var>\
               <var id=\"p\"> 0 1 </var><var id=\"q\"> 0 1 </var></variables><constraints>\
               <sum hreifiedFrom=\"p\" hreifiedTo=\"q\"><list> x x </list><condition> (ge,4) </condition></sum>\
               </constraints></instance>";
    assert_exact(xml, &[vec![0, 1, 2, 3], vec![0, 1], vec![0, 1]], &|v| {
        let c = 2 * v[0] >= 4;
        (v[1] == 0 || c) && (!c || v[2] == 1)
    });
}

#[test]
fn reification_is_refused_where_it_cannot_be_exact() {
    let instance = |constraint: &str| {
        format!(
            "<instance format=\"XCSP3\" type=\"CSP\">\n<variables>\n<array id=\"x\" size=\"[3]\"> 0..2 </array>\n\
             <var id=\"b\"> 0 1 </var>\n<var id=\"w\"> 0..2 </var>\n</variables>\n<constraints>\n{constraint}\n\
             </constraints>\n</instance>\n"
        )
    };
    let cases = [
        (
            "<element reifiedBy=\"b\"><list> x[] </list><index rank=\"first\"> w </index><condition> (gt,1) </condition></element>",
            ErrorKind::Unsupported,
            "element with a rank and the condition operator 'gt' is not supported",
        ),
        (
            "<block hreifiedFrom=\"b\"><intension> eq(w,1) </intension></block>",
            ErrorKind::Unsupported,
            "a reified <block> (hreifiedFrom) is not supported",
        ),
        (
            "<group hreifiedTo=\"b\"><intension> eq(%0,1) </intension><args> w </args></group>",
            ErrorKind::Unsupported,
            "a reified <group> (hreifiedTo) is not supported",
        ),
        (
            "<intension reifiedBy=\"b\"> eq(div(x[0],x[1]),1) </intension>",
            ErrorKind::Unsupported,
            "div where it can be undefined",
        ),
        (
            "<intension hreifiedFrom=\"b\"> eq(pow(x[0],sub(x[1],1)),1) </intension>",
            ErrorKind::Unsupported,
            "pow where it can be undefined",
        ),
        (
            "<intension reifiedBy=\"w\"> eq(x[0],1) </intension>",
            ErrorKind::Invalid,
            "w is used as a Boolean but its domain",
        ),
        (
            "<intension reifiedBy=\"c\"> eq(x[0],1) </intension>",
            ErrorKind::Invalid,
            "reifiedBy=\"c\" does not name a declared variable",
        ),
        ("<intension reifiedBy=\"x[]\"> eq(x[0],1) </intension>", ErrorKind::Invalid, "x[]"),
    ];
    for (constraint, kind, message) in cases {
        let error = lower(&instance(constraint)).expect_err(constraint);
        assert_eq!((error.kind, error.position.line, error.position.column), (kind, 8, 1), "{constraint}: {error}");
        assert!(error.message.contains(message), "{constraint}: {error}");
    }
    // A reified circuit's decomposition grows as n^3: at most 64 nodes.
    let xml = "<instance format=\"XCSP3\" type=\"CSP\"><variables><array id=\"s\" size=\"[65]\"> 0..64 </array>\
               <var id=\"b\"> 0 1 </var></variables><constraints><circuit reifiedBy=\"b\"> s[] </circuit>\
               </constraints></instance>";
    let error = lower(xml).expect_err("65 nodes");
    assert!(error.is_unsupported() && error.message.contains("a reified circuit over more than 64 nodes"), "{error}");
    // A division by a divisor that cannot be 0, reified, is exact.
    assert_reified(2, &[1, 2, 3], "<intension> eq(div(6,x[0]),mul(x[1],2)) </intension>", &|v| 6 / v[0] == v[1] * 2);
}
