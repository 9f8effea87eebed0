//! Packing: items of given sizes put into bins, MiniZinc's `bin_packing_load`
//! (and, through it, `bin_packing` and `bin_packing_capa`).
//!
//! - [`BinPacking`]: each bin's load is the sum of the sizes of the items put
//!   into it (`bin_packing.rs`: Shaw's bounds reasoning).
//!
//! Loads and sizes are summed in 128 bits: many items of sizes up to `2^62`
//! add up without overflow, and a bound beyond the 64-bit range is clamped
//! before it is written (which then empties the domain, as it should).

mod bin_packing;

pub use bin_packing::BinPacking;
