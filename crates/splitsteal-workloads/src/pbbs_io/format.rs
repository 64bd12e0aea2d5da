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
