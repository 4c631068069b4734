import ActorMVVM
import ActorMVVMUI

/// The counter's view layer, headless: what a view controller or a SwiftUI
/// view holds. MainActor by default, like everything in this target.
final class CounterScreen {
  let model: FeatureModel<Counter>
  private(set) var celebrated: [Int] = []
  /// The count's text field, two-way.
  lazy var countField = model.binding(\.count, send: Counter.Input.countEdited)

  init(feature: Feature<Counter>) {
    model = FeatureModel(feature)
    model.onOutput = { [weak self] output in
      switch output {
      case .reachedGoal(let goal): self?.celebrated.append(goal)
      }
    }
  }

  /// What the screen shows.
  var text: String {
    if model.isLoading { return "Loading..." }
    if let error = model.error { return "Error: \(error)" }
    return "\(model.count)"
  }
}
