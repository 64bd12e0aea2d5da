use splitsteal_bench::modes::mailbox::*;
use splitsteal_bench::modes::Env;
use splitsteal_bench::report::Record;
use splitsteal_bench::runner::{Progress, Watchdog};
use splitsteal_bench::sched::PoolOptions;
use splitsteal_bench::workloads::Size;

#[test]
fn check_accepts_exactly_once_and_rejects_lost_duplicated_or_foreign_messages() {
    let good = |order: &[u64]| {
        let mut c = Check::new(2, 3);
        for &v in order {
            c.take(v);
        }
        c.verify()
    };
    assert_eq!(good(&[0, 3, 1, 4, 2, 5]), Ok(()));
    assert!(good(&[0, 3, 1, 4, 2]).is_err(), "lost the last");
    assert!(good(&[0, 3, 4, 2, 5]).is_err(), "lost one");
    assert!(good(&[0, 3, 1, 1, 4, 2, 5]).is_err(), "duplicated one");
    assert!(good(&[0, 3, 2, 4, 1, 5]).is_err(), "reordered");
    assert!(good(&[0, 3, 1, 4, 2, 5, 6]).is_err(), "from no producer");
}

#[test]
fn every_queue_delivers_every_message_once_at_test_size() {
    let out_dir = std::env::temp_dir().join(format!("ss-bench-mailbox-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let env = Env {
        size: Size::Test,
        seed: 1,
        reps: None,
        warmup: 0,
        workloads: None,
        kinds: Vec::new(),
        threads: None,
        pool_options: PoolOptions::default(),
        out: out_dir.clone(),
        progress: Progress::hidden(),
        watchdog: Watchdog::disabled(),
        partial: Default::default(),
        pbbs: Default::default(),
    };
    let out = run(&env);
    let per = messages_per_producer(Size::Test);
    assert_eq!(out.records.len(), PRODUCERS.len() * Queue::ALL.len());
    for r in &out.records {
        assert!(r.verified, "{r:?}");
        assert_eq!(r.error, None);
        assert_eq!(r.reps, REPS.0);
        let p = r.threads;
        assert_eq!(r.extra.get("producers"), Some(&(p as f64)));
        assert_eq!(r.extra.get("messages"), Some(&((p * per) as f64)));
        assert!(r.extra.contains_key("ns_per_msg_p50"), "{r:?}");
    }
    assert_eq!(out.tables[0].rows.len(), out.records.len());
    assert!(out.tables[0]
        .rows
        .iter()
        .all(|row| !row.contains(&"FAILED".to_string())));
    assert_eq!(out.plots.len(), 1, "{:?}", out.notes);
    let _ = std::fs::remove_dir_all(out_dir);
}

#[test]
fn a_failed_cell_is_marked_in_the_table() {
    let mut r = Record::new(EXPERIMENT, "2-producer", "", Queue::Locked.name(), 2);
    r.error = Some("received 3 of 4 messages".into());
    let t = tables(&[r]);
    assert_eq!(t[0].rows[0][4], "FAILED");
}
