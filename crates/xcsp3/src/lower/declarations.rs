//! `<variables>`: `<var>` and `<array>` declarations, their domains
//! (`0..5 7 9..12`, `as="other"`, per-cell `<domain for="...">` with
//! `others`), created as engine variables in the file's order.

use csp::{Domain, MAX_VALUE, VarId};
use roxmltree::Node;

use super::{Lowering, elements};
use crate::error::Error;
use crate::text;
use crate::variables::MAX_CELLS;

/// The most values a domain written as several ranges may have (such a
/// domain is a list of values in the engine).
const MAX_LISTED_VALUES: u128 = 10_000_000;

impl<'a, 'i> Lowering<'a, 'i> {
    /// Declares every variable of `<variables>`.
    pub(super) fn declare(&mut self, variables: Node<'a, 'i>) -> Result<(), Error> {
        for node in elements(variables) {
            self.at(node);
            let symbolic = match node.attribute("type") {
                None | Some("integer") => false,
                Some("symbolic") => true,
                Some(kind) => return Err(self.unsupported(format!("a variable of type {kind}"))),
            };
            let id = node.attribute("id").ok_or_else(|| self.invalid("a declaration without an id"))?;
            if id.is_empty() || id.contains(['[', ']', ' ', '%', '(', ')', ',']) {
                return Err(self.invalid(format!("'{id}' is not a variable name")));
            }
            if self.variables.contains(id) {
                return Err(self.invalid(format!("'{id}' is declared twice")));
            }
            match node.tag_name().name() {
                "var" => self.declare_var(node, id, symbolic)?,
                "array" => self.declare_array(node, id, symbolic)?,
                "annotations" => continue,
                other => return Err(self.invalid(format!("unexpected <{other}> in <variables>"))),
            }
            if symbolic {
                self.variables.mark_symbolic();
            }
        }
        Ok(())
    }

    fn declare_var(&mut self, node: Node<'a, 'i>, id: &str, symbolic: bool) -> Result<(), Error> {
        let ranges = match node.attribute("as") {
            Some(other) => {
                let var = self
                    .variables
                    .single(other)
                    .map_err(|m| self.invalid(m))?
                    .ok_or_else(|| self.invalid(format!("as=\"{other}\" names no declared variable")))?;
                if self.variables.is_symbolic(var) != symbolic {
                    return Err(self.invalid(format!("as=\"{other}\" names a variable of another type")));
                }
                let domain = self.model.domain(var).cloned().unwrap_or_else(|| Domain::range(0, 0));
                domain_ranges(&domain)
            }
            None => self.domain_text(node, symbolic)?,
        };
        let var = self.new_declared(id, &ranges)?;
        self.variables.add_single(id, var);
        Ok(())
    }

    fn declare_array(&mut self, node: Node<'a, 'i>, id: &str, symbolic: bool) -> Result<(), Error> {
        if node.attribute("as").is_some() {
            return Err(self.unsupported("an array declared with as=\"...\""));
        }
        let size = node.attribute("size").ok_or_else(|| self.invalid(format!("the array '{id}' has no size")))?;
        let shape = self.shape(size)?;
        let cells: usize = shape.iter().product();
        let mut domains: Vec<Option<Vec<(i64, i64)>>> = vec![None; cells];
        let specific: Vec<Node<'a, 'i>> = elements(node).filter(|c| c.tag_name().name() == "domain").collect();
        if specific.is_empty() {
            let ranges = self.domain_text(node, symbolic)?;
            domains.iter_mut().for_each(|domain| *domain = Some(ranges.clone()));
        } else {
            let mut others = None;
            for domain in specific {
                let target = domain.attribute("for").ok_or_else(|| self.invalid("<domain> without for=\"...\""))?;
                let ranges = self.domain_text(domain, symbolic)?;
                for reference in target.split_whitespace() {
                    if reference == "others" {
                        others = Some(ranges.clone());
                        continue;
                    }
                    let (name, indices) = reference.split_at(reference.find('[').unwrap_or(reference.len()));
                    if name != id {
                        return Err(self.invalid(format!("<domain for=\"{reference}\"> is not a cell of '{id}'")));
                    }
                    let cells = self
                        .variables_of_array(id, &shape, indices)
                        .map_err(|m| self.invalid(format!("<domain for=\"{reference}\">: {m}")))?;
                    for cell in cells {
                        domains[cell] = Some(ranges.clone());
                    }
                }
            }
            if let Some(others) = others {
                domains.iter_mut().filter(|d| d.is_none()).for_each(|d| *d = Some(others.clone()));
            }
        }
        let mut vars: Vec<Option<VarId>> = Vec::with_capacity(cells);
        for (flat, domain) in domains.iter().enumerate() {
            match domain {
                None => vars.push(None),
                Some(ranges) => vars.push(Some(self.new_declared(&cell_name(id, &shape, flat), ranges)?)),
            }
        }
        self.variables.add_array(id, shape, vars);
        Ok(())
    }

    /// The cells `[i][..]` of an array being declared (not yet in `variables`).
    fn variables_of_array(&self, id: &str, shape: &[usize], indices: &str) -> Result<Vec<usize>, String> {
        let mut scratch = crate::variables::Variables::default();
        scratch.add_array(id, shape.to_vec(), Vec::new());
        scratch.cells_of(id, indices)
    }

    /// `[3][4]` as `[3, 4]`, each size at least 1, at most [`MAX_CELLS`] in all.
    fn shape(&self, size: &str) -> Result<Vec<usize>, Error> {
        let mut shape = Vec::new();
        let mut rest = size.trim();
        while !rest.is_empty() {
            let (inside, after) = rest
                .strip_prefix('[')
                .and_then(|r| r.split_once(']'))
                .ok_or_else(|| self.invalid(format!("size=\"{size}\" is not of the form [n][m]...")))?;
            let n: usize = inside
                .trim()
                .parse()
                .map_err(|_| self.invalid(format!("size=\"{size}\": '{inside}' is not a positive size")))?;
            // XCSP3 gives each dimension a strictly positive size: an empty
            // array is not a declaration the format has.
            if n == 0 {
                return Err(self.invalid(format!(
                    "size=\"{size}\": a dimension of size 0 (XCSP3 sizes are strictly positive: [n] with n >= 1)"
                )));
            }
            shape.push(n);
            rest = after.trim_start();
        }
        if shape.is_empty() {
            return Err(self.invalid(format!("size=\"{size}\" gives no dimension")));
        }
        let cells = shape.iter().try_fold(1u128, |product, &n| product.checked_mul(n as u128));
        match cells {
            Some(cells) if cells <= MAX_CELLS => Ok(shape),
            _ => Err(self.unsupported(format!("an array of more than {MAX_CELLS} cells ({size})"))),
        }
    }

    /// The domain written inside `node`: integers and ranges, or the
    /// symbols of a symbolic variable, as their codes.
    fn domain_text(&mut self, node: Node<'a, 'i>, symbolic: bool) -> Result<Vec<(i64, i64)>, Error> {
        let text = self.text(node)?;
        if !symbolic {
            return text::ranges(&text).map_err(|m| self.text_error(m));
        }
        let mut codes = Vec::new();
        for token in text.split_whitespace() {
            if !text::is_symbol(token) {
                return Err(self.invalid(format!("'{token}' is not a symbol (a letter, then letters, digits and _)")));
            }
            codes.push(self.variables.symbol_code(token));
        }
        codes.sort_unstable();
        codes.dedup();
        Ok(codes.into_iter().map(|code| (code, code)).collect())
    }

    /// A declared variable (or array cell) named `name` over `ranges`. An
    /// empty domain leaves the instance without solutions: the variable gets
    /// the domain `{0}` and the instance is marked inconsistent.
    fn new_declared(&mut self, name: &str, ranges: &[(i64, i64)]) -> Result<VarId, Error> {
        let domain = match ranges {
            [] => {
                self.fail(format!("variable {name} has an empty domain"));
                Domain::range(0, 0)
            }
            &[(low, high)] => Domain::range(low, high),
            _ => {
                if text::count(ranges) > MAX_LISTED_VALUES {
                    return Err(self.unsupported(format!(
                        "a domain of more than {MAX_LISTED_VALUES} values in several ranges (variable {name})"
                    )));
                }
                Domain::values(ranges.iter().flat_map(|&(low, high)| low..=high))
            }
        };
        if let (Some(min), Some(max)) = (domain.min(), domain.max()) {
            if min < -MAX_VALUE || max > MAX_VALUE {
                return Err(self.unsupported(format!("variable {name}'s domain beyond ±2^62")));
            }
        }
        self.model.new_named_var(name, domain).map_err(|e| self.model_error(&e))
    }
}

/// A domain as sorted disjoint ranges.
pub(super) fn domain_ranges(domain: &Domain) -> Vec<(i64, i64)> {
    let mut ranges: Vec<(i64, i64)> = Vec::new();
    if let (Some(min), Some(max)) = (domain.min(), domain.max()) {
        if domain.size() == (i128::from(max) - i128::from(min) + 1) as u64 {
            return vec![(min, max)];
        }
    }
    for value in domain.iter() {
        match ranges.last_mut() {
            Some(last) if last.1 + 1 == value => last.1 = value,
            _ => ranges.push((value, value)),
        }
    }
    ranges
}

/// The name of cell `flat` (row-major) of an array: `x[1][2]`.
fn cell_name(id: &str, shape: &[usize], flat: usize) -> String {
    let mut indices = vec![0; shape.len()];
    let mut rest = flat;
    for (index, &size) in indices.iter_mut().zip(shape).rev() {
        *index = rest % size;
        rest /= size;
    }
    let mut name = id.to_string();
    for index in indices {
        name.push_str(&format!("[{index}]"));
    }
    name
}
