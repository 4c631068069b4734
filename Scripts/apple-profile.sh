#!/usr/bin/env bash
# The Apple-SDK profile, on Linux: builds every library product, the testing
# product and the test targets as an Apple build below OS 26 would see them,
# then runs the suites whose code differs on those paths.
#
# - Public interfaces only. Xcode's SDK ships each standard-library module's
#   public `.swiftinterface`; the Linux toolchain also ships the private one
#   (SPI) and a binary module built with it. A directory holding only the
#   public interface of every module that has a private one goes first on
#   the import path, so `@_spi` imports and SPI declarations fail here as
#   they do in Xcode.
# - Apple's code paths: `ACTORMVVM_APPLE_BELOW_26` selects what an Apple
#   build below OS 26 runs (no `Task.immediate`/`Task.immediateDetached`,
#   the pthread branch of `Locked`, the effect start lane).
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

# The suites whose code differs on Apple's paths (the lock, the effect start
# lane, effect order, what a bubble sees of a Dispatch callback's send, how an
# exploration tells tasks apart), and the test bubble's own: the full pass
# already ran on Linux's paths.
swift test "${flags[@]}" --skip-build \
  --filter 'ApplePathTests|LaneStartTests|EffectOrderTests|OutsideWork|TestBubbleTests|BubblePathTests|StallTests|RunProgressTests'
