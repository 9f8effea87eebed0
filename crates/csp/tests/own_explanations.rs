//! Explanations a propagator gives of its own, told apart from the generic
//! one it falls back to (its scope's domains as they were, sound for every
//! propagator, so a propagator that gives up too soon is not caught by the
//! nogood checks): diffn's explanation of a bound moved names only the two
//! rectangles of the pair that moved it, and element's over a constant
//! array names exactly the positions whose entry (or index) was asked.
//! Each reason is also checked against every solution, by brute force.

#[path = "../examples/support/xorshift.rs"]
mod xorshift;

use csp::{Atom, ConstraintId, Model, Observer, Reason, SolveConfig, Solver, VarId};
use xorshift::xorshift;

/// A reason: its facts, its constraint and what it says held before.
type Kept = (Vec<Atom>, ConstraintId, Vec<Atom>);

/// Keeps every reason.
#[derive(Default)]
struct Reasons(Vec<Kept>);

impl Observer for Reasons {
    fn on_event(&mut self, _: &csp::SearchEvent) {}

    fn wants_reasons(&self) -> bool {
        true
    }

    fn on_reason(&mut self, reason: &Reason<'_>) {
        self.0.push((reason.facts.to_vec(), reason.constraint, reason.because.to_vec()));
    }
}

/// Counts `model`'s solutions under `config` with reasons on; checks the
/// count and every reason against brute force, and returns the reasons.
fn reasons(model: &Model, config: &str) -> Vec<Kept> {
    let domains: Vec<Vec<i64>> = model.vars().map(|x| model.domain(x).expect("a variable").iter().collect()).collect();
    let mut solutions = Vec::new();
    csp::testing::for_each_assignment(&domains, |values| {
        if model.is_solution(values) {
            solutions.push(values.to_vec());
        }
    });
    let mut observed = Reasons::default();
    let counted = {
        let mut solver = Solver::new(model, config.parse::<SolveConfig>().unwrap()).unwrap();
        solver.observe(&mut observed);
        solver.count(None)
    };
    assert_eq!(counted.solutions, solutions.len() as u64, "{config}");
    let holds = |atom: &Atom, a: &[i64]| atom.holds_at(a[atom.var().index()]);
    for (facts, _, because) in &observed.0 {
        for a in &solutions {
            if because.iter().all(|atom| holds(atom, a)) {
                assert!(facts.iter().all(|atom| holds(atom, a)), "{config}: {facts:?} because {because:?} at {a:?}");
            }
        }
    }
    observed.0
}

/// Random diffn models of three rectangles (positions variables, sizes
/// fixed or variables) and of four (sizes fixed): every reason for a change of a rectangle's
/// variable names the variables of at most two rectangles, the pair that
/// made it (the generic explanation names the domains of all of them).
#[test]
fn diffn_explains_a_bound_by_one_pair() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let mut explained = 0;
    for round in 0..60 {
        let n = 3 + round % 2;
        let nonstrict = round % 3 == 2;
        let mut model = Model::new();
        let mut boxes: Vec<Vec<VarId>> = Vec::new();
        let (mut x, mut y, mut dx, mut dy) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..n {
            x.push(model.new_var(0..=(2 + (next() % 3) as i64)).unwrap());
            y.push(model.new_var(0..=(1 + (next() % 2) as i64)).unwrap());
            // Four rectangles have fixed sizes (a brute force of millions otherwise).
            let mut size = |model: &mut Model| {
                let lo = (next() % 2) as i64 + i64::from(!nonstrict);
                model.new_var(lo..=lo + (next() % 2) as i64 * i64::from(n == 3)).unwrap()
            };
            dx.push(size(&mut model));
            dy.push(size(&mut model));
            boxes.push(vec![*x.last().unwrap(), *y.last().unwrap(), *dx.last().unwrap(), *dy.last().unwrap()]);
        }
        if nonstrict {
            model.diffn_nonstrict(&x, &y, &dx, &dy).unwrap();
        } else {
            model.diffn(&x, &y, &dx, &dy).unwrap();
        }
        for config in ["mac", "mac+mrv", "mac+learn"] {
            for (facts, _, because) in reasons(&model, config) {
                let rectangles_named =
                    boxes.iter().filter(|b| because.iter().chain(&facts).any(|atom| b.contains(&atom.var()))).count();
                assert!(
                    rectangles_named <= 2,
                    "round {round} ({config}): {facts:?} because {because:?} names {rectangles_named} rectangles"
                );
                explained += 1;
            }
        }
    }
    assert!(explained > 500, "only {explained} reasons");
}

/// Random element constraints over constant arrays (the array longer than a
/// dozen entries per index left, and short): a value removed from the
/// value's domain is explained by exactly the indices whose entry it is
/// (each `index ≠ i`), and an index removed by exactly its entry gone
/// (`value ≠ array[i]`).
#[test]
fn element_explains_by_exactly_the_entries_asked() {
    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let big = 1i64 << 62;
    let mut explained = 0;
    for round in 0..40 {
        let (lo, hi) = [(0, 4), (big - 4, big), (-big, -big + 4)][round % 3];
        let len = if round % 2 == 0 { 30 } else { 5 };
        let first = (next() % 3) as i64 - 1;
        let mut model = Model::new();
        let index = model.new_var(first..=first + len - 1).unwrap();
        let value = model.new_var(lo..=hi).unwrap();
        let other = model.new_var(lo..=hi).unwrap();
        let array: Vec<i64> = (0..len).map(|_| (lo - 1 + (next() % 7) as i64).clamp(-big, big)).collect();
        let element = model.element(index, &array, value, first).unwrap();
        model.less_than(other, value).unwrap();
        for config in ["mac", "mac+learn"] {
            for (facts, constraint, because) in reasons(&model, config) {
                if constraint != element {
                    continue;
                }
                let Some(var) = facts.first().map(|atom| atom.var()) else { continue };
                if var != index && var != value {
                    continue;
                }
                let mut expected: Vec<Atom> = Vec::new();
                for fact in &facts {
                    let Atom::NotEqual(_, v) = *fact else { continue };
                    if var == index {
                        // An entry outside the value's domain is no atom (always true).
                        let entry = array[(v - first) as usize];
                        if (lo..=hi).contains(&entry) {
                            expected.push(Atom::NotEqual(value, entry));
                        }
                    } else {
                        let hits = (0..len).filter(|&k| array[k as usize] == v);
                        expected.extend(hits.map(|k| Atom::NotEqual(index, first + k)));
                    }
                }
                let (mut got, mut want) = (because.clone(), expected);
                got.sort();
                got.dedup();
                want.sort();
                want.dedup();
                assert_eq!(got, want, "round {round} ({config}): {facts:?} over {array:?} from {first}");
                explained += 1;
            }
        }
    }
    assert!(explained > 100, "only {explained} reasons");
}
