#!/usr/bin/env bash
# compile-bench.sh: what switching to splitsteal costs a user crate at build time (issue 32).
#
#   scripts/compile-bench.sh [--reps N] [--profile release|debug]...
#
# Builds one fixed user program (scripts/compile-bench/main.rs: iterators, sorts, a `join`
# quicksort, a fold/reduce word count, a scope) twice, unchanged: against rayon 1.12 and
# against splitsteal by the Cargo rename (`rayon = { package = "splitsteal", path = ... }`).
# Each variant is its own crate with its own target dir under target/compile-bench/. With
# the dependencies prebuilt, it measures per profile, the two variants interleaved, N reps:
#   clean   `cargo build` of the user crate after `cargo clean -p user` (dependencies kept)
#   edit    the rebuild after a one-line edit of main.rs (its `EDIT` constant)
#   binary  the executable's size
#   IR      LLVM IR lines of the user crate before optimization (what `cargo llvm-lines`
#           counts: every monomorphized copy of generic code the crate instantiates)
# and prints medians (min-max) side by side with splitsteal / rayon. rayon comes from the
# cargo cache or the registry (`cargo fetch`). Not in CI (several minutes on 2 cores).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPS=3
PROFILES=()
while [ $# -gt 0 ]; do
    case "$1" in
        --reps) REPS="$2"; shift 2 ;;
        --profile) PROFILES+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "compile-bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ ${#PROFILES[@]} -eq 0 ] && PROFILES=(release debug)
for p in "${PROFILES[@]}"; do
    case "$p" in release|debug) ;; *) echo "compile-bench.sh: --profile is release or debug, not '$p'" >&2; exit 2 ;; esac
done
case "$REPS" in ''|*[!0-9]*|0) echo "compile-bench.sh: --reps must be a positive integer" >&2; exit 2 ;; esac

WORK="$ROOT/target/compile-bench"
VARIANTS=(rayon splitsteal)
dep_line() {
    case "$1" in
        rayon) echo 'rayon = "=1.12.0"' ;;
        splitsteal) echo "rayon = { package = \"splitsteal\", path = \"$ROOT/crates/splitsteal\" }" ;;
    esac
}
for v in "${VARIANTS[@]}"; do
    mkdir -p "$WORK/$v/src"
    cat > "$WORK/$v/Cargo.toml" <<TOML
[package]
name = "user"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
$(dep_line "$v")

# Not part of splitsteal's workspace.
[workspace]
TOML
    cp "$ROOT/scripts/compile-bench/main.rs" "$WORK/$v/src/main.rs"
done

cargo_in() { # variant profile args...
    local v=$1 p=$2; shift 2
    local flag=(); [ "$p" = release ] && flag=(--release)
    (cd "$WORK/$v" && CARGO_TARGET_DIR="$WORK/$v/target" cargo "$@" "${flag[@]}" -q)
}
now() { date +%s.%N; }
set_edit() { # variant value
    sed -i -e "s/^const EDIT: u64 = .*;/const EDIT: u64 = $2;/" "$WORK/$1/src/main.rs"
}
bin_dir() { [ "$2" = release ] && echo "$WORK/$1/target/release" || echo "$WORK/$1/target/debug"; }

RESULTS="$WORK/results.txt"
: > "$RESULTS"
for p in "${PROFILES[@]}"; do
    for v in "${VARIANTS[@]}"; do
        echo "prebuilding $v ($p) ..." >&2
        set_edit "$v" 0
        cargo_in "$v" "$p" build
    done
    for r in $(seq 1 "$REPS"); do
        for v in "${VARIANTS[@]}"; do
            cargo_in "$v" "$p" clean -p user
            t0=$(now); cargo_in "$v" "$p" build; t1=$(now)
            echo "$p $v clean $(echo "$t1 - $t0" | bc)" >> "$RESULTS"
            set_edit "$v" "$r"
            t0=$(now); cargo_in "$v" "$p" build; t1=$(now)
            echo "$p $v edit $(echo "$t1 - $t0" | bc)" >> "$RESULTS"
            echo "$p $v binary $(stat -c %s "$(bin_dir "$v" "$p")/user")" >> "$RESULTS"
            echo "  $p rep $r: $v done" >&2
        done
    done
    for v in "${VARIANTS[@]}"; do
        # Pre-optimization IR, as cargo-llvm-lines counts it.
        touch "$WORK/$v/src/main.rs"
        rm -f "$(bin_dir "$v" "$p")"/deps/user-*.ll
        (cd "$WORK/$v" && CARGO_TARGET_DIR="$WORK/$v/target" cargo rustc -q $([ "$p" = release ] && echo --release) \
            -- --emit=llvm-ir -Cno-prepopulate-passes -Cpasses=name-anon-globals)
        lines=$(cat "$(bin_dir "$v" "$p")"/deps/user-*.ll | wc -l)
        echo "$p $v ir $lines" >> "$RESULTS"
    done
done

python3 - "$RESULTS" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    p, v, what, x = line.split()
    rows.setdefault((p, what, v), []).append(float(x))
def fmt(what, xs):
    m = statistics.median(xs)
    if what in ("clean", "edit"):
        s = f"{m:.1f} s"
        return s + (f" ({min(xs):.1f}-{max(xs):.1f})" if len(xs) > 1 else "")
    if what == "binary":
        return f"{m / 1e6:.2f} MB"
    return f"{int(m):,}"
names = {"clean": "clean build (deps prebuilt)", "edit": "rebuild after a one-line edit",
         "binary": "binary size", "ir": "LLVM IR lines (user crate)"}
print("| profile | measure | rayon 1.12 | splitsteal | splitsteal / rayon |")
print("|---|---|---:|---:|---:|")
for p in dict.fromkeys(k[0] for k in rows):
    for what in ("clean", "edit", "binary", "ir"):
        r, s = rows.get((p, what, "rayon")), rows.get((p, what, "splitsteal"))
        if not r or not s:
            continue
        ratio = statistics.median(s) / statistics.median(r)
        print(f"| {p} | {names[what]} | {fmt(what, r)} | {fmt(what, s)} | {ratio:.2f} |")
PY
