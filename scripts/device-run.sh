#!/usr/bin/env bash
# The device runs (16-core machine, no Rust toolchain there): build
# `cargo build --release -p splitsteal-cli` here, carry target/release/splitsteal, run this
# in the repository root with OUT set to a folder for the logs and reports.
#   scripts/device-run.sh          scaling, latency, multiprogram; suite; runtimes (2026-11-27)
#   scripts/device-run.sh short    scaling, latency, multiprogram; runtimes (the second run)
B=target/release/splitsteal
nproc > $OUT/machine.txt; lscpu >> $OUT/machine.txt 2>&1; uptime >> $OUT/machine.txt
export RUST_MIN_STACK=16777216
( time timeout 150 $B bench --mode scaling,latency,multiprogram --threads 4,8,16 --out $OUT/modes ) > $OUT/modes.log 2>&1
if [ "$1" != short ]; then
  ( time timeout 210 $B bench --mode suite --threads 1,4,8,16 --out $OUT/suite ) > $OUT/suite.log 2>&1
fi
( time timeout 150 $B bench --mode runtimes --threads 4,8,16 --out $OUT/runtimes ) > $OUT/runtimes.log 2>&1
uptime >> $OUT/machine.txt
# Only the logs and the tables come back (the device returns a limited number of files).
find $OUT -mindepth 2 -type f ! -name tables.md ! -name results.json -delete
for f in $OUT/*.log; do tail -n 3 "$f"; done
