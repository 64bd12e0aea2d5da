use splitsteal::Serial;
use splitsteal_workloads::workloads::nqueens::*;

#[test]
fn matches_the_table_and_the_array_search() {
    for n in 1..=9u32 {
        assert_eq!(
            nqueens_reference(n as usize),
            SOLUTIONS[n as usize],
            "n={n}"
        );
        assert_eq!(nqueens(&mut Serial, n), SOLUTIONS[n as usize], "n={n}");
    }
}
