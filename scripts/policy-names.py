#!/usr/bin/env python3
"""Prints the names of splitsteal's `Policy::ALL`, one per line, read from the source (for the
scripts that run outside code under every policy without building the CLI first)."""
import re
import sys
from pathlib import Path

src = Path(__file__).resolve().parent.parent / "crates" / "splitsteal-core" / "src" / "policy.rs"
text = src.read_text()
m = re.search(r"pub const ALL: &'static \[Policy\] = &\[(.*?)\];", text, re.S)
variants = re.findall(r"Policy::(\w+)", m.group(1)) if m else []
names = dict(re.findall(r"Policy::(\w+)\s*=>\s*\"([^\"]+)\"", text))
if not variants or any(v not in names for v in variants):
    sys.exit(f"policy-names.py: cannot read the policy names of Policy::ALL in {src}")
print("\n".join(names[v] for v in variants))
