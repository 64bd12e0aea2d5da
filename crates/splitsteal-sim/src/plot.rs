//! SVG figures (plotters' SVG backend, no system fonts needed).

use std::path::Path;

use plotters::prelude::*;

use crate::stats::{quantile_sorted, sorted};

/// Error type of the plotting helpers.
pub type PlotResult = Result<(), Box<dyn std::error::Error>>;

const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// One box of a box plot: a label and the raw samples.
#[derive(Debug, Clone)]
pub struct BoxData {
    /// Category label shown under the box.
    pub label: String,
    /// Raw samples (need not be sorted).
    pub samples: Vec<f64>,
}

/// Draws a Tukey box plot (box = interquartile range, line = median, whiskers to the most
/// extreme samples within 1.5·IQR, points beyond) with one box per category, and a dashed
/// horizontal reference line at `reference` if given.
pub fn box_plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    boxes: &[BoxData],
    reference: Option<f64>,
) -> PlotResult {
    let stats: Vec<Vec<f64>> = boxes.iter().map(|b| sorted(&b.samples)).collect();
    let mut y_min = f64::INFINITY;
    let mut y_max = f64::NEG_INFINITY;
    for s in stats.iter().filter(|s| !s.is_empty()) {
        y_min = y_min.min(s[0]);
        y_max = y_max.max(s[s.len() - 1]);
    }
    if let Some(r) = reference {
        y_min = y_min.min(r);
        y_max = y_max.max(r);
    }
    if !y_min.is_finite() {
        y_min = 0.0;
        y_max = 1.0;
    }
    let pad = ((y_max - y_min) * 0.05).max(1e-9);
    let width = (120 + 70 * boxes.len() as u32).clamp(640, 2400);
    let root = SVGBackend::new(path, (width, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let n = boxes.len();
    let labels: Vec<String> = boxes.iter().map(|b| b.label.clone()).collect();
    let fmt = |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
            labels[i as usize].clone()
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(100)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.6f64..(n as f64 - 0.4), (y_min - pad)..(y_max + pad))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n.max(1))
        .x_label_formatter(&fmt)
        .x_label_style(
            ("sans-serif", 12)
                .into_font()
                .transform(FontTransform::Rotate90),
        )
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()?;
    if let Some(r) = reference {
        chart.draw_series(DashedLineSeries::new(
            vec![(-0.6, r), (n as f64 - 0.4, r)],
            6,
            4,
            RED.stroke_width(1),
        ))?;
    }
    for (i, s) in stats.iter().enumerate() {
        if s.is_empty() {
            continue;
        }
        let x = i as f64;
        let (q1, med, q3) = (
            quantile_sorted(s, 0.25),
            quantile_sorted(s, 0.5),
            quantile_sorted(s, 0.75),
        );
        let iqr = q3 - q1;
        let lo_fence = q1 - 1.5 * iqr;
        let hi_fence = q3 + 1.5 * iqr;
        let lo = s.iter().copied().find(|&v| v >= lo_fence).unwrap_or(q1);
        let hi = s
            .iter()
            .rev()
            .copied()
            .find(|&v| v <= hi_fence)
            .unwrap_or(q3);
        let color = PALETTE[0];
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.3, q1), (x + 0.3, q3)],
            color.mix(0.25).filled(),
        )))?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.3, q1), (x + 0.3, q3)],
            color.stroke_width(1),
        )))?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(x - 0.3, med), (x + 0.3, med)],
            BLACK.stroke_width(2),
        )))?;
        for (a, b) in [(q3, hi), (q1, lo)] {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x, a), (x, b)],
                color.stroke_width(1),
            )))?;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(x - 0.15, b), (x + 0.15, b)],
                color.stroke_width(1),
            )))?;
        }
        // Outliers: thin them to at most ~60 points per side to keep the SVG small.
        let outliers: Vec<f64> = s.iter().copied().filter(|&v| v < lo || v > hi).collect();
        let step = (outliers.len() / 120).max(1);
        chart.draw_series(
            outliers
                .iter()
                .step_by(step)
                .map(|&v| Circle::new((x, v), 2, color.stroke_width(1))),
        )?;
    }
    root.present()?;
    Ok(())
}

/// A named series of `(x, y)` points for [`line_plot`].
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points, in drawing order.
    pub points: Vec<(f64, f64)>,
}

/// Draws line series with markers; `log_y` uses a logarithmic y axis (non-positive values are
/// dropped there).
pub fn line_plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_y: bool,
) -> PlotResult {
    let pts = series.iter().flat_map(|s| s.points.iter().copied());
    let (mut x0, mut x1, mut y0, mut y1) = (
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
    );
    for (x, y) in pts {
        if log_y && y <= 0.0 {
            continue;
        }
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if !x0.is_finite() {
        (x0, x1, y0, y1) = (0.0, 1.0, 1.0, 10.0);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(80);
    let xr = x0..x1;
    if log_y {
        let mut chart = builder.build_cartesian_2d(xr, ((y0 * 0.8)..(y1 * 1.25)).log_scale())?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        draw_lines(&mut chart, series, true)?;
        legend(&mut chart)?;
    } else {
        let pad = (y1 - y0) * 0.05;
        let mut chart = builder.build_cartesian_2d(xr, (y0 - pad).min(0.0)..(y1 + pad))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .draw()?;
        draw_lines(&mut chart, series, false)?;
        legend(&mut chart)?;
    }
    root.present()?;
    Ok(())
}

fn draw_lines<'a, DB, CT>(
    chart: &mut ChartContext<'a, DB, CT>,
    series: &[Series],
    log_y: bool,
) -> PlotResult
where
    DB: DrawingBackend + 'a,
    <DB as DrawingBackend>::ErrorType: 'static,
    CT: CoordTranslate<From = (f64, f64)>,
{
    for (k, s) in series.iter().enumerate() {
        let color = PALETTE[k % PALETTE.len()];
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|&(_, y)| !log_y || y > 0.0)
            .collect();
        chart
            .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?
            .label(s.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))?;
    }
    Ok(())
}

fn legend<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>) -> PlotResult
where
    DB: DrawingBackend + 'a,
    <DB as DrawingBackend>::ErrorType: 'static,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_svg_files() {
        let dir = std::env::temp_dir().join(format!("splitsteal-sim-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let b = dir.join("box.svg");
        box_plot(
            &b,
            "t",
            "x",
            "y",
            &[
                BoxData {
                    label: "a".into(),
                    samples: vec![1.0, 2.0, 3.0, 10.0],
                },
                BoxData {
                    label: "b".into(),
                    samples: vec![2.0, 2.5],
                },
            ],
            Some(1.0),
        )
        .unwrap();
        let l = dir.join("line.svg");
        line_plot(
            &l,
            "t",
            "x",
            "y",
            &[Series {
                name: "s".into(),
                points: vec![(1.0, 10.0), (2.0, 1000.0)],
            }],
            true,
        )
        .unwrap();
        for f in [b, l] {
            let s = std::fs::read_to_string(&f).unwrap();
            assert!(
                s.starts_with("<svg") && s.contains("</svg>"),
                "{}",
                f.display()
            );
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
