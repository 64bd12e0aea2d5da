//! `reduce_with`: `reduce` without an identity. Each piece's first item starts its
//! accumulator, so an empty piece contributes `None`, which the combine skips.

use super::ParallelIterator;

pub(super) fn reduce_with<I, OP>(par_iter: I, op: OP) -> Option<I::Item>
where
    I: ParallelIterator,
    OP: Fn(I::Item, I::Item) -> I::Item + Sync + Send,
{
    par_iter.map(Some).reduce(
        || None,
        |left, right| match (left, right) {
            (Some(left), Some(right)) => Some(op(left, right)),
            (left, None) => left,
            (None, right) => right,
        },
    )
}
