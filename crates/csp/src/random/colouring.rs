//! Colouring a random graph: the classic structured random CSP (Cheeseman,
//! Kanefsky & Taylor 1991; Culberson & Gent 2001).
//!
//! The graph is `G(n, m)`: `n` vertices and exactly `m = round(c n / 2)`
//! edges drawn uniformly among the `n(n-1)/2` pairs, so that the average
//! degree is `c`. The model has a variable per vertex with the colours `0..k`
//! as its domain, and a `not_equal` constraint per edge (a built-in with its
//! own propagator, so generic support checking and `/ac2001` do not apply).
//!
//! For `k = 3` the colourable fraction falls from 1 to 0 around an average
//! degree of 4.6 to 4.7 (Culberson & Gent 2001 for small graphs;
//! Achlioptas & Friedgut 1999 proved the threshold sharp). The first-moment
//! estimate, where the expected number of colourings `k^n (1 - 1/k)^m` is 1,
//! is `c = 2 ln k / -ln(1 - 1/k)`: 5.42 for `k = 3`, an upper bound.

use std::fmt;

use crate::ids::VarId;
use crate::model::Model;
use crate::rng::Rng;

use super::{RandomCspError, all_pairs};

/// The parameters of a random graph `k`-colouring instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomColouring {
    /// `n`, the number of vertices.
    pub vertices: usize,
    /// `k`, the number of colours.
    pub colours: usize,
    /// `c`, the average degree: the graph has `round(c n / 2)` edges.
    pub degree: f64,
    /// The seed: equal parameters and seeds give equal instances.
    pub seed: u64,
}

impl RandomColouring {
    /// `m = round(c n / 2)`, the number of edges.
    pub fn edge_count(&self) -> usize {
        (self.degree * self.vertices as f64 / 2.0).round().max(0.0) as usize
    }

    /// The average degree where the expected number of colourings is 1:
    /// `2 ln k / -ln(1 - 1/k)` (an upper bound on the threshold; infinite for one colour).
    pub fn first_moment_degree(&self) -> f64 {
        let k = self.colours as f64;
        2.0 * k.ln() / -(1.0 - 1.0 / k).ln()
    }

    /// The edges `(u, v)`, `u < v`, in order: `m` distinct pairs drawn uniformly.
    pub fn edges(&self) -> Result<Vec<(usize, usize)>, RandomCspError> {
        let pairs = self.vertices * self.vertices.saturating_sub(1) / 2;
        if !(self.degree.is_finite() && self.degree >= 0.0) || self.edge_count() > pairs {
            return Err(RandomCspError::Invalid {
                what: "degree",
                reason: format!(
                    "an average degree of {} on {} vertices is not between 0 and {}",
                    self.degree,
                    self.vertices,
                    self.vertices.saturating_sub(1)
                ),
            });
        }
        let mut rng = Rng::new(self.seed);
        let mut edges = all_pairs(self.vertices);
        rng.shuffle(&mut edges);
        edges.truncate(self.edge_count());
        edges.sort_unstable();
        Ok(edges)
    }

    /// Draws the instance: a variable `v0`, `v1`, ... per vertex with domain
    /// `0..k`, a `not_equal` per edge.
    pub fn generate(&self) -> Result<Model, RandomCspError> {
        if self.vertices == 0 || self.colours == 0 {
            return Err(RandomCspError::Empty);
        }
        let edges = self.edges()?;
        let mut model = Model::new();
        let vars: Vec<VarId> = (0..self.vertices)
            .map(|i| model.new_named_var(format!("v{i}"), 0..self.colours as i64))
            .collect::<Result<_, _>>()?;
        for (u, v) in edges {
            model.not_equal(vars[u], vars[v])?;
        }
        Ok(model)
    }
}

impl fmt::Display for RandomColouring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-colouring of G(n={}, m={}) (degree {}) seed {}",
            self.colours,
            self.vertices,
            self.edge_count(),
            self.degree,
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graph_has_the_edges_asked_for_and_colours_as_domains() {
        let spec = RandomColouring { vertices: 50, colours: 3, degree: 4.6, seed: 7 };
        assert_eq!(spec.edge_count(), 115);
        let edges = spec.edges().unwrap();
        assert_eq!(edges.len(), 115);
        let mut distinct = edges.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), 115, "no edge twice");
        assert!(edges.iter().all(|&(u, v)| u < v && v < 50), "no loops, in range");
        let model = spec.generate().unwrap();
        assert_eq!((model.num_vars(), model.num_constraints()), (50, 115));
        for ((_, constraint), &(u, v)) in model.constraints().zip(&edges) {
            assert_eq!(constraint.kind(), "not_equal");
            assert_eq!(constraint.scope().iter().map(|x| x.index()).collect::<Vec<_>>(), [u, v]);
        }
        assert!(model.vars().all(|x| model.domain(x).unwrap().size() == 3));
        assert_eq!(spec.edges().unwrap(), edges, "reproducible");
        assert_ne!(RandomColouring { seed: 8, ..spec }.edges().unwrap(), edges);
    }

    #[test]
    fn a_complete_graph_needs_as_many_colours_as_vertices() {
        let complete = RandomColouring { vertices: 4, colours: 3, degree: 3.0, seed: 1 };
        assert_eq!(complete.edges().unwrap().len(), 6);
        assert!(complete.generate().unwrap().solve().unwrap().is_none(), "K4 is not 3-colourable");
        let four = RandomColouring { colours: 4, ..complete };
        assert!(four.generate().unwrap().solve().unwrap().is_some());
        assert!(RandomColouring { degree: 3.5, ..complete }.edges().is_err(), "more edges than pairs");
        assert!(RandomColouring { degree: -1.0, ..complete }.generate().is_err());
        assert!(RandomColouring { colours: 0, ..complete }.generate().is_err());
    }

    #[test]
    fn the_first_moment_degree_matches_the_formula() {
        let spec = RandomColouring { vertices: 10, colours: 3, degree: 0.0, seed: 0 };
        assert!((spec.first_moment_degree() - 5.419).abs() < 1e-3, "{}", spec.first_moment_degree());
    }
}
