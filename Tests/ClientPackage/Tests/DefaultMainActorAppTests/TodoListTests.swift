import ActorMVVM
import ActorMVVMTesting
import Testing

@testable import DefaultMainActorApp

// A main-actor service (`TodoStore`) called from effects, tested on virtual
// time from main-actor tests, as an Xcode 26 team's would be: the bubble
// waits for what the effects queue on the main actor, so the refresh has
// landed before the delete at tick 3 and the diagram is the same every run.

@Suite(.testBubble) struct TodoListTests {
  @Test func theTimelineWaitsForTheMainActorStore() async {
    #expect(await TodoTimeline.run() == TodoTimeline.expected)
  }

  @Test func theTesterReceivesWhatTheMainActorStoreAnswered() async {
    await TodoTimeline.testerSteps()
  }
}
