//! Small order statistics used by the reports.

/// Arithmetic mean (`NaN` for an empty slice).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Quantile `q ∈ [0, 1]` of already **sorted** data, by linear interpolation between closest
/// ranks (the R-7 / NumPy default). `NaN` for an empty slice.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        1 => sorted[0],
        n => {
            let h = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let lo = h.floor() as usize;
            let hi = (lo + 1).min(n - 1);
            sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
        }
    }
}

/// Returns a sorted copy of `xs` (total order; `NaN`s last).
pub fn sorted(xs: &[f64]) -> Vec<f64> {
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    v
}

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
