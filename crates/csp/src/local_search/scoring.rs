//! How a step scores the candidate values of a variable: window by window
//! in large domains, the free values first when a counter keeps them.

use super::LocalSearch;
use crate::domain::Domain;

/// The most candidate values one step scores. Larger domains are sampled, in
/// windows starting at random places.
const MAX_SCAN: u64 = 1 << 22;

/// The first window of candidate values a step scores.
const FIRST_WINDOW: u64 = 16;

/// A step accepts a sideways move (one that keeps the total) once it has scored
/// this many values without finding a better one.
const SIDEWAYS_AFTER: u64 = 1024;

/// Values are scored in chunks of this many (the size of the score buffer).
const CHUNK: usize = 4096;

/// The best candidate seen so far in a step.
struct Best {
    delta: i64,
    value: Option<i64>,
    /// How many candidates share `delta`.
    ties: u64,
}

impl LocalSearch<'_> {
    /// A random value of `x`'s domain other than its current one.
    pub(super) fn random_value(&mut self, x: usize) -> Option<i64> {
        let domain = &self.model.domains()[x];
        let size = domain.size();
        if size < 2 {
            return None;
        }
        let current = domain.position(self.values[x]).expect("the value is in the domain");
        let mut pos = self.rng.below(size - 1);
        if pos >= current {
            pos += 1;
        }
        self.stats.evaluations += 1;
        domain.nth(pos)
    }

    /// The min-conflicts choice for `x`, which holds `from` (or nothing yet): the
    /// value other than `from` with the smallest change of violation, ties broken
    /// at random, and that change; scored window by window (see the module docs).
    /// `None` when there is no other value.
    pub(super) fn best_value(&mut self, x: usize, from: Option<i64>) -> Option<(i64, i64)> {
        let model = self.model;
        let domain = &model.domains()[x];
        let size = domain.size();
        let candidates = size - u64::from(from.is_some());
        if candidates == 0 {
            return None;
        }
        // No move can do better than leave `x` without conflicts.
        let perfect = match from {
            Some(_) => -(self.conflicts(x).min(i64::MAX as u64) as i64),
            None => 0,
        };
        let current = from.map(|value| domain.position(value).expect("the value is in the domain"));
        let budget = size.min(MAX_SCAN);
        let mut best = Best { delta: i64::MAX, value: None, ties: 0 };
        if self.try_free_values(x, from, domain, &mut best) <= perfect {
            return best.value.map(|value| (value, best.delta));
        }
        let offset = self.rng.below(size);
        let mut scanned = 0u64;
        let mut window = FIRST_WINDOW;
        if self.scores.len() < CHUNK {
            self.scores.resize(CHUNK, 0);
        }
        while scanned < budget {
            let len = window.min(budget - scanned);
            // Positions `offset + scanned ..` of the domain, wrapping around.
            let mut done = 0;
            while done < len {
                let begin = (offset + scanned + done) % size;
                let chunk = (len - done).min(size - begin).min(CHUNK as u64);
                self.score_chunk(x, from, current, domain, begin, chunk as usize, &mut best);
                done += chunk;
            }
            scanned += len;
            self.stats.evaluations += len;
            // Widen while nothing better than a worsening (or, after a while, a
            // sideways) move is known; stop at once for an improving one.
            if best.delta <= perfect || best.delta < 0 || (best.delta == 0 && scanned >= SIDEWAYS_AFTER) {
                break;
            }
            window = window.saturating_mul(4);
        }
        best.value.map(|value| (value, best.delta))
    }

    /// Scores the shortest list of free values that a counter of `x` offers, if
    /// it is much shorter than the domain, from a random place until a value
    /// leaves `x` without conflicts; returns the best change found (or `i64::MAX`).
    fn try_free_values(&mut self, x: usize, from: Option<i64>, domain: &Domain, best: &mut Best) -> i64 {
        let incident = self.start[x]..self.start[x + 1];
        let mut shortest: Option<(u32, u32, usize)> = None;
        for &(c, p) in &self.incidence[incident.clone()] {
            if let Some(list) = self.counters[c as usize].free_values(p as usize) {
                if (list.len() as u64).saturating_mul(4) < domain.size() && shortest.is_none_or(|s| list.len() < s.2) {
                    shortest = Some((c, p, list.len()));
                }
            }
        }
        let Some((c, p, len)) = shortest else { return i64::MAX };
        let perfect = match from {
            Some(_) => -(self.conflicts(x).min(i64::MAX as u64) as i64),
            None => 0,
        };
        let begin = if len > 0 { self.rng.below(len as u64) as usize } else { 0 };
        for j in 0..len {
            let k = (begin + j) % len;
            let value = self.counters[c as usize].free_values(p as usize).expect("the list is still there").get(k);
            if from == Some(value) || !domain.contains(value) {
                continue;
            }
            let mut delta = 0i64;
            for &(c, p) in &self.incidence[incident.clone()] {
                delta = delta.saturating_add(self.counters[c as usize].delta(p as usize, from, value));
            }
            self.stats.evaluations += 1;
            if delta < best.delta {
                *best = Best { delta, value: Some(value), ties: 1 };
            } else if delta == best.delta {
                best.ties += 1;
                if self.rng.below(best.ties) == 0 {
                    best.value = Some(value);
                }
            }
            if best.delta <= perfect {
                break;
            }
        }
        best.delta
    }

    /// Scores the domain positions `begin .. begin + len` of `x` (without
    /// wrapping), skipping `current`, and keeps the best in `best`.
    #[expect(clippy::too_many_arguments, reason = "one step's state, passed down to its inner loop")]
    fn score_chunk(
        &mut self,
        x: usize,
        from: Option<i64>,
        current: Option<u64>,
        domain: &Domain,
        begin: u64,
        len: usize,
        best: &mut Best,
    ) {
        let scores = &mut self.scores[..len];
        scores.iter_mut().for_each(|s| *s = 0);
        let consecutive = domain.sparse_values().is_none();
        let first = domain.nth(begin).expect("a position within the domain");
        for &(c, p) in &self.incidence[self.start[x]..self.start[x + 1]] {
            let counter = &mut self.counters[c as usize];
            if consecutive {
                counter.add_deltas(p as usize, from, first, scores);
            } else {
                for (k, score) in scores.iter_mut().enumerate() {
                    let to = domain.nth(begin + k as u64).expect("a position within the domain");
                    *score += counter.delta(p as usize, from, to);
                }
            }
        }
        if let Some(current) = current.filter(|c| (begin..begin + len as u64).contains(c)) {
            scores[(current - begin) as usize] = i64::MAX;
        }
        let low = scores.iter().copied().min().unwrap_or(i64::MAX);
        if low == i64::MAX || low > best.delta {
            return;
        }
        // A random one among the chunk's ties, which join the earlier ones (of
        // the same score) by reservoir sampling.
        let tied = scores.iter().filter(|&&s| s == low).count() as u64;
        if low < best.delta {
            *best = Best { delta: low, value: None, ties: 0 };
        }
        let previous = best.ties;
        best.ties += tied;
        let pick = self.rng.below(best.ties);
        if pick >= previous {
            let k = scores
                .iter()
                .enumerate()
                .filter(|&(_, &s)| s == low)
                .nth((pick - previous) as usize)
                .map(|(k, _)| k)
                .expect("a tied position");
            best.value = domain.nth(begin + k as u64);
        }
    }
}
