//! The DIMACS graph format (`.col`), as the colouring benchmarks use it:
//!
//! ```text
//! c comment lines start with 'c'
//! p edge 4 3
//! e 1 2
//! e 2 3
//! e 3 4
//! ```
//!
//! One `p edge N M` line (`col` and `edges` are accepted for `edge`) before the first
//! edge, then `e U V` lines with vertices `1..=N`. An edge listed twice (in either
//! direction) counts once; a loop `e 3 3` is an error, since no colouring has one.
//! See `docs/formats.md`.

use super::ParseError;
use super::text::{self, Problem, Source};

/// The most vertices a graph may have: one variable each, so a limit well above any
/// instance a backtracking search can colour.
pub const MAX_VERTICES: i64 = 1_000_000;

/// An undirected graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// The number of vertices, numbered `0..vertices` (the file numbers them from 1).
    pub vertices: usize,
    /// The edges `(u, v)` with `u < v`, each once, in the order of the file.
    pub edges: Vec<(usize, usize)>,
    /// The number of edges the `p` line announced.
    pub declared_edges: usize,
}

/// Parses a graph in DIMACS format; `file` names the input in errors.
pub fn parse(input: &str, file: &str) -> Result<Graph, ParseError> {
    let source = Source::new(file);
    let mut header: Option<(usize, usize, usize)> = None; // (vertices, declared edges, line)
    let mut edges = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut last_line = 0;
    for (index, line) in input.lines().enumerate() {
        let number = index + 1;
        last_line = number;
        let words = text::tokens(line);
        let Some(first) = words.first() else { continue };
        let at = |column: usize, problem: Problem| source.error(number, column, problem);
        let field = |k: usize, what: &str, min: i64, max: i64| -> Result<i64, ParseError> {
            match words.get(k) {
                Some(word) => text::number(word.text, what, min, max).map_err(|p| at(word.column, p)),
                None => Err(at(text::end_column(line), Problem::end_of_line(what))),
            }
        };
        let no_more = |count: usize| -> Result<(), ParseError> {
            match words.get(count) {
                Some(extra) => Err(at(extra.column, Problem::unexpected("the end of the line", extra.text))),
                None => Ok(()),
            }
        };
        match first.text {
            "c" => {}
            "p" => {
                if let Some((_, _, first_line)) = header {
                    return Err(at(first.column, Problem::Duplicate { what: "the 'p' line".into(), first_line }));
                }
                match words.get(1) {
                    Some(word) if matches!(word.text, "edge" | "edges" | "col") => {}
                    Some(word) => return Err(at(word.column, Problem::unexpected("'edge'", word.text))),
                    None => return Err(at(text::end_column(line), Problem::end_of_line("'edge'"))),
                }
                let vertices = field(2, "number of vertices", 1, MAX_VERTICES)? as usize;
                let declared = field(3, "number of edges", 0, i64::MAX)? as usize;
                no_more(4)?;
                header = Some((vertices, declared, number));
            }
            "e" => {
                let Some((vertices, _, _)) = header else {
                    return Err(at(
                        first.column,
                        Problem::Missing { what: "the 'p edge N M' line before the first edge".into() },
                    ));
                };
                let u = field(1, "vertex", 1, vertices as i64)? as usize;
                let v = field(2, "vertex", 1, vertices as i64)? as usize;
                no_more(3)?;
                if u == v {
                    return Err(at(words[2].column, Problem::invalid(format!("vertex {u} is joined to itself"))));
                }
                let edge = (u.min(v) - 1, u.max(v) - 1);
                if seen.insert(edge) {
                    edges.push(edge);
                }
            }
            other => {
                return Err(at(first.column, Problem::unexpected("a line starting with 'c', 'p' or 'e'", other)));
            }
        }
    }
    match header {
        Some((vertices, declared_edges, _)) => Ok(Graph { vertices, edges, declared_edges }),
        None => Err(source.error(last_line + 1, 1, Problem::Missing { what: "the 'p edge N M' line".into() })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_graph_parses_with_duplicates_merged() {
        let graph = parse("c a path\np edge 4 4\ne 1 2\ne 2 3\n\ne 3 4\ne 2 1\n", "path.col").unwrap();
        assert_eq!(graph.vertices, 4);
        assert_eq!(graph.edges, vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(graph.declared_edges, 4);
    }

    #[test]
    fn mistakes_are_located() {
        let at = |input: &str| {
            let e = parse(input, "g.col").unwrap_err();
            (e.line, e.column)
        };
        assert_eq!(at("p edge 3 1\ne 1 4\n"), (2, 5));
        assert_eq!(at("p edge 3 1\ne 1\n"), (2, 4));
        assert_eq!(at("p edge 3 1\ne 1 x\n"), (2, 5));
        assert_eq!(at("p edge 3 1\ne 2 2\n"), (2, 5));
        assert_eq!(at("p edge 3 1\ne 1 2 3\n"), (2, 7));
        assert_eq!(at("e 1 2\n"), (1, 1));
        assert_eq!(at("p edge 3 1\np edge 3 1\n"), (2, 1));
        assert_eq!(at("p graph 3 1\n"), (1, 3));
        assert_eq!(at("c nothing\n"), (2, 1));
        assert_eq!(at("p edge 3 1\n  x 1 2\n"), (2, 3));
        assert_eq!(
            parse("p edge 3 1\ne 1 4\n", "g.col").unwrap_err().to_string(),
            "g.col: line 2, column 5: vertex 4 is out of range (allowed: 1 to 3)"
        );
    }
}
