use splitsteal::Serial;
use splitsteal_workloads::workloads::pbbs::hull::*;

#[test]
fn square_with_collinear_and_duplicate_points() {
    let pts = vec![
        (0, 0),
        (2, 0),
        (2, 2),
        (0, 2),
        (1, 0),
        (1, 1),
        (0, 0),
        (2, 1),
    ];
    let want = vec![(0, 0), (2, 0), (2, 2), (0, 2)];
    assert_eq!(monotone_chain(&pts), want);
    assert_eq!(quickhull(&mut Serial, &pts), want);
}

#[test]
fn random_disks_match() {
    for seed in 0..4 {
        let pts = in_disk(5000, seed);
        assert_eq!(quickhull(&mut Serial, &pts), monotone_chain(&pts));
    }
}
