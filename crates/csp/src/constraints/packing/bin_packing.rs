//! `bin_packing_load(load, bin, size)`: item `i` of size `size[i]` goes into
//! bin `bin[i]`, and each bin's load is the sum of the sizes of its items
//! (MiniZinc's `bin_packing_load`).
//!
//! The relation, as MiniZinc's decomposition (`fzn_bin_packing_load.mzn`)
//! has it: the bins are numbered `base, base + 1, ...`, one per load (the
//! load array's index set); every item goes into one of them (a bin number
//! outside is a violation); and `load[b]` is the sum of the sizes of the
//! items with `bin[i] = b`. MiniZinc asks for sizes of at least 0; the
//! relation and the reasoning here hold for any sign.
//!
//! Strength: Shaw (2004)'s basic rules, repeated until nothing moves:
//! - each bin's load lies between the sizes of the items surely in it and
//!   those that may be (a negative size lowers the least load instead);
//! - the loads add up to the sum of the sizes (a redundant linear equation:
//!   each load between the total and the other loads' bounds);
//! - an item leaves a bin whose load could not take it, and goes into a bin
//!   whose load could not do without it.
//!
//! Bounds only on the loads; any value of a bin variable. Sound, and it
//! checks fixed values: with every bin fixed, a load's two bounds are its
//! sum. Under learning, a load's bound is explained by the items it counted
//! (`bin = b` for one fixed in the bin, `bin ≠ b` for one that cannot go in,
//! the largest first, only as many as the bound needs) or by the other
//! loads' bounds (the sum rule); an item's lost bin by that bin's load bound
//! and the other items that fill or empty it (a bound of an interval bin
//! variable, however far it moved, by each bin number it passed and, when
//! it started among the bins, its old bound); a failure by the loads' bounds.

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::operand::{Operand, OperandScope, Slot};
use crate::ids::{Atom, VarId};
use crate::kernel::{Conflict, Context, Event, Explained, Explanation, PropagationResult};

/// Each bin's load is the sum of the sizes of the items put into it.
#[derive(Clone, Debug)]
pub struct BinPacking {
    loads: Vec<Operand>,
    bins: Vec<VarId>,
    sizes: Vec<i64>,
    /// The number of the first bin (the bin of `loads[0]`).
    base: i64,
    scope: Vec<VarId>,
    /// Where each load and each item's bin are in a tuple of the scope's values.
    load_slots: Vec<Slot>,
    bin_slots: Vec<Slot>,
}

impl BinPacking {
    /// The constraint: bin `base + b` has load `loads[b]`; item `i` of size
    /// `sizes[i]` goes into bin `bins[i]` (built by hand with `bins` and
    /// `sizes` of different lengths, it has the items both give). Prefer
    /// [`Model::bin_packing_load`](crate::Model::bin_packing_load), which
    /// checks the arguments.
    pub fn new(loads: Vec<Operand>, bins: Vec<VarId>, sizes: Vec<i64>, base: i64) -> BinPacking {
        let items = bins.len().min(sizes.len());
        let (bins, sizes) = (bins[..items].to_vec(), sizes[..items].to_vec());
        let mut scope = OperandScope::default();
        let load_slots = loads.iter().map(|&load| scope.slot(load)).collect();
        let bin_slots = bins.iter().map(|&bin| scope.slot(Operand::Var(bin))).collect();
        BinPacking { loads, bins, sizes, base, scope: scope.vars, load_slots, bin_slots }
    }

    /// The position of bin number `value` among the loads, if it is one.
    fn bin_index(&self, value: i64) -> Option<usize> {
        let index = i128::from(value) - i128::from(self.base);
        usize::try_from(index).ok().filter(|&b| b < self.loads.len())
    }

    /// The largest bin number (the first if there is no bin: then every
    /// bin number is out).
    fn last_bin(&self) -> i64 {
        let last = i128::from(self.base) + self.loads.len() as i128 - 1;
        last.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }
}

impl Constraint for BinPacking {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i64]) -> bool {
        let mut sums = vec![0i128; self.loads.len()];
        for (slot, &size) in self.bin_slots.iter().zip(&self.sizes) {
            match self.bin_index(slot.value(values)) {
                Some(b) => sums[b] += i128::from(size),
                None => return false,
            }
        }
        self.load_slots.iter().zip(&sums).all(|(slot, &sum)| i128::from(slot.value(values)) == sum)
    }

    fn kind(&self) -> &str {
        "bin_packing_load"
    }

    fn propagator(&self, _: &PropagatorOptions) -> Option<Box<dyn Propagator + '_>> {
        Some(Box::new(Packer {
            constraint: self,
            total: self.sizes.iter().map(|&size| i128::from(size)).sum(),
            least: Vec::new(),
            most: Vec::new(),
            values: Vec::new(),
        }))
    }
}

struct Packer<'c> {
    constraint: &'c BinPacking,
    /// The sum of the sizes.
    total: i128,
    /// Scratch, per bin: the least and the largest load its items allow.
    least: Vec<i128>,
    most: Vec<i128>,
    /// Scratch: one bin variable's values.
    values: Vec<i64>,
}

/// A bound computed in 128 bits, as a value to write into a domain: beyond
/// the 64-bit range it is clamped, which still empties a domain (every value
/// lies within `-2^62..=2^62`).
fn clamp(value: i128) -> i64 {
    value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

impl Packer<'_> {
    /// Each bin's least and largest load from the items: a fixed item counts
    /// its size; an item that may go in counts its size toward the one bound
    /// its sign moves.
    fn read_items(&mut self, ctx: &mut Context<'_>) {
        let c = self.constraint;
        self.least.clear();
        self.least.resize(c.loads.len(), 0);
        self.most.clear();
        self.most.resize(c.loads.len(), 0);
        for (&bin, &size) in c.bins.iter().zip(&c.sizes) {
            let size = i128::from(size);
            if let Some(value) = ctx.fixed_value(bin) {
                let b = c.bin_index(value).expect("bins were narrowed to the loads' numbers");
                self.least[b] += size;
                self.most[b] += size;
                continue;
            }
            for value in ctx.values(bin) {
                let b = c.bin_index(value).expect("bins were narrowed to the loads' numbers");
                if size < 0 {
                    self.least[b] += size;
                } else {
                    self.most[b] += size;
                }
            }
        }
        ctx.count_checks(c.bins.len() as u64);
    }

    /// One round of the rules; `Ok(true)` if a domain changed.
    fn round(&mut self, ctx: &mut Context<'_>) -> Result<bool, Conflict> {
        let c = self.constraint;
        let mut changed = false;
        for &bin in &c.bins {
            changed |= ctx.set_min(bin, c.base)?;
            changed |= ctx.set_max(bin, c.last_bin())?;
        }
        self.read_items(ctx);
        // Each load between its items' least and largest sums.
        for (b, &load) in c.loads.iter().enumerate() {
            changed |= load.set_min(ctx, clamp(self.least[b]))?;
            changed |= load.set_max(ctx, clamp(self.most[b]))?;
        }
        // The loads add up to the total.
        let low: i128 = c.loads.iter().map(|load| i128::from(load.min(ctx))).sum();
        let high: i128 = c.loads.iter().map(|load| i128::from(load.max(ctx))).sum();
        if self.total < low || self.total > high {
            return Err(Conflict);
        }
        for &load in &c.loads {
            let (min, max) = (i128::from(load.min(ctx)), i128::from(load.max(ctx)));
            changed |= load.set_min(ctx, clamp(self.total - (high - max)))?;
            changed |= load.set_max(ctx, clamp(self.total - (low - min)))?;
        }
        // An item leaves a bin whose load cannot take it, and goes into one
        // that cannot do without it. The sums read above only lose items'
        // possibilities as this loop fixes and removes: still sound.
        for (&bin, &size) in c.bins.iter().zip(&c.sizes) {
            if ctx.is_fixed(bin) {
                continue;
            }
            let size = i128::from(size);
            // What the item adds to a bin's least and largest sums when it may go in.
            let (maybe_least, maybe_most) = if size < 0 { (size, 0) } else { (0, size) };
            self.values.clear();
            self.values.extend(ctx.values(bin));
            for k in 0..self.values.len() {
                let value = self.values[k];
                let b = c.bin_index(value).expect("bins were narrowed to the loads' numbers");
                let load = c.loads[b];
                let (min, max) = (i128::from(load.min(ctx)), i128::from(load.max(ctx)));
                let (least, most) = (self.least[b] - maybe_least, self.most[b] - maybe_most);
                if least + size > max || most + size < min {
                    changed |= ctx.remove(bin, value)?;
                } else if least > max || most < min {
                    changed |= ctx.fix(bin, value)?;
                }
            }
        }
        Ok(changed)
    }
}

/// Adds `operand ≥ value` (`≤` when `upper`) for a variable load; a constant needs nothing.
fn load_atom(atoms: &mut Vec<Atom>, operand: Operand, value: i128, upper: bool) {
    if let Operand::Var(var) = operand {
        atoms.push(if upper { Atom::AtMost(var, clamp(value)) } else { Atom::AtLeast(var, clamp(value)) });
    }
}

/// The explanations (see the module's docs), on the domains as they were.
impl Packer<'_> {
    /// Adds why bin `b`'s items other than `skip` added up to at least `need`
    /// (`at_most`: at most `need`): from the sum that counts every item the
    /// worst way, each item known in or out of the bin moves it by its
    /// size; the largest moves first, until the sum reaches `need`.
    fn items(
        &self,
        why: &Explanation<'_>,
        b: usize,
        skip: Option<usize>,
        need: i128,
        at_most: bool,
    ) -> Option<Vec<Atom>> {
        let c = self.constraint;
        let value = i128::from(c.base) + b as i128;
        let value = i64::try_from(value).ok()?;
        let mut worst = 0i128;
        let mut moves: Vec<(i128, Atom)> = Vec::new();
        for (i, (&bin, &size)) in c.bins.iter().zip(&c.sizes).enumerate() {
            let size = i128::from(size);
            if Some(i) == skip || size == 0 {
                continue;
            }
            // At least: a positive size counts once fixed in, a negative one
            // stops counting once out; at most, the other way round.
            let counts_when_in = (size > 0) != at_most;
            if counts_when_in {
                if why.fixed_value(bin) == Some(value) {
                    moves.push((size.abs(), Atom::Equal(bin, value)));
                }
            } else if !why.contains(bin, value) {
                moves.push((size.abs(), Atom::NotEqual(bin, value)));
            }
            worst += if at_most { size.max(0) } else { size.min(0) };
        }
        moves.sort_by_key(|&(gain, _)| std::cmp::Reverse(gain));
        let mut atoms = Vec::new();
        let reached = |sum: i128| if at_most { sum <= need } else { sum >= need };
        for (gain, atom) in moves {
            if reached(worst) {
                break;
            }
            worst += if at_most { -gain } else { gain };
            atoms.push(atom);
        }
        reached(worst).then_some(atoms)
    }

    /// Why load `b` was at least `value` (`upper`: at most): its items, or the
    /// total less the other loads' largest (least) values.
    fn load_bound(&self, why: &Explanation<'_>, b: usize, value: i128, upper: bool) -> Option<Vec<Atom>> {
        if let Some(atoms) = self.items(why, b, None, value, upper) {
            return Some(atoms);
        }
        let c = self.constraint;
        let others = c.loads.iter().enumerate().filter(|&(k, _)| k != b);
        let bound = |load: &Operand| {
            let var = load.var().expect("a variable load");
            i128::from(if upper { why.min(var) } else { why.max(var) })
        };
        let sum: i128 = others
            .clone()
            .map(|(_, load)| match load {
                Operand::Var(_) => bound(load),
                Operand::Const(value) => i128::from(*value),
            })
            .sum();
        let holds = if upper { self.total - sum <= value } else { self.total - sum >= value };
        let mut atoms = Vec::new();
        for (_, &load) in others {
            if let Operand::Var(_) = load {
                load_atom(&mut atoms, load, bound(&load), !upper);
            }
        }
        holds.then_some(atoms)
    }

    /// Why item `i` could not go into bin `b`: its load could not take it.
    fn cannot_take(&self, why: &Explanation<'_>, i: usize, b: usize) -> Option<Vec<Atom>> {
        let c = self.constraint;
        let (load, size) = (c.loads[b], i128::from(c.sizes[i]));
        let (min, max) = self.load_range(why, b);
        let mut atoms = Vec::new();
        if let Some(items) = self.items(why, b, Some(i), max + 1 - size, false) {
            load_atom(&mut atoms, load, max, true);
            atoms.extend(items);
            return Some(atoms);
        }
        let items = self.items(why, b, Some(i), min - 1 - size, true)?;
        load_atom(&mut atoms, load, min, false);
        atoms.extend(items);
        Some(atoms)
    }

    /// Why item `i` had to go into bin `b`: its load could not do without it.
    fn needs(&self, why: &Explanation<'_>, i: usize, b: usize) -> Option<Vec<Atom>> {
        let load = self.constraint.loads[b];
        let (min, max) = self.load_range(why, b);
        let mut atoms = Vec::new();
        if let Some(items) = self.items(why, b, Some(i), max + 1, false) {
            load_atom(&mut atoms, load, max, true);
            atoms.extend(items);
            return Some(atoms);
        }
        let items = self.items(why, b, Some(i), min - 1, true)?;
        load_atom(&mut atoms, load, min, false);
        atoms.extend(items);
        Some(atoms)
    }

    /// Load `b`'s least and largest values as they were.
    fn load_range(&self, why: &Explanation<'_>, b: usize) -> (i128, i128) {
        match self.constraint.loads[b] {
            Operand::Var(var) => (i128::from(why.min(var)), i128::from(why.max(var))),
            Operand::Const(value) => (i128::from(value), i128::from(value)),
        }
    }

    /// The values within `lo..=hi` that name a bin (at most one per load).
    fn bin_values(&self, lo: i64, hi: i64) -> Vec<i64> {
        let c = self.constraint;
        (lo.max(c.base)..=hi.min(c.last_bin())).collect()
    }

    /// Why item `i`'s bin lost `values`: a bin it had to go into, or each
    /// value's bin could not take it (a number of no bin needs nothing).
    fn bin_lost(&self, why: &Explanation<'_>, i: usize, values: &[i64]) -> Option<Vec<Atom>> {
        let c = self.constraint;
        let bin = c.bins[i];
        if values.iter().all(|&v| c.bin_index(v).is_none()) {
            return Some(Vec::new());
        }
        for b in (0..c.loads.len()).filter(|&b| values.iter().all(|&v| c.bin_index(v) != Some(b))) {
            let value = i64::try_from(i128::from(c.base) + b as i128).ok()?;
            if why.contains(bin, value) {
                if let Some(atoms) = self.needs(why, i, b) {
                    return Some(atoms);
                }
            }
        }
        let mut atoms = Vec::new();
        for &value in values {
            if let Some(b) = c.bin_index(value) {
                atoms.extend(self.cannot_take(why, i, b)?);
            }
        }
        Some(atoms)
    }

    /// Why the loads could not add up to the total.
    fn total_failure(&self, why: &Explanation<'_>) -> Option<Vec<Atom>> {
        let c = self.constraint;
        let ranges: Vec<(i128, i128)> = (0..c.loads.len()).map(|b| self.load_range(why, b)).collect();
        let low: i128 = ranges.iter().map(|r| r.0).sum();
        let high: i128 = ranges.iter().map(|r| r.1).sum();
        let upper = if self.total < low {
            false
        } else if self.total > high {
            true
        } else {
            return None;
        };
        let mut atoms = Vec::new();
        for (&load, &(min, max)) in c.loads.iter().zip(&ranges) {
            load_atom(&mut atoms, load, if upper { max } else { min }, upper);
        }
        Some(atoms)
    }
}

impl Propagator for Packer<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        while self.round(ctx)? {}
        Ok(())
    }

    fn explain(&mut self, why: &mut Explanation<'_>) -> bool {
        let c = self.constraint;
        let answer = match why.explained() {
            Explained::Failure => self.total_failure(why),
            explained => {
                let (var, lost): (VarId, Vec<i64>) = match explained {
                    Explained::Removed(var) => (var, why.removed_values().collect()),
                    // A bin's bound: the values it passed that name a bin (the
                    // others need nothing), however wide the interval.
                    Explained::AtLeast(var, v) => (var, self.bin_values(why.min(var), v.saturating_sub(1))),
                    Explained::AtMost(var, v) => (var, self.bin_values(v.saturating_add(1), why.max(var))),
                    Explained::Failure => unreachable!("a failure is answered above"),
                };
                // As a load: the bound asked, or one past the values lost.
                let (at_least, at_most) = match explained {
                    Explained::AtLeast(_, v) => (Some(i128::from(v)), None),
                    Explained::AtMost(_, v) => (None, Some(i128::from(v))),
                    _ => {
                        let (lo, hi) = lost.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
                        (Some(i128::from(hi) + 1), Some(i128::from(lo) - 1))
                    }
                };
                let as_load = (0..c.loads.len()).filter(|&b| c.loads[b] == Operand::Var(var)).find_map(|b| {
                    at_least
                        .and_then(|v| self.load_bound(why, b, v, false))
                        .or_else(|| at_most.and_then(|v| self.load_bound(why, b, v, true)))
                });
                as_load.or_else(|| {
                    let mut atoms =
                        (0..c.bins.len()).filter(|&i| c.bins[i] == var).find_map(|i| self.bin_lost(why, i, &lost))?;
                    // A bin's bound moved from within the bins: the values it had
                    // already lost on that side by its old bound.
                    match explained {
                        Explained::AtLeast(..) if why.min(var) > c.base => atoms.push(Atom::AtLeast(var, why.min(var))),
                        Explained::AtMost(..) if why.max(var) < c.last_bin() => {
                            atoms.push(Atom::AtMost(var, why.max(var)))
                        }
                        _ => {}
                    }
                    Some(atoms)
                })
            }
        };
        let Some(atoms) = answer else { return false };
        why.because_each(atoms);
        true
    }

    fn interest(&self) -> Event {
        Event::Domain
    }

    fn is_idempotent(&self) -> bool {
        // Each call repeats its rules until a round changes nothing.
        true
    }
}
