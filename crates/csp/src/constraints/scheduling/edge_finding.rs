//! Edge-finding on a disjunctive resource with Vilím's Θ-Λ-tree (Vilím,
//! "Filtering algorithms for the unary resource constraint", Archives of
//! Control Sciences 2008; Vilím, Barták & Čepek, "Extension of O(n log n)
//! filtering algorithms for the unary resource constraint to optional
//! activities", Constraints 2005), in `O(n log n)`, with its overload check.
//!
//! The rule: if a set `Ω` of tasks and one more task `i` cannot all end by
//! `lct(Ω)` when `i` goes first or among them (`ECT(Ω ∪ {i}) > lct(Ω)`), then
//! `i` comes after all of `Ω`, and starts no earlier than `ECT(Ω)`. The tree
//! holds the tasks in order of earliest start; `Θ` (white) are the tasks of
//! `Ω`, `Λ` (gray) the candidates for `i`, and every node keeps the total
//! duration and the earliest completion of its subtree, with and without one
//! gray task. The same tree (white leaves only) then finds the detectable
//! precedences (see [`EdgeFinder::detectable_precedences`]). The latest
//! completions are found by the same passes on the mirrored tasks (time
//! negated).

use super::TaskBounds;

/// No task.
const NONE: u32 = u32::MAX;
/// Minus infinity for completion times: far below any time, and safe to
/// add durations to (times and durations are at most `2^63` in magnitude,
/// and there are fewer than `2^32` tasks).
const NEG: i128 = i128::MIN / 4;

/// A node of the Θ-Λ-tree: the durations and earliest completion of the
/// white tasks below it, the same with at most one gray task, and the gray
/// task responsible for each.
#[derive(Clone, Copy, Debug)]
struct Node {
    duration: i128,
    ect: i128,
    gray_duration: i128,
    gray_ect: i128,
    duration_by: u32,
    ect_by: u32,
}

const EMPTY: Node = Node { duration: 0, ect: NEG, gray_duration: 0, gray_ect: NEG, duration_by: NONE, ect_by: NONE };

impl Node {
    fn combine(left: &Node, right: &Node) -> Node {
        let (gray_duration, duration_by) = if left.gray_duration + right.duration >= left.duration + right.gray_duration
        {
            (left.gray_duration + right.duration, left.duration_by)
        } else {
            (left.duration + right.gray_duration, right.duration_by)
        };
        let mut gray = (right.gray_ect, right.ect_by);
        if left.ect + right.gray_duration > gray.0 {
            gray = (left.ect + right.gray_duration, right.duration_by);
        }
        if left.gray_ect + right.duration > gray.0 {
            gray = (left.gray_ect + right.duration, left.ect_by);
        }
        Node {
            duration: left.duration + right.duration,
            ect: right.ect.max(left.ect + right.duration),
            gray_duration,
            gray_ect: gray.0,
            duration_by,
            ect_by: gray.1,
        }
    }
}

/// The tree over a fixed order of tasks (by earliest start), with its buffers.
#[derive(Debug, Default)]
struct ThetaLambdaTree {
    /// Node 1 is the root; the leaves are `leaves..2 * leaves`.
    nodes: Vec<Node>,
    leaves: usize,
}

impl ThetaLambdaTree {
    fn reset(&mut self, count: usize) {
        self.leaves = count.next_power_of_two().max(1);
        self.nodes.clear();
        self.nodes.resize(2 * self.leaves, EMPTY);
    }

    /// Sets leaf `rank` and updates its ancestors.
    fn set(&mut self, rank: usize, node: Node) {
        let mut k = self.leaves + rank;
        self.nodes[k] = node;
        while k > 1 {
            k /= 2;
            self.nodes[k] = Node::combine(&self.nodes[2 * k], &self.nodes[2 * k + 1]);
        }
    }

    /// Builds every inner node at once (after setting the leaves directly).
    fn rebuild(&mut self) {
        for k in (1..self.leaves).rev() {
            self.nodes[k] = Node::combine(&self.nodes[2 * k], &self.nodes[2 * k + 1]);
        }
    }

    fn root(&self) -> &Node {
        &self.nodes[1]
    }
}

fn white(task: &TaskBounds) -> Node {
    let ect = task.ect();
    Node { duration: task.duration, ect, gray_duration: task.duration, gray_ect: ect, duration_by: NONE, ect_by: NONE }
}

fn gray(task: &TaskBounds, id: u32) -> Node {
    Node { duration: 0, ect: NEG, gray_duration: task.duration, gray_ect: task.ect(), duration_by: id, ect_by: id }
}

/// Edge-finding and detectable precedences, with their reusable buffers.
#[derive(Debug, Default)]
pub(super) struct EdgeFinder {
    tree: ThetaLambdaTree,
    by_est: Vec<u32>,
    rank: Vec<u32>,
    by_lct: Vec<u32>,
    by_ect: Vec<u32>,
    by_lst: Vec<u32>,
    in_theta: Vec<bool>,
    mirrored: Vec<TaskBounds>,
    /// The mirrored tasks' earliest starts: latest completions, negated.
    latest: Vec<i128>,
}

/// What edge-finding found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// The tasks cannot all fit (the overload check).
    Overload,
    /// New bounds were written into the given arrays (maybe none).
    Bounds,
}

impl EdgeFinder {
    /// Raises `est[k]` (initially the tasks' own earliest starts) to what
    /// edge-finding and detectable precedences deduce for `tasks[k]`, and
    /// lowers `lst[k]` likewise, for tasks of positive duration that must not
    /// overlap.
    pub(super) fn run(&mut self, tasks: &[TaskBounds], est: &mut [i128], lst: &mut [i128]) -> Verdict {
        if self.forward(tasks, est) == Verdict::Overload {
            return Verdict::Overload;
        }
        // Mirror the time axis: a latest completion is an earliest start negated.
        let mut mirrored = std::mem::take(&mut self.mirrored);
        mirrored.clear();
        mirrored.extend(tasks.iter().map(|t| TaskBounds { est: -t.lct(), lst: -t.ect(), ..*t }));
        let mut latest = std::mem::take(&mut self.latest);
        latest.clear();
        latest.extend(mirrored.iter().map(|t| t.est));
        let verdict = self.forward(&mirrored, &mut latest);
        for ((bound, task), mirrored_est) in lst.iter_mut().zip(tasks).zip(&latest) {
            // A mirrored earliest start `e` is a latest completion `-e`.
            *bound = (*bound).min(-mirrored_est - task.duration);
        }
        self.mirrored = mirrored;
        self.latest = latest;
        verdict
    }

    /// The forward pass: edge-finding (with its overload check), then
    /// detectable precedences; raises `est`.
    fn forward(&mut self, tasks: &[TaskBounds], est: &mut [i128]) -> Verdict {
        let n = tasks.len();
        self.by_est.clear();
        self.by_est.extend(0..n as u32);
        self.by_est.sort_unstable_by_key(|&k| tasks[k as usize].est);
        self.rank.clear();
        self.rank.resize(n, 0);
        for (r, &k) in self.by_est.iter().enumerate() {
            self.rank[k as usize] = r as u32;
        }
        self.by_lct.clear();
        self.by_lct.extend(0..n as u32);
        self.by_lct.sort_unstable_by_key(|&k| std::cmp::Reverse(tasks[k as usize].lct()));
        self.tree.reset(n);
        for (r, &k) in self.by_est.iter().enumerate() {
            self.tree.nodes[self.tree.leaves + r] = white(&tasks[k as usize]);
        }
        self.tree.rebuild();
        for &j in &self.by_lct {
            let lct = tasks[j as usize].lct();
            // Θ: the tasks with a latest completion at most lct(j) (the white leaves).
            if self.tree.root().ect > lct {
                return Verdict::Overload;
            }
            while self.tree.root().gray_ect > lct {
                let i = self.tree.root().ect_by;
                debug_assert_ne!(i, NONE, "a gray completion above every white one has a gray task");
                let bound = self.tree.root().ect;
                est[i as usize] = est[i as usize].max(bound);
                self.tree.set(self.rank[i as usize] as usize, EMPTY);
            }
            self.tree.set(self.rank[j as usize] as usize, gray(&tasks[j as usize], j));
        }
        self.detectable_precedences(tasks, est);
        Verdict::Bounds
    }

    /// Detectable precedences (Vilím, "O(n log n) filtering algorithms for
    /// unary resource constraint", CPAIOR 2004): when task `i` cannot end
    /// before task `j` must start (`ect(i) > lst(j)`), `j` precedes `i`; so `i`
    /// starts no earlier than the earliest completion of all the tasks that
    /// precede it this way. The tasks are taken by earliest completion, and
    /// the tasks that precede them join `Θ` (white leaves, by earliest start)
    /// in order of latest start. Uses the ranks `forward` computed.
    fn detectable_precedences(&mut self, tasks: &[TaskBounds], est: &mut [i128]) {
        let n = tasks.len();
        self.by_ect.clear();
        self.by_ect.extend(0..n as u32);
        self.by_ect.sort_unstable_by_key(|&k| tasks[k as usize].ect());
        self.by_lst.clear();
        self.by_lst.extend(0..n as u32);
        self.by_lst.sort_unstable_by_key(|&k| tasks[k as usize].lst);
        self.in_theta.clear();
        self.in_theta.resize(n, false);
        self.tree.reset(n);
        let mut next = 0;
        for &i in &self.by_ect {
            let task = &tasks[i as usize];
            while let Some(&j) = self.by_lst.get(next) {
                if task.ect() <= tasks[j as usize].lst {
                    break;
                }
                self.tree.set(self.rank[j as usize] as usize, white(&tasks[j as usize]));
                self.in_theta[j as usize] = true;
                next += 1;
            }
            // The earliest completion of Θ without i itself.
            let rank = self.rank[i as usize] as usize;
            let bound = if self.in_theta[i as usize] {
                self.tree.set(rank, EMPTY);
                let bound = self.tree.root().ect;
                self.tree.set(rank, white(task));
                bound
            } else {
                self.tree.root().ect
            };
            est[i as usize] = est[i as usize].max(bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(est: i128, lst: i128, duration: i128) -> TaskBounds {
        TaskBounds { est, lst, duration, height: 1 }
    }

    #[test]
    fn a_task_that_cannot_go_first_goes_last() {
        // Vilím's example shape: A and B fit in [0, 11) only without C, whose
        // window [4, 30) would let it go first if it fit: it goes after both.
        let tasks = [task(0, 6, 5), task(1, 7, 4), task(4, 27, 3)];
        let mut est: Vec<i128> = tasks.iter().map(|t| t.est).collect();
        let mut lst: Vec<i128> = tasks.iter().map(|t| t.lst).collect();
        let verdict = EdgeFinder::default().run(&tasks, &mut est, &mut lst);
        assert_eq!(verdict, Verdict::Bounds);
        assert_eq!(est, vec![0, 1, 9]);
    }

    #[test]
    fn too_much_work_in_a_window_is_an_overload() {
        let tasks = [task(0, 2, 3), task(0, 2, 3)];
        let mut est = vec![0, 0];
        let mut lst = vec![2, 2];
        assert_eq!(EdgeFinder::default().run(&tasks, &mut est, &mut lst), Verdict::Overload);
    }

    #[test]
    fn a_precedence_moves_both_tasks() {
        // A (length 8) must run within [0, 10), B (length 4) within [0, 12):
        // B cannot go first (0 + 4 + 8 > 10), so it starts at 8 or later,
        // and A, which must end before B starts (by 8), starts at 0.
        let tasks = [task(0, 2, 8), task(0, 8, 4)];
        let mut est = vec![0, 0];
        let mut lst = vec![2, 8];
        assert_eq!(EdgeFinder::default().run(&tasks, &mut est, &mut lst), Verdict::Bounds);
        assert_eq!((est[1], lst[0]), (8, 0));
    }
}
