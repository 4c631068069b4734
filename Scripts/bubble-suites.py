#!/usr/bin/env python3
"""Prints `swift test` arguments naming every suite marked `.testBubble`.

    Scripts/bubble-suites.py --filter   # --filter Module.Suite/ per suite
    Scripts/bubble-suites.py --skip     # --skip Module.Suite/ per suite

A suite is its `@Suite(…)` line and the type declared after it.
"""
import glob
import re
import sys

flag = sys.argv[1] if len(sys.argv) > 1 else "--filter"
for path in sorted(glob.glob("Tests/*/*.swift")):
    module = path.split("/")[1]
    suite = None
    for line in open(path, encoding="utf-8"):
        if line.startswith("@Suite"):
            suite = ".testBubble" in line
        elif suite is not None:
            match = re.match(r"(?:private |fileprivate )?(?:struct|final class|class|enum) (\w+)", line)
            if match:
                if suite:
                    print(f"{flag} {module}.{match.group(1)}/")
                suite = None
