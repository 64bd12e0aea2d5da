//! PBBS's file formats, read and written.
//!
//! Text formats (PBBS `common/IO.h`, `graphIO.h`): a header word on the first line, then
//! values separated by any run of spaces, tabs, line feeds or carriage returns.
//!
//! | header | body |
//! |---|---|
//! | `sequenceInt` | integers |
//! | `sequenceDouble` | floating-point numbers |
//! | `sequenceIntPair` | integer pairs |
//! | `pbbs_sequencePoint2d` | `x y` floating-point pairs |
//! | `AdjacencyGraph` | `n`, `m`, `n` offsets, `m` target vertices |
//! | `EdgeArray` | `u v` vertex pairs |
//!
//! The binary adjacency graph ([`write_binary_graph`]) is pbbsbench's `.bin` layout: three
//! little-endian `u64` (n, m, total size in bytes), `n + 1` `u64` offsets, `m` `u32` targets.
//! Errors are one line naming the file and line, e.g.
//! `randomSeq_10M_int:3: expected an integer, found 'x'`.

use std::fmt;
use std::path::Path;

/// A PBBS file's contents, one variant per format.
#[derive(Debug, Clone, PartialEq)]
pub enum PbbsData {
    /// `sequenceInt`.
    Ints(Vec<i64>),
    /// `sequenceDouble`.
    Doubles(Vec<f64>),
    /// `sequenceIntPair`.
    IntPairs(Vec<(i64, i64)>),
    /// `pbbs_sequencePoint2d`.
    Points2d(Vec<(f64, f64)>),
    /// `AdjacencyGraph` (text) or the binary graph.
    Adjacency(AdjGraph),
    /// `EdgeArray`.
    Edges(Vec<(u32, u32)>),
    /// Words: `sequenceChar`, then the text itself (PBBS's trigramString files, which
    /// PBBS's wordCounts reads as plain text, are read without the header line too:
    /// [`read_words`]).
    Words(Vec<u8>),
}

/// A directed graph as PBBS stores it: vertex `v`'s out-edges are
/// `edges[offsets[v]..offsets[v + 1]]` (the last vertex's run ends at `edges.len()`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjGraph {
    /// One offset per vertex (PBBS writes `n` of them, not `n + 1`).
    pub offsets: Vec<u64>,
    /// Target vertices, grouped by source.
    pub edges: Vec<u32>,
}

impl AdjGraph {
    /// The graph in the workloads' CSR form, `n + 1` offsets.
    pub fn to_csr(&self) -> (Vec<usize>, Vec<u32>) {
        let mut off: Vec<usize> = self.offsets.iter().map(|&o| o as usize).collect();
        off.push(self.edges.len());
        (off, self.edges.clone())
    }

    /// From the workloads' CSR form (`n + 1` offsets).
    pub fn from_csr(offsets: &[usize], adj: &[u32]) -> AdjGraph {
        let n = offsets.len().saturating_sub(1);
        AdjGraph {
            offsets: offsets[..n].iter().map(|&o| o as u64).collect(),
            edges: adj.to_vec(),
        }
    }
}

impl PbbsData {
    /// The header word PBBS writes on the first line.
    pub fn header(&self) -> &'static str {
        match self {
            PbbsData::Ints(_) => "sequenceInt",
            PbbsData::Doubles(_) => "sequenceDouble",
            PbbsData::IntPairs(_) => "sequenceIntPair",
            PbbsData::Points2d(_) => "pbbs_sequencePoint2d",
            PbbsData::Adjacency(_) => "AdjacencyGraph",
            PbbsData::Edges(_) => "EdgeArray",
            PbbsData::Words(_) => "sequenceChar",
        }
    }
}

/// Malformed input: which file, which line (1-based; 0 when the whole file is at fault),
/// what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The file's name as the user gave it.
    pub file: String,
    /// 1-based line, 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.msg)
        }
    }
}

impl std::error::Error for FormatError {}

/// Whitespace-separated tokens with their line numbers.
struct Tokens<'a> {
    file: &'a str,
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    current: Option<(usize, std::str::SplitAsciiWhitespace<'a>)>,
    /// The last line read, for errors at the end of the file.
    last_line: usize,
}

impl<'a> Tokens<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        Tokens {
            file,
            lines: text.lines().enumerate(),
            current: None,
            last_line: 1,
        }
    }

    fn err(&self, line: usize, msg: String) -> FormatError {
        FormatError {
            file: self.file.to_string(),
            line,
            msg,
        }
    }

    fn next_token(&mut self) -> Option<(usize, &'a str)> {
        loop {
            if let Some((ln, words)) = &mut self.current {
                if let Some(w) = words.next() {
                    return Some((*ln, w));
                }
            }
            let (i, l) = self.lines.next()?;
            self.last_line = i + 1;
            self.current = Some((i + 1, l.split_ascii_whitespace()));
        }
    }

    fn parse<T: std::str::FromStr>(&mut self, what: &str) -> Result<T, FormatError> {
        match self.next_token() {
            None => Err(self.err(
                self.last_line,
                format!("expected {what}, found the end of the file"),
            )),
            Some((ln, w)) => w
                .parse()
                .map_err(|_| self.err(ln, format!("expected {what}, found '{w}'"))),
        }
    }

    /// Every remaining token as `T`.
    fn rest<T: std::str::FromStr>(&mut self, what: &str) -> Result<Vec<T>, FormatError> {
        let mut v = Vec::new();
        while let Some((ln, w)) = self.next_token() {
            v.push(
                w.parse()
                    .map_err(|_| self.err(ln, format!("expected {what}, found '{w}'")))?,
            );
        }
        Ok(v)
    }

    /// The remaining tokens as pairs; an odd count is an error.
    fn pairs<T: std::str::FromStr>(&mut self, what: &str) -> Result<Vec<(T, T)>, FormatError> {
        let mut v = Vec::new();
        while let Some((ln, w)) = self.next_token() {
            let a = w
                .parse()
                .map_err(|_| self.err(ln, format!("expected {what}, found '{w}'")))?;
            let b = self.parse(&format!("{what} to complete the pair"))?;
            v.push((a, b));
        }
        Ok(v)
    }

    fn expect_end(&mut self) -> Result<(), FormatError> {
        match self.next_token() {
            None => Ok(()),
            Some((ln, w)) => Err(self.err(ln, format!("unexpected value '{w}' after the data"))),
        }
    }
}

/// Parses a PBBS text file's contents; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<PbbsData, FormatError> {
    let mut t = Tokens::new(file, text);
    let header = match t.next_token() {
        None => return Err(t.err(0, "empty file, expected a PBBS header".into())),
        Some((_, h)) => h,
    };
    let data = match header {
        "sequenceInt" => PbbsData::Ints(t.rest("an integer")?),
        "sequenceDouble" => PbbsData::Doubles(t.rest("a number")?),
        "sequenceIntPair" => PbbsData::IntPairs(t.pairs("an integer")?),
        "pbbs_sequencePoint2d" => PbbsData::Points2d(t.pairs("a coordinate")?),
        "EdgeArray" => PbbsData::Edges(t.pairs("a vertex")?),
        "AdjacencyGraph" => PbbsData::Adjacency(adjacency(&mut t)?),
        "sequenceChar" => {
            let body = text.split_once('\n').map_or("", |(_, b)| b);
            PbbsData::Words(body.as_bytes().to_vec())
        }
        other => {
            return Err(t.err(
                1,
                format!(
                    "unknown header '{other}' (expected sequenceInt, sequenceDouble, \
                     sequenceIntPair, pbbs_sequencePoint2d, AdjacencyGraph, EdgeArray or sequenceChar)"
                ),
            ))
        }
    };
    Ok(data)
}

fn adjacency(t: &mut Tokens<'_>) -> Result<AdjGraph, FormatError> {
    let n: u64 = t.parse("the vertex count n")?;
    let m: u64 = t.parse("the edge count m")?;
    let mut offsets = Vec::with_capacity(n.min(1 << 24) as usize);
    let mut prev = 0u64;
    for v in 0..n {
        let o: u64 = t.parse("an offset")?;
        let ln = t.last_line;
        if o < prev || o > m {
            return Err(t.err(
                ln,
                format!(
                    "offset {o} of vertex {v} is not in {prev}..={m} (offsets must not decrease)"
                ),
            ));
        }
        prev = o;
        offsets.push(o);
    }
    let mut edges = Vec::with_capacity(m.min(1 << 26) as usize);
    for _ in 0..m {
        let e: u32 = t.parse("a target vertex")?;
        if e as u64 >= n {
            let ln = t.last_line;
            return Err(t.err(ln, format!("edge to vertex {e}, but n = {n}")));
        }
        edges.push(e);
    }
    t.expect_end()?;
    Ok(AdjGraph { offsets, edges })
}

/// The PBBS text file for `data`.
pub fn to_text(data: &PbbsData) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    s.push_str(data.header());
    s.push('\n');
    // Writing to a String cannot fail; `{}` of f64 is the shortest text that reads back
    // to the same bits, so doubles round-trip exactly.
    match data {
        PbbsData::Ints(v) => v.iter().for_each(|x| {
            let _ = writeln!(s, "{x}");
        }),
        PbbsData::Doubles(v) => v.iter().for_each(|x| {
            let _ = writeln!(s, "{x}");
        }),
        PbbsData::IntPairs(v) => v.iter().for_each(|(a, b)| {
            let _ = writeln!(s, "{a} {b}");
        }),
        PbbsData::Points2d(v) => v.iter().for_each(|(a, b)| {
            let _ = writeln!(s, "{a} {b}");
        }),
        PbbsData::Edges(v) => v.iter().for_each(|(a, b)| {
            let _ = writeln!(s, "{a} {b}");
        }),
        PbbsData::Words(t) => s.push_str(&String::from_utf8_lossy(t)),
        PbbsData::Adjacency(g) => {
            let _ = writeln!(s, "{}\n{}", g.offsets.len(), g.edges.len());
            g.offsets.iter().for_each(|o| {
                let _ = writeln!(s, "{o}");
            });
            g.edges.iter().for_each(|e| {
                let _ = writeln!(s, "{e}");
            });
        }
    }
    s
}

/// pbbsbench's binary adjacency graph: n, m, size in bytes (u64 each), `n + 1` u64
/// offsets, `m` u32 targets, little-endian.
pub fn write_binary_graph(g: &AdjGraph) -> Vec<u8> {
    let (n, m) = (g.offsets.len() as u64, g.edges.len() as u64);
    let size = 3 * 8 + (n + 1) * 8 + m * 4;
    let mut b = Vec::with_capacity(size as usize);
    for x in [n, m, size] {
        b.extend_from_slice(&x.to_le_bytes());
    }
    for &o in g.offsets.iter().chain(std::iter::once(&m)) {
        b.extend_from_slice(&o.to_le_bytes());
    }
    for &e in &g.edges {
        b.extend_from_slice(&e.to_le_bytes());
    }
    b
}

/// Reads [`write_binary_graph`]'s layout; `file` names it in errors (line 0: binary).
pub fn read_binary_graph(file: &str, b: &[u8]) -> Result<AdjGraph, FormatError> {
    let err = |msg: String| FormatError {
        file: file.to_string(),
        line: 0,
        msg,
    };
    let u64_at = |i: usize| -> Option<u64> {
        b.get(i..i + 8)
            .map(|s| u64::from_le_bytes(s.try_into().expect("8 bytes")))
    };
    let (Some(n), Some(m), Some(size)) = (u64_at(0), u64_at(8), u64_at(16)) else {
        return Err(err(format!(
            "binary graph too short for its header ({} bytes, need 24)",
            b.len()
        )));
    };
    let want = n
        .checked_add(1)
        .and_then(|x| x.checked_mul(8))
        .and_then(|x| x.checked_add(24))
        .and_then(|x| m.checked_mul(4).and_then(|y| x.checked_add(y)));
    if want != Some(size) || size != b.len() as u64 {
        return Err(err(format!(
            "binary graph header says n = {n}, m = {m}, {size} bytes; the file has {} bytes",
            b.len()
        )));
    }
    let (n, m) = (n as usize, m as usize);
    let mut offsets = Vec::with_capacity(n);
    let mut prev = 0;
    for v in 0..=n {
        let o = u64_at(24 + 8 * v).expect("size checked");
        if o < prev || o > m as u64 || (v == n && o != m as u64) {
            return Err(err(format!(
                "offset {o} of vertex {v} is out of order or past m = {m}"
            )));
        }
        prev = o;
        if v < n {
            offsets.push(o);
        }
    }
    let base = 24 + 8 * (n + 1);
    let mut edges = Vec::with_capacity(m);
    for i in 0..m {
        let e = u32::from_le_bytes(
            b[base + 4 * i..base + 4 * i + 4]
                .try_into()
                .expect("4 bytes"),
        );
        if e as usize >= n {
            return Err(err(format!("edge {i} goes to vertex {e}, but n = {n}")));
        }
        edges.push(e);
    }
    Ok(AdjGraph { offsets, edges })
}

/// Reads a PBBS file: text, or the binary graph when the name ends in `.bin`. Errors
/// name the path.
pub fn read(path: &Path) -> Result<PbbsData, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    if name.ends_with(".bin") {
        return read_binary_graph(&name, &bytes)
            .map(PbbsData::Adjacency)
            .map_err(|e| e.to_string());
    }
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        format!(
            "{name}: not a PBBS text file (not UTF-8 at byte {})",
            e.valid_up_to()
        )
    })?;
    parse(&name, text).map_err(|e| e.to_string())
}

/// Reads a words file: `sequenceChar` and the text, or (PBBS's own trigramString files)
/// the text alone, which must then be ASCII. Errors name the path.
pub fn read_words(path: &Path) -> Result<Vec<u8>, String> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let header = b"sequenceChar";
    if bytes.starts_with(header)
        && bytes
            .get(header.len())
            .is_none_or(|b| b.is_ascii_whitespace())
    {
        let body = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        return Ok(bytes[body..].to_vec());
    }
    if let Some(i) = bytes.iter().position(|b| !b.is_ascii()) {
        let line = 1 + bytes[..i].iter().filter(|&&b| b == b'\n').count();
        return Err(format!("{name}:{line}: not ASCII text (byte {i})"));
    }
    Ok(bytes)
}

/// Writes `data` as a PBBS text file (binary graph when the name ends in `.bin` and
/// `data` is a graph).
pub fn write(path: &Path, data: &PbbsData) -> Result<(), String> {
    let bytes = match data {
        PbbsData::Adjacency(g) if path.to_string_lossy().ends_with(".bin") => write_binary_graph(g),
        _ => to_text(data).into_bytes(),
    };
    splitsteal_report::out_dir::write(path, bytes).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workloads::splitmix64;

    /// A small deterministic stream for varied test data.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed;
        move || {
            s = s.wrapping_add(1);
            splitmix64(s)
        }
    }

    fn samples() -> Vec<PbbsData> {
        let mut out = Vec::new();
        for (k, len) in [0usize, 1, 7, 300].into_iter().enumerate() {
            let mut r = stream(k as u64);
            out.push(PbbsData::Ints((0..len).map(|_| r() as i64).collect()));
            out.push(PbbsData::Doubles(
                (0..len)
                    .map(|i| match i % 4 {
                        0 => f64::from_bits(r() >> 2),
                        1 => -(r() as f64) / 3.0,
                        2 => 1e-300 * (r() % 1000) as f64,
                        _ => (r() % 100) as f64,
                    })
                    .collect(),
            ));
            out.push(PbbsData::IntPairs(
                (0..len)
                    .map(|_| (r() as i64, -((r() >> 1) as i64)))
                    .collect(),
            ));
            out.push(PbbsData::Points2d(
                (0..len)
                    .map(|_| ((r() as f64) / 7.0, -((r() % 1000) as f64) / 3.0))
                    .collect(),
            ));
            out.push(PbbsData::Edges(
                (0..len).map(|_| (r() as u32, r() as u32)).collect(),
            ));
            let n = len.max(1);
            let mut degs: Vec<u64> = (0..n).map(|_| r() % 4).collect();
            let mut acc = 0;
            for d in degs.iter_mut() {
                let o = acc;
                acc += *d;
                *d = o;
            }
            let edges = (0..acc).map(|_| (r() % n as u64) as u32).collect();
            out.push(PbbsData::Adjacency(AdjGraph {
                offsets: degs,
                edges,
            }));
        }
        out
    }

    #[test]
    fn text_round_trips_exactly() {
        for d in samples() {
            let t = to_text(&d);
            let back = parse("f", &t).unwrap_or_else(|e| panic!("{e}\n{t}"));
            // Bitwise for doubles: NaN-free samples, so PartialEq is bitwise here except
            // for 0.0 == -0.0, which the samples do not contain.
            assert_eq!(back, d);
        }
    }

    #[test]
    fn binary_graph_round_trips() {
        for d in samples() {
            if let PbbsData::Adjacency(g) = d {
                let b = write_binary_graph(&g);
                assert_eq!(read_binary_graph("g.bin", &b).unwrap(), g);
            }
        }
    }

    #[test]
    fn any_whitespace_separates_values() {
        let d = parse("f", "sequenceIntPair\r\n 1\t2 \n\n3   4\n").unwrap();
        assert_eq!(d, PbbsData::IntPairs(vec![(1, 2), (3, 4)]));
        let g = parse("g", "AdjacencyGraph 3 2 0 1 2 1 2").unwrap();
        assert_eq!(
            g,
            PbbsData::Adjacency(AdjGraph {
                offsets: vec![0, 1, 2],
                edges: vec![1, 2]
            })
        );
    }

    fn err(name: &str, text: &str) -> String {
        parse(name, text).unwrap_err().to_string()
    }

    #[test]
    fn malformed_text_names_file_and_line() {
        assert_eq!(
            err("randomSeq_10M_int", "sequenceInt\n1\nx\n"),
            "randomSeq_10M_int:3: expected an integer, found 'x'"
        );
        assert_eq!(err("e", ""), "e: empty file, expected a PBBS header");
        assert!(err("h", "sequenceFoo\n1\n").starts_with("h:1: unknown header 'sequenceFoo'"));
        assert_eq!(
            err("p", "sequenceIntPair\n1 2\n3\n"),
            "p:3: expected an integer to complete the pair, found the end of the file"
        );
        assert_eq!(
            err("d", "sequenceDouble\n1.5\n2.5 abc\n"),
            "d:3: expected a number, found 'abc'"
        );
        assert_eq!(
            err("e", "EdgeArray\n0 1\n-1 2\n"),
            "e:3: expected a vertex, found '-1'"
        );
        assert_eq!(
            err("g", "AdjacencyGraph\n2\n1\n0\n2\n0\n"),
            "g:5: offset 2 of vertex 1 is not in 0..=1 (offsets must not decrease)"
        );
        assert_eq!(
            err("g", "AdjacencyGraph\n3\n3\n0\n2\n1\n0\n0\n0\n"),
            "g:6: offset 1 of vertex 2 is not in 2..=3 (offsets must not decrease)"
        );
        assert_eq!(
            err("g", "AdjacencyGraph\n2\n1\n0\n1\n5\n"),
            "g:6: edge to vertex 5, but n = 2"
        );
        assert_eq!(
            err("g", "AdjacencyGraph\n2\n2\n0\n1\n1\n"),
            "g:6: expected a target vertex, found the end of the file"
        );
        assert_eq!(
            err("g", "AdjacencyGraph\n1\n0\n0\n7\n"),
            "g:5: unexpected value '7' after the data"
        );
    }

    #[test]
    fn malformed_binary_is_rejected() {
        let g = AdjGraph {
            offsets: vec![0, 1],
            edges: vec![1, 0],
        };
        let b = write_binary_graph(&g);
        let e = read_binary_graph("g.bin", &b[..b.len() - 1])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("g.bin: binary graph header says n = 2"),
            "{e}"
        );
        let mut bad = b.clone();
        bad[b.len() - 4] = 9;
        let e = read_binary_graph("g.bin", &bad).unwrap_err().to_string();
        assert_eq!(e, "g.bin: edge 1 goes to vertex 9, but n = 2");
        assert!(read_binary_graph("g.bin", &b[..5]).is_err());
    }

    #[test]
    fn words_round_trip_and_plain_text_reads_as_words() {
        let w = PbbsData::Words(b"the cat\nsat on the mat ".to_vec());
        assert_eq!(parse("w", &to_text(&w)).unwrap(), w);
        let dir = std::env::temp_dir().join(format!("pbbs_words_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("trigramString_9");
        write(&p, &w).unwrap();
        assert_eq!(read_words(&p).unwrap(), b"the cat\nsat on the mat ");
        // PBBS's own trigramString files have no header.
        std::fs::write(&p, b"plain words here\n").unwrap();
        assert_eq!(read_words(&p).unwrap(), b"plain words here\n");
        std::fs::write(&p, b"ok\nbad \xff\n").unwrap();
        let e = read_words(&p).unwrap_err();
        assert!(
            e.ends_with("trigramString_9:2: not ASCII text (byte 7)"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_round_trip_through_disk() {
        let dir = std::env::temp_dir().join(format!("pbbs_io_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let g = PbbsData::Adjacency(AdjGraph {
            offsets: vec![0, 2],
            edges: vec![1, 0, 0],
        });
        for name in ["g_text", "g.bin"] {
            let p = dir.join(name);
            write(&p, &g).unwrap();
            assert_eq!(read(&p).unwrap(), g);
        }
        let e = read(&dir.join("missing")).unwrap_err();
        assert!(e.contains("missing: cannot read"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
