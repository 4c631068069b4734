import ActorMVVM

/// One kind of screen: what its route looks like, how its feature is built
/// from the ``AppContainer``, what it sends when it appears, and where its
/// outputs lead. Adding a screen is one conforming type and one line in
/// ``AppContainer/screens``; the coordinator has no per-screen switch.
///
/// - **Isolation:** a value; its members are called by the coordinator.
///   `init(route:container:)` runs on the coordinator's actor while it
///   opens the route; `handle(_:in:)` runs on the screen's listener task.
/// - **Ordering:** ``firstInput`` is sent after the coordinator listens to
///   the feature's outputs, so no output it causes is missed; outputs are
///   handled one at a time, in the order the feature emitted them.
/// - **Lifetime:** the coordinator starts listening when the route is
///   pushed or presented and finishes the feature when it is popped or
///   dismissed; an output emitted after that is not handled.
public protocol AppScreen: Sendable {
  associatedtype Machine: StateMachine

  /// The route's name, as logs and the REPL spell it (`findnumber`).
  static var name: String { get }
  /// How the coordinator shows it.
  static var presentation: Presentation { get }
  /// Opening it without a logged-in member goes through login first.
  static var needsMember: Bool { get }
  /// What the number its route carries is called (`termNo`), or nil for a
  /// route that carries none.
  static var parameterName: String? { get }
  /// Whether a user may open it by name (the REPL's `open`); false for a
  /// screen reached only through another (the intro, a declaration).
  static var opensByName: Bool { get }

  /// The screen for `route` (a route of this type), its feature built from
  /// `container` and not yet started.
  init(route: Route, container: AppContainer) async
  /// The feature running the screen.
  var feature: Feature<Machine> { get }
  /// Sent once the coordinator listens to the outputs: the screen's
  /// `viewDidLoad` (load the home, start the game), or nil.
  var firstInput: Machine.Input? { get }
  /// Turns one output into navigation on `app` (usually through one of its
  /// flows, ``HomeNavigating`` or ``PopupNavigating``). Static: where an
  /// output leads depends on the output, not on the screen's state, and the
  /// listener that calls it holds no reference to the feature, so a popped
  /// screen's feature is freed as soon as it is finished.
  static func handle(_ output: Machine.Output, in app: AppCoordinator) async
}

/// How a screen is shown.
public enum Presentation: Sendable {
  /// Replaces the whole stack (the intro, the member's home).
  case root
  /// Pushed onto the stack, after any modal is dismissed.
  case push
  /// Shown over the stack (the article's `.present`); one at a time.
  case modal
}

extension AppScreen {
  public static var needsMember: Bool { false }
  public static var parameterName: String? { nil }
  public static var opensByName: Bool { true }
  public var firstInput: Machine.Input? { nil }
}

/// A live screen of any kind: the ``AppScreen`` value the coordinator
/// holds. Two screens are the same screen when their ``identity`` is equal.
public struct Screen: Sendable {
  /// The screen itself; cast it (or use ``feature(_:)``) to reach its feature.
  public let base: any AppScreen

  public init(_ base: any AppScreen) { self.base = base }

  /// The feature behind the screen, seen through what every feature shares.
  public var feature: any ScreenFeature { base.anyFeature }

  /// The feature, if it runs `machine`: `screen.feature(LoginMachine.self)`.
  public func feature<Machine: StateMachine>(_ machine: Machine.Type) -> Feature<Machine>? {
    base.anyFeature as? Feature<Machine>
  }

  /// Finishes the feature: cancels its effects, ends its streams.
  public func finish() async { await feature.finish() }

  /// Outputs the feature has emitted so far.
  public var emittedOutputCount: Int { feature.emittedOutputCount }

  /// Waits until the feature's inputs are reduced and its effects have ended.
  public func idle() async { await feature.idle() }

  /// The feature's identity: two screens are the same screen when it is equal.
  public var identity: ObjectIdentifier { ObjectIdentifier(feature) }
}

extension AppScreen {
  /// ``feature`` without its machine type, for code that holds `any AppScreen`.
  var anyFeature: any ScreenFeature { feature }
}

/// What the coordinator and a view layer need of any screen's feature,
/// whatever its machine: its lifetime and how busy it is. ``Feature``
/// conforms; each member keeps `Feature`'s own contract.
public protocol ScreenFeature: AnyObject, Sendable {
  /// See ``Feature/finish()``.
  func finish() async
  /// See ``Feature/idle()``.
  func idle() async
  /// See ``Feature/flush()``.
  func flush() async
  /// See ``Feature/emittedOutputCount``.
  var emittedOutputCount: Int { get }
  /// Effect tasks that have not returned (live or winding down), after the
  /// inputs sent so far are reduced.
  var activeEffectCount: Int { get async }
}

extension Feature: ScreenFeature {}
