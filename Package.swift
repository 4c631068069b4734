// swift-tools-version: 6.2
// The target graph is the architecture: runtime at the bottom, testing support
// beside it. Feature, networking and app targets stand on these two.
import PackageDescription

let package = Package(
  name: "ActorMVVM",
  // Observation's floor: an app that supports iOS 17 adds the package.
  // Anything newer is used behind `#available` (Scripts/availability-check.py).
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  products: [
    .library(name: "ActorMVVM", targets: ["ActorMVVM"]),
    .library(name: "ActorMVVMOperators", targets: ["ActorMVVMOperators"]),
    .library(name: "ActorMVVMTesting", targets: ["ActorMVVMTesting"]),
    .library(name: "NetworkingTesting", targets: ["NetworkingTesting"]),
    .library(name: "ActorMVVMUI", targets: ["ActorMVVMUI"]),
    .library(name: "Networking", targets: ["Networking"]),
    .library(name: "Storage", targets: ["Storage"]),
    .library(name: "EmbeddedBackend", targets: ["EmbeddedBackend"]),
    .library(name: "WeatherFeature", targets: ["WeatherFeature"]),
    .library(name: "LoginFeature", targets: ["LoginFeature"]),
    .library(name: "FindNumberFeature", targets: ["FindNumberFeature"]),
    .library(name: "DirectionsFeature", targets: ["DirectionsFeature"]),
    .library(name: "InterviewFeature", targets: ["InterviewFeature"]),
    .library(name: "AppCoordinator", targets: ["AppCoordinator"]),
    .library(name: "InterviewApp", targets: ["InterviewApp"]),
    .executable(name: "repl", targets: ["repl"]),
  ],
  targets: [
    // The lock word and the atomics under the runtime (C: `Synchronization` is above the floor).
    .target(name: "ActorMVVMRuntimeShims"),
    // A thread-local marker the job count's self-check reads (C: Swift has no thread-locals).
    .target(name: "ActorMVVMJobCountShims"),
    // The REPL's signal handlers that put the terminal back (C: only async-signal-safe calls).
    .target(name: "ReplTerminalShims"),
    .target(name: "ActorMVVM", dependencies: ["ActorMVVMRuntimeShims"]),
    // The job count (virtual time's "nothing can run"): testing-only, never in an
    // app's products. It stands on the runtime's executor SPI, which only Linux has.
    .target(name: "ActorMVVMJobCount", dependencies: ["ActorMVVM", "ActorMVVMJobCountShims"]),
    // The load-time constructor that installs the job count in every test process.
    .target(name: "ActorMVVMTestingBoot"),
    // Rx-named AsyncSequence operators: a feature runs without them, and an app
    // that uses swift-async-algorithms imports only the set it wants.
    .target(name: "ActorMVVMOperators", dependencies: ["ActorMVVM"]),
    .target(name: "ActorMVVMTesting", dependencies: ["ActorMVVM", "ActorMVVMJobCount", "ActorMVVMTestingBoot"]),
    // The view bridge: a main-actor Observable model over a Feature.
    .target(name: "ActorMVVMUI", dependencies: ["ActorMVVM"]),
    .target(name: "Networking", dependencies: ["ActorMVVM"]),
    // Networking's fakes, so a test of the runtime alone does not pull in networking.
    .target(name: "NetworkingTesting", dependencies: ["ActorMVVM", "Networking"]),
    // Nameless temporary files (O_TMPFILE, linkat): C, where the flag is a macro Swift cannot import.
    .target(name: "StorageShims"),
    .target(name: "Storage", dependencies: ["ActorMVVM", "StorageShims"]),
    .target(name: "EmbeddedBackend", dependencies: ["ActorMVVM", "Networking", "Storage"]),
    // Features: Presentation → Domain ← Data, one slice per target.
    .target(name: "WeatherFeature", dependencies: ["ActorMVVM", "Networking"]),
    .target(name: "LoginFeature", dependencies: ["ActorMVVM", "Networking"]),
    .target(name: "FindNumberFeature", dependencies: ["ActorMVVM", "Networking", "Storage"]),
    .target(name: "DirectionsFeature", dependencies: ["ActorMVVM", "Networking"]),
    .target(name: "InterviewFeature", dependencies: ["ActorMVVM", "Networking", "Storage", "LoginFeature"]),
    // Navigation for any app: a flow machine's commands, obeyed by a coordinator that names no app.
    .target(name: "AppCoordinator", dependencies: ["ActorMVVM"]),
    // The five articles' app: its composition root (the only target that names every
    // feature's Data types), its flow machine and its screens.
    .target(
      name: "InterviewApp",
      dependencies: [
        "ActorMVVM", "AppCoordinator", "Networking", "Storage", "WeatherFeature", "LoginFeature",
        "FindNumberFeature", "DirectionsFeature", "InterviewFeature",
      ]),
    // The headless view layer: a testable core and its executable.
    .target(
      name: "ReplCore",
      dependencies: [
        "ActorMVVM", "AppCoordinator", "InterviewApp", "EmbeddedBackend", "Networking", "Storage", "WeatherFeature",
        "ReplTerminalShims", "ActorMVVMJobCount",
        "LoginFeature", "FindNumberFeature", "DirectionsFeature", "InterviewFeature",
      ]),
    .executableTarget(name: "repl", dependencies: ["ReplCore", "Storage"]),
    .executableTarget(name: "Benchmarks", dependencies: ["ActorMVVM", "ActorMVVMOperators", "ActorMVVMUI"]),
    // Exploring every order, timed: apart from Benchmarks, whose rows the testing module's job count would change.
    .executableTarget(name: "ExplorationBenchmark", dependencies: ["ActorMVVM", "ActorMVVMTesting", "WeatherFeature"]),
    // Tests mirror the products: the runtime, the operators, the testing tools
    // (each beside the helpers they share, in TestSupport).
    .target(
      name: "TestSupport", dependencies: ["ActorMVVM", "ActorMVVMTesting", "ActorMVVMJobCount"],
      path: "Tests/TestSupport"),
    .testTarget(
      name: "ActorMVVMTests",
      dependencies: [
        "ActorMVVM", "ActorMVVMOperators", "ActorMVVMTesting", "ActorMVVMUI", "TestSupport", "ActorMVVMJobCount",
      ]),
    .testTarget(
      name: "ActorMVVMOperatorsTests",
      dependencies: ["ActorMVVMOperators", "ActorMVVM", "ActorMVVMTesting", "TestSupport"]),
    .testTarget(
      name: "ActorMVVMTestingTests",
      dependencies: [
        "ActorMVVMTesting", "ActorMVVM", "ActorMVVMOperators", "ActorMVVMUI", "TestSupport", "ActorMVVMJobCount",
      ]),
    .testTarget(name: "ActorMVVMUITests", dependencies: ["ActorMVVMUI", "ActorMVVM", "ActorMVVMTesting"]),
    .testTarget(name: "NetworkingTests", dependencies: ["Networking"]),
    .testTarget(name: "StorageTests", dependencies: ["Storage", "ActorMVVM"]),
    // Tests/Fixtures holds API payloads in the real formats; these tests read them by path.
    .testTarget(name: "EmbeddedBackendTests", dependencies: ["EmbeddedBackend", "Networking", "ActorMVVMTesting"]),
    .testTarget(
      name: "WeatherFeatureTests",
      dependencies: ["WeatherFeature", "EmbeddedBackend", "ActorMVVMTesting", "NetworkingTesting"]),
    .testTarget(
      name: "LoginFeatureTests",
      dependencies: ["LoginFeature", "EmbeddedBackend", "ActorMVVMTesting", "NetworkingTesting"]),
    .testTarget(
      name: "FindNumberFeatureTests",
      dependencies: ["FindNumberFeature", "EmbeddedBackend", "ActorMVVMTesting", "NetworkingTesting", "Storage"]),
    .testTarget(
      name: "DirectionsFeatureTests",
      dependencies: ["DirectionsFeature", "EmbeddedBackend", "ActorMVVMTesting", "NetworkingTesting"]),
    .testTarget(
      name: "InterviewFeatureTests",
      dependencies: ["InterviewFeature", "LoginFeature", "EmbeddedBackend", "ActorMVVMTesting", "Storage"]),
    // A second app of the tests' own, with no interview type in it.
    .testTarget(
      name: "AppCoordinatorTests",
      dependencies: ["AppCoordinator", "ActorMVVM", "ActorMVVMTesting", "ActorMVVMJobCount"]),
    .testTarget(
      name: "InterviewAppTests",
      dependencies: [
        "InterviewApp", "AppCoordinator", "EmbeddedBackend", "ActorMVVMTesting", "InterviewFeature", "LoginFeature",
        "Networking", "Storage", "WeatherFeature",
      ]),
    .testTarget(
      name: "ReplTests",
      dependencies: [
        "ReplCore", "AppCoordinator", "InterviewApp", "ActorMVVM", "ActorMVVMTesting", "EmbeddedBackend", "Networking",
        "Storage", "ActorMVVMJobCount",
      ],
      exclude: ["Golden"]),
    .testTarget(
      name: "StressTests",
      dependencies: [
        "ActorMVVM", "ActorMVVMOperators", "ActorMVVMTesting", "Networking", "Storage", "EmbeddedBackend",
        "AppCoordinator", "InterviewApp", "ReplCore",
        "LoginFeature", "ActorMVVMJobCount",
      ]),
  ],
  swiftLanguageModes: [.v6]
)
