//! Parallel iterators over a `str`: the [`ParallelString`] trait (in the prelude) with
//! rayon's methods and types (`par_chars`, `par_split`, `par_lines`, ...).
//!
//! A string is split only at char boundaries (never inside a multi-byte UTF-8 sequence),
//! near the middle of each piece. The splitting iterators (`par_split`, `par_lines`,
//! `par_split_whitespace`, ...) go further: from the middle they look for the nearest
//! separator (forward first, then backward) and cut there, so no piece ever holds part of
//! a word or line; a piece with no separator in it is not split. Every iterator yields
//! exactly the items of its std counterpart, in the same order (`collect` keeps it).
//!
//! Patterns ([`Pattern`]) are rayon's: a `char`, a slice or array of `char`s, or a
//! closure `Fn(char) -> bool`.

use std::iter::Copied;

use super::plumbing::{
    bridge, bridge_unindexed, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer,
    UnindexedProducer,
};
use super::words::Whitespace;
use super::{IndexedParallelIterator, ParallelIterator};

/// What `par_split` and friends accept as a separator: a `char`, a `&[char]`, a
/// `[char; N]` or `&[char; N]` (any of those chars), or a closure `Fn(char) -> bool`, as in
/// rayon. Sealed: implemented only for those.
///
/// ```
/// use splitsteal::prelude::*;
///
/// let s = "a,b;c";
/// let by_char: Vec<&str> = s.par_split(',').collect();
/// let by_set: Vec<&str> = s.par_split(&[',', ';'][..]).collect();
/// let by_fn: Vec<&str> = s.par_split(|c: char| !c.is_alphabetic()).collect();
/// assert_eq!(by_char, ["a", "b;c"]);
/// assert_eq!(by_set, ["a", "b", "c"]);
/// assert_eq!(by_fn, ["a", "b", "c"]);
/// ```
pub trait Pattern: private::Sealed {}

pub(super) mod private {
    use super::super::plumbing::Folder;

    /// The searches a [`Pattern`](super::Pattern) supports: it matches single chars.
    pub trait Sealed: Sync + Send {
        /// The byte index of the first matching char of `s`.
        fn find_in(&self, s: &str) -> Option<usize>;
        /// The byte index of the last matching char of `s`.
        fn rfind_in(&self, s: &str) -> Option<usize>;
        /// Folds the segments of the piece `s` the `kind` way into `folder`, with std's
        /// own splitting iterator over the piece (one searcher for the whole piece, not
        /// one search per segment). `tail`: whether `s` ends where the whole string does.
        fn fold_piece<'ch, F: Folder<&'ch str>>(
            &self,
            s: &'ch str,
            kind: Kind,
            tail: bool,
            folder: F,
        ) -> F;
    }

    /// Which std splitting method a split piece reproduces.
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub enum Kind {
        /// `split`: every segment, empty ones included.
        Split,
        /// `split_terminator`: as `Split`, without an empty segment at the very end.
        Terminator,
        /// `split_inclusive`: each segment keeps its separator; no empty last segment.
        Inclusive,
        /// `lines`: `Inclusive` on `'\n'`, then the `\n` or `\r\n` is stripped.
        Lines,
        /// `split_whitespace`-like: `Split`, without the empty segments.
        NonEmpty,
    }
}

use private::Kind;

/// The body of [`Sealed::fold_piece`](private::Sealed::fold_piece) for a pattern that std's
/// `str` methods take as `$pat` (an expression evaluated once per use).
///
/// A piece always ends at a separator (or at the string's end), so std's iterator over
/// the piece yields exactly the piece's share of the whole string's segments; only
/// `split_terminator` needs to know whether the piece is the string's last (`tail`): an
/// empty final segment is dropped there only.
macro_rules! fold_piece_with_std {
    ($s:ident, $kind:ident, $tail:ident, $folder:ident, $pat:expr) => {
        match $kind {
            Kind::Split => $folder.consume_iter($s.split($pat)),
            Kind::Terminator if $tail => $folder.consume_iter($s.split_terminator($pat)),
            Kind::Terminator => $folder.consume_iter($s.split($pat)),
            Kind::Inclusive => $folder.consume_iter($s.split_inclusive($pat)),
            Kind::Lines => $folder.consume_iter($s.split_inclusive($pat).map(strip_line_ending)),
            Kind::NonEmpty => $folder.consume_iter($s.split($pat).filter(|seg| !seg.is_empty())),
        }
    };
}

/// Makes `$ty` a [`Pattern`] by handing std's `str` methods `$pat`, an expression of the
/// pattern `$this` (one place for the three methods of every pattern type).
macro_rules! std_pattern {
    ([$($gen:tt)*] $ty:ty, |$this:ident| $pat:expr) => {
        impl<$($gen)*> Pattern for $ty {}
        impl<$($gen)*> private::Sealed for $ty {
            fn find_in(&self, s: &str) -> Option<usize> {
                let $this = self;
                s.find($pat)
            }
            fn rfind_in(&self, s: &str) -> Option<usize> {
                let $this = self;
                s.rfind($pat)
            }
            fn fold_piece<'ch, F: Folder<&'ch str>>(
                &self,
                s: &'ch str,
                kind: Kind,
                tail: bool,
                folder: F,
            ) -> F {
                let $this = self;
                fold_piece_with_std!(s, kind, tail, folder, $pat)
            }
        }
    };
}

std_pattern!([] char, |c| *c);
std_pattern!([] & [char], |c| *c);
std_pattern!([const N: usize] [char; N], |c| &c[..]);
std_pattern!([const N: usize] &[char; N], |c| &c[..]);
std_pattern!([FN: Sync + Send + Fn(char) -> bool] FN, |f| |c: char| f(c));

/// Parallel methods on strings, as rayon's `ParallelString` (in the prelude).
pub trait ParallelString {
    /// The string the other methods work on.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let s = String::from("hi");
    /// assert_eq!(s.as_parallel_string(), "hi");
    /// ```
    fn as_parallel_string(&self) -> &str;

    /// The chars of the string, in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let upper: Vec<char> = "häj".par_chars().map(|c| c.to_ascii_uppercase()).collect();
    /// assert_eq!(upper, ['H', 'ä', 'J']);
    /// ```
    fn par_chars(&self) -> Chars<'_> {
        Chars {
            chars: self.as_parallel_string(),
        }
    }

    /// The chars of the string with their byte positions, in order.
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<(usize, char)> = "aé!".par_char_indices().collect();
    /// assert_eq!(v, [(0, 'a'), (1, 'é'), (3, '!')]);
    /// ```
    fn par_char_indices(&self) -> CharIndices<'_> {
        CharIndices {
            chars: self.as_parallel_string(),
        }
    }

    /// The bytes of the string, in order (an indexed iterator).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let total: u32 = "abc".par_bytes().map(u32::from).sum();
    /// assert_eq!(total, 97 + 98 + 99);
    /// ```
    fn par_bytes(&self) -> Bytes<'_> {
        Bytes {
            bytes: self.as_parallel_string().as_bytes(),
        }
    }

    /// The string as UTF-16 code units, in order (as std's `encode_utf16`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let units: Vec<u16> = "a😀".par_encode_utf16().collect();
    /// assert_eq!(units, "a😀".encode_utf16().collect::<Vec<_>>());
    /// ```
    fn par_encode_utf16(&self) -> EncodeUtf16<'_> {
        EncodeUtf16 {
            chars: self.as_parallel_string(),
        }
    }

    /// The substrings between separators (as std's `split`, empty ones included).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let parts: Vec<&str> = "a,,b,".par_split(',').collect();
    /// assert_eq!(parts, ["a", "", "b", ""]);
    /// ```
    fn par_split<P: Pattern>(&self, separator: P) -> Split<'_, P> {
        Split {
            chars: self.as_parallel_string(),
            separator,
        }
    }

    /// The substrings each ending with its separator (as std's `split_inclusive`; no
    /// empty last item).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let parts: Vec<&str> = "a\nb\nc".par_split_inclusive('\n').collect();
    /// assert_eq!(parts, ["a\n", "b\n", "c"]);
    /// ```
    fn par_split_inclusive<P: Pattern>(&self, separator: P) -> SplitInclusive<'_, P> {
        SplitInclusive {
            chars: self.as_parallel_string(),
            separator,
        }
    }

    /// The substrings between terminators (as std's `split_terminator`: like `par_split`,
    /// without the empty item after a final terminator).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let parts: Vec<&str> = "a;b;;".par_split_terminator(';').collect();
    /// assert_eq!(parts, ["a", "b", ""]);
    /// ```
    fn par_split_terminator<P: Pattern>(&self, terminator: P) -> SplitTerminator<'_, P> {
        SplitTerminator {
            chars: self.as_parallel_string(),
            terminator,
        }
    }

    /// The lines of the string, without their `\n` or `\r\n` endings (as std's `lines`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let lens: Vec<usize> = "one\r\ntwo\n\nfour\n".par_lines().map(str::len).collect();
    /// assert_eq!(lens, [3, 3, 0, 4]);
    /// ```
    fn par_lines(&self) -> Lines<'_> {
        Lines(self.as_parallel_string())
    }

    /// The non-empty substrings between Unicode whitespace (as std's `split_whitespace`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let words: Vec<&str> = "  the\u{3000}quick\t brown ".par_split_whitespace().collect();
    /// assert_eq!(words, ["the", "quick", "brown"]);
    /// ```
    fn par_split_whitespace(&self) -> SplitWhitespace<'_> {
        SplitWhitespace(self.as_parallel_string())
    }

    /// The non-empty substrings between ASCII whitespace (as std's
    /// `split_ascii_whitespace`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let words: Vec<&str> = " a\u{3000}b  c ".par_split_ascii_whitespace().collect();
    /// assert_eq!(words, ["a\u{3000}b", "c"]);
    /// ```
    fn par_split_ascii_whitespace(&self) -> SplitAsciiWhitespace<'_> {
        SplitAsciiWhitespace(self.as_parallel_string())
    }

    /// The matches of `pattern` (single chars), in order (as std's `matches`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let digits: Vec<&str> = "a1b22c".par_matches(|c: char| c.is_ascii_digit()).collect();
    /// assert_eq!(digits, ["1", "2", "2"]);
    /// ```
    fn par_matches<P: Pattern>(&self, pattern: P) -> Matches<'_, P> {
        Matches {
            chars: self.as_parallel_string(),
            pattern,
        }
    }

    /// The matches of `pattern` with their byte positions, in order (as std's
    /// `match_indices`).
    ///
    /// ```
    /// use splitsteal::prelude::*;
    ///
    /// let v: Vec<(usize, &str)> = "aéa".par_match_indices('a').collect();
    /// assert_eq!(v, [(0, "a"), (3, "a")]);
    /// ```
    fn par_match_indices<P: Pattern>(&self, pattern: P) -> MatchIndices<'_, P> {
        MatchIndices {
            chars: self.as_parallel_string(),
            pattern,
        }
    }
}

impl ParallelString for str {
    #[inline]
    fn as_parallel_string(&self) -> &str {
        self
    }
}

// ---- splitting at char boundaries ----

/// A char boundary near the middle of `s` strictly inside it, if there is one: the first
/// at or after the middle, else the last before it.
fn char_midpoint(s: &str) -> Option<usize> {
    let mid = s.len() / 2;
    let forward = (mid..s.len()).find(|&i| s.is_char_boundary(i));
    let at = forward.or_else(|| (1..mid).rev().find(|&i| s.is_char_boundary(i)));
    at.filter(|&i| i > 0)
}

/// The byte length of the char starting at `s[i..]`.
fn char_len_at(s: &str, i: usize) -> usize {
    s[i..].chars().next().map_or(0, char::len_utf8)
}

/// The pieces of the char-by-char iterators: a substring and where it starts in the
/// whole string.
#[derive(Clone, Copy)]
struct CharsProducer<'ch> {
    chars: &'ch str,
    offset: usize,
}

impl<'ch> CharsProducer<'ch> {
    fn split(self) -> (Self, Option<Self>) {
        match char_midpoint(self.chars) {
            Some(mid) => {
                let (left, right) = self.chars.split_at(mid);
                (
                    CharsProducer {
                        chars: left,
                        offset: self.offset,
                    },
                    Some(CharsProducer {
                        chars: right,
                        offset: self.offset + mid,
                    }),
                )
            }
            None => (self, None),
        }
    }
}

/// Makes a `CharsProducer` fold its piece with `$fold` (an expression from the piece to a
/// sequential iterator), as the unindexed producer `$name` with items `$item`.
macro_rules! chars_producer {
    ($name:ident, $item:ty, |$p:ident| $fold:expr) => {
        struct $name<'ch>(CharsProducer<'ch>);

        impl<'ch> UnindexedProducer for $name<'ch> {
            type Item = $item;

            fn split(self) -> (Self, Option<Self>) {
                let (left, right) = self.0.split();
                ($name(left), right.map($name))
            }

            fn fold_with<F>(self, folder: F) -> F
            where
                F: Folder<Self::Item>,
            {
                let $p = self.0;
                folder.consume_iter($fold)
            }
        }
    };
}

chars_producer!(CharsPieces, char, |p| p.chars.chars());
chars_producer!(CharIndicesPieces, (usize, char), |p| p
    .chars
    .char_indices()
    .map(move |(i, c)| (p.offset + i, c)));
chars_producer!(EncodeUtf16Pieces, u16, |p| p.chars.encode_utf16());

/// The iterator of [`par_chars`](ParallelString::par_chars).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Chars<'ch> {
    chars: &'ch str,
}

impl<'ch> ParallelIterator for Chars<'ch> {
    type Item = char;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<char>,
    {
        let whole = CharsProducer {
            chars: self.chars,
            offset: 0,
        };
        bridge_unindexed(CharsPieces(whole), consumer)
    }
}

/// The iterator of [`par_char_indices`](ParallelString::par_char_indices).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct CharIndices<'ch> {
    chars: &'ch str,
}

impl<'ch> ParallelIterator for CharIndices<'ch> {
    type Item = (usize, char);

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<(usize, char)>,
    {
        let whole = CharsProducer {
            chars: self.chars,
            offset: 0,
        };
        bridge_unindexed(CharIndicesPieces(whole), consumer)
    }
}

/// The iterator of [`par_encode_utf16`](ParallelString::par_encode_utf16).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct EncodeUtf16<'ch> {
    chars: &'ch str,
}

impl<'ch> ParallelIterator for EncodeUtf16<'ch> {
    type Item = u16;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<u16>,
    {
        let whole = CharsProducer {
            chars: self.chars,
            offset: 0,
        };
        bridge_unindexed(EncodeUtf16Pieces(whole), consumer)
    }
}

/// The iterator of [`par_bytes`](ParallelString::par_bytes). Unlike rayon's it is indexed
/// (bytes can be cut anywhere), so `zip`, `enumerate` and in-place `collect` apply.
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Bytes<'ch> {
    bytes: &'ch [u8],
}

impl<'ch> ParallelIterator for Bytes<'ch> {
    type Item = u8;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<u8>,
    {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.bytes.len())
    }
}

impl<'ch> IndexedParallelIterator for Bytes<'ch> {
    fn len(&self) -> usize {
        self.bytes.len()
    }

    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<u8>,
    {
        bridge(self, consumer)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<u8>,
    {
        callback.callback(BytesProducer(self.bytes))
    }
}

struct BytesProducer<'ch>(&'ch [u8]);

impl<'ch> Producer for BytesProducer<'ch> {
    type Item = u8;
    type IntoIter = Copied<std::slice::Iter<'ch, u8>>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().copied()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.0.split_at(index);
        (BytesProducer(left), BytesProducer(right))
    }
}

// ---- splitting at separators ----

/// A piece of a string being split at separators. Pieces are always cut at a separator,
/// so each piece's own segments, in order, are exactly its share of the whole string's.
struct SplitProducer<'ch, 'p, P> {
    chars: &'ch str,
    pattern: &'p P,
    kind: Kind,
    /// Whether this piece ends where the whole string ends (where `Terminator` drops a
    /// final empty segment).
    tail: bool,
}

impl<'ch, 'p, P: Pattern> SplitProducer<'ch, 'p, P> {
    fn new(chars: &'ch str, pattern: &'p P, kind: Kind) -> Self {
        SplitProducer {
            chars,
            pattern,
            kind,
            tail: true,
        }
    }
}

/// `line` without its `\n` or `\r\n` ending (as std's `lines` strips them).
fn strip_line_ending(line: &str) -> &str {
    match line.strip_suffix('\n') {
        Some(line) => line.strip_suffix('\r').unwrap_or(line),
        None => line,
    }
}

impl<'ch, 'p, P: Pattern> UnindexedProducer for SplitProducer<'ch, 'p, P> {
    type Item = &'ch str;

    fn split(self) -> (Self, Option<Self>) {
        let s = self.chars;
        let Some(mid) = char_midpoint(s) else {
            return (self, None);
        };
        // Inclusive kinds keep the separator with the segment before it, so a separator
        // that is the piece's last char would leave the left piece whole and the right
        // one empty, a split that makes no progress: the forward search stops before it.
        let inclusive = matches!(self.kind, Kind::Inclusive | Kind::Lines);
        let forward_end = match s.char_indices().next_back() {
            Some((last, _)) if inclusive => last,
            _ => s.len(),
        };
        // The separator nearest the middle: forward first, then backward.
        let found = match self.pattern.find_in(&s[mid..forward_end]) {
            Some(i) => Some(mid + i),
            None => self.pattern.rfind_in(&s[..mid]),
        };
        let Some(at) = found else {
            return (self, None);
        };
        let after = at + char_len_at(s, at);
        let left_end = if inclusive { after } else { at };
        let left = SplitProducer {
            chars: &s[..left_end],
            tail: false,
            ..self
        };
        let right = SplitProducer {
            chars: &s[after..],
            ..self
        };
        (left, Some(right))
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<&'ch str>,
    {
        self.pattern
            .fold_piece(self.chars, self.kind, self.tail, folder)
    }
}

impl<P> Clone for SplitProducer<'_, '_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for SplitProducer<'_, '_, P> {}

/// Runs `chars` split by `pattern` the `kind` way into `consumer`.
fn drive_split<'ch, P, C>(chars: &'ch str, pattern: &P, kind: Kind, consumer: C) -> C::Result
where
    P: Pattern,
    C: UnindexedConsumer<&'ch str>,
{
    bridge_unindexed(SplitProducer::new(chars, pattern, kind), consumer)
}

/// The iterator of [`par_split`](ParallelString::par_split).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Split<'ch, P: Pattern> {
    chars: &'ch str,
    separator: P,
}

impl<'ch, P: Pattern> ParallelIterator for Split<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        drive_split(self.chars, &self.separator, Kind::Split, consumer)
    }
}

/// The iterator of [`par_split_inclusive`](ParallelString::par_split_inclusive).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct SplitInclusive<'ch, P: Pattern> {
    chars: &'ch str,
    separator: P,
}

impl<'ch, P: Pattern> ParallelIterator for SplitInclusive<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        drive_split(self.chars, &self.separator, Kind::Inclusive, consumer)
    }
}

/// The iterator of [`par_split_terminator`](ParallelString::par_split_terminator).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct SplitTerminator<'ch, P: Pattern> {
    chars: &'ch str,
    terminator: P,
}

impl<'ch, P: Pattern> ParallelIterator for SplitTerminator<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        drive_split(self.chars, &self.terminator, Kind::Terminator, consumer)
    }
}

/// The iterator of [`par_lines`](ParallelString::par_lines).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Lines<'ch>(&'ch str);

impl<'ch> ParallelIterator for Lines<'ch> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        drive_split(self.0, &'\n', Kind::Lines, consumer)
    }
}

/// The iterator of [`par_split_whitespace`](ParallelString::par_split_whitespace).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct SplitWhitespace<'ch>(&'ch str);

impl<'ch> ParallelIterator for SplitWhitespace<'ch> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        drive_split(self.0, &Whitespace::<true>, Kind::NonEmpty, consumer)
    }
}

/// The iterator of
/// [`par_split_ascii_whitespace`](ParallelString::par_split_ascii_whitespace).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct SplitAsciiWhitespace<'ch>(&'ch str);

impl<'ch> ParallelIterator for SplitAsciiWhitespace<'ch> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        drive_split(self.0, &Whitespace::<false>, Kind::NonEmpty, consumer)
    }
}

// ---- matches ----

/// A piece of a string searched for single-char matches: any char boundary is a fine
/// place to cut, since no match spans two chars.
struct MatchesProducer<'ch, 'p, P> {
    piece: CharsProducer<'ch>,
    pattern: &'p P,
}

impl<'ch, 'p, P: Pattern> UnindexedProducer for MatchesProducer<'ch, 'p, P> {
    type Item = (usize, &'ch str);

    fn split(self) -> (Self, Option<Self>) {
        let (left, right) = self.piece.split();
        let pattern = self.pattern;
        (
            MatchesProducer {
                piece: left,
                pattern,
            },
            right.map(|piece| MatchesProducer { piece, pattern }),
        )
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        let CharsProducer { chars, offset } = self.piece;
        let pattern = self.pattern;
        let mut pos = 0;
        folder.consume_iter(std::iter::from_fn(move || {
            let i = pos + pattern.find_in(&chars[pos..])?;
            pos = i + char_len_at(chars, i);
            Some((offset + i, &chars[i..pos]))
        }))
    }
}

/// The iterator of [`par_matches`](ParallelString::par_matches).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct Matches<'ch, P: Pattern> {
    chars: &'ch str,
    pattern: P,
}

impl<'ch, P: Pattern> ParallelIterator for Matches<'ch, P> {
    type Item = &'ch str;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<&'ch str>,
    {
        MatchIndices {
            chars: self.chars,
            pattern: self.pattern,
        }
        .map(|(_, m)| m)
        .drive_unindexed(consumer)
    }
}

/// The iterator of [`par_match_indices`](ParallelString::par_match_indices).
#[must_use = "iterator adaptors are lazy and do nothing unless consumed"]
#[derive(Debug, Clone)]
pub struct MatchIndices<'ch, P: Pattern> {
    chars: &'ch str,
    pattern: P,
}

impl<'ch, P: Pattern> ParallelIterator for MatchIndices<'ch, P> {
    type Item = (usize, &'ch str);

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<(usize, &'ch str)>,
    {
        let piece = CharsProducer {
            chars: self.chars,
            offset: 0,
        };
        bridge_unindexed(
            MatchesProducer {
                piece,
                pattern: &self.pattern,
            },
            consumer,
        )
    }
}
