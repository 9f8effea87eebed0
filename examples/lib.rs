//! Code shared by the example binaries (each example is its own crate root and
//! reaches this library as `csp_examples`).
