use splitsteal_sim::progress::*;

#[test]
fn lines_count_and_estimate() {
    let p = Progress::with_mode("sweep", 10, false);
    for _ in 0..4 {
        p.inc();
    }
    let l = p.line(4);
    assert!(l.starts_with("sweep: 4/10 runs (40%)"), "{l}");
    assert!(l.contains("ETA"), "{l}");
    assert!(!p.line(0).contains("ETA"));
}

#[test]
fn durations_read_well() {
    assert_eq!(human_secs(4.31), "4.3 s");
    assert_eq!(human_secs(185.0), "3 min 05 s");
    assert_eq!(human_secs(3720.0), "1 h 02 min");
}
