use splitsteal_bench::modes::suite::*;
use splitsteal_bench::report::{fill_ratios, Record, TableRole};

fn rec(workload: &str, scheduler: &str, threads: usize, t: f64) -> Record {
    let mut r = Record::new("suite", workload, "p", scheduler, threads);
    r.set_times(vec![t]);
    r.verified = true;
    r
}

fn rec_times(workload: &str, scheduler: &str, times: Vec<f64>) -> Record {
    let mut r = Record::new("suite", workload, "p", scheduler, 2);
    r.set_times(times);
    r.verified = true;
    r
}

#[test]
fn targets_count_only_wins_beyond_the_spread() {
    let mut recs = Vec::new();
    // (lcws-signal, chase-lev) repetition times per workload.
    let cases = [
        ("fib", vec![0.10, 0.11, 0.12], vec![0.20, 0.21, 0.22]), // win
        ("nqueens", vec![0.10, 0.11, 0.30], vec![0.20, 0.21, 0.22]), // tie, median lower
        ("knapsack", vec![0.19, 0.20, 0.21], vec![0.20, 0.21, 0.22]), // tie
        ("treesum", vec![0.30, 0.31, 0.32], vec![0.20, 0.21, 0.22]), // loss
    ];
    for (w, sig, cl) in cases {
        // The default policy, the targets' subject, as fast as lcws-signal.
        recs.push(rec_times(w, default_policy(), sig.clone()));
        recs.push(rec_times(w, "lcws-signal", sig));
        recs.push(rec_times(w, "chase-lev", cl));
        recs.push(rec_times(w, "rayon", vec![0.25, 0.26, 0.27]));
        recs.push(rec_times(w, "chili", vec![0.295, 0.30, 0.305]));
    }
    fill_ratios(&mut recs);
    let tabs = tables(&recs);
    let targets = tabs.last().unwrap();
    let row = |prefix: &str| {
        targets
            .rows
            .iter()
            .find(|r| r[0].starts_with(prefix))
            .unwrap_or_else(|| panic!("no row {prefix}: {:?}", targets.rows))
            .clone()
    };
    let ahead = row("lcws-signal ahead of chase-lev");
    assert_eq!(ahead[1], "1 win, 2 ties, 1 loss of 4 → 25%");
    assert_eq!(ahead[2], "missed");
    // Medians alone would say 3 of 4 ahead (75%): the spread rule is what fails it.
    let rayon = row(&format!(
        "{} (default policy) ≤ 0.83 ×rayon",
        default_policy()
    ));
    assert!(
        rayon[1].starts_with(&format!("{}: ", default_policy())),
        "{rayon:?}"
    );
    assert!(
        rayon[1].contains("spread") && rayon[1].contains("per workload vs rayon"),
        "{rayon:?}"
    );
    // treesum: 0.31 (0.30–0.32) against chili's 0.30 (0.295–0.305): overlap, a tie.
    let chili = row(&format!(
        "{} (default policy) no slower than chili",
        default_policy()
    ));
    assert!(chili[1].contains("within the spread (a tie)"), "{chili:?}");
    // The default policy's 0.31 ÷ chili's 0.30: slower on the medians.
    assert!(
        chili[1].starts_with(&format!("{}: 1.03× (", default_policy())),
        "{chili:?}"
    );
    assert_eq!(chili[2], "missed", "met/missed stays on the medians");
    // The performance goals are never reported as failures; only verification is.
    assert!(
        targets
            .rows
            .iter()
            .all(|r| r[2] != "FAIL" && r[2] != "FAILED"),
        "{:?}",
        targets.rows
    );
}

#[test]
fn chili_cells_of_spawning_workloads_are_marked() {
    let mut recs = Vec::new();
    for w in ["fib", "spawnjoin", "listwalk"] {
        recs.push(rec(w, "serial", 1, 0.04));
        for s in ["lcws-signal", "rayon", "chili"] {
            recs.push(rec(w, s, 2, 0.02));
        }
    }
    fill_ratios(&mut recs);
    let tabs = tables(&recs);
    let summary = tabs
        .iter()
        .find(|t| t.title.starts_with("suite summary at 2"))
        .unwrap();
    let col = |name: &str| summary.header.iter().position(|h| h == name).unwrap();
    let row = |w: &str| summary.rows.iter().find(|r| r[0] == w).unwrap();
    assert!(row("spawnjoin")[col("chili@2")].ends_with('†'));
    assert!(!row("spawnjoin")[col("rayon@2")].contains('†'));
    assert!(!row("listwalk")[col("chili@2")].contains('†'));
    assert!(!row("fib")[col("chili@2")].contains('†'));
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.starts_with("† chili has no spawn: in spawnjoin each spawn")),
        "{:?}",
        summary.notes
    );
    let full = &tabs[0];
    assert!(full
        .rows
        .iter()
        .any(|r| r[0] == "spawnjoin" && r[1] == "chili †"));
    assert!(full.notes.iter().any(|n| n.starts_with('†')));
    // Every cell verified: the targets still compute with the shapes present.
    let targets = tabs.last().unwrap();
    assert!(targets
        .rows
        .iter()
        .any(|r| r[0] == "every run verified" && r[2] == "PASS"));
    // Without chili, no mark and no note.
    recs.retain(|r| r.scheduler != "chili");
    let tabs = tables(&recs);
    assert!(tabs
        .iter()
        .all(|t| t.notes.iter().all(|n| !n.starts_with('†'))));
}
/// A policy other than the default and the baseline.
fn other_policy() -> &'static str {
    ["lcws-signal", "chase-lev"]
        .into_iter()
        .find(|p| *p != default_policy())
        .unwrap()
}

fn rec_at(workload: &str, scheduler: &str, threads: usize, times: Vec<f64>) -> Record {
    let mut r = Record::new("suite", workload, "p", scheduler, threads);
    r.set_times(times);
    r.verified = true;
    r
}

#[test]
fn headline_leads_with_the_default_policy_at_every_thread_count() {
    let d = default_policy();
    let mut recs = Vec::new();
    for t in [1, 2] {
        let k = t as f64;
        // fib: the default beats rayon beyond the spread and ties chili; the baseline and
        // another policy are faster still.
        recs.push(rec_at("fib", d, t, vec![0.10 / k, 0.12 / k]));
        recs.push(rec_at("fib", BASELINE_POLICY, t, vec![0.04 / k, 0.05 / k]));
        recs.push(rec_at("fib", other_policy(), t, vec![0.06 / k, 0.07 / k]));
        recs.push(rec_at("fib", "rayon", t, vec![0.30 / k, 0.31 / k]));
        recs.push(rec_at("fib", "chili", t, vec![0.11 / k, 0.13 / k]));
        // treesum: the default slower than rayon beyond the spread.
        recs.push(rec_at("treesum", d, t, vec![0.40 / k, 0.40 / k]));
        recs.push(rec_at(
            "treesum",
            other_policy(),
            t,
            vec![0.30 / k, 0.30 / k],
        ));
        recs.push(rec_at("treesum", "rayon", t, vec![0.20 / k, 0.20 / k]));
        recs.push(rec_at("treesum", "chili", t, vec![0.20 / k, 0.20 / k]));
    }
    fill_ratios(&mut recs);
    let tabs = tables(&recs);
    let h = tabs
        .iter()
        .find(|t| t.role == TableRole::Headline)
        .expect("a headline table");
    assert!(h.title.contains(d), "{}", h.title);
    let want: Vec<String> = [1, 2]
        .iter()
        .flat_map(|t| {
            [
                format!("{d}@{t}"),
                format!("×rayon@{t}"),
                format!("×chili@{t}"),
            ]
        })
        .collect();
    assert_eq!(h.header[0], "workload");
    assert_eq!(h.header[1..], want[..]);
    let fib = &h.rows[0];
    assert_eq!(fib[0], "fib");
    // 0.11 ÷ rayon's 0.305, its range 0.10/0.31 to 0.12/0.30, beyond the spread.
    assert_eq!(fib[5], "0.36× (0.32–0.40)");
    // 0.11 ÷ chili's 0.12: the ranges overlap.
    assert_eq!(fib[6], "0.92× (0.77–1.09) tie");
    assert_eq!(fib[4], "55.0 ms");
    // The geomean row states the same figure as the ×rayon target.
    let mean = h.rows.iter().find(|r| r[0] == "geomean").unwrap();
    let targets = tabs.last().unwrap();
    assert_eq!(targets.role, TableRole::Targets);
    let rayon_target = targets
        .rows
        .iter()
        .find(|r| r[0].starts_with(&format!("{d} (default policy)")) && r[0].contains("×rayon"))
        .unwrap();
    assert!(
        rayon_target[1].starts_with(&format!("{d}: {}", mean[5])),
        "{rayon_target:?} vs {mean:?}"
    );
    let tally = h
        .rows
        .iter()
        .find(|r| r[0] == "faster / tie / slower")
        .unwrap();
    assert_eq!(tally[5], "1 / 0 / 1");
    assert_eq!(tally[6], "0 / 1 / 1");
    // The fastest policy per workload is a separate, labelled table, and never the
    // baseline.
    let sel = tabs
        .iter()
        .find(|t| t.title.starts_with("Selected after the fact at 2 threads"))
        .expect("the after-the-fact table");
    assert_eq!(sel.role, TableRole::Summary);
    assert_eq!(sel.rows[0][1], other_policy());
    assert!(sel.rows.iter().all(|r| r[1] != BASELINE_POLICY));
    assert!(sel
        .notes
        .iter()
        .any(|n| n.contains(BASELINE_POLICY) && n.contains("baseline")));
    assert_eq!(tabs[0].role, TableRole::Raw);
}

#[test]
fn ratio_cells_carry_the_spread() {
    let a = rec_at("fib", "x", 2, vec![0.10, 0.20]);
    let b = rec_at("fib", "y", 2, vec![0.40, 0.50]);
    assert_eq!(ratio_cell(Some(&a), Some(&b)), "0.33× (0.20–0.50)");
    assert_eq!(ratio_cell(Some(&b), Some(&b)), "1.00× (0.80–1.25) tie");
    assert_eq!(ratio_cell(Some(&a), None), "-");
    let mut bad = b.clone();
    bad.verified = false;
    bad.median_s = None;
    assert_eq!(ratio_cell(Some(&a), Some(&bad)), "FAILED");
    assert_eq!(ratio_cell(Some(&bad), Some(&a)), "FAILED");
}

#[test]
fn without_the_default_policy_the_headline_says_so() {
    let mut recs = vec![
        rec_times("fib", other_policy(), vec![0.10]),
        rec_times("fib", "rayon", vec![0.20]),
    ];
    fill_ratios(&mut recs);
    let tabs = tables(&recs);
    let h = tabs.iter().find(|t| t.role == TableRole::Headline).unwrap();
    assert!(h.rows.is_empty(), "{:?}", h.rows);
    assert!(h.notes[0].contains("was not run"), "{:?}", h.notes);
    let targets = tabs.last().unwrap();
    assert_eq!(targets.rows[0][1], "n/a: the default policy was not run");
}

#[test]
fn targets_say_which_scheduler_was_not_run() {
    let mut recs = vec![
        rec_times("fib", "lcws-signal", vec![0.10]),
        rec_times("spawnjoin", "lcws-signal", vec![0.10]),
        rec_times("fib", default_policy(), vec![0.10]),
    ];
    fill_ratios(&mut recs);
    let tabs = tables(&recs);
    let targets = tabs.last().unwrap();
    let measured: Vec<&str> = targets.rows.iter().map(|r| r[1].as_str()).collect();
    assert!(measured.contains(&"n/a: rayon not run"), "{measured:?}");
    assert!(measured.contains(&"n/a: chili not run"), "{measured:?}");
    assert!(
        targets.rows.iter().all(|r| !r[0].ends_with(" on ")),
        "{:?}",
        targets.rows
    );
    assert!(measured.contains(&"n/a: chase-lev not run"), "{measured:?}");
    assert!(measured.iter().all(|m| !m.contains("-×")), "{measured:?}");
    let h = tabs.iter().find(|t| t.role == TableRole::Headline).unwrap();
    assert_eq!(
        h.header,
        ["workload", &format!("{}@2", default_policy())],
        "no rayon or chili columns"
    );
    assert!(h.notes.iter().any(|n| n.starts_with("rayon was not run")));
}
