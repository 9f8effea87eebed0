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

/// The longest list that compact forms `vxk` may expand to: far more than
/// any list of a real instance, few enough that a hostile file cannot make
/// the reader allocate without bound (a list written out in full is
/// bounded by the file's size).
pub(crate) const MAX_REPETITION: usize = 1_000_000;

/// An integer of a list, or its compact form `vxk`: the value `v` written
/// `k` times (`1x7`), which XCSP3 allows in lists of integers (coefficients,
/// values, lengths, heights, ...) and pycsp3 writes for runs of three or
/// more. The value and how many times it stands.
pub(crate) fn repeated_integer(token: &str) -> Result<(i64, usize), String> {
    let Some((value, times)) = token.trim().split_once('x') else {
        return integer(token).map(|value| (value, 1));
    };
    let value = integer(value)?;
    match times.parse::<usize>() {
        Ok(times @ 1..=MAX_REPETITION) => Ok((value, times)),
        Ok(0) => Err(format!("'{}' repeats a value 0 times", token.trim())),
        _ if !times.is_empty() && times.bytes().all(|b| b.is_ascii_digit()) => {
            Err(format!("'{}' repeats a value more than {MAX_REPETITION} times", token.trim()))
        }
        _ => Err(format!("'{}' is neither an integer nor a value repeated (vxk)", token.trim())),
    }
}

/// Refuses a compact form that would make a list of `so_far` values longer
/// than [`MAX_REPETITION`].
pub(crate) fn check_expansion(so_far: usize, times: usize) -> Result<(), String> {
    if times > 1 && so_far.saturating_add(times) > MAX_REPETITION {
        return Err(format!("compact forms (vxk) that make a list of more than {MAX_REPETITION} values"));
    }
    Ok(())
}

/// A list of integers separated by white space, the compact forms `vxk`
/// expanded ([`repeated_integer`]).
pub(crate) fn integers(text: &str) -> Result<Vec<i64>, String> {
    let mut values = Vec::new();
    for token in text.split_whitespace() {
        let (value, times) = repeated_integer(token)?;
        check_expansion(values.len(), times)?;
        values.extend(std::iter::repeat_n(value, times));
    }
    Ok(values)
}

/// Whether the message of [`integer`] (or of a function using it) names an
/// unsupported infinity, or a list longer than [`check_expansion`] allows,
/// rather than a malformed integer.
pub(crate) fn is_unsupported_message(message: &str) -> bool {
    message.starts_with("the unbounded value") || message.starts_with("compact forms")
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
    tuples_of(text, &mut |_, value| integer(value))
}

/// Tuples whose entries other than `*` are read by `entry` (given the
/// entry's column and text): integers, or a symbolic column's symbols.
pub(crate) fn tuples_of(
    text: &str,
    entry: &mut dyn FnMut(usize, &str) -> Result<i64, String>,
) -> Result<Vec<Vec<Entry>>, String> {
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
                .enumerate()
                .map(|(column, text)| match text.trim() {
                    "*" => Ok(None),
                    value => entry(column, value).map(Some),
                })
                .collect::<Result<Vec<_>, _>>()?
        };
        tuples.push(tuple);
        rest = after[end + 1..].trim_start();
    }
    Ok(tuples)
}

/// Whether `token` is a symbol: a letter, then letters, digits and `_`.
pub(crate) fn is_symbol(token: &str) -> bool {
    token.starts_with(|c: char| c.is_ascii_alphabetic()) && token.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
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
        // One condition: "(eq,1) (eq,2)" is not the operand "1) (eq,2"
        // (an operand's own parentheses, as add(x,1), balance).
        .filter(|inside| balanced(inside))
        .ok_or_else(|| format!("a condition is written (operator,operand), found '{}'", preview(text.trim())))?;
    let (operator, operand) =
        inside.split_once(',').ok_or_else(|| format!("the condition '({inside})' has no ',' before its operand"))?;
    Ok((operator.trim(), operand.trim()))
}

/// Whether no `)` of `text` closes more than it opened, and every `(` is closed.
fn balanced(text: &str) -> bool {
    let mut depth = 0i64;
    for c in text.chars() {
        depth += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return false;
        }
    }
    depth == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_are_sorted_merged_ranges() {
        assert_eq!(ranges(" 7 0..3 4 9..12 11 5..2 ").unwrap(), vec![(0, 4), (7, 7), (9, 12)]);
        assert_eq!(count(&[(0, 4), (7, 7)]), 6);
        assert!(ranges("1..x").unwrap_err().contains("'x'"));
        assert!(is_unsupported_message(&ranges("-infinity..+infinity").unwrap_err()));
        assert_eq!(ranges("").unwrap(), vec![]);
    }

    #[test]
    fn lists_of_integers_expand_their_compact_forms() {
        assert_eq!(integers(" 1x3 -2 0x1 -4x2 ").unwrap(), vec![1, 1, 1, -2, 0, -4, -4]);
        assert_eq!(repeated_integer("7").unwrap(), (7, 1));
        assert!(integers("1x0").unwrap_err().contains("0 times"));
        assert!(integers("1x99999999999999999999").unwrap_err().contains("more than"));
        assert!(integers("1x").unwrap_err().contains("neither"));
        assert!(is_unsupported_message(&integers("1x600000 2x600000").unwrap_err()));
        assert!(integers("1x-2").unwrap_err().contains("neither"));
        assert!(integers("ax2").unwrap_err().contains("'a'"));
        assert!(is_unsupported_message(&integers("+infinityx2").unwrap_err()));
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
        assert_eq!(condition("(ge,add(x,1))").unwrap(), ("ge", "add(x,1)"));
        assert!(condition("(eq,1) (eq,1)").unwrap_err().contains("a condition is written (operator,operand)"));
    }
}
