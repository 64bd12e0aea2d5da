use splitsteal_workloads::par_iter::*;

#[test]
fn a_wrong_output_is_reported() {
    assert!(same_vec(&vec![1, 2, 3], &vec![1, 2, 3]).is_ok());
    let e = same_vec(&vec![1, 5, 3], &vec![1, 2, 3]).unwrap_err();
    assert!(e.contains("element 1 is 5"), "{e}");
    assert!(same_vec(&vec![1], &vec![1, 2])
        .unwrap_err()
        .contains("1 elements"));
    assert!(same(&7u64, &8u64).unwrap_err().contains("got 7"));
    // A long output is shown from a little before its first difference.
    let long: Vec<u64> = (0..1000).collect();
    let mut off = long.clone();
    off[500] = 7;
    let e = same(&off, &long).unwrap_err();
    assert!(e.starts_with("got …") && e.contains("499, 7, 501"), "{e}");
    assert!(e.contains("gives …") && e.contains("499, 500, 501"), "{e}");
}
