import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// A reminder: `remind` sets a one-second timer on the world's clock,
/// `dismiss` clears it; when it fires, `reminded` is set.
struct Reminder: StateMachine {
  struct State: Equatable, Sendable {
    var dismissed = false
    var reminded = false
    var remindedAfterDismissal = false
  }
  enum Input: Sendable { case remind, dismiss, fired }
  typealias Output = Never

  let clock: TestClock
  /// The bug to put back: the timer is not cancelled by `dismiss`.
  var cancelsTimer = true

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .remind:
      state.dismissed = false
      let clock = self.clock
      return .run(id: "timer") { send in
        guard (try? await clock.sleep(for: .seconds(1))) != nil else { return }
        send(.fired)
      }
    case .dismiss:
      state.dismissed = true
      return cancelsTimer ? .cancel(id: "timer") : .none
    case .fired:
      state.reminded = true
      if state.dismissed { state.remindedAfterDismissal = true }
      return .none
    }
  }
}

@Suite("Exploration: the tool itself", .testBubble)
struct ExplorationTests {
  static func reminder(cancelsTimer: Bool) -> Exploration<Reminder> {
    Exploration<Reminder>(inputs: .script([.remind, .dismiss])) { world in
      (Reminder(clock: world.clock, cancelsTimer: cancelsTimer), .init())
    }
    .invariant("a dismissed reminder never fires") { !$0.state.remindedAfterDismissal }
  }

  @Test(
    "Timers are events: the clock moves to the next deadline as one of the orders, and a timer that should have been cancelled is caught"
  )
  func timersAreExplored() async throws {
    let shipped = await Self.reminder(cancelsTimer: true).explore()
    #expect(shipped.failure == nil, "\(shipped)")
    #expect(shipped.exhaustive)
    let broken = await Self.reminder(cancelsTimer: false).explore()
    let failure = try #require(broken.failure)
    #expect(
      failure.steps.map { $0.description } == ["send remind", "send dismiss", "advance time to the next deadline"])
  }

  @Test("The same exploration explores the same orders: equal counts and the same failure on every run")
  func deterministic() async throws {
    let first = await Self.reminder(cancelsTimer: false).explore()
    for _ in 0..<5 {
      let again = await Self.reminder(cancelsTimer: false).explore()
      #expect(again.executions == first.executions && again.distinctStates == first.distinctStates)
      #expect(again.failure?.timeline == first.failure?.timeline)
    }
    let shipped = await finderExploration.explore()
    let shippedAgain = await finderExploration.explore()
    #expect("\(shipped)" == "\(shippedAgain)")
  }

  @Test("A bound on executions stops the exploration and the report says it was not exhaustive")
  func boundedExecutions() async {
    var exploration = Self.reminder(cancelsTimer: true)
    exploration.maxExecutions = 2
    let report = await exploration.explore()
    #expect(!report.exhaustive)
    #expect(report.executions == 2)
    #expect("\(report)".contains("not exhaustive"))
  }

  @Test("Two searches pending at once are answered in either order; a replayed step that cannot happen says so")
  func callsAnsweredInEveryOrder() async throws {
    // Without cancellation, two searches pending at once: both answer orders are explored.
    let report = await finderExploration.explore()
    let failure = try #require(report.failure)
    #expect(failure.steps.count == 3)
    // A replay of an answer to a call that is not pending could not happen.
    let impossible = await finderExploration.replay([.answer(#"search("z")"#, 0)])
    #expect(impossible.brokenInvariant?.contains("could not happen") == true)
  }

  @Test("Cancelling the exploring task stops the exploration; the report says it was not exhaustive")
  func cancellationStops() async {
    let report = await TestBubble.task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await Self.reminder(cancelsTimer: false).explore()
    }.value
    #expect(!report.exhaustive)
    #expect(report.failure == nil)
    #expect(report.executions == 0)
  }

  @Test("A depth bound limits the paths explored")
  func depthBound() async {
    var exploration = Self.reminder(cancelsTimer: true)
    exploration.maxDepth = 1
    let report = await exploration.explore()
    #expect(report.deepest == 1)
    #expect(report.failure == nil)
  }

  @Test("A failure's report counts its own path: \"paths up to\" is the failing order's length (issue #47)")
  func deepestCountsTheFailingPath() async throws {
    let report = await Self.reminder(cancelsTimer: false).explore()
    let failure = try #require(report.failure)
    #expect(failure.steps.count == 3)
    #expect(report.deepest == failure.steps.count)
    #expect("\(report)".contains("paths up to 3 events"))
  }

  @Test("A failure names the broken invariant apart from the state it broke on (issue #47)")
  func failureNamesTheInvariant() async throws {
    let failure = try #require(await finderExploration.explore().failure)
    #expect(failure.invariantName == "results are for the query shown")
    #expect(failure.stateDescription == #"State(query: "ab", results: ["A"], resultsQuery: "a")"#)
    #expect(failure.invariant == "\"results are for the query shown\" does not hold: \(failure.stateDescription)")
    #expect(failure.timeline.hasSuffix("✘ \(failure.invariant)"))
  }
}

/// A loader: `load` sets `isLoading` and asks the world's `fetch`; the
/// answer clears it.
struct ExploredLoader: StateMachine {
  struct State: Equatable, Sendable { var isLoading = false }
  enum Input: Sendable { case load, loaded }
  typealias Output = Never

  let fetch: ExploredCall<Int, Int, CancellationError>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .load:
      state.isLoading = true
      let fetch = self.fetch
      return .run(id: "fetch") { send in
        await Task.yield()  // the call is asked for after a hop, as a use case's would be
        _ = try? await fetch(1)
        send(.loaded)
      }
    case .loaded:
      state.isLoading = false
      return .none
    }
  }
}

@Suite("Exploration: cancelled", .testBubble)
struct ExplorationCancellationTests {
  @Test(
    "Cancelled in the middle of an execution: not exhaustive, and no verdict drawn from the execution it interrupted"
  )
  func cancelledMidExecution() async {
    // The second execution (the path `send load`) is the one cancelled, as it begins.
    let report = await Self.loader(cancelledAtBuild: 2).explore()
    #expect(!report.exhaustive)
    #expect(report.failure == nil, "\(report)")
    #expect(report.executions == 1)  // the empty path; the interrupted one is not counted
  }

  @Test("A search cancelled in the middle of a run: no verdict drawn from the run it interrupted")
  func searchCancelledMidRun() async {
    // Each run sends load and stops with the fetch pending (isLoading): its
    // end is judged only if it was not interrupted.
    let report = await Self.loader(cancelledAtBuild: 2).search(.random, seed: 1, runs: 5)
    #expect(report.failure == nil, "\(report)")
    #expect(report.executions == 1)
  }

  /// The loader's exploration, whose build number `build` cancels the exploring task as it begins.
  static func loader(cancelledAtBuild build: Int) -> Exploration<ExploredLoader> {
    let builds = Locked(0)
    return Exploration<ExploredLoader>(inputs: .script([.load])) { world in
      if builds.withLock({
        $0 += 1; return $0
      }) == build {
        withUnsafeCurrentTask { $0?.cancel() }
      }
      let fetch = world.call("fetch", answers: { (_: Int) in [.success(1)] }, whenCancelled: CancellationError())
      return (ExploredLoader(fetch: fetch), .init())
    }
    .whenSettled("loading ends once nothing is in flight") { !$0.state.isLoading }
    .eventually("loading ends") { !$0.state.isLoading }
  }
}

/// A composer: `send` posts (the answer emits `.posted`), `archive` and
/// `typed` only change the state.
struct Composer: StateMachine {
  struct State: Equatable, Sendable {
    var isSending = false
    var archived = false
    var text = ""
  }
  enum Input: Sendable { case sendTapped, archiveTapped, typed(String), sent }
  enum Output: Sendable, Equatable { case posted }

  let post: ExploredCall<Int, Int, CancellationError>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .sendTapped:
      state.isSending = true
      let post = self.post
      return .run(id: "post") { send in
        _ = try? await post(1)
        send(.sent)
      }
    case .sent:
      state.isSending = false
      return .emit(.posted)
    case .archiveTapped:
      state.archived = true
      return .none
    case .typed(let text):
      state.text = text
      return .none
    }
  }
}

@Suite("Exploration: states merged only on what the invariants read", .testBubble)
struct ExplorationMergeTests {
  static let composer = Exploration<Composer>(inputs: .script([.sendTapped, .archiveTapped, .typed("x")])) { world in
    let post = world.call("post", answers: { (_: Int) in [.success(1)] }, whenCancelled: CancellationError())
    return (Composer(post: post), .init())
  }
  .invariant("once everything is sent, the post came after the archive") {
    $0.inputs.count < 3 || ($0.inputsBeforeOutput.first ?? 2) >= 2
  }

  @Test(
    "Two orders that differ only in when an output came are not merged under the default history: the order that breaks an invariant reading inputsBeforeOutput is found"
  )
  func stampsAreHistory() async throws {
    let exploration = Self.composer
    let report = await exploration.explore()
    let failure = try #require(report.failure, "\(report)")
    #expect(
      failure.steps.map(\.description) == [
        "send sendTapped", "answer post(1) with #0", "send archiveTapped", #"send typed("x")"#,
      ])
    #expect(await exploration.replay(failure.steps).brokenInvariant != nil)
  }
}

/// Two calls asked for at once: `first` starts runs that call `a` and `b`,
/// `second` runs that call `c` and `d`. Each run hops before it calls, so
/// the order the calls are made in is the threads'. The second and the
/// fourth answer emit the set answered so far: equal sets, built in
/// different orders on different paths.
struct Racer: StateMachine {
  struct State: Equatable, Sendable { var answered: Set<String> = [] }
  enum Input: Sendable { case first, second, answered(String) }
  typealias Output = Set<String>

  let call: ExploredCall<String, String, CancellationError>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .first: return .merge(run("a"), run("b"))
    case .second: return .merge(run("c"), run("d"))
    case .answered(let name):
      state.answered.insert(name)
      return state.answered.count.isMultiple(of: 2) ? .emit(state.answered) : .none
    }
  }

  private func run(_ name: String) -> Effect<Input, Output> {
    let call = self.call
    return .run { send in
      await Task.yield()
      if let answer = try? await call(name) { send(.answered(answer)) }
    }
  }
}

@Suite("Exploration: the event order is the explorer's", .testBubble)
struct ExplorationDeterminismTests {
  static let exploration = Exploration<Racer>(inputs: .script([.first, .second])) { world in
    let call = world.call("call", answers: { (name: String) in [.success(name)] }, whenCancelled: CancellationError())
    return (Racer(call: call), .init())
  }
  .invariant("only what was asked for is answered") { $0.state.answered.count <= 2 * $0.inputs.count }

  @Test(
    "Calls made at once by racing tasks, outputs holding sets built in any order: four runs of one exploration give equal counts"
  )
  func racingCallsGiveEqualCounts() async {
    var counts: [String] = []
    for _ in 0..<4 {
      let report = await Self.exploration.explore()
      counts.append("\(report.executions)/\(report.distinctStates)")
    }
    #expect(Set(counts).count == 1, "\(counts)")
  }

  @Test("The composer's exploration, four times: equal counts and the same first failure")
  func composerFourTimes() async {
    var results: [String] = []
    for _ in 0..<4 {
      let report = await ExplorationMergeTests.composer.explore()
      results.append("\(report.executions)/\(report.distinctStates) \(report.failure?.token ?? "-")")
    }
    #expect(Set(results).count == 1, "\(results)")
  }

  @Test("A seeded search, twice: the same executions, states and failure")
  func searchRepeats() async {
    let first = await ExplorationSearchTests.exploration.search(.pct(changePoints: 3), seed: 11, runs: 60)
    let second = await ExplorationSearchTests.exploration.search(.pct(changePoints: 3), seed: 11, runs: 60)
    #expect("\(first)" == "\(second)")
  }
}

/// A poller: `load` shows a spinner and polls every second on the world's
/// clock; a tick ends it — unless the bug is put back.
struct Poller: StateMachine {
  struct State: Equatable, Sendable { var isLoading = false }
  enum Input: Sendable { case load, tick }
  typealias Output = Never

  let clock: TestClock
  /// The bug to put back: a tick never stops the spinner.
  var stopsOnTick = true

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .load:
      state.isLoading = true
      let clock = self.clock
      return .run(id: "poll") { send in
        while (try? await clock.sleep(for: .seconds(1))) != nil { send(.tick) }
      }
    case .tick:
      guard stopsOnTick else { return .none }
      state.isLoading = false
      return .cancel(id: "poll")
    }
  }
}

/// A loader that forgets to clear its spinner when the answer comes.
struct ForgetfulLoader: StateMachine {
  struct State: Equatable, Sendable { var isLoading = false }
  enum Input: Sendable { case load }
  typealias Output = Never

  let fetch: ExploredCall<Int, Int, CancellationError>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    state.isLoading = true
    let fetch = self.fetch
    return .run(id: "fetch") { _ in _ = try? await fetch(1) }
  }
}

@Suite("Exploration: eventually", .testBubble)
struct ExplorationLivenessTests {
  static func poller(stopsOnTick: Bool) -> Exploration<Poller> {
    Exploration<Poller>(inputs: .script([.load])) { world in
      (Poller(clock: world.clock, stopsOnTick: stopsOnTick), .init())
    }
    .eventually("the spinner stops") { !$0.state.isLoading }
  }

  @Test("A spinner that never stops is a cycle: the path to it and round it are reported, and its token replays it")
  func spinnerThatNeverStops() async throws {
    let report = await Self.poller(stopsOnTick: false).explore()
    let failure = try #require(report.failure, "\(report)")
    #expect(failure.invariantName == "the spinner stops")
    #expect(failure.steps.map(\.description) == ["send load", "advance time to the next deadline"])
    #expect(failure.cycleStart == 1)
    #expect(failure.timeline.contains("↻ step 2 returns to the state after step 1"))
    #expect(failure.timeline.contains("went on repeating up to the depth bound (24 events)"))
    let replayed = try await Self.poller(stopsOnTick: false).replay(token: failure.token)
    #expect(replayed.unmetEventually == ["the spinner stops"])
    let fixed = await Self.poller(stopsOnTick: true).explore()
    #expect(fixed.failure == nil && fixed.exhaustive, "\(fixed)")
  }

  @Test("A path that ends with the rule unmet breaks it; a path cut by maxDepth does not")
  func pathEndsUnmet() async throws {
    let exploration = Exploration<ForgetfulLoader>(inputs: .script([.load])) { world in
      let fetch = world.call("fetch", answers: { (_: Int) in [.success(1)] }, whenCancelled: CancellationError())
      return (ForgetfulLoader(fetch: fetch), .init())
    }
    .eventually("loading ends") { !$0.state.isLoading }
    let failure = try #require(await exploration.explore().failure)
    #expect(failure.steps.map(\.description) == ["send load", "answer fetch(1) with #0"])
    #expect(failure.cycleStart == nil)
    #expect(failure.timeline.hasSuffix("and nothing more can happen"))
    var cut = exploration
    cut.maxDepth = 1
    let report = await cut.explore()
    #expect(report.failure == nil && report.exhaustive, "\(report)")
  }
}

/// A combination lock: three buttons; it opens — the bug — when the last
/// four presses were `c a b c`, with a chime (a stubbed call) answered
/// after each press.
struct ComboLock: StateMachine {
  struct State: Equatable, Sendable {
    var presses: [String] = []
    var open = false
  }
  enum Input: Sendable { case press(String), chimed }
  typealias Output = Never

  let chime: ExploredCall<String, Int, CancellationError>

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .press(let button):
      state.presses = Array((state.presses + [button]).suffix(4))
      let chime = self.chime
      return .run(id: "chime") { send in if (try? await chime(button)) != nil { send(.chimed) } }
    case .chimed:
      if state.presses == ["c", "a", "b", "c"] { state.open = true }
      return .none
    }
  }
}

@Suite("Exploration: seeded search", .testBubble)
struct ExplorationSearchTests {
  static let exploration = Exploration<ComboLock>(inputs: .alphabet([.press("a"), .press("b"), .press("c")], count: 6))
  { world in
    let chime = world.call("chime", answers: { (_: String) in [.success(1)] }, whenCancelled: CancellationError())
    return (ComboLock(chime: chime), .init())
  }
  .invariant("the lock stays shut") { !$0.state.open }

  @Test(
    "Past maxExecutions: breadth first stops short; a seeded search finds the bug, shrinks it, and its token replays it"
  )
  func searchFindsWhatTheBudgetCannot() async throws {
    var bounded = Self.exploration
    bounded.maxExecutions = 300
    let breadth = await bounded.explore()
    #expect(breadth.failure == nil && !breadth.exhaustive, "\(breadth)")
    for schedule in [Exploration<ComboLock>.Schedule.random, .pct(changePoints: 2)] {
      let report = await bounded.search(schedule, seed: 7, runs: 300)
      let failure = try #require(report.failure, "\(schedule): \(report)")
      #expect(report.executions <= 300 && !report.exhaustive)
      // Shrunk: the four presses, each chime answered before the next press
      // moves on (one answer is enough: an earlier chime is superseded).
      #expect(failure.steps.count <= 8, "\(failure.timeline)")
      #expect(failure.steps.suffix(2).map(\.description) == [#"send press("c")"#, #"answer chime("c") with #0"#])
      #expect(try await bounded.replay(token: failure.token).brokenInvariant != nil)
      // The same seed finds the same failure.
      let again = await bounded.search(schedule, seed: 7, runs: 300)
      #expect(again.failure?.token == failure.token)
    }
  }

  @Test("Shrinking removes every event the failure does not need")
  func shrinkingIsOneMinimal() async throws {
    let report = await Self.exploration.search(.random, seed: 3, runs: 2_000)
    let failure = try #require(report.failure, "\(report)")
    // No single step can be removed with the lock still opening.
    for index in failure.steps.indices {
      var fewer = failure.steps
      fewer.remove(at: index)
      let replayed = await Self.exploration.replay(fewer)
      #expect(replayed.brokenInvariant == nil || replayed.brokenInvariant!.contains("could not happen"), "\(index)")
    }
  }

  @Test("A line that is not a token is a typed error")
  func malformedToken() async {
    await #expect(throws: ExplorationTokenError.malformed("0.1.x")) {
      try await Self.exploration.replay(token: "0.1.x")
    }
    await #expect(throws: ExplorationTokenError.malformed("amvx1:0.-1")) {
      try await Self.exploration.replay(token: "amvx1:0.-1")
    }
  }
}

@Suite("Exploration: outside a test bubble")
struct ExplorationOutsideABubbleTests {
  @Test("explore(), search, replay(_:) and replay(token:) make their own bubble, as Marble and FeatureTimeline do")
  func makesItsOwnBubble() async throws {
    #expect(!TestBubble.isActive)
    let broken = ExplorationTests.reminder(cancelsTimer: false)
    let report = await broken.explore()
    let failure = try #require(report.failure)
    #expect(report.executions > 1)
    let searched = await broken.search(seed: 7, runs: 20)
    #expect(searched.failure != nil)
    #expect(await broken.replay(failure.steps).brokenInvariant?.contains("a dismissed reminder never fires") == true)
    #expect(
      try await broken.replay(token: failure.token).brokenInvariant?.contains("a dismissed reminder never fires")
        == true)
  }
}

/// A poll that ticks three times, then gives up: its loop counter is the
/// run's own, never in the state.
struct RetryingPoller: StateMachine {
  struct State: Equatable, Sendable {
    var isLoading = false
    var gaveUp = false
  }
  enum Input: Sendable { case load, tick, gaveUp }
  typealias Output = Never

  let clock: TestClock

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .load:
      state.isLoading = true
      let clock = self.clock
      return .run(id: "poll") { send in
        for _ in 0..<3 {
          guard (try? await clock.sleep(for: .seconds(1))) != nil else { return }
          send(.tick)
        }
        send(.gaveUp)
      }
    case .tick:
      return .none
    case .gaveUp:
      state.isLoading = false
      state.gaveUp = true
      return .none
    }
  }
}

/// An alert is a class: `String(reflecting:)` shows its type's name only.
final class Alert: Sendable {
  let message: String
  init(message: String) { self.message = message }
}

/// Shows an alert for each warning.
struct Warner: StateMachine {
  struct State: Equatable, Sendable {}
  enum Input: Sendable { case warn(String) }
  enum Output: Sendable { case alert(Alert) }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .warn(let message): .emit(.alert(Alert(message: message)))
    }
  }
}

@Suite("Exploration: a merge never hides what differs (issue #61, item 4)", .testBubble)
struct ExplorationMergeKeyTests {
  static func poller() -> Exploration<RetryingPoller> {
    Exploration<RetryingPoller>(inputs: .script([.load])) { world in
      (RetryingPoller(clock: world.clock), .init())
    }
  }

  @Test("A run's own loop is not merged away: what happens after its third tick is reached")
  func runProgressIsInTheKey() async throws {
    let report = await Self.poller().invariant("the poll never gives up") { !$0.state.gaveUp }.explore()
    let failure = try #require(report.failure, "\(report)")
    #expect(
      failure.steps.map(\.description) == [
        "send load", "advance time to the next deadline", "advance time to the next deadline",
        "advance time to the next deadline",
      ])
  }

  @Test("A poll that always stops is not a livelock, in explore() and in search")
  func noFalseLivelock() async {
    let exploration = Self.poller().eventually("the spinner stops") { !$0.state.isLoading }
    let explored = await exploration.explore()
    #expect(explored.failure == nil && explored.exhaustive, "\(explored)")
    let searched = await exploration.search(seed: 3, runs: 30)
    #expect(searched.failure == nil, "\(searched)")
  }

  @Test("Coverage reaches the transition and the run end that come after the loop")
  func coverageAfterTheLoop() async throws {
    let report = await Self.poller()
      .coverage(
        states: ["idle", "loading", "gaveUp"],
        of: { $0.gaveUp ? "gaveUp" : $0.isLoading ? "loading" : "idle" }, inputs: ["load", "tick", "gaveUp"]
      )
      .explore()
    let coverage = try #require(report.coverage)
    #expect(coverage.transitions.first { $0.name == "loading × gaveUp" }?.reached == true, "\(coverage)")
    #expect(coverage.runOutcomes.first { $0.name == "run poll ended" }?.reached == true, "\(coverage)")
  }

  @Test("Outputs carrying classes are compared by their contents: two different alerts are two states")
  func classPayloadsAreCompared() async throws {
    let report = await Exploration<Warner>(inputs: .alphabet([.warn("a"), .warn("b")], count: 2)) { _ in
      (Warner(), .init())
    }
    .reading(.none)
    .invariant("never two alerts saying b") { observation in
      observation.outputs.filter { if case .alert(let alert) = $0 { alert.message == "b" } else { false } }.count < 2
    }
    .explore()
    let failure = try #require(report.failure, "\(report)")
    #expect(failure.steps.map(\.description) == ["send warn(\"b\")", "send warn(\"b\")"])
  }
}
