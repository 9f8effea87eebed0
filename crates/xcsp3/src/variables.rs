//! The instance's variables: single variables and arrays (of any number of
//! dimensions, with cells that may be left undefined), the engine variable of
//! each, references to them (`x`, `q[3]`, `m[1][]`, `m[0..2][1]`), and the
//! instantiation that reports a solution in the instance's own order (with
//! the symbols of symbolic variables, each held as an integer code).

use std::collections::HashMap;
use std::fmt::Write as _;

use csp::VarId;

/// The most cells one array may have (a hostile `size="[1000000000][1000000000]"`
/// is refused rather than allocated).
pub(crate) const MAX_CELLS: u128 = 50_000_000;

/// One declaration of `<variables>`, in the file's order.
#[derive(Clone, Debug)]
struct Declaration {
    name: String,
    kind: Kind,
    /// Its values are symbols ([`Variables::symbol`]).
    symbolic: bool,
}

#[derive(Clone, Debug)]
enum Kind {
    Single(VarId),
    /// The cells in row-major order; `None` for a cell without a domain.
    Array {
        shape: Vec<usize>,
        cells: Vec<Option<VarId>>,
    },
}

/// The declared variables, by name and in order.
#[derive(Clone, Debug, Default)]
pub struct Variables {
    declarations: Vec<Declaration>,
    by_name: HashMap<String, usize>,
    /// The symbols of symbolic variables, each standing for its position
    /// here (its code), in the order the file first names them.
    symbols: Vec<String>,
    codes: HashMap<String, i64>,
    /// The engine variables of symbolic declarations.
    symbolic: std::collections::HashSet<VarId>,
}

/// One index of a reference: `[]` (all), `[i]`, or `[a..b]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Index {
    All,
    Range(usize, usize),
}

impl Variables {
    /// Whether `name` is declared already.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Declares a single variable.
    pub(crate) fn add_single(&mut self, name: &str, var: VarId) {
        self.by_name.insert(name.to_string(), self.declarations.len());
        self.declarations.push(Declaration { name: name.to_string(), kind: Kind::Single(var), symbolic: false });
    }

    /// Declares an array with its cells in row-major order.
    pub(crate) fn add_array(&mut self, name: &str, shape: Vec<usize>, cells: Vec<Option<VarId>>) {
        self.by_name.insert(name.to_string(), self.declarations.len());
        self.declarations.push(Declaration {
            name: name.to_string(),
            kind: Kind::Array { shape, cells },
            symbolic: false,
        });
    }

    /// Marks the last declaration symbolic: its values are symbol codes.
    pub(crate) fn mark_symbolic(&mut self) {
        let Some(last) = self.declarations.last_mut() else { return };
        last.symbolic = true;
        match &last.kind {
            Kind::Single(var) => drop(self.symbolic.insert(*var)),
            Kind::Array { cells, .. } => self.symbolic.extend(cells.iter().flatten()),
        }
    }

    /// Whether `var` is a cell of a symbolic declaration.
    pub(crate) fn is_symbolic(&self, var: VarId) -> bool {
        self.symbolic.contains(&var)
    }

    /// The code of a symbol, given a new one the first time.
    pub(crate) fn symbol_code(&mut self, symbol: &str) -> i64 {
        if let Some(&code) = self.codes.get(symbol) {
            return code;
        }
        let code = self.symbols.len() as i64;
        self.symbols.push(symbol.to_string());
        self.codes.insert(symbol.to_string(), code);
        code
    }

    /// Whether the instance has symbols (a symbolic variable).
    pub(crate) fn has_symbols(&self) -> bool {
        !self.symbols.is_empty()
    }

    /// The code of a symbol some symbolic domain holds, if any.
    pub(crate) fn symbol(&self, symbol: &str) -> Option<i64> {
        self.codes.get(symbol).copied()
    }

    /// A value as the instantiation shows it: the symbol of a code for a
    /// symbolic declaration, the integer otherwise.
    fn shown(&self, value: i64, symbolic: bool) -> String {
        match usize::try_from(value).ok().and_then(|code| self.symbols.get(code)) {
            Some(symbol) if symbolic => symbol.clone(),
            _ => value.to_string(),
        }
    }

    /// The engine variable of a single variable or of one array cell
    /// (`x`, `q[3]`); `Ok(None)` when the token names no declared variable
    /// at all (it may be something else, such as an integer).
    pub(crate) fn single(&self, token: &str) -> Result<Option<VarId>, String> {
        let (name, _) = split_name(token);
        if !self.by_name.contains_key(name) {
            return Ok(None);
        }
        let vars = self.resolve(token)?;
        match vars.as_slice() {
            [var] if !token.contains("[]") && !token.contains("..") => Ok(Some(*var)),
            _ => Err(format!("'{token}' names several variables where one is expected")),
        }
    }

    /// Whether the token starts with a declared name.
    pub(crate) fn names_variables(&self, token: &str) -> bool {
        self.by_name.contains_key(split_name(token).0)
    }

    /// The variables a reference names, in row-major order: `x`, `q[3]`,
    /// `q[]`, `m[1][]`, `m[0..2][1]`. Undefined cells of a slice are
    /// skipped; an undefined cell named alone is an error.
    pub(crate) fn resolve(&self, token: &str) -> Result<Vec<VarId>, String> {
        let (name, indices) = split_name(token);
        let &at = self.by_name.get(name).ok_or_else(|| format!("'{name}' is not a declared variable"))?;
        match &self.declarations[at].kind {
            Kind::Single(var) if indices.is_empty() => Ok(vec![*var]),
            Kind::Single(_) => Err(format!("'{name}' is not an array, so '{token}' names nothing")),
            Kind::Array { shape, cells } => {
                let indices = parse_indices(indices, shape).map_err(|message| format!("'{token}': {message}"))?;
                let single =
                    indices.iter().all(|index| matches!(index, Index::Range(a, b) if a == b)) && !token.contains("..");
                let mut vars = Vec::new();
                let mut missing = None;
                for_each_cell(shape, &indices, &mut |flat| match cells[flat] {
                    Some(var) => vars.push(var),
                    None => missing = Some(flat),
                });
                if single && missing.is_some() {
                    return Err(format!("'{token}' is an undefined cell of the array '{name}'"));
                }
                Ok(vars)
            }
        }
    }

    /// The variables of a two-dimensional reference (`m[][]`, `m`,
    /// `t[2][][]`, `m[1..3][]`) as rows: the two dimensions the reference
    /// leaves open (written empty or as a range `a..b`) are the rows and the
    /// columns. Every cell must be defined.
    pub(crate) fn matrix(&self, token: &str) -> Result<Vec<Vec<VarId>>, String> {
        let (name, indices) = split_name(token);
        let &at = self.by_name.get(name).ok_or_else(|| format!("'{name}' is not a declared variable"))?;
        let Kind::Array { shape, cells } = &self.declarations[at].kind else {
            return Err(format!("'{name}' is not an array, so '{token}' is no matrix"));
        };
        let parsed = parse_indices(indices, shape).map_err(|message| format!("'{token}': {message}"))?;
        let open: Vec<bool> = if indices.is_empty() || indices == "[]" {
            vec![true; shape.len()]
        } else {
            indices.split('[').skip(1).map(|part| part.split(']').next().unwrap_or("")).map(open_index).collect()
        };
        let open_sizes: Vec<usize> = parsed
            .iter()
            .zip(&open)
            .zip(shape)
            .filter(|((_, open), _)| **open)
            .map(|((index, _), &size)| match *index {
                Index::All => size,
                Index::Range(low, high) => high - low + 1,
            })
            .collect();
        let &[_, columns] = open_sizes.as_slice() else {
            return Err(format!("'{token}' is not a matrix: it leaves {} dimension(s) open", open_sizes.len()));
        };
        let mut vars = Vec::new();
        let mut undefined = false;
        for_each_cell(shape, &parsed, &mut |flat| match cells[flat] {
            Some(var) => vars.push(var),
            None => undefined = true,
        });
        if undefined {
            return Err(format!("the matrix '{token}' has undefined cells"));
        }
        if columns == 0 {
            return Ok(Vec::new());
        }
        Ok(vars.chunks(columns).map(<[VarId]>::to_vec).collect())
    }

    /// The row-major positions (within the array `name`) that a reference names.
    pub(crate) fn cells_of(&self, name: &str, indices: &str) -> Result<Vec<usize>, String> {
        let &at = self.by_name.get(name).ok_or_else(|| format!("'{name}' is not a declared array"))?;
        let Kind::Array { shape, .. } = &self.declarations[at].kind else {
            return Err(format!("'{name}' is not an array"));
        };
        let indices = parse_indices(indices, shape).map_err(|message| format!("'{name}{indices}': {message}"))?;
        let mut cells = Vec::new();
        for_each_cell(shape, &indices, &mut |flat| cells.push(flat));
        Ok(cells)
    }

    /// The number of declarations.
    pub fn len(&self) -> usize {
        self.declarations.len()
    }

    /// Whether nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.declarations.is_empty()
    }

    /// Every engine variable the instance declares, in the file's order
    /// (array cells row-major, undefined cells skipped).
    pub fn declared(&self) -> Vec<VarId> {
        let mut vars = Vec::new();
        for declaration in &self.declarations {
            match &declaration.kind {
                Kind::Single(var) => vars.push(*var),
                Kind::Array { cells, .. } => vars.extend(cells.iter().flatten()),
            }
        }
        vars
    }

    /// The XCSP3 instantiation of a solution (`values` indexed by engine
    /// variable): every declared variable in the file's order, arrays as
    /// `x[]` (`m[][]` for a matrix) with their cells row-major and `*` for undefined cells, on one
    /// line: `<instantiation type="solution"> <list> x y[] </list> <values> 1 2 3 </values> </instantiation>`.
    /// With `cost`, the `cost` attribute of an optimisation problem's solution.
    pub fn instantiation(&self, values: &[i64], cost: Option<i64>) -> String {
        let mut list = String::new();
        let mut shown = String::new();
        for declaration in &self.declarations {
            match &declaration.kind {
                Kind::Single(var) => {
                    let _ = write!(list, " {}", declaration.name);
                    let _ = write!(shown, " {}", self.shown(values[var.index()], declaration.symbolic));
                }
                Kind::Array { shape, cells } => {
                    // One `[]` per dimension: the checker reads `m[][]` for a matrix.
                    let _ = write!(list, " {}{}", declaration.name, "[]".repeat(shape.len()));
                    for cell in cells {
                        match cell {
                            Some(var) => write!(shown, " {}", self.shown(values[var.index()], declaration.symbolic)),
                            None => write!(shown, " *"),
                        }
                        .expect("writing to a String");
                    }
                }
            }
        }
        let cost = cost.map_or(String::new(), |cost| format!(" cost=\"{cost}\""));
        format!(
            "<instantiation type=\"solution\"{cost}> <list>{list} </list> <values>{shown} </values> </instantiation>"
        )
    }
}

/// `q[1][]` as `("q", "[1][]")`.
fn split_name(token: &str) -> (&str, &str) {
    match token.find('[') {
        Some(at) => (&token[..at], &token[at..]),
        None => (token, ""),
    }
}

/// The indices of `[1][]`, `[0..2]`, checked against the shape (each
/// dimension given, each within its size).
fn parse_indices(text: &str, shape: &[usize]) -> Result<Vec<Index>, String> {
    let mut indices = Vec::with_capacity(shape.len());
    let mut rest = text;
    while !rest.is_empty() {
        let inside = rest.strip_prefix('[').and_then(|r| r.split_once(']')).ok_or("malformed brackets")?;
        let (index, after) = inside;
        let dimension = indices.len();
        let size = *shape.get(dimension).ok_or_else(|| format!("the array has {} dimension(s)", shape.len()))?;
        let index = index.trim();
        let parsed = if index.is_empty() {
            Index::All
        } else {
            let (low, high) = match index.split_once("..") {
                Some((low, high)) => (position(low)?, position(high)?),
                None => (position(index)?, position(index)?),
            };
            if low > high || high >= size {
                return Err(format!("index {index} is outside 0..{} of dimension {}", size - 1, dimension + 1));
            }
            Index::Range(low, high)
        };
        indices.push(parsed);
        rest = after;
    }
    if indices.is_empty() || indices == [Index::All] {
        // `x` or `x[]` for an array of any dimension: every cell, as `x[]...[]`.
        indices = vec![Index::All; shape.len()];
    }
    if indices.len() != shape.len() {
        return Err(format!("the array has {} dimension(s), the reference gives {}", shape.len(), indices.len()));
    }
    Ok(indices)
}

/// Whether an index as written leaves its dimension open: `[]` or `[a..b]`.
fn open_index(text: &str) -> bool {
    text.trim().is_empty() || text.contains("..")
}

fn position(text: &str) -> Result<usize, String> {
    text.trim().parse::<usize>().map_err(|_| format!("'{text}' is not an index"))
}

/// Calls `visit` with the row-major position of every cell the indices name, in order.
fn for_each_cell(shape: &[usize], indices: &[Index], visit: &mut impl FnMut(usize)) {
    fn walk(shape: &[usize], indices: &[Index], base: usize, visit: &mut impl FnMut(usize)) {
        let Some((&size, rest_shape)) = shape.split_first() else {
            visit(base);
            return;
        };
        let (low, high) = match indices[0] {
            Index::All => (0, size.saturating_sub(1)),
            Index::Range(low, high) => (low, high),
        };
        if size == 0 {
            return;
        }
        for i in low..=high {
            walk(rest_shape, &indices[1..], (base * size) + i, visit);
        }
    }
    // Row-major: position = ((i0 * s1) + i1) * s2 + i2 ...
    walk(shape, indices, 0, visit);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variables() -> (csp::Model, Variables) {
        let mut model = csp::Model::new();
        let mut variables = Variables::default();
        let x = model.new_named_var("x", 0..=3).unwrap();
        variables.add_single("x", x);
        let cells: Vec<Option<VarId>> =
            (0..6).map(|i| if i == 4 { None } else { Some(model.new_var(0..=9).unwrap()) }).collect();
        variables.add_array("m", vec![2, 3], cells);
        (model, variables)
    }

    #[test]
    fn references_name_cells_row_major() {
        let (_, variables) = variables();
        let index =
            |token: &str| -> Vec<usize> { variables.resolve(token).unwrap().into_iter().map(VarId::index).collect() };
        assert_eq!(index("x"), vec![0]);
        assert_eq!(index("m[]"), index("m[][]"));
        assert_eq!(index("m[][]"), vec![1, 2, 3, 4, 5], "the undefined cell m[1][1] is skipped");
        assert_eq!(index("m[1][]"), vec![4, 5]);
        assert_eq!(index("m[][2]"), vec![3, 5]);
        assert_eq!(index("m[0][1..2]"), vec![2, 3]);
        assert_eq!(variables.single("m[0][1]").unwrap().map(VarId::index), Some(2));
        assert_eq!(variables.single("y").unwrap(), None);
        assert_eq!(variables.cells_of("m", "[1][0..1]").unwrap(), vec![3, 4]);
    }

    #[test]
    fn bad_references_are_errors() {
        let (_, variables) = variables();
        for (token, message) in [
            ("m[2][0]", "outside"),
            ("m[0]", "2 dimension(s)"),
            ("m[0][0][0]", "2 dimension(s)"),
            ("m[1][1]", "undefined cell"),
            ("x[0]", "not an array"),
            ("m[a][0]", "not an index"),
            ("m[0", "malformed"),
            ("z", "not a declared"),
        ] {
            let error = variables.resolve(token).unwrap_err();
            assert!(error.contains(message), "{token}: {error}");
        }
        assert!(variables.single("m[0][]").unwrap_err().contains("several"));
    }

    #[test]
    fn the_instantiation_lists_the_declarations_in_order() {
        let (_, variables) = variables();
        let values = [3, 10, 11, 12, 14, 15];
        assert_eq!(
            variables.instantiation(&values, None),
            "<instantiation type=\"solution\"> <list> x m[][] </list> <values> 3 10 11 12 14 * 15 </values> \
             </instantiation>"
        );
        assert!(
            variables.instantiation(&values, Some(-4)).starts_with("<instantiation type=\"solution\" cost=\"-4\">")
        );
    }
}
