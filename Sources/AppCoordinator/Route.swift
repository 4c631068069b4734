/// Every screen of the reference app.
public enum Route: Hashable, Sendable, CustomStringConvertible {
  case intro, home, weather, login, findNumber, directions, messages, myPage
  case report(termNo: Int)
  case declare(messageId: Int)

  /// Shown over the stack rather than pushed onto it (the article's `.present`).
  public var isModal: Bool {
    switch self {
    case .login, .report, .myPage: true
    default: false
    }
  }

  /// Needs a logged-in member; opening it without one goes through login first.
  public var needsMember: Bool {
    switch self {
    case .home, .report, .messages, .myPage, .declare: true
    default: false
    }
  }

  /// The screen's short name, as the REPL spells it.
  public var name: String {
    switch self {
    case .intro: "intro"
    case .home: "home"
    case .weather: "weather"
    case .login: "login"
    case .findNumber: "findnumber"
    case .directions: "directions"
    case .messages: "messages"
    case .myPage: "mypage"
    case .report: "report"
    case .declare: "declare"
    }
  }

  public var description: String {
    switch self {
    case .report(let termNo): "report(\(termNo))"
    case .declare(let messageId): "declare(\(messageId))"
    default: name
    }
  }
}

/// Where the app is: a stack of routes (never empty: the root stays) and at
/// most one modal over it.
public struct NavigationState: Equatable, Sendable {
  public var stack: [Route]
  public var modal: Route?

  public init(stack: [Route] = [], modal: Route? = nil) {
    self.stack = stack
    self.modal = modal
  }

  /// The screen the user sees.
  public var top: Route? { modal ?? stack.last }
}

/// One navigation change, for logs and the REPL (`→ push weather`).
public enum NavigationEvent: Equatable, Sendable, CustomStringConvertible {
  case setRoot(Route)
  case push(Route)
  case present(Route)
  case pop(Route)
  case dismiss(Route)
  case openURL(String)

  public var description: String {
    switch self {
    case .setRoot(let route): "root \(route)"
    case .push(let route): "push \(route)"
    case .present(let route): "present \(route)"
    case .pop(let route): "pop \(route)"
    case .dismiss(let route): "dismiss \(route)"
    case .openURL(let url): "open \(url)"
    }
  }
}
