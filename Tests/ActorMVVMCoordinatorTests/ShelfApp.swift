import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMSupport
import ActorMVVMTesting
import Foundation

// A second app, defined here and nowhere in the sources: a shelf of tallies.
// It starts on its shelf; a `tally://open?start=N` link asks the shelf to
// open a tally; a tally closes itself; a note is a modal. Its one dependency
// is its own (a catalog of what was opened), and it refuses tallies above
// 99. This file names no type of the interview app: the coordinator runs it
// as it is.

/// The shelf: the app's root. A link asks it to open a tally; it remembers which.
struct ShelfMachine: StateMachine {
  enum Input: Sendable, Equatable {
    case linkReceived(start: Int)
    /// Several links at once: one output each, in one transition.
    case linksReceived(starts: [Int])
  }
  enum Output: Sendable, Equatable { case openTally(start: Int) }
  struct State: Equatable, Sendable { var opened: [Int] = [] }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .linkReceived(let start):
      state.opened.append(start)
      return .emit(.openTally(start: start))
    case .linksReceived(let starts):
      state.opened += starts
      return .merge(starts.map { .emit(.openTally(start: $0)) })
    }
  }
}

/// A tally: counts taps, and asks to close; "watch" starts a live feed
/// that never ends on its own (asleep on a test clock nobody advances;
/// cancelling it ends it).
struct TallyMachine: StateMachine {
  enum Input: Sendable { case appeared, tapped, closeTapped, watchTapped, announce }
  enum Output: Sendable { case close, announced }
  struct State: Equatable, Sendable {
    var appearances = 0
    var taps = 0
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared: state.appearances += 1
    case .tapped: state.taps += 1
    case .closeTapped: return .emit(.close)
    case .watchTapped: return .run(id: "feed") { _ in try? await TestClock().sleep(for: .seconds(1)) }
    case .announce: return .emit(.announced)
    }
    return .none
  }
}

/// A note over the shelf: asks to be dismissed.
struct NoteMachine: StateMachine {
  enum Input: Sendable { case doneTapped }
  enum Output: Sendable { case done }

  func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Output> { .emit(.done) }
}

/// The shelf app's dependency: a record of what it opened.
actor Catalog {
  private(set) var log: [String] = []
  func record(_ line: String) { log.append(line) }
}

/// What the shelf's screens are built from.
struct ShelfDependencies: Sendable {
  let catalog = Catalog()
  let counters: LifetimeCounters
  /// How many outputs each screen keeps for a listener that falls behind.
  var outputBuffering: EventRelay<Never>.BufferingPolicy = .unbounded
  /// Builds a test holds on purpose (``BuildHolds``).
  let holds = BuildHolds()
  /// Deep links' chores a test holds on purpose, keyed by the tally the link asks for.
  let linkHolds = BuildHolds()
  /// Whether a tally emits an output from its init, before the coordinator listens.
  var announcesTallies = false
  /// When exploring: every build waits for the explorer to let it finish.
  var builds: ExploredCall<String, Bool, CancellationError>?

  /// A feature for `route`'s screen, counted in the app's counters (once
  /// any hold on the route is released).
  func feature<Machine: StateMachine>(_ machine: Machine, _ initialState: Machine.State, for route: Route) async
    -> Feature<Machine>
  {
    await holds.pass(route)
    if let builds { _ = try? await builds("\(route)") }
    let buffering: EventRelay<Machine.Output>.BufferingPolicy =
      switch outputBuffering {
      case .unbounded: .unbounded
      case .bufferingOldest(let count): .bufferingOldest(count)
      case .bufferingNewest(let count): .bufferingNewest(count)
      }
    let feature = Feature(machine, initialState: initialState, counters: counters, outputBuffering: buffering)
    if announcesTallies, let tally = feature as? Feature<TallyMachine> {
      tally.send(.announce)
      await tally.flush()  // emitted before the coordinator subscribes: nobody hears it
    }
    return feature
  }
}

/// Lets a test hold one route's screen while it is being built: the
/// build says it has begun, then waits to be released.
final class BuildHolds: Sendable {
  struct Hold: Sendable {
    let began = TestGate()
    let release = TestGate()
  }
  private let holds = Locked<[Route: Hold]>([:])

  /// The next build of `route` waits on the returned hold.
  func hold(_ route: Route) -> Hold {
    let hold = Hold()
    holds.withLock { $0[route] = hold }
    return hold
  }

  /// Called by each screen as it is built.
  func pass(_ route: Route) async {
    guard let hold = holds.withLock({ $0.removeValue(forKey: route) }) else { return }
    hold.began.open()
    await hold.release.wait()
  }
}

/// Every output of the shelf app's screens: what its flow switches over.
enum ShelfOutput: Sendable {
  case shelf(ShelfMachine.Output)
  case tally(TallyMachine.Output)
  case note(NoteMachine.Output)
}

struct ShelfScreen: AppScreen {
  static let name = "shelf"
  static let presentation = Presentation.root
  let feature: Feature<ShelfMachine>
  static func appOutput(_ output: ShelfMachine.Output) -> ShelfOutput { .shelf(output) }

  init(route: Route, dependencies: ShelfDependencies) async {
    feature = await dependencies.feature(ShelfMachine(), .init(), for: route)
  }
}

struct TallyScreen: AppScreen {
  static let name = "tally"
  static let presentation = Presentation.push
  static let parameterName: String? = "start"
  let feature: Feature<TallyMachine>
  static func appOutput(_ output: TallyMachine.Output) -> ShelfOutput { .tally(output) }

  init(route: Route, dependencies: ShelfDependencies) async {
    feature = await dependencies.feature(TallyMachine(), .init(taps: route.parameter ?? 0), for: route)
  }

  var firstInput: TallyMachine.Input? { .appeared }
}

struct NoteScreen: AppScreen {
  static let name = "note"
  static let presentation = Presentation.modal
  static let parameterName: String? = "id"
  let feature: Feature<NoteMachine>
  static func appOutput(_ output: NoteMachine.Output) -> ShelfOutput { .note(output) }

  init(route: Route, dependencies: ShelfDependencies) async {
    feature = await dependencies.feature(NoteMachine(), 0, for: route)
  }
}

extension Route {
  static var shelf: Route { Route(ShelfScreen.self) }
  static func tally(_ start: Int) -> Route { Route(TallyScreen.self, parameter: start) }
  static func note(_ id: Int) -> Route { Route(NoteScreen.self, parameter: id) }
}

/// A link the shelf app cannot read.
struct ShelfLinkError: Error, Equatable { let text: String }

/// The shelf app's rules.
struct ShelfFlow: AppFlow {
  struct State: Equatable, Sendable {
    /// A link that came before the shelf was up.
    var keptLink: Int?
  }

  enum Chore: Equatable, Sendable {
    case record(String)
    /// Notes a link as received (a test can hold it: ``ShelfDependencies/linkHolds``).
    case receiveLink(Int)
  }

  var initialState: State { State() }

  func parse(deepLink text: String) throws(ShelfLinkError) -> Int {
    guard let components = URLComponents(string: text), components.scheme == "tally", components.host == "open",
      let start = components.queryItems?.first(where: { $0.name == "start" })?.value.flatMap({ Int($0) })
    else { throw ShelfLinkError(text: text) }
    return start
  }

  func reduce(into state: inout State, _ event: FlowEvent<Int, ShelfOutput>, navigation: NavigationState)
    -> [NavigationCommand<Chore>]
  {
    switch event {
    case .start:
      defer { state.keptLink = nil }
      return [.show(.shelf)]
        + (state.keptLink.map { [.send(Payload(ShelfMachine.Input.linkReceived(start: $0)), to: .shelf)] } ?? [])
    case .open(let route):
      return (route.parameter ?? 0) > 99 ? [] : [.show(route)]
    case .deepLink(let start):
      guard navigation.root == .shelf else {
        state.keptLink = start
        return []
      }
      return [.perform(.receiveLink(start)), .send(Payload(ShelfMachine.Input.linkReceived(start: start)), to: .shelf)]
    case .output(.shelf(.openTally(let start)), _):
      return [.perform(.record("tally \(start)")), .show(.tally(start))]
    case .output(.tally(.close), _):
      return [.pop]
    case .output(.tally(.announced), _):
      return []
    case .output(.note(.done), _):
      return [.dismissModal]
    case .back:
      return []
    }
  }
}

/// The shelf app, as the coordinator runs it.
struct ShelfApp: CoordinatedApp {
  static let screens: [any AppScreen<ShelfDependencies, ShelfOutput>.Type] = [
    ShelfScreen.self, TallyScreen.self, NoteScreen.self,
  ]
  let flow = ShelfFlow()
  let dependencies: ShelfDependencies

  init(
    counters: LifetimeCounters = LifetimeCounters(), builds: ExploredCall<String, Bool, CancellationError>? = nil,
    outputBuffering: EventRelay<Never>.BufferingPolicy = .unbounded, announcesTallies: Bool = false
  ) {
    var dependencies = ShelfDependencies(counters: counters)
    dependencies.announcesTallies = announcesTallies
    dependencies.builds = builds
    dependencies.outputBuffering = outputBuffering
    self.dependencies = dependencies
  }

  var counters: LifetimeCounters { dependencies.counters }

  func perform(_ chore: ShelfFlow.Chore) async {
    switch chore {
    case .record(let line): await dependencies.catalog.record(line)
    case .receiveLink(let start): await dependencies.linkHolds.pass(.tally(start))
    }
  }
}
