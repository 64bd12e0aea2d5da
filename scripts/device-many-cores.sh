#!/usr/bin/env bash
# Many-core runs of the default policy (`asym`) on a lent 16-core machine, which has no Rust
# toolchain. Build here, then carry `.devbin` (ignored by git):
#   cargo build --release -p splitsteal-cli
#   cp target/release/splitsteal .devbin/ss-default
# and, for the check of the pool size from which asym's thieves ask for the owner's answer
# (`ANSWERS_FROM_WORKERS` in crates/splitsteal-core/src/deque/asym.rs, 8), the same binary
# built with that constant at `usize::MAX` (.devbin/ss-never-ask) and at 2
# (.devbin/ss-always-ask). Run in the repository root with OUT set. Sections:
#   1. the spawn burst (latency mode) at 4, 8, 16 threads: asym, lcws-half, rayon, chili;
#      then asym never asking and always asking;
#   2. runtime-benchmarks (runtimes mode, full inputs) at 4, 8, 16 threads: asym, rayon,
#      chili, forte, medians of 5, runtimes interleaved per repetition;
#   3. the threshold: asym alone, the three builds in alternation, twice (never asking at
#      8 and 16 threads, where the default asks; always asking at 4, where it does not).
# `scripts/device-many-cores.sh compare` (the second run) compares a candidate build
# (.devbin/ss-burst, and .devbin/ss-burst-ask4 with ANSWERS_FROM_WORKERS at 4) with the
# first run's build, processes alternated per round:
#   1. the spawn burst at 4, 8, 16 threads, five rounds;
#   2. fib and skynet (asym and chili) at 4, 8, 16, three rounds, with the never- and
#      always-asking builds where they behave as the default (4; 8 and 16) as a control of
#      what a different build alone changes;
#   3. runtime-benchmarks with the candidate, as in the first run's section 2.
# `scripts/device-many-cores.sh ask4` (the third run): the candidate against the same with
# thieves asking from 4 workers, at 4 threads, every program and the spawn burst, processes
# alternated, three rounds.
# Every report comes back in one tar file.
D=.devbin
export RUST_MIN_STACK=16777216
{ nproc; uname -r; grep -m1 'model name' /proc/cpuinfo; lscpu | grep -E 'NUMA node\(s\)|Socket|L3'; uptime; } > $OUT/machine.txt 2>&1
log=$OUT/log.txt
one() { # label timeout binary args...
  local label=$1 t=$2 bin=$3; shift 3
  local s=$(date +%s%N)
  echo "=== $label: $bin $*" >> $log
  { time timeout $t $D/$bin bench --timeout 30 "$@" ; } >> $log 2>&1
  local rc=$?
  printf '%-24s rc=%-3s wall=%6d ms\n' "$label" "$rc" "$(( ($(date +%s%N) - s) / 1000000 ))" | tee -a $log
}
pick() { # folder -> $OUT/name.md, name.json
  cp $OUT/run/$1/tables.md $OUT/$2.md 2>/dev/null; cp $OUT/run/$1/results.json $OUT/$2.json 2>/dev/null
}
mkdir -p $OUT/run
if [ "$1" = ask4 ]; then
  for r in 1 2 3; do
    for b in burst burst-ask4; do
      one lat-$b-$r 30 ss-$b --mode latency --threads 4 --policy asym --out $OUT/run/lat-$b-$r
      one rt-$b-$r 60 ss-$b --mode runtimes --policy asym --threads 4 --reps 3 --out $OUT/run/rt-$b-$r
    done
  done
  uptime >> $OUT/machine.txt
  (cd $OUT/run && tar czf $OUT/reports.tgz $(find . -name tables.md -o -name results.json))
  rm -rf $OUT/run
  grep -E 'rc=' $log | grep -v 'rc=0 ' ; echo "runs: $(grep -c 'rc=' $log)"
  exit 0
fi
if [ "$1" = compare ]; then
  for r in 1 2 3 4 5; do
    one lat-old-$r 30 ss-default --mode latency --threads 4,8,16 --policy asym,rayon --out $OUT/run/lat-old-$r
    one lat-new-$r 30 ss-burst --mode latency --threads 4,8,16 --policy asym,rayon --out $OUT/run/lat-new-$r
    one lat-new4-$r 30 ss-burst-ask4 --mode latency --threads 4,8,16 --policy asym --out $OUT/run/lat-new4-$r
  done
  for r in 1 2 3; do
    for b in default burst burst-ask4; do
      one rt-$b-$r 40 ss-$b --mode runtimes --workload fib,skynet --policy asym,chili --threads 4,8,16 --reps 3 --out $OUT/run/rt-$b-$r
    done
    one rt-never-$r 30 ss-never-ask --mode runtimes --workload fib,skynet --policy asym --threads 4 --reps 3 --out $OUT/run/rt-never-$r
    one rt-always-$r 30 ss-always-ask --mode runtimes --workload fib,skynet --policy asym --threads 8,16 --reps 3 --out $OUT/run/rt-always-$r
  done
  one runtimes 240 ss-burst --mode runtimes --threads 4,8,16 --reps 5 --out $OUT/run/rt
  pick rt rt
  uptime >> $OUT/machine.txt
  (cd $OUT/run && tar czf $OUT/reports.tgz $(find . -name tables.md -o -name results.json))
  rm -rf $OUT/run
  grep -E 'rc=' $log | grep -v 'rc=0 ' ; echo "runs: $(grep -c 'rc=' $log)"
  exit 0
fi
one lat 90 ss-default --mode latency --threads 4,8,16 --policy asym,lcws-half,rayon,chili --out $OUT/run/lat
pick lat lat
one lat-never 30 ss-never-ask --mode latency --threads 4,8,16 --policy asym --out $OUT/run/lat-never
one lat-always 30 ss-always-ask --mode latency --threads 4,8,16 --policy asym --out $OUT/run/lat-always
cat $OUT/run/lat-never/tables.md $OUT/run/lat-always/tables.md > $OUT/thr-lat.md 2>/dev/null
one runtimes 240 ss-default --mode runtimes --threads 4,8,16 --reps 5 --out $OUT/run/rt
pick rt rt
for round in 1 2; do
  one thr-default-$round 40 ss-default --mode runtimes --policy asym --threads 4,8,16 --reps 2 --out $OUT/run/td$round
  one thr-never-$round 30 ss-never-ask --mode runtimes --policy asym --threads 8,16 --reps 2 --out $OUT/run/tn$round
  one thr-always-$round 30 ss-always-ask --mode runtimes --policy asym --threads 4 --reps 2 --out $OUT/run/ta$round
done
for f in td1 tn1 ta1 td2 tn2 ta2; do echo "## $f"; cat $OUT/run/$f/tables.md; done > $OUT/thr-rt.md 2>&1
uptime >> $OUT/machine.txt
rm -rf $OUT/run
grep -E 'rc=' $log
