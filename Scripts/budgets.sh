#!/usr/bin/env bash
# Instruction and allocation budgets per event (or per chain) for the
# Benchmarks executable's workloads: every row of Scripts/budgets.txt is
# counted under valgrind (callgrind, DHAT) and the check fails when one is
# over its budget. Run by Scripts/test.sh, so by CI.
#
#   Scripts/budgets.sh [FILTER]
#
# Installs valgrind with apt-get where it is missing and it can; where it
# cannot, says so loudly and exits 0 (the budgets are then not checked).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 Scripts/budgets.py --self-test
if ! command -v valgrind >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq valgrind >/dev/null || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; } || true
  elif command -v apt-get >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get install -y -qq valgrind >/dev/null || { sudo apt-get update -qq && sudo apt-get install -y -qq valgrind >/dev/null; } || true
  fi
fi
if ! command -v valgrind >/dev/null; then
  echo "############################################################################" >&2
  echo "budgets: SKIPPED — valgrind is not installed and could not be installed here;" >&2
  echo "budgets: the instruction and allocation budgets were NOT checked." >&2
  echo "############################################################################" >&2
  exit 0
fi
swift build -c release --product Benchmarks -Xswiftc -warnings-as-errors >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$(swift build -c release --show-bin-path)/Benchmarks" "$work/Benchmarks"
strip --strip-debug "$work/Benchmarks"
python3 Scripts/budgets.py "$work/Benchmarks" "${1:-}"
