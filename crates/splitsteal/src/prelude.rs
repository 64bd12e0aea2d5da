//! `use splitsteal::prelude::*;` brings the parallel-iterator traits into scope, as
//! `rayon::prelude::*` does.
//!
//! ```
//! use splitsteal::prelude::*;
//!
//! let total: u64 = (0..1000u64).into_par_iter().map(|x| x * 2).sum();
//! assert_eq!(total, 999_000);
//! ```

pub use crate::iter::{
    FromParallelIterator, IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator,
    IntoParallelRefMutIterator, ParallelExtend, ParallelIterator,
};

// ---- helper A: ParallelSlice, ParallelSliceMut, ParallelString, ParallelBridge ----
pub use crate::iter::slice::{ParallelSlice, ParallelSliceMut};
pub use crate::iter::string::ParallelString;
pub use crate::iter::ParallelBridge;

