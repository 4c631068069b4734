"""Fails if a public symbol of the given modules has no doc comment, or if
a doc comment names a type of its own module in code voice.

Usage: doc-coverage.py SYMBOL_GRAPH_DIR MODULE...
Reads each module's symbol graph (and its extension graphs, MODULE@Other)
and prints every public or open symbol without a `///` comment. Symbols the
compiler synthesises (Equatable's `==` and Hashable's members, a
RawRepresentable enum's `init(rawValue:)`) are documented by their protocol
and not counted.

Then every `///` line of the module's sources is checked for one of its
public types (or a member of one) in single backticks, `Feature`, where a
symbol link, ``Feature``, belongs: DocC resolves links (Scripts/docs.sh fails
on one that no longer does), so a rename breaks the docs build instead of
leaving a comment that names nothing. Code voice stays for what DocC cannot
link: other modules' symbols, members of generic extensions, code.
"""
import glob
import json
import os
import re
import sys

TYPE_KINDS = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor"}

SYNTHESISED = {"hashValue", "hash(into:)", "init(rawValue:)", "rawValue", "==(_:_:)", "!=(_:_:)"}


def main() -> int:
    directory, modules = sys.argv[1], sys.argv[2:]
    total = 0
    missing = []
    types = {module: set() for module in modules}
    for module in modules:
        for path in [os.path.join(directory, f"{module}.symbols.json")] + glob.glob(
            os.path.join(directory, f"{module}@*.symbols.json")
        ):
            graph = json.load(open(path))
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol["kind"]["identifier"] in TYPE_KINDS and len(symbol["pathComponents"]) == 1:
                    types[module].add(symbol["pathComponents"][0])
                if symbol["pathComponents"][-1] in SYNTHESISED:
                    continue
                total += 1
                if not symbol.get("docComment"):
                    missing.append(f"{module}: {symbol['kind']['identifier']} {'.'.join(symbol['pathComponents'])}")
    for line in missing:
        print(f"undocumented: {line}")
    print(f"doc coverage: {total - len(missing)} of {total} public symbols documented ({', '.join(modules)})")
    unlinked = code_voice_mentions(types)
    for line in unlinked:
        print(f"code voice for a linkable symbol (write it ``…``): {line}")
    print(f"doc links: {len(unlinked)} mention(s) of a module's own type in code voice")
    return 1 if missing or unlinked else 0


def code_voice_mentions(types: dict[str, set[str]]) -> list[str]:
    """`Type` or `Type.member…` alone in single backticks, in each module's `///` lines."""
    found = []
    for module, names in types.items():
        if not names:
            continue
        alternatives = "|".join(sorted(names, key=len, reverse=True))
        pattern = re.compile(r"(?<!`)`(%s)(\.[A-Za-z_][^`\s]*)?`(?!`)" % alternatives)
        for path in sorted(glob.glob(f"Sources/{module}/**/*.swift", recursive=True)):
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                if line.strip().startswith("///"):
                    found += [f"{path}:{number}: {match.group(0)}" for match in pattern.finditer(line)]
    return found


if __name__ == "__main__":
    sys.exit(main())
