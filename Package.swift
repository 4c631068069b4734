// swift-tools-version: 6.0
// The target graph is the architecture: runtime at the bottom, testing support
// beside it. Feature, networking and app targets stand on these two.
import PackageDescription

let package = Package(
  name: "ActorMVVM",
  platforms: [.macOS("15.4"), .iOS("18.4")],
  products: [
    .library(name: "ActorMVVM", targets: ["ActorMVVM"]),
    .library(name: "ActorMVVMTesting", targets: ["ActorMVVMTesting"]),
  ],
  targets: [
    .target(name: "ActorMVVM"),
    .target(name: "ActorMVVMTesting", dependencies: ["ActorMVVM"]),
    .testTarget(name: "ActorMVVMTests", dependencies: ["ActorMVVM", "ActorMVVMTesting"]),
    .testTarget(name: "StressTests", dependencies: ["ActorMVVM", "ActorMVVMTesting"]),
  ],
  swiftLanguageModes: [.v6]
)
