import ActorMVVM
import ActorMVVMCoordinator
import LoginFeature

/// The login popup (seed 001). ``InterviewFlow`` opens what waited for login
/// once it logs in.
public struct LoginScreen: AppScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "login"
  public static let presentation = Presentation.modal
  public let feature: Feature<LoginMachine>

  public static func appOutput(_ output: LoginMachine.Output) -> InterviewOutput { .login(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(LoginMachine(auth: container.auth), .init(), name: Self.name)
  }

  /// Opened because a session expired (``LoginReason``), the login says so.
  public init(route: Route, with payload: Payload?, dependencies container: InterviewContainer) async {
    var state = LoginMachine.State()
    if let reason = payload?.value as? LoginReason { state.errorMessage = reason.message }
    feature = container.feature(LoginMachine(auth: container.auth), state, name: Self.name)
  }
}

/// Why the flow shows the login, when the user did not ask for it.
public enum LoginReason: Sendable, Equatable {
  /// The server refused the session (a stored one at launch, or one in use).
  case sessionExpired

  /// What the login shows.
  public var message: String {
    switch self {
    case .sessionExpired: "Your session has expired: log in again"
    }
  }
}

extension Route {
  public static var login: Route { Route(LoginScreen.self) }
}
