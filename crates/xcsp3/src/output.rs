//! The output of the XCSP3 competitions: one `s` line with the status, `v`
//! lines with the solution as an XCSP3 instantiation, an `o` line for each
//! improving solution of an optimisation problem, and `c` comment lines.

/// A solution was found (and, for an optimisation problem, not proved optimal).
pub const SATISFIABLE: &str = "s SATISFIABLE";
/// There is no solution.
pub const UNSATISFIABLE: &str = "s UNSATISFIABLE";
/// The solution printed is optimal.
pub const OPTIMUM: &str = "s OPTIMUM FOUND";
/// A limit stopped the search before it found a solution or proved there was none.
pub const UNKNOWN: &str = "s UNKNOWN";
/// The instance uses something the solver does not support.
pub const UNSUPPORTED: &str = "s UNSUPPORTED";

/// The `v` line of a solution: `v <instantiation ...> ... </instantiation>`.
pub fn value_line(instantiation: &str) -> String {
    format!("v {instantiation}")
}

/// The `o` line of an improving solution's objective value.
pub fn objective_line(value: i64) -> String {
    format!("o {value}")
}
