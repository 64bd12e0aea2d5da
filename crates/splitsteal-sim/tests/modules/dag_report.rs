use splitsteal_sim::dag::Algorithm;
use splitsteal_sim::dag_report::*;
use splitsteal_sim::meta::RunMeta;

#[test]
fn small_experiments_and_outputs() {
    let reg = regular(&[(4, 2), (6, 2)], 2, 1).unwrap();
    assert_eq!(reg.len(), 4);
    assert_eq!(reg[0].algorithm, Algorithm::Cws);
    assert_eq!(reg[1].mean.t1, (3 * 16 - 2) as f64);
    let irr = irregular(&[(40, 4)], 0.05, 2, 1, 1 << 20).unwrap();
    assert_eq!(
        irr[0].mean.t1, irr[1].mean.t1,
        "same DAGs for both algorithms"
    );
    assert!(regular(&[(40, 2)], 1, 1).is_err());
    assert!(regular(&[(4, 0)], 1, 1).is_err());
    let dir = std::env::temp_dir().join(format!("splitsteal-sim-dag-{}", std::process::id()));
    let panel = Panel {
        name: "t".into(),
        title: "t".into(),
        x_desc: "depth".into(),
        x_is_procs: false,
        points: reg.clone(),
    };
    let meta = RunMeta::new(1, &(), Vec::new());
    // A panel of an earlier run in the same folder, not computed this time.
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("dag_regular.svg"), "<svg/>").unwrap();
    let files = write_all(&dir, &[panel], 2, &meta).unwrap();
    assert!(!dir.join("dag_regular.svg").exists(), "stale panel kept");
    assert_eq!(files.len(), 3);
    splitsteal_report::svg_check::check_svg_file(&dir.join("dag_t.svg")).unwrap();
    let js: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("dag_t.json")).unwrap()).unwrap();
    assert!(js["run"]["command"].is_string(), "{js}");
    assert!(table(&reg).lines().count() == 4);
    std::fs::remove_dir_all(&dir).ok();
}
