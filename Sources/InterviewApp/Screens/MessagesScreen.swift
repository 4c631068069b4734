import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// The member's message rooms (seed 004's report flow starts here).
public struct MessagesScreen: AppScreen, MemberScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "messages"
  public static let presentation = Presentation.push
  public let feature: Feature<MessagesMachine>

  public static func appOutput(_ output: MessagesMachine.Output) -> InterviewOutput { .messages(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      MessagesMachine(messages: container.interviewAPI), .init(memberID: await container.session.currentUser()?.id),
      name: Self.name)
  }

  public var firstInput: MessagesMachine.Input? { .appeared }
}

extension Route {
  public static var messages: Route { Route(MessagesScreen.self) }
}
