import ActorMVVM
import InterviewFeature

/// Declaring (reporting) one message: reached from a room, never by name.
public struct DeclareScreen: AppScreen {
  public static let name = "declare"
  public static let presentation = Presentation.push
  public static let needsMember = true
  public static let parameterName: String? = "messageId"
  public static let opensByName = false
  public let feature: Feature<DeclareMachine>

  /// Opened by route, the screen knows the message's id, which is all
  /// declaring needs; no room is fetched to find its text.
  public init(route: Route, container: AppContainer) async {
    self.init(message: Message(messageId: route.parameter ?? 0, sender: "", text: "", sentAt: ""), container: container)
  }

  /// The screen for a message the room already has.
  public init(message: Message, container: AppContainer) {
    feature = container.feature(
      DeclareMachine(declare: container.interviewAPI), .init(message: message), name: Self.name)
  }

  public static func handle(_ output: DeclareMachine.Output, in app: AppCoordinator) async {
    await InterviewFlow.home(on: app).handle(output)
  }
}

extension Route {
  public static func declare(messageId: Int) -> Route { Route(DeclareScreen.self, parameter: messageId) }
}
