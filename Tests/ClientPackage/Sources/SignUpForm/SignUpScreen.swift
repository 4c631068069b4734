import ActorMVVM
import ActorMVVMUI

/// The sign-up screen's view layer, headless: two text fields bound to the
/// child form's inputs, a button, and where success leads.
@MainActor
public final class SignUpScreen {
  public let model: FeatureModel<SignUp>
  public lazy var email = model.binding(\.credentials.email) { .credentials(.emailChanged($0)) }
  public lazy var password = model.binding(\.credentials.password) { .credentials(.passwordChanged($0)) }
  let navigator = Navigator()

  public init(feature: Feature<SignUp>) {
    model = FeatureModel(feature) { [navigator] output in
      switch output {
      case .signedUp(let userID): navigator.home = userID  // show the new member's home
      }
    }
  }

  /// Whether the submit button is enabled.
  public var submitEnabled: Bool { model.canSubmit }
  /// The member whose home was opened, once signed up.
  public var openedHome: String? { navigator.home }

  /// The submit button's action.
  public func submit() { model.send(.submitTapped) }
}

/// Where the screen's outputs go: a stand-in for a coordinator.
@MainActor
final class Navigator {
  var home: String?
}
