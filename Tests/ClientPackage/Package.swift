// swift-tools-version: 6.0
// A client of ActorMVVM, as an app team would write one: it depends on the
// package by path and uses only its public products. Built and tested by
// Scripts/test.sh, so the public API is exercised from outside the package.
import PackageDescription

let package = Package(
  name: "ClientPackage",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "ActorMVVM", path: "../..")],
  targets: [
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
