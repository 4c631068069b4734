import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// The member's page (seed 004): who is logged in, and logging out.
public struct MyPageScreen: AppScreen, MemberScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "mypage"
  public static let presentation = Presentation.modal
  public let feature: Feature<MyPageMachine>

  public static func appOutput(_ output: MyPageMachine.Output) -> InterviewOutput { .myPage(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      MyPageMachine(myPage: container.interviewAPI, session: container.session), .init(), name: Self.name)
  }

  public var firstInput: MyPageMachine.Input? { .appeared }
}

extension Route {
  public static var myPage: Route { Route(MyPageScreen.self) }
}
