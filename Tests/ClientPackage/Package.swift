// swift-tools-version: 6.2
// A client of ActorMVVM, as an app team would write one: it depends on the
// package by path and uses only its public products. Built and tested by
// Scripts/test.sh, so the public API is exercised from outside the package.
import PackageDescription

/// What Xcode 26 sets in a new app target.
let newAppTarget: [SwiftSetting] = [
  .defaultIsolation(MainActor.self),
  .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
  .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
  name: "ClientPackage",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "ActorMVVM", path: "../..")],
  targets: [
    // Modules named as the package's reference app and coordinator name
    // theirs (and as many apps name their own): the package's graph offers
    // an app none of those names, so this graph loads and builds.
    .target(name: "Networking", dependencies: [.product(name: "ActorMVVMNetworking", package: "ActorMVVM")]),
    .target(name: "LoginFeature", dependencies: [.product(name: "ActorMVVM", package: "ActorMVVM")]),
    .target(name: "WeatherFeature", dependencies: [.product(name: "ActorMVVM", package: "ActorMVVM")]),
    .target(
      name: "AppCoordinator",
      dependencies: [
        "LoginFeature", "WeatherFeature", "Networking",
        .product(name: "ActorMVVMCoordinator", package: "ActorMVVM"),
      ]),
    .target(
      name: "SearchScreen",
      dependencies: [
        .product(name: "ActorMVVM", package: "ActorMVVM"),
        .product(name: "ActorMVVMUI", package: "ActorMVVM"),
      ]),
    .target(
      name: "SignUpForm",
      dependencies: [
        .product(name: "ActorMVVM", package: "ActorMVVM"),
        .product(name: "ActorMVVMUI", package: "ActorMVVM"),
      ]),
    // Built as a new Xcode 26 app target is: MainActor by default, with the
    // approachable-concurrency features on.
    .target(
      name: "DefaultMainActorApp",
      dependencies: [
        .product(name: "ActorMVVM", package: "ActorMVVM"),
        .product(name: "ActorMVVMUI", package: "ActorMVVM"),
      ],
      swiftSettings: newAppTarget),
    .testTarget(
      name: "DefaultMainActorAppTests",
      dependencies: [
        "DefaultMainActorApp",
        .product(name: "ActorMVVMUI", package: "ActorMVVM"),
        .product(name: "ActorMVVMTesting", package: "ActorMVVM"),
      ],
      swiftSettings: newAppTarget),
    .testTarget(
      name: "SignUpFormTests",
      dependencies: [
        "SignUpForm",
        .product(name: "ActorMVVMUI", package: "ActorMVVM"),
        .product(name: "ActorMVVMTesting", package: "ActorMVVM"),
      ]),
    .testTarget(
      name: "SearchScreenTests",
      dependencies: [
        "SearchScreen",
        .product(name: "ActorMVVMUI", package: "ActorMVVM"),
        .product(name: "ActorMVVMTesting", package: "ActorMVVM"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
