//! The examples' random source: Marsaglia's xorshift (13, 7, 17), so that a
//! seed gives the same models on every machine and in every release (the
//! instances BENCHMARKS.md measures). `csp::rng::Rng` is another sequence.

/// The xorshift sequence from `state` (not zero).
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
