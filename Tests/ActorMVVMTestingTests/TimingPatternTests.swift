import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

// The patterns of the articles "Timing inputs" and "Testing a feature",
// compiled and run here (their snippets are copies of this file).

/// Debounce, then decide: the debounce's sleep feeds the settled query back
/// as an input, and `reduce` decides — a query equal to the last one
/// searched starts nothing (Rx's `debounce` then `distinctUntilChanged`).
struct SettlingSearch: StateMachine {
  let clock: any Clock<Duration>
  let search: @Sendable (String) async -> [String]

  struct State: Equatable, Sendable {
    var query = ""
    var searched: String?
    var results: [String] = []
  }
  enum Input: Equatable, Sendable {
    case queryChanged(String)
    case querySettled(String)
    case resultsLoaded([String])
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let (clock, search) = (self.clock, self.search)
    switch input {
    case .queryChanged(let query):
      state.query = query
      return .run(id: "debounce") { send in
        guard (try? await clock.sleep(for: .milliseconds(300))) != nil else { return }  // a newer query came in
        send(.querySettled(query))
      }
    case .querySettled(let query):
      guard query != state.searched else { return .none }  // the decision: repeats start nothing
      state.searched = query
      return .run(id: "search") { send in send(.resultsLoaded(await search(query))) }
    case .resultsLoaded(let results):
      state.results = results
      return .none
    }
  }
}

/// Fire-and-forget: the feature reports to analytics, a dependency it was
/// given, in a run whose result it does not need.
struct Checkout: StateMachine {
  let track: @Sendable (String) async -> Void

  struct State: Equatable, Sendable { var isPaid = false }
  enum Input: Equatable, Sendable { case payTapped }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    state.isPaid = true
    let track = self.track
    return .run { _ in await track("checkout.paid") }  // nothing is fed back
  }
}

/// What a test's analytics stub saw.
final class Tracked: Sendable {
  private let events = Locked<[String]>([])
  var all: [String] { events.withLock { $0 } }
  func track(_ event: String) { events.withLock { $0.append(event) } }
}

@Suite("Timing and fire-and-forget patterns (issue #47)", .testBubble)
struct TimingPatternTests {
  @Test("Debounce, then decide: a query that settles back on the last one searched starts nothing")
  func debounceThenDecide() async {
    let clock = TestClock()
    let tester = FeatureTester(
      SettlingSearch(clock: clock, search: { [$0.uppercased()] }), initialState: .init(), clock: clock)
    await tester.send(.queryChanged("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(300), expectingSleepers: 1)
    await tester.receive(.querySettled("a")) { $0.searched = "a" }
    await tester.receive(.resultsLoaded(["A"])) { $0.results = ["A"] }
    await tester.send(.queryChanged("ab")) { $0.query = "ab" }
    await tester.send(.queryChanged("a")) { $0.query = "a" }  // back before the debounce ends
    await clock.advance(by: .milliseconds(300), expectingSleepers: 1)
    await tester.receive(.querySettled("a"))  // decided: the same query, no search
    await tester.finish()
  }

  @Test("Fire-and-forget: the run has started when send returns; settle() waits for it to end")
  func fireAndForget() async {
    let tracked = Tracked()
    let tester = FeatureTester(Checkout(track: { tracked.track($0) }), initialState: .init())
    await tester.send(.payTapped) { $0.isPaid = true }
    await tester.settle()  // the run has ended: what it reported is all there
    #expect(tracked.all == ["checkout.paid"])
    await tester.finish()
  }
}
