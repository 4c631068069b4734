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
    let builds = Locked(0)
    let exploration = Exploration<ExploredLoader>(inputs: .script([.load])) { world in
      // The second execution (the path `send load`) is the one cancelled, as it begins.
      if builds.withLock({
        $0 += 1; return $0
      }) == 2 {
        withUnsafeCurrentTask { $0?.cancel() }
      }
      let fetch = world.call("fetch", answers: { (_: Int) in [.success(1)] }, whenCancelled: CancellationError())
      return (ExploredLoader(fetch: fetch), .init())
    }
    .whenSettled("loading ends once nothing is in flight") { !$0.state.isLoading }
    let report = await exploration.explore()
    #expect(!report.exhaustive)
    #expect(report.failure == nil, "\(report)")
    #expect(report.executions == 1)  // the empty path; the interrupted one is not counted
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
  @Test(
    "Two orders that differ only in when an output came are not merged under the default history: the order that breaks an invariant reading inputsBeforeOutput is found"
  )
  func stampsAreHistory() async throws {
    let exploration = Exploration<Composer>(inputs: .script([.sendTapped, .archiveTapped, .typed("x")])) { world in
      let post = world.call("post", answers: { (_: Int) in [.success(1)] }, whenCancelled: CancellationError())
      return (Composer(post: post), .init())
    }
    .invariant("once everything is sent, the post came after the archive") {
      $0.inputs.count < 3 || ($0.inputsBeforeOutput.first ?? 2) >= 2
    }
    let report = await exploration.explore()
    let failure = try #require(report.failure, "\(report)")
    #expect(
      failure.steps.map(\.description) == [
        "send sendTapped", "answer post(1) with #0", "send archiveTapped", #"send typed("x")"#,
      ])
    #expect(await exploration.replay(failure.steps).brokenInvariant != nil)
  }
}
