//! dom/wdeg's and dom/ddeg's choice without a pass over the free variables:
//! a binary heap of the free variables by their ratio of size to degree
//! (compared exactly, by cross-multiplying, ties to the smallest index, as
//! the pass does), and the free list kept by the changes alone.
//!
//! Each variable in the heap holds a key taken at some moment: never larger
//! than its ratio now. A key is brought down to the ratio when the ratio
//! falls: the domain narrows (the variables the trail recorded since the
//! last choice) or the degree rises (those the future degrees note). A
//! ratio that grows (a backtrack widens the domain, a constraint stops
//! counting) leaves the key low; the top is then checked against its ratio
//! now, and sinks with it until a top holds its ratio: that top is the
//! smallest ratio of all, as every other is at least its key.
//!
//! The free list (a sparse set whose count is trailed, so a backtrack
//! brings back the variables dropped) drops, at a choice, the variables of
//! the changes recorded since the latest choice the trail was not undone
//! below (a [`ChangePoint`] per choice on a stack) that are now assigned; a
//! choice with no such point (the first of a run, after a snapshot) passes
//! over the whole list once. A choice then costs a logarithm per change,
//! not a step per free variable: where there are few of those (huge
//! models) this wins, and a small model keeps the plain pass. In
//! debug builds and under `checks` every choice is checked against the pass.

use crate::kernel::{ChangePoint, State};

/// No place: the variable is not in the heap.
const NONE: u32 = u32::MAX;

/// The heap of the free variables by ratio, and what keeps the free list.
#[derive(Debug)]
pub(super) struct ChoiceQueue {
    /// Which sum of the future degrees divides the size: the weights
    /// (dom/wdeg) or the degrees (dom/ddeg).
    weighted: bool,
    /// The variables, a binary heap by key (the smallest first).
    heap: Vec<u32>,
    /// Per variable, its place in `heap` or [`NONE`], and its key (size,
    /// degree at least one).
    at: Vec<u32>,
    key: Vec<(u64, u64)>,
    /// Per variable, its place in the free list.
    free_at: Vec<u32>,
    /// The free list's count at the latest choice.
    counted: usize,
    /// The points of the choices not undone below, oldest first.
    points: Vec<ChangePoint>,
}

/// How many keys of a heap of `len` variables a choice changes one by one
/// (each a sift of up to a logarithm of steps) before it sets the rest and
/// rebuilds the heap (about `2 len` steps) instead.
fn sift_budget(len: usize) -> usize {
    len / (len.max(2).ilog2() as usize) + 1
}

impl ChoiceQueue {
    pub(super) fn new(num_vars: usize, weighted: bool) -> ChoiceQueue {
        ChoiceQueue {
            weighted,
            heap: Vec::with_capacity(num_vars),
            at: vec![NONE; num_vars],
            key: vec![(0, 1); num_vars],
            free_at: (0..num_vars as u32).collect(),
            counted: 0,
            points: Vec::with_capacity(num_vars + 1),
        }
    }

    /// Forgets every choice: at the start of a run (the free list is then
    /// `0..n` in some order, which `free_at` follows).
    pub(super) fn reset(&mut self) {
        for &x in &self.heap {
            self.at[x as usize] = NONE;
        }
        self.heap.clear();
        self.counted = 0;
        self.points.clear();
    }

    /// The key of `x` from its size and its future degree and weight.
    #[inline]
    fn key_of(&self, state: &State, x: u32, (degree, weight): (u64, u64)) -> (u64, u64) {
        let denominator = if self.weighted { weight } else { degree };
        (u64::from(state.size(x)), denominator.max(1))
    }

    /// Whether `a`'s key comes before `b`'s: the smaller ratio, ties to the
    /// smaller index.
    #[inline]
    fn precedes(&self, a: u32, b: u32) -> bool {
        let ((sa, da), (sb, db)) = (self.key[a as usize], self.key[b as usize]);
        let (left, right) = (u128::from(sa) * u128::from(db), u128::from(sb) * u128::from(da));
        left < right || (left == right && a < b)
    }

    /// Brings the free list up to date at a choice (`free[..before]` the
    /// list as the backtrack left it, the future degrees counted over it)
    /// and returns its new count; `free[count..before]` are the variables
    /// it dropped. `sums` gives a variable's future degree and weight.
    pub(super) fn compact(
        &mut self,
        state: &State,
        free: &mut [u32],
        before: usize,
        sums: impl Fn(u32) -> (u64, u64),
    ) -> usize {
        while self.points.last().is_some_and(|&point| state.undone_below(point)) {
            self.points.pop();
        }
        let mut count = before;
        match self.points.last() {
            Some(&point) => {
                // The ones that came back follow those still counted. One
                // may be assigned at the point (a property test found it
                // under branch and bound's bisection with restarts): it is
                // dropped, as the pass drops it.
                count = self.drop_assigned(state, free, self.counted, count);
                for &x in &free[self.counted..count] {
                    let key = self.key_of(state, x, sums(x));
                    self.push(x, key);
                }
                // Past `sifts` keys changed, the rest are only set and the
                // heap is rebuilt once (a decision that narrows most free
                // variables, as an all-different's value elimination does,
                // would sift each from a leaf towards the root: the trail
                // gives them children first).
                let mut sifts = sift_budget(self.heap.len());
                let mut deferred = false;
                state.changed_after(point, |x| {
                    let i = self.free_at[x as usize] as usize;
                    if i >= count {
                        return;
                    }
                    if state.size(x) <= 1 {
                        count -= 1;
                        self.swap(free, i, count);
                    } else {
                        let key = self.key_of(state, x, sums(x));
                        if sifts > 0 {
                            sifts -= 1;
                            self.update(x, key);
                        } else {
                            self.key[x as usize] = key;
                            deferred = true;
                        }
                    }
                });
                if deferred {
                    self.heapify();
                }
            }
            None => {
                count = self.drop_assigned(state, free, 0, count);
                self.reset();
                for &x in &free[..count] {
                    let key = self.key_of(state, x, sums(x));
                    self.push(x, key);
                }
            }
        }
        for &x in &free[count..before] {
            self.remove(x);
        }
        self.counted = count;
        count
    }

    /// Ends a choice's bookkeeping: the keys of the variables whose sums
    /// rose (`raised`, the future degrees' notes) come down, and the point
    /// the trail is at is kept.
    pub(super) fn settle(&mut self, state: &mut State, raised: impl FnOnce(&mut dyn FnMut(u32, (u64, u64)))) {
        raised(&mut |x, sums| {
            if self.at[x as usize] != NONE {
                let key = self.key_of(state, x, sums);
                self.update(x, key);
            }
        });
        self.points.push(state.change_point());
    }

    /// The free variable with the smallest ratio, ties to the smallest
    /// index; `None` when none is free.
    pub(super) fn best(&mut self, state: &State, sums: impl Fn(u32) -> (u64, u64)) -> Option<u32> {
        loop {
            let &top = self.heap.first()?;
            let key = self.key_of(state, top, sums(top));
            if key == self.key[top as usize] {
                return Some(top);
            }
            self.update(top, key);
        }
    }

    /// Moves the assigned variables of `free[from..count]` past the others
    /// and returns the count of those left.
    fn drop_assigned(&mut self, state: &State, free: &mut [u32], from: usize, mut count: usize) -> usize {
        let mut i = from;
        while i < count {
            if state.size(free[i]) > 1 {
                i += 1;
            } else {
                count -= 1;
                self.swap(free, i, count);
            }
        }
        count
    }

    /// Swaps places `i` and `j` of the free list.
    #[inline]
    fn swap(&mut self, free: &mut [u32], i: usize, j: usize) {
        free.swap(i, j);
        self.free_at[free[i] as usize] = i as u32;
        self.free_at[free[j] as usize] = j as u32;
    }

    fn push(&mut self, x: u32, key: (u64, u64)) {
        if self.at[x as usize] != NONE {
            self.update(x, key);
            return;
        }
        self.key[x as usize] = key;
        self.at[x as usize] = self.heap.len() as u32;
        self.heap.push(x);
        self.up(self.heap.len() - 1);
    }

    fn remove(&mut self, x: u32) {
        let i = self.at[x as usize];
        if i == NONE {
            return;
        }
        self.at[x as usize] = NONE;
        let last = self.heap.pop().expect("x is in the heap");
        if last != x {
            self.heap[i as usize] = last;
            self.at[last as usize] = i;
            let i = self.up(i as usize);
            self.down(i);
        }
    }

    /// Gives `x` (in the heap) the key `key`.
    fn update(&mut self, x: u32, key: (u64, u64)) {
        self.key[x as usize] = key;
        let i = self.up(self.at[x as usize] as usize);
        self.down(i);
    }

    /// Restores the heap order over the whole heap, whatever the keys
    /// (Floyd's construction: linear in the heap's length).
    fn heapify(&mut self) {
        for i in (0..self.heap.len() / 2).rev() {
            self.down(i);
        }
    }

    /// Moves the variable at place `i` up while it comes before its
    /// parent; returns its place.
    fn up(&mut self, mut i: usize) -> usize {
        let x = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !self.precedes(x, p) {
                break;
            }
            self.heap[i] = p;
            self.at[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = x;
        self.at[x as usize] = i as u32;
        i
    }

    /// Moves the variable at place `i` down while a child comes before it.
    fn down(&mut self, mut i: usize) {
        let x = self.heap[i];
        let n = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.precedes(self.heap[right], self.heap[left]) { right } else { left };
            let c = self.heap[child];
            if !self.precedes(c, x) {
                break;
            }
            self.heap[i] = c;
            self.at[c as usize] = i as u32;
            i = child;
        }
        self.heap[i] = x;
        self.at[x as usize] = i as u32;
    }
}
