#!/usr/bin/env bash
# ecosystem-tests.sh: crates other people wrote on top of rayon, built against splitsteal and
# their own rayon tests run, under every policy (issue 31: "a rayon program runs unchanged").
#
#   scripts/ecosystem-tests.sh [--policy NAME]... [CRATE...]
#
# Each crate below implements rayon's traits for its own types through `rayon::iter::plumbing`
# (the parallel iterators of hashbrown's and indexmap's tables, dashmap's maps, ndarray's and
# nalgebra's arrays, im's vectors, petgraph's graphs, sprs's sparse products), wraps rayon's (indicatif's progress
# iterators, rayon-cond's either-parallel-or-serial iterator) or uses its pools (jwalk's
# directory walk, tokio-rayon's async spawns). The script copies its published source from the
# cargo cache (fetching it when absent; nothing is committed here) to target/ecosystem/CRATE,
# changes only its Cargo.toml's rayon dependency into the Cargo rename
# `rayon = { package = "splitsteal", path = ... }` (and patches in the dependencies listed in
# PATCHES, renamed the same way), then runs the crate's own tests that use rayon, once per
# policy (SPLITSTEAL_POLICY; the tests use the global pool). Prints a line per crate and
# policy; exit status 0 only if every run passed. Not in CI (it builds twelve more crates):
# about 9 minutes on 2 cores from a cold target folder.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK="$ROOT/target/ecosystem"
CARGO_HOME=${CARGO_HOME:-$HOME/.cargo}

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

# Dependencies whose own rayon implementations a crate's rayon code uses (petgraph's graphs
# hold indexmap's and hashbrown's tables): renamed the same way and patched in, so the whole
# tree runs on splitsteal. name -> "dep@version ...".
declare -A PATCHES=(
    [petgraph]="indexmap@2.14.2 hashbrown@0.15.5"
)

policies=()
only=()
while [ $# -gt 0 ]; do
    case "$1" in
        --policy) policies+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
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

# Copies the crate to $3 (default $WORK/name) and renames its rayon dependency (normal and
# dev) to splitsteal.
prepare() { # name version [dest]
    local dest="${3:-$WORK/$1}"
    rm -rf "$dest"
    cp -r "$(source_of "$1" "$2")" "$dest"
    chmod -R u+w "$dest"
    # A pinned toolchain (dashmap pins one) is not part of the API: use this one.
    rm -f "$dest/rust-toolchain" "$dest/rust-toolchain.toml"
    python3 - "$dest/Cargo.toml" "$ROOT/crates/splitsteal" <<'PY'
import re, sys
path, splitsteal = sys.argv[1], sys.argv[2]
text = open(path).read()
def rename(m):
    keep = [l for l in m.group(2).splitlines() if re.match(r"(optional|default-features)\s*=", l)]
    return (m.group(1) + 'package = "splitsteal"\n' + f'path = "{splitsteal}"\n'
            + "".join(l + "\n" for l in keep))
new, n = re.subn(r"(\[(?:dev-)?dependencies\.rayon\]\n)((?:[^\[\n][^\n]*\n)*)", rename, text)
if n == 0:
    sys.exit(f"{path}: no [dependencies.rayon] section to rename")
open(path, "w").write(new + "\n# Not part of any workspace.\n[workspace]\n")
PY
}

mkdir -p "$WORK"
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
        if [ -n "${PATCHES[$name]:-}" ]; then
            mkdir -p "$WORK/patches"
            printf '\n[patch.crates-io]\n' >>"$WORK/$name/Cargo.toml"
            for dep in ${PATCHES[$name]}; do
                prepare "${dep%@*}" "${dep#*@}" "$WORK/patches/$dep"
                printf '%s = { path = "%s" }\n' "${dep%@*}" "$WORK/patches/$dep" >>"$WORK/$name/Cargo.toml"
            done
        fi
        prepared[$name]=1
    fi
    # Built first, to tell a compile error from a failed test (doc tests build as they run).
    # shellcheck disable=SC2086 # $args is a list of cargo arguments
    if [[ " $args " != *" --doc "* ]] && ! (cd "$WORK/$name" && CARGO_TARGET_DIR="$WORK/target" \
        cargo test --release -q --features "$features" $args --no-run 2>"$WORK/$name.build.log"); then
        echo "$name $version ($args): does not compile against splitsteal:"
        grep -E '^error' -A6 "$WORK/$name.build.log" | head -30
        failed=1
        continue
    fi
    for policy in "${policies[@]}"; do
        # shellcheck disable=SC2086
        if out=$(cd "$WORK/$name" && SPLITSTEAL_POLICY=$policy CARGO_TARGET_DIR="$WORK/target" \
            timeout 300 cargo test --release -q --features "$features" $args 2>&1); then
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
