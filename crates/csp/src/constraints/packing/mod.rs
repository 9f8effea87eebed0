//! Packing: items of given sizes put into bins, MiniZinc's `bin_packing_load`
//! (and, through it, `bin_packing` and `bin_packing_capa`), and rectangles
//! that do not overlap, MiniZinc's `diffn` and `diffn_nonstrict`.
//!
//! - [`BinPacking`]: each bin's load is the sum of the sizes of the items put
//!   into it (`bin_packing.rs`: Shaw's bounds reasoning).
//! - [`Diffn`]: no two rectangles overlap (`diffn.rs`: each pair's
//!   disjunction on the bounds).
//!
//! Loads, sizes and coordinates are summed in 128 bits: many items of sizes up to `2^62`
//! add up without overflow, and a bound beyond the 64-bit range is clamped
//! before it is written (which then empties the domain, as it should).

mod bin_packing;
mod diffn;

pub use bin_packing::BinPacking;
pub use diffn::Diffn;
