use std::path::{Path, PathBuf};

use splitsteal_bench::html::*;
use splitsteal_bench::modes::{Mode, ModeOutput};
use splitsteal_bench::report::{Table, TableRole};

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

fn targets(verified: &str) -> Table {
    let mut t = Table::new("targets", &["target", "measured", "status"]);
    t.row(vec!["goal a".into(), "0.9×".into(), "met".into()]);
    t.row(vec!["goal b".into(), "1.1×".into(), "missed".into()]);
    t.row(vec![
        "every run verified".into(),
        "-".into(),
        verified.into(),
    ]);
    t.with_role(TableRole::Targets)
}

#[test]
fn missed_goals_are_not_failures_and_only_wrong_results_are_red() {
    let v = verdict(&[&targets("PASS")]).unwrap();
    assert!(v.contains("1 met, 1 missed (missed: goal b)"), "{v}");
    assert!(v.contains("not tests") && !v.contains("FAIL"), "{v}");
    assert!(!v.contains("class=\"failed\""), "{v}");
    let v = verdict(&[&targets("FAILED")]).unwrap();
    assert!(
        v.contains("class=\"failed\"") && v.contains("Verification FAILED"),
        "{v}"
    );
    let h = targets("PASS").to_html_table();
    assert!(h.contains("<td class=\"missed text\">missed</td>"), "{h}");
    assert!(!h.contains("failed"), "{h}");
}

#[test]
fn the_page_shows_the_load_and_draws_no_caption_under_a_titled_plot() {
    let mut out = ModeOutput {
        tables: vec![targets("PASS")],
        load: Some(splitsteal_bench::load::SectionLoad::new(
            "suite",
            3.0,
            Some(0.5),
            Some(3.5),
            Some(0.9),
            2,
        )),
        ..Default::default()
    };
    out.plots.push(splitsteal_bench::modes::Plot {
        file: "suite-speedup.svg".into(),
        caption: "Speedup over the serial elision at 2 threads".into(),
        notes: Vec::new(),
    });
    let h = index_page(&RunInfo::default(), &[(Mode::Suite, out)]).html();
    assert!(h.contains("<h2 id=\"load\">System load</h2>"), "{h}");
    assert!(h.contains("Load was high during suite"), "{h}");
    assert!(h.contains("0.50 → 3.50") && h.contains("0.90 CPU"), "{h}");
    assert!(h.contains("<img src=\"suite-speedup.svg\""), "{h}");
    assert!(
        !h.contains("<figcaption>"),
        "the plot's title is its caption: {h}"
    );
}

#[test]
fn relative_paths() {
    assert_eq!(
        relative_path(Path::new("/w/crates/b"), Path::new("/w/bench-report/x.svg")),
        PathBuf::from("../../bench-report/x.svg")
    );
}
