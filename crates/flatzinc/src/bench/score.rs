//! Scoring two solvers' answers on one instance the MiniZinc Challenge's
//! way (Borda, "complete" scoring), and spotting answers that contradict.
//!
//! Per instance and pair of solvers, a solver scores 1 when its answer is
//! better, 0 when it is worse, and when both are as good the point is split by
//! time: `t(other) / (t(self) + t(other))` (0.5 each when both times are 0).
//! Better means: a proof (optimality, unsatisfiability, or, for a satisfaction
//! problem, any solution) beats no proof; then, for optimisation, a better
//! objective beats a worse one; then any solution beats none. With neither a
//! solution nor a proof, neither scores.

use std::cmp::Ordering;

/// What a solver answered on one instance.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Answer {
    /// `OPTIMAL_SOLUTION`, `ALL_SOLUTIONS`, `SATISFIED`, `UNSATISFIABLE`, `UNKNOWN`, `ERROR`.
    pub status: String,
    /// The objective of the last (best) solution, for optimisation.
    pub objective: Option<i64>,
    /// Solutions reported.
    pub solutions: u64,
    /// Seconds to the final answer: the proof, or else the last solution
    /// (the time limit when there is neither).
    pub seconds: f64,
    /// The error's first line, when `status` is `ERROR`.
    pub error: Option<String>,
}

/// Whether the instance minimises, maximises or only satisfies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Method {
    /// Any solution.
    Satisfy,
    /// The smallest objective.
    Minimize,
    /// The largest objective.
    Maximize,
}

impl Answer {
    fn has_solution(&self) -> bool {
        self.solutions > 0
    }

    fn proved(&self, method: Method) -> bool {
        match self.status.as_str() {
            "OPTIMAL_SOLUTION" | "UNSATISFIABLE" | "ALL_SOLUTIONS" => true,
            _ => method == Method::Satisfy && self.has_solution(),
        }
    }

    /// How good the answer is: proof first, then the objective, then a solution.
    fn quality(&self, other: &Answer, method: Method) -> Ordering {
        let proved = self.proved(method).cmp(&other.proved(method));
        if proved != Ordering::Equal {
            return proved;
        }
        let solved = self.has_solution().cmp(&other.has_solution());
        if solved != Ordering::Equal || !self.has_solution() {
            return solved;
        }
        match (method, self.objective, other.objective) {
            (Method::Minimize, Some(a), Some(b)) => b.cmp(&a),
            (Method::Maximize, Some(a), Some(b)) => a.cmp(&b),
            _ => Ordering::Equal,
        }
    }

    fn answered(&self, method: Method) -> bool {
        self.has_solution() || self.proved(method)
    }
}

/// The Borda points of `a` and of `b` on one instance.
pub fn borda(a: &Answer, b: &Answer, method: Method) -> (f64, f64) {
    match a.quality(b, method) {
        Ordering::Greater => (1.0, 0.0),
        Ordering::Less => (0.0, 1.0),
        Ordering::Equal if !a.answered(method) => (0.0, 0.0),
        Ordering::Equal => {
            let total = a.seconds + b.seconds;
            if total <= 0.0 { (0.5, 0.5) } else { (b.seconds / total, a.seconds / total) }
        }
    }
}

/// Why two answers cannot both be right, if they cannot: a solution where the
/// other proved unsatisfiability, or a better objective than the other's
/// proved optimum.
pub fn contradiction(a: &Answer, b: &Answer, method: Method) -> Option<String> {
    for (x, y, x_name, y_name) in [(a, b, "first", "second"), (b, a, "second", "first")] {
        if x.status == "UNSATISFIABLE" && y.has_solution() {
            return Some(format!("the {x_name} solver proved unsatisfiability, the {y_name} found a solution"));
        }
        if x.status == "OPTIMAL_SOLUTION" {
            if let (Some(optimum), Some(found)) = (x.objective, y.objective.filter(|_| y.has_solution())) {
                let better = match method {
                    Method::Minimize => found < optimum,
                    Method::Maximize => found > optimum,
                    Method::Satisfy => false,
                };
                if better {
                    return Some(format!(
                        "the {x_name} solver proved {optimum} optimal, the {y_name} found {found}, which is better"
                    ));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: &str, objective: Option<i64>, solutions: u64, seconds: f64) -> Answer {
        Answer { status: status.to_string(), objective, solutions, seconds, error: None }
    }

    #[test]
    fn proofs_beat_objectives_which_beat_nothing_and_ties_split_by_time() {
        let optimal = answer("OPTIMAL_SOLUTION", Some(10), 3, 4.0);
        let better_unproved = answer("SATISFIED", Some(9), 5, 60.0);
        assert_eq!(borda(&optimal, &answer("SATISFIED", Some(10), 1, 1.0), Method::Minimize), (1.0, 0.0));
        assert_eq!(
            borda(&answer("SATISFIED", Some(12), 1, 1.0), &answer("SATISFIED", Some(11), 1, 9.0), Method::Minimize),
            (0.0, 1.0)
        );
        assert_eq!(
            borda(&answer("SATISFIED", Some(12), 1, 1.0), &answer("SATISFIED", Some(11), 1, 9.0), Method::Maximize),
            (1.0, 0.0)
        );
        assert_eq!(
            borda(&answer("UNKNOWN", None, 0, 60.0), &answer("SATISFIED", Some(1), 1, 60.0), Method::Minimize),
            (0.0, 1.0)
        );
        assert_eq!(
            borda(&answer("ERROR", None, 0, 0.0), &answer("UNKNOWN", None, 0, 60.0), Method::Minimize),
            (0.0, 0.0)
        );
        assert_eq!(
            borda(&answer("UNSATISFIABLE", None, 0, 1.0), &answer("UNSATISFIABLE", None, 0, 3.0), Method::Satisfy),
            (0.75, 0.25)
        );
        assert!(contradiction(&optimal, &better_unproved, Method::Minimize).is_some());
        assert!(contradiction(&optimal, &better_unproved, Method::Maximize).is_none());
        assert!(
            contradiction(&answer("UNSATISFIABLE", None, 0, 1.0), &answer("SATISFIED", None, 1, 1.0), Method::Satisfy)
                .is_some()
        );
    }
}
