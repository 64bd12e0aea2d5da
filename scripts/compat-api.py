#!/usr/bin/env python3
"""compat-api.py: the public item paths of a crate, from rustdoc's JSON output.

    compat-api.py CRATE.json [DEP.json ...]

Walks the crate's public module tree from its root, following re-exports (into the
dependencies' JSON files given after it, where a re-export leaves the crate, as rayon's crate
root re-exports rayon-core's items and the compatibility shims re-export splitsteal's) and
prints one line per public item, sorted:

    KIND PATH            e.g.  trait rayon::iter::ParallelIterator
    method PATH::NAME          a trait's method, or a type's inherent method
    assoc_type PATH::NAME      a trait's associated type
    impl PATH: TRAIT           a trait the type implements (by the trait's name; not the
                               auto traits, blanket impls or Drop)

PATH is where a user names the item (the re-export's path, not the definition's); a type
alias without parameters is listed as the type it names (it is that type). Items
rustdoc hides (`#[doc(hidden)]`) are not public API and are not listed. Used by
scripts/compat-api.sh; needs the JSON of rustdoc's `--output-format json` (format 57 or a
compatible one).
"""

import json
import sys


class Crate:
    def __init__(self, path):
        with open(path) as f:
            self.doc = json.load(f)
        self.index = self.doc["index"]
        self.paths = self.doc["paths"]
        self.name = self.index[str(self.doc["root"])]["name"]
        # definition path -> local id, to resolve another crate's re-export of one of ours
        self.by_path = {}
        for item_id, entry in self.paths.items():
            if entry["crate_id"] == 0:
                self.by_path[tuple(entry["path"])] = item_id

    def external_crate_of(self, item_id):
        entry = self.paths.get(str(item_id))
        if entry is None or entry["crate_id"] == 0:
            return None, None
        crate = self.doc["external_crates"][str(entry["crate_id"])]["name"]
        return crate, entry


def kind_of(item):
    (kind,) = item["inner"].keys()
    return {"function": "fn"}.get(kind, kind)


class Walker:
    def __init__(self, crates):
        self.crates = {c.name: c for c in crates}
        self.lines = set()
        self.seen_modules = set()

    def resolve(self, crate, item_id):
        """(crate, item) of an id seen in `crate`, following it into a dependency's JSON;
        (None, paths entry) when the item is in a crate we have no JSON for."""
        item = crate.index.get(str(item_id))
        if item is not None:
            return crate, item
        dep_name, entry = crate.external_crate_of(item_id)
        dep = self.crates.get(dep_name)
        if dep is None:
            return None, entry
        local = dep.by_path.get(tuple(entry["path"]))
        if local is None:
            sys.exit(f"compat-api.py: {'::'.join(entry['path'])} not found in {dep.name}'s JSON")
        return dep, dep.index[local]

    def module(self, crate, item, prefix):
        key = (crate.name, item["id"], prefix)
        if key in self.seen_modules:
            return
        self.seen_modules.add(key)
        for child_id in item["inner"]["module"]["items"]:
            self.item(crate, crate.index[str(child_id)], prefix)

    def item(self, crate, item, prefix):
        kind = kind_of(item)
        if kind == "use":
            use = item["inner"]["use"]
            if use["id"] is None:  # a primitive or something rustdoc cannot resolve
                return
            target_crate, target = self.resolve(crate, use["id"])
            if target_crate is None:  # in a crate without JSON: the path and the kind
                if not use["is_glob"]:
                    self.lines.add(f"{target['kind']} {prefix}::{use['name']}")
                return
            if use["is_glob"]:
                self.module(target_crate, target, prefix)
            else:
                self.named(target_crate, target, f"{prefix}::{use['name']}")
        elif kind in ("impl",):
            return
        else:
            self.named(crate, item, f"{prefix}::{item['name']}")

    def named(self, crate, item, path):
        kind = kind_of(item)
        if kind == "use":  # a re-export of a re-export
            use = item["inner"]["use"]
            target_crate, target = self.resolve(crate, use["id"])
            if target_crate is None:
                self.lines.add(f"{target['kind']} {path}")
            else:
                self.named(target_crate, target, path)
            return
        if kind == "type_alias":  # an alias of a type is that type, methods and all
            aliased = item["inner"]["type_alias"]["type"].get("resolved_path")
            if aliased is not None and aliased["args"] is None:
                target_crate, target = self.resolve(crate, aliased["id"])
                if target_crate is not None and kind_of(target) in ("struct", "enum", "union"):
                    self.named(target_crate, target, path)
                    return
        self.lines.add(f"{kind} {path}")
        inner = item["inner"][next(iter(item["inner"]))]
        if kind == "module":
            self.module(crate, item, path)
        elif kind == "trait":
            for member_id in inner["items"]:
                self.member(crate, crate.index[str(member_id)], path)
        elif kind in ("struct", "enum", "union"):
            for impl_id in inner["impls"]:
                impl = crate.index[str(impl_id)]["inner"]["impl"]
                if impl["is_synthetic"] or impl["blanket_impl"] is not None:
                    continue  # auto traits and blanket impls: not the crate's choice
                if impl["trait"] is None:
                    for member_id in impl["items"]:
                        member = crate.index[str(member_id)]
                        if member["visibility"] == "public":
                            self.member(crate, member, path)
                elif not impl["is_negative"]:
                    trait = impl["trait"]["path"].rsplit("::", 1)[-1]
                    if trait != "Drop":  # how a type drops is not part of its API
                        self.lines.add(f"impl {path}: {trait}")

    def member(self, crate, item, path):
        kind = kind_of(item)
        if kind == "fn":
            self.lines.add(f"method {path}::{item['name']}")
        elif kind == "assoc_type":
            self.lines.add(f"assoc_type {path}::{item['name']}")
        elif kind == "assoc_const":
            self.lines.add(f"assoc_const {path}::{item['name']}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    crates = [Crate(p) for p in sys.argv[1:]]
    walker = Walker(crates)
    root = crates[0]
    walker.module(root, root.index[str(root.doc["root"])], root.name)
    for line in sorted(walker.lines, key=lambda l: (l.split(" ", 1)[1], l)):
        print(line)


if __name__ == "__main__":
    main()
