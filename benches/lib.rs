//! Helpers shared by the benchmarks.
