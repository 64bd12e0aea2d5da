//! Every workload of the registry and every `iter` program, run on the schedulers at test
//! size. Integration tests, not unit tests: they reach every program, and from here they
//! link the library's compiled programs instead of compiling all of them again.

use splitsteal_workloads::par_iter::programs;
use splitsteal_workloads::sched::{Scheduler, SchedulerKind};
use splitsteal_workloads::workloads::{find, registry, Group, Size};

#[test]
fn names_are_unique_and_findable() {
    let r = registry();
    for (i, s) in r.iter().enumerate() {
        assert!(r[..i].iter().all(|o| o.name != s.name), "{}", s.name);
        assert_eq!(find(&s.name.to_uppercase()).unwrap().name, s.name);
        assert!(!(s.params)(Size::Full).is_empty());
    }
    let e = find("fibonacci").unwrap_err();
    assert!(e.contains("fib") && e.contains("cilksort"), "{e}");
}

/// Each workload on each scheduler at 1 and 2 threads (the serial elision at 1).
#[test]
fn every_workload_verifies_under_every_scheduler() {
    for spec in registry() {
        let w = (spec.build)(Size::Test, 7);
        for kind in SchedulerKind::all() {
            for threads in [1, 2] {
                if kind == SchedulerKind::Serial && threads == 2 {
                    continue;
                }
                let s = Scheduler::build(kind, threads).unwrap();
                if let Err(e) = w.run_on(&s).check {
                    panic!("{} on {}: {e}", spec.name, s.label());
                }
            }
        }
    }
}

#[test]
fn every_program_verifies_on_both_libraries() {
    let scheds: Vec<Scheduler> = [1, 2]
        .into_iter()
        .flat_map(|t| {
            [
                SchedulerKind::Rayon,
                SchedulerKind::Splitsteal(splitsteal::Policy::default()),
            ]
            .map(|k| Scheduler::build(k, t).unwrap())
        })
        .collect();
    for spec in programs() {
        let w = (spec.build)(Size::Test, 3);
        for s in &scheds {
            if let Err(e) = w.run_on(s).check {
                panic!("{} on {}: {e}", spec.name, s.label());
            }
        }
    }
}

#[test]
fn schedulers_without_parallel_iterators_fail_the_check() {
    let w = (programs()[0].build)(Size::Test, 3);
    for k in [SchedulerKind::Serial, SchedulerKind::Chili] {
        let s = Scheduler::build(k, 2).unwrap();
        let e = w.run_on(&s).check.unwrap_err();
        assert!(e.contains("no parallel iterators"), "{e}");
    }
}

#[test]
fn names_are_unique_among_all_workloads() {
    let mut names: Vec<&str> = registry().iter().map(|s| s.name).collect();
    names.extend(programs().iter().map(|s| s.name));
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "{names:?}");
}

#[test]
fn surface_programs_are_grouped_by_prefix() {
    let prefixes = [
        (Group::ParIterSource, "src-", 16),
        (Group::ParIterAdaptor, "ad-", 10),
        (Group::ParIterConsumer, "con-", 16),
        (Group::ParIterSort, "sort-", 15),
    ];
    for (group, prefix, count) in prefixes {
        let members: Vec<&str> = programs()
            .iter()
            .filter(|s| s.group == group)
            .map(|s| s.name)
            .collect();
        assert_eq!(members.len(), count, "{prefix}: {members:?}");
        assert!(members.iter().all(|n| n.starts_with(prefix)), "{members:?}");
    }
}
