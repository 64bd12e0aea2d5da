//! The words of a piece of a string, for `par_split_whitespace` and
//! `par_split_ascii_whitespace`: std's `split_whitespace` / `split_ascii_whitespace`,
//! scanned a byte at a time.
//!
//! std splits on whitespace with its general char searcher. That searcher decodes every
//! char and asks the predicate, and `split` then runs its state machine on each match. Its
//! loop has six branches per char and is sensitive to where the linker places it: the
//! same code ran 0.73 to 1.36 times rayon's time (which runs the same std loop) from one
//! build to the next (the rayon-compatibility log in the CHANGELOG, fourteenth stop). Here printable ASCII takes one
//! comparison, other ASCII one bit of a set, and only a non-ASCII char is decoded, to ask
//! `char::is_whitespace` (`split_ascii_whitespace` never decodes: no byte of a non-ASCII
//! char is ASCII whitespace).

use super::plumbing::Folder;
use super::string::private::{self, Kind};
use super::string::Pattern;

/// The pattern of `par_split_whitespace` (`UNICODE`: `char::is_whitespace`) and of
/// `par_split_ascii_whitespace` (`char::is_ascii_whitespace`, which lacks U+000B).
#[derive(Clone, Copy, Debug)]
pub(super) struct Whitespace<const UNICODE: bool>;

impl<const UNICODE: bool> Whitespace<UNICODE> {
    /// Whether `c` separates words.
    fn matches(c: char) -> bool {
        if UNICODE {
            c.is_whitespace()
        } else {
            c.is_ascii_whitespace()
        }
    }

    /// Whether the ASCII byte `b` is whitespace: tab, line feed, form feed, carriage
    /// return or space, and under `UNICODE` also the vertical tab, U+000B.
    #[inline(always)]
    fn ascii_space(b: u8) -> bool {
        // Bit `b` of the set, for `b` below 64.
        const SET: u64 = 1 << b'\t' | 1 << b'\n' | 1 << 0x0C | 1 << b'\r' | 1 << b' ';
        let set = if UNICODE { SET | 1 << 0x0B } else { SET };
        b < 64 && set >> b & 1 == 1
    }

    /// The start of the next word at or after byte `i` of `s` (a char boundary), or
    /// `s.len()`.
    #[inline(always)]
    fn word_start(s: &str, mut i: usize) -> usize {
        while let Some(&b) = s.as_bytes().get(i) {
            if b < 0x80 {
                if !Self::ascii_space(b) {
                    break;
                }
                i += 1;
            } else if UNICODE {
                match non_ascii_char(s, i) {
                    (len, true) => i += len,
                    (_, false) => break,
                }
            } else {
                // No byte of a non-ASCII char is ASCII whitespace.
                break;
            }
        }
        i
    }

    /// The end of the word that starts at byte `i` of `s` (a char boundary): the next
    /// whitespace char's index, or `s.len()`. (Not one scan with `word_start` for both
    /// kinds of run: that cost 1.13x rayon's instructions on `con-count`, these 0.85x.)
    #[inline(always)]
    fn word_end(s: &str, mut i: usize) -> usize {
        while let Some(&b) = s.as_bytes().get(i) {
            // Most bytes of most words: printable ASCII but space (0x21..=0x7E), one
            // comparison.
            if b.wrapping_sub(0x21) < 0x5E {
                i += 1;
            } else if b < 0x80 {
                if Self::ascii_space(b) {
                    break;
                }
                i += 1;
            } else if UNICODE {
                match non_ascii_char(s, i) {
                    (len, false) => i += len,
                    (_, true) => break,
                }
            } else {
                // No byte of a non-ASCII char is ASCII whitespace: a byte at a time (the
                // word still ends at a boundary: at an ASCII byte or the end).
                i += 1;
            }
        }
        i
    }
}

/// The non-ASCII char at byte `i` of `s` (a char boundary below `s.len()`): its length,
/// and whether it is whitespace. Out of line, so that the loops over ASCII stay small
/// enough to inline.
#[cold]
#[inline(never)]
fn non_ascii_char(s: &str, i: usize) -> (usize, bool) {
    let c = s[i..]
        .chars()
        .next()
        .expect("a char starts at a boundary below the end");
    (c.len_utf8(), c.is_whitespace())
}

/// The non-empty words of a string between [`Whitespace<UNICODE>`] chars, in order.
#[derive(Clone, Debug)]
pub(super) struct Words<'ch, const UNICODE: bool> {
    text: &'ch str,
    /// Where the scan resumes: a char boundary of `text`.
    pos: usize,
}

impl<'ch, const UNICODE: bool> Words<'ch, UNICODE> {
    pub(super) fn new(text: &'ch str) -> Self {
        Words { text, pos: 0 }
    }
}

impl<'ch, const UNICODE: bool> Iterator for Words<'ch, UNICODE> {
    type Item = &'ch str;

    // Always inline: in the folder's loop, the scan's state stays in registers (out of
    // line, a call per word saved and restored six registers).
    #[inline(always)]
    fn next(&mut self) -> Option<&'ch str> {
        let start = Whitespace::<UNICODE>::word_start(self.text, self.pos);
        if start == self.text.len() {
            self.pos = start;
            return None;
        }
        let end = Whitespace::<UNICODE>::word_end(self.text, start);
        self.pos = end;
        debug_assert!(self.text.is_char_boundary(start) && self.text.is_char_boundary(end));
        // SAFETY: `start <= end <= text.len()`, and both are char boundaries: the scans
        // start at one (0, or where the last word ended) and step over whole chars (one
        // ASCII byte, or a decoded char's length), or, for `split_ascii_whitespace`, over
        // single bytes of non-ASCII chars but stop only at an ASCII byte or the end.
        // (Checked slicing cost two more loads and branches a word: words are short.)
        Some(unsafe { self.text.get_unchecked(start..end) })
    }
}

impl<const UNICODE: bool> Pattern for Whitespace<UNICODE> {}

impl<const UNICODE: bool> private::Sealed for Whitespace<UNICODE> {
    fn find_in(&self, s: &str) -> Option<usize> {
        s.find(Self::matches)
    }

    fn rfind_in(&self, s: &str) -> Option<usize> {
        s.rfind(Self::matches)
    }

    fn fold_piece<'ch, F: Folder<&'ch str>>(
        &self,
        s: &'ch str,
        kind: Kind,
        tail: bool,
        folder: F,
    ) -> F {
        match kind {
            Kind::NonEmpty => folder.consume_iter(Words::<UNICODE>::new(s)),
            // Only the two whitespace iterators use this pattern, and both are `NonEmpty`;
            // the other kinds answer as any closure pattern would.
            _ => Self::matches.fold_piece(s, kind, tail, folder),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every Unicode whitespace char, and neighbours of them that are not whitespace
    /// (U+0084, U+0086, U+00A1, U+1681, U+2027, the zero-width space U+200B, U+3001), with
    /// 1- to 4-byte letters.
    const CHARS: &[char] = &[
        '\t', '\n', '\x0B', '\x0C', '\r', ' ', '\u{85}', '\u{A0}', '\u{1680}', '\u{2000}',
        '\u{2005}', '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}',
        '\u{84}', '\u{86}', '\u{A1}', '\u{1681}', '\u{2027}', '\u{200B}', '\u{3001}', 'a', 'é',
        '€', '😀', '\x1F', '!',
    ];

    fn check(s: &str) {
        let words: Vec<&str> = Words::<true>::new(s).collect();
        assert_eq!(words, s.split_whitespace().collect::<Vec<_>>(), "{s:?}");
        let words: Vec<&str> = Words::<false>::new(s).collect();
        assert_eq!(
            words,
            s.split_ascii_whitespace().collect::<Vec<_>>(),
            "{s:?}"
        );
    }

    #[test]
    fn every_pair_and_triple_of_chars_splits_as_std() {
        check("");
        for (i, &a) in CHARS.iter().enumerate() {
            check(&a.to_string());
            for (j, &b) in CHARS.iter().enumerate() {
                // Under Miri (CI runs `iter::` there, for the unchecked slicing), a third
                // of the pairs and no triples: all 27,000 strings take minutes there; the
                // random strings below mix every char with every other.
                if cfg!(miri) {
                    if (i + j) % 3 == 0 {
                        check(&[a, b].iter().collect::<String>());
                    }
                    continue;
                }
                check(&[a, b].iter().collect::<String>());
                for &c in CHARS {
                    check(&[a, b, c].iter().collect::<String>());
                }
            }
        }
    }

    #[test]
    fn long_random_strings_split_as_std() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let lens: &[usize] = if cfg!(miri) {
            &[1, 7, 64, 300]
        } else {
            &[1, 7, 64, 1000, 20_000]
        };
        for &len in lens {
            let s: String = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    CHARS[(x % CHARS.len() as u64) as usize]
                })
                .collect();
            check(&s);
        }
    }
}
