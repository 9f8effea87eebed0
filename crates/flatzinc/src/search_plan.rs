//! The search annotations of the solve item (`int_search`, `bool_search`,
//! `seq_search`), read into a typed plan: phases, in order, each a group of
//! variables with its own variable and value choice; and the plan handed to
//! the engine as its search phases ([`SearchPlan::engine_phases`], see
//! [`csp::SearchPhase`]), which fzn-csp follows unless `-f` is given.

use crate::ast::{Annotation, Expr};
use csp::{ValueOrder, VarId, VarOrder};

use crate::lower::{Binding, Lowering, Value};

/// How a phase picks its next variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VariableChoice {
    /// `input_order`: the first unfixed one.
    InputOrder,
    /// `first_fail`: the smallest domain.
    FirstFail,
    /// `anti_first_fail`: the largest domain.
    AntiFirstFail,
    /// `smallest`: the smallest value in its domain.
    Smallest,
    /// `largest`: the largest value in its domain.
    Largest,
    /// `occurrence`: the most constraints.
    Occurrence,
    /// `most_constrained`: the smallest domain, ties by most constraints.
    MostConstrained,
    /// `max_regret`: the largest difference between its two smallest values.
    MaxRegret,
    /// `dom_w_deg`: the smallest domain size over weighted degree.
    DomWDeg,
}

impl VariableChoice {
    /// The engine's variable ordering that makes this choice.
    pub fn var_order(self) -> VarOrder {
        match self {
            VariableChoice::InputOrder => VarOrder::Input,
            VariableChoice::FirstFail => VarOrder::Mrv,
            VariableChoice::AntiFirstFail => VarOrder::AntiFirstFail,
            VariableChoice::Smallest => VarOrder::Smallest,
            VariableChoice::Largest => VarOrder::Largest,
            VariableChoice::Occurrence => VarOrder::Occurrence,
            VariableChoice::MostConstrained => VarOrder::MrvDegree,
            VariableChoice::MaxRegret => VarOrder::MaxRegret,
            VariableChoice::DomWDeg => VarOrder::DomWdeg,
        }
    }

    fn from_name(name: &str) -> Option<VariableChoice> {
        Some(match name {
            "input_order" => VariableChoice::InputOrder,
            "first_fail" => VariableChoice::FirstFail,
            "anti_first_fail" => VariableChoice::AntiFirstFail,
            "smallest" => VariableChoice::Smallest,
            "largest" => VariableChoice::Largest,
            "occurrence" => VariableChoice::Occurrence,
            "most_constrained" => VariableChoice::MostConstrained,
            "max_regret" => VariableChoice::MaxRegret,
            "dom_w_deg" => VariableChoice::DomWDeg,
            _ => return None,
        })
    }
}

/// How a phase splits the chosen variable's domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueChoice {
    /// `indomain_min`: `x = min`, then `x != min`.
    Min,
    /// `indomain_max`: `x = max`, then `x != max`.
    Max,
    /// `indomain_median`: the median value first.
    Median,
    /// `indomain_split`: `x <= (min + max) / 2` first.
    Split,
    /// `indomain_reverse_split`: `x > (min + max) / 2` first.
    ReverseSplit,
    /// `indomain_random`: a random value first.
    Random,
    /// `indomain`: every value in ascending order (d-way).
    Ascending,
}

impl ValueChoice {
    /// The engine's value ordering that makes this choice.
    pub fn value_order(self) -> ValueOrder {
        match self {
            ValueChoice::Min | ValueChoice::Ascending => ValueOrder::Ascending,
            ValueChoice::Max => ValueOrder::Descending,
            ValueChoice::Median => ValueOrder::Median,
            ValueChoice::Split => ValueOrder::Split,
            ValueChoice::ReverseSplit => ValueOrder::ReverseSplit,
            ValueChoice::Random => ValueOrder::Random,
        }
    }

    fn from_name(name: &str) -> Option<ValueChoice> {
        Some(match name {
            "indomain_min" => ValueChoice::Min,
            "indomain_max" => ValueChoice::Max,
            "indomain_median" => ValueChoice::Median,
            "indomain_split" => ValueChoice::Split,
            "indomain_reverse_split" => ValueChoice::ReverseSplit,
            "indomain_random" => ValueChoice::Random,
            "indomain" => ValueChoice::Ascending,
            _ => return None,
        })
    }
}

/// One `int_search` or `bool_search`: a group of variables searched in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchPhase {
    /// Whether the annotation was `bool_search`.
    pub is_bool: bool,
    /// The variables, in the annotation's order (constants included as written).
    pub variables: Vec<Value>,
    /// The variable choice.
    pub variable_choice: VariableChoice,
    /// The value choice.
    pub value_choice: ValueChoice,
}

/// The solve item's search annotations, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPlan {
    /// The phases in order (a `seq_search` is flattened).
    pub phases: Vec<SearchPhase>,
    /// The annotations that were not understood, with the reason.
    pub ignored: Vec<String>,
    /// The model's own variables: those no constraint defines (declared
    /// without `is_defined_var` and without a value), in declaration order.
    /// After the phases, the search decides these before the rest (see
    /// [`SearchPlan::engine_phases`]).
    pub undefined: Vec<VarId>,
}

impl SearchPlan {
    /// Reads the search annotations; what cannot be read is listed in `ignored`.
    pub(crate) fn read(annotations: &[Annotation], lowering: &Lowering) -> SearchPlan {
        let mut plan = SearchPlan { undefined: lowering.undefined.clone(), ..SearchPlan::default() };
        for annotation in annotations {
            plan.annotation(annotation, lowering);
        }
        plan
    }

    fn annotation(&mut self, annotation: &Annotation, lowering: &Lowering) {
        match annotation.name.as_str() {
            "seq_search" => match annotation.arguments.as_slice() {
                [Expr::Array(items)] => {
                    for item in items {
                        match item {
                            Expr::Call(inner) => self.annotation(inner, lowering),
                            Expr::Identifier(name, _) => self.ignored.push(format!("{name} (inside seq_search)")),
                            _ => self.ignored.push("a seq_search item that is not a search".to_string()),
                        }
                    }
                }
                _ => self.ignored.push("seq_search without a list".to_string()),
            },
            "int_search" | "bool_search" => match self.phase(annotation, lowering) {
                Ok(phase) => self.phases.push(phase),
                Err(reason) => self.ignored.push(format!("{} ({reason})", annotation.name)),
            },
            other => self.ignored.push(other.to_string()),
        }
    }

    fn phase(&self, annotation: &Annotation, lowering: &Lowering) -> Result<SearchPhase, String> {
        let [variables, variable_choice, value_choice, ..] = annotation.arguments.as_slice() else {
            return Err("expected variables, a variable choice and a value choice".to_string());
        };
        let variables = match variables {
            Expr::Array(items) => {
                items.iter().map(|item| lowering.value(item, annotation.position.line)).collect::<Result<_, _>>()
            }
            Expr::Identifier(name, _) => match lowering.binding(name) {
                Some(Binding::Array(values)) => Ok(values.clone()),
                _ => return Err(format!("{name} is not an array of variables")),
            },
            _ => return Err("the variables are not an array".to_string()),
        }
        .map_err(|e| e.to_string())?;
        let name = |expr: &Expr| match expr {
            Expr::Identifier(name, _) => Some(name.clone()),
            _ => None,
        };
        let variable_choice = name(variable_choice)
            .and_then(|n| VariableChoice::from_name(&n))
            .ok_or(format!("unknown variable choice {:?}", name(variable_choice).unwrap_or_default()))?;
        let value_choice = name(value_choice)
            .and_then(|n| ValueChoice::from_name(&n))
            .ok_or(format!("unknown value choice {:?}", name(value_choice).unwrap_or_default()))?;
        Ok(SearchPhase { is_bool: annotation.name == "bool_search", variables, variable_choice, value_choice })
    }

    /// The plan as the engine's search phases: each phase's variables
    /// (constants left out) with the engine orderings of its choices; then,
    /// when there is a phase, one more over the model's own variables
    /// ([`SearchPlan::undefined`]) with the default search's orderings
    /// (dom/wdeg, smallest value first), so that the variables a constraint
    /// defines (a reification's boolean, a sum's total) are decided last,
    /// once what defines them is fixed, as Gecode does. Deciding them
    /// earlier can thrash: a half-reified boolean, decided false, says
    /// nothing, so failures below it are found late.
    pub fn engine_phases(&self) -> Vec<csp::SearchPhase> {
        let mut phases = self.annotated_phases();
        if !phases.is_empty() && !self.undefined.is_empty() {
            phases.push(csp::SearchPhase::new(&self.undefined, VarOrder::DomWdeg, ValueOrder::Ascending));
        }
        phases
    }

    fn annotated_phases(&self) -> Vec<csp::SearchPhase> {
        self.phases
            .iter()
            .map(|phase| {
                let vars: Vec<VarId> = phase
                    .variables
                    .iter()
                    .filter_map(|value| match value {
                        Value::Var(var) => Some(*var),
                        Value::Const(_) => None,
                    })
                    .collect();
                csp::SearchPhase::new(&vars, phase.variable_choice.var_order(), phase.value_choice.value_order())
            })
            .collect()
    }

    /// One line per phase and per ignored annotation, for `-v`.
    pub fn describe(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .phases
            .iter()
            .map(|phase| {
                format!(
                    "{} over {} variables: {:?}, {:?}",
                    if phase.is_bool { "bool_search" } else { "int_search" },
                    phase.variables.len(),
                    phase.variable_choice,
                    phase.value_choice
                )
            })
            .collect();
        if !self.phases.is_empty() && !self.undefined.is_empty() {
            lines.push(format!(
                "then the {} variables no constraint defines (dom/wdeg, smallest value first)",
                self.undefined.len()
            ));
        }
        lines.extend(self.ignored.iter().map(|name| format!("ignored annotation: {name}")));
        lines
    }
}
