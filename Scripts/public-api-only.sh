#!/usr/bin/env bash
# Public API only: nothing in Sources reaches past the toolchain's public
# interfaces — no `@_spi` import, no `@_silgen_name`, no `@_cdecl`, no C
# load-time constructor, no `unsafeBitCast`. The check proves itself first on
# planted lines, and ignores prose (comments).
set -euo pipefail
cd "$(dirname "$0")/.."

pattern='^[[:space:]]*[^/[:space:]*].*(@_spi\(|@_silgen_name|@_cdecl|__attribute__\(\(constructor|unsafeBitCast)|^[[:space:]]*(@_spi\(|@_silgen_name|@_cdecl|__attribute__\(\(constructor|unsafeBitCast)'

planted=$'@_spi(Experimental) import _Concurrency\n  @_silgen_name("swift_job_run")\n@_cdecl("hook")\n__attribute__((constructor)) static void boot(void) {}\n  let e = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)'
prose=$'  /// no @_spi import, no @_silgen_name\n  // unsafeBitCast is not used here\n * __attribute__((constructor)) in a C comment'
[ "$(grep -cE "$pattern" <<<"$planted")" -eq 5 ] || { echo "public-api-only: the check misses a planted line" >&2; exit 1; }
[ "$(grep -cE "$pattern" <<<"$prose" || true)" -eq 0 ] || { echo "public-api-only: the check flags prose" >&2; exit 1; }

if grep -rnE --include='*.swift' --include='*.c' --include='*.h' "$pattern" Sources; then
  echo "public-api-only: a private entry point in Sources (above)" >&2
  exit 1
fi
echo "public-api-only: no @_spi, @_silgen_name, @_cdecl, constructor or unsafeBitCast in Sources"
