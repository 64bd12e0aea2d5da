//! A check that an SVG's text can be read at all: the file parses, and every `<text>`
//! element's estimated box lies inside the drawing, after the `translate`/`rotate`
//! transforms that plotters emits. Labels cut off at the edge (a rotated axis title pushed
//! out by long tick labels, say) are the layout faults that a person notices first and that
//! no other test sees.
//!
//! Glyph widths are not known without the font, so the box is an estimate: 0.55 em per
//! character (a little wider than the average sans-serif glyph, so that a cut-off label is
//! caught rather than excused), cap height 0.72 em above and 0.2 em below the baseline.

use std::path::Path;

use roxmltree::{Document, Node};

/// Estimated advance of one character, in em.
const CHAR_EM: f64 = 0.55;
/// How far outside the box (in user units) a text may reach before it counts: rounding in
/// the estimate, not in the drawing.
const SLACK: f64 = 1.0;

/// A 2-D affine map `[a c e; b d f]`, as SVG writes `matrix(a b c d e f)`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Affine([f64; 6]);

impl Affine {
    const ID: Affine = Affine([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// `self` applied after `o` (so `self.then_inner(o)` maps `p` to `self(o(p))`).
    fn then_inner(self, o: Affine) -> Affine {
        let [a, b, c, d, e, f] = self.0;
        let [a2, b2, c2, d2, e2, f2] = o.0;
        Affine([
            a * a2 + c * b2,
            b * a2 + d * b2,
            a * c2 + c * d2,
            b * c2 + d * d2,
            a * e2 + c * f2 + e,
            b * e2 + d * f2 + f,
        ])
    }

    fn apply(self, (x, y): (f64, f64)) -> (f64, f64) {
        let [a, b, c, d, e, f] = self.0;
        (a * x + c * y + e, b * x + d * y + f)
    }

    fn translate(x: f64, y: f64) -> Affine {
        Affine([1.0, 0.0, 0.0, 1.0, x, y])
    }

    fn rotate(deg: f64) -> Affine {
        let (s, c) = deg.to_radians().sin_cos();
        Affine([c, s, -s, c, 0.0, 0.0])
    }
}

/// Parses an SVG `transform` attribute: a list of `translate`, `rotate` (with or without a
/// centre), `scale` and `matrix`.
fn parse_transform(s: &str) -> Result<Affine, String> {
    let mut m = Affine::ID;
    let mut rest = s.trim();
    while !rest.is_empty() {
        let open = rest
            .find('(')
            .ok_or_else(|| format!("transform {s:?}: no '('"))?;
        let close = rest
            .find(')')
            .ok_or_else(|| format!("transform {s:?}: no ')'"))?;
        let name = rest[..open].trim().trim_start_matches(',').trim();
        let args: Vec<f64> = rest[open + 1..close]
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|a| !a.is_empty())
            .map(|a| {
                a.parse::<f64>()
                    .map_err(|_| format!("transform {s:?}: bad number {a:?}"))
            })
            .collect::<Result<_, _>>()?;
        let one = match (name, args.as_slice()) {
            ("translate", [x]) => Affine::translate(*x, 0.0),
            ("translate", [x, y]) => Affine::translate(*x, *y),
            ("rotate", [a]) => Affine::rotate(*a),
            ("rotate", [a, cx, cy]) => Affine::translate(*cx, *cy)
                .then_inner(Affine::rotate(*a))
                .then_inner(Affine::translate(-cx, -cy)),
            ("scale", [k]) => Affine([*k, 0.0, 0.0, *k, 0.0, 0.0]),
            ("scale", [kx, ky]) => Affine([*kx, 0.0, 0.0, *ky, 0.0, 0.0]),
            ("matrix", [a, b, c, d, e, f]) => Affine([*a, *b, *c, *d, *e, *f]),
            _ => return Err(format!("transform {s:?}: cannot read {name}(...)")),
        };
        m = m.then_inner(one);
        rest = rest[close + 1..].trim();
    }
    Ok(m)
}

/// A length such as `12`, `12px`, `0.76em`, `-0.5ex`, in user units for font size `fs`.
fn length(s: &str, fs: f64) -> Option<f64> {
    let s = s.trim();
    let (num, scale) = if let Some(n) = s.strip_suffix("em") {
        (n, fs)
    } else if let Some(n) = s.strip_suffix("ex") {
        (n, fs / 2.0)
    } else if let Some(n) = s.strip_suffix("px") {
        (n, 1.0)
    } else {
        (s, 1.0)
    };
    num.trim().parse::<f64>().ok().map(|v| v * scale)
}

/// An attribute of `n` or, for inherited properties, of its nearest ancestor that has it.
fn inherited<'a>(n: Node<'a, '_>, name: &str) -> Option<&'a str> {
    n.ancestors()
        .filter(|a| a.is_element())
        .find_map(|a| a.attribute(name))
}

/// The drawing's box `(x0, y0, x1, y1)`: the root's `viewBox`, else `0 0 width height`.
fn drawing_box(root: Node) -> Result<(f64, f64, f64, f64), String> {
    if let Some(vb) = root.attribute("viewBox") {
        let v: Vec<f64> = vb
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|a| !a.is_empty())
            .filter_map(|a| a.parse().ok())
            .collect();
        if let [x, y, w, h] = v[..] {
            return Ok((x, y, x + w, y + h));
        }
        return Err(format!("viewBox {vb:?} is not four numbers"));
    }
    let dim = |a: &str| root.attribute(a).and_then(|v| length(v, 16.0));
    match (dim("width"), dim("height")) {
        (Some(w), Some(h)) => Ok((0.0, 0.0, w, h)),
        _ => Err("the <svg> element has neither a viewBox nor a width and height".into()),
    }
}

/// Parses `text` as SVG and checks that every non-empty `<text>` element lies inside the
/// drawing. The error names the first few offending labels and where they reach.
pub fn check_svg(text: &str) -> Result<(), String> {
    let doc = Document::parse(text).map_err(|e| format!("not well-formed XML: {e}"))?;
    let root = doc.root_element();
    if root.tag_name().name() != "svg" {
        return Err(format!(
            "the root element is <{}>, not <svg>",
            root.tag_name().name()
        ));
    }
    let (bx0, by0, bx1, by1) = drawing_box(root)?;
    let mut bad = Vec::new();
    for t in doc
        .descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == "text")
    {
        let label: String = t
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        let label = label.trim();
        if label.is_empty() {
            continue;
        }
        // Ancestors' transforms apply outside the element's own, outermost first.
        let mut m = Affine::ID;
        for a in t.ancestors().collect::<Vec<_>>().into_iter().rev() {
            if let Some(tr) = a.attribute("transform") {
                m = m.then_inner(parse_transform(tr)?);
            }
        }
        let fs = inherited(t, "font-size")
            .and_then(|v| length(v, 16.0))
            .unwrap_or(16.0);
        let first = |a: &str| {
            t.attribute(a)
                .and_then(|v| v.split([',', ' ']).find(|s| !s.is_empty()))
                .and_then(|v| length(v, fs))
                .unwrap_or(0.0)
        };
        let (x, y) = (first("x"), first("y") + first("dy"));
        let w = CHAR_EM * fs * label.chars().count() as f64;
        let (l, r) = match inherited(t, "text-anchor").unwrap_or("start") {
            "middle" => (x - w / 2.0, x + w / 2.0),
            "end" => (x - w, x),
            _ => (x, x + w),
        };
        let (top, bottom) = (y - 0.72 * fs, y + 0.2 * fs);
        let corners = [(l, top), (r, top), (l, bottom), (r, bottom)].map(|p| m.apply(p));
        let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (cx, cy) in corners {
            lo_x = lo_x.min(cx);
            lo_y = lo_y.min(cy);
            hi_x = hi_x.max(cx);
            hi_y = hi_y.max(cy);
        }
        if lo_x < bx0 - SLACK || lo_y < by0 - SLACK || hi_x > bx1 + SLACK || hi_y > by1 + SLACK {
            bad.push(format!(
                "text {label:?} spans x {lo_x:.0}..{hi_x:.0}, y {lo_y:.0}..{hi_y:.0}"
            ));
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    let n = bad.len();
    bad.truncate(3);
    Err(format!(
        "{n} text element(s) outside the drawing (x {bx0}..{bx1}, y {by0}..{by1}): {}{}",
        bad.join("; "),
        if n > 3 { "; ..." } else { "" }
    ))
}

/// [`check_svg`] on a file; the error names the file.
pub fn check_svg_file(path: &Path) -> Result<(), String> {
    let text = crate::out_dir::read_to_string(path).map_err(|e| e.to_string())?;
    check_svg(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(body: &str) -> String {
        format!(
            "<svg width=\"400\" height=\"300\" viewBox=\"0 0 400 300\" \
             xmlns=\"http://www.w3.org/2000/svg\">{body}</svg>"
        )
    }

    #[test]
    fn text_well_inside_passes() {
        let s = svg(
            "<text x=\"200\" y=\"150\" dy=\"0.5ex\" text-anchor=\"middle\" \
                     font-size=\"16\">a label</text>",
        );
        assert_eq!(check_svg(&s), Ok(()));
    }

    #[test]
    fn text_past_the_right_edge_fails_and_is_named() {
        let s = svg("<text x=\"380\" y=\"150\" font-size=\"16\">too long a label</text>");
        let e = check_svg(&s).unwrap_err();
        assert!(e.contains("\"too long a label\""), "{e}");
        // The same text ending at the anchor fits.
        let s = svg("<text x=\"380\" y=\"150\" text-anchor=\"end\" font-size=\"16\">too long a label</text>");
        assert_eq!(check_svg(&s), Ok(()));
    }

    #[test]
    fn text_above_the_top_fails() {
        // Baseline at y = 5 puts a 16 px cap height above the box.
        let s = svg("<text x=\"100\" y=\"5\" font-size=\"16\">top</text>");
        assert!(check_svg(&s).is_err());
        // The same with a hanging baseline (plotters' VPos::Top) lies inside.
        let s = svg("<text x=\"100\" y=\"5\" dy=\"0.76em\" font-size=\"16\">top</text>");
        assert_eq!(check_svg(&s), Ok(()));
    }

    #[test]
    fn rotation_about_a_point_is_taken_into_account() {
        // Unrotated it would fit; turned 270 degrees about its anchor it runs up past y = 0
        // (a y-axis title longer than the plot is high).
        let long = "a rotated axis title that is long";
        let s = svg(&format!(
            "<text x=\"20\" y=\"100\" text-anchor=\"middle\" font-size=\"16\" \
             transform=\"rotate(270, 20, 100)\">{long}</text>"
        ));
        let e = check_svg(&s).unwrap_err();
        assert!(e.contains(long), "{e}");
        let s = svg(&format!(
            "<text x=\"20\" y=\"150\" dy=\"0.5ex\" text-anchor=\"middle\" font-size=\"16\" \
             transform=\"rotate(270, 20, 150)\">{long}</text>"
        ));
        assert_eq!(check_svg(&s), Ok(()));
    }

    #[test]
    fn group_translation_moves_its_text() {
        let inside = "<text x=\"10\" y=\"20\" font-size=\"16\">shifted</text>";
        assert_eq!(check_svg(&svg(inside)), Ok(()));
        let s = svg(&format!("<g transform=\"translate(380, 0)\">{inside}</g>"));
        assert!(check_svg(&s).is_err());
    }

    #[test]
    fn width_and_height_stand_in_for_a_missing_viewbox() {
        let ok = "<svg width=\"100px\" height=\"50\" xmlns=\"http://www.w3.org/2000/svg\">\
                  <text x=\"5\" y=\"30\" font-size=\"10\">ok</text></svg>";
        assert_eq!(check_svg(ok), Ok(()));
        let out = ok.replace("x=\"5\"", "x=\"95\"");
        assert!(check_svg(&out).is_err());
    }

    #[test]
    fn broken_or_foreign_files_are_errors_not_panics() {
        assert!(check_svg("<svg")
            .unwrap_err()
            .starts_with("not well-formed"));
        assert!(check_svg("<html/>").unwrap_err().contains("<html>"));
        assert!(check_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
            .unwrap_err()
            .contains("viewBox"));
        let s = svg("<text transform=\"skewX(3)\" x=\"1\" y=\"20\">t</text>");
        assert!(check_svg(&s).unwrap_err().contains("skewX"));
    }

    #[test]
    fn transforms_compose_like_svg() {
        let m = parse_transform("translate(10,0) rotate(90)").unwrap();
        let (x, y) = m.apply((1.0, 0.0));
        assert!((x - 10.0).abs() < 1e-9 && (y - 1.0).abs() < 1e-9, "{x} {y}");
        let r = parse_transform("rotate(180, 5, 5)").unwrap();
        let (x, y) = r.apply((0.0, 0.0));
        assert!(
            (x - 10.0).abs() < 1e-9 && (y - 10.0).abs() < 1e-9,
            "{x} {y}"
        );
    }

    #[test]
    fn a_missing_file_is_named() {
        let e = check_svg_file(Path::new("/nonexistent/plot.svg")).unwrap_err();
        assert!(e.contains("/nonexistent/plot.svg"), "{e}");
    }
}
