//! rayon-core's pre-1.0 configuration API, deprecated there and here: [`Configuration`],
//! [`initialize`] and [`ThreadPool::new`]. Each is a thin wrapper over
//! [`ThreadPoolBuilder`], kept so that rayon-core code written against it compiles by the
//! crate rename alone; new code uses the builder.

#![allow(deprecated)]

use std::any::Any;
use std::error::Error;
use std::fmt;

use crate::pool::{ThreadPool, ThreadPoolBuilder};

/// A thread pool's configuration. Deprecated (as in rayon-core): use [`ThreadPoolBuilder`].
///
/// ```
/// # #![allow(deprecated)]
/// # use splitsteal_core as splitsteal;
/// let pool = splitsteal::ThreadPool::new(splitsteal::Configuration::new().num_threads(3)).unwrap();
/// assert_eq!(pool.current_num_threads(), 3);
/// ```
#[deprecated(note = "Use `ThreadPoolBuilder`")]
#[derive(Default)]
pub struct Configuration {
    builder: ThreadPoolBuilder,
}

impl fmt::Debug for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.builder.fmt(f)
    }
}

impl Configuration {
    /// A configuration with every default ([`ThreadPoolBuilder::new`]).
    pub fn new() -> Configuration {
        Configuration {
            builder: ThreadPoolBuilder::new(),
        }
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::build`].
    pub fn build(self) -> Result<ThreadPool, Box<dyn Error + 'static>> {
        self.builder.build().map_err(Box::from)
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::thread_name`].
    pub fn thread_name<F>(self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.with(|b| b.thread_name(closure))
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::num_threads`].
    pub fn num_threads(self, num_threads: usize) -> Configuration {
        self.with(|b| b.num_threads(num_threads))
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::panic_handler`].
    pub fn panic_handler<H>(self, panic_handler: H) -> Configuration
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.with(|b| b.panic_handler(panic_handler))
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::stack_size`].
    pub fn stack_size(self, stack_size: usize) -> Self {
        self.with(|b| b.stack_size(stack_size))
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::breadth_first`], itself deprecated.
    pub fn breadth_first(self) -> Self {
        self.with(ThreadPoolBuilder::breadth_first)
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::start_handler`].
    pub fn start_handler<H>(self, start_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.with(|b| b.start_handler(start_handler))
    }

    /// Deprecated in favor of [`ThreadPoolBuilder::exit_handler`].
    pub fn exit_handler<H>(self, exit_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.with(|b| b.exit_handler(exit_handler))
    }

    fn with(self, f: impl FnOnce(ThreadPoolBuilder) -> ThreadPoolBuilder) -> Configuration {
        Configuration {
            builder: f(self.builder),
        }
    }

    fn into_builder(self) -> ThreadPoolBuilder {
        self.builder
    }
}

/// Deprecated in favor of [`ThreadPoolBuilder::build_global`]: configures the global pool,
/// once, before its first use.
///
/// ```
/// # #![allow(deprecated)]
/// # use splitsteal_core as splitsteal;
/// splitsteal::initialize(splitsteal::Configuration::new().num_threads(3)).unwrap();
/// assert_eq!(splitsteal::current_num_threads(), 3);
/// // The global pool exists now: a second configuration is refused.
/// assert!(splitsteal::initialize(splitsteal::Configuration::new()).is_err());
/// ```
#[deprecated(note = "use `ThreadPoolBuilder::build_global`")]
pub fn initialize(config: Configuration) -> Result<(), Box<dyn Error>> {
    config.into_builder().build_global().map_err(Box::from)
}
