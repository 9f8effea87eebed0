//! Seeds for randomised configurations (`--seeds LIST`): every configuration
//! that draws at random ([`csp::SolveConfig::draws_at_random`]: the `random`
//! value order, rephasing under learning) is run once per seed, as
//! `CONFIG+seed=N`, and the runs of its seeds are summarised together: per
//! instance, how many seeds solved it and the median and range of their
//! nodes and CPU times; per seed, how many instances it solved. A
//! deterministic configuration runs once, as without `--seeds`.
//!
//! One seed's run is one sample of a randomised algorithm: a comparison of
//! a single seed compares luck as much as strategies.

use std::str::FromStr;

use csp::SolveConfig;

use crate::lab::stats::{Sample, Summary};
use crate::report::compare::{Comparison, Measurement};
use crate::report::{Cell, Table, millis};

/// The most seeds a list may name.
pub const MAX_SEEDS: u64 = 10_000;

/// The seeds of `--seeds`, in the order given, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seeds(Vec<u64>);

/// Why a list of seeds, or a configuration to run under them, is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedsError {
    /// No seed at all (an empty list, or an empty item between commas).
    #[error("the list of seeds is empty: write seeds as N, A-B or a list of them, such as 1-10 or 1,4,9")]
    Empty,
    /// An item that is neither a number nor a range.
    #[error("'{item}' is not a seed: write a whole number from 0 to 2^64 - 1, or a range A-B")]
    NotASeed {
        /// The item.
        item: String,
    },
    /// A range whose end comes before its start.
    #[error("the range of seeds {start}-{end} is reversed: write {end}-{start}")]
    Reversed {
        /// Its first seed.
        start: u64,
        /// Its last seed.
        end: u64,
    },
    /// A seed named twice.
    #[error("the seed {seed} is named twice")]
    Repeated {
        /// The seed.
        seed: u64,
    },
    /// More than [`MAX_SEEDS`] seeds.
    #[error("{count} seeds are too many (at most {MAX_SEEDS})")]
    TooMany {
        /// How many the list names.
        count: u64,
    },
    /// A configuration that names its seed already.
    #[error(
        "{config} names its seed already, and --seeds would run it under other seeds: leave seed=N out of --configs"
    )]
    SeedGiven {
        /// The configuration, in canonical spelling.
        config: String,
    },
}

impl Seeds {
    /// The seeds, in the order given.
    pub fn as_slice(&self) -> &[u64] {
        &self.0
    }
}

impl FromStr for Seeds {
    type Err = SeedsError;

    /// `N`, `A-B` (both ends included) or a comma-separated list of them.
    fn from_str(text: &str) -> Result<Seeds, SeedsError> {
        let mut seeds: Vec<u64> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(SeedsError::Empty);
            }
            let number =
                |part: &str| part.trim().parse::<u64>().map_err(|_| SeedsError::NotASeed { item: item.to_string() });
            let (start, end) = match item.split_once('-') {
                Some((start, end)) => (number(start)?, number(end)?),
                None => (number(item)?, number(item)?),
            };
            if end < start {
                return Err(SeedsError::Reversed { start, end });
            }
            let count = (seeds.len() as u64).saturating_add((end - start).saturating_add(1));
            if count > MAX_SEEDS {
                return Err(SeedsError::TooMany { count });
            }
            for seed in start..=end {
                if seeds.contains(&seed) {
                    return Err(SeedsError::Repeated { seed });
                }
                seeds.push(seed);
            }
        }
        Ok(Seeds(seeds))
    }
}

/// `configs` with each that draws at random replaced by its runs under
/// `seeds`, `CONFIG+seed=N` in the order of the seeds; the others as they
/// are. A configuration whose seed is not the default (0) is refused: its
/// spelling says one seed, `--seeds` others.
pub fn expand(configs: &[SolveConfig], seeds: &Seeds) -> Result<Vec<SolveConfig>, SeedsError> {
    let mut expanded = Vec::new();
    for config in configs {
        if config.seed != 0 {
            return Err(SeedsError::SeedGiven { config: config.to_string() });
        }
        if config.draws_at_random() {
            expanded.extend(seeds.0.iter().map(|&seed| config.clone().with_seed(seed)));
        } else {
            expanded.push(config.clone());
        }
    }
    Ok(expanded)
}

/// The runs of one randomised configuration under every seed.
struct Group<'a> {
    /// The configuration without its seed.
    config: SolveConfig,
    /// Per seed, in order: the seed and its measurements (one per instance).
    runs: Vec<(u64, &'a [Measurement])>,
}

/// The configurations of `comparison` that ran under several seeds, each
/// with its seeds' measurements, in the order of their first seed.
fn groups(comparison: &Comparison) -> Vec<Group<'_>> {
    let mut groups: Vec<Group<'_>> = Vec::new();
    for (row, measurements) in comparison.rows.iter().zip(&comparison.measurements) {
        if !row.config.draws_at_random() {
            continue;
        }
        let base = row.config.clone().with_seed(0);
        let run = (row.config.seed, measurements.as_slice());
        match groups.iter_mut().find(|group| group.config == base) {
            Some(group) => group.runs.push(run),
            None => groups.push(Group { config: base, runs: vec![run] }),
        }
    }
    groups
}

/// A median (Hyndman & Fan type 7: the mean of the middle two of an even
/// count) with the least and the most value, of runs some of which a limit
/// stopped: their values are lower bounds, and so is a statistic that reads
/// one, written `>=`. `decimals` of the median and of the range in the
/// text table.
fn spread(samples: &[Sample], (decimals, range_decimals): (usize, usize)) -> [Cell; 3] {
    let summary = Summary::of(samples);
    let lowest = samples.iter().map(|s| s.value).fold(f64::INFINITY, f64::min);
    let highest = samples.iter().map(|s| s.value).fold(f64::NEG_INFINITY, f64::max);
    let cell = |value: f64, lower_bound: bool, decimals: usize| {
        let number = Cell::Float(value, decimals);
        if lower_bound { Cell::text(format!(">={}", number.display())) } else { number }
    };
    [
        cell(summary.median.value, summary.median.lower_bound, decimals),
        // The least is a lower bound only when every run at it was stopped
        // (a finished run at the same value is exact and below any raise).
        cell(lowest, samples.iter().filter(|s| s.value == lowest).all(|s| s.lower_bound), range_decimals),
        cell(highest, samples.iter().any(|s| s.lower_bound), range_decimals),
    ]
}

/// Per randomised configuration and instance: the seeds run, how many
/// solved it, how many a limit stopped, and the median, least and most
/// nodes and CPU milliseconds (wall-clock without a CPU clock) over the
/// seeds, `>=` where a stopped run makes the statistic a lower bound.
/// `None` when no configuration ran under several seeds.
pub fn across_seeds(comparison: &Comparison) -> Option<Table> {
    let groups = groups(comparison);
    if groups.is_empty() {
        return None;
    }
    let cpu = comparison.measurements.iter().flatten().all(|m| m.cpu_time.is_some());
    let clock = if cpu { "cpu_ms" } else { "time_ms" };
    let columns = vec![
        "config".to_string(),
        "instance".to_string(),
        "seeds".to_string(),
        "solved".to_string(),
        "limited".to_string(),
        "nodes_median".to_string(),
        "nodes_min".to_string(),
        "nodes_max".to_string(),
        format!("{clock}_median"),
        format!("{clock}_min"),
        format!("{clock}_max"),
    ];
    let mut table = Table::new(columns).with_title(format!(
        "across seeds: per randomised configuration and instance, the seeds that solved it, those a limit stopped, \
         and the median (the mean of the middle two of an even count), least and most nodes and {} over the seeds \
         (>= a lower bound: a limit stopped a run it reads)",
        if cpu { "CPU milliseconds" } else { "milliseconds" }
    ));
    for group in &groups {
        for (i, instance) in comparison.instances.iter().enumerate() {
            let runs: Vec<&Measurement> = group.runs.iter().map(|(_, measurements)| &measurements[i]).collect();
            let sample = |value: f64, m: &Measurement| Sample { value, lower_bound: m.is_limited() };
            let nodes: Vec<Sample> = runs.iter().map(|m| sample(m.stats.nodes as f64, m)).collect();
            let times: Vec<Sample> = runs
                .iter()
                .map(|m| sample(millis(if cpu { m.cpu_time.unwrap_or(m.time) } else { m.time }), m))
                .collect();
            let mut cells = vec![
                Cell::text(group.config.to_string()),
                Cell::text(instance.as_str()),
                Cell::Int(runs.len() as u64),
                Cell::Int(runs.iter().filter(|m| m.solved).count() as u64),
                Cell::Int(runs.iter().filter(|m| m.is_limited()).count() as u64),
            ];
            cells.extend(spread(&nodes, (1, 0)));
            cells.extend(spread(&times, (3, 3)));
            table.push(cells);
        }
    }
    Some(table)
}

/// Per randomised configuration, the instances each seed solved (one
/// column per seed, `seed=N`), then the least, median and most of those
/// counts. `None` when no configuration ran under several seeds.
pub fn solved_per_seed(comparison: &Comparison) -> Option<Table> {
    let groups = groups(comparison);
    let first = groups.first()?;
    let mut columns = vec!["config".to_string()];
    columns.extend(first.runs.iter().map(|(seed, _)| format!("seed={seed}")));
    columns.extend(["min", "median", "max"].map(String::from));
    let mut table =
        Table::new(columns).with_title(format!("instances solved under each seed, of {}", comparison.instances.len()));
    for group in &groups {
        let solved: Vec<f64> = group
            .runs
            .iter()
            .map(|(_, measurements)| measurements.iter().filter(|m| m.solved).count() as f64)
            .collect();
        let mut cells = vec![Cell::text(group.config.to_string())];
        cells.extend(solved.iter().map(|&count| Cell::Int(count as u64)));
        let samples: Vec<Sample> = solved.iter().map(|&value| Sample { value, lower_bound: false }).collect();
        let summary = Summary::of(&samples);
        let (lowest, highest) =
            (solved.iter().copied().fold(f64::INFINITY, f64::min), solved.iter().copied().fold(0.0, f64::max));
        cells.extend([Cell::Int(lowest as u64), Cell::Float(summary.median.value, 1), Cell::Int(highest as u64)]);
        table.push(cells);
    }
    Some(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds(text: &str) -> Result<Vec<u64>, SeedsError> {
        text.parse::<Seeds>().map(|seeds| seeds.0)
    }

    #[test]
    fn lists_and_ranges_of_seeds() {
        assert_eq!(seeds("1-10").unwrap(), (1..=10).collect::<Vec<_>>());
        assert_eq!(seeds("1,4,9").unwrap(), [1, 4, 9]);
        assert_eq!(seeds(" 7 ").unwrap(), [7]);
        assert_eq!(seeds("5-5,0,2-3").unwrap(), [5, 0, 2, 3]);
    }

    #[test]
    fn empty_reversed_repeated_and_odd_lists_are_refused_by_name() {
        assert_eq!(seeds(""), Err(SeedsError::Empty));
        assert_eq!(seeds("1,,2"), Err(SeedsError::Empty));
        assert_eq!(seeds("10-1"), Err(SeedsError::Reversed { start: 10, end: 1 }));
        assert_eq!(seeds("1-3,2"), Err(SeedsError::Repeated { seed: 2 }));
        assert_eq!(seeds("x"), Err(SeedsError::NotASeed { item: "x".into() }));
        assert_eq!(seeds("-1"), Err(SeedsError::NotASeed { item: "-1".into() }));
        assert_eq!(seeds("0-18446744073709551615"), Err(SeedsError::TooMany { count: u64::MAX }));
        assert!(seeds("10-1").unwrap_err().to_string().contains("reversed: write 1-10"));
    }

    #[test]
    fn only_randomised_configurations_run_under_each_seed() {
        let configs: Vec<SolveConfig> =
            ["fc+mrv", "mac+mrv+random", "mac+learn+vsids+phase+rephase"].iter().map(|c| c.parse().unwrap()).collect();
        let expanded = expand(&configs, &"3,1".parse().unwrap()).unwrap();
        let names: Vec<String> = expanded.iter().map(|c| c.to_string()).collect();
        assert_eq!(names.len(), 5, "{names:?}");
        assert_eq!(names[0], "fc+mrv+pairwise");
        assert!(names[1].ends_with("+seed=3") && names[2].ends_with("+seed=1"), "{names:?}");
        assert!(names[3].contains("rephase") && names[3].ends_with("+seed=3"), "{names:?}");
        let given: Vec<SolveConfig> = vec!["mac+random+seed=2".parse().unwrap()];
        let error = expand(&given, &"1-2".parse().unwrap()).unwrap_err();
        assert!(matches!(error, SeedsError::SeedGiven { .. }), "{error}");
    }
}
