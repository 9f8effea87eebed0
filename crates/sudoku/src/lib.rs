//! Generalized sudoku on the csp engine (work in progress).
