use splitsteal_sim::meta::RunMeta;
use splitsteal_sim::steal_cost::{Costs, Options, Policy, Shape, ShapeParams};
use splitsteal_sim::steal_cost_report::*;

fn small() -> StealExperiment {
    StealExperiment {
        shapes: vec![Shape::Fib, Shape::Nqueens, Shape::SpawnBurst],
        policies: vec![Policy::AsymOwn, Policy::ChaseLev],
        procs: vec![1, 4],
        runs: 2,
        seed: 3,
        shape_params: ShapeParams {
            fib_depth: 7,
            nqueens_branching: 4,
            nqueens_depth: 4,
            burst_children: 16,
            leaf_units: 10,
            ..ShapeParams::default()
        },
        costs: Costs::default(),
        options: Options::default(),
    }
}

#[test]
fn cells_come_in_order_and_the_files_are_written() {
    let e = small();
    let cells = run(&e).unwrap();
    assert_eq!(cells.len(), 3 * 2 * 2);
    assert_eq!(e.planned_runs(), 3 * 2 * 2 * 2);
    let order: Vec<(Shape, usize, Policy)> =
        cells.iter().map(|c| (c.shape, c.procs, c.policy)).collect();
    assert_eq!(order[0], (Shape::Fib, 1, Policy::AsymOwn));
    assert_eq!(order[1], (Shape::Fib, 1, Policy::ChaseLev));
    assert_eq!(order[2], (Shape::Fib, 4, Policy::AsymOwn));
    assert_eq!(order[4], (Shape::Nqueens, 1, Policy::AsymOwn));
    for c in &cells {
        assert_eq!(c.runs, 2);
        let bound = (c.mean.t1 / c.procs as f64).max(c.mean.span);
        assert!(c.mean.makespan >= bound - 1e-9, "{c:?}");
        assert!(c.mean.min_ratio <= c.mean.ratio && c.mean.ratio <= c.mean.max_ratio);
        if c.procs == 1 && c.policy == Policy::AsymOwn {
            assert_eq!(c.mean.makespan, c.mean.t1, "{c:?}");
        }
    }
    // The same DAG and seed for both policies of a cell.
    assert_eq!(cells[4].mean.t1, cells[5].mean.t1);
    // Same inputs, same cells (runs are seeded by index, not by thread).
    let again = run(&e).unwrap();
    for (a, b) in cells.iter().zip(&again) {
        assert_eq!(a.mean, b.mean);
    }
    let dags = e.build_dags().unwrap();
    assert!(e.estimated_events(&dags) > 0.0);

    let dir = std::env::temp_dir().join(format!("splitsteal-sim-steal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("steal_cost_list-walk.svg"), "<svg/>").unwrap();
    let meta = RunMeta::new(3, &e, Vec::new());
    let files = write(&dir, &e, &cells, &meta).unwrap();
    assert_eq!(files.len(), 3 + 3 + 1);
    assert!(
        !dir.join("steal_cost_list-walk.svg").exists(),
        "a figure of a shape not run this time is removed"
    );
    for s in ["fib", "nqueens", "spawn-burst"] {
        splitsteal_report::svg_check::check_svg_file(&dir.join(format!("steal_cost_{s}.svg")))
            .unwrap();
    }
    let js: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("steal_cost.json")).unwrap())
            .unwrap();
    assert!(js["run"]["command"].is_string(), "{js}");
    assert_eq!(js["cells"].as_array().unwrap().len(), cells.len());
    assert_eq!(js["cells"][0]["policy"], "asym-own");
    let csv_text = std::fs::read_to_string(dir.join("steal_cost.csv")).unwrap();
    assert_eq!(csv_text.lines().count(), 1 + cells.len());
    let width = csv_text.lines().next().unwrap().split(',').count();
    assert!(csv_text.lines().all(|l| l.split(',').count() == width));
    assert!(csv_text
        .lines()
        .nth(1)
        .unwrap()
        .starts_with("fib,1,asym-own,2,"));
    let md = table(&e, &cells);
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| ")).count(),
        1 + cells.len()
    );
    assert!(std::fs::read_to_string(dir.join("index.html"))
        .unwrap()
        .contains("steal_cost_fib.svg"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_experiments_are_errors() {
    let ok = small();
    assert!(ok.validate().is_ok());
    let mut e = small();
    e.procs = vec![4, 4];
    assert!(e.validate().unwrap_err().contains("twice"));
    let mut e = small();
    e.shapes.clear();
    assert!(e.validate().is_err());
    let mut e = small();
    e.runs = 0;
    assert!(e.validate().is_err());
    let mut e = small();
    e.procs = vec![0];
    assert!(e.validate().is_err());
    let mut e = small();
    e.costs.probe_ns = 0.0;
    assert!(run(&e).is_err());
    let mut e = small();
    e.shape_params.max_nodes = 10;
    assert!(run(&e).unwrap_err().contains("fib"));
}
