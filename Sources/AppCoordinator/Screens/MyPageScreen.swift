import ActorMVVM
import InterviewFeature

/// The member's page (seed 004): who is logged in, and logging out.
public struct MyPageScreen: AppScreen {
  public static let name = "mypage"
  public static let presentation = Presentation.modal
  public static let needsMember = true
  public let feature: Feature<MyPageMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      MyPageMachine(myPage: container.interviewAPI, session: container.session), .init(), name: Self.name)
  }

  public var firstInput: MyPageMachine.Input? { .appeared }

  public static func handle(_ output: MyPageMachine.Output, in app: AppCoordinator) async {
    await InterviewFlow.home(on: app).handle(output)
  }
}

extension Route {
  public static var myPage: Route { Route(MyPageScreen.self) }
}
