#!/usr/bin/env bash
# Instructions per event (pumping rows) or per chain (creating rows) for the
# Benchmarks executable's RxSwift-suite workloads, counted by valgrind's
# callgrind: a noise-free figure where a time is not.
#
#   [APPLE_PATH=1] Scripts/instructions.sh [FILTER]
#
# prints one JSON object per workload whose name contains FILTER, and one for
# its baseline where it has one. Each workload runs twice, over N and 3N
# units; the difference divided by 2N cancels start-up and tear-down.
# Needs valgrind (apt-get install valgrind). Valgrind 3.19 cannot read the
# toolchain's DWARF 5, so the binary is run with its debug info stripped.
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-}"
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }

# APPLE_PATH=1: the binary takes the paths of Apple OSes below 26
# (ACTORMVVM_APPLE_BELOW_26: effect runs through the start lane, the pthread
# lock), built apart in .build-apple-path.
build=(swift build -c release)
if [ "${APPLE_PATH:-}" = 1 ]; then build+=(--scratch-path .build-apple-path -Xswiftc -DACTORMVVM_APPLE_BELOW_26); fi
"${build[@]}" --product Benchmarks >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
binary="$work/Benchmarks"
cp "$("${build[@]}" --show-bin-path)/Benchmarks" "$binary"
strip --strip-debug "$binary"

count_instructions() { # NAME COUNT [--baseline] → total instructions
  local log="$work/callgrind.log"
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" --instructions "$@" >/dev/null 2>"$log" \
    || { cat "$log" >&2; exit 1; }
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log"
}

"$binary" --list | while IFS= read -r name; do
  [[ "$name" == *"$filter"* ]] || continue
  case "$name" in
    *creating*) unit=chain; small=100 ;;
    *) unit=event; small=2000 ;;
  esac
  for variant in "" --baseline; do
    label="$name"
    if [[ -n "$variant" ]]; then
      "$binary" --instructions "$name" 0 --baseline >/dev/null 2>&1 || continue
      label="$name (baseline)"
    fi
    first=$(count_instructions "$name" "$small" $variant)
    second=$(count_instructions "$name" $((small * 3)) $variant)
    python3 -c 'import json,sys; n,u,a,b,s=sys.argv[1:]; print(json.dumps({"workload": n, "instructions_per_"+u: round((int(b)-int(a))/(2*int(s)))}))' \
      "$label" "$unit" "$first" "$second" "$small"
  done
done
