//! Code shared by the example binaries. Each example is its own crate root and
//! stays thin: it calls the `run` function of its module here, which parses the
//! arguments, drives the library crates and prints. Keeping the logic in this
//! library lets the tests run every tool in-process.

#![expect(missing_docs, unreachable_pub, reason = "fixed on the tools branch")]

pub mod gallery;
pub mod lab_app;
pub mod queens_app;
pub mod report;
pub mod sudoku_app;
