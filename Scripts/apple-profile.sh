#!/usr/bin/env bash
# The Apple-SDK profile, on Linux: builds every library product, the testing
# product and the test targets as an Apple build below OS 26 would see them,
# then runs the tests that do not need the process-wide job count, and the
# client package's.
#
# - Public interfaces only. Xcode's SDK ships each standard-library module's
#   public `.swiftinterface`; the Linux toolchain also ships the private one
#   (SPI) and a binary module built with it. A directory holding only the
#   public interface of every module that has a private one goes first on
#   the import path, so `@_spi` imports and SPI declarations fail here as
#   they do in Xcode.
# - Apple's code paths: `ACTORMVVM_APPLE_BELOW_26` selects what an Apple
#   build below OS 26 runs (no `Task.immediate`/`Task.immediateDetached`,
#   the pthread branch of `Locked`, no job count).
#
# - SwiftUI: a stand-in module with the one declaration the library uses,
#   as Xcode's SDK declares it, so the `#if canImport(SwiftUI)` code compiles.
#
# What this does not check: Apple's frameworks' behaviour, the Darwin overlay,
# availability (Scripts/apple-check.sh compiles for Apple targets), and Apple's
# compilers and runtimes themselves. No Mac runs this CI.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build-apple-profile
interfaces="$scratch/public-interfaces"
toolchain_modules="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift/linux"
triple=$(uname -m)-unknown-linux-gnu

# One directory per module that has a private interface, holding only its
# public one (and its doc), so the compiler builds the module from it.
rm -rf "$interfaces"
mkdir -p "$interfaces"
for private in "$toolchain_modules"/*.swiftmodule/"$triple".private.swiftinterface; do
  module_dir=$(dirname "$private")
  module=$(basename "$module_dir")
  mkdir -p "$interfaces/$module"
  cp "$module_dir/$triple.swiftinterface" "$interfaces/$module/"
done
echo "apple-profile: public interfaces only for $(ls "$interfaces" | sed 's/.swiftmodule//' | tr '\n' ' ')"

# SwiftUI's one declaration the library uses, as the SDK declares it (the
# Apple check's stand-in, Scripts/apple-typecheck/stubs/SwiftUI.swift), so
# `#if canImport(SwiftUI)` code is compiled here: Linux has no SwiftUI.
stubs="$scratch/apple-stubs"
mkdir -p "$stubs"
swiftc -swift-version 6 -parse-as-library -module-name SwiftUI -emit-module \
  -emit-module-path "$stubs/SwiftUI.swiftmodule" -c -o "$stubs/SwiftUI.o" Scripts/apple-typecheck/stubs/SwiftUI.swift

flags=(
  --scratch-path "$scratch"
  -Xswiftc -I -Xswiftc "$PWD/$interfaces"
  -Xswiftc -I -Xswiftc "$PWD/$stubs"
  -Xlinker "$PWD/$stubs/SwiftUI.o"
  -Xswiftc -DACTORMVVM_APPLE_BELOW_26
)

swift build "${flags[@]}" --build-tests -Xswiftc -warnings-as-errors

# Not one SPI import in the products an app links (the job count, which
# stands on the SPI, is a testing-only target and compiles to a stub here).
if grep -rn --include='*.swift' -E '@_spi\(|@_silgen_name' Sources \
  | grep -v -E '^Sources/(ActorMVVMJobCount|Benchmarks|ExplorationBenchmark)/'; then
  echo "apple-profile: an @_spi import or @_silgen_name outside the job count (above)" >&2
  exit 1
fi

# This build has no process-wide job count. The suites in test bubbles run
# on the task-executor tier; the suites listed in apple-profile-skips.txt
# need the process-wide count and are skipped. The rest run first, apart
# from the bubble suites: outside a bubble their waits have only real-time
# guards (FeatureTester's 5 s), which the bubble suites' explorations, run
# beside them on 2 cores, once starved past.
skips=$(sed -e 's/#.*//' -e '/^ *$/d' -e 's/^/--skip /' Scripts/apple-profile-skips.txt)
# shellcheck disable=SC2046,SC2086
swift test "${flags[@]}" --skip-build --skip StressTests $skips $(python3 Scripts/bubble-suites.py --skip)
# shellcheck disable=SC2046,SC2086
swift test "${flags[@]}" --skip-build $(python3 Scripts/bubble-suites.py --filter)

# The client package (an app team's targets and tests, the `@MainActor` ones
# in parallel) built and tested against this profile of the library: its
# suites run in test bubbles, the only job count an Apple build has.
client=(
  --package-path Tests/ClientPackage
  --scratch-path "$PWD/Tests/ClientPackage/.build-apple-profile"
  "${flags[@]:2}"
)
swift build "${client[@]}" --build-tests -Xswiftc -warnings-as-errors
swift test "${client[@]}" --skip-build
