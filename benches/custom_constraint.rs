//! Scaffold: this benchmark is being written (see the open issues).

fn main() {}
