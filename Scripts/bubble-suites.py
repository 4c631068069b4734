#!/usr/bin/env python3
"""Prints `swift test` arguments naming every suite marked `.testBubble`.

    Scripts/bubble-suites.py --filter   # --filter Module.Suite/ per suite
    Scripts/bubble-suites.py --skip     # --skip Module.Suite/ per suite

A suite is its `@Suite(…)` line and the type declared after it; a free test
function is its `@Test(…)` line (at the start of a line) and the function after it.
"""
import glob
import re
import sys

flag = sys.argv[1] if len(sys.argv) > 1 else "--filter"
for path in sorted(glob.glob("Tests/*/*.swift")):
    module = path.split("/")[1]
    suite = None
    test = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("@Suite"):
            suite = ".testBubble" in line
        elif line.startswith("@Test") and ".testBubble" in line:
            test = True  # a free test function in a bubble of its own
        elif test:
            match = re.match(r"func (\w+)\(", line)
            if match:
                print(f"{flag} {module}.{match.group(1)}\\(\\)")
                test = False
        elif suite is not None:
            match = re.match(r"(?:private |fileprivate )?(?:struct|final class|class|enum) (\w+)", line)
            if match:
                if suite:
                    print(f"{flag} {module}.{match.group(1)}/")
                suite = None
