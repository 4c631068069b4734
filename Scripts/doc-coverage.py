"""Fails if a public symbol of the given modules has no doc comment.

Usage: doc-coverage.py SYMBOL_GRAPH_DIR MODULE...
Reads each module's symbol graph (and its extension graphs, MODULE@Other)
and prints every public or open symbol without a `///` comment. Symbols the
compiler synthesises (Equatable's `==` and Hashable's members, a
RawRepresentable enum's `init(rawValue:)`) are documented by their protocol
and not counted.
"""
import glob
import json
import os
import sys

SYNTHESISED = {"hashValue", "hash(into:)", "init(rawValue:)", "rawValue", "==(_:_:)", "!=(_:_:)"}


def main() -> int:
    directory, modules = sys.argv[1], sys.argv[2:]
    total = 0
    missing = []
    for module in modules:
        for path in [os.path.join(directory, f"{module}.symbols.json")] + glob.glob(
            os.path.join(directory, f"{module}@*.symbols.json")
        ):
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol["pathComponents"][-1] in SYNTHESISED:
                    continue
                total += 1
                if not symbol.get("docComment"):
                    missing.append(f"{module}: {symbol['kind']['identifier']} {'.'.join(symbol['pathComponents'])}")
    for line in missing:
        print(f"undocumented: {line}")
    print(f"doc coverage: {total - len(missing)} of {total} public symbols documented ({', '.join(modules)})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
