//! The job-shop model, shared by the example and `benches/scheduling.rs`:
//! ft06's jobs, and the model of a job shop whose makespan is minimised under
//! a bound (a `disjunctive` per machine, precedences as `linear`).

use csp::{Model, ModelError, Relation, VarId};

/// ft06: for each job, its operations in order as `(machine, duration)`.
const FT06: [[(usize, i64); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// A job-shop instance with a bound on the makespan.
#[derive(Clone, Debug)]
pub(crate) struct JobShop {
    /// For each job, its operations in order as `(machine, duration)`.
    pub(crate) jobs: Vec<Vec<(usize, i64)>>,
    /// The latest time every job must have ended by.
    pub(crate) bound: i64,
}

impl JobShop {
    /// ft06 with every job done by `bound`, by default the sum of the
    /// durations (every operation one after the other: a schedule that always
    /// exists).
    pub(crate) fn ft06(bound: Option<i64>) -> JobShop {
        let jobs: Vec<Vec<(usize, i64)>> = FT06.iter().map(|job| job.to_vec()).collect();
        let bound = bound.unwrap_or_else(|| jobs.iter().flatten().map(|&(_, d)| d).sum());
        JobShop { jobs, bound }
    }

    /// How many machines the jobs use.
    pub(crate) fn machines(&self) -> usize {
        self.jobs.iter().flatten().map(|&(machine, _)| machine + 1).max().unwrap_or(0)
    }

    /// The model (see the example's docs): the start of operation `k` of job `j`
    /// is named `s{j}_{k}`, and the makespan `makespan`.
    pub(crate) fn build(&self) -> Result<Model, ModelError> {
        let mut model = Model::new();
        let mut starts = Vec::new();
        for (j, job) in self.jobs.iter().enumerate() {
            let total: i64 = job.iter().map(|&(_, d)| d).sum();
            let mut before = 0;
            let mut row = Vec::new();
            for (k, &(_, duration)) in job.iter().enumerate() {
                // Room for the operations before it and after it.
                let after = total - before;
                row.push(model.new_named_var(format!("s{j}_{k}"), before..=self.bound - after)?);
                before += duration;
            }
            for (k, pair) in row.windows(2).enumerate() {
                // s[k] + d[k] <= s[k + 1]
                model.linear(&[(1, pair[0]), (-1, pair[1])], Relation::Le, -job[k].1)?;
            }
            starts.push(row);
        }
        for machine in 0..self.machines() {
            let (on, durations): (Vec<VarId>, Vec<i64>) = self
                .jobs
                .iter()
                .zip(&starts)
                .flat_map(|(job, row)| job.iter().zip(row).filter(|((m, _), _)| *m == machine))
                .map(|(&(_, duration), &start)| (start, duration))
                .unzip();
            let id = model.disjunctive(&on, &durations)?;
            model.set_label(id, format!("machine {machine}"))?;
        }
        let makespan = model.new_named_var("makespan", 0..=self.bound)?;
        for (job, row) in self.jobs.iter().zip(&starts) {
            if let (Some(&last), Some(&(_, duration))) = (row.last(), job.last()) {
                // last + duration <= makespan
                model.linear(&[(1, last), (-1, makespan)], Relation::Le, -duration)?;
            }
        }
        model.minimize(makespan)?;
        Ok(model)
    }
}
