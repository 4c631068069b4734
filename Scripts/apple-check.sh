#!/usr/bin/env bash
# The Apple check: every Swift module an app can link (each library product's
# targets) type-checked by the real compiler for Apple targets, at the floor
# Package.swift declares, on Linux (Scripts/apple-typecheck/ says how).
#
# 1. Controls: the stand-in SDK must reject iOS 18 / macOS 15 / tvOS 18 /
#    watchOS 11 API below those versions and accept it at them.
# 2. The package at each declared floor (iOS, macOS, tvOS, watchOS
#    simulators): zero errors and zero warnings in every checkable module.
# 3. Below the floor (iOS 17) it must fail: the check sees the package's own
#    use of typed AsyncSequence, the reason for the floor.
#
# Modules that import Foundation, XCTest or Testing are listed as skipped:
# Linux has no textual interface for those frameworks (README, Platforms).
set -euo pipefail
cd "$(dirname "$0")/.."
tool=Scripts/apple-typecheck

"$tool/controls.sh"
for triple in $(python3 "$tool/typecheck.py" floor-triples .); do
  "$tool/typecheck.sh" . "$triple"
done

below=$(mktemp)
trap 'rm -f "$below"' EXIT
if "$tool/typecheck.sh" . x86_64-apple-ios17.0-simulator >"$below" 2>&1; then
  cat "$below"
  echo "apple-check: the package type-checks at iOS 17, below its floor: the check does not see its code" >&2
  exit 1
fi
grep -q "is only available in iOS 18.0 or newer" "$below" || {
  cat "$below"
  echo "apple-check: below the floor it failed for another reason than availability" >&2
  exit 1
}
echo "apple-check: below the floor (iOS 17) it fails as it must: $(grep '^summary' "$below")"
