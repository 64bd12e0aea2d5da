//! The global pool's environment variables: bad values are clear errors.
//! (Alone in its binary: it mutates the process environment.)

use splitsteal_core::{BuildError, Policy, ThreadPoolBuilder};

fn with_env<R>(threads: Option<&str>, policy: Option<&str>, f: impl FnOnce() -> R) -> R {
    let set = |k: &str, v: Option<&str>| match v {
        Some(v) => std::env::set_var(k, v),
        None => std::env::remove_var(k),
    };
    set("SPLITSTEAL_NUM_THREADS", threads);
    set("SPLITSTEAL_POLICY", policy);
    let r = f();
    set("SPLITSTEAL_NUM_THREADS", None);
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
