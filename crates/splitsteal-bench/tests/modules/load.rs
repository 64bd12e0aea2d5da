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
fn others_cpu_is_the_machines_busy_time_less_this_process() {
    // Over 2 s at 100 ticks/s: the machine 300 busy ticks, this process 250 of them, so
    // others took 50 ticks = 0.5 s of CPU in 2 s = 0.25 CPU.
    let c = others_cpu((1000, 1300), (400, 650), 100.0, 2.0).unwrap();
    assert!((c - 0.25).abs() < 1e-9, "{c}");
    // This process alone kept both CPUs busy: nobody else.
    assert_eq!(others_cpu((0, 400), (0, 400), 100.0, 2.0), Some(0.0));
    // Read a moment apart, this process's count may run ahead: never below zero.
    assert_eq!(others_cpu((0, 100), (0, 130), 100.0, 1.0), Some(0.0));
    // No interval, no tick rate: unknown.
    assert_eq!(others_cpu((0, 100), (0, 0), 100.0, 0.0), None);
    assert_eq!(others_cpu((0, 100), (0, 0), 0.0, 1.0), None);
}

#[test]
fn the_flag_is_others_share_of_the_cpus() {
    // 10% of 2 CPUs is 0.2 CPU.
    assert!(!is_high(Some(0.2), 2));
    assert!(is_high(Some(0.21), 2));
    assert!(!is_high(Some(1.5), 16), "1.5 of 16 CPUs is under a tenth");
    assert!(is_high(Some(1.7), 16));
    assert!(!is_high(None, 2), "unknown is not flagged");
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
    // Over 2 s at 100 ticks/s: the machine 300 busy ticks, this process 280 of them.
    let b = Sample {
        at: at(2.0),
        loadavg: Some(1.5),
        busy: Some(1300),
        own: Some(680),
    };
    let l = SectionLoad::between("suite", &a, &b, 2, 100.0);
    assert!((l.other_cpu.unwrap() - 0.1).abs() < 1e-9, "{l:?}");
    assert!(!l.high, "0.1 CPU is 5% of 2");
    let c = Sample {
        busy: Some(1400),
        ..b
    };
    let l = SectionLoad::between("suite", &a, &c, 2, 100.0);
    assert!((l.other_cpu.unwrap() - 0.6).abs() < 1e-9 && l.high, "{l:?}");
    assert_eq!(l.row()[3], "0.60 CPU (30% of 2)");
    assert_eq!(l.row()[4], "HIGH");
    // The benchmark's own threads push the load average above the CPU count on a quiet
    // machine: that alone flags nothing.
    assert!(!SectionLoad::new("iter", 1.0, Some(2.4), Some(2.5), Some(0.0), 2).high);
    // Without /proc nothing is flagged, and the table says unknown.
    let none = SectionLoad::new("iter", 1.0, None, None, None, 2);
    assert!(!none.high);
    assert_eq!(none.row()[3], "unknown");
    // A real reading works here (Linux).
    let s = Sample::now();
    if std::path::Path::new("/proc/stat").exists() {
        assert!(s.busy.is_some() && s.own.is_some() && s.loadavg.is_some());
    }
}
