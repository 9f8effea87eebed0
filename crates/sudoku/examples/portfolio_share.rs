//! Solves each puzzle of a file with a portfolio of the sudoku tool's
//! configurations, its learning workers sharing their short learnt nogoods
//! or not: the driver of BENCHMARKS.md's "Nogoods shared between a
//! portfolio's workers". Prints per puzzle the outcome, the winner, the wall
//! and CPU time (the process's, every worker's), the nodes of every worker
//! summed and the nogoods shared.
//!
//! ```sh
//! cargo build --release -p csp-sudoku --example portfolio_share
//! target/release/examples/portfolio_share FILE WORKERS [share|share=LEN,LBD] [cpu=SECONDS]
//! ```
//!
//! `WORKERS` names the workers, comma-separated: `learn` (the tool's
//! `--learn` configuration of the side), `default` (its default) and
//! `aplaces` (`--learn` with the `aplaces` ordering); `learn,default` is
//! `--learn --portfolio 2`. `share` shares with the engine's default
//! selection, `share=LEN,LBD` those of at most `LEN` literals or distance
//! `LBD`; `cpu=SECONDS` limits each worker's CPU time (`--cpu-timeout`).

use std::time::{Duration, Instant};

use csp::portfolio::{Portfolio, Sharing};
use csp::{Limits, Outcome, VarOrder};
use csp_sudoku::model::{SudokuModel, Units};
use csp_sudoku::{Grid, PuzzleReader, default_config, learning_config};

/// The process's CPU time (user and system) so far.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // After the command's name in parentheses: utime and stime are the 12th
    // and 13th fields, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
    Duration::from_millis(ticks * 10)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a puzzle file");
    let workers = args.next().expect("the workers, e.g. learn,default");
    let mut sharing = None;
    let mut limits = Limits::none();
    for arg in args {
        if arg == "share" {
            sharing = Some(Sharing::default());
        } else if let Some(spec) = arg.strip_prefix("share=") {
            let (length, lbd) = spec.split_once(',').expect("share=LEN,LBD");
            sharing = Some(Sharing {
                max_length: length.parse().expect("a length"),
                max_lbd: lbd.parse().expect("a distance"),
            });
        } else if let Some(seconds) = arg.strip_prefix("cpu=") {
            limits = limits.with_cpu_time(Duration::from_secs_f64(seconds.parse().expect("seconds")));
        } else {
            panic!("unknown argument {arg}: share, share=LEN,LBD or cpu=SECONDS");
        }
    }
    let file = std::fs::File::open(&path).expect("readable");
    let puzzles: Vec<Grid> =
        PuzzleReader::new(std::io::BufReader::new(file)).map(|p| p.expect("a valid puzzle").grid).collect();
    for (i, grid) in puzzles.iter().enumerate() {
        let side = grid.side();
        let configs: Vec<csp::SolveConfig> = workers
            .split(',')
            .map(|name| match name {
                "learn" => learning_config(side),
                "default" => default_config(side),
                "aplaces" => learning_config(side).with_var_order(VarOrder::AlternatePlaces),
                other => panic!("unknown worker {other}: learn, default or aplaces"),
            })
            .map(|config| config.with_limits(limits))
            .collect();
        let model = SudokuModel::unlabelled_with(grid, Units::AllDifferents).expect("a valid model");
        let (wall, cpu) = (Instant::now(), cpu_time());
        let run =
            Portfolio::new(model.model(), configs).expect("workers").with_sharing(sharing).solve().expect("solved");
        let (wall, cpu) = (wall.elapsed(), cpu_time() - cpu);
        let outcome = match &run.outcome {
            Outcome::Solved(solution) => {
                assert!(model.model().is_solution(solution.values()), "a wrong solution");
                "solved".to_string()
            }
            other => format!("{other:?}"),
        };
        let stats = run.summed_stats();
        let nodes: Vec<String> = run.stats.iter().map(|s| s.nodes.to_string()).collect();
        println!(
            "{i}\t{outcome}\twinner {:?}\twall {:.2} s\tcpu {:.2} s\tnodes {} ({})\tlearnt {}\texported {}\timported {}",
            run.winner,
            wall.as_secs_f64(),
            cpu.as_secs_f64(),
            stats.nodes,
            nodes.join("+"),
            stats.learnt,
            stats.nogoods_exported,
            stats.nogoods_imported
        );
    }
}
