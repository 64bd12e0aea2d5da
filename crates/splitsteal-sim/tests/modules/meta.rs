use serde::Serialize;
use splitsteal_sim::meta::*;

#[test]
fn the_run_object_is_flat_with_seed_and_parameters() {
    #[derive(Serialize)]
    struct P {
        work: u64,
    }
    let m = RunMeta::new(7, &P { work: 5 }, vec!["W = 5".into()]);
    let v = serde_json::to_value(&m).unwrap();
    for k in [
        "command",
        "date",
        "machine",
        "revision",
        "seed",
        "parameters",
    ] {
        assert!(v.get(k).is_some(), "{k} in {v}");
    }
    assert_eq!(v["parameters"]["work"], 5);
    assert_eq!(v["seed"], 7);
}
