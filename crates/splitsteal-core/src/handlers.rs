//! The user's callbacks on a pool's worker threads, set on the builder
//! ([`start_handler`](crate::ThreadPoolBuilder::start_handler),
//! [`exit_handler`](crate::ThreadPoolBuilder::exit_handler),
//! [`panic_handler`](crate::ThreadPoolBuilder::panic_handler)) and held by the registry.
//!
//! A panic that has nowhere to go (in a start or exit handler, in a fire-and-forget task)
//! is handed to the panic handler; with none set, or if the panic handler panics itself,
//! the process aborts with a message on stderr: a panic is never silently lost.

use std::any::Any;
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

/// A start or exit handler: called with the worker's index, on the worker's thread.
pub(crate) type WorkerHandler = dyn Fn(usize) + Send + Sync;
/// A panic handler: called with the payload of a panic that has nowhere to go.
pub(crate) type PanicHandler = dyn Fn(Box<dyn Any + Send>) + Send + Sync;

/// A pool's callbacks (shared by clones of its builder; the registry keeps its own copy
/// and runs them: `Registry::worker_start_handler` and its siblings).
#[derive(Clone, Default)]
pub(crate) struct Handlers {
    pub(crate) start: Option<Arc<WorkerHandler>>,
    pub(crate) exit: Option<Arc<WorkerHandler>>,
    pub(crate) panic: Option<Arc<PanicHandler>>,
}

impl fmt::Debug for Handlers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Handlers")
            .field("start_handler", &self.start.as_ref().map(|_| Closure))
            .field("exit_handler", &self.exit.as_ref().map(|_| Closure))
            .field("panic_handler", &self.panic.as_ref().map(|_| Closure))
            .finish()
    }
}

/// Stands for a closure in `Debug` output (`Some(<closure>)`).
pub(crate) struct Closure;

impl fmt::Debug for Closure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<closure>")
    }
}

impl Handlers {
    /// Hands a panic that has nowhere to go to the panic handler; aborts the process if
    /// there is none or if it panics itself.
    pub(crate) fn handle_panic(&self, payload: Box<dyn Any + Send>) {
        let Some(handler) = &self.panic else {
            abort_with(format_args!(
                "a panic with nowhere to propagate ({}) and no panic_handler set",
                describe(&*payload)
            ));
        };
        if let Err(second) = panic::catch_unwind(AssertUnwindSafe(|| handler(payload))) {
            abort_with(format_args!(
                "the panic_handler panicked ({})",
                describe(&*second)
            ));
        }
    }
}

/// A panic payload's message, when it has one (`panic!` makes a `&str` or a `String`).
fn describe(payload: &(dyn Any + Send)) -> &str {
    if let Some(s) = payload.downcast_ref::<&'static str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s
    } else {
        "a payload that is not a string"
    }
}

/// Says why on stderr and aborts (nothing is unwound or dropped: a payload's destructor
/// could panic again).
fn abort_with(why: fmt::Arguments<'_>) -> ! {
    eprintln!("splitsteal: {why}; aborting the process");
    std::process::abort()
}
