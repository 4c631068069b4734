"""Fails if a doc comment names a type of its own module in code voice
(`Feature`) instead of a symbol link (``Feature``).

Usage: doc-links.py SYMBOL_GRAPH_DIR MODULE...
A symbol link is checked by DocC (Scripts/docs.sh fails on a link that no
longer resolves), so a rename breaks the docs build instead of leaving a
comment that names nothing. Code voice is for what DocC cannot link: other
modules' symbols, members of generic extensions, code. Each module's public
types are read from its symbol graph; every `///` line of its sources is
checked for `Type` or `Type.member` in single backticks.
"""
import glob
import json
import os
import re
import sys

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}


def public_types(directory: str, module: str) -> set[str]:
    graph = json.load(open(os.path.join(directory, f"{module}.symbols.json")))
    return {
        symbol["pathComponents"][0]
        for symbol in graph["symbols"]
        if symbol.get("accessLevel") in ("public", "open")
        and symbol["kind"]["identifier"] in TYPE_KINDS
        and len(symbol["pathComponents"]) == 1
    }


def main() -> int:
    directory, modules = sys.argv[1], sys.argv[2:]
    found = []
    for module in modules:
        types = public_types(directory, module)
        # `Type` or `Type.member…`, alone in single backticks (not part of ``…``).
        pattern = re.compile(r"(?<!`)`(%s)(\.[A-Za-z_][^`\s]*)?`(?!`)" % "|".join(sorted(types, key=len, reverse=True)))
        for path in sorted(glob.glob(f"Sources/{module}/**/*.swift", recursive=True)):
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                stripped = line.strip()
                if not stripped.startswith("///"):
                    continue
                for match in pattern.finditer(stripped):
                    found.append(f"{path}:{number}: {match.group(0)}")
    for line in found:
        print(f"code voice for a linkable symbol (write it ``…``): {line}")
    print(f"doc links: {len(found)} mention(s) of a module's own type in code voice ({', '.join(modules)})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
