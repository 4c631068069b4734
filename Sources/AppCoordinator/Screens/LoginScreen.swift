import ActorMVVM
import LoginFeature

/// The login popup (seed 001). Its output navigates under ``InterviewFlow``
/// (which opens what waited for login); under another app's flow it leads nowhere.
public struct LoginScreen: AppScreen {
  public static let name = "login"
  public static let presentation = Presentation.modal
  public let feature: Feature<LoginMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(LoginMachine(auth: container.auth), .init(), name: Self.name)
  }

  public static func handle(_ output: LoginMachine.Output, in app: AppCoordinator) async {
    await app.flow(InterviewFlow.self)?.popups(on: app).handle(output)
  }
}

extension Route {
  public static var login: Route { Route(LoginScreen.self) }
}
