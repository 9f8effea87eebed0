//! Lowering an XCSP3 instance into a csp [`Model`]: the variables
//! (`declarations.rs`), the constraints, one small function per XCSP3
//! constraint (`intension.rs`, `extension.rs`, `globals.rs`, `element.rs`,
//! `channel.rs`, `automata.rs`, `scheduling.rs`), the meta-constraints `group`, `block`
//! and `slide` (here), and the objective.
//!
//! Every constraint is lowered exactly onto the engine's vocabulary, or
//! refused with an [`Error`] that names it ([`ErrorKind::Unsupported`]):
//! nothing is approximated. Constants become fixed variables where the
//! engine wants variables (`terms.rs`), nested arithmetic gets auxiliary
//! variables, and a constraint that holds or fails whatever the values (an
//! intension over constants) is decided here: a failing one makes the
//! instance [`Lowered::inconsistent`].

mod arithmetic;
mod automata;
mod channel;
mod declarations;
mod element;
mod extension;
mod globals;
mod intension;
mod linear;
mod reification;
mod scheduling;
mod symbolic;
mod terms;

use std::collections::HashMap;

use csp::{Model, VarId};
use roxmltree::{Document, Node};

use crate::error::{Error, ErrorKind, Position};
use crate::variables::Variables;

/// What the instance asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Any solution (a CSP).
    Satisfy,
    /// A solution with the least value of this variable (a COP); the
    /// objective is also set on the model ([`Model::minimize`]).
    Minimize(VarId),
    /// A solution with the greatest value of this variable.
    Maximize(VarId),
}

impl Goal {
    /// The objective's variable, if any.
    pub fn objective(self) -> Option<VarId> {
        match self {
            Goal::Satisfy => None,
            Goal::Minimize(var) | Goal::Maximize(var) => Some(var),
        }
    }
}

/// An instance lowered into a model, with what its output needs.
#[derive(Debug)]
pub struct Lowered {
    /// The model: the declared variables first (in the file's order, array
    /// cells row-major), then auxiliary variables, and the constraints.
    pub model: Model,
    /// The declared variables, for the instantiation of a solution.
    pub variables: Variables,
    /// Satisfaction or optimisation.
    pub goal: Goal,
    /// Why the instance has no solution whatever the search does, when
    /// lowering found out (an empty domain, a constraint over constants
    /// that fails); then the model is not meant to be solved.
    pub inconsistent: Option<String>,
    /// The number of constraints of the file (each group's instance counted,
    /// blocks and slides expanded).
    pub constraints: usize,
}

/// Reads an XCSP3 instance and lowers it into a model.
///
/// ```
/// let xml = r#"<instance format="XCSP3" type="CSP">
///   <variables> <array id="x" size="[3]"> 1..3 </array> </variables>
///   <constraints>
///     <allDifferent> x[] </allDifferent>
///     <intension> lt(x[0],x[2]) </intension>
///   </constraints>
/// </instance>"#;
/// let lowered = csp_xcsp3::lower(xml).unwrap();
/// let solutions = csp::Solver::new(&lowered.model, csp::SolveConfig::default()).unwrap().count(None);
/// assert_eq!(solutions.solutions, 3);
/// ```
pub fn lower(source: &str) -> Result<Lowered, Error> {
    let options = roxmltree::ParsingOptions { allow_dtd: false, ..roxmltree::ParsingOptions::default() };
    let document = Document::parse_with_options(source, options).map_err(|error| {
        let mut at = error.pos();
        // roxmltree ends its messages with the position, which the error
        // already opens with (`line 5, column 3: ... at 5:3`).
        let text = error.to_string();
        let message = match text.strip_suffix(&format!(" at {at}")).unwrap_or(&text) {
            // roxmltree places this at the document's start, but the file
            // ends too soon: say so at its end.
            _ if matches!(error, roxmltree::Error::UnclosedRootNode) => {
                let last = source.rsplit('\n').next().unwrap_or_default();
                at = roxmltree::TextPos::new(source.split('\n').count() as u32, last.chars().count() as u32 + 1);
                "the file ends before its root element is closed: it is cut short, or a closing tag is missing"
                    .to_string()
            }
            "unknown token" => {
                "unexpected markup: not well-formed XML (everything belongs inside the one root element, <instance>)"
                    .to_string()
            }
            message => message.to_string(),
        };
        Error { position: Position { line: at.row, column: at.col }, kind: ErrorKind::Xml, message }
    })?;
    let root = document.root_element();
    let mut lowering = Lowering::new(&document, root);
    if root.tag_name().name() != "instance" {
        return Err(lowering.invalid(format!("the root element is <{}>, expected <instance>", root.tag_name().name())));
    }
    if let Some(format) = root.attribute("format").filter(|f| *f != "XCSP3") {
        return Err(lowering.unsupported(format!("the format '{format}' (expected XCSP3)")));
    }
    match root.attribute("type") {
        None | Some("CSP" | "COP") => {}
        Some(other) => return Err(lowering.unsupported(format!("the instance type '{other}'"))),
    }
    if let Some(deep) = too_deep(root) {
        lowering.at(deep);
        return Err(lowering.invalid(format!("elements nested more than {MAX_ELEMENT_DEPTH} deep")));
    }
    lowering.known_attributes(root)?;
    let mut goal = Goal::Satisfy;
    let mut seen_variables = false;
    for child in elements(root) {
        lowering.at(child);
        match child.tag_name().name() {
            "variables" => {
                lowering.declare(child)?;
                seen_variables = true;
            }
            "constraints" => {
                if !seen_variables {
                    return Err(lowering.invalid("<constraints> comes before <variables>"));
                }
                lowering.constraints_of(child)?;
            }
            "objectives" => goal = lowering.objectives(child)?,
            "annotations" => {}
            other => return Err(lowering.invalid(format!("unexpected element <{other}> in <instance>"))),
        }
    }
    if root.attribute("type") == Some("COP") && goal == Goal::Satisfy {
        lowering.at(root);
        return Err(lowering.invalid("a COP instance without <objectives>"));
    }
    Ok(Lowered {
        model: lowering.model,
        variables: lowering.variables,
        goal,
        inconsistent: lowering.inconsistent,
        constraints: lowering.constraints,
    })
}

/// The element children of a node (text, comments and processing
/// instructions skipped).
/// The attributes every element may carry without changing its meaning.
const COSMETIC: [&str; 3] = ["id", "class", "note"];

/// The attributes the reader honours on element `name` inside `parent`
/// (besides [`COSMETIC`]), each where XCSP3-core gives it a meaning that the
/// lowering implements or refuses in words: any other attribute is refused
/// by [`Lowering::known_attributes`], never ignored.
fn honoured(parent: &str, name: &str) -> &'static [&'static str] {
    match (parent, name) {
        (_, "instance") => &["format", "type"],
        (_, "var") => &["type", "as"],
        (_, "array") => &["type", "size", "as"],
        (_, "domain") => &["for"],
        (_, "minimize" | "maximize") => &["type"],
        (_, "slide") => &["circular"],
        ("slide", "list") => &["offset", "collect"],
        // Not on minimumArg's and maximumArg's list: the official parser and
        // ACE 2.6 number its positions from 0 whatever startIndex says.
        ("element" | "channel" | "circuit", "list") => &["startIndex"],
        ("element", "index") => &["rank"],
        ("element", "matrix") => &["startRowIndex", "startColIndex"],
        ("cardinality", "values") => &["closed"],
        (_, "noOverlap") => &["zeroIgnored", "reifiedBy", "hreifiedFrom", "hreifiedTo"],
        // Constraints: reified where `reification.rs` can, refused in words elsewhere.
        ("constraints" | "block" | "group" | "slide", "minimumArg" | "maximumArg") => {
            &["rank", "reifiedBy", "hreifiedFrom", "hreifiedTo"]
        }
        ("constraints" | "block" | "group" | "slide", _) => &["reifiedBy", "hreifiedFrom", "hreifiedTo"],
        _ => &[],
    }
}

fn elements<'a, 'i>(node: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children().filter(Node::is_element)
}

/// One more than the highest `%i` in the text of `template` (0 when it uses
/// none): where `%...` starts, and the number of arguments a slide's
/// template takes.
fn next_parameter(template: Node<'_, '_>) -> usize {
    let mut next = 0;
    for node in template.descendants().filter(Node::is_text) {
        let text = node.text().unwrap_or("");
        for (at, _) in text.match_indices('%') {
            let after = &text[at + 1..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            if let Ok(index) = after[..digits].parse::<usize>() {
                next = next.max(index.saturating_add(1));
            }
        }
    }
    next
}

/// The deepest nesting of elements the reader takes below `<instance>`.
/// XCSP3's own is a dozen at most (blocks in blocks); the lowering walks the
/// elements recursively, so a deeper document is refused before that walk
/// could overflow the stack.
const MAX_ELEMENT_DEPTH: usize = 256;

/// The first element below `root` nested deeper than [`MAX_ELEMENT_DEPTH`],
/// found without recursion.
fn too_deep<'a, 'i>(root: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    let mut stack = vec![(root, 0)];
    while let Some((node, depth)) = stack.pop() {
        if depth > MAX_ELEMENT_DEPTH {
            return Some(node);
        }
        stack.extend(elements(node).map(|child| (child, depth + 1)));
    }
    None
}

/// The lowering's state while it walks the document.
struct Lowering<'a, 'i> {
    document: &'a Document<'i>,
    model: Model,
    variables: Variables,
    /// A fixed variable per constant used where a variable is needed.
    constants: HashMap<i64, VarId>,
    inconsistent: Option<String>,
    constraints: usize,
    /// The arguments of the group (or slide window) being lowered, which
    /// replace `%0`, `%1`, ... and `%...` in the template's text.
    arguments: Option<Vec<String>>,
    /// The element being lowered, for the position of errors.
    current: Node<'a, 'i>,
    /// While a reified constraint is lowered, what it requires, collected
    /// instead of posted ([`Lowering::require`]).
    reifying: Option<reification::Requirements>,
    /// Symbols in an expression stand for their codes (in an intension
    /// whose symbols [`Lowering::check_symbols`] accepted).
    symbols_readable: bool,
}

impl<'a, 'i> Lowering<'a, 'i> {
    fn new(document: &'a Document<'i>, root: Node<'a, 'i>) -> Self {
        Lowering {
            document,
            model: Model::new(),
            variables: Variables::default(),
            constants: HashMap::new(),
            inconsistent: None,
            constraints: 0,
            arguments: None,
            current: root,
            reifying: None,
            symbols_readable: false,
        }
    }

    /// Refuses, naming the element, the attribute and the line, every
    /// attribute below `node` that the reader does not honour ([`honoured`])
    /// and that is not [`COSMETIC`]: an attribute that changes the meaning
    /// (`startIndex` where the reader would count from 0, say) must not be
    /// ignored. `startIndex="0"` is the default and is accepted on any list;
    /// attributes in a namespace (`xsi:...`) and annotations are not XCSP3's
    /// meaning.
    fn known_attributes(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let name = node.tag_name().name();
        let parent = node.parent_element().map_or("", |p| p.tag_name().name());
        let allowed = honoured(parent, name);
        for attribute in node.attributes() {
            let key = attribute.name();
            let harmless = COSMETIC.contains(&key)
                || allowed.contains(&key)
                || attribute.namespace().is_some()
                || (name == "list" && key == "startIndex" && attribute.value().trim() == "0");
            if !harmless {
                self.at(node);
                return Err(self.unsupported(format!("the attribute {key}=\"{}\" on <{name}>", attribute.value())));
            }
        }
        for child in elements(node).filter(|child| child.tag_name().name() != "annotations") {
            self.known_attributes(child)?;
        }
        Ok(())
    }

    /// Errors from now on point at `node`.
    fn at(&mut self, node: Node<'a, 'i>) {
        self.current = node;
    }

    fn position(&self) -> Position {
        let at = self.document.text_pos_at(self.current.range().start);
        Position { line: at.row, column: at.col }
    }

    fn invalid(&self, message: impl Into<String>) -> Error {
        Error::invalid(self.position(), message)
    }

    fn unsupported(&self, what: impl std::fmt::Display) -> Error {
        Error::unsupported(self.position(), what)
    }

    fn model_error(&self, error: &csp::ModelError) -> Error {
        Error::model(self.position(), error)
    }

    /// A message of the textual parsers as an error: an infinity is
    /// unsupported, anything else invalid.
    fn text_error(&self, message: String) -> Error {
        if crate::text::is_unsupported_message(&message) { self.unsupported(message) } else { self.invalid(message) }
    }

    /// Records that the instance has no solution (the first reason is
    /// kept); while a reified constraint is lowered, that this constraint is
    /// false whatever the values.
    fn fail(&mut self, reason: impl Into<String>) {
        if let Some(requirements) = &mut self.reifying {
            requirements.falsified = true;
            return;
        }
        if self.inconsistent.is_none() {
            let reason = reason.into();
            self.inconsistent = Some(format!("{}: {reason}", self.position()));
        }
    }

    /// The text directly inside `node` (its text children, joined), with the
    /// group's arguments substituted.
    fn text(&self, node: Node<'_, '_>) -> Result<String, Error> {
        let mut text = String::new();
        for child in node.children().filter(Node::is_text) {
            text.push_str(child.text().unwrap_or(""));
        }
        match &self.arguments {
            Some(arguments) if text.contains('%') => self.substitute(&text, arguments),
            _ => Ok(text),
        }
    }

    /// Replaces `%i` by the i-th argument and `%...` by the arguments after
    /// the last `%i` the template uses (all of them when it uses none).
    fn substitute(&self, text: &str, arguments: &[String]) -> Result<String, Error> {
        let mut out = String::with_capacity(text.len() + 16 * arguments.len());
        let mut rest = text;
        while let Some(at) = rest.find('%') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            if let Some(tail) = after.strip_prefix("...") {
                let first = next_parameter(self.current);
                out.push_str(&arguments.get(first..).unwrap_or(&[]).join(" "));
                rest = tail;
                continue;
            }
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let index: usize = after[..digits].parse().map_err(|_| {
                self.invalid(format!(
                    "'%' must be followed by a number or '...', found '%{}'",
                    crate::text::preview(after)
                ))
            })?;
            let argument = arguments.get(index).ok_or_else(|| {
                self.invalid(format!("the template uses %{index} but the arguments have {} value(s)", arguments.len()))
            })?;
            out.push_str(argument);
            rest = &after[digits..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// The one child element named `name`.
    fn child(&self, node: Node<'a, 'i>, name: &str) -> Result<Node<'a, 'i>, Error> {
        self.optional_child(node, name)?
            .ok_or_else(|| self.invalid(format!("<{}> needs a <{name}> element", node.tag_name().name())))
    }

    /// The child element named `name`, if there is one (two is an error).
    fn optional_child(&self, node: Node<'a, 'i>, name: &str) -> Result<Option<Node<'a, 'i>>, Error> {
        let mut found = elements(node).filter(|c| c.tag_name().name() == name);
        let first = found.next();
        if found.next().is_some() {
            return Err(self.invalid(format!("<{}> has two <{name}> elements", node.tag_name().name())));
        }
        Ok(first)
    }

    // ---- constraints ----

    /// The children of `<constraints>` or of a `<block>`.
    fn constraints_of(&mut self, parent: Node<'a, 'i>) -> Result<(), Error> {
        for node in elements(parent) {
            match node.tag_name().name() {
                "annotations" => {}
                _ => self.constraint(node)?,
            }
        }
        Ok(())
    }

    /// One constraint, group, block or slide.
    fn constraint(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        self.at(node);
        let name = node.tag_name().name();
        let before = self.model.num_constraints();
        if reification::ATTRIBUTES.iter().any(|&attribute| node.attribute(attribute).is_some()) {
            self.reified(node)?;
        } else {
            match name {
                "group" => return self.group(node),
                "block" => return self.constraints_of(node),
                "slide" => return self.slide(node),
                _ => {}
            }
            self.constraints += 1;
            self.constraint_body(node)?;
        }
        if symbolic::SYMBOLIC.contains(&name) {
            return Ok(());
        }
        self.at(node);
        self.no_symbolic(before, &format!("<{name}>"))
    }

    /// The constraint `node` (not a group, block or slide), lowered.
    fn constraint_body(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let name = node.tag_name().name();
        match name {
            "intension" => self.intension(node),
            "extension" => self.extension(node),
            "allDifferent" => self.all_different(node),
            "allEqual" => self.all_equal(node),
            "sum" => self.sum(node),
            "count" => self.count(node),
            "nValues" => self.n_values(node),
            "cardinality" => self.cardinality(node),
            "minimum" | "maximum" => self.extremum(node, name == "minimum"),
            "minimumArg" | "maximumArg" => self.extremum_arg(node, name == "minimumArg"),
            "element" => self.element(node),
            "channel" => self.channel(node),
            "ordered" => self.ordered(node),
            "lex" => self.lex(node),
            "instantiation" => self.instantiation(node),
            "regular" => self.regular(node),
            "mdd" => self.mdd(node),
            "circuit" => self.circuit(node),
            "noOverlap" => self.no_overlap(node),
            "cumulative" => self.cumulative(node),
            _ => Err(self.unsupported(format!("the constraint <{name}>"))),
        }
    }

    /// `<group>`: a template constraint and one `<args>` per instance of it.
    fn group(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        let mut children = elements(node).filter(|c| c.tag_name().name() != "annotations");
        let template = children.next().ok_or_else(|| self.invalid("<group> has no template constraint"))?;
        if self.arguments.is_some() {
            return Err(self.unsupported("a group inside a group or slide"));
        }
        // The specification: a template followed by a sequence of <args>,
        // each with as many arguments as the template has parameters (any
        // number more when it uses `%...`). A group without one would post
        // nothing, silently.
        let parameters = next_parameter(template);
        let takes_more = template.descendants().filter(Node::is_text).any(|t| t.text().unwrap_or("").contains("%..."));
        let mut instances = 0usize;
        for args in children {
            self.at(args);
            if args.tag_name().name() != "args" {
                return Err(
                    self.invalid(format!("unexpected <{}> in <group>, expected <args>", args.tag_name().name()))
                );
            }
            // As the official parser reads them (`parseSequence` of
            // XCSP3-Java-Tools): a compact list `x[0][]` is one argument per
            // variable it names, so `%0 %1 ...` and `%...` see each one.
            let arguments = self.list_tokens(args)?;
            if arguments.len() < parameters || (arguments.len() > parameters && !takes_more) {
                let takes = match parameters {
                    0 => "no parameter".to_string(),
                    1 => "1 parameter, %0".to_string(),
                    n => format!("{n} parameters, %0 to %{}", n - 1),
                };
                let more = if takes_more { " and %..." } else { "" };
                let plural = if arguments.len() == 1 { "" } else { "s" };
                return Err(self.invalid(format!(
                    "<args> has {} argument{plural} but the template has {takes}{more}",
                    arguments.len()
                )));
            }
            instances += 1;
            self.arguments = Some(arguments);
            let result = self.constraint(template);
            self.arguments = None;
            result?;
        }
        if instances == 0 {
            self.at(node);
            return Err(self.invalid(
                "<group> has no <args>: a group is a template followed by one <args> per constraint it posts",
            ));
        }
        Ok(())
    }

    /// `<slide>`: a template over a sliding window of a list (`offset`,
    /// `collect` and `circular` as the specification defines them). Over
    /// several lists, as the official parser reads them
    /// (`XSlide.buildScopes` of XCSP3-Java-Tools, which ACE and the checker
    /// use): each window takes `collect` (by default 1) items from each
    /// list in turn, moving by each list's `offset`; the first list alone
    /// decides the number of windows, as for one list, and the others wrap
    /// around their end. The template takes one argument per item collected.
    fn slide(&mut self, node: Node<'a, 'i>) -> Result<(), Error> {
        if self.arguments.is_some() {
            return Err(self.unsupported("a slide inside a group or slide"));
        }
        let circular = match node.attribute("circular") {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => return Err(self.invalid(format!("circular=\"{other}\" is neither true nor false"))),
        };
        let lists: Vec<Node<'a, 'i>> = elements(node).filter(|c| c.tag_name().name() == "list").collect();
        let template = elements(node)
            .find(|c| !matches!(c.tag_name().name(), "list" | "annotations"))
            .ok_or_else(|| self.invalid("<slide> has no template constraint"))?;
        if lists.is_empty() {
            return Err(self.invalid("<slide> has no <list>"));
        }
        // Each list's items, offset and collect.
        let mut windows = Vec::with_capacity(lists.len());
        for &list in &lists {
            self.at(list);
            let number = |name: &str, default: usize| -> Result<usize, Error> {
                match list.attribute(name) {
                    None => Ok(default),
                    Some(text) => match text.trim().parse::<usize>() {
                        Ok(value) if value > 0 => Ok(value),
                        _ => Err(self.invalid(format!("{name}=\"{text}\" is not a positive integer"))),
                    },
                }
            };
            let offset = number("offset", 1)?;
            let collect = number("collect", if lists.len() == 1 { next_parameter(template) } else { 1 })?;
            windows.push((self.list_tokens(list)?, offset, collect));
        }
        self.at(template);
        let arity: usize = windows.iter().map(|w| w.2).sum();
        if lists.len() > 1 && arity != next_parameter(template) {
            return Err(self.invalid(format!(
                "the slide's lists collect {arity} items per window but its template takes {} parameters",
                next_parameter(template)
            )));
        }
        // Window w uses items w * offset .. w * offset + collect of each
        // list, around its end; the first list decides how many there are.
        let (first, offset, collect) = &windows[0];
        let count = match (circular, first.len() >= *collect) {
            (true, _) => first.len().div_ceil(*offset),
            (false, true) => (first.len() - collect) / offset + 1,
            (false, false) => 0,
        };
        if count > 0 && windows.iter().any(|(tokens, _, collect)| tokens.is_empty() && *collect > 0) {
            return Err(self.invalid("a slide over an empty list"));
        }
        for window in 0..count {
            let mut arguments = Vec::with_capacity(arity);
            for (tokens, offset, collect) in &windows {
                let first = window * offset;
                arguments.extend((0..*collect).map(|k| tokens[(first + k) % tokens.len()].clone()));
            }
            self.arguments = Some(arguments);
            let result = self.constraint(template);
            self.arguments = None;
            result?;
        }
        Ok(())
    }

    /// The tokens of a list, each variable reference expanded to one token
    /// per variable (`x[]` becomes `x[0] x[1] ...`), for slides and the
    /// `<args>` of groups.
    fn list_tokens(&self, list: Node<'a, 'i>) -> Result<Vec<String>, Error> {
        let text = self.text(list)?;
        let mut tokens = Vec::new();
        for token in text.split_whitespace() {
            // A reference with only single indices (`x[2][3]`) names one
            // cell and stays as written, which reads the same later and
            // spares resolving it twice (a group of 89,700 <args> of two
            // cells costs 21% more instructions when each is resolved here).
            let compact = token.as_bytes().windows(2).any(|pair| matches!(pair, b"[]" | b".."));
            if compact && self.variables.names_variables(token) {
                let vars = self.variables.resolve(token).map_err(|m| self.invalid(m))?;
                tokens.extend(vars.into_iter().map(|var| self.model.display_name(var).into_owned()));
            } else {
                tokens.push(token.to_string());
            }
        }
        Ok(tokens)
    }
}

impl<'a, 'i> Lowering<'a, 'i> {
    /// `<objectives>`: one `<minimize>` or `<maximize>` of a variable, an
    /// expression, or of the `sum`, `minimum`, `maximum` or `nValues` of a
    /// list (`<list>`, with `<coeffs>` for a sum).
    fn objectives(&mut self, node: Node<'a, 'i>) -> Result<Goal, Error> {
        let objectives: Vec<Node<'a, 'i>> = elements(node).filter(|c| c.tag_name().name() != "annotations").collect();
        let [objective] = objectives.as_slice() else {
            return Err(match objectives.len() {
                0 => self.invalid("<objectives> holds no objective"),
                n => self.unsupported(format!("more than one objective ({n})")),
            });
        };
        self.at(*objective);
        let minimize = match objective.tag_name().name() {
            "minimize" => true,
            "maximize" => false,
            other => return Err(self.invalid(format!("unexpected <{other}> in <objectives>"))),
        };
        let kind = objective.attribute("type").unwrap_or("expression");
        let before = self.model.num_constraints();
        let value = match kind {
            "expression" => {
                let text = self.text(*objective)?;
                let expr = crate::expression::parse(&text).map_err(|e| self.expression_error(&text, &e))?;
                self.integer(&expr)?
            }
            "sum" | "minimum" | "maximum" | "nValues" => self.objective_of_list(*objective, kind)?,
            other => return Err(self.unsupported(format!("an objective of type {other}"))),
        };
        let var = self.var_of(&value)?;
        if self.variables.is_symbolic(var) {
            return Err(
                self.unsupported(format!("the symbolic variable {} as the objective", self.model.display_name(var)))
            );
        }
        self.no_symbolic(before, "the objective")?;
        let set = if minimize { self.model.minimize(var) } else { self.model.maximize(var) };
        set.map_err(|e| self.model_error(&e))?;
        Ok(if minimize { Goal::Minimize(var) } else { Goal::Maximize(var) })
    }

    fn objective_of_list(&mut self, objective: Node<'a, 'i>, kind: &str) -> Result<linear::Linear, Error> {
        let list = match self.optional_child(objective, "list")? {
            Some(list) => self.text(list)?,
            None => self.text(objective)?,
        };
        let values = self.linears(&list)?;
        match kind {
            "sum" => {
                let coefficients = match self.optional_child(objective, "coeffs")? {
                    Some(coeffs) => self.integers(&self.text(coeffs)?)?,
                    None => vec![1; values.len()],
                };
                if coefficients.len() != values.len() {
                    return Err(self.invalid(format!(
                        "{} terms but {} coefficients",
                        values.len(),
                        coefficients.len()
                    )));
                }
                let terms = values
                    .into_iter()
                    .zip(coefficients)
                    .map(|(value, coefficient)| value.times(i128::from(coefficient)))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| self.overflow())?;
                linear::Linear::sum(terms).ok_or_else(|| self.overflow())
            }
            "minimum" | "maximum" if values.is_empty() => Err(self.invalid("the minimum or maximum of an empty list")),
            "minimum" => self.arithmetic(crate::expression::Operator::Min, values),
            "maximum" => self.arithmetic(crate::expression::Operator::Max, values),
            _ => {
                let vars = values.iter().map(|v| self.var_of(v)).collect::<Result<Vec<VarId>, Error>>()?;
                if vars.is_empty() {
                    return Ok(linear::Linear::constant(0));
                }
                let count = self.auxiliary(1, vars.len() as i64)?;
                self.model.nvalue(count, &vars).map_err(|e| self.model_error(&e))?;
                Ok(linear::Linear::var(count))
            }
        }
    }
}
