//! The finite domains a model's variables are created with.
//!
//! A leaf module, like the ids: the kernel widens these domains into
//! bitsets, local search reads them as they are.

use std::fmt;
use std::ops::{Range, RangeInclusive};
use std::sync::Arc;

/// The finite set of integer values a variable may take.
///
/// A domain is either a range, stored as its two ends whatever its size (a model
/// of a million variables over `1..=1_000_000` stays small), or an explicit sorted
/// list of values with holes and negative values allowed. An explicit list whose
/// values happen to be consecutive is stored as a range.
///
/// The search keeps a list, and a range of up to
/// [`SolveConfig::bitset_limit`](crate::SolveConfig::bitset_limit) values (2^16
/// by default), as a bitset: a 64-bit word per 64 values. A wider range is an
/// interval: its bounds only, 16 bytes whatever its width (see
/// [`Context::is_interval`](crate::Context::is_interval)). Either takes about
/// 48 bytes of bookkeeping besides.
///
/// ```
/// use csp::Domain;
/// assert_eq!(Domain::from(1..=9).size(), 9);
/// let holes = Domain::from(vec![7, -3, 2, 0, 2]);
/// assert_eq!(holes.iter().collect::<Vec<_>>(), vec![-3, 0, 2, 7]);
/// assert!(Domain::from(5..5).is_empty());
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Domain(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// `min..=max`; empty when `min > max`.
    Range { min: i64, max: i64 },
    /// Sorted, without duplicates, at least two values and not consecutive.
    Values(Arc<[i64]>),
}

impl Domain {
    /// The values `min..=max` (empty when `min > max`).
    pub fn range(min: i64, max: i64) -> Domain {
        Domain(Repr::Range { min, max })
    }

    /// The given values, in any order, duplicates ignored.
    pub fn values(values: impl IntoIterator<Item = i64>) -> Domain {
        let mut values: Vec<i64> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        match values.as_slice() {
            [] => Domain::range(1, 0),
            [first, .., last] if (*last as i128 - *first as i128) == values.len() as i128 - 1 => {
                Domain::range(*first, *last)
            }
            [only] => Domain::range(*only, *only),
            _ => Domain(Repr::Values(values.into())),
        }
    }

    /// The number of values (saturating at `u64::MAX` for the full `i64` range).
    pub fn size(&self) -> u64 {
        match &self.0 {
            Repr::Range { min, max } if min <= max => (*max as i128 - *min as i128 + 1).min(u64::MAX as i128) as u64,
            Repr::Range { .. } => 0,
            Repr::Values(values) => values.len() as u64,
        }
    }

    /// Whether the domain has no value (a model rejects such a variable).
    pub fn is_empty(&self) -> bool {
        self.size() == 0
    }

    /// The smallest value, if any.
    pub fn min(&self) -> Option<i64> {
        match &self.0 {
            Repr::Range { min, max } => (min <= max).then_some(*min),
            Repr::Values(values) => values.first().copied(),
        }
    }

    /// The largest value, if any.
    pub fn max(&self) -> Option<i64> {
        match &self.0 {
            Repr::Range { min, max } => (min <= max).then_some(*max),
            Repr::Values(values) => values.last().copied(),
        }
    }

    /// Whether `value` is in the domain.
    pub fn contains(&self, value: i64) -> bool {
        match &self.0 {
            Repr::Range { min, max } => (*min..=*max).contains(&value),
            Repr::Values(values) => values.binary_search(&value).is_ok(),
        }
    }

    /// The values in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = i64> + '_ {
        let (range, list) = match &self.0 {
            Repr::Range { min, max } => (Some(*min..=*max), None),
            Repr::Values(values) => (None, Some(values.iter().copied())),
        };
        range.into_iter().flatten().chain(list.into_iter().flatten())
    }

    /// The `index`-th smallest value (`index < size()`).
    pub fn nth(&self, index: u64) -> Option<i64> {
        match &self.0 {
            Repr::Range { min, max } => {
                let value = *min as i128 + index as i128;
                (value <= *max as i128).then_some(value as i64)
            }
            Repr::Values(values) => values.get(usize::try_from(index).ok()?).copied(),
        }
    }

    /// The position of `value` among the domain's values in increasing order.
    pub fn position(&self, value: i64) -> Option<u64> {
        match &self.0 {
            Repr::Range { min, max } => (*min..=*max).contains(&value).then(|| (value as i128 - *min as i128) as u64),
            Repr::Values(values) => values.binary_search(&value).ok().map(|i| i as u64),
        }
    }

    /// The explicit values when the domain is not a range, for the solver's mapping.
    pub(crate) fn sparse_values(&self) -> Option<&Arc<[i64]>> {
        match &self.0 {
            Repr::Range { .. } => None,
            Repr::Values(values) => Some(values),
        }
    }
}

impl fmt::Debug for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Domain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Range { min, max } if min > max => f.write_str("{}"),
            Repr::Range { min, max } if min == max => write!(f, "{{{min}}}"),
            Repr::Range { min, max } => write!(f, "{min}..={max}"),
            Repr::Values(values) => {
                f.write_str("{")?;
                for (i, value) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{value}")?;
                }
                f.write_str("}")
            }
        }
    }
}

impl From<RangeInclusive<i64>> for Domain {
    fn from(range: RangeInclusive<i64>) -> Domain {
        Domain::range(*range.start(), *range.end())
    }
}

impl From<Range<i64>> for Domain {
    fn from(range: Range<i64>) -> Domain {
        match range.end.checked_sub(1) {
            Some(max) => Domain::range(range.start, max),
            None => Domain::range(1, 0),
        }
    }
}

impl From<Vec<i64>> for Domain {
    fn from(values: Vec<i64>) -> Domain {
        Domain::values(values)
    }
}

impl From<&[i64]> for Domain {
    fn from(values: &[i64]) -> Domain {
        Domain::values(values.iter().copied())
    }
}

impl<const N: usize> From<[i64; N]> for Domain {
    fn from(values: [i64; N]) -> Domain {
        Domain::values(values)
    }
}

impl From<&Domain> for Domain {
    fn from(domain: &Domain) -> Domain {
        domain.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_values_become_a_range() {
        assert_eq!(Domain::values([3, 1, 2]), Domain::range(1, 3));
        assert!(Domain::values([1, 3]).sparse_values().is_some());
    }

    #[test]
    fn positions_and_values_round_trip() {
        let domain = Domain::values([-3, 0, 2, 7]);
        for (i, value) in domain.iter().enumerate() {
            assert_eq!(domain.position(value), Some(i as u64));
            assert_eq!(domain.nth(i as u64), Some(value));
        }
        assert_eq!(domain.position(1), None);
        assert_eq!(domain.to_string(), "{-3, 0, 2, 7}");
    }

    #[test]
    fn extreme_ranges_do_not_overflow() {
        let domain = Domain::range(i64::MIN, i64::MAX);
        assert_eq!(domain.size(), u64::MAX);
        assert_eq!(Domain::from(i64::MIN..i64::MIN).size(), 0);
        assert_eq!(domain.nth(u64::MAX), Some(i64::MAX));
    }
}
