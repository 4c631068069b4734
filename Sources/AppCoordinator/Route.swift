/// Where the coordinator can go: a kind of screen, and the number it
/// carries if it takes one (a report's `termNo`). The app's routes are the
/// static members each screen type declares (`.weather`,
/// `.report(termNo:)`); ``AppContainer/screens`` lists every kind.
public struct Route: Hashable, Sendable, CustomStringConvertible {
  /// The kind of screen it opens.
  public let screen: any AppScreen.Type
  /// The number it carries, for a screen with a ``AppScreen/parameterName``.
  public let parameter: Int?

  /// - Precondition: `parameter` is given exactly when `screen` has a
  ///   ``AppScreen/parameterName``.
  public init(_ screen: any AppScreen.Type, parameter: Int? = nil) {
    precondition(
      (parameter != nil) == (screen.parameterName != nil),
      "\(screen.name)'s route needs \(screen.parameterName ?? "no number")")
    self.screen = screen
    self.parameter = parameter
  }

  /// Whether it opens a screen of type `screen`.
  public func opens(_ screen: (some AppScreen).Type) -> Bool { self.screen == screen }

  /// Shown over the stack rather than pushed onto it (the article's `.present`).
  public var isModal: Bool { screen.presentation == .modal }

  /// Needs a logged-in member; opening it without one goes through login first.
  public var needsMember: Bool { screen.needsMember }

  /// The screen's short name, as the REPL spells it.
  public var name: String { screen.name }

  public var description: String { parameter.map { "\(name)(\($0))" } ?? name }

  public static func == (a: Route, b: Route) -> Bool { a.screen == b.screen && a.parameter == b.parameter }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(screen))
    hasher.combine(parameter)
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
