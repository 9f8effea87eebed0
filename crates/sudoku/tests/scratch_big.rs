use csp_sudoku::human::HumanSolver;
use std::time::Instant;
#[test]
fn big() {
    for name in ["bench-25x25.txt"] {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let puzzles: Vec<_> =
            csp_sudoku::parse::puzzles(&text).filter_map(|p| p.ok()).map(|p| p.grid).take(3).collect();
        for p in puzzles {
            let start = Instant::now();
            let s = HumanSolver::new().solve(&p).unwrap();
            println!("{name}: {} steps, {} in {:.2}s", s.steps().len(), s.rating(), start.elapsed().as_secs_f64());
        }
    }
}
