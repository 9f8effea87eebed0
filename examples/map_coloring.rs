//! Scaffold: this example is being written (see the open issues).

fn main() -> std::process::ExitCode {
    eprintln!("the 'map_coloring' example is not written yet");
    std::process::ExitCode::from(2)
}
