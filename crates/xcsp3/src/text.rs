//! The small textual forms inside XCSP3 elements: integers, ranges `a..b`,
//! domains (`0..5 7 9..12`), tuples (`(1,2)(2,*)`) and conditions
//! (`(le,10)`). Each function returns a message without a position; the
//! lowering adds the element's.

/// An integer of the file (`-12`, `+3`); the infinities are refused by name.
pub(crate) fn integer(token: &str) -> Result<i64, String> {
    let trimmed = token.trim();
    if matches!(trimmed, "+infinity" | "-infinity" | "infinity" | "+inf" | "-inf" | "inf") {
        return Err(format!("the unbounded value '{trimmed}'"));
    }
    trimmed.parse::<i64>().map_err(|_| format!("'{trimmed}' is not an integer within 64 bits"))
}

/// Whether the message of [`integer`] (or of a function using it) names an
/// unsupported infinity rather than a malformed integer.
pub(crate) fn is_infinity_message(message: &str) -> bool {
    message.starts_with("the unbounded value")
}

/// `a..b` or a single integer `a` (as `a..a`).
pub(crate) fn range(token: &str) -> Result<(i64, i64), String> {
    match token.split_once("..") {
        Some((low, high)) => Ok((integer(low)?, integer(high)?)),
        None => integer(token).map(|value| (value, value)),
    }
}

/// A domain or a set of values: integers and ranges separated by white
/// space, as sorted disjoint ranges (empty ranges `5..3` dropped).
pub(crate) fn ranges(text: &str) -> Result<Vec<(i64, i64)>, String> {
    let mut ranges = Vec::new();
    for token in text.split_whitespace() {
        let (low, high) = range(token)?;
        if low <= high {
            ranges.push((low, high));
        }
    }
    ranges.sort_unstable();
    let mut merged: Vec<(i64, i64)> = Vec::with_capacity(ranges.len());
    for (low, high) in ranges {
        match merged.last_mut() {
            Some(last) if low <= last.1.saturating_add(1) => last.1 = last.1.max(high),
            _ => merged.push((low, high)),
        }
    }
    Ok(merged)
}

/// The number of values in sorted disjoint ranges (saturating).
pub(crate) fn count(ranges: &[(i64, i64)]) -> u128 {
    ranges.iter().map(|&(low, high)| (i128::from(high) - i128::from(low) + 1) as u128).sum()
}

/// One entry of a tuple: a value, or `*` (any value).
pub(crate) type Entry = Option<i64>;

/// Tuples `(1,2,3)(4,*,6)`: each a list of entries (`None` for `*`).
/// White space may appear anywhere between the parts.
pub(crate) fn tuples(text: &str) -> Result<Vec<Vec<Entry>>, String> {
    let mut tuples = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix('(') else {
            return Err(format!("expected '(' to start a tuple, found '{}'", preview(rest)));
        };
        let Some(end) = after.find(')') else {
            return Err(format!("the tuple '({}' has no ')'", preview(after)));
        };
        let inside = &after[..end];
        let tuple = if inside.trim().is_empty() {
            Vec::new()
        } else {
            inside
                .split(',')
                .map(|entry| match entry.trim() {
                    "*" => Ok(None),
                    value => integer(value).map(Some),
                })
                .collect::<Result<Vec<_>, _>>()?
        };
        tuples.push(tuple);
        rest = after[end + 1..].trim_start();
    }
    Ok(tuples)
}

/// The first characters of `text`, to quote in a message.
pub(crate) fn preview(text: &str) -> String {
    let mut shown: String = text.chars().take(24).collect();
    if shown.len() < text.len() {
        shown.push_str("...");
    }
    shown
}

/// A condition `(operator,operand)`: the operator and the operand's text.
pub(crate) fn condition(text: &str) -> Result<(&str, &str), String> {
    let inside = text
        .trim()
        .strip_prefix('(')
        .and_then(|rest| rest.strip_suffix(')'))
        .ok_or_else(|| format!("a condition is written (operator,operand), found '{}'", preview(text.trim())))?;
    let (operator, operand) =
        inside.split_once(',').ok_or_else(|| format!("the condition '({inside})' has no ',' before its operand"))?;
    Ok((operator.trim(), operand.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_are_sorted_merged_ranges() {
        assert_eq!(ranges(" 7 0..3 4 9..12 11 5..2 ").unwrap(), vec![(0, 4), (7, 7), (9, 12)]);
        assert_eq!(count(&[(0, 4), (7, 7)]), 6);
        assert!(ranges("1..x").unwrap_err().contains("'x'"));
        assert!(is_infinity_message(&ranges("-infinity..+infinity").unwrap_err()));
        assert_eq!(ranges("").unwrap(), vec![]);
    }

    #[test]
    fn tuples_read_stars_and_spaces() {
        let read = tuples(" (1,2) ( 3 , * )(-4,5)").unwrap();
        assert_eq!(read, vec![vec![Some(1), Some(2)], vec![Some(3), None], vec![Some(-4), Some(5)]]);
        assert!(tuples("(1,2").unwrap_err().contains("no ')'"));
        assert!(tuples("1,2)").unwrap_err().contains("expected '('"));
        assert!(tuples("(1,a)").unwrap_err().contains("'a'"));
        assert_eq!(tuples("()").unwrap(), vec![Vec::<Entry>::new()]);
    }

    #[test]
    fn conditions_split_operator_and_operand() {
        assert_eq!(condition(" (le, 10) ").unwrap(), ("le", "10"));
        assert_eq!(condition("(in,1..5)").unwrap(), ("in", "1..5"));
        assert!(condition("le,10").is_err());
        assert!(condition("(le)").is_err());
    }
}
