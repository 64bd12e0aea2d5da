use splitsteal_bench::plot::*;

#[test]
fn charts_render_to_svg() {
    let dir = std::env::temp_dir().join(format!("splitsteal-bench-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let b = Bars {
        title: "t".into(),
        y_desc: "y".into(),
        categories: vec!["a".into(), "b".into()],
        series: vec![
            ("s".into(), vec![Some(1.0), None]),
            ("uniq-series".into(), vec![Some(2.0), Some(0.5)]),
        ],
        log_y: true,
        reference: Some(1.0),
    };
    b.draw(&dir.join("b.svg")).unwrap();
    let l = Lines {
        title: "t".into(),
        x_desc: "x".into(),
        y_desc: "y".into(),
        series: vec![
            ("s".into(), vec![(1.0, 1.0), (2.0, 4.0)], false),
            ("r".into(), vec![(1.0, 2.0)], true),
        ],
        log_x: false,
        log_y: true,
        x_pow2: false,
    };
    l.draw(&dir.join("l.svg")).unwrap();
    let svg = std::fs::read_to_string(dir.join("b.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<text"));
    assert!(svg.contains("uniq-series"), "legend entries are drawn");
    assert_eq!(fmt_axis(1_000_000.0), "1M");
    assert_eq!(fmt_axis(25_000.0), "25k");
    assert_eq!(fmt_axis(16.0), "16");
    assert_eq!(fmt_axis(0.5), "0.5");
    assert_eq!(fmt_axis(0.25), "0.25");
    std::fs::remove_dir_all(&dir).unwrap();
}
#[test]
fn log_axes_get_ticks_below_one() {
    // A ×rayon axis from 0.3 to 6: slower-than-rayon bars must be readable.
    let t = log_ticks(0.3, 6.0);
    assert!(
        t.contains(&0.5) && t.contains(&1.0) && t.contains(&5.0),
        "{t:?}"
    );
    assert!(t.iter().any(|&x| x < 1.0));
    // A short range still gets several ticks.
    assert!(log_ticks(0.8, 1.6).len() >= 3, "{:?}", log_ticks(0.8, 1.6));
    assert_eq!(fmt_log_tick(0.5), "0.5");
    assert_eq!(fmt_log_tick(1.5), "1.5");
    assert_eq!(fmt_log_tick(200.0), "200");
}

#[test]
fn similar_series_and_reference_lines_are_told_apart() {
    let s = |n: &str, dashed: bool| -> Series { (n.into(), vec![(1.0, 1.0)], dashed) };
    let series = vec![
        s("lcws-signal", false),
        s("lcws-half", false),
        s("∝ work (joins)", true),
        s("∝ span (n)", true),
    ];
    let st = line_styles(&series);
    let (sig, half, work, span) = (st[0], st[1], st[2], st[3]);
    assert_ne!(sig.0, half.0, "lcws-signal and lcws-half share a colour");
    let marker = |sw: Swatch| match sw {
        Swatch::Line(m) => m,
        _ => panic!("a scheduler series without a marker"),
    };
    assert_ne!(marker(sig.1), marker(half.1));
    let dash = |sw: Swatch| match sw {
        Swatch::Dashed(k) => ref_dash(k),
        _ => panic!("a reference line drawn solid"),
    };
    assert_ne!(dash(work.1), dash(span.1));
    for (c, _) in [work, span] {
        assert!(
            c != half.0 && c != sig.0,
            "a reference line in a scheduler's colour"
        );
    }
    // Every scheduler has its own colour, on every plot: with a thread count in the
    // series name too, and no other series (a library, a setting) takes one of them.
    let mut names: Vec<&str> = splitsteal_bench::sched::SchedulerKind::all()
        .iter()
        .map(|k| k.name())
        .collect();
    names.push("forte");
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            assert_ne!(color_of(a, 0), color_of(b, 0), "{a} and {b}");
        }
        assert_eq!(color_of(&format!("{a}@1"), 3), color_of(a, 0), "{a}@1");
        for o in 0..OTHER.len() {
            assert_ne!(color_of("other", o), color_of(a, 0), "OTHER[{o}] is {a}'s");
        }
    }
    // Threads are told apart by fill: the fewest outlined, the most solid.
    let ser = ["lcws-signal@1", "lcws-signal@2", "rayon", "x@4"];
    assert_eq!(thread_fill(&ser, 0), Fill::Outline);
    assert_eq!(thread_fill(&ser, 1), Fill::Solid);
    assert_eq!(thread_fill(&ser, 2), Fill::Solid);
    assert_eq!(thread_fill(&ser, 3), Fill::Solid);
}
