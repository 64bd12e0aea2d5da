use splitsteal_sim::kernel::{Adversary, KernelParams, YieldKind};
use splitsteal_sim::kernel_report::*;
use splitsteal_sim::meta::RunMeta;

#[test]
fn small_grid() {
    let e = KernelExperiment {
        base: KernelParams {
            procs: 6,
            pmin: 1,
            pmax: 3,
            adversary: Adversary::Benign,
            yield_kind: YieldKind::None,
            max_rounds: 5_000,
        },
        dag_depth: 50,
        dag_rate: 0.05,
        runs: 2,
        seed: 1,
    };
    let cells = run_grid(&e).unwrap();
    assert_eq!(cells.len(), 9);
    let get = |a, y| {
        cells
            .iter()
            .find(|c| c.adversary == a && c.yield_kind == y)
            .unwrap()
    };
    assert_eq!(get(Adversary::Adaptive, YieldKind::ToAll).finished, 2);
    assert_eq!(get(Adversary::Adaptive, YieldKind::None).finished, 0);
    assert_eq!(get(Adversary::Benign, YieldKind::None).finished, 2);
    let dir = std::env::temp_dir().join(format!("splitsteal-sim-kernel-{}", std::process::id()));
    let meta = RunMeta::new(1, &e, Vec::new());
    assert_eq!(write(&dir, &e, &cells, &meta).unwrap().len(), 4);
    splitsteal_report::svg_check::check_svg_file(&dir.join("kernel_ratio.svg")).unwrap();
    std::fs::remove_dir_all(&dir).ok();
}
