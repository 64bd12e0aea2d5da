use splitsteal_bench::hog::*;

#[test]
fn hog_is_killed_on_drop() {
    let hog = Hog::start().unwrap();
    let pid = hog.pid();
    assert!(std::path::Path::new(&format!("/proc/{pid}")).exists());
    drop(hog);
    // Killed and reaped: the pid is gone (pid reuse this fast is not a concern).
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
}
