#!/usr/bin/env bash
# make-sdk.sh OUT
# Builds a stand-in Apple resource directory (the iOS, tvOS and watchOS simulators
# and macOS, x86_64) from the textual standard-library interfaces that the Linux
# toolchain ships. visionOS is not made: its availability is derived from iOS's
# through the real SDK's SDKSettings.json, and without that map the standard
# library itself does not build for xros. Those interfaces keep Apple's
# @available annotations, so the real compiler, pointed at OUT with an Apple -target, reports the
# same availability errors Xcode would for code that uses only the standard library.
#
# Every edit made to the Linux interfaces (and why):
#   1. "-target x86_64-unknown-linux-gnu" in the swift-module-flags line becomes the Apple triple.
#   2. Modules other than Swift get -disable-availability-checking on that line: the Linux printer
#      emits "@_implements(…, Failure)" typealiases that do not build under Apple availability.
#      (It applies to building the module itself; clients still see every @available.)
#   3. "@backDeployed(…)" lines are deleted: Linux prints those functions without their bodies.
#      The function's own @available stays, which is where Apple clients can call it from.
#   4. "import Glibc" lines are deleted (Synchronization, Observation, Distributed).
#   5. Synchronization's Linux Mutex calls _swift_stdlib_gettid (a Glibc shim): a one-line stub.
# Layout of OUT:
#   res/{iphonesimulator,macosx,appletvsimulator,watchsimulator}/M.swiftmodule/<triple>.swiftinterface, res/{clang,shims,apinotes}
#   links into the toolchain, sdk/usr/include (empty: no C library headers), mcache/ (module cache,
#   filled on first use), STAMP (the compiler version and this script's checksum).
set -euo pipefail
[ $# = 1 ] || { echo "usage: make-sdk.sh OUT" >&2; exit 2; }
out=$1
swiftc_path=$(command -v swiftc) || { echo "make-sdk.sh: swiftc not on PATH" >&2; exit 2; }
tc=$(dirname "$(dirname "$(readlink -f "$swiftc_path")")")   # …/usr
lib=$tc/lib/swift
linux=$lib/linux
[ -f "$linux/Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" ] ||
  { echo "make-sdk.sh: no x86_64 Linux interface for Swift under $linux" >&2; exit 2; }
modules="Swift SwiftOnoneSupport _Concurrency _StringProcessing _RegexParser RegexBuilder Synchronization Observation Distributed"

work=$(mktemp -d "${out%/}.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/res" "$work/sdk/usr/include" "$work/mcache"
for d in clang shims apinotes; do
  [ -e "$lib/$d" ] && ln -s "$lib/$d" "$work/res/$d"
done

# platform dir : interface file name : triple written into the flags line
for spec in iphonesimulator:x86_64-apple-ios-simulator:x86_64-apple-ios18.0-simulator \
            macosx:x86_64-apple-macos:x86_64-apple-macosx15.0 \
            appletvsimulator:x86_64-apple-tvos-simulator:x86_64-apple-tvos18.0-simulator \
            watchsimulator:x86_64-apple-watchos-simulator:x86_64-apple-watchos11.0-simulator; do
  IFS=: read -r plat file triple <<<"$spec"
  for m in $modules; do
    src=$linux/$m.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface
    [ -f "$src" ] || continue
    dst=$work/res/$plat/$m.swiftmodule/$file.swiftinterface
    mkdir -p "$(dirname "$dst")"
    extra=" -disable-availability-checking"
    [ "$m" = Swift ] && extra=""
    gettid=""
    if [ "$m" = Synchronization ] && grep -q '_swift_stdlib_gettid' "$src"; then
      gettid='@usableFromInline internal func _swift_stdlib_gettid() -> Swift.UInt32 { 1 }'
    fi
    MOD_TRIPLE=$triple MOD_EXTRA=$extra MOD_GETTID=$gettid awk '
      /^\/\/ swift-module-flags: / {
        n = sub(/-target x86_64-unknown-linux-gnu/, "-target " ENVIRON["MOD_TRIPLE"] ENVIRON["MOD_EXTRA"])
        if (n != 1) { print "no -target in the flags line" > "/dev/stderr"; exit 3 }
        print; next }
      /^[ \t]*@backDeployed\(/ { next }
      /^import Glibc[ \t]*$/ { next }
      /^import / { seen = 1; print; next }
      seen && !done && ENVIRON["MOD_GETTID"] != "" { print ENVIRON["MOD_GETTID"]; done = 1 }
      { print }
    ' "$src" >"$dst"
    # Check that the edits took.
    grep -q -- "-target $triple" "$dst"
    ! grep -qE '^[[:space:]]*@backDeployed\(|^import Glibc' "$dst"
  done
done
{ "$swiftc_path" --version 2>&1 | head -1; cksum <"$0" | cut -d' ' -f1; } >"$work/STAMP"
rm -rf "$out"
mv "$work" "$out"
trap - EXIT
echo "fake Apple SDK in $out ($(head -1 "$out/STAMP"))"
