import ActorMVVM
import AppCoordinator
import LoginFeature

/// The login popup (seed 001). ``InterviewFlow`` opens what waited for login
/// once it logs in.
public struct LoginScreen: AppScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "login"
  public static let presentation = Presentation.modal
  public let feature: Feature<LoginMachine>

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(LoginMachine(auth: container.auth), .init(), name: Self.name)
  }
}

extension Route {
  public static var login: Route { Route(LoginScreen.self) }
}
