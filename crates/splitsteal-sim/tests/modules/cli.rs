use clap::Parser;
use splitsteal_sim::cli::*;

#[derive(Parser, Debug)]
struct Top {
    #[command(subcommand)]
    cmd: SimCommand,
}

#[test]
fn parse_counts() {
    assert_eq!(parse_count("1e6"), Ok(1_000_000));
    assert_eq!(parse_count("10^8"), Ok(100_000_000));
    assert_eq!(parse_count("1_000"), Ok(1000));
    assert_eq!(parse_count("3E2"), Ok(300));
    assert!(parse_count("x").is_err());
    assert!(parse_count("1e30").is_err());
    assert!(parse_count("-5").is_err());
}

#[test]
fn bad_flags_are_clap_errors_not_panics() {
    for args in [
        vec!["t", "latency", "--procs", "1"],
        vec!["t", "latency", "--latency", "0"],
        vec!["t", "latency", "--work", "abc"],
        vec!["t", "latency", "--split", "thirds"],
        vec!["t", "latency", "--sweep-procs", "32"],
        vec![
            "t",
            "calibrate",
            "--work",
            "1e6",
            "--latency",
            "2",
            "--efficiency",
            "1.5",
        ],
        vec!["t", "dag", "--procs", "0"],
        vec!["t", "kernel", "--procs", "0"],
        vec!["t", "steal-cost", "--procs-list", "0"],
        vec!["t", "steal-cost", "--procs-list", "16,2000"],
        vec!["t", "steal-cost", "--shapes", "fib,trees"],
        vec!["t", "steal-cost", "--policies", "cws"],
        vec!["t", "steal-cost", "--runs", "0"],
        vec!["t", "steal-cost", "--cas-ns", "-1"],
        vec!["t", "steal-cost", "--fence-ns", "nan"],
        vec!["t", "steal-cost", "--ipi-ns", "inf"],
        vec!["t", "steal-cost", "--heavy-per-cpu-ns", "2e9"],
        vec!["t", "steal-cost", "--node-ns", "0"],
        vec!["t", "steal-cost", "--probe-ns", "0"],
        vec!["t", "steal-cost", "--fib-depth", "27"],
        vec!["t", "steal-cost", "--leaf-units", "0"],
        vec!["t", "steal-cost", "--nqueens-branching", "0"],
        vec!["t", "steal-cost", "--nqueens-branching", "256"],
        vec!["t", "steal-cost", "--nqueens-depth", "65"],
        vec!["t", "steal-cost", "--rate", "0"],
        vec!["t", "steal-cost", "--policies", "asym-sharde"],
        vec!["t", "steal-cost", "--wake-latency-ns", "-5"],
        vec!["t", "steal-cost", "--yield-ns", "nan"],
        vec!["t", "steal-cost", "--spin-rounds", "-1"],
        vec!["t", "steal-cost", "--spin-rounds", "5e9"],
        vec!["t", "steal-cost", "--no-sleep", "yes"],
        vec!["t", "steal-cost", "--answer-timeout-ns", "-1"],
        vec!["t", "steal-cost", "--answer-timeout-ns", "2e9"],
        vec!["t", "steal-cost", "--policies", "asym-answer"],
        vec!["t", "scaling"],
        vec!["t", "scaling", "--from", "r.json", "--procs-list", "0"],
        vec!["t", "scaling", "--from", "r.json", "--runs", "0"],
        vec!["t", "scaling", "--from", "r.json", "--max-fib-depth", "27"],
        vec!["t", "scaling", "--from", "r.json", "--leaf-units", "0"],
        vec![
            "t",
            "scaling",
            "--from",
            "r.json",
            "--max-random-nodes",
            "0",
        ],
    ] {
        assert!(Top::try_parse_from(&args).is_err(), "{args:?} should fail");
    }
    let ok = Top::try_parse_from([
        "t",
        "latency",
        "--work",
        "1e5",
        "--procs",
        "8",
        "--latency",
        "3",
        "--runs",
        "4",
        "--split",
        "paper",
        "--json",
    ])
    .unwrap();
    match ok.cmd {
        SimCommand::Latency(a) => {
            assert_eq!((a.work, a.procs, a.latency, a.runs), (100_000, 8, 3, 4));
            assert_eq!(a.split, SplitArg::Paper);
            assert!(a.json);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn scaling_defaults_are_the_libraries() {
    use splitsteal_sim::scaling::ScalingExperiment;
    let t = Top::try_parse_from(["t", "scaling", "--from", "r.json"]).unwrap();
    let SimCommand::Scaling(a) = t.cmd else {
        panic!("not scaling")
    };
    let d = ScalingExperiment::default();
    assert_eq!(a.from, std::path::PathBuf::from("r.json"));
    assert_eq!(
        (
            a.procs_list,
            a.runs,
            a.seed,
            a.max_fib_depth,
            a.leaf_units,
            a.max_random_nodes
        ),
        (
            d.procs,
            d.runs,
            d.seed,
            d.max_fib_depth,
            d.leaf_units,
            d.max_random_nodes
        )
    );
}

#[test]
fn scaling_on_a_missing_file_is_a_usage_error() {
    let dir =
        std::env::temp_dir().join(format!("splitsteal-sim-scaling-cli-{}", std::process::id()));
    let missing = dir.join("missing.json");
    let t = Top::try_parse_from([
        "t",
        "scaling",
        "--from",
        missing.to_str().unwrap(),
        "--out",
        dir.join("out").to_str().unwrap(),
    ])
    .unwrap();
    let err = run(t.cmd).unwrap_err();
    assert_eq!(
        splitsteal_report::ExitError::exit_of(&*err),
        splitsteal_report::Exit::Usage
    );
    assert!(err.to_string().contains("missing.json"), "{err}");
    // Refused before the output folder is made.
    assert!(!dir.join("out").exists());
}

#[test]
fn steal_cost_defaults_are_the_libraries() {
    use splitsteal_sim::steal_cost::{Costs, Options, Policy, Shape, ShapeParams};
    let t = Top::try_parse_from(["t", "steal-cost"]).unwrap();
    let SimCommand::StealCost(a) = t.cmd else {
        panic!("not steal-cost")
    };
    let e = a.experiment();
    assert_eq!(
        e.costs,
        Costs::default(),
        "--help's defaults are the model's"
    );
    assert_eq!(e.shape_params, ShapeParams::default());
    assert_eq!(e.shapes, Shape::ALL.to_vec());
    assert_eq!(e.policies, Policy::ALL.to_vec());
    assert_eq!(e.options, Options::default(), "sleeping on, 64 rounds");
    assert_eq!(e.procs, vec![16, 64, 256]);
    assert!(e.validate().is_ok());
    let t = Top::try_parse_from([
        "t",
        "steal-cost",
        "--shapes",
        "list-walk,nqueens",
        "--policies",
        "asym-half,lcws-signal",
        "--procs-list",
        "2,1e3",
        "--heavy-per-cpu-ns",
        "30.5",
        "--wake-latency-ns",
        "50000",
        "--no-sleep",
        "--spin-rounds",
        "8",
        "--answer-timeout-ns",
        "750",
        "--json",
    ])
    .unwrap();
    let SimCommand::StealCost(a) = t.cmd else {
        panic!("not steal-cost")
    };
    let e = a.experiment();
    assert_eq!(e.shapes, vec![Shape::ListWalk, Shape::Nqueens]);
    assert_eq!(e.policies, vec![Policy::AsymHalf, Policy::LcwsSignal]);
    assert_eq!(e.procs, vec![2, 1000]);
    assert_eq!(e.costs.heavy_per_cpu_ns, 30.5);
    assert_eq!(e.costs.wake_latency_ns, 50_000.0);
    assert_eq!(
        e.options,
        Options {
            sleep: false,
            spin_rounds: 8,
            answer_timeout_ns: Some(750.0),
        }
    );
    assert!(a.json);
    let t = Top::try_parse_from(["t", "steal-cost", "--policies", "asym-one,asym-half"]).unwrap();
    let SimCommand::StealCost(a) = t.cmd else {
        panic!("not steal-cost")
    };
    assert_eq!(
        a.experiment().policies,
        vec![Policy::AsymOne, Policy::AsymHalf]
    );
    let t = Top::try_parse_from(["t", "steal-cost", "--policies", "asym-answered,asym"]).unwrap();
    let SimCommand::StealCost(a) = t.cmd else {
        panic!("not steal-cost")
    };
    assert_eq!(
        a.experiment().policies,
        vec![Policy::AsymAnswered, Policy::Asym]
    );
    assert_eq!(a.experiment().options.answer_timeout_ns, None);
}
