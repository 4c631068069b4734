import ActorMVVM
import ActorMVVMTesting
import ActorMVVMUI
import SearchScreen
import Testing

// Each test in a test bubble: its clock's waits count its own work only (on an
// Apple build, the only job count there is), and it fails if it leaves a task blocked.
@MainActor
@Suite(.timeLimit(.minutes(1)), .testBubble) struct SearchScreenTests {
  @Test func typingDebouncesAndTheLatestQueryWins() async throws {
    let clock = TestClock()
    let feature = Feature(Search(clock: clock, search: { [$0 + "!"] }), initialState: .init())
    let screen = SearchScreen(feature: feature)
    screen.queryField.wrappedValue = "se"
    screen.queryField.wrappedValue = "seoul"  // supersedes "se" before its debounce ends
    await clock.waitForSleepers(1)  // the debounce of "seoul" (that of "se" was cancelled)
    await screen.model.caughtUp()
    #expect(screen.text == "Loading...")
    await clock.advance(by: .milliseconds(300), expectingSleepers: 1)
    try await screen.model.settled()
    #expect(screen.text == "seoul!")
    screen.model.send(.resultTapped("seoul!"))
    try await screen.model.settled()
    #expect(screen.opened == ["seoul!"])
    await feature.finish()
  }

  @Test func theClockKnowsIdleInTheBubble() {
    // The suite's trait puts each test in a bubble: the one job count there is.
    #expect(TestBubble.isActive)
  }

  @Test func aTypedErrorIsShown() async throws {
    let clock = TestClock()
    let feature = Feature(
      Search(clock: clock, search: { _ throws(SearchError) in throw .server(status: 500) }), initialState: .init())
    let screen = SearchScreen(feature: feature)
    screen.queryField.wrappedValue = "x"
    await clock.advance(by: .milliseconds(300), expectingSleepers: 1)
    try await screen.model.settled()
    #expect(screen.text == "Error: server(status: 500)")
    await feature.finish()
  }

  @Test func theMachineStepByStep() async throws {
    let clock = TestClock()
    let tester = FeatureTester(Search(clock: clock, search: { [$0] }), initialState: .init(), clock: clock)
    await tester.send(.queryChanged("a")) {
      $0.query = "a"
      $0.isLoading = true
    }
    await clock.advance(by: .milliseconds(300), expectingSleepers: 1)
    await tester.receive(.loaded(["a"])) {
      $0.results = ["a"]
      $0.isLoading = false
    }
    await tester.finish()
  }
}
