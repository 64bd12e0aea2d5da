//! Test-only [`ForkJoin`] contexts: one that really runs `b` on another thread, one that
//! splits like a parallel context but runs everything on the calling thread.

use crate::ForkJoin;

/// Runs `b` on a freshly spawned scoped thread for the first `depth` levels of recursion,
/// serially below; claims `threads` workers (so the primitives split) and a configurable
/// morsel size. Catches races and unsound splitting before the runtime exists.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Threads {
    pub depth: u32,
    pub threads: usize,
    pub morsel: usize,
}

impl Threads {
    pub fn new() -> Self {
        Threads {
            depth: if cfg!(miri) { 2 } else { 3 },
            threads: 4,
            morsel: crate::fork::DEFAULT_MORSEL_BYTES,
        }
    }
}

impl ForkJoin for Threads {
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        if self.depth == 0 {
            let ra = a(self);
            let rb = b(self);
            return (ra, rb);
        }
        let mut child = Threads {
            depth: self.depth - 1,
            ..*self
        };
        let mut me = child;
        std::thread::scope(|s| {
            let h = s.spawn(move || b(&mut child));
            // If `a` panics, the scope joins `h` before the panic leaves it.
            let ra = a(&mut me);
            match h.join() {
                Ok(rb) => (ra, rb),
                Err(p) => std::panic::resume_unwind(p),
            }
        })
    }

    fn num_threads(&self) -> usize {
        self.threads
    }

    fn morsel_bytes(&self) -> usize {
        self.morsel
    }
}

/// Serial execution that reports several threads, so the primitives take their parallel
/// code paths deterministically.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SplitSerial {
    pub morsel: usize,
}

impl ForkJoin for SplitSerial {
    fn join<A, B, RA, RB>(&mut self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce(&mut Self) -> RA + Send,
        B: FnOnce(&mut Self) -> RB + Send,
        RA: Send,
        RB: Send,
    {
        let ra = a(self);
        let rb = b(self);
        (ra, rb)
    }

    fn num_threads(&self) -> usize {
        8
    }

    fn morsel_bytes(&self) -> usize {
        self.morsel
    }
}

/// A deterministic xorshift generator for test data.
pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn vec(&mut self, n: usize, modulo: u64) -> Vec<u64> {
        (0..n).map(|_| self.next() % modulo.max(1)).collect()
    }
}

/// Test sizes: small ones always, larger ones outside Miri.
pub(crate) fn sizes() -> Vec<usize> {
    if cfg!(miri) {
        vec![0, 1, 2, 7, 17, 33, 100]
    } else {
        vec![0, 1, 2, 7, 15, 16, 17, 31, 33, 127, 1000, 4099, 40_000]
    }
}

/// The payload of the panics the tests cause on purpose.
const PLANNED: &str = "planned panic";

/// Panics with the [`PLANNED`] payload, whose message is not printed; any other panic is
/// reported as usual. Printing is what a panic costs under Miri: the default hook took
/// about 1 s per panic there (10 panics: 9.2 s, 0.16 s without the hook), and the panic
/// tests panic hundreds of times.
pub(crate) fn planned_panic() -> ! {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<&str>() != Some(&PLANNED) {
                default(info);
            }
        }));
    });
    std::panic::panic_any(PLANNED)
}
