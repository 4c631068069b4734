import ActorMVVM
import ActorMVVMUI
import Testing

// The README's "Binding a feature to a view" snippet, compiled and run so it
// stays true (`Finder` is in FeatureModelTests.swift).

/// What a screen's view layer does with a `FeatureModel`.
@MainActor
final class FinderScreen {
  // README snippet begins
  var opened: [String] = []
  let model: FeatureModel<Finder>

  init(feature: Feature<Finder>) {
    model = FeatureModel(feature)
    model.onOutput = { [unowned self] output in  // set before the model starts: no output is missed
      switch output {
      case .open(let item): opened.append(item)  // navigate: one call per output
      }
    }
  }

  func render() -> String {  // in SwiftUI, `body`: re-run when a field it read changes
    model.isLoading ? "Loading..." : model.results.joined(separator: ", ")
  }

  lazy var queryField = model.binding(\.query, send: Finder.Input.queryChanged)  // a text field's get/set
  // README snippet ends
}

@MainActor
@Test("README: a feature bound to a view through FeatureModel")
func readmeBindingExample() async throws {
  let feature = Feature(Finder(), initialState: .init())
  let screen = FinderScreen(feature: feature)
  screen.queryField.wrappedValue = "swift"
  screen.model.send(.searchTapped)
  try await screen.model.settled()
  #expect(screen.render() == "swift1, swift2")
  screen.model.send(.openTapped("swift1"))
  try await screen.model.settled()
  #expect(screen.opened == ["swift1"])
  await feature.finish()
}
