//! rayon 1.12's public API, re-exported item by item from [splitsteal], so that one
//! `[patch.crates-io]` entry runs a whole dependency tree's rayon on splitsteal (see
//! `compat/README.md` in the splitsteal repository).
//!
//! Every item is splitsteal's own (`rayon::iter::ParallelIterator` *is*
//! `splitsteal::iter::ParallelIterator`), so crates that use rayon and crates that use
//! splitsteal share traits, types and the global pool. The lists below are rayon's, module
//! by module: an item rayon has and splitsteal lacked would be a compile error here, and
//! `tests/api.rs` names every public path of rayon 1.12.0.
//!
//! ```
//! use rayon::prelude::*;
//!
//! let v: Vec<u64> = (1..=1000).collect();
//! assert_eq!(v.par_iter().map(|x| x * x).sum::<u64>(), v.iter().map(|x| x * x).sum());
//! let (a, b) = rayon::join(|| 1, || 2);
//! assert_eq!(a + b, 3);
//! ```
#![warn(missing_docs)]

// The runtime: rayon's crate root re-exports these from rayon-core.
pub use rayon_core::{broadcast, spawn_broadcast, BroadcastContext};
pub use rayon_core::{current_num_threads, current_thread_index, max_num_threads};
pub use rayon_core::{in_place_scope, scope, Scope};
pub use rayon_core::{in_place_scope_fifo, scope_fifo, ScopeFifo};
pub use rayon_core::{join, join_context, FnContext};
pub use rayon_core::{spawn, spawn_fifo};
pub use rayon_core::{yield_local, yield_now, Yield};
pub use rayon_core::{ThreadBuilder, ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

/// The traits to import for parallel iterators: `use rayon::prelude::*;`.
pub mod prelude {
    pub use splitsteal::iter::{
        FromParallelIterator, IndexedParallelIterator, IntoParallelIterator,
        IntoParallelRefIterator, IntoParallelRefMutIterator, ParallelBridge, ParallelDrainFull,
        ParallelDrainRange, ParallelExtend, ParallelIterator,
    };
    pub use splitsteal::slice::{ParallelSlice, ParallelSliceMut};
    pub use splitsteal::str::ParallelString;
}

/// Parallel iterators: the traits, the adaptors' types and the free sources.
pub mod iter {
    pub use splitsteal::iter::{
        empty, once, repeat, repeat_n, repeatn, split, walk_tree, walk_tree_postfix,
        walk_tree_prefix,
    };
    pub use splitsteal::iter::{
        Chain, Chunks, Cloned, Copied, Either, Empty, Enumerate, ExponentialBlocks, Filter,
        FilterMap, FlatMap, FlatMapIter, Flatten, FlattenIter, Fold, FoldChunks, FoldChunksWith,
        FoldWith, Inspect, Interleave, InterleaveShortest, Intersperse, IterBridge, Map, MapInit,
        MapWith, MaxLen, MinLen, MultiZip, Once, PanicFuse, Positions, Repeat, RepeatN, Rev, Skip,
        SkipAny, SkipAnyWhile, Split, StepBy, Take, TakeAny, TakeAnyWhile, TryFold, TryFoldWith,
        UniformBlocks, Update, WalkTree, WalkTreePostfix, WalkTreePrefix, WhileSome, Zip, ZipEq,
    };
    pub use splitsteal::iter::{
        FromParallelIterator, IndexedParallelIterator, IntoParallelIterator,
        IntoParallelRefIterator, IntoParallelRefMutIterator, ParallelBridge, ParallelDrainFull,
        ParallelDrainRange, ParallelExtend, ParallelIterator,
    };

    /// The traits and functions for writing parallel iterators of one's own.
    pub mod plumbing {
        pub use splitsteal::iter::plumbing::{bridge, bridge_producer_consumer, bridge_unindexed};
        pub use splitsteal::iter::plumbing::{
            Consumer, Folder, Producer, ProducerCallback, Reducer, UnindexedConsumer,
            UnindexedProducer,
        };
    }
}

/// The parallel iterator of an array by value.
pub mod array {
    pub use splitsteal::array::IntoIter;
}

/// The parallel iterators of the standard collections.
pub mod collections {
    /// `BinaryHeap`'s parallel iterators.
    pub mod binary_heap {
        pub use splitsteal::collections::binary_heap::{Drain, IntoIter, Iter};
    }
    /// `BTreeMap`'s parallel iterators.
    pub mod btree_map {
        pub use splitsteal::collections::btree_map::{IntoIter, Iter, IterMut};
    }
    /// `BTreeSet`'s parallel iterators.
    pub mod btree_set {
        pub use splitsteal::collections::btree_set::{IntoIter, Iter};
    }
    /// `HashMap`'s parallel iterators.
    pub mod hash_map {
        pub use splitsteal::collections::hash_map::{Drain, IntoIter, Iter, IterMut};
    }
    /// `HashSet`'s parallel iterators.
    pub mod hash_set {
        pub use splitsteal::collections::hash_set::{Drain, IntoIter, Iter};
    }
    /// `LinkedList`'s parallel iterators.
    pub mod linked_list {
        pub use splitsteal::collections::linked_list::{IntoIter, Iter, IterMut};
    }
    /// `VecDeque`'s parallel iterators.
    pub mod vec_deque {
        pub use splitsteal::collections::vec_deque::{Drain, IntoIter, Iter, IterMut};
    }
}

/// `Option`'s parallel iterators.
pub mod option {
    pub use splitsteal::option::{IntoIter, Iter, IterMut};
}

/// `Result`'s parallel iterators.
pub mod result {
    pub use splitsteal::result::{IntoIter, Iter, IterMut};
}

/// The parallel iterator of a `Range`.
pub mod range {
    pub use splitsteal::range::Iter;
}

/// The parallel iterator of a `RangeInclusive`.
pub mod range_inclusive {
    pub use splitsteal::range_inclusive::Iter;
}

/// Slices' parallel iterators and sorts.
pub mod slice {
    pub use splitsteal::slice::{
        ArrayWindows, ChunkBy, ChunkByMut, Chunks, ChunksExact, ChunksExactMut, ChunksMut, Iter,
        IterMut, RChunks, RChunksExact, RChunksExactMut, RChunksMut, Split, SplitInclusive,
        SplitInclusiveMut, SplitMut, Windows,
    };
    pub use splitsteal::slice::{ParallelSlice, ParallelSliceMut};
}

/// Strings' parallel iterators.
pub mod str {
    pub use splitsteal::str::ParallelString;
    pub use splitsteal::str::{
        Bytes, CharIndices, Chars, EncodeUtf16, Lines, MatchIndices, Matches, Split,
        SplitAsciiWhitespace, SplitInclusive, SplitTerminator, SplitWhitespace,
    };
}

/// `String`'s draining parallel iterator.
pub mod string {
    pub use splitsteal::string::Drain;
}

/// `Vec`'s parallel iterators by value and draining.
pub mod vec {
    pub use splitsteal::vec::{Drain, IntoIter};
}
