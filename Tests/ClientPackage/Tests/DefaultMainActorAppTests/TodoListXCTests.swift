import ActorMVVM
import ActorMVVMTesting
import XCTest

@testable import DefaultMainActorApp

// An XCTest file as an Xcode 26 team writes one: no `import Testing`, and
// the tools' failures land at these lines (their source-location defaults
// are plain literals, not Swift Testing's macro).

/// The timeline both frameworks check: refresh at 0 (answered at 1), delete
/// the first title at 3, the second at 5.
enum TodoTimeline {
  static func run() async -> [String: String] {
    let store = TodoStore(titles: ["a", "b", "c"])
    return await FeatureTimeline.run(
      inputs: ["taps": "r--d-e"],
      values: ["r": TodoList.Input.refresh, "d": .delete(0), "e": .delete(0)],
      feature: { clock in Feature(TodoList(store: store, clock: clock), initialState: .init()) },
      bind: { feature, inputs in feature.bind(inputs["taps"], to: { $0 }) },
      record: [
        "titles": { $0.titles.isEmpty ? "0" : "\($0.titles.count)" },
        "missed": { $0.missed.isEmpty ? "n" : "m" },
      ])
  }

  static let expected = ["titles": "03-2-1", "missed": "n"]

  /// The tester's steps both frameworks run: the refresh lands after the
  /// store (on the main actor) answered, then a delete.
  static func testerSteps() async {
    let clock = TestClock()
    let store = TodoStore(titles: ["a", "b"])
    let tester = FeatureTester(TodoList(store: store, clock: clock), initialState: .init(), clock: clock)
    await tester.send(.refresh) { $0.isLoading = true }
    await clock.advance(by: .milliseconds(100))
    await tester.receive(.loaded(["a", "b"])) {
      $0.isLoading = false
      $0.titles = ["a", "b"]
    }
    await tester.send(.delete(0))
    await tester.receive(.deleted(["b"])) { $0.titles = ["b"] }
    await tester.finish()
  }
}

// XCTest's initialisers are nonisolated: the case is too, its tests on the main actor.
nonisolated final class TodoListXCTests: XCTestCase {
  @MainActor func testTheTimelineWaitsForTheMainActorStore() async {
    let diagrams = await TodoTimeline.run()
    XCTAssertEqual(diagrams, TodoTimeline.expected)
  }

  @MainActor func testTheTesterReceivesWhatTheMainActorStoreAnswered() async {
    await withTestBubble { await TodoTimeline.testerSteps() }
  }
}
