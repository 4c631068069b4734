#!/usr/bin/env bash
# Runs the client package's main-actor service tests (TodoListTests in Swift
# Testing, TodoListXCTests in XCTest) in N fresh processes, 4 at a time,
# alternating the two frameworks, and prints how many failed. Expects the
# client package built (`swift build --package-path Tests/ClientPackage --build-tests`).
#
#   Scripts/fresh-processes.sh 10000          # both cores kept busy meanwhile
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
binary=Tests/ClientPackage/.build/debug/ClientPackagePackageTests.xctest
logs=$(mktemp -d)
yes >/dev/null &
busy1=$!
yes >/dev/null &
busy2=$!
trap 'kill $busy1 $busy2 2>/dev/null || true' EXIT
run_one() {
  local i=$1 binary=$2 logs=$3
  # A run counts only if it ran both tests and passed them.
  if ((i % 2)); then
    "$binary" DefaultMainActorAppTests.TodoListXCTests >"$logs/$i.log" 2>&1 \
      && grep -q "Executed 2 tests, with 0 failures" "$logs/$i.log" || echo "$i" >>"$logs/failed"
  else
    "$binary" --testing-library swift-testing --filter TodoListTests >"$logs/$i.log" 2>&1 \
      && grep -q "Test run with 2 tests in 1 suite passed" "$logs/$i.log" || echo "$i" >>"$logs/failed"
  fi
  if ! { [ -f "$logs/failed" ] && grep -qx "$i" "$logs/failed"; }; then rm -f "$logs/$i.log"; fi
}
export -f run_one
seq 1 "$count" | xargs -P 4 -I{} bash -c 'run_one {} "$0" "$1"' "$binary" "$logs"
failed=$( [ -f "$logs/failed" ] && wc -l <"$logs/failed" || echo 0)
echo "fresh processes: $count run (half XCTest, half Swift Testing), $failed failed; logs of failures in $logs"
[ "$failed" -eq 0 ]
