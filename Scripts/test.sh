#!/usr/bin/env bash
# The project's test command: every unit, integration and stress test, then
# the stress suite again under the thread sanitizer. README and .ci/run call
# exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
Scripts/stress.sh
