import ActorMVVM
import ActorMVVMUI

/// The search screen's view layer, headless: what a view controller or a
/// SwiftUI view would hold. No render loop, no polling: the model follows
/// the feature, and the text field is a binding.
@MainActor
public final class SearchScreen {
  public let model: FeatureModel<Search>
  public lazy var queryField = model.binding(\.query, send: Search.Input.queryChanged)
  let navigator = Navigator()

  public init(feature: Feature<Search>) {
    model = FeatureModel(feature) { [navigator] output in
      switch output {
      case .open(let item): navigator.opened.append(item)  // push the detail screen
      }
    }
  }

  /// What the screen has opened, in order.
  public var opened: [String] { navigator.opened }

  /// What the screen shows.
  public var text: String {
    if model.isLoading { return "Loading..." }
    if let error = model.error { return "Error: \(error)" }
    return model.results.joined(separator: ", ")
  }
}

/// Where the screen's outputs go: a stand-in for a coordinator.
@MainActor
final class Navigator {
  var opened: [String] = []
}
