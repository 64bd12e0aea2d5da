use splitsteal_sim::stats::*;

#[test]
fn quantiles() {
    assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
    assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    let f = FiveNumber::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
    assert_eq!(
        (f.min, f.q1, f.median, f.q3, f.max),
        (1.0, 2.0, 3.0, 4.0, 5.0)
    );
    assert!(median(&[]).is_nan());
    assert_eq!(mean(&[1.0, 2.0, 6.0]), 3.0);
}
