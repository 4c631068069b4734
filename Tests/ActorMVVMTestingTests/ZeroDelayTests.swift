import ActorMVVM
import ActorMVVMTesting
import Testing

/// A search whose debounce and request delays are zero, as a port of a
/// `TestScheduler` suite has them: loading while the request is in flight.
private struct ZeroDelaySearch: StateMachine {
  let clock: TestClock
  struct State: Equatable, Sendable {
    var isSearching = false
    var results: [String] = []
  }
  enum Input: Equatable, Sendable {
    case query(String)
    case answered([String])
    case failed
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .query(let text):
      state.isSearching = true
      return .task { [clock] in
        try await clock.sleep(for: .zero)  // the request's delay
        return .answered([text, text + text])
      } catch: { _ in
        .failed
      }
    case .answered(let results):
      state.isSearching = false
      state.results = results
      return .none
    case .failed:
      state.isSearching = false
      return .none
    }
  }
}

@Suite("TestClock: sleeps already due", .testBubble)
struct ZeroDelayTests {
  @Test("waitForAdvance: a zero-delay request is loading, with nothing yet, until advance(by: .zero)")
  func rxTestZeroDelay() async {
    let clock = TestClock(dueNowSleeps: .waitForAdvance)
    let tester = FeatureTester(ZeroDelaySearch(clock: clock), initialState: .init())
    await tester.send(.query("kick")) { $0.isSearching = true }
    #expect(await clock.waitForSleepers(1))
    #expect(await clock.settle())
    #expect(clock.sleeperDeadlines == [clock.now])
    #expect(await tester.state == ZeroDelaySearch.State(isSearching: true, results: []))
    await clock.advance(by: .zero)
    await tester.receive(.answered(["kick", "kickkick"])) {
      $0.isSearching = false
      $0.results = ["kick", "kickkick"]
    }
    #expect(clock.sleeperCount == 0)
    await tester.finish()
  }

  @Test("returnAtOnce (the default): the same request is answered with no advance")
  func defaultZeroDelay() async {
    let clock = TestClock()
    let tester = FeatureTester(ZeroDelaySearch(clock: clock), initialState: .init())
    await tester.send(.query("kick")) { $0.isSearching = true }
    await tester.receive(.answered(["kick", "kickkick"])) {
      $0.isSearching = false
      $0.results = ["kick", "kickkick"]
    }
    #expect(clock.sleeperCount == 0)
    #expect(clock.now == TestClock.Instant())
    await tester.finish()
  }

  @Test("waitForAdvance: a deadline already past waits too, and wakes at the current instant")
  func pastDeadline() async throws {
    let clock = TestClock(dueNowSleeps: .waitForAdvance)
    await clock.advance(by: .seconds(5))
    let woke = TestBubble.task { try await clock.sleep(until: TestClock.Instant(offset: .seconds(2))) }
    #expect(await clock.waitForSleepers(1))
    await clock.advance(by: .zero)
    try await woke.value
    #expect(clock.wakes.map(\.observedAt) == [TestClock.Instant(offset: .seconds(5))])
    #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
  }

  @Test("waitForAdvance: a cancelled sleeper that was due still throws at once")
  func cancelledDueSleeper() async {
    let clock = TestClock(dueNowSleeps: .waitForAdvance)
    let sleeper = TestBubble.task { try await clock.sleep(for: .zero) }
    #expect(await clock.waitForSleepers(1))
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleeperCount == 0)
  }
}
