//! Data-parallel primitives (issue 4): written once against [`ForkJoin`](crate::ForkJoin).
