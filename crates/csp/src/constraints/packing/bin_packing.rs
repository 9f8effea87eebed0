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
//! sum. Explanations are the engine's generic answer (the scope's domains).

use crate::constraint::{Constraint, Propagator, PropagatorOptions};
use crate::constraints::operand::{Operand, OperandScope, Slot};
use crate::ids::VarId;
use crate::kernel::{Conflict, Context, Event, PropagationResult};

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

impl Propagator for Packer<'_> {
    fn propagate(&mut self, ctx: &mut Context<'_>) -> PropagationResult {
        while self.round(ctx)? {}
        Ok(())
    }

    fn interest(&self) -> Event {
        Event::Domain
    }

    fn is_idempotent(&self) -> bool {
        // Each call repeats its rules until a round changes nothing.
        true
    }
}
