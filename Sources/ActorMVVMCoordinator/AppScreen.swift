import ActorMVVM

/// One kind of screen: what its route looks like, how its feature is built
/// from its app's dependencies, and what it sends when it appears. Where
/// its outputs lead is its app's flow's business (``AppFlow``), not the
/// screen's.
///
/// - **Isolation:** a value. `init(route:with:dependencies:)` is
///   nonisolated and async: it runs off the coordinator's actor, awaited by
///   the step that builds it, before the step commits.
/// - **Ordering:** ``firstInput`` is sent when the step commits, after the
///   coordinator listens to the feature's outputs, so no output it causes
///   is missed; outputs reach the flow one at a time, in the order the
///   feature emitted them.
/// - **Lifetime:** the coordinator starts the screen when its step commits
///   and finishes the feature when it is popped, dismissed or replaced, or
///   built by a step that the coordinator's `finish()` made stale; an output
///   emitted after that reaches no one.
public protocol AppScreen<Dependencies, AppOutput>: Sendable {
  /// The state machine its feature runs.
  associatedtype Machine: StateMachine
  /// What it is built from: its app's ``CoordinatedApp/dependencies``.
  associatedtype Dependencies: Sendable
  /// Its app's outputs (``AppFlow/Output``), one case of which carries this
  /// screen's.
  associatedtype AppOutput: Sendable

  /// The route's name, as logs and the REPL spell it (`findnumber`).
  static var name: String { get }
  /// How the coordinator shows it.
  static var presentation: Presentation { get }
  /// What the number its route carries is called (`termNo`), or nil for a
  /// route that carries none.
  static var parameterName: String? { get }

  /// The screen for `route` (a route of this type), its feature built from
  /// `dependencies` and not yet started.
  init(route: Route, dependencies: Dependencies) async
  /// The screen for `route` with data its flow already has
  /// (``NavigationCommand/show(_:with:)``). The default ignores `payload`.
  init(route: Route, with payload: Payload?, dependencies: Dependencies) async
  /// The feature running the screen.
  var feature: Feature<Machine> { get }
  /// Sent once the coordinator listens to the outputs: the screen's
  /// `viewDidLoad` (load the home, start the game), or nil.
  var firstInput: Machine.Input? { get }
  /// `output` as its app's flow receives it: the app's case for this kind
  /// of screen (`.cart(output)`).
  static func appOutput(_ output: Machine.Output) -> AppOutput
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

extension AppScreen where Machine.Output == Never {
  /// A screen that emits nothing needs no case in its app's outputs.
  public static func appOutput(_ output: Never) -> AppOutput {}
}

extension AppScreen {
  public static var parameterName: String? { nil }
  public var firstInput: Machine.Input? { nil }
  public init(route: Route, with payload: Payload?, dependencies: Dependencies) async {
    await self.init(route: route, dependencies: dependencies)
  }
}

/// A live screen of any kind: the ``AppScreen`` value the coordinator
/// holds. Two screens are the same screen when their ``identity`` is equal.
public struct Screen: Sendable {
  /// The screen itself; cast it (or use ``feature(_:)``) to reach its feature.
  public let base: any AppScreen

  /// Holds `base`.
  public init(_ base: any AppScreen) { self.base = base }

  /// The feature behind the screen, seen through what every feature shares.
  public var feature: any ScreenFeature { base.anyFeature }

  /// The feature, if it runs `machine`: `screen.feature(CartMachine.self)`.
  public func feature<Machine: StateMachine>(_ machine: Machine.Type) -> Feature<Machine>? {
    base.anyFeature as? Feature<Machine>
  }

  /// Finishes the feature: cancels its effects, ends its streams.
  public func finish() async { await feature.finish() }

  /// Outputs the feature has emitted so far.
  public var emittedOutputCount: Int { feature.emittedOutputCount }

  /// Waits until the feature's inputs are reduced and its effects have ended.
  public func idle() async { await feature.idle() }

  /// ``idle()``, bounded as `Feature.idle(timeout:)`: throws
  /// `FeatureBusy` naming the effects still running.
  public func idle(timeout: Duration) async throws(FeatureBusy) { try await feature.idle(timeout: timeout) }

  /// The feature's identity: two screens are the same screen when it is equal.
  public var identity: ObjectIdentifier { ObjectIdentifier(feature) }

  /// Sends `payload`'s value if it is an input of this screen's machine;
  /// returns whether it was.
  func send(_ payload: Payload) -> Bool { base.send(payload.value) }
}

extension AppScreen {
  /// ``feature`` without its machine type, for code that holds `any AppScreen`.
  var anyFeature: any ScreenFeature { feature }

  func send(_ value: any Sendable) -> Bool {
    guard let input = value as? Machine.Input else { return false }
    feature.send(input)
    return true
  }
}

/// What the coordinator and a view layer need of any screen's feature,
/// whatever its machine: its lifetime and how busy it is. `Feature`
/// conforms; each member keeps `Feature`'s own contract.
public protocol ScreenFeature: AnyObject, Sendable {
  /// See `Feature.finish()`.
  func finish() async
  /// See `Feature.idle()`.
  func idle() async
  /// See `Feature.idle(timeout:)`.
  func idle(timeout: Duration) async throws(FeatureBusy)
  /// See `Feature.flush()`.
  func flush() async
  /// See `Feature.emittedOutputCount`.
  var emittedOutputCount: Int { get }
  /// Effect tasks that have not returned (live or winding down), after the
  /// inputs sent so far are reduced.
  var activeEffectCount: Int { get async }
}

extension Feature: ScreenFeature {}
