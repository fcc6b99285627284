//! Shared by the property tests.

use proptest::test_runner::Config as ProptestConfig;

/// Modest case counts, and no regression files written into the repository.
pub fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
