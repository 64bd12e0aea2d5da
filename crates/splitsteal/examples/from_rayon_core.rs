//! A program written against rayon-core's API, compiled against splitsteal by changing
//! one line: the crate it names `rayon_core` (was `extern crate rayon_core;`). Everything
//! below that line is rayon-core code as its users write it.
//!
//! Run: `cargo run --release -p splitsteal --example from_rayon_core`

extern crate splitsteal as rayon_core;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use rayon_core::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

fn build_pool(started: &Arc<AtomicUsize>, panics: &Arc<AtomicUsize>) -> ThreadPool {
    let (s, p) = (Arc::clone(started), Arc::clone(panics));
    let result: Result<ThreadPool, ThreadPoolBuildError> = ThreadPoolBuilder::new()
        .num_threads(3)
        .thread_name(|i| format!("app-worker-{i}"))
        .stack_size(8 << 20)
        .start_handler(move |_| {
            s.fetch_add(1, Ordering::SeqCst);
        })
        .exit_handler(|_| {})
        .panic_handler(move |_| {
            p.fetch_add(1, Ordering::SeqCst);
        })
        .build();
    result.expect("pool")
}

fn quicksort<T: PartialOrd + Send>(v: &mut [T]) {
    if v.len() <= 1 {
        return;
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    rayon_core::join(|| quicksort(lo), || quicksort(&mut hi[1..]));
}

fn partition<T: PartialOrd>(v: &mut [T]) -> usize {
    let pivot = v.len() - 1;
    let mut i = 0;
    for j in 0..pivot {
        if v[j] <= v[pivot] {
            v.swap(i, j);
            i += 1;
        }
    }
    v.swap(i, pivot);
    i
}

/// Splits while the work keeps migrating, as rayon's adaptive iterators do.
fn adaptive_sum(v: &[u64], splits: usize) -> u64 {
    if v.len() < 1024 || splits == 0 {
        return v.iter().sum();
    }
    let (l, r) = v.split_at(v.len() / 2);
    let (a, b) = rayon_core::join_context(
        |_| adaptive_sum(l, splits - 1),
        |ctx| adaptive_sum(r, if ctx.migrated() { 8 } else { splits - 1 }),
    );
    a + b
}

fn main() {
    assert!(rayon_core::max_num_threads() >= 3);
    let started = Arc::new(AtomicUsize::new(0));
    let panics = Arc::new(AtomicUsize::new(0));
    let pool = build_pool(&started, &panics);

    // install, join, current_thread_index, thread names.
    let mut v: Vec<u32> = (0..20_000).map(|i| (i * 7919) % 20_000).collect();
    pool.install(|| quicksort(&mut v));
    assert!(v.windows(2).all(|w| w[0] <= w[1]));
    let name = pool.install(|| std::thread::current().name().map(str::to_owned));
    assert!(name.unwrap().starts_with("app-worker-"));
    assert_eq!(pool.current_thread_index(), None);
    assert!(pool.install(|| pool.current_thread_index()).is_some());

    // join_context.
    let data: Vec<u64> = (1..=100_000).collect();
    assert_eq!(pool.install(|| adaptive_sum(&data, 4)), 5_000_050_000);

    // spawn: fire-and-forget, results over a channel; a panic reaches the handler.
    let (tx, rx) = mpsc::channel();
    for i in 0..100u64 {
        let tx = tx.clone();
        pool.spawn(move || tx.send(i * i).unwrap());
    }
    pool.spawn(|| panic!("reported to the panic handler"));
    drop(tx);
    assert_eq!(rx.iter().sum::<u64>(), (0..100u64).map(|i| i * i).sum());

    // scope, scope_fifo, in_place_scope: borrow from the stack.
    let mut parts = vec![0u64; 4];
    pool.scope(|s| {
        for (i, p) in parts.iter_mut().enumerate() {
            s.spawn(move |_| *p = i as u64 * 10);
        }
    });
    assert_eq!(parts, [0, 10, 20, 30]);
    let order = Mutex::new(Vec::new());
    ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .scope_fifo(|s| {
            for i in 0..5 {
                let order = &order;
                s.spawn_fifo(move |_| order.lock().unwrap().push(i));
            }
        });
    assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3, 4]);
    let mut total = 0;
    pool.in_place_scope(|s| {
        s.spawn(|_| total = data.iter().sum::<u64>());
    });
    assert_eq!(total, 5_000_050_000);

    // broadcast and spawn_broadcast: once per worker.
    let indices = pool.broadcast(|ctx| (ctx.index(), ctx.num_threads()));
    assert_eq!(indices, [(0, 3), (1, 3), (2, 3)]);
    let (tx, rx) = mpsc::channel();
    pool.spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());
    let mut seen: Vec<usize> = rx.iter().take(3).collect();
    seen.sort();
    assert_eq!(seen, [0, 1, 2]);

    // yield_now and pending tasks inside a task.
    pool.install(|| {
        assert!(rayon_core::yield_now().is_some());
        assert!(rayon_core::current_thread_has_pending_tasks().is_some());
    });
    assert_eq!(rayon_core::yield_now(), None);

    // The panicking spawn reached the panic handler (it may still be running when the
    // pool is dropped: its thread finishes it first).
    drop(pool);
    while panics.load(Ordering::SeqCst) < 1 {
        std::thread::yield_now();
    }
    assert_eq!(started.load(Ordering::SeqCst), 3);
    println!("rayon-core program: all checks passed on splitsteal");
}
