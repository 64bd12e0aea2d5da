//! The environment variables every builder reads (the global pool's included): bad values
//! are clear errors. (Alone in its binary: it mutates the process environment; its tests
//! take `ENV_LOCK` so they never see each other's variables.)

use std::sync::Mutex;

use splitsteal_core::{BuildError, Policy, ThreadPoolBuilder};

static ENV_LOCK: Mutex<()> = Mutex::new(());

fn with_env<R>(threads: Option<&str>, policy: Option<&str>, f: impl FnOnce() -> R) -> R {
    with_env3(threads, None, policy, f)
}

/// Runs `f` with `SPLITSTEAL_NUM_THREADS`, `RAYON_NUM_THREADS` and `SPLITSTEAL_POLICY` set
/// as given (`None`: unset), alone among this binary's tests.
fn with_env3<R>(
    threads: Option<&str>,
    rayon_threads: Option<&str>,
    policy: Option<&str>,
    f: impl FnOnce() -> R,
) -> R {
    let _alone = ENV_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: no other thread reads or writes the environment meanwhile: every test of this
    // binary holds `ENV_LOCK` while it touches the environment or builds a pool (the only
    // code here that reads it), and workers never read it.
    let set = |k: &str, v: Option<&str>| unsafe {
        match v {
            Some(v) => std::env::set_var(k, v),
            None => std::env::remove_var(k),
        }
    };
    set("SPLITSTEAL_NUM_THREADS", threads);
    set("RAYON_NUM_THREADS", rayon_threads);
    set("SPLITSTEAL_POLICY", policy);
    let r = f();
    set("SPLITSTEAL_NUM_THREADS", None);
    set("RAYON_NUM_THREADS", None);
    set("SPLITSTEAL_POLICY", None);
    r
}

#[test]
fn environment_values_are_validated_with_clear_messages() {
    let err = with_env(Some("abc"), None, ThreadPoolBuilder::from_env).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, BuildError::InvalidEnv { .. }), "{msg}");
    assert!(
        msg.contains("SPLITSTEAL_NUM_THREADS") && msg.contains("abc"),
        "{msg}"
    );

    let err = with_env(None, Some("fifo"), ThreadPoolBuilder::from_env).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("SPLITSTEAL_POLICY") && msg.contains("lcws-signal"),
        "{msg}"
    );

    let err = with_env(Some("99999"), None, ThreadPoolBuilder::from_env).unwrap_err();
    assert!(err.to_string().contains("at most"), "{err}");

    // Valid values configure the pool.
    let pool = with_env(Some(" 3 "), Some("chase-lev"), || {
        ThreadPoolBuilder::from_env().unwrap().build().unwrap()
    });
    assert_eq!(pool.current_num_threads(), 3);
    assert_eq!(pool.policy(), Policy::ChaseLev);

    // The global pool reports a bad environment at the API boundary, by name.
    let r = with_env(Some("abc"), None, || {
        std::panic::catch_unwind(splitsteal_core::current_num_threads)
    });
    let payload = r.unwrap_err();
    let msg = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(msg.contains("SPLITSTEAL_NUM_THREADS"), "{msg}");
}

#[test]
fn every_builder_takes_its_defaults_from_the_environment() {
    let build = || ThreadPoolBuilder::new().build();
    // Not only the global pool: `new()` reads the variables when it builds.
    let pool = with_env(Some("3"), Some("abp"), build).unwrap();
    assert_eq!(
        (pool.current_num_threads(), pool.policy()),
        (3, Policy::Abp)
    );
    // rayon's variable, when splitsteal's is unset.
    let pool = with_env3(None, Some("1"), None, build).unwrap();
    assert_eq!(pool.current_num_threads(), 1);
    // splitsteal's wins over rayon's; `0` means one thread per CPU, as in rayon.
    let pool = with_env3(Some("2"), Some("1"), None, build).unwrap();
    assert_eq!(pool.current_num_threads(), 2);
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pool = with_env3(Some("0"), None, None, build).unwrap();
    assert_eq!(pool.current_num_threads(), cpus);
    // Explicit settings win over the environment, as in rayon (and then a bad value in
    // the environment is never read).
    let pool = with_env(Some("3"), Some("abp"), || {
        ThreadPoolBuilder::new()
            .num_threads(2)
            .policy(Policy::LcwsPoll)
            .build()
    })
    .unwrap();
    assert_eq!(
        (pool.current_num_threads(), pool.policy()),
        (2, Policy::LcwsPoll)
    );
    let pool = with_env(Some("abc"), Some("fifo"), || {
        ThreadPoolBuilder::new()
            .num_threads(1)
            .policy(Policy::ChaseLev)
            .build()
    })
    .unwrap();
    assert_eq!(pool.current_num_threads(), 1);
    // `num_threads(0)` is "not set", as in rayon.
    let pool = with_env(Some("3"), None, || {
        ThreadPoolBuilder::new().num_threads(0).build()
    })
    .unwrap();
    assert_eq!(pool.current_num_threads(), 3);
}

#[test]
fn a_bad_environment_fails_build_with_the_variable_named() {
    let build = || ThreadPoolBuilder::new().build();
    for (threads, rayon, policy, var, valid) in [
        (
            Some("abc"),
            None,
            None,
            "SPLITSTEAL_NUM_THREADS",
            "from 0 (automatic)",
        ),
        (
            Some("99999"),
            None,
            None,
            "SPLITSTEAL_NUM_THREADS",
            "at most",
        ),
        (None, None, Some("fifo"), "SPLITSTEAL_POLICY", "lcws-signal"),
    ] {
        let err = with_env3(threads, rayon, policy, build).unwrap_err();
        let msg = err.to_string();
        assert!(
            matches!(&err, BuildError::InvalidEnv { var: v, .. } if *v == var),
            "{msg}"
        );
        assert!(msg.contains(var) && msg.contains(valid), "{msg}");
        // `from_env` reports the same error up front.
        let early = with_env3(threads, rayon, policy, ThreadPoolBuilder::from_env).unwrap_err();
        assert_eq!(early.to_string(), msg);
    }
}

/// rayon's variables are read as rayon reads them: `RAYON_NUM_THREADS` when it parses as a
/// count (0: one per CPU), else the deprecated `RAYON_RS_NUM_CPUS` when it parses as a count
/// above 0, else one thread per CPU; a value rayon cannot use is ignored, never an error,
/// so that a program that runs under rayon runs here. `SPLITSTEAL_NUM_THREADS` wins.
#[test]
fn rayon_variables_are_read_as_rayon_reads_them() {
    let per_cpu = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = |rayon: Option<&str>, old: Option<&str>| {
        with_env3(None, rayon, None, || {
            // SAFETY: under `ENV_LOCK`, as in `with_env3`.
            unsafe {
                match old {
                    Some(v) => std::env::set_var("RAYON_RS_NUM_CPUS", v),
                    None => std::env::remove_var("RAYON_RS_NUM_CPUS"),
                }
            }
            let built = ThreadPoolBuilder::new()
                .build()
                .map(|p| p.current_num_threads());
            let early = ThreadPoolBuilder::from_env().map(|_| ());
            // SAFETY: as above.
            unsafe { std::env::remove_var("RAYON_RS_NUM_CPUS") };
            assert!(early.is_ok(), "{rayon:?} {old:?}: {:?}", early.err());
            built.unwrap_or_else(|e| panic!("{rayon:?} {old:?}: {e}"))
        })
    };
    assert_eq!(threads(Some("3"), None), 3);
    assert_eq!(threads(Some("0"), Some("2")), per_cpu);
    for unusable in ["-1", "abc", " 3", "", "3.0"] {
        assert_eq!(
            threads(Some(unusable), None),
            per_cpu,
            "RAYON_NUM_THREADS={unusable:?}"
        );
        assert_eq!(
            threads(Some(unusable), Some("2")),
            2,
            "then RAYON_RS_NUM_CPUS"
        );
    }
    assert_eq!(threads(None, Some("2")), 2);
    assert_eq!(threads(None, Some("0")), per_cpu);
    assert_eq!(threads(None, Some("x")), per_cpu);
    // Ours, when set, wins over rayon's.
    let ours = with_env3(Some("1"), Some("3"), None, || {
        ThreadPoolBuilder::new()
            .build()
            .unwrap()
            .current_num_threads()
    });
    assert_eq!(ours, 1);
}
