//! The `Try` trait behind the `try_*` methods: stable Rust has no usable `std::ops::Try`,
//! so this crate carries its own, implemented for exactly the types rayon's is:
//! `Option<T>`, `Result<T, E>` and `ControlFlow<B, C>`.
//!
//! It is public (it appears in the methods' bounds) but sealed: the module is private, so
//! code outside the crate can name it only through those bounds and cannot implement it.

use std::convert::Infallible;
use std::ops::ControlFlow::{self, Break, Continue};

mod sealed {
    pub trait Sealed {}
    impl<T> Sealed for Option<T> {}
    impl<T, E> Sealed for Result<T, E> {}
    impl<B, C> Sealed for std::ops::ControlFlow<B, C> {}
}

/// A value that is either an output (go on) or a residual (stop early): `Some` / `None`,
/// `Ok` / `Err`, `Continue` / `Break`. Sealed: implemented for those three types only.
pub trait Try: sealed::Sealed {
    /// What a successful value carries (`T` of `Some(T)`, `Ok(T)`, `Continue(T)`).
    type Output;
    /// What an early exit carries (`None`, the `Err(E)`, the `Break(B)`), as a value of the
    /// same family that cannot hold an output.
    type Residual;

    /// Wraps a successful value.
    fn from_output(output: Self::Output) -> Self;
    /// Rebuilds an early exit.
    fn from_residual(residual: Self::Residual) -> Self;
    /// Splits into "go on with the output" or "stop with the residual".
    fn branch(self) -> ControlFlow<Self::Residual, Self::Output>;
}

impl<T> Try for Option<T> {
    type Output = T;
    type Residual = Option<Infallible>;

    fn from_output(output: T) -> Self {
        Some(output)
    }

    fn from_residual(_residual: Option<Infallible>) -> Self {
        None
    }

    fn branch(self) -> ControlFlow<Option<Infallible>, T> {
        match self {
            Some(t) => Continue(t),
            None => Break(None),
        }
    }
}

impl<T, E> Try for Result<T, E> {
    type Output = T;
    type Residual = Result<Infallible, E>;

    fn from_output(output: T) -> Self {
        Ok(output)
    }

    fn from_residual(residual: Result<Infallible, E>) -> Self {
        match residual {
            Err(e) => Err(e),
            Ok(never) => match never {},
        }
    }

    fn branch(self) -> ControlFlow<Result<Infallible, E>, T> {
        match self {
            Ok(t) => Continue(t),
            Err(e) => Break(Err(e)),
        }
    }
}

impl<B, C> Try for ControlFlow<B, C> {
    type Output = C;
    type Residual = ControlFlow<B, Infallible>;

    fn from_output(output: C) -> Self {
        Continue(output)
    }

    fn from_residual(residual: ControlFlow<B, Infallible>) -> Self {
        match residual {
            Break(b) => Break(b),
            Continue(never) => match never {},
        }
    }

    fn branch(self) -> ControlFlow<ControlFlow<B, Infallible>, C> {
        match self {
            Continue(c) => Continue(c),
            Break(b) => Break(Break(b)),
        }
    }
}

/// Turns a `branch` result back into the `Try` value it came from.
pub(super) fn unbranch<R: Try>(flow: ControlFlow<R::Residual, R::Output>) -> R {
    match flow {
        Continue(c) => R::from_output(c),
        Break(r) => R::from_residual(r),
    }
}
