use splitsteal::Serial;
use splitsteal_workloads::workloads::splitmix64;
use splitsteal_workloads::workloads::treesum::*;

#[test]
fn tree_shape_and_sum() {
    let t = Node::tree(5);
    let want: u64 = (1..32u64).map(|id| splitmix64(id) >> 40).sum();
    assert_eq!(sum_reference(&t), want);
    assert_eq!(sum(&mut Serial, &t), want);
    let mut n = &t;
    let mut depth = 1;
    while let Some(l) = n.left.as_deref() {
        n = l;
        depth += 1;
    }
    assert_eq!(depth, 5);
    assert_eq!(t.right.as_ref().unwrap().val, splitmix64(3) >> 40);
}
