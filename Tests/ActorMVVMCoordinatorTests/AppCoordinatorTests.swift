import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMJobCount
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// Every change an observer sees, as its log lines.
final class ChangeLog: Sendable {
  private let lines = Locked<[String]>([])
  func record(_ change: NavigationChange) { lines.withLock { $0.append(change.description) } }
  var all: [String] { lines.withLock { $0 } }
}

/// A started shelf app, its log, and its counters.
func startShelf() async -> (AppCoordinator<ShelfApp>, ChangeLog, LifetimeCounters) {
  let counters = LifetimeCounters()
  let app = AppCoordinator(ShelfApp(counters: counters))
  let log = ChangeLog()
  await app.observe { log.record($0) }
  await app.start()
  await app.settle()
  return (app, log, counters)
}

/// Returns once every job in the process has run: the step started just
/// before is then parked, waiting for its turn.
func everyoneParked() async {
  #expect(await Quiescence.untilIdle() == .idle)
}

@Suite("AppCoordinator: a second app", .testBubble)
struct SecondAppTests {
  @Test(
    "An app defined in the tests starts on its own root, reads its own links, does its own chores, reroutes its own routes"
  )
  func aSecondApp() async throws {
    let (app, _, counters) = await startShelf()
    #expect(await app.state == NavigationState(stack: [.shelf]))

    #expect(try await app.handle(deepLink: "tally://open?start=3") == .delivered)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.shelf, .tally(3)]))
    #expect(await app.topScreen?.feature(TallyMachine.self)?.state == .init(appearances: 1, taps: 3))
    #expect(await app.topScreen?.feature(ShelfMachine.self) == nil)
    #expect(await app.app.dependencies.catalog.log == ["tally 3"])

    // The app's own error for its own malformed link; nothing navigates.
    await #expect(throws: ShelfLinkError(text: "https://example.com")) {
      try await app.handle(deepLink: "https://example.com")
    }
    // The flow declines a route: nothing opens.
    await app.open(.tally(100))
    #expect(await app.state == NavigationState(stack: [.shelf, .tally(3)]))

    await app.topScreen?.feature(TallyMachine.self)?.send(.closeTapped)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.shelf]))
    #expect(await app.screens.first?.1.feature(ShelfMachine.self)?.state.opened == [3])

    await app.finish()
    #expect(try await app.handle(deepLink: "tally://open?start=4") == .refused)
    await app.open(.tally(4))
    #expect(await app.screens.isEmpty)
    await counters.waitForFeatures(atMost: 0)  // every screen finished and freed
  }

  @Test("settle(timeout:) names a screen's effect that never ends instead of waiting for it")
  func boundedSettle() async throws {
    let (app, _, _) = await startShelf()
    #expect(try await app.handle(deepLink: "tally://open?start=1") == .delivered)
    try await app.settle(timeout: .seconds(60))
    await app.topScreen?.feature(TallyMachine.self)?.send(.watchTapped)
    let error = await #expect(throws: FeatureBusy.self) { try await app.settle(timeout: .milliseconds(20)) }
    #expect(error?.feature == "TallyMachine")
    #expect(error?.runningEffects == ["feed"])
    await app.finish()
  }

  @Test("A link before the app starts is kept, then delivered by the start step")
  func linkBeforeStart() async throws {
    let app = AppCoordinator(ShelfApp())
    #expect(try await app.handle(deepLink: "tally://open?start=7") == .kept)
    #expect(await app.flowState.keptLink == 7)
    await app.start()
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.shelf, .tally(7)]))
    await app.finish()
  }

  @Test("back(): dismisses the modal, else pops; false at the root")
  func back() async {
    let (app, log, _) = await startShelf()
    await app.open(.tally(1))
    await app.open(.note(1))
    #expect(await app.back())
    #expect(await app.back())
    #expect(await app.back() == false)
    #expect(
      log.all == [
        "→ root shelf [shelf | -]", "→ push tally(1) [shelf,tally(1) | -]",
        "→ present note(1) [shelf,tally(1) | note(1)]",
        "→ dismiss note(1) [shelf,tally(1) | -]", "→ pop tally(1) [shelf | -]",
      ])
    await app.finish()
  }
}

@Suite("AppCoordinator: steps never interleave", .testBubble)
struct AppCoordinatorStepTests {
  @Test("Two presents building at once: the second replaces the first, which is dismissed and finished")
  func twoPresents() async {
    let (app, log, counters) = await startShelf()
    let hold = app.app.dependencies.holds.hold(.note(1))
    async let first: Void = app.open(.note(1))
    await hold.began.wait()
    async let second: Void = app.open(.note(2))
    await everyoneParked()
    hold.release.open()
    _ = await (first, second)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.shelf], modal: .note(2)))
    #expect(
      log.all.dropFirst() == [
        "→ present note(1) [shelf | note(1)]", "→ dismiss note(1) [shelf | -]", "→ present note(2) [shelf | note(2)]",
      ])
    await counters.waitForFeatures(atMost: 2)  // the shelf and note 2: note 1 was finished
    await app.finish()
    await counters.waitForFeatures(atMost: 0)
  }

  @Test("A push while the root is being replaced lands on the new root; the stack never loses its root")
  func pushWhileRootIsReplaced() async {
    let (app, log, counters) = await startShelf()
    await app.open(.tally(1))
    let states = Locked<[NavigationState]>([])
    let watcher = TestBubble.task { for await state in app.navigation.values { states.withLock { $0.append(state) } } }
    let hold = app.app.dependencies.holds.hold(.shelf)
    async let root: Void = app.open(.shelf)
    await hold.began.wait()
    async let push: Void = app.open(.tally(2))
    await everyoneParked()
    #expect(await app.state == NavigationState(stack: [.shelf, .tally(1)]))  // nothing committed while building
    hold.release.open()
    _ = await (root, push)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.shelf, .tally(2)]))
    #expect(log.all.suffix(2) == ["→ root shelf [shelf | -]", "→ push tally(2) [shelf,tally(2) | -]"])
    await counters.waitForFeatures(atMost: 2)  // the new shelf and tally 2
    await app.finish()
    await watcher.value
    #expect(states.withLock { $0 }.dropFirst().dropLast().allSatisfy { !$0.stack.isEmpty })
    await counters.waitForFeatures(atMost: 0)
  }

  @Test(
    "finish() while a present is building: nothing is shown after it; the late screen is finished",
    arguments: [
      Route.note(1), .tally(1),
    ])
  func finishWhileBuilding(route: Route) async {
    let (app, log, counters) = await startShelf()
    let hold = app.app.dependencies.holds.hold(route)
    async let opening: Void = app.open(route)
    await hold.began.wait()
    async let finishing: Void = app.finish()
    await everyoneParked()
    #expect(await app.lifecycle == .finished)
    hold.release.open()
    _ = await (opening, finishing)
    #expect(await app.screens.isEmpty)
    #expect(log.all == ["→ root shelf [shelf | -]", "refused open(\(route))"])
    await counters.waitForFeatures(atMost: 0)
    #expect(counters.effects == 0 && counters.subscriptions == 0 && counters.bindings == 0)
  }

  @Test("finish() while a deep link's step performs its chore: nothing commits; handle(deepLink:) says refused")
  func finishWhileDeepLinkChore() async throws {
    let (app, log, counters) = await startShelf()
    let hold = app.app.dependencies.linkHolds.hold(.tally(8))
    async let handling = app.handle(deepLink: "tally://open?start=8")
    await hold.began.wait()  // the step holds the turn, inside its chore
    async let finishing: Void = app.finish()
    await everyoneParked()  // finish has begun and waits for the turn
    #expect(await app.lifecycle == .finished)
    hold.release.open()
    let disposition = try await handling
    await finishing
    #expect(log.all == ["→ root shelf [shelf | -]", "refused deeplink"])
    #expect(disposition == .refused)
    #expect(await app.screens.isEmpty)
    await counters.waitForFeatures(atMost: 0)
  }

  @Test("start() twice, at once or one after the other: the app starts once")
  func startTwice() async {
    let app = AppCoordinator(ShelfApp())
    let log = ChangeLog()
    await app.observe { log.record($0) }
    async let first: Void = app.start()
    async let second: Void = app.start()
    _ = await (first, second)
    await app.start()
    await app.settle()
    #expect(log.all == ["→ root shelf [shelf | -]"])
    #expect(await app.lifecycle == .running)
    await app.finish()
    await app.start()
    #expect(log.all.last == "refused start()")
  }

  @Test("A chore runs in its step, before the screen after it is built")
  func choreBeforeBuild() async throws {
    let (app, _, _) = await startShelf()
    let hold = app.app.dependencies.holds.hold(.tally(5))
    try await app.handle(deepLink: "tally://open?start=5")
    await hold.began.wait()
    #expect(await app.app.dependencies.catalog.log == ["tally 5"])
    #expect(await app.state == NavigationState(stack: [.shelf]))
    hold.release.open()
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.shelf, .tally(5)]))
    await app.finish()
  }
}

@Suite("NavigationState: commands applied to routes")
struct NavigationStateTests {
  @Test("show by presentation, pop above the root only, dismiss, dismiss to main, and the events each causes")
  func apply() {
    var state = NavigationState()
    typealias Command = NavigationCommand<Never>
    #expect(state.apply(Command.show(.shelf)) == [.setRoot(.shelf)])
    #expect(state.apply(Command.pop) == [])
    #expect(state.apply(Command.show(.note(1))) == [.present(.note(1))])
    #expect(state.apply(Command.show(.note(2))) == [.dismiss(.note(1)), .present(.note(2))])
    #expect(state.apply(Command.show(.tally(1))) == [.dismiss(.note(2)), .push(.tally(1))])
    #expect(state.apply(Command.show(.tally(2))) == [.push(.tally(2))])
    #expect(state == NavigationState(stack: [.shelf, .tally(1), .tally(2)]))
    #expect(state.apply(Command.send(Payload(1), to: .shelf)) == [])
    #expect(state.apply(Command.openURL("u")) == [.openURL("u")])
    state.apply(Command.show(.note(3)))
    #expect(state.apply(Command.dismissToMain) == [.dismiss(.note(3)), .pop(.tally(2)), .pop(.tally(1))])
    #expect(
      state.applying([Command.show(.tally(1)), .show(.note(1)), .show(.shelf)]) == NavigationState(stack: [.shelf]))
  }
}

@Suite("AppCoordinator: causes", .testBubble)
struct CoordinatorCauseTests {
  @Test(
    "A step runs under its caller's cause, an output's step under the output's: the observer reads it, and a screen it shows gets its first input under it"
  )
  func stepsCarryCauses() async throws {
    let counters = LifetimeCounters()
    let app = AppCoordinator(ShelfApp(counters: counters))
    let log = Locked<[String]>([])
    await app.observe { change in log.withLock { $0.append("\(change) \(Cause.current.map { "\($0)" } ?? "-")") } }
    await app.start()
    await app.settle()
    // The link reaches the shelf's machine under #5; the shelf's output
    // (openTally) is emitted under #5, so its step — a chore and a push — is too.
    _ = try await Cause.with(Cause(5)) { () async throws(ShelfLinkError) -> DeepLinkDisposition in
      try await app.handle(deepLink: "tally://open?start=3")
    }
    await app.settle()
    await Cause.with(Cause(6)) { _ = await app.back() }
    #expect(
      log.withLock { $0 } == [
        "→ root shelf [shelf | -] -",
        "shelf ! openTally(start: 3) #5",
        "→ push tally(3) [shelf,tally(3) | -] #5",
        "→ pop tally(3) [shelf | -] #6",
      ])
    await app.finish()
  }
}

extension CoordinatorCauseTests {
  @Test(
    "An output's step runs under the output's cause, and settle returns, when the screen emitted before the coordinator listened",
    .timeLimit(.minutes(1)))
  func outputCauseAfterEarlyOutputs() async throws {
    let counters = LifetimeCounters()
    let app = AppCoordinator(ShelfApp(counters: counters, announcesTallies: true))
    let log = Locked<[String]>([])
    await app.observe { change in log.withLock { $0.append("\(change) \(Cause.current.map { "\($0)" } ?? "-")") } }
    await app.start()
    try await app.settle(timeout: .seconds(5))
    await Cause.with(Cause(41)) { await app.open(.tally(1)) }
    try await app.settle(timeout: .seconds(5))
    let tally = try #require(await app.screens.last?.1.feature(TallyMachine.self))
    Cause.with(Cause(42)) { tally.send(.closeTapped) }
    try await app.settle(timeout: .seconds(5))
    #expect(
      log.withLock { $0 } == [
        "→ root shelf [shelf | -] -",
        "→ push tally(1) [shelf,tally(1) | -] #41",
        "tally(1) ! close #42",
        "→ pop tally(1) [shelf | -] #42",
      ])
    await app.finish()
  }
}

@Suite("AppCoordinator.settle over a screen whose outputs are bounded (issue #47)", .testBubble)
struct LossyScreenSettleTests {
  @Test(
    "settle(timeout:) returns once the coordinator has handled what the bound kept of a burst",
    .timeLimit(.minutes(1)))
  func settlesAfterABurst() async throws {
    let counters = LifetimeCounters()
    let app = AppCoordinator(ShelfApp(counters: counters, outputBuffering: .bufferingNewest(1)))
    await app.start()
    try await app.settle(timeout: .seconds(1))
    do {
      let shelf = try #require(await app.screens.first?.1.feature(ShelfMachine.self))
      // The listener takes the first output and is held building its tally…
      let hold = app.app.dependencies.holds.hold(.tally(1))
      shelf.send(.linkReceived(start: 1))
      await hold.began.wait()
      // …while a burst arrives: the bound keeps the newest, 4, and drops 2 and 3.
      shelf.send(.linksReceived(starts: [2, 3, 4]))
      await shelf.flush()
      hold.release.open()
    }
    try await app.settle(timeout: .seconds(1))
    #expect(await app.state.stack == [.shelf, .tally(1), .tally(4)])
    await app.finish()
    await counters.waitForFeatures(atMost: 0)
  }
}
