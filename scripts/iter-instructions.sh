#!/usr/bin/env bash
# iter-instructions.sh: the iter section's programs at one thread, counted in instructions
# (callgrind) instead of timed: splitsteal's default policy against rayon's prelude (issue 31).
#
#   scripts/iter-instructions.sh [WORKLOAD...]      (default: every iter program)
#
# A count does not drift with the machine's load, so it shows a per-item or per-split cost
# that wall times on a shared host hide in their spread. Per program it runs the release
# CLI under callgrind four times (`--quick` input, 1 thread, no warm-up): lcws-signal and
# rayon, each with --reps 1 and --reps 3; the difference of the two is two runs of the
# program alone (input generation and the report cancel out). Prints
#   PROGRAM  splitsteal INSTRUCTIONS  rayon INSTRUCTIONS  ratio R
# per run of the program, sorted with the highest ratio first. Needs valgrind and a release
# build (`cargo build --release -p splitsteal-cli`); about 5 minutes for all 72 programs
# on 2 cores. Not in CI. One thread only: at two, callgrind serializes the threads and
# counts the idle worker's spinning. Instructions are not time (cache misses, branch
# mispredictions and parallelism are not in them): a ratio above 1 is a place to look.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN="$ROOT/target/release/splitsteal"
case "${1:-}" in -h|--help) sed -n '2,17p' "$0"; exit 0 ;; esac
command -v valgrind >/dev/null || { echo "iter-instructions.sh: valgrind not found" >&2; exit 2; }
[ -x "$BIN" ] || { echo "iter-instructions.sh: build $BIN first (cargo build --release -p splitsteal-cli)" >&2; exit 2; }
if [ $# -gt 0 ]; then
    programs=("$@")
else
    mapfile -t programs < <("$BIN" bench --list | awk '/^  [a-z0-9-]+ +\[iter/ {print $1}')
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Instructions of one process: the CLI on `program` under `policy`, `reps` timed runs.
count() {
    local program=$1 policy=$2 reps=$3 log
    log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BIN" bench --mode iter \
        --quick --workload "$program" --policy "$policy" --threads 1 --reps "$reps" \
        --warmup 0 --out "$out/report" 2>&1) || {
        echo "iter-instructions.sh: $program on $policy failed:" >&2
        echo "$log" | tail -5 >&2
        exit 1
    }
    echo "$log" | grep -o 'refs: *[0-9,]*' | tr -dc 0-9
}
for p in "${programs[@]}"; do
    s1=$(count "$p" lcws-signal 1); s3=$(count "$p" lcws-signal 3)
    r1=$(count "$p" rayon 1); r3=$(count "$p" rayon 3)
    awk -v p="$p" -v s=$(((s3 - s1) / 2)) -v r=$(((r3 - r1) / 2)) \
        'BEGIN { printf "%-26s splitsteal %12d  rayon %12d  ratio %.3f\n", p, s, r, s / r }'
done | sort -k7 -rn
