//! One small HTML page builder for every report (`bench` and `sim`), so that they all open
//! the same way: title, the run facts, a contents line, then sections of prose, figures and
//! tables, with the bulky parts collapsed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::out_dir::{self, PathError};
use crate::RunInfo;

/// Readable at 1280 px and on a phone: a bounded text column, figures no larger than drawn
/// (an SVG is legible at its own size; scaled up it only blurs the layout), wide tables
/// scrolling inside their box instead of widening the page. Numbers and headers never wrap
/// (a unit on a line of its own misreads); sentences do. Red is for FAILED (a wrong result)
/// alone: a performance goal's met or missed is shaded neutrally.
const CSS: &str = "\
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1200px;padding:0 1em;line-height:1.4;color:#222}\
h1{font-size:1.6em;margin-bottom:0.3em}h2{border-bottom:1px solid #ccc;margin-top:1.8em}\
ul.facts{margin:0.3em 0;padding-left:1.2em;font-size:14px;color:#333}\
nav{margin:0.8em 0;font-size:14px}nav a{margin-right:0.9em}\
.partial{background:#fff3cd;border:2px solid #e0a800;padding:0.6em 1em;font-weight:bold;margin:0.8em 0}\
.note{color:#555;font-size:14px}\
.scroll{overflow-x:auto;max-width:100%}\
table{border-collapse:collapse;margin:0.8em 0;font-size:14px}\
td,th{border:1px solid #ccc;padding:3px 7px;text-align:right;vertical-align:top}\
td:first-child,th:first-child,td.text,th.text{text-align:left}th{background:#eee}\
th,td:not(.text){white-space:nowrap}td.text{min-width:8em}\
.failed{background:#fbb}.pass{background:#cfc}.met{background:#e8eef6}.missed{background:#f1f1f1;font-style:italic}.tie{color:#666}\
.load-high{background:#fff3cd}\
figure{margin:1.2em 0}figcaption{font-size:14px;color:#333;margin-top:0.3em}\
img{max-width:100%;height:auto;border:1px solid #ddd}\
details{margin:0.6em 0}summary{cursor:pointer;font-weight:bold}";

/// Escapes text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// An HTML report page under construction. Methods append in call order, so the order of
/// calls is the order a reader meets things.
///
/// ```
/// use splitsteal_report::{page::Page, RunInfo};
/// let info = RunInfo { command: "splitsteal sim kernel".into(), ..RunInfo::default() };
/// let mut p = Page::new("kernel simulation", &info);
/// p.section("summary", "Summary").para("Shorter is better.");
/// p.figure("kernel.svg", "Run time per policy");
/// assert!(p.html().contains("<img src=\"kernel.svg\""));
/// ```
#[derive(Debug, Clone)]
pub struct Page {
    title: String,
    facts: Vec<String>,
    banner: Option<String>,
    contents: Vec<(String, String)>,
    body: String,
}

impl Page {
    /// A page titled `title` that opens with the facts of `info`; a partial run
    /// (`info.partial`) gets the banner of [`Page::partial`] instead of a fact line.
    pub fn new(title: &str, info: &RunInfo) -> Self {
        let facts = RunInfo {
            partial: None,
            ..info.clone()
        }
        .lines();
        Page {
            title: title.to_string(),
            facts,
            banner: info.partial.clone(),
            contents: Vec::new(),
            body: String::new(),
        }
    }

    /// Marks the page as showing an incomplete run: a banner above everything else says so
    /// and why, so nobody reads a cut-short run as a whole one.
    pub fn partial(&mut self, why: &str) -> &mut Self {
        self.banner = Some(why.to_string());
        self
    }

    /// Starts a section: an `<h2>` with anchor `id`, listed on the contents line.
    pub fn section(&mut self, id: &str, heading: &str) -> &mut Self {
        let _ = writeln!(self.body, "<h2 id=\"{}\">{}</h2>", esc(id), esc(heading));
        self.contents.push((format!("#{id}"), heading.to_string()));
        self
    }

    /// A sub-heading (`<h3>`), not on the contents line.
    pub fn subsection(&mut self, id: &str, heading: &str) -> &mut Self {
        let _ = writeln!(self.body, "<h3 id=\"{}\">{}</h3>", esc(id), esc(heading));
        self
    }

    /// Adds a link to the contents line (a data file beside the page, say).
    pub fn link(&mut self, href: &str, text: &str) -> &mut Self {
        self.contents.push((href.to_string(), text.to_string()));
        self
    }

    /// A paragraph of plain text (escaped).
    pub fn para(&mut self, text: &str) -> &mut Self {
        let _ = writeln!(self.body, "<p>{}</p>", esc(text));
        self
    }

    /// A smaller, grey paragraph for caveats and explanations (escaped).
    pub fn note(&mut self, text: &str) -> &mut Self {
        let _ = writeln!(self.body, "<p class=\"note\">{}</p>", esc(text));
        self
    }

    /// An image of the file `file` beside the page, linked to itself so it can be opened at
    /// full size, with `caption` below it.
    pub fn figure(&mut self, file: &str, caption: &str) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<figure><a href=\"{f}\"><img src=\"{f}\" alt=\"{c}\"></a><figcaption>{c}</figcaption></figure>",
            f = esc(file),
            c = esc(caption)
        );
        self
    }

    /// A ready-made `<table>` (already escaped by its maker), in a box that scrolls
    /// sideways when the table is wider than the page.
    pub fn table_html(&mut self, html: &str) -> &mut Self {
        let _ = writeln!(self.body, "<div class=\"scroll\">{html}</div>");
        self
    }

    /// An image of the file `file` beside the page, linked to itself, with no caption: for a
    /// plot that draws its own title (a caption would repeat it). `alt` is its text form.
    pub fn image(&mut self, file: &str, alt: &str) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<figure><a href=\"{f}\"><img src=\"{f}\" alt=\"{a}\"></a></figure>",
            f = esc(file),
            a = esc(alt)
        );
        self
    }

    /// Ready-made HTML, inserted as it is.
    pub fn raw_html(&mut self, html: &str) -> &mut Self {
        self.body.push_str(html);
        self.body.push('\n');
        self
    }

    /// `html` collapsed under a one-line `summary` that opens it: for the bulky raw tables
    /// that few readers need.
    pub fn details(&mut self, summary: &str, html: &str) -> &mut Self {
        let _ = writeln!(
            self.body,
            "<details><summary>{}</summary>\n<div class=\"scroll\">{html}</div></details>",
            esc(summary)
        );
        self
    }

    /// The whole page.
    pub fn html(&self) -> String {
        let mut s = String::new();
        let t = esc(&self.title);
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{t}</title><style>{CSS}</style></head><body>\n<h1>{t}</h1>\n"
        );
        if let Some(why) = &self.banner {
            let _ = writeln!(
                s,
                "<div class=\"partial\">PARTIAL RESULTS: {}</div>",
                esc(why)
            );
        }
        s.push_str("<ul class=\"facts\">");
        for l in &self.facts {
            let _ = write!(s, "<li>{}</li>", esc(l));
        }
        s.push_str("</ul>\n");
        if !self.contents.is_empty() {
            s.push_str("<nav>Contents: ");
            for (href, text) in &self.contents {
                let _ = write!(s, "<a href=\"{}\">{}</a>", esc(href), esc(text));
            }
            s.push_str("</nav>\n");
        }
        s.push_str(&self.body);
        s.push_str("</body></html>\n");
        s
    }

    /// Writes the page as `dir/index.html` and returns that path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, PathError> {
        let path = dir.join("index.html");
        out_dir::write(&path, self.html())?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> RunInfo {
        RunInfo {
            command: "splitsteal bench --quick".into(),
            date: "2026-01-01 00:00 UTC".into(),
            machine: "test CPU, 2 CPUs".into(),
            ..RunInfo::default()
        }
    }

    #[test]
    fn esc_escapes_markup_and_quotes() {
        assert_eq!(esc("a<b>&\"c\"'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;");
    }

    #[test]
    fn parts_appear_in_call_order_after_the_facts() {
        let mut p = Page::new("T <1>", &info());
        p.section("sum", "Summary")
            .para("first <para>")
            .figure("a b.svg", "cap & tion")
            .details("raw", "<table><tr><td>1</td></tr></table>")
            .link("results.json", "results.json");
        let h = p.html();
        assert!(h.contains("<title>T &lt;1&gt;</title>"), "{h}");
        let at = |needle: &str| {
            h.find(needle)
                .unwrap_or_else(|| panic!("{needle:?} missing in {h}"))
        };
        assert!(at("splitsteal bench --quick") < at("<nav>"));
        assert!(at("<nav>") < at("<h2 id=\"sum\">"));
        assert!(at("<h2 id=\"sum\">") < at("first &lt;para&gt;"));
        assert!(at("first &lt;para&gt;") < at("<img src=\"a b.svg\" alt=\"cap &amp; tion\">"));
        assert!(at("<details><summary>raw</summary>") < at("<td>1</td>"));
        assert!(h.contains("<a href=\"#sum\">Summary</a>"));
        assert!(h.contains("<a href=\"results.json\">results.json</a>"));
        assert!(!h.contains("PARTIAL"));
    }

    #[test]
    fn a_partial_run_raises_the_banner_once() {
        let info = RunInfo {
            command: "splitsteal bench".into(),
            partial: Some("interrupted after 2 of 9 runs".into()),
            ..RunInfo::default()
        };
        let html = Page::new("bench", &info).html();
        let banner = html.find("PARTIAL RESULTS: interrupted after 2 of 9 runs");
        let facts = html.find("command: splitsteal bench");
        assert!(banner.is_some() && banner < facts, "{html}");
        assert_eq!(html.matches("interrupted after 2 of 9 runs").count(), 1);
    }

    #[test]
    fn a_partial_page_says_so_before_the_facts() {
        let mut p = Page::new("t", &info());
        p.partial("interrupted after 3 of 10 cells");
        let h = p.html();
        let banner = h.find("PARTIAL RESULTS: interrupted after 3 of 10 cells");
        assert!(banner.is_some_and(|b| b < h.find("splitsteal bench --quick").unwrap()));
    }

    #[test]
    fn write_puts_index_html_in_the_folder_and_names_a_bad_path() {
        let d = std::env::temp_dir().join(format!("splitsteal-page-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let p = Page::new("t", &info());
        let path = p.write(&d).unwrap();
        assert_eq!(path, d.join("index.html"));
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("<!DOCTYPE html>"));
        let e = p.write(&d.join("missing/sub")).unwrap_err().to_string();
        assert!(e.contains("missing/sub/index.html"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
