//! `walk_tree`, `walk_tree_prefix`, `walk_tree_postfix`: parallel iterators over the nodes
//! of a tree given by its root and a function listing a node's children.
//!
//! Each is an unindexed producer holding a list of subtrees still to walk and a list of
//! nodes already expanded (whose children were listed) but not yet yielded. Splitting
//! expands the front while only one subtree is left, then gives half of the subtrees to a
//! new piece; if no subtree is left, it halves the expanded nodes instead. The pieces are
//! cut so that every item of the left piece comes before every item of the right one in
//! the walk's order, which is why `collect` (whose reducer joins left before right) gives
//! exactly the sequential prefix or postfix order.

use std::fmt;

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;

/// Splits off the second half of `v` (None if `v` has fewer than two items).
fn second_half<T>(v: &mut Vec<T>) -> Option<Vec<T>> {
    if v.len() < 2 {
        None
    } else {
        Some(v.split_off(v.len() / 2))
    }
}

// ---- prefix ----

/// A piece of a prefix walk. Its items, in order: `expanded` front to back, then each
/// subtree of `pending` in prefix order, from the *last* entry of `pending` to the first
/// (so the next subtree pops).
struct PrefixPiece<'b, S, B> {
    expanded: Vec<S>,
    pending: Vec<S>,
    children_of: &'b B,
}

impl<S, B, I> PrefixPiece<'_, S, B>
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    /// Replaces the next subtree by its children (the first one on top) and returns its
    /// root, which comes before all of them.
    fn expand_next(&mut self) -> Option<S> {
        let node = self.pending.pop()?;
        self.pending
            .extend((self.children_of)(&node).into_iter().rev());
        Some(node)
    }
}

impl<S, B, I> UnindexedProducer for PrefixPiece<'_, S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    type Item = S;

    fn split(mut self) -> (Self, Option<Self>) {
        // A single subtree cannot be shared: expand it until there are several, or none.
        while self.pending.len() == 1 {
            let node = self.expand_next().expect("one subtree is pending");
            self.expanded.push(node);
        }
        let children_of = self.children_of;
        let right = if self.pending.len() >= 2 {
            // The later subtrees are the front of `pending`: they go right, after all of
            // this piece's items.
            let first = self.pending.split_off(self.pending.len() / 2);
            let later = std::mem::replace(&mut self.pending, first);
            Some(PrefixPiece {
                expanded: Vec::new(),
                pending: later,
                children_of,
            })
        } else {
            // Only expanded nodes are left: the second half of them goes right.
            second_half(&mut self.expanded).map(|later| PrefixPiece {
                expanded: later,
                pending: Vec::new(),
                children_of,
            })
        };
        (self, right)
    }

    fn fold_with<F>(mut self, folder: F) -> F
    where
        F: Folder<S>,
    {
        let mut folder = folder.consume_iter(std::mem::take(&mut self.expanded));
        while !folder.full() {
            match self.expand_next() {
                Some(node) => folder = folder.consume(node),
                None => break,
            }
        }
        folder
    }
}

/// The iterator of [`walk_tree_prefix()`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct WalkTreePrefix<S, B> {
    root: S,
    children_of: B,
}

/// Shows the root only (the children function has no `Debug`).
impl<S: fmt::Debug, B> fmt::Debug for WalkTreePrefix<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WalkTreePrefix")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl<S, B, I> ParallelIterator for WalkTreePrefix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    type Item = S;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<S>,
    {
        bridge_unindexed(
            PrefixPiece {
                expanded: Vec::new(),
                pending: vec![self.root],
                children_of: &self.children_of,
            },
            consumer,
        )
    }
}

/// A parallel iterator over the nodes of the tree under `root`, where `children_of(node)`
/// lists a node's children in order. The best balance comes from a balanced tree, but
/// any shape works (a long chain is walked mostly sequentially).
///
/// # Ordering
///
/// Prefix order: a node comes before its children, and a child's whole subtree before
/// the next child. Order-keeping consumers (`collect`, `find_first`, a non-commutative
/// `reduce`) see exactly this order; [`walk_tree_postfix`] gives postfix order and
/// [`walk_tree`] whichever is fastest. The tree
///
/// ```text
///      a
///     / \
///    b   c
///   / \ / \
///  d  e f  g
/// ```
///
/// is walked as `a, b, d, e, c, f, g`.
///
/// ```
/// use splitsteal::iter::walk_tree_prefix;
/// use splitsteal::prelude::*;
///
/// // The tree above, with a = 1 and the children of n being 2n and 2n + 1.
/// let order: Vec<char> = walk_tree_prefix(1u32, |&n| if n < 4 { vec![2 * n, 2 * n + 1] } else { vec![] })
///     .map(|n| (b'a' + n as u8 - 1) as char)
///     .collect();
/// assert_eq!(order, ['a', 'b', 'd', 'e', 'c', 'f', 'g']);
/// ```
pub fn walk_tree_prefix<S, B, I>(root: S, children_of: B) -> WalkTreePrefix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    WalkTreePrefix { root, children_of }
}

// ---- postfix ----

/// A piece of a postfix walk. Its items, in order: each subtree of `pending` in postfix
/// order, first entry first, then `expanded` from back to front (deeper nodes were pushed
/// later and come before their ancestors).
struct PostfixPiece<'b, S, B> {
    pending: Vec<S>,
    expanded: Vec<S>,
    children_of: &'b B,
}

impl<S, B, I> UnindexedProducer for PostfixPiece<'_, S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    type Item = S;

    fn split(mut self) -> (Self, Option<Self>) {
        // A single subtree cannot be shared: expand it until there are several, or none.
        while self.pending.len() == 1 {
            let node = self.pending.pop().expect("one subtree is pending");
            self.pending.extend((self.children_of)(&node));
            self.expanded.push(node);
        }
        let children_of = self.children_of;
        let right = if self.pending.len() >= 2 {
            // The later subtrees go right, and the expanded ancestors with them: they come
            // after every subtree.
            let later = self.pending.split_off(self.pending.len() / 2);
            Some(PostfixPiece {
                pending: later,
                expanded: std::mem::take(&mut self.expanded),
                children_of,
            })
        } else {
            // Only expanded nodes are left; they come out back to front, so the later half
            // is the front of the vector.
            second_half(&mut self.expanded).map(|first| PostfixPiece {
                pending: Vec::new(),
                expanded: std::mem::replace(&mut self.expanded, first),
                children_of,
            })
        };
        (self, right)
    }

    fn fold_with<F>(self, mut folder: F) -> F
    where
        F: Folder<S>,
    {
        for root in self.pending {
            folder = fold_postfix(self.children_of, root, folder);
            if folder.full() {
                return folder;
            }
        }
        folder.consume_iter(self.expanded.into_iter().rev())
    }
}

/// Folds the subtree under `root` in postfix order, with an explicit stack (a deep tree
/// does not grow the call stack).
fn fold_postfix<S, B, I, F>(children_of: &B, root: S, mut folder: F) -> F
where
    B: Fn(&S) -> I,
    I: IntoIterator<Item = S>,
    F: Folder<S>,
{
    // Each entry is a node whose children are being walked, and the children not yet
    // walked.
    let children = children_of(&root).into_iter();
    let mut stack = vec![(root, children)];
    while let Some((_, children)) = stack.last_mut() {
        match children.next() {
            Some(child) => {
                let grandchildren = children_of(&child).into_iter();
                stack.push((child, grandchildren));
            }
            None => {
                let (node, _) = stack.pop().expect("the stack is not empty");
                folder = folder.consume(node);
                if folder.full() {
                    break;
                }
            }
        }
    }
    folder
}

/// The iterator of [`walk_tree_postfix()`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct WalkTreePostfix<S, B> {
    root: S,
    children_of: B,
}

/// Shows the root only (the children function has no `Debug`).
impl<S: fmt::Debug, B> fmt::Debug for WalkTreePostfix<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WalkTreePostfix")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl<S, B, I> ParallelIterator for WalkTreePostfix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    type Item = S;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<S>,
    {
        bridge_unindexed(
            PostfixPiece {
                pending: vec![self.root],
                expanded: Vec::new(),
                children_of: &self.children_of,
            },
            consumer,
        )
    }
}

/// A parallel iterator over the nodes of the tree under `root`, where `children_of(node)`
/// lists a node's children in order (as [`walk_tree_prefix`]).
///
/// # Ordering
///
/// Postfix order: a node comes after its children, and a child's whole subtree before
/// the next child. Order-keeping consumers (`collect`, `find_first`, a non-commutative
/// `reduce`) see exactly this order. The tree
///
/// ```text
///      a
///     / \
///    b   c
///   / \ / \
///  d  e f  g
/// ```
///
/// is walked as `d, e, b, f, g, c, a`.
///
/// ```
/// use splitsteal::iter::walk_tree_postfix;
/// use splitsteal::prelude::*;
///
/// // The tree above, with a = 1 and the children of n being 2n and 2n + 1.
/// let order: Vec<char> = walk_tree_postfix(1u32, |&n| if n < 4 { vec![2 * n, 2 * n + 1] } else { vec![] })
///     .map(|n| (b'a' + n as u8 - 1) as char)
///     .collect();
/// assert_eq!(order, ['d', 'e', 'b', 'f', 'g', 'c', 'a']);
/// ```
pub fn walk_tree_postfix<S, B, I>(root: S, children_of: B) -> WalkTreePostfix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    WalkTreePostfix { root, children_of }
}

// ---- any order ----

/// The iterator of [`walk_tree()`].
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Clone)]
pub struct WalkTree<S, B>(WalkTreePrefix<S, B>);

/// Shows the root only (the children function has no `Debug`).
impl<S: fmt::Debug, B> fmt::Debug for WalkTree<S, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WalkTree")
            .field("root", &self.0.root)
            .finish_non_exhaustive()
    }
}

impl<S, B, I> ParallelIterator for WalkTree<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator> + Send,
{
    type Item = S;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<S>,
    {
        self.0.drive_unindexed(consumer)
    }
}

/// A parallel iterator over the nodes of the tree under `root`, where `children_of(node)`
/// lists a node's children, in no promised order: each node is yielded exactly once, in
/// whichever order is fastest (today the prefix walk's; use [`walk_tree_prefix`] or
/// [`walk_tree_postfix`] when the order matters).
///
/// ```
/// use splitsteal::iter::walk_tree;
/// use splitsteal::prelude::*;
///
/// // Each node n < 1000 has children 2n + 1 and 2n + 2: the nodes are 0..1000 once each.
/// let mut nodes: Vec<u32> = walk_tree(0u32, |&n| [2 * n + 1, 2 * n + 2].into_iter().filter(|&c| c < 1000))
///     .collect();
/// nodes.sort();
/// assert_eq!(nodes, (0..1000).collect::<Vec<_>>());
/// ```
pub fn walk_tree<S, B, I>(root: S, children_of: B) -> WalkTree<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S, IntoIter: DoubleEndedIterator>,
{
    WalkTree(WalkTreePrefix { root, children_of })
}
