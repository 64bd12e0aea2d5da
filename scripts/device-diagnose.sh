#!/usr/bin/env bash
# Which scheduler stalls at 16 threads (2026-11-27: the suite's `bfs` quick and runtimes'
# full nqueens/matmul did not finish in 100 s on the 16-core machine, with high system
# time). One scheduler per process, each under its own timeout; `time` gives user and
# system CPU. Run in the repository root with OUT set; carries target/release/splitsteal.
B=target/release/splitsteal
export RUST_MIN_STACK=16777216
nproc > $OUT/machine.txt; uname -r >> $OUT/machine.txt; uptime >> $OUT/machine.txt
command -v strace >> $OUT/machine.txt 2>&1 || echo "no strace" >> $OUT/machine.txt
one() { # name timeout args...
  local name=$1 t=$2; shift 2
  local s=$(date +%s%N)
  { time timeout $t $B "$@" --out $OUT/$name ; } > $OUT/$name.log 2>&1
  local rc=$?
  printf '%-28s rc=%-3s wall=%6d ms %s\n' "$name" "$rc" "$(( ($(date +%s%N) - s) / 1000000 ))" \
    "$(grep -E '^(user|sys)' $OUT/$name.log | tr '\n' ' ')" | tee -a $OUT/summary.txt
}
for p in lcws-signal lcws-poll lcws-cons lcws-half hybrid abp chase-lev locked rayon chili; do
  one bfs16-$p 15 bench --mode suite --workload bfs --quick --threads 16 --reps 3 --policy $p
done
for p in lcws-signal rayon chili; do
  one rt16-$p 40 bench --mode runtimes --threads 16 --reps 3 --policy $p
done
if command -v strace > /dev/null; then
  timeout 30 strace -f -c -o $OUT/strace-bfs-lcws-signal.txt $B bench --mode suite --workload bfs \
    --quick --threads 16 --reps 1 --policy lcws-signal --out $OUT/strace-run > /dev/null 2>&1
  head -25 $OUT/strace-bfs-lcws-signal.txt
fi
uptime >> $OUT/machine.txt
