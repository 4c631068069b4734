import ActorMVVM
import ActorMVVMTesting
import ActorMVVMUI
import Testing

@testable import DefaultMainActorApp

/// A fake service: answers from a value it was given.
struct FixedCounterService: CounterService {
  let result: Result<Int, CounterError>
  func load() async throws(CounterError) -> Int { try result.get() }
}

// MainActor by default, as the app's own tests would be in such a project;
// Swift Testing runs them in parallel.
// Each test in a test bubble: its clock's waits count its own work only (on an
// Apple build, the only job count there is), and it fails if it leaves a task blocked.
@Suite(.timeLimit(.minutes(1)), .testBubble) struct CounterTests {
  @Test func theMachineStepByStep() async {
    let tester = FeatureTester(
      Counter(service: FixedCounterService(result: .success(5)), goal: 7), initialState: .init())
    await tester.send(.appeared) { $0.isLoading = true }
    await tester.receive(.loaded(5)) {
      $0.isLoading = false
      $0.count = 5
    }
    await tester.send(.incrementTapped) { $0.count = 6 }
    await tester.send(.incrementTapped) { $0.count = 7 }
    await tester.expectOutput(.reachedGoal(7))
    await tester.finish()
  }

  @Test func theScreenShowsTheLoadedCountAndCelebratesTheGoal() async throws {
    let feature = Feature(
      Counter(service: FixedCounterService(result: .success(1)), goal: 3), initialState: .init())
    let screen = CounterScreen(feature: feature)
    screen.model.send(.appeared)
    try await screen.model.settled()
    #expect(screen.text == "1")
    screen.countField.wrappedValue = 2
    screen.model.send(.incrementTapped)
    try await screen.model.settled()
    #expect(screen.text == "3")
    #expect(screen.celebrated == [3])
    await feature.finish()
  }

  @Test func aTypedErrorIsShown() async throws {
    let feature = Feature(
      Counter(service: FixedCounterService(result: .failure(.offline)), goal: 3), initialState: .init())
    let screen = CounterScreen(feature: feature)
    screen.model.send(.appeared)
    try await screen.model.settled()
    #expect(screen.text == "Error: offline")
    await feature.finish()
  }
}
