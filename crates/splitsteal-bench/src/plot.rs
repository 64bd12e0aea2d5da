//! SVG plots with plotters' SVG backend (text is emitted as SVG `<text>`, so no system
//! font library is needed).

use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Error type of the plotting helpers.
pub type PlotResult = Result<(), Box<dyn std::error::Error>>;

/// Every chart's width: the report page's text column is about 1170 px, so a chart this
/// wide is shown at its own size and its text at the size it was drawn.
pub const WIDTH: u32 = 1150;

/// Requested font size of tick labels, axis titles and legend entries: plotters writes
/// `size / 1.24` into the SVG, so this gives about 16 px text.
const FONT: u32 = 20;

/// Requested font size of chart titles (about 19 px in the SVG).
const TITLE_FONT: u32 = 24;

/// A scheduler's colour, fixed per name so that it is the same in every plot. Okabe–Ito's
/// colour-blind-safe palette for the schedulers compared most (the LCWS policies, rayon,
/// chili), black for the default (`asym`), wine, brown, yellow and grey for the rest;
/// lcws-signal and lcws-half,
/// often side by side, are green and reddish purple. A series named `scheduler@threads`
/// takes its scheduler's colour: thread counts are told apart by fill or marker, never
/// by colour ([`thread_fill`]).
fn scheduler_color(name: &str) -> Option<RGBColor> {
    Some(match scheduler_of(name) {
        "serial" => RGBColor(160, 160, 160),
        "asym" => RGBColor(0, 0, 0),
        "locked" => RGBColor(136, 34, 85),
        "abp" => RGBColor(140, 86, 75),
        "chase-lev" => RGBColor(230, 159, 0),
        "lcws-poll" => RGBColor(86, 180, 233),
        "lcws-signal" => RGBColor(0, 158, 115),
        "lcws-cons" => RGBColor(215, 195, 30),
        "lcws-half" => RGBColor(204, 121, 167),
        "hybrid" => RGBColor(110, 110, 110),
        "rayon" => RGBColor(0, 114, 178),
        "chili" => RGBColor(213, 94, 0),
        "forte" => RGBColor(100, 60, 160),
        _ => return None,
    })
}

/// The scheduler of a series name: `lcws-signal@2` is lcws-signal's.
fn scheduler_of(name: &str) -> &str {
    name.split('@').next().unwrap_or(name).trim()
}

/// Colours for series that are not schedulers, in turn (libraries, settings, counters):
/// none of them a scheduler's, so that a colour means one scheduler on every plot.
#[doc(hidden)]
pub const OTHER: [RGBColor; 8] = [
    RGBColor(31, 56, 120),
    RGBColor(150, 30, 30),
    RGBColor(40, 110, 60),
    RGBColor(170, 120, 60),
    RGBColor(90, 150, 150),
    RGBColor(180, 60, 130),
    RGBColor(110, 110, 40),
    RGBColor(120, 120, 120),
];

/// How a bar of series `i` is filled, by its thread count: among series of one scheduler
/// at several thread counts (`x@1`, `x@2`), the most threads are solid, the fewest an
/// outline, any between half-tone. Other series are solid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[doc(hidden)]
pub enum Fill {
    /// Filled.
    Solid,
    /// Filled in half-tone.
    Half,
    /// An outline.
    Outline,
}

/// How a bar of series `i` of `names` is filled (see [`Fill`]).
#[doc(hidden)]
pub fn thread_fill(names: &[&str], i: usize) -> Fill {
    let threads = |n: &str| {
        n.split_once('@')
            .and_then(|(_, t)| t.trim().parse::<usize>().ok())
    };
    let Some(t) = threads(names[i]) else {
        return Fill::Solid;
    };
    let base = scheduler_of(names[i]);
    let mut same: Vec<usize> = names
        .iter()
        .filter(|n| scheduler_of(n) == base)
        .filter_map(|n| threads(n))
        .collect();
    same.sort_unstable();
    same.dedup();
    if same.len() < 2 || Some(&t) == same.last() {
        Fill::Solid
    } else if Some(&t) == same.first() {
        Fill::Outline
    } else {
        Fill::Half
    }
}

/// The colour of a series: fixed per scheduler name; other series (reference lines,
/// settings) take the `OTHER` colours in turn (`other` counts them).
pub fn color_of(name: &str, other: usize) -> RGBColor {
    scheduler_color(name).unwrap_or(OTHER[other % OTHER.len()])
}

/// Colours for a list of series names.
fn colors<'a>(names: impl Iterator<Item = &'a str>) -> Vec<RGBColor> {
    let mut other = 0;
    names
        .map(|n| {
            let c = color_of(n, other);
            if scheduler_color(n).is_none() {
                other += 1;
            }
            c
        })
        .collect()
}

/// A point marker, so that series stay apart where colours are close or not seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// Filled circle.
    Circle,
    /// Filled triangle.
    Triangle,
    /// Filled square.
    Square,
    /// Cross (×).
    Cross,
    /// Hollow circle.
    Ring,
}

/// The marker of the `i`-th series.
pub fn marker_of(i: usize) -> Marker {
    [
        Marker::Circle,
        Marker::Triangle,
        Marker::Square,
        Marker::Cross,
        Marker::Ring,
    ][i % 5]
}

/// Dash pattern (dash, gap, stroke width) of the `i`-th reference line: long dashes, then
/// dots, then dash-dot-like short dashes, so that two reference lines never look alike.
#[doc(hidden)]
pub fn ref_dash(i: usize) -> (u32, u32, u32) {
    [(10, 5, 2), (2, 4, 3), (16, 4, 2)][i % 3]
}

/// Colour of the `i`-th reference line (black, dark grey, then brown: none of them a
/// scheduler's).
fn ref_color(i: usize) -> RGBColor {
    [
        RGBColor(0, 0, 0),
        RGBColor(90, 90, 90),
        RGBColor(140, 86, 75),
    ][i % 3]
}

fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    m: Marker,
    (x, y): (i32, i32),
    col: RGBColor,
) -> PlotResult
where
    DB::ErrorType: 'static,
{
    match m {
        Marker::Circle => area.draw(&Circle::new((x, y), 5, col.filled()))?,
        Marker::Ring => area.draw(&Circle::new((x, y), 5, col.stroke_width(2)))?,
        Marker::Square => area.draw(&Rectangle::new(
            [(x - 4, y - 4), (x + 4, y + 4)],
            col.filled(),
        ))?,
        Marker::Triangle => area.draw(&Polygon::new(
            vec![(x, y - 6), (x - 5, y + 4), (x + 5, y + 4)],
            col.filled(),
        ))?,
        Marker::Cross => {
            area.draw(&PathElement::new(
                vec![(x - 5, y - 5), (x + 5, y + 5)],
                col.stroke_width(2),
            ))?;
            area.draw(&PathElement::new(
                vec![(x - 5, y + 5), (x + 5, y - 5)],
                col.stroke_width(2),
            ))?;
        }
    }
    Ok(())
}

/// Tick values for a logarithmic axis over `lo..hi`: 1-2-5 steps (finer steps on short
/// ranges, powers of ten on long ones), always including values below 1 when the range
/// reaches there, so that ratios under 1 can be read.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let gen = |mantissas: &[f64]| -> Vec<f64> {
        let mut v = Vec::new();
        if !(lo > 0.0 && hi > lo) {
            return v;
        }
        let mut e = lo.log10().floor() as i32;
        while 10f64.powi(e) <= hi {
            for &m in mantissas {
                let x = m * 10f64.powi(e);
                // Round away the float noise of m·10^e (0.30000000000000004).
                let x = (x * 1e9).round() / 1e9;
                if x >= lo && x <= hi {
                    v.push(x);
                }
            }
            e += 1;
        }
        v
    };
    let v = gen(&[1.0, 2.0, 5.0]);
    if v.len() > 12 {
        return gen(&[1.0]);
    }
    if v.len() >= 4 {
        return v;
    }
    let v = gen(&[1.0, 1.5, 2.0, 3.0, 5.0, 7.0]);
    if v.len() >= 4 {
        return v;
    }
    gen(&[
        1.0, 1.2, 1.4, 1.6, 1.8, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
    ])
}

/// A log-axis tick label: up to 3 significant digits, no trailing zeros.
#[doc(hidden)]
pub fn fmt_log_tick(v: f64) -> String {
    if v.abs() >= 1e4 {
        return fmt_axis(v);
    }
    let s = format!("{:.3}", v);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Axis label for a value: compact (1k, 2.5M) for large values, short decimals otherwise.
pub fn fmt_axis(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.3}G", v / 1e9)
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    } else if a >= 1e6 {
        format!("{:.3}M", v / 1e6).replace(".000M", "M")
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3).replace(".0k", "k")
    } else if a >= 10.0 || (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        // 3.5 and 0.5, not 3.50 beside 3 on the same axis.
        let s = if a >= 0.1 {
            format!("{v:.2}")
        } else {
            format!("{v:.3}")
        };
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// Width of the legend panel on the right of every chart.
const LEGEND_W: u32 = 210;

/// How a legend entry is drawn.
#[derive(Debug, Clone, Copy)]
#[doc(hidden)]
pub enum Swatch {
    /// A box filled as the bars are.
    Bar(Fill),
    /// A solid line with a marker.
    Line(Marker),
    /// A reference line with the `i`-th dash pattern.
    Dashed(usize),
}

/// The height a legend of `entries` entries takes in its panel ([`draw_legend`]).
fn legend_height(entries: usize) -> u32 {
    LEGEND_TOP as u32 + LEGEND_ROW as u32 * entries as u32 + LEGEND_ROW as u32 / 2 + 4
}

/// The first legend entry's centre, from the top of the panel.
const LEGEND_TOP: i32 = 60;
/// The distance between legend entries.
const LEGEND_ROW: i32 = 28;

/// Draws a legend (one swatch and name per entry) in its own panel.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    entries: &[(String, RGBColor, Swatch)],
) -> PlotResult {
    for (i, (name, col, swatch)) in entries.iter().enumerate() {
        let y = LEGEND_TOP + LEGEND_ROW * i as i32;
        match swatch {
            Swatch::Bar(f) => {
                for r in bar_shapes([(6, y - 8), (26, y + 8)], *col, *f) {
                    area.draw(&r)?;
                }
            }
            Swatch::Line(m) => {
                area.draw(&PathElement::new(
                    vec![(2, y), (30, y)],
                    col.stroke_width(2),
                ))?;
                draw_marker(area, *m, (16, y), *col)?;
            }
            Swatch::Dashed(k) => {
                let (dash, gap, w) = ref_dash(*k);
                let mut x = 2;
                while x < 30 {
                    let x1 = (x + dash as i32).min(30);
                    area.draw(&PathElement::new(
                        vec![(x, y), (x1, y)],
                        col.stroke_width(w),
                    ))?;
                    x = x1 + gap as i32;
                }
            }
        }
        area.draw(&Text::new(
            name.clone(),
            (36, y),
            TextStyle::from(("sans-serif", FONT).into_font())
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// A bar (or legend box) between corners `c`, filled as `fill` says, in `col`.
fn bar_shapes<C: Clone>(c: [C; 2], col: RGBColor, fill: Fill) -> Vec<Rectangle<C>> {
    match fill {
        Fill::Solid => vec![Rectangle::new(c, col.filled())],
        Fill::Half => vec![
            Rectangle::new(c.clone(), col.mix(0.45).filled()),
            Rectangle::new(c, col.stroke_width(1)),
        ],
        Fill::Outline => vec![
            Rectangle::new(c.clone(), WHITE.filled()),
            Rectangle::new(c, col.stroke_width(2)),
        ],
    }
}

/// A grouped bar chart: one group of bars per category, one bar per series.
#[derive(Debug, Clone)]
pub struct Bars {
    /// Chart title.
    pub title: String,
    /// Y axis label.
    pub y_desc: String,
    /// Category labels (x axis).
    pub categories: Vec<String>,
    /// (series name, one value per category; `None` = no bar).
    pub series: Vec<(String, Vec<Option<f64>>)>,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// A dashed horizontal line (e.g. 1.0 for ratios).
    pub reference: Option<f64>,
}

/// (min, max) over the present positive (if `log`) values, padded.
fn y_range(values: impl Iterator<Item = f64>, log: bool, reference: Option<f64>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for v in values.chain(reference) {
        if v.is_finite() && (!log || v > 0.0) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !lo.is_finite() {
        return if log { (0.1, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        (lo / 1.5, hi * 1.5)
    } else {
        (lo.min(0.0), hi * 1.1 + f64::EPSILON)
    }
}

/// Space for the y axis's tick labels and title.
const Y_LABEL_AREA: u32 = 96;
/// Height of one row of bar groups.
const BAR_ROW_H: u32 = 320;
/// Height of the chart title.
const TITLE_H: u32 = 44;

impl Bars {
    /// How many categories share one row: as many as fit with each group at least as wide
    /// as its label and its bars, so that many categories wrap into several rows instead
    /// of widening the chart (and shrinking its text when the page scales it down).
    fn per_row(&self) -> usize {
        let label_px = self
            .categories
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(1)
            * 10
            + 14;
        let bars_px = self.series.len().max(1) * 9 + 16;
        let group = label_px.max(bars_px).max(60);
        let usable = (WIDTH - LEGEND_W - Y_LABEL_AREA - 30) as usize;
        let k = (usable / group).max(1);
        let rows = self.categories.len().max(1).div_ceil(k);
        self.categories.len().max(1).div_ceil(rows)
    }

    /// Draws the chart to `path`.
    pub fn draw(&self, path: &Path) -> PlotResult {
        let k = self.per_row();
        let rows = self.categories.len().max(1).div_ceil(k);
        // Tall enough for the bars and for the legend (one entry per series).
        let height =
            (TITLE_H + rows as u32 * BAR_ROW_H).max(TITLE_H + legend_height(self.series.len()));
        let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = root.titled(&self.title, ("sans-serif", TITLE_FONT))?;
        let (plot_area, legend_area) = body.split_horizontally(WIDTH - LEGEND_W);
        let vals = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flatten().copied());
        let (lo, hi) = y_range(vals, self.log_y, self.reference);
        let cols = colors(self.series.iter().map(|(n, _)| n.as_str()));
        let names: Vec<&str> = self.series.iter().map(|(n, _)| n.as_str()).collect();
        for (row, area) in plot_area.split_evenly((rows, 1)).iter().enumerate() {
            let range = row * k..((row + 1) * k).min(self.categories.len());
            if self.log_y {
                let y = (lo..hi).log_scale().with_key_points(log_ticks(lo, hi));
                // Ratio bars grow from the reference (1: as fast as the baseline), up for
                // slower and down for faster, not from the axis bottom.
                let base = self.reference.filter(|r| *r > lo && *r < hi).unwrap_or(lo);
                self.draw_on(area, range, k, y, base, &cols, fmt_log_tick)?;
            } else {
                self.draw_on(area, range, k, lo..hi, 0.0, &cols, fmt_axis)?;
            }
        }
        let entries: Vec<_> = self
            .series
            .iter()
            .zip(&cols)
            .enumerate()
            .map(|(i, ((n, _), c))| (n.clone(), *c, Swatch::Bar(thread_fill(&names, i))))
            .collect();
        draw_legend(&legend_area, &entries)?;
        root.present()?;
        Ok(())
    }

    /// Draws the categories `cats` (of `k` slots, so every row's bars are equally wide).
    #[allow(clippy::too_many_arguments)]
    fn draw_on<Y>(
        &self,
        area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        cats: std::ops::Range<usize>,
        k: usize,
        y: Y,
        base: f64,
        cols: &[RGBColor],
        y_fmt: fn(f64) -> String,
    ) -> PlotResult
    where
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let n_ser = self.series.len().max(1);
        let labels: Vec<String> = self.categories[cats.clone()].to_vec();
        let n = labels.len();
        let fmt = move |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        };
        let x = -0.6f64..(k as f64 - 0.4);
        let mut chart = ChartBuilder::on(area)
            .margin(10)
            .margin_right(20)
            .x_label_area_size(34)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(BLACK.mix(0.04))
            .x_labels(k)
            .x_label_formatter(&fmt)
            .label_style(("sans-serif", FONT))
            .axis_desc_style(("sans-serif", FONT))
            .y_label_formatter(&|v: &f64| y_fmt(*v))
            .y_desc(self.y_desc.as_str())
            .draw()?;
        if let Some(r) = self.reference {
            let (dash, gap, w) = ref_dash(0);
            chart.draw_series(DashedLineSeries::new(
                vec![(-0.6, r), (k as f64 - 0.4, r)],
                dash,
                gap,
                ref_color(0).stroke_width(w),
            ))?;
        }
        let bw = 0.8 / n_ser as f64;
        let names: Vec<&str> = self.series.iter().map(|(n, _)| n.as_str()).collect();
        for (s, (_, values)) in self.series.iter().enumerate() {
            let col = cols[s];
            let fill = thread_fill(&names, s);
            let rects = values[cats.clone()]
                .iter()
                .enumerate()
                .filter_map(|(i, v)| {
                    let v = (*v)?;
                    if !v.is_finite() {
                        return None;
                    }
                    let x0 = i as f64 - 0.4 + s as f64 * bw;
                    Some(bar_shapes([(x0, base), (x0 + bw * 0.9, v)], col, fill))
                })
                .flatten();
            chart.draw_series(rects)?;
        }
        Ok(())
    }
}

/// One series of a [`Lines`] chart: (name, points, dashed?). A dashed series is a
/// reference line (drawn without markers, in its own dash pattern).
pub type Series = (String, Vec<(f64, f64)>, bool);

/// A line chart over a numeric x axis.
#[derive(Debug, Clone)]
pub struct Lines {
    /// Chart title.
    pub title: String,
    /// X axis label.
    pub x_desc: String,
    /// Y axis label.
    pub y_desc: String,
    /// (series name, points, dashed?).
    pub series: Vec<Series>,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The x values are base-2 logarithms: label them `2^x` (2, 8, 32, ...).
    pub x_pow2: bool,
}

/// How each series of a [`Lines`] chart is drawn: colour and marker or dash pattern.
#[doc(hidden)]
pub fn line_styles(series: &[Series]) -> Vec<(RGBColor, Swatch)> {
    let (mut sched, mut refs, mut other) = (0, 0, 0);
    series
        .iter()
        .map(|(name, _, dashed)| {
            if *dashed {
                refs += 1;
                (ref_color(refs - 1), Swatch::Dashed(refs - 1))
            } else {
                let c = match scheduler_color(name) {
                    Some(c) => c,
                    None => {
                        other += 1;
                        OTHER[(other - 1) % OTHER.len()]
                    }
                };
                sched += 1;
                (c, Swatch::Line(marker_of(sched - 1)))
            }
        })
        .collect()
}

impl Lines {
    /// Draws the chart to `path`.
    pub fn draw(&self, path: &Path) -> PlotResult {
        let root = SVGBackend::new(path, (WIDTH, 600)).into_drawing_area();
        root.fill(&WHITE)?;
        let body = root.titled(&self.title, ("sans-serif", TITLE_FONT))?;
        let (plot_area, legend_area) = body.split_horizontally(WIDTH - LEGEND_W);
        let xs = self
            .series
            .iter()
            .flat_map(|(_, p, _)| p.iter().map(|q| q.0));
        let ys = self
            .series
            .iter()
            .flat_map(|(_, p, _)| p.iter().map(|q| q.1));
        let (x_lo, x_hi) = {
            let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                (l.min(x), h.max(x))
            });
            if lo.is_finite() && hi > lo {
                (lo, hi)
            } else if lo.is_finite() {
                (lo - 1.0, lo + 1.0)
            } else {
                (1.0, 2.0)
            }
        };
        let (y_lo, y_hi) = y_range(ys, self.log_y, None);
        let styles = line_styles(&self.series);
        let y_log = || {
            (y_lo..y_hi)
                .log_scale()
                .with_key_points(log_ticks(y_lo, y_hi))
        };
        match (self.log_x, self.log_y) {
            (false, false) => self.draw_on(&plot_area, x_lo..x_hi, y_lo..y_hi, &styles)?,
            (false, true) => self.draw_on(&plot_area, x_lo..x_hi, y_log(), &styles)?,
            (true, false) => {
                self.draw_on(&plot_area, (x_lo..x_hi).log_scale(), y_lo..y_hi, &styles)?
            }
            (true, true) => self.draw_on(&plot_area, (x_lo..x_hi).log_scale(), y_log(), &styles)?,
        }
        // A series with no point to draw gets no legend entry: the legend says what is
        // in the plot. With nothing at all, the plot says so instead of staying blank.
        let drawable = |pts: &[(f64, f64)]| {
            pts.iter().any(|&(a, b)| {
                a.is_finite()
                    && b.is_finite()
                    && (!self.log_y || b > 0.0)
                    && (!self.log_x || a > 0.0)
            })
        };
        let entries: Vec<_> = self
            .series
            .iter()
            .zip(&styles)
            .filter(|((_, p, _), _)| drawable(p))
            .map(|((n, _, _), (c, sw))| (n.clone(), *c, *sw))
            .collect();
        if entries.is_empty() {
            let (w, h) = plot_area.dim_in_pixel();
            plot_area.draw(&Text::new(
                "no data to plot (see the note below the plot)",
                (w as i32 / 2, h as i32 / 2),
                TextStyle::from(("sans-serif", FONT).into_font())
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        draw_legend(&legend_area, &entries)?;
        root.present()?;
        Ok(())
    }

    fn draw_on<X, Y>(
        &self,
        area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        x: X,
        y: Y,
        styles: &[(RGBColor, Swatch)],
    ) -> PlotResult
    where
        X: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let log_y = self.log_y;
        let mut chart = ChartBuilder::on(area)
            .margin(10)
            .margin_right(24)
            .x_label_area_size(60)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .light_line_style(BLACK.mix(0.04))
            .label_style(("sans-serif", FONT))
            .axis_desc_style(("sans-serif", FONT))
            .x_label_formatter(&|v: &f64| {
                if !self.x_pow2 {
                    fmt_axis(*v)
                } else if (v - v.round()).abs() < 1e-6 {
                    fmt_axis(2f64.powf(v.round()))
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v: &f64| {
                if log_y {
                    fmt_log_tick(*v)
                } else {
                    fmt_axis(*v)
                }
            })
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .draw()?;
        for ((_, pts, _), (col, swatch)) in self.series.iter().zip(styles) {
            let col = *col;
            let pts: Vec<(f64, f64)> = pts
                .iter()
                .copied()
                .filter(|&(a, b)| {
                    a.is_finite()
                        && b.is_finite()
                        && (!self.log_y || b > 0.0)
                        && (!self.log_x || a > 0.0)
                })
                .collect();
            match *swatch {
                Swatch::Dashed(k) => {
                    let (dash, gap, w) = ref_dash(k);
                    chart.draw_series(DashedLineSeries::new(
                        pts,
                        dash,
                        gap,
                        col.stroke_width(w),
                    ))?;
                }
                Swatch::Line(m) => {
                    chart.draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?;
                    let pts = pts.into_iter();
                    match m {
                        Marker::Circle => {
                            chart.draw_series(pts.map(|p| Circle::new(p, 5, col.filled())))?;
                        }
                        Marker::Ring => {
                            chart
                                .draw_series(pts.map(|p| Circle::new(p, 5, col.stroke_width(2))))?;
                        }
                        Marker::Triangle => {
                            chart.draw_series(
                                pts.map(|p| TriangleMarker::new(p, 6, col.filled())),
                            )?;
                        }
                        Marker::Square => {
                            chart.draw_series(pts.map(|p| {
                                EmptyElement::at(p)
                                    + Rectangle::new([(-4, -4), (4, 4)], col.filled())
                            }))?;
                        }
                        Marker::Cross => {
                            chart
                                .draw_series(pts.map(|p| Cross::new(p, 5, col.stroke_width(2))))?;
                        }
                    }
                }
                Swatch::Bar(_) => {}
            }
        }
        Ok(())
    }
}
