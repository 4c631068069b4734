#!/usr/bin/env bash
# The project's test command: every unit and integration test, then the
# stress suite under the thread sanitizer (kept apart so its CPU-bound load
# does not starve the other tests). README and .ci/run call exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

swift format lint --strict --recursive --parallel Package.swift Sources Tests  # the style, as Scripts/lint.sh
# The compiler's Apple check: every module an app links type-checked for the iOS,
# macOS, tvOS and watchOS simulators at the declared floor (controls first; below
# the floor it must fail).
Scripts/apple-check.sh
# Nothing above the floor outside #available, by text, where the compiler cannot
# look (modules importing Foundation, XCTest or Testing; the tests). It proves
# itself first on planted uses.
python3 Scripts/availability-check.py --self-test
python3 Scripts/availability-check.py
# One door into the runtime: no `package` declaration in ActorMVVM, no @testable import in Sources.
Scripts/one-door.sh
# Public API only: no @_spi, @_silgen_name, @_cdecl, constructor or unsafeBitCast in Sources.
Scripts/public-api-only.sh
swift build --build-tests -Xswiftc -warnings-as-errors
swift build --product repl -Xswiftc -warnings-as-errors  # the end-to-end REPL test runs the binary
# The runtime is @inlinable: a client module specialises it with the optimiser on.
# Building the Benchmarks in release catches what only that build trips over.
swift build -c release --product Benchmarks -Xswiftc -warnings-as-errors
# Instructions and allocations per event (or per chain) for the benchmark rows
# that matter, under valgrind, against the reviewed budgets in
# Scripts/budgets.txt: a regression fails here. (Installs valgrind where it
# can; where it cannot, says loudly that the budgets were not checked.)
Scripts/budgets.sh
# The library products' DocC docs, built with the toolchain's docc: fails on any
# warning or on a public symbol without a doc comment.
Scripts/docs.sh
# The unit and integration suites, once: virtual time is the test bubble's on
# every platform, so this pass runs what an Apple build runs.
swift test --skip-build --skip StressTests
# What an Apple build below OS 26 sees, simulated on Linux: public stdlib
# interfaces only, Apple's code paths, SwiftUI's signature; every product and
# test target built, and the suites whose code differs on those paths run.
Scripts/apple-profile.sh
# A client package that depends on ActorMVVM by path, as an app would: the
# public API used from outside (a search screen with the view bridge).
swift build --package-path Tests/ClientPackage --build-tests -Xswiftc -warnings-as-errors
# Its @MainActor tests run in parallel, as an app team's would, with
# main-actor services called from effects: the test bubble waits for what
# they queue on the main actor.
swift test --package-path Tests/ClientPackage --skip-build
Scripts/stress.sh
