#!/usr/bin/env bash
# iter-across-builds.sh: the iter section (issue 31) on four builds of the same source that
# differ only in code alignment, and each row's ratio to rayon in every build side by side.
#
#   scripts/iter-across-builds.sh [--reps N] [WORKLOAD...]   (default: 7 reps, every program)
#
# Why: rows whose two sides run the same instructions come out 10-20% slower than rayon
# in one build and level or faster in the next, with their code unchanged, as the linker
# places the hot loops of both libraries (the rayon-compatibility log in the CHANGELOG, fourteenth stop). One build's
# "slower" list is then a fact about that build's layout; a row slower in every layout is
# a fact about the code. The builds: the plain release build, and three with LLVM's
# alignment options (blocks and functions; loops to 64 bytes; loops to 32), each in its
# own target folder under target/layouts/ (the release build in target/). Prints, per row
# with a ratio above 1.05 in some build or a median above 1, the four ratios and their
# median, then each build's geometric mean. About 9 minutes of builds and 5 of runs on 2
# cores. Not in CI.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
reps=7
case "${1:-}" in
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    --reps) reps=${2:?--reps needs a number}; shift 2 ;;
esac
workloads=()
[ $# -gt 0 ] && workloads=(--workload "$(IFS=,; echo "$*")")
command -v python3 >/dev/null || { echo "iter-across-builds.sh: python3 not found" >&2; exit 2; }
LAYOUTS=(
    "release:"
    "align-blocks:-C llvm-args=-align-all-nofallthru-blocks=5 -C llvm-args=-align-all-functions=6"
    "loops64:-C llvm-args=-align-loops=64"
    "loops32:-C llvm-args=-align-loops=32"
)
reports=()
for layout in "${LAYOUTS[@]}"; do
    name=${layout%%:*}
    flags=${layout#*:}
    dir="$ROOT/target/layouts/$name"
    [ "$name" = release ] && dir="$ROOT/target"   # the build users get: the usual folder
    echo "== $name: building (RUSTFLAGS=\"$flags\")" >&2
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="$dir" cargo build --quiet --release -p splitsteal-cli \
        --manifest-path "$ROOT/Cargo.toml"
    echo "== $name: running the iter section" >&2
    "$dir/release/splitsteal" bench --mode iter --threads 1,2 --reps "$reps" "${workloads[@]}" \
        --out "$ROOT/target/layouts/$name-report" >/dev/null
    reports+=("$name=$ROOT/target/layouts/$name-report/results.csv")
done
python3 - "${reports[@]}" <<'PY'
import csv, math, statistics, sys
builds = dict(arg.split("=", 1) for arg in sys.argv[1:])
ratios = {}
for name, path in builds.items():
    for row in csv.DictReader(open(path)):
        if row["scheduler"] == "lcws-signal" and row["vs_rayon"]:
            key = (row["workload"], int(row["threads"]))
            ratios.setdefault(key, {})[name] = float(row["vs_rayon"])
names = list(builds)
print("%-26s %3s %s %7s" % ("program", "thr", " ".join("%12s" % n for n in names), "median"))
medians = []
for key, by_build in sorted(ratios.items()):
    if len(by_build) < len(names):
        continue
    median = statistics.median(by_build.values())
    medians.append(median)
    if median > 1 or max(by_build.values()) > 1.05:
        cells = " ".join("%12.2f" % by_build[n] for n in names)
        print("%-26s %3d %s %7.2f" % (key[0], key[1], cells, median))
print("rows: %d; highest median over the builds: %.2f" % (len(medians), max(medians)))
for n in names:
    logs = [math.log(v[n]) for v in ratios.values() if n in v]
    print("%s: geometric mean %.3f x rayon" % (n, math.exp(sum(logs) / len(logs))))
PY
