//! `wordcount`: PBBS wordCounts on a generated text: the distinct words and their counts.
//!
//! Parallel algorithm (all `splitsteal::par`): flag word starts (`tabulate`), collect them
//! (`pack_index`), measure each word (`map`), sort the words (`sort_unstable_by`), flag the
//! first of each run of equal words (`tabulate`), collect the runs (`pack_index`) and count
//! them (`tabulate`). PBBS counts with a hash histogram; this is the sort-based variant.

use std::collections::HashMap;

use rand::RngExt;
use splitsteal::{par, ForkJoin};

use crate::workloads::{rng, DynWorkload, Group, Size, Workload, WorkloadSpec};

/// Distinct words of the vocabulary.
pub const VOCABULARY: usize = 50_000;

/// Whether `b` is part of a word (PBBS wordCounts: lower-case letters; the rest separates).
pub fn is_letter(b: u8) -> bool {
    b.is_ascii_lowercase()
}

/// A text of `words` words drawn with a skewed (roughly Zipf-like) frequency from a
/// random vocabulary, separated by spaces and occasional newlines and punctuation.
pub fn generate(words: usize, seed: u64) -> Vec<u8> {
    let mut r = rng(seed, 20);
    let vocab: Vec<Vec<u8>> = (0..VOCABULARY)
        .map(|_| {
            let len = 1
                + r.random_range(0..4usize)
                + r.random_range(0..5usize)
                + r.random_range(0..4usize);
            (0..len).map(|_| b'a' + r.random_range(0..26u8)).collect()
        })
        .collect();
    let mut text = Vec::with_capacity(words * 8);
    for _ in 0..words {
        let u: f64 = r.random();
        let w = &vocab[((u * u * u) * VOCABULARY as f64) as usize];
        text.extend_from_slice(w);
        text.push(match r.random_range(0..20u8) {
            0 => b'\n',
            1 => b',',
            2 => b'.',
            _ => b' ',
        });
    }
    text
}

/// Word counts: (start, length, count) per distinct word, words in increasing order.
pub fn word_counts<C: ForkJoin>(c: &mut C, text: &[u8]) -> Vec<(u32, u32, u32)> {
    let n = text.len();
    let start_flags = par::tabulate(c, n, |i| {
        is_letter(text[i]) && (i == 0 || !is_letter(text[i - 1]))
    });
    let starts = par::pack_index(c, &start_flags);
    drop(start_flags);
    let words: Vec<&[u8]> = par::map(c, &starts, |&s| {
        let len = text[s..].iter().take_while(|&&b| is_letter(b)).count();
        &text[s..s + len]
    });
    drop(starts);
    let mut words = words;
    par::sort_unstable_by(c, &mut words, |a, b| a.cmp(b));
    let m = words.len();
    let run_flags = par::tabulate(c, m, |i| i == 0 || words[i] != words[i - 1]);
    let runs = par::pack_index(c, &run_flags);
    drop(run_flags);
    par::tabulate(c, runs.len(), |j| {
        let w = words[runs[j]];
        let end = runs.get(j + 1).copied().unwrap_or(m);
        let start = w.as_ptr() as usize - text.as_ptr() as usize;
        (start as u32, w.len() as u32, (end - runs[j]) as u32)
    })
}

/// Reference: a `HashMap` count, sorted by word.
pub fn word_counts_reference(text: &[u8]) -> Vec<(Vec<u8>, u32)> {
    let mut m: HashMap<&[u8], u32> = HashMap::new();
    for w in text.split(|&b| !is_letter(b)).filter(|w| !w.is_empty()) {
        *m.entry(w).or_default() += 1;
    }
    let mut v: Vec<(Vec<u8>, u32)> = m.into_iter().map(|(w, c)| (w.to_vec(), c)).collect();
    v.sort_unstable();
    v
}

/// The `wordcount` workload.
#[derive(Debug)]
pub struct WordCount {
    text: Vec<u8>,
    expected: Vec<(Vec<u8>, u32)>,
}

impl Workload for WordCount {
    type Input = ();
    type Output = Vec<(u32, u32, u32)>;
    fn input(&self) {}
    fn run<C: ForkJoin>(&self, c: &mut C, _: ()) -> Vec<(u32, u32, u32)> {
        word_counts(c, &self.text)
    }
    fn check(&self, out: &Vec<(u32, u32, u32)>) -> Result<(), String> {
        if out.len() != self.expected.len() {
            return Err(format!(
                "{} distinct words, expected {}",
                out.len(),
                self.expected.len()
            ));
        }
        for (i, (&(s, l, c), (w, wc))) in out.iter().zip(&self.expected).enumerate() {
            let got = &self.text[s as usize..(s + l) as usize];
            if got != &w[..] || c != *wc {
                return Err(format!(
                    "word {i}: {:?} × {c}, expected {:?} × {wc}",
                    String::from_utf8_lossy(got),
                    String::from_utf8_lossy(w)
                ));
            }
        }
        Ok(())
    }
}

fn words_for(s: Size) -> usize {
    s.pick(20_000, 100_000, 600_000)
}

/// Registry entry.
pub fn spec() -> WorkloadSpec {
    WorkloadSpec {
        name: "wordcount",
        group: Group::Pbbs,
        description:
            "PBBS wordCounts on generated text: tokenize, sort, count runs (par primitives)",
        params: |s| {
            format!(
                "{} words from a skewed {VOCABULARY}-word vocabulary",
                words_for(s)
            )
        },
        build: |s, seed| {
            let text = generate(words_for(s), seed);
            let expected = word_counts_reference(&text);
            Box::new(WordCount { text, expected }) as Box<dyn DynWorkload>
        },
    }
}
