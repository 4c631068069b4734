#!/usr/bin/env bash
# Builds the DocC documentation of the library products from their symbol
# graphs with the toolchain's `docc`, failing on any warning, and checks that
# every public symbol has a doc comment. Output: .build-docs/archives/*.doccarchive.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(ActorMVVM ActorMVVMSupport ActorMVVMOperators ActorMVVMUI ActorMVVMTesting ActorMVVMCoordinator)
scratch=.build-docs
rm -rf "$scratch/archives"
mkdir -p "$scratch/archives"
# Every module's public symbol graph, doc comments included. (It exits
# non-zero because SwiftPM's generated test-runner modules have no graph;
# what matters is that each library module's graph is there, checked below.)
log=$(swift package --scratch-path "$scratch" dump-symbol-graph --minimum-access-level public 2>&1 || true)
graphs=$(sed -n 's/^Files written to //p' <<<"$log")
for module in "${modules[@]}"; do
  [ -f "$graphs/$module.symbols.json" ] || { echo "$log" >&2; echo "docs: no symbol graph for $module" >&2; exit 1; }
done
# Every public symbol documented, and each module's own types named in its doc
# comments as symbol links (``Feature``), which the build below resolves: a rename
# breaks the docs build instead of leaving a comment that names nothing.
python3 Scripts/doc-coverage.py "$graphs" "${modules[@]}"
failed=0
for module in "${modules[@]}"; do
  # Each archive gets its own module's graphs (and its extensions of others').
  dir="$scratch/graphs-$module"
  rm -rf "$dir" && mkdir -p "$dir"
  cp "$graphs/$module.symbols.json" "$dir/"
  cp "$graphs/$module"@*.symbols.json "$dir/" 2>/dev/null || true
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$dir" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.actormvvm.$module" \
    --output-path "$scratch/archives/$module.doccarchive" --warnings-as-errors > "$scratch/docc-$module.log" 2>&1 && continue
  cat "$scratch/docc-$module.log"
  failed=1
done
if [ "$failed" -ne 0 ]; then
  echo "docs: docc reported warnings (above)" >&2
  exit 1
fi
echo "docs: ${modules[*]} built with no warnings"
