//! N-queens on the csp engine (work in progress).
