#!/usr/bin/env bash
# ecosystem-tests.sh: crates other people wrote on top of rayon, switched to splitsteal and
# their own rayon tests run, under every policy ("a rayon program runs unchanged").
#
#   scripts/ecosystem-tests.sh [--policy NAME]... [CRATE...]
#
# Each crate below implements rayon's traits for its own types through `rayon::iter::plumbing`
# (the parallel iterators of hashbrown's and indexmap's tables, dashmap's maps, ndarray's and
# nalgebra's arrays, im's vectors, petgraph's graphs, sprs's sparse products), wraps rayon's (indicatif's progress
# iterators, rayon-cond's either-parallel-or-serial iterator) or uses its pools (jwalk's
# directory walk, tokio-rayon's async spawns). The script copies its published source from the
# cargo cache (fetching it when absent; nothing is committed here), unmodified, to
# $ECOSYSTEM_DIR/CRATE (outside this repository, so that it is its own workspace as
# published), and switches its whole dependency tree to splitsteal with the recipe of
# compat/README.md alone: `[patch.crates-io]` entries for rayon and rayon-core pointing at
# compat/rayon and compat/rayon-core, given on cargo's command line (`--config`), and a
# `cargo update` where it comes with a Cargo.lock (the README's step). It checks
# with `cargo tree` that no registry rayon or rayon-core is left in the tree, then runs the
# crate's own tests that use rayon, once per policy (SPLITSTEAL_POLICY; the tests use the
# global pool). Prints a line per crate and policy; exit status 0 only if every run passed.
# Not in CI (it builds twelve more crates): on 2 cores shared with four other builds, 49
# minutes for three policies from a cold target folder, 10 minutes for six once built.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK="$ROOT/target/ecosystem"
ECOSYSTEM_DIR=${ECOSYSTEM_DIR:-${TMPDIR:-/tmp}/splitsteal-ecosystem}
CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}
# The toolchain this repository builds with, also for crates that pin another one (dashmap).
export RUSTUP_TOOLCHAIN=${RUSTUP_TOOLCHAIN:-$(cd "$ROOT" && rustup show active-toolchain | cut -d' ' -f1)}
# The recipe: the whole tree's rayon and rayon-core are the shims.
PATCH=(--config "patch.crates-io.rayon.path='$ROOT/compat/rayon'"
    --config "patch.crates-io.rayon-core.path='$ROOT/compat/rayon-core'")

# name version features test-args... (features "-": none)
CRATES=(
    "hashbrown 0.17.1 rayon --test rayon"
    "hashbrown 0.17.1 rayon --lib rayon"
    "indexmap 2.14.2 rayon --lib rayon"
    "indicatif 0.18.6 rayon --lib"
    "dashmap 6.2.1 rayon --lib rayon"
    "ndarray 0.16.1 rayon --test par_rayon --test par_azip --test par_zip"
    "rayon-cond 0.4.0 - --doc"
    "im 15.1.0 rayon --lib rayon"
    "petgraph 0.8.3 rayon --test johnson --test page_rank --test graphmap"
    "nalgebra 0.34.2 rayon,debug,compare,rand,macros --test lib parallel_column_iteration"
    "jwalk 0.8.1 - --lib --test integration --test detect_deadlock"
    "tokio-rayon 2.1.0 - --lib"
    "sprs 0.11.6 multi_thread --lib smmp"
)

policies=()
only=()
while [ $# -gt 0 ]; do
    case "$1" in
        --policy) policies+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        -*) echo "ecosystem-tests.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
        *) only+=("$1"); shift ;;
    esac
done
if [ ${#policies[@]} -eq 0 ]; then
    mapfile -t policies < <(python3 "$ROOT/scripts/policy-names.py")
    [ ${#policies[@]} -gt 0 ] || exit 2
fi

source_of() { # name version -> path of the unpacked published source
    local hit
    hit=$(ls -d "$CARGO_HOME"/registry/src/*/"$1-$2" 2>/dev/null | head -1 || true)
    if [ -z "$hit" ]; then
        local fetch="$WORK/fetch-$1"
        mkdir -p "$fetch/src"
        printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n%s = "=%s"\n\n[workspace]\n' \
            "$1" "$2" >"$fetch/Cargo.toml"
        : >"$fetch/src/lib.rs"
        cargo fetch -q --manifest-path "$fetch/Cargo.toml" >&2
        hit=$(ls -d "$CARGO_HOME"/registry/src/*/"$1-$2" 2>/dev/null | head -1 || true)
    fi
    [ -n "$hit" ] || { echo "ecosystem-tests.sh: cannot find or fetch $1 $2" >&2; exit 2; }
    echo "$hit"
}

# Copies the crate's published source, unmodified, to $ECOSYSTEM_DIR/name. Where it comes
# with a Cargo.lock (which pins a registry rayon, and versions older than splitsteal needs),
# cargo would keep the pinned rayon and only warn that the patch "was not used in the crate
# graph": as compat/README.md says, a `cargo update` with the patch moves the tree onto it.
prepare() { # name version
    local dest="$ECOSYSTEM_DIR/$1"
    rm -rf "$dest"
    cp -r "$(source_of "$1" "$2")" "$dest"
    chmod -R u+w "$dest"
    if [ -f "$dest/Cargo.lock" ]; then
        (cd "$dest" && cargo update -q "${PATCH[@]}")
    fi
}

# Every rayon and rayon-core in the crate's tree (with its tests' dependencies) is a shim:
# `cargo tree -i` lists one package per version/source, a shim as "(path)".
patched() { # name features
    local name=$1 features=$2 crate tree
    for crate in rayon rayon-core; do
        tree=$(cd "$ECOSYSTEM_DIR/$name" && cargo tree -q "${PATCH[@]}" -e normal,dev \
            --features "$features" -i "$crate" --prefix none 2>&1 | grep -E "^$crate v" | sort -u) || true
        if [ -z "$tree" ] || grep -v -F "($ROOT/compat/$crate)" <<<"$tree" | grep -q .; then
            echo "$name: not every $crate in its tree is the shim:" >&2
            printf '%s\n' "${tree:-(no $crate at all)}" >&2
            return 1
        fi
    done
}

mkdir -p "$WORK" "$ECOSYSTEM_DIR"
failed=0
declare -A prepared=()
for spec in "${CRATES[@]}"; do
    read -r name version features args <<<"$spec"
    [ "$features" = - ] && features=""
    if [ ${#only[@]} -gt 0 ] && [[ ! " ${only[*]} " == *" $name "* ]]; then
        continue
    fi
    if [ -z "${prepared[$name]:-}" ]; then
        prepare "$name" "$version"
        prepared[$name]=1
    fi
    if ! patched "$name" "$features" 2>"$WORK/$name.tree.log"; then
        echo "$name $version ($args): the patch did not take:"
        cat "$WORK/$name.tree.log"
        failed=1
        continue
    fi
    # Built first, to tell a compile error from a failed test (doc tests build as they run).
    # shellcheck disable=SC2086 # $args is a list of cargo arguments
    if [[ " $args " != *" --doc "* ]] && ! (cd "$ECOSYSTEM_DIR/$name" && CARGO_TARGET_DIR="$WORK/target" \
        cargo test "${PATCH[@]}" --release -q --features "$features" $args --no-run 2>"$WORK/$name.build.log"); then
        echo "$name $version ($args): does not compile against splitsteal:"
        grep -E '^error' -A6 "$WORK/$name.build.log" | head -30
        failed=1
        continue
    fi
    for policy in "${policies[@]}"; do
        # shellcheck disable=SC2086
        if out=$(cd "$ECOSYSTEM_DIR/$name" && SPLITSTEAL_POLICY=$policy CARGO_TARGET_DIR="$WORK/target" \
            timeout 300 cargo test "${PATCH[@]}" --release -q --features "$features" $args 2>&1); then
            summary=$(grep -E '^test result' <<<"$out" |
                awk '{p += $4; f += $6; i += $8} END {print p " passed, " f " failed, " i " ignored"}')
            echo "$name $version ($args) under $policy: $summary"
        else
            echo "$name $version ($args) under $policy: FAILED"
            grep -E 'panicked|FAILED|^error' <<<"$out" | head -10
            failed=1
        fi
    done
done
[ $failed -eq 0 ] && echo "RESULT: every crate compiled and every run passed" || echo "RESULT: FAILED"
exit $failed
