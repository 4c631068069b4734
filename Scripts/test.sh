#!/usr/bin/env bash
# The project's test command: every unit and integration test, then the
# stress suite under the thread sanitizer (kept apart so its CPU-bound load
# does not starve the other tests). README and .ci/run call exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

swift format lint --strict --recursive --parallel Package.swift Sources Tests  # the style, as Scripts/lint.sh
swift build --build-tests -Xswiftc -warnings-as-errors
swift build --product repl -Xswiftc -warnings-as-errors  # the end-to-end REPL test runs the binary
# The runtime is @inlinable: a client module specialises it with the optimiser on.
# Building the Benchmarks in release catches what only that build trips over.
swift build -c release --product Benchmarks -Xswiftc -warnings-as-errors
# The library products' DocC docs, built with the toolchain's docc: fails on any
# warning or on a public symbol without a doc comment.
Scripts/docs.sh
swift test --skip-build --skip StressTests
# A client package that depends on ActorMVVM by path, as an app would: the
# public API used from outside (a search screen with the view bridge).
swift build --package-path Tests/ClientPackage --build-tests -Xswiftc -warnings-as-errors
# --no-parallel: a known, not yet fixed race. In a process whose first tests
# run in parallel, Quiescence (the TestClock's idle detector) is installed by
# whichever test makes a TestClock first, while the others' jobs are already
# in flight; about 1 process in 150 then sees "idle" before a debounce's
# sleeper registers, and the test waits on a clock never advanced. Measured on
# this package: 8 of 1,500 processes in parallel (with and without the change
# that added this line), 0 of 300 serialized. The main suite's first TestClock
# comes early among hundreds of tests and has not shown it.
swift test --package-path Tests/ClientPackage --skip-build --no-parallel
Scripts/stress.sh
