import ActorMVVM
import InterviewFeature

/// The interview app's intro (seed 004): checks the service and a stored
/// session, then leads to the home or to login. Its outputs navigate under
/// ``InterviewFlow`` (which keeps the link that came while it checked); under
/// another app's flow they lead nowhere.
public struct IntroScreen: AppScreen {
  public static let name = "intro"
  public static let presentation = Presentation.root
  public static let opensByName = false
  public let feature: Feature<IntroMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      IntroMachine(serviceCheck: container.interviewAPI, session: container.session), .init(), name: Self.name)
  }

  public var firstInput: IntroMachine.Input? { .appeared }

  public static func handle(_ output: IntroMachine.Output, in app: AppCoordinator) async {
    await app.flow(InterviewFlow.self)?.popups(on: app).handle(output)
  }
}

extension Route {
  public static var intro: Route { Route(IntroScreen.self) }
}
