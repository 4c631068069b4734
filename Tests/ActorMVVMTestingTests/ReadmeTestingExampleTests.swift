import ActorMVVM
import ActorMVVMOperators
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

// The README's "Testing a feature" snippets, compiled and run so they stay true.

/// A search screen: a query is debounced 300 ms (a newer query cancels the
/// pending search), then searched; the latest query wins.
struct Search: StateMachine {
  let clock: any Clock<Duration>
  let search: @Sendable (String) async throws -> [String]

  struct State: Equatable, Sendable {
    var query = ""
    var results: [String] = []
    var isLoading = false
  }
  enum Input: Sendable, Equatable { case queryChanged(String), resultsLoaded([String]), searchFailed(String) }
  typealias Output = Never
  enum CancelID: Hashable, Sendable { case search }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .queryChanged(let query):
      state.query = query
      state.isLoading = true
      let (clock, search) = (self.clock, self.search)
      return .run(id: CancelID.search) { send in
        do {
          // Debounce on the injected clock (virtual time in tests): a newer query cancels this run.
          try await clock.sleep(for: .milliseconds(300))
          send(.resultsLoaded(try await search(query)))
        } catch is CancellationError {
        } catch {
          send(.searchFailed("\(error)"))
        }
      }
    case .resultsLoaded(let results):
      state.results = results
      state.isLoading = false
    case .searchFailed:
      state.isLoading = false
    }
    return .none
  }
}

@Test("README: testing a feature with FeatureTester and TestClock", .testBubble)
func readmeTestingExample() async {
  // README snippet begins
  let clock = TestClock()
  let tester = FeatureTester(
    Search(clock: clock, search: { [$0.capitalized] }), initialState: .init(), clock: clock)
  await tester.send(.queryChanged("seoul")) {
    $0.query = "seoul"
    $0.isLoading = true
  }
  await clock.advance(by: .milliseconds(300), expectingSleepers: 1)  // the debounce's sleep ends
  await tester.receive(.resultsLoaded(["Seoul"])) {
    $0.results = ["Seoul"]
    $0.isLoading = false
  }
  await tester.finish()  // fails on anything left unasserted
  // README snippet ends
}

@Test("README: an operator on a marble diagram", .testBubble)
func readmeMarbleExample() async {
  // README snippet begins
  let output = await Marble.run(["taps": "-a-b----c---|"]) { inputs, clock in
    inputs["taps"].debounce(for: .milliseconds(300), clock: clock)
  }
  #expect(output == "------b----c|")  // one character = 100 ms of virtual time
  // README snippet ends
}
