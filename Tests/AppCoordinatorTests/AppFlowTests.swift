import ActorMVVM
import AppCoordinator
import EmbeddedBackend
import Foundation
import Testing

// A second app, defined here and nowhere in the sources: a shelf of tallies.
// It starts on its shelf, opens a tally from a `tally://open?start=N` link,
// and refuses tallies above 99. The coordinator runs it with no edit.

/// The shelf: the app's root. A link asks it to open a tally; it remembers which.
struct ShelfMachine: StateMachine {
  enum Input: Sendable { case linkReceived(start: Int) }
  enum Output: Sendable, Equatable { case openTally(start: Int) }
  struct State: Equatable, Sendable { var opened: [Int] = [] }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .linkReceived(let start):
      state.opened.append(start)
      return .emit(.openTally(start: start))
    }
  }
}

struct ShelfScreen: AppScreen {
  static let name = "shelf"
  static let presentation = Presentation.root
  static let opensByName = false
  let feature: Feature<ShelfMachine>

  init(route: Route, container: AppContainer) async {
    feature = container.feature(ShelfMachine(), .init(), name: Self.name)
  }

  static func handle(_ output: ShelfMachine.Output, in app: AppCoordinator) async {
    switch output {
    case .openTally(let start): await app.open(Route(TallyScreen.self, parameter: start))
    }
  }
}

/// A link the shelf app cannot read.
struct ShelfLinkError: Error, Equatable { let text: String }

/// The shelf app's rules.
struct ShelfFlow: AppFlow {
  func start(in app: isolated AppCoordinator) async { await app.show(Route(ShelfScreen.self)) }

  func open(_ route: Route, in app: isolated AppCoordinator) async -> OpenDecision {
    (route.parameter ?? 0) > 99 ? .handled : .show
  }

  func handle(deepLink text: String, in app: isolated AppCoordinator) async throws(ShelfLinkError)
    -> AppCoordinator.DeepLinkDisposition
  {
    guard let components = URLComponents(string: text), components.scheme == "tally", components.host == "open",
      let start = components.queryItems?.first(where: { $0.name == "start" })?.value.flatMap({ Int($0) })
    else { throw ShelfLinkError(text: text) }
    guard let shelf = app.rootFeature(ShelfMachine.self) else { return .kept }
    shelf.send(.linkReceived(start: start))
    await shelf.flush()
    return .delivered
  }
}

@Suite("AppCoordinator: a second app's flow")
struct AppFlowTests {
  @Test(
    "An app defined in the tests starts on its own root, reads its own links, reroutes its own routes",
    .timeLimit(.minutes(1)))
  func aSecondApp() async throws {
    let counters = LifetimeCounters()
    let app = AppCoordinator(
      container: AppContainer(
        AppConfiguration(httpClient: EmbeddedBackend(), weatherbitKey: nil, naverCredentials: nil, counters: counters)),
      flow: ShelfFlow())
    #expect(app.flow(ShelfFlow.self) != nil)
    #expect(app.flow(InterviewFlow.self) == nil)
    await app.start()
    await app.settle()
    let shelfRoute = Route(ShelfScreen.self)
    #expect(await app.state == NavigationState(stack: [shelfRoute]))

    #expect(try await app.handle(deepLink: "tally://open?start=3") == .delivered)
    await app.settle()
    let tallyRoute = Route(TallyScreen.self, parameter: 3)
    #expect(await app.state == NavigationState(stack: [shelfRoute, tallyRoute]))
    #expect(await app.topScreen?.feature(TallyMachine.self)?.state == .init(appearances: 1, taps: 3))

    // The app's own error for its own malformed link; nothing navigates.
    await #expect(throws: ShelfLinkError(text: "https://example.com")) {
      try await app.handle(deepLink: "https://example.com")
    }
    // The flow declines a route: nothing opens.
    await app.open(Route(TallyScreen.self, parameter: 100))
    #expect(await app.state == NavigationState(stack: [shelfRoute, tallyRoute]))

    await app.topScreen?.feature(TallyMachine.self)?.send(.closeTapped)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [shelfRoute]))
    #expect(await app.rootFeature(ShelfMachine.self)?.state.opened == [3])

    await app.finish()
    #expect(try await app.handle(deepLink: "tally://open?start=4") == .refused)
    await app.open(Route(TallyScreen.self, parameter: 4))
    #expect(await app.screens.isEmpty)
    await counters.waitForFeatures(atMost: 0)  // every screen finished and freed
  }
}
