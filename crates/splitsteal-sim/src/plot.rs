//! SVG figures (plotters' SVG backend, no system fonts needed).

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use splitsteal_report::out_dir;

use crate::stats::{quantile_sorted, sorted};

/// A short dashed segment for a legend entry at `(x, y)`, in `color`.
macro_rules! dashed_legend {
    ($color:expr) => {
        move |(x, y)| {
            let style = $color.stroke_width(2);
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (7, 0)], style)
                + PathElement::new(vec![(11, 0), (18, 0)], style)
        }
    };
}

/// Error type of the plotting helpers.
pub type PlotResult = Result<(), Box<dyn std::error::Error>>;

/// Colours that stay apart for colour-blind readers and in grey (Okabe–Ito, with black last);
/// series also differ by marker and dash, so colour is never the only cue.
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(213, 94, 0),    // vermilion
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(230, 159, 0),   // orange
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(120, 94, 40),   // brown
    RGBColor(0, 0, 0),       // black
];

/// Colour of reference lines (bounds, "ratio 1"): grey and dashed, so they never pass for data.
const REFERENCE: RGBColor = RGBColor(90, 90, 90);

/// Width of a figure: no wider than the report page's text column, where it is shown unscaled.
const MAX_WIDTH: u32 = 1160;

const FONT: &str = "sans-serif";
// plotters' SVG backend writes font sizes divided by 1.24, so these come out as about
// 12, 14, 13 and 17 px: legible when the figure is shown at the page's 1160 px or a bit less.
const LABEL: u32 = 15;
const AXIS: u32 = 17;
const LEGEND: u32 = 16;
const TITLE: u32 = 21;

/// Renders to an SVG string (so the file is written by [`out_dir::write`] and any error names
/// it) with `draw` doing the drawing.
fn render(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> PlotResult,
) -> PlotResult {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        draw(&root)?;
        root.present()?;
    }
    out_dir::write(path, svg)?;
    Ok(())
}

/// Share of the plot's height that the legend of `rows` entries takes (plots are 600 px
/// high, the plotting area about 470 px, a legend row 18 px): the y range is stretched by it
/// so that the legend sits above the data instead of on it.
fn legend_share(rows: usize) -> f64 {
    if rows == 0 {
        0.0
    } else {
        ((18 * rows + 34) as f64 / 470.0).min(0.5)
    }
}

/// Tick label of an x value: integers without decimals.
fn x_tick(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// One box of a box plot: a label and the raw samples.
#[derive(Debug, Clone)]
pub struct BoxData {
    /// Category label shown under the box; `\n` breaks it into lines.
    pub label: String,
    /// Index into the plot's groups (colour and legend entry).
    pub group: usize,
    /// Raw samples (need not be sorted).
    pub samples: Vec<f64>,
}

/// Draws a Tukey box plot (box = interquartile range, line = median, whiskers to the most
/// extreme samples within 1.5·IQR, points beyond) with one box per category, coloured by
/// group (named in a legend when `groups` is not empty), and a dashed grey horizontal
/// reference line at `reference.0`, named `reference.1` in the legend.
///
/// Category labels are horizontal and may span lines, under their box: rotated labels
/// collided with the axis title.
pub fn box_plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    boxes: &[BoxData],
    groups: &[String],
    reference: Option<(f64, &str)>,
) -> PlotResult {
    let stats: Vec<Vec<f64>> = boxes.iter().map(|b| sorted(&b.samples)).collect();
    let mut y_min = f64::INFINITY;
    let mut y_max = f64::NEG_INFINITY;
    for s in stats.iter().filter(|s| !s.is_empty()) {
        y_min = y_min.min(s[0]);
        y_max = y_max.max(s[s.len() - 1]);
    }
    if let Some((r, _)) = reference {
        y_min = y_min.min(r);
        y_max = y_max.max(r);
    }
    if !y_min.is_finite() {
        y_min = 0.0;
        y_max = 1.0;
    }
    let n = boxes.len();
    let label_lines = boxes
        .iter()
        .map(|b| b.label.lines().count())
        .max()
        .unwrap_or(1);
    let longest = boxes
        .iter()
        .flat_map(|b| b.label.lines())
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1);
    // ~7 px per character at the labels' 12 px, plus a gap, per box.
    let per_box = (longest as u32 * 7 + 14).max(56);
    let width = (110 + per_box * n as u32).clamp(640, MAX_WIDTH);
    let legend_rows = groups.len() + usize::from(reference.is_some());
    let pad = ((y_max - y_min) * 0.05).max(1e-9);
    let bottom = y_min - pad;
    let top = bottom + (y_max + pad - bottom) / (1.0 - legend_share(legend_rows));
    let label_h = 17 * label_lines as u32 + 10;
    render(path, (width, 600), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(label_h + 30)
            .y_label_area_size(64)
            .build_cartesian_2d(-0.6f64..(n as f64 - 0.4), bottom..top)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(x_desc)
            .y_desc(y_desc)
            .axis_desc_style((FONT, AXIS))
            .label_style((FONT, LABEL))
            .light_line_style(TRANSPARENT)
            .draw()?;
        // Category labels, drawn under each box by hand: plotters' tick labels are one line.
        let label_style = TextStyle::from((FONT, LABEL).into_font())
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Top));
        for (i, b) in boxes.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64, bottom));
            for (k, line) in b.label.lines().enumerate() {
                root.draw(&Text::new(
                    line.to_string(),
                    (px, py + 6 + 17 * k as i32),
                    label_style.clone(),
                ))?;
            }
        }
        if let Some((r, name)) = reference {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(-0.6, r), (n as f64 - 0.4, r)],
                    7,
                    5,
                    REFERENCE.stroke_width(2),
                ))?
                .label(name)
                .legend(dashed_legend!(REFERENCE));
        }
        let mut legend_done = vec![false; groups.len()];
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
            let g = boxes[i].group;
            let color = PALETTE[g % PALETTE.len()];
            let fill = chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.3, q1), (x + 0.3, q3)],
                color.mix(0.3).filled(),
            )))?;
            if g < groups.len() && !legend_done[g] {
                legend_done[g] = true;
                fill.label(groups[g].clone()).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 18, y + 6)], color.mix(0.5).filled())
                });
            }
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
            // Outliers: thin them to at most ~120 points to keep the SVG small.
            let outliers: Vec<f64> = s.iter().copied().filter(|&v| v < lo || v > hi).collect();
            let step = (outliers.len() / 120).max(1);
            chart.draw_series(
                outliers
                    .iter()
                    .step_by(step)
                    .map(|&v| Circle::new((x, v), 2, color.stroke_width(1))),
            )?;
        }
        if legend_rows > 0 {
            legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        }
        Ok(())
    })
}

/// A named series of `(x, y)` points for [`line_plot`].
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// A reference (work, bound, ...), not a measurement: drawn dashed and grey-ish, without
    /// markers.
    pub reference: bool,
}

/// Draws line series, each with its own colour and marker (references dashed, unmarked);
/// `log_y` uses a logarithmic y axis (non-positive values are dropped there), `log_x` a
/// logarithmic x axis (for processor counts 1, 2, 4, …; x must be positive).
pub fn line_plot(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[Series],
    log_y: bool,
    log_x: bool,
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
    let share = legend_share(series.len());
    render(path, (960, 600), |root| {
        let mut builder = ChartBuilder::on(root);
        builder
            .caption(title, (FONT, TITLE))
            .margin(14)
            .x_label_area_size(50)
            .y_label_area_size(84);
        macro_rules! finish {
            ($chart:ident) => {{
                $chart
                    .configure_mesh()
                    .x_desc(x_desc)
                    .y_desc(y_desc)
                    .axis_desc_style((FONT, AXIS))
                    .label_style((FONT, LABEL))
                    .light_line_style(TRANSPARENT)
                    .x_label_formatter(&x_tick)
                    .y_label_formatter(&|v: &f64| {
                        if log_y {
                            format!("{v:.0e}")
                        } else {
                            format!("{v}")
                        }
                    })
                    .draw()?;
                draw_lines(&mut $chart, series, log_y)?;
                legend(&mut $chart, SeriesLabelPosition::UpperLeft)?;
            }};
        }
        let (ylo, yhi) = if log_y {
            let lo = (y0 * 0.7).log10();
            let hi = (y1 * 1.3).log10();
            (10f64.powf(lo), 10f64.powf(lo + (hi - lo) / (1.0 - share)))
        } else {
            let pad = (y1 - y0) * 0.05;
            let lo = (y0 - pad).min(0.0);
            (lo, lo + (y1 + pad - lo) / (1.0 - share))
        };
        match (log_x, log_y) {
            (true, true) => {
                let mut c = builder.build_cartesian_2d(
                    ((x0 / 1.15)..(x1 * 1.15)).log_scale(),
                    (ylo..yhi).log_scale(),
                )?;
                finish!(c)
            }
            (true, false) => {
                let mut c =
                    builder.build_cartesian_2d(((x0 / 1.15)..(x1 * 1.15)).log_scale(), ylo..yhi)?;
                finish!(c)
            }
            (false, true) => {
                let xpad = (x1 - x0) * 0.03;
                let mut c =
                    builder.build_cartesian_2d((x0 - xpad)..(x1 + xpad), (ylo..yhi).log_scale())?;
                finish!(c)
            }
            (false, false) => {
                let xpad = (x1 - x0) * 0.03;
                let mut c = builder.build_cartesian_2d((x0 - xpad)..(x1 + xpad), ylo..yhi)?;
                finish!(c)
            }
        }
        Ok(())
    })
}

/// Draws `pts` as a line with the marker built by `$mk` from the coordinate `$c`, and its
/// legend entry (line and marker); a macro because each marker is its own element type.
macro_rules! draw_marked {
    ($chart:ident, $pts:ident, $name:expr, $color:ident, |$c:ident| $mk:expr) => {{
        $chart
            .draw_series(LineSeries::new($pts.clone(), $color.stroke_width(2)))?
            .label($name)
            .legend(move |(x, y)| {
                let $c = (9, 0);
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(0, 0), (18, 0)], $color.stroke_width(2))
                    + $mk
            });
        $chart.draw_series($pts.iter().map(|&$c| $mk))?;
    }};
}

fn draw_lines<'a, CT>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    series: &[Series],
    log_y: bool,
) -> PlotResult
where
    CT: CoordTranslate<From = (f64, f64)>,
{
    let mut measured = 0;
    let mut refs = 0;
    for s in series {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .copied()
            .filter(|&(_, y)| !log_y || y > 0.0)
            .collect();
        if s.reference {
            // References take the palette from the end (black, brown), data from the start.
            let color = PALETTE[PALETTE.len() - 1 - refs % 3];
            refs += 1;
            chart
                .draw_series(DashedLineSeries::new(pts, 8, 5, color.stroke_width(2)))?
                .label(s.name.clone())
                .legend(dashed_legend!(color));
        } else {
            let k = measured;
            measured += 1;
            let color = PALETTE[k % (PALETTE.len() - 3)];
            let fill = color.filled();
            let name = s.name.clone();
            // Circle, triangle, square, cross, diamond: series differ by more than colour.
            match k % 5 {
                0 => draw_marked!(chart, pts, name, color, |c| Circle::new(c, 4, fill)),
                1 => draw_marked!(chart, pts, name, color, |c| TriangleMarker::new(c, 5, fill)),
                2 => draw_marked!(chart, pts, name, color, |c| EmptyElement::at(c)
                    + Rectangle::new([(-4, -4), (4, 4)], fill)),
                3 => draw_marked!(chart, pts, name, color, |c| Cross::new(
                    c,
                    4,
                    color.stroke_width(2)
                )),
                _ => draw_marked!(chart, pts, name, color, |c| EmptyElement::at(c)
                    + Polygon::new(vec![(0, -5), (5, 0), (0, 5), (-5, 0)], fill)),
            }
        }
    }
    Ok(())
}

fn legend<'a, DB, CT>(chart: &mut ChartContext<'a, DB, CT>, pos: SeriesLabelPosition) -> PlotResult
where
    DB: DrawingBackend + 'a,
    <DB as DrawingBackend>::ErrorType: 'static,
    CT: CoordTranslate,
{
    chart
        .configure_series_labels()
        .position(pos)
        .label_font((FONT, LEGEND))
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(150, 150, 150))
        .draw()?;
    Ok(())
}
