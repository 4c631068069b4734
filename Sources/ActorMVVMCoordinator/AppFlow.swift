import ActorMVVM

/// An app's navigation rules as a pure state machine: given what happened
/// (``FlowEvent``: the app started, a route was asked for, a screen emitted
/// an output, a deep link came) and where the app is (``NavigationState``),
/// it updates what the app keeps (a route waiting for login, the member)
/// and returns the commands to apply (``NavigationCommand``). It does no
/// I/O and awaits nothing, so its rules are tested synchronously, one event
/// at a time; the ``AppCoordinator`` obeys it.
///
/// - **Isolation:** a `Sendable` value; `reduce` is called on the
///   coordinator's actor, one event at a time, each with the navigation
///   state the previous step's commands left (a step's commands are all
///   committed before the next event is reduced).
/// - **Purity:** `reduce` must not block or reach outside `state`. Work
///   that needs the outside world (storing a session) is a
///   ``NavigationCommand/perform(_:)`` command the app carries out.
public protocol AppFlow: Sendable {
  /// What the app keeps between steps, beside the navigation state.
  associatedtype State: Sendable
  /// A deep link the app reads (``parse(deepLink:)``).
  associatedtype Link: Sendable
  /// Why a text is not one of the app's links.
  associatedtype LinkError: Error
  /// The app's own work a step can ask for (``NavigationCommand/perform(_:)``).
  associatedtype Chore: Sendable & Equatable
  /// Every output the app's screens emit: an enum with one case per kind of
  /// screen, each carrying that screen's machine's `Output`
  /// (``AppScreen/appOutput(_:)`` wraps it). The flow switches over it, so
  /// a kind of screen whose outputs the flow forgets does not compile.
  associatedtype Output: Sendable

  /// What the app keeps before it starts.
  var initialState: State { get }

  /// Reads `text` as one of the app's links.
  /// - Throws: `LinkError` for a text that is not one; nothing navigates.
  func parse(deepLink text: String) throws(LinkError) -> Link

  /// One step: `event` happened while the app was at `navigation`.
  /// Returns the commands to apply, in order (none: nothing changes).
  func reduce(into state: inout State, _ event: FlowEvent<Link, Output>, navigation: NavigationState)
    -> [NavigationCommand<Chore>]
}

extension AppFlow {
  /// What this flow reacts to.
  public typealias Event = FlowEvent<Link, Output>
}

/// What a flow machine reacts to: `Link` is the app's deep link,
/// `Output` its screens' outputs (``AppFlow/Output``).
public enum FlowEvent<Link: Sendable, Output: Sendable>: Sendable {
  /// ``AppCoordinator/start()``: show the first screen.
  case start
  /// ``AppCoordinator/open(_:)``: the user asked for `route` (the REPL's
  /// `open`, a menu). Usually `.show(route)`, unless the app reroutes it.
  case open(Route)
  /// The live screen at `route` emitted `output` (its machine's output,
  /// wrapped in the app's case for its kind of screen).
  case output(Output, from: Route)
  /// ``AppCoordinator/handle(deepLink:)`` read a link.
  case deepLink(Link)
  /// ``AppCoordinator/back()``: the user leaves `route`, the modal or the
  /// top of the stack. The coordinator dismisses or pops it whatever the
  /// flow returns; the flow forgets what it kept for that screen (a route
  /// waiting for a login the user backed out of) and may add commands,
  /// applied after the dismissal or pop, in the same step.
  case back(from: Route)
}

/// An app the coordinator can run: its kinds of screen, the dependencies
/// they are built from, its flow machine, and the work its flow asks for.
/// ``AppCoordinator`` names no app; it runs any value of this protocol.
///
/// - **Isolation:** a `Sendable` value. ``perform(_:)`` is nonisolated and
///   async: it runs off the coordinator's actor, awaited inside a step
///   before the step's later commands (so a session stored by a chore is
///   there when the screen after it is built).
public protocol CoordinatedApp: Sendable {
  /// Its rules.
  associatedtype Flow: AppFlow
  /// What its screens are built from (``AppScreen/Dependencies``).
  associatedtype Dependencies: Sendable

  /// Every kind of screen the app has (the REPL lists them; a test checks
  /// each has a view). Each is built from this app's ``Dependencies`` and
  /// wraps its outputs in its flow's ``AppFlow/Output``: the compiler
  /// rejects a screen of another app.
  static var screens: [any AppScreen<Dependencies, Flow.Output>.Type] { get }
  /// The rules.
  var flow: Flow { get }
  /// Handed to each screen as it is built.
  var dependencies: Dependencies { get }
  /// Where the coordinator counts its relays (`LifetimeCounters`).
  var counters: LifetimeCounters { get }
  /// Does the flow's `chore`. The default is for apps with no chores.
  func perform(_ chore: Flow.Chore) async
}

extension CoordinatedApp where Flow.Chore == Never {
  /// An app with no chores has nothing to do.
  public func perform(_ chore: Never) async {}
}

/// What became of a deep link.
public enum DeepLinkDisposition: Sendable, Equatable {
  /// The flow acted on it: its step had commands (a screen received the
  /// link, or the app navigated).
  case delivered
  /// The flow's step had no commands: it kept the link for later (no
  /// screen can take it yet), or ignored it.
  case kept
  /// The coordinator has finished: the link was dropped.
  case refused
}

/// One thing that happened, as an observer of a coordinator sees it
/// (``AppCoordinator/observe(_:)``). Its description is one log line:
/// `→ push weather [home,weather | -]`, `login ! loggedIn(…)`, `refused back()`.
public enum NavigationChange: Sendable, CustomStringConvertible {
  /// The stack or the modal changed (or a URL was opened); the state after it.
  case navigation(NavigationEvent, NavigationState)
  /// A screen emitted an output, about to be handled.
  case output(Route, any Sendable)
  /// A command or output refused because the coordinator has finished
  /// (`"open(weather)"`): nothing changed.
  case refused(String)

  public var description: String {
    switch self {
    case .navigation(let event, let state):
      "→ \(event) [\(state.stack.map(\.description).joined(separator: ",")) | \(state.modal?.description ?? "-")]"
    case .output(let route, let output): "\(route) ! \(output)"
    case .refused(let what): "refused \(what)"
    }
  }
}

/// Where a coordinator is in its life: idle → running → finished.
public enum CoordinatorLifecycle: Sendable, Equatable {
  /// Made, not started: ``AppCoordinator/start()`` has not been called.
  /// Navigation already works: ``AppCoordinator/open(_:)``,
  /// ``AppCoordinator/back()`` and ``AppCoordinator/handle(deepLink:)``
  /// run their steps as they do once started.
  case idle
  /// Started: ``AppCoordinator/start()`` has been called.
  case running
  /// ``AppCoordinator/finish()`` has begun: everything is refused from now on.
  case finished
}
