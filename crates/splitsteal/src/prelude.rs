//! `use splitsteal::prelude::*;` brings the parallel-iterator traits into scope, as
//! `rayon::prelude::*` does.
//!
//! ```
//! use splitsteal::prelude::*;
//!
//! // The README's example.
//! let words = "the cat the hat";
//! let total: usize = words.par_split_whitespace().map(str::len).sum();
//! assert_eq!(total, 12);
//! let mut v: Vec<u64> = (0..1_000_000u64).into_par_iter().map(|x| x * 7 % 1000).collect();
//! v.par_sort_unstable();
//! assert!(v.windows(2).all(|w| w[0] <= w[1]));
//! let evens = v.par_iter().filter(|&&x| x % 2 == 0).count();
//! assert_eq!(evens, 500_000);
//! ```

pub use crate::iter::{
    FromParallelIterator, IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator,
    IntoParallelRefMutIterator, ParallelDrainFull, ParallelDrainRange, ParallelExtend,
    ParallelIterator,
};

pub use crate::iter::slice::{ParallelSlice, ParallelSliceMut};
pub use crate::iter::string::ParallelString;
pub use crate::iter::ParallelBridge;
