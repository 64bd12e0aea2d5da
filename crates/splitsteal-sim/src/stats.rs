//! Small order statistics used by the reports.

/// Arithmetic mean (`NaN` for an empty slice).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

// The bench's results use the same two, so they live once, in `splitsteal-report`.
pub use splitsteal_report::records::{quantile_sorted, sorted};

/// Median of unsorted data.
pub fn median(xs: &[f64]) -> f64 {
    quantile_sorted(&sorted(xs), 0.5)
}

/// Five-number summary (min, lower quartile, median, upper quartile, max) of unsorted data.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct FiveNumber {
    /// Minimum.
    pub min: f64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Maximum.
    pub max: f64,
}

impl FiveNumber {
    /// Computes the summary of `xs` (all fields `NaN` when empty).
    pub fn of(xs: &[f64]) -> Self {
        let s = sorted(xs);
        FiveNumber {
            min: quantile_sorted(&s, 0.0),
            q1: quantile_sorted(&s, 0.25),
            median: quantile_sorted(&s, 0.5),
            q3: quantile_sorted(&s, 0.75),
            max: quantile_sorted(&s, 1.0),
        }
    }
}
