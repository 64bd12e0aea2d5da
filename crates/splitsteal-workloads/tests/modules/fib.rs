use splitsteal::Serial;
use splitsteal_workloads::workloads::fib::*;

#[test]
fn reference_matches() {
    assert_eq!(fib_reference(20), 6765);
    assert_eq!(fib(&mut Serial, 20), 6765);
    assert_eq!(fib_joins(3), 2);
}
