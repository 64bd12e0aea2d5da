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
