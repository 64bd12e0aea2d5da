use splitsteal_workloads::sched::Workload;
use std::sync::atomic::{AtomicU64, Ordering};

use splitsteal::Serial;
use splitsteal_workloads::workloads::shapes::*;
use splitsteal_workloads::workloads::{splitmix64, Size};

const SEED: u64 = 0x5eed;

/// The spine's checksum is its reference's, serially; a swapped pair of items, or a
/// lost item, changes it.
#[test]
fn spine_check_accepts_serial_and_rejects_wrong() {
    let w = Spine::new(50, 10, SEED);
    assert_eq!(w.check(&spine(&mut Serial, &w.items)), Ok(()));
    let mut swapped = w.items.clone();
    swapped.swap(3, 4);
    assert!(w.check(&spine(&mut Serial, &swapped)).is_err());
    assert!(w.check(&spine(&mut Serial, &w.items[1..])).is_err());
    assert_eq!(spine(&mut Serial, &[]), 0);
}

/// The spawn loop's results are every task's, in order; a missing task is caught.
#[test]
fn spawnloop_check_accepts_serial_and_rejects_wrong() {
    let w = SpawnLoop::new(20, 10, SEED);
    let out = spawn_loop(&mut Serial, &w.items);
    assert_eq!(w.check(&out), Ok(()));
    let mut lost = out.clone();
    lost[7] = 0;
    assert!(w.check(&lost).is_err());
    assert!(w.check(&out[..19].to_vec()).is_err());
}

#[test]
fn list_is_one_chain_over_every_node() {
    let w = ListWalk::new(100, 10, SEED);
    let mut seen = [false; 100];
    let mut at = w.head;
    while at != NIL {
        assert!(!seen[at as usize], "cycle at {at}");
        seen[at as usize] = true;
        at = w.nodes[at as usize].next;
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(walk(&mut Serial, &w.nodes, w.head), w.expected);
    assert_eq!(w.expected.0, 100);
    let one = ListWalk::new(1, 10, SEED);
    assert_eq!(one.expected, (1, one.nodes[0].item.work()));
}

#[test]
fn listwalk_check_accepts_serial_and_rejects_wrong() {
    let w = ListWalk::new(50, 10, SEED);
    let out = w.run(&mut Serial, ());
    assert_eq!(w.check(&out), Ok(()));
    assert!(w.check(&(out.0, out.1 ^ 1)).is_err());
    assert!(w.check(&(out.0 - 1, out.1)).is_err());
}

#[test]
fn coarsejoin_check_accepts_serial_and_rejects_wrong() {
    let w = CoarseJoin::new(8, 10, SEED);
    let out = w.run(&mut Serial, ());
    assert_eq!(w.check(&out), Ok(()));
    for i in 0..out.len() {
        let mut bad = out;
        bad[i] = bad[i].wrapping_add(1);
        assert!(w.check(&bad).is_err(), "mutated element {i} accepted");
    }
}

#[test]
fn spawnjoin_check_accepts_serial_and_rejects_wrong() {
    let w = SpawnJoin::new(Size::Test, 8, 10, SEED);
    let out = w.run(&mut Serial, ());
    assert_eq!(w.check(&out), Ok(()));
    for i in 0..out.len() {
        let mut bad = out;
        bad[i] ^= 1 << 20;
        assert!(w.check(&bad).is_err(), "mutated element {i} accepted");
    }
    // A spawned task that never ran leaves its slot zero.
    let mut skipped = out;
    skipped[0] = 0;
    assert!(w.check(&skipped).is_err());
}

#[test]
fn spawnparfor_check_accepts_serial_and_rejects_wrong() {
    let w = SpawnParFor::new(Size::Test, 64, 10, SEED);
    let serial = || w.run(&mut Serial, w.input());
    assert_eq!(w.check(&serial()), Ok(()));
    let (small, out) = serial();
    out[17].fetch_xor(1, Ordering::Relaxed);
    assert!(w.check(&(small, out)).is_err(), "wrong element accepted");
    let (small, out) = serial();
    out[63].store(0, Ordering::Relaxed); // an element the par_for never wrote
    assert!(
        w.check(&(small, out)).is_err(),
        "unwritten element accepted"
    );
    let (mut small, out) = serial();
    small[3] = small[3].wrapping_add(1);
    assert!(
        w.check(&(small, out)).is_err(),
        "wrong spawned result accepted"
    );
    let (small, out) = serial();
    let short: Vec<AtomicU64> = out.into_iter().take(63).collect();
    assert!(w.check(&(small, short)).is_err(), "short output accepted");
}

#[test]
fn leaves_and_items_are_deterministic_per_seed() {
    let a = CoarseJoin::new(8, 10, 1);
    let b = CoarseJoin::new(8, 10, 1);
    let c = CoarseJoin::new(8, 10, 2);
    assert_eq!(a.expected, b.expected);
    assert_ne!(a.expected, c.expected);
    let it = Item { seed: 3, rounds: 2 };
    assert_eq!(it.work(), splitmix64(splitmix64(3)));
    assert_eq!(Item { seed: 3, rounds: 0 }.work(), 3);
}
