//! Literals as the engine keeps them: facts about one variable's domain
//! that, once true, stay true as the domain narrows. Explanations and
//! nogoods are made of them.
//!
//! A bitset domain's facts are sets of positions within one word: the
//! variable's value is among them ([`Literal::Within`]) or not
//! ([`Literal::Outside`], the positions are removed); bounds
//! ([`Literal::AtLeast`], [`Literal::AtMost`]) serve intervals, and bitsets
//! where a nogood compresses many removals into one bound. The public
//! [`Atom`](crate::Atom) (`x = v`, `x ≠ v`, `x ≥ v`, `x ≤ v`) is converted
//! to these when a propagator explains itself.

use super::domains::State;

/// A fact about one variable's domain (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Literal {
    /// The value is at one of the positions `mask` of word `word` (every
    /// other position is removed).
    Within { var: u32, word: u32, mask: u64 },
    /// The positions `mask` of word `word` are removed.
    Outside { var: u32, word: u32, mask: u64 },
    /// The value is at least `value`.
    AtLeast { var: u32, value: i64 },
    /// The value is at most `value`.
    AtMost { var: u32, value: i64 },
}

impl Literal {
    /// The variable.
    #[inline]
    pub(crate) fn var(self) -> u32 {
        match self {
            Literal::Within { var, .. }
            | Literal::Outside { var, .. }
            | Literal::AtLeast { var, .. }
            | Literal::AtMost { var, .. } => var,
        }
    }

    /// The literal that holds exactly when this one does not. A bound at
    /// the end of `i64` saturates (values lie within `±2^62`).
    #[inline]
    pub(crate) fn negation(self) -> Literal {
        match self {
            Literal::Within { var, word, mask } => Literal::Outside { var, word, mask },
            Literal::Outside { var, word, mask } => Literal::Within { var, word, mask },
            Literal::AtLeast { var, value } => Literal::AtMost { var, value: value.saturating_sub(1) },
            Literal::AtMost { var, value } => Literal::AtLeast { var, value: value.saturating_add(1) },
        }
    }
}

impl State {
    /// Whether `literal` holds in the current domains (`Some(true)`), can no
    /// longer hold (`Some(false)`), or neither.
    #[inline(always)]
    pub(crate) fn truth(&self, literal: Literal) -> Option<bool> {
        match literal {
            Literal::Within { var, word, mask } => {
                let inside = self.word(var, word) & mask;
                if inside == 0 { Some(false) } else { (inside.count_ones() == self.size(var)).then_some(true) }
            }
            Literal::Outside { var, word, mask } => {
                let inside = self.word(var, word) & mask;
                if inside == 0 { Some(true) } else { (inside.count_ones() == self.size(var)).then_some(false) }
            }
            Literal::AtLeast { var, value } => {
                if self.value(var, self.min_pos(var)) >= value {
                    Some(true)
                } else {
                    (self.value(var, self.max_pos(var)) < value).then_some(false)
                }
            }
            Literal::AtMost { var, value } => {
                if self.value(var, self.max_pos(var)) <= value {
                    Some(true)
                } else {
                    (self.value(var, self.min_pos(var)) > value).then_some(false)
                }
            }
        }
    }

    /// Whether `literal` holds when its variable takes `value` (a value of
    /// its initial domain).
    #[cfg(feature = "testing")]
    pub(crate) fn holds_at(&self, literal: Literal, value: i64) -> bool {
        let at = |word: u32, mask: u64| {
            self.position(literal.var(), value).is_some_and(|p| p / 64 == word && mask & 1u64 << (p % 64) != 0)
        };
        match literal {
            Literal::Within { word, mask, .. } => at(word, mask),
            Literal::Outside { word, mask, .. } => !at(word, mask),
            Literal::AtLeast { value: bound, .. } => value >= bound,
            Literal::AtMost { value: bound, .. } => value <= bound,
        }
    }

    /// The positions of word `k` of bitset `var` that hold values of its
    /// initial domain.
    #[inline]
    pub(crate) fn word_positions(&self, var: u32, k: u32) -> u64 {
        let len = self.len[var as usize];
        match len.checked_sub(k * 64) {
            Some(rest) if rest >= 64 => u64::MAX,
            Some(rest) => (1u64 << rest) - 1,
            None => 0,
        }
    }

    /// The number of positions of bitset `var` (the size of its initial domain).
    #[inline]
    pub(crate) fn num_positions(&self, var: u32) -> u32 {
        self.len[var as usize]
    }

    /// The number of positions of bitset `var` whose values are below `value`.
    pub(crate) fn positions_below(&self, var: u32, value: i64) -> u32 {
        let len = self.len[var as usize];
        match self.dense_base(var) {
            Some(base) => (i128::from(value) - i128::from(base)).clamp(0, i128::from(len)) as u32,
            None => {
                let (mut lo, mut hi) = (0, len);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if self.value(var, mid) < value { lo = mid + 1 } else { hi = mid }
                }
                lo
            }
        }
    }

    /// The facts "the positions below `end` (from `start`) are removed" of
    /// bitset `var`, one per word: `push(word, mask)`.
    pub(crate) fn position_range_masks(&self, var: u32, start: u32, end: u32, mut push: impl FnMut(u32, u64)) {
        if start >= end {
            return;
        }
        for k in start / 64..=(end - 1) / 64 {
            let from = if k == start / 64 { start % 64 } else { 0 };
            let to = if k == (end - 1) / 64 { (end - 1) % 64 + 1 } else { 64 };
            let high = if to == 64 { u64::MAX } else { (1u64 << to) - 1 };
            let mask = high & !((1u64 << from) - 1) & self.word_positions(var, k);
            if mask != 0 {
                push(k, mask);
            }
        }
    }
}
