#!/usr/bin/env bash
# rayon-tests.sh: issue 31's acceptance check. Runs rayon 1.12's own tests against splitsteal,
# with nothing changed but the Cargo rename `rayon = { package = "splitsteal", path = ... }`,
# and rayon-core 1.13's (the version rayon 1.12 uses) as a rayon-core user would: its tests/
# folder and its in-crate join, scope, spawn, broadcast, thread-pool and builder tests, with
# `rayon_core` naming splitsteal (`extern crate rayon as rayon_core;`, one line on top).
#
#   scripts/rayon-tests.sh [--policy NAME]... [--file NAME]... [--jobs N] [--timeout SECS]
#                          [--errors N] [--skip-broken] [--no-run] [--upstream] [--debug]
#
# It reads rayon-1.12.0's and rayon-core-1.13.0's published sources from the cargo cache
# (running `cargo fetch` on a one-line manifest when they are not there; nothing of rayon is
# committed to this repo),
# assembles a throwaway crate in target/rayon-tests/crate (own [workspace], own target dir
# target/rayon-tests/target) holding rayon's tests/*.rs unchanged and its in-crate iterator /
# slice / range / fold_chunks unit tests as integration tests (only `use super::*`, `crate::`
# and `rayon_core::` paths rewritten to rayon's public paths), rayon-core's the same way
# (files named core_*; its tests' two private helpers, `unwind::halt_unwinding` and
# `registry::in_worker`, get three-line stand-ins written on the public API), builds every file in one
# `cargo build --release --tests --keep-going` (one file's errors do not hide another's),
# then runs each compiled test binary under every SPLITSTEAL_POLICY (Policy::ALL) with a
# timeout, and prints a table. Exit status 0 only if every file compiled and every test passed.
#
#   --policy NAME   run only this policy (repeatable; default: every name in Policy::ALL)
#   --file NAME     only this test file, e.g. `str` or `unit_iter_test` (repeatable)
#   --jobs N        cargo -j N, and N test binaries run at once (default: cargo's; 1 binary)
#   --timeout SECS  per test binary and policy (default 300); a binary that times out or
#                   crashes has its unfinished tests rerun one at a time (--test-timeout, 60)
#   --errors N      compiler errors printed per failing file (default 3)
#   --skip-broken   after the build, drop the test functions (whole items) that hold compile
#                   errors, rebuild, and run what is left; the dropped tests count as failures
#   --no-run        build and report compile results only
#   --upstream      control run: the same crate against the real rayon 1.12.0 (checks the
#                   harness's rewrite, not splitsteal; policies do not apply, runs once)
#   --debug         dev profile instead of release
#   --rayon-src DIR rayon-1.12.0 sources to use instead of the cargo cache's
# Output: stdout, and target/rayon-tests/summary.txt (table + failures + first errors).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command -v python3 >/dev/null || { echo "rayon-tests.sh: python3 is required" >&2; exit 2; }
command -v cargo >/dev/null || { echo "rayon-tests.sh: cargo is required" >&2; exit 2; }
export RAYON_TESTS_ROOT="$ROOT"
PY=$(cat <<'PYTHON'
import argparse, concurrent.futures, json, os, re, shutil, signal, subprocess, sys, tarfile
import threading, time, tomllib
from pathlib import Path

RAYON = "rayon-1.12.0"
CORE = "rayon-core-1.13.0"
ROOT = Path(os.environ["RAYON_TESTS_ROOT"])
WORK = ROOT / "target" / "rayon-tests"

# In-crate unit tests turned into integration tests. mode: "whole" (the file), "tests" (the
# file's top-level `use` lines and its top-level #[test] items), "mod" (its #[cfg(test)] mod).
# super_path: the public path that the file's `use super::*` stands for. A `use super::*` also
# brings in the parent module's own imports; where the tests rely on that (src/iter/test.rs on
# src/iter/mod.rs's `use std::collections::LinkedList`, `use self::plumbing::*`, ...), the
# spec names the parent file, and `use super::*` becomes a glob of a local module re-exporting
# `super_path::*` and the parent's non-private imports (still a glob: explicit imports win).
UNITS = [
    ("unit_iter_test", "src/iter/test.rs", "whole", ("rayon::iter", "src/iter/mod.rs"), {}),
    ("unit_slice_test", "src/slice/test.rs", "whole", "rayon::slice", {}),
    ("unit_range", "src/range.rs", "tests", "rayon::range", {
        "check_range_split_at_overflow": "uses the private IterProducer",
        "test_i128_len_doesnt_overflow": "uses the private IterProducer and RangeInteger::unindexed_len",
    }),
    ("unit_range_inclusive", "src/range_inclusive.rs", "tests", "rayon::range_inclusive", {}),
    ("unit_fold_chunks", "src/iter/fold_chunks.rs", "mod", "rayon::iter", {}),
    ("unit_fold_chunks_with", "src/iter/fold_chunks_with.rs", "mod", "rayon::iter", {}),
]
# Unit tests left out: they test private items, so no rename can make them compile.
SKIPPED_UNITS = [
    ("src/slice/sort.rs", "mod tests uses the private heapsort and split_for_merge"),
    ("src/iter/collect/test.rs", "uses the private collect_with_consumer and CollectConsumer"),
    ("src/iter/find_first_last/test.rs", "uses the private FindConsumer and MatchPosition"),
    ("src/delegate.rs", "uses the private delegate_iterator! macros"),
]

# rayon-core's in-crate tests: (name, file, test functions left out and why). Their `crate::`
# paths become `rayon_core::`, `super::` (the tested module) too: each module's items are
# public at rayon-core's root.
CORE_UNITS = [
    ("core_unit_root", "src/test.rs", {}),
    ("core_unit_broadcast", "src/broadcast/test.rs", {}),
    ("core_unit_join", "src/join/test.rs", {}),
    ("core_unit_scope", "src/scope/test.rs", {}),
    ("core_unit_spawn", "src/spawn/test.rs", {}),
    ("core_unit_thread_pool", "src/thread_pool/test.rs", {
        "workers_stop": "reads the pool's private registry (its wait_until_stopped)",
        "sleeper_stop": "reads the pool's private registry (its wait_until_stopped)",
    }),
]
# Tests not run under one policy, and why: each is a documented limit of that policy (the
# table says how many were not run, and the summary lists them).
NOT_RUN = {
    ("core_unit_join", "lcws-poll"): {
        "join_context_second": "its `a` blocks until `b` runs on the other worker; an "
        "lcws-poll victim serves a thief only at its pushes and pops (docs/policies.md), so "
        "when the thief asks just after the push, `b` never becomes public and both wait "
        "forever (rayon-core 1.13's join/test.rs)",
    },
}

# Stand-ins for the two private rayon-core helpers those tests call, on the public API.
CORE_SHIM = """#[allow(dead_code)]
mod rayon_core_shim {
    pub mod unwind {
        /// rayon-core's `halt_unwinding`: `catch_unwind` of a closure that need not be
        /// `UnwindSafe`.
        pub fn halt_unwinding<F: FnOnce() -> R, R>(f: F) -> std::thread::Result<R> {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        }
    }
    pub mod registry {
        /// rayon-core's `in_worker`: runs `op` on a worker (this thread if it is one, else
        /// one of the global pool's, waiting for it); `op`'s flag says whether it moved.
        pub fn in_worker<OP: FnOnce(&(), bool) -> R + Send, R: Send>(op: OP) -> R {
            if rayon_core::current_thread_index().is_some() {
                op(&(), false)
            } else {
                rayon_core::join(|| op(&(), true), || ()).0
            }
        }
    }
}
"""

def die(msg, code=2):
    print(f"rayon-tests: error: {msg}", file=sys.stderr)
    sys.exit(code)

def log(msg=""):
    print(msg, flush=True)

# ---------------------------------------------------------------- rayon's sources
def cargo_home():
    return Path(os.environ.get("CARGO_HOME", Path.home() / ".cargo"))

def unpacked(name):
    """`name`'s published source: the cargo cache's unpacked copy, else its .crate archive
    unpacked under WORK (cargo fetch may leave only the archive); None if neither exists."""
    hits = sorted((cargo_home() / "registry" / "src").glob(f"*/{name}"))
    if hits:
        return hits[0]
    crates = sorted((cargo_home() / "registry" / "cache").glob(f"*/{name}.crate"))
    if not crates:
        return None
    dest = WORK / f"{name}-src"
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    with tarfile.open(crates[0]) as t:
        t.extractall(dest, filter="data")
    return dest / name

def rayon_sources():
    """rayon's and rayon-core's sources; one `cargo fetch` of rayon brings both when they are
    not in the cache (rayon-core is rayon's dependency)."""
    src, core = unpacked(RAYON), unpacked(CORE)
    if src and core:
        return src, core
    fetch = WORK / "fetch"
    (fetch / "src").mkdir(parents=True, exist_ok=True)
    (fetch / "Cargo.toml").write_text(
        '[package]\nname = "rayon-tests-fetch"\nversion = "0.0.0"\nedition = "2021"\n'
        'publish = false\n\n[dependencies]\nrayon = "=1.12.0"\n\n[workspace]\n')
    (fetch / "src" / "lib.rs").write_text("")
    log(f"{RAYON} or {CORE} is not in {cargo_home()}/registry: running cargo fetch")
    r = subprocess.run(["cargo", "fetch", "--manifest-path", str(fetch / "Cargo.toml")])
    if r.returncode != 0:
        die("cargo fetch of rayon =1.12.0 failed (see above)")
    src, core = unpacked(RAYON), unpacked(CORE)
    if not (src and core):
        die(f"cargo fetch succeeded but {RAYON} or {CORE} is neither in registry/src nor cached")
    return src, core

# ---------------------------------------------------------------- source surgery
ITEM_START = re.compile(r"(#!?\[|//|fn |pub |struct |enum |impl\b|trait |type |const |static |"
                        r"mod |use |macro_rules!|unsafe |async |extern )")

def items(lines, indent=0, lo=0, hi=None):
    """Top-level items (at exactly `indent` spaces) of lines[lo:hi], as [start, end) line ranges;
    attributes and comments just above an item belong to it."""
    hi = len(lines) if hi is None else hi
    pad = " " * indent
    starts = []
    prev_attr = False
    for i in range(lo, hi):
        s = lines[i]
        if not s.strip():
            prev_attr = False
            continue
        if s.startswith(pad) and not s[indent:indent + 1].isspace() and ITEM_START.match(s[indent:]):
            body = s[indent:]
            if not (prev_attr and starts):
                starts.append(i)
            prev_attr = body.startswith("#[") or body.startswith("//")
        else:
            prev_attr = False
    return [(a, b) for a, b in zip(starts, starts[1:] + [hi])]

def is_test_item(lines, a, b):
    for s in lines[a:b]:
        t = s.strip()
        if t.startswith("#[test]"):
            return True
        if not (t.startswith("#") or t.startswith("//") or not t):
            return False
    return False

def item_name(lines, a, b):
    for s in lines[a:b]:
        m = re.match(r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:fn|mod|struct|enum|trait|type|const|static|impl)\s+([A-Za-z_][A-Za-z0-9_]*)", s)
        if m:
            return m.group(1)
        m = re.match(r"\s*use\s+(.*);", s)
        if m:
            return "use " + m.group(1)
    return lines[a].strip()[:60]

SUPER_MOD = "__rayon_super"

def super_module(src_root, super_path, parent):
    """`mod __rayon_super` standing for what `use super::*` sees in `parent`'s child module."""
    uses = [f"pub use {super_path}::*;"]
    for s in (src_root / parent).read_text().split("\n"):
        m = re.match(r"use (.*);\s*$", s)
        if not m or re.search(r"\bprivate::", m.group(1)):
            continue  # only top-level imports; rayon's private module cannot be named
        path = re.sub(r"^self::", super_path + "::", m.group(1))
        path = re.sub(r"^crate::", "rayon::", path)
        uses.append(f"pub use {path};")
    return (f"#[allow(unused_imports)]\nmod {SUPER_MOD} {{\n"
            + "".join(f"    {u}\n" for u in uses) + "}\n")

def rayon_rules(super_path, super_mod):
    """The allowed mechanical rewrite of rayon's in-crate tests: `use super::*`, `super::`,
    `crate::`, `rayon_core::`."""
    return ([(r"use super::\*;", f"use {SUPER_MOD}::*;")] if super_mod else []) + [
        (r"\bsuper::", super_path + "::"),
        (r"(?<![A-Za-z0-9_:])crate::", "rayon::"),
        (r"\brayon_core::", "rayon::"),
    ]

# rayon-core's in-crate tests: the tested module's items are at rayon-core's root, and its
# own imports (join/mod.rs's `unwind`) are the stand-ins'; `#![cfg(test)]` and `//!` are
# inner and cannot follow the header (the first is true in a test build anyway).
CORE_RULES = [
    (r"^#!\[cfg\(test\)\]\s*$", ""),
    (r"^//!", "//"),
    (r"use super::\*;", "use rayon_core::*;\n#[allow(unused_imports)]\nuse rayon_core_shim::*;"),
    (r"\bsuper::", "rayon_core::"),
    (r"(?<![A-Za-z0-9_:])crate::(unwind|registry)\b", r"rayon_core_shim::\1"),
    (r"(?<![A-Za-z0-9_:])crate::", "rayon_core::"),
]

def rewrite(text, rules):
    """`text` with each line passed through `rules` ((regex, replacement), in order); and how
    many lines changed."""
    out, changed = [], 0
    for s in text.split("\n"):
        t = s
        for pattern, replacement in rules:
            t = re.sub(pattern, replacement, t)
        changed += t != s
        out.append(t)
    return "\n".join(out), changed

def count_tests(text):
    return len(re.findall(r"^\s*#\[test\]", text, re.M))

def convert_unit(src_root, name, rel, mode, super_path, skip):
    lines = (src_root / rel).read_text().split("\n")
    dropped = []
    if mode == "whole":
        body = lines
    elif mode == "tests":
        body = [s for s in lines if re.match(r"use (crate|std|core)::", s)]
        for a, b in items(lines):
            if is_test_item(lines, a, b):
                n = item_name(lines, a, b)
                if n in skip:
                    dropped.append((n, skip[n]))
                    continue
                body += [""] + lines[a:b]
    elif mode == "mod":
        body = None
        for a, b in items(lines):
            if any(re.match(r"mod tests?\s*\{", s) for s in lines[a:b]) and \
                    any("#[cfg(test)]" in s for s in lines[a:b]):
                body = lines[a:b]
        if body is None:
            die(f"{rel}: no #[cfg(test)] mod test found (rayon's source changed?)")
    else:
        raise ValueError(mode)
    missing = set(skip) - {n for n, _ in dropped}
    if missing:
        die(f"{rel}: tests to skip not found: {sorted(missing)}")
    parent = None
    if isinstance(super_path, tuple):
        super_path, parent = super_path
    text, changed = rewrite("\n".join(body).strip("\n") + "\n",
                            rayon_rules(super_path, parent is not None))
    header = (f"// Generated by scripts/rayon-tests.sh from {RAYON}/{rel} ({mode}); "
              f"paths rewritten on {changed} lines. Do not edit.\n")
    if parent:
        header += super_module(src_root, super_path, parent)
    return header + text, changed, dropped

def core_header(upstream):
    """What a rayon-core test file gets on top: `rayon_core` naming splitsteal (the crate's
    `rayon` dependency), unless the control run has the real rayon-core."""
    return "" if upstream else "extern crate rayon as rayon_core;\n"

def convert_core_test(path, upstream):
    text = path.read_text()
    header = (f"// Generated by scripts/rayon-tests.sh from {CORE}/tests/{path.name}; "
              f"unchanged below the next line. Do not edit.\n" + core_header(upstream))
    return header + text

def convert_core_unit(core_root, rel, skip, upstream):
    lines = (core_root / rel).read_text().split("\n")
    dropped = []
    kill = set()
    for a, b in items(lines):
        if is_test_item(lines, a, b):
            n = item_name(lines, a, b)
            if n in skip:
                dropped.append((n, skip[n]))
                kill.update(range(a, b))
    missing = set(skip) - {n for n, _ in dropped}
    if missing:
        die(f"{CORE}/{rel}: tests to skip not found: {sorted(missing)}")
    kept = "\n".join(line for i, line in enumerate(lines) if i not in kill)
    text, changed = rewrite(kept, CORE_RULES)
    header = (f"// Generated by scripts/rayon-tests.sh from {CORE}/{rel}; paths rewritten on "
              f"{changed} lines. Do not edit.\n" + core_header(upstream) + CORE_SHIM)
    return header + text, changed, dropped

# ---------------------------------------------------------------- policies
def policies():
    """Policy::ALL's names (scripts/policy-names.py reads them from the source)."""
    p = subprocess.run([sys.executable, str(ROOT / "scripts" / "policy-names.py")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        die(p.stderr.strip())
    return p.stdout.split()

# ---------------------------------------------------------------- the crate
def write_if_changed(path, text):
    """Leaves an unchanged file alone, so cargo does not rebuild its test binary."""
    if not path.exists() or path.read_text() != text:
        path.write_text(text)

def write_crate(args, src_root, core_root, selected):
    crate = WORK / ("crate-upstream" if args.upstream else "crate")
    tests_dir = crate / "tests"
    tests_dir.mkdir(parents=True, exist_ok=True)
    keep = {f"{f['name']}.rs" for f in selected}
    for old in tests_dir.glob("*.rs"):
        if old.name not in keep:
            old.unlink()
    manifest = tomllib.loads((src_root / "Cargo.toml").read_text())
    dev = manifest.get("dev-dependencies", {})
    if not dev:
        die(f"{src_root}/Cargo.toml has no [dev-dependencies]")
    if args.upstream:
        dep = 'rayon = "=1.12.0"\nrayon-core = "=1.13.0"'
    else:
        dep = f'rayon = {{ package = "splitsteal", path = "{ROOT / "crates" / "splitsteal"}" }}'
    toml = ['[package]', 'name = "rayon-tests"', 'version = "0.0.0"',
            f'edition = "{manifest["package"].get("edition", "2021")}"', 'publish = false',
            'autobins = false', 'autotests = false', 'autoexamples = false',
            'autobenches = false', 'autolib = false', '', '[dependencies]', dep, '',
            '[dev-dependencies]']
    # rayon's dev-dependencies, and rayon-core's (its tests use crossbeam-utils, a normal
    # dependency of rayon-core, and libc, a unix-only dev-dependency) where rayon has none.
    core = tomllib.loads((core_root / "Cargo.toml").read_text())
    deps = {}
    for table, whose in ((dev, "rayon"), (core.get("dev-dependencies", {}), "rayon-core"),
                         (core.get("target", {}).get("cfg(unix)", {}).get("dev-dependencies", {}), "rayon-core"),
                         ({k: v for k, v in core.get("dependencies", {}).items()
                           if k == "crossbeam-utils"}, "rayon-core")):
        for k, v in table.items():
            ver = v if isinstance(v, str) else v.get("version")
            if not ver:
                die(f"{whose}'s dependency {k} has no version")
            if k in deps and deps[k] != ver:
                die(f"rayon and rayon-core want different {k}: {deps[k]} and {ver}")
            deps[k] = ver
    for k, ver in deps.items():
        toml.append(f'{k} = "{ver}"')
    toml.append("")
    for f in selected:
        toml += ["[[test]]", f'name = "{f["name"]}"', f'path = "tests/{f["name"]}.rs"', ""]
    toml += ["[workspace]", ""]
    write_if_changed(crate / "Cargo.toml", "\n".join(toml))
    lock = ROOT / "Cargo.lock"
    if not args.upstream and lock.exists() and not (crate / "Cargo.lock").exists():
        shutil.copy(lock, crate / "Cargo.lock")  # the repo's pins for splitsteal's own deps
    for f in selected:
        write_if_changed(tests_dir / f"{f['name']}.rs", f["text"])
    return crate

def gather_files(src_root, core_root, only, upstream):
    files = []
    for p in sorted((src_root / "tests").glob("*.rs")):
        text = p.read_text()
        files.append(dict(name=p.stem, origin=f"tests/{p.name}", text=text,
                          tests=count_tests(text), rewritten=0, skipped=[]))
    for name, rel, mode, sp, skip in UNITS:
        text, changed, dropped = convert_unit(src_root, name, rel, mode, sp, skip)
        files.append(dict(name=name, origin=rel, text=text, tests=count_tests(text),
                          rewritten=changed, skipped=dropped))
    for p in sorted((core_root / "tests").glob("*.rs")):
        text = convert_core_test(p, upstream)
        files.append(dict(name=f"core_{p.stem}", origin=f"{CORE}/tests/{p.name}", text=text,
                          tests=count_tests(text), rewritten=0, skipped=[]))
    for name, rel, skip in CORE_UNITS:
        text, changed, dropped = convert_core_unit(core_root, rel, skip, upstream)
        files.append(dict(name=name, origin=f"{CORE}/{rel}", text=text, tests=count_tests(text),
                          rewritten=changed, skipped=dropped))
    if only:
        known = {f["name"] for f in files}
        bad = [n for n in only if n not in known]
        if bad:
            die(f"unknown --file {bad}; known: {', '.join(sorted(known))}")
        files = [f for f in files if f["name"] in only]
    return files

# ---------------------------------------------------------------- build
def build(args, crate, target_dir, names):
    cmd = ["cargo", "build", "--tests", "--keep-going", "--message-format=json",
           "--manifest-path", str(crate / "Cargo.toml")]
    if not args.debug:
        cmd.append("--release")
    if args.jobs:
        cmd += ["-j", str(args.jobs)]
    for n in names:
        cmd += ["--test", n]
    env = dict(os.environ, CARGO_TARGET_DIR=str(target_dir))
    errlog = WORK / "cargo-stderr.log"
    with open(errlog, "w") as err:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=err, text=True, env=env,
                           cwd=crate)
    exes, errors, other = {}, {n: [] for n in names}, []
    for line in p.stdout.splitlines():
        try:
            msg = json.loads(line)
        except json.JSONDecodeError:
            continue
        r = msg.get("reason")
        tgt = msg.get("target", {})
        if r == "compiler-artifact" and msg.get("executable") and "test" in tgt.get("kind", []):
            exes[tgt["name"]] = msg["executable"]
        elif r == "compiler-message" and msg["message"]["level"] in ("error", "error: internal compiler error"):
            m = msg["message"]
            if tgt.get("name") in errors and "test" in tgt.get("kind", []):
                errors[tgt["name"]].append(m)
            else:
                other.append((msg.get("package_id", "?"), m))
    if p.returncode != 0 and not any(errors.values()) and not other:
        tail = errlog.read_text().splitlines()[-30:]
        die("cargo build failed without compiler errors:\n" + "\n".join(tail))
    return exes, errors, other

def error_lines(crate, name, msgs):
    """Lines (0-based) of the test file that hold a primary span of an error."""
    want = (crate / "tests" / f"{name}.rs").resolve()
    out = set()
    for m in msgs:
        for sp in m.get("spans", []):
            # Follow macro expansions back to the call site in the test file.
            while sp:
                fn = Path(sp["file_name"])
                fn = fn if fn.is_absolute() else (crate / fn)
                if sp.get("is_primary", True) and fn.resolve() == want:
                    out.add(sp["line_start"] - 1)
                    break
                sp = (sp.get("expansion") or {}).get("span")
    return out

def drop_broken(crate, f, msgs):
    """Drops the items holding an error; returns the names dropped (empty: cannot help)."""
    path = crate / "tests" / f"{f['name']}.rs"
    lines = path.read_text().split("\n")
    bad = error_lines(crate, f["name"], msgs)
    if not bad:
        return []
    kill, names = set(), []
    def visit(indent, lo, hi):
        for a, b in items(lines, indent, lo, hi):
            hit = [l for l in bad if a <= l < b]
            if not hit:
                continue
            inner = [i for i in range(a, b) if re.match(r"\s*(pub\s+)?mod \w+\s*\{\s*$", lines[i])]
            if inner and not any(l <= inner[0] for l in hit) and indent < 8:
                close = max(i for i in range(a, b) if lines[i].rstrip() == " " * indent + "}")
                visit(indent + 4, inner[0] + 1, close)
                continue
            kill.update(range(a, b))
            names.append(item_name(lines, a, b))
    visit(0, 0, len(lines))
    path.write_text("\n".join(s for i, s in enumerate(lines) if i not in kill))
    return names

# ---------------------------------------------------------------- run
RESULT = re.compile(r"^test (\S+) (?:- should panic )?\.\.\. (ok|FAILED|ignored)")
SUMMARY = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored")

def run_bin(exe, env, timeout, extra=()):
    t0 = time.monotonic()
    p = subprocess.Popen([exe, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, start_new_session=True, text=True, errors="replace")
    try:
        out, err = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        status = "timeout"
    return status, out, err, time.monotonic() - t0

def failure_notes(out):
    """Per failed test, its last panic (`---- name stdout ----` blocks): the test's own failure,
    not a panic that the test provoked and caught."""
    blocks, cur = {}, None
    for s in out.splitlines():
        m = re.match(r"^---- (\S+) stdout ----$", s)
        if m:
            cur = m.group(1)
            blocks[cur] = []
        elif cur is not None:
            if s.startswith("failures:"):
                cur = None
            else:
                blocks[cur].append(s)
    notes = {}
    for name, lines in blocks.items():
        at = [i for i, s in enumerate(lines) if " panicked at " in s]
        if not at:
            notes[name] = " | ".join(s.strip() for s in lines if s.strip())[:300]
            continue
        msg = [lines[at[-1]].strip()]
        for s in lines[at[-1] + 1:]:
            if s.startswith("note:") or s.startswith("stack backtrace") or not s.strip() \
                    or len(msg) > 3:
                break
            msg.append(s.strip())
        notes[name] = " | ".join(msg)
    return notes

def run_one(exe, names, policy, args, not_run=()):
    env = dict(os.environ, RUST_BACKTRACE="0")
    env.pop("SPLITSTEAL_NUM_THREADS", None)
    if policy is not None:
        env["SPLITSTEAL_POLICY"] = policy
    skips = [x for t in not_run for x in ("--skip", t)]
    names = [n for n in names if n not in not_run]
    status, out, err, secs = run_bin(exe, env, args.timeout, ["--exact", *skips] if skips else ())
    res = {}
    for s in out.splitlines():
        m = RESULT.match(s)
        if m:
            res[m.group(1)] = m.group(2)
    notes = failure_notes(out)
    summary = any(SUMMARY.match(s) for s in out.splitlines())
    how = None
    if status == "timeout" or not summary:
        how = "timed out" if status == "timeout" else f"ended without a summary (status {status})"
        # Rerun what did not finish, one test at a time, to name the culprits.
        for n in [n for n in names if n not in res]:
            st, o, e, _ = run_bin(exe, env, args.test_timeout, ["--exact", n])
            m = [RESULT.match(s) for s in o.splitlines()]
            m = [x for x in m if x and x.group(1) == n]
            if st == "timeout":
                res[n] = "TIMEOUT"
                notes[n] = f"no result within {args.test_timeout}s when run alone"
            elif m:
                res[n] = m[0].group(2)
                notes.update(failure_notes(o))
            else:
                res[n] = "CRASH"
                tail = [x for x in (o + e).splitlines() if x.strip()][-2:]
                notes[n] = f"status {st}: " + " | ".join(tail)
    elif status != 0 and not any(v == "FAILED" for v in res.values()):
        how = f"exit status {status} with no failed test"
    return res, notes, how, secs

# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(prog="scripts/rayon-tests.sh")
    ap.add_argument("--policy", action="append", default=[])
    ap.add_argument("--file", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--test-timeout", type=int, default=60)
    ap.add_argument("--errors", type=int, default=3)
    ap.add_argument("--skip-broken", action="store_true")
    ap.add_argument("--no-run", action="store_true")
    ap.add_argument("--upstream", action="store_true")
    ap.add_argument("--debug", action="store_true")
    ap.add_argument("--rayon-src", type=Path)
    args = ap.parse_args(sys.argv[1:])
    if args.jobs < 0 or args.timeout < 1 or args.test_timeout < 1 or args.errors < 0:
        die("--jobs, --timeout, --test-timeout and --errors take positive numbers")

    all_policies = policies()
    if args.upstream:
        if args.policy:
            die("--upstream runs real rayon: --policy does not apply")
        run_policies = [None]
    else:
        bad = [p for p in args.policy if p not in all_policies]
        if bad:
            die(f"unknown --policy {bad}; Policy::ALL: {', '.join(all_policies)}")
        run_policies = args.policy or all_policies

    WORK.mkdir(parents=True, exist_ok=True)
    src_root, core_root = rayon_sources()
    src_root = args.rayon_src or src_root
    if not (src_root / "tests").is_dir() or not (src_root / "src" / "iter" / "test.rs").exists():
        die(f"{src_root} does not look like {RAYON}'s sources")
    if not (core_root / "tests").is_dir() or not (core_root / "src" / "join" / "test.rs").exists():
        die(f"{core_root} does not look like {CORE}'s sources")
    log(f"rayon sources: {src_root}")
    log(f"rayon-core sources: {core_root}")
    log(f"against: {'rayon 1.12.0 (upstream control run)' if args.upstream else ROOT / 'crates/splitsteal'}")
    for rel, why in SKIPPED_UNITS:
        log(f"not converted: {rel}: {why}")

    files = gather_files(src_root, core_root, set(args.file), args.upstream)
    for f in files:
        extra = f", paths rewritten on {f['rewritten']} lines" if f["rewritten"] else ""
        log(f"  {f['name']:<24} {f['tests']:>4} tests  from {f['origin']}{extra}")
        for n, why in f["skipped"]:
            log(f"  {'':<24}      skipped test {n}: {why}")
    crate = write_crate(args, src_root, core_root, files)
    target_dir = WORK / ("target-upstream" if args.upstream else "target")

    t0 = time.monotonic()
    names = [f["name"] for f in files]
    exes, errors, other = build(args, crate, target_dir, names)
    build_secs = time.monotonic() - t0
    first_errors = {n: list(m) for n, m in errors.items() if m}
    log(f"\nbuild: {build_secs:.0f}s ({'dev' if args.debug else 'release'}, "
        f"{len(exes)}/{len(names)} files compiled)")
    for pkg, m in other:
        log(f"error outside the test files ({pkg}):\n{m['rendered']}")
    by_name = {f["name"]: f for f in files}
    for n, msgs in first_errors.items():
        log(f"\n== {n}: does not compile, {len(msgs)} errors; first {min(len(msgs), args.errors)}:")
        for m in msgs[:args.errors]:
            log("\n".join(m["rendered"].rstrip().split("\n")[:14]))

    dropped = {n: [] for n in names}
    if args.skip_broken and first_errors:
        for rnd in range(1, 9):
            broken = [n for n in names if n not in exes]
            if not broken:
                break
            progress = False
            for n in broken:
                d = drop_broken(crate, by_name[n], errors[n])
                dropped[n] += d
                progress |= bool(d)
            if not progress:
                break
            t1 = time.monotonic()
            e2, errors, _ = build(args, crate, target_dir, broken)
            exes.update(e2)
            log(f"skip-broken round {rnd}: rebuilt {len(broken)} files in "
                f"{time.monotonic() - t1:.0f}s, {sum(1 for n in broken if n in e2)} now compile")
        for n in names:
            if dropped[n]:
                log(f"  {n}: dropped {len(dropped[n])} items: {', '.join(dropped[n])}")

    # Test lists (the runtime counts, `#[cfg]`s applied).
    lists = {}
    for n, exe in exes.items():
        p = subprocess.run([exe, "--list", "--format", "terse"], capture_output=True, text=True)
        lists[n] = [s[:-len(": test")] for s in p.stdout.splitlines() if s.endswith(": test")]

    results = {}  # (file, policy) -> (res, notes, how, secs)
    run_secs = 0.0
    if not args.no_run:
        t2 = time.monotonic()
        jobs = [(n, p) for p in run_policies for n in names if n in exes]
        lock = threading.Lock()
        def work(job):
            n, p = job
            r = run_one(exes[n], lists[n], p, args, NOT_RUN.get((n, p), {}))
            res, _, how, secs = r
            ok = sum(v == "ok" for v in res.values())
            bad = sum(v not in ("ok", "ignored") for v in res.values())
            with lock:
                log(f"  {p or 'rayon':<12} {n:<24} {ok:>4} passed {bad:>3} failed  "
                    f"{secs:6.1f}s{'  (' + how + ')' if how else ''}")
            return job, r
        log(f"\nrunning {len(jobs)} binaries (timeout {args.timeout}s each):")
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs or 1)) as ex:
            for job, r in ex.map(work, jobs):
                results[job] = r
        run_secs = time.monotonic() - t2

    # ------------------------------------------------------------ report
    cols = run_policies if not args.no_run else []
    rep = []
    head = f"{'file':<24} {'tests':>5}  {'compiled':<10}" + "".join(f" {p or 'rayon':>12}" for p in cols)
    rep += ["", head, "-" * len(head)]
    failing = {}
    fail_any = False
    for f in files:
        n = f["name"]
        if n not in exes:
            comp = "NO"
        elif dropped[n]:
            comp = f"-{len(dropped[n])} items"
        else:
            comp = "yes"
        fail_any |= comp != "yes"
        tests = len(lists[n]) if n in lists else f["tests"]
        row = f"{n:<24} {tests:>5}  {comp:<10}"
        for p in cols:
            if (n, p) not in results:
                row += f" {'-':>12}"
                continue
            res, notes, how, _ = results[(n, p)]
            ok = sum(v == "ok" for v in res.values())
            bad = [t for t, v in res.items() if v not in ("ok", "ignored")]
            skipped = NOT_RUN.get((n, p), {})
            missing = [t for t in lists[n] if t not in res and t not in skipped]
            cell = (f"{ok}/{len(bad) + len(missing)}" + (f"-{len(skipped)}" if skipped else "")
                    + ("!" if how else ""))
            row += f" {cell:>12}"
            for t in bad:
                failing.setdefault((n, t), []).append((p, res[t], notes.get(t, "")))
            for t in missing:
                failing.setdefault((n, t), []).append((p, "NO RESULT", how or ""))
            fail_any |= bool(bad or missing or how)
        rep.append(row)
    if cols:
        rep.append("cells: passed/failed ('!': the binary timed out or crashed; its unfinished "
                   "tests were rerun alone; '-N': N tests not run, listed below)")
    not_run = [(n, p, t, why) for (n, p), ts in NOT_RUN.items() if p in cols
               and n in lists for t, why in ts.items()]
    if not_run:
        rep += ["", "not run (a documented limit of the policy, not a pass):"]
        for n, p, t, why in not_run:
            rep.append(f"  {n}::{t} under {p}: {why}")
    if failing:
        rep += ["", "failing tests:"]
        for (n, t), occ in sorted(failing.items()):
            pols = [p or "rayon" for p, _, _ in occ]
            which = "every policy run" if len(pols) == len(cols) and len(cols) > 1 else ", ".join(pols)
            kinds = sorted({k for _, k, _ in occ})
            note = next((x for _, _, x in occ if x), "")
            rep.append(f"  {n}::{t} [{'/'.join(kinds)}] under {which}")
            if note:
                rep.append(f"      {note[:300]}")
    if first_errors:
        rep += ["", "files that do not compile (first error of each):"]
        for n, msgs in first_errors.items():
            first = msgs[0]["rendered"].strip().split("\n")
            loc = next((s.strip() for s in first if s.strip().startswith("-->")), "")
            rep.append(f"  {n}: {len(msgs)} errors; {first[0]} {loc}")
    if any(dropped.values()):
        rep += ["", "dropped by --skip-broken (count as failures):"]
        for n, d in dropped.items():
            if d:
                rep.append(f"  {n}: {', '.join(d)}")
    rep += ["", f"time: build {build_secs:.0f}s, runs {run_secs:.0f}s "
            f"({'dev' if args.debug else 'release'}, {os.cpu_count()} CPUs)"]
    ok = not fail_any and not other and not first_errors
    if ok and not_run:
        rep.append(f"RESULT: all files compiled and every test run passed ({len(not_run)} not "
                   "run, listed above)")
    else:
        rep.append("RESULT: " + ("all files compiled and all tests passed" if ok else "FAILED"))
    text = "\n".join(rep)
    log(text)
    all_errs = []
    for n, msgs in first_errors.items():
        all_errs += [f"==== {n}: {len(msgs)} errors"] + [m["rendered"] for m in msgs]
    (WORK / ("summary-upstream.txt" if args.upstream else "summary.txt")).write_text(
        text + "\n\n" + "\n".join(all_errs) + "\n")
    sys.exit(0 if ok else 1)

try:
    main()
except KeyboardInterrupt:
    die("interrupted", 130)
PYTHON
)
exec python3 -c "$PY" "$@"
