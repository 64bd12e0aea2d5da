use splitsteal::Serial;
use splitsteal_workloads::workloads::knapsack::*;

/// Prints the serial search time for a range of sizes (to pick `n_for`):
/// `cargo test --release -p splitsteal-bench calibrate_knapsack -- --ignored --nocapture`
#[test]
#[ignore]
fn calibrate_knapsack() {
    for n in 40..=70 {
        let (items, cap) = generate(n, INSTANCE_SEED);
        let t = std::time::Instant::now();
        let v = knapsack(&mut Serial, &items, cap);
        println!("n = {n}: {v} in {:?}", t.elapsed());
        if t.elapsed().as_secs_f64() > 2.0 {
            break;
        }
    }
}

#[test]
fn matches_exhaustive_search() {
    for seed in 0..5 {
        let (items, cap) = generate(12, seed);
        let mut brute = 0;
        for mask in 0u32..(1 << items.len()) {
            let (w, v) = items
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .fold((0, 0), |(w, v), (_, it)| (w + it.weight, v + it.value));
            if w <= cap {
                brute = brute.max(v);
            }
        }
        assert_eq!(knapsack_reference(&items, cap), brute);
        assert_eq!(knapsack(&mut Serial, &items, cap), brute);
    }
}
