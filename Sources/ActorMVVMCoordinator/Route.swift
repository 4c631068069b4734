/// Where the coordinator can go: a kind of screen, and the number it
/// carries if it takes one (a report's `termNo`). An app's routes are the
/// static members its screen types declare (`.weather`, `.report(termNo:)`);
/// the app's ``CoordinatedApp/screens`` lists every kind.
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

  /// The screen's short name, as logs and the REPL spell it.
  public var name: String { screen.name }

  public var description: String { parameter.map { "\(name)(\($0))" } ?? name }

  public static func == (a: Route, b: Route) -> Bool { a.screen == b.screen && a.parameter == b.parameter }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(screen))
    hasher.combine(parameter)
  }
}

/// Where the app is: a stack of routes (never empty once started: the root
/// stays) and at most one modal over it.
public struct NavigationState: Hashable, Sendable {
  /// The pushed routes, the root first.
  public var stack: [Route]
  /// The route shown over the stack, if any.
  public var modal: Route?

  /// Where the app is: `stack`, and `modal` over it.
  public init(stack: [Route] = [], modal: Route? = nil) {
    self.stack = stack
    self.modal = modal
  }

  /// The screen the user sees.
  public var top: Route? { modal ?? stack.last }

  /// The root of the stack.
  public var root: Route? { stack.first }

  /// Applies one command's change to the routes, exactly as the
  /// coordinator commits it (``NavigationCommand``'s cases say how), and
  /// returns the events it causes; commands that change no route
  /// (``NavigationCommand/send(_:to:)``, ``NavigationCommand/perform(_:)``)
  /// return none. How a test of a flow machine follows where its commands
  /// lead without a coordinator.
  @discardableResult
  public mutating func apply<Chore>(_ command: NavigationCommand<Chore>) -> [NavigationEvent] {
    var events: [NavigationEvent] = []
    func dismissModal() {
      if let modal { events.append(.dismiss(modal)) }
      modal = nil
    }
    switch command {
    case .show(let route, _):
      switch route.screen.presentation {
      case .root:
        dismissModal()
        stack = [route]
        events.append(.setRoot(route))
      case .push:
        dismissModal()
        stack.append(route)
        events.append(.push(route))
      case .modal:
        dismissModal()
        modal = route
        events.append(.present(route))
      }
    case .pop:
      if stack.count > 1, let route = stack.popLast() { events.append(.pop(route)) }
    case .dismissModal:
      dismissModal()
    case .dismissToMain:
      dismissModal()
      while stack.count > 1, let route = stack.popLast() { events.append(.pop(route)) }
    case .openURL(let url):
      events.append(.openURL(url))
    case .send, .perform:
      break
    }
    return events
  }

  /// The state after `commands`, applied in order (``apply(_:)``).
  public func applying<Chore>(_ commands: [NavigationCommand<Chore>]) -> NavigationState {
    var state = self
    for command in commands { state.apply(command) }
    return state
  }
}

/// One navigation change, for logs and the REPL (`→ push weather`).
public enum NavigationEvent: Hashable, Sendable, CustomStringConvertible {
  /// The stack was replaced by this root.
  case setRoot(Route)
  /// Pushed onto the stack.
  case push(Route)
  /// Shown over the stack.
  case present(Route)
  /// Popped off the stack.
  case pop(Route)
  /// The modal was dismissed.
  case dismiss(Route)
  /// A URL to open outside the app (the view layer opens it).
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

/// What a flow machine (``AppFlow``) tells the coordinator to do: data,
/// so a test compares a step's commands with `==`. The coordinator applies
/// one step's commands as one unit, in order (``AppCoordinator``).
///
/// `Chore` is the app's own work a step does beside navigation (the
/// interview app stores a session, or logs out): the app performs it
/// (``CoordinatedApp/perform(_:)``) in its place among the commands.
public enum NavigationCommand<Chore: Sendable & Equatable>: Sendable, Equatable {
  /// Shows `route` as its screen type says (``AppScreen/presentation``): a
  /// root replaces the stack, a push goes on the stack, a modal replaces
  /// any modal; a root or push first dismisses the modal. `with` is handed
  /// to the screen as it is built (``AppScreen/init(route:with:dependencies:)``):
  /// data the flow already has (the message a declaration is about).
  case show(Route, with: Payload? = nil)
  /// Pops the top of the stack (under any modal), unless it is the root.
  case pop
  /// Dismisses the modal, if there is one.
  case dismissModal
  /// Dismisses the modal and pops to the root.
  case dismissToMain
  /// Asks for `url` to open outside the app (a browser); nothing changes.
  case openURL(String)
  /// Sends an input to the topmost live screen opened by `to`, once the
  /// commands before it have been committed: the value must be that
  /// screen's machine's `Input`. Dropped if no such screen is live.
  case send(Payload, to: Route)
  /// The app's own work (``CoordinatedApp/perform(_:)``), awaited before
  /// any later command is built or committed.
  case perform(Chore)
}

/// A value a command carries to a screen (an input to send, data to build
/// it from), equal to another when both hold equal values of one type.
public struct Payload: Sendable, Equatable, CustomStringConvertible {
  /// The value itself.
  public let value: any Sendable
  private let equals: @Sendable (any Sendable) -> Bool

  /// Carries `value`.
  public init<Value: Sendable & Equatable>(_ value: Value) {
    self.value = value
    equals = { other in (other as? Value) == value }
  }

  public static func == (a: Payload, b: Payload) -> Bool { a.equals(b.value) }

  public var description: String { String(describing: value) }
}
