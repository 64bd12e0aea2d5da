use splitsteal::Serial;
use splitsteal_workloads::sched::Workload;
use splitsteal_workloads::workloads::matmul::*;

#[test]
fn morton_is_a_permutation() {
    let n = 128;
    let bs = 32;
    let mut seen = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            let k = morton_index(n, bs, i, j);
            assert!(!seen[k]);
            seen[k] = true;
        }
    }
}

#[test]
fn both_algorithms_match_the_full_product() {
    for algo in [Algo::Classical, Algo::Strassen] {
        for n in [32, 128] {
            let w = MatMul::new(algo, n, 3);
            let out = w.run(&mut Serial, w.input());
            w.check(&out).unwrap();
            assert_eq!(
                w.output_rm(&out).unwrap(),
                matmul_reference(n, &w.a_rm, &w.b_rm)
            );
        }
    }
}

#[test]
fn freivalds_catches_a_wrong_entry() {
    let w = MatMul::new(Algo::Classical, 64, 5);
    let mut out = w.run(&mut Serial, w.input());
    w.check(&out).unwrap();
    out[1234] += 1.0;
    assert!(w.check(&out).is_err());
    out[1234] -= 0.5;
    assert!(w.check(&out).unwrap_err().contains("exact integer"));
}
