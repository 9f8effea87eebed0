//! Holm's step-down correction for multiple comparisons (Holm 1979): when
//! several configurations are each tested against one baseline, the chance
//! that at least one p-value falls below 0.05 by luck alone grows with their
//! number. Holm's adjusted p-values control that family-wise error rate,
//! uniformly more powerful than Bonferroni's (every p-value times the number
//! of tests) and valid under any dependence between the tests.
//!
//! With the `m` p-values sorted, `p(1) <= ... <= p(m)`, the adjusted value of
//! `p(i)` is `max over j <= i of min(1, (m - j + 1) p(j))`: the smallest
//! p-value is multiplied by `m`, the next by `m - 1`, and so on, each kept at
//! least as large as the one before it (as `statsmodels`'
//! `multipletests(method="holm")` computes it).

/// Holm's adjusted p-values, in the order of `p_values`; a `None` (no test,
/// as when every pair is equal) stays `None` and is not counted in the
/// family: `m` is the number of p-values given.
pub fn holm(p_values: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<(usize, f64)> = p_values.iter().enumerate().filter_map(|(i, p)| p.map(|p| (i, p))).collect();
    // A stable sort: equal p-values keep their order (their adjusted values are equal anyway).
    order.sort_by(|a, b| a.1.total_cmp(&b.1));
    let m = order.len();
    let mut adjusted = vec![None; p_values.len()];
    let mut running = 0.0_f64;
    for (rank, &(index, p)) in order.iter().enumerate() {
        running = running.max(((m - rank) as f64 * p).min(1.0));
        adjusted[index] = Some(running);
    }
    adjusted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: &[Option<f64>], expected: &[Option<f64>]) {
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(expected) {
            match (g, e) {
                (Some(g), Some(e)) => assert!((g - e).abs() < 1e-12, "{got:?} against {expected:?}"),
                (None, None) => {}
                _ => panic!("{got:?} against {expected:?}"),
            }
        }
    }

    #[test]
    fn four_p_values_adjusted_by_hand() {
        // Sorted: 0.005 x 4 = 0.02; 0.01 x 3 = 0.03; 0.03 x 2 = 0.06; 0.04 x 1 = 0.04,
        // raised to the 0.06 before it.
        let p = [Some(0.01), Some(0.04), Some(0.03), Some(0.005)];
        close(&holm(&p), &[Some(0.03), Some(0.06), Some(0.06), Some(0.02)]);
    }

    #[test]
    fn adjusted_values_are_at_most_one_and_never_fall() {
        // 0.6 x 2 = 1.2, capped at 1; 0.7 x 1 = 0.7, raised to 1.
        close(&holm(&[Some(0.7), Some(0.6)]), &[Some(1.0), Some(1.0)]);
        // 0.3 x 2 = 0.6; 0.5 x 1 = 0.5, raised to 0.6.
        close(&holm(&[Some(0.5), Some(0.3)]), &[Some(0.6), Some(0.6)]);
    }

    #[test]
    fn missing_tests_are_left_out_of_the_family() {
        // Two tests: 0.02 x 2 = 0.04, 0.04 x 1 = 0.04.
        close(&holm(&[None, Some(0.02), Some(0.04)]), &[None, Some(0.04), Some(0.04)]);
        close(&holm(&[None, None]), &[None, None]);
        // One test is its own family: unchanged.
        close(&holm(&[Some(0.125)]), &[Some(0.125)]);
    }

    #[test]
    fn ties_share_the_larger_multiplier_of_their_group() {
        // statsmodels' multipletests([0.01, 0.01, 0.04], method="holm"): 0.03, 0.03, 0.04.
        close(&holm(&[Some(0.01), Some(0.01), Some(0.04)]), &[Some(0.03), Some(0.03), Some(0.04)]);
    }
}
