//! How to solve: propagation level, orderings, strengths, limits. (How a
//! configuration is written is the sibling module `spelling`'s.)

use std::fmt;
use std::time::Duration;

use super::restart::Restarts;

use crate::constraint::AllDifferentStrength;
use crate::constraints::ArcConsistency;
use crate::ids::VarId;

/// How much reasoning the solver does after each decision. The levels run the
/// same constraints with different scheduling, so they find the same solutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Propagation {
    /// Plain chronological backtracking: a constraint is only checked once the
    /// decisions cover its scope (`all_different` is checked pair by pair, as the
    /// clique of not-equal constraints it stands for). Domains are never pruned,
    /// so an interval domain (see [`SolveConfig::bitset_limit`]) is split down
    /// to each of its values: narrow wide ones at the root
    /// ([`SolveConfig::root_arc_consistency`]) or use another level.
    None,
    /// Forward checking (Haralick & Elliott 1980): after each decision, every
    /// constraint on the decided variable runs its propagator once, treating only
    /// decided variables as assigned; what it prunes is not propagated further.
    ForwardChecking,
    /// Maintained arc consistency: after each decision the propagators run to a
    /// fixpoint, driven by an AC-3 style queue of constraints (Mackworth 1977),
    /// and variables fixed by propagation count as assigned.
    #[default]
    Mac,
}

impl Propagation {
    /// The all-different strength a configuration spelled at this level has
    /// unless it names one: pairwise value elimination under plain
    /// backtracking and forward checking (the textbook algorithms, which
    /// treat an all-different as its clique of not-equals), matching
    /// (Régin 1994) under `mac`. So `fc` is classic forward checking, and
    /// `fc+matching` runs Régin's algorithm once per decision.
    pub fn default_all_different(self) -> AllDifferentStrength {
        match self {
            Propagation::None | Propagation::ForwardChecking => AllDifferentStrength::Pairwise,
            Propagation::Mac => AllDifferentStrength::Matching,
        }
    }
}

/// Which unassigned variable the search decides next. Ties go to the variable
/// created first, so every ordering is deterministic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarOrder {
    /// The order in which the variables were created.
    Input,
    /// Minimum remaining values: the smallest current domain first (the
    /// fail-first principle of Haralick & Elliott 1980).
    #[default]
    Mrv,
    /// MRV, ties broken by the largest number of constraints shared with other
    /// unassigned variables (Brélaz 1979).
    MrvDegree,
    /// Smallest ratio of domain size to degree, the number of constraints on
    /// the variable with another variable in the model's constraint graph,
    /// counted once when the solver is built (dom/deg, Bessière & Régin 1996).
    DomDeg,
    /// Smallest ratio of domain size to future degree, the number of
    /// constraints shared with unassigned variables, counted at each choice
    /// (dom/ddeg, the dynamic form; Boussemart, Hemery, Lecoutre & Sais 2004
    /// compare it with dom/wdeg).
    DomDdeg,
    /// Smallest ratio of domain size to weighted degree, where a constraint's weight
    /// counts the failures it caused (Boussemart, Hemery, Lecoutre & Sais 2004).
    DomWdeg,
    /// The variable with the highest activity first (VSIDS: Moskewicz et al.
    /// 2001, "Chaff"), ties to the smallest domain. With
    /// [`Search::Learning`] a variable's activity grows each time it takes
    /// part in a conflict's analysis (its atoms are in the learnt nogood or
    /// were resolved away), and every activity decays a little at each
    /// conflict, so recent conflicts weigh most; without learning, each
    /// failure bumps the failing constraint's variables.
    Vsids,
    /// The variable with the most active literal among its values left
    /// (literal VSIDS, as SAT solvers and Chuffed keep it): an activity per
    /// variable and value, bumped for the values a conflict's analysis
    /// meets (`x != v` removed, `x = v` decided; without learning, the
    /// values left to a failing constraint's variables), decayed like
    /// [`VarOrder::Vsids`]'s. Ties to the smallest domain. A variable of
    /// more than 64 values, or an interval, stands by its own activity.
    /// With [`ValueOrder::Active`] the search decides that literal.
    LiteralVsids,
    /// [`VarOrder::DomWdeg`] and [`VarOrder::LiteralVsids`] in turn, one
    /// restart run each, as Chuffed and CP-SAT switch between the model's
    /// search and the activity-based one at restarts: the first run, and
    /// every other one after it, chooses by dom/wdeg with the
    /// configuration's value order; the runs between decide the most
    /// active literal (literal VSIDS with [`ValueOrder::Active`], whatever
    /// the configuration's value order; a search phase keeps its own).
    /// Both keep what they learn across the runs: dom/wdeg's weights grow
    /// with every failure, the activities with every conflict, so each run
    /// starts from what the other found. Each ordering follows the restart
    /// policy's cutoffs as if it ran alone (the runs take each cutoff
    /// twice), so that neither gets only the short runs of Luby's sequence.
    /// Without restarts it is dom/wdeg throughout.
    Alternate,
    /// [`VarOrder::DomWdeg`], [`VarOrder::LiteralVsids`] and
    /// [`VarOrder::MaxSd`] in turn, one restart run each: [`VarOrder::Alternate`]
    /// with counting-based search as a third ordering, run after the literal
    /// one (its runs decide the densest pair first, whatever the
    /// configuration's value order, as [`VarOrder::MaxSd`] alone does).
    /// Each ordering follows the restart policy's cutoffs as if it ran
    /// alone (the runs take each cutoff three times). Without restarts it is
    /// dom/wdeg throughout.
    Rotate,
    /// The largest current domain first (MiniZinc's `anti_first_fail`).
    AntiFirstFail,
    /// The variable whose smallest value is the smallest (MiniZinc's `smallest`).
    Smallest,
    /// The variable whose largest value is the largest (MiniZinc's `largest`).
    Largest,
    /// The largest static degree first (see [`VarOrder::DomDeg`]; MiniZinc's
    /// `occurrence`).
    Occurrence,
    /// The largest regret first: the difference between the two smallest
    /// values of the domain (MiniZinc's `max_regret`; 1 for an interval).
    MaxRegret,
    /// Counting-based search, maxSD (Pesant, Quimper & Zanarini, JAIR 43,
    /// 2012; Zanarini & Pesant, CP 2007): the variable-value pair `x = v`
    /// with the highest solution density, the estimated fraction of an
    /// all-different's solutions in which `x = v` (from the Brégman-Minc
    /// bound on the permanent), over every all-different with unassigned
    /// variables. The frame opened for `x` tries `v` first, then the other
    /// values in increasing order, whatever the configuration's value order
    /// (a search phase's value order is kept). All-differents of more than
    /// 64 variables or whose values span more than 64, and every other
    /// constraint, are ignored; when none is left to read, the choice is
    /// dom/wdeg's, with the configuration's value order. Ties go to the
    /// smaller domain, then to the variable created first and the smaller
    /// value; with [`ValueOrder::Random`] as the configuration's value
    /// order, to a draw from the seed that changes with each restart run
    /// (the randomised ties of the paper's restarted setting).
    MaxSd,
    /// Counting-based search, maxRelSD (same paper): as [`VarOrder::MaxSd`],
    /// but the pair whose density exceeds the uniform `1 / |D_x|` the most.
    MaxRelSd,
    /// Exact cover's choice, as Knuth's Dancing Links makes it (Knuth,
    /// "Dancing Links", 2000): the "column" with the fewest candidates,
    /// where a column is either a variable, which needs one of its values
    /// (MRV), or a value `v` an all-different must take, which needs one of
    /// its places: the unassigned variables of the constraint whose domain
    /// holds `v`. A constraint must take `v` when its variables' domains
    /// hold as many values in all as it has variables (a permutation, as
    /// sudoku's units are); otherwise none of its values is a column. When a
    /// place set is no larger than every domain (the set wins a tie; between
    /// sets of one size, the one whose constraint caused the most failures,
    /// then the first), the search decides `x = v` for the variable of the
    /// set with the smallest domain (ties to the first created), `x = v`
    /// first and then, under [`Branching::Binary`] and learning, `x != v`
    /// (the next choice takes the set again, one place smaller: Dancing
    /// Links' branching), or d-way `x`'s other values in increasing order;
    /// a search phase's value order is kept. Otherwise, and always without an all-different, the
    /// choice is exactly [`VarOrder::Mrv`]'s, with the configuration's value
    /// order. The all-differents read are those [`VarOrder::MaxSd`] reads.
    Places,
    /// [`VarOrder::Places`] weighted as dom/wdeg weighs domains, by the
    /// failures of the constraints: a place set's size is divided by one
    /// plus the failures its all-different caused, and the variable that
    /// [`VarOrder::DomWdeg`] chooses competes with its domain size divided by
    /// the mean weight of its constraints with another unassigned variable
    /// (with no failure yet, both are plain counts; the place set wins a
    /// tie). A place set that wins decides `x = v` for its variable with the
    /// smallest dom/wdeg ratio. Otherwise, and always without an
    /// all-different, the choice is exactly [`VarOrder::DomWdeg`]'s.
    WeightedPlaces,
    /// [`VarOrder::WeightedPlaces`] and [`VarOrder::LiteralVsids`] in turn,
    /// one restart run each, as [`VarOrder::Alternate`] turns dom/wdeg and
    /// literal VSIDS (with [`ValueOrder::Active`] in the literal runs, and
    /// each cutoff taken twice). Without restarts it is weighted places
    /// throughout.
    AlternatePlaces,
    /// The variable with the highest CHB score first (the conflict
    /// history-based branching of Liang, Ganesh, Poupart & Czarnecki, AAAI
    /// 2016), ties to the smallest domain. A score is an exponential
    /// recency weighted average of rewards: with [`Search::Learning`],
    /// after each propagation every variable it narrowed is rewarded
    /// `m / (conflicts - c + 1)`, where `c` is the latest conflict whose
    /// analysis met the variable and `m` is 1.0 when the propagation failed
    /// and 0.9 otherwise; the step size starts at 0.4 and falls by 10^-6
    /// per conflict to 0.06. Without learning, each failure rewards the
    /// failing constraint's variables as a conflict's.
    Chb,
    /// [`VarOrder::DomWdeg`] and [`VarOrder::Chb`] in turn, one restart run
    /// each, as [`VarOrder::Alternate`] turns dom/wdeg and literal VSIDS
    /// (both with the configuration's value order, each cutoff taken
    /// twice). Without restarts it is dom/wdeg throughout.
    AlternateChb,
    /// [`VarOrder::Chb`] and [`VarOrder::LiteralVsids`] in turn, one
    /// restart run each: [`VarOrder::Alternate`] with CHB in dom/wdeg's
    /// turn (the literal runs with [`ValueOrder::Active`], each cutoff
    /// taken twice). Without restarts it is CHB throughout.
    ChbLiteral,
    /// The variable with the highest LRB score first (the learning rate
    /// based branching of Liang, Ganesh, Poupart & Czarnecki, SAT 2016, with
    /// its locality extension), ties to the smallest domain. A score is an
    /// exponential recency weighted average of learning rates: with
    /// [`Search::Learning`], when a variable is unassigned its rate is the
    /// conflicts whose analysis met it while it was assigned over the
    /// conflicts since it was assigned, and the step size starts at 0.4 and
    /// falls by 10^-6 per conflict to 0.06; an unassigned variable's score
    /// decays by 0.95 per conflict. "Assigned" means narrowed above the
    /// root: from the first narrowing at a decision level of one or more to
    /// the backtrack that undoes it. Without learning, each failure is a
    /// conflict of rate 1 for the failing constraint's variables.
    Lrb,
    /// [`VarOrder::DomWdeg`] and [`VarOrder::Lrb`] in turn, one restart run
    /// each, as [`VarOrder::AlternateChb`] turns dom/wdeg and CHB. Without
    /// restarts it is dom/wdeg throughout.
    AlternateLrb,
}

impl VarOrder {
    /// The orderings a rotating order ([`VarOrder::Alternate`],
    /// [`VarOrder::Rotate`], [`VarOrder::AlternatePlaces`],
    /// [`VarOrder::AlternateChb`], [`VarOrder::ChbLiteral`],
    /// [`VarOrder::AlternateLrb`]) takes in turn, one restart run each, in the
    /// order of the runs; empty for any other order.
    pub fn rotation(self) -> &'static [VarOrder] {
        match self {
            VarOrder::Alternate => &[VarOrder::DomWdeg, VarOrder::LiteralVsids],
            VarOrder::Rotate => &[VarOrder::DomWdeg, VarOrder::LiteralVsids, VarOrder::MaxSd],
            VarOrder::AlternatePlaces => &[VarOrder::WeightedPlaces, VarOrder::LiteralVsids],
            VarOrder::AlternateChb => &[VarOrder::DomWdeg, VarOrder::Chb],
            VarOrder::ChbLiteral => &[VarOrder::Chb, VarOrder::LiteralVsids],
            VarOrder::AlternateLrb => &[VarOrder::DomWdeg, VarOrder::Lrb],
            _ => &[],
        }
    }
}

/// In which order the search tries the values of the chosen variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ValueOrder {
    /// Smallest value first.
    #[default]
    Ascending,
    /// Largest value first.
    Descending,
    /// A pseudo-random order drawn from [`SolveConfig::seed`].
    Random,
    /// Least-constraining value first: each value is tried by propagation and the
    /// ones that prune the fewest values from other variables go first (ties by value).
    LeastConstraining,
    /// Phase saving (Pipatsrisawat & Darwiche 2007): the value the variable
    /// last had, when it still has it, else the smallest. With
    /// [`Search::Learning`] that is the value it held before the last
    /// backjump undid it; otherwise the value it was last decided to.
    Phase,
    /// The most active value first (see [`VarOrder::LiteralVsids`]), ties
    /// to the saved phase (as [`ValueOrder::Phase`]), then the others in
    /// increasing order; a variable without literal activities (more than
    /// 64 values) as [`ValueOrder::Phase`], an interval its lower half first.
    Active,
    /// The median first (the lower one of an even number of values), then
    /// the median of the values left, and so on outwards (MiniZinc's
    /// `indomain_median`). An interval is split at its middle.
    Median,
    /// Domain splitting (MiniZinc's `indomain_split`): a binary choice
    /// `x <= (min + max) / 2` (rounded down), then `x > (min + max) / 2`,
    /// whatever the branching; the search chooses again below each half.
    Split,
    /// Domain splitting, upper half first (MiniZinc's `indomain_reverse_split`).
    ReverseSplit,
    /// Solution-guided (Beck 2007; Demirović, Chu & Stuckey 2018, as
    /// Chuffed's and OR-Tools' free search use it under branch and bound):
    /// the value the variable has in the run's last solution (under branch
    /// and bound, the best so far), when the domain still has it, then the
    /// others in increasing order; before the first solution, ascending. On
    /// an interval the half that holds that value first. With restarts, each
    /// descent starts from the incumbent, so that the search looks for a
    /// better solution near it.
    SolutionGuided,
}

/// One phase of a search plan (MiniZinc's `int_search`): variables to decide
/// before the rest, how to choose among them and how to order their values.
///
/// The phases of [`SolveConfig::phases`] are searched in order: while a
/// phase has an unassigned variable the search decides one of them (with
/// [`VarOrder::Input`], the first in the phase's list; otherwise by the
/// phase's ordering, ties to the first in the list), and once every
/// phase's variables are assigned it decides the remaining variables by the
/// configuration's own orderings. So a plan never has to cover every
/// variable. A variable in several phases takes the value order of its
/// first phase.
///
/// ```
/// use csp::{Model, SearchPhase, SolveConfig, Solver, ValueOrder, VarOrder};
///
/// let mut model = Model::new();
/// let x = model.new_vars(3, 0..=9).unwrap();
/// model.all_different(&x).unwrap();
/// // x[2] first, largest value first; then the others by the defaults.
/// let phase = SearchPhase::new(&x[2..], VarOrder::Input, ValueOrder::Descending);
/// let config = SolveConfig::default().with_phases(vec![phase]);
/// let mut solver = Solver::new(&model, config).unwrap();
/// let solution = solver.solve().into_solution().unwrap();
/// assert_eq!(solution.values(), &[0, 1, 9]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SearchPhase {
    /// The variables, in order (the order [`VarOrder::Input`] follows).
    pub vars: Vec<VarId>,
    /// How to choose the next variable among them.
    pub var_order: VarOrder,
    /// In which order to try the chosen variable's values.
    pub value_order: ValueOrder,
}

impl SearchPhase {
    /// A phase over `vars`.
    pub fn new(vars: &[VarId], var_order: VarOrder, value_order: ValueOrder) -> SearchPhase {
        SearchPhase { vars: vars.to_vec(), var_order, value_order }
    }
}

/// How the search splits a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Branching {
    /// One child per value of the chosen variable, tried in the value order
    /// (d-way branching, the textbook backtracking search).
    #[default]
    Enumerate,
    /// Two children: `x = v`, then `x ≠ v` (2-way branching, as in most CP
    /// solvers). After the refutation is propagated the search chooses again,
    /// so it may go on with another variable: what a failed value taught
    /// (its removal, and what propagation draws from it) steers the next
    /// choice. Counts one node per `x = v` tried.
    Binary,
}

/// How the search goes through the tree: the propagation level after each
/// decision, how a node is split, and how the search goes back after a
/// failure. One choice rather than three fields, so that a configuration
/// cannot ask for a combination the engine does not implement: backjumping
/// is carried only by the levels and the branching it works with.
///
/// ```
/// use csp::{Backjumping, Branching, Jumps, Propagation, Search, SolveConfig};
///
/// let fc_cbj: SolveConfig = "fc-cbj+input".parse().unwrap();
/// assert_eq!(fc_cbj.search, Search::Backjumping(Backjumping::FcCbj));
/// assert_eq!(Search::backjumping(Propagation::Mac, Jumps::ConflictDirected), Some(Search::Backjumping(Backjumping::MacCbj)));
/// assert!(Search::backjumping(Propagation::Mac, Jumps::GraphBased).is_none(), "no mac-gbj");
/// // The chronological twin, and what the setters keep.
/// assert_eq!(fc_cbj.search.without_backjumping(), Search::chronological(Propagation::ForwardChecking));
/// assert_eq!(fc_cbj.clone().with_propagation(Propagation::None).search, Search::Backjumping(Backjumping::BtCbj));
/// assert!(!fc_cbj.with_branching(Branching::Binary).backjumping());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Search {
    /// Chronological backtracking: after a failure the search revises its
    /// most recent decision that has an alternative left. Every level, either
    /// branching.
    Chronological {
        /// The propagation level.
        propagation: Propagation,
        /// How a node is split.
        branching: Branching,
    },
    /// Backjumping: at a dead end the search may go back over decisions that
    /// took no part in it, to an earlier one. D-way branching.
    Backjumping(Backjumping),
    /// Search that learns from its failures: lazy clause generation (Ohrimenko,
    /// Stuckey & Codish 2009; Feydy & Stuckey 2009, as Chuffed and Pumpkin
    /// do it). Maintained arc consistency with binary decisions (`x = v`, or
    /// half of a split); each conflict is analysed, from the propagators'
    /// explanations, down to a nogood (first unique implication point) that
    /// is kept and propagated like a clause, and the search jumps back to
    /// the level where the nogood says something new. Restarts keep what was
    /// learnt; [`VarOrder::Vsids`] and [`ValueOrder::Phase`] are the
    /// orderings made for it. The search stays complete: `solutions` and
    /// `count` see each solution once (a found solution is excluded by a
    /// nogood of its decisions), branch and bound finds and proves the
    /// optimum.
    Learning,
}

/// The backjumping searches the engine implements: a propagation level and a
/// way of choosing where to jump ([`Jumps`]), as Prosser (1993) combines the
/// forward move of one algorithm with the backward move of another. D-way
/// branching. Once a solution has been found below a level, that level goes
/// back chronologically, so that counting and enumerating stay complete.
///
/// The reasons of failures and prunings are taken at the granularity of
/// constraints: a constraint that prunes or fails blames every decided
/// variable of its scope and whatever pruned the others. For binary
/// constraints this is the textbook algorithm; for wider constraints, or
/// propagators that also narrow the decided side, it is sound if less sharp.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Backjumping {
    /// BJ: plain backtracking with Gaschnig's backjumping (Gaschnig 1979).
    Bj,
    /// GBJ: plain backtracking with graph-based backjumping (Dechter 1990).
    Gbj,
    /// BT-CBJ: plain backtracking with conflict-directed backjumping (Prosser 1993).
    BtCbj,
    /// FC-BJ: forward checking with Gaschnig's backjumping (Prosser 1993).
    FcBj,
    /// FC-CBJ: forward checking with conflict-directed backjumping (Prosser 1993).
    FcCbj,
    /// MAC-CBJ: maintained arc consistency with conflict-directed backjumping
    /// (Prosser 1995). Under it the solver propagates every `all_different` on
    /// its own (no merged system), so that each removal has one constraint
    /// as its reason.
    MacCbj,
}

/// How a backjumping search chooses the decision to go back to from a dead
/// end (a level whose variable has no value left). A failure's *conflict* is
/// the set of earlier levels its constraint blames (see [`Backjumping`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Jumps {
    /// Gaschnig (1979): from a leaf dead end (no value of the level passed
    /// its checks or propagation) back to the deepest level in the conflicts
    /// of its values (with plain backtracking, which checks against the
    /// earlier decisions from the first, each value's shallowest conflict);
    /// from any other dead end back one level.
    Gaschnig,
    /// Graph-based (Dechter 1990): from any dead end back to the latest
    /// earlier neighbour of its variable in the constraint graph, or of the
    /// levels that jumped to it (its induced ancestors), which are handed on.
    GraphBased,
    /// Conflict-directed (Prosser 1993): from any dead end back to the
    /// deepest level in the conflicts of its values and of the levels that
    /// jumped to it, which are handed on.
    ConflictDirected,
}

impl Backjumping {
    /// Every backjumping search, in declaration order.
    pub const ALL: &'static [Backjumping] = &[
        Backjumping::Bj,
        Backjumping::Gbj,
        Backjumping::BtCbj,
        Backjumping::FcBj,
        Backjumping::FcCbj,
        Backjumping::MacCbj,
    ];

    /// The propagation level.
    pub fn propagation(self) -> Propagation {
        match self {
            Backjumping::Bj | Backjumping::Gbj | Backjumping::BtCbj => Propagation::None,
            Backjumping::FcBj | Backjumping::FcCbj => Propagation::ForwardChecking,
            Backjumping::MacCbj => Propagation::Mac,
        }
    }

    /// How it chooses where to jump.
    pub fn jumps(self) -> Jumps {
        match self {
            Backjumping::Bj | Backjumping::FcBj => Jumps::Gaschnig,
            Backjumping::Gbj => Jumps::GraphBased,
            Backjumping::BtCbj | Backjumping::FcCbj | Backjumping::MacCbj => Jumps::ConflictDirected,
        }
    }

    /// The backjumping search at `propagation` that jumps as `jumps` says,
    /// if the engine implements it (graph-based backjumping only with plain
    /// backtracking, Gaschnig's with plain backtracking and forward checking).
    pub fn new(propagation: Propagation, jumps: Jumps) -> Option<Backjumping> {
        Backjumping::ALL.iter().copied().find(|b| b.propagation() == propagation && b.jumps() == jumps)
    }
}

impl Default for Search {
    fn default() -> Search {
        Search::chronological(Propagation::default())
    }
}

impl Search {
    /// Chronological backtracking at `propagation`, d-way.
    pub fn chronological(propagation: Propagation) -> Search {
        Search::Chronological { propagation, branching: Branching::Enumerate }
    }

    /// Backjumping at `propagation` that jumps as `jumps` says, or `None`
    /// when the engine does not implement that combination (see [`Backjumping::new`]).
    pub fn backjumping(propagation: Propagation, jumps: Jumps) -> Option<Search> {
        Backjumping::new(propagation, jumps).map(Search::Backjumping)
    }

    /// The propagation level.
    pub fn propagation(self) -> Propagation {
        match self {
            Search::Chronological { propagation, .. } => propagation,
            Search::Backjumping(backjumping) => backjumping.propagation(),
            Search::Learning => Propagation::Mac,
        }
    }

    /// How a node is split.
    pub fn branching(self) -> Branching {
        match self {
            Search::Chronological { branching, .. } => branching,
            Search::Backjumping(_) => Branching::Enumerate,
            Search::Learning => Branching::Binary,
        }
    }

    /// How the search jumps back, if it backjumps (search that learns
    /// jumps back by its own analysis, see [`Search::learns`]).
    pub fn jumps(self) -> Option<Jumps> {
        match self {
            Search::Chronological { .. } | Search::Learning => None,
            Search::Backjumping(backjumping) => Some(backjumping.jumps()),
        }
    }

    /// Whether the search backjumps ([`Search::Backjumping`]; search that
    /// learns jumps back too, see [`Search::learns`]).
    pub fn backjumps(self) -> bool {
        matches!(self, Search::Backjumping(_))
    }

    /// Whether the search learns nogoods from its failures ([`Search::Learning`]).
    pub fn learns(self) -> bool {
        self == Search::Learning
    }

    /// The chronological twin: the same level and branching, backtracking
    /// chronologically.
    pub fn without_backjumping(self) -> Search {
        Search::Chronological { propagation: self.propagation(), branching: self.branching() }
    }

    /// This search at another level: the jumps stay where the level has them
    /// (otherwise the search becomes chronological), and learning with `mac`.
    pub fn with_propagation(self, propagation: Propagation) -> Search {
        match self {
            Search::Learning if propagation == Propagation::Mac => self,
            Search::Learning => Search::Chronological { propagation, branching: Branching::Binary },
            Search::Backjumping(backjumping) => {
                Search::backjumping(propagation, backjumping.jumps()).unwrap_or(Search::chronological(propagation))
            }
            Search::Chronological { branching, .. } => Search::Chronological { propagation, branching },
        }
    }

    /// This search with another branching: backjumping stays with d-way,
    /// learning with binary.
    pub fn with_branching(self, branching: Branching) -> Search {
        match (self, branching) {
            (Search::Backjumping(_), Branching::Enumerate) | (Search::Learning, Branching::Binary) => self,
            _ => Search::Chronological { propagation: self.propagation(), branching },
        }
    }
}

/// Probing (singleton consistency): after a node's propagation reaches its
/// fixpoint, the search tries values of the unfixed variables one at a time,
/// each as a temporary assumption `x = v` propagated to a fixpoint and undone;
/// a value whose assumption fails is removed from the node, and what that
/// removal propagates is kept. The sweep over the variables (in creation
/// order, each value in ascending order) is repeated until a whole sweep
/// removes nothing, so every probed value is then singleton arc consistent;
/// a variable left without values fails the node. Probing is part of a
/// node's inference: it makes no node, and the statistics count it in
/// [`Stats::probes`](crate::Stats::probes) and
/// [`Stats::probe_removals`](crate::Stats::probe_removals). It runs under
/// [`Propagation::Mac`] with chronological backtracking (either branching),
/// or with learning, where a probe is a temporary decision at a level of
/// its own and a failed one an ordinary conflict: analysed to a learnt
/// nogood, which asserts the probe's negation (or what the analysis found)
/// after a jump back, so that every removal has its explanation
/// (failed-literal probing; under
/// [`SolveConfig::root_probes`](crate::SolveConfig::root_probes) only at the
/// root). Not with backjumping, whose analyses would need a reason for each
/// probed removal (see [`Probing::supports`]). Interval domains are not
/// probed.
///
/// ```
/// use csp::{Model, Probing, SolveConfig, Solver};
///
/// // Two pigeons, three holes, one pigeon more than the holes left: plain
/// // propagation sees nothing, probing fails at the root.
/// let mut model = Model::new();
/// let x = model.new_vars(3, 0..=1).unwrap();
/// for i in 0..3 {
///     for j in i + 1..3 {
///         model.not_equal(x[i], x[j]).unwrap();
///     }
/// }
/// let config = SolveConfig::default().with_probing(Probing::Singleton);
/// let mut solver = Solver::new(&model, config).unwrap();
/// assert!(solver.solve().into_solution().is_none());
/// assert_eq!(solver.stats().nodes, 0);
/// assert!(solver.stats().probes > 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Probing {
    /// No probing (the default).
    #[default]
    Off,
    /// Only the variables with two values left (a sudoku's bivalue cells):
    /// cheap, since each failed probe fixes its variable to the other value.
    Bivalue,
    /// Every unfixed variable with a bitset domain, every value: singleton
    /// arc consistency at each node (Debruyne & Bessière 1997, SAC-1).
    Singleton,
}

impl Probing {
    /// Whether the search probes at all.
    pub fn is_on(self) -> bool {
        self != Probing::Off
    }

    /// Whether `search` can probe: `Err` with what is not supported and what
    /// is, when it cannot.
    pub fn supports(self, search: Search) -> Result<(), (&'static str, &'static str)> {
        const INSTEAD: &str = "probing runs under maintained arc consistency with chronological backtracking \
                               or learning: mac+probe, mac+sac, with or without binary or learn";
        if !self.is_on() {
            return Ok(());
        }
        match search {
            Search::Learning => Ok(()),
            Search::Backjumping(_) => Err(("probing with backjumping", INSTEAD)),
            Search::Chronological { propagation: Propagation::Mac, .. } => Ok(()),
            Search::Chronological { .. } => Err(("probing without maintained arc consistency", INSTEAD)),
        }
    }
}

/// When the solver stops before the search is complete.
///
/// Build one from [`Limits::none`] (also its `Default`) with the `with_`
/// methods; a limit that may be absent can be set on its field:
///
/// ```
/// use std::time::Duration;
/// use csp::{Limits, SolveConfig};
///
/// let limits = Limits::none().with_nodes(10_000).with_cpu_time(Duration::from_secs(5));
/// let config = SolveConfig::default().with_limits(limits);
/// assert_eq!(config.limits.nodes, Some(10_000));
///
/// let from_the_command_line: Option<Duration> = None;
/// let mut limits = Limits::none();
/// limits.time = from_the_command_line;
/// assert_eq!(limits, Limits::none());
/// ```
///
/// It is `#[non_exhaustive]`, so that a new kind of limit is not a breaking
/// change: outside this crate it cannot be written as a struct literal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Limits {
    /// Stop after this many decisions.
    pub nodes: Option<u64>,
    /// Stop after this many solutions (under branch and bound, this many
    /// improving ones).
    pub solutions: Option<u64>,
    /// Stop after this much wall-clock time, counted from the start of the
    /// run: checked during propagation as well as between nodes, at most a
    /// few milliseconds apart (a single propagator call is not interrupted).
    pub time: Option<Duration>,
    /// Stop after this much CPU time of the thread that runs the search,
    /// counted from the start of the run and checked where `time` is: unlike
    /// wall-clock time, it does not depend on how loaded the machine is.
    /// Zero stops at the first check, before any decision.
    pub cpu_time: Option<Duration>,
}

impl Limits {
    /// No limit: the search runs until it is complete.
    pub const fn none() -> Limits {
        Limits { nodes: None, solutions: None, time: None, cpu_time: None }
    }

    /// These limits with [`nodes`](Limits::nodes) set to `nodes` decisions.
    pub const fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// These limits with [`solutions`](Limits::solutions) set to `solutions`.
    pub const fn with_solutions(mut self, solutions: u64) -> Limits {
        self.solutions = Some(solutions);
        self
    }

    /// These limits with the wall-clock [`time`](Limits::time) set to `time`.
    pub const fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// These limits with the thread's [`cpu_time`](Limits::cpu_time) set to `cpu_time`.
    pub const fn with_cpu_time(mut self, cpu_time: Duration) -> Limits {
        self.cpu_time = Some(cpu_time);
        self
    }

    /// The limits that stop a run where either `self` or `other` would: each
    /// limit the smaller of the two, or the one that is set.
    pub fn tighter(self, other: Limits) -> Limits {
        fn min<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
        Limits {
            nodes: min(self.nodes, other.nodes),
            solutions: min(self.solutions, other.solutions),
            time: min(self.time, other.time),
            cpu_time: min(self.cpu_time, other.cpu_time),
        }
    }
}

/// Which limit stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// [`Limits::nodes`].
    Nodes,
    /// [`Limits::solutions`] (or the `k` of a count).
    Solutions,
    /// [`Limits::time`].
    Time,
    /// [`Limits::cpu_time`].
    CpuTime,
    /// A [`StopSignal`](crate::StopSignal) was raised (see
    /// [`Solver::stop_on`](crate::Solver::stop_on)): another thread stopped
    /// the run, a portfolio's other worker that answered first, say.
    Stopped,
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Limit::Nodes => "node limit",
            Limit::Solutions => "solution limit",
            Limit::Time => "time limit",
            Limit::CpuTime => "CPU time limit",
            Limit::Stopped => "stop signal",
        })
    }
}

/// Everything the solver can be told about how to search.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolveConfig {
    /// The propagation level, the branching and the look-back, as one choice
    /// (read them with [`propagation`](SolveConfig::propagation),
    /// [`branching`](SolveConfig::branching) and
    /// [`backjumping`](SolveConfig::backjumping)).
    pub search: Search,
    /// Establish arc consistency at the root before search, whatever the level.
    /// (Under [`Propagation::Mac`] the root is always made arc consistent.)
    pub root_arc_consistency: bool,
    /// The variable ordering.
    pub var_order: VarOrder,
    /// The value ordering.
    pub value_order: ValueOrder,
    /// The seed of [`ValueOrder::Random`] and of anything else random.
    pub seed: u64,
    /// The strength of `all_different` constraints posted without one of their own.
    pub all_different: AllDifferentStrength,
    /// The arc-consistency algorithm of generic support checking on binary
    /// constraints (under [`Propagation::Mac`] and at the root).
    pub arc_consistency: ArcConsistency,
    /// Propagate every `all_different` on its own even where the solver would
    /// merge them. By default, under [`Propagation::Mac`] with
    /// [`AllDifferentStrength::Matching`], the solver propagates the
    /// `all_different`s without offsets over one space of at most 64 values
    /// (sudoku units, Latin square rows and columns) as one system: the same
    /// pruning (each constraint domain consistent, to the common fixpoint, so
    /// the same search tree and solutions), one propagator call per wave
    /// instead of a cascade of calls and wake-ups. Pruning and failures are
    /// still attributed to the constraint that caused them. Set this to study
    /// the cascade itself (the `propagations` statistic counts calls).
    pub separate_all_different: bool,
    /// Where two merged all-differents over as many values as variables
    /// share two or more variables (a sudoku box and a line), a value whose
    /// places in one of them all lie in the shared part leaves the rest of
    /// the other ("pointing" and "claiming"). Stronger than the constraints'
    /// own domain consistency, so fewer nodes; it only acts within the
    /// merged system (under [`Propagation::Mac`] with matching strength,
    /// not with [`separate_all_different`](SolveConfig::separate_all_different)).
    pub all_different_intersections: bool,
    /// Under [`Search::Learning`], whether each learnt nogood is minimised:
    /// the facts its other facts imply are dropped (MiniSat's recursive
    /// minimisation over the propagators' explanations), so it is shorter
    /// and the search may jump back further. Off by default; the spelling
    /// `minimize` turns it on. It pays where explanations are cheap and
    /// nogoods carry many implied facts (a job shop: 3.2x less CPU), and
    /// costs more explanations than it saves on large sudokus and on the
    /// MiniZinc Challenge's instances (BENCHMARKS.md, "Minimising learnt
    /// nogoods").
    pub minimize_nogoods: bool,
    /// Under [`Search::Learning`], how the learnt nogoods are kept: with
    /// `false` (the default), every reduction deletes the worse half of
    /// them by literal block distance, then activity, except the glue ones
    /// (distance two or less; Audemard & Simon 2009); with `true` (spelled
    /// `tiers`), as modern CDCL solvers do (Oh 2016; CaDiCaL): the glue
    /// ones form the core kept for good, those of distance six or less
    /// (tier two) are kept while an analysis used them since the last
    /// reduction, and the local tier, the rest, loses its less active half.
    pub nogood_tiers: bool,
    /// Under [`Search::Learning`], whether a nogood's literal block
    /// distance is recounted whenever an analysis uses it, and lowered if
    /// smaller (Glucose's dynamic LBD, Audemard & Simon 2009); spelled
    /// `dynlbd`. It changes what the reduction weighs a nogood by;
    /// [`Restarts::Glucose`] still reads each nogood's distance when learnt.
    pub dynamic_lbd: bool,
    /// Under [`SolveConfig::dynamic_lbd`], Glucose's protection (Audemard &
    /// Simon 2009; Glucose's `canBeDel`): a nogood whose recounted distance
    /// is lowered from 30 or less is kept by the next reduction, which
    /// deletes others in its place; spelled `protect`. (Glucose lowers and
    /// protects only on a gain of two or more; here the lowering stays
    /// `dynlbd`'s, on any gain.) Off by default.
    pub lbd_protection: bool,
    /// Under [`SolveConfig::dynamic_lbd`], whether only the nogoods learnt
    /// as glue (distance two or less) are kept for good: a recount lowers a
    /// distance to three at the least; spelled `noglue`. Off by default.
    /// (Recounted freely, most of the database of a 25x25 sudoku's long
    /// search becomes glue that no reduction deletes: BENCHMARKS.md,
    /// "Glucose's protection, other bases and glue that grows".)
    pub learnt_glue_only: bool,
    /// Under [`SolveConfig::dynamic_lbd`], whether recounted glue (a nogood
    /// learnt with a distance above two that a recount lowered to two or
    /// less) expires: a reduction keeps it only if an analysis used it
    /// since the last reduction (as [`SolveConfig::nogood_tiers`] keeps tier
    /// two), and otherwise weighs it as any other nogood; spelled `expire`.
    /// Off by default. (BENCHMARKS.md, "Glue that expires or is capped".)
    pub expiring_glue: bool,
    /// Under [`SolveConfig::expiring_glue`], whether the glue that expired
    /// (not used since the last reduction) is weighed by activity alone
    /// instead of with the others by distance, where its distance of two or
    /// less ranks it last: each reduction deletes the less active half of
    /// the expired glue first (as a local tier that loses its less active
    /// half), then the rest of its share from the other nogoods, worst
    /// first; spelled `fade`. Under [`SolveConfig::nogood_tiers`] every
    /// candidate is weighed by activity alone already, so it changes
    /// nothing there. Off by default. (BENCHMARKS.md, "Counting-based
    /// search in turn, and glue that fades".)
    pub faded_glue_by_activity: bool,
    /// Under [`SolveConfig::dynamic_lbd`], whether the glue kept for good,
    /// learnt and recounted together, is capped at half of the learnt
    /// nogoods alive at a reduction: the least active recounted glue beyond
    /// that is weighed as any other nogood; spelled `gluecap`. Off by
    /// default. (BENCHMARKS.md, "Glue that expires or is capped".)
    pub glue_cap: bool,
    /// Under learning, whether learnt nogoods are vivified at restarts
    /// (Luo, Li, Xiao, Manyà & Lü 2017; CaDiCaL's `vivify`): at the root,
    /// the nogoods not yet vivified, the lowest literal block distance
    /// first, have their facts assumed one at a time and propagated with
    /// the nogood itself switched off; a conflict, or a fact the others
    /// make false, ends the nogood there, and a fact the others imply is
    /// dropped. A round spends at most a tenth of the constraint checks
    /// made since the last one. Spelled `vivify`. Off by default.
    /// (BENCHMARKS.md, "Vivification of learnt nogoods".)
    pub vivify_nogoods: bool,
    /// Whether each restart records the nogoods of the branch it leaves
    /// (Lecoutre, Sais, Tabary & Vidal 2007, "Recording and minimizing
    /// nogoods from restarts"), for the search that does not learn; spelled
    /// `nld`. For each refuted decision `x = v` of the branch (binary
    /// branching's `x ≠ v`, or a value a d-way frame tried before its
    /// current one), whose subtree was explored to the end without a
    /// solution, it keeps the reduced nld-nogood: the positive decisions
    /// above it and `x = v` cannot all hold. The nogoods are propagated with
    /// two watched literals at every fixpoint of the run, so that no later
    /// restart enters an explored subtree again, and are forgotten with the
    /// run. Nothing is recorded once the run has a solution (so counting
    /// and branch and bound see every solution as before; restarts stop at
    /// the first solution anyway when enumerating). Needs `mac`, Luby's or
    /// geometric restarts, and chronological search: refused with learning
    /// (which keeps its own nogoods across restarts) and with backjumping.
    /// Off by default.
    pub restart_nogoods: bool,
    /// Probing after each node's propagation (see [`Probing`]); off by default.
    pub probing: Probing,
    /// Under [`Probing`], whether a probe propagates cheaply
    /// ([`Context::is_cheap`](crate::Context::is_cheap)): the propagators
    /// that can skip the expensive part of their reasoning do (the
    /// all-different system and the matching strength skip the matching,
    /// keeping singles, hidden singles and intersections); spelled `cheap`.
    /// A probe fails less often, each costs less; the node's own
    /// propagation, and that of each probed removal, is still complete.
    /// Off by default.
    pub cheap_probes: bool,
    /// Under [`Probing`], whether a sweep probes only the variables near a
    /// change: those that share a constraint with a variable whose domain
    /// changed since the last sweep the domains descend from (the previous
    /// sweep of the node, or the last one of the nearest probed ancestor);
    /// every candidate when there is none (the root, after a restart). A
    /// variable away from every change is skipped although its probes
    /// could fail now: weaker, never unsound. Spelled `touched`; off by
    /// default.
    pub touched_probes: bool,
    /// Under [`Probing`] with learning, whether the search probes only at
    /// the root (at the start, after each restart and after each jump back
    /// to the root), as SAT solvers probe between restarts, instead of at
    /// every node. Spelled `atroot`; off by default.
    pub root_probes: bool,
    /// Whether the search restarts from the root after a number of failures.
    pub restarts: Restarts,
    /// Under [`Search::Learning`] with [`ValueOrder::Phase`], target phases
    /// (Biere & Fleury 2020, "Chasing target phases"; CaDiCaL's `target`):
    /// at each conflict the solver remembers the assignment of the largest
    /// conflict-free state since the last restart or rephase (the target:
    /// the fixed variables before the last decision, or before the last
    /// assertion), and a decision tries the variable's target value first,
    /// then its saved phase. Spelled `target`; off by default. Under
    /// [`SolveConfig::stable_modes`] the stable mode uses target phases
    /// whether or not this is on. (BENCHMARKS.md, "Target phases,
    /// rephasing and modes on the heavy tail".)
    pub target_phases: bool,
    /// Under [`Search::Learning`], rephasing (CaDiCaL's `rephase`): every so
    /// often the saved phases are reset, in the cycle best, original, best,
    /// inverted, best, random (CaDiCaL's "B O B I B W" with a random walk's
    /// turn taken by random values): the best is the assignment of the
    /// largest conflict-free state since the last rephase to it, the
    /// original is no saved phase (the smallest value first), inverted the
    /// largest value, random one drawn from the seed. Rephase number `k`
    /// (from 1) comes at the first restart after `unit x k(k+1)/2`
    /// conflicts, an arithmetic schedule, and is itself a restart. Spelled
    /// `rephase` (unit [`SolveConfig::REPHASE_UNIT`]) or `rephase=UNIT`;
    /// `None` (off) by default. (BENCHMARKS.md, "Target phases, rephasing
    /// and modes on the heavy tail".)
    pub rephase: Option<u32>,
    /// Under [`Search::Learning`], stable and focused modes (CaDiCaL and
    /// Kissat): the search starts focused (the configured restarts, today's
    /// behaviour) and switches after `unit` conflicts to stable (Luby
    /// restarts of [`SolveConfig::STABLE_LUBY_SCALE`] conflicts, target
    /// phases, VSIDS activities that decay more slowly), then back, each
    /// mode twice as long as the one before (`unit x 2^i` conflicts for mode
    /// `i`). A switch is a restart. Under a rotating order
    /// ([`VarOrder::rotation`]) the orderings take turns by mode instead of
    /// by restart: [`VarOrder::Alternate`] decides by dom/wdeg in the
    /// focused modes and by the most active literal in the stable ones, as
    /// CaDiCaL's focused mode has its ordering (VMTF) and its stable mode
    /// VSIDS. Spelled `stable` (unit [`SolveConfig::STABLE_UNIT`]) or
    /// `stable=UNIT`; `None` (off) by default. (BENCHMARKS.md, "Target
    /// phases, rephasing and modes on the heavy tail".)
    pub stable_modes: Option<u32>,
    /// Under [`Search::Learning`], chronological backtracking's search
    /// (Nadel & Ryvchin 2018; CaDiCaL's `chrono`) replayed: when a
    /// conflict's backjump undoes more than `levels` levels, the decisions
    /// of the levels between the jump's target and the conflict's are made
    /// again, in their order, before any other (each while its variable is
    /// free and its value left), so that the search goes on from the
    /// assignment chronological backtracking would have kept. The levels
    /// stay exact (each re-made decision opens its own level), so the
    /// analysis is unchanged; what the replay costs is the re-propagation
    /// that real chronological backtracking saves. Spelled `chrono`
    /// (threshold [`SolveConfig::CHRONO_LEVELS`]) or `chrono=LEVELS`
    /// (`chrono=1`: after every backjump); `None` (off) by default.
    /// (BENCHMARKS.md, "Chronological backtracking replayed on the heavy
    /// tail".)
    pub chrono: Option<u32>,
    /// Limits on nodes, solutions and time.
    pub limits: Limits,
    /// The widest range domain the solver keeps as a bitset
    /// ([`SolveConfig::DEFAULT_BITSET_LIMIT`], 2^16 values, by default). A
    /// wider range is an *interval*: its two bounds only, 16 bytes whatever its
    /// width, where a bitset takes a 64-bit word per 64 values. Interval
    /// domains are for bounds reasoning: removing an inner value does
    /// nothing, the search splits them (`x <= mid`, then `x > mid`) instead of
    /// trying their values one by one, and `all_different` over them is
    /// bounds consistent. Domains given as lists of values are always bitsets.
    pub bitset_limit: u64,
    /// A search plan: phases of variables decided first, in order, each with
    /// its own orderings (see [`SearchPhase`]); empty by default. Not part
    /// of the one-line spelling.
    pub phases: Vec<SearchPhase>,
    /// Tests only: the fewest terms of a plain linear sum whose propagator
    /// keeps its sums from call to call (`None`, the default: the solver's
    /// own threshold, 32 terms, 2 under the `checks` feature), so that tests
    /// of small models reach the incremental propagator in every build. Not
    /// part of the one-line spelling.
    #[doc(hidden)]
    pub long_sums_from: Option<usize>,
    /// Tests only: the propagator calls a fixpoint makes before its queue
    /// turns to sweeps (`None`, the default: 2^14 and four a propagator;
    /// `Some(1)`: sweeps from the first call), so that tests of small models
    /// reach the sweeps. Not part of the one-line spelling.
    #[doc(hidden)]
    pub slow_fixpoint: Option<u64>,
}

impl Default for SolveConfig {
    fn default() -> SolveConfig {
        SolveConfig {
            search: Search::default(),
            root_arc_consistency: false,
            var_order: VarOrder::default(),
            value_order: ValueOrder::default(),
            seed: 0,
            all_different: AllDifferentStrength::default(),
            arc_consistency: ArcConsistency::default(),
            separate_all_different: false,
            all_different_intersections: false,
            minimize_nogoods: false,
            nogood_tiers: false,
            dynamic_lbd: false,
            lbd_protection: false,
            learnt_glue_only: false,
            expiring_glue: false,
            faded_glue_by_activity: false,
            glue_cap: false,
            vivify_nogoods: false,
            restart_nogoods: false,
            probing: Probing::Off,
            cheap_probes: false,
            touched_probes: false,
            root_probes: false,
            restarts: Restarts::default(),
            target_phases: false,
            rephase: None,
            stable_modes: None,
            chrono: None,
            limits: Limits::none(),
            bitset_limit: SolveConfig::DEFAULT_BITSET_LIMIT,
            phases: Vec::new(),
            long_sums_from: None,
            slow_fixpoint: None,
        }
    }
}

impl SolveConfig {
    /// The default [`bitset_limit`](SolveConfig::bitset_limit): 2^16 values,
    /// 8 KiB per variable. Above it, a decision on a bitset would walk and
    /// trail up to a thousand words (BENCHMARKS.md has the measurements), and
    /// N-queens up to 65,536 queens keeps the holes its pruning needs.
    pub const DEFAULT_BITSET_LIMIT: u64 = 1 << 16;

    /// The default unit of [`SolveConfig::rephase`], in conflicts
    /// (CaDiCaL's `rephaseint`).
    pub const REPHASE_UNIT: u32 = 1000;

    /// The default threshold of [`SolveConfig::chrono`], in levels a
    /// backjump undoes (CaDiCaL's `chronolevels`).
    pub const CHRONO_LEVELS: u32 = 100;

    /// The default unit of [`SolveConfig::stable_modes`]: the conflicts of
    /// the first focused mode (CaDiCaL's `stabilizeinit`).
    pub const STABLE_UNIT: u32 = 1000;

    /// The scale of the Luby restarts of the stable mode of
    /// [`SolveConfig::stable_modes`], in conflicts.
    pub const STABLE_LUBY_SCALE: u32 = 512;

    /// The propagation level.
    pub fn propagation(&self) -> Propagation {
        self.search.propagation()
    }

    /// How a node is split.
    pub fn branching(&self) -> Branching {
        self.search.branching()
    }

    /// Whether the search backjumps (see [`Backjumping`]).
    pub fn backjumping(&self) -> bool {
        self.search.backjumps()
    }

    /// Whether the search learns nogoods ([`Search::Learning`]).
    pub fn learning(&self) -> bool {
        self.search.learns()
    }

    /// This configuration with another search (level, branching, look-back).
    pub fn with_search(mut self, search: Search) -> Self {
        self.search = search;
        self
    }

    /// This configuration with another propagation level. Backjumping stays
    /// where the level has its kind of jumps (conflict-directed at every
    /// level, Gaschnig's at `bt` and `fc`, graph-based at `bt`); elsewhere the
    /// search becomes chronological (d-way). The all-different strength is
    /// kept as it is (the spelling's default depends on the level: see
    /// [`Propagation::default_all_different`]).
    pub fn with_propagation(mut self, propagation: Propagation) -> Self {
        self.search = self.search.with_propagation(propagation);
        self
    }

    /// This configuration with another branching. Backjumping branches
    /// d-way: binary branching makes the search chronological.
    pub fn with_branching(mut self, branching: Branching) -> Self {
        self.search = self.search.with_branching(branching);
        self
    }

    /// This configuration with another variable ordering.
    pub fn with_var_order(mut self, order: VarOrder) -> Self {
        self.var_order = order;
        self
    }

    /// This configuration with another value ordering.
    pub fn with_value_order(mut self, order: ValueOrder) -> Self {
        self.value_order = order;
        self
    }

    /// This configuration with another `all_different` strength.
    pub fn with_all_different(mut self, strength: AllDifferentStrength) -> Self {
        self.all_different = strength;
        self
    }

    /// Whether a search under this configuration draws from
    /// [`SolveConfig::seed`], so that another seed may search another tree:
    /// under the [`ValueOrder::Random`] value order (which also breaks the
    /// counting-based orderings' ties at random), or when a learning search
    /// rephases (one rephase in six sets random phases).
    pub fn draws_at_random(&self) -> bool {
        self.value_order == ValueOrder::Random || (self.learning() && self.rephase.is_some())
    }

    /// This configuration with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// This configuration with another [`Probing`].
    pub fn with_probing(mut self, probing: Probing) -> Self {
        self.probing = probing;
        self
    }

    /// This configuration with another restart policy.
    pub fn with_restarts(mut self, restarts: Restarts) -> Self {
        self.restarts = restarts;
        self
    }

    /// This configuration with other limits.
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// This configuration with another [`bitset_limit`](SolveConfig::bitset_limit).
    pub fn with_bitset_limit(mut self, values: u64) -> Self {
        self.bitset_limit = values;
        self
    }

    /// This configuration with a search plan (see [`SearchPhase`]).
    pub fn with_phases(mut self, phases: Vec<SearchPhase>) -> Self {
        self.phases = phases;
        self
    }
}
