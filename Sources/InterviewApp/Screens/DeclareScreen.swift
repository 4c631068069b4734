import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// Declaring (reporting) one message: reached from a room, never by name.
public struct DeclareScreen: AppScreen, MemberScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "declare"
  public static let presentation = Presentation.push
  public static let parameterName: String? = "messageId"
  public let feature: Feature<DeclareMachine>

  public static func appOutput(_ output: DeclareMachine.Output) -> InterviewOutput { .declare(output) }

  /// Opened by route, the screen knows the message's id, which is all
  /// declaring needs; no room is fetched to find its text.
  public init(route: Route, dependencies container: InterviewContainer) async {
    self.init(message: Message(messageId: route.parameter ?? 0, sender: "", text: "", sentAt: ""), container: container)
  }

  /// Opened from a room, the screen shows the message the room already has
  /// (the flow's `.show(.declare(messageId:), with: Payload(message))`).
  public init(route: Route, with payload: Payload?, dependencies container: InterviewContainer) async {
    guard let message = payload?.value as? Message else {
      await self.init(route: route, dependencies: container)
      return
    }
    self.init(message: message, container: container)
  }

  init(message: Message, container: InterviewContainer) {
    feature = container.feature(
      DeclareMachine(declare: container.interviewAPI), .init(message: message), name: Self.name)
  }
}

extension Route {
  public static func declare(messageId: Int) -> Route { Route(DeclareScreen.self, parameter: messageId) }
}
