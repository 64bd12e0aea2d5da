#!/usr/bin/env bash
# patch-recipe.sh: checks compat/README.md's recipe, which moves a whole dependency tree
# from rayon to splitsteal with one `[patch.crates-io]`.
#
#   scripts/patch-recipe.sh [--all]
#
# Makes a fresh program in target/patch-recipe/app that depends on image (its `rayon`
# feature; only the PNG codec, to keep the build short), ndarray (feature `rayon`) and
# blake3 (feature `rayon`, which uses rayon-core directly), adds the recipe's
# `[patch.crates-io]` lines and nothing else, builds it, and checks that
#   - `cargo tree -i rayon` and `cargo tree -i rayon-core` show only the shims;
#   - each crate's parallel path (image's par_enumerate_pixels_mut, ndarray's par_azip and
#     par_map_inplace, blake3's update_rayon) gives what the serial computation gives, under
#     two policies;
#   - the parallel paths ran on splitsteal's pool: with SPLITSTEAL_POLICY set to a policy
#     that does not exist, the program fails naming the variable.
# Exit status 0 only if all of that holds. With --all it also tries the other forms the
# README gives, the git form (the repository's committed HEAD, as `git = "file://..."`)
# and `[patch.crates-io]` in a workspace's `.cargo/config.toml`, and prints what cargo says
# for a dependency that asks for a rayon the shims do not cover (`=1.10.0`, `1.13`); those
# also count in the exit status. From a cold target folder the time is image's dependencies
# in release (about 40 minutes on 2 cores shared with four other builds; the first run
# fetches the crates from crates.io); 10 s once built, and --all adds about 7 minutes (the
# git form builds splitsteal and the crates above it again).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK="$ROOT/target/patch-recipe"
export CARGO_TARGET_DIR="$WORK/target"

all=0
case "${1:-}" in
    "") ;;
    --all) all=1 ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) echo "patch-recipe.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

# The README's recipe, verbatim but for the repository's path.
recipe() { # the path the README writes as <repo>
    cat <<EOF
[patch.crates-io]
rayon = { path = "$1/compat/rayon" }
rayon-core = { path = "$1/compat/rayon-core" }
EOF
}

# A program using the three crates' parallel paths. $1: its directory; $2: text to append
# to its manifest (the patch, or nothing); $3: "light" for one without image (quicker to
# build again, for the forms that build splitsteal from another source).
make_app() {
    rm -rf "$1"
    mkdir -p "$1/src"
    cat >"$1/Cargo.toml" <<'EOF'
[package]
name = "patch-recipe-app"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
image = { version = "0.25", default-features = false, features = ["rayon", "png"] }
ndarray = { version = "0.17", features = ["rayon"] }
blake3 = { version = "1", features = ["rayon"] }
EOF
    [ -z "$2" ] || printf '\n%s\n' "$2" >>"$1/Cargo.toml"
    local filter=(cat)
    if [ "${3:-}" = light ]; then
        sed -i '/^image = /d' "$1/Cargo.toml"
        filter=(sed -e '/^    \/\/ image:/,/^$/d' -e '/^use image/d' -e '/^fn shade/,/^}/d')
    fi
    "${filter[@]}" >"$1/src/main.rs" <<'EOF'
use image::{ImageBuffer, Rgb};
use ndarray::parallel::prelude::*;
use ndarray::{par_azip, Array2};

fn shade(x: u32, y: u32) -> Rgb<u8> {
    Rgb([(x * 7 + y) as u8, (x ^ y) as u8, (x * y / 3) as u8])
}

fn main() {
    // image: each pixel computed in parallel, against ImageBuffer::from_fn.
    let (width, height) = (700, 500);
    let mut parallel = ImageBuffer::new(width, height);
    parallel
        .par_enumerate_pixels_mut()
        .for_each(|(x, y, pixel)| *pixel = shade(x, y));
    assert!(parallel == ImageBuffer::from_fn(width, height, shade), "image");

    // ndarray: an elementwise update, an in-place map and a sum, against loops.
    let a = Array2::from_shape_fn((400, 300), |(i, j)| (i * 31 + j * 17) as u64);
    let mut b = Array2::from_shape_fn((400, 300), |(i, j)| (i ^ j) as u64);
    par_azip!((b in &mut b, &a in &a) *b = *b * 3 + a);
    b.par_map_inplace(|v| *v = v.wrapping_mul(*v) % 1_000_003);
    let mut serial = Array2::zeros((400, 300));
    for ((i, j), v) in serial.indexed_iter_mut() {
        let x = ((i ^ j) as u64) * 3 + (i * 31 + j * 17) as u64;
        *v = x.wrapping_mul(x) % 1_000_003;
    }
    assert_eq!(b, serial, "ndarray");
    assert_eq!(b.par_iter().sum::<u64>(), serial.iter().sum::<u64>(), "ndarray sum");

    // blake3: a hash over 4 MiB split across the pool, against the one-thread hash.
    let data: Vec<u8> = (0..4u32 << 20).map(|i| (i * 7 ^ i >> 5) as u8).collect();
    let mut hasher = blake3::Hasher::new();
    hasher.update_rayon(&data);
    assert_eq!(hasher.finalize(), blake3::hash(&data), "blake3");

    println!("the parallel results equal the serial ones");
}
EOF
}

# Checks `cargo tree -i` in directory $1 shows only the shims (sources in $2, a pattern).
only_shims() {
    local crate tree
    for crate in rayon rayon-core; do
        tree=$(cd "$1" && cargo tree -q -i "$crate" --prefix none 2>&1 | grep -E "^$crate v" | sort -u) || true
        echo "  cargo tree -i $crate: ${tree:-nothing}"
        if [ -z "$tree" ] || grep -v -E "^$crate v[0-9.]+ \\($2\\)$" <<<"$tree" | grep -q .; then
            echo "  FAILED: not only the shim"
            return 1
        fi
    done
}

failed=0
check() { # description command...
    local description=$1
    shift
    if "$@"; then
        echo "ok: $description"
    else
        echo "FAILED: $description"
        failed=1
    fi
}

run_app() { # dir
    local policy out
    for policy in asym lcws-signal; do
        out=$(cd "$1" && SPLITSTEAL_POLICY=$policy cargo run -q --release 2>&1) || {
            echo "$out"
            return 1
        }
        echo "  under $policy: $out"
    done
    # Only splitsteal reads SPLITSTEAL_POLICY: a bad one fails the global pool's start.
    if out=$(cd "$1" && SPLITSTEAL_POLICY=no-such-policy cargo run -q --release 2>&1); then
        echo "  a bad SPLITSTEAL_POLICY did not fail the program: not splitsteal's pool"
        return 1
    fi
    grep -q SPLITSTEAL_POLICY <<<"$out" || { echo "$out"; return 1; }
    echo "  with SPLITSTEAL_POLICY=no-such-policy: $(grep -m1 SPLITSTEAL_POLICY <<<"$out")"
}

echo "== path form: the recipe in the program's Cargo.toml"
app="$WORK/app"
# (The `[workspace]` table only keeps this program out of the repository's workspace, which
# it lies inside; a program elsewhere needs none.)
make_app "$app" "$(recipe "$ROOT")
[workspace]"
check "builds with the recipe" bash -c "cd '$app' && nice cargo build -q --release"
check "only the shims in the tree" only_shims "$app" "$ROOT/compat/(rayon|rayon-core)"
check "parallel results equal the serial ones, on splitsteal's pool" run_app "$app"

if [ $all -eq 1 ]; then
    echo "== git form: the repository's committed HEAD"
    app="$WORK/app-git"
    make_app "$app" "[patch.crates-io]
rayon = { git = \"file://$ROOT\" }
rayon-core = { git = \"file://$ROOT\" }
[workspace]" light
    check "builds from git" bash -c "cd '$app' && nice cargo build -q --release"
    check "only the shims in the tree" only_shims "$app" "file://$ROOT#[0-9a-f]+"
    check "parallel results equal the serial ones, on splitsteal's pool" run_app "$app"

    echo "== .cargo/config.toml form: the recipe in a workspace's cargo configuration"
    ws="$WORK/workspace"
    rm -rf "$ws"
    make_app "$ws/app" ""
    printf '[workspace]\nresolver = "2"\nmembers = ["app"]\n' >"$ws/Cargo.toml"
    mkdir -p "$ws/.cargo"
    recipe "$ROOT" >"$ws/.cargo/config.toml"
    check "builds with the config patch" bash -c "cd '$ws' && nice cargo build -q --release"
    check "only the shims in the tree" only_shims "$ws" "$ROOT/compat/(rayon|rayon-core)"

    echo "== a dependency asking for a rayon the shims do not cover"
    for requirement in "=1.10.0" "1.13"; do
        dir="$WORK/unsupported"
        rm -rf "$dir"
        mkdir -p "$dir/src"
        printf '[package]\nname = "wants-rayon"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\nrayon = "%s"\n\n%s\n[workspace]\n' \
            "$requirement" "$(recipe "$ROOT")" >"$dir/Cargo.toml"
        echo 'fn main() { println!("{}", rayon::current_num_threads()); }' >"$dir/src/main.rs"
        echo "-- rayon = \"$requirement\": cargo build says"
        (cd "$dir" && cargo build 2>&1 | grep -v -E '^\s*(Compiling|Finished|Locking|Adding|Updating|Downloaded?|Downloading|Blocking)\b' |
            sed 's/^/   /' | head -20) || true
        for crate in rayon rayon-core; do
            tree=$(cd "$dir" && cargo tree -q -i $crate --prefix none 2>/dev/null | grep -E "^$crate v" | sort -u) || true
            echo "   cargo tree -i $crate: ${tree:-nothing (no build)}"
        done
        # Only splitsteal's pool reads SPLITSTEAL_NUM_THREADS.
        threads=$(cd "$dir" && SPLITSTEAL_NUM_THREADS=3 cargo run -q 2>/dev/null) || threads="(no program)"
        echo "   rayon::current_num_threads() with SPLITSTEAL_NUM_THREADS=3: $threads"
    done
fi
[ $failed -eq 0 ] && echo "RESULT: the recipe works" || echo "RESULT: FAILED"
exit $failed
