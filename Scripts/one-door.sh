#!/usr/bin/env bash
# One door into the runtime: the ActorMVVM module declares nothing with
# `package` access, so every other module (the operators, the view bridge,
# the testing tools, the coordinator, the REPL, the sample apps) reaches it
# through its public API alone, as an app's own modules would; and no module
# in Sources opens it with `@testable import` (which a debug build allows).
# The runtime's own tests use `@testable import ActorMVVM` for its internals.
set -euo pipefail
cd "$(dirname "$0")/.."

# A `package` modifier on a line that is not a comment.
pattern='^[[:space:]]*[^/[:space:]].*(^|[[:space:](])package([[:space:]]|\()|^[[:space:]]*package[[:space:](]'

# The check proves itself first on planted declarations, and ignores prose.
planted=$'  package func reach() {}\n  @usableFromInline package var x = 0\npackage struct S {}\n  public package(set) var y = 0'
prose=$'  /// the one place in the package that reads Mirror\n  // a package of work'
[ "$(grep -cE "$pattern" <<<"$planted")" -eq 4 ] || { echo "one-door: the check misses a planted declaration" >&2; exit 1; }
[ "$(grep -cE "$pattern" <<<"$prose" || true)" -eq 0 ] || { echo "one-door: the check flags prose" >&2; exit 1; }

status=0
if grep -rnE --include='*.swift' "$pattern" Sources/ActorMVVM; then
  echo "one-door: a package declaration in the runtime (above); make it public and documented, or internal" >&2
  status=1
fi
if grep -rnE --include='*.swift' '@testable[[:space:]]+import' Sources; then
  echo "one-door: a @testable import in Sources (above)" >&2
  status=1
fi
exit $status
