//! The puzzle gallery, while it moves to real examples.

pub mod gallery;
