use splitsteal::Serial;
use splitsteal_workloads::workloads::pbbs::graph::*;

#[test]
fn csr_is_symmetric_and_simple() {
    let g = Graph::from_edges(4, &[(0, 1), (1, 0), (2, 2), (1, 2), (3, 1)]);
    assert_eq!(g.neighbors(0), [1]);
    assert_eq!(g.neighbors(1), [0, 2, 3]);
    assert_eq!(g.neighbors(2), [1]);
    assert_eq!(g.m(), 6);
}

#[test]
fn bfs_and_mis_match_references() {
    let g = rmat(10, 6000, 3);
    let src = source(&g);
    let (_, d) = bfs(&mut Serial, &g, src);
    assert_eq!(d, bfs_depths_reference(&g, src));
    let m = mis(&mut Serial, &g, 9);
    assert_eq!(m, mis_reference(&g, 9));
    // Independent and maximal.
    for v in 0..g.n() as u32 {
        let nb_in = g.neighbors(v).iter().any(|&u| m[u as usize]);
        assert!(m[v as usize] != nb_in, "vertex {v}");
    }
}
