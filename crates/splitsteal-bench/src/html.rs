//! `index.html` and `tables.md`: every experiment's plots and tables in one page.

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::modes::{Mode, ModeOutput};
use crate::report::esc;
pub use splitsteal_report::{machine, revision, utc_now, RunInfo};

const CSS: &str = "body{font-family:sans-serif;margin:2em;max-width:1600px}\
table{border-collapse:collapse;margin:1em 0;font-size:13px}\
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}\
td:first-child,th:first-child{text-align:left}\
th{background:#eee}.failed{background:#fbb}.note{color:#555;font-size:13px}\
img{max-width:100%;border:1px solid #ddd;margin:0.5em 0}figure{margin:1em 0}";

/// Writes `index.html` into `dir`.
pub fn write_index(
    dir: &Path,
    info: &RunInfo,
    modes: &[(Mode, ModeOutput)],
) -> std::io::Result<()> {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>splitsteal bench</title><style>{CSS}</style></head><body>\n\
         <h1>splitsteal benchmark report</h1>\n<ul>"
    );
    for l in info.lines() {
        let _ = write!(s, "<li>{}</li>", esc(&l));
    }
    s.push_str(
        "</ul>\n<p>Data: <a href=\"results.json\">results.json</a>, <a href=\"results.csv\">results.csv</a>, \
         <a href=\"tables.md\">tables.md</a>.</p>\n<p>Contents: ",
    );
    for (m, _) in modes {
        let _ = write!(s, "<a href=\"#{0}\">{0}</a> ", m.name());
    }
    s.push_str("</p>\n");
    for (m, out) in modes {
        let _ = writeln!(s, "<h2 id=\"{0}\">{0}</h2>", m.name());
        for n in &out.notes {
            let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
        }
        for p in &out.plots {
            let _ = writeln!(
                s,
                "<figure><a href=\"{f}\"><img src=\"{f}\" alt=\"{c}\"></a><figcaption>{c}</figcaption></figure>",
                f = esc(&p.file),
                c = esc(&p.caption)
            );
        }
        for t in &out.tables {
            s.push_str(&t.to_html());
        }
    }
    s.push_str("</body></html>\n");
    std::fs::write(dir.join("index.html"), s)
}

/// The Markdown version: header, then each mode's notes, plot links and tables.
pub fn markdown(info: &RunInfo, modes: &[(Mode, ModeOutput)], plot_prefix: &str) -> String {
    let mut s = String::from("## splitsteal benchmark report\n\n");
    for l in info.lines() {
        let _ = writeln!(s, "- {l}");
    }
    for (m, out) in modes {
        let _ = writeln!(s, "\n## {}\n", m.name());
        for n in &out.notes {
            let _ = writeln!(s, "{n}\n");
        }
        for p in &out.plots {
            let _ = writeln!(s, "- [{}]({plot_prefix}{})", p.caption, p.file);
        }
        for t in &out.tables {
            s.push('\n');
            s.push_str(&t.to_markdown());
        }
    }
    s
}

/// The generated section of a README: run facts, the mode's notes, plot links (prefixed
/// with `plot_prefix`) and tables, with no heading of its own.
pub fn readme_section(info: &RunInfo, out: &ModeOutput, plot_prefix: &str) -> String {
    let mut s = String::new();
    for l in info.lines() {
        let _ = writeln!(s, "- {l}");
    }
    s.push('\n');
    for n in &out.notes {
        let _ = writeln!(s, "{n}\n");
    }
    for p in &out.plots {
        let _ = writeln!(s, "- [{}]({plot_prefix}{})", p.caption, p.file);
    }
    for t in &out.tables {
        s.push('\n');
        s.push_str(&t.to_markdown());
    }
    s
}

/// Start and end markers of the generated section of a README.
pub const README_MARKERS: (&str, &str) =
    ("<!-- bench-report:start -->", "<!-- bench-report:end -->");

/// Replaces the text between [`README_MARKERS`] in `readme` with `section`. The markers
/// must stand on lines of their own (so that a README may mention them in its text).
pub fn replace_section(readme: &str, section: &str) -> Result<String, String> {
    let (a, b) = README_MARKERS;
    let line_at = |marker: &str, from: usize| -> Option<(usize, usize)> {
        let mut pos = from;
        for line in readme[from..].split_inclusive('\n') {
            if line.trim() == marker {
                return Some((pos, pos + line.len()));
            }
            pos += line.len();
        }
        None
    };
    let (_, start) = line_at(a, 0).ok_or_else(|| format!("no line `{a}`"))?;
    let (end, _) = line_at(b, start).ok_or_else(|| format!("no line `{b}` after `{a}`"))?;
    Ok(format!(
        "{}{}\n{}",
        &readme[..start],
        section.trim(),
        &readme[end..]
    ))
}

/// `to` relative to directory `from` (both made absolute against the current directory).
pub fn relative_path(from: &Path, to: &Path) -> PathBuf {
    let abs = |p: &Path| {
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().unwrap_or_default().join(p)
        };
        let mut out = PathBuf::new();
        for c in p.components() {
            match c {
                Component::ParentDir => {
                    out.pop();
                }
                Component::CurDir => {}
                c => out.push(c),
            }
        }
        out
    };
    let (f, t) = (abs(from), abs(to));
    let fc: Vec<_> = f.components().collect();
    let tc: Vec<_> = t.components().collect();
    let common = fc.iter().zip(&tc).take_while(|(a, b)| a == b).count();
    let mut r = PathBuf::new();
    for _ in common..fc.len() {
        r.push("..");
    }
    for c in &tc[common..] {
        r.push(c);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_section_is_replaced() {
        let r = "a\n<!-- bench-report:start -->\nold\n<!-- bench-report:end -->\nb\n";
        let n = replace_section(r, "new").unwrap();
        assert_eq!(
            n,
            "a\n<!-- bench-report:start -->\nnew\n<!-- bench-report:end -->\nb\n"
        );
        assert!(replace_section("x", "y").is_err());
    }

    #[test]
    fn relative_paths() {
        assert_eq!(
            relative_path(Path::new("/w/crates/b"), Path::new("/w/bench-report/x.svg")),
            PathBuf::from("../../bench-report/x.svg")
        );
    }
}
