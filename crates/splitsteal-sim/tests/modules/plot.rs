use splitsteal_sim::plot::*;

#[test]
fn writes_svg_files() {
    let dir = std::env::temp_dir().join(format!("splitsteal-sim-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let b = dir.join("box.svg");
    box_plot(
        &b,
        "t",
        "x",
        "y",
        &[
            BoxData {
                label: "a\nline 2".into(),
                group: 0,
                samples: vec![1.0, 2.0, 3.0, 10.0],
            },
            BoxData {
                label: "b".into(),
                group: 1,
                samples: vec![2.0, 2.5],
            },
        ],
        &["one".into(), "two".into()],
        Some((1.0, "reference")),
    )
    .unwrap();
    let l = dir.join("line.svg");
    line_plot(
        &l,
        "t",
        "x",
        "y",
        &[Series {
            name: "s".into(),
            points: vec![(1.0, 10.0), (2.0, 1000.0)],
            reference: false,
        }],
        true,
        true,
    )
    .unwrap();
    for f in [b, l] {
        let s = std::fs::read_to_string(&f).unwrap();
        assert!(
            s.starts_with("<svg") && s.contains("</svg>"),
            "{}",
            f.display()
        );
        splitsteal_report::svg_check::check_svg(&s).unwrap();
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The two real layouts: the sweep's 16 two-line boxes and the kernel's 9 long labels.
#[test]
fn full_size_box_plots_keep_every_label_inside() {
    let dir = std::env::temp_dir().join(format!("splitsteal-sim-plot-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let samples: Vec<f64> = (0..200).map(|i| 3.0 + (i % 37) as f64 / 7.0).collect();
    let sweep: Vec<BoxData> = (0..16)
        .map(|i| BoxData {
            label: format!("W=10^{}\np={}", 5 + i / 4, 256 >> (i % 4)),
            group: i % 4,
            samples: samples.clone(),
        })
        .collect();
    let kernel: Vec<BoxData> = (0..9)
        .map(|i| BoxData {
            label: format!("oblivious\nyieldToRandom{i}"),
            group: i % 3,
            samples: samples.iter().map(|v| v.log10()).collect(),
        })
        .collect();
    let groups: Vec<String> = (0..4).map(|g| format!("p = {g}")).collect();
    for (name, boxes) in [("sweep", sweep), ("kernel", kernel)] {
        let f = dir.join(format!("{name}.svg"));
        box_plot(
            &f,
            "Overhead ratio, all λ pooled (25000 runs per box), split = halving",
            "(W, p)",
            "overhead ratio",
            &boxes,
            &groups,
            Some((1.0, "ratio 1: bound met exactly")),
        )
        .unwrap();
        splitsteal_report::svg_check::check_svg_file(&f).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    std::fs::remove_dir_all(&dir).ok();
}
