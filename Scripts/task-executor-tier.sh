#!/usr/bin/env bash
# Runs every suite marked `.testBubble` with the process-wide job count kept
# out (ACTORMVVM_JOB_COUNT=task-executor): the task-executor tier an Apple
# build uses, on Linux. Expects `swift build --build-tests` done.
set -euo pipefail
cd "$(dirname "$0")/.."

filters=$(python3 Scripts/bubble-suites.py --filter)
count=$(grep -c -- --filter <<<"$filters" || true)
echo "task-executor tier: $count suites in test bubbles"
# shellcheck disable=SC2086
ACTORMVVM_JOB_COUNT=task-executor swift test --skip-build $filters
