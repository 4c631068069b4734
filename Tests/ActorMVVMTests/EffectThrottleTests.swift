import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// The example of the "Timing inputs" article: pull to refresh, at most one
/// refresh every two seconds.
struct Headlines: StateMachine {
  let clock: any Clock<Duration>
  let latestHeadlines: @Sendable () async -> [String]

  struct State: Equatable, Sendable {
    var headlines: [String] = []
    var refreshes = 0
  }
  enum Input: Sendable, Equatable { case refreshPulled, refreshed([String]) }
  typealias Output = Never
  enum CancelID: Hashable, Sendable { case refresh }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .refreshPulled:
      let latestHeadlines = self.latestHeadlines
      return .throttle(id: CancelID.refresh, for: .seconds(2), clock: clock) { send in
        send(.refreshed(await latestHeadlines()))
      }
    case .refreshed(let headlines):
      state.headlines = headlines
      state.refreshes += 1
      return .none
    }
  }
}

@Suite("Effect.throttle: a run admitted at most once per interval, for inputs handled in reduce", .testBubble)
struct EffectThrottleTests {
  @Test("Timing inputs article: the first pull refreshes at once, the last of a burst when the window closes")
  func articleExample() async {
    // Timing inputs snippet begins
    let clock = TestClock()
    let tester = FeatureTester(
      Headlines(clock: clock, latestHeadlines: { ["Rain in Seoul"] }), initialState: .init(), clock: clock)
    await tester.send(.refreshPulled)  // no window open: the refresh starts now
    await tester.receive(.refreshed(["Rain in Seoul"])) {
      $0.headlines = ["Rain in Seoul"]
      $0.refreshes = 1
    }
    await clock.advance(by: .milliseconds(500))
    await tester.send(.refreshPulled)  // inside the window: held for its end
    await tester.send(.refreshPulled)  // replaces the held one
    await clock.advance(by: .milliseconds(1500))  // the window closes: the held refresh starts
    await tester.receive(.refreshed(["Rain in Seoul"])) { $0.refreshes = 2 }
    await tester.finish()
    // Timing inputs snippet ends
  }

  /// A machine that emits each arrival its throttle admits, for Rx's vectors.
  struct Emitter: StateMachine {
    let clock: TestClock
    let latest: Bool
    struct State: Equatable, Sendable {}
    enum Input: Sendable { case arrived(String), admitted(String) }
    enum Output: Sendable { case sent(String) }

    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
      switch input {
      case .arrived(let value):
        .throttle(id: "xs", for: .milliseconds(200), clock: clock, latest: latest) { send in send(.admitted(value)) }
      case .admitted(let value): .emit(.sent(value))
      }
    }
  }

  func outputs(latest: Bool) async -> String? {
    let input = rxDiagram([(210, "2"), (250, "3"), (310, "4"), (350, "5"), (410, "6"), (450, "7")], unit: 10)
    let timelines = await FeatureTimeline.run(
      inputs: ["xs": input], values: Dictionary(uniqueKeysWithValues: (2...7).map { ("\($0)", "\($0)") }),
      tick: .milliseconds(10), extraTicks: 30,
      feature: { Feature(Emitter(clock: $0, latest: latest), initialState: .init()) },
      bind: { feature, inputs in feature.bind(inputs["xs"], to: Emitter.Input.arrived) },
      record: [:], output: { if case .sent(let value) = $0 { value } else { "?" } })
    return timelines["outputs"]
  }

  @Test(
    "test_ThrottleTimeSpan_Completed (latest): 2 at 210, 6 at 410 (the arrival at the window's close goes at once), 7 at 610"
  )
  func rxLatest() async {
    #expect(await outputs(latest: true) == rxDiagram([(210, "2"), (410, "6"), (610, "7")], unit: 10))
  }

  @Test("test_ThrottleTimeSpan_NotLatest_Completed: 2 at 210, 6 at 410")
  func rxNotLatest() async {
    #expect(await outputs(latest: false) == rxDiagram([(210, "2"), (410, "6")], unit: 10))
  }

  @Test("cancel(id:) forgets the window and cancels the held run: the next pull refreshes at once")
  func cancelForgetsTheWindow() async {
    struct Machine: StateMachine {
      let clock: TestClock
      struct State: Equatable, Sendable { var refreshes = 0 }
      enum Input: Sendable, Equatable { case pulled, reset, refreshed }
      typealias Output = Never
      func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
        switch input {
        case .pulled: return .throttle(id: "refresh", for: .seconds(2), clock: clock) { send in send(.refreshed) }
        case .reset: return .cancel(id: "refresh")
        case .refreshed:
          state.refreshes += 1
          return .none
        }
      }
    }
    let clock = TestClock()
    let tester = FeatureTester(Machine(clock: clock), initialState: .init(), clock: clock)
    await tester.send(.pulled)
    await tester.receive(.refreshed) { $0.refreshes = 1 }
    await tester.send(.pulled)  // held
    await tester.send(.reset)  // the held run is cancelled, the window forgotten
    await clock.advance(by: .seconds(3))  // nothing is received: the held run never starts
    await tester.send(.pulled)
    await tester.receive(.refreshed) { $0.refreshes = 2 }
    await tester.finish()
  }

  @Test("finish() cancels a held run: its work never starts")
  func finishCancelsTheHeldRun() async {
    let clock = TestClock()
    let started = TestCounter()
    let feature = Feature(
      Headlines(
        clock: clock,
        latestHeadlines: {
          started.increment()
          return []
        }), initialState: .init())
    feature.send(.refreshPulled)
    feature.send(.refreshPulled)
    await clock.settle()
    #expect(started.value == 1)
    await feature.finish()
    await clock.advance(by: .seconds(5))
    #expect(started.value == 1)
  }
}

/// Two scopes of one throttling child: each scope has a window of its own.
struct TwoRefreshers: StateMachine {
  struct Child: StateMachine {
    let clock: TestClock
    struct State: Equatable, Sendable { var refreshes = 0 }
    enum Input: Sendable, Equatable { case pulled, refreshed }
    typealias Output = Never
    func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
      switch input {
      case .pulled: return .throttle(id: "refresh", for: .seconds(2), clock: clock, latest: false) { $0(.refreshed) }
      case .refreshed:
        state.refreshes += 1
        return .none
      }
    }
  }
  struct State: Equatable, Sendable {
    var left = Child.State()
    var right = Child.State()
  }
  enum Input: Sendable, Equatable { case left(Child.Input), right(Child.Input) }
  typealias Output = Never
  let clock: TestClock

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let left = Scope<State, Input, Never, Child>(
      Child(clock: clock), state: \State.left, input: { if case .left(let input) = $0 { input } else { nil } },
      embed: Input.left)
    let right = Scope<State, Input, Never, Child>(
      Child(clock: clock), state: \State.right, input: { if case .right(let input) = $0 { input } else { nil } },
      embed: Input.right)
    return left.reduce(into: &state, input) ?? right.reduce(into: &state, input) ?? .none
  }
}

@Test("Effect.throttle under Scope: a child's window is its scope's own; the other scope's pull is not dropped")
func scopedThrottleWindows() async {
  let clock = TestClock()
  let tester = FeatureTester(TwoRefreshers(clock: clock), initialState: .init(), clock: clock)
  await tester.send(.left(.pulled))
  await tester.receive(.left(.refreshed)) { $0.left.refreshes = 1 }
  await tester.send(.right(.pulled))  // the same id, another scope: its own window
  await tester.receive(.right(.refreshed)) { $0.right.refreshes = 1 }
  await tester.send(.left(.pulled))  // inside the left window: dropped
  await tester.finish()
}

/// A throttled machine whose runs report the instant they started, and may
/// hold their answer until a gate opens.
struct StampedThrottle: StateMachine {
  let clock: TestClock
  let answerGate: TestGate
  struct State: Equatable, Sendable {
    var started: [String] = []
    var answers: [String] = []
  }
  enum Input: Sendable, Equatable { case arrived(String), started(String), answered(String), reset }
  typealias Output = Never
  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .arrived(let name):
      let (clock, gate) = (self.clock, answerGate)
      return .throttle(id: "xs", for: .seconds(10), clock: clock) { send in
        let seconds = clock.now.offset.components.seconds
        send(.started("\(name)@\(seconds)"))
        await gate.wait()
        send(.answered(name))
      }
    case .started(let stamp):
      state.started.append(stamp)
      return .none
    case .answered(let name):
      state.answers.append(name)
      return .none
    case .reset: return .cancel(id: "xs")
    }
  }
}

@Suite("Effect.throttle knows when its held run started", .testBubble)
struct EffectThrottleHeldStartTests {
  @Test("An arrival at the instant the held run started opens nothing: a@0, b@10, c@20 (RxSwift's lastSentTime)")
  func arrivalAtTheHeldRunsStart() async {
    let clock = TestClock()
    let gate = TestGate()
    gate.open()
    let feature = Feature(StampedThrottle(clock: clock, answerGate: gate), initialState: .init())
    feature.send(.arrived("a"))
    await clock.advance(to: .init(offset: .seconds(5)))
    feature.send(.arrived("b"))  // held for 10
    await clock.advance(to: .init(offset: .seconds(10)))  // b starts; the instant is over
    feature.send(.arrived("c"))  // inside b's window: held for 20
    await clock.advance(to: .init(offset: .seconds(20)))
    await feature.idle()
    #expect(await feature.state.started == ["a@0", "b@10", "c@20"])
    await feature.finish()
  }

  @Test("cancel(id:) after the held run started leaves it alone: its answer is kept")
  func cancelLeavesAStartedRun() async {
    let clock = TestClock()
    let gate = TestGate()
    let feature = Feature(StampedThrottle(clock: clock, answerGate: gate), initialState: .init())
    feature.send(.arrived("a"))
    await clock.advance(to: .init(offset: .seconds(5)))
    feature.send(.arrived("b"))  // held for 10
    await clock.advance(to: .init(offset: .seconds(10)))  // b starts and waits for its answer
    feature.send(.reset)  // b has started: not cancelled
    await clock.settle()
    gate.open()
    await feature.idle()
    #expect(await feature.state.answers.sorted() == ["a", "b"])
    #expect(await feature.state.started == ["a@0", "b@10"])
    await feature.finish()
  }
}
