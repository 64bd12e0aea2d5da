use splitsteal::Serial;
use splitsteal_workloads::pbbs_io::check::*;
use splitsteal_workloads::workloads::pbbs::graph::{bfs_depths_reference, NONE};
use splitsteal_workloads::workloads::pbbs::hull::cross;
use splitsteal_workloads::workloads::pbbs::{graph, hull as wh};

#[test]
fn sort_checker_rejects_swaps_and_drops() {
    let inp = vec![3, 1, 2, 2];
    assert!(sorted_permutation(&inp, &[1, 2, 2, 3], i32::cmp).is_ok());
    assert!(sorted_permutation(&inp, &[2, 1, 2, 3], i32::cmp).is_err());
    assert!(sorted_permutation(&inp, &[1, 2, 3], i32::cmp).is_err());
    assert!(sorted_permutation(&inp, &[1, 2, 3, 3], i32::cmp).is_err());
}

#[test]
fn dedup_and_histogram_checkers_reject_wrong_outputs() {
    let inp = [5, 1, 5, 2];
    assert!(dedup(&inp, &[2, 5, 1]).is_ok());
    assert!(dedup(&inp, &[2, 5]).is_err());
    assert!(dedup(&inp, &[2, 5, 1, 1]).is_err());
    assert!(dedup(&inp, &[2, 5, 1, 7]).is_err());
    assert!(histogram(&[0, 2, 2], &[1, 0, 2]).is_ok());
    assert!(histogram(&[0, 2, 2], &[1, 1, 1]).is_err());
    assert!(histogram(&[0, 3], &[1, 0, 0]).is_err());
}

#[test]
fn graph_checkers_accept_real_outputs_and_reject_broken_ones() {
    let g = graph::rmat(10, 6000, 3);
    let src = (0..g.n() as u32)
        .max_by_key(|&v| g.neighbors(v).len())
        .unwrap();
    let (mut parent, _) = graph::bfs(&mut Serial, &g, src);
    bfs_tree(&g, src, &parent).unwrap();
    let v = (0..g.n())
        .find(|&v| parent[v] != NONE && v as u32 != src)
        .unwrap();
    parent[v] = NONE;
    assert!(bfs_tree(&g, src, &parent).is_err());
    parent[v] = src; // wrong unless v is at depth 1
    if !g.neighbors(src).contains(&(v as u32)) {
        assert!(bfs_tree(&g, src, &parent).is_err());
    }
    let mut m = graph::mis(&mut Serial, &g, 9);
    mis(&g, &m).unwrap();
    let u = (0..g.n())
        .find(|&u| m[u] && !g.neighbors(u as u32).is_empty())
        .unwrap();
    let w = g.neighbors(u as u32)[0] as usize;
    m[w] = true;
    assert!(mis(&g, &m).unwrap_err().starts_with("not independent"));
    m[w] = false;
    m[u] = false;
    assert!(mis(&g, &m).unwrap_err().starts_with("not maximal"));
}

#[test]
fn hull_checker_rejects_wrong_hulls() {
    let pts = wh::in_disk(2000, 4);
    let h = wh::monotone_chain(&pts);
    hull(&pts, &h).unwrap();
    let mut dropped = h.clone();
    dropped.remove(3);
    assert!(hull(&pts, &dropped).is_err());
    let mut cw = h.clone();
    cw.reverse();
    assert!(hull(&pts, &cw).is_err());
    let mut moved = h.clone();
    moved[0] = (RADIUS_PLUS, 0);
    assert!(hull(&pts, &moved).is_err());
}

const RADIUS_PLUS: i64 = wh::RADIUS + 5;

#[test]
fn hull_check_accepts_boundary_points_and_rejects_a_point_just_outside() {
    // A square with points on every edge, at the corners twice, and at the centre:
    // all inside or on; the binary search must place each in its wedge.
    let sq = vec![(0, 0), (4, 0), (4, 4), (0, 4)];
    let mut pts = sq.clone();
    pts.extend([
        (2, 0),
        (4, 2),
        (2, 4),
        (0, 2),
        (0, 0),
        (2, 2),
        (1, 3),
        (3, 1),
    ]);
    hull(&pts, &sq).unwrap();
    // Rotated start: still a valid hull.
    hull(&pts, &[(4, 4), (0, 4), (0, 0), (4, 0)]).unwrap();
    for out in [(5, 2), (2, -1), (-1, 0), (0, 5), (4, 5), (5, 5)] {
        let mut p = pts.clone();
        p.push(out);
        let e = hull(&p, &sq).unwrap_err();
        assert!(e.contains(&format!("{out:?} is outside")), "{out:?}: {e}");
    }
    // On the diagonal from h[0] past h[k-1]'s line: the last wedge's special case.
    let tri = vec![(0, 0), (4, 0), (0, 4)];
    let inner = vec![(0, 0), (4, 0), (0, 4), (0, 2), (2, 2), (1, 1)];
    hull(&inner, &tri).unwrap();
    let mut past = inner.clone();
    past.push((0, 6));
    assert!(hull(&past, &tri).is_err());
    let mut behind = inner.clone();
    behind.push((0, -1));
    assert!(hull(&behind, &tri).is_err());
}

#[test]
fn inside_convex_agrees_with_the_edge_by_edge_test() {
    let pts = wh::in_disk(3000, 9);
    let h = wh::monotone_chain(&pts);
    let r = wh::RADIUS;
    for i in 0..20_000i64 {
        let p = (
            (splitsteal_workloads::workloads::splitmix64(i as u64) % (2 * r as u64 + 40)) as i64
                - r
                - 20,
            (splitsteal_workloads::workloads::splitmix64(!i as u64) % (2 * r as u64 + 40)) as i64
                - r
                - 20,
        );
        let slow = (0..h.len()).all(|j| cross(h[j], h[(j + 1) % h.len()], p) >= 0);
        assert_eq!(inside_convex(&h, p), slow, "{p:?}");
    }
    for &p in &h {
        assert!(inside_convex(&h, p));
    }
}

#[test]
fn word_count_checker_rejects_wrong_counts() {
    let text = b"the cat, the hat\nthe end";
    let is_letter = |b: u8| b.is_ascii_lowercase();
    // (start, length, count) of the, cat, hat, end.
    let good = [(0, 3, 3), (4, 3, 1), (13, 3, 1), (21, 3, 1)];
    word_counts(text, &good, is_letter).unwrap();
    let mut wrong = good;
    wrong[0].2 = 2;
    assert!(word_counts(text, &wrong, is_letter)
        .unwrap_err()
        .contains("count 2"));
    assert!(word_counts(text, &good[..3], is_letter)
        .unwrap_err()
        .contains("'end' is missing"));
    let twice = [good[0], good[1], good[2], good[3], (9, 3, 3)];
    assert!(word_counts(text, &twice, is_letter)
        .unwrap_err()
        .contains("twice"));
    let bogus = [good[0], good[1], good[2], (1, 3, 1)];
    assert!(word_counts(text, &bogus, is_letter)
        .unwrap_err()
        .contains("'he ' is not a word"));
    assert!(word_counts(text, &[(30, 3, 1)], is_letter).is_err());
}

#[test]
fn prepared_sort_check_is_the_one_shot_check() {
    let inp = [5u32, 1, 4, 1];
    let s = SortedPermutation::new(&inp, u32::cmp);
    assert!(s.check(&[1, 1, 4, 5], u32::cmp).is_ok());
    assert!(s
        .check(&[1, 4, 1, 5], u32::cmp)
        .unwrap_err()
        .starts_with("not sorted"));
    assert!(s
        .check(&[1, 1, 4, 6], u32::cmp)
        .unwrap_err()
        .starts_with("not a permutation"));
    let g = graph::rmat(8, 1500, 2);
    let (parent, _) = graph::bfs(&mut Serial, &g, 0);
    let d = bfs_depths_reference(&g, 0);
    bfs_tree_with_depths(&g, 0, &d, &parent).unwrap();
    assert!(bfs_tree_with_depths(&g, 0, &d, &parent[1..]).is_err());
}
