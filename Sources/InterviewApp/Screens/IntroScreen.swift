import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// The interview app's intro (seed 004): checks the service and a stored
/// session, then leads to the home or to login (``InterviewFlow`` keeps the
/// link that came while it checked).
public struct IntroScreen: AppScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "intro"
  public static let presentation = Presentation.root
  public let feature: Feature<IntroMachine>

  public static func appOutput(_ output: IntroMachine.Output) -> InterviewOutput { .intro(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      IntroMachine(serviceCheck: container.interviewAPI, session: container.session), .init(), name: Self.name)
  }

  public var firstInput: IntroMachine.Input? { .appeared }
}

extension Route {
  public static var intro: Route { Route(IntroScreen.self) }
}
