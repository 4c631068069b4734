#!/usr/bin/env bash
# The concurrency stress suite under the thread sanitizer, in its own build
# folder so the sanitized build does not evict the normal one.
set -euo pipefail
cd "$(dirname "$0")/.."

TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/Scripts/tsan-suppressions.txt ${TSAN_OPTIONS:-}" swift test --sanitize=thread --scratch-path .build-tsan --filter StressTests "$@"
