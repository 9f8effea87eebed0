//! Scaffold: being written (see the open issues).
