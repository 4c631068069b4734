#!/usr/bin/env bash
# Formatting (swift format, configured by .swift-format) and a build that
# treats every warning as an error.
set -euo pipefail
cd "$(dirname "$0")/.."

swift format lint --strict --recursive --parallel Package.swift Sources Tests
swift build --build-tests -Xswiftc -warnings-as-errors
