use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use splitsteal_bench::cli::*;
use splitsteal_bench::modes::Mode;
use splitsteal_bench::sched::SchedulerKind;
use splitsteal_bench::workloads;
use splitsteal_report::Exit;

#[derive(Parser, Debug)]
struct Cli {
    #[command(flatten)]
    args: BenchArgs,
}

fn parse(args: &[&str]) -> Result<BenchArgs, String> {
    let mut v = vec!["bench"];
    v.extend_from_slice(args);
    Cli::try_parse_from(v)
        .map(|c| c.args)
        .map_err(|e| e.to_string())
}

#[test]
fn defaults() {
    let a = parse(&[]).unwrap();
    assert!(a.mode.is_empty());
    assert_eq!(selected_modes(&a.mode), vec![Mode::Suite, Mode::Iter]);
    assert!(!a.quick && a.workload.is_empty() && a.policy.is_empty());
    assert_eq!(a.out, PathBuf::from("bench-report"));
    assert_eq!(a.warmup, 1);
}

#[test]
fn lists_parse() {
    let a = parse(&[
        "--quick",
        "--mode",
        "suite,latency",
        "--workload",
        "fib,CILKSORT",
        "--policy",
        "rayon,chili,serial,lcws-signal",
        "--threads",
        "1,2",
        "--reps",
        "4",
        "--out",
        "x",
    ])
    .unwrap();
    assert_eq!(
        a.mode,
        vec![ModeArg::One(Mode::Suite), ModeArg::One(Mode::Latency)]
    );
    assert_eq!(a.workload, vec!["fib", "cilksort"]);
    assert_eq!(a.policy.len(), 4);
    assert_eq!(a.threads, vec![1, 2]);
    assert_eq!(a.reps, Some(4));
}

#[test]
fn bad_names_list_the_valid_ones() {
    let e = parse(&["--workload", "fib,fibonacci"]).unwrap_err();
    assert!(
        e.contains("fibonacci") && e.contains("valid workloads") && e.contains("nqueens"),
        "{e}"
    );
    let e = parse(&["--policy", "tbb"]).unwrap_err();
    assert!(
        e.contains("tbb") && e.contains("chase-lev") && e.contains("rayon") && e.contains("serial"),
        "{e}"
    );
    let e = parse(&["--mode", "speed"]).unwrap_err();
    assert!(e.contains("speed") && e.contains("multiprogram"), "{e}");
    let e = parse(&["--threads", "0"]).unwrap_err();
    assert!(e.contains("positive"), "{e}");
    assert!(parse(&["--reps", "x"]).is_err());
    assert!(parse(&["--frobnicate"]).is_err());
    // The runtime records every join: there is no LCWS window to set any more.
    let e = parse(&["--lcws-window", "max"]).unwrap_err();
    assert!(e.contains("--lcws-window"), "{e}");
}

#[test]
fn selected_schedulers_are_in_report_order_without_duplicates() {
    let sel = [SchedulerKind::Splitsteal(splitsteal::Policy::ChaseLev)];
    assert_eq!(select_schedulers(&sel), sel);
    let k = select_schedulers(&[
        SchedulerKind::Chili,
        SchedulerKind::Serial,
        SchedulerKind::Chili,
    ]);
    assert_eq!(k, vec![SchedulerKind::Serial, SchedulerKind::Chili]);
    assert_eq!(select_schedulers(&[]), SchedulerKind::all());
}

#[test]
fn list_mentions_everything() {
    let l = list();
    for w in workloads::registry() {
        assert!(l.contains(w.name));
    }
    for w in splitsteal_bench::par_iter::programs() {
        assert!(l.contains(w.name));
    }
    for k in SchedulerKind::all() {
        assert!(l.contains(k.name()));
    }
    assert!(l.contains("multiprogram") && l.contains("iter"));
}

#[test]
fn mode_names_are_their_cli_values() {
    for m in Mode::all() {
        assert_eq!(m.to_possible_value().unwrap().get_name(), m.name());
    }
}

#[test]
fn syncops_plans_no_runs_of_its_own_with_the_suite() {
    let env = env(&parse(&["--quick", "--workload", "fib", "--policy", "lcws-signal"]).unwrap());
    assert!(Mode::Syncops.planned_runs(&env, &[Mode::Syncops]) > 0);
    assert_eq!(
        Mode::Syncops.planned_runs(&env, &[Mode::Suite, Mode::Syncops]),
        0
    );
}

fn plan_of(args: &[&str]) -> Result<Vec<Mode>, String> {
    let a = parse(args).unwrap();
    plan(&a, &env(&a)).map_err(|e| {
        assert_eq!(e.exit, Exit::Usage);
        e.to_string()
    })
}

#[test]
fn values_that_cannot_run_are_rejected_up_front() {
    let max = splitsteal::max_num_threads();
    let e = plan_of(&["--threads", &(max + 1).to_string()]).unwrap_err();
    assert!(e.contains(&format!("--threads {}", max + 1)), "{e}");
    assert!(plan_of(&["--threads", &max.to_string(), "--quick"]).is_ok());
    // fib is a suite workload, not a parallel-iterator program.
    let e = plan_of(&["--mode", "iter", "--workload", "fib"]).unwrap_err();
    assert!(e.contains("--mode iter") && e.contains("fib"), "{e}");
    let e = plan_of(&["--mode", "latency", "--workload", "fib"]).unwrap_err();
    assert!(e.contains("--workload fib") && e.contains("latency"), "{e}");
    // iter runs splitsteal and rayon pools only.
    let e = plan_of(&["--mode", "iter", "--policy", "chili"]).unwrap_err();
    assert!(e.contains("--policy"), "{e}");
}

/// `--workload` picks the runtimes mode's programs too: `skynet` is its own, `fib` both
/// its and the suite's; a name neither knows is an error that lists both.
#[test]
fn the_runtimes_programs_are_selected_by_workload() {
    use splitsteal_bench::modes::runtimes::{self, Program};
    let args = ["--mode", "runtimes", "--quick", "--workload", "skynet,FIB"];
    assert_eq!(plan_of(&args).unwrap(), vec![Mode::Runtimes]);
    let a = parse(&args).unwrap();
    let names: Vec<&str> = runtimes::programs(&env(&a))
        .iter()
        .map(|p| p.name())
        .collect();
    assert_eq!(names, ["fib", "skynet"]);
    let all = env(&parse(&["--mode", "runtimes", "--quick"]).unwrap());
    assert_eq!(runtimes::programs(&all), Program::all(all.size).to_vec());
    // With the suite alone, skynet has nowhere to run.
    let e = plan_of(&["--mode", "suite", "--workload", "skynet"]).unwrap_err();
    assert!(e.contains("--mode suite"), "{e}");
    let e = parse(&["--workload", "skynets"]).unwrap_err();
    assert!(
        e.contains("cilksort") && e.contains("skynet, nqueens"),
        "{e}"
    );
}

#[test]
fn a_default_mode_with_nothing_to_run_is_skipped() {
    assert_eq!(plan_of(&["--workload", "fib"]).unwrap(), vec![Mode::Suite]);
    assert_eq!(
        plan_of(&["--mode", "suite,syncops", "--workload", "fib"]).unwrap(),
        vec![Mode::Suite, Mode::Syncops]
    );
}

#[test]
fn only_the_modes_plot_names_are_stale_candidates() {
    for p in ["suite-speedup.svg", "scaling.svg", "iter-vs-rayon-fib.svg"] {
        assert!(is_mode_plot(p), "{p}");
    }
    for p in [
        "suites.svg",
        "mine.svg",
        "suite-speedup.png",
        "results.json",
    ] {
        assert!(!is_mode_plot(p), "{p}");
    }
}

#[test]
fn seeds_read_as_decimal_or_hex_and_the_default_is_0x5eed() {
    assert_eq!(parse(&[]).unwrap().seed, 0x5eed);
    assert_eq!(parse(&["--seed", "0x5EED"]).unwrap().seed, 24301);
    assert_eq!(parse(&["--seed", "24301"]).unwrap().seed, 0x5eed);
    let e = parse(&["--seed", "0xzz"]).unwrap_err();
    assert!(e.contains("not a seed"), "{e}");
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let help = cmd.render_long_help().to_string();
    assert!(help.contains("[default: 0x5eed]"), "{help}");
    assert!(!help.contains("24301"), "{help}");
}

#[test]
fn thread_counts_far_above_the_cpus_are_warned_about() {
    assert_eq!(oversubscription_warning(&[1, 2], 2), None);
    assert_eq!(oversubscription_warning(&[8], 2), None);
    assert_eq!(oversubscription_warning(&[], 2), None);
    let w = oversubscription_warning(&[2, 1000], 2).unwrap();
    assert!(w.contains("--threads 1000") && w.contains("2 CPU"), "{w}");
    assert!(oversubscription_warning(&[9], 2).is_some());
}

#[test]
fn modes_expand() {
    assert_eq!(concrete_modes(&[ModeArg::All]), Mode::all());
    assert_eq!(Mode::all().len(), 10);
    assert_eq!(
        concrete_modes(&[ModeArg::One(Mode::Latency), ModeArg::One(Mode::Suite)]),
        vec![Mode::Suite, Mode::Latency]
    );
}

#[test]
fn report_rebuilds_the_page_from_results_json() {
    use splitsteal_bench::report::{write_results, Record, RunMeta};
    let dir = std::env::temp_dir().join(format!("splitsteal-report-cmd-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    splitsteal_report::out_dir::prepare(&dir).unwrap();
    let default = splitsteal::Policy::default().name();
    let mut records = Vec::new();
    for (s, t) in [(default, 0.10), ("rayon", 0.20), ("chili", 0.10)] {
        let mut r = Record::new("suite", "fib", "n=30", s, 2);
        r.set_times(vec![t]);
        r.verified = true;
        records.push(r);
    }
    splitsteal_bench::report::fill_ratios(&mut records);
    // As a run before ×rayon was time ÷ rayon's stored it: rayon's time ÷ this one.
    records[0].vs_rayon = Some(2.0);
    let info = splitsteal_report::RunInfo {
        command: "splitsteal bench --quick".into(),
        date: "2026-01-01 00:00 UTC".into(),
        machine: "test".into(),
        settings: vec!["modes: suite; size: quick".into()],
        ..Default::default()
    };
    // Flagged by an older rule (the load average alone): the rebuilt page reapplies today's.
    let mut load =
        splitsteal_bench::load::SectionLoad::new("suite", 2.0, Some(2.5), Some(2.5), Some(0.0), 2);
    load.high = true;
    let meta = RunMeta {
        info: &info,
        seed: 7,
        size: "quick".into(),
        load: vec![load],
    };
    write_results(&dir, &meta, &records).unwrap();
    report(ReportArgs {
        results: dir.join("results.json"),
        out: None,
    })
    .unwrap();
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(
        page.contains(&format!("Headline: {default}")),
        "no headline"
    );
    assert!(page.contains("0.50× (0.50–0.50)"), "the ratio to rayon");
    assert!(page.contains("report rebuilt from results.json"));
    assert!(
        page.contains("The machine was quiet"),
        "the load flag recomputed"
    );
    let md = std::fs::read_to_string(dir.join("tables.md")).unwrap();
    assert!(md.contains(&format!("### Headline: {default}")));
    assert!(md.contains("0.50× (0.50–0.50)"));
    // The suite summary's ×rayon recomputed the current way up.
    assert!(md.contains("| 100 ms (0.50) |"), "{md}");
    assert!(!md.contains("(2.00)"));
    // Not a results.json: a usage error naming the file.
    std::fs::write(dir.join("bad.json"), "{}").unwrap();
    let e = report(ReportArgs {
        results: dir.join("bad.json"),
        out: None,
    })
    .unwrap_err();
    assert!(
        e.to_string().contains("bad.json: not a results.json"),
        "{e}"
    );
    assert_eq!(splitsteal_report::ExitError::exit_of(&*e), Exit::Usage);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn saved_modes_come_from_the_settings_the_load_and_the_records() {
    let settings = vec!["modes: suite, iter, syncops; size: full".to_string()];
    assert_eq!(
        saved_modes(&settings, &[], &[]),
        vec![Mode::Suite, Mode::Iter, Mode::Syncops]
    );
    assert_eq!(
        saved_modes(&[], &["scaling".to_string()], &[]),
        vec![Mode::Scaling]
    );
}
