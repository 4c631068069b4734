// swift-tools-version: 6.2
// The target graph is the architecture: runtime at the bottom, testing support
// beside it. Feature, networking and app targets stand on these two.
import PackageDescription

let package = Package(
  name: "ActorMVVM",
  // Typed AsyncSequence (`Failure`, `next(isolation:)`) and task executors.
  // Anything newer is used behind `#available`; Scripts/apple-check.sh has the
  // compiler check every module an app links at this floor, for Apple targets.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "ActorMVVM", targets: ["ActorMVVM"]),
    .library(name: "ActorMVVMOperators", targets: ["ActorMVVMOperators"]),
    .library(name: "ActorMVVMTesting", targets: ["ActorMVVMTesting"]),
    .library(name: "ActorMVVMNetworkingTesting", targets: ["ActorMVVMNetworkingTesting"]),
    .library(name: "ActorMVVMUI", targets: ["ActorMVVMUI"]),
    .library(name: "ActorMVVMNetworking", targets: ["ActorMVVMNetworking"]),
    .library(name: "ActorMVVMStorage", targets: ["ActorMVVMStorage"]),
    .library(name: "ActorMVVMCoordinator", targets: ["ActorMVVMCoordinator"]),
    // The reference app (the five articles' features, the embedded backend,
    // the interview app, the REPL) is targets of this package, not products:
    // an app that adds the package sees the libraries above and nothing else,
    // and `swift run repl` still works from a clone (SwiftPM makes an
    // executable target of the root package runnable by name).
  ],
  targets: [
    // The lock word and the atomics under the runtime (C: `Synchronization` is above the floor).
    .target(name: "ActorMVVMRuntimeShims"),
    // The REPL's signal handlers that put the terminal back (C: only async-signal-safe calls).
    .target(name: "ReplTerminalShims"),
    // The runtime-free pieces every module shares: the lock, the state diff, reflection.
    .target(name: "ActorMVVMSupport", dependencies: ["ActorMVVMRuntimeShims"]),
    .target(name: "ActorMVVM", dependencies: ["ActorMVVMSupport", "ActorMVVMRuntimeShims"]),
    // The test bubble's job count (virtual time's "nothing can run"), on public API:
    // linked by the testing module and the REPL, never by an app's products.
    .target(name: "ActorMVVMJobCount", dependencies: ["ActorMVVMSupport", "ActorMVVM"]),
    // Rx-named AsyncSequence operators: a feature runs without them, and an app
    // that uses swift-async-algorithms imports only the set it wants.
    .target(name: "ActorMVVMOperators", dependencies: ["ActorMVVMSupport", "ActorMVVM"]),
    .target(
      name: "ActorMVVMTesting",
      dependencies: ["ActorMVVMSupport", "ActorMVVM", "ActorMVVMJobCount"]),
    // The view bridge: a main-actor Observable model over a Feature.
    .target(name: "ActorMVVMUI", dependencies: ["ActorMVVM"]),
    .target(name: "ActorMVVMNetworking", dependencies: ["ActorMVVMSupport", "ActorMVVM"]),
    // Networking's fakes, so a test of the runtime alone does not pull in networking.
    .target(
      name: "ActorMVVMNetworkingTesting", dependencies: ["ActorMVVMSupport", "ActorMVVM", "ActorMVVMNetworking"]),
    // Nameless temporary files (O_TMPFILE, linkat): C, where the flag is a macro Swift cannot import.
    .target(name: "ActorMVVMStorageShims"),
    .target(name: "ActorMVVMStorage", dependencies: ["ActorMVVM", "ActorMVVMStorageShims"]),
    .target(name: "EmbeddedBackend", dependencies: ["ActorMVVM", "ActorMVVMNetworking", "ActorMVVMStorage"]),
    // Features: Presentation → Domain ← Data, one slice per target.
    .target(name: "WeatherFeature", dependencies: ["ActorMVVM", "ActorMVVMNetworking"]),
    .target(name: "LoginFeature", dependencies: ["ActorMVVM", "ActorMVVMNetworking"]),
    .target(name: "FindNumberFeature", dependencies: ["ActorMVVM", "ActorMVVMNetworking", "ActorMVVMStorage"]),
    .target(name: "DirectionsFeature", dependencies: ["ActorMVVM", "ActorMVVMNetworking"]),
    .target(
      name: "InterviewFeature", dependencies: ["ActorMVVM", "ActorMVVMNetworking", "ActorMVVMStorage", "LoginFeature"]),
    // Navigation for any app: a flow machine's commands, obeyed by a coordinator that names no app.
    .target(name: "ActorMVVMCoordinator", dependencies: ["ActorMVVMSupport", "ActorMVVM"]),
    // The five articles' app: its composition root (the only target that builds the
    // features' Data types; ReplCore names a few, for its store's shape and the Naver
    // credentials), its flow machine and its screens.
    .target(
      name: "InterviewApp",
      dependencies: [
        "ActorMVVM", "ActorMVVMCoordinator", "ActorMVVMNetworking", "ActorMVVMStorage", "WeatherFeature",
        "LoginFeature",
        "FindNumberFeature", "DirectionsFeature", "InterviewFeature",
      ]),
    // The headless view layer: a testable core and its executable.
    .target(
      name: "ReplCore",
      dependencies: [
        "ActorMVVMSupport",
        "ActorMVVM", "ActorMVVMCoordinator", "InterviewApp", "EmbeddedBackend", "ActorMVVMNetworking",
        "ActorMVVMStorage",
        "WeatherFeature",
        "ReplTerminalShims", "ActorMVVMJobCount",
        "LoginFeature", "FindNumberFeature", "DirectionsFeature", "InterviewFeature",
      ]),
    .executableTarget(name: "repl", dependencies: ["ReplCore", "ActorMVVMStorage"]),
    .executableTarget(
      name: "Benchmarks",
      dependencies: ["ActorMVVMSupport", "ActorMVVM", "ActorMVVMOperators", "ActorMVVMUI", "BenchmarkShims"]),
    // The heap's bytes in use (glibc's mallinfo2, which Swift's Glibc module does not import).
    .target(name: "BenchmarkShims"),
    // Exploring every order, timed: apart from Benchmarks, whose rows the testing module's job count would change.
    .executableTarget(
      name: "ExplorationBenchmark", dependencies: ["ActorMVVM", "ActorMVVMTesting", "AppExplorations"]),
    // Tests mirror the products: the runtime, the operators, the testing tools
    // (each beside the helpers they share, in TestSupport).
    .target(
      name: "ActorMVVMTestSupport",
      dependencies: ["ActorMVVMSupport", "ActorMVVM", "ActorMVVMTesting", "ActorMVVMJobCount"],
      path: "Tests/ActorMVVMTestSupport"),
    // The five apps' explorations (stubs, rules, the shipped machines explored), shared by
    // their tests and ExplorationBenchmark: no Testing in it.
    .target(
      name: "AppExplorations",
      dependencies: [
        "ActorMVVMSupport", "ActorMVVM", "ActorMVVMTesting", "WeatherFeature", "LoginFeature", "FindNumberFeature",
        "DirectionsFeature", "ActorMVVMCoordinator", "InterviewApp", "InterviewFeature",
      ],
      path: "Tests/AppExplorations"),
    .testTarget(
      name: "ActorMVVMTests",
      dependencies: [
        "ActorMVVMSupport",
        "ActorMVVM", "ActorMVVMOperators", "ActorMVVMTesting", "ActorMVVMUI", "ActorMVVMTestSupport",
        "ActorMVVMJobCount",
      ]),
    .testTarget(
      name: "ActorMVVMOperatorsTests",
      dependencies: ["ActorMVVMSupport", "ActorMVVMOperators", "ActorMVVM", "ActorMVVMTesting", "ActorMVVMTestSupport"]),
    .testTarget(
      name: "ActorMVVMTestingTests",
      dependencies: [
        "ActorMVVMSupport",
        "ActorMVVMTesting", "ActorMVVM", "ActorMVVMOperators", "ActorMVVMUI", "ActorMVVMTestSupport",
        "ActorMVVMJobCount",
      ]),
    .testTarget(
      name: "ActorMVVMUITests", dependencies: ["ActorMVVMSupport", "ActorMVVMUI", "ActorMVVM", "ActorMVVMTesting"]),
    .testTarget(
      name: "ActorMVVMNetworkingTests",
      dependencies: ["ActorMVVMSupport", "ActorMVVMNetworking", "ActorMVVM", "ActorMVVMTesting"]),
    .testTarget(name: "ActorMVVMStorageTests", dependencies: ["ActorMVVMSupport", "ActorMVVMStorage", "ActorMVVM"]),
    // Tests/Fixtures holds API payloads in the real formats; these tests read them by path.
    .testTarget(
      name: "EmbeddedBackendTests", dependencies: ["EmbeddedBackend", "ActorMVVMNetworking", "ActorMVVMTesting"]),
    .testTarget(
      name: "WeatherFeatureTests",
      dependencies: [
        "ActorMVVMTestSupport", "WeatherFeature", "EmbeddedBackend", "ActorMVVMTesting", "ActorMVVMNetworkingTesting",
        "AppExplorations",
      ]),
    .testTarget(
      name: "LoginFeatureTests",
      dependencies: [
        "ActorMVVMTestSupport", "LoginFeature", "EmbeddedBackend", "ActorMVVMTesting", "ActorMVVMNetworkingTesting",
        "AppExplorations",
      ]),
    .testTarget(
      name: "FindNumberFeatureTests",
      dependencies: [
        "ActorMVVMSupport",
        "FindNumberFeature", "EmbeddedBackend", "ActorMVVMTesting", "ActorMVVMNetworkingTesting", "ActorMVVMStorage",
        "ActorMVVMTestSupport", "AppExplorations",
      ]),
    .testTarget(
      name: "DirectionsFeatureTests",
      dependencies: [
        "ActorMVVMTestSupport", "DirectionsFeature", "EmbeddedBackend", "ActorMVVMTesting",
        "ActorMVVMNetworkingTesting", "AppExplorations",
      ]),
    .testTarget(
      name: "InterviewFeatureTests",
      dependencies: ["InterviewFeature", "LoginFeature", "EmbeddedBackend", "ActorMVVMTesting", "ActorMVVMStorage"]),
    // A second app of the tests' own, with no interview type in it.
    .testTarget(
      name: "ActorMVVMCoordinatorTests",
      dependencies: ["ActorMVVMSupport", "ActorMVVMCoordinator", "ActorMVVM", "ActorMVVMTesting", "ActorMVVMJobCount"]),
    .testTarget(
      name: "InterviewAppTests",
      dependencies: [
        "ActorMVVMSupport",
        "InterviewApp", "ActorMVVMCoordinator", "EmbeddedBackend", "ActorMVVMTesting", "InterviewFeature",
        "LoginFeature",
        "ActorMVVMNetworking", "ActorMVVMStorage", "WeatherFeature", "ActorMVVMTestSupport",
        "AppExplorations",
      ]),
    .testTarget(
      name: "ReplTests",
      dependencies: [
        "ActorMVVMSupport",
        "ReplCore", "ActorMVVMCoordinator", "InterviewApp", "ActorMVVM", "ActorMVVMTesting", "EmbeddedBackend",
        "ActorMVVMNetworking",
        "ActorMVVMStorage", "ActorMVVMJobCount",
      ],
      exclude: ["Golden"]),
    .testTarget(
      name: "StressTests",
      dependencies: [
        "ActorMVVMSupport",
        "ActorMVVM", "ActorMVVMOperators", "ActorMVVMTesting", "ActorMVVMNetworking", "ActorMVVMStorage",
        "EmbeddedBackend",
        "ActorMVVMCoordinator", "InterviewApp", "ReplCore",
        "LoginFeature", "ActorMVVMJobCount",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
