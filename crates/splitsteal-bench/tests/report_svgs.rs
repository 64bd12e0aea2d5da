//! What a person sees in the bench report: every mode run for real at the test size (one
//! repetition, no warm-up, every workload at its smallest input), its plots and `index.html` written as
//! `splitsteal bench` writes them, then every SVG parsed with each label checked to lie
//! inside its drawing, and the page checked to lead with the summary and targets and to
//! collapse the raw tables.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use splitsteal_bench::html;
use splitsteal_bench::modes::{Env, Mode, ModeOutput};
use splitsteal_bench::report::{esc, TableRole};
use splitsteal_bench::runner::{Progress, Watchdog};
use splitsteal_bench::sched::{PoolOptions, SchedulerKind};
use splitsteal_bench::workloads::Size;
use splitsteal_report::svg_check::{check_svg, check_svg_file};
use splitsteal_report::RunInfo;

/// The report folder and the modes' outputs, made once for every test here.
fn report() -> &'static (PathBuf, Vec<(Mode, ModeOutput)>) {
    static REPORT: OnceLock<(PathBuf, Vec<(Mode, ModeOutput)>)> = OnceLock::new();
    REPORT.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("splitsteal-report-svgs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        splitsteal_report::out_dir::prepare(&dir).unwrap();
        let env = Env {
            size: Size::Test,
            seed: 7,
            reps: Some(1),
            warmup: 0,
            workloads: None,
            kinds: SchedulerKind::all(),
            threads: Some(vec![1, 2]),
            pool_options: PoolOptions::default(),
            out: dir.clone(),
            progress: Progress::hidden(),
            watchdog: Watchdog::disabled(),
            partial: Arc::new(Mutex::new(Vec::new())),
            pbbs: Default::default(),
        };
        let mut outputs: Vec<(Mode, ModeOutput)> = Vec::new();
        for &m in Mode::all() {
            let out = m.run(&env, &outputs);
            outputs.push((m, out));
        }
        let info = RunInfo {
            command: "report_svgs test".into(),
            date: "2026-01-01 00:00 UTC".into(),
            machine: "test".into(),
            ..RunInfo::default()
        };
        html::write_index(&dir, &info, &outputs).unwrap();
        splitsteal_report::out_dir::write(
            &dir.join("tables.md"),
            html::markdown(&info, &outputs, ""),
        )
        .unwrap();
        (dir, outputs)
    })
}

fn svgs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "svg"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_plot_is_written_and_its_labels_lie_inside_it() {
    let (dir, outputs) = report();
    let files = svgs(dir);
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    // One of each kind the modes draw: wrapped grouped bars (linear and log), lines with
    // reference lines, lines over powers of two.
    for want in [
        "suite-speedup.svg",
        "suite-vs-rayon.svg",
        "iter-vs-rayon.svg",
        "syncops.svg",
        "syncops-vs-chase-lev.svg",
        "scaling.svg",
        "scaling-time.svg",
        "latency-first.svg",
        "latency-last.svg",
        "multiprogram.svg",
        "multiprogram-speedup.svg",
        "mailbox.svg",
        "pbbs.svg",
        "runtimes-ratio-to-best.svg",
    ] {
        assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
    }
    let failed_plots: Vec<&String> = outputs
        .iter()
        .flat_map(|(_, o)| o.notes.iter())
        .filter(|n| n.starts_with("plot "))
        .collect();
    assert!(failed_plots.is_empty(), "{failed_plots:?}");
    let errors: Vec<String> = files
        .iter()
        .filter_map(|f| check_svg_file(f).err())
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let (w, h) = size_of(&text);
        assert!(
            w <= 1170,
            "{}: {w} px wide, wider than the page's text column, so the page would shrink its text",
            f.display()
        );
        assert!(h > 0);
    }
}

/// The `width` and `height` of an SVG's root element.
fn size_of(svg: &str) -> (u32, u32) {
    let doc = roxmltree_free_attr(svg, "width");
    (doc, roxmltree_free_attr(svg, "height"))
}

fn roxmltree_free_attr(svg: &str, name: &str) -> u32 {
    let head = &svg[..svg.find('>').unwrap()];
    let at = head.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    head[at..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn a_label_moved_out_of_a_real_plot_is_caught() {
    let (dir, _) = report();
    let text = std::fs::read_to_string(dir.join("suite-vs-rayon.svg")).unwrap();
    assert_eq!(check_svg(&text), Ok(()));
    // The first label, moved past the right edge: what a too-narrow chart does to a tick label.
    let at = text.find("<text x=\"").unwrap() + "<text x=\"".len();
    let end = at + text[at..].find('"').unwrap();
    let moved = format!("{}99999{}", &text[..at], &text[end..]);
    let e = check_svg(&moved).unwrap_err();
    assert!(e.contains("outside the drawing"), "{e}");
}

#[test]
fn the_page_leads_with_the_summary_and_targets_and_collapses_raw_tables() {
    let (dir, outputs) = report();
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in index.html"))
    };
    let headline = at("Headline: ");
    let targets = at("<h2 id=\"targets\">");
    let first_plot = at("<img src=");
    let raw = at("<h2 id=\"raw\">");
    assert!(at("command: report_svgs test") < headline);
    assert!(headline < targets, "headline before targets");
    assert!(targets < first_plot, "targets before the plots");
    assert!(first_plot < raw, "plots before the raw tables");
    assert!(
        at("<b>Performance goals:</b>") < headline,
        "the verdict is on the first screen"
    );
    let raw_tables: Vec<_> = outputs
        .iter()
        .flat_map(|(_, o)| o.tables.iter())
        .filter(|t| t.role == TableRole::Raw)
        .collect();
    assert!(!raw_tables.is_empty());
    for t in raw_tables {
        let summary = format!("<details><summary>{}</summary>", esc(&t.title));
        let pos = at(&summary);
        assert!(pos > raw, "{} is collapsed in the raw section", t.title);
        assert_eq!(
            page.matches(&esc(&t.title)).count(),
            1,
            "{} appears only as its collapsed summary",
            t.title
        );
    }
    // Every plot file the page shows exists beside it.
    for (_, o) in outputs {
        for p in &o.plots {
            assert!(page.contains(&format!("<img src=\"{}\"", p.file)));
            assert!(dir.join(&p.file).is_file());
        }
    }
    let md = std::fs::read_to_string(dir.join("tables.md")).unwrap();
    let m = |needle: &str| {
        md.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} not in tables.md"))
    };
    assert!(m("## Summary") < m("## Targets"));
    assert!(m("## Targets") < m("## suite"));
    assert!(m("## suite") < m("## Raw tables"));
}
