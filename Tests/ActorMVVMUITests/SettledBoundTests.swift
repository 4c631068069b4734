import ActorMVVM
import ActorMVVMTesting
import ActorMVVMUI
import Testing

/// A feed that never ends on its own — a live query, waiting for the next
/// change on a clock nobody advances — beside one that does.
struct LiveFeed: StateMachine {
  let gate: TestGate
  var clock = TestClock()
  struct State: Equatable, Sendable {
    var posts: [String] = []
    var isLoading = false
  }
  enum Input: Sendable {
    case appeared
    case received([String])
    case stopped
    case loadOnce
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .appeared:
      let clock = self.clock
      return .run(id: "posts") { send in
        send(.received(["first"]))
        // A live query: waits for the next change, which never comes.
        try? await clock.sleep(for: .seconds(3600))
      }
    case .received(let posts):
      state.posts = posts
      state.isLoading = false
      return .none
    case .stopped:
      return .cancel(id: "posts")
    case .loadOnce:
      state.isLoading = true
      let gate = self.gate
      return .run(id: "once") { send in
        await gate.wait()
        send(.received(["once"]))
      }
    }
  }
}

/// `settled()` never hangs and never passes silently (issue #33, item 1).
@MainActor
@Suite struct SettledBoundTests {
  @Test("An effect that never ends makes settled() throw within its bound, naming the effect")
  func neverEndingEffectIsNamed() async throws {
    let feature = Feature(LiveFeed(gate: TestGate()), initialState: .init())
    let model = FeatureModel(feature)
    model.send(.appeared)
    let error = await #expect(throws: FeatureBusy.self) {
      try await model.settled(timeout: .milliseconds(20))
    }
    #expect(error?.feature == "LiveFeed")
    #expect(error?.runningEffects == ["posts"])
    #expect(error?.description.contains("caughtUp()") == true)
    // caughtUp() is the wait for a live query: the first page is shown.
    await model.caughtUp()
    #expect(model.posts == ["first"])
    // Once the query is cancelled, settled() returns.
    model.send(.stopped)
    try await model.settled(timeout: .seconds(60))
    await feature.finish()
  }

  @Test("settled() returns as soon as the effects end, long before its bound")
  func returnsWhenEffectsEnd() async throws {
    let gate = TestGate()
    let feature = Feature(LiveFeed(gate: gate), initialState: .init())
    let model = FeatureModel(feature)
    model.send(.loadOnce)
    await model.caughtUp()
    #expect(model.isLoading)
    gate.open()
    // An hour: only the effect's end can return it within the test's time limit.
    try await model.settled(timeout: .seconds(3600))
    #expect(model.posts == ["once"])
    #expect(!model.isLoading)
    await feature.finish()
  }

  @Test("A cancelled settled() returns without throwing", .timeLimit(.minutes(1)))
  func cancelledWaitReturns() async throws {
    let feature = Feature(LiveFeed(gate: TestGate()), initialState: .init())
    let model = FeatureModel(feature)
    model.send(.appeared)
    await model.caughtUp()
    let waiting = Task { @MainActor in
      // An hour: only the cancellation can end it within the time limit.
      try await model.settled(timeout: .seconds(3600))
    }
    waiting.cancel()
    try await waiting.value
    await feature.finish()
  }

  @Test("Feature.idle(timeout:) names a cancelled effect that has not returned yet")
  func windingDownEffectIsCounted() async throws {
    struct Stubborn: StateMachine {
      let gate: TestGate
      typealias State = Int
      func reduce(into state: inout Int, _ input: Int) -> Effect<Int, Never> {
        let gate = self.gate
        return input == 0
          ? .run(id: "stubborn") { _ in await gate.wait() }  // ignores cancellation
          : .cancel(id: "stubborn")
      }
    }
    let gate = TestGate()
    let feature = Feature(Stubborn(gate: gate), initialState: 0)
    feature.send(0)
    await feature.flush()  // the run starts at the end of the batch that asked for it
    feature.send(1)
    let error = await #expect(throws: FeatureBusy.self) {
      try await feature.idle(timeout: .milliseconds(20))
    }
    #expect(error?.runningEffects == ["1 cancelled effect(s) not yet returned"])
    gate.open()
    try await feature.idle(timeout: .seconds(3600))
    await feature.finish()
  }

  @Test("The deadline racing the effect's end: idle(timeout: .zero) returns or throws, never hangs")
  func deadlineRacesTheEnd() async throws {
    var returned = 0
    var threw = 0
    for _ in 0..<1_000 {
      let gate = TestGate()
      let feature = Feature(LiveFeed(gate: gate), initialState: .init())
      feature.send(.loadOnce)
      async let opened: Void = gate.open()
      do {
        try await feature.idle(timeout: .zero)
        returned += 1
      } catch {
        #expect(error.runningEffects == ["once"])
        threw += 1
      }
      await opened
      try await feature.idle(timeout: .seconds(3600))
      #expect(await feature.state.posts == ["once"])
      await feature.finish()
    }
    #expect(returned + threw == 1_000)
  }
}

/// A machine that emits 1…n for input n, in one transition.
struct Burst: StateMachine {
  typealias State = Int
  func reduce(into state: inout Int, _ input: Int) -> Effect<Int, Int> {
    state += 1
    return .merge((1...input).map { .emit($0) })
  }
}

@MainActor
@Suite("settled() over bounded outputs (issue #47)", .testBubble)
struct LossyOutputSettledTests {
  @Test("settled() returns once the model has delivered what the bound kept", .timeLimit(.minutes(1)))
  func settlesAfterABurst() async throws {
    let feature = Feature(Burst(), initialState: 0, outputBuffering: .bufferingNewest(1))
    var delivered: [Int] = []
    let model = FeatureModel(feature) { delivered.append($0) }  // subscribed; not started
    // A burst while the model has not started reading: the bound keeps the newest.
    feature.send(5)
    await feature.flush()
    try await model.settled(timeout: .seconds(1))
    #expect(delivered == [5])
    #expect(model.state == 1)
    model.send(2)
    try await model.settled(timeout: .seconds(1))
    #expect(delivered.suffix(1) == [2])
    await feature.finish()
    try await model.settled(timeout: .seconds(1))
  }
}

@Suite("Feature.idle() returns when its task is cancelled")
struct IdleCancellationTests {
  @Test("A cancelled idle() returns though an effect never ends", .timeLimit(.minutes(1)))
  func cancelledIdleReturns() async {
    let feature = Feature(LiveFeed(gate: TestGate()), initialState: .init())
    feature.send(.appeared)
    await feature.flush()
    let waiting = Task { await feature.idle() }
    waiting.cancel()
    await waiting.value
    #expect(await feature.runningEffectCount == 1, "the effect still runs: idle returned because it was cancelled")
    await feature.finish()
  }
}

/// TestingAFeature's `caughtUp()` example: the live query's first page is
/// reduced by the time the bubble is idle; `caughtUp()` then shows it.
@MainActor
@Suite("caughtUp() after a live query's first page (the article's example)", .testBubble)
struct CaughtUpExampleTests {
  @Test("The first page is shown on every run")
  func firstPageShown() async {
    let clock = TestClock()
    let feature = Feature(LiveFeed(gate: TestGate(), clock: clock), initialState: .init())
    let model = FeatureModel(feature)
    model.send(.appeared)  // starts a live query that never ends
    await clock.settle()  // in a test bubble: its first page has been reduced
    await model.caughtUp()
    #expect(model.posts == ["first"])
    await feature.finish()
  }
}
