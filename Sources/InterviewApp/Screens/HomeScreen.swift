import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// The member's home (seed 004): their interviews, and where deep links land.
public struct HomeScreen: AppScreen, MemberScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "home"
  public static let presentation = Presentation.root
  public let feature: Feature<HomeMachine>

  public static func appOutput(_ output: HomeMachine.Output) -> InterviewOutput { .home(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      HomeMachine(home: container.interviewAPI), .init(member: await container.session.currentUser()),
      name: Self.name)
  }

  public var firstInput: HomeMachine.Input? { .appeared }
}

extension Route {
  public static var home: Route { Route(HomeScreen.self) }
}
