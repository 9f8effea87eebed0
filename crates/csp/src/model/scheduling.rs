//! The constructors of the scheduling and packing constraints: `cumulative`,
//! `disjunctive`, `disjunctive_strict`, `bin_packing_load`, `diffn` and
//! `diffn_nonstrict`.

use super::{Model, ModelError};
use crate::constraints::operand::Operand;
use crate::constraints::{BinPacking, Cumulative, Diffn, Disjunctive};
use crate::ids::{ConstraintId, VarId};

impl Model {
    /// Tasks with the given start times, durations and resource uses never use
    /// more than `capacity` at any time (MiniZinc's `cumulative`). Durations,
    /// uses and the capacity are variables or constants ([`Operand`]; plain
    /// `i64`s and [`VarId`]s convert). A task of no duration or no use counts
    /// nowhere; durations and uses must be at least 0, and the capacity too
    /// when there is a task. Time-table propagation; see
    /// [`Cumulative`](crate::constraints::Cumulative).
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    ///
    /// // Three tasks of length 2 using 2, 1 and 2 of a capacity of 3, within [0, 4).
    /// let mut model = Model::new();
    /// let starts = model.new_vars(3, 0..=2).unwrap();
    /// model.cumulative(&starts, &[2, 2, 2], &[2, 1, 2], 3).unwrap();
    /// let solution = model.solve().unwrap().expect("the two big tasks one after the other");
    /// assert_eq!((solution[starts[0]] - solution[starts[2]]).abs(), 2);
    /// ```
    pub fn cumulative<D, R>(
        &mut self,
        starts: &[VarId],
        durations: &[D],
        resources: &[R],
        capacity: impl Into<Operand>,
    ) -> Result<ConstraintId, ModelError>
    where
        D: Into<Operand> + Copy,
        R: Into<Operand> + Copy,
    {
        const KIND: &str = "cumulative";
        self.check_lengths(
            KIND,
            "task",
            starts.len(),
            &[("durations", durations.len()), ("resources", resources.len())],
        )?;
        let durations = self.operands(KIND, "duration", durations)?;
        let resources = self.operands(KIND, "resource use", resources)?;
        let capacity = self.operands(KIND, "capacity", &[capacity.into()])?[0];
        self.post(Cumulative::new(starts.to_vec(), durations, resources, capacity))
    }

    /// Tasks with the given start times and durations do not overlap, except
    /// that a task of no duration may be anywhere (MiniZinc's `disjunctive`).
    /// Durations are variables or constants and must be at least 0.
    /// Time-table propagation and edge-finding; see
    /// [`Disjunctive`](crate::constraints::Disjunctive).
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    ///
    /// // Three tasks of lengths 3, 2 and 1 on one machine within [0, 6): 3! orders.
    /// let mut model = Model::new();
    /// let starts = model.new_vars(3, 0..=5).unwrap();
    /// let ends: Vec<_> = starts.iter().zip([3, 2, 1]).map(|(&s, d)| (s, d)).collect();
    /// for (s, d) in ends {
    ///     model.linear(&[(1, s)], csp::Relation::Le, 6 - d).unwrap();
    /// }
    /// model.disjunctive(&starts, &[3, 2, 1]).unwrap();
    /// let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
    /// assert_eq!(count.solutions, 6);
    /// ```
    pub fn disjunctive<D>(&mut self, starts: &[VarId], durations: &[D]) -> Result<ConstraintId, ModelError>
    where
        D: Into<Operand> + Copy,
    {
        self.disjunctive_impl("disjunctive", starts, durations, false)
    }

    /// As [`disjunctive`](Model::disjunctive), but a task of no duration may not
    /// start strictly inside another (MiniZinc's `disjunctive_strict`).
    pub fn disjunctive_strict<D>(&mut self, starts: &[VarId], durations: &[D]) -> Result<ConstraintId, ModelError>
    where
        D: Into<Operand> + Copy,
    {
        self.disjunctive_impl("disjunctive_strict", starts, durations, true)
    }

    fn disjunctive_impl<D>(
        &mut self,
        kind: &str,
        starts: &[VarId],
        durations: &[D],
        strict: bool,
    ) -> Result<ConstraintId, ModelError>
    where
        D: Into<Operand> + Copy,
    {
        self.check_lengths(kind, "task", starts.len(), &[("durations", durations.len())])?;
        let durations = self.operands(kind, "duration", durations)?;
        self.post(Disjunctive::new(starts.to_vec(), durations, strict))
    }

    /// Item `i`, of size `sizes[i]`, goes into bin `bins[i]`, and the load of
    /// bin `base + b` is `loads[b]`, the sum of the sizes of its items
    /// (MiniZinc's `bin_packing_load`, with `base` the first index of its
    /// load array). Every item goes into one of the bins `base ..= base +
    /// loads.len() - 1`. Loads are variables or constants ([`Operand`]);
    /// sizes are constants (MiniZinc asks for sizes of at least 0; any sign
    /// is allowed here). Shaw's rules on the loads' bounds; see
    /// [`BinPacking`](crate::constraints::BinPacking).
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    ///
    /// // Items of sizes 3, 2, 2 and 1 into bins 1 and 2, each of load 4.
    /// let mut model = Model::new();
    /// let bins = model.new_vars(4, 1..=2).unwrap();
    /// let loads = model.new_vars(2, 4..=4).unwrap();
    /// model.bin_packing_load(&loads, &bins, &[3, 2, 2, 1], 1).unwrap();
    /// let count = Solver::new(&model, SolveConfig::default()).unwrap().count(None);
    /// // The item of size 3 goes with the item of size 1: two ways.
    /// assert_eq!(count.solutions, 2);
    /// ```
    pub fn bin_packing_load<L>(
        &mut self,
        loads: &[L],
        bins: &[VarId],
        sizes: &[i64],
        base: i64,
    ) -> Result<ConstraintId, ModelError>
    where
        L: Into<Operand> + Copy,
    {
        const KIND: &str = "bin_packing_load";
        self.check_lengths(KIND, "item", bins.len(), &[("sizes", sizes.len())])?;
        let loads = self.operands(KIND, "load", loads)?;
        self.operands(KIND, "size", sizes)?;
        Self::check_value(|| format!("{KIND} base"), base)?;
        self.post(BinPacking::new(loads, bins.to_vec(), sizes.to_vec(), base))
    }

    /// Rectangle `i`, with its origin at `(x[i], y[i])` and sizes `dx[i]`,
    /// `dy[i]`, overlaps no other: for every pair one ends before the other
    /// starts in `x` or in `y` (MiniZinc's `diffn`; a rectangle of no width
    /// still may not lie inside another). Sizes are variables or constants
    /// ([`Operand`]), of any sign as in MiniZinc. Each pair's disjunction on
    /// the bounds; see [`Diffn`](crate::constraints::Diffn).
    ///
    /// ```
    /// use csp::{Model, SolveConfig, Solver};
    ///
    /// // Two 2x2 squares and a 2x1 bar in a 4x2 box: 2 + 2 + 2 = 6 cells of 8.
    /// let mut model = Model::new();
    /// let x = [model.new_var(0..=2).unwrap(), model.new_var(0..=2).unwrap(), model.new_var(0..=2).unwrap()];
    /// let y = [model.new_var(0..=0).unwrap(), model.new_var(0..=0).unwrap(), model.new_var(0..=1).unwrap()];
    /// model.diffn(&x, &y, &[2, 2, 2], &[2, 2, 1]).unwrap();
    /// // The bar cannot fit beside two squares that fill the box.
    /// assert_eq!(Solver::new(&model, SolveConfig::default()).unwrap().count(None).solutions, 0);
    /// ```
    pub fn diffn<W, H>(&mut self, x: &[VarId], y: &[VarId], dx: &[W], dy: &[H]) -> Result<ConstraintId, ModelError>
    where
        W: Into<Operand> + Copy,
        H: Into<Operand> + Copy,
    {
        self.diffn_impl("diffn", x, y, dx, dy, false)
    }

    /// As [`diffn`](Model::diffn), but a rectangle of no width or no height
    /// may be anywhere (MiniZinc's `diffn_nonstrict`).
    pub fn diffn_nonstrict<W, H>(
        &mut self,
        x: &[VarId],
        y: &[VarId],
        dx: &[W],
        dy: &[H],
    ) -> Result<ConstraintId, ModelError>
    where
        W: Into<Operand> + Copy,
        H: Into<Operand> + Copy,
    {
        self.diffn_impl("diffn_nonstrict", x, y, dx, dy, true)
    }

    fn diffn_impl<W, H>(
        &mut self,
        kind: &str,
        x: &[VarId],
        y: &[VarId],
        dx: &[W],
        dy: &[H],
        nonstrict: bool,
    ) -> Result<ConstraintId, ModelError>
    where
        W: Into<Operand> + Copy,
        H: Into<Operand> + Copy,
    {
        self.check_lengths(kind, "rectangle", x.len(), &[("y", y.len()), ("dx", dx.len()), ("dy", dy.len())])?;
        let dx = self.operands(kind, "width", dx)?;
        let dy = self.operands(kind, "height", dy)?;
        self.post(Diffn::new(x.to_vec(), y.to_vec(), dx, dy, nonstrict))
    }

    /// Checks that every list has one entry per task (`per` names what a task is).
    fn check_lengths(
        &self,
        kind: &str,
        per: &'static str,
        tasks: usize,
        lists: &[(&'static str, usize)],
    ) -> Result<(), ModelError> {
        lists.iter().try_for_each(|&list| Self::check_length(kind, list, (per, tasks)))
    }

    /// The arguments as operands, with their constants checked to be in range
    /// (their variables are checked when the constraint is posted).
    fn operands<T: Into<Operand> + Copy>(
        &self,
        kind: &str,
        what: &str,
        arguments: &[T],
    ) -> Result<Vec<Operand>, ModelError> {
        arguments
            .iter()
            .map(|&argument| {
                let operand = argument.into();
                if let Operand::Const(value) = operand {
                    Self::check_value(|| format!("{kind} {what}"), value)?;
                }
                Ok(operand)
            })
            .collect()
    }
}
