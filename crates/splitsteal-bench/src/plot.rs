//! SVG plots with plotters' SVG backend (text is emitted as SVG `<text>`, so no system
//! font library is needed).

use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

/// Error type of the plotting helpers.
pub type PlotResult = Result<(), Box<dyn std::error::Error>>;

/// Series colors (tab10).
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 0),
    RGBColor(255, 215, 0),
];

/// The color of a series: fixed per scheduler name (the same in every plot); other
/// series (reference lines) get black, gray, gold in turn (`other` counts them).
pub fn color_of(name: &str, other: usize) -> RGBColor {
    match crate::sched::SchedulerKind::all()
        .iter()
        .position(|k| k.name() == name)
    {
        Some(i) => PALETTE[i % PALETTE.len()],
        None => [
            RGBColor(0, 0, 0),
            RGBColor(110, 110, 110),
            RGBColor(230, 170, 0),
        ][other % 3],
    }
}

/// Colors for a list of series names.
fn colors<'a>(names: impl Iterator<Item = &'a str>) -> Vec<RGBColor> {
    let mut other = 0;
    names
        .map(|n| {
            let c = color_of(n, other);
            if crate::sched::SchedulerKind::all()
                .iter()
                .all(|k| k.name() != n)
            {
                other += 1;
            }
            c
        })
        .collect()
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
    } else if a >= 0.1 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// Width of the legend panel on the right of every chart.
const LEGEND_W: u32 = 170;

/// Draws a legend (one swatch and name per entry) in its own panel.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    entries: &[(String, RGBColor, bool)],
) -> PlotResult {
    for (i, (name, col, dashed)) in entries.iter().enumerate() {
        let y = 50 + 20 * i as i32;
        if *dashed {
            area.draw(&PathElement::new(
                vec![(6, y + 6), (12, y + 6)],
                col.stroke_width(2),
            ))?;
            area.draw(&PathElement::new(
                vec![(16, y + 6), (22, y + 6)],
                col.stroke_width(2),
            ))?;
        } else {
            area.draw(&Rectangle::new([(6, y), (22, y + 12)], col.filled()))?;
        }
        area.draw(&Text::new(
            name.clone(),
            (28, y),
            ("sans-serif", 13).into_font(),
        ))?;
    }
    Ok(())
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

impl Bars {
    /// Draws the chart to `path`.
    pub fn draw(&self, path: &Path) -> PlotResult {
        let n_cat = self.categories.len().max(1);
        let n_ser = self.series.len().max(1);
        let per_cat = (n_ser * 9 + 16).max(84);
        let width = (120 + n_cat * per_cat).clamp(640, 3200) as u32 + LEGEND_W;
        let root = SVGBackend::new(path, (width, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let (plot_area, legend_area) = root.split_horizontally(width - LEGEND_W);
        let vals = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flatten().copied());
        let (lo, hi) = y_range(vals, self.log_y, self.reference);
        let cols = colors(self.series.iter().map(|(n, _)| n.as_str()));
        if self.log_y {
            self.draw_on(&plot_area, (lo..hi).log_scale(), lo, &cols)?;
        } else {
            self.draw_on(&plot_area, lo..hi, 0.0, &cols)?;
        }
        let entries: Vec<_> = self
            .series
            .iter()
            .zip(&cols)
            .map(|((n, _), c)| (n.clone(), *c, false))
            .collect();
        draw_legend(&legend_area, &entries)?;
        root.present()?;
        Ok(())
    }

    fn draw_on<Y>(
        &self,
        area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        y: Y,
        base: f64,
        cols: &[RGBColor],
    ) -> PlotResult
    where
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let n_cat = self.categories.len();
        let n_ser = self.series.len().max(1);
        let labels = self.categories.clone();
        let fmt = move |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        };
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.6f64..(n_cat as f64 - 0.4), y)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n_cat.max(1))
            .x_label_formatter(&fmt)
            .x_label_style(("sans-serif", 12))
            .y_label_formatter(&|v: &f64| fmt_axis(*v))
            .y_desc(self.y_desc.as_str())
            .draw()?;
        if let Some(r) = self.reference {
            chart.draw_series(DashedLineSeries::new(
                vec![(-0.6, r), (n_cat as f64 - 0.4, r)],
                6,
                4,
                BLACK.stroke_width(1),
            ))?;
        }
        let bw = 0.8 / n_ser as f64;
        for (s, (_, values)) in self.series.iter().enumerate() {
            let col = cols[s];
            let rects = values.iter().enumerate().filter_map(|(i, v)| {
                let v = (*v)?;
                if !v.is_finite() {
                    return None;
                }
                let x0 = i as f64 - 0.4 + s as f64 * bw;
                Some(Rectangle::new(
                    [(x0, base), (x0 + bw * 0.9, v)],
                    col.filled(),
                ))
            });
            chart.draw_series(rects)?;
        }
        Ok(())
    }
}

/// One series of a [`Lines`] chart: (name, points, dashed?).
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

impl Lines {
    /// Draws the chart to `path`.
    pub fn draw(&self, path: &Path) -> PlotResult {
        let width = 900 + LEGEND_W;
        let root = SVGBackend::new(path, (width, 540)).into_drawing_area();
        root.fill(&WHITE)?;
        let (plot_area, legend_area) = root.split_horizontally(width - LEGEND_W);
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
        let cols = colors(self.series.iter().map(|(n, _, _)| n.as_str()));
        match (self.log_x, self.log_y) {
            (false, false) => self.draw_on(&plot_area, x_lo..x_hi, y_lo..y_hi, &cols)?,
            (false, true) => {
                self.draw_on(&plot_area, x_lo..x_hi, (y_lo..y_hi).log_scale(), &cols)?
            }
            (true, false) => {
                self.draw_on(&plot_area, (x_lo..x_hi).log_scale(), y_lo..y_hi, &cols)?
            }
            (true, true) => self.draw_on(
                &plot_area,
                (x_lo..x_hi).log_scale(),
                (y_lo..y_hi).log_scale(),
                &cols,
            )?,
        }
        let entries: Vec<_> = self
            .series
            .iter()
            .zip(&cols)
            .map(|((n, _, d), c)| (n.clone(), *c, *d))
            .collect();
        draw_legend(&legend_area, &entries)?;
        root.present()?;
        Ok(())
    }

    fn draw_on<X, Y>(
        &self,
        area: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        x: X,
        y: Y,
        cols: &[RGBColor],
    ) -> PlotResult
    where
        X: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v: &f64| {
                if !self.x_pow2 {
                    fmt_axis(*v)
                } else if (v - v.round()).abs() < 1e-6 {
                    fmt_axis(2f64.powf(v.round()))
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v: &f64| fmt_axis(*v))
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .draw()?;
        for (s, (_, pts, dashed)) in self.series.iter().enumerate() {
            let col = cols[s];
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
            if *dashed {
                chart.draw_series(DashedLineSeries::new(pts, 6, 4, col.stroke_width(2)))?;
            } else {
                chart.draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?;
                chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, col.filled())))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_render_to_svg() {
        let dir =
            std::env::temp_dir().join(format!("splitsteal-bench-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let b = Bars {
            title: "t".into(),
            y_desc: "y".into(),
            categories: vec!["a".into(), "b".into()],
            series: vec![
                ("s".into(), vec![Some(1.0), None]),
                ("uniq-series".into(), vec![Some(2.0), Some(0.5)]),
            ],
            log_y: true,
            reference: Some(1.0),
        };
        b.draw(&dir.join("b.svg")).unwrap();
        let l = Lines {
            title: "t".into(),
            x_desc: "x".into(),
            y_desc: "y".into(),
            series: vec![
                ("s".into(), vec![(1.0, 1.0), (2.0, 4.0)], false),
                ("r".into(), vec![(1.0, 2.0)], true),
            ],
            log_x: false,
            log_y: true,
            x_pow2: false,
        };
        l.draw(&dir.join("l.svg")).unwrap();
        let svg = std::fs::read_to_string(dir.join("b.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<text"));
        assert!(svg.contains("uniq-series"), "legend entries are drawn");
        assert_eq!(fmt_axis(1_000_000.0), "1M");
        assert_eq!(fmt_axis(25_000.0), "25k");
        assert_eq!(fmt_axis(16.0), "16");
        assert_eq!(fmt_axis(0.5), "0.50");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
