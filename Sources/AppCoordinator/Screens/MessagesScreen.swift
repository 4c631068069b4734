import ActorMVVM
import InterviewFeature

/// The member's message rooms (seed 004's report flow starts here).
public struct MessagesScreen: AppScreen {
  public static let name = "messages"
  public static let presentation = Presentation.push
  public static let needsMember = true
  public let feature: Feature<MessagesMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      MessagesMachine(messages: container.interviewAPI), .init(memberID: await container.session.currentUser()?.id),
      name: Self.name)
  }

  public var firstInput: MessagesMachine.Input? { .appeared }

  public static func handle(_ output: MessagesMachine.Output, in app: AppCoordinator) async {
    await InterviewFlow.home(on: app).handle(output)
  }
}

extension Route {
  public static var messages: Route { Route(MessagesScreen.self) }
}
