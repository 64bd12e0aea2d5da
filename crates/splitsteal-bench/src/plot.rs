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

/// Color of series `i`.
pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
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
        let width = (160 + n_cat * (n_ser * 9 + 16)).clamp(720, 3000) as u32;
        let root = SVGBackend::new(path, (width, 560)).into_drawing_area();
        root.fill(&WHITE)?;
        let vals = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().flatten().copied());
        let (lo, hi) = y_range(vals, self.log_y, self.reference);
        if self.log_y {
            self.draw_on(&root, (lo..hi).log_scale(), lo)?;
        } else {
            self.draw_on(&root, lo..hi, 0.0)?;
        }
        root.present()?;
        Ok(())
    }

    fn draw_on<Y>(
        &self,
        root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        y: Y,
        base: f64,
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
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(110)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.6f64..(n_cat as f64 - 0.4), y)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n_cat.max(1))
            .x_label_formatter(&fmt)
            .x_label_style(
                ("sans-serif", 12)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
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
        for (s, (name, values)) in self.series.iter().enumerate() {
            let col = color(s);
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
            chart
                .draw_series(rects)?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], col.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", 12))
            .draw()?;
        Ok(())
    }
}

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
    pub series: Vec<(String, Vec<(f64, f64)>, bool)>,
    /// Logarithmic x axis.
    pub log_x: bool,
    /// Logarithmic y axis.
    pub log_y: bool,
}

impl Lines {
    /// Draws the chart to `path`.
    pub fn draw(&self, path: &Path) -> PlotResult {
        let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
        root.fill(&WHITE)?;
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
        match (self.log_x, self.log_y) {
            (false, false) => self.draw_on(&root, x_lo..x_hi, y_lo..y_hi)?,
            (false, true) => self.draw_on(&root, x_lo..x_hi, (y_lo..y_hi).log_scale())?,
            (true, false) => self.draw_on(&root, (x_lo..x_hi).log_scale(), y_lo..y_hi)?,
            (true, true) => {
                self.draw_on(&root, (x_lo..x_hi).log_scale(), (y_lo..y_hi).log_scale())?
            }
        }
        root.present()?;
        Ok(())
    }

    fn draw_on<X, Y>(
        &self,
        root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
        x: X,
        y: Y,
    ) -> PlotResult
    where
        X: AsRangedCoord<Value = f64>,
        X::CoordDescType: ValueFormatter<f64>,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .draw()?;
        for (s, (name, pts, dashed)) in self.series.iter().enumerate() {
            let col = color(s);
            let pts: Vec<(f64, f64)> = pts
                .iter()
                .copied()
                .filter(|&(a, b)| a.is_finite() && b.is_finite() && (!self.log_y || b > 0.0))
                .collect();
            if *dashed {
                chart
                    .draw_series(DashedLineSeries::new(pts, 6, 4, col.stroke_width(2)))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], col.stroke_width(2))
                    });
            } else {
                chart
                    .draw_series(LineSeries::new(pts.clone(), col.stroke_width(2)))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 16, y)], col.stroke_width(2))
                    });
                chart.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, col.filled())))?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(("sans-serif", 12))
            .draw()?;
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
                ("u".into(), vec![Some(2.0), Some(0.5)]),
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
        };
        l.draw(&dir.join("l.svg")).unwrap();
        let svg = std::fs::read_to_string(dir.join("b.svg")).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<text"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
