import ActorMVVM
import InterviewFeature

/// The member's home (seed 004): their interviews, and where deep links land.
public struct HomeScreen: AppScreen {
  public static let name = "home"
  public static let presentation = Presentation.root
  public static let needsMember = true
  public let feature: Feature<HomeMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      HomeMachine(home: container.interviewAPI), .init(member: await container.session.currentUser()),
      name: Self.name)
  }

  public var firstInput: HomeMachine.Input? { .appeared }

  public static func handle(_ output: HomeMachine.Output, in app: AppCoordinator) async {
    await InterviewFlow.home(on: app).handle(output)
  }
}

extension Route {
  public static var home: Route { Route(HomeScreen.self) }
}
