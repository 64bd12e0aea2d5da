use splitsteal_workloads::pbbs_io::format;
use splitsteal_workloads::pbbs_io::generate::*;

const N: usize = 100_000;

fn mean(v: &[i64]) -> f64 {
    v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64
}

/// Pearson's chi-square of `counts` against equal expected counts.
fn chi2_uniform(counts: &[usize]) -> f64 {
    let total: usize = counts.iter().sum();
    let e = total as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
}

#[test]
fn random_seq_is_uniform_in_range() {
    for range in [256u64, 100_000, 1 << 31, N as u64] {
        let v = random_seq(N, range, 1);
        assert!(v.iter().all(|&x| (0..range as i64).contains(&x)));
        let m = mean(&v) / range as f64;
        assert!((m - 0.5).abs() < 0.01, "range {range}: mean/range {m}");
        // 64 buckets, 63 degrees of freedom: mean 63, sd ≈ 11; 150 is > 7 sd.
        let mut b = [0usize; 64];
        for &x in &v {
            b[(x as u128 * 64 / range as u128) as usize] += 1;
        }
        let c = chi2_uniform(&b);
        assert!(c < 150.0, "range {range}: chi-square {c}");
    }
    let d = random_doubles(N, 2);
    assert!(d.iter().all(|x| (0.0..1.0).contains(x)));
    let m = d.iter().sum::<f64>() / N as f64;
    assert!((m - 0.5).abs() < 0.01, "{m}");
}

#[test]
fn expt_seq_repeats_small_keys_exponentially() {
    let v = expt_seq(N, N as u64, 3);
    assert!(v.iter().all(|&x| (0..N as i64).contains(&x)));
    let mut counts = std::collections::HashMap::new();
    for &x in &v {
        *counts.entry(x).or_insert(0usize) += 1;
    }
    // Key 1 (range 1) comes with probability 1/lg: lg = 18 for 10^5.
    let lg = (log2_up(N as u64) + 1) as f64;
    let top = *counts.values().max().unwrap() as f64;
    let want = N as f64 / lg;
    assert!(
        (top / want - 1.0).abs() < 0.15,
        "top {top}, want about {want}"
    );
    // Far fewer distinct values than a uniform sequence (which has ~63% of n).
    assert!(counts.len() < N / 3, "{} distinct", counts.len());
    let u: std::collections::HashSet<_> = random_seq(N, N as u64, 3).into_iter().collect();
    assert!(u.len() > N / 2);
}

#[test]
fn almost_sorted_is_a_nearly_sorted_permutation() {
    let v = almost_sorted_seq(N, default_swaps(N), 4);
    assert_eq!(default_swaps(N), 316);
    let mut s = v.clone();
    s.sort_unstable();
    assert_eq!(s, (0..N as i64).collect::<Vec<_>>());
    let out_of_place = v
        .iter()
        .enumerate()
        .filter(|(i, &x)| *i as i64 != x)
        .count();
    // Each swap moves two elements (rarely fewer); at most 2 · 316.
    assert!((500..=632).contains(&out_of_place), "{out_of_place}");
    let descents = v.windows(2).filter(|w| w[0] > w[1]).count();
    assert!(descents > 400 && descents <= 700, "{descents}");
}

/// Inversions by merge sort, O(n log n).
fn inversions(v: &mut [i64]) -> u64 {
    if v.len() < 2 {
        return 0;
    }
    let mid = v.len() / 2;
    let mut inv = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
    let (l, r) = (v[..mid].to_vec(), v[mid..].to_vec());
    let (mut i, mut j) = (0, 0);
    for slot in v.iter_mut() {
        if j == r.len() || (i < l.len() && l[i] <= r[j]) {
            *slot = l[i];
            i += 1;
        } else {
            *slot = r[j];
            j += 1;
            inv += (l.len() - i) as u64;
        }
    }
    inv
}

#[test]
fn almost_sorted_inversions_are_of_the_expected_order() {
    // A swap of positions x < y adds 2(y - x) - 1 inversions (fewer when swaps
    // overlap, which is rare at sqrt(n) swaps); E|x - y| = n/3, so about
    // swaps · 2n/3 in all: 2.1e7 here, against n²/4 = 2.5e9 for a random order.
    let mut v = almost_sorted_seq(N, default_swaps(N), 4);
    let inv = inversions(&mut v) as f64;
    let want = default_swaps(N) as f64 * 2.0 * N as f64 / 3.0;
    assert!(
        (inv / want - 1.0).abs() < 0.15,
        "{inv} inversions, want about {want}"
    );
    let mut r = random_seq(N, N as u64, 4);
    let rinv = inversions(&mut r) as f64;
    assert!(
        (rinv / (N as f64 * N as f64 / 4.0) - 1.0).abs() < 0.02,
        "{rinv}"
    );
}

#[test]
fn expt_seq_key_sizes_are_log_uniform() {
    // The key drawn for element i lies in [r, 2r) with r = 2^k, k uniform in 0..lg:
    // its median is near 2^(lg/2), far below the n/2 of a uniform key.
    let lg = log2_up(N as u64) + 1;
    let mut keys: Vec<u64> = (0..N as u64).map(|i| expt_key(3, i, lg)).collect();
    keys.sort_unstable();
    let median = keys[N / 2] as f64;
    let want = 2f64.powi(lg as i32 / 2);
    assert!(
        median > want / 2.0 && median < want * 3.0,
        "median {median}, want about {want}"
    );
    let mean = keys.iter().sum::<u64>() as f64 / N as f64;
    // E[key] = Σ_k 1.5 · 2^k / lg ≈ 1.5 · 2^lg / lg.
    let want_mean = 1.5 * 2f64.powi(lg as i32) / lg as f64;
    assert!(
        (mean / want_mean - 1.0).abs() < 0.1,
        "mean {mean}, want {want_mean}"
    );
}

#[test]
fn trigram_words_look_like_english() {
    let t = trigram_string(200_000, 5);
    assert_eq!(t.len(), 200_000);
    assert!(t
        .iter()
        .all(|&b| b.is_ascii_lowercase() || b == b' ' || b == b'\n'));
    let words: Vec<&[u8]> = t
        .split(|b| !b.is_ascii_lowercase())
        .filter(|w| !w.is_empty())
        .collect();
    let mean = words.iter().map(|w| w.len()).sum::<usize>() as f64 / words.len() as f64;
    // English running text averages 4 to 5 letters a word; the model's sample ~4.6.
    assert!((3.5..6.0).contains(&mean), "mean word length {mean}");
    assert!(words.iter().all(|w| w.len() <= 16));
    let mut freq = [0usize; 26];
    for w in &words {
        for &b in *w {
            freq[(b - b'a') as usize] += 1;
        }
    }
    let letters: usize = freq.iter().sum();
    let f = |c: u8| freq[(c - b'a') as usize] as f64 / letters as f64;
    // English's commonest letter is e (about 12%); q, z, x are rare.
    assert!(freq.iter().max() == Some(&freq[4]), "{freq:?}");
    assert!(
        f(b'e') > 0.08 && f(b'q') < 0.01 && f(b'z') < 0.01,
        "{freq:?}"
    );
    // A trigram model repeats common words: 'the' is among them, and the
    // vocabulary is far smaller than the word count.
    let distinct: std::collections::HashSet<&[u8]> = words.iter().copied().collect();
    assert!(words.iter().filter(|w| **w == b"the").count() > words.len() / 100);
    assert!(
        distinct.len() < words.len() / 2,
        "{} distinct",
        distinct.len()
    );
    // Portable: the same text on every machine (a change of the model, the sample
    // or the hash shows up here).
    assert_eq!(
        String::from_utf8(trigram_string(40, 1)).unwrap(),
        "to\nthe works computs the at thms\nthe\nits"
    );
}

#[test]
fn standard_names_are_the_inputs_names() {
    for n in [1000, 2500, 3_000_000] {
        let names: Vec<String> = if n <= 2500 {
            standard_inputs(n, 1).into_iter().map(|i| i.name).collect()
        } else {
            standard_names(n)
        };
        assert_eq!(names, standard_names(n));
    }
    assert!(standard_names(10_000_000).contains(&"randomSeq_10M_int".to_string()));
}

#[test]
fn rmat_degrees_are_skewed() {
    let log_n = 14;
    let m = 5 << log_n;
    let e = rmat_edges(log_n, m, 5);
    let n = 1usize << log_n;
    // The top-left quadrant gets a = 0.5 of the edges at the first level: source and
    // target both in the lower half.
    let both_low = e
        .iter()
        .filter(|&&(u, v)| (u as usize) < n / 2 && (v as usize) < n / 2);
    let f = both_low.count() as f64 / m as f64;
    assert!((f - 0.5).abs() < 0.02, "{f}");
    // Source's high bit is set with probability c + d = 0.4.
    let hi = e.iter().filter(|&&(u, _)| u as usize >= n / 2).count() as f64 / m as f64;
    assert!((hi - 0.4).abs() < 0.02, "{hi}");
    let g = symmetric_graph(n, &e);
    let (off, _) = g.to_csr();
    let deg: Vec<usize> = off.windows(2).map(|w| w[1] - w[0]).collect();
    let max = *deg.iter().max().unwrap() as f64;
    let avg = deg.iter().sum::<usize>() as f64 / n as f64;
    // Skewed: the top vertex has about 11 times the mean degree here; a uniform random
    // graph of this size and mean (Poisson degrees) would top out near 2.7 times.
    assert!(max > 5.0 * avg, "max {max}, avg {avg}");
}

#[test]
fn rand_local_edges_are_mostly_short() {
    let n = 1 << 14;
    let e = rand_local_edges(n, 5, 6);
    assert_eq!(e.len(), 5 * n);
    let dist = |&(u, v): &(u32, u32)| (v as usize + n - u as usize) % n;
    let short = e.iter().filter(|x| dist(x) <= 128).count() as f64 / e.len() as f64;
    // k ≤ 7 of 0..=14 (8/15) gives an offset ≤ 128; larger k sometimes does too.
    assert!(short > 0.53 && short < 0.65, "{short}");
    assert!(e.iter().all(|x| dist(x) >= 1));
}

#[test]
fn points_follow_their_distributions() {
    let sq = in_square(N, 7);
    assert!(sq
        .iter()
        .all(|&(x, y)| (0.0..1.0).contains(&x) && (0.0..1.0).contains(&y)));
    let mut b = [0usize; 16];
    for &(x, y) in &sq {
        b[(x * 4.0) as usize * 4 + (y * 4.0) as usize] += 1;
    }
    // 15 degrees of freedom: mean 15, sd ≈ 5.5.
    assert!(chi2_uniform(&b) < 60.0, "{}", chi2_uniform(&b));

    let c = in_circle(N, 8);
    assert!(c.iter().all(|&(x, y)| x * x + y * y < 1.0));
    // Uniform in the disk: P(r < 1/2) = 1/4.
    let inner = c.iter().filter(|&&(x, y)| x * x + y * y < 0.25).count() as f64 / N as f64;
    assert!((inner - 0.25).abs() < 0.01, "{inner}");

    let k = kuzmin(N, 9);
    // Kuzmin mass within r: 1 - 1/sqrt(1 + r²): r = 1 holds 1 - 1/√2 ≈ 0.293, r = 10
    // holds ≈ 0.9005.
    let within =
        |r: f64| k.iter().filter(|&&(x, y)| x * x + y * y < r * r).count() as f64 / N as f64;
    assert!((within(1.0) - 0.2929).abs() < 0.01, "{}", within(1.0));
    assert!((within(10.0) - 0.9005).abs() < 0.01, "{}", within(10.0));
}

#[test]
fn same_seed_same_output_other_seed_other_output() {
    let a = standard_inputs(1000, 42);
    let b = standard_inputs(1000, 42);
    let c = standard_inputs(1000, 43);
    for ((x, y), z) in a.iter().zip(&b).zip(&c) {
        assert_eq!(x.name, y.name);
        assert_eq!(
            format::to_text(&x.data),
            format::to_text(&y.data),
            "{}",
            x.name
        );
        assert_ne!(
            format::to_text(&x.data),
            format::to_text(&z.data),
            "{}",
            x.name
        );
    }
    // Pinned values: a change of hash or of its use shows up here, on any machine.
    assert_eq!(
        random_seq(4, 1000, 42),
        vec![PIN[0], PIN[1], PIN[2], PIN[3]]
    );
}

const PIN: [i64; 4] = [668, 893, 94, 698];

#[test]
fn standard_inputs_have_pbbs_names_and_parse_back() {
    let names: Vec<String> = standard_inputs(2000, 1)
        .into_iter()
        .map(|i| i.name)
        .collect();
    assert!(names.contains(&"randomSeq_2K_int".to_string()), "{names:?}");
    assert!(names.contains(&"rMatGraph_J_5_2K".to_string()));
    assert_eq!(size_name(10_000_000), "10M");
    assert_eq!(size_name(100_000), "100K");
    assert_eq!(size_name(1234), "1234");
    let dir = std::env::temp_dir().join(format!("pbbs_gen_{}", std::process::id()));
    let written = write_standard_inputs(&dir, 500, 3).unwrap();
    for (name, inp) in written.iter().zip(standard_inputs(500, 3)) {
        assert_eq!(format::read(&dir.join(name)).unwrap(), inp.data, "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
