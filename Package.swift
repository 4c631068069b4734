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
    .library(name: "Networking", targets: ["Networking"]),
    .library(name: "Storage", targets: ["Storage"]),
    .library(name: "EmbeddedBackend", targets: ["EmbeddedBackend"]),
  ],
  targets: [
    // Tests/Fixtures holds API payloads in the real formats; tests read them by path.
    .target(name: "ActorMVVM"),
    .target(name: "ActorMVVMTesting", dependencies: ["ActorMVVM"]),
    .target(name: "Networking", dependencies: ["ActorMVVM"]),
    .target(name: "Storage", dependencies: ["ActorMVVM"]),
    .target(name: "EmbeddedBackend", dependencies: ["ActorMVVM", "Networking"]),
    .testTarget(name: "ActorMVVMTests", dependencies: ["ActorMVVM", "ActorMVVMTesting"]),
    .testTarget(name: "NetworkingTests", dependencies: ["Networking"]),
    .testTarget(name: "StorageTests", dependencies: ["Storage"]),
    .testTarget(name: "EmbeddedBackendTests", dependencies: ["EmbeddedBackend", "Networking", "ActorMVVMTesting"]),
    .testTarget(
      name: "StressTests",
      dependencies: ["ActorMVVM", "ActorMVVMTesting", "Networking", "Storage", "EmbeddedBackend"]),
  ],
  swiftLanguageModes: [.v6]
)
