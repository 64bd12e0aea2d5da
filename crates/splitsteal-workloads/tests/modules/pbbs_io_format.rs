use splitsteal_workloads::pbbs_io::format::*;
use splitsteal_workloads::workloads::splitmix64;

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
