use rand::RngExt;
use splitsteal::Serial;
use splitsteal_workloads::workloads::cilksort::*;
use splitsteal_workloads::workloads::rng;

#[test]
fn sorts_with_duplicates() {
    let mut r = rng(1, 1);
    for n in [0, 1, 5, 2049, 10_000] {
        let mut a: Vec<u64> = (0..n).map(|_| r.random_range(0..50u64)).collect();
        let mut want = a.clone();
        want.sort();
        let mut tmp = vec![0; n];
        cilksort(&mut Serial, &mut a, &mut tmp);
        assert_eq!(a, want);
    }
}
