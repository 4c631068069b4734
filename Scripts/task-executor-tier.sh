#!/usr/bin/env bash
# Runs every suite marked `.testBubble` with the process-wide job count kept
# out (ACTORMVVM_JOB_COUNT=task-executor): the task-executor tier an Apple
# build uses, on Linux. Expects `swift build --build-tests` done.
set -euo pipefail
cd "$(dirname "$0")/.."

filters=$(python3 - <<'PY'
import glob, re
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
                    print(f"--filter {module}.{match.group(1)}/")
                suite = None
PY
)
count=$(grep -c -- --filter <<<"$filters" || true)
echo "task-executor tier: $count suites in test bubbles"
# shellcheck disable=SC2086
ACTORMVVM_JOB_COUNT=task-executor swift test --skip-build $filters
