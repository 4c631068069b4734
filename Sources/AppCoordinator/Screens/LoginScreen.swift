import ActorMVVM
import LoginFeature

/// The login popup (seed 001).
public struct LoginScreen: AppScreen {
  public static let name = "login"
  public static let presentation = Presentation.modal
  public let feature: Feature<LoginMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(LoginMachine(auth: container.auth), .init(), name: Self.name)
  }

  public static func handle(_ output: LoginMachine.Output, in app: AppCoordinator) async {
    await app.popupFlow.handle(output)
  }
}

extension Route {
  public static var login: Route { Route(LoginScreen.self) }
}
