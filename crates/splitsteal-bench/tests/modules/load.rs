use std::time::Instant;

use splitsteal_bench::load::*;

#[test]
fn proc_files_parse() {
    assert_eq!(parse_loadavg("2.50 1.10 0.90 3/512 12345\n"), Some(2.5));
    let stat = "cpu  100 5 50 1000 20 3 2 1 0 0\ncpu0 50 2 25 500 10 1 1 0 0 0\n";
    assert_eq!(parse_stat_busy(stat), Some(100 + 5 + 50 + 3 + 2 + 1));
    let me = "4242 (splitsteal (x) y) R 1 2 3 4 5 6 7 8 9 10 70 30 4 6 20 0 3 0";
    assert_eq!(parse_self_stat(me), Some(70 + 30 + 4 + 6));
    assert_eq!(parse_loadavg(""), None);
    assert_eq!(parse_stat_busy("intr 1 2\n"), None);
}

#[test]
fn other_processes_cpu_and_the_flag() {
    let t0 = Instant::now();
    let at = |s: f64| t0 + std::time::Duration::from_secs_f64(s);
    let a = Sample {
        at: at(0.0),
        loadavg: Some(0.5),
        busy: Some(1000),
        own: Some(400),
    };
    // Over 2 s at 100 ticks/s: the machine 300 busy ticks, this process 250 of them.
    let b = Sample {
        at: at(2.0),
        loadavg: Some(1.5),
        busy: Some(1300),
        own: Some(650),
    };
    let l = SectionLoad::between("suite", &a, &b, 2, 100.0);
    assert!((l.other_cpu.unwrap() - 0.25).abs() < 1e-9, "{l:?}");
    assert!(!l.high, "0.25 CPU is not above the threshold");
    let c = Sample {
        busy: Some(1400),
        ..b
    };
    let l = SectionLoad::between("suite", &a, &c, 2, 100.0);
    assert!(
        (l.other_cpu.unwrap() - 0.75).abs() < 1e-9 && l.high,
        "{l:?}"
    );
    // A load average above the CPU count flags the section alone.
    assert!(SectionLoad::new("iter", 1.0, Some(0.1), Some(2.5), Some(0.0), 2).high);
    assert!(!SectionLoad::new("iter", 1.0, Some(0.1), Some(1.9), Some(0.1), 2).high);
    // Without /proc nothing is flagged.
    assert!(!SectionLoad::new("iter", 1.0, None, None, None, 2).high);
    assert_eq!(l.row()[4], "HIGH");
    // A real reading works here (Linux).
    let s = Sample::now();
    if std::path::Path::new("/proc/stat").exists() {
        assert!(s.busy.is_some() && s.own.is_some() && s.loadavg.is_some());
    }
}
