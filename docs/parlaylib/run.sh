#!/usr/bin/env bash
# Run ParlayLib primitive benchmarks on the PBBS 10^7 inputs, T=1 and T=2 interleaved.
# Usage: bash run.sh                  (defaults: DIR=pbbs-10M REPS=7 BIN=./pl_bench)
#        DIR=/some/dir REPS=1 bash run.sh
# The files are `splitsteal bench --gen-pbbs DIR`'s; pl_bench is built as README.md says.
# Output: one line per (kind,file,threads) on stdout; failures are reported and the run continues.
set -u
DIR=${DIR:-pbbs-10M}
REPS=${REPS:-7}
BIN=${BIN:-./pl_bench}

jobs=(
  "isort randomSeq_10M_int"
  "isort exptSeq_10M_int"
  "dedup randomSeq_10M_int"
  "dedup exptSeq_10M_int"
  "dedup randomSeq_10M_100K_int"
  "dedup_ordered randomSeq_10M_int"
  "dedup_ordered exptSeq_10M_int"
  "dedup_ordered randomSeq_10M_100K_int"
  "hist randomSeq_10M_100K_int"
  "hist exptSeq_10M_int"
  "sort randomSeq_10M_double"
  "sort almostSortedSeq_10M_int"
)

fails=0
for j in "${jobs[@]}"; do
  set -- $j
  kind=$1; f=$DIR/$2
  if [ ! -f "$f" ]; then echo "MISSING $f"; fails=$((fails+1)); continue; fi
  for T in 1 2; do
    if ! PARLAY_NUM_THREADS=$T "$BIN" "$kind" "$f" "$REPS"; then
      echo "FAILED kind=$kind file=$f T=$T"; fails=$((fails+1))
    fi
  done
done
echo "done: $fails failures"
[ "$fails" -eq 0 ]
