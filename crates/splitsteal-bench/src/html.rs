//! `index.html` and `tables.md`: the summary and targets first, then every experiment's
//! plots and readable tables, then the raw per-cell tables (collapsed in the page).

use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::modes::{Mode, ModeOutput};
use crate::report::{Table, TableRole};
use splitsteal_report::out_dir::PathError;
use splitsteal_report::page::Page;
pub use splitsteal_report::{machine, revision, utc_now, RunInfo};

/// The tables of `role` over every mode, in run order.
fn tables_of(modes: &[(Mode, ModeOutput)], role: TableRole) -> impl Iterator<Item = &Table> {
    modes
        .iter()
        .flat_map(|(_, o)| o.tables.iter())
        .filter(move |t| t.role == role)
}

/// The page: run facts, summary (headline tables), targets, each mode's notes, plots and
/// summaries, and last the raw tables collapsed.
pub fn index_page(info: &RunInfo, modes: &[(Mode, ModeOutput)]) -> Page {
    let mut p = Page::new("splitsteal benchmark report", info);
    let headline: Vec<&Table> = tables_of(modes, TableRole::Headline).collect();
    let targets: Vec<&Table> = tables_of(modes, TableRole::Targets).collect();
    let raw: Vec<&Table> = tables_of(modes, TableRole::Raw).collect();
    if !headline.is_empty() || !targets.is_empty() {
        p.section("summary", "Summary");
        // The targets' verdict on the first screen, even when a long headline table
        // pushes the targets table below it.
        if let Some(v) = verdict(&targets) {
            p.raw_html(&v);
        }
        for t in &headline {
            p.table_html(&t.to_html());
        }
    }
    let loads: Vec<crate::load::SectionLoad> =
        modes.iter().filter_map(|(_, o)| o.load.clone()).collect();
    if !loads.is_empty() {
        p.section("load", "System load");
        let busy: Vec<&str> = loads
            .iter()
            .filter(|l| l.high)
            .map(|l| l.section.as_str())
            .collect();
        let known = loads.iter().any(|l| l.other_cpu.is_some());
        p.raw_html(&if !busy.is_empty() {
            format!(
                "<p class=\"load-high\"><b>Load was high during {}:</b> other processes took more than {:.0}% of the \
                 CPUs, so those times are less trustworthy than a quiet machine's.</p>",
                crate::report::esc(&busy.join(", ")),
                100.0 * crate::load::OTHER_SHARE_HIGH
            )
        } else if known {
            format!(
                "<p>The machine was quiet during every section: other processes took at most {:.0}% of the CPUs.</p>",
                100.0 * crate::load::OTHER_SHARE_HIGH
            )
        } else {
            "<p>Other processes' CPU use is unknown (no /proc): no section is flagged.</p>".to_string()
        });
        p.table_html(&crate::load::table(&loads).to_html());
    }
    if !targets.is_empty() {
        p.section("targets", "Targets");
        for t in &targets {
            p.table_html(&t.to_html());
        }
    }
    for (m, out) in modes {
        p.section(m.name(), m.name());
        if let Some(l) = out.load.as_ref().filter(|l| l.high) {
            p.raw_html(&format!(
                "<p class=\"load-high\">Load was high while this section ran (other processes took {}): its times \
                 are less trustworthy. <a href=\"#load\">System load</a></p>",
                crate::report::esc(&l.row()[3])
            ));
        }
        for n in &out.notes {
            p.note(n);
        }
        for pl in &out.plots {
            // The plot draws its own title: a caption would repeat it.
            p.image(&pl.file, &pl.caption);
            for n in &pl.notes {
                p.note(n);
            }
        }
        for t in out.tables.iter().filter(|t| t.role == TableRole::Summary) {
            p.table_html(&t.to_html());
        }
    }
    if !raw.is_empty() {
        p.section("raw", "Raw tables");
        p.note("Every cell of every experiment; click a title to open its table.");
        for t in &raw {
            let mut body = t.to_html_table();
            for n in &t.notes {
                let _ = writeln!(body, "<p class=\"note\">{}</p>", crate::report::esc(n));
            }
            p.details(&t.title, &body);
        }
    }
    p.link("results.json", "results.json")
        .link("results.csv", "results.csv")
        .link("tables.md", "tables.md");
    p
}

/// One line: how many performance goals were met or missed, and whether every run
/// verified, with a link to the targets table. `None` without targets. Only a failed
/// verification (a wrong result) is an error; a missed goal is a measurement.
#[doc(hidden)]
pub fn verdict(targets: &[&Table]) -> Option<String> {
    let rows: Vec<&Vec<String>> = targets.iter().flat_map(|t| t.rows.iter()).collect();
    if rows.is_empty() {
        return None;
    }
    fn status(r: &[String]) -> &str {
        r.last().map(String::as_str).unwrap_or("")
    }
    let met = rows.iter().filter(|r| status(r) == "met").count();
    let missed: Vec<&str> = rows
        .iter()
        .filter(|r| status(r) == "missed")
        .map(|r| r[0].as_str())
        .collect();
    let failed = rows.iter().any(|r| status(r) == "FAILED");
    let verified = rows.iter().any(|r| status(r) == "PASS");
    let mut s = format!(
        "<p><b>Performance goals:</b> {met} met, {} missed",
        missed.len()
    );
    if !missed.is_empty() {
        let _ = write!(s, " (missed: {})", crate::report::esc(&missed.join("; ")));
    }
    s.push_str(
        ". These are the project's own goals for speed, not tests: missing one means this run did not \
         reach it, not that anything is broken.",
    );
    if failed {
        s.push_str(" <span class=\"failed\"><b>Verification FAILED:</b> some scheduler computed a wrong result.</span>");
    } else if verified {
        s.push_str(" <b>Verification:</b> every run's output matched the serial reference.");
    }
    s.push_str(" <a href=\"#targets\">Details below.</a></p>");
    Some(s)
}

/// Writes `index.html` into `dir` ([`index_page`]) and returns its path.
pub fn write_index(
    dir: &Path,
    info: &RunInfo,
    modes: &[(Mode, ModeOutput)],
) -> Result<PathBuf, PathError> {
    index_page(info, modes).write(dir)
}

/// The Markdown version, in the page's order: header, summary, targets, each mode's notes,
/// plot links and summaries, then the raw tables.
pub fn markdown(info: &RunInfo, modes: &[(Mode, ModeOutput)], plot_prefix: &str) -> String {
    let mut s = String::from("## splitsteal benchmark report\n\n");
    for l in info.lines() {
        let _ = writeln!(s, "- {l}");
    }
    for (heading, role) in [
        ("Summary", TableRole::Headline),
        ("Targets", TableRole::Targets),
    ] {
        let tabs: Vec<&Table> = tables_of(modes, role).collect();
        if !tabs.is_empty() {
            let _ = writeln!(s, "\n## {heading}\n");
            for t in tabs {
                s.push_str(&t.to_markdown());
                s.push('\n');
            }
        }
    }
    for (m, out) in modes {
        let _ = writeln!(s, "\n## {}\n", m.name());
        for n in &out.notes {
            let _ = writeln!(s, "{n}\n");
        }
        for p in &out.plots {
            let _ = writeln!(s, "- [{}]({plot_prefix}{})", p.caption, p.file);
            for n in &p.notes {
                let _ = writeln!(s, "  - {n}");
            }
        }
        for t in out.tables.iter().filter(|t| t.role == TableRole::Summary) {
            s.push('\n');
            s.push_str(&t.to_markdown());
        }
    }
    let loads: Vec<crate::load::SectionLoad> =
        modes.iter().filter_map(|(_, o)| o.load.clone()).collect();
    if !loads.is_empty() {
        s.push('\n');
        s.push_str(&crate::load::table(&loads).to_markdown());
    }
    let raw: Vec<&Table> = tables_of(modes, TableRole::Raw).collect();
    if !raw.is_empty() {
        s.push_str("\n## Raw tables\n");
        for t in raw {
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
